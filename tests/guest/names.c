/* Name service: link, lookup (local and remote, through the Name Server and the remote
 * cluster's Local Name Daemon), the lookup cache and its counters, unlink by the owner
 * only, and every error the service reports. */
#include <errno.h>
#include <string.h>
#include <nvx/names.h>
#include "check.h"
#include "ikc_test.h"

int main(void)
{
    struct ikc_env e;
    CHECK_EQ(ikc_env_init(&e), 0);
    char mine[32], other[32];
    snprintf(mine, sizeof mine, "thread-%u", e.rank);
    unsigned next = (e.rank + 1) % e.n;
    snprintf(other, sizeof other, "thread-%u", next);

    CHECK_EQ(nvx_name_link(mine, 10 + e.rank), 0);
    CHECK_EQ(nvx_name_link(mine, 11), -EEXIST);
    CHECK_EQ(ikc_barrier(&e), 0);  /* every cluster linked its name */

    unsigned node = 99, port = 99;
    struct nvx_name_stats before, after;
    CHECK_EQ(nvx_name_stats(&before), 0);
    CHECK_EQ(nvx_name_lookup(other, &node, &port), 0);   /* miss: server + daemon */
    CHECK_EQ(node, e.nodes[next]);
    CHECK_EQ(port, 10 + next);
    CHECK_EQ(nvx_name_lookup(other, &node, &port), 0);   /* hit */
    CHECK_EQ(nvx_name_lookup(mine, &node, &port), 0);    /* own name: miss, no daemon */
    CHECK_EQ(node, e.me);
    CHECK_EQ(port, 10 + e.rank);
    CHECK_EQ(nvx_name_stats(&after), 0);
    CHECK_EQ(after.hits - before.hits, 1);
    CHECK_EQ(after.misses - before.misses, 2);

    /* errors */
    char long_name[NVX_NAME_MAX + 8];
    memset(long_name, 'x', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    CHECK_EQ(nvx_name_link(long_name, 5), -ENAMETOOLONG);
    CHECK_EQ(nvx_name_link("", 5), -EINVAL);
    CHECK_EQ(nvx_name_link(0, 5), -EINVAL);
    CHECK_EQ(nvx_name_link("bad-port", 32), -EINVAL);
    CHECK_EQ(nvx_name_lookup("no-such-name", &node, &port), -ENOENT);
    CHECK_EQ(nvx_name_lookup(mine, 0, &port), -EINVAL);
    CHECK_EQ(nvx_name_unlink("no-such-name"), -ENOENT);
    if (e.n > 1) CHECK_EQ(nvx_name_unlink(other), -EPERM);  /* another cluster's name */
    CHECK_EQ(ikc_barrier(&e), 0);  /* nobody unlinks before everyone tried */

    CHECK_EQ(nvx_name_unlink(mine), 0);
    CHECK_EQ(nvx_name_unlink(mine), -ENOENT);
    CHECK_EQ(ikc_barrier(&e), 0);
    nvx_name_cache_flush();
    CHECK_EQ(nvx_name_lookup(other, &node, &port), -ENOENT);  /* gone everywhere */
    CHECK_EQ(ikc_barrier(&e), 0);                            /* everyone looked before relinking */
    CHECK_EQ(nvx_name_link(mine, 12), 0);                    /* a name can come back */
    CHECK_EQ(nvx_name_unlink(mine), 0);
    CHECK_EQ(ikc_barrier(&e), 0);
    CHECK_EQ(ikc_env_fini(&e), 0);
    return check_finish("names");
}
