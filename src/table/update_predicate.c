/*
 * Update by predicate (include/cpaimon/update.h; spec/data-evolution.md §3.3): the rows matching a
 * predicate in the pinned snapshot (deletion vectors applied: deleted rows do not match) get
 * literal or per-row values, through the §3.2 funnel. Only `_ROW_ID` is read for the match; the
 * callers that compute values themselves (pypaimon's callables) read the matched rows group by
 * group through paimon_update_scan_matches and then update by row id on the same updater.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/ops.h"
#include "arrow/schema.h"
#include "arrow/stream.h"
#include "base/status.h"
#include "table/update_internal.h"
#include "types/special_fields.h"

/* A read builder over the pinned snapshot with `cols` projected and `predicate` as filter. */
static int matching_reader(paimon_update *u, const paimon_predicate *predicate,
                           const char *const *cols, size_t n, paimon_read_builder **rb,
                           paimon_plan **plan, paimon_error *err) {
  *rb = NULL;
  *plan = NULL;
  int rc = paimon_read_builder_new(rb, u->t, err);
  if (!rc) rc = paimon_read_builder_set_projection(*rb, cols, n, err);
  if (!rc && predicate) rc = paimon_read_builder_set_filter(*rb, predicate, err);
  if (!rc) rc = paimon_read_builder_set_snapshot(*rb, u->snapshot_id, err);
  if (!rc) rc = paimon_read_builder_plan(*rb, plan, err);
  if (rc) {
    paimon_read_builder_free(*rb);
    *rb = NULL;
  }
  return rc;
}

/* Collects the matched _ROW_IDs in scan order (partition by partition; within one, groups by range
 * start and positions ascending). */
static int matched_row_ids(paimon_update *u, const paimon_predicate *predicate, int64_t **ids,
                           int64_t *n, paimon_error *err) {
  *ids = NULL;
  *n = 0;
  if (u->snapshot_id < 0) return PAIMON_OK;
  const char *cols[] = {CP_ROW_ID_FIELD_NAME};
  paimon_read_builder *rb = NULL;
  paimon_plan *plan = NULL;
  CP_RETURN_IF_ERROR(matching_reader(u, predicate, cols, 1, &rb, &plan, err));
  struct ArrowArrayStream s;
  memset(&s, 0, sizeof s);
  struct ArrowSchema schema;
  memset(&schema, 0, sizeof schema);
  int64_t cap = 0;
  int rc = paimon_plan_read(rb, plan, NULL, 0, &s, err);
  if (!rc) rc = cp_stream_get_schema(&s, &schema, err);
  while (!rc) {
    struct ArrowArray batch;
    memset(&batch, 0, sizeof batch);
    rc = cp_stream_next(&s, &batch, err);
    if (rc || !batch.release) break;
    cp_array_view v;
    memset(&v, 0, sizeof v);
    rc = cp_array_view_init(&v, &schema, &batch, err);
    if (!rc && *n + v.length > cap) {
      int64_t c = (*n + v.length) * 2;
      int64_t *grown = realloc(*ids, (size_t)c * sizeof *grown);
      if (!grown)
        rc = CP_ENOMEM(err, "update");
      else {
        *ids = grown;
        cap = c;
      }
    }
    for (int64_t i = 0; !rc && i < v.length; i++)
      (*ids)[(*n)++] = cp_view_get_int64(&v.children[0], i);
    cp_array_view_reset(&v);
    batch.release(&batch);
  }
  if (schema.release) schema.release(&schema);
  cp_stream_release(&s);
  paimon_plan_free(plan);
  paimon_read_builder_free(rb);
  if (rc) {
    free(*ids);
    *ids = NULL;
    *n = 0;
  }
  return rc;
}

int paimon_update_check_assignments(paimon_update *u, const paimon_assignment *a, size_t n,
                                    paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_update_require_de(u->t, "update_by_predicate", err));
  if (n == 0) return paimon_error_set(err, PAIMON_EINVAL, "assignments must not be empty.");
  const cp_table_schema *s = u->t->schema;
  for (size_t i = 0; i < n; i++) {
    if (!cp_row_find_field(s->row, a[i].column))
      return paimon_error_set(err, PAIMON_EINVAL, "Column %s is not in table schema.", a[i].column);
    for (size_t k = 0; k < s->n_partition_keys; k++)
      if (strcmp(s->partition_keys[k], a[i].column) == 0)
        return paimon_error_set(err, PAIMON_EINVAL,
                                "update_by_predicate does not support updating partition column "
                                "'%s'.",
                                a[i].column);
    for (size_t k = 0; k < i; k++)
      if (strcmp(a[k].column, a[i].column) == 0)
        return paimon_error_set(err, PAIMON_EINVAL, "column %s is assigned twice", a[i].column);
  }
  return PAIMON_OK;
}

