// Reduction operations: predefined ones apply the per-type tables of reduce_ops.hpp leaf by
// leaf; user ones (MPI_Op_create) live in a per-rank table.
#include "api.hpp"
#include "libmpi/op.hpp"

#include <stdlib.h>

#include "libmpi/datatype.hpp"
#include "libmpi/datatype_objects.hpp"
#include "libmpi/datatype_walk.hpp"
#include "libmpi/error_class.hpp"
#include "libmpi/handles.hpp"
#include "libmpi/rank_context.hpp"

namespace lwmpi {

struct UserOp {
    MPI_User_function* function;
    bool commute;
};

namespace {

// Index of a valid predefined op, else 0.
int predefined_op_index(MPI_Op op) {
    if (!is_predefined(op, LWMPI_KIND_OP)) return 0;
    const int index = handle_index(op);
    return index > 0 && index < LWMPI_PREDEFINED_OP_COUNT ? index : 0;
}

UserOp* user_op(MPI_Op op) {
    return is_user(op, LWMPI_KIND_OP) ? rank_context().user_ops.get(handle_index(op)) : nullptr;
}

struct AllowedCheck {
    int op_index;
    bool allowed = true;
    bool operator()(const PredefinedType& leaf, MPI_Aint, MPI_Aint) {
        allowed = leaf.reduce.fn[op_index] != nullptr;
        return allowed;
    }
};

struct Combine {
    int op_index;
    const void* in;
    void* inout;
    bool operator()(const PredefinedType& leaf, MPI_Aint offset, MPI_Aint n) {
        leaf.reduce.fn[op_index](byte_at(in, offset), byte_at(inout, offset), n);
        return true;
    }
};

}  // namespace

bool op_valid(MPI_Op op) { return predefined_op_index(op) != 0 || user_op(op) != nullptr; }

int op_check(MPI_Op op, MPI_Datatype type) {
    if (!op_valid(op)) return MPI_ERR_OP;
    const int index = predefined_op_index(op);
    if (type_check(type, true) != MPI_SUCCESS) return MPI_ERR_TYPE;
    if (index == 0) return MPI_SUCCESS;  // user functions take any type
    AllowedCheck check{index};
    walk_leaves(type_node(type), 0, 1, check);
    return check.allowed ? MPI_SUCCESS : MPI_ERR_OP;
}

int op_apply(MPI_Op op, const void* in, void* inout, int count, MPI_Datatype type) {
    const int index = predefined_op_index(op);
    if (index != 0) {
        Combine combine{index, in, inout};
        walk_leaves(type_node(type), 0, count, combine);
        return MPI_SUCCESS;
    }
    UserOp* user = user_op(op);
    if (user == nullptr) return MPI_ERR_OP;
    user->function(const_cast<void*>(in), inout, &count, &type);
    return MPI_SUCCESS;
}

bool op_commutative(MPI_Op op) {
    if (op == MPI_REPLACE || op == MPI_NO_OP) return false;  // they keep one operand
    if (predefined_op_index(op) != 0) return true;
    UserOp* user = user_op(op);
    return user != nullptr && user->commute;
}

void op_finalize() {
    HandleTable<UserOp>& user_ops = rank_context().user_ops;
    for (int i = 0; i < user_ops.limit(); i++) free(user_ops.remove(i));
    user_ops.clear();
}

}  // namespace lwmpi

using namespace lwmpi;

int api::Op_create(MPI_User_function* user_fn, int commute, MPI_Op* op) {
    if (user_fn == nullptr || op == nullptr) return world_error(MPI_ERR_ARG);
    UserOp* user = static_cast<UserOp*>(malloc(sizeof(UserOp)));
    if (user == nullptr) return world_error(MPI_ERR_NO_MEM);
    *user = UserOp{user_fn, commute != 0};
    const int index = rank_context().user_ops.add(user);
    if (index < 0) {
        free(user);
        return world_error(MPI_ERR_NO_MEM);
    }
    *op = user_handle(LWMPI_KIND_OP, index);
    return MPI_SUCCESS;
}

int api::Op_free(MPI_Op* op) {
    if (op == nullptr) return world_error(MPI_ERR_ARG);
    if (user_op(*op) == nullptr) return world_error(MPI_ERR_OP);  // incl. predefined
    free(rank_context().user_ops.remove(handle_index(*op)));
    *op = MPI_OP_NULL;
    return MPI_SUCCESS;
}

int api::Op_commutative(MPI_Op op, int* commute) {
    if (predefined_op_index(op) == 0 && user_op(op) == nullptr) {
        return world_error(MPI_ERR_OP);
    }
    if (commute == nullptr) return world_error(MPI_ERR_ARG);
    *commute = op_commutative(op) ? 1 : 0;
    return MPI_SUCCESS;
}
