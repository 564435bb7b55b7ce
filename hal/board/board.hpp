// The board table: the one source of truth for topology, memory map and NoC parameters.
// Firmware, kernel, host tools and tests all read it; nothing repeats these numbers.
#pragma once
#include "support/types.hpp"

namespace nvx::board {

enum class ClusterKind : u8 { Io, Compute };

struct Cluster {
    ClusterKind kind;
    u32 first_hart;  // global hart id of the cluster's first hart (its kernel core)
    u32 harts;
    u64 mem_base;    // private memory, physical; 2 MiB aligned (kernel megapage boot map)
    u64 mem_size;
    u32 noc_x;
    u32 noc_y;
    u32 first_node;  // NoC nodes (interfaces) of this cluster: first_node .. first_node + nodes - 1
    u32 nodes;

    constexpr bool owns_node(u32 node) const { return node >= first_node && node < first_node + nodes; }
    constexpr bool owns_hart(u32 hart) const { return hart >= first_hart && hart < first_hart + harts; }
    constexpr u64 mem_end() const { return mem_base + mem_size; }
};

// NoC cost model parameters (used by the NoC engine and the virtual-time model). Every
// payload (mailbox message, portal piece) is moved by the NoC's DMA, so there is no
// figure for a processor's copy: a transfer costs its links' time (README "The NoC model").
struct NocParams {
    u32 hop_latency_cycles;   // per router hop
    u32 bytes_per_cycle;      // link bandwidth
    u32 mailbox_payload;      // bytes of payload per hardware mailbox message
    u32 portal_max_transfer;  // bytes per hardware portal transfer
};

// What a board is made of; the full table is derived from this by make_board().
struct BoardShape {
    const char* name;
    u32 io_clusters;
    u32 io_harts;
    u64 io_mem;
    u32 io_interfaces;  // NoC interfaces (nodes) per I/O cluster; a compute cluster has one
    u32 compute_clusters;
    u32 compute_harts;
    u64 compute_mem;
    u32 mesh_width;  // compute clusters sit on a mesh_width-wide grid; I/O clusters on its sides
    NocParams noc;
    bool tested = false;  // built and tested by `make test` (the others are built on request)
};

inline constexpr u32 kMaxClusters = 32;  // cluster indices fit a byte (Board::node_cluster)
inline constexpr u32 kMaxNodes = 64;         // NoC nodes; node sets fit one 64-bit mask
inline constexpr u32 kSyncsPerNode = 4;      // physical sync registers per node
inline constexpr u64 kPageSize = 4096;    // the one page size (Sv39 and the page allocator use it)
// The control plane (Name and Spawn Servers, the launcher's image, powering the board off)
// lives on the first cluster, an I/O cluster on every board (board_is_valid).
inline constexpr u32 kControlCluster = 0;
inline constexpr u64 kMegaPage = 2 * MiB;

// Fixed physical layout of the emulated machine (QEMU `virt`, RAM at 0x80000000).
inline constexpr u64 kRamBase = 0x80000000;
inline constexpr u64 kFirmwareBase = kRamBase;    // M-mode only: no S/U access
inline constexpr u64 kFirmwareSize = 4 * MiB;
inline constexpr u64 kProgramBase = kFirmwareBase + kFirmwareSize;  // read-only to all clusters
inline constexpr u64 kProgramSize = 4 * MiB;
// The virtual clock's counter page, the program region's last page: the board
// (the instruction-counter plugin) adds each hart's executed instructions to its word
// there; S- and U-mode read it through the program region's read-only PMP grant. Layout:
// struct nvx_clock_counters (kernel/abi/nvx_abi.h). The system program gets the rest.
inline constexpr u64 kClockCounterPage = kProgramBase + kProgramSize - kPageSize;
inline constexpr u64 kProgramImageSize = kClockCounterPage - kProgramBase;  // system program's room
inline constexpr u32 kClockCounterSlots = kPageSize / 8 - 1;  // one word per hart, then the live word
inline constexpr u64 kClockLive = 0x6b636f6c63787876ull;        // the live word while the counters run
// The modeled core: one instruction retired = one cycle at this frequency (virtual clock).
inline constexpr u64 kCoreHz = 400'000'000;
inline constexpr u64 kClustersBase = kProgramBase + kProgramSize;
inline constexpr u64 kFdtReserve = 2 * MiB;       // QEMU puts the device tree in the last 2 MiB
inline constexpr u64 kTimerHz = 10'000'000;  // mtime (rdtime) frequency of QEMU virt
// The launcher places the user program's ELF in the first I/O cluster's memory ("DDR"),
// in this region just below the boot-info page, for the Spawn Server to read.
inline constexpr u64 kImageRegionSize = 2 * MiB - kPageSize;
static_assert(kClockCounterPage % kPageSize == 0 && kClockCounterPage >= kProgramBase &&
              kProgramImageSize + kPageSize == kProgramSize, "the counter page ends the program region");

struct Board {
    const char* name;
    bool tested;  // BoardShape::tested
    u32 cluster_count;
    u32 io_count;
    u32 compute_count;
    u32 hart_count;
    u32 max_cluster_harts;
    u32 node_count;
    u64 ram_size;  // what QEMU is given with -m
    NocParams noc;
    Cluster clusters[kMaxClusters];
    u8 node_cluster[kMaxNodes];  // cluster index of each node: one step per transfer, any board

