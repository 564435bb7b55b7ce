// Envelope records and the MPI calls that decode a type: MPI_Type_get_envelope and
// MPI_Type_get_contents (MPI 3.1 section 4.1.13).
#include "libmpi/datatype_envelope.hpp"

#include <stdlib.h>

#include "api.hpp"
#include "libmpi/datatype.hpp"
#include "libmpi/datatype_objects.hpp"
#include "libmpi/error_class.hpp"

namespace lwmpi {

TypeEnvelope* envelope_new(int combiner, int ni, int na, int nd) {
    const size_t bytes = sizeof(TypeEnvelope) + sizeof(MPI_Aint) * static_cast<size_t>(na) +
                         sizeof(const TypeNode*) * static_cast<size_t>(nd) +
                         sizeof(int) * static_cast<size_t>(ni);
    TypeEnvelope* e = static_cast<TypeEnvelope*>(malloc(bytes));
    if (e == nullptr) return nullptr;
    e->combiner = combiner;
    e->ni = ni;
    e->na = na;
    e->nd = nd;
    e->aints = reinterpret_cast<MPI_Aint*>(e + 1);
    e->types = reinterpret_cast<const TypeNode**>(e->aints + na);
    e->ints = reinterpret_cast<int*>(e->types + nd);
    return e;
}

TypeEnvelope* envelope_copy(const TypeEnvelope& from) {
    TypeEnvelope* e = envelope_new(from.combiner, from.ni, from.na, from.nd);
    if (e == nullptr) return nullptr;
    for (int i = 0; i < from.na; i++) e->aints[i] = from.aints[i];
    for (int i = 0; i < from.nd; i++) e->types[i] = from.types[i];
    for (int i = 0; i < from.ni; i++) e->ints[i] = from.ints[i];
    return e;
}

void envelope_free(TypeEnvelope* envelope) { free(envelope); }

namespace {

// The envelope of a valid type, or nullptr for a predefined one (MPI_COMBINER_NAMED).
const TypeEnvelope* envelope_of(MPI_Datatype type) {
    const DerivedType* derived = derived_type(type);
    return derived == nullptr ? nullptr : derived->envelope;
}

// The handle get_contents returns for an inner type: predefined ones as they are, derived ones
// as a new object the program frees.
int inner_handle(const TypeNode* node, MPI_Datatype* out) {
    if (node->predefined) {
        *out = predefined_handle(node);
        return MPI_SUCCESS;
    }
    return type_clone(node, out);
}

}  // namespace
}  // namespace lwmpi

using namespace lwmpi;

int api::Type_get_envelope(MPI_Datatype datatype, int* num_integers, int* num_addresses,
                           int* num_datatypes, int* combiner) {
    int rc = type_check(datatype, false);
    if (rc == MPI_SUCCESS && (num_integers == nullptr || num_addresses == nullptr ||
                              num_datatypes == nullptr || combiner == nullptr)) {
        rc = MPI_ERR_ARG;
    }
    if (rc != MPI_SUCCESS) return world_error(rc);
    const TypeEnvelope* e = envelope_of(datatype);
    *combiner = e != nullptr ? e->combiner : MPI_COMBINER_NAMED;
    *num_integers = e != nullptr ? e->ni : 0;
    *num_addresses = e != nullptr ? e->na : 0;
    *num_datatypes = e != nullptr ? e->nd : 0;
    return MPI_SUCCESS;
}

int api::Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses,
                           int max_datatypes, int array_of_integers[],
                           MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[]) {
    int rc = type_check(datatype, false);
    const TypeEnvelope* e = rc == MPI_SUCCESS ? envelope_of(datatype) : nullptr;
    if (rc == MPI_SUCCESS && e == nullptr) rc = MPI_ERR_TYPE;  // named types have no contents
    if (rc != MPI_SUCCESS) return world_error(rc);
    if (max_integers < e->ni || max_addresses < e->na || max_datatypes < e->nd ||
        (e->ni > 0 && array_of_integers == nullptr) ||
        (e->na > 0 && array_of_addresses == nullptr) ||
        (e->nd > 0 && array_of_datatypes == nullptr)) {
        return world_error(MPI_ERR_ARG);
    }
    for (int i = 0; i < e->nd; i++) {
        rc = inner_handle(e->types[i], &array_of_datatypes[i]);
        if (rc == MPI_SUCCESS) continue;
        for (int k = 0; k < i; k++) {  // nothing half done: drop the copies made so far
            if (!e->types[k]->predefined) api::Type_free(&array_of_datatypes[k]);
        }
        return world_error(rc);
    }
    for (int i = 0; i < e->ni; i++) array_of_integers[i] = e->ints[i];
    for (int i = 0; i < e->na; i++) array_of_addresses[i] = e->aints[i];
    return MPI_SUCCESS;
}
