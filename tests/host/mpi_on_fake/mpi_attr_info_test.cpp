// Attribute caching, info objects and MPI_Comm_create_group: the keyval and attribute tables
// and the info storage on their own (libmpi/attr.hpp, libmpi/info.hpp), then the MPI calls
// over the fake transport.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "libmpi/attr.hpp"
#include "libmpi/info.hpp"
#include "tests/host/support/mpi_world.hpp"

namespace {

using lwmpi::AttrKind;
using lwmpi::AttrList;
using lwmpi::Keyval;

// Every callback appends to this rank's log: "c<key>" for a copy, "d<key>" for a delete.
thread_local std::string callback_log;
thread_local int failing_key = -1;  // the extra_state whose callbacks fail

int key_of(void* extra) { return static_cast<int>(reinterpret_cast<intptr_t>(extra)); }
void* extra_for(int key) { return reinterpret_cast<void*>(static_cast<intptr_t>(key)); }

int logging_copy(int, int, void* extra, void* in, void* out, int* flag)
{
    callback_log += "c" + std::to_string(key_of(extra));
    if (key_of(extra) == failing_key)
        return MPI_ERR_OTHER;
    void* copied = static_cast<char*>(in) + 1;
    memcpy(out, &copied, sizeof copied);
    *flag = 1;
    return MPI_SUCCESS;
}

int logging_delete(int, int, void*, void* extra)
{
    callback_log += "d" + std::to_string(key_of(extra));
    return key_of(extra) == failing_key ? MPI_ERR_OTHER : MPI_SUCCESS;
}

// Runs `body` on one rank thread (the tables live in the rank's state), outside MPI.
void on_a_rank(const std::function<void()>& body)
{
    fake_mputil::run({0}, [&](int) {
        callback_log.clear();
        failing_key = -1;
        body();
        lwmpi::keyval_finalize();
    });
}

Keyval* make_keyval(int key, AttrKind kind = AttrKind::kComm)
{
    int handle = MPI_KEYVAL_INVALID;
    EXPECT_EQ(lwmpi::keyval_create(kind, logging_copy, logging_delete, extra_for(key), &handle),
              MPI_SUCCESS);
    return lwmpi::keyval_get(kind, handle);
}

TEST(AttrTable, SetGetReplaceDeleteInOrder)
{
    on_a_rank([] {
        Keyval* k1 = make_keyval(1);
        Keyval* k2 = make_keyval(2);
        ASSERT_NE(k1, nullptr);
        ASSERT_NE(k2, nullptr);
        EXPECT_EQ(lwmpi::keyval_get(AttrKind::kType, lwmpi::keyval_handle_of(*k1)), nullptr);
        char base[4];
        AttrList list{};
        void* value = nullptr;
        EXPECT_FALSE(lwmpi::attr_get(list, k1, &value));
        EXPECT_EQ(lwmpi::attr_set(list, 9, k1, base), MPI_SUCCESS);
        EXPECT_EQ(lwmpi::attr_set(list, 9, k2, base + 1), MPI_SUCCESS);
        EXPECT_EQ(callback_log, "");
        EXPECT_EQ(lwmpi::attr_set(list, 9, k1, base + 2), MPI_SUCCESS);
        EXPECT_EQ(callback_log, "d1");  // the old value's delete
        ASSERT_TRUE(lwmpi::attr_get(list, k1, &value));
        EXPECT_EQ(value, base + 2);
        EXPECT_EQ(lwmpi::attr_delete(list, 9, k2), MPI_SUCCESS);
        EXPECT_EQ(lwmpi::attr_delete(list, 9, k2), MPI_SUCCESS);  // not set: nothing to run
        EXPECT_EQ(callback_log, "d1d2");
        EXPECT_EQ(lwmpi::attr_set(list, 9, k2, base), MPI_SUCCESS);
        callback_log.clear();
        EXPECT_EQ(lwmpi::attr_delete_all(list, 9), MPI_SUCCESS);
        EXPECT_EQ(callback_log, "d2d1");  // newest first
        EXPECT_EQ(list.head, nullptr);
    });
}

TEST(AttrTable, CopyKeepsOrderAndUndoesOnFailure)
{
    on_a_rank([] {
        Keyval* k[4];
        for (int i = 1; i <= 3; i++)
            k[i] = make_keyval(i);
        char base[4];
        AttrList from{}, to{};
        for (int i = 1; i <= 3; i++)
            lwmpi::attr_set(from, 1, k[i], base);
        EXPECT_EQ(lwmpi::attr_copy_all(from, 1, 2, &to), MPI_SUCCESS);
        EXPECT_EQ(callback_log, "c3c2c1");
        callback_log.clear();
        lwmpi::attr_delete_all(to, 2);
        EXPECT_EQ(callback_log, "d3d2d1");  // the copy has the same order

        failing_key = 1;  // the last to copy fails: the two copied are deleted again
        callback_log.clear();
        EXPECT_EQ(lwmpi::attr_copy_all(from, 1, 2, &to), MPI_ERR_OTHER);
        EXPECT_EQ(callback_log, "c3c2c1d3d2");
        EXPECT_EQ(to.head, nullptr);

        // A failing delete stops delete_all there; what is left stays.
        callback_log.clear();
        failing_key = 2;
        EXPECT_EQ(lwmpi::attr_delete_all(from, 1), MPI_ERR_OTHER);
        EXPECT_EQ(callback_log, "d3d2");
        void* value;
        EXPECT_TRUE(lwmpi::attr_get(from, k[2], &value));
        EXPECT_TRUE(lwmpi::attr_get(from, k[1], &value));
        lwmpi::attr_clear(from);  // no callbacks
        EXPECT_EQ(callback_log, "d3d2");
    });
}

TEST(AttrTable, AFreedKeyvalLivesWhileAttributesUseIt)
{
    on_a_rank([] {
        Keyval* k = make_keyval(5);
        int handle = lwmpi::keyval_handle_of(*k);
        AttrList list{};
        char base[2];
        lwmpi::attr_set(list, 1, k, base);
        int freed = handle;
        EXPECT_EQ(lwmpi::keyval_free(AttrKind::kComm, &freed), MPI_SUCCESS);
        EXPECT_EQ(freed, MPI_KEYVAL_INVALID);
        EXPECT_EQ(lwmpi::keyval_get(AttrKind::kComm, handle), nullptr);  // gone for new calls
        EXPECT_EQ(lwmpi::keyval_free(AttrKind::kComm, &handle), MPI_ERR_KEYVAL);
        EXPECT_EQ(lwmpi::attr_delete_all(list, 1), MPI_SUCCESS);  // its callback still runs
        EXPECT_EQ(callback_log, "d5");
        int predefined = MPI_TAG_UB;
        EXPECT_EQ(lwmpi::keyval_free(AttrKind::kComm, &predefined), MPI_ERR_KEYVAL);
        EXPECT_EQ(lwmpi::keyval_free(AttrKind::kComm, nullptr), MPI_ERR_ARG);
    });
}

TEST(InfoStore, OrderReplaceRemoveCopy)
{
    lwmpi::Info* info = lwmpi::info_new();
    ASSERT_NE(info, nullptr);
    EXPECT_EQ(lwmpi::info_set(*info, "b", "1"), MPI_SUCCESS);
    EXPECT_EQ(lwmpi::info_set(*info, "a", "2"), MPI_SUCCESS);
    EXPECT_EQ(lwmpi::info_set(*info, "c", "3"), MPI_SUCCESS);
    EXPECT_EQ(lwmpi::info_set(*info, "b", "four"), MPI_SUCCESS);  // in place
    EXPECT_EQ(info->count, 3);
    EXPECT_STREQ(lwmpi::info_key_at(*info, 0), "b");
    EXPECT_STREQ(lwmpi::info_key_at(*info, 1), "a");
    EXPECT_STREQ(lwmpi::info_key_at(*info, 2), "c");
    EXPECT_EQ(lwmpi::info_key_at(*info, 3), nullptr);
    EXPECT_EQ(lwmpi::info_key_at(*info, -1), nullptr);
    EXPECT_STREQ(lwmpi::info_find(*info, "b"), "four");
    EXPECT_EQ(lwmpi::info_find(*info, "B"), nullptr);  // keys are case sensitive
    lwmpi::Info* copy = nullptr;
    ASSERT_EQ(lwmpi::info_copy(*info, &copy), MPI_SUCCESS);
    EXPECT_EQ(lwmpi::info_remove(*info, "a"), MPI_SUCCESS);
    EXPECT_EQ(lwmpi::info_remove(*info, "a"), MPI_ERR_INFO_NOKEY);
    EXPECT_STREQ(lwmpi::info_key_at(*info, 1), "c");
    EXPECT_EQ(copy->count, 3);
    EXPECT_STREQ(lwmpi::info_key_at(*copy, 1), "a");
    lwmpi::info_destroy(copy);
    lwmpi::info_destroy(info);
}

TEST(InfoStore, Limits)
{
    lwmpi::Info* info = lwmpi::info_new();
    // With their terminators they fill buffers of MPI_MAX_INFO_KEY and MPI_MAX_INFO_VAL.
    const std::string longest_key(MPI_MAX_INFO_KEY - 1, 'k');
    const std::string longest_value(MPI_MAX_INFO_VAL - 1, 'v');
    EXPECT_EQ(lwmpi::info_set(*info, longest_key.c_str(), longest_value.c_str()), MPI_SUCCESS);
    EXPECT_EQ(lwmpi::info_set(*info, (longest_key + "k").c_str(), "v"), MPI_ERR_INFO_KEY);
    EXPECT_EQ(lwmpi::info_set(*info, "", "v"), MPI_ERR_INFO_KEY);
    EXPECT_EQ(lwmpi::info_set(*info, nullptr, "v"), MPI_ERR_INFO_KEY);
    EXPECT_EQ(lwmpi::info_set(*info, "k", (longest_value + "v").c_str()), MPI_ERR_INFO_VALUE);
    EXPECT_EQ(lwmpi::info_set(*info, "k", nullptr), MPI_ERR_INFO_VALUE);
    EXPECT_EQ(lwmpi::info_set(*info, "empty", ""), MPI_SUCCESS);
    EXPECT_EQ(info->count, 2);  // failed sets change nothing
    EXPECT_EQ(std::string(lwmpi::info_find(*info, longest_key.c_str())), longest_value);
    lwmpi::info_destroy(info);
}

TEST(AttrCalls, DupAndFreeRunTheCallbacksOnEveryRank)
{
    mpi_world::run(5, [](int) {
        callback_log.clear();
        int key, flag;
        ASSERT_EQ(MPI_Comm_create_keyval(logging_copy, logging_delete, &key, extra_for(1)),
                  MPI_SUCCESS);
        char base[2];
        MPI_Comm dup, dup2;
        MPI_Comm_dup(MPI_COMM_WORLD, &dup);
        MPI_Comm_set_attr(dup, key, base);
        MPI_Comm_dup(dup, &dup2);
        void* value = nullptr;
        MPI_Comm_get_attr(dup2, key, &value, &flag);
        EXPECT_EQ(flag, 1);
        EXPECT_EQ(value, base + 1);
        MPI_Comm_free_keyval(&key);
        MPI_Comm_free(&dup);
        MPI_Comm_free(&dup2);
        EXPECT_EQ(callback_log, "c1d1d1");
    });
}

TEST(AttrCalls, SelfAttributesAreDeletedFirstAtFinalize)
{
    fake_mputil::run({0, 1}, [](int) {
        callback_log.clear();
        MPI_Init(nullptr, nullptr);
        int k1, k2;
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, logging_delete, &k1, extra_for(1));
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, logging_delete, &k2, extra_for(2));
        MPI_Comm_set_attr(MPI_COMM_SELF, k1, nullptr);
        MPI_Comm_set_attr(MPI_COMM_SELF, k2, nullptr);
        MPI_Comm_set_attr(MPI_COMM_WORLD, k1, nullptr);  // not deleted: only SELF's are
        EXPECT_EQ(MPI_Finalize(), MPI_SUCCESS);
        EXPECT_EQ(callback_log, "d2d1");
    });
}

