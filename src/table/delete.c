/*
 * Deletes on data-evolution tables (include/cpaimon/delete.h; spec/data-evolution.md §3.7, §2.6,
 * §4.1, and pypaimon's write/table_delete.py and table_update.py, whose validation order and
 * messages we keep): row ids → anchors of their row-range groups → deletion vectors, one new DV
 * index file per (partition, bucket); predicates on partition columns only → partition drop.
 */
#include "cpaimon/delete.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/array.h"
#include "arrow/stream.h"
#include "base/status.h"
#include "cpaimon/read.h"
#include "expr/expr.h"
#include "expr/predicate.h"
#include "meta/binary_row.h"
#include "table/commit_message.h"
#include "table/dv.h"
#include "table/scan.h"
#include "table/store.h"
#include "types/special_fields.h"

/* pypaimon's TableDeleteByRowId._validate_delete, in its order. */
static int validate_delete(paimon_table *t, paimon_error *err) {
  if (!t->options.data_evolution)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "delete requires 'data-evolution.enabled' = 'true'.");
  if (!t->options.row_tracking)
    return paimon_error_set(err, PAIMON_EINVAL, "delete requires 'row-tracking.enabled' = 'true'.");
  if (!t->options.deletion_vectors)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "delete requires 'deletion-vectors.enabled' = 'true'.");
  return PAIMON_OK;
}

/* The latest snapshot (*out NULL for a table without one). */
static int load_latest(paimon_table *t, cp_snapshot **out, paimon_error *err) {
  int64_t id;
  bool exists;
  *out = NULL;
  CP_RETURN_IF_ERROR(cp_table_latest_snapshot_id(t, &id, &exists, err));
  return exists ? cp_snapshot_load(t->fs, t->path, id, out, err) : PAIMON_OK;
}

/* ------------------------------------ by row id ------------------------------------ */

typedef struct anchor_range {
  int64_t from, to; /* the anchor file's row-id range */
  const cp_split *split;
  const cp_manifest_entry *anchor;
} anchor_range;

static int cmp_anchor(const void *x, const void *y) {
  const anchor_range *a = x, *b = y;
  return a->from < b->from ? -1 : a->from > b->from;
}

static int cmp_i64(const void *x, const void *y) {
  int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
  return a < b ? -1 : a > b;
}

/* pypaimon's "Row ID {id} does not belong to any valid range [...]" (a Python list of strings). */
static int not_in_range(int64_t id, const anchor_range *a, size_t n, paimon_error *err) {
  cp_buf b = CP_BUF_INIT;
  int rc = cp_buf_appendf(&b, err, "[");
  for (size_t i = 0; i < n && !rc && b.len < 700; i++)
    rc = cp_buf_appendf(&b, err, "%s'[%" PRId64 ", %" PRId64 "]'", i ? ", " : "", a[i].from,
                        a[i].to);
  if (!rc && b.len >= 700) rc = cp_buf_appendf(&b, err, ", ...");
  if (!rc) rc = cp_buf_appendf(&b, err, "]");
  if (!rc) rc = cp_buf_nul_terminate(&b, err);
  if (!rc)
    rc = paimon_error_set(err, PAIMON_EINVAL,
                          "Row ID %" PRId64 " does not belong to any valid "
                          "range %s",
                          id, (const char *)b.data);
  cp_buf_free(&b);
  return rc;
}

/* One anchor per row-range group of the plan, sorted by range start. */
static int collect_anchors(const paimon_plan *plan, anchor_range **out, size_t *n,
                           paimon_error *err) {
  anchor_range *a = malloc((plan->n_splits + 1) * sizeof *a);
  if (!a) return CP_ENOMEM(err, "delete");
  size_t k = 0;
  for (size_t i = 0; i < plan->n_splits; i++) {
    const cp_split *s = &plan->splits[i];
    const cp_manifest_entry *anchor = cp_dv_anchor(s->files, s->n_files);
    if (!anchor) {
      free(a);
      return paimon_error_set(err, PAIMON_ECORRUPT,
                              "Data-evolution deletion vectors should have a normal anchor file "
                              "in each row range group.");
    }
    if (!anchor->file.has_first_row_id) continue;
    a[k++] = (anchor_range){anchor->file.first_row_id, cp_data_file_last_row_id(&anchor->file), s,
                            anchor};
  }
  qsort(a, k, sizeof *a, cmp_anchor);
  *out = a;
  *n = k;
  return PAIMON_OK;
}

