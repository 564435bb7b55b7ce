#!/usr/bin/env bash
# Repeatability and host independence of the virtual clock: the IKC
# micro-benchmark (ikc_bench, small) and the all-to-all benchmark with 192 ranks
# (capbench a2a, opt build, mppa256), RUNS times with QEMU free to use two host cores and
# RUNS times pinned to one (taskset); run i of each setting goes at the same time as the
# other's, so each also runs beside a loaded host. Prints, per figure, min, max and spread
# (max - min) / min over the runs of each setting and over all of them together, and
# whether every run printed the same console output; exits non-zero if a spread exceeds
# LIMIT_ONE % within a setting or LIMIT_ALL % across the two (default 0: under --exec
# deterministic, the default, every figure must repeat exactly; NVX_EXEC=parallel with
# LIMIT_ONE=1 LIMIT_ALL=2 measures the parallel execution against the issue's bounds).
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
limit_one=${LIMIT_ONE:-0}
limit_all=${LIMIT_ALL:-0}
cpus_of() { [ "$1" = two ] && echo "${CPUS_TWO:-0,1}" || echo "${CPUS_ONE:-0}"; }
spread_check() {  # LIMIT FIG...: prints the spreads; a spread over LIMIT fails the sweep
    local out
    out=$(clock_spread "$@")
    echo "$out"
    grep -q '^OVER' <<<"$out" && status=1
    return 0
}
sweep() {  # name, extractor, nvx-run arguments...
    local name=$1 extract=$2
    shift 2
    local setting i pids
    for i in $(seq "$runs"); do
        pids=()
        for setting in two one; do
            (
                start=$(date +%s%N)
                if ! clock_run "$(cpus_of $setting)" "$work/$name.$setting.$i.log" "$extract" "$@"; then
                    echo "clock-repeat.sh: $name run $i on host CPUs $(cpus_of $setting) failed; its log:" >&2
                    tail -20 "$work/$name.$setting.$i.log" >&2
                    exit 1
                fi
                echo "# $name, host CPUs $(cpus_of $setting), run $i: $(awk -v s="$start" -v e="$(date +%s%N)" 'BEGIN {printf "%.1f", (e - s) / 1e9}') s"
            ) &
            pids+=($!)
        done
        for pid in "${pids[@]}"; do wait "$pid" || exit 1; done
    done
    for setting in two one; do
        echo "## $name: $runs runs on host CPUs $(cpus_of $setting)"
        spread_check "$limit_one" "$work/$name.$setting".*.fig
    done
    echo "## $name: all $((2 * runs)) runs, one host core and two"
    spread_check "$limit_all" "$work/$name".*.fig
    local differing
    differing=$(clock_logs_differing "$work/$name".*.log)
    echo "## $name: $((2 * runs - differing)) of $((2 * runs)) console outputs identical to the first run's"
}

echo "# host: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg); $runs runs per setting"
case $what in
ikc | all) sweep ikc ikc_figures --board small --timeout 300 build/user/ikc_bench.elf all "${IKC_SCALE:-0.5}" ;;&
a2a | all) sweep a2a a2a_figures --board mppa256 --timeout 1800 -np "${A2A_RANKS:-192}" --map-by scatter \
                build/user/capbench/a2a_opt.elf ;;
ikc) ;;
*) echo "usage: benchmarks/clock-repeat.sh [ikc|a2a|all]" >&2; exit 2 ;;
esac
[ "${KEEP:-0}" = 1 ] && echo "# logs: $work"
exit $status
