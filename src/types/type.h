/*
 * Paimon data types: the in-memory model of a column type (spec/format.md §2.2) and of a DataField
 * (§2.1), with deep copy, structural equality and the lookups the schema, scan and SQL layers need.
 *
 * The model mirrors Java's org.apache.paimon.types: one cp_type per DataType node, a kind (the
 * DataTypeRoot), nullability, the kind's parameters and its children. A ROW type owns an array of
 * cp_field (id, name, type, description, default value). A table's columns are a ROW type too,
 * exactly as Java's TableSchema holds a RowType.
 *
 * Ownership: every cp_type is malloc'd and owns everything reachable from it (children, fields,
 * and the fields' strings); cp_type_free() releases the whole tree. A cp_field is a plain struct
 * (usually an element of a ROW's `fields` array) that owns its strings and its type;
 * cp_field_clear() releases them. Constructors that take children ("consume") take ownership of
 * them even when they fail, so a caller never has to clean up after a failed constructor. Trees are
 * plain data: the fields of the structs may be read directly; code that edits them by hand should
 * call cp_type_validate() afterwards. Trees are immutable once built and then safe to share
 * between threads for reading.
 */
#ifndef CP_TYPES_TYPE_H
#define CP_TYPES_TYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpaimon/error.h"

/* The type roots cpaimon supports (Java DataTypeRoot, minus INTERVAL/RAW/GEOMETRY/GEOGRAPHY). */
typedef enum cp_type_kind {
  CP_TYPE_BOOLEAN,
  CP_TYPE_TINYINT,
  CP_TYPE_SMALLINT,
  CP_TYPE_INT,
  CP_TYPE_BIGINT,
  CP_TYPE_FLOAT,
  CP_TYPE_DOUBLE,
  CP_TYPE_DECIMAL,       /* precision 1..38, scale 0..precision */
  CP_TYPE_CHAR,          /* length 1..INT32_MAX */
  CP_TYPE_VARCHAR,       /* length 1..INT32_MAX; INT32_MAX is STRING */
  CP_TYPE_BINARY,        /* length 1..INT32_MAX */
  CP_TYPE_VARBINARY,     /* length 1..INT32_MAX; INT32_MAX is BYTES */
  CP_TYPE_DATE,          /* days since 1970-01-01 */
  CP_TYPE_TIME,          /* precision 0..9; values are milliseconds of the day */
  CP_TYPE_TIMESTAMP,     /* precision 0..9; wall clock without time zone */
  CP_TYPE_TIMESTAMP_LTZ, /* precision 0..9; an instant (TIMESTAMP WITH LOCAL TIME ZONE) */
  CP_TYPE_ARRAY,         /* element */
  CP_TYPE_MAP,           /* key, value */
  CP_TYPE_MULTISET,      /* element */
  CP_TYPE_ROW,           /* fields */
  CP_TYPE_VARIANT,
  CP_TYPE_BLOB,
  CP_TYPE_VECTOR /* element (BOOLEAN or a numeric primitive), length 1..INT32_MAX */
} cp_type_kind;

#define CP_TYPE_KIND_COUNT ((int)CP_TYPE_VECTOR + 1)

/* Length of STRING (= VARCHAR(max)) and BYTES (= VARBINARY(max)): Java's Integer.MAX_VALUE. */
#define CP_TYPE_MAX_LENGTH INT32_MAX

#define CP_DECIMAL_MAX_PRECISION 38
#define CP_TIMESTAMP_MAX_PRECISION 9

/* Java's defaults for a parameter left out of a type string (CharType.DEFAULT_LENGTH etc.). */
#define CP_DECIMAL_DEFAULT_PRECISION 10
#define CP_TIME_DEFAULT_PRECISION 0
#define CP_TIMESTAMP_DEFAULT_PRECISION 6

/* Nesting deeper than this is rejected by every parser, so hostile input cannot exhaust the stack.
 */
#define CP_TYPE_MAX_DEPTH 64

typedef struct cp_type cp_type;

typedef struct cp_field {
  int32_t id;          /* unique across the whole schema, nested ROW fields included */
  char *name;          /* owned, never NULL */
  cp_type *type;       /* owned, never NULL */
  char *description;   /* owned; NULL when the field has none */
  char *default_value; /* owned; NULL when the field has none (Paimon keeps it as text) */
} cp_field;

