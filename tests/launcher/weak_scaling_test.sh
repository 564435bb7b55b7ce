#!/usr/bin/env bash
# The weak-scaling driver end to end (no QEMU): scripts/weak-scaling sweeps a board against
# tests/launcher/fake_nvx_run.sh, a stand-in for nvx-run with canned output and chosen
# failures. Checks the CSV rows, failed points recorded, resume (a second run adds
# nothing; an interrupted CSV is completed), the plots and the summary, and that without
# --runner the driver launches the real scripts/nvx-run. Needs build/tools/board-info.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
. tests/launcher/result.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PYTHONDONTWRITEBYTECODE=1

# A build tree with the real board facts and empty programs (the stand-in never reads them).
mkdir -p "$tmp/build/tools" "$tmp/build/user/capbench" "$tmp/build/user/lbm"
ln -s "$root/build/tools/board-info" "$tmp/build/tools/board-info"
for p in fn_ipc fn_unopt fn_opt gf_ipc gf_unopt gf_opt km_ipc km_unopt km_opt a2a_ipc a2a_unopt a2a_opt; do
    : >"$tmp/build/user/capbench/$p.elf"
done
: >"$tmp/build/user/lbm/lbm_ipc.elf"
out=$tmp/out
export FAKE_CALLS=$tmp/calls
sweep() {  # driver arguments...; sets rc, stdout in $tmp/stdout, stderr in $tmp/stderr
    scripts/weak-scaling --board small --class test --build-root "$tmp/build" \
        --runner tests/launcher/fake_nvx_run.sh --out "$out" "$@" >"$tmp/stdout" 2>"$tmp/stderr"
    rc=$?
}
rows() { echo $(( $(wc -l <"$1") - 1 )); }
calls() { wc -l <"$FAKE_CALLS" 2>/dev/null || echo 0; }
has() { grep -qF -- "$2" "$1"; }

# small: 4 clusters of 4 PEs -> fn gf km x ipc unopt opt x 1 4 8 16 ranks, plus A2A at 12
# ranks x ipc unopt opt x compact scatter, plus LBM depth 1 and 2 on its one DDR x 1 2 4
# clusters = 48 runs.
FAKE_FAIL="km_unopt:8:3 gf_ipc:4:124" sweep
csv=$out/results.csv
reason=""
[ "$rc" = 1 ] || reason="status $rc, not 1 (failed points);"
[ -f "$csv" ] && [ "$(rows "$csv")" = 48 ] || reason="$reason results.csv has $(rows "$csv" 2>/dev/null) rows, not 48;"
[ "$(rows "$out/a2a.csv")" = 54 ] || reason="$reason a2a.csv has $(rows "$out/a2a.csv") rows, not 6 runs x 9 sizes;"
has "$csv" 'fn,opt,small,16,4,compact,4,test,1,1400000,0.14,' || reason="$reason no fn opt 16-rank row;"
grep -q '^fn,opt,small,16,4,compact,4,test,1,1400000,0.14,[0-9.]*,140000,16000,16,"fn: numbers 1000001..1006144, sigma sum 28, friendly pairs 0",yes,ok,0,' "$csv" \
    || reason="$reason fn opt 16-rank row has wrong fields: $(grep '^fn,opt,small,16,' "$csv");"
has "$csv" 'a2a,opt,small,12,4,scatter,0,test,1,' || reason="$reason no A2A scatter row;"
has "$csv" 'a2a,ipc,small,12,3,compact,4,test,1,' || reason="$reason no A2A ipc row;"
grep '^lbm,depth2-ddr1,small,4,4,scatter,0,test,1,1400000,0.14,[0-9.]*,140000,1720320,4,' "$csv" \
    | grep -qF ',"lbm: cavity 16^3, steps 2, lattice hash 0000000000000010",yes,ok,0,' \
    || reason="$reason LBM depth 2 row on 4 clusters: $(grep '^lbm,depth2-ddr1,small,4,' "$csv");"
[ "$(grep -c '^lbm,' "$csv")" = 6 ] || reason="$reason $(grep -c '^lbm,' "$csv") LBM rows, not 6;"
has "$out/a2a.csv" 'opt,small,12,compact,4,test,1,32768,4,33768,0.0033768,yes' || reason="$reason no A2A 32 KiB row;"
result weak-scaling-rows "$reason"

