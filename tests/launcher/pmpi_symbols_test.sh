#!/usr/bin/env bash
# The profiling interface at link level (MPI 3.1 chapter 14; no QEMU, run after `make`):
# libmpi.a defines PMPI_x and a weak MPI_x for every row of mpi_functions.h, and neither it
# nor libmputil.a refers to an MPI_x (calls between functions go to the implementations, so
# a tool's wrappers see only the program's calls); a C and a C++ program that define MPI_x
# for every function link, and their definitions win. One result line per test.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
. tests/launcher/result.sh
work=$(mktemp -d "${TMPDIR:-/tmp}/pmpi-test.XXXXXX")
trap 'rm -rf "$work"' EXIT
NM=riscv64-unknown-elf-nm

rows=$(grep -cE '^LWMPI_(CALL|PLAIN)\(' libmpi/include/mpi_functions.h)
for variant in opt unopt; do
    lib=build/user/mpi/$variant/libmpi.a
    reason=""
    if [ ! -f "$lib" ]; then
        reason="$lib is not built"
    else
        $NM "$lib" >"$work/nm" 2>&1 || reason="nm failed: $(cat "$work/nm")"
        # Nor does the layer below call up into MPI.
        undefined=$({ cat "$work/nm"; $NM "build/user/mpi/$variant/libmputil.a"; } |
                    awk '$1 == "U" && $2 ~ /^P?MPI_/ { print $2 }' | sort -u | tr '\n' ' ')
        [ -z "$undefined" ] || reason="libmpi or libmputil refers to $undefined"
        weak=$(awk '$2 == "W" && $3 ~ /^MPI_/' "$work/nm" | wc -l)
        strong_mpi=$(awk '$2 ~ /^[TD]$/ && $3 ~ /^MPI_/ { print $3 }' "$work/nm" | tr '\n' ' ')
        pmpi=$(awk '$2 == "T" && $3 ~ /^PMPI_/' "$work/nm" | wc -l)
        if [ -z "$reason" ] && [ -n "$strong_mpi" ]; then
            reason="MPI_x not weak: $strong_mpi"
        elif [ -z "$reason" ] && { [ "$weak" != "$rows" ] || [ "$pmpi" != "$rows" ]; }; then
            reason="$rows functions in the table, $weak weak MPI_x and $pmpi PMPI_x in $lib"
        fi
    fi
    result "pmpi-symbols-$variant" "$reason"
done

# A program that wraps every function, generated from the table as a tool would be.
for lang in c cpp; do
    src=$work/wrap_all.$lang
    {
        echo '#include <mpi.h>'
        echo '#define LWMPI_CALL(name, when, params, args) int MPI_##name params { return PMPI_##name args; }'
        echo '#define LWMPI_PLAIN(ret, name, params, args) ret MPI_##name params { return PMPI_##name args; }'
        echo '#include <mpi_functions.h>'
        echo 'int main(int argc, char **argv) { MPI_Init(&argc, &argv); return MPI_Finalize(); }'
    } >"$src"
    wrapper=scripts/mpicc
    [ "$lang" = cpp ] && wrapper=scripts/mpicxx
    reason=""
    # -O0: main calls no wrapper inline, so the object's one .text (every wrapper) is kept.
    $wrapper -O0 -o "$work/wrap_all.elf" "$src" >"$work/log" 2>&1 || reason="link failed: $(head -c 600 "$work/log")"
    if [ -z "$reason" ]; then
        $NM "$work/wrap_all.elf" >"$work/nm"
        # The program's definitions are the ones linked, each forwarding to LWMPI's PMPI_x.
        for f in $(sed -n 's/^LWMPI_CALL(\([A-Za-z_]*\),.*/\1/p; s/^LWMPI_PLAIN([^,]*, *\([A-Za-z_]*\),.*/\1/p' \
                   libmpi/include/mpi_functions.h); do
            grep -q " T MPI_$f$" "$work/nm" || reason="${reason}MPI_$f is not the program's; "
            grep -q " T PMPI_$f$" "$work/nm" || reason="${reason}PMPI_$f missing; "
        done
    fi
    result "pmpi-wrap-every-function-$lang" "$reason"
done

finish "pmpi symbols"
