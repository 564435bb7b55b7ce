/* mpi.h: the LWMPI interface, MPI 3.1 for C (usable from C and C++).
 *
 * LWMPI ranks are threads: one program per compute cluster runs one thread per rank.
 * Globals are shared by the ranks of a cluster; _Thread_local variables are per rank.
 * Only the functions declared here exist; each follows MPI 3.1.
 *
 * Handle encoding (MPICH style: every handle is an int, predefined handles are
 * compile-time constants usable in static initialisers):
 *
 *     bits 31..28  0 (handles are positive ints)
 *     bits 27..24  kind:   1 communicator, 2 group, 3 datatype, 4 operation,
 *                          5 error handler, 6 request, 7 info, 8 message,
 *                          9 attribute key (keyval)
 *     bits 23..20  origin: 0 the kind's null handle, 1 predefined, 2 created by the program
 *     bits 19..0   index:  in the predefined table, or in the calling rank's table
 *
 * So MPI_COMM_NULL, MPI_GROUP_NULL, ... are distinct from each other and from every valid
 * handle, and a handle of the wrong kind is recognised as such (MPI_ERR_TYPE, _COMM, ...).
 * Handles of user-created objects are per rank: they mean nothing on another rank.
 */
#ifndef LWMPI_MPI_H
#define LWMPI_MPI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- version (8.1.1) */

#define MPI_VERSION    3
#define MPI_SUBVERSION 1
#define LWMPI          1

/* ---------------------------------------------------------------- handles and types */

typedef int MPI_Comm;
typedef int MPI_Group;
typedef int MPI_Datatype;
typedef int MPI_Op;
typedef int MPI_Errhandler;
typedef int MPI_Request;
typedef int MPI_Info;
typedef int MPI_Message;
/* A Fortran INTEGER (17.2.4: the handle conversions): 4 bytes, the usual Fortran ABI. */
typedef int MPI_Fint;

typedef int64_t MPI_Aint;
typedef int64_t MPI_Offset;
typedef int64_t MPI_Count;

#define LWMPI_KIND_COMM       1
#define LWMPI_KIND_GROUP      2
#define LWMPI_KIND_DATATYPE   3
#define LWMPI_KIND_OP         4
#define LWMPI_KIND_ERRHANDLER 5
#define LWMPI_KIND_REQUEST    6
#define LWMPI_KIND_INFO       7
#define LWMPI_KIND_MESSAGE    8
#define LWMPI_KIND_KEYVAL     9 /* keyvals are ints, not handles, but encoded the same way */

#define LWMPI_ORIGIN_NULL       0
#define LWMPI_ORIGIN_PREDEFINED 1
#define LWMPI_ORIGIN_USER       2

#define LWMPI_HANDLE(kind, origin, index) ((int)(((kind) << 24) | ((origin) << 20) | (index)))
#define LWMPI_HANDLE_KIND(h)   (((h) >> 24) & 0xf)
#define LWMPI_HANDLE_ORIGIN(h) (((h) >> 20) & 0xf)
#define LWMPI_HANDLE_INDEX(h)  ((h) & 0xfffff)
#define LWMPI_HANDLE_INDEX_LIMIT 0x100000

#define LWMPI_PREDEFINED(kind, index) LWMPI_HANDLE(kind, LWMPI_ORIGIN_PREDEFINED, index)

/* Status (3.2.5). The count is kept in bytes; MPI_Get_count and MPI_Get_elements convert. */
typedef struct MPI_Status {
    int MPI_SOURCE;
    int MPI_TAG;
    int MPI_ERROR;
    int lwmpi_cancelled;
    MPI_Count lwmpi_count;
} MPI_Status;

/* ---------------------------------------------------------------- error classes (8.4) */

