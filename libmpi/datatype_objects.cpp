// Derived datatype objects: layout from blocks, lifetime by reference counts, per-rank table.
#include "libmpi/datatype_objects.hpp"

#include <stdlib.h>
#include <string.h>

#include "libmpi/handles.hpp"
#include "libmpi/rank_context.hpp"

namespace lwmpi {
namespace {

MPI_Aint min_of(MPI_Aint a, MPI_Aint b) { return a < b ? a : b; }
MPI_Aint max_of(MPI_Aint a, MPI_Aint b) { return a > b ? a : b; }

DerivedType* derived_of(const TypeNode* node) {
    return reinterpret_cast<DerivedType*>(const_cast<TypeNode*>(node));
}

void retain_node(const TypeNode* node) {
    if (!node->predefined) derived_of(node)->refs++;
}

void release_node(const TypeNode* node);

void destroy(DerivedType* type) {
    rank_context().derived_types.remove(type->index);
    for (int i = 0; i < type->node.block_count; i++) release_node(type->node.blocks[i].child);
    if (type->envelope != nullptr) {
        for (int i = 0; i < type->envelope->nd; i++) release_node(type->envelope->types[i]);
    }
    envelope_free(type->envelope);
    attr_clear(type->attrs);
    free(type->name);
    free(type);
}

// Gives a filled object a handle and retains what it refers to; frees it on failure.
int publish(DerivedType* type, MPI_Datatype* out) {
    type->index = rank_context().derived_types.add(type);
    if (type->index < 0) {
        envelope_free(type->envelope);
        free(type);
        return MPI_ERR_NO_MEM;
    }
    for (int i = 0; i < type->node.block_count; i++) retain_node(type->node.blocks[i].child);
    if (type->envelope != nullptr) {
        for (int i = 0; i < type->envelope->nd; i++) retain_node(type->envelope->types[i]);
    }
    *out = user_handle(LWMPI_KIND_DATATYPE, type->index);
    return MPI_SUCCESS;
}

DerivedType* allocate(int block_count, const TypeBlock* blocks, TypeEnvelope* envelope) {
    const size_t bytes = sizeof(DerivedType) + sizeof(TypeBlock) * static_cast<size_t>(block_count);
    DerivedType* type = static_cast<DerivedType*>(malloc(bytes));
    if (type == nullptr) {
        envelope_free(envelope);
        return nullptr;
    }
    TypeBlock* own_blocks = reinterpret_cast<TypeBlock*>(type + 1);
    for (int i = 0; i < block_count; i++) own_blocks[i] = blocks[i];
    type->node.predefined = false;
    type->node.block_count = block_count;
    type->node.blocks = own_blocks;
    type->refs = 1;
    type->committed = false;
    type->freed = false;
    type->name = nullptr;
    type->envelope = envelope;
    type->attrs = AttrList{};
    return type;
}

void release_node(const TypeNode* node) {
    if (node->predefined) return;
    DerivedType* type = derived_of(node);
    if (--type->refs == 0) destroy(type);
}

bool block_has_elements(const TypeBlock& b) { return b.blocklength > 0 && b.repeat > 0; }

// Adds the extreme element positions of a block (linear in the repeat and element indices,
// so the extremes are at the corners) to running bounds.
struct Bounds {
    bool any = false;
    MPI_Aint low = 0, high = 0;
    void add(MPI_Aint low_value, MPI_Aint high_value) {
        low = any ? min_of(low, low_value) : low_value;
        high = any ? max_of(high, high_value) : high_value;
        any = true;
    }
};

void add_corners(const TypeBlock& b, MPI_Aint child_low, MPI_Aint child_high, Bounds* bounds) {
    const MPI_Aint extent = b.child->layout.extent();
    const MPI_Aint last_repeat = (b.repeat - 1) * b.stride;
    const MPI_Aint last_element = (b.blocklength - 1) * extent;
    const MPI_Aint corners[4] = {0, last_repeat, last_element, last_repeat + last_element};
    for (MPI_Aint corner : corners) {
        bounds->add(b.disp + corner + child_low, b.disp + corner + child_high);
    }
}

// Whether the data of a block is one dense run, in type-map order.
bool block_is_dense_run(const TypeBlock& b) {
    const TypeLayout& child = b.child->layout;
    if (!child.dense) return false;
    if (b.blocklength > 1 && !child.tiles()) return false;
    if (b.repeat > 1 && !(child.tiles() && b.stride == b.blocklength * child.extent())) return false;
    return true;
}

TypeLayout layout_of(const TypeBlock* blocks, int count, ResizedBounds resized, bool align) {
    TypeLayout layout{};
    Bounds bounds, true_bounds;
    bool dense = true, mixed = false;
    MPI_Aint next_data = 0;  // where the next run must start to stay dense
    bool first_data = true;
    layout.alignment = 1;
    for (int i = 0; i < count; i++) {
        const TypeBlock& b = blocks[i];
        if (!block_has_elements(b)) continue;
        const TypeLayout& child = b.child->layout;
        const MPI_Aint elements = b.blocklength * b.repeat;
        layout.size += elements * child.size;
        layout.basic_count += elements * child.basic_count;
        layout.alignment = max_of(layout.alignment, child.alignment);
        layout.sticky = layout.sticky || child.sticky;
        add_corners(b, child.lb, child.ub, &bounds);
        if (child.size == 0) continue;
        add_corners(b, child.true_lb, child.true_ub, &true_bounds);
        const TypeNode* leaf = single_leaf(b.child);
        if (leaf == nullptr || (layout.single != nullptr && layout.single != leaf)) mixed = true;
        layout.single = leaf;
        const MPI_Aint start = b.disp + child.true_lb;
        if (!block_is_dense_run(b) || (!first_data && start != next_data)) dense = false;
        next_data = start + elements * child.size;
        first_data = false;
    }
    if (mixed) layout.single = nullptr;
    layout.lb = bounds.low;
    layout.ub = bounds.high;
    layout.true_lb = true_bounds.any ? true_bounds.low : layout.lb;
    layout.true_ub = true_bounds.any ? true_bounds.high : layout.lb;
    layout.dense = dense;
    if (resized.set) {
        layout.lb = resized.lb;
        layout.ub = resized.lb + resized.extent;
        layout.sticky = true;
    } else if (align && !layout.sticky) {
        // The C compiler pads a struct to its strictest member alignment (MPI 3.1 4.1.6).
        const MPI_Aint rest = layout.extent() % layout.alignment;
        if (layout.extent() > 0 && rest != 0) layout.ub += layout.alignment - rest;
    }
    return layout;
}

}  // namespace

const TypeNode* derived_type_node(MPI_Datatype type) {
    if (!is_user(type, LWMPI_KIND_DATATYPE)) return nullptr;
    DerivedType* derived = rank_context().derived_types.get(handle_index(type));
    return derived == nullptr ? nullptr : &derived->node;
}

DerivedType* derived_type(MPI_Datatype type) {
    if (!is_user(type, LWMPI_KIND_DATATYPE)) return nullptr;
    DerivedType* derived = rank_context().derived_types.get(handle_index(type));
    return derived == nullptr || derived->freed ? nullptr : derived;
}

void append_block(TypeBlock* blocks, int* count, const TypeBlock& block) {
    if (*count > 0) {
        TypeBlock& last = blocks[*count - 1];
        const bool single_groups = last.repeat == 1 && block.repeat == 1;
        const MPI_Aint extent = block.child->layout.extent();
        if (single_groups && last.child == block.child &&
            block.disp == last.disp + last.blocklength * extent) {
            last.blocklength += block.blocklength;
            return;
        }
    }
    blocks[(*count)++] = block;
}

int type_create(const TypeBlock* blocks, int count, ResizedBounds resized, bool align,
                TypeEnvelope* envelope, MPI_Datatype* out) {
    DerivedType* type = allocate(count, blocks, envelope);
    if (type == nullptr) return MPI_ERR_NO_MEM;
    type->node.layout = layout_of(blocks, count, resized, align);
    return publish(type, out);
}

int type_clone(const TypeNode* node, MPI_Datatype* out) {
    const DerivedType* from = derived_of(node);
    TypeEnvelope* envelope = nullptr;
    if (from->envelope != nullptr) {
        envelope = envelope_copy(*from->envelope);
        if (envelope == nullptr) return MPI_ERR_NO_MEM;
    }
    DerivedType* type = allocate(node->block_count, node->blocks, envelope);
    if (type == nullptr) return MPI_ERR_NO_MEM;
    type->node.layout = node->layout;
    type->committed = from->committed;
    return publish(type, out);
}

void type_destroy_all() {
    HandleTable<DerivedType>& derived_types = rank_context().derived_types;
    for (int i = 0; i < derived_types.limit(); i++) {
        DerivedType* type = derived_types.remove(i);
        if (type == nullptr) continue;
        envelope_free(type->envelope);
        attr_clear(type->attrs);
        free(type->name);
        free(type);  // its children are in the table too: no releases needed
    }
    derived_types.clear();
}

void type_free_handle(DerivedType* type) {
    type->freed = true;
    release_node(&type->node);
}

MPI_Datatype predefined_handle(const TypeNode* leaf) {
    const int index = static_cast<int>(&as_predefined(leaf) - predefined_types);
    return LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, index);
}

void type_retain(MPI_Datatype type) {
    const TypeNode* node = type_node(type);
    if (node != nullptr) retain_node(node);
}

void type_release(MPI_Datatype type) {
    const TypeNode* node = type_node(type);
    if (node != nullptr) release_node(node);
}

}  // namespace lwmpi
