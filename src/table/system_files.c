/*
 * The system tables over the latest snapshot's file set (include/cpaimon/system_table.h):
 * `$manifests` (the manifest lists, spec/format.md §4.2; Java ManifestsTable), `$files` and
 * `$file_key_ranges` (the live data files, §4.4 and §4.8; Java FilesTable, FileKeyRangesTable) and
 * `$table_indexes` (the index manifest, §7.1; Java TableIndexesTable). A table without snapshots
 * has empty views, as in Java.
 *
 * Partitions print as Java's CAST(row AS STRING), "{v1, v2}" ("{}" unpartitioned), decoded with
 * the partition keys' types of the table's current schema. Files are listed in the order of the
 * snapshot's merged manifest entries (Java groups them by partition in hash order: the order of
 * the rows is not part of the contract in either).
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/status.h"
#include "meta/binary_row.h"
#include "meta/snapshot.h"
#include "table/file_store.h"
#include "table/store.h"
#include "table/system_table.h"

int cp_sys_latest_snapshot(paimon_table *t, cp_snapshot **out, paimon_error *err) {
  *out = NULL;
  int64_t id;
  bool exists = false;
  CP_RETURN_IF_ERROR(cp_table_latest_snapshot_id(t, &id, &exists, err));
  return exists ? cp_snapshot_load(t->fs, t->path, id, out, err) : PAIMON_OK;
}

int cp_sys_partition_text(const cp_type *const *types, size_t n, const uint8_t *row, size_t len,
                          cp_buf *out, paimon_error *err) {
  cp_datum *vals = malloc((n ? n : 1) * sizeof *vals);
  if (!vals) return CP_ENOMEM(err, "partition");
  int rc = cp_binary_row_read(row, len, types, n, vals, err);
  if (!rc) rc = cp_java_row_string(types, vals, n, out, err);
  free(vals);
  return rc;
}

/* A cell holding the partition text of `row` (null for an absent row). */
static int partition_cell(cp_builder *b, int64_t col, const cp_type *const *types, size_t n,
                          cp_bytes row, paimon_error *err) {
  if (!row.data) return cp_sys_null(b, col, err);
  cp_buf text = CP_BUF_INIT;
  int rc = cp_sys_partition_text(types, n, row.data, row.len, &text, err);
  if (!rc) rc = cp_sys_strn(b, col, text.data ? (const char *)text.data : "", text.len, err);
  cp_buf_free(&text);
  return rc;
}

/* ---- $manifests ----------------------------------------------------------------------------- */

static int manifest_row(const cp_manifest_file_meta *m, const cp_type *const *types, size_t n,
                        cp_builder *b, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_sys_str(b, 0, m->file_name, err));
  CP_RETURN_IF_ERROR(cp_sys_i64(b, 1, m->file_size, err));
  CP_RETURN_IF_ERROR(cp_sys_i64(b, 2, m->num_added_files, err));
  CP_RETURN_IF_ERROR(cp_sys_i64(b, 3, m->num_deleted_files, err));
  CP_RETURN_IF_ERROR(cp_sys_i64(b, 4, m->schema_id, err));
  CP_RETURN_IF_ERROR(partition_cell(b, 5, types, n, m->partition_stats.min_values, err));
  CP_RETURN_IF_ERROR(partition_cell(b, 6, types, n, m->partition_stats.max_values, err));
  CP_RETURN_IF_ERROR(cp_sys_opt_i64(b, 7, m->has_row_id_range, m->min_row_id, err));
  CP_RETURN_IF_ERROR(cp_sys_opt_i64(b, 8, m->has_row_id_range, m->max_row_id, err));
  return cp_sys_end_row(b, err);
}

int cp_sys_fill_manifests(paimon_system_table *st, cp_builder *b, paimon_error *err) {
  paimon_table *t = st->table;
  cp_snapshot *snap = NULL;
  CP_RETURN_IF_ERROR(cp_sys_latest_snapshot(t, &snap, err));
  if (!snap) return PAIMON_OK;
  const cp_type **types = NULL;
  size_t n = 0;
  cp_arena arena = CP_ARENA_INIT;
  cp_manifest_meta_vec metas = {0};
  /* ManifestList.readAllManifests: the data manifests (base, then delta), then changelog. */
  const char *lists[3] = {snap->base_manifest_list, snap->delta_manifest_list,
                          snap->changelog_manifest_list};
  int rc = cp_sys_partition_types(t, &types, &n, err);
  for (int l = 0; !rc && l < 3; l++)
    if (lists[l]) rc = cp_read_manifest_list(t->fs, t->path, lists[l], &arena, &metas, err);
  for (size_t i = 0; !rc && i < metas.n; i++) rc = manifest_row(&metas.items[i], types, n, b, err);
  cp_manifest_meta_vec_free(&metas);
  cp_arena_free(&arena);
  free(types);
  cp_snapshot_free(snap);
  return rc;
}

