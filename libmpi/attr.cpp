// Keyvals and attribute lists (see attr.hpp), and the predefined callbacks.
#include "attr.hpp"

#include <stdlib.h>
#include <string.h>

#include "datatype_objects.hpp"
#include "handles.hpp"
#include "rank_context.hpp"

namespace lwmpi {

namespace {

void keyval_release(Keyval* k)
{
    if (--k->refs > 0)
        return;
    rank_context().keyvals.remove(k->index);
    free(k);
}

Attr** find(AttrList& list, const Keyval* keyval)
{
    Attr** at = &list.head;
    while (*at && (*at)->keyval != keyval)
        at = &(*at)->next;
    return at;
}

// Unlinks and frees one attribute (its callback already ran).
void unlink(Attr** at)
{
    Attr* a = *at;
    *at = a->next;
    keyval_release(a->keyval);
    free(a);
}

int run_delete(const Attr& a, int handle)
{
    const Keyval& k = *a.keyval;
    return k.erase ? k.erase(handle, keyval_handle_of(k), a.value, k.extra_state) : MPI_SUCCESS;
}

// Where `a` is linked now. A callback may set or delete other attributes of the same object
// (libraries keep such links between objects), so a position found before it ran is stale.
Attr** locate(AttrList& list, const Attr* a)
{
    Attr** at = &list.head;
    while (*at && *at != a)
        at = &(*at)->next;
    return at;
}

// Runs the delete callback of `a`, then unlinks it (unless the callback failed). Callbacks
// that delete each other's attributes end: a nested delete of `a` finds it already going.
int delete_one(AttrList& list, Attr* a, int handle)
{
    if (a->deleting)
        return MPI_SUCCESS;
    a->deleting = true;
    int err = run_delete(*a, handle);
    Attr** at = locate(list, a);
    if (*at && err == MPI_SUCCESS)
        unlink(at);
    else if (*at)
        a->deleting = false;
    return err;
}

}  // namespace

int keyval_handle_of(const Keyval& k) { return user_handle(LWMPI_KIND_KEYVAL, k.index); }

int keyval_create(AttrKind kind, AttrCopyFn* copy, AttrDeleteFn* erase, void* extra_state,
                  int* keyval)
{
    Keyval* k = static_cast<Keyval*>(malloc(sizeof(Keyval)));
    int index = k ? rank_context().keyvals.add(k) : -1;
    if (index < 0) {
        free(k);
        return MPI_ERR_NO_MEM;
    }
    *k = Keyval{kind, copy, erase, extra_state, 1, index, false};
    *keyval = keyval_handle_of(*k);
    return MPI_SUCCESS;
}

Keyval* keyval_get(AttrKind kind, int keyval)
{
    if (!is_user(keyval, LWMPI_KIND_KEYVAL))
        return nullptr;
    Keyval* k = rank_context().keyvals.get(handle_index(keyval));
    return k && !k->freed && k->kind == kind ? k : nullptr;
}

int keyval_free(AttrKind kind, int* keyval)
{
    if (!keyval)
        return MPI_ERR_ARG;
    Keyval* k = keyval_get(kind, *keyval);
    if (!k)
        return MPI_ERR_KEYVAL;
    k->freed = true;
    keyval_release(k);
    *keyval = MPI_KEYVAL_INVALID;
    return MPI_SUCCESS;
}

void keyval_finalize()
{
    HandleTable<Keyval>& table = rank_context().keyvals;
    for (int i = table.limit() - 1; i >= 0; i--) {
        Keyval* k = table.get(i);
        if (k && !k->freed) {
            k->freed = true;
            keyval_release(k);
        }
    }
    table.clear();  // keyvals of attributes on objects never freed stay with those objects
}

int attr_set(AttrList& list, int handle, Keyval* keyval, void* value)
{
    if (Attr* old = *find(list, keyval)) {
        if (old->deleting)
            return MPI_ERR_KEYVAL;  // set from its own delete callback: erroneous
        old->deleting = true;
        int err = run_delete(*old, handle);
        Attr* still = *locate(list, old);
        if (still)
            still->deleting = false;
        if (err != MPI_SUCCESS)
            return err;
        if (still) {
            still->value = value;
            return MPI_SUCCESS;
        }
        // The callback deleted the attribute itself: set it anew.
    }
    Attr* a = static_cast<Attr*>(malloc(sizeof(Attr)));
    if (!a)
        return MPI_ERR_NO_MEM;
    keyval->refs++;
    *a = Attr{list.head, keyval, value, false};
    list.head = a;
    return MPI_SUCCESS;
}

bool attr_get(const AttrList& list, const Keyval* keyval, void** value)
{
    for (const Attr* a = list.head; a; a = a->next)
        if (a->keyval == keyval) {
            *value = a->value;
            return true;
        }
    return false;
}

int attr_delete(AttrList& list, int handle, Keyval* keyval)
{
    Attr* a = *find(list, keyval);
    return a ? delete_one(list, a, handle) : MPI_SUCCESS;
}

int attr_delete_all(AttrList& list, int handle)
{
    for (;;) {
        Attr* a = list.head;
        while (a && a->deleting)  // a callback up the stack is deleting it
            a = a->next;
        if (!a)
            return MPI_SUCCESS;
        int err = delete_one(list, a, handle);
        if (err != MPI_SUCCESS)
            return err;
    }
}

int attr_copy_all(const AttrList& from, int old_handle, int new_handle, AttrList* to)
{
    // `from` is newest first: append at the tail to keep that order.
    Attr** tail = &to->head;
    int err = MPI_SUCCESS;
    for (const Attr* a = from.head; a && err == MPI_SUCCESS; a = a->next) {
        const Keyval& k = *a->keyval;
        if (!k.copy)
            continue;
        void* value = nullptr;
        int flag = 0;
        err = k.copy(old_handle, keyval_handle_of(k), k.extra_state, a->value, &value, &flag);
        if (err != MPI_SUCCESS || !flag)
            continue;
        Attr* copy = static_cast<Attr*>(malloc(sizeof(Attr)));
        if (!copy) {
            // The copy callback made a value that is never stored: let its delete see it.
            Attr orphan{nullptr, a->keyval, value, false};
            run_delete(orphan, new_handle);
            err = MPI_ERR_NO_MEM;
            break;
        }
        a->keyval->refs++;
        *copy = Attr{nullptr, a->keyval, value, false};
        *tail = copy;
        tail = &copy->next;
    }
    if (err != MPI_SUCCESS) {
        // Undo what was copied; errors of these deletes cannot be reported over the first.
        attr_delete_all(*to, new_handle);
        attr_clear(*to);
    }
    return err;
}

void attr_clear(AttrList& list)
{
    while (list.head)
        unlink(&list.head);
}

namespace {

AttrList no_attrs;  // what a predefined type without attributes reads as (all ranks share it)

}  // namespace

AttrList* type_attrs(MPI_Datatype type)
{
    if (DerivedType* derived = derived_type(type))
        return &derived->attrs;
    if (!is_predefined(type, LWMPI_KIND_DATATYPE) || !type_node(type))
        return nullptr;
    AttrList* lists = rank_context().type_attrs;
    return lists ? &lists[handle_index(type)] : &no_attrs;
}

AttrList* type_attrs_for_set(MPI_Datatype type)
{
    if (DerivedType* derived = derived_type(type))
        return &derived->attrs;
    AttrList*& lists = rank_context().type_attrs;
    if (!lists)
        lists = static_cast<AttrList*>(calloc(LWMPI_PREDEFINED_TYPE_COUNT, sizeof(AttrList)));
    return lists ? &lists[handle_index(type)] : nullptr;
}

void attr_finalize()
{
    AttrList*& lists = rank_context().type_attrs;
    for (int i = 0; lists && i < LWMPI_PREDEFINED_TYPE_COUNT; i++)
        attr_clear(lists[i]);
    free(lists);
    lists = nullptr;
    keyval_finalize();
}

}  // namespace lwmpi

// The predefined callbacks (MPI 3.1 section 6.7.2): C functions without PMPI_ forms.
extern "C" int lwmpi_null_copy_fn(int, int, void*, void*, void*, int* flag)
{
    *flag = 0;
    return MPI_SUCCESS;
}

extern "C" int lwmpi_dup_fn(int, int, void*, void* attribute_val_in, void* attribute_val_out,
                            int* flag)
{
    memcpy(attribute_val_out, &attribute_val_in, sizeof attribute_val_in);  // a void** as void*
    *flag = 1;
    return MPI_SUCCESS;
}

extern "C" int lwmpi_null_delete_fn(int, int, void*, void*) { return MPI_SUCCESS; }
