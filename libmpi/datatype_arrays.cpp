// MPI_Type_create_subarray and MPI_Type_create_darray (MPI 3.1 sections 4.1.3, 4.1.4): one
// level of blocks per dimension, from the fastest-varying one out, each level resized to a
// whole row of its dimension so that consecutive indices are one child extent apart.
#include "libmpi/datatype_arrays.hpp"

#include "api.hpp"
#include "libmpi/config.hpp"
#include "libmpi/datatype.hpp"
#include "libmpi/datatype_objects.hpp"
#include "libmpi/error_class.hpp"

namespace lwmpi {

DimensionRuns subarray_runs(int start, int length) {
    DimensionRuns d;
    d.count = 1;
    d.run[0] = IndexRun{start, length, 1, 0};
    return d;
}

int darray_runs(int size, int distrib, int darg, int procs, int coord, DimensionRuns* out) {
    DimensionRuns d;
    if (distrib == MPI_DISTRIBUTE_NONE) {
        if (procs != 1) return MPI_ERR_ARG;
        d.count = 1;
        d.run[0] = IndexRun{0, size, 1, 0};
    } else if (distrib == MPI_DISTRIBUTE_BLOCK) {
        const MPI_Aint block = darg == MPI_DISTRIBUTE_DFLT_DARG ? (size + procs - 1) / procs : darg;
        if (block <= 0 || block * procs < size) return MPI_ERR_ARG;
        const MPI_Aint start = block * coord;
        MPI_Aint length = size - start < block ? size - start : block;
        if (length < 0) length = 0;
        d.count = 1;
        d.run[0] = IndexRun{start < size ? start : size, length, 1, 0};
    } else if (distrib == MPI_DISTRIBUTE_CYCLIC) {
        const MPI_Aint block = darg == MPI_DISTRIBUTE_DFLT_DARG ? 1 : darg;
        if (block <= 0) return MPI_ERR_ARG;
        const MPI_Aint blocks = (size + block - 1) / block;  // the last one may be short
        const MPI_Aint owned = blocks > coord ? (blocks - 1 - coord) / procs + 1 : 0;
        if (owned > 0) {
            const MPI_Aint last = coord + (owned - 1) * procs;
            const MPI_Aint last_length = size - last * block < block ? size - last * block : block;
            const MPI_Aint full = last_length == block ? owned : owned - 1;
            if (full > 0) d.run[d.count++] = IndexRun{coord * block, block, full, procs * block};
            if (full < owned) d.run[d.count++] = IndexRun{last * block, last_length, 1, 0};
        }
    } else {
        return MPI_ERR_ARG;
    }
    *out = d;
    return MPI_SUCCESS;
}

namespace {

// Builds the type from the runs of each dimension (dims[i] for dimension i of `sizes`).
int build_array_type(int ndims, const int sizes[], int order, const DimensionRuns dims[],
                     MPI_Datatype oldtype, TypeEnvelope* envelope, MPI_Datatype* newtype) {
    const TypeNode* child = type_node(oldtype);
    MPI_Aint unit = child->layout.extent();  // bytes between consecutive indices of a dimension
    MPI_Datatype inner = MPI_DATATYPE_NULL;  // the previous level, held until the next takes it
    int rc = MPI_SUCCESS;
    for (int level = 0; level < ndims; level++) {
        const int dim = order == MPI_ORDER_C ? ndims - 1 - level : level;
        TypeBlock blocks[2];
        int count = 0;
        for (int r = 0; r < dims[dim].count; r++) {
            const IndexRun& run = dims[dim].run[r];
            blocks[count++] = TypeBlock{child, run.start * unit, run.length, run.repeat,
                                        run.stride * unit};
        }
        const MPI_Aint row = unit * sizes[dim];
        const bool outermost = level == ndims - 1;
        MPI_Datatype made = MPI_DATATYPE_NULL;
        rc = type_create(blocks, count, ResizedBounds{true, 0, row}, false,
                         outermost ? envelope : nullptr, outermost ? newtype : &made);
        if (inner != MPI_DATATYPE_NULL) type_free_handle(derived_type(inner));
        if (rc != MPI_SUCCESS) {
            if (!outermost) envelope_free(envelope);
            return rc;
        }
        inner = made;
        child = type_node(made != MPI_DATATYPE_NULL ? made : *newtype);
        unit = row;
    }
    return MPI_SUCCESS;
}

int check_array_common(int ndims, bool arrays_given, int order, MPI_Datatype oldtype,
                       const void* newtype) {
    if (ndims <= 0 || ndims > kMaxArrayDims || !arrays_given) return MPI_ERR_ARG;
    if (order != MPI_ORDER_C && order != MPI_ORDER_FORTRAN) return MPI_ERR_ARG;
    if (type_check(oldtype, false) != MPI_SUCCESS) return MPI_ERR_TYPE;
    if (newtype == nullptr) return MPI_ERR_ARG;
    return MPI_SUCCESS;
}

// Appends n integers to an envelope's integers at *at.
void put_ints(TypeEnvelope* e, int* at, const int* values, int n) {
    for (int i = 0; i < n; i++) e->ints[(*at)++] = values[i];
}

}  // namespace
}  // namespace lwmpi

