#include "kernel/proc/deadlock_report.hpp"

#include "hal/riscv/sv39.hpp"
#include "hal/sbi/sbi_call.hpp"
#include "kernel/console.hpp"
#include "kernel/layout.hpp"
#include "kernel/mm/address_space.hpp"
#include "kernel/module.hpp"
#include "kernel/proc/process.hpp"
#include "kernel/sched/threads.hpp"
#include "support/format.hpp"

namespace nvx::kernel {
static_assert(NVX_EXIT_DEADLOCK == sbi::kExitDeadlock, "the firmware ends a deadlocked board with this status");

u64 g_deadlock_word;  // set by the firmware

namespace {
// What `t` waits for, in the kernel's terms.
void describe_wait(const Thread* t, char* out, u64 size) {
    switch (t->blocked_on) {
    case BlockReason::Futex: {
        const u32* word = static_cast<const u32*>(g_space.user_pointer(t->futex_address, 4, riscv::sv39::kRead));
        if (word != nullptr) format(out, size, "futex wait on 0x%lx (word %u)", t->futex_address.value(), *word);
        else format(out, size, "futex wait on 0x%lx", t->futex_address.value());
        return;
    }
    case BlockReason::Join: format(out, size, "join"); return;
    case BlockReason::Sleep: format(out, size, "sleep until %lu", t->wake_at); return;
    case BlockReason::ClusterEnd: format(out, size, "wait for a cluster's end"); return;
    case BlockReason::Module:
        for (const KernelModule* m = modules_begin(); m != modules_end(); m++)
            if (m->describe_wait != nullptr && m->describe_wait(t, out, size)) return;
        format(out, size, "a kernel module's call");
        return;
    case BlockReason::None: break;
    }
    format(out, size, "nothing known");
}

void print_thread(const Thread* t) {
    char wait[96];
    describe_wait(t, wait, sizeof wait);
    char note[NVX_WAIT_NOTE_MAX] = {};
    if (!t->wait_note.is_null() && !g_space.copy_from_user(note, t->wait_note, sizeof note))
        format(note, sizeof note, "(note unreadable)");
    note[sizeof note - 1] = '\0';
    char name[48];
    thread_name(t, name, sizeof name);
    if (note[0] != '\0') kprint("[cluster %u]   %s: %s: %s\n", g_layout.index, name, wait, note);
    else kprint("[cluster %u]   %s: %s\n", g_layout.index, name, wait);
}
}  // namespace

void watch_deadlock() {
    u64 word = g_layout.virt_to_phys(reinterpret_cast<u64>(&g_deadlock_word));
    sbi::Result r = sbi::call(sbi::kExtVendorNvx, sbi::kVendorWatchDeadlock, word);
    if (r.error != sbi::kSuccess) kprint("[cluster %u] cannot watch for a deadlock (%ld)\n", g_layout.index, r.error);
}

void print_deadlock_report() {
    __atomic_store_n(&g_deadlock_word, u64{0}, __ATOMIC_SEQ_CST);
    u32 blocked = 0, others = 0;
    for (u32 i = 0; i < kMaxThreads; i++) {
        ThreadState s = g_threads.slot(i)->state;
        if (s == ThreadState::Blocked) blocked++;
        else if (s == ThreadState::Ready || s == ThreadState::Running) others++;
    }
    kprint("[cluster %u] deadlock: %s: %u threads blocked, %u runnable\n", g_layout.index,
           !g_process.running ? "no program" : g_process.system ? "system program" : "program", blocked, others);
    for (u32 i = 0; i < kMaxThreads; i++)
        if (g_threads.slot(i)->state == ThreadState::Blocked) print_thread(g_threads.slot(i));
    for (const KernelModule* m = modules_begin(); m != modules_end(); m++)
        if (m->report != nullptr) m->report();
    static_cast<void>(sbi::call(sbi::kExtVendorNvx, sbi::kVendorDeadlockReported));
}

CallResult set_wait_note(Thread* caller, UserAddr note) {
    if (!note.is_null() && !g_space.user_range_ok(note, NVX_WAIT_NOTE_MAX, riscv::sv39::kRead))
        return resume_with(-NVX_EFAULT);
    caller->wait_note = note;
    return resume_with(0);
}
}  // namespace nvx::kernel
