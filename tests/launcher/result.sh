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

finish() {  # suite name: prints "NAME: N passed, M failed"; the status says whether all passed
    echo "$1: $passed passed, $failed failed"
    [ "$failed" = 0 ]
}
