/* A team of threads of one cluster that runs one piece of work together, again and again:
 * the PEs of a compute cluster sharing each block's computation (the paper's threads per
 * cluster). Members sleep in a barrier between runs. */
#ifndef LBM_TEAM_H
#define LBM_TEAM_H
#include <nvx/thread.h>

#define LBM_TEAM_MAX 16

typedef void lbm_team_work(void *context, int part, int parts);

struct lbm_team {
    int size;
    int quit;
    lbm_team_work *work;
    void *context;
    nvx_barrier_t start, end;
    nvx_thread_t member[LBM_TEAM_MAX];
};

/* Starts size - 1 helpers (the caller is part 0); 0 or an errno number (then the team
 * cannot run: end the program). */
int lbm_team_start(struct lbm_team *team, int size);
/* work(context, part, size) on every member; returns once all are done. */
void lbm_team_run(struct lbm_team *team, lbm_team_work *work, void *context);
void lbm_team_stop(struct lbm_team *team);

#endif
