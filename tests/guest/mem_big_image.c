/* A program whose image (a 3 MiB bss) does not fit mppa256's 2 MiB compute clusters: exec
 * refuses it naming the sizes (status 122) and the launcher names mppa256-xl, where it runs
 * and every byte of the array is there. */
#include <stdint.h>

#include "check.h"

static uint8_t big[3u << 20];

int main(void)
{
    for (uint32_t i = 0; i < sizeof big; i += 4096) big[i] = (uint8_t)(i >> 12);
    uint32_t bad = 0;
    for (uint32_t i = 0; i < sizeof big; i += 4096) bad += big[i] != (uint8_t)(i >> 12);
    CHECK_EQ(bad, 0);
    return check_finish("mem_big_image");
}
