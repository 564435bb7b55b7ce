/* Program entry. The kernel starts the first thread here with sp at the initial stack:
 *   sp -> argc (8 bytes), argv[0..argc-1], NULL, envp[...], NULL, then the strings.
 * No other register is assumed, and .bss is cleared here even if the loader did it. */
    .section .text._start, "ax", @progbits
    .globl _start
    .type _start, @function
_start:
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop

    /* Clear .sbss and .bss (user.ld aligns both ends to 8 bytes). */
    la t0, __bss_start
    la t1, _end
1:  bgeu t0, t1, 2f
    sd zero, 0(t0)
    addi t0, t0, 8
    j 1b
2:
    /* tp is the main thread's TLS block; its control block (newlib's errno and stdio)
     * lies just below. */
    la tp, __nvx_main_tls

    ld s1, 0(sp)            /* argc */
    addi s2, sp, 8          /* argv */
    andi sp, sp, -16
    li ra, 0
    li s0, 0

    call __nvx_main_thread_init
    la a0, __libc_fini_array
    call atexit
    call __libc_init_array
    call __nvx_memory_mark_start  /* nvx_memory_at_start(): before any library starts */

    mv a0, s1
    mv a1, s2
    slli a2, s1, 3          /* envp = argv + argc + 1: the launcher's environment */
    add a2, a2, s2
    addi a2, a2, 8
    la t0, environ
    sd a2, 0(t0)
    call nvx_program_main   /* main(argc, argv, envp) unless a library replaces it */
    tail exit
    .size _start, . - _start

/* libc.a carries single-threaded stubs for these; naming the runtime's lock routines here
 * links them in before libc is searched, so the stubs are never chosen. */
    .globl __retarget_lock_acquire_recursive
