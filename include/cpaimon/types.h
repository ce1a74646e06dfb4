/*
 * Paimon data types as text, for bindings and engines: the SQL type text cpaimon takes everywhere
 * a type is named ("INT NOT NULL", "ARRAY<FLOAT>", "ROW<a INT, b STRING COMMENT 'c'>",
 * "MAP<STRING, BIGINT>", "DECIMAL(10, 2)", "TIMESTAMP(3)", ...), the JSON form schema files hold
 * (spec/format.md §8: a string for an atomic type, an object with "type" and its parts for ARRAY,
 * MULTISET, MAP, ROW and VECTOR), and Arrow (C Data Interface).
 *
 * Every result is malloc'ed and freed by the caller (free() for text, the schema's release for
 * Arrow). Bad input is EINVAL with the parser's message naming what is wrong.
 */
#ifndef CPAIMON_TYPES_H
#define CPAIMON_TYPES_H

#include "cpaimon/arrow_abi.h"
#include "cpaimon/error.h"

#ifdef __cplusplus
extern "C" {
#endif

/* SQL type text → the type's canonical SQL text (e.g. "int not null" → "INT NOT NULL"). */
int paimon_type_normalize(const char *sql, char **out, paimon_error *err);

/* SQL type text → its JSON form, as compact JSON text. Fields of ROW types are numbered 0, 1, ...
 * in order, depth first, as a schema numbers the fields of a new column. */
int paimon_type_sql_to_json(const char *sql, char **json, paimon_error *err);

/* The JSON form of a type (JSON text; field ids kept) → canonical SQL text. */
int paimon_type_json_to_sql(const char *json, char **sql, paimon_error *err);

/* SQL type text → an Arrow schema of one field named `name` (*out released by the caller), as
 * cpaimon reads the type: INT → int32, STRING → utf8, TIMESTAMP(3) → timestamp[ms], ... */
int paimon_type_to_arrow(const char *sql, const char *name, struct ArrowSchema *out,
                         paimon_error *err);

/* An Arrow field's type → the JSON form of the Paimon type (NOT NULL when the field is not
 * nullable), as cpaimon writes Arrow data into Paimon columns; the fields of a struct are
 * numbered 0, 1, ... per struct, as pypaimon's PyarrowFieldParser.to_paimon_type does. */
int paimon_type_from_arrow(const struct ArrowSchema *field, char **json, paimon_error *err);

/* A record-batch schema (an Arrow struct) → the JSON array of its DataFields as a schema file
 * holds them, with ids assigned as pypaimon's to_paimon_schema does (each column takes the next
 * id of one counter, then the fields nested in it, inner ones first). */
int paimon_arrow_schema_to_fields_json(const struct ArrowSchema *schema, char **json,
                                       paimon_error *err);

#ifdef __cplusplus
}
#endif
#endif
