// User threads of this cluster's program. All fields except the saved registers are
// owned by the kernel core; a user hart touches only the thread it is running.
#pragma once
#include "kernel/abi/nvx_abi.h"
#include "kernel/arch/trap_frame.hpp"
#include "kernel/config.hpp"
#include "kernel/mm/private_copies.hpp"
#include "kernel/mm/user_addr.hpp"
#include "support/intrusive_queue.hpp"

namespace nvx::kernel {
struct Cpu;

enum class ThreadState : u8 { Free, Ready, Running, Blocked, Zombie };

// What a blocked thread waits for; a module's wait (IKC I/O) is kept by that module.
enum class BlockReason : u8 { None, Futex, Join, Sleep, Module, ClusterEnd };

struct Thread {
    TrapFrame frame;  // first: uservec saves straight into it
    FpState fp;
    Cpu* fp_cpu;      // hart whose FP registers hold this thread's state, if any
    u64 id;
    ThreadState state;
    BlockReason blocked_on;
    i32 affinity;     // local hart index, or -1 for any user hart
    Cpu* cpu;         // where it runs (Running) or last ran
    Thread* next;     // link in the ready queue or a wait queue
    UserAddr futex_address;
    u32 parked;       // ParkState (futex.hpp), under the futex lock: it sleeps on its own hart
    UserAddr wait_note;  // the program's description of its waits (NVX_SYS_WAIT_NOTE), or null
    u64 wake_at;      // deadline of a timed sleep (board clock ticks)
    Thread* joiner;   // thread blocked in join on this one
    UserAddr join_status_address;  // joiner's struct nvx_thread_status*, already validated
    bool has_joiner;
    bool fault_ends_program;  // NVX_SYS_FAULT_ENDS_PROGRAM: its crash ends the program
    bool has_rank;            // NVX_SYS_PRIVATE_ENTER named it (or its creator): reports say "rank <rank>"
    u32 rank;
    u32 copy;                 // the copy of the private region it sees (0: the program's own)
    nvx_thread_status end;    // how it ended (Zombie)
    // The preemption quantum's start: under the wall clock the board clock at dispatch;
    // under the virtual clock the thread's virtual time when it arrived on its hart
    // (kQuantumAtArrival until then), so that its quantum is its own modeled time, not
    // the host's or the board's (which counts every hart's instructions together).
    u64 run_since;
};
inline constexpr u64 kQuantumAtArrival = ~u64{0};

// The address at which the kernel reaches what `t` sees at user address va: its own copy
// of the private region is reached through that copy's shared slot (private_copies.hpp).
inline UserAddr user_address(const Thread* t, u64 va) { return UserAddr(private_copies::to_shared(t->copy, va)); }

// "thread <id>", and " (rank <rank>)" for a thread a rank runtime named, for reports.
void thread_name(const Thread* t, char* out, u64 size);

// Thread ids carry the slot in their low bits: modules index per-thread tables by it.
inline constexpr u32 kThreadSlotBits = 6;
static_assert(kMaxThreads <= 1u << kThreadSlotBits, "thread ids keep the slot in their low bits");
inline u32 thread_slot(const Thread* t) { return static_cast<u32>(t->id & ((1u << kThreadSlotBits) - 1)); }

// A FIFO of threads linked through Thread::next.
using ThreadQueue = IntrusiveQueue<Thread>;

// Fixed table of thread slots; ids carry a generation so stale ids are rejected.
class ThreadTable {
public:
    Thread* allocate();
    void release(Thread* t);
    void release_all();
    Thread* find(u64 id);  // live (not Free) thread with this exact id, or nullptr
    Thread* slot(u32 index) { return &threads_[index]; }
    u32 live() const { return live_; }

private:
    Thread threads_[kMaxThreads];
    u32 generation_[kMaxThreads];
    u32 live_ = 0;
};
}  // namespace nvx::kernel
