// The profiling interface from C++ (MPI 3.1 chapter 14): a C++ program defines MPI_Send,
// MPI_Recv, MPI_Barrier and the variadic MPI_Pcontrol (they take mpi.h's C linkage), counts
// the calls in a class and forwards them to PMPI_*. Only the program's calls are counted: the
// barrier LWMPI's MPI_Sendrecv and collectives run inside do not reach the wrappers. Prints
// "rank R: mu_pmpi_cxx: K checks, F failed" like the C tests. Any rank count.
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>

namespace {

thread_local unsigned checks, failures;  // ranks are threads: per-rank counters

void check(bool ok, int line)
{
    checks++;
    if (!ok) {
        failures++;
        int rank = -1;
        PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
        printf("FAIL rank %d mu_pmpi_cxx.cpp:%d\n", rank, line);
    }
}
#define CHECK(cond) check((cond), __LINE__)

// What a tool keeps per rank.
class Profile {
public:
    void count(int& calls) { calls++; total_++; }
    int total() const { return total_; }
    int sends = 0, recvs = 0, barriers = 0, pcontrols = 0, last_level = -1;

private:
    int total_ = 0;
};
thread_local Profile profile;

}  // namespace

int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
    profile.count(profile.sends);
    return PMPI_Send(buf, count, type, dest, tag, comm);
}

int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm,
             MPI_Status* status)
{
    profile.count(profile.recvs);
    return PMPI_Recv(buf, count, type, source, tag, comm, status);
}

int MPI_Barrier(MPI_Comm comm)
{
    profile.count(profile.barriers);
    return PMPI_Barrier(comm);
}

int MPI_Pcontrol(const int level, ...)
{
    profile.count(profile.pcontrols);
    profile.last_level = level;
    va_list ap;  // a tool would read its own arguments here
    va_start(ap, level);
    va_end(ap);
    return PMPI_Pcontrol(level);
}

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int right = (rank + 1) % size, left = (rank + size - 1) % size;

    CHECK(MPI_Pcontrol(2, "flush") == MPI_SUCCESS);
    CHECK(profile.pcontrols == 1 && profile.last_level == 2);

    int out = rank, in = -1;
    if (rank % 2 == 0) {
        MPI_Send(&out, 1, MPI_INT, right, 1, MPI_COMM_WORLD);
        MPI_Recv(&in, 1, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&in, 1, MPI_INT, left, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&out, 1, MPI_INT, right, 1, MPI_COMM_WORLD);
    }
    CHECK(in == left);
    MPI_Sendrecv(&out, 1, MPI_INT, right, 2, &in, 1, MPI_INT, left, 2, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    int sum = 0;
    MPI_Allreduce(&out, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    CHECK(sum == size * (size - 1) / 2);
    MPI_Barrier(MPI_COMM_WORLD);

    CHECK(profile.sends == 1 && profile.recvs == 1);
    CHECK(profile.barriers == 1);
    CHECK(profile.total() == 4);
    printf("rank %d: mu_pmpi_cxx: %u checks, %u failed\n", rank, checks, failures);
    MPI_Finalize();
    return failures == 0 ? 0 : 1;
}
