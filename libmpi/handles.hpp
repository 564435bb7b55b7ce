// MPI handles: decoding the integer encoding of mpi.h, and the growable per-rank table that
// maps the index of a program-created handle to its object.
#pragma once
#include <mpi.h>
#include <stdlib.h>

namespace lwmpi {

constexpr int handle_kind(int handle) { return LWMPI_HANDLE_KIND(handle); }
constexpr int handle_origin(int handle) { return LWMPI_HANDLE_ORIGIN(handle); }
constexpr int handle_index(int handle) { return LWMPI_HANDLE_INDEX(handle); }

constexpr bool is_predefined(int handle, int kind) {
    return handle_kind(handle) == kind && handle_origin(handle) == LWMPI_ORIGIN_PREDEFINED;
}
constexpr bool is_user(int handle, int kind) {
    return handle_kind(handle) == kind && handle_origin(handle) == LWMPI_ORIGIN_USER;
}
constexpr int user_handle(int kind, int index) { return LWMPI_HANDLE(kind, LWMPI_ORIGIN_USER, index); }

// Objects are malloc'ed and owned by the caller; the table only maps indices to them, so an
// object never moves when the table grows. Freed slots are reused. The table is a literal
// type with no destructor, so `thread_local HandleTable<T>` needs no dynamic initialisation:
// one table per rank thread. Not thread-safe: a rank only touches its own tables.
template <typename T>
class HandleTable {
public:
    constexpr HandleTable() = default;

    // Index of the new entry, or -1 when memory or the index space is exhausted.
    int add(T* object) {
        if (object == nullptr) return -1;
        for (int i = search_from_; i < capacity_; i++) {
            if (slots_[i] == nullptr) return occupy(i, object);
        }
        const int index = capacity_;
        if (!grow()) return -1;
        return occupy(index, object);
    }

    // The object at `index`, or nullptr when there is none.
    T* get(int index) const {
        if (index < 0 || index >= capacity_) return nullptr;
        return slots_[index];
    }

    // Forgets the entry and returns its object (nullptr when there was none).
    T* remove(int index) {
        T* object = get(index);
        if (object == nullptr) return nullptr;
        slots_[index] = nullptr;
        used_--;
        if (index < search_from_) search_from_ = index;
        return object;
    }

    int used() const { return used_; }

    // Forgets every entry and frees the slots (the objects belong to the caller).
    void clear() {
        free(slots_);
        slots_ = nullptr;
        capacity_ = used_ = search_from_ = 0;
    }

private:
    static constexpr int kFirstCapacity = 16;

    int occupy(int index, T* object) {
        slots_[index] = object;
        used_++;
        search_from_ = index + 1;
        return index;
    }

    bool grow() {
        const int capacity = capacity_ == 0 ? kFirstCapacity : capacity_ * 2;
        if (capacity > LWMPI_HANDLE_INDEX_LIMIT) return false;
        T** slots = static_cast<T**>(realloc(slots_, sizeof(T*) * static_cast<size_t>(capacity)));
        if (slots == nullptr) return false;
        for (int i = capacity_; i < capacity; i++) slots[i] = nullptr;
        slots_ = slots;
        capacity_ = capacity;
        return true;
    }

    T** slots_ = nullptr;
    int capacity_ = 0;
    int used_ = 0;
    int search_from_ = 0;  // no free slot below this index
};

}  // namespace lwmpi
