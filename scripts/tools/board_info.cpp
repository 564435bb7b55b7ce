// Prints a board's facts as shell assignments, so scripts and tests read the board table
// instead of repeating its numbers:  eval "$(board-info small)"
// and the lists of boards, names separated by spaces: `board-info --list` (every board),
// `board-info --tested` (those `make test` builds and tests). Adding a board to the table
// (hal/board/board.hpp) is all it takes for the build, the tests and the benchmarks.
#include <cstdio>
#include <cstring>

#include "hal/board/board.hpp"
#include "kernel/abi/nvx_abi.h"
#include "hal/board/boot_info.hpp"
#include "kernel/options.hpp"

namespace {
// What a rank's copy of the private globals costs (kernel/abi/nvx_abi.h): nvx-run -v says.
void print_user_layout() {
    std::printf("USER_PAGE_SIZE=%u\nUSER_PRIVATE_BASE=0x%llx\nUSER_PRIVATE_COPY_TABLES=%u\nUSER_PRIVATE_LEAF_SPAN=%llu\n",
                NVX_PAGE_SIZE, static_cast<unsigned long long>(NVX_USER_PRIVATE_BASE), NVX_USER_PRIVATE_COPY_TABLES,
                static_cast<unsigned long long>(NVX_USER_PRIVATE_LEAF_SPAN));
}

// The launcher's limits: boot argument bytes and words, and the kernel options it may pass.
void print_launch_limits() {
    std::printf("BOARD_ARGS_MAX_BYTES=%llu\nBOARD_ARGS_MAX_WORDS=%u\nKERNEL_OPTIONS=\"",
                static_cast<unsigned long long>(nvx::board::kBootArgsMax), nvx::board::kBootArgsMaxWords);
    const char* separator = "";
    for (const nvx::kernel::KernelOptionName& o : nvx::kernel::kKernelOptions) {
        std::printf("%s%s", separator, o.name);
        separator = " ";
    }
    std::printf("\"\n");
}

void print_names(bool tested_only) {
    const char* separator = "";
    for (const nvx::board::Board* b : nvx::board::kAllBoards) {
        if (tested_only && !b->tested) continue;
        std::printf("%s%s", separator, b->name);
        separator = " ";
    }
    std::printf("\n");
}
}  // namespace

int main(int argc, char** argv) {
    using namespace nvx::board;
    if (argc != 2) {
        std::fprintf(stderr, "usage: board-info BOARD | --list | --tested\n");
        return 2;
    }
    bool tested_only = std::strcmp(argv[1], "--tested") == 0;
    if (tested_only || std::strcmp(argv[1], "--list") == 0) {
        print_names(tested_only);
        return 0;
    }
    for (const Board* b : kAllBoards) {
        if (std::strcmp(b->name, argv[1]) != 0) continue;
        unsigned user_harts = 0, compute_user_harts = 0;
        for (unsigned i = 0; i < b->cluster_count; i++) {
            user_harts += b->clusters[i].harts - 1;
            if (b->clusters[i].kind == ClusterKind::Compute) compute_user_harts += b->clusters[i].harts - 1;
        }
        std::printf("BOARD_NAME=%s\nBOARD_HARTS=%u\nBOARD_CLUSTERS=%u\nBOARD_IO_CLUSTERS=%u\n"
                    "BOARD_COMPUTE_CLUSTERS=%u\nBOARD_RAM_MIB=%llu\nBOARD_PROGRAM_BASE=0x%llx\n"
                    "BOARD_PROGRAM_SIZE=%llu\nBOARD_USER_HARTS=%u\nBOARD_COMPUTE_USER_HARTS=%u\n"
                    "BOARD_COMPUTE_PES=%u\nBOARD_IMAGE_BASE=0x%llx\nBOARD_IMAGE_SIZE=%llu\nBOARD_NODES=%u\n"
                    "BOARD_CLOCK_OFFSET=0x%llx\nBOARD_CORE_HZ=%llu\nBOARD_COMPUTE_MEM_MIB=%llu\n"
                    "BOARD_NOC_LINK_BYTES_PER_CYCLE=%u\n",
                    b->name, b->hart_count, b->cluster_count, b->io_count, b->compute_count,
                    static_cast<unsigned long long>(b->ram_size / nvx::MiB),
                    static_cast<unsigned long long>(kProgramBase), static_cast<unsigned long long>(kProgramSize),
                    user_harts, compute_user_harts, b->clusters[b->first_compute()].harts - 1,
                    static_cast<unsigned long long>(image_region_base(*b)),
                    static_cast<unsigned long long>(kImageRegionSize), b->node_count,
                    static_cast<unsigned long long>(kClockCounterPage - kRamBase),  // in the RAM file
                    static_cast<unsigned long long>(kCoreHz),
                    static_cast<unsigned long long>(b->clusters[b->first_compute()].mem_size / nvx::MiB),
                    b->noc.bytes_per_cycle);
        print_launch_limits();
        print_user_layout();
        return 0;
    }
    std::fprintf(stderr, "board-info: unknown board '%s'\n", argv[1]);
    return 2;
}
