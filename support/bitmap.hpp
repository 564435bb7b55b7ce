// Fixed-capacity bitmap over caller-provided words; used by page and id allocators.
#pragma once
#include "support/types.hpp"

namespace nvx {
class Bitmap {
public:
    static constexpr u64 kBitsPerWord = 64;
    static constexpr u64 words_for(u64 bits) { return (bits + kBitsPerWord - 1) / kBitsPerWord; }

    Bitmap() = default;
    Bitmap(u64* words, u64 bits) : words_(words), bits_(bits) {
        for (u64 i = 0; i < words_for(bits); i++) words_[i] = 0;
    }

    u64 size() const { return bits_; }
    bool test(u64 bit) const { return (words_[bit / kBitsPerWord] >> (bit % kBitsPerWord)) & 1; }
    void set(u64 bit) { words_[bit / kBitsPerWord] |= 1ull << (bit % kBitsPerWord); }
    void clear(u64 bit) { words_[bit / kBitsPerWord] &= ~(1ull << (bit % kBitsPerWord)); }

    // Index of the first clear bit at or after `from`, or size() when there is none.
    u64 find_clear(u64 from = 0) const {
        for (u64 bit = from; bit < bits_;) {
            u64 word = words_[bit / kBitsPerWord] >> (bit % kBitsPerWord);
            if (~word == 0 && bit % kBitsPerWord == 0) {
                bit += kBitsPerWord;
                continue;
            }
            if (!(word & 1)) return bit;
            bit++;
        }
        return bits_;
    }

    u64 count_set() const {
        u64 n = 0;
        for (u64 i = 0; i < bits_; i++) n += test(i) ? 1 : 0;
        return n;
    }

private:
    u64* words_ = nullptr;
    u64 bits_ = 0;
};
}  // namespace nvx