#define MPI_SUCCESS                   0
#define MPI_ERR_BUFFER                1
#define MPI_ERR_COUNT                 2
#define MPI_ERR_TYPE                  3
#define MPI_ERR_TAG                   4
#define MPI_ERR_COMM                  5
#define MPI_ERR_RANK                  6
#define MPI_ERR_REQUEST               7
#define MPI_ERR_ROOT                  8
#define MPI_ERR_GROUP                 9
#define MPI_ERR_OP                    10
#define MPI_ERR_TOPOLOGY              11
#define MPI_ERR_DIMS                  12
#define MPI_ERR_ARG                   13
#define MPI_ERR_UNKNOWN               14
#define MPI_ERR_TRUNCATE              15
#define MPI_ERR_OTHER                 16
#define MPI_ERR_INTERN                17
#define MPI_ERR_PENDING               18
#define MPI_ERR_IN_STATUS             19
#define MPI_ERR_ACCESS                20
#define MPI_ERR_AMODE                 21
#define MPI_ERR_ASSERT                22
#define MPI_ERR_BAD_FILE              23
#define MPI_ERR_BASE                  24
#define MPI_ERR_CONVERSION            25
#define MPI_ERR_DISP                  26
#define MPI_ERR_DUP_DATAREP           27
#define MPI_ERR_FILE_EXISTS           28
#define MPI_ERR_FILE_IN_USE           29
#define MPI_ERR_FILE                  30
#define MPI_ERR_INFO_KEY              31
#define MPI_ERR_INFO_NOKEY            32
#define MPI_ERR_INFO_VALUE            33
#define MPI_ERR_INFO                  34
#define MPI_ERR_IO                    35
#define MPI_ERR_KEYVAL                36
#define MPI_ERR_LOCKTYPE              37
#define MPI_ERR_NAME                  38
#define MPI_ERR_NO_MEM                39
#define MPI_ERR_NOT_SAME              40
#define MPI_ERR_NO_SPACE              41
#define MPI_ERR_NO_SUCH_FILE          42
#define MPI_ERR_PORT                  43
#define MPI_ERR_QUOTA                 44
#define MPI_ERR_READ_ONLY             45
#define MPI_ERR_RMA_ATTACH            46
#define MPI_ERR_RMA_CONFLICT          47
#define MPI_ERR_RMA_RANGE             48
#define MPI_ERR_RMA_SHARED            49
#define MPI_ERR_RMA_SYNC              50
#define MPI_ERR_RMA_FLAVOR            51
#define MPI_ERR_SERVICE               52
#define MPI_ERR_SIZE                  53
#define MPI_ERR_SPAWN                 54
#define MPI_ERR_UNSUPPORTED_DATAREP   55
#define MPI_ERR_UNSUPPORTED_OPERATION 56
#define MPI_ERR_WIN                   57
#define MPI_ERR_LASTCODE              57

/* ---------------------------------------------------------------- special values */

#define MPI_PROC_NULL  (-1)
#define MPI_ANY_SOURCE (-2)
#define MPI_ROOT       (-3)
#define MPI_ANY_TAG    (-1)
#define MPI_UNDEFINED  (-32766)

#define MPI_BOTTOM          ((void *)0)
#define MPI_IN_PLACE        ((void *)-1)
#define MPI_STATUS_IGNORE   ((MPI_Status *)1)
#define MPI_STATUSES_IGNORE ((MPI_Status *)1)
#define MPI_ERRCODES_IGNORE ((int *)0)

/* A status as Fortran holds it (17.2.5), for MPI_Status_c2f and MPI_Status_f2c: an array of
 * MPI_STATUS_SIZE MPI_Fint, source, tag and error first, then what the C status hides. LWMPI
 * has no Fortran binding, so no Fortran program can pass its MPI_STATUS(ES)_IGNORE: these
 * stand for them, and converting one is MPI_ERR_ARG. */
#define MPI_STATUS_SIZE       6
#define MPI_F_STATUS_IGNORE   ((MPI_Fint *)0)
#define MPI_F_STATUSES_IGNORE ((MPI_Fint *)0)