reason=""
grep -q '^km,unopt,small,8,2,compact,4,test,1,.*,no,mismatch,3,' "$csv" || reason="mismatch not recorded;"
grep -q '^gf,ipc,small,4,1,compact,4,test,1,,,[0-9.]*,,,,,no,timeout,124,' "$csv" || reason="$reason timeout not recorded;"
[ "$(grep -c ',ok,0,' "$csv")" = 46 ] || reason="$reason $(grep -c ',ok,0,' "$csv") ok rows, not 46;"
has "$out/logs/gf-ipc-4-compact-1.log" "qemu hangs" || reason="$reason the timed-out run's log lacks its stderr;"
result weak-scaling-failures-recorded "$reason"

reason=""
grep -q '^\[[0-9]*/48\] fn ipc, 1 rank compact' "$tmp/stderr" || reason="no progress line for the plan's first point;"
grep -q '^\[42/48\] .*elapsed [0-9:]*, about [0-9:]* left$' "$tmp/stderr" || reason="$reason no elapsed/estimate;"
result weak-scaling-progress "$reason"

reason=""
for png in fn-compact-time fn-compact-efficiency gf-compact-time gf-compact-efficiency km-compact-time \
           km-compact-efficiency a2a-opt a2a-unopt a2a-ipc lbm-mlups; do
    [ "$(head -c 4 "$out/$png.png" 2>/dev/null | tail -c 3)" = PNG ] || reason="$reason $png.png missing;"
done
sum=$out/summary.md
has "$sum" "| 16 | 4 | 0.42 | 0.28 | 0.14 | 78.6 % | 78.6 % | 78.6 % | 3.00x | 2.00x |" || reason="$reason FN table row;"
has "$sum" "| 4 | 1 | - | 0.22 | 0.11 | - | 100.0 % | 100.0 % | - | 2.00x |" || reason="$reason GF row with the timed-out point;"
has "$sum" "| 32768 | 0.003377 | 0.01013 | 3.00x |" || reason="$reason A2A table;"
has "$sum" "| 32768 | 0.01013 | 0.03039 | 3.00x |" || reason="$reason A2A ipc table;"
has "$sum" "**Different result lines for km, class test, 2 clusters**" || reason="$reason no note on the differing km result;"
has "$sum" "| km | unopt | 8 | compact | 1 | mismatch | 3 |" || reason="$reason failed runs not listed;"
has "$sum" "| 4 | 0.03 (10 %) | 0.06 (10 %) |" || reason="$reason LBM table (16^3 x 2 updates in 0.28 and 0.14 s);"
has "$sum" "per lattice update: 210. DDR bound from the board table (its server's link, one transfer at a time): 7.6 MLUPS per DDR" \
    || reason="$reason no DDR bound from the board facts;"
cmp -s "$sum" <(cat "$tmp/stdout" | head -n "$(wc -l <"$sum")") || reason="$reason the summary was not printed;"
result weak-scaling-plots-summary "$reason"

# Same command again: everything is recorded, nothing runs.
before=$(calls)
FAKE_FAIL="km_unopt:8:3 gf_ipc:4:124" sweep
reason=""
[ "$(calls)" = "$before" ] || reason="$(( $(calls) - before )) runs on resume;"
[ "$(rows "$csv")" = 48 ] && [ "$(rows "$out/a2a.csv")" = 54 ] || reason="$reason rows changed to $(rows "$csv");"
has "$tmp/stderr" "48 of 48 points already recorded" || reason="$reason no resume note;"
result weak-scaling-resume-complete "$reason"

# An interrupted sweep: 10 rows, then a row cut short; the rerun runs the other 38 once.
{ head -n 11 "$csv"; printf 'gf,opt,small,16,4'; } >"$tmp/cut" && mv "$tmp/cut" "$csv"
before=$(calls)
FAKE_FAIL="km_unopt:8:3 gf_ipc:4:124" sweep
reason=""
[ "$(( $(calls) - before ))" = 38 ] || reason="$(( $(calls) - before )) runs, not 38;"
[ "$(rows "$csv")" = 48 ] || reason="$reason $(rows "$csv") rows;"
[ "$(cut -d, -f1-9 "$csv" | sort | uniq -d)" = "" ] || reason="$reason duplicate points;"
[ "$(rows "$out/a2a.csv")" = 54 ] || reason="$reason a2a.csv has $(rows "$out/a2a.csv") rows;"
result weak-scaling-resume-interrupted "$reason"

