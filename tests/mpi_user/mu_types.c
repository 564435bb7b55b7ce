/* Derived datatypes as applications use them: an array of structs described with
 * MPI_Type_create_struct + MPI_Type_create_resized (so count > 1 steps by sizeof), sent
 * and gathered; a sub-block of a matrix; MPI_Pack/MPI_Unpack round trips of mixed data
 * with MPI_Pack_size and MPI_PACKED messages; MPI_Get_count/MPI_Get_elements on partial
 * receives of derived types. Any rank count. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../mpi/mpi_check.h"

struct particle {
    double pos[3];
    int id;
    char kind;
}; /* padded: sizeof is 32, the data ends at 29 */

static MPI_Datatype particle_type(void)
{
    int lens[3] = {3, 1, 1};
    MPI_Aint disp[3] = {offsetof(struct particle, pos), offsetof(struct particle, id),
                        offsetof(struct particle, kind)};
    MPI_Datatype types[3] = {MPI_DOUBLE, MPI_INT, MPI_CHAR}, raw, t;
    MPI_Type_create_struct(3, lens, disp, types, &raw);
    MPI_Type_create_resized(raw, 0, sizeof(struct particle), &t);
    MPI_Type_free(&raw); /* t keeps what it needs */
    MPI_Type_commit(&t);
    return t;
}

static void make_particle(struct particle *p, int owner, int i)
{
    memset(p, 0xab, sizeof *p); /* the padding too */
    p->pos[0] = owner + i * 0.5;
    p->pos[1] = -owner;
    p->pos[2] = i * 0.125;
    p->id = owner * 1000 + i;
    p->kind = (char)('a' + (owner + i) % 26);
}

static int same_particle(const struct particle *a, const struct particle *b)
{
    return memcmp(a->pos, b->pos, sizeof a->pos) == 0 && a->id == b->id && a->kind == b->kind;
}

static void arrays_of_structs(int rank, int size)
{
    MPI_Datatype pt = particle_type();
    MPI_Aint lb, extent, tlb, textent;
    MPI_Type_get_extent(pt, &lb, &extent);
    MPI_Type_get_true_extent(pt, &tlb, &textent);
    CHECK_EQ(lb, 0);
    CHECK_EQ(extent, sizeof(struct particle));
    CHECK_EQ(tlb, 0);
    CHECK_EQ(textent, offsetof(struct particle, kind) + 1);
    int tsize;
    MPI_Type_size(pt, &tsize);
    CHECK_EQ(tsize, 3 * sizeof(double) + sizeof(int) + 1);

    enum { N = 9 };
    struct particle mine[N], got[N];
    for (int i = 0; i < N; i++)
        make_particle(&mine[i], rank, i);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    memset(got, 0, sizeof got);
    MPI_Status st;
    MPI_Sendrecv(mine, N, pt, right, 1, got, N, pt, left, 1, MPI_COMM_WORLD, &st);
    int bad = 0, count = -1;
    for (int i = 0; i < N; i++) {
        struct particle want;
        make_particle(&want, left, i);
        bad += !same_particle(&got[i], &want);
    }
    CHECK_EQ(bad, 0);
    MPI_Get_count(&st, pt, &count);
    CHECK_EQ(count, N);
    MPI_Get_elements(&st, pt, &count);
    CHECK_EQ(count, 5 * N);
    MPI_Get_count(&st, MPI_BYTE, &count);
    CHECK_EQ(count, N * tsize);

    /* Allgather of 2 particles per rank into an array of structs. */
    struct particle *all = malloc(2 * size * sizeof *all);
    MPI_Allgather(mine, 2, pt, all, 2, pt, MPI_COMM_WORLD);
    for (int r = 0; r < size; r++)
        for (int i = 0; i < 2; i++) {
            struct particle want;
            make_particle(&want, r, i);
            bad += !same_particle(&all[2 * r + i], &want);
        }
    CHECK_EQ(bad, 0);
    free(all);

    /* A partial receive: 4 particles into room for N, then 2 ints and a double of the next
     * particle (a partial element). */
    if (size >= 1) {
        MPI_Request rq;
        MPI_Irecv(got, N, pt, left, 2, MPI_COMM_WORLD, &rq);
        MPI_Send(mine, 4, pt, right, 2, MPI_COMM_WORLD);
        MPI_Wait(&rq, &st);
        MPI_Get_count(&st, pt, &count);
        CHECK_EQ(count, 4);
        MPI_Get_elements(&st, pt, &count);
        CHECK_EQ(count, 20);
        /* One particle and the pos and id of the next (a partial element): the sender
         * describes that prefix of the signature with a struct type. */
        int plens[5] = {3, 1, 1, 3, 1};
        MPI_Aint pdisp[5] = {0, 24, 28, 32, 56};
        MPI_Datatype ptypes[5] = {MPI_DOUBLE, MPI_INT, MPI_CHAR, MPI_DOUBLE, MPI_INT}, prefix;
        MPI_Type_create_struct(5, plens, pdisp, ptypes, &prefix);
        MPI_Type_commit(&prefix);
        memset(got, 0, sizeof got);
        MPI_Irecv(got, N, pt, left, 3, MPI_COMM_WORLD, &rq);
        MPI_Send(mine, 1, prefix, right, 3, MPI_COMM_WORLD);
        MPI_Wait(&rq, &st);
        MPI_Get_count(&st, pt, &count);
        CHECK_EQ(count, MPI_UNDEFINED);
        MPI_Get_elements(&st, pt, &count);
        CHECK_EQ(count, 9);
        MPI_Count big = -1;
        MPI_Get_elements_x(&st, pt, &big);
        CHECK_EQ(big, 9);
        MPI_Get_count(&st, MPI_BYTE, &count);
        CHECK_EQ(count, 2 * tsize - 1);
        struct particle want;
        make_particle(&want, left, 1);
        CHECK(got[1].pos[2] == want.pos[2] && got[1].id == want.id && got[1].kind == 0);
        MPI_Type_free(&prefix);
    }
    MPI_Type_free(&pt);
}

