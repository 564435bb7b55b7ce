/* A hang that runs: the program spins forever without a kernel call. Its case expects the
 * instruction limit to end the run (status 124) with the report naming the spinning hart. */
int main(void)
{
    volatile unsigned long turns = 0;
    for (;;)
        turns++;
}
