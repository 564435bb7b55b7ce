// A rank that crashes, or calls abort_run, ends the whole run at once with a non-zero
// status while the other ranks wait for a message that never comes (no hang).
//   argument "crash": rank 1 stores through a null pointer (status 128 + 15)
//   argument "abort": rank 1 calls abort_run(7) (status 7)
#include <string.h>

#include <mputil/mputil.hpp>

#include "mputil_check.hpp"

using namespace mputil;

int main(int argc, char** argv)
{
    init();
    const char* mode = argc >= 2 ? argv[1] : "";
    if (world_rank() == 1) {
        printf("rank 1: about to %s\n", mode);
        fflush(stdout);
        if (strcmp(mode, "crash") == 0) {
            volatile int* nowhere = nullptr;
            *nowhere = 1;
        } else if (strcmp(mode, "abort") == 0) {
            abort_run(7);
        }
    }
    int value;
    Op* never = irecv(kAnySource, 1, 1, &value, sizeof value);  // nobody sends this
    int index;
    wait_some(&never, 1, &index, 1);
    MCHECK(false);  // unreachable: the run ended first
    return mcheck_finish("mputil_faults");
}
