// MPI_Type_match_size (MPI 3.1 section 17.1.9): the predefined type of a type class and size.
#include "api.hpp"
#include "libmpi/datatype.hpp"
#include "libmpi/error_class.hpp"

namespace lwmpi {
namespace {

// The Fortran-named sized types of each class; the first one of the asked size wins.
constexpr MPI_Datatype kReals[] = {MPI_REAL4, MPI_REAL8, MPI_REAL16};
constexpr MPI_Datatype kIntegers[] = {MPI_INTEGER1, MPI_INTEGER2, MPI_INTEGER4, MPI_INTEGER8};
constexpr MPI_Datatype kComplexes[] = {MPI_COMPLEX8, MPI_COMPLEX16, MPI_COMPLEX32};

template <size_t N>
bool pick(const MPI_Datatype (&types)[N], int size, MPI_Datatype* out) {
    for (MPI_Datatype t : types) {
        if (type_size(t) == size) {
            *out = t;
            return true;
        }
    }
    return false;
}

}  // namespace
}  // namespace lwmpi

using namespace lwmpi;

int api::Type_match_size(int typeclass, int size, MPI_Datatype* datatype) {
    if (datatype == nullptr) return world_error(MPI_ERR_ARG);
    bool found = false;
    if (typeclass == MPI_TYPECLASS_REAL) found = pick(kReals, size, datatype);
    if (typeclass == MPI_TYPECLASS_INTEGER) found = pick(kIntegers, size, datatype);
    if (typeclass == MPI_TYPECLASS_COMPLEX) found = pick(kComplexes, size, datatype);
    // An unknown class or a size no type of the class has (MPI_ERR_ARG, as for other
    // arguments out of range).
    return found ? MPI_SUCCESS : world_error(MPI_ERR_ARG);
}
