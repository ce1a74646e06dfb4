/*
 * The system tables over a table's versioned metadata files (include/cpaimon/system_table.h):
 * `$snapshots` (snapshot files, spec/format.md §3; Java SnapshotsTable), `$schemas` (schema
 * files, §2; Java SchemasTable) and `$options` (the latest schema's options; Java OptionsTable).
 *
 * Java reads the schema files afresh (SchemaManager), so the views show what is on disk now, not
 * the schema the table handle was opened with. Its option maps are java.util.HashMap (the schema
 * deserializer's), which decides the row order of `$options` and the key order of the `options`
 * JSON of `$schemas`; we reproduce that order.
 */
#include <inttypes.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "table/history_internal.h"
#include "table/store.h"
#include "table/system_table.h"
#include "types/type_json.h"

/* ---- $snapshots ----------------------------------------------------------------------------- */

static int snapshot_row(const cp_snapshot *s, cp_builder *b, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_sys_i64(b, 0, s->id, err));
  CP_RETURN_IF_ERROR(cp_sys_i64(b, 1, s->schema_id, err));
  CP_RETURN_IF_ERROR(cp_sys_str(b, 2, s->commit_user, err));
  CP_RETURN_IF_ERROR(cp_sys_i64(b, 3, s->commit_identifier, err));
  CP_RETURN_IF_ERROR(cp_sys_str(b, 4, cp_commit_kind_name(s->commit_kind), err));
  CP_RETURN_IF_ERROR(cp_sys_i64(b, 5, cp_java_local_millis(s->time_millis), err));
  CP_RETURN_IF_ERROR(cp_sys_str(b, 6, s->base_manifest_list, err));
  CP_RETURN_IF_ERROR(cp_sys_str(b, 7, s->delta_manifest_list, err));
  CP_RETURN_IF_ERROR(cp_sys_str(b, 8, s->changelog_manifest_list, err));
  CP_RETURN_IF_ERROR(cp_sys_i64(b, 9, s->total_record_count, err));
  CP_RETURN_IF_ERROR(cp_sys_i64(b, 10, s->delta_record_count, err));
  CP_RETURN_IF_ERROR(
      cp_sys_opt_i64(b, 11, s->has_changelog_record_count, s->changelog_record_count, err));
  CP_RETURN_IF_ERROR(cp_sys_opt_i64(b, 12, s->has_watermark, s->watermark, err));
  CP_RETURN_IF_ERROR(cp_sys_opt_i64(b, 13, s->has_next_row_id, s->next_row_id, err));
  return cp_sys_end_row(b, err);
}

/* The ids of the versioned files `<table>/<dir>/<prefix><id>`, ascending. */
static int list_ids(paimon_table *t, const char *dir, const char *prefix, int64_t **ids, size_t *n,
                    paimon_error *err) {
  char *path = cp_path_join(t->path, dir);
  if (!path) return CP_ENOMEM(err, "path");
  int rc = cp_list_versioned(t->fs, path, prefix, ids, n, err);
  free(path);
  return rc;
}

int cp_sys_fill_snapshots(paimon_system_table *st, cp_builder *b, paimon_error *err) {
  int64_t *ids = NULL;
  size_t n = 0;
  CP_RETURN_IF_ERROR(list_ids(st->table, "snapshot", "snapshot-", &ids, &n, err));
  int rc = PAIMON_OK;
  for (size_t i = 0; !rc && i < n; i++) {
    cp_snapshot *s = NULL;
    rc = cp_snapshot_load(st->table->fs, st->table->path, ids[i], &s, err);
    /* Expired between listing and loading: it is no longer part of the table. */
    if (rc == PAIMON_ENOTFOUND) {
      rc = PAIMON_OK;
      continue;
    }
    if (!rc) rc = snapshot_row(s, b, err);
    cp_snapshot_free(s);
  }
  free(ids);
  return rc;
}

/* ---- $tags ---------------------------------------------------------------------------------- */

/* java.time.Duration.toString() of a whole number of milliseconds: "PT1H30M", "PT0.5S", "PT0S". */
static void iso_duration(int64_t ms, char out[64]) {
  int n = snprintf(out, 64, "%sPT", ms < 0 ? "-" : "");
  if (ms < 0) ms = -ms;
  int64_t h = ms / 3600000, m = ms / 60000 % 60, s = ms / 1000 % 60, f = ms % 1000;
  if (h) n += snprintf(out + n, 64 - n, "%" PRId64 "H", h);
  if (m) n += snprintf(out + n, 64 - n, "%" PRId64 "M", m);
  if (s || f || (!h && !m)) {
    n += snprintf(out + n, 64 - n, "%" PRId64, s);
    if (f) {
      n += snprintf(out + n, 64 - n, ".%03" PRId64, f);
      while (out[n - 1] == '0') out[--n] = '\0';
    }
    snprintf(out + n, 64 - n, "S");
  }
}