#define MPI_MAX_PROCESSOR_NAME         128
#define MPI_MAX_ERROR_STRING           512
#define MPI_MAX_OBJECT_NAME            128
#define MPI_MAX_LIBRARY_VERSION_STRING 256
/* Info keys and values (9) fit, with their NUL, in buffers of these sizes: at most 254 and
 * 1023 characters, so a program may declare char key[MPI_MAX_INFO_KEY]. */
#define MPI_MAX_INFO_KEY               255
#define MPI_MAX_INFO_VAL               1024

/* Bytes of the attached buffer (MPI_Buffer_attach) a pending buffered send takes beyond
 * its packed size (3.6.1): the bookkeeping LWMPI keeps in the buffer, and alignment. */
#define MPI_BSEND_OVERHEAD 64

/* Thread support levels (12.4.3), ordered. */
#define MPI_THREAD_SINGLE     0
#define MPI_THREAD_FUNNELED   1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE   3

/* Results of MPI_Comm_compare and MPI_Group_compare. */
#define MPI_IDENT     0
#define MPI_CONGRUENT 1
#define MPI_SIMILAR   2
#define MPI_UNEQUAL   3

/* Split types of MPI_Comm_split_type: the ranks of one cluster share memory. */
#define MPI_COMM_TYPE_SHARED 1

/* Process topologies (chapter 7): MPI_Topo_test's answers, and the special weight arrays of
 * the distributed graph constructors: addresses of two library objects, distinct from every
 * program array and from NULL (real objects, so compilers see an array they may read). */
#define MPI_GRAPH      1
#define MPI_CART       2
#define MPI_DIST_GRAPH 3
extern int lwmpi_unweighted[1];
extern int lwmpi_weights_empty[1];
#define MPI_UNWEIGHTED    (lwmpi_unweighted)
#define MPI_WEIGHTS_EMPTY (lwmpi_weights_empty)

/* Predefined attribute keys of MPI_COMM_WORLD (8.1.2) for MPI_Comm_get_attr; program-created
 * keyvals (6.7) are encoded like handles of kind LWMPI_KIND_KEYVAL, so they never collide. */
#define MPI_KEYVAL_INVALID  0
#define MPI_TAG_UB          1
#define MPI_HOST            2
#define MPI_IO              3
#define MPI_WTIME_IS_GLOBAL 4
#define MPI_UNIVERSE_SIZE   5
#define MPI_APPNUM          6
#define MPI_LASTUSEDCODE    7

/* ---------------------------------------------------------------- null handles */

#define MPI_COMM_NULL       LWMPI_HANDLE(LWMPI_KIND_COMM, LWMPI_ORIGIN_NULL, 0)
#define MPI_GROUP_NULL      LWMPI_HANDLE(LWMPI_KIND_GROUP, LWMPI_ORIGIN_NULL, 0)
#define MPI_DATATYPE_NULL   LWMPI_HANDLE(LWMPI_KIND_DATATYPE, LWMPI_ORIGIN_NULL, 0)
#define MPI_OP_NULL         LWMPI_HANDLE(LWMPI_KIND_OP, LWMPI_ORIGIN_NULL, 0)
#define MPI_ERRHANDLER_NULL LWMPI_HANDLE(LWMPI_KIND_ERRHANDLER, LWMPI_ORIGIN_NULL, 0)
#define MPI_REQUEST_NULL    LWMPI_HANDLE(LWMPI_KIND_REQUEST, LWMPI_ORIGIN_NULL, 0)
#define MPI_INFO_NULL       LWMPI_HANDLE(LWMPI_KIND_INFO, LWMPI_ORIGIN_NULL, 0)
#define MPI_MESSAGE_NULL    LWMPI_HANDLE(LWMPI_KIND_MESSAGE, LWMPI_ORIGIN_NULL, 0)

/* ---------------------------------------------------------------- predefined objects */