// Delete callbacks that change the attributes of their own object, as libraries linking
// objects through attributes do: each attribute is deleted once and nothing is lost.
thread_local int linked_keys[3];
thread_local std::string linked_log;

int delete_linked(MPI_Comm comm, int, void*, void* extra)
{
    int me = key_of(extra);
    linked_log += "d" + std::to_string(me);
    if (me == 0)  // 0 and 1 delete each other
        MPI_Comm_delete_attr(comm, linked_keys[1]);
    else if (me == 1)
        MPI_Comm_delete_attr(comm, linked_keys[0]);
    else  // 2 sets a new attribute of key 0 and frees its own keyval
        MPI_Comm_set_attr(comm, linked_keys[0], nullptr), MPI_Comm_free_keyval(&linked_keys[2]);
    return MPI_SUCCESS;
}

TEST(AttrCalls, CallbacksThatChangeTheirObjectsAttributes)
{
    mpi_world::run(2, [](int) {
        linked_log.clear();
        for (int i = 0; i < 3; i++)
            MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, delete_linked, &linked_keys[i],
                                   extra_for(i));
        MPI_Comm comm;
        MPI_Comm_dup(MPI_COMM_WORLD, &comm);
        MPI_Comm_set_attr(comm, linked_keys[0], nullptr);
        MPI_Comm_set_attr(comm, linked_keys[1], nullptr);
        EXPECT_EQ(MPI_Comm_delete_attr(comm, linked_keys[0]), MPI_SUCCESS);
        EXPECT_EQ(linked_log, "d0d1");
        int flag = 1;
        void* value;
        MPI_Comm_get_attr(comm, linked_keys[1], &value, &flag);
        EXPECT_EQ(flag, 0);

        linked_log.clear();
        MPI_Comm_set_attr(comm, linked_keys[1], nullptr);
        MPI_Comm_set_attr(comm, linked_keys[2], nullptr);
        EXPECT_EQ(MPI_Comm_delete_attr(comm, linked_keys[2]), MPI_SUCCESS);  // sets key 0
        EXPECT_EQ(linked_keys[2], MPI_KEYVAL_INVALID);
        MPI_Comm_get_attr(comm, linked_keys[0], &value, &flag);
        EXPECT_EQ(flag, 1);
        EXPECT_EQ(MPI_Comm_free(&comm), MPI_SUCCESS);  // 0 and 1 left, deleting each other
        EXPECT_EQ(linked_log, "d2d0d1");
        MPI_Comm_free_keyval(&linked_keys[0]);
        MPI_Comm_free_keyval(&linked_keys[1]);
    });
}

