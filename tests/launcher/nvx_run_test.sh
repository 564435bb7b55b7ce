#!/usr/bin/env bash
# Launcher tests (no QEMU needed): scripts/nvx-run refuses bad requests with a clear
# message and status 2. One result line per test; appends PASS/FAIL lines to $RESULTS.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
. tests/launcher/result.sh
program=build/user/hello.elf

expect_refusal() {  # name, expected message fragment, nvx-run arguments...
    local name=$1 fragment=$2
    shift 2
    local out rc
    out=$(scripts/nvx-run "$@" 2>&1 </dev/null)
    rc=$?
    if [ $rc = 2 ] && [[ "$out" == *"$fragment"* ]]; then
        result "$name" ""
    else
        result "$name" "status $rc, output: $out"
    fi
}

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
# mpirun and mpiexec are nvx-run under the names users type, with Open MPI's spellings:
# reaching the capacity check proves every option before it was understood.
for name in mpirun mpiexec; do
    out=$(scripts/$name --allow-run-as-root --board small -n 17 --map-by node "$program" 2>&1 </dev/null); rc=$?
    [ $rc = 2 ] && [[ "$out" == *"do not fit board small"* ]] && result "$name-options" "" ||
        result "$name-options" "status $rc, output: $out"
done
for p in slot core node; do
    out=$(scripts/nvx-run --board small -np 17 --map-by $p "$program" 2>&1 </dev/null); rc=$?
    [ $rc = 2 ] && [[ "$out" == *"do not fit board small"* ]] && result "map-by-$p" "" ||
        result "map-by-$p" "status $rc, output: $out"
done
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
