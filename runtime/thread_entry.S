/* First instructions of every created thread. The kernel starts it with a0 = the
 * thread's TLS block (its control block lies just below) and sp = the top of its stack;
 * nothing else is assumed. */
    .section .text.__nvx_thread_entry, "ax", @progbits
    .globl __nvx_thread_entry
    .type __nvx_thread_entry, @function
__nvx_thread_entry:
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop
    mv tp, a0
    /* End the call chain here for debuggers and frame-pointer walks. */
    li ra, 0
    li s0, 0
    tail __nvx_thread_run
    .size __nvx_thread_entry, . - __nvx_thread_entry
