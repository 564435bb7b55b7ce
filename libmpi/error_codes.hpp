// Error classes and codes the program adds (MPI 3.1 section 8.5), next to the predefined
// classes, which are also LWMPI's only predefined codes. They are per rank: MPI makes them
// per process, and LWMPI's ranks are its processes, so a rank never sees another's classes,
// whichever ranks share its cluster (MPI_Add_error_class is not collective).
#pragma once
#include <mpi.h>

namespace lwmpi {

// The text of a predefined or added code ("" for an added one with no string yet), or
// nullptr for a value that is not a code of the calling rank.
const char* error_code_string(int code);
// The class of a code, or -1 for a value that is not a code of the calling rank.
int error_code_class(int code);
// MPI_LASTUSEDCODE's value (the attribute of MPI_COMM_WORLD, returned by address).
const int* error_last_used_code();
void error_codes_finalize();  // MPI_Finalize: forgets the added classes and codes

}  // namespace lwmpi
