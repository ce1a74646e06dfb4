/*
 * System tables (include/cpaimon/system_table.h): the registry of kinds with Java 1.4.2's column
 * types (paimon-core table/system/XxxTable.java TABLE_TYPE), opening "db.t$kind" the way Java's
 * CatalogUtils.createSystemTable and Identifier do, and reading: every row is produced by the
 * kind's fill function into one Arrow batch, then filtered by the caller's predicate and
 * projected. System tables are metadata (a row per snapshot, schema or file), so one batch is the
 * natural unit; Java and pypaimon materialise them the same way.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "arrow/bitmap.h"
#include "arrow/ops.h"
#include "arrow/schema.h"
#include "arrow/stream.h"
#include "base/status.h"
#include "expr/predicate.h"
#include "table/system_table.h"
#include "types/type_arrow.h"
#include "types/type_json.h"
#include "types/type_sql.h"

/* Java's SystemTableLoader order. Types: SerializationUtils.newStringType(false) is STRING NOT
 * NULL, DataTypes.TIMESTAMP_MILLIS() is TIMESTAMP(3) (nullable), DeletionVectorMeta.SCHEMA is the
 * element of dv_ranges. */
static const cp_sys_def defs[] = {
    {"manifests",
     "ROW<`file_name` STRING NOT NULL, `file_size` BIGINT NOT NULL, `num_added_files` BIGINT NOT "
     "NULL, `num_deleted_files` BIGINT NOT NULL, `schema_id` BIGINT NOT NULL, "
     "`min_partition_stats` STRING, `max_partition_stats` STRING, `min_row_id` BIGINT, "
     "`max_row_id` BIGINT>",
     "file_name", cp_sys_fill_manifests},
    {"snapshots",
     "ROW<`snapshot_id` BIGINT NOT NULL, `schema_id` BIGINT NOT NULL, `commit_user` STRING NOT "
     "NULL, `commit_identifier` BIGINT NOT NULL, `commit_kind` STRING NOT NULL, `commit_time` "
     "TIMESTAMP(3) NOT NULL, `base_manifest_list` STRING NOT NULL, `delta_manifest_list` STRING "
     "NOT NULL, `changelog_manifest_list` STRING, `total_record_count` BIGINT, "
     "`delta_record_count` BIGINT, `changelog_record_count` BIGINT, `watermark` BIGINT, "
     "`next_row_id` BIGINT>",
     "snapshot_id", cp_sys_fill_snapshots},
    {"options", "ROW<`key` STRING NOT NULL, `value` STRING NOT NULL>", "key", cp_sys_fill_options},
    {"schemas",
     "ROW<`schema_id` BIGINT NOT NULL, `fields` STRING NOT NULL, `partition_keys` STRING NOT "
     "NULL, `primary_keys` STRING NOT NULL, `options` STRING NOT NULL, `comment` STRING, "
     "`update_time` TIMESTAMP(3) NOT NULL>",
     "schema_id", cp_sys_fill_schemas},
    {"partitions",
     "ROW<`partition` STRING, `record_count` BIGINT NOT NULL, `file_size_in_bytes` BIGINT NOT "
     "NULL, `file_count` BIGINT NOT NULL, `last_update_time` TIMESTAMP(3), `created_at` "
     "TIMESTAMP(3), `created_by` STRING, `updated_by` STRING, `options` STRING>",
     "partition", cp_sys_fill_partitions},
    {"buckets",
     "ROW<`partition` STRING, `bucket` INT NOT NULL, `record_count` BIGINT NOT NULL, "
     "`file_size_in_bytes` BIGINT NOT NULL, `file_count` BIGINT NOT NULL, `last_update_time` "
     "TIMESTAMP(3)>",
     "partition,bucket", cp_sys_fill_buckets},
    {"files",
     "ROW<`partition` STRING, `bucket` INT NOT NULL, `file_path` STRING NOT NULL, `file_format` "
     "STRING NOT NULL, `schema_id` BIGINT NOT NULL, `level` INT NOT NULL, `record_count` BIGINT "
     "NOT NULL, `file_size_in_bytes` BIGINT NOT NULL, `min_key` STRING, `max_key` STRING, "
     "`null_value_counts` STRING NOT NULL, `min_value_stats` STRING NOT NULL, `max_value_stats` "
     "STRING NOT NULL, `min_sequence_number` BIGINT, `max_sequence_number` BIGINT, "
     "`creation_time` TIMESTAMP(3), `deleteRowCount` BIGINT, `file_source` STRING, "
     "`first_row_id` BIGINT, `write_cols` ARRAY<STRING>>",
     "file_path", cp_sys_fill_files},
    {"file_key_ranges",
     "ROW<`partition` STRING, `bucket` INT NOT NULL, `file_path` STRING NOT NULL, `file_format` "
     "STRING NOT NULL, `schema_id` BIGINT NOT NULL, `level` INT NOT NULL, `record_count` BIGINT "
     "NOT NULL, `file_size_in_bytes` BIGINT NOT NULL, `min_key` STRING, `max_key` STRING, "
     "`first_row_id` BIGINT>",
     "file_path", cp_sys_fill_file_key_ranges},
    {"tags",
     "ROW<`tag_name` STRING NOT NULL, `snapshot_id` BIGINT NOT NULL, `schema_id` BIGINT NOT NULL, "
     "`commit_time` TIMESTAMP(3) NOT NULL, `record_count` BIGINT, `create_time` TIMESTAMP(3), "
     "`time_retained` STRING>",
     "tag_name", cp_sys_fill_tags},
    {"branches", "ROW<`branch_name` STRING NOT NULL, `create_time` TIMESTAMP(3) NOT NULL>",
     "branch_name", cp_sys_fill_empty},
    {"consumers", "ROW<`consumer_id` STRING NOT NULL, `next_snapshot_id` BIGINT NOT NULL>",
     "consumer_id", cp_sys_fill_empty},
    {"table_indexes",
     "ROW<`partition` STRING, `bucket` INT NOT NULL, `index_type` STRING NOT NULL, `file_name` "
     "STRING NOT NULL, `file_size` BIGINT NOT NULL, `row_count` BIGINT NOT NULL, `dv_ranges` "
     "ARRAY<ROW<`f0` STRING NOT NULL, `f1` INT NOT NULL, `f2` INT NOT NULL, `_CARDINALITY` "
     "BIGINT>>>",
     "file_name", cp_sys_fill_table_indexes},
};

