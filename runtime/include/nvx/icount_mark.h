/* Window marks for the instruction counter (scripts/tools/icount/nvxcount.cpp).
 * A mark is the RISC-V hint `slti zero, zero, 1255`: a no-op on the board, recognised by
 * the plugin, which numbers the marks it sees 1, 2, 3, ... and at each one reports every
 * hart's instructions since the previous one. Without the plugin a mark costs one
 * instruction. */
#ifndef NVX_ICOUNT_MARK_H
#define NVX_ICOUNT_MARK_H

#define NVX_ICOUNT_MARK_IMM 1255
/* The instruction: opcode OP-IMM, funct3 SLTI, rd = rs1 = zero, the immediate in 31..20. */
#define NVX_ICOUNT_MARK_WORD ((NVX_ICOUNT_MARK_IMM << 20) | 0x2013u)

#ifndef __cplusplus
#define NVX_ICOUNT_STR2(x) #x
#define NVX_ICOUNT_STR(x) NVX_ICOUNT_STR2(x)
static inline void nvx_icount_mark(void)
{
    __asm__ volatile("slti zero, zero, " NVX_ICOUNT_STR(NVX_ICOUNT_MARK_IMM) ::: "memory");
}
#endif

#endif
