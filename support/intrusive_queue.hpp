// A FIFO of objects linked through their own `next` pointer (no allocation): the kernel's
// wait queues of threads and of IKC operations.
#pragma once
#include "support/types.hpp"

namespace nvx {
template <typename T>
class IntrusiveQueue {
public:
    bool empty() const { return head_ == nullptr; }
    T* front() const { return head_; }
    // Items queued, by a walk: for reports, not hot paths.
    u32 count() const {
        u32 n = 0;
        for (const T* item = head_; item != nullptr; item = item->next) n++;
        return n;
    }

    void push(T* item) {
        item->next = nullptr;
        if (tail_ == nullptr) {
            head_ = tail_ = item;
        } else {
            tail_->next = item;
            tail_ = item;
        }
    }

    T* pop() {
        T* item = head_;
        if (item == nullptr) return nullptr;
        head_ = item->next;
        if (head_ == nullptr) tail_ = nullptr;
        item->next = nullptr;
        return item;
    }

    // Removes and returns the first item for which `accept(item)` is true, or nullptr.
    template <typename Accept>
    T* take_first(Accept accept) {
        T** link = &head_;
        T* previous = nullptr;
        for (T* item = head_; item != nullptr; previous = item, item = item->next) {
            if (accept(item)) {
                *link = item->next;
                if (tail_ == item) tail_ = previous;
                item->next = nullptr;
                return item;
            }
            link = &item->next;
        }
        return nullptr;
    }

    // Removes `item` if it is queued here; true if it was.
    bool remove(T* item) { return take_first([item](T* x) { return x == item; }) != nullptr; }

private:
    T* head_ = nullptr;
    T* tail_ = nullptr;
};
}  // namespace nvx