    constexpr const Cluster& cluster(u32 index) const { return clusters[index]; }

    // Index of the cluster owning `hart`, or cluster_count if none does.
    constexpr u32 cluster_of_hart(u32 hart) const {
        for (u32 i = 0; i < cluster_count; i++)
            if (clusters[i].owns_hart(hart)) return i;
        return cluster_count;
    }

    constexpr u32 first_compute() const { return io_count; }

    // Index of the cluster owning NoC node `node`, or cluster_count if none does.
    constexpr u32 cluster_of_node(u32 node) const { return node < node_count ? node_cluster[node] : cluster_count; }

    // Router hops between two nodes (Manhattan distance of their clusters on the mesh).
    constexpr u32 hops(u32 from_node, u32 to_node) const {
        const Cluster& a = clusters[cluster_of_node(from_node)];
        const Cluster& b = clusters[cluster_of_node(to_node)];
        u32 dx = a.noc_x > b.noc_x ? a.noc_x - b.noc_x : b.noc_x - a.noc_x;
        u32 dy = a.noc_y > b.noc_y ? a.noc_y - b.noc_y : b.noc_y - a.noc_y;
        return dx + dy;
    }

    // Modeled cycles of moving `bytes` from one node to another (board NoC parameters).
    constexpr u64 transfer_cycles(u32 from_node, u32 to_node, u64 bytes) const {
        return u64{hops(from_node, to_node)} * noc.hop_latency_cycles + (bytes + noc.bytes_per_cycle - 1) / noc.bytes_per_cycle;
    }
};

// Sides of the compute mesh where I/O clusters attach: north, south, west, east.
constexpr void place_io(Cluster& c, u32 io_index, u32 mesh_width, u32 mesh_height) {
    u32 mid_x = (mesh_width + 1) / 2, mid_y = (mesh_height + 1) / 2;
    switch (io_index % 4) {
    case 0: c.noc_x = mid_x; c.noc_y = 0; break;
    case 1: c.noc_x = mid_x; c.noc_y = mesh_height + 1; break;
    case 2: c.noc_x = 0; c.noc_y = mid_y; break;
    default: c.noc_x = mesh_width + 1; c.noc_y = mid_y; break;
    }
}

constexpr Board make_board(const BoardShape& s) {
    Board b{};
    b.name = s.name;
    b.tested = s.tested;
    b.io_count = s.io_clusters;
    b.compute_count = s.compute_clusters;
    b.cluster_count = s.io_clusters + s.compute_clusters;
    b.noc = s.noc;
    u32 mesh_height = (s.compute_clusters + s.mesh_width - 1) / s.mesh_width;
    u32 hart = 0, node = 0;
    u64 mem = kClustersBase;
    for (u32 i = 0; i < b.cluster_count; i++) {
        Cluster& c = b.clusters[i];
        bool io = i < s.io_clusters;
        c.kind = io ? ClusterKind::Io : ClusterKind::Compute;
        c.first_hart = hart;
        c.harts = io ? s.io_harts : s.compute_harts;
        c.mem_size = io ? s.io_mem : s.compute_mem;
        mem = align_up(mem, c.mem_size >= kMegaPage ? kMegaPage : kPageSize);
        c.mem_base = mem;
        mem += c.mem_size;
        hart += c.harts;
        c.first_node = node;
        c.nodes = io ? s.io_interfaces : 1;
        for (u32 n = node; n < node + c.nodes && n < kMaxNodes; n++) b.node_cluster[n] = static_cast<u8>(i);
        node += c.nodes;
        if (io) {
            place_io(c, i, s.mesh_width, mesh_height);
        } else {
            u32 k = i - s.io_clusters;
            c.noc_x = 1 + k % s.mesh_width;
            c.noc_y = 1 + k / s.mesh_width;
        }
        if (c.harts > b.max_cluster_harts) b.max_cluster_harts = c.harts;
    }
    b.hart_count = hart;
    b.node_count = node;
    b.ram_size = align_up(mem - kRamBase + kFdtReserve, MiB);
    return b;
}

constexpr u64 image_region_base(const Board& b) { return b.clusters[kControlCluster].mem_end() - kPageSize - kImageRegionSize; }

// Sanity rules every board must satisfy; checked at compile time and by host tests.
constexpr bool board_is_valid(const Board& b) {
    if (b.cluster_count == 0 || b.cluster_count > kMaxClusters || b.compute_count == 0) return false;
    for (u32 i = 0; i < b.cluster_count; i++) {
        const Cluster& c = b.clusters[i];
        if (c.harts < 2) return false;  // a kernel core plus at least one user hart
        if (!is_aligned(c.mem_base, kMegaPage) || !is_aligned(c.mem_size, kMegaPage)) return false;
        if (c.mem_base < kClustersBase) return false;
        if (i > 0 && c.mem_base < b.clusters[i - 1].mem_end()) return false;
        if (i > 0 && c.first_hart != b.clusters[i - 1].first_hart + b.clusters[i - 1].harts) return false;
    }
    if (b.node_count > kMaxNodes) return false;
    const Cluster& control = b.clusters[kControlCluster];
    if (control.kind != ClusterKind::Io || control.mem_size < 2 * kImageRegionSize) return false;
    // QEMU virt allows 512 harts; each needs a word in the clock's counter page.
    return b.hart_count <= 512 && b.hart_count <= kClockCounterSlots;
}

inline constexpr NocParams kMppaNoc{.hop_latency_cycles = 10, .bytes_per_cycle = 4,
                                    .mailbox_payload = 128, .portal_max_transfer = 4096};

inline constexpr Board k_tiny = make_board({.name = "tiny", .io_clusters = 1, .io_harts = 2, .io_mem = 4 * MiB, .io_interfaces = 1,
                                            .compute_clusters = 2, .compute_harts = 3, .compute_mem = 4 * MiB,
                                            .mesh_width = 2, .noc = kMppaNoc, .tested = true});
inline constexpr Board k_small = make_board({.name = "small", .io_clusters = 1, .io_harts = 4, .io_mem = 8 * MiB,
                                             .io_interfaces = 2, .compute_clusters = 4, .compute_harts = 5, .compute_mem = 4 * MiB,
                                             .mesh_width = 2, .noc = kMppaNoc, .tested = true});
// The MPPA-256's I/O clusters hold its DDR (the DDR service's regions): room for the two
// lattices of a 48^3 LBM cavity (8.4 MB each) on one of them.
inline constexpr u64 kMppaIoMem = 24 * MiB;
inline constexpr Board k_mppa256 = make_board({.name = "mppa256", .io_clusters = 4, .io_harts = 4, .io_mem = kMppaIoMem,
                                               .io_interfaces = 4,
                                               .compute_clusters = 16, .compute_harts = 17, .compute_mem = 2 * MiB,
                                               .mesh_width = 4, .noc = kMppaNoc, .tested = true});

// mppa256 with room: 32 MiB per compute cluster (the page allocator's largest), for
// programs that do not fit the real chip's 2 MiB.
inline constexpr Board k_mppa256_xl = make_board({.name = "mppa256-xl", .io_clusters = 4, .io_harts = 4,
                                                  .io_mem = kMppaIoMem, .io_interfaces = 4, .compute_clusters = 16,
                                                  .compute_harts = 17, .compute_mem = 32 * MiB, .mesh_width = 4,
                                                  .noc = kMppaNoc, .tested = true});

// The LWMPI thesis' Figure 17 example: 6 compute clusters of 4 PEs (plus the kernel core).
inline constexpr Board k_fig17 = make_board({.name = "fig17", .io_clusters = 1, .io_harts = 2, .io_mem = 4 * MiB,
                                             .io_interfaces = 1, .compute_clusters = 6, .compute_harts = 5,
                                             .compute_mem = 2 * MiB, .mesh_width = 3, .noc = kMppaNoc,
                                             .tested = false});

static_assert(board_is_valid(k_tiny) && board_is_valid(k_small) && board_is_valid(k_mppa256) &&
              board_is_valid(k_mppa256_xl) && board_is_valid(k_fig17));
static_assert(k_mppa256.hart_count == 288 && k_mppa256.cluster_count == 20);

// Every board, in the order tools list them (scripts/tools/board_info.cpp): the build, the
// tests and the benchmarks take their list of boards from here.
inline constexpr const Board* kAllBoards[] = {&k_tiny, &k_small, &k_mppa256, &k_mppa256_xl, &k_fig17};

}  // namespace nvx::board
