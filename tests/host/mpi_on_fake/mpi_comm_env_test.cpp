// Environment and error handling of libmpi: the lifecycle, thread levels, attributes, names,
// memory, and every argument error class with MPI_ERRORS_RETURN; fatal errors and
// MPI_Abort end the run with a report.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <thread>

#include "tests/host/support/mpi_world.hpp"

namespace {

TEST(Env, LifecycleVersionsAndThreadLevel)
{
    fake_mputil::run({0, 0}, [](int) {
        int flag = 1;
        EXPECT_EQ(MPI_Initialized(&flag), MPI_SUCCESS);
        EXPECT_EQ(flag, 0);
        int provided = -1;
        EXPECT_EQ(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_MULTIPLE, &provided), MPI_SUCCESS);
        EXPECT_EQ(provided, MPI_THREAD_SERIALIZED);  // one thread of a rank at a time: no locks
        MPI_Query_thread(&provided);
        EXPECT_EQ(provided, MPI_THREAD_SERIALIZED);
        MPI_Is_thread_main(&flag);
        EXPECT_EQ(flag, 1);
        MPI_Initialized(&flag);
        EXPECT_EQ(flag, 1);
        int v, sv;
        MPI_Get_version(&v, &sv);
        EXPECT_EQ(v * 10 + sv, 31);
        char lib[MPI_MAX_LIBRARY_VERSION_STRING];
        int len;
        MPI_Get_library_version(lib, &len);
        EXPECT_NE(std::string(lib).find("variant host"), std::string::npos) << lib;
        EXPECT_EQ(len, static_cast<int>(strlen(lib)));
        char name[MPI_MAX_PROCESSOR_NAME];
        EXPECT_EQ(MPI_Get_processor_name(name, &len), MPI_SUCCESS);
        EXPECT_GT(len, 0);
        double t0 = MPI_Wtime();
        EXPECT_GT(MPI_Wtick(), 0.0);
        EXPECT_GE(MPI_Wtime(), t0);
        MPI_Finalized(&flag);
        EXPECT_EQ(flag, 0);
        EXPECT_EQ(MPI_Finalize(), MPI_SUCCESS);
        MPI_Finalized(&flag);
        EXPECT_EQ(flag, 1);
    });
}

// SERIALIZED: a helper thread of each rank calls MPI for it while the rank's thread waits in
// join; what the helper creates belongs to the rank.
TEST(Env, AHelperThreadActsForItsRank)
{
    fake_mputil::run({0, 0, 1}, [](int r) {
        int provided = -1;
        ASSERT_EQ(MPI_Init_thread(nullptr, nullptr, MPI_THREAD_SERIALIZED, &provided), MPI_SUCCESS);
        EXPECT_EQ(provided, MPI_THREAD_SERIALIZED);
        MPI_Comm dup = MPI_COMM_NULL;
        int helper_rank = -1, helper_is_main = -1, sum = -1;
        std::thread helper([&] {
            fake_mputil::become_helper_of(r);
            MPI_Comm_rank(MPI_COMM_WORLD, &helper_rank);
            MPI_Is_thread_main(&helper_is_main);
            MPI_Allreduce(&r, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        });
        helper.join();
        EXPECT_EQ(helper_rank, r);
        EXPECT_EQ(helper_is_main, 0);
        EXPECT_EQ(sum, 0 + 1 + 2);
        int flag = -1, result = -1;
        MPI_Is_thread_main(&flag);
        EXPECT_EQ(flag, 1);
        ASSERT_NE(dup, MPI_COMM_NULL);
        EXPECT_EQ(MPI_Comm_compare(MPI_COMM_WORLD, dup, &result), MPI_SUCCESS);
        EXPECT_EQ(result, MPI_CONGRUENT);
        EXPECT_EQ(MPI_Comm_free(&dup), MPI_SUCCESS);
        EXPECT_EQ(MPI_Finalize(), MPI_SUCCESS);
    });
}

TEST(Env, AttributesOfTheWorld)
{
    mpi_world::run(2, [](int) {
        int* value = nullptr;
        int flag = 0;
        EXPECT_EQ(MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &value, &flag), MPI_SUCCESS);
        ASSERT_EQ(flag, 1);
        EXPECT_GE(*value, 32767);
        MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_WTIME_IS_GLOBAL, &value, &flag);
        EXPECT_EQ(flag, 1);
        MPI_Comm_get_attr(MPI_COMM_WORLD, MPI_UNIVERSE_SIZE, &value, &flag);
        EXPECT_EQ(*value, 2);
        MPI_Comm_get_attr(MPI_COMM_SELF, MPI_TAG_UB, &value, &flag);
        EXPECT_EQ(flag, 0);  // cached on MPI_COMM_WORLD only
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        EXPECT_EQ(MPI_Comm_get_attr(MPI_COMM_WORLD, 12345, &value, &flag), MPI_ERR_KEYVAL);
    });
}

