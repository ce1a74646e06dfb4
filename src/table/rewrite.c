/*
 * The row-change API (include/cpaimon/rowops.h; spec/data-evolution.md §1.5, §3.8): collects the
 * rows a statement updates, deletes and inserts, validating each batch as it arrives, and hands
 * them to rewrite_file.c, which rewrites the touched files. UPDATE/DELETE ... WHERE are built here
 * on top: the predicate is evaluated on the base snapshot (deleted rows excluded), its rows' ids
 * become the change.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/ops.h"
#include "arrow/schema.h"
#include "base/status.h"
#include "table/commit_message.h"
#include "table/dv.h"
#include "table/rewrite_internal.h"
#include "table/store.h"
#include "types/special_fields.h"
#include "types/type_arrow.h"

int paimon_row_changes_new(paimon_row_changes **out, paimon_table *t, int64_t base_snapshot,
                           paimon_error *err) {
  if (!t->options.row_tracking)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "table %s: updating or deleting rows by _ROW_ID needs "
                            "'row-tracking.enabled' = 'true'",
                            t->full_name);
  paimon_row_changes *rc = calloc(1, sizeof *rc);
  if (!rc) return CP_ENOMEM(err, "row changes");
  rc->t = t;
  int rc2 = PAIMON_OK;
  if (base_snapshot > 0) {
    rc2 = cp_snapshot_load(t->fs, t->path, base_snapshot, &rc->base, err);
  } else {
    int64_t id;
    bool exists;
    rc2 = cp_table_latest_snapshot_id(t, &id, &exists, err);
    if (!rc2 && exists) rc2 = cp_snapshot_load(t->fs, t->path, id, &rc->base, err);
  }
  if (rc2) {
    paimon_row_changes_free(rc);
    return rc2;
  }
  *out = rc;
  return PAIMON_OK;
}

int64_t paimon_row_changes_base_snapshot(const paimon_row_changes *rc) {
  return rc->base ? rc->base->id : 0;
}

static void update_free(cp_rw_update *u) {
  cp_array_view_reset(&u->view);
  if (u->array.release) u->array.release(&u->array);
  if (u->schema.release) u->schema.release(&u->schema);
  free(u->child_of);
}

void paimon_row_changes_free(paimon_row_changes *rc) {
  if (!rc) return;
  for (size_t i = 0; i < rc->n_updates; i++) update_free(&rc->updates[i]);
  free(rc->updates);
  free(rc->changes);
  paimon_write_free(rc->insert);
  cp_snapshot_free(rc->base);
  free(rc);
}

static int usable(paimon_row_changes *rc, paimon_error *err) {
  if (rc->done)
    return paimon_error_set(err, PAIMON_ESTATE,
                            "table %s: these row changes were already prepared for commit",
                            rc->t->full_name);
  return PAIMON_OK;
}

static int push_change(paimon_row_changes *rc, int64_t row_id, int32_t batch, int64_t row,
                       paimon_error *err) {
  if (rc->n_changes == rc->cap_changes) {
    size_t cap = rc->cap_changes ? rc->cap_changes * 2 : 64;
    cp_rw_change *c = realloc(rc->changes, cap * sizeof *c);
    if (!c) return CP_ENOMEM(err, "row changes");
    rc->changes = c;
    rc->cap_changes = cap;
  }
  rc->changes[rc->n_changes++] = (cp_rw_change){row_id, batch, row};
  return PAIMON_OK;
}

/* ------------------------------------ updates ------------------------------------ */

/* Converts child `c` of `in` to the Arrow type of table field `f` into `out` (shared when it
 * already has that type). */