/* ---- $files, $file_key_ranges --------------------------------------------------------------- */

/* DataFilePathFactory.formatIdentifier (meta/data_file.h). */
static int format_of(const char *name, cp_builder *b, int64_t col, paimon_error *err) {
  const char *f;
  size_t n;
  CP_RETURN_IF_ERROR(cp_data_file_format(name, &f, &n, err));
  return cp_sys_strn(b, col, f, n, err);
}

static int key_cell(paimon_table *t, const cp_data_file_meta *f, bool min, cp_builder *b,
                    int64_t col, paimon_error *err) {
  cp_buf text = CP_BUF_INIT;
  bool is_null;
  int rc = cp_sys_key_text(t, f, min, &text, &is_null, err);
  if (!rc)
    rc = is_null ? cp_sys_null(b, col, err)
                 : cp_sys_strn(b, col, (const char *)text.data, text.len, err);
  cp_buf_free(&text);
  return rc;
}

/* Columns 0..9, shared by both views. */
static int file_head(paimon_table *t, const cp_manifest_entry *e, const cp_type *const *types,
                     size_t n, cp_builder *b, paimon_error *err) {
  const cp_data_file_meta *f = &e->file;
  char *path = NULL;
  CP_RETURN_IF_ERROR(partition_cell(b, 0, types, n, e->partition, err));
  CP_RETURN_IF_ERROR(cp_sys_i64(b, 1, e->bucket, err));
  CP_RETURN_IF_ERROR(cp_data_file_path(t, e->partition, e->bucket, f, &path, err));
  int rc = cp_sys_str(b, 2, path, err);
  free(path);
  CP_RETURN_IF_ERROR(rc);
  CP_RETURN_IF_ERROR(format_of(f->file_name, b, 3, err));
  CP_RETURN_IF_ERROR(cp_sys_i64(b, 4, f->schema_id, err));
  CP_RETURN_IF_ERROR(cp_sys_i64(b, 5, f->level, err));
  CP_RETURN_IF_ERROR(cp_sys_i64(b, 6, f->row_count, err));
  CP_RETURN_IF_ERROR(cp_sys_i64(b, 7, f->file_size, err));
  CP_RETURN_IF_ERROR(key_cell(t, f, true, b, 8, err));
  return key_cell(t, f, false, b, 9, err);
}

static int write_cols_cell(const cp_data_file_meta *f, cp_builder *b, int64_t col,
                           paimon_error *err) {
  cp_builder *list = cp_builder_child(b, col);
  if (!f->has_write_cols) return cp_builder_append_null(list, err);
  for (size_t i = 0; i < f->write_cols.n; i++)
    CP_RETURN_IF_ERROR(
        cp_builder_append_str(cp_builder_child(list, 0), f->write_cols.items[i], err));
  return cp_builder_end_element(list, err);
}

static int stats_cells(paimon_table *t, const cp_data_file_meta *f, cp_builder *b,
                       paimon_error *err) {
  cp_buf nulls = CP_BUF_INIT, mins = CP_BUF_INIT, maxs = CP_BUF_INIT;
  int rc = cp_sys_stats_text(t, f, &nulls, &mins, &maxs, err);
  if (!rc) rc = cp_sys_strn(b, 10, (const char *)nulls.data, nulls.len, err);
  if (!rc) rc = cp_sys_strn(b, 11, (const char *)mins.data, mins.len, err);
  if (!rc) rc = cp_sys_strn(b, 12, (const char *)maxs.data, maxs.len, err);
  cp_buf_free(&nulls);
  cp_buf_free(&mins);
  cp_buf_free(&maxs);
  if (rc && rc != PAIMON_ENOMEM) paimon_error_prefix(err, "file %s: statistics", f->file_name);
  return rc;
}

static int file_row(paimon_table *t, const cp_manifest_entry *e, const cp_type *const *types,
                    size_t n, bool key_ranges, cp_builder *b, paimon_error *err) {
  const cp_data_file_meta *f = &e->file;
  CP_RETURN_IF_ERROR(file_head(t, e, types, n, b, err));
  if (key_ranges) {
    CP_RETURN_IF_ERROR(cp_sys_opt_i64(b, 10, f->has_first_row_id, f->first_row_id, err));
    return cp_sys_end_row(b, err);
  }
  CP_RETURN_IF_ERROR(stats_cells(t, f, b, err));
  CP_RETURN_IF_ERROR(cp_sys_i64(b, 13, f->min_sequence_number, err));
  CP_RETURN_IF_ERROR(cp_sys_i64(b, 14, f->max_sequence_number, err));
  CP_RETURN_IF_ERROR(cp_sys_opt_i64(b, 15, f->has_creation_time, f->creation_time_millis, err));
  CP_RETURN_IF_ERROR(cp_sys_opt_i64(b, 16, f->has_delete_row_count, f->delete_row_count, err));
  const char *source = !f->has_file_source                        ? NULL
                       : f->file_source == CP_FILE_SOURCE_APPEND  ? "APPEND"
                       : f->file_source == CP_FILE_SOURCE_COMPACT ? "COMPACT"
                                                                  : "UNKNOWN";
  CP_RETURN_IF_ERROR(cp_sys_str(b, 17, source, err));
  CP_RETURN_IF_ERROR(cp_sys_opt_i64(b, 18, f->has_first_row_id, f->first_row_id, err));
  CP_RETURN_IF_ERROR(write_cols_cell(f, b, 19, err));
  return cp_sys_end_row(b, err);
}

