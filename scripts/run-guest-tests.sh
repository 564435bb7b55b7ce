#!/usr/bin/env bash
# Runs the guest tests of tests/guest/cases.txt: each boots QEMU under a timeout (a hang
# is a failure), checks the exit status and what the board printed, and prints one
# result line. Appends PASS/FAIL lines to $RESULTS (default build/guest-results.txt).
# GUEST_CASES names another list of the same format (make test-long: tests/guest/cases-long.txt).
#   scripts/run-guest-tests.sh [name-filter]
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
filter=${1:-}
results=${RESULTS:-build/guest-results.txt}
timeout_s=${GUEST_TIMEOUT:-60}
cases=${GUEST_CASES:-tests/guest/cases.txt}
mkdir -p build/test-logs
echo "guest tests: clock ${NVX_CLOCK:-virtual where the plugin is built} unless a case names one"

count() { grep -c -- "$1" "$2" || true; }

# A sleep's instructions on the sleeping hart and on its kernel core: far below what any
# polling during the sleep would run.
SLEEP_INSNS=40000
# What a hart may still run after the idle test's windows begin, before the board is quiet:
# the kernel core's last pass and an IPI's wake-up (hundreds); a polling hart runs millions.
QUIET_TAIL_INSNS=5000

window_hart() {  # log -> the hart that marked the counter window, or a failure reason (status 1)
    local counts=$1.count by
    [ -f "$counts" ] || { echo "no instruction counts"; return 1; }
    by=$(sed -n 's/^nvxcount: mark 2 by hart \([0-9]*\)$/\1/p' "$counts")
    [ -n "$by" ] || { echo "the program did not mark its window"; return 1; }
    echo "$by"
}

