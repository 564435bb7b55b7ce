/* Messages between the services and their clients (all fit one mailbox message). */
#ifndef NVX_SERVICES_PROTOCOL_H
#define NVX_SERVICES_PROTOCOL_H
#include <stdint.h>
#include <nvx/ddr.h>
#include <nvx/services.h>

enum nvx_name_op { NVX_NAME_LINK = 1, NVX_NAME_UNLINK = 2, NVX_NAME_LOOKUP = 3, NVX_NAME_RESOLVE = 4 };

/* To the Name Server (LINK, UNLINK, LOOKUP) or to a Local Name Daemon (RESOLVE). */
struct nvx_name_request {
    uint16_t op;
    uint16_t reply_node;   /* the asker's node; the answer goes to its NVX_NAME_REPLY_PORT */
    uint32_t seq;
    char name[NVX_NAME_MAX + 1];
};

struct nvx_name_reply {
    uint32_t seq;
    int32_t status;        /* 0 or a negative errno */
    uint32_t node;         /* LOOKUP: the node the name lives on */
    uint32_t port;         /* RESOLVE: its port */
};

/* Spawn Server -> spawn client: a program follows through the portal, as two messages:
 * the ELF image, then the strings for exec (argv, "", environment). */
struct nvx_spawn_request {
    uint32_t image_size;
    uint32_t strings_size;
};

/* Spawn client -> Spawn Server: whether it can take the program just requested (it holds
 * the memory for it before any byte is sent), and later how the program ended. */
enum nvx_spawn_report_kind { NVX_SPAWN_READY = 1, NVX_SPAWN_REFUSED = 2, NVX_SPAWN_EXITED = 3 };
struct nvx_spawn_report {
    uint32_t kind;
    uint32_t cluster;
    uint32_t status;  /* EXITED: the program's exit status */
};

/* Client -> DDR server (mailbox), answered by one nvx_ddr_reply on the client's
 * NVX_DDR_REPLY_PORT. A read's data goes to the client's portal NVX_DDR_DATA_PORT + slot
 * before the answer; a write's data follows the request into the server's portal. */
enum nvx_ddr_kind { NVX_DDR_CREATE = 1, NVX_DDR_OPEN = 2, NVX_DDR_DESTROY = 3, NVX_DDR_READ = 4, NVX_DDR_WRITE = 5 };
struct nvx_ddr_request {
    uint16_t kind;
    uint16_t slot;       /* READ: the client's data portal                          */
    uint32_t tag;        /* copied into the answer                                  */
    uint32_t handle;     /* READ, WRITE, DESTROY                                    */
    uint32_t pad;
    union {
        struct nvx_ddr_box box;   /* READ, WRITE */
        struct {
            uint64_t size;        /* CREATE */
            uint64_t sharers;     /* CREATE: NoC nodes that may open it (bit per node) */
            char name[NVX_NAME_MAX + 1];
        } named;                  /* CREATE, OPEN */
    } u;
};
_Static_assert(sizeof(struct nvx_ddr_request) <= NVX_MAILBOX_MSG_MAX, "one mailbox message");

struct nvx_ddr_reply {
    uint32_t tag;
    uint32_t handle;     /* CREATE, OPEN */
    int64_t status;      /* bytes moved (READ, WRITE), 0, or a negative errno       */
    uint64_t size;       /* CREATE, OPEN: the region's bytes                        */
};

#endif