/* Fills the value columns of `r` (ids already set) from the assignments. */
static int load_assignments(const paimon_assignment *a, size_t n, cp_update_rows *r,
                            paimon_error *err) {
  r->values = calloc(n + 1, sizeof *r->values);
  r->schemas = calloc(n + 1, sizeof *r->schemas);
  r->views = calloc(n + 1, sizeof *r->views);
  if (!r->values || !r->schemas || !r->views) return CP_ENOMEM(err, "update");
  for (size_t i = 0; i < n; i++) {
    cp_array_view v;
    memset(&v, 0, sizeof v);
    CP_RETURN_IF_ERROR(cp_array_view_init(&v, a[i].schema, a[i].value, err));
    const cp_field *f = &r->row->fields[i];
    int rc = PAIMON_OK;
    if (a[i].literal) {
      rc = cp_update_rows_set_literal(r, i, &v, f, err);
    } else if (v.length != r->n) {
      rc = paimon_error_set(err, PAIMON_EINVAL,
                            "Assignment array length must match matched row count: %" PRId64
                            " != %" PRId64 ".",
                            v.length, r->n);
    } else {
      rc = cp_update_convert_column(&v, f, &r->schemas[i], &r->values[i], err);
      if (!rc) rc = cp_array_view_init(&r->views[i], &r->schemas[i], &r->values[i], err);
    }
    cp_array_view_reset(&v);
    CP_RETURN_IF_ERROR(rc);
  }
  return PAIMON_OK;
}

static int by_predicate(paimon_update *u, const paimon_predicate *predicate,
                        const paimon_assignment *a, size_t n, paimon_commit_messages *msgs,
                        paimon_error *err) {
  CP_RETURN_IF_ERROR(paimon_update_check_assignments(u, a, n, err));
  CP_RETURN_IF_ERROR(cp_update_pin(u, err));
  cp_update_rows r;
  memset(&r, 0, sizeof r);
  cp_type *row = NULL;
  const char **names = malloc((n + 1) * sizeof *names);
  if (!names) return CP_ENOMEM(err, "update");
  for (size_t i = 0; i < n; i++) names[i] = a[i].column;
  int rc = cp_update_columns_row(u->t, names, n, &row, err);
  r.row = row;
  if (!rc) rc = matched_row_ids(u, predicate, &r.row_ids, &r.n, err);
  if (!rc && r.n > 0) {
    /* The i-th value of an array assignment belongs to the i-th matched row in scan order, as in
     * pypaimon (to_arrow of the matching splits). That is row-id order within a split but not
     * across partitions: partitions written interleaved (p=1, p=2, p=1) scan as p=1's ids, then
     * p=2's. The updater wants ids ascending, with `order` pointing back to the value. */
    r.order = malloc((size_t)r.n * sizeof *r.order);
    if (!r.order) rc = CP_ENOMEM(err, "update");
    for (int64_t i = 0; !rc && i < r.n; i++) r.order[i] = i;
    if (!rc) rc = cp_update_rows_sort(&r, err);
    for (int64_t i = 1; !rc && i < r.n; i++)
      if (r.row_ids[i] == r.row_ids[i - 1])
        rc = paimon_error_set(err, PAIMON_ECORRUPT,
                              "table %s: the scan returned _ROW_ID %" PRId64 " twice",
                              u->t->full_name, r.row_ids[i]);
    if (!rc) rc = load_assignments(a, n, &r, err);
    if (!rc) rc = cp_update_apply(u, &r, msgs, err);
  }
  cp_update_rows_free(&r);
  cp_type_free(row);
  free(names);
  return rc;
}

int paimon_update_by_predicate(paimon_update *u, const paimon_predicate *predicate,
                               const paimon_assignment *assignments, size_t n,
                               paimon_commit_messages **out, paimon_error *err) {
  *out = NULL;
  paimon_commit_messages *msgs = NULL;
  int rc = paimon_commit_messages_new(&msgs, err);
  if (!rc) rc = by_predicate(u, predicate, assignments, n, msgs, err);
  if (rc) {
    cp_update_discard(u, msgs);
    paimon_commit_messages_free(msgs);
    return rc;
  }
  *out = msgs;
  return PAIMON_OK;
}

