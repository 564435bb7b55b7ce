#!/usr/bin/env bash
# `make bench-mpi-memory`: LWMPI's own memory on one cluster of a board (default mppa256,
# 2 MiB per compute cluster), per build (opt, unopt) and for 1, 4 and 12 ranks placed on
# that one cluster (--map-by compact). One table row per run, in KiB.
#
# Method (benchmarks/mpi/mpi_memory.c says it in full): everything is read from the
# allocator and the kernel, nothing is estimated. The runtime takes a picture of the
# cluster's memory (<nvx/memory.h>) just before LWMPI's start code runs; after MPI_Init
# rank 0 takes another while the other ranks wait in a barrier.
#   cluster     the cluster's memory for user space (the kernel's count: all it did not take)
#   image       the program's text, data and bss (this benchmark linked with LWMPI)
#   heap        LWMPI's malloc'd bytes in use after MPI_Init (newlib mallinfo uordblks,
#               after minus before): its tables, objects and its threads' control blocks
#   helpers     thread stacks LWMPI mapped besides the rank stacks (agent, portal writers,
#               rank watchers; the runtime counts every stack it maps)
#   lwmpi       heap + helpers; the target is <= 64 KiB + 4 KiB per rank ("budget")
#   rank_stack  each rank's stack (the rank thread's own size), stacks = ranks x rank_stack
#   a2a_peak    lwmpi plus what an MPI_Alltoall of 4 KiB per rank pair made the heap take
#               beyond its top (newlib's sbrk high-water mark, reset at the phase's start,
#               after the program's own buffers exist) plus stacks mapped meanwhile;
#               "-" when the program's buffers did not fit
#   ar_peak     the same for an MPI_Allreduce of 64 KiB (MPI_IN_PLACE, MPI_INT, MPI_SUM)
#   left        what the program's heap can still take after MPI_Init: the kernel's free
#               pages plus malloc's free bytes
#   left_end    what the program could actually malloc at the end (largest blocks until
#               none of 4 KiB fits)
#   benchmarks/mpi/memory.sh [BOARD]      environment: RANKS (default "1 4 12"), PROGRAMS
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
board=${1:-mppa256}
ranks=${RANKS:-1 4 12}
out=${PROGRAMS:-build/user/mpiprog}  # where mpi_memory.elf and mpi_memory_unopt.elf are
die() { echo "memory.sh: $*" >&2; exit 2; }
[ -f "build/$board/nvx.elf" ] || die "board $board not built: run 'make BOARD=$board' first"
[ -f "$out/mpi_memory.elf" ] || die "missing $out/mpi_memory.elf: run 'make' first"

kib() { [ "$1" = - ] && echo - || echo $(( ($1 + 512) / 1024 )); }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2"; }

echo "# LWMPI memory on one $board cluster (KiB; compact placement)"
printf '%-6s %5s %7s %6s %5s %7s %7s %6s %6s %6s %8s %7s %5s %8s\n' build ranks cluster image heap helpers lwmpi budget \
    rstack stacks a2a_peak ar_peak left left_end
status=0
for variant in opt unopt; do
    suffix=""
    [ $variant = unopt ] && suffix=_unopt
    for np in $ranks; do
        log=$(scripts/nvx-run --board "$board" -np "$np" --map-by compact --insn-limit 40G \
            "$out/mpi_memory$suffix.elf" </dev/null 2>&1 | tr -d '\r')
        row=$(grep '^memory ' <<<"$log")
        if [ -z "$row" ]; then
            printf '%-6s %5s  failed: %s\n' $variant "$np" "$(grep -E 'mpi_memory|lwmpi|refused|does not fit' <<<"$log" | head -2 | tr '\n' ' ')"
            status=1
            continue
        fi
        printf '%-6s %5s %7s %6s %5s %7s %7s %6s %6s %6s %8s %7s %5s %8s\n' $variant "$np" \
            "$(kib "$(field cluster "$row")")" "$(kib "$(field image "$row")")" "$(kib "$(field lwmpi_heap "$row")")" \
            "$(kib "$(field helper_stacks "$row")")" "$(kib "$(field lwmpi "$row")")" $((64 + 4 * np)) \
            "$(kib "$(field rank_stack "$row")")" "$(kib "$(field rank_stacks "$row")")" \
            "$(kib "$(field alltoall_peak "$row")")" "$(kib "$(field allreduce_peak "$row")")" \
            "$(kib "$(field heap_left "$row")")" "$(kib "$(field heap_left_end "$row")")"
    done
done
exit $status
