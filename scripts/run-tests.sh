#!/usr/bin/env bash
# `make test`: host unit tests (CTest), launcher tests and guest tests (QEMU), then one summary line
# "N passed, M failed". Exits non-zero if anything failed. Arguments go to run-guest-tests.sh
# (-j N, a name filter).
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mkdir -p build
results=build/guest-results.txt
: >"$results"

host_passed=0
host_failed=0
if make --no-print-directory test-host >build/host-tests.log 2>&1; then host_ok=1; else host_ok=0; fi
cat build/host-tests.log | grep -E "tests passed|tests failed|Failed|\*\*\*" || true
line=$(grep -E "[0-9]+% tests passed, [0-9]+ tests? failed out of [0-9]+" build/host-tests.log | tail -1)
if [ -n "$line" ]; then
    total=$(echo "$line" | sed -E 's/.*out of ([0-9]+).*/\1/')
    host_failed=$(echo "$line" | sed -E 's/.*passed, ([0-9]+) tests? failed.*/\1/')
    host_passed=$((total - host_failed))
elif [ $host_ok = 0 ]; then
    echo "FAIL host: the host tests did not build or run (see build/host-tests.log)"
    host_failed=1
fi

# Every launcher test is a tests/launcher/*_test.sh of its own.
for t in tests/launcher/*_test.sh; do RESULTS=$results "$t"; done
RESULTS=$results scripts/run-guest-tests.sh "$@"
guest_passed=$(grep -c '^PASS' "$results" || true)
guest_failed=$(grep -c '^FAIL' "$results" || true)

passed=$((host_passed + guest_passed))
failed=$((host_failed + guest_failed))
echo "host: $host_passed passed, $host_failed failed; launcher and guest: $guest_passed passed, $guest_failed failed"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
