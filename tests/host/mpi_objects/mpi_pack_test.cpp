// MPI_Pack, MPI_Unpack, MPI_Pack_size and libmpi's pack/unpack of typed buffers: positions,
// truncation, windows (messages in pieces) and error classes (MPI 3.1 section 4.2).
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstring>
#include <vector>

#include "libmpi/datatype.hpp"
#include "tests/host/mpi_objects/mpi_obj_doubles.hpp"

namespace {

MPI_Datatype strided_ints(int count, int stride) {
    MPI_Datatype t;
    EXPECT_EQ(MPI_Type_vector(count, 1, stride, MPI_INT, &t), MPI_SUCCESS);
    EXPECT_EQ(MPI_Type_commit(&t), MPI_SUCCESS);
    return t;
}

TEST(Pack, SuccessiveCallsAppendAtThePosition) {
    const int ints[3] = {1, 2, 3};
    const double real = 4.5;
    char buffer[64];
    int position = 0;
    ASSERT_EQ(MPI_Pack(ints, 3, MPI_INT, buffer, sizeof(buffer), &position, MPI_COMM_WORLD),
              MPI_SUCCESS);
    EXPECT_EQ(position, 12);
    ASSERT_EQ(MPI_Pack(&real, 1, MPI_DOUBLE, buffer, sizeof(buffer), &position, MPI_COMM_WORLD),
              MPI_SUCCESS);
    EXPECT_EQ(position, 20);
    int ints_back[3] = {};
    double real_back = 0;
    int in = 0;
    ASSERT_EQ(MPI_Unpack(buffer, 20, &in, ints_back, 3, MPI_INT, MPI_COMM_WORLD), MPI_SUCCESS);
    ASSERT_EQ(MPI_Unpack(buffer, 20, &in, &real_back, 1, MPI_DOUBLE, MPI_COMM_WORLD), MPI_SUCCESS);
    EXPECT_EQ(in, 20);
    EXPECT_EQ(ints_back[2], 3);
    EXPECT_EQ(real_back, 4.5);
}

TEST(Pack, TooSmallOutputIsTruncateAndWritesNothing) {
    const int ints[4] = {1, 2, 3, 4};
    char buffer[12];
    memset(buffer, 0x77, sizeof(buffer));
    int position = 4;
    EXPECT_EQ(MPI_Pack(ints, 3, MPI_INT, buffer, sizeof(buffer), &position, MPI_COMM_WORLD),
              MPI_ERR_TRUNCATE);
    EXPECT_EQ(mpi_obj_test::last_error.code, MPI_ERR_TRUNCATE);
    EXPECT_STREQ(mpi_obj_test::last_error.call, "MPI_Pack");
    EXPECT_EQ(position, 4);
    for (char c : buffer) EXPECT_EQ(c, 0x77);
}

TEST(Pack, UnpackPastTheEndOfTheInputIsTruncateAndWritesNothing) {
    const int packed[2] = {5, 6};
    int out[3] = {-1, -1, -1};
    int position = 0;
    EXPECT_EQ(MPI_Unpack(packed, 8, &position, out, 3, MPI_INT, MPI_COMM_WORLD), MPI_ERR_TRUNCATE);
    EXPECT_EQ(position, 0);
    EXPECT_EQ(out[0], -1);
}

TEST(Pack, BadArgumentsGetTheirErrorClasses) {
    int data[2] = {};
    char buffer[16];
    int position = 0;
    EXPECT_EQ(MPI_Pack(data, -1, MPI_INT, buffer, 16, &position, MPI_COMM_WORLD), MPI_ERR_COUNT);
    EXPECT_EQ(MPI_Pack(data, 1, MPI_DATATYPE_NULL, buffer, 16, &position, MPI_COMM_WORLD),
              MPI_ERR_TYPE);
    EXPECT_EQ(MPI_Pack(data, 1, MPI_INT, buffer, 16, &position, MPI_COMM_NULL), MPI_ERR_COMM);
    EXPECT_EQ(MPI_Pack(data, 1, MPI_INT, buffer, 16, &position, MPI_INT), MPI_ERR_COMM);
    EXPECT_EQ(MPI_Pack(data, 1, MPI_INT, buffer, 16, nullptr, MPI_COMM_WORLD), MPI_ERR_ARG);
    position = 17;
    EXPECT_EQ(MPI_Pack(data, 1, MPI_INT, buffer, 16, &position, MPI_COMM_WORLD), MPI_ERR_ARG);
    position = 0;
    EXPECT_EQ(MPI_Pack(data, 1, MPI_INT, nullptr, 16, &position, MPI_COMM_WORLD), MPI_ERR_BUFFER);
    EXPECT_EQ(MPI_Unpack(buffer, -1, &position, data, 1, MPI_INT, MPI_COMM_WORLD), MPI_ERR_ARG);
    int size = 0;
    EXPECT_EQ(MPI_Pack_size(-1, MPI_INT, MPI_COMM_WORLD, &size), MPI_ERR_COUNT);
    EXPECT_EQ(MPI_Pack_size(1, MPI_INT, MPI_COMM_NULL, &size), MPI_ERR_COMM);
    EXPECT_EQ(MPI_Pack_size(1, MPI_INT, MPI_COMM_WORLD, nullptr), MPI_ERR_ARG);
    EXPECT_EQ(MPI_Pack_size(1 << 30, MPI_DOUBLE, MPI_COMM_WORLD, &size), MPI_ERR_COUNT);
}

TEST(Pack, PackSizeCoversThePackedData) {
    MPI_Datatype t = strided_ints(5, 3);
    int size = 0;
    ASSERT_EQ(MPI_Pack_size(7, t, MPI_COMM_SELF, &size), MPI_SUCCESS);
    EXPECT_EQ(size, 7 * 5 * 4);
    ASSERT_EQ(MPI_Pack_size(0, t, MPI_COMM_SELF, &size), MPI_SUCCESS);
    EXPECT_EQ(size, 0);
    MPI_Type_free(&t);
}

TEST(Pack, TruncatedUnpackFillsAPrefixOfTheTypeMap) {
    MPI_Datatype t = strided_ints(3, 2);
    const int packed[3] = {10, 20, 30};
    int out[6] = {-1, -1, -1, -1, -1, -1};
    // 6 bytes: the first int and half of the second.
    EXPECT_EQ(lwmpi::unpack_bytes(t, packed, 6, out, 1), 6u);
    EXPECT_EQ(out[0], 10);
    EXPECT_EQ(out[1], -1);
    int half = -1;  // low two bytes from the message, the rest untouched
    memcpy(&half, &packed[1], 2);
    EXPECT_EQ(out[2], half);
    EXPECT_EQ(out[4], -1);
    // More input than the buffer holds: only count * size bytes are used.
    EXPECT_EQ(lwmpi::unpack_bytes(t, packed, 1000, out, 1), 12u);
    EXPECT_EQ(out[4], 30);
    MPI_Type_free(&t);
}

TEST(Pack, WindowsConcatenateToTheWholePackedForm) {
    MPI_Datatype t = strided_ints(7, 3);
    std::vector<int> data(21 * 4);
    for (size_t i = 0; i < data.size(); i++) data[i] = static_cast<int>(i * 7 + 1);
    const size_t total = 4 * 7 * 4;
    std::vector<char> whole(total), pieces(total);
    ASSERT_EQ(lwmpi::pack_bytes(t, data.data(), 4, whole.data()), total);
    for (size_t piece : {1u, 3u, 5u, 13u, 64u}) {
        std::fill(pieces.begin(), pieces.end(), 0);
        size_t done = 0;
        while (done < total) {
            const size_t n = lwmpi::pack_range(t, data.data(), 4, done, piece, pieces.data() + done);
            ASSERT_GT(n, 0u);
            done += n;
        }
        EXPECT_EQ(pieces, whole) << "pieces of " << piece;
        std::vector<int> expected(data.size(), 0), back(data.size(), 0);
        ASSERT_EQ(lwmpi::unpack_bytes(t, whole.data(), total, expected.data(), 4), total);
        for (size_t first = 0; first < total; first += piece) {
            const size_t n = total - first < piece ? total - first : piece;
            EXPECT_EQ(lwmpi::unpack_range(t, whole.data() + first, first, n, back.data(), 4), n);
        }
        EXPECT_EQ(back, expected);
    }
    EXPECT_EQ(lwmpi::pack_range(t, data.data(), 4, total, 8, pieces.data()), 0u);
    MPI_Type_free(&t);
}

TEST(Pack, ContiguousTypesCopyOneBlock) {
    std::vector<double> data(1000);
    for (size_t i = 0; i < data.size(); i++) data[i] = static_cast<double>(i) / 3;
    std::vector<double> out(1000, 0);
    EXPECT_TRUE(lwmpi::type_is_contiguous(MPI_DOUBLE));
    EXPECT_EQ(lwmpi::pack_bytes(MPI_DOUBLE, data.data(), 1000, out.data()), 8000u);
    EXPECT_EQ(out, data);
}

}  // namespace
