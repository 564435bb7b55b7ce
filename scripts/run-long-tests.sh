#!/usr/bin/env bash
# `make test-long`: the guest cases of tests/guest/cases-long.txt (long soaks of every LWMPI
# protocol, the 10^6-message all-to-all), results in build/guest-long-results.txt, then the
# line "N passed, M failed" and the host time taken. Exits non-zero if anything failed.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mkdir -p build
results=build/guest-long-results.txt
: >"$results"
start=$(date +%s)
GUEST_CASES=tests/guest/cases-long.txt RESULTS=$results GUEST_TIMEOUT=1800 scripts/run-guest-tests.sh "$@"
passed=$(grep -c '^PASS' "$results" || true)
failed=$(grep -c '^FAIL' "$results" || true)
echo "$passed passed, $failed failed ($(( $(date +%s) - start )) s)"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