check_log() {  # check log -> prints a failure reason, or nothing
    local check=$1 log=$2 program=$3
    if grep -q "^FAIL" "$log"; then echo "a check failed: $(grep -m1 '^FAIL' "$log")"; return; fi
    case "$check" in
    boot)
        local ready harts clusters hellos
        clusters=$(count "kernel ready" "$log")
        harts=$(grep -o '([0-9]*/[0-9]* ready)' "$log" | sed 's/(\([0-9]*\)\/.*/\1/' | awk '{s+=$1} END {print s+0}')
        hellos=$(count "^hello from rank" "$log")
        [ "$clusters" = "$BOARD_CLUSTERS" ] || { echo "$clusters of $BOARD_CLUSTERS kernels ready"; return; }
        [ "$harts" = "$BOARD_HARTS" ] || { echo "$harts of $BOARD_HARTS harts ready"; return; }
        [ "$hellos" = "$BOARD_COMPUTE_USER_HARTS" ] || echo "$hellos of $BOARD_COMPUTE_USER_HARTS user harts said hello" ;;
    selftest)
        local ok
        ok=$(count "selftest summary: 0 failed" "$log")
        [ "$ok" = "$BOARD_CLUSTERS" ] || echo "$ok of $BOARD_CLUSTERS clusters passed their self-tests"
        if grep -q "selftest .*: FAIL" "$log"; then echo "$(grep -m1 'selftest .*: FAIL' "$log")"; fi ;;
    summary|fault)
        local ok
        ok=$(grep -c "^cluster [0-9]*: $program: [0-9]* checks, 0 failed" "$log" || true)
        [ "$ok" = "$BOARD_COMPUTE_CLUSTERS" ] || { echo "$ok of $BOARD_COMPUTE_CLUSTERS clusters passed"; return; }
        if [ "$check" = fault ]; then
            local killed
            killed=$(count "killed: " "$log")
            [ "$killed" -ge $((11 * BOARD_COMPUTE_CLUSTERS)) ] || echo "only $killed fault reports on the console"
        fi ;;
    killed)  # the first crash ends the run: at least one report, and the spawn server's
        grep -q "killed: " "$log" || echo "no fault report on the console"
        grep -q "\[spawn\] cluster [0-9]*: program killed" "$log" || echo "no failure report from the spawn server" ;;
    placement:*)  # every rank 0..N-1 printed exactly once
        local want got
        want=${check#placement:}
        got=$(grep -o "^rank [0-9]* of $want on cluster" "$log" | sort -u | wc -l)
        [ "$got" = "$want" ] || { echo "$got distinct ranks of $want reported"; return; }
        [ "$(grep -c "^rank [0-9]* of " "$log")" = "$want" ] || echo "some rank reported twice" ;;
    console)  # whole lines only: each console line is exactly what one printf wrote
        local lines good
        lines=$(grep -c "console [0-9]*\." "$log" || true)
        good=$(grep -cE "^console [0-9]+\.[0-9]+\.[0-9]+ \[([a-z])\1{149}\] end$" "$log" || true)
        [ "$lines" -gt 0 ] && [ "$good" = "$lines" ] || echo "$((lines - good)) of $lines console lines broken"
        [ "$good" = $((BOARD_COMPUTE_USER_HARTS * 20)) ] || echo "$good whole lines, expected $((BOARD_COMPUTE_USER_HARTS * 20))" ;;
    ranks:*)  # MPI programs: every rank 0..N-1 printed "rank R: NAME: K checks, 0 failed"
        local want got
        want=${check#ranks:}
        got=$(grep -E "^rank [0-9]+: [a-z_0-9]+: [0-9]+ checks, 0 failed$" "$log" | sed 's/:.*//' | sort -u | wc -l)
        [ "$got" = "$want" ] || echo "$got of $want ranks passed" ;;
    capbench)  # a CAP Bench run: its summary line says the result matched the host reference
        local lines
        lines=$(grep -c "^capbench: app=" "$log" || true)
        [ "$lines" = 1 ] || { echo "$lines capbench summary lines, expected 1"; return; }
        grep -qE "^capbench: app=[a-z0-9]+ .* verified=yes$" "$log" || echo "not verified: $(grep '^capbench: app=' "$log")" ;;
    capref)  # a CAP Bench run with overridden parameters: its result line is what the host
             # reference tool computes for the same arguments and cluster count
        local summary app clusters expected
        summary=$(grep -m1 "^capbench: app=" "$log")
        app=$(sed -n 's/.* app=\([a-z0-9]*\) .*/\1/p' <<<"$summary")
        clusters=$(sed -n 's/.* clusters=\([0-9]*\) .*/\1/p' <<<"$summary")
        [ -n "$app" ] && [ -n "$clusters" ] || { echo "no capbench summary line"; return; }
        expected=$(build/tools/capbench-ref "$app" --clusters "$clusters" "${program_args[@]}") ||
            { echo "capbench-ref refused the arguments"; return; }
        grep -qxF -- "$expected" "$log" || echo "result differs from the reference: $expected" ;;
    clean)  # nothing was killed on the way
        if grep -q "killed: " "$log"; then echo "$(grep -m1 'killed: ' "$log")"; fi ;;
    soak:*)  # tests/mpi/mpi_soak.c: ranks:N, and every soak line moved all, lost and spoiled none
        local why
        why=$(check_log "ranks:${check#soak:}" "$log" "$program")
        [ -n "$why" ] && { echo "$why"; return; }
        grep -qE "^soak: total: [1-9][0-9]* messages moved, 0 lost, 0 corrupt$" "$log" || { echo "no clean soak total"; return; }
        if grep -E "^soak: .* messages moved, " "$log" | grep -qvE ", 0 lost, 0 corrupt$"; then
            echo "$(grep -E "^soak: .* messages moved, " "$log" | grep -vE ", 0 lost, 0 corrupt$" | head -n1)"
        fi ;;
    summary:*)  # summary, and the log shows this text ('+' stands for a space)
        local why
        why=$(check_log summary "$log" "$program")
        [ -n "$why" ] && { echo "$why"; return; }
        check_log "expect:${check#summary:}" "$log" "$program" ;;
    expect:*)  # the log shows this text ('+' stands for a space)
        local text=${check#expect:}
        text=${text//+/ }
        grep -qF -- "$text" "$log" || echo "'$text' missing from the log" ;;
    quiet)  # the board goes quiet and stays quiet over the program's windows (marks 2, 3, ...):
            # from a window on (not the last: it must stay so) only the marking hart runs, in
            # user mode; before it each hart runs at most $QUIET_TAIL_INSNS (work sent before)
        local by
        by=$(window_hart "$log") || { echo "$by"; return; }
        awk -v by="$by" -v tail="$QUIET_TAIL_INSNS" '$2 == "mark" && $3 >= 2 && $4 == "hart" {
                w = $3; n = ($5 == by) ? $7 + $9 : $7 + $9 + $11
                if (w > last) last = w
                if (n == 0) next
                what = sprintf("hart %s ran %d instructions (fw %d kernel %d user %d); ", $5, n, $7, $9, $11)
                if (!(w in first)) first[w] = what  # a window is noisy when it has a first
                if (n > tail) over[w] = over[w] what
            }
            END {
                if (last < 3) { print "fewer than two windows marked"; exit }
                quiet_from = last + 1
                for (w = last; w >= 2 && !(w in first); w--) quiet_from = w
                if (quiet_from > last - 1) { w = (last in first) ? last : last - 1; printf "not quiet in window %d of %d: %s", w - 1, last - 1, first[w]; exit }
                for (w = 2; w < quiet_from; w++) if (w in over) printf "window %d, before the board went quiet: %s", w - 1, over[w]
            }' "$log.count" ;;
    quiet_sleep)  # in the window of one sleep only the sleeping hart and its kernel core ran, each
                  # at most $SLEEP_INSNS instructions (the call and the wake-up; spinning runs millions)
        local by core
        by=$(window_hart "$log") || { echo "$by"; return; }
        core=$(sed -n 's/^sleep: cluster [0-9]* kernel core hart \([0-9]*\)$/\1/p' "$log" | head -n1)
        [ -n "$core" ] || { echo "the program did not name its kernel core"; return; }
        awk -v by="$by" -v core="$core" -v limit="$SLEEP_INSNS" '$2 == "mark" && $3 == 2 && $4 == "hart" {
                n = $7 + $9 + $11
                if ($5 != by && $5 != core && n > 0) printf "hart %s ran %d instructions (fw %d kernel %d user %d) during the sleep; ", $5, n, $7, $9, $11
                if (($5 == by || $5 == core) && n > limit) printf "hart %s ran %d instructions (fw %d kernel %d user %d) during the sleep, more than %d; ", $5, n, $7, $9, $11, limit
            }' "$log.count" ;;
    none) ;;
    *) echo "unknown check '$check'" ;;
    esac
}