int cp_delete_row_ids(paimon_table *t, const cp_snapshot *snap, const int64_t *ids, size_t n,
                      paimon_commit_messages *out, paimon_error *err) {
  if (n == 0) return PAIMON_OK;
  paimon_plan *plan = NULL;
  anchor_range *anchors = NULL;
  size_t n_anchors = 0;
  cp_dv_maintainer *m = NULL;
  int rc = cp_plan_snapshot(t, snap, NULL, &plan, err);
  if (!rc) rc = collect_anchors(plan, &anchors, &n_anchors, err);
  if (!rc) rc = cp_dv_maintainer_new(&m, t, snap, err);
  /* Validate every id before writing anything, so a bad id leaves no file behind. */
  size_t *at = rc ? NULL : malloc((n + 1) * sizeof *at);
  if (!rc && !at) rc = CP_ENOMEM(err, "delete");
  for (size_t i = 0; i < n && !rc; i++) {
    size_t lo = 0, hi = n_anchors;
    while (lo < hi) { /* first anchor starting after the id */
      size_t mid = (lo + hi) / 2;
      if (anchors[mid].from <= ids[i])
        lo = mid + 1;
      else
        hi = mid;
    }
    if (lo == 0 || ids[i] > anchors[lo - 1].to)
      rc = not_in_range(ids[i], anchors, n_anchors, err);
    else
      at[i] = lo - 1;
  }
  for (size_t i = 0; i < n && !rc; i++) {
    const anchor_range *a = &anchors[at[i]];
    rc = cp_dv_maintainer_delete(m, a->split->partition, a->split->bucket,
                                 a->anchor->file.file_name, ids[i] - a->from, NULL, err);
  }
  if (!rc) rc = cp_dv_maintainer_prepare(m, out, snap ? snap->id : -1, err);
  free(at);
  cp_dv_maintainer_free(m);
  free(anchors);
  paimon_plan_free(plan);
  return rc;
}

/* Sorted, de-duplicated copy of ids (malloc'd). */
static int unique_ids(const int64_t *ids, size_t n, int64_t **out, size_t *k, paimon_error *err) {
  int64_t *u = malloc((n + 1) * sizeof *u);
  if (!u) return CP_ENOMEM(err, "delete");
  if (n) memcpy(u, ids, n * sizeof *u);
  qsort(u, n, sizeof *u, cmp_i64);
  size_t j = 0;
  for (size_t i = 0; i < n; i++)
    if (j == 0 || u[j - 1] != u[i]) u[j++] = u[i];
  *out = u;
  *k = j;
  return PAIMON_OK;
}

/* Deletes ids against the latest snapshot into a new message list. */
static int delete_ids_latest(paimon_table *t, const int64_t *ids, size_t n,
                             paimon_commit_messages **out, paimon_error *err) {
  int64_t *u = NULL;
  size_t k = 0;
  cp_snapshot *snap = NULL;
  *out = NULL;
  int rc = unique_ids(ids, n, &u, &k, err);
  if (!rc && k) rc = load_latest(t, &snap, err);
  if (!rc) rc = paimon_commit_messages_new(out, err);
  if (!rc) rc = cp_delete_row_ids(t, snap, u, k, *out, err);
  if (rc) {
    paimon_commit_messages_free(*out);
    *out = NULL;
  }
  cp_snapshot_free(snap);
  free(u);
  return rc;
}

int paimon_delete_by_row_ids(paimon_table *t, const int64_t *ids, size_t n,
                             paimon_commit_messages **out, paimon_error *err) {
  *out = NULL;
  int rc = validate_delete(t, err);
  if (!rc) rc = delete_ids_latest(t, ids, n, out, err);
  if (rc) paimon_error_prefix(err, "table %s", t->full_name);
  return rc;
}