#define MPI_COMM_WORLD  LWMPI_PREDEFINED(LWMPI_KIND_COMM, 0)
#define MPI_COMM_SELF   LWMPI_PREDEFINED(LWMPI_KIND_COMM, 1)

#define MPI_GROUP_EMPTY LWMPI_PREDEFINED(LWMPI_KIND_GROUP, 0)

#define MPI_ERRORS_ARE_FATAL LWMPI_PREDEFINED(LWMPI_KIND_ERRHANDLER, 0)
#define MPI_ERRORS_RETURN    LWMPI_PREDEFINED(LWMPI_KIND_ERRHANDLER, 1)

/* The message a matched probe of MPI_PROC_NULL returns (3.8.2). */
#define MPI_MESSAGE_NO_PROC LWMPI_PREDEFINED(LWMPI_KIND_MESSAGE, 0)
#define MPI_INFO_ENV LWMPI_PREDEFINED(LWMPI_KIND_INFO, 0) /* the rank's environment (9.4) */

/* Predefined datatypes (3.2.2, 4.1.4 pair types for MINLOC/MAXLOC); the index is the
 * row of libmpi's predefined-type table. MPI_LONG_LONG is a synonym of MPI_LONG_LONG_INT. */
#define MPI_CHAR                    LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 1)
#define MPI_SIGNED_CHAR             LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 2)
#define MPI_UNSIGNED_CHAR           LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 3)
#define MPI_BYTE                    LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 4)
#define MPI_WCHAR                   LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 5)
#define MPI_SHORT                   LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 6)
#define MPI_UNSIGNED_SHORT          LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 7)
#define MPI_INT                     LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 8)
#define MPI_UNSIGNED                LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 9)
#define MPI_LONG                    LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 10)
#define MPI_UNSIGNED_LONG           LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 11)
#define MPI_LONG_LONG_INT           LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 12)
#define MPI_LONG_LONG               MPI_LONG_LONG_INT
#define MPI_UNSIGNED_LONG_LONG      LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 13)
#define MPI_FLOAT                   LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 14)
#define MPI_DOUBLE                  LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 15)
#define MPI_LONG_DOUBLE             LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 16)
#define MPI_C_BOOL                  LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 17)
#define MPI_INT8_T                  LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 18)
#define MPI_INT16_T                 LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 19)
#define MPI_INT32_T                 LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 20)
#define MPI_INT64_T                 LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 21)
#define MPI_UINT8_T                 LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 22)
#define MPI_UINT16_T                LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 23)
#define MPI_UINT32_T                LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 24)
#define MPI_UINT64_T                LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 25)
#define MPI_AINT                    LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 26)
#define MPI_OFFSET                  LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 27)
#define MPI_COUNT                   LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 28)
#define MPI_C_COMPLEX               LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 29)
#define MPI_C_FLOAT_COMPLEX         LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 30)
#define MPI_C_DOUBLE_COMPLEX        LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 31)
#define MPI_C_LONG_DOUBLE_COMPLEX   LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 32)
#define MPI_PACKED                  LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 33)
#define MPI_FLOAT_INT               LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 34)
#define MPI_DOUBLE_INT              LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 35)
#define MPI_LONG_INT                LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 36)
#define MPI_2INT                    LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 37)
#define MPI_SHORT_INT               LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 38)
#define MPI_LONG_DOUBLE_INT         LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 39)
#define MPI_CXX_BOOL                LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 40)
#define MPI_CXX_FLOAT_COMPLEX       LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 41)
#define MPI_CXX_DOUBLE_COMPLEX      LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 42)
#define MPI_CXX_LONG_DOUBLE_COMPLEX LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 43)
/* Fortran-named types a C program may use (3.2.2, 17.2.5), with the usual Fortran ABI:
 * INTEGER, REAL and LOGICAL 4 bytes, DOUBLE PRECISION 8; MPI_2INTEGER, MPI_2REAL and
 * MPI_2DOUBLE_PRECISION are pairs of one type for MINLOC/MAXLOC (5.9.4). */
