# Shared by the launcher tests (sourced, after `cd` to the tree): one PASS/FAIL line per
# test on stdout and appended to $RESULTS, counted for the closing summary line.
results=${RESULTS:-build/launcher-results.txt}
passed=0
failed=0

result() {  # name, failure reason (empty: pass)
    if [ -z "$2" ]; then
        echo "PASS launcher/$1"; echo "PASS launcher/$1" >>"$results"; passed=$((passed + 1))
    else
        echo "FAIL launcher/$1: $2"; echo "FAIL launcher/$1" >>"$results"; failed=$((failed + 1))
    fi
}

expect_refusal() {  # name, expected message fragment, nvx-run arguments: refused with status 2
    local name=$1 fragment=$2
    shift 2
    local out rc
    out=$(scripts/nvx-run "$@" 2>&1 </dev/null)
    rc=$?
    if [ $rc = 2 ] && [[ "$out" == *"$fragment"* ]]; then
        result "$name" ""
    else
        result "$name" "status $rc, output: $out"
    fi
}

finish() {  # suite name: prints "NAME: N passed, M failed"; the status says whether all passed
    echo "$1: $passed passed, $failed failed"
    [ "$failed" = 0 ]
}