int paimon_delete_by_row_id_array(paimon_table *t, const struct ArrowSchema *schema,
                                  const struct ArrowArray *array, paimon_commit_messages **out,
                                  paimon_error *err) {
  *out = NULL;
  CP_RETURN_IF_ERROR(validate_delete(t, err));
  cp_array_view v;
  memset(&v, 0, sizeof v);
  CP_RETURN_IF_ERROR(cp_array_view_init(&v, schema, array, err));
  int64_t *ids = malloc((size_t)(v.length + 1) * sizeof *ids);
  int rc = ids ? PAIMON_OK : CP_ENOMEM(err, "delete");
  bool is_int = cp_arrow_type_is_integer(v.type.id);
  if (!rc && !is_int && v.length > 0 && v.type.id != CP_ARROW_NA)
    rc = paimon_error_set(err, PAIMON_EINVAL, "_ROW_ID values must be integers, got Arrow %s",
                          schema->format);
  for (int64_t i = 0; i < v.length && !rc; i++) {
    if (cp_view_is_null(&v, i))
      rc = paimon_error_set(err, PAIMON_EINVAL, "_ROW_ID value must not be null.");
    else if (v.type.id == CP_ARROW_UINT64 && cp_view_get_uint64(&v, i) > INT64_MAX)
      rc = paimon_error_set(err, PAIMON_EINVAL,
                            "Row ID %" PRIu64 " does not belong to any valid range",
                            cp_view_get_uint64(&v, i));
    else
      ids[i] = cp_view_get_int64(&v, i);
  }
  if (!rc) rc = delete_ids_latest(t, ids, (size_t)v.length, out, err);
  free(ids);
  cp_array_view_reset(&v);
  if (rc) paimon_error_prefix(err, "table %s", t->full_name);
  return rc;
}

/* ------------------------------------ by predicate ------------------------------------ */

/* Whether the bound filter reads partition columns only (and at least one). */
static int partition_only(paimon_table *t, const cp_expr *bound, bool *out, paimon_error *err) {
  const cp_table_schema *s = t->schema;
  *out = false;
  if (s->n_partition_keys == 0) return PAIMON_OK;
  int32_t *cols = NULL;
  size_t n = 0;
  CP_RETURN_IF_ERROR(cp_expr_columns(bound, &cols, &n, err));
  bool only = n > 0;
  for (size_t i = 0; i < n && only; i++) {
    bool is_key = false;
    for (size_t k = 0; k < s->n_partition_keys && !is_key; k++)
      is_key = (size_t)cols[i] == cp_table_schema_partition_index(s, k);
    only = is_key;
  }
  free(cols);
  *out = only;
  return PAIMON_OK;
}

typedef struct part_eval {
  paimon_table *t;
  const cp_expr *bound;
  const cp_type **types; /* partition key types */
  cp_datum *row;         /* one datum per filter-row column */
  bool *present;
} part_eval;

/* Whether a partition row satisfies the (partition-only) filter. */
static int partition_matches(part_eval *pe, cp_bytes partition, bool *out, paimon_error *err) {
  const cp_table_schema *s = pe->t->schema;
  size_t k = s->n_partition_keys;
  cp_datum vals[64];
  if (k > 64) return paimon_error_set(err, PAIMON_EUNSUPPORTED, "more than 64 partition keys");
  CP_RETURN_IF_ERROR(cp_binary_row_read(partition.data, partition.len, pe->types, k, vals, err));
  for (size_t i = 0; i < k; i++) {
    size_t c = cp_table_schema_partition_index(s, i);
    pe->row[c] = vals[i];
    pe->present[c] = true;
  }
  cp_truth truth = CP_FALSE;
  CP_RETURN_IF_ERROR(cp_expr_eval_row(pe->bound, pe->row, pe->present, &truth, err));
  *out = truth == CP_TRUE;
  return PAIMON_OK;
}

