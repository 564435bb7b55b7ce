#!/usr/bin/env bash
# `make bench-mpi`: LWMPI ping-pong latency and bandwidth (0 B to 4 MiB, local and remote,
# opt and unopt) on the small board, compared with the raw IKC figures of
# benchmarks/ikc.sh (ratio LWMPI / IKC on latency, IKC / LWMPI on bandwidth, for the sizes
# both measure: mailboxes up to 128 B, portals above), then Barrier, Allreduce, Alltoall,
# Bcast and Reduce (blocking, and nonblocking + Wait) at 12 ranks (small) and 192 ranks
# (mppa256). Needs `make BOARD=small` and `make BOARD=mppa256` once. Times follow host
# wall time (see benchmarks/ikc.sh): only meaningful on a quiet host.
#   benchmarks/mpi/bench.sh [pingpong|coll|all]      (default all)
# Environment: HOST_CPUS: host CPUs QEMU is pinned to with taskset for the ping-pongs, as
#              for ikc.sh (default 0, the same as the IKC baseline; "all": not pinned); the
#              collectives are never pinned (192 ranks need every core).
#              ITERS (collective calls timed, default 10).
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
what=${1:-all}
out=build/user/mpiprog
host_cpus=${HOST_CPUS:-0}
pin=()
die() { echo "bench.sh: $*" >&2; exit 2; }
for b in small mppa256; do [ -f "build/$b/nvx.elf" ] || die "board $b not built: run 'make BOARD=$b' first"; done
[ -f "$out/mpi_pingpong.elf" ] || die "missing $out/mpi_pingpong.elf: run 'make' first"
echo "# host: $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg)"

run() {  # board np map program [args...] -> the program's table rows on stdout
    local board=$1 np=$2 map=$3 prog=$4
    shift 4
    local log
    log=$(mktemp /tmp/bench-mpi.XXXXXX)
    if ! "${pin[@]}" scripts/nvx-run --board "$board" -np "$np" --map-by "$map" --timeout 300 "$out/$prog.elf" "$@" \
        </dev/null >"$log" 2>&1; then
        echo "# $prog on $board (-np $np, $map) failed; the end of its log:" >&2
        tail -5 "$log" >&2
    fi
    tr -d '\r' <"$log" | grep -E '^(mpi|coll) '
    rm -f "$log"
}

if [ "$what" = pingpong ] || [ "$what" = all ]; then
    ikc=$(mktemp /tmp/bench-ikc.XXXXXX)
    RUNS=1 TIMEOUT=150 HOST_CPUS=$host_cpus benchmarks/ikc.sh all >"$ikc" 2>/dev/null ||
        echo "# benchmarks/ikc.sh failed: no IKC ratios" >&2
    rows=$(mktemp /tmp/bench-rows.XXXXXX)
    [ "$host_cpus" != all ] && pin=(taskset -c "$host_cpus")
    for variant in opt unopt; do
        suffix=""
        [ $variant = unopt ] && suffix=_unopt
        for map in compact scatter; do run small 2 $map mpi_pingpong$suffix; done
    done | grep -v '^mpi  *variant' >"$rows"
    pin=()
    echo
    echo "## ping-pong (small board; one-way latency = half a round trip; QEMU on host CPUs $host_cpus); IKC: benchmarks/ikc.sh"
    awk '
        FNR == NR { if ($1 == "mailbox" || $1 == "portal") { lat[$1 " " $2 " " $3] = $6; bw[$1 " " $2 " " $3] = $7 } next }
        FNR == 1 { printf "%-7s %-7s %8s %10s %10s %10s %10s %9s %9s\n", "variant", "where", "bytes", "lat_us", "MB/s", "ikc_lat", "ikc_MB/s", "lat_x", "bw_x" }
        $5 == "skipped:" { printf "%-7s %-7s %8s %s\n", $2, $3, $4, "skipped (memory)"; next }
        {
            kind = $4 <= 128 ? "mailbox" : "portal"; b = $4 < 8 && kind == "mailbox" ? 8 : $4
            k = kind " " $3 " " b
            if (k in lat && lat[k] > 0 && $7 > 0)
                printf "%-7s %-7s %8s %10s %10s %10s %10s %9.2f %9.2f\n", $2, $3, $4, $6, $7, lat[k], bw[k], $6 / lat[k], bw[k] / $7
            else
                printf "%-7s %-7s %8s %10s %10s %10s %10s %9s %9s\n", $2, $3, $4, $6, $7, "-", "-", "-", "-"
        }' "$ikc" "$rows"
    rm -f "$ikc" "$rows"
fi

if [ "$what" = coll ] || [ "$what" = all ]; then
    echo
    echo "## collectives (slowest rank's average per call, scatter mapping)"
    printf "%-4s %-7s %6s %-10s %6s %6s %12s\n" coll variant ranks operation bytes iters us_per_call
    for variant in opt unopt; do
        suffix=""
        [ $variant = unopt ] && suffix=_unopt
        run small 12 scatter mpi_coll_bench$suffix "${ITERS:-10}"
        run mppa256 192 scatter mpi_coll_bench$suffix "${ITERS:-10}"
    done | grep -v '^coll  *variant'
fi
