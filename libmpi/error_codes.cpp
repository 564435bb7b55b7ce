// Added error classes and codes (see error_codes.hpp) and MPI_Add_error_class / _code /
// _string. Added values follow MPI_ERR_LASTCODE in one numbering: a class is also a code (of
// itself), as MPI 3.1 section 8.5 requires.
#include "error_codes.hpp"

#include <stdlib.h>
#include <string.h>

#include "api.hpp"
#include "error_class.hpp"
#include "rank_context.hpp"

namespace lwmpi {

struct AddedCode {
    int error_class;
    char* text;  // nullptr until MPI_Add_error_string
};

struct ErrorCodes {
    int count;
    int capacity;
    int last_used;  // MPI_LASTUSEDCODE, read by address
    AddedCode* codes;  // codes[i] is MPI_ERR_LASTCODE + 1 + i
};

namespace {

// The calling rank's table; nullptr when out of memory.
ErrorCodes* table()
{
    ErrorCodes*& t = rank_context().error_codes;
    if (!t) {
        t = static_cast<ErrorCodes*>(calloc(1, sizeof(ErrorCodes)));
        if (t)
            t->last_used = MPI_ERR_LASTCODE;
    }
    return t;
}

AddedCode* added(int code)
{
    ErrorCodes* t = rank_context().error_codes;
    const int i = code - (MPI_ERR_LASTCODE + 1);
    return t && i >= 0 && i < t->count ? &t->codes[i] : nullptr;
}

bool is_class(int value)
{
    if (error_class_string(value))
        return true;
    AddedCode* a = added(value);
    return a && a->error_class == value;
}

// A new code of `error_class` (a new class when it is -1); -1 when out of memory.
int add_code(int error_class)
{
    ErrorCodes* t = table();
    if (!t)
        return -1;
    if (t->count == t->capacity) {
        const int capacity = t->capacity ? 2 * t->capacity : 8;
        void* grown = realloc(t->codes, sizeof(AddedCode) * static_cast<size_t>(capacity));
        if (!grown)
            return -1;
        t->codes = static_cast<AddedCode*>(grown);
        t->capacity = capacity;
    }
    const int code = MPI_ERR_LASTCODE + 1 + t->count;
    t->codes[t->count++] = AddedCode{error_class < 0 ? code : error_class, nullptr};
    t->last_used = code;
    return code;
}

}  // namespace

const char* error_code_string(int code)
{
    if (const char* text = error_class_string(code))
        return text;
    AddedCode* a = added(code);
    return a ? (a->text ? a->text : "") : nullptr;
}

int error_code_class(int code)
{
    if (error_class_string(code))
        return code;
    AddedCode* a = added(code);
    return a ? a->error_class : -1;
}

const int* error_last_used_code()
{
    static const int predefined_only = MPI_ERR_LASTCODE;  // when no table can be had
    ErrorCodes* t = table();
    return t ? &t->last_used : &predefined_only;
}

void error_codes_finalize()
{
    ErrorCodes*& t = rank_context().error_codes;
    if (!t)
        return;
    for (int i = 0; i < t->count; i++)
        free(t->codes[i].text);
    free(t->codes);
    free(t);
    t = nullptr;
}

}  // namespace lwmpi

using namespace lwmpi;

int api::Add_error_class(int* errorclass)
{
    if (!errorclass)
        return world_error(MPI_ERR_ARG);
    const int code = add_code(-1);
    if (code < 0)
        return world_error(MPI_ERR_NO_MEM);
    *errorclass = code;
    return MPI_SUCCESS;
}

int api::Add_error_code(int errorclass, int* errorcode)
{
    if (!errorcode || !is_class(errorclass))
        return world_error(MPI_ERR_ARG);
    const int code = add_code(errorclass);
    if (code < 0)
        return world_error(MPI_ERR_NO_MEM);
    *errorcode = code;
    return MPI_SUCCESS;
}

int api::Add_error_string(int errorcode, const char* string)
{
    // Predefined codes keep their strings (MPI 3.1 section 8.5: erroneous to change them).
    AddedCode* a = added(errorcode);
    if (!a || !string)
        return world_error(MPI_ERR_ARG);
    size_t length = 0;
    while (length < MPI_MAX_ERROR_STRING && string[length] != '\0')
        length++;
    if (length == MPI_MAX_ERROR_STRING)  // no room for it in MPI_Error_string's buffer
        return world_error(MPI_ERR_ARG);
    char* text = static_cast<char*>(malloc(length + 1));
    if (!text)
        return world_error(MPI_ERR_NO_MEM);
    memcpy(text, string, length + 1);
    free(a->text);  // a new string replaces the old one
    a->text = text;
    return MPI_SUCCESS;
}
