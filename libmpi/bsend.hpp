// Buffered mode (MPI 3.1 sections 3.4, 3.6): a buffered send copies its data into the buffer
// the rank attached and sends the copy in standard mode, so it completes at once. The
// attached buffer is the only memory it uses: each pending message takes its packed size
// plus MPI_BSEND_OVERHEAD (a block header kept in the buffer itself, and alignment).
#pragma once

#include <stddef.h>

namespace lwmpi {

struct Request;
struct BsendBlock;

// The calling rank's attached buffer (one per rank: ranks are MPI's processes). All zero:
// none attached, which behaves as a buffer of size zero.
struct BsendBuffer {
    bool attached;
    char* base;
    int size;
    BsendBlock* live;  // blocks of messages not yet delivered, by address
};

// Starts a buffered send described by `r` (a send in SendMode::Buffered): copies the data
// into the attached buffer and starts its transfer; `r` is complete on return.
// MPI_SUCCESS, MPI_ERR_BUFFER (not enough room) or MPI_ERR_NO_MEM (nothing started).
int bsend_start(Request* r);

// MPI_Finalize: waits for the buffered messages, as MPI_Buffer_detach does.
void bsend_finalize();

}  // namespace lwmpi
