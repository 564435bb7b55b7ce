/* Messages between the services and their clients (all fit one mailbox message). */
#ifndef NVX_SERVICES_PROTOCOL_H
#define NVX_SERVICES_PROTOCOL_H
#include <stdint.h>
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

#endif