# --retry-failed runs the two failed points again (they pass now) and the sweep is clean.
before=$(calls)
sweep --retry-failed
reason=""
[ "$rc" = 0 ] || reason="status $rc;"
[ "$(( $(calls) - before ))" = 2 ] || reason="$reason $(( $(calls) - before )) runs, not 2;"
[ "$(grep -c ',ok,0,' "$csv")" = 48 ] || reason="$reason not every row ok;"
has "$out/summary.md" "printed the same result line" || reason="$reason results still differ;"
result weak-scaling-retry-failed "$reason"

# Stopped during a run (kill; a background job ignores Ctrl-C's SIGINT): the run and its
# children stop, the runs before it stay recorded, and the same command resumes from there.
rm -rf "$out" "$FAKE_CALLS"
mkfifo "$tmp/fifo"
(FAKE_HANG=fn_unopt:4 FAKE_FIFO=$tmp/fifo exec scripts/weak-scaling --board small --class test \
    --build-root "$tmp/build" --runner tests/launcher/fake_nvx_run.sh --out "$out" --timeout 60 --jobs 1 \
    2>"$tmp/stderr") &
driver=$!
read -r child <"$tmp/fifo"   # the point is running (blocks until the stand-in got there)
kill -TERM "$driver"
wait "$driver"
rc=$?
reason=""
[ "$rc" = 143 ] || reason="status $rc, not 143;"
timeout 10 tail --pid="$child" -f /dev/null   # the signal may take a moment to land on a loaded host
stat=$(sed -n 's/.*) \(.\).*/\1/p' "/proc/$child/stat" 2>/dev/null)   # the process state, if it exists
[ -z "$stat" ] || [[ "$stat" == Z* ]] || { reason="$reason the run's child $child still runs ($stat);"; kill "$child"; }
[ "$(rows "$csv")" = 5 ] || reason="$reason $(rows "$csv") rows, not the 5 runs before it;"
has "$tmp/stderr" "interrupted" || reason="$reason no note;"
sweep
[ "$rc" = 0 ] && [ "$(rows "$csv")" = 48 ] && [ "$(calls)" = 49 ] || reason="$reason resume: status $rc, $(rows "$csv") rows, $(calls) calls;"
result weak-scaling-interrupt "$reason"

# The same with three points at once: every run stops with the driver (the hanging one and
# those beside it), and the resume runs each point not recorded exactly once.
rm -rf "$out" "$FAKE_CALLS"
(FAKE_HANG=gf_opt:8 FAKE_FIFO=$tmp/fifo exec scripts/weak-scaling --board small --class test \
    --build-root "$tmp/build" --runner tests/launcher/fake_nvx_run.sh --out "$out" --timeout 60 --jobs 3 \
    2>"$tmp/stderr") &
driver=$!
read -r child <"$tmp/fifo"
kill -TERM "$driver"
wait "$driver"
rc=$?
reason=""
[ "$rc" = 143 ] || reason="status $rc, not 143;"
timeout 10 tail --pid="$child" -f /dev/null
stat=$(sed -n 's/.*) \(.\).*/\1/p' "/proc/$child/stat" 2>/dev/null)
[ -z "$stat" ] || [[ "$stat" == Z* ]] || { reason="$reason the run's child $child still runs ($stat);"; kill "$child"; }
recorded=$(rows "$csv")
before=$(calls)
sweep --jobs 3
[ "$rc" = 0 ] && [ "$(rows "$csv")" = 48 ] && [ "$(( $(calls) - before ))" = "$(( 48 - recorded ))" ] \
    || reason="$reason resume: status $rc, $(rows "$csv") rows, $(( $(calls) - before )) runs after $recorded recorded;"
[ "$(cut -d, -f1-9 "$csv" | sort | uniq -d)" = "" ] || reason="$reason duplicate points;"
result weak-scaling-interrupt-parallel "$reason"

# --jobs 1 and --jobs 4 record the same rows in the same order, host times and start times
# apart (wall_seconds, started), and the same summary (its host time apart).
same_rows() {  # results.csv without the host's columns
    python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])): print([v for k, v in r.items() if k not in ("wall_seconds", "started")])' "$1"
}
for j in 1 4; do
    out=$tmp/jobs$j
    FAKE_FAIL="km_unopt:8:3" sweep --jobs "$j"