static int convert_column(const cp_field *f, const cp_array_view *in, int64_t c,
                          struct ArrowSchema *out_schema, struct ArrowArray *out,
                          paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_field_to_arrow(f, out_schema, err));
  const cp_array_view *cv = &in->children[c];
  int rc;
  if (cp_schema_equal(cv->schema, out_schema, 0)) {
    rc = cp_array_share((struct ArrowArray *)cv->array, out, err);
    if (!rc && (in->offset || cv->array->length != in->length))
      rc = cp_array_slice_inplace(out, in->offset, in->length, err);
  } else if (cp_cast_supported(cv->schema, out_schema)) {
    rc = cp_cast(cv, out_schema, out, err);
  } else {
    rc = paimon_error_set(err, PAIMON_EINVAL,
                          "Column %s has type %s in the input, which cannot "
                          "be written to %s",
                          f->name, cv->schema->format, cp_type_kind_name(f->type->kind));
  }
  if (rc) paimon_error_prefix(err, "column %s", f->name);
  return rc;
}

/* Builds the normalized batch `u` from the caller's columns other than _ROW_ID. */
static int normalize_update(paimon_row_changes *rc, const cp_array_view *in, int64_t id_col,
                            cp_rw_update *u, paimon_error *err) {
  const cp_table_schema *s = rc->t->schema;
  int64_t k = in->n_children - 1;
  u->child_of = malloc((s->row->n_fields + 1) * sizeof *u->child_of);
  if (!u->child_of) return CP_ENOMEM(err, "row changes");
  for (size_t i = 0; i < s->row->n_fields; i++) u->child_of[i] = -1;
  CP_RETURN_IF_ERROR(cp_schema_init(&u->schema, "+s", "", 0, k, err));
  CP_RETURN_IF_ERROR(cp_array_init(&u->array, 1, k, err));
  u->array.length = in->length;
  u->array.null_count = 0;
  int64_t out = 0;
  for (int64_t c = 0; c < in->n_children; c++) {
    if (c == id_col) continue;
    const char *name = in->children[c].name;
    ptrdiff_t idx = cp_row_field_index(s->row, name);
    if (idx < 0)
      return paimon_error_set(err, PAIMON_EINVAL, "Column %s is not in table schema.", name);
    if (u->child_of[idx] >= 0)
      return paimon_error_set(err, PAIMON_EINVAL, "column %s is assigned twice", name);
    /* A new partition value moves the row to that partition, keeping its _ROW_ID, as Spark does
     * on row-tracking tables (rewrite_file.c). */
    for (size_t p = 0; p < s->n_partition_keys; p++)
      if (strcmp(s->partition_keys[p], name) == 0) u->moves = true;
    u->child_of[idx] = out;
    CP_RETURN_IF_ERROR(convert_column(&s->row->fields[idx], in, c, u->schema.children[out],
                                      u->array.children[out], err));
    out++;
  }
  return cp_array_view_init(&u->view, &u->schema, &u->array, err);
}

