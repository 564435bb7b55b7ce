// Datatype queries for libmpi (size, extent, contiguity, elements) and the MPI calls that
// read or manage a type: size, extent, commit, free, dup, names, addresses, Get_elements.
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "api.hpp"
#include "libmpi/attr.hpp"
#include "libmpi/datatype.hpp"
#include "libmpi/datatype_objects.hpp"
#include "libmpi/datatype_walk.hpp"
#include "libmpi/error_class.hpp"
#include "libmpi/handles.hpp"
#include "libmpi/rank_context.hpp"

namespace lwmpi {
namespace {

const TypeLayout& layout(MPI_Datatype type) { return type_node(type)->layout; }

// Consumes a budget of bytes leaf by leaf, counting basic elements; stops inside a leaf.
struct ElementCounter {
    MPI_Aint bytes_left;
    MPI_Count elements = 0;

    bool operator()(const PredefinedType& leaf, MPI_Aint, MPI_Aint n) {
        const MPI_Aint size = leaf.node.layout.size;
        const MPI_Aint whole = bytes_left / size < n ? bytes_left / size : n;
        elements += whole * leaf.node.layout.basic_count;
        bytes_left -= whole * size;
        if (whole == n) return bytes_left > 0;
        for (int p = 0; p < leaf.parts && bytes_left >= leaf.part_bytes[p]; p++) {
            elements++;
            bytes_left -= leaf.part_bytes[p];
        }
        return false;
    }
};

int check_name_args(const void* name, const void* resultlen) {
    return name == nullptr || resultlen == nullptr ? MPI_ERR_ARG : MPI_SUCCESS;
}

}  // namespace

namespace {
// The node of a type the program may use, else nullptr (see type_check).
const TypeNode* usable_node(MPI_Datatype type, bool need_committed) {
    if (is_predefined(type, LWMPI_KIND_DATATYPE)) return type_node(type);
    const DerivedType* derived = derived_type(type);
    return derived == nullptr || (need_committed && !derived->committed) ? nullptr : &derived->node;
}
}  // namespace

int type_check(MPI_Datatype type, bool need_committed) {
    return usable_node(type, need_committed) != nullptr ? MPI_SUCCESS : MPI_ERR_TYPE;
}

MPI_Aint type_size(MPI_Datatype type) { return layout(type).size; }
MPI_Aint type_extent(MPI_Datatype type) { return layout(type).extent(); }
MPI_Aint type_lb(MPI_Datatype type) { return layout(type).lb; }
MPI_Aint type_true_lb(MPI_Datatype type) { return layout(type).true_lb; }
MPI_Aint type_true_extent(MPI_Datatype type) { return layout(type).true_ub - layout(type).true_lb; }

namespace {
bool is_contiguous(const TypeLayout& l) { return l.tiles() && l.true_lb == l.lb; }
}  // namespace

bool type_is_contiguous(MPI_Datatype type) { return is_contiguous(layout(type)); }

namespace {
TypeSpan span_of(const TypeLayout& l) { return TypeSpan{l.size, l.lb, is_contiguous(l)}; }
}  // namespace

TypeSpan type_span(MPI_Datatype type) { return span_of(layout(type)); }

bool type_span_checked(MPI_Datatype type, TypeSpan* out) {
    const TypeNode* node = usable_node(type, true);
    if (node == nullptr) return false;
    *out = span_of(node->layout);
    return true;
}

int type_elements(MPI_Datatype type, size_t bytes, MPI_Count* elements) {
    const TypeNode* node = type_node(type);
    const MPI_Aint size = node->layout.size;
    if (size == 0) {
        *elements = 0;
        return MPI_SUCCESS;
    }
    const MPI_Aint whole = static_cast<MPI_Aint>(bytes) / size;
    ElementCounter counter{static_cast<MPI_Aint>(bytes) % size};
    if (counter.bytes_left > 0) walk_leaves(node, 0, 1, counter);
    *elements = counter.bytes_left == 0 ? whole * node->layout.basic_count + counter.elements
                                        : MPI_UNDEFINED;
    return MPI_SUCCESS;
}

void datatype_finalize() {
    type_destroy_all();
    char**& names = rank_context().type_names;
    for (int i = 0; names && i < LWMPI_PREDEFINED_TYPE_COUNT; i++) free(names[i]);
    free(names);
    names = nullptr;
}

bool type_basic(MPI_Datatype type, MPI_Datatype* basic, int* per_element) {
    const TypeNode* node = type_node(type);
    const TypeNode* leaf = single_leaf(node);
    if (leaf == nullptr || !leaf->layout.tiles() || leaf->layout.size == 0) return false;
    const MPI_Aint per = node->layout.size / leaf->layout.size;
    if (per > INT_MAX) return false;
    *basic = predefined_handle(leaf);
    *per_element = static_cast<int>(per);
    return true;
}

namespace {

// Checks the arguments of MPI_Get_elements(_x) (`out` is the caller's result pointer) and
// counts the basic elements of the status' byte count.
int status_elements(const MPI_Status* status, MPI_Datatype datatype, const void* out,
                    MPI_Count* elements) {
    const int rc = type_check(datatype, false);
    if (rc != MPI_SUCCESS) return rc;
    if (status == nullptr || status == MPI_STATUS_IGNORE || out == nullptr) return MPI_ERR_ARG;
    if (status->lwmpi_count < 0) return MPI_ERR_ARG;
    return type_elements(datatype, static_cast<size_t>(status->lwmpi_count), elements);
}

}  // namespace
}  // namespace lwmpi

