/*
 * The read plan: which Parquet leaf columns a projection needs and how their levels and values
 * become Arrow arrays (spec/parquet.md §1.1 mapping, §1.3 column matching, §2.5 reader profile,
 * §3.1/§3.3 levels → Arrow).
 *
 * A plan is a tree of cp_pq_rnode, one per node of the output Arrow schema. Every node records the
 * three level thresholds that record assembly needs (§3.3, written for any depth):
 *   - an entry (rep r, def d) of a leaf below the node opens a new *slot* (one element of the
 *     node's Arrow array) when r <= node.rep and d >= node.slot_def;
 *   - that slot is valid (non-null) when d >= node.def;
 *   - for a list or map node, the slot's items are the slots of its child (child.rep =
 *     node.rep + 1, child.slot_def = the repeated group's max_def).
 * Slots, validity and list offsets of a group node are computed from the levels of one leaf below
 * it (its `leaf`, the first Parquet leaf under the group), since every leaf under a node carries
 * the same structure.
 *
 * Two ways to build a node:
 *   - natural: the file's own types, mapped as pyarrow maps them (logical types → Arrow; INT96 →
 *     timestamp[ns]; unannotated BYTE_ARRAY → binary, FLBA → fixed_size_binary; decimals of every
 *     physical form → decimal128; 3-level lists with any names, legacy 2-level lists and
 *     unannotated repeated fields → list; maps with or without MAP_KEY_VALUE; a map without a
 *     value column → list of keys, as pyarrow does). Output names are the Parquet names and
 *     PARQUET:field_id metadata is set where the file has ids.
 *   - targeted: a Paimon type says what the column must become (types/type_arrow.h gives the
 *     Arrow type); ROW fields are matched to Parquet children by name (or field id), absent ones
 *     read as NULL; values are widened with Java's rules (ParquetVectorUpdaterFactory): narrower
 *     integers → wider, FLOAT → DOUBLE, any decimal form → decimal128(p,s) of the target,
 *     timestamp and time units → the target's unit, FLBA → binary. An impossible pairing is an
 *     error naming the column and both types.
 *
 * Ownership: a cp_pq_plan owns its nodes (arena) and its output schema; it borrows the
 * cp_pq_schema it was built from, which must outlive it.
 */
#ifndef CP_FORMAT_PARQUET_SCHEMA_READ_H
#define CP_FORMAT_PARQUET_SCHEMA_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arrow/type.h"
#include "base/buf.h"
#include "cpaimon/arrow_abi.h"
#include "cpaimon/error.h"
#include "format/parquet/metadata.h"
#include "types/type.h"

/* One projected column. Matching is by exact top-level name, or by Parquet field id when `name`
 * is NULL. With a `type`, nested ROW fields are matched the same way (name, or cp_field.id; by id
 * only in groups whose fields have ids, else by name). */
typedef struct cp_pq_column_request {
  const char *name;        /* top-level column name, or NULL to match by field_id */
  int32_t field_id;        /* used when name is NULL */
  const cp_type *type;     /* target Paimon type, or NULL for the file's natural type */
  const char *output_name; /* output column name; NULL: `name`, else the file's name */
  /* With a `type` and a `name`: match the fields of nested ROWs by field id (cp_field.id) in
   * groups whose fields carry Parquet field ids — how a table reads files written before a
   * nested field was renamed, dropped or re-added; groups without ids match by name. */
  bool nested_by_id;
} cp_pq_column_request;

typedef enum cp_pq_rnode_kind {
  CP_PQ_RNODE_LEAF = 0,
  CP_PQ_RNODE_STRUCT,
  CP_PQ_RNODE_LIST,     /* list; also a Parquet list read into a fixed_size_list (VECTOR) */
  CP_PQ_RNODE_MAP,      /* map: one child, the entries struct */
  CP_PQ_RNODE_ABSENT,   /* not in the file: every slot NULL */
  CP_PQ_RNODE_NULL_LEAF /* a leaf whose Arrow type is null (Parquet UNKNOWN logical type) */
} cp_pq_rnode_kind;