passed=0
failed=0
while read -r name boards program status check opts; do
    opts=${opts:-}
    case "$name" in ''|'#'*) continue ;; esac
    [ -n "$filter" ] && [[ "$name" != *$filter* ]] && continue
    for board in ${boards//,/ }; do
        eval "$(build/tools/board-info "$board")"
        log="build/test-logs/$board-$name.log"
        start=$(date +%s%N)
        # options column: launcher flags, then a lone "--" and the program's arguments, which
        # take printf %b escapes (\x20 for a space) so that any byte can be tested
        launcher_opts=()
        program_args=()
        in_args=0
        for word in $opts; do
            if [ $in_args = 0 ] && [ "$word" = "--" ]; then in_args=1; continue; fi
            if [ $in_args = 0 ]; then launcher_opts+=("$word"); else printf -v word '%b' "$word"; program_args+=("$word"); fi
        done
        # program column: NAME, or NAME:AS to launch build/user/NAME.elf under the file name
        # AS.elf (%b escapes too), copied into a fresh directory
        elf="build/user/${program%%:*}.elf"
        if [[ "$program" == *:* ]]; then
            printf -v as '%b' "${program#*:}"
            alias_dir=$(mktemp -d "${TMPDIR:-/tmp}/nvx-guest.XXXXXX")
            cp "$elf" "$alias_dir/$as.elf"
            elf="$alias_dir/$as.elf"
        fi
        rm -f "$log.count"
        [[ "$check" = quiet* ]] && launcher_opts+=(--count-insns "$log.count")
        scripts/nvx-run --board "$board" --timeout "$timeout_s" "${launcher_opts[@]}" \
            -- "$elf" "${program_args[@]}" </dev/null 2>&1 | tr -d '\r' >"$log"
        rc=${PIPESTATUS[0]}
        [[ "$program" == *:* ]] && rm -rf "$alias_dir"
        secs=$(awk -v s="$start" -v e="$(date +%s%N)" 'BEGIN {printf "%.1f", (e - s) / 1e9}')
        reason=""
        if [ $rc = 124 ] || [ $rc = 137 ]; then
            reason="timed out after ${timeout_s}s"
        elif [ "$rc" != "$status" ]; then
            reason="exit status $rc, expected $status"
        else
            reason=$(check_log "$check" "$log" "${program%%:*}")
        fi
        if [ -z "$reason" ]; then
            echo "PASS guest/$board/$name (${secs}s)"
            echo "PASS guest/$board/$name" >>"$results"
            passed=$((passed + 1))
        else
            echo "FAIL guest/$board/$name: $reason (log: $log)"
            echo "FAIL guest/$board/$name" >>"$results"
            failed=$((failed + 1))
        fi
    done
done <"$cases"
echo "guest: $passed passed, $failed failed"
[ $failed = 0 ]
