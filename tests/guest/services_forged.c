/* Forged messages: the NoC stamps who sent a message and services
 * believe only that. A user program on one cluster forges exit reports (another cluster
 * "exited with 99", its own cluster "exited with 99" as if it were the system program, and
 * another one "exited with 0"); one on another cluster forges a Name Server unlink whose
 * body claims the owner's node. All are ignored (the run ends with status 0, the name
 * still resolves) and counted in the services' final report (checked by cases.txt). The
 * read API gives the stamped origin: node and system mark, remote and local. */
#include <nvx/names.h>
#include <nvx/services.h>
#include "check.h"
#include "ikc_test.h"

/* What a hostile program sends: the services' wire formats, written by hand. */
struct forged_request {
    uint16_t op;          /* 2 = unlink */
    uint16_t reply_node;  /* the node it claims to be */
    uint32_t seq;
    char name[NVX_NAME_MAX + 1];
};
struct forged_report {
    uint32_t kind;        /* 3 = exited */
    uint32_t cluster;
    uint32_t status;
};

enum { kOriginPort = 5, kVictimPort = 12 };
static const char kVictim[] = "forged.victim";

static void forge_reports(const struct ikc_env *e)
{
    long spawn = nvx_mailbox_open((unsigned)nvx_node_of(0, 0), NVX_SPAWN_SERVER_PORT);
    CHECK(spawn >= 0);
    struct forged_report other = {3, e->first + 1, 99}, self = {3, e->info.cluster, 99};
    struct forged_report done = {3, e->first + 1, 0};
    CHECK_EQ(nvx_mailbox_write(spawn, &other, sizeof other), sizeof other);
    CHECK_EQ(nvx_mailbox_write(spawn, &self, sizeof self), sizeof self);
    CHECK_EQ(nvx_mailbox_write(spawn, &done, sizeof done), sizeof done);
    CHECK_EQ(nvx_mailbox_close(spawn), 0);
}

static void forge_unlink(const struct ikc_env *e)
{
    long server = nvx_mailbox_open((unsigned)nvx_node_of(0, 0), NVX_NAME_SERVER_PORT);
    CHECK(server >= 0);
    struct forged_request req;
    memset(&req, 0, sizeof req);
    req.op = 2;
    req.reply_node = (uint16_t)e->nodes[0];  /* "I am the owner" */
    req.seq = 0xf0f0;
    strcpy(req.name, kVictim);
    CHECK_EQ(nvx_mailbox_write(server, &req, sizeof req), sizeof req);
    CHECK_EQ(nvx_mailbox_close(server), 0);
    /* requests of one sender are served in order: this lookup comes after the unlink */
    unsigned node = 0, port = 0;
    CHECK_EQ(nvx_name_lookup(kVictim, &node, &port), 0);
    CHECK_EQ(node, e->nodes[0]);
    CHECK_EQ(port, kVictimPort);
    CHECK_EQ(nvx_name_unlink(kVictim), -EPERM);  /* and the honest way is refused too */
}

static void check_origins(const struct ikc_env *e, long in)
{
    /* remote: from the previous cluster's user program */
    char buf[16];
    struct nvx_mailbox_origin from = {999, 999};
    CHECK_EQ(nvx_mailbox_read_from(in, buf, sizeof buf, &from), 6);
    CHECK_EQ(from.node, e->nodes[(e->rank + e->n - 1) % e->n]);
    CHECK_EQ(from.flags, 0);
    /* local: from this cluster, through the kernel only */
    long self = nvx_mailbox_open(e->me, kOriginPort);
    CHECK(self >= 0);
    CHECK_EQ(nvx_mailbox_write(self, "local", 6), 6);
    from.node = from.flags = 999;
    CHECK_EQ(nvx_mailbox_read_from(in, buf, sizeof buf, &from), 6);
    CHECK_EQ(from.node, e->me);
    CHECK_EQ(from.flags, 0);
    CHECK_EQ(nvx_mailbox_read_from(in, buf, sizeof buf, (struct nvx_mailbox_origin *)KERNEL_ADDRESS), -EFAULT);
    CHECK_EQ(nvx_mailbox_close(self), 0);
}

int main(void)
{
    static struct ikc_env e;
    CHECK_EQ(ikc_env_init(&e), 0);
    long in = nvx_mailbox_create(e.me, kOriginPort);
    long next = nvx_mailbox_open(e.nodes[(e.rank + 1) % e.n], kOriginPort);
    CHECK(in >= 0 && next >= 0);
    if (e.rank == 0) CHECK_EQ(nvx_name_link(kVictim, kVictimPort), 0);
    CHECK_EQ(ikc_barrier(&e), 0);  /* the victim's name exists */

    CHECK_EQ(nvx_mailbox_write(next, "hello", 6), 6);
    check_origins(&e, in);
    if (e.rank == 0) forge_reports(&e);
    if (e.rank == 1) forge_unlink(&e);
    CHECK_EQ(ikc_barrier(&e), 0);
    if (e.rank == 0) CHECK_EQ(nvx_name_unlink(kVictim), 0);  /* the owner still can */
    CHECK_EQ(ikc_barrier(&e), 0);
    CHECK_EQ(ikc_env_fini(&e), 0);
    return check_finish("services_forged");
}
