#include "kernel/proc/process.hpp"

#include "hal/riscv/sv39.hpp"
#include "hal/sbi/sbi_call.hpp"
#include "kernel/clock/clock.hpp"
#include "kernel/console.hpp"
#include "kernel/layout.hpp"
#include "kernel/mm/address_space.hpp"
#include "kernel/proc/cluster_ends.hpp"
#include "kernel/proc/elf.hpp"
#include "kernel/sched/scheduler.hpp"
#include "kernel/sched/sleepers.hpp"
#include "kernel/sched/threads.hpp"
#include "support/atomic.hpp"
#include "support/format.hpp"
#include "support/string.hpp"
#include "kernel/module.hpp"
#include "kernel/sched/futex.hpp"
#include "kernel/sched/sleepers.hpp"
#include "support/mem.hpp"

namespace nvx::kernel {
namespace sv39 = riscv::sv39;
Process g_process;

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
            if (g_space.is_user_mapped(UserAddr(page), 0)) continue;
            if (!g_space.map_user_range(page, sv39::kPageSize, segment_flags(s.flags))) return -NVX_ENOMEM;
        }
        // Copy through the direct map: text pages are not user-writable.
        for (u64 off = 0; off < s.filesz;) {
            u64 va = s.vaddr + off;
            u64 chunk = sv39::kPageSize - va % sv39::kPageSize;
            if (chunk > s.filesz - off) chunk = s.filesz - off;
            void* dst = g_space.user_pointer(UserAddr(va), chunk, 0);
            if (dst == nullptr) return -NVX_EFAULT;
            memcpy(dst, file + s.offset + off, chunk);
            off += chunk;
        }
    }
    return 0;
}

// Code, shared data and heap in slot 0, private data in slot 1 (nvx_abi.h).
int parse_program(const u8* file, u64 size, elf::Image* image) {
    return elf::parse(file, size, kUserBase, NVX_USER_PRIVATE_BASE, NVX_USER_PRIVATE_BASE + NVX_USER_PRIVATE_MAX, image);
}

// Initial stack: argc, argv[], NULL, envp[], NULL, then the strings (see nvx_abi.h).
i64 build_stack(const BootArgs& args) {
    u64 top = NVX_USER_STACK_TOP;
    if (!g_space.map_user_range(top - NVX_USER_STACK_SIZE, NVX_USER_STACK_SIZE, sv39::kRead | sv39::kWrite))
        return -NVX_ENOMEM;
    u64 strings = 0;
    for (u32 i = 0; i < args.argc; i++) strings += str_length(args.argv[i]) + 1;
    for (u32 i = 0; i < args.envc; i++) strings += str_length(args.envp[i]) + 1;
    u64 slots = 1 + args.argc + 1 + args.envc + 1;
    u64 sp = align_down(top - strings - 8 * slots, 16);
    u64 slot = sp, text = sp + 8 * slots;
    bool copied = true;  // false: the arguments do not fit the stack
    auto put_word = [&](u64 value) {
        copied &= g_space.copy_to_user(UserAddr(slot), &value, 8);
        slot += 8;
    };
    auto put_strings = [&](u32 count, const char* const* list) {
        for (u32 i = 0; i < count; i++) {
            u64 len = str_length(list[i]) + 1;
            put_word(text);
            copied &= g_space.copy_to_user(UserAddr(text), list[i], len);
            text += len;
        }
        put_word(0);
    };
    put_word(args.argc);
    put_strings(args.argc, args.argv);
    put_strings(args.envc, args.envp);
    return copied ? static_cast<i64>(sp) : -NVX_ENOMEM;
}
}  // namespace

