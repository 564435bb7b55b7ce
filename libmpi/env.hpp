// The calling rank's place in the MPI lifecycle (Init ... Finalize).
#pragma once

namespace lwmpi {

bool mpi_running();                    // between MPI_Init and MPI_Finalize on this rank
int not_running();                     // the error of any other call made outside of them
// The value of a predefined attribute key of MPI_COMM_WORLD (8.1.2), else nullptr.
const int* predefined_attr(int keyval);

}  // namespace lwmpi
