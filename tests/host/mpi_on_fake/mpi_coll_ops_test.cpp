// Collectives over the host fake transport, on every placement of mpi_world::sweep() (odd
// sizes, one or many clusters, compact and scatter), every root, with MPI_IN_PLACE where the
// standard allows it, predefined and program operations (commutative or not).
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>
#include <vector>

#include "tests/host/support/mpi_world.hpp"

namespace {

using mpi_world::Placement;

class Coll : public testing::TestWithParam<Placement> {};

std::string name_of(const testing::TestParamInfo<Placement>& info)
{
    return std::to_string(info.param.ranks) + "ranks_" + std::to_string(info.param.per_cluster) +
           (info.param.compact ? "_compact" : "_scatter");
}

TEST_P(Coll, BarrierAndBcastFromEveryRoot)
{
    mpi_world::run(GetParam(), [](int rank) {
        int n;
        MPI_Comm_size(MPI_COMM_WORLD, &n);
        EXPECT_EQ(MPI_Barrier(MPI_COMM_WORLD), MPI_SUCCESS);
        for (int root = 0; root < n; root++) {
            std::vector<double> v(100, rank == root ? root + 0.5 : -1.0);
            EXPECT_EQ(MPI_Bcast(v.data(), 100, MPI_DOUBLE, root, MPI_COMM_WORLD), MPI_SUCCESS);
            EXPECT_EQ(v[0], root + 0.5);
            EXPECT_EQ(v[99], root + 0.5);
        }
        // A non-contiguous type: every other int.
        MPI_Datatype every_other;
        MPI_Type_vector(5, 1, 2, MPI_INT, &every_other);
        MPI_Type_commit(&every_other);
        int buf[10];
        for (int i = 0; i < 10; i++)
            buf[i] = rank == n - 1 ? i : -1;
        MPI_Bcast(buf, 1, every_other, n - 1, MPI_COMM_WORLD);
        for (int i = 0; i < 10; i++)
            EXPECT_EQ(buf[i], i % 2 == 0 || rank == n - 1 ? i : -1);
        MPI_Type_free(&every_other);
    });
}

TEST_P(Coll, ReduceAndAllreduceWithPredefinedOps)
{
    mpi_world::run(GetParam(), [](int rank) {
        int n;
        MPI_Comm_size(MPI_COMM_WORLD, &n);
        for (int root = 0; root < n; root += 2) {
            long v[3] = {rank, 2 * rank + 1, -rank}, out[3] = {0, 0, 0};
            EXPECT_EQ(MPI_Reduce(v, out, 3, MPI_LONG, MPI_SUM, root, MPI_COMM_WORLD), MPI_SUCCESS);
            if (rank == root) {
                EXPECT_EQ(out[0], n * (n - 1) / 2);
                EXPECT_EQ(out[1], n * n);
                EXPECT_EQ(out[2], -n * (n - 1) / 2);
            }
        }
        double d = rank + 1.0, prod = 0;
        MPI_Allreduce(&d, &prod, 1, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD);
        double expect = 1;
        for (int i = 1; i <= n; i++)
            expect *= i;
        EXPECT_EQ(prod, expect);
        int mx = rank * 3 % n, mn;
        MPI_Allreduce(&mx, &mn, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        EXPECT_EQ(mn, 0);
        unsigned bits = 1u << rank, all = 0;
        MPI_Allreduce(&bits, &all, 1, MPI_UNSIGNED, MPI_BOR, MPI_COMM_WORLD);
        EXPECT_EQ(all, (1u << n) - 1);
        // MAXLOC on (value, index) pairs: the largest value, lowest index on ties.
        struct { double value; int index; } pair = {static_cast<double>(rank % 3), rank}, best;
        MPI_Allreduce(&pair, &best, 1, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD);
        EXPECT_EQ(best.value, n >= 3 ? 2.0 : n - 1.0);
        EXPECT_EQ(best.index, n >= 3 ? 2 : n - 1);
        // In place.
        int in_place = rank;
        MPI_Allreduce(MPI_IN_PLACE, &in_place, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        EXPECT_EQ(in_place, n - 1);
        int at_root = rank + 1;
        MPI_Reduce(rank == 0 ? MPI_IN_PLACE : &at_root, &at_root, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
        if (rank == 0) {
            EXPECT_EQ(at_root, n * (n + 1) / 2);
        }
    });
}

// A non-commutative operation: 2x2 matrix product (row-major ints), so the result tells
// whether operands were combined in rank order.
void matmul(void* in, void* inout, int* len, MPI_Datatype*)
{
    int* a = static_cast<int*>(in);
    int* b = static_cast<int*>(inout);
    for (int k = 0; k < *len / 4; k++, a += 4, b += 4) {
        int c[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
                    a[2] * b[1] + a[3] * b[3]};
        memcpy(b, c, sizeof c);
    }
}

void rank_matrix(int r, int* m)
{
    m[0] = 1;
    m[1] = r + 1;
    m[2] = 0;
    m[3] = 1 + (r % 2);
}

void product(int from, int to, int* m)  // M(from) x ... x M(to - 1)
{
    int acc[4] = {1, 0, 0, 1};
    for (int r = from; r < to; r++) {
        int x[4], len = 4;
        rank_matrix(r, x);
        matmul(acc, x, &len, nullptr);  // x = acc * x
        memcpy(acc, x, sizeof acc);
    }
    memcpy(m, acc, sizeof acc);
}

TEST_P(Coll, NonCommutativeOpsCombineInRankOrder)
{
    mpi_world::run(GetParam(), [](int rank) {
        int n;
        MPI_Comm_size(MPI_COMM_WORLD, &n);
        MPI_Op op;
        ASSERT_EQ(MPI_Op_create(matmul, 0, &op), MPI_SUCCESS);
        int mine[4], out[4], expect[4];
        rank_matrix(rank, mine);
        MPI_Reduce(mine, out, 4, MPI_INT, op, n - 1, MPI_COMM_WORLD);
        product(0, n, expect);
        if (rank == n - 1) {
            EXPECT_EQ(std::vector<int>(out, out + 4), std::vector<int>(expect, expect + 4));
        }
        MPI_Scan(mine, out, 4, MPI_INT, op, MPI_COMM_WORLD);
        product(0, rank + 1, expect);
        EXPECT_EQ(std::vector<int>(out, out + 4), std::vector<int>(expect, expect + 4));
        MPI_Exscan(mine, out, 4, MPI_INT, op, MPI_COMM_WORLD);
        product(0, rank, expect);
        if (rank > 0) {
            EXPECT_EQ(std::vector<int>(out, out + 4), std::vector<int>(expect, expect + 4));
        }
        MPI_Op_free(&op);
    });
}

TEST_P(Coll, ScanAndExscanWithSum)
{
    mpi_world::run(GetParam(), [](int rank) {
        int v = rank + 1, s = 0;
        MPI_Scan(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        EXPECT_EQ(s, (rank + 1) * (rank + 2) / 2);
        s = -1;
        MPI_Exscan(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (rank > 0) {
            EXPECT_EQ(s, rank * (rank + 1) / 2);
        }
        int in_place = rank + 1;
        MPI_Scan(MPI_IN_PLACE, &in_place, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        EXPECT_EQ(in_place, (rank + 1) * (rank + 2) / 2);
    });
}

TEST_P(Coll, GatherScatterAndTheirVForms)
{
    mpi_world::run(GetParam(), [](int rank) {
        int n;
        MPI_Comm_size(MPI_COMM_WORLD, &n);
        int root = n / 2;
        int pair[2] = {rank, rank * rank};
        std::vector<int> all(2 * n, -1);
        EXPECT_EQ(MPI_Gather(pair, 2, MPI_INT, all.data(), 2, MPI_INT, root, MPI_COMM_WORLD), MPI_SUCCESS);
        if (rank == root)
            for (int r = 0; r < n; r++) {
                EXPECT_EQ(all[2 * r], r);
                EXPECT_EQ(all[2 * r + 1], r * r);
            }
        // Scatter back in place at the root.
        int back[2] = {-1, -1};
        EXPECT_EQ(MPI_Scatter(all.data(), 2, MPI_INT, rank == root ? MPI_IN_PLACE : back, 2, MPI_INT,
                              root, MPI_COMM_WORLD),
                  MPI_SUCCESS);
        if (rank != root) {
            EXPECT_EQ(back[1], rank * rank);
        }
        // Gatherv: rank r sends r + 1 values, placed with a gap of one.
        std::vector<int> counts(n), displs(n);
        int total = 0;
        for (int r = 0; r < n; r++) {
            counts[r] = r + 1;
            displs[r] = total;
            total += r + 2;
        }
        std::vector<int> mine(rank + 1, rank), got(total, -1);
        MPI_Gatherv(mine.data(), rank + 1, MPI_INT, got.data(), counts.data(), displs.data(), MPI_INT, 0,
                    MPI_COMM_WORLD);
        if (rank == 0)
            for (int r = 0; r < n; r++) {
                EXPECT_EQ(got[displs[r] + r], r);
                EXPECT_EQ(got[displs[r] + r + 1], -1);
            }
        std::vector<int> part(rank + 1, -1);
        MPI_Scatterv(got.data(), counts.data(), displs.data(), MPI_INT, part.data(), rank + 1, MPI_INT, 0,
                     MPI_COMM_WORLD);
        EXPECT_EQ(part[rank], rank);
    });
}

TEST_P(Coll, AllgatherAndAlltoall)
{
    mpi_world::run(GetParam(), [](int rank) {
        int n;
        MPI_Comm_size(MPI_COMM_WORLD, &n);
        std::vector<int> all(n, -1);
        MPI_Allgather(&rank, 1, MPI_INT, all.data(), 1, MPI_INT, MPI_COMM_WORLD);
        for (int r = 0; r < n; r++)
            EXPECT_EQ(all[r], r);
        std::vector<int> in_place(n, -1);
        in_place[rank] = rank * 10;
        MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, in_place.data(), 1, MPI_INT, MPI_COMM_WORLD);
        for (int r = 0; r < n; r++)
            EXPECT_EQ(in_place[r], r * 10);
        // Allgatherv: rank r contributes r values (rank 0 none).
        std::vector<int> counts(n), displs(n);
        int total = 0;
        for (int r = 0; r < n; r++) {
            counts[r] = r;
            displs[r] = total;
            total += r;
        }
        std::vector<int> mine(rank, rank), v(total + 1, -1);
        MPI_Allgatherv(mine.data(), rank, MPI_INT, v.data(), counts.data(), displs.data(), MPI_INT,
                       MPI_COMM_WORLD);
        for (int r = 0; r < n; r++)
            for (int i = 0; i < r; i++)
                EXPECT_EQ(v[displs[r] + i], r);
        // Alltoall: element j of rank i goes to rank j as element i.
        std::vector<int> out(2 * n), in(2 * n, -1);
        for (int j = 0; j < n; j++) {
            out[2 * j] = rank * 1000 + j;
            out[2 * j + 1] = -j;
        }
        MPI_Alltoall(out.data(), 2, MPI_INT, in.data(), 2, MPI_INT, MPI_COMM_WORLD);
        for (int i = 0; i < n; i++) {
            EXPECT_EQ(in[2 * i], i * 1000 + rank);
            EXPECT_EQ(in[2 * i + 1], -rank);
        }
        MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, out.data(), 2, MPI_INT, MPI_COMM_WORLD);
        EXPECT_EQ(out, in);
        // Alltoallv: rank i sends j + 1 values to rank j.
        std::vector<int> sc(n), sd(n), rc(n), rd(n);
        int st = 0, rt = 0;
        for (int j = 0; j < n; j++) {
            sc[j] = j + 1;
            sd[j] = st;
            st += j + 1;
            rc[j] = rank + 1;
            rd[j] = rt;
            rt += rank + 1;
        }
        std::vector<int> sbuf(st), rbuf(rt, -1);
        for (int j = 0; j < n; j++)
            for (int k = 0; k < sc[j]; k++)
                sbuf[sd[j] + k] = rank * 100 + j;
        MPI_Alltoallv(sbuf.data(), sc.data(), sd.data(), MPI_INT, rbuf.data(), rc.data(), rd.data(), MPI_INT,
                      MPI_COMM_WORLD);
        for (int i = 0; i < n; i++)
            EXPECT_EQ(rbuf[rd[i] + rank], i * 100 + rank);
    });
}

TEST_P(Coll, ReduceScatterBlockAndV)
{
    mpi_world::run(GetParam(), [](int rank) {
        int n;
        MPI_Comm_size(MPI_COMM_WORLD, &n);
        std::vector<int> in(2 * n);
        for (int i = 0; i < 2 * n; i++)
            in[i] = rank + i;
        int out[2] = {-1, -1};
        MPI_Reduce_scatter_block(in.data(), out, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        int base = n * (n - 1) / 2;
        EXPECT_EQ(out[0], base + n * (2 * rank));
        EXPECT_EQ(out[1], base + n * (2 * rank + 1));
        // Reduce_scatter: rank r gets r + 1 elements, in place.
        std::vector<int> counts(n);
        int total = 0;
        for (int r = 0; r < n; r++)
            total += counts[r] = r + 1;
        std::vector<int> data(total, 1);
        MPI_Reduce_scatter(MPI_IN_PLACE, data.data(), counts.data(), MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        for (int i = 0; i <= rank; i++)
            EXPECT_EQ(data[i], n);
    });
}

TEST_P(Coll, ReductionsOnDerivedTypesKeepTheirLayout)
{
    mpi_world::run(GetParam(), [](int rank) {
        int n;
        MPI_Comm_size(MPI_COMM_WORLD, &n);
        // Every other int of 6: the gaps must be left alone at the root.
        MPI_Datatype every_other;
        MPI_Type_vector(3, 1, 2, MPI_INT, &every_other);
        MPI_Type_commit(&every_other);
        int in[6] = {rank, -1, 2 * rank, -1, 1, -1}, out[6] = {7, 7, 7, 7, 7, 7};
        EXPECT_EQ(MPI_Allreduce(in, out, 1, every_other, MPI_SUM, MPI_COMM_WORLD), MPI_SUCCESS);
        EXPECT_EQ(out[0], n * (n - 1) / 2);
        EXPECT_EQ(out[2], n * (n - 1));
        EXPECT_EQ(out[4], n);
        EXPECT_EQ(out[1], 7);
        EXPECT_EQ(out[5], 7);
        MPI_Type_free(&every_other);
    });
}

INSTANTIATE_TEST_SUITE_P(Placements, Coll, testing::ValuesIn(mpi_world::sweep()), name_of);

TEST(CollSubcomms, CollectivesOnSplitsAndDupsAtOnce)
{
    mpi_world::run({12, 4, false}, [](int rank) {
        MPI_Comm thirds, dup;
        MPI_Comm_split(MPI_COMM_WORLD, rank % 3, rank, &thirds);
        MPI_Comm_dup(thirds, &dup);
        int size;
        MPI_Comm_size(thirds, &size);
        int sum = 0, world_sum = 0;
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, thirds);
        MPI_Allreduce(&rank, &world_sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        int again = 0;
        MPI_Allreduce(&rank, &again, 1, MPI_INT, MPI_SUM, dup);
        int expect = 0;
        for (int r = rank % 3; r < 12; r += 3)
            expect += r;
        EXPECT_EQ(size, 4);
        EXPECT_EQ(sum, expect);
        EXPECT_EQ(again, expect);
        EXPECT_EQ(world_sum, 66);
        MPI_Comm_free(&dup);
        MPI_Comm_free(&thirds);
    });
}

}  // namespace
