#include "kernel/bootargs.hpp"

#include "support/string.hpp"

namespace nvx::kernel {
namespace {
const KernelOptionName* find_option(const char* token) {
    for (const KernelOptionName& o : kKernelOptions)
        if (str_equal(token, o.name)) return &o;
    return nullptr;
}
}  // namespace

bool parse_bootargs(const char* text, BootArgs* out) {
    str_copy(out->storage, sizeof out->storage, text);
    bool in_program = false;
    char* p = out->storage;
    for (;;) {
        while (*p == ' ' || *p == '\t') *p++ = '\0';
        if (*p == '\0') break;
        char* token = p;
        while (*p != '\0' && *p != ' ' && *p != '\t') p++;
        if (*p != '\0') *p++ = '\0';
        if (in_program) {
            if (out->argc == kMaxArgs) {
                out->error = "too many program arguments";
                return false;
            }
            out->argv[out->argc++] = token;
        } else if (str_equal(token, "--")) {
            in_program = true;
        } else if (const KernelOptionName* o = find_option(token)) {
            out->options |= 1u << static_cast<u32>(o->option);
        } else {
            out->error = "unknown kernel option";
            return false;
        }
    }
    return true;
}

bool split_args(char* block, u64 size, BootArgs* out) {
    out->argc = out->envc = 0;
    if (size == 0 || block[size - 1] != '\0') return false;
    bool in_env = false;
    for (u64 start = 0; start < size;) {
        char* s = block + start;
        start += str_length(s) + 1;
        if (*s == '\0' && !in_env) {
            in_env = true;
            continue;
        }
        u32& count = in_env ? out->envc : out->argc;
        if (count == kMaxArgs) return false;
        (in_env ? out->envp : out->argv)[count++] = s;
    }
    return out->argc > 0;
}
}  // namespace nvx::kernel
