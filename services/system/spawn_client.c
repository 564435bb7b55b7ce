/* The spawn client of a compute cluster: reports how the last program ended, then takes
 * the next program from the Spawn Server (request by mailbox, image and strings through
 * the portal) and becomes it (exec). */
#include <stdio.h>
#include <stdlib.h>
#include "services/protocol.h"
#include "services/system/system.h"

int spawn_client_main(int exited)
{
    struct nvx_info info;
    nvx_sys_info(&info);
    long server = nvx_node_of(0, 0);
    if (exited >= 0) {
        long out = nvx_mailbox_open((unsigned)server, NVX_SPAWN_SERVER_PORT);
        struct nvx_exit_report report = {info.cluster, (uint32_t)exited};
        if (out < 0 || nvx_mailbox_write(out, &report, sizeof report) < 0) return 1;
        nvx_mailbox_close(out);
    }
    long requests = nvx_mailbox_create(info.node, NVX_SPAWN_CLIENT_PORT);
    long images = nvx_portal_create(info.node, NVX_SPAWN_CLIENT_PORT);
    if (requests < 0 || images < 0) return 1;
    for (;;) {
        struct nvx_spawn_request req;
        if (nvx_mailbox_read(requests, &req, sizeof req) != sizeof req) continue;
        char *image = malloc(req.image_size);
        char *strings = malloc(req.strings_size);
        long got_image = -1, got_strings = -1;
        if (image && strings && nvx_portal_allow(images, (unsigned)server) == 0)
            got_image = nvx_portal_read(images, image, req.image_size);
        if (got_image == (long)req.image_size && nvx_portal_allow(images, (unsigned)server) == 0)
            got_strings = nvx_portal_read(images, strings, req.strings_size);
        long err = got_strings == (long)req.strings_size ? nvx_exec(image, req.image_size, strings, req.strings_size) : -1;
        /* only reached if the program could not start */
        printf("[cluster %u] spawn failed (%ld)\n", info.cluster, err);
        free(image);
        free(strings);
        long out = nvx_mailbox_open((unsigned)server, NVX_SPAWN_SERVER_PORT);
        struct nvx_exit_report report = {info.cluster, 126};
        if (out >= 0) nvx_mailbox_write(out, &report, sizeof report), nvx_mailbox_close(out);
    }
}
