/* A Jacobi solver with halo exchange, the way a typical stencil code is written: a 2-D
 * process grid from MPI_Comm_split (one communicator per row and per column), ghost rows
 * sent as contiguous doubles and ghost columns as an MPI_Type_vector, every exchange an
 * MPI_Sendrecv with MPI_PROC_NULL at the edges. After the sweeps every rank compares its
 * block with the same sweeps done serially over the whole grid (bit-identical), and the
 * global residual from MPI_Allreduce with the serial one. Any rank count. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../mpi/mpi_check.h"

enum { NX = 6, NY = 5, SWEEPS = 30 }; /* local block: NY rows of NX columns */

/* The fixed boundary value of the global grid at (row, col). */
static double boundary(int row, int col) { return (double)((row * 7 + col * 3) % 11); }

/* One Jacobi sweep over rows 1..rows, columns 1..cols of a (rows+2) x (cols+2) grid. */
static void sweep(const double *in, double *out, int rows, int cols)
{
    int w = cols + 2;
    for (int r = 1; r <= rows; r++)
        for (int c = 1; c <= cols; c++)
            out[r * w + c] = 0.25 * (in[(r - 1) * w + c] + in[(r + 1) * w + c] +
                                     in[r * w + c - 1] + in[r * w + c + 1]);
}

static double residual(const double *a, const double *b, int rows, int cols)
{
    int w = cols + 2;
    double s = 0;
    for (int r = 1; r <= rows; r++)
        for (int c = 1; c <= cols; c++)
            s += fabs(a[r * w + c] - b[r * w + c]);
    return s;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int px = 1; /* process columns: the largest divisor of size not above its root */
    for (int d = 1; d * d <= size; d++)
        if (size % d == 0)
            px = d;
    int py = size / px, my_row = rank / px, my_col = rank % px;

    MPI_Comm row_comm, col_comm;
    CHECK_EQ(MPI_Comm_split(MPI_COMM_WORLD, my_row, my_col, &row_comm), MPI_SUCCESS);
    CHECK_EQ(MPI_Comm_split(MPI_COMM_WORLD, my_col, my_row, &col_comm), MPI_SUCCESS);
    int rsize, rrank, csize, crank;
    MPI_Comm_size(row_comm, &rsize);
    MPI_Comm_rank(row_comm, &rrank);
    MPI_Comm_size(col_comm, &csize);
    MPI_Comm_rank(col_comm, &crank);
    CHECK_EQ(rsize, px);
    CHECK_EQ(rrank, my_col);
    CHECK_EQ(csize, py);
    CHECK_EQ(crank, my_row);
    int west = my_col > 0 ? my_col - 1 : MPI_PROC_NULL;
    int east = my_col < px - 1 ? my_col + 1 : MPI_PROC_NULL;
    int north = my_row > 0 ? my_row - 1 : MPI_PROC_NULL;
    int south = my_row < py - 1 ? my_row + 1 : MPI_PROC_NULL;

    /* Local grid with one ghost layer; ghost cells on the global edge hold the boundary. */
    int w = NX + 2, cells = (NY + 2) * w;
    double *a = malloc(cells * sizeof(double)), *b = malloc(cells * sizeof(double));
    for (int r = 0; r < NY + 2; r++)
        for (int c = 0; c < w; c++) {
            int gr = my_row * NY + r, gc = my_col * NX + c; /* in the global ghosted grid */
            int edge = gr == 0 || gc == 0 || gr == py * NY + 1 || gc == px * NX + 1;
            a[r * w + c] = b[r * w + c] = edge ? boundary(gr, gc) : 0.0;
        }
    MPI_Datatype column;
    MPI_Type_vector(NY, 1, w, MPI_DOUBLE, &column);
    MPI_Type_commit(&column);

    double local_res = 0;
    for (int it = 0; it < SWEEPS; it++) {
        /* Halo: north/south rows (contiguous), west/east columns (vector). */
        MPI_Sendrecv(&a[1 * w + 1], NX, MPI_DOUBLE, north, 1, &a[(NY + 1) * w + 1], NX,
                     MPI_DOUBLE, south, 1, col_comm, MPI_STATUS_IGNORE);
        MPI_Sendrecv(&a[NY * w + 1], NX, MPI_DOUBLE, south, 2, &a[0 * w + 1], NX, MPI_DOUBLE,
                     north, 2, col_comm, MPI_STATUS_IGNORE);
        MPI_Status st;
        CHECK_EQ(MPI_Sendrecv(&a[w + 1], 1, column, west, 3, &a[w + NX + 1], 1, column, east, 3,
                              row_comm, &st), MPI_SUCCESS);
        if (east == MPI_PROC_NULL) {
            CHECK_EQ(st.MPI_SOURCE, MPI_PROC_NULL);
            CHECK_EQ(st.MPI_TAG, MPI_ANY_TAG);
        } else {
            int n = -1;
            MPI_Get_count(&st, column, &n);
            CHECK_EQ(n, 1);
            MPI_Get_elements(&st, column, &n);
            CHECK_EQ(n, NY);
        }
        MPI_Sendrecv(&a[w + NX], 1, column, east, 4, &a[w], 1, column, west, 4, row_comm,
                     MPI_STATUS_IGNORE);
        sweep(a, b, NY, NX);
        local_res = residual(a, b, NY, NX);
        double *t = a;
        a = b;
        b = t;
    }
    double global_res = -1;
    MPI_Allreduce(&local_res, &global_res, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

    /* The same sweeps over the whole grid on one rank's own. */
    int gw = px * NX + 2, gh = py * NY + 2;
    double *ga = malloc(gw * gh * sizeof(double)), *gb = malloc(gw * gh * sizeof(double));
    for (int r = 0; r < gh; r++)
        for (int c = 0; c < gw; c++) {
            int edge = r == 0 || c == 0 || r == gh - 1 || c == gw - 1;
            ga[r * gw + c] = gb[r * gw + c] = edge ? boundary(r, c) : 0.0;
        }
    double serial_res = 0;
    for (int it = 0; it < SWEEPS; it++) {
        sweep(ga, gb, gh - 2, gw - 2);
        serial_res = residual(ga, gb, gh - 2, gw - 2);
        double *t = ga;
        ga = gb;
        gb = t;
    }
    int bad = 0;
    for (int r = 1; r <= NY; r++)
        for (int c = 1; c <= NX; c++)
            bad += a[r * w + c] != ga[(my_row * NY + r) * gw + my_col * NX + c];
    CHECK_EQ(bad, 0);
    /* Sums in another order: equal to a few ulps. */
    CHECK(fabs(global_res - serial_res) <= 1e-9 * serial_res);
    CHECK(serial_res > 0);

    MPI_Type_free(&column);
    CHECK_EQ(column, MPI_DATATYPE_NULL);
    MPI_Comm_free(&row_comm);
    MPI_Comm_free(&col_comm);
    CHECK_EQ(row_comm, MPI_COMM_NULL);
    free(a);
    free(b);
    free(ga);
    free(gb);
    int rc = check_finish("mu_halo");
    MPI_Finalize();
    return rc;
}
