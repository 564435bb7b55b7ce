#!/usr/bin/env bash
# Runs the guest tests of tests/guest/cases.txt: each boots QEMU, checks the exit status and
# what the board printed, and prints one result line. Appends PASS/FAIL lines to $RESULTS
# (default build/guest-results.txt).
#   scripts/run-guest-tests.sh [-j N] [name-filter]
# Limits count the guest, not the host (README "Tests"): a case may run at most its
# instruction limit (--insn-limit in its line, else $GUEST_INSN_LIMIT, all harts together);
# a board whose harts all sleep with nothing to wake them ends at once (deadlock, status 125).
# Host seconds are only a last resort: the limit at the speed this host showed at start
# (a short fixed guest run), times $WALL_MARGIN, times the load when the case starts.
# GUEST_CASES names another list of the same format (make test-long: tests/guest/cases-long.txt).
# -j N runs N cases at once (default $NVX_TEST_JOBS, else the host's cores); results print in
# the order of the cases whatever order they finish in.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
jobs=${NVX_TEST_JOBS:-$(nproc)}
if [ "${1:-}" = -j ]; then jobs=$2; shift 2; fi
[[ "$jobs" =~ ^[1-9][0-9]*$ ]] || { echo "run-guest-tests: -j needs a positive number, not '$jobs'" >&2; exit 2; }
filter=${1:-}
results=${RESULTS:-build/guest-results.txt}
insn_limit_default=${GUEST_INSN_LIMIT:-5G}
# Kernel-heavy cases run up to 20 times fewer instructions per host second than the probe
# (mputil_m192s: 9 M/s against 190 M/s), and the last resort must never catch them.
WALL_MARGIN=${WALL_MARGIN:-40}
cases=${GUEST_CASES:-tests/guest/cases.txt}
mkdir -p build/test-logs
echo "guest tests: clock ${NVX_CLOCK:-virtual where the plugin is built} unless a case names one; $jobs at a time"

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
    no_errors)  # tests/mpi_suite: rank 0 printed "No Errors" once, as the MPI test suites do
        [ "$(grep -c '^No Errors$' "$log")" = 1 ] || echo "no single 'No Errors' line" ;;
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
    lbmref)  # benchmarks/lbm: one result line, the one the host reference computes for that
             # cavity and step count (whatever the clusters, block size, depth and DDRs)
        local result n steps expected
        [ "$(grep -c '^lbm: cavity ' "$log")" = 1 ] || { echo "no single lbm result line"; return; }
        result=$(grep -m1 '^lbm: cavity ' "$log")
        n=$(sed -n 's/^lbm: cavity \([0-9]*\)^3, steps \([0-9]*\),.*/\1/p' <<<"$result")
        steps=$(sed -n 's/^lbm: cavity \([0-9]*\)^3, steps \([0-9]*\),.*/\2/p' <<<"$result")
        expected=$(build/tools/lbm-ref --size "$n" --steps "$steps") || { echo "lbm-ref refused: $result"; return; }
        [ "$result" = "$expected" ] || { echo "result differs from the reference: $expected"; return; }
        grep -qE '^lbm-run: clusters=[0-9]+ .* mlups=[0-9.]+ bytes=[0-9]+ wait=[0-9.]+%$' "$log" || echo "no lbm-run line" ;;
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
    expect:*)  # the log shows this text ('+' stands for a space; '|' separates texts it shows all of)
        local texts text
        IFS='|' read -r -a texts <<<"${check#expect:}"
        for text in "${texts[@]}"; do
            text=${text//+/ }
            grep -qF -- "$text" "$log" || { echo "'$text' missing from the log"; return; }
        done ;;
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

insns_of() {  # 5G, 300M, 1000 -> a count
    local n=${1%[kKmMgG]}
    case "$1" in
    *[kK]) echo $((n * 1000)) ;;
    *[mM]) echo $((n * 1000000)) ;;
    *[gG]) echo $((n * 1000000000)) ;;
    *) echo "$n" ;;
    esac
}

