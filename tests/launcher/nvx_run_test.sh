#!/usr/bin/env bash
# Launcher tests (no QEMU needed): scripts/nvx-run refuses bad requests with a clear
# message and status 2. One result line per test; appends PASS/FAIL lines to $RESULTS.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
. tests/launcher/result.sh
program=build/user/hello.elf


expect_refusal missing-program "not found" --board small build/user/no-such-program.elf
expect_refusal no-program "no program given" --board small
expect_refusal too-many-ranks "do not fit board small" --board small -np 17 "$program"
expect_refusal zero-ranks "positive number" --board small -np 0 "$program"
expect_refusal bad-rank-count "positive number" --board small -np many "$program"
expect_refusal unknown-policy "unknown mapping policy" --board small --map-by random "$program"
expect_refusal unknown-board "unknown board" --board huge "$program"
expect_refusal unknown-option "unknown option" --board small --frobnicate "$program"
expect_refusal not-an-elf "not an ELF" --board small README.md
expect_refusal rank-stack-words "--rank-stack must be a size" --board small --rank-stack big "$program"
expect_refusal rank-stack-fraction "--rank-stack must be a size" --board small --rank-stack 1.5M "$program"
expect_refusal rank-stack-tiny "at least 4K" --board small --rank-stack 1K "$program"
expect_refusal rank-stack-missing "--rank-stack needs a value" --board small --rank-stack
# A bad option is refused before QEMU starts, with status 2 and a message
expect_refusal timeout-words "--timeout must be a whole number" --board small --timeout abc "$program"
expect_refusal timeout-negative "--timeout must be a whole number" --board small --timeout -5 "$program"
expect_refusal insn-limit-words "--insn-limit must be a count" --board small --insn-limit abc "$program"
expect_refusal insn-limit-unit "--insn-limit must be a count" --board small --insn-limit 5T "$program"
expect_refusal insn-limit-missing "--insn-limit needs a value" --board small --insn-limit
expect_refusal kernel-opts-unknown "unknown kernel option 'frob'" --board small --kernel-opts "selftest frob" "$program"
expect_refusal kernel-opts-separator "unknown kernel option '--'" --board small --kernel-opts "-- x" "$program"
expect_refusal kernel-opts-glob "unknown kernel option '*'" --board small --kernel-opts "*" "$program"
long=$(head -c 600 /dev/zero | tr '\0' a)
expect_refusal args-too-long "too long" --board small "$program" "$long"
expect_refusal args-too-long-encoded "too long" --board small "$program" "$(head -c 200 /dev/zero | tr '\0' ' ')"
many=()
for i in $(seq 1 40); do many+=("a$i"); done
expect_refusal args-too-many "too many program arguments" --board small "$program" "${many[@]}"
# --ppc N: at most N ranks per cluster
expect_refusal ppc-zero "--ppc must be a number from 1 to 4" --board small --ppc 0 "$program"
expect_refusal ppc-above-pes "--ppc must be a number from 1 to 16" --board mppa256 --ppc 17 "$program"
expect_refusal ppc-words "--ppc must be a number" --board small --ppc two "$program"
expect_refusal ppc-too-few "13 ranks do not fit board small at 3 per cluster" --board small -np 13 --ppc 3 "$program"
expect_refusal ppc-192-at-11 "192 ranks do not fit board mppa256 at 11 per cluster" --board mppa256 -np 192 --ppc 11 "$program"

expect_bootargs() {  # name, expected boot arguments after "-- spawn ", nvx-run arguments...
    local name=$1 want=$2 out rc
    shift 2
    out=$(scripts/nvx-run --dry-run "$@" 2>&1 </dev/null)
    rc=$?
    [ $rc = 0 ] && [[ "$out" == *"-- spawn $want" ]] && result "$name" "" || result "$name" "status $rc, output: $out"
}
size=$(riscv64-unknown-elf-strip --strip-debug -o /tmp/nvx-run-test.$$ "$program" && stat -c %s /tmp/nvx-run-test.$$)
rm -f /tmp/nvx-run-test.$$
odd_dir=$(mktemp -d)
cp "$program" "$odd_dir/np=3.elf"
# the file named np=3.elf is the program: its name comes after the Spawn Server's "--", encoded
expect_bootargs name-like-an-option "np=4 map=scatter ppc=4 image=$size  -- np%3D3 x" --board small "$odd_dir/np=3.elf" x
expect_bootargs args-encoded "np=4 map=scatter ppc=4 image=$size  -- hello a%20b % --gamma %27%22 %C3%A9 %25" \
    --board small "$program" "a b" "" --gamma "'\"" $'\xc3\xa9' %
expect_bootargs ppc-compact "np=24 map=compact ppc=12 image=$size  -- hello" --board mppa256 -np 24 --map-by compact --ppc 12 "$program"
expect_bootargs ppc-default-every-pe "np=4 map=scatter ppc=4 image=$size  -- hello" --board small "$program"
expect_bootargs kernel-opts-known "np=4 map=scatter ppc=4 image=$size  -- hello" --board small --kernel-opts selftest "$program"
expect_bootargs double-dash-ends-options "np=4 map=scatter ppc=4 image=$size  -- hello --ppc" --board small -- "$program" --ppc
# mpirun and mpiexec are nvx-run under the names users type, with Open MPI's spellings
# (--allow-run-as-root, -n, --map-by slot|core = compact, node = scatter).
for name in mpirun mpiexec; do
    out=$(scripts/$name --allow-run-as-root --board small -n 17 --map-by node "$program" 2>&1 </dev/null); rc=$?
    [ $rc = 2 ] && [[ "$out" == *"do not fit board small"* ]] && result "$name-options" "" ||
        result "$name-options" "status $rc, output: $out"
done
expect_bootargs map-by-slot "np=6 map=compact ppc=4 image=$size  -- hello" --board small -np 6 --map-by slot "$program"
expect_bootargs map-by-core "np=6 map=compact ppc=4 image=$size  -- hello" --board small -np 6 --map-by core "$program"
expect_bootargs map-by-node "np=6 map=scatter ppc=4 image=$size  -- hello" --board small -np 6 --map-by node "$program"
rm -rf "$odd_dir"
# The list of boards comes from the board table: board-info knows every board it lists,
# the tested ones are among them, and the build refuses a board not in the list.
info=build/tools/board-info
all=$("$info" --list)
tested=$("$info" --tested)
reason=""
[ -n "$all" ] && [ -n "$tested" ] || reason="empty lists: '$all' / '$tested'"
for b in $all; do
    [ "$("$info" "$b" | sed -n 's/^BOARD_NAME=//p')" = "$b" ] || reason="$reason board-info does not know listed board $b;"
done
for b in $tested; do [[ " $all " == *" $b "* ]] || reason="$reason tested board $b is not listed;"; done
result board-list "$reason"
out=$(make --no-print-directory -n BOARD=huge 2>&1)
[[ "$out" == *"unknown BOARD 'huge': choose one of $all"* ]] && result make-unknown-board "" \
    || result make-unknown-board "make did not refuse with the table's list: $out"

finish "launcher"
