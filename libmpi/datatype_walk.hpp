// Walking a type map in order. Two views of the same walk:
//  - runs of bytes (pack, unpack): dense parts collapse into one run, adjacent runs merge;
//  - runs of predefined leaves (reductions, element counts): n consecutive values of one
//    predefined type.
// A sink returns false to stop the walk early (a window or a byte budget is exhausted).
#pragma once
#include <mpi.h>
#include <stdint.h>

#include "libmpi/datatype_node.hpp"

namespace lwmpi {

// buf + offset, also for MPI_BOTTOM (a null base with absolute offsets).
inline char* byte_at(const void* buf, MPI_Aint offset) {
    return reinterpret_cast<char*>(reinterpret_cast<uintptr_t>(buf) + static_cast<uintptr_t>(offset));
}

// Sink: bool operator()(MPI_Aint offset, MPI_Aint bytes).
template <typename Sink>
class ByteRunWalker {
public:
    explicit ByteRunWalker(Sink& sink) : sink_(sink) {}

    // Walks `count` elements starting at offset `origin`; false if the sink stopped it.
    bool walk(const TypeNode* type, MPI_Aint origin, MPI_Aint count) {
        return elements(type, origin, count) && flush();
    }

private:
    bool elements(const TypeNode* type, MPI_Aint origin, MPI_Aint count) {
        const TypeLayout& layout = type->layout;
        if (layout.size == 0 || count <= 0) return true;
        if (layout.tiles()) return run(origin + layout.true_lb, count * layout.size);
        const MPI_Aint extent = layout.extent();
        for (MPI_Aint i = 0; i < count; i++) {
            if (!element(type, origin + i * extent)) return false;
        }
        return true;
    }

    bool element(const TypeNode* type, MPI_Aint at) {
        const TypeLayout& layout = type->layout;
        if (layout.dense) return run(at + layout.true_lb, layout.size);
        if (type->predefined) {
            const PredefinedType& leaf = as_predefined(type);
            for (int p = 0; p < leaf.parts; p++) {
                if (!run(at + leaf.part_offset[p], leaf.part_bytes[p])) return false;
            }
            return true;
        }
        for (int i = 0; i < type->block_count; i++) {
            const TypeBlock& b = type->blocks[i];
            for (MPI_Aint r = 0; r < b.repeat; r++) {
                if (!elements(b.child, at + b.disp + r * b.stride, b.blocklength)) return false;
            }
        }
        return true;
    }

    bool run(MPI_Aint offset, MPI_Aint bytes) {
        if (bytes == 0) return true;
        if (pending_bytes_ > 0 && pending_offset_ + pending_bytes_ == offset) {
            pending_bytes_ += bytes;
            return true;
        }
        if (!flush()) return false;
        pending_offset_ = offset;
        pending_bytes_ = bytes;
        return true;
    }

    bool flush() {
        if (pending_bytes_ == 0) return true;
        const MPI_Aint bytes = pending_bytes_;
        pending_bytes_ = 0;
        return sink_(pending_offset_, bytes);
    }

    Sink& sink_;
    MPI_Aint pending_offset_ = 0;
    MPI_Aint pending_bytes_ = 0;
};

// Sink: bool operator()(const PredefinedType& leaf, MPI_Aint offset, MPI_Aint n), the n values
// being leaf-extent apart.
template <typename Sink>
bool walk_leaves(const TypeNode* type, MPI_Aint origin, MPI_Aint count, Sink& sink) {
    const TypeLayout& layout = type->layout;
    if (layout.size == 0 || count <= 0) return true;
    if (type->predefined) return sink(as_predefined(type), origin, count);
    const TypeNode* single = layout.single;
    if (single != nullptr && layout.tiles() && single->layout.tiles()) {
        return sink(as_predefined(single), origin + layout.true_lb,
                    count * (layout.size / single->layout.size));
    }
    const MPI_Aint extent = layout.extent();
    for (MPI_Aint i = 0; i < count; i++) {
        for (int k = 0; k < type->block_count; k++) {
            const TypeBlock& b = type->blocks[k];
            for (MPI_Aint r = 0; r < b.repeat; r++) {
                const MPI_Aint at = origin + i * extent + b.disp + r * b.stride;
                if (!walk_leaves(b.child, at, b.blocklength, sink)) return false;
            }
        }
    }
    return true;
}

}  // namespace lwmpi
