// The attribute calls (MPI 3.1 section 6.7) for communicators and datatypes, and the MPI-1
// forms (communicator keyvals). Both kinds share one path: an attribute list, the handle the
// callbacks see and the communicator whose error handler reports errors.
#include <string.h>

#include "api.hpp"
#include "attr.hpp"
#include "call.hpp"
#include "comm.hpp"
#include "env.hpp"
#include "error_class.hpp"

using namespace lwmpi;

namespace {

struct Target {
    AttrKind kind;
    int handle;
    AttrList* list;    // nullptr: the handle is not a live object of its kind
    MPI_Comm report;   // whose error handler runs
};

Target comm_target(MPI_Comm comm)
{
    Comm* c = comm_get(comm);
    return Target{AttrKind::kComm, comm, c ? &c->attrs : nullptr, comm};
}

Target type_target(MPI_Datatype type)
{
    return Target{AttrKind::kType, type, type_attrs(type), MPI_COMM_WORLD};
}

int fail_on(const Target& t, int code) { return raise_error(t.report, code); }

int invalid_object(const Target& t)
{
    return fail_on(t, t.kind == AttrKind::kComm ? MPI_ERR_COMM : MPI_ERR_TYPE);
}

int create_keyval(AttrKind kind, AttrCopyFn* copy, AttrDeleteFn* erase, int* keyval,
                  void* extra_state)
{
    int err = keyval ? keyval_create(kind, copy, erase, extra_state, keyval) : MPI_ERR_ARG;
    return world_error(err);
}

int free_keyval(AttrKind kind, int* keyval)
{
    return world_error(keyval_free(kind, keyval));
}

// The checks every attribute call starts with: a live object, then a program's keyval of
// the object's kind (predefined keys are read-only, so they fail here too).
int enter(const Target& t, int keyval, Keyval** k)
{
    if (!t.list)
        return invalid_object(t);
    *k = keyval_get(t.kind, keyval);
    return *k ? MPI_SUCCESS : fail_on(t, MPI_ERR_KEYVAL);
}

int set_attr(const Target& t, int keyval, void* value)
{
    Keyval* k;
    int err = enter(t, keyval, &k);
    if (err != MPI_SUCCESS)
        return err;
    // A predefined type's first attribute makes the rank's lists of them.
    AttrList* list = t.kind == AttrKind::kType ? type_attrs_for_set(t.handle) : t.list;
    return fail_on(t, list ? attr_set(*list, t.handle, k, value) : MPI_ERR_NO_MEM);
}

int get_attr(const Target& t, int keyval, void* attribute_val, int* flag)
{
    Keyval* k;
    int err = enter(t, keyval, &k);
    if (err != MPI_SUCCESS)
        return err;
    if (!attribute_val || !flag)
        return fail_on(t, MPI_ERR_ARG);
    void* value = nullptr;
    *flag = attr_get(*t.list, k, &value);
    if (*flag)
        memcpy(attribute_val, &value, sizeof value);  // attribute_val is a void** as void*
    return MPI_SUCCESS;
}

int delete_attr(const Target& t, int keyval)
{
    Keyval* k;
    int err = enter(t, keyval, &k);
    return err != MPI_SUCCESS ? err : fail_on(t, attr_delete(*t.list, t.handle, k));
}

}  // namespace

int api::Comm_create_keyval(MPI_Comm_copy_attr_function* copy, MPI_Comm_delete_attr_function* erase,
                            int* keyval, void* extra_state)
{
    return create_keyval(AttrKind::kComm, copy, erase, keyval, extra_state);
}

int api::Comm_free_keyval(int* keyval) { return free_keyval(AttrKind::kComm, keyval); }

int api::Comm_set_attr(MPI_Comm comm, int keyval, void* value)
{
    return set_attr(comm_target(comm), keyval, value);
}

int api::Comm_get_attr(MPI_Comm comm, int keyval, void* attribute_val, int* flag)
{
    const int* predefined = predefined_attr(keyval);
    if (!predefined)
        return get_attr(comm_target(comm), keyval, attribute_val, flag);
    if (!comm_get(comm))
        return raise_error(comm, MPI_ERR_COMM);
    if (!attribute_val || !flag)
        return raise_error(comm, MPI_ERR_ARG);
    // The predefined attributes are cached on MPI_COMM_WORLD only (MPI 3.1, 8.1.2).
    *flag = comm == MPI_COMM_WORLD;
    if (*flag)
        memcpy(attribute_val, &predefined, sizeof predefined);  // an int** as void*
    return MPI_SUCCESS;
}

int api::Comm_delete_attr(MPI_Comm comm, int keyval)
{
    return delete_attr(comm_target(comm), keyval);
}

int api::Type_create_keyval(MPI_Type_copy_attr_function* copy, MPI_Type_delete_attr_function* erase,
                            int* keyval, void* extra_state)
{
    return create_keyval(AttrKind::kType, copy, erase, keyval, extra_state);
}

int api::Type_free_keyval(int* keyval) { return free_keyval(AttrKind::kType, keyval); }

int api::Type_set_attr(MPI_Datatype type, int keyval, void* value)
{
    return set_attr(type_target(type), keyval, value);
}

int api::Type_get_attr(MPI_Datatype type, int keyval, void* attribute_val, int* flag)
{
    return get_attr(type_target(type), keyval, attribute_val, flag);
}

int api::Type_delete_attr(MPI_Datatype type, int keyval)
{
    return delete_attr(type_target(type), keyval);
}

// The MPI-1 forms: the same calls on communicator keyvals (MPI 3.1 section 15.2).
int api::Keyval_create(MPI_Copy_function* copy, MPI_Delete_function* erase, int* keyval,
                       void* extra_state)
{
    return create_keyval(AttrKind::kComm, copy, erase, keyval, extra_state);
}

int api::Keyval_free(int* keyval) { return free_keyval(AttrKind::kComm, keyval); }

int api::Attr_put(MPI_Comm comm, int keyval, void* value)
{
    return api::Comm_set_attr(comm, keyval, value);
}

int api::Attr_get(MPI_Comm comm, int keyval, void* attribute_val, int* flag)
{
    return api::Comm_get_attr(comm, keyval, attribute_val, flag);
}

int api::Attr_delete(MPI_Comm comm, int keyval) { return api::Comm_delete_attr(comm, keyval); }