#define N_DEFS (sizeof defs / sizeof defs[0])

static const char *const kind_names[N_DEFS + 1] = {
    "manifests",       "snapshots", "options",  "schemas",   "partitions",    "buckets", "files",
    "file_key_ranges", "tags",      "branches", "consumers", "table_indexes", NULL};

const char *const *paimon_system_table_kinds(void) { return kind_names; }

bool paimon_identifier_is_system_table(const char *identifier) {
  if (!identifier) return false;
  const char *dot = strchr(identifier, '.');
  return strchr(dot ? dot + 1 : identifier, '$') != NULL;
}

static const cp_sys_def *find_def(const char *kind) {
  for (size_t i = 0; i < N_DEFS; i++)
    if (strcasecmp(defs[i].kind, kind) == 0) return &defs[i];
  return NULL;
}

/* ---- opening -------------------------------------------------------------------------------- */

static int split_keys(paimon_system_table *st, paimon_error *err) {
  const char *s = st->def->primary_keys;
  size_t n = 1;
  for (const char *p = s; *p; p++) n += *p == ',';
  st->pkeys = calloc(n, sizeof *st->pkeys);
  if (!st->pkeys) return CP_ENOMEM(err, "system table");
  while (*s) {
    size_t len = strcspn(s, ",");
    st->pkeys[st->n_pkeys] = strndup(s, len);
    if (!st->pkeys[st->n_pkeys++]) return CP_ENOMEM(err, "system table");
    s += len + (s[len] == ',');
  }
  return PAIMON_OK;
}