# The host's speed in guest instructions per second, from a fixed MPI run on tiny (kernel
# calls, IPIs and messages: slower per instruction than a loop, so the margin errs long).
host_speed() {
    local probe log insns start secs
    probe=build/user/mpiprog/mpi_p2p.elf
    log=build/test-logs/speed-probe.log
    start=$(date +%s%N)
    scripts/nvx-run --board tiny -np 4 --map-by compact --insn-limit "$(insns_of "$insn_limit_default")" \
        "$probe" </dev/null >"$log" 2>&1 || { echo 0; return; }
    secs=$(( ($(date +%s%N) - start) / 1000000 ))
    insns=$(sed -n 's/^nvxcount: \([0-9]*\) instructions executed by all harts.*/\1/p' "$log")
    [ -n "$insns" ] && [ "$secs" -gt 0 ] && echo $(( insns * 1000 / secs )) || echo 0
}
speed=${NVX_TEST_SPEED:-$(host_speed)}
[ "$speed" -gt 0 ] || speed=10000000  # no probe (wall clock, or it failed): a slow host's figure
echo "guest tests: this host runs about $((speed / 1000000)) M guest instructions per second"

# The host-seconds last resort for a case of `limit` instructions, started now.
wall_limit() {
    local limit=$1 cores load
    cores=$(nproc)
    load=$(awk '{print int($1 + 0.999)}' /proc/loadavg)
    [ "$load" -gt "$cores" ] || load=$cores
    echo $(( (limit / speed + 30) * WALL_MARGIN * load / cores ))
}

