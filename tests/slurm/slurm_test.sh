#!/usr/bin/env bash
# `make test-slurm`: scripts/weak-scaling --executor slurm against a real Slurm. Starts a
# one-node cluster on this host (munged, slurmctld, slurmd from Debian's slurm-wlm and
# munge, all in a scratch directory with their own ports and key; `make deps-slurm`
# installs them; needs root, as slurmd does), submits a short sweep (class test on the
# small board, 9 points) as a job array, waits for its report job and checks that every
# point succeeded and the merged CSV holds a local sweep's rows (host times apart); then
# that scancel stops a task's run with its children.
# Needs `make BOARD=small all`.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
. tests/launcher/result.sh
results=${RESULTS:-build/slurm-results.txt}
: >"$results"
export PYTHONDONTWRITEBYTECODE=1

[ "$(id -u)" = 0 ] || { echo "test-slurm: slurmd must run as root" >&2; exit 2; }
for tool in munged slurmctld slurmd sbatch squeue sinfo; do
    command -v "$tool" >/dev/null || { echo "test-slurm: no $tool: run make deps-slurm" >&2; exit 2; }
done
# The output directory must be one every node sees: here the one node's build/.
mkdir -p build
tmp=$(mktemp -d "$root/build/slurm-test.XXXXXX")
daemons=()
# Waits until `$2...` succeeds, polling every second. Slurm works at the host's pace, so the
# waits end on progress: the first argument is how long to wait on an idle host, multiplied
# by the load over the cores when the wait starts, a last resort against a stuck daemon.
wait_for() {
    local idle_seconds=$1 cores load
    shift
    cores=$(nproc)
    load=$(awk '{print int($1 + 0.999)}' /proc/loadavg)
    [ "$load" -gt "$cores" ] || load=$cores
    local deadline=$(( $(date +%s) + idle_seconds * load / cores ))
    until "$@"; do
        [ "$(date +%s)" -lt "$deadline" ] || return 1
        sleep 1
    done
}
daemons_alive() { local pid; for pid in "${daemons[@]}"; do kill -0 "$pid" 2>/dev/null || return 1; done; }
queue_empty() { [ -z "$(squeue -h "$@" 2>/dev/null)" ]; }
stop_cluster() {
    # Jobs first: their slurmstepd outlives slurmd.
    if [ ${#daemons[@]} -gt 1 ]; then
        scancel --partition=nvx 2>/dev/null
        wait_for 60 queue_empty -p nvx
    fi
    for pid in "${daemons[@]}"; do kill "$pid" 2>/dev/null; done
    for pid in "${daemons[@]}"; do wait "$pid" 2>/dev/null; done
}
trap 'stop_cluster; rm -rf "$tmp"' EXIT

# --- the cluster ---
node=$(hostname -s)
port=$(( 20000 + $$ % 20000 ))   # not Slurm's default ports: a real slurmctld may run here
mkdir -p "$tmp/munge" "$tmp/state" "$tmp/spool" "$tmp/log"
chmod 711 "$tmp/munge"   # the socket inside must be reachable by every user
head -c 1024 /dev/urandom >"$tmp/munge/munge.key"
chmod 400 "$tmp/munge/munge.key"
socket=$tmp/munge/munge.socket
munged --foreground --force --socket="$socket" --key-file="$tmp/munge/munge.key" \
    --pid-file="$tmp/munge/munged.pid" --seed-file="$tmp/munge/seed" --log-file="$tmp/log/munged.log" >"$tmp/log/munged.out" 2>&1 &
daemons+=($!)
export SLURM_CONF=$tmp/slurm.conf
cat >"$SLURM_CONF" <<EOF
ClusterName=nvxtest
SlurmctldHost=$node(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$socket
StateSaveLocation=$tmp/state
SlurmdSpoolDir=$tmp/spool
SlurmctldPidFile=$tmp/slurmctld.pid
SlurmdPidFile=$tmp/slurmd.pid
SlurmctldLogFile=$tmp/log/slurmctld.log
SlurmdLogFile=$tmp/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
NodeName=$node NodeAddr=127.0.0.1 CPUs=$(nproc) State=UNKNOWN
PartitionName=nvx Nodes=$node Default=NO MaxTime=INFINITE State=UP
EOF
# munged creates its socket once it is ready.
socket_ready() { [ -S "$socket" ] || ! daemons_alive; }
wait_for 60 socket_ready
slurmctld -D -i -f "$SLURM_CONF" >"$tmp/log/slurmctld.out" 2>&1 &
daemons+=($!)
slurmd -D -f "$SLURM_CONF" -N "$node" >"$tmp/log/slurmd.out" 2>&1 &
daemons+=($!)
node_idle() { [ "$(sinfo -h -p nvx -o %t 2>/dev/null)" = idle ]; }
node_idle_or_dead() { node_idle || ! daemons_alive; }
wait_for 120 node_idle_or_dead
if ! node_idle; then
    result slurm-cluster-up "the node is not idle: $(sinfo -p nvx 2>&1); $(tail -5 "$tmp/log/slurmctld.log" "$tmp/log/slurmd.log" 2>&1)"
    finish "slurm"
    exit
fi
result slurm-cluster-up ""

# --- the sweep on the cluster, then the same sweep here ---
sweep_args=(--board small --class test --apps "fn gf km" --builds opt --short)
cluster=$tmp/cluster
start=$(date +%s)
jobs=$(scripts/weak-scaling "${sweep_args[@]}" --executor slurm --out "$cluster" --partition nvx \
    --time-per-point 10 --sbatch-args "--comment=nvx-slurm-test --cpus-per-task=1" 2>"$tmp/submit.err")
rc=$?
reason=""
[ "$rc" = 0 ] || reason="status $rc: $(cat "$tmp/submit.err");"
read -r array report_job <<<"$jobs"
[ -n "${report_job:-}" ] || reason="$reason no job ids: $jobs;"
grep -q "submitted job array $array (9 points) and report job $report_job" "$tmp/submit.err" \
    || reason="$reason no submission note: $(cat "$tmp/submit.err");"
result slurm-submit "$reason"

# Every job leaves the queue: each point is bounded by --time-per-point in Slurm itself.
wait_for 1200 queue_empty -j "$array,$report_job"
echo "test-slurm: the job array and its report took $(( $(date +%s) - start )) s"
csv=$cluster/results.csv
reason=""
[ -z "$(squeue -h -j "$array,$report_job" 2>/dev/null)" ] || reason="jobs still queued: $(squeue -j "$array,$report_job");"
tasks=$(ls "$cluster/slurm/"point-"$array"_*.out 2>/dev/null | wc -l)
[ "$tasks" = 9 ] || reason="$reason $tasks task outputs, not 9;"
[ -f "$csv" ] && [ "$(( $(wc -l <"$csv") - 1 ))" = 9 ] || reason="$reason results.csv: $(wc -l <"$csv" 2>&1);"
[ "$(grep -c ',yes,ok,0,' "$csv" 2>/dev/null)" = 9 ] || reason="$reason not every point ok: $(cut -c1-60 "$csv" 2>&1);"
[ -z "$(ls -A "$cluster/rows" 2>/dev/null)" ] || reason="$reason row files left unmerged: $(ls "$cluster/rows");"
[ -f "$cluster/summary.md" ] && [ -f "$cluster/fn-compact-efficiency.png" ] || reason="$reason no summary or plots;"
grep -q "runs in $csv" "$cluster/slurm/report-$report_job.out" 2>/dev/null \
    || reason="$reason the report job did not report: $(tail -3 "$cluster/slurm/report-$report_job.out" 2>&1);"
[ -z "$reason" ] || reason="$reason logs: $(tail -3 "$cluster"/slurm/*.out 2>&1 | tail -20)"
result slurm-points-ok "$reason"

local_out=$tmp/local
scripts/weak-scaling "${sweep_args[@]}" --jobs 2 --out "$local_out" >/dev/null 2>"$tmp/local.err"
rc=$?
same_rows() {  # results.csv without the host's columns
    python3 -c 'import csv, sys
for r in csv.DictReader(open(sys.argv[1])): print([v for k, v in r.items() if k not in ("wall_seconds", "started")])' "$1"
}
reason=""
[ "$rc" = 0 ] || reason="the local sweep: status $rc: $(tail -3 "$tmp/local.err");"
cmp -s <(same_rows "$csv") <(same_rows "$local_out/results.csv") \
    || reason="$reason rows differ: $(diff <(same_rows "$csv") <(same_rows "$local_out/results.csv") | head -6);"
cmp -s <(grep -v "host wall time" "$cluster/summary.md") <(grep -v "host wall time" "$local_out/summary.md") \
    || reason="$reason summary.md differs: $(diff "$cluster/summary.md" "$local_out/summary.md" | head -6);"
result slurm-rows-equal-local "$reason"

# scancel stops a task's run and what it started (QEMU has a session of its own): a point
# whose stand-in runner (tests/launcher/fake_nvx_run.sh) starts a long child, then hangs.
hung=$tmp/hung
FAKE_HANG=fn_opt:1 FAKE_FIFO=$tmp/child scripts/weak-scaling --board small --class test --apps fn --builds opt \
    --ranks 1 --runner tests/launcher/fake_nvx_run.sh --executor slurm --out "$hung" --partition nvx \
    --time-per-point 5 >"$tmp/hung.jobs" 2>"$tmp/hung.err"
read -r array report_job <"$tmp/hung.jobs"
child_started() { [ -s "$tmp/child" ] || queue_empty -j "$array"; }
wait_for 120 child_started
child=$(cat "$tmp/child" 2>/dev/null)
reason=""
if [ -z "$child" ]; then
    reason="the task did not start: $(cat "$tmp/hung.err"; squeue 2>&1);"
else
    scancel "$array"
    child_gone() { ! kill -0 "$child" 2>/dev/null || [[ "$(sed -n 's/.*) \(.\).*/\1/p' "/proc/$child/stat" 2>/dev/null)" == Z* ]]; }
    wait_for 60 child_gone
    stat=$(sed -n 's/.*) \(.\).*/\1/p' "/proc/$child/stat" 2>/dev/null)
    [ -z "$stat" ] || [[ "$stat" == Z* ]] || { reason="the task's child $child still runs ($stat);"; kill "$child"; }
fi
wait_for 120 queue_empty -j "$array,$report_job"
[ -z "$(ls -A "$hung/rows" 2>/dev/null)" ] && [ "$(cat "$hung/results.csv" 2>/dev/null | wc -l)" -le 1 ] \
    || reason="$reason a cancelled point was recorded;"
result slurm-scancel-stops-the-run "$reason"

finish "slurm"
