// The predefined datatypes of MPI 3.1 for C, and the Fortran-named ones a C program may use:
// one row per handle of mpi.h, built from the C type itself (or its Fortran ABI equivalent),
// so size, alignment, extent and the allowed reductions have one source.
#include <stddef.h>

#include "libmpi/datatype_node.hpp"

namespace lwmpi {
namespace {

template <typename T> constexpr bool is_long_double = false;
template <> constexpr bool is_long_double<long double> = true;
template <> constexpr bool is_long_double<Complex<long double>> = true;

template <typename T, TypeGroup G>
constexpr PredefinedType scalar(const char* name) {
    PredefinedType p{};
    const MPI_Aint size = sizeof(T);
    p.node.layout = TypeLayout{size, 0, size, 0, size, 1, alignof(T), nullptr, true, false};
    p.node.predefined = true;
    p.name = name;
    p.group = G;
    p.parts = 1;
    p.part_offset[0] = 0;
    p.part_bytes[0] = size;
    p.number_bytes[0] = G == TypeGroup::Complex ? size / 2 : size;
    p.long_double[0] = is_long_double<T>;
    p.reduce = reduce_table<T, G>();
    return p;
}

// struct { V value; I index; } with the C compiler's padding: size counts the data only.
// P is Pair<V> (I = int) or SamePair<V> (I = V, the Fortran pairs).
template <typename V, typename P = Pair<V>>
constexpr PredefinedType pair(const char* name) {
    using I = decltype(P::index);
    PredefinedType p{};
    const MPI_Aint index_offset = offsetof(P, index);
    const MPI_Aint size = sizeof(V) + sizeof(I);
    const bool dense = index_offset == static_cast<MPI_Aint>(sizeof(V));
    p.node.layout = TypeLayout{size, 0, sizeof(P), 0, index_offset + static_cast<MPI_Aint>(sizeof(I)),
                               2, alignof(P), nullptr, dense, false};
    p.node.predefined = true;
    p.name = name;
    p.group = TypeGroup::Pair;
    p.parts = 2;
    p.part_offset[0] = 0;
    p.part_bytes[0] = sizeof(V);
    p.part_offset[1] = index_offset;
    p.part_bytes[1] = sizeof(I);
    p.number_bytes[0] = sizeof(V);
    p.number_bytes[1] = sizeof(I);
    p.long_double[0] = is_long_double<V>;
    p.long_double[1] = false;
    p.reduce = reduce_table<P, TypeGroup::Pair>();
    return p;
}

using G = TypeGroup;

// The usual Fortran ABI (INTEGER, REAL and LOGICAL of 4 bytes, DOUBLE PRECISION of 8), and
// REAL*16 as the C long double.
using FortranInteger = int32_t;
using FortranLogical = int32_t;
static_assert(sizeof(float) == 4 && sizeof(double) == 8);
static_assert(sizeof(long double) == 16, "MPI_REAL16 is the C long double");

}  // namespace

// Rows in the order of the indices in mpi.h (checked by the host tests through the names).
constinit const PredefinedType predefined_types[LWMPI_PREDEFINED_TYPE_COUNT] = {
    PredefinedType{},
    scalar<char, G::None>("MPI_CHAR"),
    scalar<signed char, G::CInteger>("MPI_SIGNED_CHAR"),
    scalar<unsigned char, G::CInteger>("MPI_UNSIGNED_CHAR"),
    scalar<unsigned char, G::Byte>("MPI_BYTE"),
    scalar<wchar_t, G::None>("MPI_WCHAR"),
    scalar<short, G::CInteger>("MPI_SHORT"),
    scalar<unsigned short, G::CInteger>("MPI_UNSIGNED_SHORT"),
    scalar<int, G::CInteger>("MPI_INT"),
    scalar<unsigned, G::CInteger>("MPI_UNSIGNED"),
    scalar<long, G::CInteger>("MPI_LONG"),
    scalar<unsigned long, G::CInteger>("MPI_UNSIGNED_LONG"),
    scalar<long long, G::CInteger>("MPI_LONG_LONG_INT"),
    scalar<unsigned long long, G::CInteger>("MPI_UNSIGNED_LONG_LONG"),
    scalar<float, G::Floating>("MPI_FLOAT"),
    scalar<double, G::Floating>("MPI_DOUBLE"),
    scalar<long double, G::Floating>("MPI_LONG_DOUBLE"),
    scalar<bool, G::Logical>("MPI_C_BOOL"),
    scalar<int8_t, G::CInteger>("MPI_INT8_T"),
    scalar<int16_t, G::CInteger>("MPI_INT16_T"),
    scalar<int32_t, G::CInteger>("MPI_INT32_T"),
    scalar<int64_t, G::CInteger>("MPI_INT64_T"),
    scalar<uint8_t, G::CInteger>("MPI_UINT8_T"),
    scalar<uint16_t, G::CInteger>("MPI_UINT16_T"),
    scalar<uint32_t, G::CInteger>("MPI_UINT32_T"),
    scalar<uint64_t, G::CInteger>("MPI_UINT64_T"),
    scalar<MPI_Aint, G::MultiLanguage>("MPI_AINT"),
    scalar<MPI_Offset, G::MultiLanguage>("MPI_OFFSET"),
    scalar<MPI_Count, G::MultiLanguage>("MPI_COUNT"),
    scalar<Complex<float>, G::Complex>("MPI_C_COMPLEX"),
    scalar<Complex<float>, G::Complex>("MPI_C_FLOAT_COMPLEX"),
    scalar<Complex<double>, G::Complex>("MPI_C_DOUBLE_COMPLEX"),
    scalar<Complex<long double>, G::Complex>("MPI_C_LONG_DOUBLE_COMPLEX"),
    scalar<unsigned char, G::None>("MPI_PACKED"),
    pair<float>("MPI_FLOAT_INT"),
    pair<double>("MPI_DOUBLE_INT"),
    pair<long>("MPI_LONG_INT"),
    pair<int>("MPI_2INT"),
    pair<short>("MPI_SHORT_INT"),
    pair<long double>("MPI_LONG_DOUBLE_INT"),
    scalar<bool, G::Logical>("MPI_CXX_BOOL"),
    scalar<Complex<float>, G::Complex>("MPI_CXX_FLOAT_COMPLEX"),
    scalar<Complex<double>, G::Complex>("MPI_CXX_DOUBLE_COMPLEX"),
    scalar<Complex<long double>, G::Complex>("MPI_CXX_LONG_DOUBLE_COMPLEX"),
    scalar<char, G::None>("MPI_CHARACTER"),
    scalar<FortranInteger, G::FortranInteger>("MPI_INTEGER"),
    scalar<float, G::Floating>("MPI_REAL"),
    scalar<double, G::Floating>("MPI_DOUBLE_PRECISION"),
    scalar<Complex<float>, G::Complex>("MPI_COMPLEX"),
    scalar<Complex<double>, G::Complex>("MPI_DOUBLE_COMPLEX"),
    scalar<FortranLogical, G::Logical>("MPI_LOGICAL"),
    scalar<int8_t, G::FortranInteger>("MPI_INTEGER1"),
    scalar<int16_t, G::FortranInteger>("MPI_INTEGER2"),
    scalar<int32_t, G::FortranInteger>("MPI_INTEGER4"),
    scalar<int64_t, G::FortranInteger>("MPI_INTEGER8"),
    scalar<float, G::Floating>("MPI_REAL4"),
    scalar<double, G::Floating>("MPI_REAL8"),
    scalar<long double, G::Floating>("MPI_REAL16"),
    scalar<Complex<float>, G::Complex>("MPI_COMPLEX8"),
    scalar<Complex<double>, G::Complex>("MPI_COMPLEX16"),
    scalar<Complex<long double>, G::Complex>("MPI_COMPLEX32"),
    pair<FortranInteger, SamePair<FortranInteger>>("MPI_2INTEGER"),
    pair<float, SamePair<float>>("MPI_2REAL"),
    pair<double, SamePair<double>>("MPI_2DOUBLE_PRECISION"),
};

}  // namespace lwmpi
