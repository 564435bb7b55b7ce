/* System services of the board: where they listen and what they reserve.
 * Logical ports 0..NVX_FIRST_USER_PORT-1 of every node belong to the services; user
 * programs use the ports from NVX_FIRST_USER_PORT up. */
#ifndef NVX_SERVICES_H
#define NVX_SERVICES_H

#define NVX_NAME_SERVER_PORT 0   /* Name Server mailbox, on the first I/O cluster's node   */
#define NVX_SPAWN_SERVER_PORT 1  /* Spawn Server mailbox (exit reports), same node         */
#define NVX_SPAWN_CLIENT_PORT 1  /* each compute node: spawn requests (mailbox) and images (portal) */
#define NVX_NAME_DAEMON_PORT 2   /* each compute node: the Local Name Daemon's mailbox     */
#define NVX_NAME_REPLY_PORT 3    /* each compute node: answers to the name client          */
#define NVX_FIRST_USER_PORT 4
/* The DDR service (nvx/ddr.h): each I/O cluster's server listens on its last interface's
 * node (its mailbox for requests, its portal for the data clients write). On compute nodes
 * it answers on mailbox port 0 and sends the data clients read to portals 0..3: the
 * services' ports there that only the system program uses between programs. */
#define NVX_DDR_SERVER_PORT 2
#define NVX_DDR_REPLY_PORT 0
#define NVX_DDR_DATA_PORT 0      /* first of NVX_DDR_DATA_PORTS portal ports              */
#define NVX_DDR_DATA_PORTS 4

#define NVX_NAME_MAX 48          /* bytes of a name, without the terminating NUL          */

#endif
