#include "cap_mpi_build.h"

#include <mpi.h>
#include <stdio.h>
#include <string.h>

void cap_mpi_build_name(char *out, size_t size)
{
    char version[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(version, &length);
    const char *v = strstr(version, "variant ");
    snprintf(out, size, "%s", v ? v + strlen("variant ") : "unknown");
}
