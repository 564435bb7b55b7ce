/* Soak: thousands of messages in a row through one LWMPI protocol at a time, after each rank
 * has taken most of its cluster's memory, so that every resource a protocol needs must have
 * existed before the program could take it (a helper thread started on demand deadlocked
 * the first rendezvous once). Ranks 0 and 1 talk; further ranks only hog and wait.
 *
 * Modes: pingpong (0 -> 1 -> 0 round trips; a round trip is two messages) and stream
 * (rank 0 sends back to back through a window of nonblocking sends; rank 1 receives each
 * block of 32 half through receives posted in advance, half late, after the first half
 * completed, so the unexpected queue, the local cells and the eager credits run out and
 * refill). Every payload is made from (index, size): a header (index, size, tag) and words
 * derived from them; the receiver checks content, length (MPI_Get_count), source, tag and
 * order. One line per mode and protocol:
 *   soak: <mode> <protocol> <bytes>: N messages moved, L lost, C corrupt
 * then the check line; any loss or corruption fails the run.
 *
 * Protocols (mputil/config.hpp): eager (<= 80 bytes between clusters, or every size of the
 * unopt variant in one cluster through the kernel's IKC, while credit lasts), rendezvous
 * (> 80 bytes: RTS, CTS, portal write by a writer thread), ssend (MPI_Ssend/Issend: the
 * synchronous rendezvous, or in one cluster of the opt variant the direct copy), cell
 * (opt, one cluster, <= 1 KiB) and direct (opt, one cluster, > 1 KiB: one copy at the match).
 *
 * Arguments (key=value, any order):
 *   n=COUNT        messages per mode and protocol (default 1000)
 *   modes=LIST     pingpong,stream (default both)
 *   protos=LIST    PROTO:BYTES,... (default: the set the placement and variant take:
 *                  between clusters or unopt eager:8,eager:80,rendezvous:128,rendezvous:65536,
 *                  ssend:8; opt in one cluster cell:256,direct:4096,ssend:8)
 *   keep=BYTES     what each cluster keeps free after the hog (default 65536: the Ops of a
 *                  window, unexpected entries and 64 local cells of 256 bytes fit in it)
 *   hog=0|1        take the cluster's memory first (default 1)
 *   window=W       nonblocking sends in flight in a stream (default 8) */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "mpi_check.h"

enum { kBlock = 32, kMaxWindow = 64, kMaxProtos = 16, kTags = 7, kHeaderWords = 3 };

struct proto {
    char name[16];
    long bytes;
};

static long n_messages = 1000;
static int do_pingpong = 1, do_stream = 1;
static long keep = 65536;
static int hog = 1;
static int window = 8;
static struct proto protos[kMaxProtos];
static int n_protos;

/* Content of message `index` of `bytes` bytes: a header, then words from (index, size). */
static uint32_t header_word(int k, long index, long bytes)
{
    return k == 0 ? (uint32_t)index : k == 1 ? (uint32_t)bytes : (uint32_t)(index % kTags);
}

static uint32_t body_word(long index, long bytes, long i)
{
    uint32_t x = (uint32_t)index * 0x9e3779b9u ^ (uint32_t)bytes * 0x85ebca6bu;
    return (x + (uint32_t)i * 0xc2b2ae35u) * 2654435761u;
}

static void fill(unsigned char *buf, long index, long bytes)
{
    uint32_t w;
    long i = 0;
    for (; i + 4 <= bytes; i += 4) {
        long k = i / 4;
        w = k < kHeaderWords ? header_word((int)k, index, bytes) : body_word(index, bytes, k);
        memcpy(buf + i, &w, 4);
    }
    w = body_word(index, bytes, i / 4);
    for (; i < bytes; i++) buf[i] = (unsigned char)(w >> (8 * (i % 4)));
}

