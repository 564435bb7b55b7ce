/* Kernel-call ABI: the only contract between user space (runtime/) and the kernel.
 * C-compatible so that C programs and the C++ runtime include the same file.
 *
 * Calling convention: `ecall` from U-mode with the call number in a7 and up to six
 * arguments in a0..a5. The result comes back in a0: >= 0 on success, a negative errno
 * (NVX_E*) on failure. Every call validates its arguments; bad input never panics.
 */
#ifndef NVX_ABI_H
#define NVX_ABI_H

#include <stdint.h>

/* Kernel call numbers. Calls marked (local) run on the calling hart; the others change
 * shared kernel state and are forwarded to the cluster's kernel core. */
enum nvx_syscall {
    NVX_SYS_WRITE = 1,         /* (local) write(fd 1|2, buf, len) -> bytes written      */
    NVX_SYS_EXIT = 2,          /* exit(status): ends every thread of the program         */
    NVX_SYS_THREAD_CREATE = 3, /* (entry, arg, stack_top, hart) -> tid; hart -1 = any    */
    NVX_SYS_THREAD_EXIT = 4,   /* thread_exit(value): does not return                   */
    NVX_SYS_THREAD_JOIN = 5,   /* (tid, struct nvx_thread_status*) -> 0                  */
    NVX_SYS_THREAD_YIELD = 6,  /* yield() -> 0                                           */
    NVX_SYS_THREAD_SELF = 7,   /* (local) -> tid                                         */
    NVX_SYS_FUTEX_WAIT = 8,    /* (uint32_t* addr, expected) -> 0 | -EAGAIN              */
    NVX_SYS_FUTEX_WAKE = 9,    /* (uint32_t* addr, count, flags) -> number of threads
                                  woken; flags: 0 or NVX_FUTEX_UNTIMED, else -EINVAL.
                                  A server thread (CLOCK_SERVER) is woken untimed      */
    NVX_SYS_BRK = 10,          /* brk(new_end | 0) -> current break (or -ENOMEM)          */
    NVX_SYS_INFO = 11,         /* (local) info(struct nvx_info*) -> 0                    */
    NVX_SYS_NODE_OF = 12,      /* (local) (cluster, interface) -> NoC node                */
    NVX_SYS_EXEC = 13,         /* system program only: (image, size, strings, strings_size):
                                  strings = argv NUL-separated, an empty string, then the
                                  environment NUL-separated                              */
    NVX_SYS_POWEROFF = 14,     /* system program of the control cluster only: (status)    */
    NVX_SYS_MAP_IMAGE = 15,    /* first I/O cluster only: (size) -> address of the image  */
    NVX_SYS_SLEEP_UNTIL = 16,  /* (deadline) -> 0: sleeps until the board clock (`time`
                                  CSR, NVX_TIMER_HZ ticks) reaches deadline; at once if it
                                  already has; -EINVAL if deadline >= 2^63. Never woken
                                  early, so no EINTR                                   */
    NVX_SYS_STACK_MAP = 17,    /* (size) -> lowest address of a new thread stack of size
                                  bytes (rounded up to pages) in the thread-stack region,
                                  with an unmapped guard page below it: an overflow
                                  faults instead of reaching other memory. -EINVAL for 0
                                  or > NVX_USER_THREAD_STACK_MAX, -ENOMEM. Stacks stay
                                  mapped until the program ends (the runtime reuses them) */
    NVX_SYS_CLUSTER_END_WAIT = 18, /* system program of the control cluster only: -> index
                                  of a cluster the firmware ended because its kernel asked
                                  for a board reset (each reported once); blocks until one */
    NVX_SYS_CLOCK_TAKE = 19,   /* (local) (stamp) -> 0: the calling hart's virtual time
                                  becomes at least stamp (a hand-off through shared memory
                                  carried it: Lamport); a server thread's (CLOCK_SERVER)
                                  becomes stamp, as every hand-off to it sets its time.
                                  -EINVAL if stamp is later than any time a thread of the
                                  cluster has had (no thread of it can have read such a
                                  time). 0 and no effect under --clock wall           */