// Loads the ELF file[0..size) as the new program with `args`; its first thread is in
// *first, for the caller to make ready once the kernel's own pages for the load are back
// (the program's first sys_info must already see the memory it will keep seeing). The
// address space must be empty.
int load_program(const u8* file, u64 size, const BootArgs& args, bool system, Thread** first) {
    elf::Image image;
    int err = parse_program(file, size, &image);
    if (err != 0) return err;
    err = load_segments(image, file);
    if (err != 0) return err;
    if (image.private_end != 0) g_space.set_private_region(image.private_end - NVX_USER_PRIVATE_BASE);
    if (!clock_map_user()) return -NVX_ENOMEM;
    g_space.set_heap_start(align_up(image.end, sv39::kPageSize));
    i64 sp = build_stack(args);
    if (sp < 0) return static_cast<int>(sp);
    asm volatile("fence.i" ::: "memory");
    Thread* t = g_threads.allocate();
    t->frame.sepc = image.entry;
    t->frame.x[kSp] = static_cast<u64>(sp);
    g_process = {true, system, 1, t->id, g_process.generation + 1, false};
    *first = t;
    return 0;
}

int start_system_program(const BootArgs& args) {
    Thread* first = nullptr;
    int err = load_program(reinterpret_cast<const u8*>(kProgramVirtualBase), board::kProgramImageSize, args, true, &first);
    if (err == 0) g_scheduler.make_ready(first);
    return err;
}

namespace {
// Stops every thread of the program and gives back everything it held: threads, queued
// work, module state, user memory. Waits (in wfi) until no user hart still runs its code.
void tear_down_program() {
    g_process.running = false;
    g_scheduler.clear();
    for (u32 i = 1; i <= user_hart_count(); i++) {
        Cpu& c = cpu_at(i);
        // First take back a thread handed over but not yet picked up: a hart that already
        // picked it up is back in U-mode and traps on the kill IPI below.
        atomic::exchange_acq_rel(&c.dispatch, static_cast<Thread*>(nullptr));
        atomic::fetch_or(&c.signals, static_cast<u32>(kSignalKill));
        send_ipi(c);
    }
    wait_for_user_harts_quiet();
    for (u32 i = 1; i <= user_hart_count(); i++) atomic::store_release(&cpu_at(i).posted, static_cast<Thread*>(nullptr));
    g_threads.release_all();
    futex_reset();
    sleepers_reset();
    cluster_ends_reset();
    for (const KernelModule* m = modules_begin(); m != modules_end(); m++)
        if (m->program_ended != nullptr) m->program_ended();
    g_space.reset_user();
}

// The status line the system program is restarted with after an exec'd program ended.
BootArgs g_restart_args;
char g_status_text[16];
}  // namespace

static_assert(board::kBootArgsMax == NVX_ARGS_MAX_BYTES && board::kBootArgsMaxWords == NVX_ARGS_MAX_WORDS,
              "user space sees the kernel's argument limits");

