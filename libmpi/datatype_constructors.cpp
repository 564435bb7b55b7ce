// The type constructors of MPI 3.1 section 4.1.2: each becomes a few blocks of its old types.
#include <stdlib.h>

#include "api.hpp"
#include "libmpi/datatype.hpp"
#include "libmpi/datatype_objects.hpp"
#include "libmpi/error_class.hpp"

namespace lwmpi {
namespace {

constexpr ResizedBounds kNatural{false, 0, 0};

// The envelope of a constructor with one old type and the given integers and addresses.
TypeEnvelope* simple_envelope(int combiner, MPI_Datatype oldtype, int ni, const int* ints,
                              int na, const MPI_Aint* aints) {
    TypeEnvelope* e = envelope_new(combiner, ni, na, 1);
    if (e == nullptr) return nullptr;
    for (int i = 0; i < ni; i++) e->ints[i] = ints[i];
    for (int i = 0; i < na; i++) e->aints[i] = aints[i];
    e->types[0] = type_node(oldtype);
    return e;
}

int create_one(const TypeBlock& block, ResizedBounds resized, TypeEnvelope* envelope,
               MPI_Datatype* newtype) {
    if (envelope == nullptr) return world_error(MPI_ERR_NO_MEM);
    return world_error(type_create(&block, 1, resized, false, envelope, newtype));
}

// Checks shared by every constructor; `oldtype` is checked unless the call names types per block.
int check_common(int count, bool check_oldtype, MPI_Datatype oldtype, const void* newtype) {
    if (count < 0) return MPI_ERR_COUNT;
    if (check_oldtype && type_check(oldtype, false) != MPI_SUCCESS) return MPI_ERR_TYPE;
    if (newtype == nullptr) return MPI_ERR_ARG;
    return MPI_SUCCESS;
}

// The indexed family and struct: block i has blocklengths[i] (or `blocklength` for all),
// displacement int_disps[i] or aint_disps[i] in units of `disp_unit` bytes, and type
// types[i] (or `oldtype` for all).
struct IndexedSpec {
    int combiner;
    int count;
    const int* blocklengths;
    int blocklength;
    const int* int_disps;
    const MPI_Aint* aint_disps;
    const MPI_Datatype* types;
    MPI_Datatype oldtype;
    bool byte_disps;   // h-variants and struct: displacements in bytes, not old extents
    bool align;        // struct: pad the extent like the C compiler pads a struct
};

int check_spec(const IndexedSpec& s, MPI_Datatype* newtype) {
    int rc = check_common(s.count, s.types == nullptr, s.oldtype, newtype);
    if (rc != MPI_SUCCESS) return rc;
    if (s.count == 0) return MPI_SUCCESS;
    const void* disps = s.byte_disps ? static_cast<const void*>(s.aint_disps) : s.int_disps;
    if (disps == nullptr) return MPI_ERR_ARG;
    if (s.blocklengths == nullptr && s.blocklength < 0) return MPI_ERR_ARG;
    for (int i = 0; i < s.count; i++) {
        if (s.blocklengths != nullptr && s.blocklengths[i] < 0) return MPI_ERR_ARG;
        if (s.types != nullptr && type_check(s.types[i], false) != MPI_SUCCESS) return MPI_ERR_TYPE;
    }
    return MPI_SUCCESS;
}

// count, then the block lengths (or the one length), then the int displacements; the
// address displacements; the types (or the one old type): the order of MPI 3.1 section 4.1.13.
TypeEnvelope* indexed_envelope(const IndexedSpec& s) {
    const int lengths = s.blocklengths != nullptr ? s.count : 1;
    const int int_disps = s.byte_disps ? 0 : s.count;
    const int types = s.types != nullptr ? s.count : 1;
    TypeEnvelope* e = envelope_new(s.combiner, 1 + lengths + int_disps,
                                   s.byte_disps ? s.count : 0, types);
    if (e == nullptr) return nullptr;
    int* ints = e->ints;
    *ints++ = s.count;
    for (int i = 0; i < lengths; i++) *ints++ = s.blocklengths != nullptr ? s.blocklengths[i] : s.blocklength;
    for (int i = 0; i < int_disps; i++) *ints++ = s.int_disps[i];
    for (int i = 0; i < e->na; i++) e->aints[i] = s.aint_disps[i];
    for (int i = 0; i < types; i++) e->types[i] = type_node(s.types != nullptr ? s.types[i] : s.oldtype);
    return e;
}

int create_indexed(const IndexedSpec& s, MPI_Datatype* newtype) {
    int rc = check_spec(s, newtype);
    if (rc != MPI_SUCCESS) return world_error(rc);
    TypeEnvelope* envelope = indexed_envelope(s);
    if (envelope == nullptr) return world_error(MPI_ERR_NO_MEM);
    TypeBlock* blocks = static_cast<TypeBlock*>(malloc(sizeof(TypeBlock) * static_cast<size_t>(s.count > 0 ? s.count : 1)));
    if (blocks == nullptr) {
        envelope_free(envelope);
        return world_error(MPI_ERR_NO_MEM);
    }
    int used = 0;
    for (int i = 0; i < s.count; i++) {
        const TypeNode* child = type_node(s.types != nullptr ? s.types[i] : s.oldtype);
        const MPI_Aint length = s.blocklengths != nullptr ? s.blocklengths[i] : s.blocklength;
        if (length == 0) continue;
        const MPI_Aint disp = s.byte_disps ? s.aint_disps[i]
                                           : s.int_disps[i] * child->layout.extent();
        append_block(blocks, &used, TypeBlock{child, disp, length, 1, 0});
    }
    rc = type_create(blocks, used, kNatural, s.align, envelope, newtype);
    free(blocks);
    return world_error(rc);
}

}  // namespace
}  // namespace lwmpi

