/*
 * `$partitions` and `$buckets` (include/cpaimon/system_table.h; Java PartitionsTable and
 * BucketsTable over PartitionEntry / BucketEntry): the latest snapshot's live data files summed per
 * partition and per (partition, bucket): record count, file size, file count, and the newest file
 * creation time (spec/format.md §4.4, a wall-clock value shown as it is stored).
 *
 * The two name a partition differently, as Java does. `$partitions` uses the partition spec
 * "k1=v1/k2=v2" (values cast to STRING, NULL and blank strings as the table's
 * partition.default-name, "" for an unpartitioned table) and sorts by it; `$buckets` uses the
 * row's CAST AS STRING "{v1, v2}" and sorts by it, then by bucket. The catalog-owned columns of
 * `$partitions` (created_at, created_by, updated_by, options) are NULL: a filesystem catalog keeps
 * none.
 */
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "meta/binary_row.h"
#include "meta/snapshot.h"
#include "table/file_store.h"
#include "table/system_table.h"

/* One partition (or partition and bucket) and its sums. */
typedef struct group {
  cp_bytes partition;
  int32_t bucket;
  int64_t records, bytes, files;
  bool has_time;
  int64_t last_time;
  char *text;
} group;

typedef struct group_set {
  group *items;
  size_t n;
} group_set;

static int cmp_bytes(cp_bytes a, cp_bytes b) {
  size_t n = a.len < b.len ? a.len : b.len;
  int c = n ? memcmp(a.data, b.data, n) : 0;
  if (c) return c;
  return a.len < b.len ? -1 : a.len > b.len;
}

static int cmp_entry(const void *x, const void *y, bool by_bucket) {
  const cp_manifest_entry *a = *(const cp_manifest_entry *const *)x;
  const cp_manifest_entry *b = *(const cp_manifest_entry *const *)y;
  int c = cmp_bytes(a->partition, b->partition);
  if (c || !by_bucket) return c;
  return a->bucket < b->bucket ? -1 : a->bucket > b->bucket;
}

static int cmp_partition(const void *x, const void *y) { return cmp_entry(x, y, false); }
static int cmp_partition_bucket(const void *x, const void *y) { return cmp_entry(x, y, true); }

/* Sums the live files of `snap` per partition (and bucket when `by_bucket`). */
static int collect(paimon_table *t, const cp_snapshot *snap, bool by_bucket, cp_arena *arena,
                   group_set *out, paimon_error *err) {
  cp_entry_vec live = {0};
  CP_RETURN_IF_ERROR(cp_snapshot_entries(t->fs, t->path, snap, NULL, false, arena, &live, err));
  const cp_manifest_entry **sorted = malloc((live.n + 1) * sizeof *sorted);
  out->items = calloc(live.n + 1, sizeof *out->items);
  int rc = sorted && out->items ? PAIMON_OK : CP_ENOMEM(err, "partitions");
  for (size_t i = 0; !rc && i < live.n; i++) sorted[i] = &live.items[i];
  if (!rc) qsort(sorted, live.n, sizeof *sorted, by_bucket ? cmp_partition_bucket : cmp_partition);
  for (size_t i = 0; !rc && i < live.n; i++) {
    const cp_manifest_entry *e = sorted[i];
    group *g = out->n ? &out->items[out->n - 1] : NULL;
    if (!g || cmp_bytes(g->partition, e->partition) != 0 || (by_bucket && g->bucket != e->bucket)) {
      g = &out->items[out->n++];
      g->partition = e->partition;
      g->bucket = e->bucket;
    }
    g->records += e->file.row_count;
    g->bytes += e->file.file_size;
    g->files++;
    if (e->file.has_creation_time &&
        (!g->has_time || e->file.creation_time_millis > g->last_time)) {
      g->has_time = true;
      g->last_time = e->file.creation_time_millis;
    }
  }
  free(sorted);
  cp_entry_vec_free(&live);
  return rc;
}

static void group_set_free(group_set *s) {
  for (size_t i = 0; s->items && i < s->n; i++) free(s->items[i].text);
  free(s->items);
}

/* The partition spec of a partition row: with `out`, the text "k=v/k2=v2"; with `values`, each
 * value as a string (n of them, malloc'ed). */
static int spec_of(paimon_table *t, const cp_type *const *types, size_t n, cp_bytes row,
                   cp_buf *out, char **values, paimon_error *err) {
  const cp_table_schema *s = t->schema;
  cp_datum *vals = malloc((n ? n : 1) * sizeof *vals);
  if (!vals) return CP_ENOMEM(err, "partition");
  int rc = cp_binary_row_read(row.data, row.len, types, n, vals, err);
  for (size_t i = 0; !rc && i < n; i++) {
    cp_buf one = CP_BUF_INIT;
    /* The spec maps NULL and whitespace-only strings to the default name, which reads back as
     * NULL and prints as that name again. */
    bool blank = !vals[i].is_null && cp_type_is_string(types[i]);
    for (size_t k = 0; blank && k < vals[i].v.bytes.len; k++)
      blank = strchr(" \t\n\v\f\r", vals[i].v.bytes.data[k]) != NULL;
    if (vals[i].is_null || blank)
      rc = cp_buf_append(&one, t->options.partition_default_name,
                         strlen(t->options.partition_default_name), err);
    else
      rc = cp_java_cast_string(types[i], &vals[i], &one, err);
    if (!rc && out && i) rc = cp_buf_append(out, "/", 1, err);
    if (!rc && out)
      rc = cp_buf_appendf(out, err, "%s=%.*s", s->partition_keys[i], (int)one.len,
                          one.len ? (const char *)one.data : "");
    if (!rc && values) rc = cp_buf_nul_terminate(&one, err);
    if (!rc && values) {
      values[i] = (char *)cp_buf_detach(&one);
      if (!values[i]) rc = CP_ENOMEM(err, "partition");
    }
    cp_buf_free(&one);
  }
  free(vals);
  return rc;
}

