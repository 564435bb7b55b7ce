#!/usr/bin/env bash
# User code sees only the ABI (no QEMU needed; run after `make`): a program built by the
# build's own rule for user objects, or by scripts/mpicc/mpicxx, compiles with the
# headers meant for it (runtime, services, kernel ABI, LWMPI) and fails to compile when
# it includes a header internal to the kernel, the HAL, the support library, the
# services or LWMPI. One result line per test; appends PASS/FAIL lines to $RESULTS.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
. tests/launcher/result.sh
probe_dir=build/include-probe  # inside the tree: the build's pattern rule takes it as a source
rm -rf "$probe_dir" build/user/obj/$probe_dir
mkdir -p "$probe_dir"
trap 'rm -rf "$probe_dir" build/user/obj/$probe_dir' EXIT

# Compiles $probe_dir/NAME.EXT with the build's user rule ("make") or with mpicc/mpicxx.
build_with() {  # how, name, ext -> compiler output; status of the compile
    local how=$1 src=$probe_dir/$2.$3
    case "$how" in
    make) make --no-print-directory -s "build/user/obj/$probe_dir/$2.o" 2>&1 ;;
    mpicc) if [ "$3" = cpp ]; then scripts/mpicxx -c "$src" -o "$probe_dir/$2.o" 2>&1
           else scripts/mpicc -c "$src" -o "$probe_dir/$2.o" 2>&1; fi ;;
    esac
}

cat >"$probe_dir/user_api.c" <<'C'
#include <nvx_abi.h>
#include <nvx/clock.h>
#include <nvx/icount_mark.h>
#include <nvx/ikc.h>
#include <nvx/launch.h>
#include <nvx/names.h>
#include <nvx/ranks.h>
#include <nvx/syscall.h>
#include <nvx/thread.h>
int probe(void) { return NVX_SYS_SLEEP_UNTIL + (int)sizeof(struct nvx_info); }
C
cat >"$probe_dir/mpi_api.cpp" <<'C'
#include <mpi.h>
#include <mputil/mputil.hpp>
#include <nvx/thread.h>
int probe() { return MPI_SUCCESS; }
C
for how in make mpicc; do
    out=$(build_with "$how" user_api c) && result "user-includes-$how-api" "" \
        || result "user-includes-$how-api" "the user API does not compile: $(echo "$out" | head -n3)"
done
out=$(build_with mpicc mpi_api cpp) && result "user-includes-mpicxx-api" "" \
    || result "user-includes-mpicxx-api" "the MPI API does not compile: $(echo "$out" | head -n3)"

# Headers no user program may reach, one per layer.
internal=(kernel/sched/thread.hpp kernel/abi/nvx_abi.h hal/board/board.hpp support/types.hpp
          services/protocol.h mputil/state.hpp libmpi/comm.hpp)
for header in "${internal[@]}"; do
    name=internal_$(echo "$header" | tr '/.' '__')
    printf '#include "%s"\nint probe() { return 0; }\n' "$header" >"$probe_dir/$name.cpp"
    for how in make mpicc; do
        test_name="user-includes-$how-refuses-${header//\//-}"
        if out=$(build_with "$how" "$name" cpp); then
            result "$test_name" "a user program included $header"
        elif [[ "$out" != *"$header: No such file or directory"* ]]; then
            result "$test_name" "failed for another reason: $(echo "$out" | grep -m1 error)"
        else
            result "$test_name" ""
        fi
    done
done
finish "user includes"
