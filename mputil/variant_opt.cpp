// The opt build: messages between ranks of one cluster go through shared memory.
#include "state.hpp"

namespace mputil {
// nvx-run -v and `strings` find the variant by this text: kept even by --gc-sections.
extern const char kVariantTag[] __attribute__((used, retain)) = "LWMPI build variant: opt";
bool variant_local_path() { return true; }
const char* variant_name() { return "opt"; }
}  // namespace mputil