/* How decoded values are laid out before they become an Arrow buffer. */
typedef enum cp_pq_out_kind {
  CP_PQ_OUT_NONE = 0, /* no values (null type) */
  CP_PQ_OUT_BOOL,     /* one byte 0/1 per value, packed into a bitmap at the end */
  CP_PQ_OUT_FIXED,    /* out_width bytes per value */
  CP_PQ_OUT_BINARY    /* int32 offsets + bytes */
} cp_pq_out_kind;

/* The value conversion of a leaf: from the physical value to the output representation. */
typedef enum cp_pq_conv_kind {
  CP_PQ_CONV_COPY = 0,  /* physical layout is the output layout */
  CP_PQ_CONV_I32_TO_I8, /* truncating, as pyarrow reads INT(8) */
  CP_PQ_CONV_I32_TO_I16,
  CP_PQ_CONV_I32_TO_I64, /* sign-extending */
  CP_PQ_CONV_U32_TO_I64, /* zero-extending (UINT_32 into BIGINT) */
  CP_PQ_CONV_I32_TO_F64,
  CP_PQ_CONV_I64_TO_F64,
  CP_PQ_CONV_F32_TO_F64,
  CP_PQ_CONV_I32_SCALE,        /* int32 → int32: × mul, then floor ÷ div (time units) */
  CP_PQ_CONV_I64_SCALE,        /* int64 → int64: × mul (overflow checked), floor ÷ div */
  CP_PQ_CONV_I64_TO_I32_SCALE, /* int64 → int32 (TIME MICROS/NANOS into time32[ms]) */
  CP_PQ_CONV_INT96_TO_TS,      /* Julian day + nanos (§4 P9) → timestamp in `unit` */
  CP_PQ_CONV_I32_TO_DEC,       /* → decimal128 */
  CP_PQ_CONV_I64_TO_DEC,
  CP_PQ_CONV_FIXED_TO_DEC,  /* big-endian two's complement FLBA → decimal128 (§4 P10) */
  CP_PQ_CONV_BINARY_TO_DEC, /* big-endian two's complement BYTE_ARRAY → decimal128 */
  CP_PQ_CONV_FIXED_TO_BINARY
} cp_pq_conv_kind;

typedef struct cp_pq_leaf_conv {
  int conv;            /* cp_pq_conv_kind */
  int out_kind;        /* cp_pq_out_kind */
  int32_t out_width;   /* bytes per output value for CP_PQ_OUT_FIXED */
  int32_t phys_width;  /* bytes per physical value for fixed-width physical types */
  int64_t mul, div;    /* unit scaling (1, 1 = none) */
  cp_time_unit unit;   /* INT96 target unit */
  int32_t dec_rescale; /* decimals: multiply the unscaled value by 10^dec_rescale */
  int32_t dec_check;   /* decimals: > 0 checks every value has at most this many digits */
} cp_pq_leaf_conv;

typedef struct cp_pq_rnode {
  int kind;                        /* cp_pq_rnode_kind */
  const cp_pq_schema_node *pq;     /* the Parquet node read; NULL when ABSENT */
  const struct ArrowSchema *arrow; /* this node of the plan's output schema */
  cp_arrow_type_info type;         /* parsed arrow->format */
  int16_t def;                     /* slot valid when d >= def */
  int16_t rep;                     /* slot opens when r <= rep ... */
  int16_t slot_def;                /* ... and d >= slot_def */
  int32_t leaf;                    /* leaf column index (representative for groups) */
  cp_pq_leaf_conv conv;            /* LEAF */
  bool key_nullable_in_file;       /* MAP: key column is OPTIONAL (checked per value) */
  struct cp_pq_rnode *children;
  uint32_t num_children;
  const char *path; /* dotted output path, for messages */
} cp_pq_rnode;

typedef struct cp_pq_plan {
  struct ArrowSchema schema; /* "+s" record-batch schema, one child per column; owned */
  cp_pq_rnode *columns;      /* one per output column, aligned with schema.children */
  uint32_t num_columns;
  /* The Parquet leaves the plan reads, ascending; `values_needed[i]` is false for leaves read
   * only for their levels (the representative leaf of a group none of whose leaves is read). */
  int32_t *leaves;
  bool *values_needed;
  uint32_t num_leaves;
  cp_arena arena;
} cp_pq_plan;