struct cp_type {
  cp_type_kind kind;
  bool nullable;
  int32_t length;    /* CHAR, VARCHAR, BINARY, VARBINARY, VECTOR; 0 otherwise */
  int32_t precision; /* DECIMAL, TIME, TIMESTAMP, TIMESTAMP_LTZ; 0 otherwise */
  int32_t scale;     /* DECIMAL; 0 otherwise */
  cp_type *element;  /* ARRAY, MULTISET, VECTOR; NULL otherwise */
  cp_type *key;      /* MAP; NULL otherwise */
  cp_type *value;    /* MAP; NULL otherwise */
  cp_field *fields;  /* ROW: n_fields entries (NULL when empty) */
  size_t n_fields;
};

/* ---- construction ------------------------------------------------------------------------- */

/* A type of `kind` with Java's default parameters (CHAR/VARCHAR/BINARY/VARBINARY length 1,
 * DECIMAL(10, 0), TIME(0), TIMESTAMP(6), TIMESTAMP_LTZ(6)). For ARRAY/MAP/MULTISET/VECTOR/ROW the
 * children are left NULL/empty for the caller to fill (VECTOR length 1). *out is owned by the
 * caller. */
int cp_type_new(cp_type **out, cp_type_kind kind, bool nullable, paimon_error *err);

/* CHAR(n), VARCHAR(n), BINARY(n), VARBINARY(n); n must be 1..INT32_MAX. */
int cp_type_new_sized(cp_type **out, cp_type_kind kind, int64_t length, bool nullable,
                      paimon_error *err);

/* TIME(p), TIMESTAMP(p), TIMESTAMP_LTZ(p); p must be 0..9. */
int cp_type_new_precision(cp_type **out, cp_type_kind kind, int64_t precision, bool nullable,
                          paimon_error *err);

/* DECIMAL(p, s); 1 <= p <= 38, 0 <= s <= p. */
int cp_type_new_decimal(cp_type **out, int64_t precision, int64_t scale, bool nullable,
                        paimon_error *err);

/* ARRAY<element> or MULTISET<element> (kind says which); consumes `element`. */
int cp_type_new_collection(cp_type **out, cp_type_kind kind, cp_type *element, bool nullable,
                           paimon_error *err);

/* MAP<key, value>; consumes `key` and `value`. */
int cp_type_new_map(cp_type **out, cp_type *key, cp_type *value, bool nullable, paimon_error *err);

/* VECTOR<element, length>; consumes `element`, which must be BOOLEAN, TINYINT, SMALLINT, INT,
 * BIGINT, FLOAT or DOUBLE (Java VectorType.isValidElementType); length must be >= 1. */
int cp_type_new_vector(cp_type **out, cp_type *element, int64_t length, bool nullable,
                       paimon_error *err);

/* ROW<fields>; consumes the `n` fields (the array's contents, not the array itself, which stays
 * the caller's). Names must be non-blank and unique within the row (Java RowType.validateFields).
 * n may be 0. */
int cp_type_new_row(cp_type **out, cp_field *fields, size_t n, bool nullable, paimon_error *err);

/* Fills `f`; copies the strings, consumes `type`. description / default_value may be NULL. */
int cp_field_init(cp_field *f, int32_t id, const char *name, cp_type *type, const char *description,
                  const char *default_value, paimon_error *err);

/* Releases what `f` owns and zeroes it; safe on a zeroed field. */
void cp_field_clear(cp_field *f);

/* Releases `t` and everything it owns; NULL is a no-op. */
void cp_type_free(cp_type *t);

/* EINVAL unless the `len` bytes at `s` are well-formed UTF-8: Paimon names and descriptions are
 * Java strings, and JSON can only carry Unicode text. `what` names the text in the message. */
int cp_check_utf8(const char *s, size_t len, const char *what, paimon_error *err);

/* Checks a (possibly hand-built) tree: parameters in range, children present, vector element
 * kind, row field names non-blank, unique and UTF-8 (descriptions and default values UTF-8 too),
 * depth. Does not check field id uniqueness (see
 * cp_row_check_field_ids). */
int cp_type_validate(const cp_type *t, paimon_error *err);

/* ---- copy and compare --------------------------------------------------------------------- */

/* A deep copy of `src` (*out owned by the caller). */
int cp_type_copy(cp_type **out, const cp_type *src, paimon_error *err);

