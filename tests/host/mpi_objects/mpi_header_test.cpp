// mpi.h: constant-expression handles, the encoding's kinds and origins, versions, and the
// same header compiled as C (mpi_header_c_test.c).
#include <gtest/gtest.h>
#include <mpi.h>

#include "libmpi/handles.hpp"

extern "C" int mpi_header_c_check(void);

namespace {

constexpr MPI_Datatype kStaticTypes[] = {MPI_INT, MPI_FLOAT_INT, MPI_PACKED};
static_assert(kStaticTypes[0] != kStaticTypes[1], "predefined handles are constants");
static_assert(MPI_VERSION == 3 && MPI_SUBVERSION == 1, "MPI 3.1");
static_assert(MPI_SUCCESS == 0 && MPI_ERR_LASTCODE == MPI_ERR_WIN, "error classes");
static_assert(MPI_ANY_SOURCE != MPI_PROC_NULL && MPI_ROOT != MPI_PROC_NULL, "special ranks");
static_assert(MPI_THREAD_SINGLE < MPI_THREAD_FUNNELED && MPI_THREAD_FUNNELED < MPI_THREAD_SERIALIZED &&
                  MPI_THREAD_SERIALIZED < MPI_THREAD_MULTIPLE,
              "thread levels are ordered");

TEST(Header, CompilesAsCWithStaticInitialisers) { EXPECT_EQ(mpi_header_c_check(), 1); }

TEST(Header, HandlesEncodeKindAndOrigin) {
    using namespace lwmpi;
    const struct {
        int handle;
        int kind;
        int origin;
    } cases[] = {
        {MPI_COMM_WORLD, LWMPI_KIND_COMM, LWMPI_ORIGIN_PREDEFINED},
        {MPI_COMM_NULL, LWMPI_KIND_COMM, LWMPI_ORIGIN_NULL},
        {MPI_GROUP_EMPTY, LWMPI_KIND_GROUP, LWMPI_ORIGIN_PREDEFINED},
        {MPI_GROUP_NULL, LWMPI_KIND_GROUP, LWMPI_ORIGIN_NULL},
        {MPI_DOUBLE, LWMPI_KIND_DATATYPE, LWMPI_ORIGIN_PREDEFINED},
        {MPI_DATATYPE_NULL, LWMPI_KIND_DATATYPE, LWMPI_ORIGIN_NULL},
        {MPI_MAXLOC, LWMPI_KIND_OP, LWMPI_ORIGIN_PREDEFINED},
        {MPI_OP_NULL, LWMPI_KIND_OP, LWMPI_ORIGIN_NULL},
        {MPI_ERRORS_RETURN, LWMPI_KIND_ERRHANDLER, LWMPI_ORIGIN_PREDEFINED},
        {MPI_ERRHANDLER_NULL, LWMPI_KIND_ERRHANDLER, LWMPI_ORIGIN_NULL},
        {MPI_REQUEST_NULL, LWMPI_KIND_REQUEST, LWMPI_ORIGIN_NULL},
        {MPI_INFO_NULL, LWMPI_KIND_INFO, LWMPI_ORIGIN_NULL},
        {MPI_MESSAGE_NULL, LWMPI_KIND_MESSAGE, LWMPI_ORIGIN_NULL},
        {MPI_MESSAGE_NO_PROC, LWMPI_KIND_MESSAGE, LWMPI_ORIGIN_PREDEFINED},
        {user_handle(LWMPI_KIND_DATATYPE, 5), LWMPI_KIND_DATATYPE, LWMPI_ORIGIN_USER},
    };
    for (const auto& c : cases) {
        EXPECT_GT(c.handle, 0) << std::hex << c.handle;
        EXPECT_EQ(handle_kind(c.handle), c.kind) << std::hex << c.handle;
        EXPECT_EQ(handle_origin(c.handle), c.origin) << std::hex << c.handle;
    }
    EXPECT_EQ(handle_index(user_handle(LWMPI_KIND_GROUP, 12345)), 12345);
    EXPECT_TRUE(is_user(user_handle(LWMPI_KIND_OP, 0), LWMPI_KIND_OP));
    EXPECT_FALSE(is_user(user_handle(LWMPI_KIND_OP, 0), LWMPI_KIND_DATATYPE));
    EXPECT_TRUE(is_predefined(MPI_SUM, LWMPI_KIND_OP));
    EXPECT_FALSE(is_predefined(MPI_OP_NULL, LWMPI_KIND_OP));
}

TEST(HandleTable, AddGetRemoveReuseAndGrow) {
    lwmpi::HandleTable<int> table;
    int values[100];
    for (int i = 0; i < 100; i++) {
        values[i] = i;
        ASSERT_EQ(table.add(&values[i]), i);  // grows past the first capacity
    }
    EXPECT_EQ(table.used(), 100);
    EXPECT_EQ(table.get(42), &values[42]);
    EXPECT_EQ(table.get(100), nullptr);
    EXPECT_EQ(table.get(-1), nullptr);
    EXPECT_EQ(table.remove(42), &values[42]);
    EXPECT_EQ(table.remove(42), nullptr);
    EXPECT_EQ(table.get(42), nullptr);
    EXPECT_EQ(table.remove(7), &values[7]);
    EXPECT_EQ(table.add(&values[0]), 7);  // the lowest free slot is reused first
    EXPECT_EQ(table.add(&values[1]), 42);
    EXPECT_EQ(table.add(&values[2]), 100);
    EXPECT_EQ(table.add(nullptr), -1);
    EXPECT_EQ(table.used(), 101);
    table.clear();
    EXPECT_EQ(table.used(), 0);
    EXPECT_EQ(table.get(0), nullptr);
    EXPECT_EQ(table.add(&values[3]), 0);
    table.clear();
}

TEST(HandleTable, RemovingTheLastEntryFreesTheSlots) {
    lwmpi::HandleTable<int> table;
    int a = 1, b = 2;
    ASSERT_EQ(table.add(&a), 0);
    ASSERT_EQ(table.add(&b), 1);
    EXPECT_GT(table.limit(), 0);
    table.remove(0);
    EXPECT_GT(table.limit(), 0);
    table.remove(1);
    EXPECT_EQ(table.limit(), 0);  // no slot array left to leak
    EXPECT_EQ(table.get(1), nullptr);
    EXPECT_EQ(table.add(&b), 0);
    table.remove(0);
}

}  // namespace
