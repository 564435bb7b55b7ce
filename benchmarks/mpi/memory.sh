#!/usr/bin/env bash
# `make bench-mpi-memory`: LWMPI's own memory on one compute cluster, per build (opt,
# unopt) and for 1, 4 and 12 ranks placed on that one cluster (--map-by compact), on each
# board named (default mppa256, 2 MiB per compute cluster, then mppa256-xl, 32 MiB: there
# the program's own buffers fit at 12 ranks and the collectives' peaks show). One table row
# per run, in KiB.
#
# Method (benchmarks/mpi/mpi_memory.c says it in full): everything is read from the
# allocator and the kernel, nothing is estimated. The runtime takes a picture of the
# cluster's memory (<nvx/memory.h>) just before LWMPI's start code runs; after MPI_Init
# rank 0 takes another while the other ranks wait in a barrier.
#   cluster     the cluster's memory for user space (the kernel's count: all it did not take)
#   image       the program's text, data and bss (this benchmark linked with LWMPI)
#   heap        LWMPI's malloc'd bytes in use after MPI_Init (newlib mallinfo uordblks,
#               after minus before): its tables, objects and its threads' control blocks
#   helpers     thread stacks LWMPI mapped besides the rank stacks (0: it starts no helper
#               thread; the runtime counts every stack it maps)
#   lwmpi       heap + helpers; the target is <= 64 KiB + 4 KiB per rank ("budget")
#   rank_stack  each rank's stack (the rank thread's own size), stacks = ranks x rank_stack
#   a2a_peak    lwmpi plus what an MPI_Alltoall of 4 KiB per rank pair made the heap take
#               beyond its top (newlib's sbrk high-water mark, reset at the phase's start,
#               after the program's own buffers exist) plus stacks mapped meanwhile;
#               NO_MEM: the collective returned MPI_ERR_NO_MEM (the run ends there);
#               no-room: the program's own buffers did not fit
#   ar_peak     the same for an MPI_Allreduce of 64 KiB (MPI_IN_PLACE, MPI_INT, MPI_SUM)
#   left        what the program's heap can still take after MPI_Init: the kernel's free
#               pages plus malloc's free bytes
#   left_end    what the program could actually malloc at the end (largest blocks until
#               none of 4 KiB fits)
#   benchmarks/mpi/memory.sh [BOARD...]   environment: RANKS (default "1 4 12"), PROGRAMS
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
boards=${*:-mppa256 mppa256-xl}
ranks=${RANKS:-1 4 12}
out=${PROGRAMS:-build/user/mpiprog}  # where mpi_memory.elf and mpi_memory_unopt.elf are
die() { echo "memory.sh: $*" >&2; exit 2; }
for board in $boards; do [ -f "build/$board/nvx.elf" ] || die "board $board not built: run 'make BOARD=$board' first"; done
[ -f "$out/mpi_memory.elf" ] || die "missing $out/mpi_memory.elf: run 'make' first"

kib() { [[ "$1" =~ ^[0-9]+$ ]] && echo $(( ($1 + 512) / 1024 )) || echo "${1:--}"; }
field() { sed -n "s/.* $1=\([^ ]*\).*/\1/p" <<<"$2" | head -1; }
# A collective's peak, or what ended it ("NO_MEM": an MPI_ERR_NO_MEM; "no-room": the
# program's own buffers did not fit; "-": the run ended before it).
peak() {
    local line
    line=$(grep "^memory-phase $1 " <<<"$2")
    if [ -z "$line" ]; then echo -; return; fi
    case "$line" in
        *failed=MPI_ERR_NO_MEM*) echo NO_MEM ;;
        *"failed=no room"*) echo no-room ;;
        *failed=*) echo failed ;;
        *) kib "$(field peak "$line")" ;;
    esac
}

format='%-6s %5s %7s %6s %5s %7s %6s %6s %6s %6s %8s %8s %5s %8s\n'
status=0
for board in $boards; do
    echo "# LWMPI memory on one $board compute cluster (KiB; compact placement)"
    printf "$format" build ranks cluster image heap helpers lwmpi budget rstack stacks a2a_peak ar_peak left left_end
    for variant in opt unopt; do
        suffix=""
        [ $variant = unopt ] && suffix=_unopt
        for np in $ranks; do
            log=$(scripts/nvx-run --board "$board" -np "$np" --map-by compact --insn-limit 40G \
                "$out/mpi_memory$suffix.elf" </dev/null 2>&1 | tr -d '\r')
            row=$(grep '^memory ' <<<"$log")
            if [ -z "$row" ]; then
                printf '%-6s %5s  failed: %s\n' $variant "$np" "$(grep -E 'lwmpi|refused|fit' <<<"$log" | head -2 | tr '\n' ' ')"
                status=1
                continue
            fi
            end=$(grep '^memory-end ' <<<"$log")
            printf "$format" $variant "$np" \
                "$(kib "$(field cluster "$row")")" "$(kib "$(field image "$row")")" "$(kib "$(field lwmpi_heap "$row")")" \
                "$(kib "$(field helper_stacks "$row")")" "$(kib "$(field lwmpi "$row")")" $((64 + 4 * np)) \
                "$(kib "$(field rank_stack "$row")")" "$(kib "$(field rank_stacks "$row")")" \
                "$(peak alltoall "$log")" "$(peak allreduce "$log")" \
                "$(kib "$(field heap_left "$row")")" "$(kib "$(field heap_left_end "$end")")"
        done
    done
    echo
done
exit $status