static int text_of(paimon_table *t, const cp_type *const *types, size_t n, group *g, bool spec,
                   paimon_error *err) {
  cp_buf text = CP_BUF_INIT;
  int rc = spec ? spec_of(t, types, n, g->partition, &text, NULL, err)
                : cp_sys_partition_text(types, n, g->partition.data, g->partition.len, &text, err);
  if (!rc) rc = cp_buf_nul_terminate(&text, err);
  if (rc) {
    cp_buf_free(&text);
    return rc;
  }
  g->text = (char *)cp_buf_detach(&text);
  return g->text ? PAIMON_OK : CP_ENOMEM(err, "partition");
}

static int cmp_group(const void *x, const void *y) {
  const group *a = x, *b = y;
  int c = strcmp(a->text, b->text);
  if (c) return c;
  return a->bucket < b->bucket ? -1 : a->bucket > b->bucket;
}

/* The groups of the latest snapshot with their texts, sorted as Java sorts the rows. */
static int groups(paimon_table *t, bool by_bucket, cp_arena *arena, group_set *out,
                  paimon_error *err) {
  memset(out, 0, sizeof *out);
  cp_snapshot *snap = NULL;
  CP_RETURN_IF_ERROR(cp_sys_latest_snapshot(t, &snap, err));
  if (!snap) return PAIMON_OK;
  const cp_type **types = NULL;
  size_t n = 0;
  int rc = cp_sys_partition_types(t, &types, &n, err);
  if (!rc) rc = collect(t, snap, by_bucket, arena, out, err);
  for (size_t i = 0; !rc && i < out->n; i++)
    rc = text_of(t, types, n, &out->items[i], !by_bucket, err);
  if (!rc) qsort(out->items, out->n, sizeof *out->items, cmp_group);
  free(types);
  cp_snapshot_free(snap);
  return rc;
}

int cp_sys_fill_partitions(paimon_system_table *st, cp_builder *b, paimon_error *err) {
  cp_arena arena = CP_ARENA_INIT;
  group_set gs;
  int rc = groups(st->table, false, &arena, &gs, err);
  for (size_t i = 0; !rc && i < gs.n; i++) {
    const group *g = &gs.items[i];
    rc = cp_sys_str(b, 0, g->text, err);
    if (!rc) rc = cp_sys_i64(b, 1, g->records, err);
    if (!rc) rc = cp_sys_i64(b, 2, g->bytes, err);
    if (!rc) rc = cp_sys_i64(b, 3, g->files, err);
    if (!rc) rc = cp_sys_opt_i64(b, 4, g->has_time, g->last_time, err);
    for (int64_t col = 5; !rc && col <= 8; col++) rc = cp_sys_null(b, col, err);
    if (!rc) rc = cp_sys_end_row(b, err);
  }
  group_set_free(&gs);
  cp_arena_free(&arena);
  return rc;
}

int cp_sys_fill_buckets(paimon_system_table *st, cp_builder *b, paimon_error *err) {
  cp_arena arena = CP_ARENA_INIT;
  group_set gs;
  int rc = groups(st->table, true, &arena, &gs, err);
  for (size_t i = 0; !rc && i < gs.n; i++) {
    const group *g = &gs.items[i];
    rc = cp_sys_str(b, 0, g->text, err);
    if (!rc) rc = cp_sys_i64(b, 1, g->bucket, err);
    if (!rc) rc = cp_sys_i64(b, 2, g->records, err);
    if (!rc) rc = cp_sys_i64(b, 3, g->bytes, err);
    if (!rc) rc = cp_sys_i64(b, 4, g->files, err);
    if (!rc) rc = cp_sys_opt_i64(b, 5, g->has_time, g->last_time, err);
    if (!rc) rc = cp_sys_end_row(b, err);
  }
  group_set_free(&gs);
  cp_arena_free(&arena);
  return rc;
}

int cp_table_partitions_from_files(paimon_table *t, paimon_partition_list *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  cp_arena arena = CP_ARENA_INIT;
  group_set gs;
  int rc = groups(t, false, &arena, &gs, err);
  const cp_type **types = NULL;
  size_t n = 0;
  if (!rc) rc = cp_sys_partition_types(t, &types, &n, err);
  if (!rc && gs.n && !(out->items = calloc(gs.n, sizeof *out->items)))
    rc = CP_ENOMEM(err, "partitions");
  for (size_t i = 0; !rc && i < gs.n; i++) {
    const group *g = &gs.items[i];
    paimon_partition *p = &out->items[out->count++];
    p->record_count = g->records;
    p->file_size_in_bytes = g->bytes;
    p->file_count = g->files;
    p->last_file_creation_time = g->has_time ? g->last_time : -1;
    p->n_spec = n;
    p->spec_keys = calloc(n ? n : 1, sizeof *p->spec_keys);
    p->spec_values = calloc(n ? n : 1, sizeof *p->spec_values);
    if (!p->spec_keys || !p->spec_values) rc = CP_ENOMEM(err, "partitions");
    for (size_t k = 0; !rc && k < n; k++)
      if (!(p->spec_keys[k] = strdup(t->schema->partition_keys[k])))
        rc = CP_ENOMEM(err, "partitions");
    if (!rc) rc = spec_of(t, types, n, g->partition, NULL, p->spec_values, err);
  }
  free(types);
  group_set_free(&gs);
  cp_arena_free(&arena);
  if (rc) paimon_partition_list_free(out);
  return rc;
}
