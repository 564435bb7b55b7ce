# Shared by benchmarks/clock-repeat.sh and tests/launcher/clock_repeat_test.sh (sourced):
# the virtual-clock figures of a run's log, one "name value" per line, and their spread
# over runs.

ikc_figures() {  # ikc_bench log -> "mailbox_remote_8B_lat_cycles 1234.5" ...
    tr -d '\r' <"$1" | awk '/^(mailbox|portal) / { print $1 "_" $2 "_" $3 "B_lat_cycles", $8; print $1 "_" $2 "_" $3 "B_B_per_cycle", $9 }'
}

a2a_figures() {  # a2a log (rank 0's lines) -> "a2a_128B_cycles C" ... and the total
    tr -d '\r' <"$1" | awk '
        /^a2a: size / { size = $3; sub(/,/, "", size); for (i = 1; i <= NF; i++) if ($i == "cycles") { c = $(i + 1); sub(/,/, "", c); print "a2a_" size "B_cycles", c } }
        /^capbench: app=a2a/ { for (i = 1; i <= NF; i++) if ($i ~ /^cycles=/) { sub(/^cycles=/, "", $i); print "a2a_total_cycles", $i } }'
}

clock_one_cpu() {  # the first host CPU this process may run on (for taskset -c)
    taskset -pc $$ | sed 's/.*: *//; s/[,-].*//'
}

# clock_run CPUS LOG EXTRACT nvx-run-arguments...: one run on host CPUS (a taskset list, or
# "any"), its console in LOG and its figures in LOG's .fig; fails if the run fails or
# prints no figures.
clock_run() {
    local cpus=$1 log=$2 extract=$3
    shift 3
    local pin=()
    [ "$cpus" = any ] || pin=(taskset -c "$cpus")
    "${pin[@]}" scripts/nvx-run "$@" >"$log" 2>&1 </dev/null || return 1
    "$extract" "$log" >"${log%.log}.fig"
    [ -s "${log%.log}.fig" ]
}

clock_logs_differing() {  # LOG...: how many logs differ from the first
    local first=$1 f n=0
    for f in "$@"; do cmp -s "$first" "$f" || n=$((n + 1)); done
    echo "$n"
}

# clock_spread LIMIT_PERCENT FILE...: per figure, min, max and spread (max - min) / min in %;
# a line "OVER ..." names the figures whose spread exceeds the limit, or figures missing
# from some files.
clock_spread() {
    local limit=$1
    shift
    awk -v limit="$limit" -v files=$# '
        { v = $2 + 0; if (!($1 in lo)) { order[++n] = $1; lo[$1] = v; hi[$1] = v } ; if (v < lo[$1]) lo[$1] = v; if (v > hi[$1]) hi[$1] = v; seen[$1]++ }
        END {
            over = ""
            for (i = 1; i <= n; i++) {
                k = order[i]
                spread = lo[k] > 0 ? 100 * (hi[k] - lo[k]) / lo[k] : (hi[k] > 0 ? 100 : 0)
                printf "%-36s min %14.3f max %14.3f spread %6.3f %%\n", k, lo[k], hi[k], spread
                if (spread > limit) over = over " " k " (" sprintf("%.2f", spread) " %)"
                if (seen[k] != files) over = over " " k " (missing from some runs)"
            }
            if (over != "") print "OVER spread above " limit " %:" over
        }' "$@"
}