    /* IKC. Addresses are (node, port); ids are per cluster. Input endpoints are created
     * on one of the caller's own nodes, output endpoints are opened towards any node. */
    NVX_SYS_MAILBOX_CREATE = 20, /* (node, port) -> id                                     */
    NVX_SYS_MAILBOX_OPEN = 21,   /* (node, port) -> id                                     */
    NVX_SYS_MAILBOX_READ = 22,   /* (id, buf, size, struct nvx_mailbox_origin* or 0) ->
                                    message bytes; blocks. The origin is the sender as the
                                    NoC stamped it: no sender can forge it             */
    NVX_SYS_MAILBOX_WRITE = 23,  /* (id, buf, size <= NVX_MAILBOX_MSG_MAX, flags) -> size;
                                    blocks while the target port refuses this cluster's
                                    messages, unless flags has NVX_MAILBOX_NONBLOCK: then
                                    -EAGAIN (nothing sent)                              */
    NVX_SYS_MAILBOX_CLOSE = 24,  /* (id of an opened mailbox) -> 0                         */
    NVX_SYS_MAILBOX_UNLINK = 25, /* (id of a created mailbox) -> 0                         */
    NVX_SYS_MAILBOX_STATS = 26,  /* (id, struct nvx_ikc_stats*) -> 0                       */
    /* Asynchronous IKC (struct nvx_ikc_op below): a start returns at once; the result
     * lands in the caller's record. -EAGAIN (nothing started) past the bounds.           */
    NVX_SYS_MAILBOX_AREAD = 27,  /* (id, buf, size, struct nvx_ikc_op*) -> 0: starts a read */
    NVX_SYS_MAILBOX_AWRITE = 28, /* (id, buf, size <= NVX_MAILBOX_MSG_MAX, struct nvx_ikc_op*)
                                    -> 0: the message is taken at once (buf is free again) */
    NVX_SYS_IKC_WAIT = 29,       /* (const struct nvx_ikc_op* const* ops, count) -> the index
                                    of one that completed (count <= NVX_IKC_WAIT_MAX); blocks
                                    while all are under way; -ENOENT for a record that was
                                    never started (and is not done)                     */
    NVX_SYS_PORTAL_CREATE = 30,  /* (node, port) -> id                                     */
    NVX_SYS_PORTAL_ALLOW = 31,   /* (id, remote node): that node may write the next read   */
    NVX_SYS_PORTAL_OPEN = 32,    /* (node, port) -> id                                     */
    NVX_SYS_PORTAL_READ = 33,    /* (id, buf, size) -> bytes received; blocks              */
    NVX_SYS_PORTAL_WRITE = 34,   /* (id, buf, size) -> size; blocks until delivered        */
    NVX_SYS_PORTAL_CLOSE = 35,
    NVX_SYS_PORTAL_UNLINK = 36,
    NVX_SYS_PORTAL_STATS = 37,   /* (id, struct nvx_ikc_stats*) -> 0                       */
    NVX_SYS_PORTAL_AREAD = 38,   /* (id, buf, size, struct nvx_ikc_op*) -> 0: starts a read */
    NVX_SYS_PORTAL_AWRITE = 39,  /* (id, buf, size, struct nvx_ikc_op*) -> 0: starts a write;
                                    buf must stay until it completes                   */
    NVX_SYS_SYNC_CREATE = 40,    /* (port, const uint32_t* nodes, count, type) -> id       */
    NVX_SYS_SYNC_OPEN = 41,      /* (port, const uint32_t* nodes, count, type) -> id       */
    NVX_SYS_SYNC_WAIT = 42,      /* (id of a created sync) -> 0; blocks                    */
    NVX_SYS_SYNC_SIGNAL = 43,    /* (id of an opened sync) -> 0                            */
    NVX_SYS_SYNC_CLOSE = 44,
    NVX_SYS_SYNC_UNLINK = 45,
    NVX_SYS_CLOCK_SERVER = 46, /* (local) () -> 0: the calling thread serves requests of
                                  others (an agent, a name server): from now on each
                                  hand-off to it (an answer, a wake-up, a message) sets
                                  its virtual time to the hand-off's, not the maximum, so
                                  a request it takes late is served at its own time, and
                                  futex wakes hand it none (a lock's or a job queue's
                                  wake-up is no request: it names its requests' times
                                  with CLOCK_TAKE). Its time may go back between requests */
    NVX_SYS_WAIT_NOTE = 47,    /* (local) (const char* note or 0) -> 0: when the board is
                                  found deadlocked, the kernel prints the NUL-terminated
                                  text at note (read then, at most NVX_WAIT_NOTE_MAX bytes)
                                  beside what the calling thread is blocked on; the
                                  program keeps it current. -EFAULT if NVX_WAIT_NOTE_MAX
                                  bytes at note are not readable                     */
    NVX_SYS_FAULT_ENDS_PROGRAM = 48, /* (local) () -> 0: a fault that kills the calling
                                  thread ends the program, as the main thread's does
                                  (status NVX_EXIT_KILLED + cause): for threads the
                                  others would wait for forever (MPI ranks)          */
    NVX_SYS_PRIVATE_ENTER = 49, /* (rank) -> shared address of the calling thread's own
                                  copy of the program's private region (below), made
                                  from the program's copy as it is now; threads it
                                  starts share it. The kernel's reports name it and
                                  them "rank <rank>". 0 (named, no copy) if the
                                  program has no private region; -EBUSY if the thread
                                  has a copy or a rank already; -ENOMEM; -EINVAL for
                                  rank < 0 or > INT32_MAX                         */
    NVX_SYS_IKC_CANCEL = 50,    /* (struct nvx_ikc_op*) -> 0: an operation of the caller not
                                  yet under way ends at once with -ECANCELED; -EBUSY once
                                  the NoC moves it; -ENOENT if none                    */
    NVX_SYS_MAILBOX_RING = 51,  /* (id of a created mailbox, struct nvx_mailbox_ring* or 0)
                                  -> 0: the kernel puts the port's messages into that
                                  ring from now on (0: no longer); -EBUSY if one is
                                  attached or reads wait on the port                 */
    NVX_SYS_MAILBOX_RING_REFILL = 52, /* (id) -> messages moved: the ring has room again
                                  after the kernel stalled on it (nvx_mailbox_ring_pop) */
    NVX_SYS_SYNC_AWAIT = 53,    /* (id of a created sync, struct nvx_ikc_op*) -> 0: the
                                  asynchronous NVX_SYS_SYNC_WAIT; the record completes
                                  (result 0) when the sync fires                      */
    NVX_SYS_COUNT
};

