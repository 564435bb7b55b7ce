/* Services cannot be hung by user programs. One cluster's program
 * floods an unused port of the first I/O cluster's node (a thread that flow control stops)
 * and sends the Name Server lookups whose answers nobody reads (its reply port is never
 * created). The other clusters then use the Name Server, and every cluster's exit report
 * still reaches the Spawn Server: the run ends normally with status 0. Before the fix the
 * flood filled that node's buffers and the Name Server blocked on the unread answers. */
#include <nvx/names.h>
#include <nvx/services.h>
#include "check.h"
#include "ikc_test.h"

struct lookup_request {  /* the Name Server's wire format, as a hostile program writes it */
    uint16_t op;         /* 3 = lookup */
    uint16_t reply_node;
    uint32_t seq;
    char name[NVX_NAME_MAX + 1];
};

enum { kUnusedPort = 9, kFlood = 200, kLookups = 80, kNamePort = 10 };

static long g_flood_out;
static void *flood(void *arg)
{
    (void)arg;
    char msg[NVX_MAILBOX_MSG_MAX] = "flood";
    for (int i = 0; i < kFlood; i++) nvx_mailbox_write(g_flood_out, msg, sizeof msg);  /* never all taken */
    return 0;
}

static void attack(const struct ikc_env *e)
{
    unsigned server_node = (unsigned)nvx_node_of(0, 0);
    g_flood_out = nvx_mailbox_open(server_node, kUnusedPort);
    CHECK(g_flood_out >= 0);
    nvx_thread_t t;
    CHECK_EQ(ikc_spawn(&t, flood, 0), 0);  /* left blocked: the program's end takes it */
    long server = nvx_mailbox_open(server_node, NVX_NAME_SERVER_PORT);
    CHECK(server >= 0);
    for (int i = 0; i < kLookups; i++) {
        struct lookup_request req;
        memset(&req, 0, sizeof req);
        req.op = 3;
        req.reply_node = (uint16_t)e->me;
        req.seq = (uint32_t)i;
        strcpy(req.name, "nobody");
        CHECK_EQ(nvx_mailbox_write(server, &req, sizeof req), sizeof req);
    }
}

int main(void)
{
    static struct ikc_env e;
    CHECK_EQ(ikc_env_init(&e), 0);
    if (e.rank == 0) attack(&e);
    CHECK_EQ(ikc_barrier(&e), 0);  /* the attack was sent */
    if (e.rank != 0) {
        char name[32];
        snprintf(name, sizeof name, "flood.%u", e.rank);
        CHECK_EQ(nvx_name_link(name, kNamePort), 0);
        unsigned node = 0, port = 0;
        CHECK_EQ(nvx_name_lookup(name, &node, &port), 0);
        CHECK_EQ(node, e.me);
        CHECK_EQ(port, kNamePort);
        CHECK_EQ(nvx_name_lookup("nobody", &node, &port), -ENOENT);
        CHECK_EQ(nvx_name_unlink(name), 0);
    }
    CHECK_EQ(ikc_barrier(&e), 0);
    CHECK_EQ(ikc_env_fini(&e), 0);
    return check_finish("services_flood");
}
