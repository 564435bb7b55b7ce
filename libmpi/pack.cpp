// Packing typed buffers to contiguous bytes and back (libmpi's transport of non-contiguous
// data) and the MPI calls MPI_Pack, MPI_Unpack and MPI_Pack_size (MPI 3.1 section 4.2).
#include <limits.h>
#include <stdint.h>
#include <string.h>

#include "api.hpp"
#include "libmpi/datatype.hpp"
#include "libmpi/datatype_objects.hpp"
#include "libmpi/datatype_walk.hpp"
#include "libmpi/error_class.hpp"
#include "libmpi/handles.hpp"

namespace lwmpi {
namespace {

// Copies the window [first, first + limit) of the packed stream between the typed buffer
// and the packed bytes, run by run; stops the walk once the window is done.
struct WindowCopy {
    char* typed;
    char* packed;
    MPI_Aint first, limit;
    bool to_packed;
    MPI_Aint position = 0;  // stream offset of the next run

    bool operator()(MPI_Aint offset, MPI_Aint bytes) {
        const MPI_Aint end = first + limit;
        const MPI_Aint low = position > first ? position : first;
        const MPI_Aint high = position + bytes < end ? position + bytes : end;
        if (low < high) {
            char* data = byte_at(typed, offset + (low - position));
            char* stream = packed + (low - first);
            const size_t n = static_cast<size_t>(high - low);
            if (to_packed) {
                memcpy(stream, data, n);
            } else {
                memcpy(data, stream, n);
            }
        }
        position += bytes;
        return position < end;
    }
};

size_t copy_window(MPI_Datatype type, void* typed, int count, size_t first, size_t max_bytes,
                   void* packed, bool to_packed) {
    const TypeNode* node = type_node(type);
    const size_t total = static_cast<size_t>(node->layout.size) * static_cast<size_t>(count > 0 ? count : 0);
    if (first >= total || max_bytes == 0) return 0;
    const size_t limit = total - first < max_bytes ? total - first : max_bytes;
    WindowCopy copy{static_cast<char*>(typed), static_cast<char*>(packed),
                    static_cast<MPI_Aint>(first), static_cast<MPI_Aint>(limit), to_packed};
    ByteRunWalker<WindowCopy> walker(copy);
    walker.walk(node, 0, count);
    return limit;
}

bool comm_handle_plausible(MPI_Comm comm) {
    return handle_kind(comm) == LWMPI_KIND_COMM && handle_origin(comm) != LWMPI_ORIGIN_NULL;
}

// Checks shared by MPI_Pack and MPI_Unpack; `bytes` gets the packed size of the data.
int check_pack_args(int count, MPI_Datatype type, int size, const int* position,
                    MPI_Comm comm, MPI_Aint* bytes) {
    if (!comm_handle_plausible(comm)) return MPI_ERR_COMM;
    if (count < 0) return MPI_ERR_COUNT;
    if (type_check(type, true) != MPI_SUCCESS) return MPI_ERR_TYPE;
    if (position == nullptr || size < 0 || *position < 0 || *position > size) return MPI_ERR_ARG;
    *bytes = type_size(type) * count;
    // Nothing is copied unless all of it fits (MPI 3.1 section 4.2).
    if (*bytes > size - *position) return MPI_ERR_TRUNCATE;
    return MPI_SUCCESS;
}

int pack_error(MPI_Comm comm, int code) {
    return raise_error(comm_handle_plausible(comm) ? comm : MPI_COMM_WORLD, code);
}

}  // namespace

size_t pack_range(MPI_Datatype type, const void* buf, int count, size_t first, size_t max_bytes,
                  void* out) {
    return copy_window(type, const_cast<void*>(buf), count, first, max_bytes, out, true);
}

size_t unpack_range(MPI_Datatype type, const void* in, size_t first, size_t bytes, void* buf,
                    int count) {
    return copy_window(type, buf, count, first, bytes, const_cast<void*>(in), false);
}

size_t pack_bytes(MPI_Datatype type, const void* buf, int count, void* out) {
    return pack_range(type, buf, count, 0, SIZE_MAX, out);
}

size_t unpack_bytes(MPI_Datatype type, const void* in, size_t in_bytes, void* buf, int count) {
    return unpack_range(type, in, 0, in_bytes, buf, count);
}

}  // namespace lwmpi

using namespace lwmpi;

int api::Pack(const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf,
                        int outsize, int* position, MPI_Comm comm) {
    MPI_Aint bytes = 0;
    int rc = check_pack_args(incount, datatype, outsize, position, comm, &bytes);
    if (rc == MPI_SUCCESS && bytes > 0 && outbuf == nullptr) rc = MPI_ERR_BUFFER;
    if (rc != MPI_SUCCESS) return pack_error(comm, rc);
    pack_bytes(datatype, inbuf, incount, static_cast<char*>(outbuf) + *position);
    *position += static_cast<int>(bytes);
    return MPI_SUCCESS;
}

int api::Unpack(const void* inbuf, int insize, int* position, void* outbuf,
                          int outcount, MPI_Datatype datatype, MPI_Comm comm) {
    MPI_Aint bytes = 0;
    int rc = check_pack_args(outcount, datatype, insize, position, comm, &bytes);
    if (rc == MPI_SUCCESS && bytes > 0 && inbuf == nullptr) rc = MPI_ERR_BUFFER;
    if (rc != MPI_SUCCESS) return pack_error(comm, rc);
    unpack_bytes(datatype, static_cast<const char*>(inbuf) + *position, static_cast<size_t>(bytes),
                 outbuf, outcount);
    *position += static_cast<int>(bytes);
    return MPI_SUCCESS;
}

int api::Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int* size) {
    int rc = MPI_SUCCESS;
    if (!comm_handle_plausible(comm)) {
        rc = MPI_ERR_COMM;
    } else if (incount < 0) {
        rc = MPI_ERR_COUNT;
    } else if (type_check(datatype, true) != MPI_SUCCESS) {
        rc = MPI_ERR_TYPE;
    } else if (size == nullptr) {
        rc = MPI_ERR_ARG;
    } else if (type_size(datatype) * incount > INT_MAX) {
        rc = MPI_ERR_COUNT;  // the packed size does not fit the int result
    }
    if (rc != MPI_SUCCESS) return pack_error(comm, rc);
    *size = static_cast<int>(type_size(datatype) * incount);
    return MPI_SUCCESS;
}