/* True if buf holds exactly message `index` of `bytes` bytes. */
static int intact(const unsigned char *buf, long index, long bytes)
{
    uint32_t w, got;
    long i = 0;
    for (; i + 4 <= bytes; i += 4) {
        long k = i / 4;
        w = k < kHeaderWords ? header_word((int)k, index, bytes) : body_word(index, bytes, k);
        memcpy(&got, buf + i, 4);
        if (got != w) return 0;
    }
    w = body_word(index, bytes, i / 4);
    for (; i < bytes; i++)
        if (buf[i] != (unsigned char)(w >> (8 * (i % 4)))) return 0;
    return 1;
}

struct tally {
    long moved, corrupt;
};

/* One arrived message: everything the sender meant, in order. A corrupt message is
 * reported once per run (then only counted) so a broken protocol does not flood. */
static void arrived(struct tally *t, const unsigned char *buf, const MPI_Status *st, long index, long bytes,
                    int source, int tag)
{
    int count = -1;
    MPI_Get_count(st, MPI_BYTE, &count);
    int ok = count == bytes && st->MPI_SOURCE == source && st->MPI_TAG == tag && intact(buf, index, bytes);
    t->moved++;
    if (!ok) {
        if (t->corrupt == 0) {
            uint32_t seq = 0;
            if (count >= 4) memcpy(&seq, buf, 4);
            printf("FAIL rank %d: message %ld: %d bytes from %d tag %d (sequence %u), expected %ld from %d tag %d\n",
                   mpi_check_me(), index, count, st->MPI_SOURCE, st->MPI_TAG, (unsigned)seq, bytes, source, tag);
        }
        t->corrupt++;
    }
}

static int is_sync(const struct proto *p) { return strcmp(p->name, "ssend") == 0; }

static int send_msg(const void *buf, long bytes, int dest, int tag, const struct proto *p)
{
    return is_sync(p) ? MPI_Ssend(buf, (int)bytes, MPI_BYTE, dest, tag, MPI_COMM_WORLD)
                      : MPI_Send(buf, (int)bytes, MPI_BYTE, dest, tag, MPI_COMM_WORLD);
}

/* Round trips: rank 0 sends the even indices, rank 1 answers with the odd ones. */
static void pingpong(int rank, const struct proto *p, unsigned char *sbuf, unsigned char *rbuf, struct tally *t)
{
    long bytes = p->bytes;
    for (long i = 0; i < n_messages; i += 2) {
        long mine = rank == 0 ? i : i + 1, theirs = rank == 0 ? i + 1 : i;
        int other = 1 - rank;
        MPI_Status st;
        if (rank == 0) {
            fill(sbuf, mine, bytes);
            CHECK_EQ(send_msg(sbuf, bytes, other, (int)(mine % kTags), p), MPI_SUCCESS);
            if (theirs >= n_messages) break;
            CHECK_EQ(MPI_Recv(rbuf, (int)bytes, MPI_BYTE, other, (int)(theirs % kTags), MPI_COMM_WORLD, &st), MPI_SUCCESS);
        } else {
            CHECK_EQ(MPI_Recv(rbuf, (int)bytes, MPI_BYTE, other, (int)(theirs % kTags), MPI_COMM_WORLD, &st), MPI_SUCCESS);
            arrived(t, rbuf, &st, theirs, bytes, other, (int)(theirs % kTags));
            if (mine >= n_messages) break;
            fill(sbuf, mine, bytes);
            CHECK_EQ(send_msg(sbuf, bytes, other, (int)(mine % kTags), p), MPI_SUCCESS);
            continue;
        }
        arrived(t, rbuf, &st, theirs, bytes, other, (int)(theirs % kTags));
    }
}

/* Rank 0 streams, rank 1 receives: pre-posted receives (their own tag) for the first half
 * of each block, late ones (any tag) for the second half. */