#define NVX_WAIT_NOTE_MAX 64      /* bytes of a thread's wait note (NVX_SYS_WAIT_NOTE)     */
#define NVX_IKC_PORTS 32          /* logical ports per physical endpoint                */
#define NVX_NOC_NODES_MAX 64      /* NoC nodes on any board (node sets are 64-bit masks) */
#define NVX_MAILBOX_MSG_MAX 128   /* payload bytes of one mailbox message               */
#define NVX_PORTAL_MAX (64u << 20) /* largest portal message                            */
#define NVX_SYNC_PORTS 4          /* physical sync registers per node                   */
#define NVX_IKC_MAILBOXES 160     /* virtual mailboxes (inputs and outputs) per cluster  */
#define NVX_IKC_PORTALS 64        /* virtual portals (inputs and outputs) per cluster    */

/* Mailbox flow control is per port. Arrived messages wait for their reader in
 * NVX_MAILBOX_BUFFERS buffers shared by the cluster's ports; one port holds at most
 * NVX_MAILBOX_PORT_QUOTA of them, and the ports no program has created together at most
 * NVX_MAILBOX_UNCLAIMED. A message beyond that (or finding every buffer taken, with no
 * reader waiting) is refused back to its sending kernel by the NoC engine; that kernel
 * keeps it and sends it again when the receiver says the port drained. Later messages of
 * that cluster for the same port wait behind it (their writers sleep); every other port
 * goes on. Nothing is dropped; a port nobody reads stops only its own senders. */