/* A 3x4 sub-block of an 8x10 matrix with a vector type, received as contiguous. */
static void sub_block(int rank, int size)
{
    double m[8][10], sub[12];
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 10; j++)
            m[i][j] = rank * 100 + i * 10 + j;
    MPI_Datatype block;
    MPI_Type_vector(3, 4, 10, MPI_DOUBLE, &block);
    MPI_Type_commit(&block);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Sendrecv(&m[2][3], 1, block, right, 4, sub, 12, MPI_DOUBLE, left, 4, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    int bad = 0;
    for (int i = 0; i < 3; i++)
        for (int j = 0; j < 4; j++)
            bad += sub[i * 4 + j] != left * 100 + (i + 2) * 10 + j + 3;
    CHECK_EQ(bad, 0);
    MPI_Type_free(&block);
}

/* Pack a header, a vector and a string; send as MPI_PACKED; unpack on the other side. */
static void pack_unpack(int rank, int size)
{
    int header[2] = {rank, 17}, ps = 0, total = 0;
    double vals[6] = {1.5, 2.5, 3.5, 4.5, 5.5, 6.5};
    char name[8] = "lwmpi!";
    MPI_Datatype every_other;
    MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &every_other);
    MPI_Type_commit(&every_other);
    MPI_Pack_size(2, MPI_INT, MPI_COMM_WORLD, &ps);
    total += ps;
    MPI_Pack_size(1, every_other, MPI_COMM_WORLD, &ps);
    CHECK(ps >= 3 * (int)sizeof(double));
    total += ps;
    MPI_Pack_size(8, MPI_CHAR, MPI_COMM_WORLD, &ps);
    total += ps;
    char *buf = malloc(total), *in = malloc(total);
    int pos = 0;
    CHECK_EQ(MPI_Pack(header, 2, MPI_INT, buf, total, &pos, MPI_COMM_WORLD), MPI_SUCCESS);
    CHECK_EQ(MPI_Pack(vals, 1, every_other, buf, total, &pos, MPI_COMM_WORLD), MPI_SUCCESS);
    CHECK_EQ(MPI_Pack(name, 8, MPI_CHAR, buf, total, &pos, MPI_COMM_WORLD), MPI_SUCCESS);
    CHECK(pos <= total);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    MPI_Status st;
    MPI_Sendrecv(buf, pos, MPI_PACKED, right, 5, in, total, MPI_PACKED, left, 5, MPI_COMM_WORLD, &st);
    int got = -1;
    MPI_Get_count(&st, MPI_PACKED, &got);
    CHECK_EQ(got, pos);
    int h[2] = {0, 0}, upos = 0;
    double v[6] = {0, 0, 0, 0, 0, 0};
    char nm[8] = {0};
    CHECK_EQ(MPI_Unpack(in, got, &upos, h, 2, MPI_INT, MPI_COMM_WORLD), MPI_SUCCESS);
    CHECK_EQ(MPI_Unpack(in, got, &upos, v, 1, every_other, MPI_COMM_WORLD), MPI_SUCCESS);
    CHECK_EQ(MPI_Unpack(in, got, &upos, nm, 8, MPI_CHAR, MPI_COMM_WORLD), MPI_SUCCESS);
    CHECK_EQ(upos, got);
    CHECK_EQ(h[0], left);
    CHECK_EQ(h[1], 17);
    CHECK(v[0] == 1.5 && v[2] == 3.5 && v[4] == 5.5 && v[1] == 0 && v[3] == 0);
    CHECK(strcmp(nm, "lwmpi!") == 0);
    /* A packed message received as its typed contents (the standard allows either). */
    int two[2] = {-1, -1};
    pos = 0;
    MPI_Pack(header, 2, MPI_INT, buf, total, &pos, MPI_COMM_WORLD);
    MPI_Sendrecv(buf, pos, MPI_PACKED, right, 6, two, 2, MPI_INT, left, 6, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    CHECK_EQ(two[0], left);
    /* Packing past the end of the buffer is MPI_ERR_TRUNCATE... on a returning handler. */
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    pos = total - 2;
    int err = MPI_Pack(header, 2, MPI_INT, buf, total, &pos, MPI_COMM_WORLD), cls = -1;
    MPI_Error_class(err, &cls);
    CHECK(cls == MPI_ERR_TRUNCATE);
    CHECK_EQ(pos, total - 2);
    upos = got - 1;
    err = MPI_Unpack(in, got, &upos, h, 2, MPI_INT, MPI_COMM_WORLD);
    MPI_Error_class(err, &cls);
    CHECK(cls == MPI_ERR_TRUNCATE);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Type_free(&every_other);
    free(buf);
    free(in);
}