static void stream(int rank, const struct proto *p, unsigned char *sbuf, unsigned char *rbuf, int depth,
                   struct tally *t)
{
    long bytes = p->bytes;
    if (rank == 0) {
        MPI_Request req[kMaxWindow];
        for (int w = 0; w < window; w++) req[w] = MPI_REQUEST_NULL;
        for (long i = 0; i < n_messages; i++) {
            int w = (int)(i % window);
            CHECK_EQ(MPI_Wait(&req[w], MPI_STATUS_IGNORE), MPI_SUCCESS);
            unsigned char *b = sbuf + (size_t)w * bytes;
            fill(b, i, bytes);
            int tag = (int)(i % kTags);
            int err = is_sync(p) ? MPI_Issend(b, (int)bytes, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &req[w])
                                 : MPI_Isend(b, (int)bytes, MPI_BYTE, 1, tag, MPI_COMM_WORLD, &req[w]);
            CHECK_EQ(err, MPI_SUCCESS);
        }
        CHECK_EQ(MPI_Waitall(window, req, MPI_STATUSES_IGNORE), MPI_SUCCESS);
        return;
    }
    MPI_Request req[kBlock];
    MPI_Status st[kBlock];
    for (long base = 0; base < n_messages; base += kBlock) {
        long in_block = n_messages - base < kBlock ? n_messages - base : kBlock;
        long early = (in_block + 1) / 2;
        /* Pre-posted, at most `depth` at a time (the receive buffers of large messages). */
        for (long first = 0; first < early; first += depth) {
            long k = early - first < depth ? early - first : depth;
            for (long j = 0; j < k; j++) {
                long i = base + first + j;
                CHECK_EQ(MPI_Irecv(rbuf + (size_t)j * bytes, (int)bytes, MPI_BYTE, 0, (int)(i % kTags), MPI_COMM_WORLD,
                                   &req[j]), MPI_SUCCESS);
            }
            CHECK_EQ(MPI_Waitall((int)k, req, st), MPI_SUCCESS);
            for (long j = 0; j < k; j++) {
                long i = base + first + j;
                arrived(t, rbuf + (size_t)j * bytes, &st[j], i, bytes, 0, (int)(i % kTags));
            }
        }
        /* Late: by now the sender has gone on, so these mostly wait in the unexpected queue. */
        for (long i = base + early; i < base + in_block; i++) {
            CHECK_EQ(MPI_Recv(rbuf, (int)bytes, MPI_BYTE, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &st[0]), MPI_SUCCESS);
            arrived(t, rbuf, &st[0], i, bytes, 0, (int)(i % kTags));
        }
    }
}

/* A chunk list threaded through the chunks themselves: the hog needs no other memory. */
struct chunk {
    struct chunk *next;
    size_t bytes;
};

/* Per rank: the ranks of a cluster are threads sharing the globals. */
static _Thread_local struct chunk *hog_chunks;

static unsigned char hog_byte(const struct chunk *c, size_t i) { return (unsigned char)(((uintptr_t)c >> 4) + i * 7); }

/* Greedy: the largest blocks malloc gives, down to 64 bytes, at most `limit` bytes. */
static size_t take(size_t limit, struct chunk **list, int touch)
{
    size_t taken = 0, size = (size_t)64 << 20;
    while (size >= 64 && taken < limit) {
        size_t want = size < limit - taken ? size : limit - taken;
        if (want < sizeof(struct chunk)) break;
        struct chunk *c = malloc(want);
        if (c == NULL) {
            size /= 2;
            continue;
        }
        c->bytes = want;
        c->next = *list;
        *list = c;
        taken += want;
        if (touch)  /* every byte written: the memory is really in use, and checked at the end */
            for (size_t i = sizeof *c; i < want; i++) ((unsigned char *)c)[i] = hog_byte(c, i);
    }
    return taken;
}

static void give_back(struct chunk *list)
{
    while (list != NULL) {
        struct chunk *next = list->next;
        free(list);
        list = next;
    }
}

/* Takes all but `keep` bytes of what malloc can still give (a probe first, then the hog). */
static size_t hog_memory(void)
{
    struct chunk *probe = NULL;
    size_t free_bytes = take(SIZE_MAX, &probe, 0);
    give_back(probe);
    size_t target = free_bytes > (size_t)keep ? free_bytes - (size_t)keep : 0;
    return take(target, &hog_chunks, 1);
}

