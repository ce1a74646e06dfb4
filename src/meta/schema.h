/*
 * Table schema files (`schema/schema-<id>`, spec/format.md §2.1): the parsed form, reading what
 * Java and pypaimon write (with the version-dependent defaults), and writing Java's form with
 * Jackson's pretty printer.
 *
 * A cp_table_schema owns everything it points to; free it with cp_table_schema_free().
 */
#ifndef CP_META_SCHEMA_H
#define CP_META_SCHEMA_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "cpaimon/error.h"
#include "meta/options.h"
#include "types/type.h"

#define CP_SCHEMA_VERSION 3

typedef struct cp_table_schema {
  int32_t version;          /* of the file read; 3 when written by us */
  int64_t id;               /* N of schema-N */
  cp_type *row;             /* the columns, a ROW (never NULL) */
  int32_t highest_field_id; /* max id over all nested non-system fields, -1 if none */
  char **partition_keys;
  size_t n_partition_keys;
  char **primary_keys;
  size_t n_primary_keys;
  cp_options options;
  char *comment;       /* NULL when absent */
  int64_t time_millis; /* creation time */
} cp_table_schema;

/* Parses a schema file's bytes. `source` (the path) prefixes every message. Applies Java's
 * SchemaSerializer defaults: version absent ⇒ 1; version 1 ⇒ option bucket=1 if absent; version ≤ 2
 * ⇒ file.format=orc if absent. Checks that partition and primary keys name existing columns.
 * Malformed content is ECORRUPT. */
int cp_table_schema_parse(const void *data, size_t len, const char *source, cp_table_schema **out,
                          paimon_error *err);

/* Appends Java's JSON form (version, id, fields, highestFieldId, partitionKeys, primaryKeys,
 * options, comment if any, timeMillis) pretty-printed as Jackson does. */
int cp_table_schema_write(const cp_table_schema *s, cp_buf *out, paimon_error *err);

/* A deep copy. */
int cp_table_schema_copy(cp_table_schema **out, const cp_table_schema *s, paimon_error *err);

/* Index of partition key `i` among the columns (validated at parse, so always >= 0). */
size_t cp_table_schema_partition_index(const cp_table_schema *s, size_t i);

void cp_table_schema_free(cp_table_schema *s);

#endif
