#!/usr/bin/env bash
# Boot benchmark: for each board, wall time of a full boot + spawn of the demo on every
# PE (-np all) + power-off (median of RUNS), the kernel image size, and the memory a
# compute cluster's kernel leaves to user space once booted.
#   benchmarks/boot.sh [board...]     (boards must be built: make BOARD=b)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
runs=${RUNS:-5}
boards=("$@")
# shellcheck disable=SC2207
[ ${#boards[@]} -gt 0 ] || boards=($(build/tools/board-info --tested))

printf '%-8s %6s %9s %12s %12s %12s %14s\n' board harts "boot (s)" "kernel text" "kernel data" "kernel bss" "user KiB/cc"
for board in "${boards[@]}"; do
    eval "$(build/tools/board-info "$board")"
    times=()
    for _ in $(seq "$runs"); do
        start=$(date +%s%N)
        scripts/nvx-run --board "$board" --timeout 120 -np all build/user/hello.elf </dev/null >/tmp/nvx-boot-$$.log 2>&1 ||
            { echo "boot.sh: $board run failed:"; tail -5 /tmp/nvx-boot-$$.log; exit 1; }
        times+=("$(awk -v s="$start" -v e="$(date +%s%N)" 'BEGIN {printf "%.3f", (e - s) / 1e9}')")
    done
    median=$(printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')
    read -r text data bss _ < <(riscv64-unknown-elf-size "build/$board/kernel/kernel.elf" | tail -1)
    # what user space can still get on the first compute cluster once the demo ran
    user_kib=$(grep -m1 "compute kernel ready" /tmp/nvx-boot-$$.log | sed -E 's/.* ([0-9]+) KiB free/\1/')
    printf '%-8s %6s %9s %12s %12s %12s %14s\n' "$board" "$BOARD_HARTS" "$median" "$text" "$data" "$bss" "$user_kib"
done
rm -f /tmp/nvx-boot-$$.log
