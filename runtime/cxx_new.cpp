// The C++ global allocation functions (new, new[], delete, delete[]) over malloc/free,
// so that C++ programs (mpicxx, mputil's tests) can use new-expressions without
// libstdc++. Built without exceptions: an allocation that fails ends the program with a
// message instead of throwing std::bad_alloc.
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

namespace {

void* allocate(size_t size)
{
    void* p = malloc(size > 0 ? size : 1);  // a new-expression of size 0 gets a unique pointer
    if (!p) {
        fprintf(stderr, "operator new: out of memory (%zu bytes)\n", size);
        abort();
    }
    return p;
}

}  // namespace

void* operator new(size_t size) { return allocate(size); }
void* operator new[](size_t size) { return allocate(size); }
void operator delete(void* p) noexcept { free(p); }
void operator delete[](void* p) noexcept { free(p); }
void operator delete(void* p, size_t) noexcept { free(p); }
void operator delete[](void* p, size_t) noexcept { free(p); }
