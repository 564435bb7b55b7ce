/* Helpers of the nonblocking-collective programs (nbc_*.c): a non-commutative operation
 * whose result shows the order operands were combined in, and error-class checks. */
#ifndef LWMPI_TEST_NBC_H
#define LWMPI_TEST_NBC_H
#include "suite.h"

/* A "word" of digits: (value, base^length) modulo a prime. Concatenation is associative
 * but not commutative, so a reduction that combines out of rank order gives another word. */
typedef struct {
    long value;
    long scale;
} nbc_word;

#define NBC_PRIME 1000003L
#define NBC_BASE 7L

static inline nbc_word nbc_digit(int rank)
{
    nbc_word w = {(rank % 5) + 1, NBC_BASE};
    return w;
}

static inline nbc_word nbc_concat(nbc_word a, nbc_word b)
{
    nbc_word w = {(a.value * b.scale + b.value) % NBC_PRIME, (a.scale * b.scale) % NBC_PRIME};
    return w;
}

/* The word of ranks first..last (inclusive) in order; the empty word when first > last. */
static inline nbc_word nbc_word_of(int first, int last)
{
    nbc_word w = {0, 1};
    for (int r = first; r <= last; r++)
        w = nbc_concat(w, nbc_digit(r));
    return w;
}

/* inout = in . inout: MPI passes the lower ranks' operand as `in`. */
static void nbc_concat_op(void *in, void *inout, int *len, MPI_Datatype *type)
{
    (void)type;
    nbc_word *a = in, *b = inout;
    for (int i = 0; i < *len; i++)
        b[i] = nbc_concat(a[i], b[i]);
}

/* The datatype of nbc_word (two longs) and the operation; free them with nbc_free. */
static inline void nbc_word_setup(MPI_Datatype *type, MPI_Op *op)
{
    MPI_Type_contiguous(2, MPI_LONG, type);
    MPI_Type_commit(type);
    MPI_Op_create(nbc_concat_op, 0, op);
}

static inline void nbc_word_free(MPI_Datatype *type, MPI_Op *op)
{
    MPI_Type_free(type);
    MPI_Op_free(op);
}

static inline int nbc_same(nbc_word a, nbc_word b) { return a.value == b.value && a.scale == b.scale; }

/* The error class of an MPI return code. */
static inline int nbc_class(int code)
{
    int c = -1;
    MPI_Error_class(code, &c);
    return c;
}

#define NBC_EXPECT_CLASS(call, cls)                                                        \
    do {                                                                                   \
        int got_ = nbc_class(call);                                                        \
        SUITE_CHECK(got_ == (cls), "%s returned class %d, expected %s (%d)", #call, got_, \
                    #cls, cls);                                                            \
    } while (0)

#endif
