// nvxcount: a QEMU TCG plugin counting the guest instructions each hart executes, split into
// firmware, kernel and user by the address of the translated block (board memory map).
//   qemu-system-riscv64 ... -plugin build/tools/libnvxcount.so[,out=PATH][,profile=on]
// At exit it prints one row per hart that ran anything and a total. A program marks windows
// with nvx_icount_mark() (<nvx/icount_mark.h>, runtime/include); the plugin numbers the marks 1, 2, ...
// and at each reports every hart's counts since the previous one ("mark M hart H fw F
// kernel K user U"), so a benchmark reads the cost of exactly the code between two marks.
// profile=on also counts instructions per translated block's address over the whole run
// and prints them at exit ("profile VADDR INSNS"), for benchmarks/icount-profile.sh;
// profile=M counts them only between the M-th mark and the next (one measured window).
// ram=PATH,clock=OFFSET drives the board's virtual clock: PATH is the file backing
// guest RAM (shared with QEMU), OFFSET the counter page's offset in it (board-info's
// BOARD_CLOCK_OFFSET); each executed block's instruction count is added to its hart's word
// there (struct nvx_clock_counters, kernel/abi/nvx_abi.h), and the page is marked live. Alone
// it only keeps the clock (no table at exit); with out= or profile=on it also counts.
// model=START-END (hex, repeatable; nvx-run passes the firmware's and the kernel's, and the
// user window is nvx_abi.h's NVX_USER_MODEL_TEXT): blocks starting there are the clock's own
// code, the simulator's work: counted apart as "model", never added to a hart's clock. So is
// a clock call, a kernel call the program's clock code makes, from its ecall to the
// program's next own instruction (trap entry and return included).
// limit=N ends the run when the harts together have executed N instructions: a program that
// spins forever is caught by work done, whatever the host's speed or load. The plugin then
// prints the limit and each busy hart's share to stderr and exits QEMU with status 124.
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "runtime/include/nvx/icount_mark.h"
#include "hal/board/board.hpp"
#include "kernel/abi/nvx_abi.h"
#include "scripts/tools/icount/qemu_plugin_api.h"

QEMU_PLUGIN_EXPORT int qemu_plugin_version = 1;