/* The message of (partition, bucket) in `msgs` (created when missing). */
static cp_commit_message *message_for(cp_commit_message **msgs, size_t *n, cp_bytes partition,
                                      int32_t bucket, int64_t snapshot_id, int32_t total_buckets,
                                      paimon_error *err) {
  for (size_t i = 0; i < *n; i++)
    if ((*msgs)[i].bucket == bucket && (*msgs)[i].partition.len == partition.len &&
        memcmp((*msgs)[i].partition.data, partition.data, partition.len) == 0)
      return &(*msgs)[i];
  cp_commit_message *m = realloc(*msgs, (*n + 1) * sizeof *m);
  if (!m) {
    CP_ENOMEM(err, "delete");
    return NULL;
  }
  *msgs = m;
  memset(&m[*n], 0, sizeof *m);
  m[*n].partition = partition;
  m[*n].bucket = bucket;
  m[*n].total_buckets = total_buckets;
  m[*n].check_from_snapshot = snapshot_id;
  return &m[(*n)++];
}

/* Appends `item` (of `size` bytes) to a malloc'd array held in *arr with *n items. */
static int grow_append(void **arr, size_t *n, const void *item, size_t size, paimon_error *err) {
  uint8_t *p = realloc(*arr, (*n + 1) * size);
  if (!p) return CP_ENOMEM(err, "delete");
  memcpy(p + *n * size, item, size);
  *arr = p;
  (*n)++;
  return PAIMON_OK;
}

static void free_partition_messages(cp_commit_message *msgs, size_t n) {
  for (size_t i = 0; i < n; i++) {
    free(msgs[i].deleted_files);
    free(msgs[i].index_deletes);
  }
  free(msgs);
}

/* pypaimon's _delete_by_partition_filter: every live data file and index file of the matching
 * partitions is deleted, in one message per (partition, bucket) pinned to the snapshot. */
static int drop_partitions(paimon_table *t, const cp_expr *bound, paimon_commit_messages *out,
                           paimon_error *err) {
  const cp_table_schema *s = t->schema;
  size_t k = s->n_partition_keys, ncols = s->row->n_fields + 2;
  cp_snapshot *snap = NULL;
  cp_arena arena = CP_ARENA_INIT;
  cp_entry_vec files = {0};
  cp_index_entry_vec index = {0};
  cp_commit_message *msgs = NULL;
  size_t n_msgs = 0;
  part_eval pe = {t, bound, calloc(k, sizeof *pe.types), calloc(ncols, sizeof *pe.row),
                  calloc(ncols, sizeof *pe.present)};
  int rc = (pe.types && pe.row && pe.present) ? PAIMON_OK : CP_ENOMEM(err, "delete");
  for (size_t i = 0; i < k && !rc; i++)
    pe.types[i] = s->row->fields[cp_table_schema_partition_index(s, i)].type;
  if (!rc) rc = load_latest(t, &snap, err);
  if (!rc && snap) rc = cp_snapshot_entries(t->fs, t->path, snap, NULL, false, &arena, &files, err);
  if (!rc && snap) rc = cp_snapshot_index_entries(t->fs, t->path, snap, &arena, &index, err);
  int32_t total = (int32_t)t->options.bucket;
  for (size_t i = 0; i < files.n && !rc; i++) {
    const cp_manifest_entry *e = &files.items[i];
    bool match = false;
    rc = partition_matches(&pe, e->partition, &match, err);
    if (rc || !match) continue;
    cp_commit_message *m =
        message_for(&msgs, &n_msgs, e->partition, e->bucket, snap->id, e->total_buckets, err);
    rc = m ? grow_append((void **)&m->deleted_files, &m->n_deleted, &e->file, sizeof e->file, err)
           : PAIMON_ENOMEM;
  }
  for (size_t i = 0; i < index.n && !rc; i++) {
    cp_index_manifest_entry e = index.items[i];
    bool match = false;
    rc = partition_matches(&pe, e.partition, &match, err);
    if (rc || !match || e.kind != CP_FILE_KIND_ADD) continue;
    cp_commit_message *m = message_for(&msgs, &n_msgs, e.partition, e.bucket, snap->id, total, err);
    e.kind = CP_FILE_KIND_DELETE;
    rc = m ? grow_append((void **)&m->index_deletes, &m->n_index_deletes, &e, sizeof e, err)
           : PAIMON_ENOMEM;
  }
  for (size_t i = 0; i < n_msgs && !rc; i++) rc = cp_commit_messages_add(out, &msgs[i], err);
  free_partition_messages(msgs, n_msgs);
  free(pe.types);
  free(pe.row);
  free(pe.present);
  cp_entry_vec_free(&files);
  cp_index_entry_vec_free(&index);
  cp_arena_free(&arena);
  cp_snapshot_free(snap);
  return rc;
}