int cp_sys_fill_tags(paimon_system_table *st, cp_builder *b, paimon_error *err) {
  paimon_tag_list tags;
  CP_RETURN_IF_ERROR(paimon_table_list_tags(st->table, &tags, err));
  int rc = PAIMON_OK;
  for (size_t i = 0; !rc && i < tags.count; i++) {
    const paimon_tag *g = &tags.items[i];
    char retained[64];
    if (g->has_time_retained) iso_duration(g->time_retained_millis, retained);
    if (!rc) rc = cp_sys_str(b, 0, g->name, err);
    if (!rc) rc = cp_sys_i64(b, 1, g->snapshot_id, err);
    if (!rc) rc = cp_sys_i64(b, 2, g->schema_id, err);
    if (!rc) rc = cp_sys_i64(b, 3, cp_java_local_millis(g->commit_time_millis), err);
    if (!rc) rc = cp_sys_i64(b, 4, g->record_count, err);
    if (!rc) rc = cp_sys_opt_i64(b, 5, g->has_create_time, g->create_time_millis, err);
    if (!rc) rc = g->has_time_retained ? cp_sys_str(b, 6, retained, err) : cp_sys_null(b, 6, err);
    if (!rc) rc = cp_sys_end_row(b, err);
  }
  paimon_tag_list_free(&tags);
  return rc;
}

/* ---- $schemas ------------------------------------------------------------------------------- */

/* Jackson's compact form (JsonSerdeUtil.toFlatJson) of `v`, consumed, into column `col`. */
static int json_cell(cp_builder *b, int64_t col, json_t *v, paimon_error *err) {
  if (!v) return CP_ENOMEM(err, "schema JSON");
  char *text = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
  json_decref(v);
  if (!text) return CP_ENOMEM(err, "schema JSON");
  int rc = cp_sys_str(b, col, text, err);
  free(text);
  return rc;
}

static json_t *string_array(char *const *items, size_t n) {
  json_t *a = json_array();
  for (size_t i = 0; a && i < n; i++)
    if (json_array_append_new(a, json_string(items[i])) != 0) {
      json_decref(a);
      return NULL;
    }
  return a;
}

/* The options as a JSON object in Java's HashMap order. */
static int options_json(const cp_options *o, json_t **out, paimon_error *err) {
  size_t *order = malloc((o->n ? o->n : 1) * sizeof *order);
  if (!order) return CP_ENOMEM(err, "options");
  int rc = cp_java_hashmap_order((const char *const *)o->keys, o->n, order, err);
  json_t *obj = rc ? NULL : json_object();
  if (!rc && !obj) rc = CP_ENOMEM(err, "options");
  for (size_t i = 0; !rc && i < o->n; i++)
    if (json_object_set_new(obj, o->keys[order[i]], json_string(o->values[order[i]])) != 0)
      rc = CP_ENOMEM(err, "options");
  free(order);
  if (rc) {
    json_decref(obj);
    return rc;
  }
  *out = obj;
  return PAIMON_OK;
}

static int schema_row(const cp_table_schema *s, cp_builder *b, paimon_error *err) {
  json_t *fields = NULL, *options = NULL;
  CP_RETURN_IF_ERROR(cp_sys_i64(b, 0, s->id, err));
  CP_RETURN_IF_ERROR(cp_fields_to_json(s->row, &fields, err));
  CP_RETURN_IF_ERROR(json_cell(b, 1, fields, err));
  CP_RETURN_IF_ERROR(json_cell(b, 2, string_array(s->partition_keys, s->n_partition_keys), err));
  CP_RETURN_IF_ERROR(json_cell(b, 3, string_array(s->primary_keys, s->n_primary_keys), err));
  CP_RETURN_IF_ERROR(options_json(&s->options, &options, err));
  CP_RETURN_IF_ERROR(json_cell(b, 4, options, err));
  CP_RETURN_IF_ERROR(cp_sys_str(b, 5, s->comment, err));
  CP_RETURN_IF_ERROR(cp_sys_i64(b, 6, cp_java_local_millis(s->time_millis), err));
  return cp_sys_end_row(b, err);
}

int cp_sys_fill_schemas(paimon_system_table *st, cp_builder *b, paimon_error *err) {
  int64_t *ids = NULL;
  size_t n = 0;
  CP_RETURN_IF_ERROR(list_ids(st->table, "schema", "schema-", &ids, &n, err));
  int rc = PAIMON_OK;
  for (size_t i = 0; !rc && i < n; i++) {
    cp_table_schema *s = NULL;
    rc = cp_schema_load(st->table->fs, st->table->path, ids[i], &s, err);
    if (!rc) rc = schema_row(s, b, err);
    cp_table_schema_free(s);
  }
  free(ids);
  return rc;
}

/* ---- $options ------------------------------------------------------------------------------- */

int cp_sys_fill_options(paimon_system_table *st, cp_builder *b, paimon_error *err) {
  cp_table_schema *s = NULL;
  CP_RETURN_IF_ERROR(cp_schema_load_latest(st->table->fs, st->table->path, &s, err));
  const cp_options *o = &s->options;
  size_t *order = malloc((o->n ? o->n : 1) * sizeof *order);
  int rc = order ? cp_java_hashmap_order((const char *const *)o->keys, o->n, order, err)
                 : CP_ENOMEM(err, "options");
  for (size_t i = 0; !rc && i < o->n; i++) {
    rc = cp_sys_str(b, 0, o->keys[order[i]], err);
    if (!rc) rc = cp_sys_str(b, 1, o->values[order[i]], err);
    if (!rc) rc = cp_sys_end_row(b, err);
  }
  free(order);
  cp_table_schema_free(s);
  return rc;
}