// A failing delete callback on MPI_COMM_SELF fails MPI_Finalize, which then did nothing: the
// program may fix the cause and finalize again.
TEST(AttrCalls, AFailingSelfCallbackFailsFinalize)
{
    fake_mputil::run({0, 0}, [](int) {
        callback_log.clear();
        failing_key = 3;
        MPI_Init(nullptr, nullptr);
        MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
        int key;
        MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, logging_delete, &key, extra_for(3));
        MPI_Comm_set_attr(MPI_COMM_SELF, key, nullptr);
        EXPECT_EQ(MPI_Finalize(), MPI_ERR_OTHER);
        int flag = 1;
        MPI_Finalized(&flag);
        EXPECT_EQ(flag, 0);
        failing_key = -1;
        EXPECT_EQ(MPI_Finalize(), MPI_SUCCESS);
        EXPECT_EQ(callback_log, "d3d3");
    });
}

TEST(InfoCalls, HandlesAndErrors)
{
    mpi_world::run(2, [](int) {
        MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
        MPI_Info info;
        ASSERT_EQ(MPI_Info_create(&info), MPI_SUCCESS);
        EXPECT_EQ(MPI_Info_set(info, "key", "value"), MPI_SUCCESS);
        char value[8];
        int flag;
        EXPECT_EQ(MPI_Info_get(info, "key", 3, value, &flag), MPI_SUCCESS);
        EXPECT_STREQ(value, "val");
        EXPECT_EQ(MPI_Info_get(info, "key", -1, value, &flag), MPI_ERR_ARG);
        EXPECT_EQ(MPI_Info_delete(info, "nokey"), MPI_ERR_INFO_NOKEY);
        EXPECT_EQ(MPI_Info_set(MPI_INFO_NULL, "k", "v"), MPI_ERR_INFO);
        MPI_Info env = MPI_INFO_ENV;
        EXPECT_EQ(MPI_Info_free(&env), MPI_ERR_INFO);
        EXPECT_EQ(MPI_Info_get(MPI_INFO_ENV, "maxprocs", 7, value, &flag), MPI_SUCCESS);
        EXPECT_EQ(flag, 1);
        EXPECT_STREQ(value, "2");
        void* mem = nullptr;
        EXPECT_EQ(MPI_Alloc_mem(16, info, &mem), MPI_SUCCESS);
        MPI_Free_mem(mem);
        EXPECT_EQ(MPI_Info_free(&info), MPI_SUCCESS);
        EXPECT_EQ(MPI_Alloc_mem(16, info, &mem), MPI_SUCCESS);  // MPI_INFO_NULL now
        MPI_Free_mem(mem);
        EXPECT_EQ(MPI_Alloc_mem(16, MPI_COMM_WORLD, &mem), MPI_ERR_INFO);
        // Left behind on purpose: MPI_Finalize frees what the program did not.
        MPI_Info_create(&info);
        MPI_Info_set(info, "k", "v");
    });
}

