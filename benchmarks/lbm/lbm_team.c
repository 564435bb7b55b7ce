#include "lbm_team.h"

#include <string.h>
#include <nvx/syscall.h>

struct helper {
    struct lbm_team *team;
    int part;
};
static struct helper g_helpers[LBM_TEAM_MAX];

static void *helper_main(void *arg)
{
    struct helper *h = arg;
    for (;;) {
        nvx_barrier_wait(&h->team->start);
        if (h->team->quit) return 0;
        h->team->work(h->team->context, h->part, h->team->size);
        nvx_barrier_wait(&h->team->end);
    }
}

int lbm_team_start(struct lbm_team *team, int size)
{
    memset(team, 0, sizeof *team);
    if (size < 1 || size > LBM_TEAM_MAX) return 22; /* EINVAL */
    team->size = size;
    int err = nvx_barrier_init(&team->start, (unsigned)size);
    if (err == 0) err = nvx_barrier_init(&team->end, (unsigned)size);
    struct nvx_info info;
    nvx_sys_info(&info);
    unsigned mine = info.local_hart - info.first_user_hart;
    for (int p = 1; p < size && err == 0; p++) {
        /* One PE each, the caller's next ones: left to the scheduler, new threads share
         * their creator's hart until a quantum moves them. */
        nvx_thread_attr_t attr = NVX_THREAD_ATTR_INITIALIZER;
        attr.hart = (int)(info.first_user_hart + (mine + (unsigned)p) % info.user_harts);
        g_helpers[p] = (struct helper){team, p};
        err = nvx_thread_create(&team->member[p], &attr, helper_main, &g_helpers[p]);
    }
    return err;
}

void lbm_team_run(struct lbm_team *team, lbm_team_work *work, void *context)
{
    team->work = work;
    team->context = context;
    if (team->size > 1) nvx_barrier_wait(&team->start);
    work(context, 0, team->size);
    if (team->size > 1) nvx_barrier_wait(&team->end);
}

void lbm_team_stop(struct lbm_team *team)
{
    team->quit = 1;
    if (team->size > 1) nvx_barrier_wait(&team->start);
    for (int p = 1; p < team->size; p++) nvx_thread_join(team->member[p], 0);
}
