#!/usr/bin/env bash
# IKC benchmark: one-way latency, bandwidth and hardware transfers per message of
# mailboxes and portals, local (two threads of one cluster) and remote (two compute
# clusters), on the small board. Method: benchmarks/ikc_bench.c.
#   benchmarks/ikc.sh [mailbox|portal|all] [local|remote] [scale]     (default: all, 1)
# Needs `make BOARD=small` once; builds build/user/ikc_bench.elf only if it is missing.
# Environment:
#   RUNS       boots of the benchmark (default 3); with more than one, the table shows the
#              median of each latency and bandwidth cell
#   TIMEOUT    seconds for all runs together (default 170), split evenly between runs
#   HOST_CPUS  host CPU list QEMU is pinned to with taskset (default 0); "all": not pinned
#   KEEP_LOG=1 keeps the QEMU logs in /tmp/ikc-bench-run*.log
#   NVX_EXEC   parallel (default here: a host thread per hart, so that the board clock is
#              host wall time) or deterministic (the launcher's default: the virtual
#              figures repeat exactly, the board clock then counts instructions)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
board=small
runs=${RUNS:-3}
budget=${TIMEOUT:-170}
host_cpus=${HOST_CPUS:-0}
program=build/user/ikc_bench.elf
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(all)

die() { echo "ikc.sh: $*" >&2; exit 2; }
[[ "$runs" =~ ^[1-9][0-9]*$ ]] || die "RUNS must be a positive number"
[ -x build/tools/board-info ] && [ -f "build/$board/nvx.elf" ] || die "board $board not built: run 'make BOARD=$board' first"
if [ ! -f "$program" ]; then
    # Works whether or not the top Makefile includes benchmarks/benchmarks.mk (it is guarded).
    make --no-print-directory -f Makefile -f benchmarks/benchmarks.mk BOARD=$board "$program" >&2
fi
eval "$(build/tools/board-info "$board")"
run_timeout=$((budget / runs))
[ "$run_timeout" -ge 5 ] || die "TIMEOUT $budget s is too short for $runs runs"

pin=()
pin_note="not pinned (HOST_CPUS=all)"
if [ "$host_cpus" != all ]; then
    pin=(taskset -c "$host_cpus")
    pin_note="pinned to host CPU $host_cpus (HOST_CPUS=all to unpin)"
fi
cores=$(nproc)
load=$(cut -d' ' -f1-3 /proc/loadavg)
qemu=$(qemu-system-riscv64 --version | head -1 | sed -E 's/.*version ([^ ]+).*/\1/')
export NVX_EXEC=${NVX_EXEC:-parallel}
if [ "$NVX_EXEC" = parallel ]; then
    echo "# host: $cores cores, load $load; QEMU $qemu, multi-threaded TCG, $BOARD_HARTS vCPUs ($board board), $pin_note"
    echo "# Times are the board clock (rdtime, 10 MHz), which follows host wall time: they are only meaningful"
    echo "# when the host has free cores. A busy host, or vCPUs spread over host cores that must wake each"
    echo "# other, inflates them (up to 3-5x for short messages); pinning QEMU to one core keeps them stable."
    echo "# lat_cycles and B/cycle are the virtual clock (README \"The virtual clock\"): cycles of the modeled"
    echo "# core, instructions + modeled NoC costs; the host's order of events moves them by a few dozen"
    echo "# cycles at most (NVX_EXEC=deterministic: exactly repeatable)."
else
    echo "# host: $cores cores, load $load; QEMU $qemu, deterministic turns (one TCG thread, -icount), $BOARD_HARTS vCPUs ($board board)"
    echo "# Times are the board clock, which here counts every hart's instructions together, 1 ns each: not"
    echo "# host wall time (NVX_EXEC=parallel for that). lat_cycles and B/cycle are the virtual clock (README"
    echo "# \"The virtual clock\"): cycles of the modeled core, instructions + modeled NoC costs, the same in every run."
fi

logs=()
cleanup() { [ "${KEEP_LOG:-0}" = 1 ] || rm -f "${logs[@]}"; }
trap cleanup EXIT
status=0
times=()
for i in $(seq "$runs"); do
    log=/tmp/ikc-bench-run$i.$$.log
    [ "${KEEP_LOG:-0}" = 1 ] && log=/tmp/ikc-bench-run$i.log
    logs+=("$log")
    start=$(date +%s%N)
    "${pin[@]}" scripts/nvx-run --board "$board" --timeout "$run_timeout" "$program" "${args[@]}" </dev/null >"$log" 2>&1 || status=$?
    times+=("$(awk -v s="$start" -v e="$(date +%s%N)" 'BEGIN {printf "%.1f", (e - s) / 1e9}')")
    if [ "$status" -ne 0 ]; then
        grep -E '^(ikc_bench|ikc |mailbox |portal )' "$log" | tr -d '\r' || true
        [ "$status" -eq 124 ] && echo "# run $i timed out after $run_timeout s" >&2
        echo "# run $i failed with status $status; its log:" >&2
        cat "$log" >&2
        exit "$status"
    fi
done

# The program's own lines (its header and table, not the kernels' logs); with several runs
# every latency and bandwidth cell is the median over the runs.
grep -m1 '^ikc_bench: board' "${logs[0]}" | tr -d '\r'
awk -v runs="$runs" '
    function median(list,   n, v, i, j, t) {
        n = split(list, v, " ")
        for (i = 2; i <= n; i++) for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) { t = v[j]; v[j] = v[j - 1]; v[j - 1] = t }
        return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
    }
    { sub(/\r$/, "") }  # the serial console ends lines with CR LF
    /^ikc / && !header { header = $0 }
    /^(mailbox|portal) / {
        key = $1 " " $2 " " $3
        if (!(key in row)) { order[++rows] = key; row[key] = $0 }
        lat[key] = lat[key] " " $6; bw[key] = bw[key] " " $7; cyc[key] = cyc[key] " " $8; bpc[key] = bpc[key] " " $9; seen[key]++
    }
    END {
        print header (runs > 1 ? "   (median of " runs " runs)" : "")
        for (r = 1; r <= rows; r++) {
            k = order[r]; split(row[k], f, " ")
            if (seen[k] != runs) { print "ikc.sh: " k " missing from some runs" > "/dev/stderr"; bad = 1 }
            printf "%-8s %-7s %8s %7s %7s %11.2f %11.3f %11.1f %10.5f %9s %9s\n", f[1], f[2], f[3], f[4], f[5], median(lat[k]), median(bw[k]), median(cyc[k]), median(bpc[k]), f[10], f[11]
        }
        exit bad
    }' "${logs[@]}"
grep -h '^ikc_bench: ' "${logs[@]}" | tr -d '\r' | grep -v '^ikc_bench: board' | sort | uniq -c | sed 's/^ */# /' || true
echo "# run times (boot to power-off): ${times[*]} s"
[ "${KEEP_LOG:-0}" = 1 ] && echo "# logs: ${logs[*]}"
exit 0