static int fill_files(paimon_system_table *st, bool key_ranges, cp_builder *b, paimon_error *err) {
  paimon_table *t = st->table;
  cp_snapshot *snap = NULL;
  CP_RETURN_IF_ERROR(cp_sys_latest_snapshot(t, &snap, err));
  if (!snap) return PAIMON_OK;
  const cp_type **types = NULL;
  size_t n = 0;
  cp_arena arena = CP_ARENA_INIT;
  cp_entry_vec live = {0};
  int rc = cp_sys_partition_types(t, &types, &n, err);
  if (!rc) rc = cp_snapshot_entries(t->fs, t->path, snap, NULL, false, &arena, &live, err);
  for (size_t i = 0; !rc && i < live.n; i++)
    rc = file_row(t, &live.items[i], types, n, key_ranges, b, err);
  cp_entry_vec_free(&live);
  cp_arena_free(&arena);
  free(types);
  cp_snapshot_free(snap);
  return rc;
}

int cp_sys_fill_files(paimon_system_table *st, cp_builder *b, paimon_error *err) {
  return fill_files(st, false, b, err);
}

int cp_sys_fill_file_key_ranges(paimon_system_table *st, cp_builder *b, paimon_error *err) {
  return fill_files(st, true, b, err);
}

/* ---- $table_indexes ------------------------------------------------------------------------- */

static int dv_ranges_cell(const cp_index_manifest_entry *e, cp_builder *b, int64_t col,
                          paimon_error *err) {
  cp_builder *list = cp_builder_child(b, col);
  if (!e->has_dv_ranges) return cp_builder_append_null(list, err);
  cp_builder *item = cp_builder_child(list, 0);
  for (size_t i = 0; i < e->n_dv_ranges; i++) {
    const cp_dv_meta *m = &e->dv_ranges[i];
    CP_RETURN_IF_ERROR(cp_sys_str(item, 0, m->data_file, err));
    CP_RETURN_IF_ERROR(cp_sys_i64(item, 1, m->offset, err));
    CP_RETURN_IF_ERROR(cp_sys_i64(item, 2, m->length, err));
    CP_RETURN_IF_ERROR(cp_sys_opt_i64(item, 3, m->has_cardinality, m->cardinality, err));
    CP_RETURN_IF_ERROR(cp_builder_end_element(item, err));
  }
  return cp_builder_end_element(list, err);
}

int cp_sys_fill_table_indexes(paimon_system_table *st, cp_builder *b, paimon_error *err) {
  paimon_table *t = st->table;
  cp_snapshot *snap = NULL;
  CP_RETURN_IF_ERROR(cp_sys_latest_snapshot(t, &snap, err));
  if (!snap) return PAIMON_OK;
  const cp_type **types = NULL;
  size_t n = 0;
  cp_arena arena = CP_ARENA_INIT;
  cp_index_entry_vec idx = {0};
  int rc = cp_sys_partition_types(t, &types, &n, err);
  if (!rc) rc = cp_snapshot_index_entries(t->fs, t->path, snap, &arena, &idx, err);
  for (size_t i = 0; !rc && i < idx.n; i++) {
    const cp_index_manifest_entry *e = &idx.items[i];
    if (e->kind != CP_FILE_KIND_ADD) continue;
    rc = partition_cell(b, 0, types, n, e->partition, err);
    if (!rc) rc = cp_sys_i64(b, 1, e->bucket, err);
    if (!rc) rc = cp_sys_str(b, 2, e->index_type, err);
    if (!rc) rc = cp_sys_str(b, 3, e->file_name, err);
    if (!rc) rc = cp_sys_i64(b, 4, e->file_size, err);
    if (!rc) rc = cp_sys_i64(b, 5, e->row_count, err);
    if (!rc) rc = dv_ranges_cell(e, b, 6, err);
    if (!rc) rc = cp_sys_end_row(b, err);
  }
  cp_index_entry_vec_free(&idx);
  cp_arena_free(&arena);
  free(types);
  cp_snapshot_free(snap);
  return rc;
}