/* The hog still holds what was written into it: nothing wrote out of bounds. */
static long hog_damage(void)
{
    long bad = 0;
    for (struct chunk *c = hog_chunks; c != NULL; c = c->next)
        for (size_t i = sizeof *c; i < c->bytes; i++) bad += ((unsigned char *)c)[i] != hog_byte(c, i);
    return bad;
}

static int parse_protos(const char *list)
{
    n_protos = 0;
    while (*list) {
        if (n_protos == kMaxProtos) return -1;
        struct proto *p = &protos[n_protos];
        const char *colon = strchr(list, ':');
        if (colon == NULL || colon - list >= (long)sizeof p->name) return -1;
        memcpy(p->name, list, colon - list);
        p->name[colon - list] = '\0';
        char *end;
        p->bytes = strtol(colon + 1, &end, 10);
        if (end == colon + 1 || p->bytes < 0 || (*end != ',' && *end != '\0')) return -1;
        n_protos++;
        list = *end == ',' ? end + 1 : end;
    }
    return n_protos > 0 ? 0 : -1;
}

/* Whether protocol p is what a message of its size takes here (the program refuses a list
 * that would test something else than it says). */
static int proto_fits(const struct proto *p, int local, int opt)
{
    int lwmpi_local = local && opt;  /* the opt variant's local path; unopt goes through IKC */
    if (strcmp(p->name, "eager") == 0) return !lwmpi_local && p->bytes <= 80;
    if (strcmp(p->name, "rendezvous") == 0) return !lwmpi_local && p->bytes > 80;
    if (strcmp(p->name, "cell") == 0) return lwmpi_local && p->bytes <= 1024;
    if (strcmp(p->name, "direct") == 0) return lwmpi_local && p->bytes > 1024;
    return strcmp(p->name, "ssend") == 0;
}