static int open_def(paimon_table *table, bool owns, const cp_sys_def *def,
                    paimon_system_table **out, paimon_error *err) {
  *out = NULL;
  paimon_system_table *st = calloc(1, sizeof *st);
  if (!st) {
    if (owns) paimon_table_free(table);
    return CP_ENOMEM(err, "system table");
  }
  st->table = table;
  st->owns_table = owns;
  st->def = def;
  size_t len = strlen(table->full_name) + strlen(def->kind) + 2;
  st->name = malloc(len);
  int rc = st->name ? PAIMON_OK : CP_ENOMEM(err, "system table");
  if (!rc) {
    snprintf(st->name, len, "%s$%s", table->full_name, def->kind);
    rc = cp_type_parse(def->row_sql, &st->row, err);
  }
  if (!rc) rc = split_keys(st, err);
  if (rc) {
    paimon_system_table_free(st);
    return rc;
  }
  *out = st;
  return PAIMON_OK;
}

int paimon_system_table_open(paimon_table *table, const char *kind, paimon_system_table **out,
                             paimon_error *err) {
  *out = NULL;
  const cp_sys_def *def = kind ? find_def(kind) : NULL;
  if (!def)
    return paimon_error_set(err, PAIMON_ENOTFOUND, "Table %s$%s does not exist.", table->full_name,
                            kind ? kind : "");
  return open_def(table, false, def, out, err);
}

int paimon_catalog_get_system_table(paimon_catalog *catalog, const char *identifier,
                                    paimon_system_table **out, paimon_error *err) {
  *out = NULL;
  const char *dot = identifier ? strchr(identifier, '.') : NULL;
  const char *sep = dot ? strchr(dot + 1, '$') : NULL;
  if (!sep)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "'%s' is not a system table identifier '<database>.<table>$<kind>'",
                            identifier ? identifier : "(null)");
  const char *kind = sep + 1;
  /* Identifier.splitObjectName: "t$branch_b" is a branch, "t$branch_b$files" its system table. */
  if (strncmp(kind, "branch_", 7) == 0 || strchr(kind, '$'))
    return paimon_error_set(err, PAIMON_EUNSUPPORTED, "%s: branches are not supported by cpaimon",
                            identifier);
  const cp_sys_def *def = find_def(kind);
  char *base = strndup(identifier, (size_t)(sep - identifier));
  if (!base) return CP_ENOMEM(err, "identifier");
  paimon_table *table = NULL;
  int rc = def ? paimon_catalog_get_table(catalog, base, &table, err) : PAIMON_ENOTFOUND;
  free(base);
  /* Java reports the system table's own identifier for a missing data table too. */
  if (rc == PAIMON_ENOTFOUND)
    return paimon_error_set(err, PAIMON_ENOTFOUND, "Table %s does not exist.", identifier);
  if (rc) return rc;
  return open_def(table, true, def, out, err);
}

void paimon_system_table_free(paimon_system_table *st) {
  if (!st) return;
  if (st->owns_table) paimon_table_free(st->table);
  for (size_t i = 0; i < st->n_pkeys; i++) free(st->pkeys[i]);
  free(st->pkeys);
  free(st->name);
  cp_type_free(st->row);
  free(st);
}

paimon_table *paimon_system_table_data_table(const paimon_system_table *st) { return st->table; }
const char *paimon_system_table_name(const paimon_system_table *st) { return st->name; }
const char *paimon_system_table_kind(const paimon_system_table *st) { return st->def->kind; }
size_t paimon_system_table_primary_key_count(const paimon_system_table *st) { return st->n_pkeys; }
const char *paimon_system_table_primary_key(const paimon_system_table *st, size_t i) {
  return i < st->n_pkeys ? st->pkeys[i] : NULL;
}

int paimon_system_table_arrow_schema(const paimon_system_table *st, struct ArrowSchema *out,
                                     paimon_error *err) {
  return cp_row_to_arrow_schema(st->row, out, err);
}

