/*
 * Avro schemas: parse schema JSON into a tree, look up named types, print the tree back to JSON
 * (Avro 1.11 specification, "Schema Declaration"; spec/format.md §4.1–4.5 for the schemas Paimon
 * writes: records, nested records, ["null", T] unions, arrays, bytes, strings, longs, ints and
 * logical types such as timestamp-millis).
 *
 * Ownership: cp_avro_schema_parse() returns a handle that owns every node, field, name and
 * attribute reachable from cp_avro_schema_root(); they stay valid and immutable until
 * cp_avro_schema_free(). Nodes are shared (a named type referenced twice is one node, and a
 * recursive record points back at itself), so the tree is a graph: walkers that can meet a
 * recursive schema must bound their depth.
 *
 * Names: named types (record, enum, fixed) are registered under their full name; a reference is
 * resolved first as written, then qualified with the enclosing namespace, as the specification
 * says. Defining a name twice is an error. Logical types are kept as attributes on the node
 * (`logical_type`, and `precision`/`scale` for decimal) and never change how bytes are encoded.
 * Attributes the parser does not interpret (doc, order, custom properties) are kept so that
 * printing preserves them.
 */
#ifndef CP_FORMAT_AVRO_SCHEMA_H
#define CP_FORMAT_AVRO_SCHEMA_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "cpaimon/error.h"

typedef enum cp_avro_type {
  CP_AVRO_NULL = 0,
  CP_AVRO_BOOLEAN,
  CP_AVRO_INT,
  CP_AVRO_LONG,
  CP_AVRO_FLOAT,
  CP_AVRO_DOUBLE,
  CP_AVRO_BYTES,
  CP_AVRO_STRING,
  CP_AVRO_RECORD,
  CP_AVRO_ENUM,
  CP_AVRO_ARRAY,
  CP_AVRO_MAP,
  CP_AVRO_UNION,
  CP_AVRO_FIXED
} cp_avro_type;

/* The Avro spelling of a type ("long", "record", ...). */
const char *cp_avro_type_name(cp_avro_type t);

typedef struct cp_avro_node cp_avro_node;

typedef struct cp_avro_field {
  const char *name;
  const cp_avro_node *type;
  size_t index;               /* position in the record */
  const json_t *default_json; /* the "default" attribute, or NULL when absent (JSON null is a
                                 present default of null) */
  const char *const *aliases; /* "aliases" of the field, used when resolving by name */
  size_t n_aliases;
  /* The field's JSON object as declared (borrowed from the schema): printing copies its doc,
   * order and custom attributes from here. */
  const json_t *props;
} cp_avro_field;

struct cp_avro_node {
  cp_avro_type type;
  /* Named types: full name ("ns.rec") and the namespace it was declared in ("" for none). */
  const char *name;
  const char *namespace_;
  const char *logical_type; /* "timestamp-millis", "date", "decimal", ... or NULL */
  int32_t precision;        /* decimal: precision (0 when absent) */
  int32_t scale;            /* decimal: scale (0 when absent) */
  /* record */
  const cp_avro_field *fields;
  size_t n_fields;
  /* enum */
  const char *const *symbols;
  size_t n_symbols;
  const char *enum_default; /* the enum's "default" symbol, or NULL */
  /* array items / map values */
  const cp_avro_node *items;
  /* union */
  const cp_avro_node *const *branches;
  size_t n_branches;
  /* fixed */
  size_t fixed_size;
  /* The JSON object the node was declared with, or NULL for a bare type name; printing copies
   * the attributes the parser does not interpret (doc, aliases, custom properties) from it. */
  const json_t *props;
  /* Smallest number of bytes any value of this type encodes to; bounds element counts read from
   * untrusted data before anything is allocated. */
  size_t min_size;
  size_t named_index; /* named types: position in the schema's registry */
};

typedef struct cp_avro_schema cp_avro_schema;

/* Parses schema JSON text (`len` bytes). Errors (PAIMON_EINVAL) name the path inside the schema,
 * e.g. "field _FILE._VALUE_STATS: unknown type 'lng'". `source` (may be NULL) names where the text
 * came from and prefixes messages. */
int cp_avro_schema_parse(cp_avro_schema **out, const char *json_text, size_t len,
                         const char *source, paimon_error *err);

/* Same, from an already parsed JSON value (borrowed; the schema takes its own reference). */
int cp_avro_schema_from_json(cp_avro_schema **out, json_t *json, const char *source,
                             paimon_error *err);

void cp_avro_schema_free(cp_avro_schema *s);

const cp_avro_node *cp_avro_schema_root(const cp_avro_schema *s);

/* Looks up a named type by full name; NULL when absent. */
const cp_avro_node *cp_avro_schema_find(const cp_avro_schema *s, const char *full_name);

/* Number of named types (for walkers that need a "seen" flag per named type). */
size_t cp_avro_schema_named_count(const cp_avro_schema *s);

/* The field of a record node called `name` (not aliases); NULL when absent or not a record. */
const cp_avro_field *cp_avro_record_field(const cp_avro_node *record, const char *name);

/* For a union ["null", T] (either order) returns T's branch index in *value_branch and the null
 * branch in *null_branch; false for any other node. */
bool cp_avro_node_is_nullable(const cp_avro_node *n, size_t *null_branch, size_t *value_branch);

/* Appends compact JSON for the schema rooted at `node` to `out`: each named type is defined at
 * its first occurrence and referenced by name afterwards; names are printed relative to the
 * enclosing namespace (a "namespace" attribute only where it changes); defaults, logicalType and
 * every preserved attribute are kept. Parsing the output yields an equivalent schema. */
int cp_avro_schema_to_json(const cp_avro_schema *s, const cp_avro_node *node, cp_buf *out,
                           paimon_error *err);

#endif
