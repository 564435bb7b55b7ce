/* MPI_Pack_external, MPI_Unpack_external, MPI_Pack_external_size with "external32" (MPI 3.1
 * sections 4.3, 13.5.2): the packed bytes are big-endian with the standard's sizes, they
 * travel as MPI_BYTE and unpack on another rank into a derived type; other data
 * representations and bad arguments get their error classes. */
#include <stdint.h>
#include <string.h>

#include "suite.h"

static int error_class(int rc)
{
    int cls = MPI_SUCCESS;
    MPI_Error_class(rc, &cls);
    return cls;
}

struct sample {
    int32_t i;
    double d;
    int16_t s[2];
};

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    /* A struct type of int, double, 2 shorts: 4 + 8 + 4 = 16 external bytes. */
    const int lengths[] = {1, 1, 2};
    const MPI_Aint disps[] = {offsetof(struct sample, i), offsetof(struct sample, d),
                              offsetof(struct sample, s)};
    const MPI_Datatype members[] = {MPI_INT32_T, MPI_DOUBLE, MPI_INT16_T};
    MPI_Datatype sample_type;
    MPI_Type_create_struct(3, lengths, disps, members, &sample_type);
    MPI_Type_commit(&sample_type);
    MPI_Aint bytes = 0;
    MPI_Pack_external_size("external32", 2, sample_type, &bytes);
    SUITE_CHECK(bytes == 32, "external size of 2 samples: %ld", (long)bytes);

    const struct sample mine[2] = {{0x01020304 + rank, 1.0, {-2, 0x0506}},
                                   {rank, -2.0, {7, 8}}};
    unsigned char packed[32];
    MPI_Aint position = 0;
    SUITE_CHECK(MPI_Pack_external("external32", mine, 2, sample_type, packed, sizeof packed,
                                  &position) == MPI_SUCCESS && position == 32, "pack");
    const unsigned char head[16] = {0x01, 0x02, 0x03, (unsigned char)(0x04 + rank),
                                    0x3f, 0xf0, 0, 0, 0, 0, 0, 0, 0xff, 0xfe, 0x05, 0x06};
    SUITE_CHECK(memcmp(packed, head, 16) == 0, "external32 bytes of the first sample");

    /* Around the ring as bytes, then unpacked from big-endian on the receiver. */
    unsigned char arrived[32];
    MPI_Sendrecv(packed, 32, MPI_BYTE, (rank + 1) % size, 3, arrived, 32, MPI_BYTE,
                 (rank + size - 1) % size, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    struct sample theirs[2];
    memset(theirs, 0, sizeof theirs);
    MPI_Aint in = 0;
    SUITE_CHECK(MPI_Unpack_external("external32", arrived, 32, &in, theirs, 2, sample_type) ==
                MPI_SUCCESS && in == 32, "unpack");
    const int left = (rank + size - 1) % size;
    SUITE_CHECK(theirs[0].i == 0x01020304 + left && theirs[0].d == 1.0 && theirs[0].s[0] == -2 &&
                theirs[1].i == left && theirs[1].d == -2.0 && theirs[1].s[1] == 8,
                "unpacked samples of rank %d", left);

    /* Long double is 16 bytes of IEEE binary128 in external32. */
    const long double q = -3.0L;
    unsigned char qbytes[16];
    position = 0;
    MPI_Pack_external("external32", &q, 1, MPI_LONG_DOUBLE, qbytes, 16, &position);
    SUITE_CHECK(position == 16 && qbytes[0] == 0xc0 && qbytes[1] == 0x00 && qbytes[2] == 0x80,
                "long double -3 as binary128");

    /* Error classes. */
    position = 0;
    SUITE_CHECK(error_class(MPI_Pack_external("native", mine, 1, sample_type, packed, 32,
                                              &position)) == MPI_ERR_ARG, "datarep native");
    SUITE_CHECK(error_class(MPI_Pack_external_size("external64", 1, MPI_INT, &bytes)) == MPI_ERR_ARG,
                "datarep external64");
    SUITE_CHECK(error_class(MPI_Pack_external("external32", mine, -1, sample_type, packed, 32,
                                              &position)) == MPI_ERR_COUNT, "negative count");
    SUITE_CHECK(error_class(MPI_Pack_external("external32", mine, 1, MPI_DATATYPE_NULL, packed, 32,
                                              &position)) == MPI_ERR_TYPE, "null type");
    position = 20;
    SUITE_CHECK(error_class(MPI_Pack_external("external32", mine, 1, sample_type, packed, 32,
                                              &position)) == MPI_ERR_TRUNCATE && position == 20,
                "no room");
    in = 0;
    SUITE_CHECK(error_class(MPI_Unpack_external("external32", arrived, 8, &in, theirs, 1,
                                                sample_type)) == MPI_ERR_TRUNCATE, "short input");
    MPI_Type_free(&sample_type);
    return suite_finalize();
}