int paimon_system_table_fields_json(const paimon_system_table *st, char **out, paimon_error *err) {
  *out = NULL;
  json_t *fields = NULL;
  CP_RETURN_IF_ERROR(cp_fields_to_json(st->row, &fields, err));
  *out = json_dumps(fields, JSON_COMPACT);
  json_decref(fields);
  return *out ? PAIMON_OK : CP_ENOMEM(err, "system table fields");
}

/* ---- reading -------------------------------------------------------------------------------- */

/* Every row, as one struct array of st->row. */
static int fill_all(paimon_system_table *st, struct ArrowSchema *schema, struct ArrowArray *array,
                    paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_row_to_arrow_schema(st->row, schema, err));
  cp_builder *b = NULL;
  int rc = cp_builder_create(&b, schema, err);
  if (!rc) rc = st->def->fill(st, b, err);
  if (!rc) rc = cp_builder_finish(b, array, err);
  cp_builder_free(b);
  if (rc) {
    paimon_error_prefix(err, "%s", st->name);
    cp_schema_release(schema);
  }
  return rc;
}

/* Keeps the rows of `array` where `filter` is TRUE (replacing `array`). */
static int apply_filter(paimon_system_table *st, const paimon_predicate *filter,
                        const struct ArrowSchema *schema, struct ArrowArray *array,
                        paimon_error *err) {
  cp_expr *e = NULL;
  CP_RETURN_IF_ERROR(cp_predicate_bind(filter, st->row, &e, err));
  cp_array_view v;
  int rc = cp_array_view_init(&v, schema, array, err);
  uint8_t *bits = rc ? NULL : calloc((size_t)cp_bitmap_bytes(array->length) + 1, 1);
  if (!rc && !bits) rc = CP_ENOMEM(err, "filter");
  struct ArrowArray kept;
  memset(&kept, 0, sizeof kept);
  if (!rc) rc = cp_expr_eval_selection(e, &v, bits, NULL, err);
  if (!rc) rc = cp_filter(&v, bits, 0, &kept, err);
  if (bits) cp_array_view_reset(&v);
  free(bits);
  cp_expr_free(e);
  if (rc) return rc;
  cp_array_release(array);
  cp_array_move(&kept, array);
  return PAIMON_OK;
}

/* The columns `idx[0..n)` of `array` as a new struct array of `out_schema`. */
static int project(const struct ArrowSchema *schema, const struct ArrowArray *array,
                   const size_t *idx, size_t n, const struct ArrowSchema *out_schema,
                   struct ArrowArray *out, paimon_error *err) {
  cp_array_view v;
  CP_RETURN_IF_ERROR(cp_array_view_init(&v, schema, array, err));
  cp_builder *b = NULL;
  int rc = cp_builder_create(&b, out_schema, err);
  for (size_t j = 0; !rc && j < n; j++)
    rc = cp_builder_append_view(cp_builder_child(b, (int64_t)j), &v.children[idx[j]], 0, v.length,
                                err);
  if (!rc) rc = cp_builder_end_elements(b, v.length, err);
  if (!rc) rc = cp_builder_finish(b, out, err);
  cp_builder_free(b);
  cp_array_view_reset(&v);
  return rc;
}

/* The projected row type and the source column of each of its fields. */
static int projection(const paimon_system_table *st, const char *const *columns, size_t n,
                      cp_type **row, size_t *idx, paimon_error *err) {
  cp_field *fields = calloc(n ? n : 1, sizeof *fields);
  if (!fields) return CP_ENOMEM(err, "projection");
  int rc = PAIMON_OK;
  size_t made = 0;
  for (; !rc && made < n; made++) {
    ptrdiff_t i = columns[made] ? cp_row_field_index(st->row, columns[made]) : -1;
    if (i < 0) {
      rc = paimon_error_set(err, PAIMON_EINVAL, "%s has no column '%s'", st->name,
                            columns[made] ? columns[made] : "(null)");
      break;
    }
    idx[made] = (size_t)i;
    rc = cp_field_copy(&fields[made], &st->row->fields[i], err);
  }
  if (rc) {
    for (size_t i = 0; i < made; i++) cp_field_clear(&fields[i]);
  } else {
    rc = cp_type_new_row(row, fields, n, false, err); /* EINVAL for a name given twice */
    if (rc && rc != PAIMON_ENOMEM) paimon_error_prefix(err, "%s: projection", st->name);
  }
  free(fields);
  return rc;
}

