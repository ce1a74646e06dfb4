/*
 * Paimon ROW type -> Parquet schema, the writer's side (spec/parquet.md §1.1 mapping table, §1.2
 * nested shapes, §1.3 names and field ids as Java's ParquetSchemaConverter writes them, §2.6
 * logical/converted type pairs, §3.1 levels).
 *
 * Besides the flat SchemaElement list that goes into the footer, the builder describes every leaf
 * column the way the writer walks Arrow data to produce its levels (§3.4): the chain of Paimon
 * type nodes from the top-level column down to the leaf ("steps"), each saying whether a NULL is
 * allowed there, whether it is a repeated collection (and at which repetition level), and which
 * Arrow child holds the next node.
 *
 * Choices that differ between the reference writers (§1.1): decimals follow Java (INT32 for
 * p <= 9, INT64 for p <= 18, FIXED_LEN_BYTE_ARRAY(n(p)) above); maps follow Java (key forced
 * REQUIRED, MAP_KEY_VALUE on the repeated group); MULTISET<T> is MAP<T NOT NULL, INT NOT NULL>;
 * VARIANT is the Java group {required binary value; required binary metadata} with ids 0 and 1.
 * TIMESTAMP(7..9) is INT64 TIMESTAMP(NANOS), not Java's INT96 (note N1): pypaimon writes it that
 * way, both Paimon readers read it, it carries usable statistics (INT96 has no sort order), and it
 * needs no Julian-day arithmetic; its range is years 1677-2262, which Arrow's timestamp[ns] input
 * has anyway.
 *
 * Ownership: everything is allocated in the cp_pq_write_schema's arena, except the Paimon types,
 * which are borrowed from the `row` passed to the builder (it must outlive the schema).
 */
#ifndef CP_FORMAT_PARQUET_SCHEMA_BUILD_H
#define CP_FORMAT_PARQUET_SCHEMA_BUILD_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "cpaimon/error.h"
#include "format/parquet/metadata.h"
#include "types/type.h"

/* Java's STRUCTURED_TYPE_FIELD_ID_BASE (Integer.MAX_VALUE / 4) and depth limit (SpecialFields). */
#define CP_PQ_NESTED_ID_BASE 536870911
#define CP_PQ_NESTED_ID_DEPTH_LIMIT 1024

/* Field ids of collection children (§1.3): `id` is the nearest named field's id, `depth` the
 * collection nesting below it (1 for its own element/key/value). 32-bit wrapping, as in Java. */
int32_t cp_pq_array_element_field_id(int32_t id, int32_t depth);
int32_t cp_pq_map_key_field_id(int32_t id, int32_t depth);
int32_t cp_pq_map_value_field_id(int32_t id, int32_t depth);

/* How the Arrow values of a leaf become its physical values. */
typedef enum cp_pq_value_kind {
  CP_PQ_VAL_BOOL,     /* bool -> BOOLEAN */
  CP_PQ_VAL_I8,       /* int8 -> INT32 */
  CP_PQ_VAL_I16,      /* int16 -> INT32 */
  CP_PQ_VAL_I32,      /* int32, date32, time32[ms] -> INT32 */
  CP_PQ_VAL_I64,      /* int64, timestamp ms/us/ns -> INT64 */
  CP_PQ_VAL_SEC_MS,   /* timestamp[s] -> INT64 milliseconds (TIMESTAMP(0), §1.1) */
  CP_PQ_VAL_F32,      /* float -> FLOAT */
  CP_PQ_VAL_F64,      /* double -> DOUBLE */
  CP_PQ_VAL_DEC_I32,  /* decimal128, p <= 9 -> INT32 unscaled */
  CP_PQ_VAL_DEC_I64,  /* decimal128, p <= 18 -> INT64 unscaled */
  CP_PQ_VAL_DEC_FLBA, /* decimal128 -> FLBA(n), big-endian two's complement (§4 P10) */
  CP_PQ_VAL_BYTES     /* string, binary and their large forms -> BYTE_ARRAY */
} cp_pq_value_kind;

/* One Paimon type node on the way from a top-level column to a leaf. */
typedef enum cp_pq_step_kind {
  CP_PQ_STEP_STRUCT, /* ROW or VARIANT: the next node is Arrow child `child`, same slot */
  CP_PQ_STEP_LIST,   /* ARRAY (list/large_list) or VECTOR (fixed_size_list): child 0 */
  CP_PQ_STEP_MAP,    /* MAP or MULTISET: entries child 0, then its child `child` (key 0, value 1) */
  CP_PQ_STEP_LEAF    /* an atomic value */
} cp_pq_step_kind;

typedef struct cp_pq_step {
  uint8_t kind;      /* cp_pq_step_kind */
  bool required;     /* NOT NULL: REQUIRED in Parquet, a NULL here is an error */
  int16_t rep_level; /* LIST/MAP: the repetition level of the collection's entries */
  int32_t child;     /* STRUCT: Arrow child index; MAP: 0 key, 1 value */
  const char *name;  /* the node's Paimon path for messages: "s.x", "a.element", "m.value" */
} cp_pq_step;

typedef struct cp_pq_leaf {
  uint32_t column;     /* index of the top-level column (Paimon field) */
  int physical_type;   /* cp_pq_type */
  int32_t type_length; /* FIXED_LEN_BYTE_ARRAY width, 0 otherwise */
  int16_t max_def;     /* §3.1 */
  int16_t max_rep;
  cp_pq_value_kind value_kind;
  const cp_type *type; /* the Paimon type of the leaf values (borrowed) */
  const char **path;   /* path_in_schema: Parquet names from the column down to the leaf */
  uint32_t path_len;
  const char *path_str; /* Parquet path joined with '.' ("a.list.element") */
  cp_pq_step *steps;    /* from the top-level column (steps[0]) to the leaf (last) */
  uint32_t n_steps;
} cp_pq_leaf;

typedef struct cp_pq_write_schema {
  cp_pq_schema_element *elements; /* depth-first, elements[0] is the root "paimon_schema" */
  uint32_t n_elements;
  cp_pq_leaf *leaves; /* in column (depth-first leaf) order */
  uint32_t n_leaves;
  cp_arena arena;
} cp_pq_write_schema;

/* Builds the schema of `row` (a ROW with at least one field). EINVAL for types Parquet cannot
 * hold: an empty ROW anywhere (§4 P18), nesting deeper than the Parquet reader accepts. */
int cp_pq_write_schema_build(cp_pq_write_schema *out, const cp_type *row, paimon_error *err);

void cp_pq_write_schema_free(cp_pq_write_schema *s);

#endif
