/*
 * Paimon types <-> Arrow C Data Interface schemas (spec/parquet.md §1.1: the Arrow type each
 * Paimon type is read into; pypaimon's PyarrowFieldParser in schema/data_types.py, which
 * cpaimon's Python package mirrors).
 *
 * Paimon -> Arrow (cp_type_to_arrow and friends):
 *
 *   BOOLEAN b | TINYINT c | SMALLINT s | INT i | BIGINT l | FLOAT f | DOUBLE g
 *   DECIMAL(p, s) d:p,s (decimal128) | CHAR(n), VARCHAR(n), STRING u (utf8)
 *   BINARY(n), VARBINARY(n), BYTES z (binary; both Paimon writers store BINARY(n) as a plain
 *   BYTE_ARRAY, so it is not fixed_size_binary) | BLOB Z (large_binary) | DATE tdD (date32)
 *   TIME(p) ttm (time32 milliseconds, whatever p: Paimon stores milliseconds of the day)
 *   TIMESTAMP(p) tss: / tsm: / tsu: / tsn: for p = 0 / 1-3 / 4-6 / 7-9, no time zone
 *   TIMESTAMP_LTZ(p) the same units with time zone "UTC"
 *   ARRAY<T> +l with one child "item" | VECTOR<T, n> +w:n with one child "item"
 *   MAP<K, V> +m with a non-nullable struct "entries" of "key" (always non-nullable: Arrow
 *   requires it) and "value" | MULTISET<T> +m of key T and value int32 NOT NULL (the count, as
 *   Java stores it) | ROW +s with one child per field | VARIANT +s of "value" z NOT NULL and
 *   "metadata" z NOT NULL (pypaimon's shape)
 *
 * A Paimon type's nullability is the ARROW_FLAG_NULLABLE flag of its node. Named fields (the
 * columns and nested ROW fields) carry their Paimon field id in the node's metadata under
 * "PARQUET:field_id" (decimal text, as pyarrow writes it) and their non-empty description under
 * "description" (as pypaimon does).
 *
 * Arrow -> Paimon (cp_type_from_arrow / cp_row_from_arrow_schema) is pypaimon's
 * to_paimon_type: int8/16/32/64, float32/64, bool, decimal128 (precision <= 38, scale 0..p),
 * utf8 and large_utf8 -> STRING, fixed_size_binary(n) -> BINARY(n), binary -> BYTES,
 * large_binary -> BLOB, date32, any time32/time64 -> TIME(0), timestamp s/ms/us/ns ->
 * TIMESTAMP(0/3/6/9) or TIMESTAMP_LTZ(...) when it has a time zone, fixed_size_list -> VECTOR,
 * list / large_list -> ARRAY, map -> MAP, the VARIANT struct -> VARIANT, other structs -> ROW. The
 * list element / map key / map value nullability comes from their child's flag. Anything else
 * (unsigned integers, float16, null, date64, dictionaries, ...) fails with EUNSUPPORTED naming the
 * column: "column 'a.b': Arrow type uint64 has no Paimon equivalent". Malformed schemas (wrong
 * child counts, NULL children, bad format strings) fail with EINVAL. Field ids in the Arrow
 * metadata are ignored: ids are assigned as pypaimon's to_paimon_schema does (below), so a schema
 * built by cpaimon from an Arrow schema is the one pypaimon builds.
 *
 * Ownership: every ArrowSchema written is owned by the caller (release it); inputs are borrowed.
 */
#ifndef CP_TYPES_TYPE_ARROW_H
#define CP_TYPES_TYPE_ARROW_H

#include "cpaimon/arrow_abi.h"
#include "types/type.h"

#define CP_ARROW_FIELD_ID_KEY "PARQUET:field_id"
#define CP_ARROW_DESCRIPTION_KEY "description"

/* The Arrow node for `t` named `name` (may be NULL), without field metadata. */
int cp_type_to_arrow(const cp_type *t, const char *name, struct ArrowSchema *out,
                     paimon_error *err);

/* The Arrow node for a field: its name, type, and the field id / description metadata. */
int cp_field_to_arrow(const cp_field *f, struct ArrowSchema *out, paimon_error *err);

/* A record-batch schema for `row`'s fields: a struct "+s" with an empty name and no flags (as
 * pyarrow exports a Schema), one child per field. */
int cp_row_to_arrow_schema(const cp_type *row, struct ArrowSchema *out, paimon_error *err);

/* The Paimon type of one Arrow node (nullability from its flags). Struct children become ROW
 * fields numbered 0, 1, ... per struct, as pypaimon's to_paimon_type does; use
 * cp_row_from_arrow_schema for a whole schema with schema-unique ids. *out is owned by the
 * caller. */
int cp_type_from_arrow(const struct ArrowSchema *schema, cp_type **out, paimon_error *err);

/* The columns of a record-batch schema (a struct) as a nullable ROW, with field ids assigned as
 * pypaimon's to_paimon_schema does: each column takes the next id from one counter starting at 0,
 * then the fields nested in its type are renumbered from the same counter, nested fields before
 * the field that contains them. E.g. (a INT, s ROW<x INT, y ROW<z INT>>, b INT) gets a=0, s=1,
 * x=2, z=3, y=4, b=5. Column names must be non-blank and unique. */
int cp_row_from_arrow_schema(const struct ArrowSchema *schema, cp_type **out, paimon_error *err);

#endif
