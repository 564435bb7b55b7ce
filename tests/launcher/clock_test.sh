#!/usr/bin/env bash
# Launcher tests of --clock (no QEMU: a stand-in qemu-system-riscv64 on PATH records its
# arguments): virtual is the default where the plugin is built; guest RAM is then a
# /dev/shm file of the board's RAM size, shared with QEMU and the plugin (ram=, clock= from
# board-info), unique per run and removed at exit; --count-insns rides on the same plugin;
# wall loads nothing; every plugin gets the firmware's and the kernel's clock code windows
# (model=, from build/small/model-text); bad values are refused with status 2. --exec: deterministic (one host
# thread, turns counted in instructions) is the virtual clock's default, parallel (a host
# thread per hart) the wall clock's; deterministic with the wall clock is refused.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
. tests/launcher/result.sh
program=build/user/hello.elf
unset NVX_CLOCK NVX_EXEC  # the tests below choose the clock and the execution themselves
eval "$(build/tools/board-info small)"
models=$(sed 's/^/,model=/' build/small/model-text | tr -d '\n')  # the windows the plugin must get

fake=$(mktemp -d "${TMPDIR:-/tmp}/nvx-clock-test.XXXXXX")
trap 'rm -rf "$fake"' EXIT
# The stand-in: one argument per line, then the RAM file's size as QEMU would find it.
cat >"$fake/qemu-system-riscv64" <<'QEMU'
#!/usr/bin/env bash
printf '%s\n' "$@" >"$FAKE_LOG"
ram=$(printf '%s\n' "$@" | sed -n 's/.*mem-path=\([^,]*\).*/\1/p')
[ -z "$ram" ] || echo "ram-size $(stat -c %s "$ram")" >>"$FAKE_LOG"
exit 0
QEMU
chmod +x "$fake/qemu-system-riscv64"

run() {  # log file, nvx-run arguments...: runs the launcher on the stand-in
    local log=$1
    shift
    PATH="$fake:$PATH" FAKE_LOG="$log" scripts/nvx-run --board small "$@" "$program" >/dev/null 2>&1
}
arg() { grep -c -- "$2" "$1"; }  # log, fragment -> how many arguments hold it
ram_of() { sed -n 's/.*mem-path=\([^,]*\).*/\1/p' "$1"; }

expect_refusal clock-unknown "unknown clock 'cpu'" --board small --clock cpu "$program"
expect_refusal clock-missing "--clock needs a value" --board small --clock

if [ ! -f build/tools/libnvxcount.so ]; then
    result clock-virtual-default "build/tools/libnvxcount.so is not built"
    finish "launcher clock"
    exit
