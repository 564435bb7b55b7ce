// The profiling interface (MPI 3.1 chapter 14): MPI_x is a weak alias of PMPI_x (entries.cpp),
// so a tool replaces MPI_x by defining it. MPI_Pcontrol is the program's message to such a
// tool; LWMPI has no profiling levels of its own, so the call does nothing, as the standard
// allows ("MPI libraries themselves make no use of this routine").
#include "api.hpp"

using namespace lwmpi;

int api::Pcontrol(const int, ...) { return MPI_SUCCESS; }
