/* The spawn client of a compute cluster: reports how the last program ended, then takes
 * the next program from the Spawn Server (request by mailbox; once it said it is ready,
 * image and strings through the portal) and becomes it (exec). */
#include <stdio.h>
#include <stdlib.h>
#include "protocol.h"
#include "system.h"

static long g_server_box = -1;

static void report(unsigned kind, unsigned cluster, unsigned status)
{
    struct nvx_spawn_report r = {kind, cluster, status};
    nvx_mailbox_write(g_server_box, &r, sizeof r);
}

int spawn_client_main(int exited)
{
    struct nvx_info info;
    nvx_sys_info(&info);
    long server = nvx_node_of(0, 0);
    g_server_box = nvx_mailbox_open((unsigned)server, NVX_SPAWN_SERVER_PORT);
    if (g_server_box < 0) return 1;
    if (exited >= 0) report(NVX_SPAWN_EXITED, info.cluster, (unsigned)exited);
    long requests = nvx_mailbox_create(info.node, NVX_SPAWN_CLIENT_PORT);
    long images = nvx_portal_create(info.node, NVX_SPAWN_CLIENT_PORT);
    if (requests < 0 || images < 0) return 1;
    for (;;) {
        struct nvx_spawn_request req;
        if (nvx_mailbox_read(requests, &req, sizeof req) != sizeof req) continue;
        char *image = malloc(req.image_size);
        char *strings = malloc(req.strings_size);
        if (!image || !strings) {  /* say so before anything is sent: nobody waits in vain */
            free(image);
            free(strings);
            struct nvx_info now;
            nvx_sys_info(&now);
            printf("[cluster %u] exec refused: no memory to receive a %u-byte program (%lu KiB free): it does "
                   "not fit this board\n", info.cluster, req.image_size, (unsigned long)(now.free_memory / 1024));
            report(NVX_SPAWN_REFUSED, info.cluster, NVX_EXIT_NO_ROOM);
            continue;
        }
        long got_image = -1, got_strings = -1;
        if (nvx_portal_allow(images, (unsigned)server) == 0) {
            report(NVX_SPAWN_READY, info.cluster, 0);
            got_image = nvx_portal_read(images, image, req.image_size);
        }
        if (got_image == (long)req.image_size && nvx_portal_allow(images, (unsigned)server) == 0)
            got_strings = nvx_portal_read(images, strings, req.strings_size);
        long err = got_strings == (long)req.strings_size ? nvx_exec(image, req.image_size, strings, req.strings_size) : -1;
        /* only reached if the program could not start */
        printf("[cluster %u] spawn failed (%ld)\n", info.cluster, err);
        free(image);
        free(strings);
        report(NVX_SPAWN_EXITED, info.cluster, err == -NVX_ENOMEM ? NVX_EXIT_NO_ROOM : NVX_EXIT_NOT_RUN);
    }
}