/* Builds the plan. `requests` NULL (n ignored) reads every top-level column with its natural
 * type. A requested name or id absent from the file is read as NULLs when it has a target type,
 * and is ENOTFOUND otherwise. `path` names the file in messages. On failure `out` is zeroed. */
int cp_pq_plan_build(cp_pq_plan *out, const cp_pq_schema *schema,
                     const cp_pq_column_request *requests, size_t n, const char *path,
                     paimon_error *err);

void cp_pq_plan_free(cp_pq_plan *p);

/* The top-level Parquet node named `name` (exact match), or NULL. */
const cp_pq_schema_node *cp_pq_schema_find_column(const cp_pq_schema *s, const char *name);

/* The top-level Parquet node whose field_id is `id`, or NULL. */
const cp_pq_schema_node *cp_pq_schema_find_column_id(const cp_pq_schema *s, int32_t id);

/* Appends a short description of a Parquet leaf's type for messages and the CLI, e.g. "INT64
 * (TIMESTAMP(MICROS,false))", "FIXED_LEN_BYTE_ARRAY(16) (DECIMAL(38,2))", "BYTE_ARRAY (STRING)". */
int cp_pq_describe_type(const cp_pq_schema_element *e, cp_buf *out, paimon_error *err);

/* Appends only the annotation part, e.g. "TIMESTAMP(MICROS,false)", "DECIMAL(10,2)", "LIST",
 * "MAP_KEY_VALUE" (from the logical type, else the converted type); nothing when there is none.
 */
int cp_pq_describe_annotation(const cp_pq_schema_element *e, cp_buf *out, paimon_error *err);

/* ---- internal to the plan builder (schema_read.c, reader_target.c) ----------------------------
 */

/* Natural node for Parquet node `pq`, whose levels are entered with context (rep, slot_def);
 * `as_element` means `pq` is the repeated node of a 2-level list, read as a required element.
 * `out_schema` receives the Arrow node (owned by the caller). */
int cp_pq_plan_natural(cp_pq_plan *plan, const cp_pq_schema_node *pq, int16_t rep, int16_t slot_def,
                       bool as_element, const char *name, cp_pq_rnode *node,
                       struct ArrowSchema *out_schema, paimon_error *err);

/* Targeted node: `arrow` is the (already built) Arrow node of `target`; `pq` may be NULL (absent).
 * `by_id` matches ROW fields by cp_field.id instead of name. */
int cp_pq_plan_targeted(cp_pq_plan *plan, const cp_pq_schema_node *pq, int16_t rep,
                        int16_t slot_def, bool as_element, const cp_type *target,
                        const struct ArrowSchema *arrow, bool by_id, cp_pq_rnode *node,
                        paimon_error *err);

/* The leaf conversion when reading Parquet leaf `e` as Arrow type `to` (natural reads pass the
 * natural type). EUNSUPPORTED naming the column and both types when impossible. */
int cp_pq_leaf_conv_resolve(const cp_pq_schema_element *e, const cp_arrow_type_info *to,
                            const char *column, cp_pq_leaf_conv *out, paimon_error *err);

/* How a Parquet list/map group is laid out (LogicalTypes.md backward-compatibility rules). */
typedef struct cp_pq_list_shape {
  const cp_pq_schema_node *repeated; /* the repeated node */
  const cp_pq_schema_node *element;  /* element node; == repeated for 2-level lists */
  bool two_level;
} cp_pq_list_shape;

/* For a LIST-annotated group `g` (or an unannotated repeated field when `g` is itself REPEATED):
 * the repeated child and the element. ECORRUPT when the group is malformed. */
int cp_pq_list_shape_of(const cp_pq_schema_node *g, cp_pq_list_shape *out, paimon_error *err);

/* True when `n` is a group annotated LIST / MAP (logical type or converted type, MAP_KEY_VALUE on
 * the outer group included, as old writers did). */
bool cp_pq_node_is_list(const cp_pq_schema_node *n);
bool cp_pq_node_is_map(const cp_pq_schema_node *n);

/* Finds the key and value children of a map's repeated group: named "key"/"value", else the first
 * and second child (§1.3). *value is NULL when the group has a single child. */
int cp_pq_map_children(const cp_pq_schema_node *kv, const cp_pq_schema_node **key,
                       const cp_pq_schema_node **value, paimon_error *err);

#endif
