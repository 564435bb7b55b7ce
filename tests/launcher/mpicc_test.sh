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

# The spellings users bring from MPICH (-show without files, -compile_info, -link_info) and
# Open MPI (-showme, --showme:compile|link|command|incdirs|libdirs|version): print, never compile.
reason=""
out=$(scripts/mpicc -show 2>&1) || reason="-show without files failed: $out"
[[ -z "$reason" && "$out" == *libmpi.a* ]] || reason=${reason:-"-show without files: $out"}
for o in -showme --showme; do
    out=$(scripts/mpicc $o -o x.elf x.c 2>&1) && [[ "$out" == *libmpi.a*" x.c "* || "$out" == *" x.c "*libmpi.a* ]] ||
        reason=${reason:-"$o: $out"}
done
out=$(scripts/mpicc -compile_info x.c 2>&1)
[[ "$out" == *"-I"*libmpi/include* && "$out" != *libmpi.a* ]] || reason=${reason:-"-compile_info: $out"}
out=$(scripts/mpicc -link_info x.c 2>&1)
[[ "$out" == *libmpi.a* && "$out" == *crt0.o* ]] || reason=${reason:-"-link_info: $out"}
out=$(scripts/mpicc --showme:compile 2>&1)
[[ "$out" == *libmpi/include* && "$out" != *libmpi.a* && "$out" != *elf-gcc* ]] || reason=${reason:-"--showme:compile: $out"}
out=$(scripts/mpicc -showme:link 2>&1)
[[ "$out" == *libmpi.a* && "$out" != *libmpi/include* && "$out" != *elf-gcc* ]] || reason=${reason:-"-showme:link: $out"}
out=$(scripts/mpicxx --showme:command 2>&1)
[[ "$out" == *g++ ]] || reason=${reason:-"--showme:command: $out"}
out=$(scripts/mpicc --showme:incdirs 2>&1)
[[ "$out" == *libmpi/include* && "$out" != *-I* ]] || reason=${reason:-"--showme:incdirs: $out"}
out=$(scripts/mpicc --showme:version 2>&1)
[[ "$out" == *"MPI 3.1"* ]] || reason=${reason:-"--showme:version: $out"}
out=$(scripts/mpicc --showme:nonsense 2>&1); rc=$?
[ $rc = 2 ] || reason=${reason:-"--showme:nonsense: status $rc: $out"}
result mpicc-show-spellings "$reason"

# Like MPICH's and Open MPI's, the wrapper adds no warning options of its own.
cat >"$work/quiet.c" <<'C'
#include <mpi.h>
int main(int argc, char **argv) { MPI_Init(NULL, NULL); MPI_Finalize(); }
C
reason=""
scripts/mpicc -c "$work/quiet.c" -o "$work/quiet.o" >"$work/log" 2>&1 || reason="compile failed: $(cat "$work/log")"
[ -z "$reason" ] && [ -s "$work/log" ] && reason="warnings the program did not ask for: $(cat "$work/log")"
result mpicc-no-added-warnings "$reason"

# C++ with new/delete links (the runtime provides the allocation functions).
cat >"$work/alloc.cpp" <<'CPP'
#include <mpi.h>
struct Cell { int v; };
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    Cell* one = new Cell{1};
    int* many = new int[16];
    MPI_Comm_rank(MPI_COMM_WORLD, &one->v);  // the pointers escape: no new/delete elided
    MPI_Bcast(many, 16, MPI_INT, 0, MPI_COMM_WORLD);
    int r = one->v;
    delete one;
    delete[] many;
    MPI_Finalize();
    return r;
}
CPP
reason=""
scripts/mpicxx -O2 -o "$work/alloc.elf" "$work/alloc.cpp" >"$work/log" 2>&1 || reason="mpicxx failed: $(cat "$work/log")"
result mpicxx-new-delete "$reason"

finish "mpicc"
