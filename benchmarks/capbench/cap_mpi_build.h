/* The LWMPI variant a program is linked against ("opt" or "unopt"), read from
 * MPI_Get_library_version ("..., variant opt"): one object serves both builds. */
#ifndef CAP_MPI_BUILD_H
#define CAP_MPI_BUILD_H
#include <stddef.h>

void cap_mpi_build_name(char *out, size_t size);
#endif
