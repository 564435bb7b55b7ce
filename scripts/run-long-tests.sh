#!/usr/bin/env bash
# `make test-long`: the guest cases of tests/guest/cases-long.txt (long soaks of every LWMPI
# protocol, the 10^6-message all-to-all, the largest stress configurations) and the
# repeatability check at full size (tests/launcher/clock_repeat_test.sh --full: the 192-rank
# all-to-all at every message size, free and pinned to one host core), results in
# build/guest-long-results.txt, then the line "N passed, M failed" and the host time taken.
# Arguments go to run-guest-tests.sh (-j N, a name filter). Exits non-zero if anything failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mkdir -p build
results=build/guest-long-results.txt
: >"$results"
start=$(date +%s)
RESULTS=$results tests/launcher/clock_repeat_test.sh --full
GUEST_CASES=tests/guest/cases-long.txt RESULTS=$results scripts/run-guest-tests.sh "$@"
passed=$(grep -c '^PASS' "$results" || true)
failed=$(grep -c '^FAIL' "$results" || true)
echo "long tests took $(( $(date +%s) - start )) s"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