int paimon_system_table_read(paimon_system_table *st, const char *const *columns, size_t n,
                             const paimon_predicate *filter, struct ArrowArrayStream *out,
                             paimon_error *err) {
  memset(out, 0, sizeof *out);
  cp_type *row = NULL;
  size_t *idx = NULL;
  int rc = PAIMON_OK;
  if (columns) {
    idx = calloc(n ? n : 1, sizeof *idx);
    rc = idx ? projection(st, columns, n, &row, idx, err) : CP_ENOMEM(err, "projection");
  }
  struct ArrowSchema schema, out_schema;
  struct ArrowArray array, projected;
  memset(&schema, 0, sizeof schema);
  memset(&out_schema, 0, sizeof out_schema);
  memset(&array, 0, sizeof array);
  memset(&projected, 0, sizeof projected);
  if (!rc) rc = fill_all(st, &schema, &array, err);
  if (!rc && filter) rc = apply_filter(st, filter, &schema, &array, err);
  if (!rc && row) {
    rc = cp_row_to_arrow_schema(row, &out_schema, err);
    if (!rc) rc = project(&schema, &array, idx, n, &out_schema, &projected, err);
    if (!rc) {
      cp_array_release(&array);
      cp_array_move(&projected, &array);
      cp_schema_release(&schema);
      schema = out_schema;
      memset(&out_schema, 0, sizeof out_schema);
    }
  }
  if (!rc) rc = cp_stream_from_batches(out, &schema, &array, 1, err);
  cp_schema_release(&out_schema);
  cp_schema_release(&schema);
  cp_array_release(&array);
  cp_type_free(row);
  free(idx);
  return rc;
}

/* ---- shared helpers ------------------------------------------------------------------------- */

int cp_sys_partition_types(paimon_table *t, const cp_type ***types, size_t *n, paimon_error *err) {
  const cp_table_schema *s = t->schema;
  *n = s->n_partition_keys;
  *types = malloc((*n ? *n : 1) * sizeof **types);
  if (!*types) return CP_ENOMEM(err, "partition types");
  for (size_t i = 0; i < *n; i++)
    (*types)[i] = s->row->fields[cp_table_schema_partition_index(s, i)].type;
  return PAIMON_OK;
}

int cp_sys_strn(cp_builder *b, int64_t col, const void *s, size_t n, paimon_error *err) {
  cp_builder *c = cp_builder_child(b, col);
  return s ? cp_builder_append_bytes(c, s, (int64_t)n, err) : cp_builder_append_null(c, err);
}

int cp_sys_str(cp_builder *b, int64_t col, const char *s, paimon_error *err) {
  return cp_sys_strn(b, col, s, s ? strlen(s) : 0, err);
}

int cp_sys_i64(cp_builder *b, int64_t col, int64_t v, paimon_error *err) {
  return cp_builder_append_int64(cp_builder_child(b, col), v, err);
}

int cp_sys_opt_i64(cp_builder *b, int64_t col, bool has, int64_t v, paimon_error *err) {
  return has ? cp_sys_i64(b, col, v, err) : cp_sys_null(b, col, err);
}

int cp_sys_null(cp_builder *b, int64_t col, paimon_error *err) {
  return cp_builder_append_null(cp_builder_child(b, col), err);
}

int cp_sys_end_row(cp_builder *b, paimon_error *err) { return cp_builder_end_element(b, err); }

int cp_sys_fill_empty(paimon_system_table *st, cp_builder *b, paimon_error *err) {
  (void)st;
  (void)b;
  (void)err;
  return PAIMON_OK;
}
