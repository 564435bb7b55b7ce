#include "ikc/ops.hpp"

#include <stddef.h>

#include "hal/riscv/sv39.hpp"
#include "ikc/blocking.hpp"
#include "ikc/op_slots.hpp"
#include "ikc/portal.hpp"
#include "kernel/mm/address_space.hpp"
#include "kernel/sched/futex.hpp"
#include "support/atomic.hpp"
#include "support/bits.hpp"
#include "support/format.hpp"

namespace nvx::ikc {
namespace {
using kernel::g_space;
using kernel::Thread;
using kernel::UserAddr;
namespace sv39 = riscv::sv39;

IkcOp g_sync_ops[kernel::kMaxThreads];
IkcOp g_async_ops[NVX_IKC_ASYNC_OPS];
OpSlots<NVX_IKC_ASYNC_OPS, NVX_IKC_THREAD_OPS, kernel::kMaxThreads> g_slots;
bool g_in_wait[kernel::kMaxThreads];  // by thread slot: asleep in NVX_SYS_IKC_WAIT

void init(IkcOp* op, Thread* t, OpKind kind, bool async) {
    op->owner = t;
    op->owner_id = t->id;
    op->kind = kind;
    op->async = async;
    op->orphaned = op->waited = false;
    op->wait_index = 0;
    op->record = op->notify = UserAddr{};
    op->notify_untimed = false;
    op->clock.asked(t);
    op->queue = nullptr;
    op->next = nullptr;
    op->waiting_on = nullptr;
}

u32 slot_of(const IkcOp* op) { return static_cast<u32>(op - g_async_ops); }

// `t`'s asynchronous operation reporting to `record`, or nullptr.
IkcOp* find_async(const Thread* t, UserAddr record) {
    for (u64 mine = g_slots.of(kernel::thread_slot(t)); mine != 0; mine &= mine - 1) {
        IkcOp* op = &g_async_ops[lowest_set_bit(mine)];
        if (op->owner_id == t->id && !op->orphaned && op->record == record) return op;
    }
    return nullptr;
}

template <typename F>
void for_each_async_of(const Thread* t, F f) {
    for (u64 mine = g_slots.of(kernel::thread_slot(t)); mine != 0; mine &= mine - 1) {
        IkcOp* op = &g_async_ops[lowest_set_bit(mine)];
        if (op->owner_id == t->id && !op->orphaned) f(op);
    }
}

// The record's fields the kernel writes, `done` last (user space polls it).
void write_record(const IkcOp* op, i64 result, u64 at) {
    struct {
        i64 result;
        u64 at;
    } out = {result, at};
    static_assert(offsetof(nvx_ikc_op, at) == offsetof(nvx_ikc_op, result) + sizeof(i64));
    // A record the program unmapped meanwhile is its own loss: nothing else is touched.
    if (!g_space.copy_to_user(op->record + offsetof(nvx_ikc_op, result), &out, sizeof out)) return;
    if (auto* done = static_cast<u32*>(g_space.user_pointer(op->record + offsetof(nvx_ikc_op, done), 4, sv39::kWrite)))
        atomic::store_release(done, u32{1});
    if (op->notify.is_null()) return;
    if (auto* word = static_cast<u32*>(g_space.user_pointer(op->notify, 4, sv39::kWrite))) atomic::fetch_add(word, u32{1});
    kernel::futex_wake_all_at(op->notify, at, op->notify_untimed);
}

// Takes `op` out of the queue it waits in, before anything of it moved.
void unqueue(IkcOp* op) {
    op->queue->remove(op);
    op->queue = nullptr;
    if (op->waiting_on != nullptr) op->waiting_on->pending--;
    if (op->kind == OpKind::PortalRead) portal_reader_gone(op);
}
}  // namespace

IkcOp* sync_op(Thread* t, OpKind kind) {
    IkcOp* op = &g_sync_ops[kernel::thread_slot(t)];
    init(op, t, kind, false);
    return op;
}

i64 async_op(Thread* t, OpKind kind, UserAddr record, IkcOp** out) {
    if (record.value() % alignof(nvx_ikc_op) != 0 || !g_space.user_range_ok(record, sizeof(nvx_ikc_op), sv39::kWrite))
        return -NVX_EFAULT;
    nvx_ikc_op asked;  // what the caller sets: notify and flags
    if (!g_space.copy_from_user(&asked, record, sizeof asked)) return -NVX_EFAULT;
    if ((asked.flags & ~u32{NVX_IKC_NOTIFY_UNTIMED}) != 0) return -NVX_EINVAL;
    u64 notify_va = reinterpret_cast<u64>(asked.notify);
    UserAddr notify = notify_va == 0 ? UserAddr{} : kernel::user_address(t, notify_va);
    if (!notify.is_null() && (notify.value() % 4 != 0 || !g_space.user_range_ok(notify, 4, sv39::kWrite)))
        return -NVX_EFAULT;
    if (find_async(t, record) != nullptr) return -NVX_EBUSY;
    i32 slot = g_slots.take(kernel::thread_slot(t));
    if (slot < 0) return -NVX_EAGAIN;
    IkcOp* op = &g_async_ops[slot];
    init(op, t, kind, true);
    op->record = record;
    op->notify = notify;
    op->notify_untimed = (asked.flags & NVX_IKC_NOTIFY_UNTIMED) != 0;
    op->clock.start_now();
    // Under way until the kernel writes done = 1.
    u32 zero = 0;
    if (!g_space.copy_to_user(record + offsetof(nvx_ikc_op, done), &zero, sizeof zero)) {
        g_slots.give_back(static_cast<u32>(slot));
        return -NVX_EFAULT;
    }
    *out = op;
    return 0;
}

i64 call_op(Thread* t, OpKind kind, bool async, UserAddr record, IkcOp** out) {
    if (async) return async_op(t, kind, record, out);
    *out = sync_op(t, kind);
    return 0;
}

void complete(IkcOp* op, i64 result, u64 at) {
    if (!op->async) {
        kernel::wake_at(op->owner, result, at);
        return;
    }
    if (!op->orphaned) {
        handed(at);  // its owner takes it from the record (nvx_ikc_test)
        write_record(op, result, at);
        if (op->waited) {
            Thread* owner = op->owner;
            u32 index = op->wait_index;
            for_each_async_of(owner, [](IkcOp* other) { other->waited = false; });
            g_in_wait[kernel::thread_slot(owner)] = false;
            kernel::wake_at(owner, index, at);
        }
    }
    g_slots.give_back(slot_of(op));
}

// An asynchronous start answers when it handed the operation over: what the kernel core
// then does for it (a copy, the NoC's transfer) is not on its thread's path.
kernel::CallResult finish_in_call(IkcOp* op, i64 result, u64 at) {
    if (!op->async) {
        answer_at(at);
        return resume_with(result);
    }
    answer_at(op->clock.started);
    complete(op, result, at);
    return resume_with(0);
}

kernel::CallResult leave_under_way(IkcOp* op) {
    if (!op->async) return kernel::block(op->owner, kernel::BlockReason::Module);
    answer_at(op->clock.started);
    return resume_with(0);
}

kernel::CallResult ikc_wait(Thread* t, UserAddr list, u64 count) {
    if (count == 0 || count > NVX_IKC_WAIT_MAX) return resume_with(-NVX_EINVAL);
    u64 records[NVX_IKC_WAIT_MAX];
    if (list.value() % 8 != 0 || !g_space.copy_from_user(records, list, count * sizeof records[0])) return resume_with(-NVX_EFAULT);
    IkcOp* under_way[NVX_IKC_WAIT_MAX];
    for (u64 i = 0; i < count; i++) {
        UserAddr record = kernel::user_address(t, records[i]);
        under_way[i] = find_async(t, record);
        if (under_way[i] != nullptr) continue;
        // Complete already, or never started: its record says which.
        u32 done;
        if (record.value() % alignof(nvx_ikc_op) != 0 || !g_space.copy_from_user(&done, record + offsetof(nvx_ikc_op, done), sizeof done))
            return resume_with(-NVX_EFAULT);
        return resume_with(done == 1 ? static_cast<i64>(i) : -NVX_ENOENT);
    }
    for (u64 i = 0; i < count; i++) {
        under_way[i]->waited = true;
        under_way[i]->wait_index = static_cast<u32>(i);
    }
    g_in_wait[kernel::thread_slot(t)] = true;
    return kernel::block(t, kernel::BlockReason::Module);
}

kernel::CallResult ikc_cancel(Thread* t, UserAddr record) {
    IkcOp* op = find_async(t, record);
    if (op == nullptr) return resume_with(-NVX_ENOENT);
    if (!op->cancellable()) return resume_with(-NVX_EBUSY);
    unqueue(op);
    complete(op, -NVX_ECANCELED, core_now());
    return resume_with(0);
}

void ops_thread_ended(Thread* t) {
    g_in_wait[kernel::thread_slot(t)] = false;
    for_each_async_of(t, [](IkcOp* op) {
        if (!op->cancellable()) {  // the NoC moves it: forgotten when it completes, since its
            op->orphaned = true;   // record may be in memory a later thread reuses by then
            return;
        }
        // Now, while the thread's memory is still its own: the record tells whoever shares it.
        unqueue(op);
        complete(op, -NVX_ECANCELED, core_now());
    });
}

void ops_reset() {
    g_slots.clear();
    for (bool& waiting : g_in_wait) waiting = false;
}

bool ops_describe_wait(const Thread* t, char* out, u64 size) {
    const IkcOp* call = &g_sync_ops[kernel::thread_slot(t)];
    if (call->owner_id == t->id && call->waiting_on != nullptr) return describe_op_wait(call, out, size);
    if (!g_in_wait[kernel::thread_slot(t)]) return false;
    u32 waited = 0;
    const IkcOp* first = nullptr;
    for_each_async_of(t, [&](IkcOp* op) {
        if (!op->waited) return;
        waited++;
        if (first == nullptr || (first->waiting_on == nullptr && op->waiting_on != nullptr)) first = op;
    });
    char what[96] = "";
    if (first != nullptr && first->waiting_on != nullptr) describe_op_wait(first, what, sizeof what);
    format(out, size, "ikc wait for %u operation%s%s%s", waited, waited == 1 ? "" : "s", what[0] ? ", first " : "", what);
    return true;
}
}  // namespace nvx::ikc