done
out=$tmp/out
reason=""
cmp -s <(same_rows "$tmp/jobs1/results.csv") <(same_rows "$tmp/jobs4/results.csv") \
    || reason="results.csv differs: $(diff <(same_rows "$tmp/jobs1/results.csv") <(same_rows "$tmp/jobs4/results.csv") | head -4);"
cmp -s "$tmp/jobs1/a2a.csv" "$tmp/jobs4/a2a.csv" || reason="$reason a2a.csv differs;"
cmp -s <(grep -v "host wall time" "$tmp/jobs1/summary.md") <(grep -v "host wall time" "$tmp/jobs4/summary.md") \
    || reason="$reason summary.md differs;"
[ "$(rows "$tmp/jobs4/results.csv")" = 48 ] || reason="$reason $(rows "$tmp/jobs4/results.csv") rows;"
# Several jobs start the points that span the most clusters first; the CSV keeps plan order.
grep -m1 '^\[1/48\]' "$tmp/stderr" | grep -q 'fn ipc, 16 ranks compact' \
    || reason="$reason --jobs 4 did not start the largest point first: $(grep -m1 '^\[1/48\]' "$tmp/stderr");"
result weak-scaling-jobs-same-rows "$reason"

# A compact sweep with other ranks per cluster is refused in the same output directory.
sweep --ppc 2 --apps fn --ranks "1 2"
[ "$rc" = 2 ] && has "$tmp/stderr" "holds compact runs with --ppc 4" && result weak-scaling-refuses-ppc-mix "" \
    || result weak-scaling-refuses-ppc-mix "status $rc: $(cat "$tmp/stderr")"

# Rank counts come from the board facts: the thesis' list on mppa256.
reason=""
list=$(scripts/weak-scaling --board mppa256 --build-root "$tmp/build" --apps fn --builds opt --dry-run 2>&1)
[ "$list" = "$(echo "fn opt, 1 rank compact, 12 per cluster, repeat 1"
               for n in 12 24 48 96 192; do echo "fn opt, $n ranks compact, 12 per cluster, repeat 1"; done)" ] \
    || reason="mppa256 points: $list"
result weak-scaling-mppa256-ranks "$reason"

# Bad requests are refused with status 2 and say why.
refused() {  # name, message fragment, arguments...
    local name=$1 fragment=$2 out rc
    shift 2
    out=$(scripts/weak-scaling --board small --build-root "$tmp/build" --out "$tmp/refused" "$@" 2>&1)
    rc=$?
    [ "$rc" = 2 ] && [[ "$out" == *"$fragment"* ]] && [ ! -e "$tmp/refused" ] \
        && result "weak-scaling-refuses-$name" "" || result "weak-scaling-refuses-$name" "status $rc: $out"
}
refused app "unknown application 'xx'" --apps "fn xx"
refused build "unknown build 'fast'" --builds "opt fast"
refused ranks "17 ranks do not fit board small" --ranks "1 17"
refused ppc "--ppc 5: a compute cluster of small has 4 PEs" --ppc 5
refused board "unknown board" --board huge
rm "$tmp/build/user/capbench/km_opt.elf"
refused programs "missing programs" --apps km

# Without --runner the driver launches the real nvx-run (it refuses here: no board image).
scripts/weak-scaling --board small --class test --build-root "$tmp/build" --out "$tmp/real" \
    --apps fn --builds opt --ranks 1 >/dev/null 2>&1
rc=$?
reason=""
[ "$rc" = 1 ] || reason="status $rc;"
grep -q '^fn,opt,small,1,1,compact,4,test,1,.*,no,failed,2,' "$tmp/real/results.csv" 2>/dev/null \
    || reason="$reason row: $(tail -1 "$tmp/real/results.csv" 2>/dev/null);"
grep -q "^\$ $root/scripts/nvx-run --board small -np 1 " "$tmp/real/logs/fn-opt-1-compact-1.log" 2>/dev/null \
    && has "$tmp/real/logs/fn-opt-1-compact-1.log" "nvx-run: " || reason="$reason the log does not show nvx-run;"
result weak-scaling-default-runner "$reason"

finish "weak-scaling"
