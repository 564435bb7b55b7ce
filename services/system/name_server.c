/* The Name Server: which node each name lives on. Runs as a thread of the system program
 * on the first I/O cluster and answers every request on the asker's reply port. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
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

static struct name_entry *find(const char *name)
{
    for (int i = 0; i < NAME_SERVER_ENTRIES; i++)
        if (g_names[i].used && strcmp(g_names[i].name, name) == 0) return &g_names[i];
    return 0;
}

static int name_ok(const char *name)
{
    size_t n = strnlen(name, NVX_NAME_MAX + 1);
    if (n == 0) return -EINVAL;
    return n > NVX_NAME_MAX ? -ENAMETOOLONG : 0;
}

static void serve(const struct nvx_name_request *req, struct nvx_name_reply *rep)
{
    int err = name_ok(req->name);
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
            g_names[i].node = req->reply_node;
            rep->status = 0;
            return;
        }
        rep->status = -ENOSPC;
        return;
    case NVX_NAME_UNLINK:
        if (!e) rep->status = -ENOENT;
        else if (e->node != req->reply_node) rep->status = -EPERM;
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
    for (;;) {
        struct nvx_name_request req;
        memset(&req, 0, sizeof req);
        long n = nvx_mailbox_read(box, &req, sizeof req);
        if (n < (long)offsetof(struct nvx_name_request, name) + 1) continue;  /* malformed: no answer */
        req.name[NVX_NAME_MAX] = '\0';
        struct nvx_name_reply rep = {req.seq, 0, 0, 0};
        serve(&req, &rep);
        if (req.reply_node >= info.node_count || req.reply_node >= 64) continue;
        if (g_reply_box[req.reply_node] == 0) {
            long out = nvx_mailbox_open(req.reply_node, NVX_NAME_REPLY_PORT);
            if (out < 0) continue;
            g_reply_box[req.reply_node] = out + 1;
        }
        nvx_mailbox_write(g_reply_box[req.reply_node] - 1, &rep, sizeof rep);
    }
}