class CreateGroup : public testing::TestWithParam<mpi_world::Placement> {};

// Disjoint groups (ranks by residue mod 3) create their communicators at the same time, each
// member from a different parent rank order; then every member talks in its communicator.
TEST_P(CreateGroup, DisjointGroupsAtOnce)
{
    mpi_world::run(GetParam(), [](int rank) {
        int size;
        MPI_Comm_size(MPI_COMM_WORLD, &size);
        std::vector<int> members;
        for (int r = size - 1; r >= 0; r--)
            if (r % 3 == rank % 3)
                members.push_back(r);
        MPI_Group world, group;
        MPI_Comm_group(MPI_COMM_WORLD, &world);
        MPI_Group_incl(world, static_cast<int>(members.size()), members.data(), &group);
        MPI_Comm comm = MPI_COMM_NULL;
        ASSERT_EQ(MPI_Comm_create_group(MPI_COMM_WORLD, group, rank % 3, &comm), MPI_SUCCESS);
        int n, me, sum = 0;
        MPI_Comm_size(comm, &n);
        MPI_Comm_rank(comm, &me);
        EXPECT_EQ(n, static_cast<int>(members.size()));
        EXPECT_EQ(members[me], rank);
        MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, comm);
        int expected = 0;
        for (int r : members)
            expected += r;
        EXPECT_EQ(sum, expected);
        MPI_Comm_free(&comm);
        MPI_Group_free(&group);
        MPI_Group_free(&world);
    });
    EXPECT_EQ(fake_mputil::pending_operations(), 0);
}

INSTANTIATE_TEST_SUITE_P(Placements, CreateGroup, testing::ValuesIn(mpi_world::sweep()),
                         [](const testing::TestParamInfo<mpi_world::Placement>& info) {
                             return std::to_string(info.param.ranks) + "ranks_" +
                                    std::to_string(info.param.per_cluster) +
                                    (info.param.compact ? "_compact" : "_scatter");
                         });

}  // namespace
