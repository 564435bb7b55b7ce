/* The Name Server: which node each name lives on. Runs as a thread of the system program
 * on the first I/O cluster and answers every request on the asker's reply port. The asker
 * is the node the NoC stamped on the request, never the node its body names: a program can
 * neither unlink nor take another cluster's name, nor send answers elsewhere. Answers never
 * wait for a client that does not read them: they are dropped and counted. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <nvx/clock.h>
#include "protocol.h"
#include "system.h"

#define NAME_SERVER_ENTRIES 256

struct name_entry {
    int used;
    char name[NVX_NAME_MAX + 1];
    uint32_t node;  /* where it lives; also its owner: only that node may unlink it */
};

static struct name_entry g_names[NAME_SERVER_ENTRIES];
static long g_reply_box[64];  /* output mailbox per node, opened on first use (+1: 0 = none) */
struct name_server_counters g_name_server_counters;

static struct name_entry *find(const char *name)
{
    for (int i = 0; i < NAME_SERVER_ENTRIES; i++)
        if (g_names[i].used && strcmp(g_names[i].name, name) == 0) return &g_names[i];
    return 0;
}

static void serve(const struct nvx_name_request *req, uint32_t asker, struct nvx_name_reply *rep)
{
    int err = system_name_ok(req->name);
    if (err != 0) {
        rep->status = err;
        return;
    }
    struct name_entry *e = find(req->name);
    switch (req->op) {
    case NVX_NAME_LINK:
        if (e) { rep->status = -EEXIST; return; }
        for (int i = 0; i < NAME_SERVER_ENTRIES; i++) {
            if (g_names[i].used) continue;
            g_names[i].used = 1;
            strcpy(g_names[i].name, req->name);
            g_names[i].node = asker;
            rep->status = 0;
            return;
        }
        rep->status = -ENOSPC;
        return;
    case NVX_NAME_UNLINK:
        if (!e) rep->status = -ENOENT;
        else if (e->node != asker) rep->status = -EPERM;
        else { e->used = 0; rep->status = 0; }
        return;
    case NVX_NAME_LOOKUP:
        if (!e) { rep->status = -ENOENT; return; }
        rep->status = 0;
        rep->node = e->node;
        return;
    default:
        rep->status = -EINVAL;
    }
}

void *name_server_main(void *unused)
{
    (void)unused;
    struct nvx_info info;
    nvx_sys_info(&info);
    long box = nvx_mailbox_create(info.node, NVX_NAME_SERVER_PORT);
    if (box < 0) {
        printf("[name server] cannot listen: %ld\n", box);
        return 0;
    }
    nvx_clock_server();  /* each request at its own virtual time, whatever the host's order */
    for (;;) {
        struct nvx_name_request req;
        struct nvx_mailbox_origin from;
        memset(&req, 0, sizeof req);
        long n = nvx_mailbox_read_from(box, &req, sizeof req, &from);
        if (n < (long)offsetof(struct nvx_name_request, name) + 1) continue;  /* malformed: no answer */
        req.name[NVX_NAME_MAX] = '\0';
        if (req.reply_node != from.node) __atomic_fetch_add(&g_name_server_counters.forged, 1, __ATOMIC_RELAXED);
        struct nvx_name_reply rep = {req.seq, 0, 0, 0};
        serve(&req, from.node, &rep);
        if (from.node >= info.node_count || from.node >= 64) continue;
        if (g_reply_box[from.node] == 0) {
            long out = nvx_mailbox_open(from.node, NVX_NAME_REPLY_PORT);
            if (out < 0) continue;
            g_reply_box[from.node] = out + 1;
        }
        if (nvx_mailbox_try_write(g_reply_box[from.node] - 1, &rep, sizeof rep) != sizeof rep)
            __atomic_fetch_add(&g_name_server_counters.undelivered, 1, __ATOMIC_RELAXED);
    }
}
