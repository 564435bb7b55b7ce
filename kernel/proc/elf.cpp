#include "kernel/proc/elf.hpp"

#include "kernel/abi/nvx_abi.h"
#include "support/mem.hpp"

namespace nvx::kernel::elf {
namespace {
struct Header {
    u8 ident[16];
    u16 type, machine;
    u32 version;
    u64 entry, phoff, shoff;
    u32 flags;
    u16 ehsize, phentsize, phnum, shentsize, shnum, shstrndx;
};
struct ProgramHeader {
    u32 type, flags;
    u64 offset, vaddr, paddr, filesz, memsz, align;
};
constexpr u16 kTypeExec = 2, kMachineRiscv = 243;
constexpr u32 kPtLoad = 1;
}  // namespace

int parse(const u8* data, u64 size, u64 user_low, u64 private_base, u64 user_high, Image* out) {
    Header h;
    if (size < sizeof h) return -NVX_EINVAL;
    memcpy(&h, data, sizeof h);
    if (h.ident[0] != 0x7f || h.ident[1] != 'E' || h.ident[2] != 'L' || h.ident[3] != 'F') return -NVX_EINVAL;
    if (h.ident[4] != 2 || h.ident[5] != 1) return -NVX_EINVAL;  // 64-bit, little endian
    if (h.type != kTypeExec || h.machine != kMachineRiscv || h.phentsize != sizeof(ProgramHeader)) return -NVX_EINVAL;
    if (!range_contains(0, size, h.phoff, u64{h.phnum} * sizeof(ProgramHeader))) return -NVX_EINVAL;
    out->entry = h.entry;
    out->end = 0;
    out->private_end = 0;
    out->segment_count = 0;
    bool entry_ok = false;
    for (u32 i = 0; i < h.phnum; i++) {
        ProgramHeader ph;
        memcpy(&ph, data + h.phoff + i * sizeof ph, sizeof ph);
        if (ph.type != kPtLoad || ph.memsz == 0) continue;
        if (out->segment_count == kMaxSegments) return -NVX_EINVAL;
        if (ph.filesz > ph.memsz || !range_contains(0, size, ph.offset, ph.filesz)) return -NVX_EINVAL;
        if (!range_contains(user_low, user_high - user_low, ph.vaddr, ph.memsz)) return -NVX_EINVAL;
        if ((ph.flags & kFlagWrite) && (ph.flags & kFlagExec)) return kErrWritableAndExecutable;
        out->segments[out->segment_count++] = {ph.vaddr, ph.memsz, ph.filesz, ph.offset, ph.flags};
        bool is_private = ph.vaddr >= private_base;
        if (!is_private && ph.vaddr + ph.memsz > private_base) return -NVX_EINVAL;
        u64& end = is_private ? out->private_end : out->end;
        if (ph.vaddr + ph.memsz > end) end = ph.vaddr + ph.memsz;
        if ((ph.flags & kFlagExec) && h.entry >= ph.vaddr && h.entry < ph.vaddr + ph.memsz) entry_ok = true;
    }
    if (out->segment_count == 0 || !entry_ok) return -NVX_EINVAL;
    return 0;
}
}  // namespace nvx::kernel::elf
