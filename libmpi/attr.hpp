// Attribute caching (MPI 3.1 section 6.7): keyvals and the attribute lists that communicators
// and datatypes carry. Keyvals and attributes are per rank, like every other handle.
#pragma once
#include <mpi.h>

namespace lwmpi {

// What a keyval may be attached to. The MPI-1 calls (MPI_Keyval_create, MPI_Attr_*) make
// and use communicator keyvals.
enum class AttrKind { kComm, kType };

// The communicator, datatype and MPI-1 callbacks have one signature: handles are ints.
using AttrCopyFn = MPI_Comm_copy_attr_function;
using AttrDeleteFn = MPI_Comm_delete_attr_function;

// A keyval lives while its handle or any attribute set with it does (MPI_Comm_free_keyval
// leaves the attributes working).
struct Keyval {
    AttrKind kind;
    AttrCopyFn* copy;
    AttrDeleteFn* erase;
    void* extra_state;
    int refs;        // the program's keyval plus every attribute set with it
    int index;       // in the rank's keyval table
    bool freed;      // the program's keyval is gone
};

struct Attr {
    Attr* next;
    Keyval* keyval;
    void* value;
    bool deleting;   // its delete callback is running: a nested delete of it does nothing
};

// Newest first: deleting from the head undoes the sets in reverse order, which MPI 3.1
// section 8.7.1 asks for MPI_COMM_SELF at MPI_Finalize. All zero is the empty list.
struct AttrList {
    Attr* head;
};

// The program's name of a keyval.
int keyval_handle_of(const Keyval& k);
// New keyval of `kind`: MPI_SUCCESS or MPI_ERR_NO_MEM.
int keyval_create(AttrKind kind, AttrCopyFn* copy, AttrDeleteFn* erase, void* extra_state,
                  int* keyval);
// The live keyval of `kind` behind a program's keyval, else nullptr.
Keyval* keyval_get(AttrKind kind, int keyval);
// MPI_Comm_free_keyval and friends: MPI_ERR_KEYVAL for an unknown or predefined keyval.
int keyval_free(AttrKind kind, int* keyval);
// MPI_Finalize: drops the program's keyvals (attributes still set keep theirs).
void keyval_finalize();

// Sets (or replaces, running the delete callback on the old value first) an attribute of the
// object `handle`. The callback's error leaves the old value and is returned.
int attr_set(AttrList& list, int handle, Keyval* keyval, void* value);
// The value of an attribute, or false when it is not set.
bool attr_get(const AttrList& list, const Keyval* keyval, void** value);
// Runs the delete callback and removes the attribute (nothing to do when it is not set).
int attr_delete(AttrList& list, int handle, Keyval* keyval);
// Deletes every attribute, newest first, stopping at (and returning) a callback's error.
int attr_delete_all(AttrList& list, int handle);
// Runs the copy callbacks of `from` (attributes of `old_handle`) into the empty list `to`
// (of `new_handle`), keeping their order. On a callback's error or MPI_ERR_NO_MEM, the
// attributes already copied are deleted again and the error is returned.
int attr_copy_all(const AttrList& from, int old_handle, int new_handle, AttrList* to);
// Forgets every attribute without callbacks (the object itself is going away).
void attr_clear(AttrList& list);

// The attribute list of a datatype (derived, or this rank's list of a predefined type),
// else nullptr. The predefined types' lists are made when the rank first sets one of their
// attributes: until then they read as an empty list, never written.
AttrList* type_attrs(MPI_Datatype type);
// The list to set an attribute of the valid type `type` in, making the rank's lists of the
// predefined types if needed; nullptr when there is no memory for them.
AttrList* type_attrs_for_set(MPI_Datatype type);
// MPI_Finalize: forgets the attributes of the predefined datatypes and the keyvals.
void attr_finalize();

}  // namespace lwmpi
