// The calling rank's state, created on its first MPI call.
#include "rank_context.hpp"

#include <stdio.h>
#include <stdlib.h>

#include <mputil/mputil.hpp>

namespace lwmpi {

RankContext& first_rank_context()
{
    // Zero bytes are a valid RankContext: every member is an integer, a pointer or a
    // HandleTable, whose constexpr default state is all zero.
    void* context = calloc(1, sizeof(RankContext));
    if (context == nullptr) {
        printf("LWMPI: rank %d: no memory for the rank's state\n", mputil::world_rank());
        mputil::abort_run(MPI_ERR_NO_MEM);
    }
    mputil::set_rank_context(context);
    return *static_cast<RankContext*>(context);
}

}  // namespace lwmpi
