// The predefined reduction operations (MPI 3.1 section 5.9.2), each written once as a template
// over the C element type, and the per-type table that says which ones a type allows.
#pragma once
#include <mpi.h>
#include <stdint.h>

namespace lwmpi {

// The type groups of section 5.9.2 that decide which operations a predefined type allows.
enum class TypeGroup : uint8_t {
    None,           // MPI_CHAR, MPI_WCHAR, MPI_CHARACTER, MPI_PACKED: only REPLACE and NO_OP
    CInteger,
    FortranInteger, // MPI_INTEGER and kin: no logical operations
    Floating,
    Logical,
    Complex,
    Byte,
    MultiLanguage,  // MPI_AINT, MPI_OFFSET, MPI_COUNT
    Pair,           // the MINLOC/MAXLOC pair types
};

// C layouts of the complex and pair types (same as float _Complex and struct {V; int}).
template <typename T>
struct Complex {
    T re, im;
};
template <typename V>
struct Pair {
    V value;
    int index;
};
// The Fortran pair types (MPI_2INTEGER, MPI_2REAL, MPI_2DOUBLE_PRECISION): both of type V.
template <typename V>
struct SamePair {
    V value;
    V index;
};

// inout[i] = in[i] op inout[i] for n elements (MPI order: the first operand is `in`).
using ReduceFn = void (*)(const void* in, void* inout, MPI_Aint n);

struct ReduceTable {
    ReduceFn fn[LWMPI_PREDEFINED_OP_COUNT];  // indexed by the op's predefined index; null: refused
};

namespace reduce {

struct Max { template <typename T> static T apply(T a, T b) { return a > b ? a : b; } };
struct Min { template <typename T> static T apply(T a, T b) { return a < b ? a : b; } };
struct Sum { template <typename T> static T apply(T a, T b) { return a + b; } };
struct Prod { template <typename T> static T apply(T a, T b) { return a * b; } };
struct Land { template <typename T> static T apply(T a, T b) { return static_cast<T>(a && b); } };
struct Lor { template <typename T> static T apply(T a, T b) { return static_cast<T>(a || b); } };
struct Lxor { template <typename T> static T apply(T a, T b) { return static_cast<T>(!a != !b); } };
struct Band { template <typename T> static T apply(T a, T b) { return static_cast<T>(a & b); } };
struct Bor { template <typename T> static T apply(T a, T b) { return static_cast<T>(a | b); } };
struct Bxor { template <typename T> static T apply(T a, T b) { return static_cast<T>(a ^ b); } };
struct Replace { template <typename T> static T apply(T a, T) { return a; } };

// Complex sum and product on the (re, im) layout.
struct ComplexSum {
    template <typename T>
    static Complex<T> apply(Complex<T> a, Complex<T> b) { return {a.re + b.re, a.im + b.im}; }
};
struct ComplexProd {
    template <typename T>
    static Complex<T> apply(Complex<T> a, Complex<T> b) {
        return {a.re * b.re - a.im * b.im, a.re * b.im + a.im * b.re};
    }
};

// MINLOC/MAXLOC: the better value wins; on a tie the smaller index wins (section 5.9.4).
struct MinLoc {
    template <typename P>
    static P apply(P a, P b) {
        if (a.value < b.value) return a;
        if (b.value < a.value) return b;
        return {a.value, a.index < b.index ? a.index : b.index};
    }
};
struct MaxLoc {
    template <typename P>
    static P apply(P a, P b) {
        if (a.value > b.value) return a;
        if (b.value > a.value) return b;
        return {a.value, a.index < b.index ? a.index : b.index};
    }
};

template <typename Fn, typename T>
void loop(const void* in, void* inout, MPI_Aint n) {
    const T* a = static_cast<const T*>(in);
    T* b = static_cast<T*>(inout);
    for (MPI_Aint i = 0; i < n; i++) b[i] = Fn::apply(a[i], b[i]);
}

inline void no_op(const void*, void*, MPI_Aint) {}

constexpr int index_of(MPI_Op op) { return LWMPI_HANDLE_INDEX(op); }

}  // namespace reduce

// The operations section 5.9.2 allows on T of group G; REPLACE and NO_OP apply to every type.
template <typename T, TypeGroup G>
constexpr ReduceTable reduce_table() {
    using namespace reduce;
    ReduceTable t{};
    constexpr bool integer = G == TypeGroup::CInteger || G == TypeGroup::FortranInteger ||
                             G == TypeGroup::MultiLanguage;
    if constexpr (integer || G == TypeGroup::Floating) {
        t.fn[index_of(MPI_MAX)] = &loop<Max, T>;
        t.fn[index_of(MPI_MIN)] = &loop<Min, T>;
        t.fn[index_of(MPI_SUM)] = &loop<Sum, T>;
        t.fn[index_of(MPI_PROD)] = &loop<Prod, T>;
    }
    if constexpr (G == TypeGroup::CInteger || G == TypeGroup::Logical) {
        t.fn[index_of(MPI_LAND)] = &loop<Land, T>;
        t.fn[index_of(MPI_LOR)] = &loop<Lor, T>;
        t.fn[index_of(MPI_LXOR)] = &loop<Lxor, T>;
    }
    if constexpr (integer || G == TypeGroup::Byte) {
        t.fn[index_of(MPI_BAND)] = &loop<Band, T>;
        t.fn[index_of(MPI_BOR)] = &loop<Bor, T>;
        t.fn[index_of(MPI_BXOR)] = &loop<Bxor, T>;
    }
    if constexpr (G == TypeGroup::Complex) {
        t.fn[index_of(MPI_SUM)] = &loop<ComplexSum, T>;
        t.fn[index_of(MPI_PROD)] = &loop<ComplexProd, T>;
    }
    if constexpr (G == TypeGroup::Pair) {
        t.fn[index_of(MPI_MINLOC)] = &loop<MinLoc, T>;
        t.fn[index_of(MPI_MAXLOC)] = &loop<MaxLoc, T>;
    }
    t.fn[index_of(MPI_REPLACE)] = &loop<Replace, T>;
    t.fn[index_of(MPI_NO_OP)] = &no_op;
    return t;
}

}  // namespace lwmpi
