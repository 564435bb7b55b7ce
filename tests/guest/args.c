/* Launch arguments from QEMU -append reach main(argc, argv) on every compute cluster. */
#include <string.h>
#include "check.h"

int main(int argc, char **argv)
{
    CHECK_EQ(argc, 4);
    if (argc == 4) {
        CHECK(strcmp(argv[0], "args") == 0);
        CHECK(strcmp(argv[1], "alpha") == 0);
        CHECK(strcmp(argv[2], "beta=2") == 0);
        CHECK(strcmp(argv[3], "--gamma") == 0);
    }
    CHECK(argv[argc] == 0);
    return check_finish("args");
}