TEST(Env, NamesAndMemory)
{
    mpi_world::run(1, [](int) {
        char name[MPI_MAX_OBJECT_NAME];
        int len;
        MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
        EXPECT_STREQ(name, "MPI_COMM_WORLD");
        MPI_Comm_get_name(MPI_COMM_SELF, name, &len);
        EXPECT_STREQ(name, "MPI_COMM_SELF");
        MPI_Comm_set_name(MPI_COMM_WORLD, "everyone");
        MPI_Comm_get_name(MPI_COMM_WORLD, name, &len);
        EXPECT_STREQ(name, "everyone");
        EXPECT_EQ(len, 8);
        std::string longer(300, 'x');
        MPI_Comm_set_name(MPI_COMM_SELF, longer.c_str());
        MPI_Comm_get_name(MPI_COMM_SELF, name, &len);
        EXPECT_EQ(len, MPI_MAX_OBJECT_NAME - 1);
        double* p = nullptr;
        EXPECT_EQ(MPI_Alloc_mem(1024, MPI_INFO_NULL, &p), MPI_SUCCESS);
        ASSERT_NE(p, nullptr);
        p[127] = 1.0;
        EXPECT_EQ(MPI_Free_mem(p), MPI_SUCCESS);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        EXPECT_EQ(MPI_Alloc_mem(-1, MPI_INFO_NULL, &p), MPI_ERR_ARG);
    });
}

TEST(Errors, EveryArgumentGetsItsClass)
{
    mpi_world::run(2, [](int rank) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Comm w = MPI_COMM_WORLD;
        int v[4] = {};
        MPI_Request r;
        EXPECT_EQ(MPI_Send(v, 1, MPI_INT, 1, 0, MPI_COMM_NULL), MPI_ERR_COMM);
        EXPECT_EQ(MPI_Send(v, 1, MPI_INT, 1, 0, 12345), MPI_ERR_COMM);
        EXPECT_EQ(MPI_Send(v, -1, MPI_INT, 1, 0, w), MPI_ERR_COUNT);
        EXPECT_EQ(MPI_Send(v, 1, MPI_DATATYPE_NULL, 1, 0, w), MPI_ERR_TYPE);
        EXPECT_EQ(MPI_Send(nullptr, 1, MPI_INT, 1, 0, w), MPI_ERR_BUFFER);
        EXPECT_EQ(MPI_Send(v, 1, MPI_INT, 2, 0, w), MPI_ERR_RANK);
        EXPECT_EQ(MPI_Send(v, 1, MPI_INT, MPI_ANY_SOURCE, 0, w), MPI_ERR_RANK);
        EXPECT_EQ(MPI_Send(v, 1, MPI_INT, 1, -5, w), MPI_ERR_TAG);
        EXPECT_EQ(MPI_Send(v, 1, MPI_INT, 1, MPI_ANY_TAG, w), MPI_ERR_TAG);
        EXPECT_EQ(MPI_Irecv(v, 1, MPI_INT, -7, 0, w, &r), MPI_ERR_RANK);
        EXPECT_EQ(MPI_Irecv(v, 1, MPI_INT, 0, 0, w, nullptr), MPI_ERR_ARG);
        MPI_Datatype loose;
        MPI_Type_contiguous(2, MPI_INT, &loose);  // never committed
        EXPECT_EQ(MPI_Send(v, 1, loose, 1, 0, w), MPI_ERR_TYPE);
        MPI_Type_free(&loose);
        r = 0x12345;
        EXPECT_EQ(MPI_Wait(&r, MPI_STATUS_IGNORE), MPI_ERR_REQUEST);
        MPI_Request bad[2] = {MPI_REQUEST_NULL, 77};
        EXPECT_EQ(MPI_Waitall(2, bad, MPI_STATUSES_IGNORE), MPI_ERR_REQUEST);
        EXPECT_EQ(MPI_Waitall(-1, bad, MPI_STATUSES_IGNORE), MPI_ERR_COUNT);
        r = MPI_REQUEST_NULL;
        EXPECT_EQ(MPI_Start(&r), MPI_ERR_REQUEST);
        EXPECT_EQ(MPI_Bcast(v, 1, MPI_INT, 2, w), MPI_ERR_ROOT);
        EXPECT_EQ(MPI_Reduce(v, v + 1, 1, MPI_INT, MPI_OP_NULL, 0, w), MPI_ERR_OP);
        EXPECT_EQ(MPI_Allreduce(v, v + 1, 1, MPI_INT, MPI_BAND + 1000, w), MPI_ERR_OP);
        EXPECT_EQ(MPI_Allreduce(v, v + 1, 1, MPI_DOUBLE, MPI_BAND, w), MPI_ERR_OP);
        EXPECT_EQ(MPI_Comm_split(w, -3, 0, &w), MPI_ERR_ARG);
        EXPECT_EQ(MPI_Comm_free(&w), MPI_ERR_COMM);  // the world cannot be freed
        MPI_Comm c = MPI_COMM_NULL;
        EXPECT_EQ(MPI_Comm_size(c, v), MPI_ERR_COMM);
        MPI_Errhandler eh = MPI_ERRHANDLER_NULL;
        EXPECT_EQ(MPI_Comm_set_errhandler(w, eh), MPI_ERR_ARG);
        EXPECT_EQ(MPI_Get_count(nullptr, MPI_INT, v), MPI_ERR_ARG);
        (void)rank;
    });
}