/* ------------------------------------ matched rows by group ------------------------------------
 */

typedef struct match_stream {
  paimon_read_builder *rb;
  paimon_plan *plan;
  size_t next_split;
  struct ArrowSchema schema;
} match_stream;

static void match_free(void *p) {
  match_stream *m = p;
  paimon_plan_free(m->plan);
  paimon_read_builder_free(m->rb);
  if (m->schema.release) m->schema.release(&m->schema);
  free(m);
}

/* All matched rows of split `i` as one batch (*rows = 0: none). */
static int read_split(match_stream *m, size_t i, struct ArrowArray *out, int64_t *rows,
                      paimon_error *err) {
  struct ArrowArrayStream s;
  memset(&s, 0, sizeof s);
  struct ArrowArray *batches = NULL;
  cp_array_view *views = NULL;
  int64_t n = 0, cap = 0;
  *rows = 0;
  int rc = paimon_plan_read(m->rb, m->plan, &i, 1, &s, err);
  while (!rc) {
    if (n == cap) {
      cap = cap ? cap * 2 : 4;
      struct ArrowArray *b = realloc(batches, (size_t)cap * sizeof *b);
      cp_array_view *v = realloc(views, (size_t)cap * sizeof *v);
      if (b) batches = b;
      if (v) views = v;
      if (!b || !v) {
        rc = CP_ENOMEM(err, "update");
        break;
      }
    }
    memset(&batches[n], 0, sizeof batches[n]);
    memset(&views[n], 0, sizeof views[n]);
    rc = cp_stream_next(&s, &batches[n], err);
    if (rc || !batches[n].release) break;
    rc = cp_array_view_init(&views[n], &m->schema, &batches[n], err);
    if (!rc) *rows += views[n].length;
    n++;
  }
  if (!rc && *rows > 0) rc = cp_concat(views, n, out, err);
  for (int64_t k = 0; k < n; k++) {
    cp_array_view_reset(&views[k]);
    cp_array_release(&batches[k]);
  }
  free(views);
  free(batches);
  cp_stream_release(&s);
  return rc;
}

static int match_next(void *state, struct ArrowArray *out, paimon_error *err) {
  match_stream *m = state;
  while (m->plan && m->next_split < m->plan->n_splits) {
    int64_t rows = 0;
    CP_RETURN_IF_ERROR(read_split(m, m->next_split++, out, &rows, err));
    if (rows > 0) return PAIMON_OK;
  }
  out->release = NULL;
  return PAIMON_OK;
}

int paimon_update_scan_matches(paimon_update *u, const paimon_predicate *predicate,
                               const char *const *read_cols, size_t n_read_cols,
                               struct ArrowArrayStream *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_update_require_de(u->t, "update_by_predicate", err));
  for (size_t i = 0; i < n_read_cols; i++)
    if (!cp_row_find_field(u->t->schema->row, read_cols[i]))
      return paimon_error_set(err, PAIMON_EINVAL, "Read column %s is not in table schema.",
                              read_cols[i]);
  CP_RETURN_IF_ERROR(cp_update_pin(u, err));
  match_stream *m = calloc(1, sizeof *m);
  const char **cols = malloc((n_read_cols + 2) * sizeof *cols);
  int rc = (m && cols) ? PAIMON_OK : CP_ENOMEM(err, "update");
  for (size_t i = 0; !rc && i < n_read_cols; i++) cols[i] = read_cols[i];
  if (cols) cols[n_read_cols] = CP_ROW_ID_FIELD_NAME;
  if (!rc) rc = paimon_read_builder_new(&m->rb, u->t, err);
  if (!rc) rc = paimon_read_builder_set_projection(m->rb, cols, n_read_cols + 1, err);
  if (!rc) rc = paimon_read_builder_schema(m->rb, &m->schema, err);
  if (!rc && u->snapshot_id >= 0) {
    paimon_read_builder_free(m->rb);
    m->rb = NULL;
    rc = matching_reader(u, predicate, cols, n_read_cols + 1, &m->rb, &m->plan, err);
  }
  free(cols);
  struct ArrowSchema schema;
  memset(&schema, 0, sizeof schema);
  if (!rc) rc = cp_schema_copy(&schema, &m->schema, err);
  if (rc) {
    if (m) match_free(m);
    return rc;
  }
  return cp_stream_from_producer(out, &schema, match_next, match_free, m, err);
}
