/* Window marks for the instruction counter (scripts/tools/icount/nvxcount.cpp).
 * A mark is the RISC-V hint `slti zero, zero, ID`: a no-op on the board, recognised by the
 * plugin, which then reports every hart's instructions since the previous mark. Without the
 * plugin a mark costs one instruction. IDs 1..2047. */
#ifndef NVX_ICOUNT_MARK_H
#define NVX_ICOUNT_MARK_H

/* The encoding with ID 0: opcode OP-IMM, funct3 SLTI, rd = rs1 = zero; the ID sits in
 * bits 31..20. The plugin matches the low 20 bits. */
#define NVX_ICOUNT_MARK_BASE 0x00002013u
#define NVX_ICOUNT_MARK_MASK 0x000fffffu
#define NVX_ICOUNT_MARK_MAX 2047

#ifndef __cplusplus
#define nvx_icount_mark(id) __asm__ volatile("slti zero, zero, %0" ::"i"(id) : "memory")
#endif

#endif