#define NVX_MAILBOX_BUFFERS 64
#define NVX_MAILBOX_PORT_QUOTA 48
#define NVX_MAILBOX_UNCLAIMED 16

/* NVX_SYS_MAILBOX_WRITE flags. */
#define NVX_MAILBOX_NONBLOCK 1u   /* fail with -EAGAIN instead of sleeping behind a message
                                     the target port refused (servers answering clients) */

/* NVX_SYS_FUTEX_WAKE flags. */
#define NVX_FUTEX_UNTIMED 1u      /* a notice, not a hand-off: the woken threads keep their
                                     own virtual time (the waker's is not passed on). For a
                                     doorbell rung by several sources whose data carries its
                                     own stamps (nvx_clock_take): the host's order of rings
                                     must not decide the sleeper's time */

/* Who sent a mailbox message. `node` is stamped by the NoC engine (local messages: by the
 * kernel), never taken from the sender; `flags` is set by the sending cluster's kernel. */
struct nvx_mailbox_origin {
    uint32_t node;   /* the sender's NoC node                                      */
    uint32_t flags;  /* NVX_ORIGIN_SYSTEM: sent by that cluster's system program    */
};
#define NVX_ORIGIN_SYSTEM 1u

/* An asynchronous IKC operation, as the caller keeps it (POSIX aio's aiocb): it must stay
 * valid, and a read's or a portal write's buffer untouched, until `done` is 1. The caller
 * sets `notify` (a futex word, or 0) and `flags` and starts the operation; the kernel writes the rest
 * when it completes, `done` last, then adds 1 to *notify and wakes its waiters, handing
 * them the completion's virtual time `at` unless `flags` says otherwise (one word can then
 * stand for "any message or any local event"). A thread has at most NVX_IKC_THREAD_OPS under way, the cluster at most
 * NVX_IKC_ASYNC_OPS; a thread that ends cancels those not yet under way (their records
 * get -ECANCELED and their notify words a bump), and the kernel forgets the others when
 * they complete. */
struct nvx_ikc_op {
    uint32_t *notify;    /* in: futex word bumped and woken at completion, or 0           */
    uint32_t done;       /* out: 1 once complete (written last)                           */
    uint32_t flags;      /* in: NVX_IKC_NOTIFY_UNTIMED or 0                               */
    int64_t result;      /* out: bytes moved (a read: the message's length), or -errno    */
    uint64_t at;         /* out: the virtual time it completed (0 under the wall clock)   */
    struct nvx_mailbox_origin origin; /* out: a mailbox read's sender                     */
};
/* The notify word's waiters keep their own time (as NVX_FUTEX_UNTIMED): for a word that many
 * sources bump, whose waiter takes each event's time itself (nvx_ikc_test takes `at`). */
#define NVX_IKC_NOTIFY_UNTIMED 1u
#define NVX_IKC_THREAD_OPS 8      /* asynchronous operations under way per thread            */
#define NVX_IKC_ASYNC_OPS 64      /* ... and per cluster                                      */
#define NVX_IKC_WAIT_MAX 64       /* records one NVX_SYS_IKC_WAIT looks at                    */

/* A receive ring (NVX_SYS_MAILBOX_RING): the caller's memory into which the kernel puts
 * each message of one created mailbox as it arrives, so that a reader running takes
 * messages with no kernel call (a persistent asynchronous read; the slots are the
 * receive queue of an RDMA adapter). The kernel fills slot[tail % slots], then advances
 * `tail` (release), then adds 1 to *notify and wakes its waiters (as nvx_ikc_op's). The
 * reader takes slot[head % slots] while head != tail, then advances `head`. When the ring
 * is full the port's messages wait in the kernel (then at their senders: nothing is
 * dropped) and the kernel sets `stalled`; the reader that makes room and sees it set calls
 * NVX_SYS_MAILBOX_RING_REFILL. A port with a ring takes no reads (-EBUSY). The ring goes
 * when the thread that attached it ends or the mailbox is unlinked: messages not yet in it
 * stay for the port. */
struct nvx_mailbox_slot {
    uint64_t at;         /* the virtual time the message was in the ring (nvx_clock_take) */
    uint16_t length;     /* payload bytes                                                  */
    uint16_t node;       /* the sender's node (as struct nvx_mailbox_origin)               */
    uint16_t flags;      /* NVX_ORIGIN_SYSTEM                                              */
    uint16_t reserved;
    uint8_t payload[NVX_MAILBOX_MSG_MAX];
};
struct nvx_mailbox_ring {
    uint32_t *notify;    /* in: futex word bumped and woken after messages came, or 0     */
    uint32_t flags;      /* in: NVX_IKC_NOTIFY_UNTIMED or 0                               */
    uint32_t slots;      /* in: a power of two, 1 .. NVX_MAILBOX_RING_MAX                 */
    uint32_t head;       /* reader: slots taken (counts on, wraps at 2^32; 0 at attach)   */
    uint32_t tail;       /* kernel: slots filled (the same)                               */
    uint32_t stalled;    /* kernel: 1 while messages wait in the kernel for room          */
    uint32_t reserved;
    struct nvx_mailbox_slot slot[];
};
#define NVX_MAILBOX_RING_MAX 1024u
/* Bytes of a ring of `n` slots. */
#define NVX_MAILBOX_RING_BYTES(n) (sizeof(struct nvx_mailbox_ring) + (n) * sizeof(struct nvx_mailbox_slot))

/* Sync types. nodes[0] is "the one": the receiver of ALL_TO_ONE (the others signal), the
 * sender of ONE_TO_ALL (the others wait). */
enum nvx_sync_type { NVX_SYNC_ALL_TO_ONE = 0, NVX_SYNC_ONE_TO_ALL = 1 };

/* Per virtual endpoint counters. */
struct nvx_ikc_stats {
    uint64_t messages;  /* messages (mailbox) or transfers (portal) completed          */
    uint64_t bytes;     /* payload bytes moved                                          */
    uint64_t waits;     /* times a call had to sleep (no message, no credit, no allow)  */
    uint64_t hw_transfers; /* hardware messages or portal transfers used              */
    uint64_t modeled_cycles; /* sender side: NoC cost model (hops x hop latency + bytes /
                                link bandwidth, board table) summed over its transfers  */
};

/* errno values, identical to newlib's <errno.h> numbers so the runtime passes them on. */
#define NVX_EPERM 1
#define NVX_ESRCH 3
#define NVX_EINTR 4
#define NVX_EBADF 9
#define NVX_EAGAIN 11
#define NVX_ENOMEM 12
#define NVX_EACCES 13
#define NVX_EFAULT 14
#define NVX_EBUSY 16
#define NVX_EINVAL 22
#define NVX_ENOSYS 88
#define NVX_EDEADLK 45
#define NVX_ENOSPC 28
#define NVX_EMSGSIZE 122
#define NVX_EADDRINUSE 112
#define NVX_ENOENT 2
#define NVX_EEXIST 17
#define NVX_ENAMETOOLONG 91
#define NVX_ECANCELED 140

/* Exit statuses of a run besides the program's own (kernel, services and launcher). */
#define NVX_EXIT_NO_ROOM 122     /* the program does not fit a cluster's memory (its image at
                                    exec, or its threads' stacks): the console names the
                                    sizes and nvx-run a board with more memory            */
#define NVX_EXIT_CLUSTER_RESET 123 /* a cluster's kernel asked for a board reset: only the
                                     control cluster may; the firmware ended that cluster */
#define NVX_EXIT_TIMEOUT 124     /* the launcher's time limit ended the run (timeout(1)'s)  */
#define NVX_EXIT_DEADLOCK 125    /* every hart slept with nothing left to wake it: the
                                    firmware printed each kernel's blocked threads       */
#define NVX_EXIT_NOT_RUN 126     /* the program could not be placed or received             */
#define NVX_EXIT_NOT_LOADED 127  /* the kernel could not load the program (exec failed)     */
#define NVX_EXIT_KILLED 128      /* + fault cause: the main thread was killed               */

/* How a joined thread ended. A thread killed by a fault ends alone (the program goes on),
 * except the main thread: its crash ends the program with status NVX_EXIT_KILLED + cause. */
enum nvx_thread_end {
    NVX_THREAD_EXITED = 0, /* value = the thread's exit value                    */
    NVX_THREAD_KILLED = 1  /* value = the RISC-V exception cause that killed it  */
};

struct nvx_thread_status {
    uint64_t how;   /* enum nvx_thread_end */
    uint64_t value;
};

/* Where the calling thread runs and what the board looks like around it. */
struct nvx_info {
    uint32_t cluster;        /* this cluster's index in the board table          */
    uint32_t cluster_count;  /* clusters on the board                             */
    uint32_t compute_count;  /* compute clusters on the board                     */
    uint32_t hart;           /* global hart id of the calling hart                */
    uint32_t local_hart;     /* index of the calling hart inside its cluster      */
    uint32_t user_harts;     /* harts of this cluster that run user threads       */
    uint32_t first_user_hart;/* local index of the first user hart                */
    uint32_t max_threads;    /* user threads this cluster's kernel can hold       */
    uint64_t user_memory;    /* bytes of cluster memory left for user space        */
    uint32_t node;           /* this cluster's first NoC node                       */
    uint32_t nodes;          /* NoC nodes (interfaces) of this cluster              */
    uint32_t node_count;     /* NoC nodes on the board                              */
    uint32_t compute_user_harts; /* user harts (PEs) of a compute cluster           */
    char board[16];          /* board name, NUL-terminated                         */
    uint64_t free_memory;    /* bytes of cluster memory no one holds yet (free pages)   */
};

/* Initial user stack, as built by the kernel for the program's first thread:
 *   sp -> argc (uint64), argv[0..argc-1] (pointers), NULL, envp[...], NULL, then the strings.
 * Threads created later start at entry(arg) with sp = stack_top; returning from entry
 * is not allowed (the runtime's trampoline calls NVX_SYS_THREAD_EXIT). A new thread gets
 * its creator's gp (program-wide); tp and every other register start at zero. */

/* The system program (services/) runs on every cluster at boot from the read-only program
 * region. NVX_SYS_EXEC replaces it with a user program; when that program ends, the
 * system program starts again with argv { "nvx-system", "exited", "<status>" }. */

/* NVX_SYS_EXEC's strings (argv and environment, NULs included) and the boot arguments
 * (QEMU -append) hold at most this many bytes and words (board::kBootArgsMax, ...Words). */
#define NVX_ARGS_MAX_BYTES 512
#define NVX_ARGS_MAX_WORDS 32

/* User address space layout (Sv39 lower half; a top-level slot is 1 GiB). */
#define NVX_PAGE_SIZE 4096
/* Slot 0: the program's code, shared data and heap (the heap stays below the private region). */
/* Slot 1: the private region. A program's writable data linked there (mpicc's default) is
 * per rank: each thread that entered its own copy (NVX_SYS_PRIVATE_ENTER) sees that copy at
 * these addresses; other threads see the copy they entered, or the program's own. Each
 * copy is also mapped for every thread at NVX_USER_PRIVATE_SHARED + copy * 1 GiB (copy 0:
 * the program's own), so any thread can reach a buffer in any copy. */
#define NVX_USER_PRIVATE_BASE 0x40000000ull
#define NVX_USER_PRIVATE_MAX (1ull << 30)
#define NVX_USER_PRIVATE_SHARED 0x100000000ull  /* copy 0's shared address (slot 4)     */
#define NVX_USER_PRIVATE_COPIES 64               /* copies per program, copy 0 included */
/* A copy takes the region's pages (rounded up to NVX_PAGE_SIZE) and page tables: its own
 * root and the private slot's table, and a leaf table per NVX_USER_PRIVATE_LEAF_SPAN. */
#define NVX_USER_PRIVATE_COPY_TABLES 2
#define NVX_USER_PRIVATE_LEAF_SPAN (2ull << 20)
/* Slot 2: stacks and the clock pages. */
#define NVX_USER_STACK_TOP 0xc0000000ull   /* main stack grows down from here      */
#define NVX_USER_STACK_SIZE (32ull * 1024)  /* main thread's stack                  */
/* Thread stacks (NVX_SYS_STACK_MAP) live in [base, main stack - guard page), each with an
 * unmapped guard page below it. */
#define NVX_USER_THREAD_STACKS_BASE 0xa0000000ull
#define NVX_USER_THREAD_STACK_MAX (64ull << 20)
/* Slot 3: the launcher's image (NVX_SYS_MAP_IMAGE). */
#define NVX_USER_IMAGE_BASE 0xc0000000ull

/* The virtual clock (read with <nvx/clock.h>). Two read-only pages at fixed user addresses
 * in every program, so reading the clock takes no kernel call. A hart's virtual time, in
 * cycles of the modeled core (one instruction = one cycle), is
 *     counters.cycles[first_hart + local] + cluster.offset[local].
 * The board's counter page: the instruction counter (a QEMU plugin) adds every block a hart
 * executes to cycles[global hart id]; `live` is NVX_CLOCK_LIVE while it does (otherwise the
 * clock is the board clock, `--clock wall`). A hart sleeping in wfi does not advance. */
/* The clock's own code (reading it, stamps, reservations, serving contexts) is the
 * simulator's work, not the modeled machine's: on the modeled core reading the clock is one
 * rdcycle. Code placed in NVX_MODEL_TEXT_SECTION (NVX_MODEL_CODE) is not charged to any
 * hart's clock: the instruction counter counts it apart, as "model". User programs link the
 * section at NVX_USER_MODEL_TEXT, padded to NVX_USER_MODEL_TEXT_MAX bytes (runtime/user.ld);
 * the firmware and the kernel between __nvx_model_text_start and __nvx_model_text_end,
 * which the build hands to the counter (build/BOARD/model-text, read by nvx-run). */
#define NVX_MODEL_TEXT_SECTION ".text.nvx_model"
#define NVX_MODEL_CODE __attribute__((section(NVX_MODEL_TEXT_SECTION), noinline))
#define NVX_USER_MODEL_TEXT 0x10000ull
#define NVX_USER_MODEL_TEXT_MAX 0x400ull
#define NVX_TIMER_HZ 10000000ull              /* the board clock (rdtime, mtime) frequency */
#define NVX_USER_CLOCK_COUNTERS 0x80100000ull /* slot 2, below the thread stacks         */
#define NVX_USER_CLOCK_CLUSTER (NVX_USER_CLOCK_COUNTERS + 4096)
#define NVX_CLOCK_COUNTER_SLOTS 511           /* global hart ids 0..510                 */
#define NVX_CLOCK_LIVE 0x6b636f6c63787876ull  /* "nvxclock"                             */
#define NVX_CLOCK_CLUSTER_HARTS 64            /* harts per cluster the kernel handles    */
#define NVX_THREAD_SLOTS 64                   /* a thread id's slot: id % NVX_THREAD_SLOTS */

struct nvx_clock_counters {
    uint64_t cycles[NVX_CLOCK_COUNTER_SLOTS];
    uint64_t live;
};

/* The cluster's clock page, written only by its kernel; each hart changes only its own
 * offset (it only ever grows, so a hart's virtual time never goes back). */
struct nvx_clock_cluster {
    uint64_t core_hz;     /* modeled core frequency (board table)                        */
    uint64_t timer_hz;    /* the board clock's (rdtime) frequency                        */
    uint32_t first_hart;  /* global id of the cluster's local hart 0                     */
    uint32_t harts;       /* harts of the cluster                                        */
    uint64_t offset[NVX_CLOCK_CLUSTER_HARTS];   /* per local hart                         */
    uint32_t thread_hart[NVX_THREAD_SLOTS];     /* per thread slot: the local hart it runs
                                                   on (or last ran on)                    */
};

#endif
