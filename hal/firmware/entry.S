# Reset entry of every hart (QEMU `virt` with -bios none: M-mode, pc = 0x80000000,
# a0 = hart id, a1 = device tree) and the machine trap vector.

    .section .text.entry, "ax"
    .globl _start
_start:
    csrw mie, zero
    lla t0, g_firmware_hart_count
    ld t0, 0(t0)
    bgeu a0, t0, park                 # a hart the board does not know: keep it asleep
    lla sp, g_machine_stacks
    lla t0, g_machine_stack_size
    ld t0, 0(t0)
    addi t1, a0, 1
    mul t1, t1, t0
    add sp, sp, t1
    csrw mscratch, sp
    lla t0, machine_trap_vector
    csrw mtvec, t0
    call firmware_main
park:
    wfi
    j park

# enter_supervisor(start, hart, opaque, stack_top): leave M-mode for good; the next trap
# into M-mode starts again from the top of this hart's machine stack.
    .text
    .globl enter_supervisor
enter_supervisor:
    csrw mepc, a0
    csrw mscratch, a3
    mv a0, a1
    mv a1, a2
    mret

    .align 4
machine_trap_vector:
    csrrw sp, mscratch, sp
    addi sp, sp, -256
    sd x1, 8(sp)
    sd x3, 24(sp)
    sd x4, 32(sp)
    sd x5, 40(sp)
    sd x6, 48(sp)
    sd x7, 56(sp)
    sd x8, 64(sp)
    sd x9, 72(sp)
    sd x10, 80(sp)
    sd x11, 88(sp)
    sd x12, 96(sp)
    sd x13, 104(sp)
    sd x14, 112(sp)
    sd x15, 120(sp)
    sd x16, 128(sp)
    sd x17, 136(sp)
    sd x18, 144(sp)
    sd x19, 152(sp)
    sd x20, 160(sp)
    sd x21, 168(sp)
    sd x22, 176(sp)
    sd x23, 184(sp)
    sd x24, 192(sp)
    sd x25, 200(sp)
    sd x26, 208(sp)
    sd x27, 216(sp)
    sd x28, 224(sp)
    sd x29, 232(sp)
    sd x30, 240(sp)
    sd x31, 248(sp)
    csrr t0, mscratch
    sd t0, 16(sp)                     # the interrupted sp
    addi t0, sp, 256
    csrw mscratch, t0                 # trap stack top again, for the next trap
    mv a0, sp
    call machine_trap
    ld x1, 8(sp)
    ld x3, 24(sp)
    ld x4, 32(sp)
    ld x5, 40(sp)
    ld x6, 48(sp)
    ld x7, 56(sp)
    ld x8, 64(sp)
    ld x9, 72(sp)
    ld x10, 80(sp)
    ld x11, 88(sp)
    ld x12, 96(sp)
    ld x13, 104(sp)
    ld x14, 112(sp)
    ld x15, 120(sp)
    ld x16, 128(sp)
    ld x17, 136(sp)
    ld x18, 144(sp)
    ld x19, 152(sp)
    ld x20, 160(sp)
    ld x21, 168(sp)
    ld x22, 176(sp)
    ld x23, 184(sp)
    ld x24, 192(sp)
    ld x25, 200(sp)
    ld x26, 208(sp)
    ld x27, 216(sp)
    ld x28, 224(sp)
    ld x29, 232(sp)
    ld x30, 240(sp)
    ld x31, 248(sp)
    ld sp, 16(sp)
    mret
