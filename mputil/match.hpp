// MPI matching, pure logic (host-tested): envelopes, the match rule with wildcards, and
// the intrusive FIFO queues a rank keeps (posted receives, unexpected messages). Queues
// keep arrival order, and a search takes the first match, so messages of one pair on one
// context never overtake each other.
#pragma once

#include <stddef.h>
#include <stdint.h>

namespace mputil {

inline constexpr int kWildcard = -1;  // kAnySource / kAnyTag

struct Envelope {
    int source;        // world rank of the sender
    uint32_t context;  // communicator context id
    int tag;
    uint64_t stamp;    // virtual time the message reached the receiver's cluster (its send, for a local one)
};

// A receive for (source, context, tag), either of source or tag possibly kWildcard.
inline bool matches(int source, uint32_t context, int tag, const Envelope& e)
{
    return e.context == context && (source == kWildcard || source == e.source) &&
           (tag == kWildcard || tag == e.tag);
}

// Intrusive singly linked FIFO of T, which has a `T* next` member.
template <class T>
class Queue {
public:
    bool empty() const { return head_ == nullptr; }
    T* front() const { return head_; }
    size_t size() const { return size_; }

    void push_back(T* item)
    {
        item->next = nullptr;
        if (tail_ != nullptr) tail_->next = item;
        else head_ = item;
        tail_ = item;
        size_++;
    }

    // Puts `item` before every other (a job that must go first again).
    void push_front(T* item)
    {
        item->next = head_;
        head_ = item;
        if (tail_ == nullptr) tail_ = item;
        size_++;
    }

    // Removes and returns the first item, or nullptr.
    T* pop_front()
    {
        T* it = head_;
        if (it != nullptr) unlink(nullptr, it);
        return it;
    }

    // Removes and returns the first item for which pred(item) holds, or nullptr.
    template <class Pred>
    T* take_first(Pred pred)
    {
        T* prev = nullptr;
        for (T* it = head_; it != nullptr; prev = it, it = it->next) {
            if (pred(it)) {
                unlink(prev, it);
                return it;
            }
        }
        return nullptr;
    }

    // The first item for which pred holds, left in place.
    template <class Pred>
    T* find_first(Pred pred) const
    {
        for (T* it = head_; it != nullptr; it = it->next)
            if (pred(it)) return it;
        return nullptr;
    }

    // Removes `item` if queued; false if it is not in this queue.
    bool remove(T* item)
    {
        return take_first([item](T* it) { return it == item; }) != nullptr;
    }

private:
    void unlink(T* prev, T* it)
    {
        if (prev != nullptr) prev->next = it->next;
        else head_ = it->next;
        if (tail_ == it) tail_ = prev;
        it->next = nullptr;
        size_--;
    }

    T* head_ = nullptr;
    T* tail_ = nullptr;
    size_t size_ = 0;
};

// Bytes a receive of `capacity` takes from a message of `bytes`, and whether it truncates.
inline size_t delivered_bytes(size_t bytes, size_t capacity) { return bytes < capacity ? bytes : capacity; }
inline bool truncates(size_t bytes, size_t capacity) { return bytes > capacity; }

}  // namespace mputil
