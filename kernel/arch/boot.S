# Kernel entry. The firmware starts the kernel core at the first byte of the image (in
# this cluster's memory) with paging off; the core builds a boot page table (identity
# gigapage + the cluster memory in megapages at the kernel's link address), turns paging
# on and jumps high. User harts enter at _kernel_secondary_entry once the core starts them.

#define KERNEL_VBASE 0xffffffffc0000000
#define PTE_IDENTITY 0xcf      /* V R W X A D */
#define PTE_KERNEL   0xef      /* V R W X G A D */
#define BOOTINFO_MEM_SIZE 24

    .section .text.boot, "ax"
    .globl _kernel_entry
_kernel_entry:                    # a0 = hart id, a1 = BootInfo (physical)
    lla t0, _bss_start
    lla t1, _bss_end
1:  bgeu t0, t1, 2f
    sd zero, 0(t0)
    addi t0, t0, 8
    j 1b
2:  lla t0, g_boot_root_table
    lla t1, g_boot_l1_table
    lla t2, _kernel_start         # physical base of this cluster's memory
    srli t3, t2, 30               # identity gigapage covering the running code
    slli t4, t3, 3
    add t4, t4, t0
    slli t5, t3, 28
    ori t5, t5, PTE_IDENTITY
    sd t5, 0(t4)
    srli t5, t1, 12               # root[511] -> l1 (the top GiB: KERNEL_VBASE)
    slli t5, t5, 10
    ori t5, t5, 1
    li t4, 511 * 8
    add t4, t4, t0
    sd t5, 0(t4)
    ld t3, BOOTINFO_MEM_SIZE(a1)
    srli t3, t3, 21               # megapages of cluster memory
    mv t4, t2
    mv t6, t1
3:  beqz t3, 4f
    srli t5, t4, 12
    slli t5, t5, 10
    ori t5, t5, PTE_KERNEL
    sd t5, 0(t6)
    addi t6, t6, 8
    li t5, 0x200000
    add t4, t4, t5
    addi t3, t3, -1
    j 3b
4:  mv s0, a0
    mv s1, a1
    li s2, 0
    j enable_paging

    .globl _kernel_secondary_entry
_kernel_secondary_entry:          # a0 = hart id, a1 = local hart index
    mv s0, a0
    li s1, 0
    mv s2, a1

enable_paging:
    lla t0, g_boot_root_table
    srli t0, t0, 12
    li t1, 8
    slli t1, t1, 60
    or t0, t0, t1
    sfence.vma
    csrw satp, t0
    sfence.vma
    lla t2, _kernel_start
    li t3, KERNEL_VBASE
    sub t3, t3, t2                # virtual - physical
    lla t4, g_kernel_stacks
    lla t5, g_kernel_stack_size
    ld t5, 0(t5)
    addi t6, s2, 1
    mul t6, t6, t5
    add sp, t4, t6
    add sp, sp, t3
    beqz s1, 5f
    add s1, s1, t3                # BootInfo sits in the direct map too
5:  lla t4, running_high
    add t4, t4, t3
    jr t4
running_high:
    mv a0, s0
    mv a1, s1
    mv a2, s2
    call kernel_entry
6:  wfi
    j 6b
