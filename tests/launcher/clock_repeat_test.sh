#!/usr/bin/env bash
# Repeatability of the virtual clock, in `make test`. Under --exec deterministic
# (the virtual clock's default) QEMU takes the harts in turns counted in instructions, so
# every run of a program interleaves them identically: its whole console output, every
# virtual figure included, must come out the same whether QEMU may use every host CPU or
# is pinned to one, and whatever else the host runs. Each program runs twice at once, one
# copy pinned to a single host CPU (taskset), the other not:
#   - ikc_bench all (scale 0.5) on small: every latency and bandwidth, local and remote;
#   - the all-to-all with 192 ranks on mppa256 (a2a_opt, scatter, one message per pair and
#     size, 128 bytes only; with --full, as `make test-long` runs it, to 32 KiB): every
#     size's cycles and the total.
# The longer sweep (5 runs per setting) is benchmarks/clock-repeat.sh. Skipped (with a PASS
# naming the reason) when the plugin is not built: the wall clock makes no such promise.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
. tests/launcher/result.sh
. benchmarks/clock-repeat-lib.sh
export NVX_CLOCK=virtual NVX_EXEC=deterministic  # what it checks, whatever make test's CLOCK
a2a_sizes=(--max-size 128)
[ "${1:-}" = --full ] && a2a_sizes=()

if [ ! -f build/tools/libnvxcount.so ]; then
    result clock_repeat_skipped ""
    finish clock_repeat
    exit $?
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/nvx-clock-repeat.XXXXXX")
trap 'rm -rf "$work"' EXIT
one_cpu=$(clock_one_cpu)

same_twice() {  # name, extractor, nvx-run arguments...: two runs at once, one pinned
    local name=$1 extract=$2
    shift 2
    local i why="" spread pids=()
    clock_run any "$work/$name.1.log" "$extract" "$@" &
    pids+=($!)
    clock_run "$one_cpu" "$work/$name.2.log" "$extract" "$@" &
    pids+=($!)
    for i in 1 2; do
        wait "${pids[$((i - 1))]}" ||
            why="$why run $i failed or printed no figures (log: $(tail -3 "$work/$name.$i.log" | tr '\n' ' '));"
    done
    spread=$(clock_spread 0 "$work/$name.1.fig" "$work/$name.2.fig" 2>/dev/null)
    if [ -z "$why" ]; then
        why=$(sed -n 's/^OVER //p' <<<"$spread")
        [ "$(clock_logs_differing "$work/$name.1.log" "$work/$name.2.log")" = 0 ] ||
            why="$why the console output differs: $(diff "$work/$name.1.log" "$work/$name.2.log" | head -3 | tr '\n' ' ')"
    fi
    result "$name" "$why"
    grep -v '^OVER' <<<"$spread" | sed 's/^/# /'
}

same_twice clock_repeat_ikc ikc_figures --board small --insn-limit 20G build/user/ikc_bench.elf all 0.5
same_twice clock_repeat_a2a a2a_figures --board mppa256 --insn-limit 40G -np 192 --map-by scatter \
    build/user/capbench/a2a_opt.elf --iters 1 "${a2a_sizes[@]}"
finish clock_repeat