static void usage(const char *arg)
{
    printf("FAIL rank %d: bad argument '%s' (n=COUNT modes=pingpong,stream protos=PROTO:BYTES,... keep=BYTES "
           "hog=0|1 window=W)\n", mpi_check_me(), arg);
    MPI_Abort(MPI_COMM_WORLD, 2);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size < 2) {
        printf("FAIL rank %d: the soak needs two ranks\n", rank);
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    /* Where ranks 0 and 1 are, and the variant: they choose the default protocols. */
    char lib[MPI_MAX_LIBRARY_VERSION_STRING];
    int len;
    MPI_Get_library_version(lib, &len);
    int opt = strstr(lib, "variant opt") != NULL;
    MPI_Comm shared;
    MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &shared);
    int shared_rank_of_1 = -1, local = 0;
    {
        int g1 = 1, mapped = MPI_UNDEFINED;
        MPI_Group wg, sg;
        MPI_Comm_group(MPI_COMM_WORLD, &wg);
        MPI_Comm_group(shared, &sg);
        MPI_Group_translate_ranks(wg, 1, &g1, sg, &mapped);
        shared_rank_of_1 = mapped;
        MPI_Group_free(&wg);
        MPI_Group_free(&sg);
    }
    local = shared_rank_of_1 != MPI_UNDEFINED;
    MPI_Bcast(&local, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Comm_free(&shared);

    const char *list = local && opt ? "cell:256,direct:4096,ssend:8"
                                    : "eager:8,eager:80,rendezvous:128,rendezvous:65536,ssend:8";
    parse_protos(list);
    for (int a = 1; a < argc; a++) {
        const char *v = strchr(argv[a], '=');
        if (v == NULL) usage(argv[a]);
        v++;
        if (strncmp(argv[a], "n=", 2) == 0) n_messages = atol(v);
        else if (strncmp(argv[a], "keep=", 5) == 0) keep = atol(v);
        else if (strncmp(argv[a], "hog=", 4) == 0) hog = atoi(v);
        else if (strncmp(argv[a], "window=", 7) == 0) window = atoi(v);
        else if (strncmp(argv[a], "modes=", 6) == 0) {
            do_pingpong = strstr(v, "pingpong") != NULL;
            do_stream = strstr(v, "stream") != NULL;
        } else if (strncmp(argv[a], "protos=", 7) == 0) {
            if (parse_protos(v) != 0) usage(argv[a]);
        } else usage(argv[a]);
    }
    if (n_messages < 1 || window < 1 || window > kMaxWindow || keep < 0 || (!do_pingpong && !do_stream))
        usage("n/window/keep/modes");
    long most = 0;
    for (int k = 0; k < n_protos; k++) {
        if (!proto_fits(&protos[k], local, opt)) {
            printf("FAIL rank %d: %s:%ld is not what a message takes %s in the %s variant\n", rank, protos[k].name,
                   protos[k].bytes, local ? "in one cluster" : "between clusters", opt ? "opt" : "unopt");
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        if (protos[k].bytes > most) most = protos[k].bytes;
    }
    /* Buffers first (a stream window of sends, receives posted ahead: at most 256 KiB of them). */
    int depth = most > 0 && (256L << 10) / most < kBlock / 2 ? (int)((256L << 10) / most) : kBlock / 2;
    if (depth < 1) depth = 1;
    size_t sbytes = (size_t)(most > 0 ? most : 1) * window, rbytes = (size_t)(most > 0 ? most : 1) * depth;
    unsigned char *sbuf = rank < 2 ? malloc(sbytes) : NULL, *rbuf = rank < 2 ? malloc(rbytes) : NULL;
    if (rank < 2 && (!sbuf || !rbuf)) {
        printf("FAIL rank %d: no memory for %lu + %lu bytes of buffers\n", rank, (unsigned long)sbytes,
               (unsigned long)rbytes);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    /* The hog, one rank at a time so each cluster ends with `keep` bytes free. */
    size_t hogged = 0;
    MPI_Barrier(MPI_COMM_WORLD);  /* every rank's buffers exist before the first hog */
    for (int r = 0; r < size; r++) {
        if (hog && r == rank) hogged = hog_memory();
        MPI_Barrier(MPI_COMM_WORLD);
    }
    if (hog && rank < 2)
        printf("soak: rank %d %s: took %lu bytes, the cluster keeps about %ld free\n", rank,
               local ? "local" : "remote", (unsigned long)hogged, keep);

    long all_moved = 0, all_lost = 0, all_corrupt = 0;
    for (int m = 0; m < 2; m++) {
        if ((m == 0 && !do_pingpong) || (m == 1 && !do_stream)) continue;
        for (int k = 0; k < n_protos; k++) {
            struct tally t = {0, 0};
            if (rank < 2) {
                if (m == 0) pingpong(rank, &protos[k], sbuf, rbuf, &t);
                else stream(rank, &protos[k], sbuf, rbuf, depth, &t);
            }
            long mine[2] = {t.moved, t.corrupt}, sum[2] = {0, 0};
            MPI_Reduce(mine, sum, 2, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
            if (rank == 0) {
                long lost = n_messages - sum[0];
                printf("soak: %s %s %ld: %ld messages moved, %ld lost, %ld corrupt\n", m == 0 ? "pingpong" : "stream",
                       protos[k].name, protos[k].bytes, sum[0], lost, sum[1]);
                CHECK_EQ(lost, 0);
                CHECK_EQ(sum[1], 0);
                all_moved += sum[0];
                all_lost += lost;
                all_corrupt += sum[1];
            }
        }
    }
    long damage = hog_damage();
    CHECK_EQ(damage, 0);
    if (rank == 0)
        printf("soak: total: %ld messages moved, %ld lost, %ld corrupt\n", all_moved, all_lost, all_corrupt);
    give_back(hog_chunks);
    free(sbuf);
    free(rbuf);
    int status = check_finish("mpi_soak");
    MPI_Finalize();
    return status;
}
