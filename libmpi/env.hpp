// The calling rank's place in the MPI lifecycle (Init ... Finalize).
#pragma once

namespace lwmpi {

// mpi_running() (every call asks it): rank_context.hpp.
int not_running();                     // the error of any other call made outside of them
// The value of a predefined attribute key of MPI_COMM_WORLD (8.1.2), else nullptr.
const int* predefined_attr(int keyval);

}  // namespace lwmpi
