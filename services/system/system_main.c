/* nvx-system: the program every cluster's kernel starts at boot. The first I/O cluster
 * runs the Name Server and the Spawn Server; every I/O cluster runs a DDR server (its
 * memory is the board's DDR: on the others nothing else uses it); compute clusters wait
 * for programs to run. */
#include <stdlib.h>
#include <string.h>
#include <nvx/thread.h>
#include "system.h"

int main(int argc, char **argv)
{
    struct nvx_info info;
    if (nvx_sys_info(&info) != 0) return 1;
    if (info.cluster == 0) {
        nvx_thread_t ns, ddr;
        if (nvx_thread_create(&ns, 0, name_server_main, 0) != 0) return 1;
        if (nvx_thread_create(&ddr, 0, ddr_server_main, 0) != 0) return 1;
        return spawn_server_main(argc, argv);
    }
    if (info.cluster < info.cluster_count - info.compute_count) {
        ddr_server_main(0);
        return 0;
    }
    int exited = argc >= 3 && strcmp(argv[1], "exited") == 0 ? atoi(argv[2]) : -1;
    return spawn_client_main(exited);
}