using namespace lwmpi;

int api::Type_create_subarray(int ndims, const int array_of_sizes[],
                              const int array_of_subsizes[], const int array_of_starts[],
                              int order, MPI_Datatype oldtype, MPI_Datatype* newtype) {
    const bool arrays = array_of_sizes != nullptr && array_of_subsizes != nullptr &&
                        array_of_starts != nullptr;
    int rc = check_array_common(ndims, arrays, order, oldtype, newtype);
    if (rc != MPI_SUCCESS) return world_error(rc);
    DimensionRuns dims[kMaxArrayDims];
    for (int i = 0; i < ndims; i++) {
        const int size = array_of_sizes[i], sub = array_of_subsizes[i], start = array_of_starts[i];
        if (size <= 0 || sub <= 0 || sub > size || start < 0 || start > size - sub) {
            return world_error(MPI_ERR_ARG);
        }
        dims[i] = subarray_runs(start, sub);
    }
    TypeEnvelope* e = envelope_new(MPI_COMBINER_SUBARRAY, 3 * ndims + 2, 0, 1);
    if (e == nullptr) return world_error(MPI_ERR_NO_MEM);
    int at = 0;
    put_ints(e, &at, &ndims, 1);
    put_ints(e, &at, array_of_sizes, ndims);
    put_ints(e, &at, array_of_subsizes, ndims);
    put_ints(e, &at, array_of_starts, ndims);
    put_ints(e, &at, &order, 1);
    e->types[0] = type_node(oldtype);
    rc = build_array_type(ndims, array_of_sizes, order, dims, oldtype, e, newtype);
    return world_error(rc);
}

int api::Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                            const int array_of_distribs[], const int array_of_dargs[],
                            const int array_of_psizes[], int order, MPI_Datatype oldtype,
                            MPI_Datatype* newtype) {
    const bool arrays = array_of_gsizes != nullptr && array_of_distribs != nullptr &&
                        array_of_dargs != nullptr && array_of_psizes != nullptr;
    int rc = check_array_common(ndims, arrays, order, oldtype, newtype);
    if (rc == MPI_SUCCESS && (size <= 0 || rank < 0 || rank >= size)) rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS) return world_error(rc);
    MPI_Aint procs = 1;
    for (int i = 0; i < ndims; i++) {
        if (array_of_gsizes[i] <= 0 || array_of_psizes[i] <= 0) return world_error(MPI_ERR_ARG);
        procs *= array_of_psizes[i];
        if (procs > size) return world_error(MPI_ERR_ARG);
    }
    if (procs != size) return world_error(MPI_ERR_ARG);
    // The process grid is row-major whatever the array order (MPI 3.1 section 4.1.4).
    DimensionRuns dims[kMaxArrayDims];
    int rest = rank;
    for (int i = ndims - 1; i >= 0; i--) {
        const int coord = rest % array_of_psizes[i];
        rest /= array_of_psizes[i];
        rc = darray_runs(array_of_gsizes[i], array_of_distribs[i], array_of_dargs[i],
                         array_of_psizes[i], coord, &dims[i]);
        if (rc != MPI_SUCCESS) return world_error(rc);
    }
    TypeEnvelope* e = envelope_new(MPI_COMBINER_DARRAY, 4 * ndims + 4, 0, 1);
    if (e == nullptr) return world_error(MPI_ERR_NO_MEM);
    int at = 0;
    const int head[] = {size, rank, ndims};
    put_ints(e, &at, head, 3);
    put_ints(e, &at, array_of_gsizes, ndims);
    put_ints(e, &at, array_of_distribs, ndims);
    put_ints(e, &at, array_of_dargs, ndims);
    put_ints(e, &at, array_of_psizes, ndims);
    put_ints(e, &at, &order, 1);
    e->types[0] = type_node(oldtype);
    rc = build_array_type(ndims, array_of_gsizes, order, dims, oldtype, e, newtype);
    return world_error(rc);
}