namespace {
using nvx::u64;

enum Level : unsigned { kFirmware, kKernel, kUser, kModel, kLevels };

struct Counts {
    u64 at[kLevels];
};

// The clock's own code: the user window and the model= windows.
struct Window {
    u64 start, end;
};
std::vector<Window> g_model_windows = {{NVX_USER_MODEL_TEXT, NVX_USER_MODEL_TEXT + NVX_USER_MODEL_TEXT_MAX}};

bool is_model(u64 vaddr) {
    for (const Window& w : g_model_windows)
        if (vaddr >= w.start && vaddr < w.end) return true;
    return false;
}

bool is_user_model(u64 vaddr) { return vaddr >= NVX_USER_MODEL_TEXT && vaddr < NVX_USER_MODEL_TEXT + NVX_USER_MODEL_TEXT_MAX; }

// A clock call: a kernel call made from the program's clock code (nvx_clock_take and the
// like: an ecall in the user model window) is the clock's work from the ecall to the
// program's next instruction of its own, the kernel's trap entry, side and return
// included. Set by the ecall, per hart; the hart's next user block outside the model
// window ends it.
constexpr unsigned kMaxVcpus = 1024;
bool g_in_clock_call[kMaxVcpus];

// The level a block's instructions count at on `vcpu` (ending a clock call at a user block).
// Firmware blocks keep theirs: an IPI taken meanwhile comes off the hart's counter in the
// firmware (its fast path's length), which must have been added first.
Level level_now(unsigned vcpu, Level level) {
    if (vcpu >= kMaxVcpus || !g_in_clock_call[vcpu] || level == kFirmware || level == kModel) return level;
    if (level == kUser) {
        g_in_clock_call[vcpu] = false;
        return kUser;
    }
    return kModel;
}

void on_clock_call(unsigned vcpu, void*) {
    if (vcpu < kMaxVcpus) g_in_clock_call[vcpu] = true;
}

bool is_ecall(const qemu_plugin_insn* insn) {
    if (qemu_plugin_insn_size(insn) != 4) return false;
    uint32_t word;
    std::memcpy(&word, qemu_plugin_insn_data(insn), sizeof word);
    return word == 0x00000073u;
}

// Firmware is linked in its own region; user space lies below RAM; everything else in RAM
// (the kernel's direct map and its boot code at physical addresses) is the kernel.
Level level_of(u64 vaddr) {
    using namespace nvx::board;
    if (is_model(vaddr)) return kModel;
    if (vaddr < kRamBase) return kUser;
    if (vaddr - kFirmwareBase < kFirmwareSize) return kFirmware;
    return kKernel;
}

unsigned g_harts;
Counts* g_now;        // per hart, written only by that hart's vCPU thread
Counts* g_last_mark;  // per hart, at the previous mark
std::mutex g_mark_lock;
unsigned long g_marks;  // marks seen so far (under g_mark_lock)
FILE* g_out;          // null: QEMU's plugin log (stderr)
// profile=on: per hart, instructions by block address (each map has one writer).
std::vector<std::unordered_map<u64, u64>>* g_profile;
constexpr unsigned long kWholeRun = ~0ul;
unsigned long g_profile_window = kWholeRun;  // profile=M: only while exactly M marks were seen

void emit(const char* line) {
    if (g_out != nullptr) {
        std::fputs(line, g_out);
    } else {
        qemu_plugin_outs(line);
    }
}

// Each hart's counts have one writer (its vCPU thread); a mark reads them from another.
u64 read(const u64& counter) { return __atomic_load_n(&counter, __ATOMIC_RELAXED); }

// The virtual clock: the counter page in guest RAM (null: no clock). Each hart's word has
// one writer, its vCPU thread; the guest reads it (an aligned 8-byte store is atomic).
nvx_clock_counters* g_clock;

void tick_clock(unsigned vcpu, u64 insns) {
    u64& cycles = g_clock->cycles[vcpu];
    __atomic_store_n(&cycles, read(cycles) + insns, __ATOMIC_RELAXED);
}

// limit=: every hart's instructions (one writer each); a hart sums them all each time its
// own count crosses a multiple of 2^kLimitCheckShift, so the limit costs a compare per block.
constexpr unsigned kLimitCheckShift = 24;
u64 g_limit;          // 0: none
u64* g_executed;      // per hart

[[noreturn]] void limit_reached(u64 total) {
    std::fprintf(stderr, "nvxcount: instruction limit %llu reached (%llu executed by all harts): ending the run\n",
                 static_cast<unsigned long long>(g_limit), static_cast<unsigned long long>(total));
    for (unsigned h = 0; h < g_harts; h++) {
        u64 mine = __atomic_load_n(&g_executed[h], __ATOMIC_RELAXED);
        if (mine * 100 >= total)
            std::fprintf(stderr, "nvxcount: hart %u executed %llu (%llu %%)\n", h, static_cast<unsigned long long>(mine),
                         static_cast<unsigned long long>(mine * 100 / total));
    }
    std::fflush(stderr);
    if (g_out != nullptr) std::fflush(g_out);
    _exit(124);  // timeout(1)'s status: the run exceeded its stated limit
}

void count_for_limit(unsigned vcpu, u64 insns) {
    u64& mine = g_executed[vcpu];
    u64 before = mine;
    __atomic_store_n(&mine, before + insns, __ATOMIC_RELAXED);
    if (((before ^ (before + insns)) >> kLimitCheckShift) == 0) return;
    u64 total = 0;
    for (unsigned h = 0; h < g_harts; h++) total += __atomic_load_n(&g_executed[h], __ATOMIC_RELAXED);
    if (total >= g_limit) limit_reached(total);
}

// A block's userdata packs its instruction count and level: no allocation per block.
template <bool kClock>
void on_block(unsigned vcpu, void* packed) {
    auto bits = reinterpret_cast<uintptr_t>(packed);
    if (vcpu >= g_harts) return;
    Level level = level_now(vcpu, static_cast<Level>(bits & 3));
    u64& counter = g_now[vcpu].at[level];
    __atomic_store_n(&counter, read(counter) + (bits >> 2), __ATOMIC_RELAXED);
    if constexpr (kClock) {
        if (level != kModel) tick_clock(vcpu, bits >> 2);
    }
    if (g_limit != 0) count_for_limit(vcpu, bits >> 2);
}

// The clock alone: one add per executed block outside the model windows, packed as
// on_block's (install checked vcpu < the page's slots).
void on_clock_block(unsigned vcpu, void* packed) {
    auto bits = reinterpret_cast<uintptr_t>(packed);
    if (level_now(vcpu, static_cast<Level>(bits & 3)) != kModel) tick_clock(vcpu, bits >> 2);
    if (g_limit != 0) count_for_limit(vcpu, bits >> 2);
}

// The limit alone (the board clock, no counting).
void on_limit_block(unsigned vcpu, void* insns) { count_for_limit(vcpu, reinterpret_cast<uintptr_t>(insns)); }

void on_mark(unsigned vcpu, void*) {
    std::lock_guard<std::mutex> hold(g_mark_lock);
    unsigned long id = g_marks + 1;
    __atomic_store_n(&g_marks, id, __ATOMIC_RELAXED);  // profile=M reads it without the lock
    char line[160];
    std::snprintf(line, sizeof line, "nvxcount: mark %lu by hart %u\n", id, vcpu);
    emit(line);
    for (unsigned h = 0; h < g_harts; h++) {
        Counts now;  // other harts keep running: a snapshot to within a block
        for (unsigned l = 0; l < kLevels; l++) now.at[l] = read(g_now[h].at[l]);
        u64 d[kLevels];
        u64 any = 0;
        for (unsigned l = 0; l < kLevels; l++) any |= d[l] = now.at[l] - g_last_mark[h].at[l];
        g_last_mark[h] = now;
        if (any == 0) continue;
        std::snprintf(line, sizeof line, "nvxcount: mark %lu hart %u fw %llu kernel %llu user %llu model %llu\n",
                      id, h,
                      static_cast<unsigned long long>(d[kFirmware]), static_cast<unsigned long long>(d[kKernel]),
                      static_cast<unsigned long long>(d[kUser]), static_cast<unsigned long long>(d[kModel]));
        emit(line);
    }
    if (g_out != nullptr) std::fflush(g_out);
}

bool is_mark(const qemu_plugin_insn* insn) {
    if (qemu_plugin_insn_size(insn) != 4) return false;
    uint32_t word;
    std::memcpy(&word, qemu_plugin_insn_data(insn), sizeof word);
    return word == NVX_ICOUNT_MARK_WORD;
}

// A profiled block: its address and size, allocated once per translation.
struct ProfiledBlock {
    u64 vaddr;
    u64 insns;
    Level level;
};

// In the profile, a block run inside a clock call is listed at its address + 1 (blocks
// start at even addresses): icount-profile.sh tags those [model].
void on_profiled_block(unsigned vcpu, void* data) {
    auto* b = static_cast<const ProfiledBlock*>(data);
    if (vcpu >= g_harts) return;
    Level level = level_now(vcpu, b->level);
    u64& counter = g_now[vcpu].at[level];
    __atomic_store_n(&counter, read(counter) + b->insns, __ATOMIC_RELAXED);
    if (g_profile_window == kWholeRun || __atomic_load_n(&g_marks, __ATOMIC_RELAXED) == g_profile_window)
        (*g_profile)[vcpu][level == kModel && b->level != kModel ? b->vaddr + 1 : b->vaddr] += b->insns;
    if (g_clock != nullptr && level != kModel) tick_clock(vcpu, b->insns);
    if (g_limit != 0) count_for_limit(vcpu, b->insns);
}

bool g_counting;  // counts by level, marks and the table at exit (out=, profile=on or no ram=)

void on_translate(qemu_plugin_id_t, qemu_plugin_tb* tb) {
    size_t n = qemu_plugin_tb_n_insns(tb);
    u64 vaddr = qemu_plugin_tb_vaddr(tb);
    if (is_user_model(vaddr) && (g_counting || g_clock != nullptr))
        for (size_t i = 0; i < n; i++) {
            qemu_plugin_insn* insn = qemu_plugin_tb_get_insn(tb, i);
            if (is_ecall(insn)) qemu_plugin_register_vcpu_insn_exec_cb(insn, on_clock_call, QEMU_PLUGIN_CB_NO_REGS, nullptr);
        }
    if (!g_counting) {
        bool clocked = g_clock != nullptr && !is_model(vaddr);
        if (clocked)
            qemu_plugin_register_vcpu_tb_exec_cb(tb, on_clock_block, QEMU_PLUGIN_CB_NO_REGS,
                                                 reinterpret_cast<void*>((static_cast<uintptr_t>(n) << 2) | level_of(vaddr)));
        else if (g_limit != 0)
            qemu_plugin_register_vcpu_tb_exec_cb(tb, on_limit_block, QEMU_PLUGIN_CB_NO_REGS, reinterpret_cast<void*>(n));
        return;
    }
    if (g_profile != nullptr) {
        auto* b = new ProfiledBlock{vaddr, n, level_of(vaddr)};  // lives as long as QEMU's block may
        qemu_plugin_register_vcpu_tb_exec_cb(tb, on_profiled_block, QEMU_PLUGIN_CB_NO_REGS, b);
    } else {
        uintptr_t packed = (static_cast<uintptr_t>(n) << 2) | level_of(vaddr);
        qemu_plugin_register_vcpu_tb_exec_cb(tb, g_clock != nullptr ? on_block<true> : on_block<false>,
                                             QEMU_PLUGIN_CB_NO_REGS, reinterpret_cast<void*>(packed));
    }
    for (size_t i = 0; i < n; i++) {
        qemu_plugin_insn* insn = qemu_plugin_tb_get_insn(tb, i);
        if (is_mark(insn)) qemu_plugin_register_vcpu_insn_exec_cb(insn, on_mark, QEMU_PLUGIN_CB_NO_REGS, nullptr);
    }
}

// How much of its limit a run used: what a test's limit is chosen from.
void report_limit_use() {
    u64 total = 0;
    for (unsigned h = 0; h < g_harts; h++) total += __atomic_load_n(&g_executed[h], __ATOMIC_RELAXED);
    std::fprintf(stderr, "nvxcount: %llu instructions executed by all harts, limit %llu\n",
                 static_cast<unsigned long long>(total), static_cast<unsigned long long>(g_limit));
}

void on_exit(qemu_plugin_id_t, void*) {
    if (g_limit != 0) report_limit_use();
    if (!g_counting) return;
    char line[160];
    Counts total{};
    // total: the modeled machine's work; model: the clock's own code, beside it.
    emit("nvxcount: hart          fw      kernel        user       total       model\n");
    for (unsigned h = 0; h < g_harts; h++) {
        const Counts& c = g_now[h];
        u64 sum = c.at[kFirmware] + c.at[kKernel] + c.at[kUser];
        if (sum + c.at[kModel] == 0) continue;
        for (unsigned l = 0; l < kLevels; l++) total.at[l] += c.at[l];
        std::snprintf(line, sizeof line, "nvxcount: %4u %11llu %11llu %11llu %11llu %11llu\n", h,
                      static_cast<unsigned long long>(c.at[kFirmware]), static_cast<unsigned long long>(c.at[kKernel]),
                      static_cast<unsigned long long>(c.at[kUser]), static_cast<unsigned long long>(sum),
                      static_cast<unsigned long long>(c.at[kModel]));
        emit(line);
    }
    std::snprintf(line, sizeof line, "nvxcount: all  %11llu %11llu %11llu %11llu %11llu\n",
                  static_cast<unsigned long long>(total.at[kFirmware]), static_cast<unsigned long long>(total.at[kKernel]),
                  static_cast<unsigned long long>(total.at[kUser]),
                  static_cast<unsigned long long>(total.at[kFirmware] + total.at[kKernel] + total.at[kUser]),
                  static_cast<unsigned long long>(total.at[kModel]));
    emit(line);
    if (g_profile != nullptr) {
        std::map<u64, u64> merged;
        for (const auto& hart : *g_profile)
            for (const auto& [vaddr, insns] : hart) merged[vaddr] += insns;
        for (const auto& [vaddr, insns] : merged) {
            std::snprintf(line, sizeof line, "nvxcount: profile %llx %llu\n", static_cast<unsigned long long>(vaddr),
                          static_cast<unsigned long long>(insns));
            emit(line);
        }
    }
    if (g_out != nullptr) std::fclose(g_out);
    g_out = nullptr;
}
// Maps the counter page of the guest RAM file and marks it live, before the guest runs.
bool map_clock(const char* path, const char* offset_text, unsigned harts) {
    char* end = nullptr;
    unsigned long long offset = std::strtoull(offset_text, &end, 0);
    if (end == offset_text || *end != '\0' || offset % nvx::board::kPageSize != 0) {
        std::fprintf(stderr, "nvxcount: clock=%s is not a page-aligned offset\n", offset_text);
        return false;
    }
    if (harts > NVX_CLOCK_COUNTER_SLOTS) {
        std::fprintf(stderr, "nvxcount: %u harts do not fit the counter page (%u)\n", harts, NVX_CLOCK_COUNTER_SLOTS);
        return false;
    }
    int fd = open(path, O_RDWR);
    struct stat facts;
    if (fd < 0 || fstat(fd, &facts) != 0 || static_cast<unsigned long long>(facts.st_size) < offset + sizeof(nvx_clock_counters)) {
        std::fprintf(stderr, "nvxcount: ram=%s: not a RAM file holding offset %s (create it at its size first)\n",
                     path, offset_text);
        if (fd >= 0) close(fd);
        return false;
    }
    void* page = mmap(nullptr, sizeof(nvx_clock_counters), PROT_READ | PROT_WRITE, MAP_SHARED, fd, static_cast<off_t>(offset));
    close(fd);  // the mapping stays
    if (page == MAP_FAILED) {
        std::fprintf(stderr, "nvxcount: cannot map %s\n", path);
        return false;
    }
    g_clock = static_cast<nvx_clock_counters*>(page);
    __atomic_store_n(&g_clock->live, NVX_CLOCK_LIVE, __ATOMIC_RELEASE);
    return true;
}
}  // namespace

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t* info, int argc, char** argv) {
    if (!info->system_emulation) {
        std::fprintf(stderr, "nvxcount: counts harts of a system emulation only\n");
        return -1;
    }
    const char* ram = nullptr;
    const char* clock = nullptr;
    bool count_asked = false;
    for (int i = 0; i < argc; i++) {
        if (std::strncmp(argv[i], "ram=", 4) == 0) {
            ram = argv[i] + 4;
        } else if (std::strncmp(argv[i], "clock=", 6) == 0) {
            clock = argv[i] + 6;
        } else if (std::strncmp(argv[i], "out=", 4) == 0) {
            count_asked = true;
            g_out = std::fopen(argv[i] + 4, "w");
            if (g_out == nullptr) {
                std::fprintf(stderr, "nvxcount: cannot write '%s'\n", argv[i] + 4);
                return -1;
            }
        } else if (std::strncmp(argv[i], "limit=", 6) == 0) {
            char* end = nullptr;
            g_limit = std::strtoull(argv[i] + 6, &end, 10);
            if (end == argv[i] + 6 || *end != '\0' || g_limit == 0) {
                std::fprintf(stderr, "nvxcount: limit=%s is not a positive number of instructions\n", argv[i] + 6);
                return -1;
            }
        } else if (std::strncmp(argv[i], "model=", 6) == 0) {
            char* end = nullptr;
            Window w{};
            w.start = std::strtoull(argv[i] + 6, &end, 0);
            if (end != nullptr && *end == '-') w.end = std::strtoull(end + 1, &end, 0);
            if (end == nullptr || *end != '\0' || w.end < w.start) {
                std::fprintf(stderr, "nvxcount: model=%s is not a window START-END\n", argv[i] + 6);
                return -1;
            }
            if (w.end > w.start) g_model_windows.push_back(w);  // an image may have none
        } else if (std::strncmp(argv[i], "profile=", 8) == 0) {
            if (std::strcmp(argv[i] + 8, "on") != 0) {
                char* end = nullptr;
                g_profile_window = std::strtoul(argv[i] + 8, &end, 10);
                if (end == argv[i] + 8 || *end != '\0' || g_profile_window == kWholeRun) {
                    std::fprintf(stderr, "nvxcount: profile=%s is neither 'on' nor a mark number\n", argv[i] + 8);
                    return -1;
                }
            }
            count_asked = true;
            g_profile = new std::vector<std::unordered_map<u64, u64>>();
        } else {
            std::fprintf(stderr, "nvxcount: unknown argument '%s' (known: out=PATH, profile=on|MARK, ram=PATH,clock=OFFSET, limit=N, model=START-END)\n",
                         argv[i]);
            return -1;
        }
    }
    if ((ram == nullptr) != (clock == nullptr)) {
        std::fprintf(stderr, "nvxcount: ram= and clock= go together\n");
        return -1;
    }
    g_counting = count_asked || (ram == nullptr && g_limit == 0);
    g_harts = static_cast<unsigned>(info->system.max_vcpus);
    if (ram != nullptr && !map_clock(ram, clock, g_harts)) return -1;
    g_now = static_cast<Counts*>(std::calloc(g_harts, sizeof(Counts)));
    g_last_mark = static_cast<Counts*>(std::calloc(g_harts, sizeof(Counts)));
    g_executed = static_cast<u64*>(std::calloc(g_harts, sizeof(u64)));
    if (g_now == nullptr || g_last_mark == nullptr || g_executed == nullptr) return -1;
    if (g_profile != nullptr) g_profile->resize(g_harts);
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
    qemu_plugin_register_atexit_cb(id, on_exit, nullptr);
    return 0;
}