using namespace lwmpi;

int api::Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype) {
    const int rc = check_common(count, true, oldtype, newtype);
    if (rc != MPI_SUCCESS) return world_error(rc);
    const int ints[] = {count};
    return create_one(TypeBlock{type_node(oldtype), 0, count, 1, 0},
                      kNatural,
                      simple_envelope(MPI_COMBINER_CONTIGUOUS, oldtype, 1, ints, 0, nullptr),
                      newtype);
}

int api::Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype,
                               MPI_Datatype* newtype) {
    int rc = check_common(count, true, oldtype, newtype);
    if (rc == MPI_SUCCESS && blocklength < 0) rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS) return world_error(rc);
    const TypeNode* old = type_node(oldtype);
    const MPI_Aint stride_bytes = static_cast<MPI_Aint>(stride) * old->layout.extent();
    const int ints[] = {count, blocklength, stride};
    return create_one(TypeBlock{old, 0, blocklength, count, stride_bytes},
                      kNatural,
                      simple_envelope(MPI_COMBINER_VECTOR, oldtype, 3, ints, 0, nullptr),
                      newtype);
}

int api::Type_create_hvector(int count, int blocklength, MPI_Aint stride,
                                       MPI_Datatype oldtype, MPI_Datatype* newtype) {
    int rc = check_common(count, true, oldtype, newtype);
    if (rc == MPI_SUCCESS && blocklength < 0) rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS) return world_error(rc);
    const int ints[] = {count, blocklength};
    return create_one(TypeBlock{type_node(oldtype), 0, blocklength, count, stride}, kNatural,
                      simple_envelope(MPI_COMBINER_HVECTOR, oldtype, 2, ints, 1, &stride),
                      newtype);
}

int api::Type_indexed(int count, const int array_of_blocklengths[],
                                const int array_of_displacements[], MPI_Datatype oldtype,
                                MPI_Datatype* newtype) {
    if (count > 0 && array_of_blocklengths == nullptr) {
        return world_error(MPI_ERR_ARG);
    }
    return create_indexed(IndexedSpec{MPI_COMBINER_INDEXED, count, array_of_blocklengths, 0,
                                      array_of_displacements, nullptr, nullptr, oldtype, false,
                                      false},
                          newtype);
}

int api::Type_create_hindexed(int count, const int array_of_blocklengths[],
                                        const MPI_Aint array_of_displacements[],
                                        MPI_Datatype oldtype, MPI_Datatype* newtype) {
    if (count > 0 && array_of_blocklengths == nullptr) {
        return world_error(MPI_ERR_ARG);
    }
    return create_indexed(IndexedSpec{MPI_COMBINER_HINDEXED, count, array_of_blocklengths, 0,
                                      nullptr, array_of_displacements, nullptr, oldtype, true,
                                      false},
                          newtype);
}

int api::Type_create_indexed_block(int count, int blocklength,
                                             const int array_of_displacements[],
                                             MPI_Datatype oldtype, MPI_Datatype* newtype) {
    return create_indexed(IndexedSpec{MPI_COMBINER_INDEXED_BLOCK, count, nullptr, blocklength,
                                      array_of_displacements, nullptr, nullptr, oldtype, false,
                                      false},
                          newtype);
}

int api::Type_create_hindexed_block(int count, int blocklength,
                                              const MPI_Aint array_of_displacements[],
                                              MPI_Datatype oldtype, MPI_Datatype* newtype) {
    return create_indexed(IndexedSpec{MPI_COMBINER_HINDEXED_BLOCK, count, nullptr, blocklength,
                                      nullptr, array_of_displacements, nullptr, oldtype, true,
                                      false},
                          newtype);
}

int api::Type_create_struct(int count, const int array_of_blocklengths[],
                                      const MPI_Aint array_of_displacements[],
                                      const MPI_Datatype array_of_types[],
                                      MPI_Datatype* newtype) {
    if (count > 0 && (array_of_blocklengths == nullptr || array_of_types == nullptr)) {
        return world_error(MPI_ERR_ARG);
    }
    return create_indexed(IndexedSpec{MPI_COMBINER_STRUCT, count, array_of_blocklengths, 0,
                                      nullptr, array_of_displacements, array_of_types,
                                      MPI_DATATYPE_NULL, true, true},
                          newtype);
}

int api::Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent,
                                       MPI_Datatype* newtype) {
    const int rc = check_common(0, true, oldtype, newtype);
    if (rc != MPI_SUCCESS) return world_error(rc);
    const MPI_Aint aints[] = {lb, extent};
    return create_one(TypeBlock{type_node(oldtype), 0, 1, 1, 0},
                      ResizedBounds{true, lb, extent},
                      simple_envelope(MPI_COMBINER_RESIZED, oldtype, 0, nullptr, 2, aints),
                      newtype);
}