/* A deep copy with the root's nullability replaced (Java DataType.copy(boolean)). */
int cp_type_copy_nullable(cp_type **out, const cp_type *src, bool nullable, paimon_error *err);

/* A deep copy of `src` into `dst` (which is overwritten, not cleared first). */
int cp_field_copy(cp_field *dst, const cp_field *src, paimon_error *err);

/* Flags for cp_type_equals / cp_field_equals. 0 = Java's equals(): kind, parameters, nullability
 * at every level, and for ROW fields the id, name, description and default value. */
enum {
  CP_TYPE_EQ_IGNORE_NULLABILITY = 1, /* at every level */
  CP_TYPE_EQ_IGNORE_FIELD_IDS = 2,   /* Java equalsIgnoreFieldId */
  CP_TYPE_EQ_IGNORE_FIELD_DOCS = 4   /* description and default value */
};

bool cp_type_equals(const cp_type *a, const cp_type *b, unsigned flags);
bool cp_field_equals(const cp_field *a, const cp_field *b, unsigned flags);

/* ---- classification ----------------------------------------------------------------------- */

/* Static upper-case name of a kind, as in Java's DataTypeRoot-ish SQL keyword ("TIMESTAMP_LTZ"). */
const char *cp_type_kind_name(cp_type_kind kind);

/* ARRAY<BLOB>: stored in `.blob` files like a top-level BLOB (spec/maintenance-and-blob.md §5.1).
 */
static inline bool cp_type_is_blob_array(const cp_type *t) {
  return t->kind == CP_TYPE_ARRAY && t->element && t->element->kind == CP_TYPE_BLOB;
}

/* TINYINT, SMALLINT, INT, BIGINT, FLOAT, DOUBLE, DECIMAL (Java DataTypeFamily.NUMERIC). */
bool cp_type_is_numeric(const cp_type *t);
/* TINYINT, SMALLINT, INT, BIGINT. */
bool cp_type_is_integer(const cp_type *t);
/* CHAR, VARCHAR (Java DataTypeFamily.CHARACTER_STRING). */
bool cp_type_is_string(const cp_type *t);
/* BINARY, VARBINARY (Java DataTypeFamily.BINARY_STRING; BLOB is separate). */
bool cp_type_is_binary(const cp_type *t);
/* DATE, TIME, TIMESTAMP, TIMESTAMP_LTZ. */
bool cp_type_is_temporal(const cp_type *t);
/* Types with children: ARRAY, MAP, MULTISET, ROW, VECTOR. */
bool cp_type_is_nested(const cp_type *t);

/* ---- rows: lookups and field ids ---------------------------------------------------------- */

/* Index of the top-level field named `name` (exact, case-sensitive match as Java's RowType), or
 * -1. `row` must be a ROW. */
ptrdiff_t cp_row_field_index(const cp_type *row, const char *name);

/* The same with ASCII case-insensitive matching (for SQL identifiers); -1 when absent. When two
 * fields differ only in case, the first is returned. */
ptrdiff_t cp_row_field_index_ci(const cp_type *row, const char *name);

/* The top-level field named `name`, or NULL. The pointer is borrowed from `row`. */
const cp_field *cp_row_find_field(const cp_type *row, const char *name);

/* The field with id `id` anywhere in the tree under `t` (top-level and nested ROW fields reached
 * through ROW, ARRAY, MAP, MULTISET and VECTOR), or NULL. Borrowed from `t`. */
const cp_field *cp_type_find_field_by_id(const cp_type *t, int32_t id);

/* The highest field id of the non-system fields in the tree under `t` (recursing into nested ROW
 * fields at any depth), or -1 when there is none: the `highestFieldId` of a schema file
 * (spec/format.md §2.1, Java RowType.currentHighestFieldId). */
int32_t cp_type_max_field_id(const cp_type *t);

/* Fails with EINVAL naming the id when two fields anywhere under `t` share an id (Java
 * RowType.collectFieldIds: "Broken schema, field id %s is duplicated."). */
int cp_type_check_field_ids(const cp_type *t, paimon_error *err);

/* Reassigns every field id under `t` from `*next_id` upwards (each new id is ++*next_id, so pass -1
 * to start at 0), the way Java's Schema builder does: a field takes its id before the fields nested
 * in its type. */
void cp_type_reassign_field_ids(cp_type *t, int32_t *next_id);

#endif
