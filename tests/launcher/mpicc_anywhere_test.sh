#!/usr/bin/env bash
# mpicc, mpicxx, mpirun and nvx-run from anywhere (run after `make`; runs QEMU twice): links
# to them on PATH, an MPI program copied into a directory outside the tree, built there and
# run there (MPICH's wrappers work that way too), with private and with shared globals. Links to links and a link of another name
# to mpicxx keep the language. One result line per test.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
. tests/launcher/result.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/mpicc-anywhere.XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/bin" "$work/links" "$work/src"
for tool in mpicc mpicxx mpirun nvx-run; do ln -s "$root/scripts/$tool" "$work/links/$tool"; done
ln -s ../links/mpicc "$work/bin/mpicc"          # a link to a link, relative
ln -s "$work/links/mpicxx" "$work/bin/mpicxx"
ln -s "$root/scripts/mpicxx" "$work/bin/cxx-wrapper"  # another name: the language comes from the link
ln -s "$work/links/mpirun" "$work/bin/mpirun"
ln -s "$work/links/nvx-run" "$work/bin/nvx-run"
cp tests/mpi_suite/pmpi_count.c tests/mpi_suite/globals_private.c tests/mpi_suite/suite.h "$work/src/"
cat >"$work/src/hello.cpp" <<'CPP'
#include <mpi.h>
#include <stdio.h>
static thread_local int calls;
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    calls++;
    int sum = 0;
    MPI_Allreduce(&calls, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("hello from C++: %d of %d ranks\n", sum, size);
    MPI_Finalize();
    return 0;
}
CPP
in_work() {  # runs a command in the program's directory with only the links to find the tools
    (cd "$work/src" && PATH="$work/bin:$PATH" "$@")
}

reason=""
in_work mpicc -O2 -o pmpi_count.elf pmpi_count.c >"$work/log" 2>&1 || reason="mpicc failed: $(head -c 600 "$work/log")"
result mpicc-anywhere "$reason"

reason=""
in_work mpicxx -O2 -o hello.elf hello.cpp >"$work/log" 2>&1 || reason="mpicxx failed: $(head -c 600 "$work/log")"
out=$(in_work cxx-wrapper --showme:command 2>&1)
[[ "$out" == *g++ ]] || reason=${reason:-"a link named cxx-wrapper to mpicxx compiles with $out"}
out=$(in_work mpicc --showme:command 2>&1)
[[ "$out" == *gcc ]] || reason=${reason:-"the link to a link to mpicc compiles with $out"}
result mpicxx-anywhere "$reason"

reason=""
out=$(in_work mpirun --board tiny -np 3 --insn-limit 1G ./pmpi_count.elf 2>&1) || reason="mpirun: status $?"
[[ "$out" == *"No Errors"* ]] || reason=${reason:-"no 'No Errors' in: $(tail -c 400 <<<"$out")"}
result mpirun-anywhere "$reason"

reason=""
out=$(in_work nvx-run --board tiny -np 2 --insn-limit 1G hello.elf 2>&1) || reason="nvx-run: status $?"
[[ "$out" == *"hello from C++: 2 of 2 ranks"* ]] || reason=${reason:-"unexpected output: $(tail -c 400 <<<"$out")"}
result nvx-run-anywhere "$reason"

# Rank-private globals by default, shared with -shared-globals: nvx-run -v tells which.
reason=""
in_work mpicc -o globals.elf globals_private.c >"$work/log" 2>&1 || reason="mpicc failed: $(head -c 600 "$work/log")"
in_work mpicc -shared-globals -o shared.elf globals_private.c >"$work/log" 2>&1 ||
    reason=${reason:-"mpicc -shared-globals failed: $(head -c 600 "$work/log")"}
out=$(in_work nvx-run -v --board tiny -np 2 --map-by compact --insn-limit 1G globals.elf -n 5 -v name extra 2>&1) ||
    reason=${reason:-"private: status $?"}
[[ "$out" == *"No Errors"* && "$out" =~ "private globals: "[0-9]+" bytes, "[0-9]+" KiB per rank" ]] ||
    reason=${reason:-"private: $(tail -c 400 <<<"$out")"}
out=$(in_work nvx-run -v --board tiny -np 2 --map-by compact --insn-limit 1G shared.elf 2>&1) ||
    reason=${reason:-"shared: status $?"}
[[ "$out" == *"No Errors"* && "$out" == *"private globals: none"* ]] || reason=${reason:-"shared: $(tail -c 400 <<<"$out")"}
result mpicc-shared-globals "$reason"

finish "mpicc anywhere"
