# The kernel image the firmware copies into every cluster's private memory.
    .section .rodata.payload, "a"
    .balign 4096
    .globl g_kernel_image_start
    .globl g_kernel_image_end
g_kernel_image_start:
    .incbin KERNEL_IMAGE_PATH
g_kernel_image_end:
