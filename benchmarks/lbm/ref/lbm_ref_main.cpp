// lbm-ref --size N --steps T: prints the result line benchmarks/lbm must print for that
// cavity (any block size, depth, DDR count and cluster count give the same).
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "lbm_ref.hpp"

int main(int argc, char** argv) {
    long n = 0, steps = -1;
    for (int i = 1; i + 1 < argc; i += 2) {
        char* end;
        long v = std::strtol(argv[i + 1], &end, 10);
        if (*end != '\0') n = -1;
        if (std::strcmp(argv[i], "--size") == 0) n = v;
        else if (std::strcmp(argv[i], "--steps") == 0) steps = v;
        else n = -1;
    }
    if (argc % 2 == 0 || n < 2 || n > 512 || steps < 0 || steps > 100000) {
        std::fprintf(stderr, "usage: lbm-ref --size N --steps T\n");
        return 2;
    }
    std::puts(lbm_ref::result_line(int(n), int(steps), lbm_ref::hash(lbm_ref::run_whole(int(n), int(steps)))).c_str());
    return 0;
}
