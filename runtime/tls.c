/* RISC-V TLS, variant I: tp points at the thread's TLS block, which starts with the
 * program's .tdata image followed by zeroed .tbss; the thread control block sits just
 * below it (NVX_THREAD_CONTROL_SIZE bytes). */
#include "tls.h"

#include <stdint.h>
#include <string.h>

extern char __tdata_start[], __tdata_end[];
extern char __tls_size[], __tls_align[]; /* linker constants: their "addresses" */

size_t __nvx_tls_size(void)
{
    return (size_t)(uintptr_t)__tls_size;
}

size_t __nvx_tls_align(void)
{
    return (size_t)(uintptr_t)__tls_align;
}

void __nvx_tls_init(void *block)
{
    size_t image = (size_t)(__tdata_end - __tdata_start);
    memcpy(block, __tdata_start, image);
    memset((char *)block + image, 0, __nvx_tls_size() - image);
}