using namespace lwmpi;

int api::Type_size_x(MPI_Datatype datatype, MPI_Count* size) {
    int rc = type_check(datatype, false);
    if (rc == MPI_SUCCESS && size == nullptr) rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS) return world_error(rc);
    *size = type_size(datatype);
    return MPI_SUCCESS;
}

int api::Type_size(MPI_Datatype datatype, int* size) {
    int rc = type_check(datatype, false);
    if (rc == MPI_SUCCESS && size == nullptr) rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS) return world_error(rc);
    const MPI_Aint bytes = type_size(datatype);
    *size = bytes > INT_MAX ? MPI_UNDEFINED : static_cast<int>(bytes);
    return MPI_SUCCESS;
}

int api::Type_get_extent(MPI_Datatype datatype, MPI_Aint* lb, MPI_Aint* extent) {
    int rc = type_check(datatype, false);
    if (rc == MPI_SUCCESS && (lb == nullptr || extent == nullptr)) rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS) return world_error(rc);
    *lb = type_lb(datatype);
    *extent = type_extent(datatype);
    return MPI_SUCCESS;
}

int api::Type_get_extent_x(MPI_Datatype datatype, MPI_Count* lb, MPI_Count* extent) {
    int rc = type_check(datatype, false);
    if (rc == MPI_SUCCESS && (lb == nullptr || extent == nullptr)) rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS) return world_error(rc);
    *lb = type_lb(datatype);
    *extent = type_extent(datatype);
    return MPI_SUCCESS;
}

int api::Type_get_true_extent(MPI_Datatype datatype, MPI_Aint* true_lb,
                                        MPI_Aint* true_extent) {
    int rc = type_check(datatype, false);
    if (rc == MPI_SUCCESS && (true_lb == nullptr || true_extent == nullptr)) rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS) return world_error(rc);
    *true_lb = type_true_lb(datatype);
    *true_extent = type_true_extent(datatype);
    return MPI_SUCCESS;
}

int api::Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count* true_lb,
                                          MPI_Count* true_extent) {
    int rc = type_check(datatype, false);
    if (rc == MPI_SUCCESS && (true_lb == nullptr || true_extent == nullptr)) rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS) return world_error(rc);
    *true_lb = type_true_lb(datatype);
    *true_extent = type_true_extent(datatype);
    return MPI_SUCCESS;
}

int api::Type_commit(MPI_Datatype* datatype) {
    if (datatype == nullptr) return world_error(MPI_ERR_ARG);
    if (type_check(*datatype, false) != MPI_SUCCESS) {
        return world_error(MPI_ERR_TYPE);
    }
    DerivedType* derived = derived_type(*datatype);
    if (derived != nullptr) derived->committed = true;  // predefined types are committed
    return MPI_SUCCESS;
}

int api::Type_free(MPI_Datatype* datatype) {
    if (datatype == nullptr) return world_error(MPI_ERR_ARG);
    DerivedType* derived = derived_type(*datatype);
    if (derived == nullptr) return world_error(MPI_ERR_TYPE);  // incl. predefined
    // A failing delete callback keeps the type (and its remaining attributes).
    const int err = attr_delete_all(derived->attrs, *datatype);
    if (err != MPI_SUCCESS) return world_error(err);
    type_free_handle(derived);
    *datatype = MPI_DATATYPE_NULL;
    return MPI_SUCCESS;
}

