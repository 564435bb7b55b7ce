#!/usr/bin/env bash
# Instructions per operation, per hart, counted by the instruction counter (QEMU plugin
# build/tools/libnvxcount.so): kernel calls (calls_bench) and IKC round trips (ikc_bench
# icount). Each operation runs N and then 2N times between marks; the cost of one is the
# difference of the two windows over N, summed over every hart that ran anything, and
# split into firmware, kernel and user; "model" is the clock's own code beside them, in
# no total (README, "The virtual clock"). Mailbox and forwarded-call rows are one way (half
# a round trip), portal rows are per byte of one one-way transfer, `-posted` MPI rows are
# one message to a receive posted beforehand (mpi_pingpong.c).
#   benchmarks/icount.sh [BOARD [mailbox|portal|mpi|cap|all|calls|private]...]   (default: small all, then mppa256 mailbox)
# Needs `make BOARD=B` for each board measured.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
plugin=build/tools/libnvxcount.so
timeout_s=${TIMEOUT:-300}
die() { echo "icount.sh: $*" >&2; exit 2; }
[ -f "$plugin" ] || die "missing $plugin: run 'make' first"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/icount.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# run BOARD RANKS NAME PROGRAM ARGS... -> $tmp/NAME.log (console) and $tmp/NAME.count (plugin);
# launcher options in $launch_opts (e.g. --map-by scatter).
launch_opts=""
run() {
    local board=$1 ranks=$2 name=$3 program=$4
    shift 4
    [ -f "build/$board/nvx.elf" ] || die "board $board not built: run 'make BOARD=$board' first"
    if ! scripts/nvx-run --board "$board" -np "$ranks" --timeout "$timeout_s" --count-insns "$tmp/$name.count" \
            $launch_opts "$program" "$@" </dev/null 2>&1 | tr -d '\r' >"$tmp/$name.log"; then
        cat "$tmp/$name.log" >&2
        die "$program $* failed on $board"
    fi
}

# report BOARD NAME: one row per measured operation of the run NAME.
report() {
    local board=$1 name=$2
    awk -v board="$board" '
        function round(x) { return x < 0 ? -int(-x + 0.5) : int(x + 0.5) }
        FNR == NR {  # the console: what was measured and the number of its first mark
            if ($1 == "calls_bench:" && $3 == "n") { op[++ops] = $2; n[ops] = $4; div[ops] = 1; first[ops] = $6 }
            if (($1 == "mailbox" || $1 == "portal" || $1 == "mpi" || $1 == "cap") && $(NF - 1) == "mark") {
                op[++ops] = $1 "_" $2 "_" $3 "B"; n[ops] = $4; first[ops] = $NF
                div[ops] = $1 == "portal" ? 2 * $3 : $2 ~ /-posted$/ ? 1 : 2
            }
            next
        }
        $2 == "mark" && $4 == "hart" {  # nvxcount: mark M hart H fw F kernel K user U model X
            m = $3; h = $5; fw[m, h] = $7; kern[m, h] = $9; user[m, h] = $11; model[m, h] = $13; harts[h] = 1
        }
        END {
            for (i = 1; i <= ops; i++) {
                a = first[i] + 1; b = first[i] + 2; scale = n[i] * div[i]
                tf = tk = tu = tm = 0; per = ""
                for (h in harts) {
                    df = (fw[b, h] - fw[a, h]) / scale; dk = (kern[b, h] - kern[a, h]) / scale
                    du = (user[b, h] - user[a, h]) / scale
                    tf += df; tk += dk; tu += du; tm += (model[b, h] - model[a, h]) / scale
                    if (df + dk + du >= 0.5 || df + dk + du <= -0.5) per = per sprintf(" h%s=%.0f", h, df + dk + du)
                    else if (df + dk + du != 0) per = per sprintf(" h%s=%.3f", h, df + dk + du)
                }
                fmt = div[i] > 2 ? "%-8s %-24s %10.3f %9.3f %9.3f %9.3f %9.3f  %s\n" : "%-8s %-24s %10d %9d %9d %9d %9d  %s\n"
                if (div[i] <= 2) { tf = round(tf); tk = round(tk); tu = round(tu); tm = round(tm) }
                printf fmt, board, op[i], tf + tk + tu, tf, tk, tu, tm, per
                # A forwarded call is two IPIs (request and answer), each sent and taken
                # through the firmware: half its firmware share is the cost of one IPI.
                if (op[i] == "forwarded_call")
                    printf "%-8s %-24s %10d %9d %9d %9d %9d  %s\n", board, "ipi_via_sbi", round(tf / 2), round(tf / 2), 0, 0, 0, "(firmware share of forwarded_call / 2)"
            }
        }' "$tmp/$name.log" "$tmp/$name.count"
}

measure() {
    local board=$1 what=$2
    case "$what" in
    calls) run "$board" 1 calls build/user/calls_bench.elf 1000; report "$board" calls ;;
    private) run "$board" 1 private build/user/private_bench.elf; report "$board" private ;;
    mailbox|portal)  # local with one process: no second cluster starting up in its windows
        local scale=0.5
        [ "$what" = portal ] && scale=0.25
        run "$board" 1 "$what-local" build/user/ikc_bench.elf "$what" local icount "$scale"
        report "$board" "$what-local"
        run "$board" 2 "$what-remote" build/user/ikc_bench.elf "$what" remote icount "$scale"
        report "$board" "$what-remote" ;;
    mpi)  # LWMPI ping-pong, one way, both variants, local (one cluster) and remote
        local variant map
        for variant in "" _unopt; do
            for map in compact scatter; do
                launch_opts="--map-by $map"
                run "$board" 2 "mpi$variant-$map" "build/user/mpiprog/mpi_pingpong$variant.elf" icount
                launch_opts=""
                report "$board" "mpi$variant-$map"
            done
        done
        # From a global buffer: each rank in its own copy of the globals (the view switches).
        launch_opts="--map-by compact"
        run "$board" 2 "mpi-globals" build/user/mpiprog/mpi_pingpong.elf icount-globals
        launch_opts=""
        report "$board" "mpi-globals" ;;
    cap)  # CAP Bench's raw-IKC layer (the ipc build) ping-pong, one way, local and remote
        local map
        for map in compact scatter; do
            launch_opts="--map-by $map"
            run "$board" 2 "cap-$map" build/user/capbench/cap_pingpong_ipc.elf icount
            launch_opts=""
            report "$board" "cap-$map"
        done ;;
    all) measure "$board" calls; measure "$board" private; measure "$board" mailbox; measure "$board" portal; measure "$board" mpi
         measure "$board" cap ;;
    *) die "unknown measurement '$what' (mailbox, portal, mpi, cap, calls, private or all)" ;;
    esac
}

echo "# instructions per operation (one way; portal rows per byte), summed over harts; per hart at the end"
printf "%-8s %-24s %10s %9s %9s %9s %9s  %s\n" board operation total fw kernel user model "per hart"
if [ $# -eq 0 ]; then
    measure small all
    measure mppa256 mailbox
else
    board=$1
    shift
    [ $# -gt 0 ] || set -- all
    for what in "$@"; do measure "$board" "$what"; done
fi
