# Reset entry of every hart (QEMU `virt` with -bios none: M-mode, pc = 0x80000000,
# a0 = hart id, a1 = device tree) and the machine trap vector.

#include "hal/riscv/register_file.inc"

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
    store_regs sp, NVX_REGS_BUT_SP
    csrr t0, mscratch
    sd t0, 16(sp)                     # the interrupted sp
    addi t0, sp, 256
    csrw mscratch, t0                 # trap stack top again, for the next trap
    mv a0, sp
    call machine_trap
    load_regs sp, NVX_REGS_BUT_SP
    ld sp, 16(sp)
    mret