int paimon_row_changes_update(paimon_row_changes *rc, const struct ArrowSchema *schema,
                              const struct ArrowArray *batch, paimon_error *err) {
  CP_RETURN_IF_ERROR(usable(rc, err));
  if (rc->t->options.data_evolution)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "table %s has data evolution: update its rows with the data-evolution "
                            "update API (paimon_update_by_row_id, include/cpaimon/update.h)",
                            rc->t->full_name);
  cp_array_view in;
  memset(&in, 0, sizeof in);
  CP_RETURN_IF_ERROR(cp_array_view_init(&in, schema, batch, err));
  int64_t id_col =
      in.type.id == CP_ARROW_STRUCT ? cp_view_child_index(&in, CP_ROW_ID_FIELD_NAME) : -1;
  int r = PAIMON_OK;
  if (in.type.id != CP_ARROW_STRUCT)
    r = paimon_error_set(err, PAIMON_EINVAL, "update input must be a record batch");
  else if (id_col < 0)
    r = paimon_error_set(err, PAIMON_EINVAL, "Input data must contain _ROW_ID column");
  else if (in.n_children < 2)
    r = paimon_error_set(err, PAIMON_EINVAL, "column_names cannot be empty");
  else if (!cp_arrow_type_is_integer(in.children[id_col].type.id))
    r = paimon_error_set(err, PAIMON_EINVAL, "_ROW_ID must be an integer column");
  for (int64_t i = 0; !r && i < in.length; i++)
    if (cp_view_is_null(&in.children[id_col], i))
      r = paimon_error_set(err, PAIMON_EINVAL, "_ROW_ID value must not be null.");
  if (!r && rc->n_updates == rc->cap_updates) {
    size_t cap = rc->cap_updates ? rc->cap_updates * 2 : 4;
    cp_rw_update *u = realloc(rc->updates, cap * sizeof *u);
    if (!u)
      r = CP_ENOMEM(err, "row changes");
    else {
      rc->updates = u;
      rc->cap_updates = cap;
    }
  }
  cp_rw_update u;
  memset(&u, 0, sizeof u);
  if (!r) r = normalize_update(rc, &in, id_col, &u, err);
  size_t before = rc->n_changes;
  for (int64_t i = 0; !r && i < in.length; i++)
    r = push_change(rc, cp_view_get_int64(&in.children[id_col], i), (int32_t)rc->n_updates, i, err);
  cp_array_view_reset(&in);
  if (r) {
    update_free(&u);
    rc->n_changes = before;
    paimon_error_prefix(err, "update of table %s", rc->t->full_name);
    return r;
  }
  rc->updates[rc->n_updates++] = u;
  return PAIMON_OK;
}

int paimon_row_changes_delete(paimon_row_changes *rc, const int64_t *row_ids, size_t n,
                              paimon_error *err) {
  CP_RETURN_IF_ERROR(usable(rc, err));
  size_t before = rc->n_changes;
  for (size_t i = 0; i < n; i++) {
    int r = push_change(rc, row_ids[i], -1, 0, err);
    if (r) {
      rc->n_changes = before;
      return r;
    }
  }
  return PAIMON_OK;
}

int paimon_row_changes_insert(paimon_row_changes *rc, const struct ArrowSchema *schema,
                              const struct ArrowArray *batch, paimon_error *err) {
  CP_RETURN_IF_ERROR(usable(rc, err));
  if (!rc->insert) CP_RETURN_IF_ERROR(paimon_write_new(&rc->insert, rc->t, NULL, 0, err));
  return paimon_write_batch(rc->insert, schema, batch, err);
}

/* ------------------------------------ by predicate ------------------------------------ */

/* The ids of the base snapshot's rows matching `predicate`. */
static int matching(paimon_row_changes *rc, const paimon_predicate *predicate, int64_t **ids,
                    size_t *n, paimon_error *err) {
  *ids = NULL;
  *n = 0;
  if (!rc->base) return PAIMON_OK;
  return cp_table_row_ids(rc->t, rc->base->id, predicate, ids, n, err);
}

int paimon_row_changes_delete_where(paimon_row_changes *rc, const paimon_predicate *predicate,
                                    int64_t *matched, paimon_error *err) {
  CP_RETURN_IF_ERROR(usable(rc, err));
  int64_t *ids;
  size_t n;
  CP_RETURN_IF_ERROR(matching(rc, predicate, &ids, &n, err));
  int r = paimon_row_changes_delete(rc, ids, n, err);
  free(ids);
  if (!r && matched) *matched = (int64_t)n;
  return r;
}

