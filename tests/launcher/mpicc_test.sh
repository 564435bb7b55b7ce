#!/usr/bin/env bash
# scripts/mpicc and mpicxx (no QEMU needed; run after `make`): -show, the variant choice,
# compiling and linking several sources, C++, bad requests. One result line per test;
# appends PASS/FAIL lines to $RESULTS.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
. tests/launcher/result.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/mpicc-test.XXXXXX")
trap 'rm -rf "$work"' EXIT

default=$(cat build/user/mpi/default-variant 2>/dev/null || echo missing)
out=$(scripts/mpicc -show -o x.elf x.c 2>&1)
[[ "$out" == *"/mpi/$default/libmpi.a"* && "$out" == *crt0.o* && "$out" == *" x.c "* ]] \
    && result mpicc-show "" || result mpicc-show "unexpected command: $out"

out=$(scripts/mpicc -mpi-variant=unopt -show x.c 2>&1)
[[ "$out" == *"/mpi/unopt/libmputil.a"* ]] && result mpicc-variant-flag "" || result mpicc-variant-flag "$out"
out=$(LWMPI_VARIANT=unopt scripts/mpicc -show x.c 2>&1)
[[ "$out" == *"/mpi/unopt/libmputil.a"* ]] && result mpicc-variant-env "" || result mpicc-variant-env "$out"

out=$(scripts/mpicc -mpi-variant=fast -show x.c 2>&1); rc=$?
[ $rc = 2 ] && [[ "$out" == *"unknown variant"* ]] && result mpicc-bad-variant "" || result mpicc-bad-variant "status $rc: $out"
out=$(scripts/mpicc 2>&1); rc=$?
[ $rc = 2 ] && [[ "$out" == *"no input files"* ]] && result mpicc-no-input "" || result mpicc-no-input "status $rc: $out"

cat >"$work/main.c" <<'C'
#include <math.h>
#include <mpi.h>
int twice(int);
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Finalize();
    return twice(rank) + (int)sqrt(0.0);
}
C
cat >"$work/twice.c" <<'C'
int twice(int x) { return 2 * x; }
C
cat >"$work/hello.cpp" <<'CPP'
#include <mpi.h>
static thread_local int calls;
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    calls++;
    MPI_Finalize();
    return calls - 1;
}
CPP
reason=""
scripts/mpicc -O2 -c "$work/twice.c" -o "$work/twice.o" >"$work/log" 2>&1 || reason="compile failed: $(cat "$work/log")"
[ -z "$reason" ] && { scripts/mpicc -O2 -o "$work/prog.elf" "$work/main.c" "$work/twice.o" -lm >"$work/log" 2>&1 || reason="link failed: $(cat "$work/log")"; }
[ -z "$reason" ] && { riscv64-unknown-elf-nm "$work/prog.elf" | grep -q " T nvx_program_main$" || reason="mputil's nvx_program_main is not linked"; }
[ -z "$reason" ] && { grep -q "LWMPI build variant: $default" "$work/prog.elf" || reason="no variant tag in the program"; }
result mpicc-compile-and-link "$reason"

reason=""
scripts/mpicxx -mpi-variant=unopt -o "$work/hello.elf" "$work/hello.cpp" >"$work/log" 2>&1 || reason="mpicxx failed: $(cat "$work/log")"
[ -z "$reason" ] && { grep -q "LWMPI build variant: unopt" "$work/hello.elf" || reason="not the unopt variant"; }
result mpicxx-cpp "$reason"

finish "mpicc"
