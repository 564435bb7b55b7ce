// Prints a board's facts as shell assignments, so scripts and tests read the board table
// instead of repeating its numbers:  eval "$(board-info small)"
#include <cstdio>
#include <cstring>

#include "hal/board/board.hpp"

int main(int argc, char** argv) {
    using namespace nvx::board;
    if (argc != 2) {
        std::fprintf(stderr, "usage: board-info BOARD\n");
        return 2;
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
                    "BOARD_COMPUTE_PES=%u\nBOARD_IMAGE_BASE=0x%llx\nBOARD_IMAGE_SIZE=%llu\nBOARD_NODES=%u\n",
                    b->name, b->hart_count, b->cluster_count, b->io_count, b->compute_count,
                    static_cast<unsigned long long>(b->ram_size / nvx::MiB),
                    static_cast<unsigned long long>(kProgramBase), static_cast<unsigned long long>(kProgramSize),
                    user_harts, compute_user_harts, b->clusters[b->first_compute()].harts - 1,
                    static_cast<unsigned long long>(image_region_base(*b)),
                    static_cast<unsigned long long>(kImageRegionSize), b->node_count);
        return 0;
    }
    std::fprintf(stderr, "board-info: unknown board '%s'\n", argv[1]);
    return 2;
}
