#!/usr/bin/env bash
# Repeatability of the virtual clock (issue 9), in `make test`: the same program twice on
# the real board gives the same virtual figures within 1 %, whatever the host did meanwhile:
#   - ikc_bench (mailbox, scale 0.2) on small: the remote one-way latencies (lat_cycles)
# Only these are asserted: the local mailbox latencies, the streaming bandwidths and the
# all-to-all's times still vary by a few % between runs (host order of arrival at a
# kernel serving several threads: README "The virtual clock", limits). The longer
# sweeps of everything (5 runs, one host core against two, 192 ranks) are in
# benchmarks/clock-repeat.sh. Skipped (with a PASS naming the reason) when the plugin is
# not built: the wall clock makes no such promise.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
. tests/launcher/result.sh
. benchmarks/clock-repeat-lib.sh
export NVX_CLOCK=virtual  # what it checks is the virtual clock, whatever make test's CLOCK

if [ ! -f build/tools/libnvxcount.so ]; then
    result clock_repeat_skipped ""
    finish clock_repeat
    exit $?
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/nvx-clock-repeat.XXXXXX")
trap 'rm -rf "$work"' EXIT

two_runs() {  # name, extractor, nvx-run arguments...: runs twice, compares the figures
    local name=$1 extract=$2
    shift 2
    local i why=""
    for i in 1 2; do
        if ! scripts/nvx-run "$@" >"$work/$name.$i.log" 2>&1 </dev/null; then
            why="run $i failed (log: $(tail -3 "$work/$name.$i.log" | tr '\n' ' '))"
            break
        fi
        "$extract" "$work/$name.$i.log" >"$work/$name.$i.fig"
        [ -s "$work/$name.$i.fig" ] || why="run $i printed no figures"
    done
    [ -z "$why" ] && why=$(clock_spread 1 "$work/$name.1.fig" "$work/$name.2.fig" | sed -n 's/^OVER //p')
    result "$name" "$why"
    clock_spread 1 "$work/$name.1.fig" "$work/$name.2.fig" | grep -v '^OVER' | sed 's/^/# /' | head -20
}

remote_latencies() { ikc_figures "$1" | grep '_remote_.*_lat_cycles'; }
two_runs clock_repeat_ikc remote_latencies --board small --timeout 120 build/user/ikc_bench.elf mailbox 0.2
finish clock_repeat