int api::Type_dup(MPI_Datatype oldtype, MPI_Datatype* newtype) {
    int rc = type_check(oldtype, false);
    if (rc == MPI_SUCCESS && newtype == nullptr) rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS) return world_error(rc);
    const TypeBlock whole{type_node(oldtype), 0, 1, 1, 0};
    TypeEnvelope* envelope = envelope_new(MPI_COMBINER_DUP, 0, 0, 1);
    if (envelope == nullptr) return world_error(MPI_ERR_NO_MEM);
    envelope->types[0] = whole.child;
    rc = type_create(&whole, 1, ResizedBounds{false, 0, 0}, false, envelope, newtype);
    if (rc != MPI_SUCCESS) return world_error(rc);
    // The duplicate has the same committed state (MPI 3.1 section 4.1.10).
    DerivedType* dup = derived_type(*newtype);
    dup->committed = type_check(oldtype, true) == MPI_SUCCESS;
    rc = attr_copy_all(*type_attrs(oldtype), oldtype, *newtype, &dup->attrs);
    if (rc != MPI_SUCCESS) {
        type_free_handle(dup);  // a failing copy callback leaves no new type
        *newtype = MPI_DATATYPE_NULL;
        return world_error(rc);
    }
    return MPI_SUCCESS;
}

int api::Type_set_name(MPI_Datatype datatype, const char* type_name) {
    int rc = type_check(datatype, false);
    if (rc == MPI_SUCCESS && type_name == nullptr) rc = MPI_ERR_ARG;
    if (rc != MPI_SUCCESS) return world_error(rc);
    // Longer names are truncated to MPI_MAX_OBJECT_NAME - 1 characters (section 6.8).
    size_t length = strlen(type_name);
    if (length > MPI_MAX_OBJECT_NAME - 1) length = MPI_MAX_OBJECT_NAME - 1;
    DerivedType* derived = derived_type(datatype);
    char**& names = rank_context().type_names;  // made when the rank first names a predefined type
    if (derived == nullptr && names == nullptr) {
        names = static_cast<char**>(calloc(LWMPI_PREDEFINED_TYPE_COUNT, sizeof(char*)));
        if (names == nullptr) return world_error(MPI_ERR_NO_MEM);
    }
    char* copy = static_cast<char*>(malloc(length + 1));
    if (copy == nullptr) return world_error(MPI_ERR_NO_MEM);
    memcpy(copy, type_name, length);
    copy[length] = '\0';
    char** slot = derived != nullptr ? &derived->name : &names[LWMPI_HANDLE_INDEX(datatype)];
    free(*slot);
    *slot = copy;
    return MPI_SUCCESS;
}

int api::Type_get_name(MPI_Datatype datatype, char* type_name, int* resultlen) {
    int rc = type_check(datatype, false);
    if (rc == MPI_SUCCESS) rc = check_name_args(type_name, resultlen);
    if (rc != MPI_SUCCESS) return world_error(rc);
    const DerivedType* derived = derived_type(datatype);
    const char* name;
    if (derived != nullptr) {
        name = derived->name != nullptr ? derived->name : "";
    } else {
        const int index = LWMPI_HANDLE_INDEX(datatype);
        char** names = rank_context().type_names;
        name = names != nullptr && names[index] != nullptr ? names[index]
                                                           : predefined_types[index].name;
    }
    const size_t length = strlen(name);
    memcpy(type_name, name, length + 1);
    *resultlen = static_cast<int>(length);
    return MPI_SUCCESS;
}

int api::Get_address(const void* location, MPI_Aint* address) {
    if (address == nullptr) return world_error(MPI_ERR_ARG);
    *address = static_cast<MPI_Aint>(reinterpret_cast<uintptr_t>(location));
    return MPI_SUCCESS;
}

MPI_Aint api::Aint_add(MPI_Aint base, MPI_Aint disp) {
    return static_cast<MPI_Aint>(static_cast<uint64_t>(base) + static_cast<uint64_t>(disp));
}

MPI_Aint api::Aint_diff(MPI_Aint addr1, MPI_Aint addr2) {
    return static_cast<MPI_Aint>(static_cast<uint64_t>(addr1) - static_cast<uint64_t>(addr2));
}

int api::Get_elements_x(const MPI_Status* status, MPI_Datatype datatype,
                                  MPI_Count* count) {
    const int rc = status_elements(status, datatype, count, count);
    return rc == MPI_SUCCESS ? rc : world_error(rc);
}

int api::Get_elements(const MPI_Status* status, MPI_Datatype datatype, int* count) {
    MPI_Count elements = 0;
    const int rc = status_elements(status, datatype, count, &elements);
    if (rc != MPI_SUCCESS) return world_error(rc);
    *count = elements > INT_MAX ? MPI_UNDEFINED : static_cast<int>(elements);
    return MPI_SUCCESS;
}
