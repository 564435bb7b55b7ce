/* Thread-local storage: the TLS image of the program (linker symbols of runtime/user.ld)
 * and the setup of one thread's block. Private to the runtime. */
#ifndef NVX_RUNTIME_TLS_H
#define NVX_RUNTIME_TLS_H

#include <stddef.h>

/* Bytes and alignment of one thread's TLS block (alignment at least 16). */
size_t __nvx_tls_size(void);
size_t __nvx_tls_align(void);

/* Copies .tdata into block and zeroes the .tbss part; block is what tp points at. */
void __nvx_tls_init(void *block);

#endif
