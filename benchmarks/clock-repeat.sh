#!/usr/bin/env bash
# Repeatability and host independence of the virtual clock (issue 9): the IKC
# micro-benchmark (ikc_bench, small) and the all-to-all benchmark with 192 ranks
# (capbench a2a, opt build, mppa256), RUNS times with QEMU on two host cores and RUNS times
# pinned to one (taskset). Prints, per figure, min, max and spread (max - min) / min over
# the runs of each setting and over all of them together; exits non-zero if a spread
# exceeds 1 % within a setting or 2 % across the two.
#   benchmarks/clock-repeat.sh [ikc|a2a|all]      (default all)
# Environment: RUNS (default 5), CPUS_TWO (default 0,1), CPUS_ONE (default 0),
# IKC_SCALE (default 0.5), A2A_RANKS (default 192), KEEP=1 keeps the logs.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
. benchmarks/clock-repeat-lib.sh
runs=${RUNS:-5}
what=${1:-all}
work=$(mktemp -d "${TMPDIR:-/tmp}/nvx-clock-repeat.XXXXXX")
[ "${KEEP:-0}" = 1 ] || trap 'rm -rf "$work"' EXIT
[ -f build/tools/libnvxcount.so ] || { echo "clock-repeat.sh: the clock plugin is not built (make)" >&2; exit 2; }

status=0
sweep() {  # name, extractor, nvx-run arguments...
    local name=$1 extract=$2
    shift 2
    local setting cpus i
    for setting in two one; do
        [ $setting = two ] && cpus=${CPUS_TWO:-0,1} || cpus=${CPUS_ONE:-0}
        for i in $(seq "$runs"); do
            local log=$work/$name.$setting.$i.log
            local start=$(date +%s%N)
            if ! taskset -c "$cpus" scripts/nvx-run "$@" >"$log" 2>&1 </dev/null; then
                echo "clock-repeat.sh: $name run $i on host CPUs $cpus failed; its log:" >&2
                tail -20 "$log" >&2
                exit 1
            fi
            "$extract" "$log" >"$work/$name.$setting.$i.fig"
            echo "# $name, host CPUs $cpus, run $i: $(awk -v s="$start" -v e="$(date +%s%N)" 'BEGIN {printf "%.1f", (e - s) / 1e9}') s"
        done
        echo "## $name: $runs runs on host CPUs $cpus"
        clock_spread 1 "$work/$name.$setting".*.fig || true
        clock_spread 1 "$work/$name.$setting".*.fig | grep -q '^OVER' && status=1
    done
    echo "## $name: all $((2 * runs)) runs, one host core and two"
    clock_spread 2 "$work/$name".*.fig || true
    clock_spread 2 "$work/$name".*.fig | grep -q '^OVER' && status=1
}

echo "# host: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $runs runs per setting"
case $what in
ikc | all) sweep ikc ikc_figures --board small --timeout 300 build/user/ikc_bench.elf all "${IKC_SCALE:-0.5}" ;;&
a2a | all) sweep a2a a2a_figures --board mppa256 --timeout 600 -np "${A2A_RANKS:-192}" --map-by scatter \
                build/user/capbench/a2a_opt.elf ;;
ikc) ;;
*) echo "usage: benchmarks/clock-repeat.sh [ikc|a2a|all]" >&2; exit 2 ;;
esac
[ "${KEEP:-0}" = 1 ] && echo "# logs: $work"
exit $status