int cp_table_row_ids(paimon_table *t, int64_t snapshot_id, const paimon_predicate *predicate,
                     int64_t **ids, size_t *n, paimon_error *err) {
  paimon_read_builder *rb = NULL;
  paimon_plan *plan = NULL;
  struct ArrowArrayStream stream;
  memset(&stream, 0, sizeof stream);
  const char *col = CP_ROW_ID_FIELD_NAME;
  size_t cap = 0;
  *ids = NULL;
  *n = 0;
  int rc = paimon_read_builder_new(&rb, t, err);
  if (!rc) rc = paimon_read_builder_set_projection(rb, &col, 1, err);
  if (!rc && predicate) rc = paimon_read_builder_set_filter(rb, predicate, err);
  if (!rc) rc = paimon_read_builder_set_snapshot(rb, snapshot_id, err);
  if (!rc) rc = paimon_read_builder_plan(rb, &plan, err);
  if (!rc) rc = paimon_plan_read(rb, plan, NULL, 0, &stream, err);
  struct ArrowSchema schema;
  memset(&schema, 0, sizeof schema);
  if (!rc) rc = cp_stream_get_schema(&stream, &schema, err);
  while (!rc) {
    struct ArrowArray batch;
    memset(&batch, 0, sizeof batch);
    rc = cp_stream_next(&stream, &batch, err);
    if (rc || !batch.release) break;
    cp_array_view v;
    memset(&v, 0, sizeof v);
    rc = cp_array_view_init(&v, &schema, &batch, err);
    if (!rc && *n + (size_t)v.length > cap) {
      cap = (*n + (size_t)v.length) * 2;
      int64_t *p = realloc(*ids, cap * sizeof *p);
      if (!p)
        rc = CP_ENOMEM(err, "delete");
      else
        *ids = p;
    }
    for (int64_t i = 0; !rc && i < v.length; i++)
      (*ids)[(*n)++] = cp_view_get_int64(&v.children[0], i);
    cp_array_view_reset(&v);
    batch.release(&batch);
  }
  if (schema.release) schema.release(&schema);
  if (stream.release) stream.release(&stream);
  paimon_plan_free(plan);
  paimon_read_builder_free(rb);
  return rc;
}

int paimon_delete_by_predicate(paimon_table *t, const paimon_predicate *predicate,
                               paimon_commit_messages **out, paimon_error *err) {
  *out = NULL;
  cp_type *row = NULL;
  cp_expr *bound = NULL;
  bool by_partition = false;
  int rc = PAIMON_OK;
  if (predicate) {
    rc = cp_table_filter_row(t, &row, err);
    if (!rc) rc = cp_predicate_bind(predicate, row, &bound, err);
    if (rc == PAIMON_ENOTFOUND && err) rc = err->code = PAIMON_EINVAL;
    if (!rc) rc = partition_only(t, bound, &by_partition, err);
  }
  if (!rc) rc = paimon_commit_messages_new(out, err);
  if (!rc && by_partition) {
    rc = drop_partitions(t, bound, *out, err);
  } else if (!rc) {
    cp_snapshot *snap = NULL;
    int64_t *ids = NULL, *u = NULL;
    size_t n = 0, k = 0;
    rc = validate_delete(t, err);
    if (!rc) rc = load_latest(t, &snap, err);
    if (!rc && snap) rc = cp_table_row_ids(t, snap->id, predicate, &ids, &n, err);
    if (!rc) rc = unique_ids(ids, n, &u, &k, err);
    if (!rc) rc = cp_delete_row_ids(t, snap, u, k, *out, err);
    free(ids);
    free(u);
    cp_snapshot_free(snap);
  }
  cp_expr_free(bound);
  cp_type_free(row);
  if (rc) {
    paimon_commit_messages_free(*out);
    *out = NULL;
    paimon_error_prefix(err, "table %s", t->full_name);
  }
  return rc;
}