fi
# Default: virtual, with the RAM file and the plugin's clock arguments from board-info.
reason=""
run "$fake/a" || reason="launcher failed;"
ram=$(ram_of "$fake/a")
[[ "$ram" == /dev/shm/* ]] || reason="$reason RAM file '$ram' not in /dev/shm;"
[ "$(arg "$fake/a" "memory-backend-file,id=nvx.ram,size=${BOARD_RAM_MIB}M,mem-path=$ram,share=on")" = 1 ] ||
    reason="$reason no shared memory-backend-file;"
[ "$(arg "$fake/a" "^memory-backend=nvx.ram$")" = 1 ] || reason="$reason the machine does not use it;"
[ "$(arg "$fake/a" "ram-size $((BOARD_RAM_MIB * 1024 * 1024))")" = 1 ] || reason="$reason RAM file not at the board's size;"
[ "$(arg "$fake/a" "libnvxcount.so,ram=$ram,clock=$BOARD_CLOCK_OFFSET$models$")" = 1 ] || reason="$reason plugin arguments wrong;"
[ -n "$ram" ] && [ ! -e "$ram" ] || reason="$reason RAM file '$ram' left behind;"
result clock-virtual-default "$reason"

# Two runs, two files (parallel runs must not share guest RAM).
run "$fake/b" --clock virtual
[ -n "$(ram_of "$fake/b")" ] && [ "$(ram_of "$fake/b")" != "$ram" ] && [ ! -e "$(ram_of "$fake/b")" ] &&
    result clock-ram-unique "" || result clock-ram-unique "second run's RAM file '$(ram_of "$fake/b")' vs '$ram'"

# --count-insns with the clock: one plugin instance doing both.
run "$fake/c" --count-insns "$fake/counts.txt"
ram=$(ram_of "$fake/c")
[ "$(arg "$fake/c" "^-plugin$")" = 1 ] && [ "$(arg "$fake/c" "libnvxcount.so,ram=$ram,clock=$BOARD_CLOCK_OFFSET,out=$fake/counts.txt$models$")" = 1 ] &&
    result clock-with-count-insns "" || result clock-with-count-insns "$(grep nvxcount "$fake/c")"

# Wall: no RAM file, no plugin; with --count-insns the plugin only counts.
run "$fake/d" --clock wall
[ "$(arg "$fake/d" "memory-backend")" = 0 ] && [ "$(arg "$fake/d" "^-plugin$")" = 0 ] &&
    result clock-wall "" || result clock-wall "$(grep -e memory-backend -e plugin "$fake/d")"
run "$fake/e" --clock wall --count-insns "$fake/counts.txt"
[ "$(arg "$fake/e" "memory-backend")" = 0 ] && [ "$(arg "$fake/e" "libnvxcount.so,out=$fake/counts.txt$models$")" = 1 ] &&
    result clock-wall-count-insns "" || result clock-wall-count-insns "$(grep -e memory-backend -e nvxcount "$fake/e")"

# NVX_CLOCK sets the default; --clock still decides.
NVX_CLOCK=wall run "$fake/g"
[ "$(arg "$fake/g" "memory-backend")" = 0 ] && result clock-env-default "" || result clock-env-default "NVX_CLOCK=wall ignored"
NVX_CLOCK=wall run "$fake/h" --clock virtual
[ "$(arg "$fake/h" "memory-backend-file")" = 1 ] && result clock-option-over-env "" || result clock-option-over-env "--clock virtual ignored"
NVX_CLOCK=cpu expect_refusal clock-env-unknown "unknown clock 'cpu'" --board small "$program"

# --exec: which QEMU accelerator settings each choice passes.
deterministic() { [ "$(arg "$1" "^tcg,thread=single$")" = 1 ] && [ "$(arg "$1" "^shift=0,sleep=off$")" = 1 ]; }
parallel() { [ "$(arg "$1" "^tcg,thread=multi$")" = 1 ] && [ "$(arg "$1" "icount")" = 0 ]; }
deterministic "$fake/a" && result exec-virtual-default "" || result exec-virtual-default "$(grep -A1 -e accel -e icount "$fake/a")"
parallel "$fake/d" && result exec-wall-default "" || result exec-wall-default "$(grep -A1 -e accel -e icount "$fake/d")"
run "$fake/i" --exec parallel
parallel "$fake/i" && [ "$(arg "$fake/i" "memory-backend-file")" = 1 ] &&
    result exec-parallel-virtual "" || result exec-parallel-virtual "$(cat "$fake/i")"
NVX_EXEC=parallel run "$fake/j"
parallel "$fake/j" && result exec-env-default "" || result exec-env-default "NVX_EXEC=parallel ignored"
NVX_EXEC=parallel run "$fake/k" --exec deterministic
deterministic "$fake/k" && result exec-option-over-env "" || result exec-option-over-env "--exec deterministic ignored"
expect_refusal exec-unknown "unknown --exec 'fast'" --board small --exec fast "$program"
expect_refusal exec-missing "--exec needs a value" --board small --exec
expect_refusal exec-deterministic-wall "--exec deterministic needs --clock virtual" \
    --board small --clock wall --exec deterministic "$program"

# Where the plugin is not built the default is the wall clock.
mkdir -p "$fake/build/tools" "$fake/build/small"
ln -s "$root/build/tools/board-info" "$fake/build/tools/board-info"
ln -s "$root/build/small/nvx.elf" "$fake/build/small/nvx.elf"
NVX_BUILD_ROOT="$fake/build" run "$fake/f"
[ "$(arg "$fake/f" "memory-backend")" = 0 ] && [ "$(arg "$fake/f" "^-plugin$")" = 0 ] &&
    result clock-wall-without-plugin "" || result clock-wall-without-plugin "$(cat "$fake/f")"
NVX_BUILD_ROOT="$fake/build" expect_refusal clock-virtual-without-plugin "--clock virtual needs" \
    --board small --clock virtual "$program"
finish "launcher clock"