/* A record batch with `_ROW_ID` = ids and each column of `values` (one row) repeated. */
static int broadcast(const cp_array_view *values, const int64_t *ids, size_t n,
                     struct ArrowSchema *schema, struct ArrowArray *out, paimon_error *err) {
  int64_t k = values->n_children;
  int64_t *zeros = calloc(n + 1, sizeof *zeros);
  int r = zeros ? cp_schema_init(schema, "+s", "", 0, k + 1, err) : CP_ENOMEM(err, "update");
  if (!r) r = cp_schema_init(schema->children[0], "l", CP_ROW_ID_FIELD_NAME, 0, 0, err);
  for (int64_t c = 0; !r && c < k; c++)
    r = cp_schema_copy(schema->children[c + 1], values->children[c].schema, err);
  if (!r) r = cp_array_init(out, 1, k + 1, err);
  int64_t *v = NULL;
  if (!r) r = cp_array_init(out->children[0], 2, 0, err);
  if (!r) r = cp_array_alloc_buffer(out->children[0], 1, (int64_t)(n * 8), (void **)&v, err);
  if (!r) {
    if (n) memcpy(v, ids, n * sizeof *ids);
    out->children[0]->length = (int64_t)n;
    out->children[0]->null_count = 0;
    out->length = (int64_t)n;
    out->null_count = 0;
  }
  for (int64_t c = 0; !r && c < k; c++) {
    /* cp_take builds into an empty array slot: release the placeholder first. */
    if (out->children[c + 1]->release) out->children[c + 1]->release(out->children[c + 1]);
    r = cp_take(&values->children[c], zeros, (int64_t)n, out->children[c + 1], err);
  }
  free(zeros);
  return r;
}

int paimon_row_changes_update_where(paimon_row_changes *rc, const paimon_predicate *predicate,
                                    const struct ArrowSchema *schema,
                                    const struct ArrowArray *values, int64_t *matched,
                                    paimon_error *err) {
  CP_RETURN_IF_ERROR(usable(rc, err));
  cp_array_view v;
  memset(&v, 0, sizeof v);
  CP_RETURN_IF_ERROR(cp_array_view_init(&v, schema, values, err));
  int r = PAIMON_OK;
  if (v.type.id != CP_ARROW_STRUCT || v.length != 1)
    r = paimon_error_set(
        err, PAIMON_EINVAL,
        "update values must be a record batch of exactly one row (got %" PRId64 " rows)", v.length);
  else if (v.n_children == 0)
    r = paimon_error_set(err, PAIMON_EINVAL, "assignments must not be empty.");
  int64_t *ids = NULL;
  size_t n = 0;
  if (!r) r = matching(rc, predicate, &ids, &n, err);
  struct ArrowSchema bs;
  struct ArrowArray ba;
  memset(&bs, 0, sizeof bs);
  memset(&ba, 0, sizeof ba);
  if (!r && n) r = broadcast(&v, ids, n, &bs, &ba, err);
  if (!r && n) r = paimon_row_changes_update(rc, &bs, &ba, err);
  if (!r && matched) *matched = (int64_t)n;
  if (ba.release) ba.release(&ba);
  if (bs.release) bs.release(&bs);
  free(ids);
  cp_array_view_reset(&v);
  return r;
}

/* ------------------------------------ commit ------------------------------------ */

int paimon_row_changes_prepare_commit(paimon_row_changes *rc, paimon_commit_messages **out,
                                      paimon_error *err) {
  *out = NULL;
  CP_RETURN_IF_ERROR(usable(rc, err));
  rc->done = true;
  int r = paimon_commit_messages_new(out, err);
  if (!r && rc->n_changes) r = cp_rw_apply(rc, *out, err);
  /* Inserts last: once their files are in messages, a later failure would orphan them. */
  paimon_commit_messages *ins = NULL;
  if (!r && rc->insert) r = paimon_write_prepare_commit(rc->insert, &ins, err);
  if (!r && ins) r = paimon_commit_messages_append(*out, ins, err);
  if (r && ins) {
    paimon_commit *c = NULL;
    if (paimon_commit_new(&c, rc->t, NULL) == 0) paimon_commit_abort(c, ins, NULL);
    paimon_commit_free(c);
  }
  paimon_commit_messages_free(ins);
  if (r) {
    paimon_commit_messages_free(*out);
    *out = NULL;
  }
  return r;
}
