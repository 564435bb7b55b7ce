/* Push-back: with the cluster's message buffers full (two ports fill them, none beyond its
 * quota), a mailbox sender sleeps; a reader that then waits on the sender's port must still
 * get the message (the sleeping sender is handed straight to it). Argument "local": the
 * sender is a thread of this cluster; "remote": it is the next compute cluster (its
 * message is refused back to its kernel, which sends it again when the reader comes). */
#include <string.h>
#include "check.h"
#include "ikc_test.h"

enum { kFillPort = 5, kFillPort2 = 7, kPort = 6, kBuffers = NVX_MAILBOX_BUFFERS, kQuota = NVX_MAILBOX_PORT_QUOTA };

static long g_out, g_result = -999;
static void *writer(void *arg)
{
    (void)arg;
    g_result = nvx_mailbox_write(g_out, "x", 1);
    return 0;
}

int main(int argc, char **argv)
{
    int remote = argc > 1 && strcmp(argv[1], "remote") == 0;
    static struct ikc_env e;
    CHECK_EQ(ikc_env_init(&e), 0);
    long fill_in = nvx_mailbox_create(e.me, kFillPort), fill_out = nvx_mailbox_open(e.me, kFillPort);
    long fill_in2 = nvx_mailbox_create(e.me, kFillPort2), fill_out2 = nvx_mailbox_open(e.me, kFillPort2);
    long in = nvx_mailbox_create(e.me, kPort);
    CHECK(fill_in >= 0 && fill_out >= 0 && fill_in2 >= 0 && fill_out2 >= 0 && in >= 0);
    char msg[16] = "fill";
    for (int i = 0; i < kBuffers; i++) CHECK_EQ(nvx_mailbox_write(i < kQuota ? fill_out : fill_out2, msg, sizeof msg), sizeof msg);
    CHECK_EQ(ikc_barrier(&e), 0);  /* every cluster's buffers are full */

    g_out = nvx_mailbox_open(remote ? e.nodes[(e.rank + 1) % e.n] : e.me, kPort);
    CHECK(g_out >= 0);
    nvx_thread_t t;
    CHECK_EQ(nvx_thread_create(&t, 0, writer, 0), 0);
    if (!remote) CHECK_EQ(ikc_wait_for_sleeper(g_out, 0, 0), 0);  /* the writer sleeps, pushed back */
    char buf[128];
    CHECK_EQ(nvx_mailbox_read(in, buf, sizeof buf), 1);
    CHECK_EQ(buf[0], 'x');
    CHECK_EQ(nvx_thread_join(t, 0), 0);
    CHECK_EQ(g_result, 1);
    for (int i = 0; i < kBuffers; i++) CHECK_EQ(nvx_mailbox_read(i < kQuota ? fill_in : fill_in2, buf, sizeof buf), sizeof msg);
    CHECK_EQ(ikc_barrier(&e), 0);
    CHECK_EQ(ikc_env_fini(&e), 0);
    return check_finish("ikc_pushback");
}