# One case on one board: writes its result line to $1.
run_case() {
    local out=$1 name=$2 board=$3 program=$4 status=$5 check=$6 opts=$7
    eval "$(build/tools/board-info "$board")"
    local log="build/test-logs/$board-$name.log"
    local start
    start=$(date +%s%N)
    # options column: launcher flags, then a lone "--" and the program's arguments, which
    # take printf %b escapes (\x20 for a space) so that any byte can be tested
    local launcher_opts=() word in_args=0 limit
    program_args=()
    limit=$(insns_of "$insn_limit_default")
    set -f
    local words=($opts)
    set +f
    local i=0
    while [ $i -lt ${#words[@]} ]; do
        word=${words[$i]}
        if [ $in_args = 0 ] && [ "$word" = "--" ]; then in_args=1
        elif [ $in_args = 0 ] && [ "$word" = "--insn-limit" ]; then i=$((i + 1)); limit=$(insns_of "${words[$i]}")
        elif [ $in_args = 0 ] && [ "$word" = "--timeout" ]; then
            echo "FAIL guest/$board/$name: its line names --timeout: a case states an --insn-limit" >"$out"; return
        elif [ $in_args = 0 ]; then launcher_opts+=("$word")
        else printf -v word '%b' "$word"; program_args+=("$word"); fi
        i=$((i + 1))
    done
    # program column: NAME, or NAME:AS to launch build/user/NAME.elf under the file name
    # AS.elf (%b escapes too), copied into a fresh directory
    local elf="build/user/${program%%:*}.elf" alias_dir="" as
    if [[ "$program" == *:* ]]; then
        printf -v as '%b' "${program#*:}"
        alias_dir=$(mktemp -d "${TMPDIR:-/tmp}/nvx-guest.XXXXXX")
        cp "$elf" "$alias_dir/$as.elf"
        elf="$alias_dir/$as.elf"
    fi
    rm -f "$log.count"
    [[ "$check" = quiet* ]] && launcher_opts+=(--count-insns "$log.count")
    local wall rc
    wall=$(wall_limit "$limit")
    scripts/nvx-run --board "$board" --insn-limit "$limit" --timeout "$wall" "${launcher_opts[@]}" \
        -- "$elf" "${program_args[@]}" </dev/null 2>&1 | tr -d '\r' >"$log"
    rc=${PIPESTATUS[0]}
    [ -z "$alias_dir" ] || rm -rf "$alias_dir"
    local secs reason=""
    secs=$(awk -v s="$start" -v e="$(date +%s%N)" 'BEGIN {printf "%.1f", (e - s) / 1e9}')
    if [ "$rc" = "$status" ]; then
        reason=$(check_log "$check" "$log" "${program%%:*}")
    elif [ "$rc" = 124 ] && grep -q "^nvxcount: instruction limit" "$log"; then
        reason="its instruction limit $limit was reached: a hang that runs (the log names the busy harts)"
    elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
        reason="the host-time last resort of ${wall}s was reached (limit $limit instructions at $((speed / 1000000)) M/s x $WALL_MARGIN x load)"
    elif [ "$rc" = 125 ]; then
        reason="the board deadlocked (every hart asleep, nothing to wake them; the log has each kernel's waits)"
    else
        reason="exit status $rc, expected $status"
    fi
    if [ -z "$reason" ]; then
        echo "PASS guest/$board/$name (${secs}s)" >"$out"
    else
        echo "FAIL guest/$board/$name: $reason (log: $log)" >"$out"
    fi
}

# A test program with no line of its own runs as the default cases below: a new test is one
# file; a line is needed only for its own boards, ranks, flags, status or check.
default_cases() {  # -> case lines for the programs no line of cases.txt names
    local listed f n
    listed=" $(awk '$1 !~ /^#/ && NF >= 3 { p = $3; sub(/:.*/, "", p); sub(/^.*\//, "", p); sub(/_(unopt|ipc|opt)$/, "", p); printf "%s ", p }' tests/guest/cases.txt tests/guest/cases-long.txt) "
    for f in tests/guest/*.c; do
        n=$(basename "$f" .c)
        [[ "$listed" == *" $n "* ]] || echo "$n tiny,small $n 0 summary"
    done
    for f in tests/mpi/*.c tests/mpi_user/*.c tests/mpi_user/*.cpp; do
        n=$(basename "${f%.*}")
        [[ "$listed" == *" $n "* ]] && continue
        echo "$n small mpiprog/$n 0 ranks:4 -np 4 --map-by compact"
        echo "${n}_u small mpiprog/${n}_unopt 0 ranks:4 -np 4 --map-by scatter"
    done
    for f in tests/mpi_suite/*.c; do  # odd and even counts, ranks sharing clusters or not
        n=$(basename "$f" .c)
        [[ "$listed" == *" $n "* ]] && continue
        echo "$n small mpiprog/$n 0 no_errors -np 4 --map-by compact"
        echo "${n}_u tiny mpiprog/${n}_unopt 0 no_errors -np 3 --map-by scatter"
    done
}

# make test-long's sweep of the whole suite as users run MPI test suites: every
# tests/mpi_suite program on mppa256 with ranks sharing clusters, opt at 7 ranks on one
# cluster and unopt at 8 over two (compact, --ppc 4), unless its lines give it arguments
# or it is written for the roomier mppa256-xl. The mem_* programs measure LWMPI's own heap
# in the configurations their lines choose: elsewhere the unopt variant's pool of portal
# writers (bounded, kept once started) may still grow after their baseline.
suite_sweep_cases() {
    local f n
    for f in tests/mpi_suite/*.c; do
        n=$(basename "$f" .c)
        [[ "$n" == mem_* ]] && continue
        grep -qE "^[^#]* mpiprog/${n}(_unopt)? .* -- |^[^#]* mppa256-xl +mpiprog/${n}(_unopt)? " tests/guest/cases.txt && continue
        echo "sweep_$n mppa256 mpiprog/$n 0 no_errors -np 7 --map-by compact"
        echo "sweep_${n}_u mppa256 mpiprog/${n}_unopt 0 no_errors -np 8 --map-by compact --ppc 4"
    done
}

# The cases, one job per board, in file order, then the default ones.
job_args=()
while read -r name boards program status check opts; do
    case "$name" in ''|'#'*) continue ;; esac
    [ -n "$filter" ] && [[ "$name" != *$filter* ]] && continue
    for board in ${boards//,/ }; do
        job_args+=("$name"$'\t'"$board"$'\t'"$program"$'\t'"$status"$'\t'"$check"$'\t'"${opts:-}")
    done
done < <(cat "$cases"
         if [ "$cases" = tests/guest/cases.txt ]; then default_cases; elif [ "$cases" = tests/guest/cases-long.txt ]; then suite_sweep_cases; fi)

outdir=$(mktemp -d "${TMPDIR:-/tmp}/nvx-guest-results.XXXXXX")
trap 'rm -rf "$outdir"' EXIT
passed=0
failed=0
printed=0
print_ready() {  # prints finished results in case order, as far as they go
    local line
    while [ $printed -lt ${#job_args[@]} ] && [ -s "$outdir/$printed" ]; do
        line=$(cat "$outdir/$printed")
        echo "$line"
        if [[ "$line" == PASS* ]]; then
            echo "${line% (*}" >>"$results"
            passed=$((passed + 1))
        else
            echo "${line%%:*}" >>"$results"
            failed=$((failed + 1))
        fi
        printed=$((printed + 1))
    done
}
running=0
for k in "${!job_args[@]}"; do
    IFS=$'\t' read -r name board program status check opts <<<"${job_args[$k]}"
    if [ $running -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
        print_ready
    fi
    run_case "$outdir/$k" "$name" "$board" "$program" "$status" "$check" "$opts" &
    running=$((running + 1))
done
wait
print_ready
echo "guest: $passed passed, $failed failed"
[ $failed = 0 ]
