#include "hal/firmware/fdt.hpp"

#include "support/string.hpp"

namespace nvx::fdt {
namespace {
constexpr u32 kMagic = 0xd00dfeed;
constexpr u32 kBeginNode = 1, kEndNode = 2, kProp = 3, kNop = 4, kEnd = 9;

u32 be32(const u8* p) { return (u32{p[0]} << 24) | (u32{p[1]} << 16) | (u32{p[2]} << 8) | p[3]; }

bool starts_with(const char* s, const char* prefix) {
    while (*prefix != '\0')
        if (*s++ != *prefix++) return false;
    return true;
}
}  // namespace

Facts read_facts(const u8* blob, u64 capacity) {
    Facts facts;
    if (capacity < 40 || be32(blob) != kMagic) return facts;
    u32 total = be32(blob + 4), struct_off = be32(blob + 8), strings_off = be32(blob + 12);
    u32 strings_size = be32(blob + 32), struct_size = be32(blob + 36);
    if (total > capacity || struct_off + u64{struct_size} > total || strings_off + u64{strings_size} > total) return facts;

    const u8* p = blob + struct_off;
    const u8* end = p + struct_size;
    int depth = 0;
    bool in_chosen = false, in_cpus = false;
    while (p + 4 <= end) {
        u32 token = be32(p);
        p += 4;
        if (token == kBeginNode) {
            const char* name = reinterpret_cast<const char*>(p);
            u64 len = 0;
            while (p + len < end && p[len] != '\0') len++;
            if (p + len >= end) return facts;
            depth++;
            if (depth == 2) {
                in_chosen = str_equal(name, "chosen");
                in_cpus = str_equal(name, "cpus");
            }
            if (depth == 3 && in_cpus && starts_with(name, "cpu@")) facts.cpu_count++;
            p += align_up(len + 1, 4);
        } else if (token == kEndNode) {
            if (depth == 2) in_chosen = in_cpus = false;
            depth--;
        } else if (token == kProp) {
            if (p + 8 > end) return facts;
            u32 len = be32(p), name_off = be32(p + 4);
            p += 8;
            if (p + len > end || name_off >= strings_size) return facts;
            const char* name = reinterpret_cast<const char*>(blob + strings_off + name_off);
            u32 name_len = 0;  // the name must end inside the strings block
            while (name_off + name_len < strings_size && name[name_len] != '\0') name_len++;
            if (name_off + name_len == strings_size) return facts;
            if (depth == 2 && in_chosen && str_equal(name, "bootargs") && len > 0 && p[len - 1] == '\0') {
                facts.bootargs = reinterpret_cast<const char*>(p);
                facts.bootargs_length = len - 1;
            }
            p += align_up(len, 4);
        } else if (token == kNop) {
            continue;
        } else if (token == kEnd) {
            facts.valid = depth == 0;
            return facts;
        } else {
            return facts;
        }
    }
    return facts;
}
}  // namespace nvx::fdt
