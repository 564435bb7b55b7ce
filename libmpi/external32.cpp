// external32 conversion of one predefined value, number by number.
#include "libmpi/external32.hpp"

#include <float.h>
#include <stdint.h>

namespace lwmpi {
namespace {

constexpr bool kLittleEndian = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;

// Native bytes <-> big-endian bytes of one number (the same swap both ways).
void swap_to(const char* from, char* to, MPI_Aint n) {
    for (MPI_Aint i = 0; i < n; i++) to[i] = from[kLittleEndian ? n - 1 - i : i];
}

uint64_t load64(const char* p) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v |= static_cast<uint64_t>(static_cast<unsigned char>(p[i])) << (8 * i);
    return v;
}
void store64(char* p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = static_cast<char>(v >> (8 * i));
}
void store_be64(char* p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = static_cast<char>(v >> (56 - 8 * i));
}
uint64_t load_be64(const char* p) {
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = (v << 8) | static_cast<unsigned char>(p[i]);
    return v;
}

// The x87 80-bit format (a little-endian host's long double with a 64-bit significand)
// and binary128 share sign, exponent width and bias; the significand moves and the x87
// explicit integer bit goes (it is implied by a non-zero exponent).
constexpr bool kX87LongDouble = LDBL_MANT_DIG == 64;
static_assert(LDBL_MANT_DIG == 113 || (kX87LongDouble && kLittleEndian),
              "external32 needs long double as binary128 or x87 extended");

void long_double_encode(const char* native, char* out) {
    if (!kX87LongDouble) {
        swap_to(native, out, 16);
        return;
    }
    const uint64_t significand = load64(native);
    const uint64_t sign_exponent = static_cast<unsigned char>(native[8]) |
                                   static_cast<uint64_t>(static_cast<unsigned char>(native[9])) << 8;
    const uint64_t fraction = significand & 0x7fffffffffffffffull;  // 63 bits
    store_be64(out, sign_exponent << 48 | fraction >> 15);
    store_be64(out + 8, fraction << 49);
}

void long_double_decode(const char* in, char* native) {
    if (!kX87LongDouble) {
        swap_to(in, native, 16);
        return;
    }
    const uint64_t high = load_be64(in), low = load_be64(in + 8);
    const uint64_t sign_exponent = high >> 48;
    uint64_t significand = (high & 0xffffffffffffull) << 15 | low >> 49;  // rounds toward zero
    if ((sign_exponent & 0x7fff) != 0) significand |= 1ull << 63;
    store64(native, significand);
    native[8] = static_cast<char>(sign_exponent);
    native[9] = static_cast<char>(sign_exponent >> 8);
    for (int i = 10; i < 16; i++) native[i] = 0;
}

}  // namespace

void external32_encode(const PredefinedType& leaf, const char* native, char* out) {
    for (int p = 0; p < leaf.parts; p++) {
        const MPI_Aint n = leaf.number_bytes[p];
        for (MPI_Aint at = 0; at < leaf.part_bytes[p]; at += n) {
            const char* from = native + leaf.part_offset[p] + at;
            if (leaf.long_double[p]) {
                long_double_encode(from, out);
            } else {
                swap_to(from, out, n);
            }
            out += n;
        }
    }
}

void external32_decode(const PredefinedType& leaf, const char* in, char* native) {
    for (int p = 0; p < leaf.parts; p++) {
        const MPI_Aint n = leaf.number_bytes[p];
        for (MPI_Aint at = 0; at < leaf.part_bytes[p]; at += n) {
            char* to = native + leaf.part_offset[p] + at;
            if (leaf.long_double[p]) {
                long_double_decode(in, to);
            } else {
                swap_to(in, to, n);
            }
            in += n;
        }
    }
}

}  // namespace lwmpi
