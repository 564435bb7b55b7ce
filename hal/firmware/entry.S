# Reset entry of every hart (QEMU `virt` with -bios none: M-mode, pc = 0x80000000,
# a0 = hart id, a1 = device tree) and the machine trap vector.

#include "hal/riscv/register_file.inc"

/* Values of hal/riscv/csr.hpp and hal/sbi/sbi_ids.hpp, tied to them by static_asserts in
   harts.cpp. */
#define MCAUSE_MSOFT 0x8000000000000003   /* interrupt bit | machine software interrupt */
#define MCAUSE_ECALL_S 9
#define MIP_SSIP 2
/* Instructions of the IPI path below when the virtual clock runs, from the vector to mret:
 * the interrupted hart is not charged for them (they come at a host-timed moment). Checked
 * against the disassembly: see the comment at the path. */
#define IPI_PATH_INSNS 41
#define SBI_EXT_IPI 0x735049
#define SBI_EXT_HSM 0x48534d
#define SBI_HSM_SUSPEND 3

# A C++ call from the trap vector (t0 and t1 saved below the trap stack's top): the frame
# holds the registers a call may clobber and the interrupted sp, and mscratch points at the
# trap stack's top again, for the next trap.
.macro enter_c_frame
    ld t0, -8(sp)
    ld t1, -16(sp)
    addi sp, sp, -256
    store_regs sp, NVX_REGS_CALLER_SAVED
    csrr t0, mscratch
    sd t0, 16(sp)                     # the interrupted sp
    addi t0, sp, 256
    csrw mscratch, t0
.endm
.macro leave_c_frame
    load_regs sp, NVX_REGS_CALLER_SAVED
    ld sp, 16(sp)
    mret
.endm

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

# The two halves of an IPI take short paths that save two registers instead of the whole
# file: a received one (machine software interrupt) only becomes the supervisor's SSIP; a
# sent one to a single hart (SBI IPI, hart_mask 1) is checked against the caller's cluster
# (g_hart_spans) and sets the target's msip. Everything else goes to machine_trap in C++.
    .align 4
machine_trap_vector:
    csrrw sp, mscratch, sp
    sd t0, -8(sp)
    sd t1, -16(sp)
    csrr t0, mcause
    li t1, MCAUSE_ECALL_S
    beq t0, t1, ecall
    li t1, MCAUSE_MSOFT
    bne t0, t1, full_trap
    csrr t0, mhartid
    lla t1, g_hart_ended
    add t1, t1, t0
    lbu t1, 0(t1)
    bnez t1, full_trap                # its cluster was ended: machine_trap parks it
    slli t0, t0, 2
    lla t1, g_clint_msip
    ld t1, 0(t1)
    add t0, t0, t1
    sw zero, 0(t0)                    # this hart's msip (u32 per hart)
    csrsi mip, MIP_SSIP
    # Virtual clock: an IPI is a hand-off, its time is the sender's stamp; the
    # instructions it costs here land at a host-timed moment, so they come off the
    # interrupted hart's counter: 23 above, 13 here, j and 4 in fast_return = 41.
    lla t1, g_clock_live
    lbu t1, 0(t1)
    beqz t1, fast_return
    csrr t0, mhartid
    slli t0, t0, 3
    lla t1, g_clock_counter_page
    ld t1, 0(t1)
    add t0, t0, t1
    ld t1, 0(t0)
    addi t1, t1, -IPI_PATH_INSNS
    sd t1, 0(t0)
    j fast_return
ecall:
    li t1, SBI_EXT_IPI
    bne a7, t1, idle_call
    bnez a6, full_trap                # function 0: send_ipi(hart_mask a0, hart_mask_base a1)
    li t1, 1
    bne a0, t1, full_trap             # other masks: the general path
    csrr t0, mhartid
    slli t0, t0, 3
    lla t1, g_hart_spans
    add t0, t0, t1
    ld t0, 0(t0)                      # the caller's cluster: first hart | end hart << 32
    slli t1, t0, 32
    srli t1, t1, 32
    bltu a1, t1, full_trap            # not a hart of the caller's cluster: refused there
    srli t0, t0, 32
    bgeu a1, t0, full_trap
    slli t0, a1, 2
    lla t1, g_clint_msip
    ld t1, 0(t1)
    add t0, t0, t1
    li t1, 1
    sw t1, 0(t0)                      # the target's msip
    li a0, 0                          # SBI_SUCCESS, value 0
    li a1, 0
    csrr t0, mepc
    addi t0, t0, 4
    csrw mepc, t0
fast_return:
    ld t0, -8(sp)
    ld t1, -16(sp)
    csrrw sp, mscratch, sp
    mret
# A kernel idles by the retentive suspend (SBI HSM hart_suspend, type 0): on the modeled
# machine a wfi in the kernel. It comes here only so that the deadlock watch sees every
# hart, so its path is model code like the watch (the counter charges it to no hart).
# SBI calls keep every register but a0 and a1, which say SBI_SUCCESS, 0.
    .pushsection .text.nvx_model, "ax"
    .align 2
idle_call:
    li t1, SBI_EXT_HSM
    bne a7, t1, 1f
    li t1, SBI_HSM_SUSPEND
    bne a6, t1, 1f
    beqz a0, 2f
1:  j full_trap                       # back over the model section: a jump reaches farther than a branch
2:  enter_c_frame
    call machine_idle
    csrr t0, mepc
    addi t0, t0, 4
    csrw mepc, t0
    sd zero, (10 * 8)(sp)             # a0: SBI_SUCCESS
    sd zero, (11 * 8)(sp)             # a1: 0
    leave_c_frame
    .popsection

# machine_trap is a C++ function: it keeps the callee-saved registers (s0-s11) itself and
# uses neither gp nor tp, so the frame holds only the registers a call may clobber.
full_trap:
    enter_c_frame
    mv a0, sp
    call machine_trap
    leave_c_frame