#define MPI_CHARACTER               LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 44)
#define MPI_INTEGER                 LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 45)
#define MPI_REAL                    LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 46)
#define MPI_DOUBLE_PRECISION        LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 47)
#define MPI_COMPLEX                 LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 48)
#define MPI_DOUBLE_COMPLEX          LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 49)
#define MPI_LOGICAL                 LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 50)
#define MPI_INTEGER1                LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 51)
#define MPI_INTEGER2                LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 52)
#define MPI_INTEGER4                LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 53)
#define MPI_INTEGER8                LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 54)
#define MPI_REAL4                   LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 55)
#define MPI_REAL8                   LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 56)
#define MPI_REAL16                  LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 57) /* long double */
#define MPI_COMPLEX8                LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 58)
#define MPI_COMPLEX16               LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 59)
#define MPI_COMPLEX32               LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 60)
#define MPI_2INTEGER                LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 61)
#define MPI_2REAL                   LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 62)
#define MPI_2DOUBLE_PRECISION       LWMPI_PREDEFINED(LWMPI_KIND_DATATYPE, 63)
#define LWMPI_PREDEFINED_TYPE_COUNT 64 /* rows of the table, row 0 unused */

/* Type classes of MPI_Type_match_size (17.1.9). */
#define MPI_TYPECLASS_REAL    1
#define MPI_TYPECLASS_INTEGER 2
#define MPI_TYPECLASS_COMPLEX 3

/* Combiners of MPI_Type_get_envelope (4.1.13). */
#define MPI_COMBINER_NAMED          1
#define MPI_COMBINER_DUP            2
#define MPI_COMBINER_CONTIGUOUS     3
#define MPI_COMBINER_VECTOR         4
#define MPI_COMBINER_HVECTOR        5
#define MPI_COMBINER_INDEXED        6
#define MPI_COMBINER_HINDEXED       7
#define MPI_COMBINER_INDEXED_BLOCK  8
#define MPI_COMBINER_HINDEXED_BLOCK 9
#define MPI_COMBINER_STRUCT         10
#define MPI_COMBINER_SUBARRAY       11
#define MPI_COMBINER_DARRAY         12
#define MPI_COMBINER_F90_REAL       13
#define MPI_COMBINER_F90_COMPLEX    14
#define MPI_COMBINER_F90_INTEGER    15
#define MPI_COMBINER_RESIZED        16

/* Array orders and distributions of MPI_Type_create_subarray and _darray (4.1.3, 4.1.4). */
#define MPI_ORDER_C              1
#define MPI_ORDER_FORTRAN        2
#define MPI_DISTRIBUTE_BLOCK     1
#define MPI_DISTRIBUTE_CYCLIC    2
#define MPI_DISTRIBUTE_NONE      3
#define MPI_DISTRIBUTE_DFLT_DARG (-49767)

/* Predefined reduction operations (5.9.2). */
#define MPI_MAX     LWMPI_PREDEFINED(LWMPI_KIND_OP, 1)
#define MPI_MIN     LWMPI_PREDEFINED(LWMPI_KIND_OP, 2)
#define MPI_SUM     LWMPI_PREDEFINED(LWMPI_KIND_OP, 3)
#define MPI_PROD    LWMPI_PREDEFINED(LWMPI_KIND_OP, 4)
#define MPI_LAND    LWMPI_PREDEFINED(LWMPI_KIND_OP, 5)
#define MPI_BAND    LWMPI_PREDEFINED(LWMPI_KIND_OP, 6)
#define MPI_LOR     LWMPI_PREDEFINED(LWMPI_KIND_OP, 7)
#define MPI_BOR     LWMPI_PREDEFINED(LWMPI_KIND_OP, 8)
#define MPI_LXOR    LWMPI_PREDEFINED(LWMPI_KIND_OP, 9)
#define MPI_BXOR    LWMPI_PREDEFINED(LWMPI_KIND_OP, 10)
#define MPI_MINLOC  LWMPI_PREDEFINED(LWMPI_KIND_OP, 11)
#define MPI_MAXLOC  LWMPI_PREDEFINED(LWMPI_KIND_OP, 12)
#define MPI_REPLACE LWMPI_PREDEFINED(LWMPI_KIND_OP, 13)
#define MPI_NO_OP   LWMPI_PREDEFINED(LWMPI_KIND_OP, 14)
#define LWMPI_PREDEFINED_OP_COUNT 15 /* rows of the table, row 0 unused */

