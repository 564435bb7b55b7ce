// Setting the fields of a status the program owns (MPI 3.1 section 12.3): for generalized
// requests and libraries layered on MPI. The count is kept in bytes, as receives keep it.
#include "api.hpp"
#include "call.hpp"
#include "datatype.hpp"
#include "errhandler.hpp"

namespace lwmpi {
namespace {

// Bytes of packed data that hold exactly `elements` basic elements of `type`, so that
// MPI_Get_elements answers `elements` and MPI_Get_count the matching whole count.
MPI_Count bytes_of_elements(MPI_Datatype type, MPI_Count elements)
{
    const MPI_Aint size = type_size(type);
    MPI_Count per_type = 0;
    type_elements(type, static_cast<size_t>(size), &per_type);
    if (per_type <= 0)
        return 0;  // a type without data: no count of it has elements
    MPI_Count bytes = elements / per_type * size;
    const MPI_Count rest = elements % per_type;
    // The shortest prefix of one element of the type that holds `rest` basic elements.
    for (MPI_Aint prefix = 0; rest > 0 && prefix < size; prefix++) {
        MPI_Count n = 0;
        type_elements(type, static_cast<size_t>(prefix), &n);
        if (n == rest)
            return bytes + prefix;
    }
    return bytes;
}

int set_elements(MPI_Status* status, MPI_Datatype type, MPI_Count count)
{
    if (!status || status == MPI_STATUS_IGNORE)
        return world_error(MPI_ERR_ARG);
    int err = type_check(type, false);
    if (err == MPI_SUCCESS && count < 0)
        err = MPI_ERR_COUNT;
    if (err != MPI_SUCCESS)
        return world_error(err);
    status->lwmpi_count = bytes_of_elements(type, count);
    return MPI_SUCCESS;
}

}  // namespace
}  // namespace lwmpi

using namespace lwmpi;

int api::Status_set_elements(MPI_Status* status, MPI_Datatype type, int count)
{
    return set_elements(status, type, count);
}

int api::Status_set_elements_x(MPI_Status* status, MPI_Datatype type, MPI_Count count)
{
    return set_elements(status, type, count);
}

int api::Status_set_cancelled(MPI_Status* status, int flag)
{
    if (!status || status == MPI_STATUS_IGNORE)
        return world_error(MPI_ERR_ARG);
    status->lwmpi_cancelled = flag != 0;
    return MPI_SUCCESS;
}
