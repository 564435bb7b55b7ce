#include "ikc/ikc_clock.hpp"

#include "ikc/own_nodes.hpp"
#include "kernel/abi/nvx_abi.h"

namespace nvx::ikc {
namespace {
constinit PortClock g_ports[kMaxOwnNodes][kPorts];
}  // namespace

constinit PortClock PortClock::unkept_{false};

NVX_MODEL_CODE void OpClock::asked(const Thread* t) {
    requested = kernel::clock_thread_stamp(t);
    server = kernel::clock_thread_is_server(t);
}

NVX_MODEL_CODE void OpClock::serve_request() const { kernel::clock_serve(requested); }

NVX_MODEL_CODE void OpClock::serve_ready() const { kernel::clock_serve(ready); }

NVX_MODEL_CODE u64 OpClock::serve_take(u64 stamp) const {
    u64 taken = server || requested < stamp ? stamp : requested;
    kernel::clock_serve(taken);
    return taken;
}

NVX_MODEL_CODE void OpClock::serve_meeting(const OpClock& writer, const OpClock& reader) {
    kernel::clock_serve(writer.requested > reader.requested ? writer.requested : reader.requested);
}

NVX_MODEL_CODE PortClock& PortClock::of(u32 node, u32 port) {
    i32 index = own_index(node);
    return index < 0 || port >= kPorts ? unkept_ : g_ports[index][port];
}

NVX_MODEL_CODE void PortClock::entered() {
    if (kept_) times_.entered();
}

NVX_MODEL_CODE void PortClock::left(u64 at) {
    if (kept_) times_.left(at);
}

NVX_MODEL_CODE void PortClock::passed(u64 at) {
    entered();
    left(at);
}

NVX_MODEL_CODE void PortClock::serve_entry(const OpClock& writer) {
    u64 room = kept_ ? times_.entry_bound() : 0;
    kernel::clock_serve(writer.ready > room ? writer.ready : room);
}
}  // namespace nvx::ikc
