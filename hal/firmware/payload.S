# What the firmware places at boot: the kernel image (copied into every cluster's private
# memory) and the system program (copied into the read-only program region).
    .section .rodata.payload, "a"
    .balign 4096
    .globl g_kernel_image_start
    .globl g_kernel_image_end
g_kernel_image_start:
    .incbin KERNEL_IMAGE_PATH
g_kernel_image_end:

    .balign 4096
    .globl g_system_image_start
    .globl g_system_image_end
g_system_image_start:
    .incbin SYSTEM_IMAGE_PATH
g_system_image_end:
