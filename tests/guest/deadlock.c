/* A program that deadlocks on purpose: one thread waits on a futex nobody wakes, the main
 * thread reads a mailbox nobody writes. The firmware must find the board deadlocked at
 * once, the kernel must print both waits with their notes, and the run must end with
 * NVX_EXIT_DEADLOCK instead of the launcher's timeout. */
#include <stdio.h>

#include <nvx/ikc.h>
#include <nvx/syscall.h>
#include <nvx/thread.h>

static uint32_t never_woken;
static char helper_note[NVX_WAIT_NOTE_MAX] = "helper waits on a futex nobody wakes";
static char main_note[NVX_WAIT_NOTE_MAX] = "main reads a mailbox nobody writes";

static void *helper(void *arg)
{
    (void)arg;
    nvx_sys_wait_note(helper_note);
    for (;;) nvx_sys_futex_wait(&never_woken, 0);
    return NULL;
}

int main(void)
{
    struct nvx_info info;
    nvx_sys_info(&info);
    long in = nvx_mailbox_create(info.node, 5);
    if (in < 0 || nvx_sys_wait_note((const char *)1) != -NVX_EFAULT || nvx_sys_wait_note(main_note) != 0) {
        printf("deadlock: setup failed (%ld)\n", in);
        return 1;
    }
    nvx_thread_t t;
    if (nvx_thread_create(&t, NULL, helper, NULL) != 0) return 1;
    printf("deadlock: waiting forever\n");
    char buf[NVX_MAILBOX_MSG_MAX];
    nvx_mailbox_read(in, buf, sizeof buf);
    printf("deadlock: FAIL, the read returned\n");
    return 1;
}
