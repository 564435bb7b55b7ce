// Handle and status conversion between C and Fortran (MPI 3.1 section 17.2.4). LWMPI's
// handles are ints already, so a handle's Fortran value is the handle itself; f2c accepts a
// value only if it names a live object of the kind (or a predefined one), and gives the null
// handle of the kind for anything else.
#include "api.hpp"
#include "comm.hpp"
#include "datatype.hpp"
#include "errhandler.hpp"
#include "group.hpp"
#include "handles.hpp"
#include "info.hpp"
#include "op.hpp"
#include "rank_context.hpp"
#include "request.hpp"

using namespace lwmpi;

namespace {

int live_or(bool live, MPI_Fint value, int null_handle) { return live ? value : null_handle; }

bool message_live(MPI_Message m)
{
    return m == MPI_MESSAGE_NO_PROC ||
           (is_user(m, LWMPI_KIND_MESSAGE) && rank_context().messages.get(handle_index(m)));
}

// The Fortran status: source, tag and error where Fortran's MPI_SOURCE, MPI_TAG and MPI_ERROR
// index it, then the hidden fields (the cancelled flag, the byte count in two halves).
enum { kSource, kTag, kError, kCancelled, kCountLow, kCountHigh, kStatusInts };
static_assert(kStatusInts == MPI_STATUS_SIZE, "mpi.h's MPI_STATUS_SIZE is the layout's");

}  // namespace

MPI_Fint api::Comm_c2f(MPI_Comm comm) { return comm; }
MPI_Comm api::Comm_f2c(MPI_Fint comm) { return live_or(comm_get(comm), comm, MPI_COMM_NULL); }

MPI_Fint api::Type_c2f(MPI_Datatype datatype) { return datatype; }
MPI_Datatype api::Type_f2c(MPI_Fint datatype)
{
    return live_or(type_check(datatype, false) == MPI_SUCCESS, datatype, MPI_DATATYPE_NULL);
}

MPI_Fint api::Group_c2f(MPI_Group group) { return group; }
MPI_Group api::Group_f2c(MPI_Fint group)
{
    return live_or(group_check(group) == MPI_SUCCESS, group, MPI_GROUP_NULL);
}

MPI_Fint api::Request_c2f(MPI_Request request) { return request; }
MPI_Request api::Request_f2c(MPI_Fint request)
{
    return live_or(request_get(request), request, MPI_REQUEST_NULL);
}

MPI_Fint api::Op_c2f(MPI_Op op) { return op; }
MPI_Op api::Op_f2c(MPI_Fint op) { return live_or(op_valid(op), op, MPI_OP_NULL); }

MPI_Fint api::Info_c2f(MPI_Info info) { return info; }
MPI_Info api::Info_f2c(MPI_Fint info)
{
    return live_or(info_check(info, false) == MPI_SUCCESS, info, MPI_INFO_NULL);
}

MPI_Fint api::Errhandler_c2f(MPI_Errhandler errhandler) { return errhandler; }
MPI_Errhandler api::Errhandler_f2c(MPI_Fint errhandler)
{
    return live_or(errhandler_valid(errhandler), errhandler, MPI_ERRHANDLER_NULL);
}

MPI_Fint api::Message_c2f(MPI_Message message) { return message; }
MPI_Message api::Message_f2c(MPI_Fint message)
{
    return live_or(message_live(message), message, MPI_MESSAGE_NULL);
}

int api::Status_c2f(const MPI_Status* c_status, MPI_Fint* f_status)
{
    // MPI_STATUS(ES)_IGNORE hold no status: converting one is erroneous (17.2.5).
    if (!c_status || c_status == MPI_STATUS_IGNORE || !f_status)
        return world_error(MPI_ERR_ARG);
    uint64_t count = static_cast<uint64_t>(c_status->lwmpi_count);
    f_status[kSource] = c_status->MPI_SOURCE;
    f_status[kTag] = c_status->MPI_TAG;
    f_status[kError] = c_status->MPI_ERROR;
    f_status[kCancelled] = c_status->lwmpi_cancelled;
    f_status[kCountLow] = static_cast<MPI_Fint>(static_cast<uint32_t>(count));
    f_status[kCountHigh] = static_cast<MPI_Fint>(static_cast<uint32_t>(count >> 32));
    return MPI_SUCCESS;
}

int api::Status_f2c(const MPI_Fint* f_status, MPI_Status* c_status)
{
    if (!f_status || f_status == MPI_F_STATUS_IGNORE || !c_status || c_status == MPI_STATUS_IGNORE)
        return world_error(MPI_ERR_ARG);
    uint64_t count = static_cast<uint64_t>(static_cast<uint32_t>(f_status[kCountHigh])) << 32 |
                     static_cast<uint32_t>(f_status[kCountLow]);
    c_status->MPI_SOURCE = f_status[kSource];
    c_status->MPI_TAG = f_status[kTag];
    c_status->MPI_ERROR = f_status[kError];
    c_status->lwmpi_cancelled = f_status[kCancelled];
    c_status->lwmpi_count = static_cast<MPI_Count>(count);
    return MPI_SUCCESS;
}
