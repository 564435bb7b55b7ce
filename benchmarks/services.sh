#!/usr/bin/env bash
# Services benchmark: name lookup cost (cold and cached) on `small`, and spawn time per
# cluster on every built board (from the Spawn Server's report while starting `hello`).
# Times are the board clock, which follows host wall time with a host thread per hart
# (NVX_EXEC=parallel, the default here): run on a quiet host.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export NVX_EXEC=${NVX_EXEC:-parallel}
[ -f build/user/names_bench.elf ] || make --no-print-directory build/user/names_bench.elf >/dev/null
echo "# name lookups, board small (board clock, host $(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"
scripts/nvx-run --board small --timeout 120 build/user/names_bench.elf </dev/null 2>&1 | tr -d '\r' |
    grep -vE '^\[(firmware|cluster|spawn|board)'
echo
echo "# spawn: the Spawn Server sends hello's image to every compute cluster"
printf '%-8s %9s %12s %14s\n' board clusters "image bytes" "us/cluster"
[ -x build/tools/board-info ] || make --no-print-directory build/tools/board-info >/dev/null
for board in $(build/tools/board-info --list); do
    [ -f "build/$board/nvx.elf" ] || continue
    line=$(scripts/nvx-run --board "$board" --timeout 120 build/user/hello.elf </dev/null 2>&1 | tr -d '\r' |
        grep "\[spawn\] hello:" || true)
    clusters=$(echo "$line" | sed -E 's/.* on ([0-9]+) clusters.*/\1/')
    per=$(echo "$line" | sed -E 's/.*\(([0-9]+) us per cluster\).*/\1/')
    stripped=$(mktemp)
    riscv64-unknown-elf-strip --strip-debug -o "$stripped" build/user/hello.elf
    size=$(stat -c %s "$stripped")
    rm -f "$stripped"
    printf '%-8s %9s %12s %14s\n' "$board" "$clusters" "$size" "$per"
done
