// Batches of collective transfers (see coll.hpp).
#include <stdlib.h>

#include "coll.hpp"
#include "datatype.hpp"

namespace lwmpi {

Exchange::Exchange(Comm& comm, int max_transfers, int tag)
    : comm_(comm),
      requests_(static_cast<Request*>(calloc(max_transfers > 0 ? max_transfers : 1, sizeof(Request)))),
      list_(static_cast<Request**>(calloc(max_transfers > 0 ? max_transfers : 1, sizeof(Request*)))),
      max_(max_transfers),
      tag_(tag)
{
    if (!requests_ || !list_)
        error_ = MPI_ERR_NO_MEM;
}

Exchange::~Exchange()
{
    wait();  // never leave a transfer behind, even on an error path
    free(requests_);
    free(list_);
}

void Exchange::add(bool is_send, const void* buf, int count, MPI_Datatype type, int peer)
{
    if (error_ != MPI_SUCCESS || used_ == max_) {
        if (error_ == MPI_SUCCESS)
            error_ = MPI_ERR_INTERN;
        return;
    }
    Request* r = &requests_[used_];
    request_setup(r, is_send, mputil::SendMode::Standard, &comm_, coll_context(comm_), buf, count,
                  type, peer, tag_);
    int err = request_start(r);
    if (err != MPI_SUCCESS) {
        request_teardown(r);
        error_ = err;
        return;
    }
    list_[used_++] = r;
}

void Exchange::send(int dest, const void* buf, int count, MPI_Datatype type)
{
    add(true, buf, count, type, dest);
}

void Exchange::recv(int source, void* buf, int count, MPI_Datatype type)
{
    add(false, buf, count, type, source);
}

// Byte counts above INT_MAX would need pieces; the boards' memories are far below that.
void Exchange::send_bytes(int dest, const void* buf, size_t bytes)
{
    add(true, buf, static_cast<int>(bytes), MPI_BYTE, dest);
}

void Exchange::recv_bytes(int source, void* buf, size_t bytes)
{
    add(false, buf, static_cast<int>(bytes), MPI_BYTE, source);
}

int Exchange::wait()
{
    if (used_ > 0) {
        request_wait(list_, used_, used_);
        for (int i = 0; i < used_; i++) {
            if (list_[i]->error != MPI_SUCCESS && error_ == MPI_SUCCESS)
                error_ = list_[i]->error;
            request_teardown(list_[i]);
        }
        used_ = 0;
    }
    return error_;
}

int reduce_shape(MPI_Datatype type, int count, MPI_Op op, ReduceShape* out)
{
    int err = check_op(op, type);
    if (err != MPI_SUCCESS)
        return err;
    out->type = type;
    out->count = count;
    // Cover both the data (true bounds) and the whole extent: operations may read an
    // element's padding (the pair types).
    MPI_Aint lb = type_lb(type), extent = type_extent(type);
    MPI_Aint true_lb = type_true_lb(type);
    MPI_Aint true_end = true_lb + type_true_extent(type) + (count - 1) * extent;
    MPI_Aint start = lb < true_lb ? lb : true_lb;
    MPI_Aint end = lb + count * extent > true_end ? lb + count * extent : true_end;
    out->span = count > 0 && end > start ? static_cast<size_t>(end - start) : 0;
    out->offset = -start;
    return MPI_SUCCESS;
}

}  // namespace lwmpi
