// A C++ MPI program built by mpicxx's rules: mpi.h from C++ (extern "C" linkage of the
// API, the handle constants in constant expressions), a C++ function as an MPI_User_function,
// a class template owning memory with new[]/delete[], a struct type from offsetof, nullptr
// buffers. Prints "rank R: mu_cxx: K checks, F failed" like the C tests. Any rank count.
#include <mpi.h>
#include <stddef.h>
#include <stdio.h>

namespace {

thread_local unsigned checks, failures;  // ranks are threads: per-rank counters

void check(bool ok, int line)
{
    checks++;
    if (!ok) {
        failures++;
        int rank = -1;
        MPI_Comm_rank(MPI_COMM_WORLD, &rank);
        printf("FAIL rank %d mu_cxx.cpp:%d\n", rank, line);
    }
}
#define CHECK(cond) check((cond), __LINE__)

struct Sample {
    double value;
    int count;
};

// Sums samples element-wise: a C++ function with C++ linkage, passed where mpi.h wants a
// pointer to its C function type.
void add_samples(void* in, void* inout, int* len, MPI_Datatype*)
{
    const Sample* a = static_cast<const Sample*>(in);
    Sample* b = static_cast<Sample*>(inout);
    for (int i = 0; i < *len; i++) {
        b[i].value += a[i].value;
        b[i].count += a[i].count;
    }
}

template <typename T>
class Buffer {
public:
    explicit Buffer(int n) : data_(new T[n]), size_(n) {}
    ~Buffer() { delete[] data_; }
    Buffer(const Buffer&) = delete;
    Buffer& operator=(const Buffer&) = delete;
    T& operator[](int i) { return data_[i]; }
    T* data() { return data_; }
    int size() const { return size_; }

private:
    T* data_;
    int size_;
};

// Handles are compile-time constants, usable where C++ needs constant expressions.
constexpr MPI_Comm kWorld = MPI_COMM_WORLD;
static_assert(MPI_COMM_WORLD != MPI_COMM_NULL, "distinct handles");

}  // namespace

int main(int argc, char** argv)
{
    MPI_Init(&argc, &argv);
    int rank = 0, size = 0;
    MPI_Comm_rank(kWorld, &rank);
    MPI_Comm_size(kWorld, &size);

    int lens[2] = {1, 1};
    MPI_Aint disp[2] = {offsetof(Sample, value), offsetof(Sample, count)};
    MPI_Datatype types[2] = {MPI_DOUBLE, MPI_INT};
    MPI_Datatype sample_type;
    MPI_Type_create_struct(2, lens, disp, types, &sample_type);
    MPI_Type_commit(&sample_type);
    MPI_Op add;
    CHECK(MPI_Op_create(add_samples, 1, &add) == MPI_SUCCESS);

    Buffer<Sample> mine(4);
    for (int i = 0; i < mine.size(); i++)
        mine[i] = Sample{rank + 0.25 * i, 1};
    Buffer<Sample> total(4);
    CHECK(MPI_Allreduce(mine.data(), total.data(), 4, sample_type, add, kWorld) == MPI_SUCCESS);
    for (int i = 0; i < 4; i++) {
        CHECK(total[i].count == size);
        CHECK(total[i].value == size * (size - 1) / 2.0 + size * 0.25 * i);
    }
    Sample* ring = new Sample;
    MPI_Status st;
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Sendrecv(&mine[1], 1, sample_type, right, 0, ring, 1, sample_type, left, 0, kWorld, &st);
    CHECK(ring->value == left + 0.25 && ring->count == 1);
    CHECK(st.MPI_SOURCE == left);
    delete ring;
    MPI_Sendrecv(nullptr, 0, MPI_INT, MPI_PROC_NULL, 0, nullptr, 0, MPI_INT, MPI_PROC_NULL, 0,
                 kWorld, &st);
    CHECK(st.MPI_SOURCE == MPI_PROC_NULL);

    MPI_Op_free(&add);
    MPI_Type_free(&sample_type);
    printf("rank %d: mu_cxx: %u checks, %u failed\n", rank, checks, failures);
    MPI_Finalize();
    return failures == 0 ? 0 : 1;
}