i64 program_exec(UserAddr image, u64 size, UserAddr args, u64 args_size) {
    if (!g_process.system) return -NVX_EPERM;
    if (size == 0 || args_size == 0 || args_size > board::kBootArgsMax) return -NVX_EINVAL;
    if (!g_space.user_range_ok(image, size, sv39::kRead) || !g_space.user_range_ok(args, args_size, sv39::kRead))
        return -NVX_EFAULT;
    // The image and its arguments move to kernel pages first: the caller's memory goes away.
    u64 pages = (size + sv39::kPageSize - 1) / sv39::kPageSize;
    u64 buffer = g_pages.allocate_run(pages);
    if (buffer == 0) {
        kprint("[cluster %u] exec refused: the program's file needs %lu KiB in one piece while it loads, "
               "the cluster has %lu KiB free: it does not fit this board\n",
               g_layout.index, pages * sv39::kPageSize / KiB, g_pages.free_pages() * sv39::kPageSize / KiB);
        return -NVX_ENOMEM;
    }
    auto* file = reinterpret_cast<u8*>(g_layout.phys_to_virt(buffer));
    BootArgs* argv = &g_restart_args;
    *argv = BootArgs{};
    bool copied = g_space.copy_from_user(file, image, size) && g_space.copy_from_user(argv->storage, args, args_size);
    argv->storage[sizeof argv->storage - 1] = '\0';
    elf::Image check;
    int err = copied ? parse_program(file, size, &check) : -NVX_EFAULT;
    if (err == elf::kErrWritableAndExecutable)
        kprint("[cluster %u] exec refused: a program segment is both writable and executable (W^X)\n", g_layout.index);
    if (err == 0) err = split_args(argv->storage, args_size, argv) ? 0 : -NVX_EINVAL;
    if (err != 0) {
        for (u64 i = 0; i < pages; i++) g_pages.release(buffer + i * sv39::kPageSize);
        return err;
    }
    tear_down_program();
    Thread* first = nullptr;
    err = load_program(file, size, *argv, false, &first);
    for (u64 i = 0; i < pages; i++) g_pages.release(buffer + i * sv39::kPageSize);
    g_space.publish_user_memory();  // the image's pages are free again
    if (err == 0) g_scheduler.make_ready(first);
    if (err != 0) {
        // The old program is gone: end the half-loaded one like any exec'd program, so the
        // system program comes back and reports the failure.
        if (err == -NVX_ENOMEM) {
            kprint("[cluster %u] exec refused: the program needs %lu KiB (segments and stack) while its file "
                   "takes %lu KiB, the cluster has %lu KiB for programs: it does not fit this board\n",
                   g_layout.index,
                   (align_up(check.end, sv39::kPageSize) - kUserBase + u64{NVX_USER_STACK_SIZE} +
                    (check.private_end == 0 ? 0 : align_up(check.private_end - NVX_USER_PRIVATE_BASE, sv39::kPageSize))) / KiB,
                   pages * sv39::kPageSize / KiB, g_space.user_memory() / KiB);
        } else {
            kprint("[cluster %u] exec failed (%d): restarting the system program\n", g_layout.index, err);
        }
        g_process.running = true;
        g_process.system = false;
        program_exit(err == -NVX_ENOMEM ? NVX_EXIT_NO_ROOM : NVX_EXIT_NOT_LOADED);
    }
    return 0;
}

i64 board_power_off(u64 status) {
    if (!g_process.system || g_layout.index != board::kControlCluster) return -NVX_EPERM;  // the firmware agrees
    kprint("[cluster %u] powering the board off, status %lu\n", g_layout.index, status & 0xffff);
    sbi::system_reset(sbi::kResetShutdown, sbi::kReasonExitStatus | (status & 0xffff));
    return -NVX_EINVAL;  // not reached
}

i64 map_launch_image(u64 size) {
    if (!g_process.system || g_layout.index != board::kControlCluster) return -NVX_EPERM;
    if (size == 0 || size > board::kImageRegionSize) return -NVX_EINVAL;
    if (g_process.image_mapped) return -NVX_EBUSY;
    if (!g_space.map_user_physical(NVX_USER_IMAGE_BASE, board::image_region_base(board::kBoard),
                                   align_up(size, sv39::kPageSize)))
        return -NVX_ENOMEM;
    g_process.image_mapped = true;
    return static_cast<i64>(NVX_USER_IMAGE_BASE);
}

void program_exit(u32 status) {
    if (!g_process.running) return;
    bool system = g_process.system;
    tear_down_program();
    if (!system) {
        // An exec'd program ended: the system program comes back to report it.
        format(g_status_text, sizeof g_status_text, "%u", status);
        g_restart_args = BootArgs{};
        g_restart_args.argc = 3;
        g_restart_args.argv[0] = "nvx-system";
        g_restart_args.argv[1] = "exited";
        g_restart_args.argv[2] = g_status_text;
        int err = start_system_program(g_restart_args);
        if (err == 0) return;
        kprint("[cluster %u] cannot restart the system program (%d)\n", g_layout.index, err);
    }
    kprint("[cluster %u] system program exited with status %u\n", g_layout.index, status);
    // The board's control plane lives on the first I/O cluster: without it nothing can
    // end the run, so the board powers off with its status.
    if (g_layout.index == board::kControlCluster) sbi::system_reset(sbi::kResetShutdown, sbi::kReasonExitStatus | (status & 0xffff));
}
}  // namespace nvx::kernel
