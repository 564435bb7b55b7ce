/* Limits of the DDR service (nvx/ddr.h), shared by its server and its clients. */
#ifndef NVX_DDR_CONFIG_H
#define NVX_DDR_CONFIG_H

#define NVX_DDR_REGION_MAX (12u << 20)   /* bytes of one region                                */
#define NVX_DDR_REGIONS 64               /* regions one server holds at a time (handles: 8 bits) */
#define NVX_DDR_TRANSFER_MAX (512u << 10) /* bytes of one read or write (the server's staging) */
/* Transfers a cluster has in the NoC at once; more wait in the client library, started in
 * order. Each is one request in its server's mailbox port, which holds
 * NVX_MAILBOX_PORT_QUOTA (48) messages: 16 compute clusters x 3 fit, and a request beyond
 * the quota would hold its sender in the start call until the port drains. */
#define NVX_DDR_CLIENT_OPS 3

#endif