/* ---------------------------------------------------------------- callback types */

typedef void MPI_User_function(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype);
typedef void MPI_Comm_errhandler_function(MPI_Comm *comm, int *error_code, ...);
typedef MPI_Comm_errhandler_function MPI_Comm_errhandler_fn; /* the MPI 2.0 spelling */

/* Attribute callbacks (6.7.2, 6.7.4). Handles are ints, so the communicator, datatype and
 * MPI-1 forms share one signature and one set of predefined callbacks. */
typedef int MPI_Comm_copy_attr_function(MPI_Comm oldcomm, int comm_keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out,
                                        int *flag);
typedef int MPI_Comm_delete_attr_function(MPI_Comm comm, int comm_keyval, void *attribute_val,
                                          void *extra_state);
typedef int MPI_Type_copy_attr_function(MPI_Datatype oldtype, int type_keyval, void *extra_state,
                                        void *attribute_val_in, void *attribute_val_out,
                                        int *flag);
typedef int MPI_Type_delete_attr_function(MPI_Datatype datatype, int type_keyval,
                                          void *attribute_val, void *extra_state);
typedef int MPI_Copy_function(MPI_Comm oldcomm, int keyval, void *extra_state,
                              void *attribute_val_in, void *attribute_val_out, int *flag);
typedef int MPI_Delete_function(MPI_Comm comm, int keyval, void *attribute_val,
                                void *extra_state);

/* The predefined callbacks: copy nothing (flag = 0), copy the value (flag = 1), delete
 * nothing. Plain functions (no PMPI_ forms), named by the standard's macros. */
int lwmpi_null_copy_fn(int oldhandle, int keyval, void *extra_state, void *attribute_val_in,
                       void *attribute_val_out, int *flag);
int lwmpi_dup_fn(int oldhandle, int keyval, void *extra_state, void *attribute_val_in,
                 void *attribute_val_out, int *flag);
int lwmpi_null_delete_fn(int handle, int keyval, void *attribute_val, void *extra_state);

#define MPI_COMM_NULL_COPY_FN   lwmpi_null_copy_fn
#define MPI_COMM_DUP_FN         lwmpi_dup_fn
#define MPI_COMM_NULL_DELETE_FN lwmpi_null_delete_fn
#define MPI_TYPE_NULL_COPY_FN   lwmpi_null_copy_fn
#define MPI_TYPE_DUP_FN         lwmpi_dup_fn
#define MPI_TYPE_NULL_DELETE_FN lwmpi_null_delete_fn
#define MPI_NULL_COPY_FN        lwmpi_null_copy_fn
#define MPI_DUP_FN              lwmpi_dup_fn
#define MPI_NULL_DELETE_FN      lwmpi_null_delete_fn

/* ---------------------------------------------------------------- functions
 *
 * Every function is declared twice, as MPI_x and as PMPI_x (the profiling interface,
 * MPI 3.1 chapter 14), from one table: mpi_functions.h. */

#define LWMPI_CALL(name, when, params, args) int MPI_##name params; int PMPI_##name params;
#define LWMPI_PLAIN(ret, name, params, args) ret MPI_##name params; ret PMPI_##name params;
#include "mpi_functions.h"
#undef LWMPI_CALL
#undef LWMPI_PLAIN

#ifdef __cplusplus
}
#endif

#endif /* LWMPI_MPI_H */
