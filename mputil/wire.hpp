// The one mailbox message format between clusters (and inside one in the unopt build).
#pragma once

#include <stdint.h>

#include "config.hpp"

namespace mputil {

enum class WireKind : uint8_t {
    Eager = 1,   // envelope + payload: the whole message
    Rts = 2,     // request to send: envelope and size; the data follows by portal
    Cts = 3,     // clear to send: write `bytes` to the receiver's portal (node, port)
    Credit = 4,  // `bytes` eager credits back to the sender
    Barrier = 5, // launch/finalize barrier: a leader's arrival, or the root's go
};

struct WireHeader {
    WireKind kind;
    uint8_t synchronous;  // Rts: the send completes only once matched (informational)
    uint16_t reserved;
    int32_t source;       // rank that sent this message
    int32_t dest;         // rank it is for
    uint32_t context;
    int32_t tag;
    uint32_t node;        // Rts: the sender's node; Cts: the receiver's portal node
    uint64_t bytes;       // Eager: payload; Rts: message size; Cts: bytes to write; Credit: count
    uint64_t cookie;      // Rts/Cts: the sender's operation
    uint32_t port;        // Cts: the receiver's portal port
    uint32_t credits;     // any kind: eager credits `source` returns to `dest` on the way
};
static_assert(sizeof(WireHeader) == config::kWireHeaderBytes, "header size is a config number");

struct WireMessage {
    WireHeader h;
    unsigned char payload[config::kMailboxBytes - sizeof(WireHeader)];
};
static_assert(sizeof(WireMessage) == config::kMailboxBytes, "one mailbox message");

// A header of `kind` from rank `source` to rank `dest`, every other field zero.
inline WireHeader header(WireKind kind, int source, int dest)
{
    WireHeader h{};
    h.kind = kind;
    h.source = source;
    h.dest = dest;
    return h;
}

}  // namespace mputil
