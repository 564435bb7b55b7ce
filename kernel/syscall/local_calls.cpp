#include "hal/riscv/sv39.hpp"
#include "kernel/console.hpp"
#include "kernel/layout.hpp"
#include "kernel/mm/address_space.hpp"
#include "kernel/module.hpp"
#include "kernel/syscall/syscalls.hpp"
#include "support/string.hpp"

namespace nvx::kernel {
namespace {
i64 sys_write(u64 fd, u64 buffer, u64 length) {
    if (fd != 1 && fd != 2) return -NVX_EBADF;
    if (!g_space.user_range_ok(buffer, length, riscv::sv39::kRead)) return -NVX_EFAULT;
    char chunk[kConsoleChunk];
    for (u64 done = 0; done < length;) {
        u64 n = length - done < sizeof chunk ? length - done : sizeof chunk;
        if (!g_space.copy_from_user(chunk, buffer + done, n)) return -NVX_EFAULT;
        console_write_kernel(chunk, n);
        done += n;
    }
    return static_cast<i64>(length);
}

i64 sys_info(u64 address) {
    const board::Board& b = board::kBoard;
    Cpu& c = this_cpu();
    nvx_info info{};
    info.cluster = g_layout.index;
    info.cluster_count = b.cluster_count;
    info.compute_count = b.compute_count;
    info.hart = c.hart;
    info.local_hart = c.local;
    info.user_harts = user_hart_count();
    info.first_user_hart = 1;
    info.max_threads = kMaxThreads;
    info.user_memory = (g_pages.free_pages() + g_space.user_pages()) * riscv::sv39::kPageSize;
    str_copy(info.board, sizeof info.board, b.name);
    info.node = g_layout.cluster->first_node;
    info.nodes = g_layout.cluster->nodes;
    info.node_count = b.node_count;
    info.compute_user_harts = b.cluster(b.first_compute()).harts - 1;
    return g_space.copy_to_user(address, &info, sizeof info) ? 0 : -NVX_EFAULT;
}

i64 sys_node_of(u64 cluster, u64 interface) {
    const board::Board& b = board::kBoard;
    if (cluster >= b.cluster_count || interface >= b.cluster(static_cast<u32>(cluster)).nodes) return -NVX_EINVAL;
    return b.cluster(static_cast<u32>(cluster)).first_node + static_cast<i64>(interface);
}
}  // namespace

bool handle_local_call(Thread* t) {
    u64* x = t->frame.x;
    i64 result;
    switch (x[kA7]) {
    case NVX_SYS_WRITE: result = sys_write(x[kA0], x[kA1], x[kA2]); break;
    case NVX_SYS_THREAD_SELF: result = static_cast<i64>(t->id); break;
    case NVX_SYS_INFO: result = sys_info(x[kA0]); break;
    case NVX_SYS_EXIT:
    case NVX_SYS_THREAD_CREATE:
    case NVX_SYS_THREAD_EXIT:
    case NVX_SYS_THREAD_JOIN:
    case NVX_SYS_THREAD_YIELD:
    case NVX_SYS_FUTEX_WAIT:
    case NVX_SYS_FUTEX_WAKE:
    case NVX_SYS_BRK:
    case NVX_SYS_EXEC:
    case NVX_SYS_POWEROFF:
    case NVX_SYS_MAP_IMAGE: return false;
    case NVX_SYS_NODE_OF: result = sys_node_of(x[kA0], x[kA1]); break;
    default:
        if (module_for_call(x[kA7]) != nullptr) return false;
        result = -NVX_ENOSYS;
        break;
    }
    x[kA0] = static_cast<u64>(result);
    return true;
}
}  // namespace nvx::kernel
