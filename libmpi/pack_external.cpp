// MPI_Pack_external, MPI_Unpack_external and MPI_Pack_external_size (MPI 3.1 section 4.3):
// the type map walked value by value, each converted to or from "external32".
#include <string.h>

#include "api.hpp"
#include "libmpi/datatype.hpp"
#include "libmpi/datatype_objects.hpp"
#include "libmpi/datatype_walk.hpp"
#include "libmpi/error_class.hpp"
#include "libmpi/external32.hpp"

namespace lwmpi {
namespace {

// The only data representation MPI 3.1 defines for these calls.
bool known_datarep(const char* datarep) {
    return datarep != nullptr && strcmp(datarep, "external32") == 0;
}

// Converts every value of the walked leaves between the typed buffer and the stream.
struct External32Copy {
    char* typed;
    char* stream;
    bool to_stream;
    bool operator()(const PredefinedType& leaf, MPI_Aint offset, MPI_Aint n) {
        const MPI_Aint extent = leaf.node.layout.extent();
        const MPI_Aint size = leaf.node.layout.size;
        for (MPI_Aint i = 0; i < n; i++) {
            char* value = byte_at(typed, offset + i * extent);
            if (to_stream) {
                external32_encode(leaf, value, stream);
            } else {
                external32_decode(leaf, stream, value);
            }
            stream += size;
        }
        return true;
    }
};

// Checks shared by the three calls; `bytes` gets the external size of the data.
int check_external(const char* datarep, int count, MPI_Datatype type, MPI_Aint* bytes) {
    if (!known_datarep(datarep)) return MPI_ERR_ARG;
    if (count < 0) return MPI_ERR_COUNT;
    if (type_check(type, true) != MPI_SUCCESS) return MPI_ERR_TYPE;
    *bytes = type_size(type) * count;  // external32 sizes are the native data sizes here
    return MPI_SUCCESS;
}

// Checks the buffer window: `bytes` must fit between *position and `room`.
int check_window(MPI_Aint room, const MPI_Aint* position, MPI_Aint bytes, const void* buffer) {
    if (position == nullptr || room < 0 || *position < 0 || *position > room) return MPI_ERR_ARG;
    if (bytes > room - *position) return MPI_ERR_TRUNCATE;  // nothing is copied then
    if (bytes > 0 && buffer == nullptr) return MPI_ERR_BUFFER;
    return MPI_SUCCESS;
}

}  // namespace
}  // namespace lwmpi

using namespace lwmpi;

int api::Pack_external(const char datarep[], const void* inbuf, int incount,
                       MPI_Datatype datatype, void* outbuf, MPI_Aint outsize,
                       MPI_Aint* position) {
    MPI_Aint bytes = 0;
    int rc = check_external(datarep, incount, datatype, &bytes);
    if (rc == MPI_SUCCESS) rc = check_window(outsize, position, bytes, outbuf);
    if (rc != MPI_SUCCESS) return world_error(rc);
    External32Copy copy{static_cast<char*>(const_cast<void*>(inbuf)),
                        static_cast<char*>(outbuf) + *position, true};
    walk_leaves(type_node(datatype), 0, incount, copy);
    *position += bytes;
    return MPI_SUCCESS;
}

int api::Unpack_external(const char datarep[], const void* inbuf, MPI_Aint insize,
                         MPI_Aint* position, void* outbuf, int outcount, MPI_Datatype datatype) {
    MPI_Aint bytes = 0;
    int rc = check_external(datarep, outcount, datatype, &bytes);
    if (rc == MPI_SUCCESS) rc = check_window(insize, position, bytes, inbuf);
    if (rc != MPI_SUCCESS) return world_error(rc);
    External32Copy copy{static_cast<char*>(outbuf),
                        static_cast<char*>(const_cast<void*>(inbuf)) + *position, false};
    walk_leaves(type_node(datatype), 0, outcount, copy);
    *position += bytes;
    return MPI_SUCCESS;
}

int api::Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype,
                            MPI_Aint* size) {
    MPI_Aint bytes = 0;
    int rc = check_external(datarep, incount, datatype, &bytes);
    if (rc == MPI_SUCCESS && size == nullptr) rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS) return world_error(rc);
    *size = bytes;
    return MPI_SUCCESS;
}
