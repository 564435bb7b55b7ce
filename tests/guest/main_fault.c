/* The main thread faults: it is killed with a report, and once no thread is left the
 * program ends with status 128 + cause (141 for a load page fault), not a hang. */
#include <stdio.h>

int main(void)
{
    printf("main_fault: about to load from NULL\n");
    fflush(stdout);
    return *(volatile int *)0;
}
