// The unopt build: every message, local ones included, goes through mailboxes and portals.
#include "state.hpp"

namespace mputil {
// nvx-run -v and `strings` find the variant by this text: kept even by --gc-sections.
extern const char kVariantTag[] __attribute__((used, retain)) = "LWMPI build variant: unopt";
bool variant_local_path() { return false; }
const char* variant_name() { return "unopt"; }
}  // namespace mputil