/* Indexed and struct types with MPI_BOTTOM (absolute addresses from MPI_Get_address). */
static void absolute_addresses(int rank, int size)
{
    int a = rank, c[3] = {rank, rank + 1, rank + 2};
    double b = rank * 0.5;
    int ra = -1, rc[3] = {-1, -1, -1};
    double rb = -1;
    MPI_Aint disp[3], rdisp[3];
    MPI_Get_address(&a, &disp[0]);
    MPI_Get_address(&b, &disp[1]);
    MPI_Get_address(c, &disp[2]);
    MPI_Get_address(&ra, &rdisp[0]);
    MPI_Get_address(&rb, &rdisp[1]);
    MPI_Get_address(rc, &rdisp[2]);
    int lens[3] = {1, 1, 3};
    MPI_Datatype types[3] = {MPI_INT, MPI_DOUBLE, MPI_INT}, st, rt;
    MPI_Type_create_struct(3, lens, disp, types, &st);
    MPI_Type_create_struct(3, lens, rdisp, types, &rt);
    MPI_Type_commit(&st);
    MPI_Type_commit(&rt);
    int right = (rank + 1) % size, left = (rank + size - 1) % size;
    CHECK_EQ(MPI_Sendrecv(MPI_BOTTOM, 1, st, right, 7, MPI_BOTTOM, 1, rt, left, 7, MPI_COMM_WORLD,
                          MPI_STATUS_IGNORE), MPI_SUCCESS);
    CHECK_EQ(ra, left);
    CHECK(rb == left * 0.5);
    CHECK_EQ(rc[2], left + 2);
    MPI_Type_free(&st);
    MPI_Type_free(&rt);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    arrays_of_structs(rank, size);
    sub_block(rank, size);
    pack_unpack(rank, size);
    absolute_addresses(rank, size);
    int rc = check_finish("mu_types");
    MPI_Finalize();
    return rc;
}
