# Trap entry and exit. From U-mode: sscratch holds the running thread's TrapFrame; the
# registers go there and the kernel runs on the hart's own stack. From S-mode: only
# exceptions arrive (interrupts stay masked in S-mode); they are saved on the stack.

#include "hal/riscv/register_file.inc"

    .text
    .globl uservec
    .align 4
uservec:
    csrrw a0, sscratch, a0
    store_regs a0, NVX_REGS_BUT_A0
    csrr t0, sscratch
    sd t0, 80(a0)
    csrr t0, sepc
    sd t0, 256(a0)
    ld sp, 264(a0)
    ld tp, 272(a0)
    lla t0, kernelvec
    csrw stvec, t0
    call user_trap
1:  j 1b

# return_to_user(frame): sstatus (SPP = U, SPIE) is set by the caller.
    .globl return_to_user
return_to_user:
    lla t0, uservec
    csrw stvec, t0
    csrw sscratch, a0
    ld t0, 256(a0)
    csrw sepc, t0
    load_regs a0, NVX_REGS_BUT_A0
    ld a0, 80(a0)
    sret

    .globl kernelvec
    .align 4
kernelvec:
    addi sp, sp, -256
    store_regs sp, NVX_REGS_BUT_SP
    addi t0, sp, 256
    sd t0, 16(sp)
    mv a0, sp
    call kernel_trap
    load_regs sp, NVX_REGS_BUT_SP
    addi sp, sp, 256
    sret

# The kernel itself is built without FP; only these two touch the FP registers.
    .option push
    .option arch, +d
    .globl fp_save
fp_save:
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    fsd f\n, (\n * 8)(a0)
    .endr
    frcsr t0
    sd t0, 256(a0)
    ret

    .globl fp_restore
fp_restore:
    .irp n, 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31
    fld f\n, (\n * 8)(a0)
    .endr
    ld t0, 256(a0)
    fscsr t0
    ret
    .option pop
