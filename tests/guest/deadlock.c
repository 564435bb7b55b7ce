/* A program that deadlocks on purpose: one thread waits on a futex nobody wakes, the main
 * thread reads a mailbox nobody writes. The firmware must find the board deadlocked at
 * once, the kernel must print both waits with their notes (the futex word's value too),
 * and what its ports hold (here a ring with one message nobody took), and the run must end
 * with NVX_EXIT_DEADLOCK instead of the launcher's timeout. */
#include <stdio.h>

#include <nvx/ikc.h>
#include <nvx/syscall.h>
#include <nvx/thread.h>

static uint32_t never_woken = 7;
static _Alignas(16) char ring_memory[NVX_MAILBOX_RING_BYTES(4)];
static char helper_note[NVX_WAIT_NOTE_MAX] = "helper waits on a futex nobody wakes";
static char main_note[NVX_WAIT_NOTE_MAX] = "main reads a mailbox nobody writes";

static void *helper(void *arg)
{
    (void)arg;
    nvx_sys_wait_note(helper_note);
    for (;;) nvx_sys_futex_wait(&never_woken, 7);
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
    struct nvx_mailbox_ring *ring = (struct nvx_mailbox_ring *)ring_memory;
    ring->slots = 4;
    long ringed = nvx_mailbox_create(info.node, 6), out = nvx_mailbox_open(info.node, 6);
    if (ringed < 0 || out < 0 || nvx_mailbox_ring_attach(ringed, ring) != 0 || nvx_mailbox_write(out, "x", 1) != 1) {
        printf("deadlock: ring setup failed\n");
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