int g_handler_calls;
int g_handler_code;
void record_error(MPI_Comm*, int* code, ...)
{
    g_handler_calls++;
    g_handler_code = *code;
}

TEST(Errors, ProgramHandlersAreCalledAndInherited)
{
    mpi_world::run(1, [](int) {
        MPI_Errhandler eh;
        EXPECT_EQ(MPI_Comm_create_errhandler(record_error, &eh), MPI_SUCCESS);
        EXPECT_EQ(MPI_Comm_set_errhandler(MPI_COMM_WORLD, eh), MPI_SUCCESS);
        MPI_Errhandler got;
        MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got);
        EXPECT_EQ(got, eh);
        MPI_Errhandler_free(&got);
        EXPECT_EQ(MPI_Errhandler_free(&eh), MPI_SUCCESS);  // still in use by the world
        EXPECT_EQ(eh, MPI_ERRHANDLER_NULL);
        int v = 0;
        EXPECT_EQ(MPI_Send(&v, 1, MPI_INT, 5, 0, MPI_COMM_WORLD), MPI_ERR_RANK);
        EXPECT_EQ(g_handler_calls, 1);
        EXPECT_EQ(g_handler_code, MPI_ERR_RANK);
        MPI_Comm dup;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        EXPECT_EQ(MPI_Send(&v, 1, MPI_INT, 0, -1, dup), MPI_ERR_TAG);
        EXPECT_EQ(g_handler_calls, 2);
        MPI_Comm_free(&dup);
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    });
}

TEST(ErrorsDeathTest, FatalByDefaultNamingCallAndClass)
{
    EXPECT_EXIT(mpi_world::run(2, [](int rank) {
                    int v = 0;
                    if (rank == 0)
                        MPI_Send(&v, 1, MPI_INT, 9, 0, MPI_COMM_WORLD);
                }),
                testing::ExitedWithCode(MPI_ERR_RANK), "");
}

TEST(ErrorsDeathTest, CallsBeforeInitAreFatal)
{
    EXPECT_EXIT(fake_mputil::run({0}, [](int) {
                    int size;
                    MPI_Comm_size(MPI_COMM_WORLD, &size);
                }),
                testing::ExitedWithCode(MPI_ERR_OTHER), "");
}

TEST(ErrorsDeathTest, AbortEndsTheRunWithItsCode)
{
    EXPECT_EXIT(mpi_world::run(3, [](int rank) {
                    if (rank == 2)
                        MPI_Abort(MPI_COMM_WORLD, 42);
                    int v;
                    MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                }),
                testing::ExitedWithCode(42), "");
}

}  // namespace
