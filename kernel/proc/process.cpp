#include "kernel/proc/process.hpp"

#include "hal/riscv/sv39.hpp"
#include "hal/sbi/sbi_call.hpp"
#include "kernel/console.hpp"
#include "kernel/layout.hpp"
#include "kernel/mm/address_space.hpp"
#include "kernel/proc/elf.hpp"
#include "kernel/sched/scheduler.hpp"
#include "support/atomic.hpp"
#include "support/string.hpp"

extern "C" void* memcpy(void*, const void*, size_t);

namespace nvx::kernel {
namespace sv39 = riscv::sv39;
Process g_process;
ThreadTable g_threads;

namespace {
u64 segment_flags(u32 elf_flags) {
    u64 f = 0;
    if (elf_flags & elf::kFlagRead) f |= sv39::kRead;
    if (elf_flags & elf::kFlagWrite) f |= sv39::kWrite | sv39::kRead;
    if (elf_flags & elf::kFlagExec) f |= sv39::kExec;
    return f;
}

int load_segments(const elf::Image& image, const u8* file) {
    for (u32 i = 0; i < image.segment_count; i++) {
        const elf::Segment& s = image.segments[i];
        u64 start = align_down(s.vaddr, sv39::kPageSize);
        u64 end = align_up(s.vaddr + s.memsz, sv39::kPageSize);
        // Pages shared with an earlier segment are already mapped; map the rest.
        for (u64 page = start; page < end; page += sv39::kPageSize) {
            if (g_space.is_user_mapped(page, 0)) continue;
            if (!g_space.map_user_range(page, sv39::kPageSize, segment_flags(s.flags))) return -NVX_ENOMEM;
        }
        // Copy through the direct map: text pages are not user-writable.
        for (u64 off = 0; off < s.filesz;) {
            u64 va = s.vaddr + off;
            u64 chunk = sv39::kPageSize - va % sv39::kPageSize;
            if (chunk > s.filesz - off) chunk = s.filesz - off;
            void* dst = g_space.user_pointer(va, chunk, 0);
            if (dst == nullptr) return -NVX_EFAULT;
            memcpy(dst, file + s.offset + off, chunk);
            off += chunk;
        }
    }
    return 0;
}

// Initial stack: argc, argv[], NULL, then the strings (see nvx_abi.h).
i64 build_stack(const BootArgs& args) {
    u64 top = NVX_USER_STACK_TOP;
    if (!g_space.map_user_range(top - NVX_USER_STACK_SIZE, NVX_USER_STACK_SIZE, sv39::kRead | sv39::kWrite))
        return -NVX_ENOMEM;
    u64 strings = 0;
    for (u32 i = 0; i < args.argc; i++) strings += str_length(args.argv[i]) + 1;
    u64 sp = align_down(top - strings - 8 * (args.argc + 2), 16);
    u64 vectors = sp, text = sp + 8 * (args.argc + 2);
    u64 argc = args.argc;
    g_space.copy_to_user(vectors, &argc, 8);
    for (u32 i = 0; i < args.argc; i++) {
        u64 len = str_length(args.argv[i]) + 1;
        g_space.copy_to_user(vectors + 8 * (i + 1), &text, 8);
        g_space.copy_to_user(text, args.argv[i], len);
        text += len;
    }
    u64 null = 0;
    g_space.copy_to_user(vectors + 8 * (args.argc + 1), &null, 8);
    return static_cast<i64>(sp);
}

void release_joined(Thread* t) {
    g_threads.release(t);
}
}  // namespace

int start_program(const BootArgs& args) {
    elf::Image image;
    auto* file = reinterpret_cast<const u8*>(kProgramVirtualBase);
    int err = elf::parse(file, board::kProgramSize, kUserBase, NVX_USER_STACK_TOP - NVX_USER_STACK_SIZE, &image);
    if (err != 0) return err;
    err = load_segments(image, file);
    if (err != 0) return err;
    g_space.set_heap_start(align_up(image.end, sv39::kPageSize));
    i64 sp = build_stack(args);
    if (sp < 0) return static_cast<int>(sp);
    asm volatile("fence.i" ::: "memory");
    Thread* t = g_threads.allocate();
    t->frame.sepc = image.entry;
    t->frame.x[kSp] = static_cast<u64>(sp);
    g_process.running = true;
    g_process.live_threads = 1;
    g_process.main_thread = t->id;
    g_scheduler.make_ready(t);
    return 0;
}

i64 thread_create(const Thread* creator, u64 entry, u64 arg, u64 stack_top, i64 hart) {
    if (!g_space.is_user_mapped(entry, sv39::kExec)) return -NVX_EFAULT;
    if (stack_top % 16 != 0 || !g_space.is_user_mapped(stack_top - 16, sv39::kRead | sv39::kWrite))
        return -NVX_EFAULT;
    if (hart != -1 && (hart < 1 || hart > static_cast<i64>(user_hart_count()))) return -NVX_EINVAL;
    Thread* t = g_threads.allocate();
    if (t == nullptr) return -NVX_EAGAIN;
    t->frame.sepc = entry;
    t->frame.x[kA0] = arg;
    t->frame.x[kSp] = stack_top;
    t->frame.x[kGp] = creator->frame.x[kGp];  // gp is program-wide (linker relaxation)
    t->affinity = static_cast<i32>(hart);
    g_process.live_threads++;
    g_scheduler.make_ready(t);
    return static_cast<i64>(t->id);
}

void thread_end(Thread* t, u64 how, u64 value) {
    t->state = ThreadState::Zombie;
    t->end = {how, value};
    if (t->id == g_process.main_thread && how == NVX_THREAD_KILLED) g_process.status = 128 + static_cast<u32>(value);
    if (t->has_joiner) {
        Thread* joiner = t->joiner;
        g_space.copy_to_user(joiner->join_status_address, &t->end, sizeof t->end);
        joiner->frame.x[kA0] = 0;
        release_joined(t);
        g_scheduler.make_ready(joiner);
    }
    if (--g_process.live_threads == 0) program_exit(g_process.status);
}

Outcome thread_join(Thread* caller, u64 id, u64 status_address) {
    Thread* target = g_threads.find(id);
    i64 result = 0;
    if (target == nullptr) {
        result = -NVX_ESRCH;
    } else if (target == caller) {
        result = -NVX_EDEADLK;
    } else if (target->has_joiner) {
        result = -NVX_EINVAL;
    } else if (!g_space.user_range_ok(status_address, sizeof(nvx_thread_status), sv39::kWrite)) {
        result = -NVX_EFAULT;
    } else if (target->state == ThreadState::Zombie) {
        g_space.copy_to_user(status_address, &target->end, sizeof target->end);
        release_joined(target);
    } else {
        target->has_joiner = true;
        target->joiner = caller;
        caller->join_status_address = status_address;
        caller->state = ThreadState::Blocked;
        caller->blocked_on = BlockReason::Join;
        return Outcome::Blocked;
    }
    caller->frame.x[kA0] = static_cast<u64>(result);
    return Outcome::Resume;
}

void program_exit(u32 status) {
    if (!g_process.running) return;
    g_process.running = false;
    g_scheduler.clear();
    for (u32 i = 1; i <= user_hart_count(); i++) {
        Cpu& c = cpu_at(i);
        if (c.running == nullptr) continue;
        c.running = nullptr;
        atomic::fetch_or(&c.signals, static_cast<u32>(kSignalKill));
        send_ipi(c);
    }
    kprint("[cluster %u] program exited with status %u\n", g_layout.index, status);
    sbi::cluster_exit(status);
}
}  // namespace nvx::kernel
