/*
 * The execution half of merge_into (update_merge.h; spec/data-evolution.md §3.5): the source
 * hashed on its ON columns, the target of the pinned snapshot streamed past it reading only the
 * columns the merge needs, each (target row, source row) pair assigned to the first matched
 * clause whose condition holds, and the results turned into actions — updates through the §3.2
 * funnel, deletes through the deletion-vector delete, inserts through a normal append.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/ops.h"
#include "arrow/schema.h"
#include "arrow/stream.h"
#include "base/status.h"
#include "cpaimon/delete.h"
#include "cpaimon/write.h"
#include "table/update_merge.h"
#include "types/special_fields.h"
#include "types/type_arrow.h"

/* ------------------------------------ execution ------------------------------------ */

static int push_id(int64_t **ids, int64_t *n, int64_t *cap, int64_t v, paimon_error *err) {
  if (*n == *cap) {
    int64_t c = *cap ? *cap * 2 : 256;
    int64_t *g = realloc(*ids, (size_t)c * sizeof *g);
    if (!g) return CP_ENOMEM(err, "merge_into");
    *ids = g;
    *cap = c;
  }
  (*ids)[(*n)++] = v;
  return PAIMON_OK;
}

static bool key_has_null(const cp_merge_run *r, const cp_array_view *keys, int64_t i) {
  for (size_t k = 0; k < r->mg->n_on; k++)
    if (cp_view_is_null(&keys[k], i)) return true;
  return false;
}

static bool keys_equal(const cp_merge_run *r, const cp_array_view *a, int64_t i,
                       const cp_array_view *b, int64_t j) {
  for (size_t k = 0; k < r->mg->n_on; k++)
    if (!cp_rows_equal(&a[k], i, &b[k], j)) return false;
  return true;
}

/* Converts the source ON columns and hashes the source rows (non-null keys). */
static int build_source_hash(cp_merge_run *r) {
  cp_merge *mg = r->mg;
  int64_t n = mg->src->length;
  size_t nk = mg->n_on, cap = 16;
  while (cap < (size_t)n * 2) cap <<= 1;
  r->key_schemas = calloc(nk, sizeof *r->key_schemas);
  r->key_arrays = calloc(nk, sizeof *r->key_arrays);
  r->keys = calloc(nk, sizeof *r->keys);
  r->slot_first = calloc(cap, sizeof *r->slot_first);
  r->slot_hash = calloc(cap, sizeof *r->slot_hash);
  r->next = calloc((size_t)n + 1, sizeof *r->next);
  uint64_t *h = malloc(((size_t)n + 1) * sizeof *h);
  r->mask = cap - 1;
  int rc =
      (r->key_schemas && r->key_arrays && r->keys && r->slot_first && r->slot_hash && r->next && h)
          ? PAIMON_OK
          : CP_ENOMEM(mg->err, "merge_into");
  for (size_t k = 0; !rc && k < nk; k++) {
    const cp_field *f = cp_row_find_field(mg->t->schema->row, mg->ton[k]);
    rc = cp_update_convert_column(&mg->src->children[cp_view_child_index(mg->src, mg->son[k])], f,
                                  &r->key_schemas[k], &r->key_arrays[k], mg->err);
    if (!rc) rc = cp_array_view_init(&r->keys[k], &r->key_schemas[k], &r->key_arrays[k], mg->err);
  }
  if (!rc) rc = cp_hash_rows(r->keys, (int64_t)nk, h, mg->err);
  for (int64_t i = n - 1; !rc && i >= 0; i--) { /* chains keep source order */
    if (key_has_null(r, r->keys, i)) continue;
    size_t s = (size_t)h[i] & r->mask;
    while (r->slot_first[s] &&
           !(r->slot_hash[s] == h[i] && keys_equal(r, r->keys, r->slot_first[s] - 1, r->keys, i)))
      s = (s + 1) & r->mask;
    r->next[i] = r->slot_first[s];
    r->slot_first[s] = i + 1;
    r->slot_hash[s] = h[i];
  }
  free(h);
  return rc;
}

/* Pairs (target row, source row) of one target batch whose ON keys (first n_on children) match. */
static int join_batch(cp_merge_run *r, const cp_array_view *tv, int64_t **ti, int64_t **si,
                      int64_t *n, paimon_error *err) {
  cp_merge *mg = r->mg;
  *n = 0;
  int64_t cap = tv->length + 16;
  *ti = malloc((size_t)cap * sizeof **ti);
  *si = malloc((size_t)cap * sizeof **si);
  uint64_t *h = malloc(((size_t)tv->length + 1) * sizeof *h);
  int rc = (*ti && *si && h) ? PAIMON_OK : CP_ENOMEM(err, "merge_into");
  if (!rc && mg->self) {
    for (int64_t j = 0; j < tv->length; j++) (*ti)[j] = (*si)[j] = j;
    *n = tv->length;
  } else if (!rc) {
    rc = cp_hash_rows(tv->children, (int64_t)mg->n_on, h, err);
  }
  for (int64_t j = 0; !rc && !mg->self && j < tv->length; j++) {
    if (key_has_null(r, tv->children, j)) continue;
    size_t s = (size_t)h[j] & r->mask;
    while (r->slot_first[s] && !(r->slot_hash[s] == h[j] &&
                                 keys_equal(r, r->keys, r->slot_first[s] - 1, tv->children, j)))
      s = (s + 1) & r->mask;
    int64_t matches = 0;
    for (int64_t i = r->slot_first[s]; i; i = r->next[i - 1]) {
      r->matched[i - 1] = true;
      if (matches++ && r->dedupe) continue;
      if (matches > 1) {
        rc = paimon_error_set(err, PAIMON_EINVAL,
                              "MERGE matched multiple source rows to the same target _ROW_ID. "
                              "Deduplicate the source before merging.");
        break;
      }
      if (*n == cap) {
        cap *= 2;
        int64_t *a = realloc(*ti, (size_t)cap * sizeof *a);
        if (a) *ti = a;
        int64_t *b = realloc(*si, (size_t)cap * sizeof *b);
        if (b) *si = b;
        if (!a || !b) {
          rc = CP_ENOMEM(err, "merge_into");
          break;
        }
      }
      (*ti)[*n] = j;
      (*si)[(*n)++] = i - 1;
    }
  }
  free(h);
  return rc;
}

/* The joined batch of the layout for pairs (ti[k], si[k]); tv NULL: target columns all null. */
static int joined(cp_merge_run *r, const cp_array_view *tv, const int64_t *ti, const int64_t *si,
                  int64_t n, struct ArrowSchema *schema, struct ArrowArray *out,
                  paimon_error *err) {
  cp_merge *mg = r->mg;
  CP_RETURN_IF_ERROR(cp_schema_init(schema, "+s", "", 0, (int64_t)mg->n_cols, err));
  int rc = cp_array_init(out, 1, (int64_t)mg->n_cols, err);
  int64_t *nulls = malloc(((size_t)n + 1) * sizeof *nulls);
  if (!rc && !nulls) rc = CP_ENOMEM(err, "merge_into");
  for (int64_t k = 0; nulls && k < n; k++) nulls[k] = -1;
  for (size_t c = 0; !rc && c < mg->n_cols; c++) {
    const cp_merge_col *jc = &mg->cols[c];
    const cp_array_view *v;
    const int64_t *idx;
    if (jc->side == CP_MERGE_SIDE_T || mg->self) { /* self-merge: s.x is t.x */
      v = tv ? &tv->children[c] : NULL;
      idx = tv ? (jc->side == CP_MERGE_SIDE_T ? ti : si) : nulls;
    } else {
      v = &mg->src->children[cp_view_child_index(mg->src, jc->name)];
      idx = si;
    }
    if (v) {
      rc = cp_schema_copy(schema->children[c], v->schema, err);
      if (!rc) rc = cp_take(v, idx, n, out->children[c], err);
    } else { /* target side of not-matched rows */
      char full[600];
      snprintf(full, sizeof full, "t.%s", jc->name);
      const cp_field *f = cp_row_find_field(mg->full_row, full);
      cp_builder *b = NULL;
      rc = cp_type_to_arrow(f->type, "", schema->children[c], err);
      if (!rc) rc = cp_builder_create(&b, schema->children[c], err);
      if (!rc) rc = cp_builder_append_nulls(b, n, err);
      if (!rc) rc = cp_builder_finish(b, out->children[c], err);
      cp_builder_free(b);
    }
  }
  free(nulls);
  if (!rc) {
    out->length = n;
    out->null_count = 0;
  }
  return rc;
}

/* assign[k] := index of the first clause whose condition holds for pair k (-1: none). */
static int evaluate(cp_merge_run *r, const cp_merge_clause *cs, size_t n_cs,
                    const cp_array_view *jv, int32_t *assign, paimon_error *err) {
  int64_t n = jv->length;
  uint8_t *bits = malloc((size_t)(n + 8) / 8 + 1);
  if (!bits) return CP_ENOMEM(err, "merge_into");
  for (int64_t k = 0; k < n; k++) assign[k] = -1;
  int rc = PAIMON_OK;
  for (size_t c = 0; c < n_cs && !rc; c++) {
    if (cs[c].cond) rc = cp_expr_eval_selection(cs[c].cond, jv, bits, NULL, err);
    for (int64_t k = 0; !rc && k < n; k++)
      if (assign[k] < 0 && (!cs[c].cond || (bits[k >> 3] >> (k & 7) & 1))) assign[k] = (int32_t)c;
  }
  (void)r;
  free(bits);
  return rc;
}

/* The layout column holding `side`.`name`. */
static const cp_array_view *jcol_view(const cp_merge_run *r, const cp_array_view *jv, int side,
                                      const char *name) {
  for (size_t c = 0; c < r->mg->n_cols; c++)
    if (r->mg->cols[c].side == side && strcmp(r->mg->cols[c].name, name) == 0)
      return &jv->children[c];
  return NULL;
}

/* The value array of `column` for clause `cl` over the joined rows, in the column's type. */
static int value_array(cp_merge_run *r, const cp_merge_clause *cl, const char *column,
                       const cp_array_view *jv, struct ArrowSchema *schema, struct ArrowArray *out,
                       paimon_error *err) {
  const cp_field *f = cp_row_find_field(r->mg->t->schema->row, column);
  const cp_merge_set *s = NULL;
  for (size_t i = 0; cl && i < cl->n_set && !s; i++)
    if (strcmp(cl->set[i].column, column) == 0) s = &cl->set[i];
  if (s && s->kind == PAIMON_MERGE_LITERAL) {
    int64_t *zeros = calloc((size_t)jv->length + 1, sizeof *zeros);
    if (!zeros) return CP_ENOMEM(err, "merge_into");
    int rc = cp_schema_copy(schema, &s->lit_schema, err);
    if (!rc) rc = cp_take(&s->lit_view, zeros, jv->length, out, err);
    free(zeros);
    return rc;
  }
  const cp_array_view *v;
  if (!s)
    v = jcol_view(r, jv, CP_MERGE_SIDE_T, column);
  else if (s->kind == PAIMON_MERGE_TARGET_COL)
    v = jcol_view(r, jv, CP_MERGE_SIDE_T, s->ref);
  else
    v = jcol_view(r, jv, CP_MERGE_SIDE_S, s->ref);
  return cp_update_convert_column(v, f, schema, out, err);
}

/* Appends the pairs assigned to update clauses to the update results. */
static int emit_updates(cp_merge_run *r, const cp_array_view *jv, const int32_t *assign,
                        paimon_error *err) {
  cp_merge *mg = r->mg;
  const cp_array_view *rid = jcol_view(r, jv, CP_MERGE_SIDE_T, CP_ROW_ID_FIELD_NAME);
  int rc = PAIMON_OK;
  for (size_t c = 0; c < mg->n_m && !rc; c++) {
    if (mg->m[c].action == PAIMON_MERGE_DELETE) {
      for (int64_t k = 0; !rc && k < jv->length; k++)
        if (assign[k] == (int32_t)c)
          rc = push_id(&r->del_ids, &r->n_del, &r->cap_del, cp_view_get_int64(rid, k), err);
      continue;
    }
    if (!mg->n_update) continue;
    int64_t first_new = r->n_upd;
    for (int64_t k = 0; !rc && k < jv->length; k++)
      if (assign[k] == (int32_t)c)
        rc = push_id(&r->upd_ids, &r->n_upd, &r->cap_upd, cp_view_get_int64(rid, k), err);
    if (rc || r->n_upd == first_new) continue;
    for (size_t u = 0; !rc && u < mg->n_update; u++) {
      struct ArrowSchema s;
      memset(&s, 0, sizeof s);
      struct ArrowArray a;
      memset(&a, 0, sizeof a);
      cp_array_view v;
      memset(&v, 0, sizeof v);
      rc = value_array(r, &mg->m[c], mg->update_cols[u], jv, &s, &a, err);
      if (!rc) rc = cp_array_view_init(&v, &s, &a, err);
      for (int64_t k = 0; !rc && k < jv->length; k++) {
        if (assign[k] != (int32_t)c) continue;
        int64_t run_len = 1;
        while (k + run_len < jv->length && assign[k + run_len] == (int32_t)c) run_len++;
        rc = cp_builder_append_view(r->upd[u], &v, k, run_len, err);
        k += run_len - 1;
      }
      cp_array_view_reset(&v);
      cp_array_release(&a);
      if (s.release) s.release(&s);
    }
  }
  return rc;
}

/* The distinct target columns to read and, for the ON keys and each layout column, which of them
 * holds it (-1: a source column of a regular merge). */
static int target_projection(cp_merge *mg, const char ***names, size_t *n, int64_t *key_idx,
                             int64_t *col_idx, paimon_error *err) {
  *names = malloc((mg->n_on + mg->n_cols + 1) * sizeof **names);
  if (!*names) return CP_ENOMEM(err, "merge_into");
  *n = 0;
  for (size_t i = 0; i < mg->n_on + mg->n_cols; i++) {
    const char *name;
    if (i < mg->n_on)
      name = mg->ton[i];
    else if (mg->cols[i - mg->n_on].side == CP_MERGE_SIDE_T || mg->self)
      name = mg->cols[i - mg->n_on].name;
    else {
      col_idx[i - mg->n_on] = -1;
      continue;
    }
    size_t k = 0;
    while (k < *n && strcmp((*names)[k], name) != 0) k++;
    if (k == *n) (*names)[(*n)++] = name;
    if (i < mg->n_on)
      key_idx[i] = (int64_t)k;
    else
      col_idx[i - mg->n_on] = (int64_t)k;
  }
  return PAIMON_OK;
}

/* One target batch: join, evaluate the matched clauses, emit. */
static int matched_batch(cp_merge_run *r, const cp_array_view *full, const int64_t *key_idx,
                         const int64_t *col_idx, paimon_error *err) {
  cp_merge *mg = r->mg;
  cp_array_view *kv = calloc(mg->n_on + 1, sizeof *kv), *lv = calloc(mg->n_cols + 1, sizeof *lv);
  int rc = kv && lv ? PAIMON_OK : CP_ENOMEM(err, "merge_into");
  for (size_t k = 0; !rc && k < mg->n_on; k++) kv[k] = full->children[key_idx[k]];
  for (size_t c = 0; !rc && c < mg->n_cols; c++)
    if (col_idx[c] >= 0) lv[c] = full->children[col_idx[c]];
  cp_array_view keys = *full, layout = *full;
  keys.children = kv;
  keys.n_children = (int64_t)mg->n_on;
  layout.children = lv;
  layout.n_children = (int64_t)mg->n_cols;
  int64_t *ti = NULL, *si = NULL, n = 0;
  if (!rc) rc = join_batch(r, &keys, &ti, &si, &n, err);
  struct ArrowSchema js;
  memset(&js, 0, sizeof js);
  struct ArrowArray ja;
  memset(&ja, 0, sizeof ja);
  cp_array_view jv;
  memset(&jv, 0, sizeof jv);
  int32_t *assign = malloc(((size_t)n + 1) * sizeof *assign);
  if (!rc && !assign) rc = CP_ENOMEM(err, "merge_into");
  if (!rc && n && mg->n_m) {
    rc = joined(r, &layout, ti, si, n, &js, &ja, err);
    if (!rc) rc = cp_array_view_init(&jv, &js, &ja, err);
    if (!rc) rc = evaluate(r, mg->m, mg->n_m, &jv, assign, err);
    if (!rc) rc = emit_updates(r, &jv, assign, err);
  }
  cp_array_view_reset(&jv);
  cp_array_release(&ja);
  if (js.release) js.release(&js);
  free(assign);
  free(ti);
  free(si);
  free(kv);
  free(lv);
  return rc;
}

/* Streams the columns the merge reads from the target of the pinned snapshot (deleted rows do
 * not match) through matched_batch. */
int cp_merge_matched_phase(cp_merge_run *r, paimon_error *err) {
  cp_merge *mg = r->mg;
  paimon_update *u = mg->u;
  if (u->snapshot_id < 0) return PAIMON_OK;
  int64_t *key_idx = calloc(mg->n_on + 1, sizeof *key_idx);
  int64_t *col_idx = calloc(mg->n_cols + 1, sizeof *col_idx);
  const char **names = NULL;
  size_t nn = 0;
  paimon_read_builder *rb = NULL;
  paimon_plan *plan = NULL;
  struct ArrowArrayStream s;
  memset(&s, 0, sizeof s);
  struct ArrowSchema schema;
  memset(&schema, 0, sizeof schema);
  int rc = key_idx && col_idx ? target_projection(mg, &names, &nn, key_idx, col_idx, err)
                              : CP_ENOMEM(err, "merge_into");
  if (!rc) rc = paimon_read_builder_new(&rb, u->t, err);
  if (!rc) rc = paimon_read_builder_set_projection(rb, names, nn, err);
  if (!rc) rc = paimon_read_builder_set_snapshot(rb, u->snapshot_id, err);
  if (!rc) rc = paimon_read_builder_plan(rb, &plan, err);
  if (!rc) rc = paimon_plan_read(rb, plan, NULL, 0, &s, err);
  if (!rc) rc = cp_stream_get_schema(&s, &schema, err);
  while (!rc) {
    struct ArrowArray batch;
    memset(&batch, 0, sizeof batch);
    rc = cp_stream_next(&s, &batch, err);
    if (rc || !batch.release) break;
    cp_array_view full;
    memset(&full, 0, sizeof full);
    rc = cp_array_view_init(&full, &schema, &batch, err);
    if (!rc) rc = matched_batch(r, &full, key_idx, col_idx, err);
    cp_array_view_reset(&full);
    batch.release(&batch);
  }
  if (schema.release) schema.release(&schema);
  cp_stream_release(&s);
  paimon_plan_free(plan);
  paimon_read_builder_free(rb);
  free(names);
  free(key_idx);
  free(col_idx);
  return rc;
}

/* Source rows no target row matched, through the not-matched clauses, appended. */
int cp_merge_not_matched_phase(cp_merge_run *r, paimon_commit_messages *msgs, paimon_error *err) {
  cp_merge *mg = r->mg;
  if (!mg->n_nm || mg->self) return PAIMON_OK;
  int64_t n = 0, ns = mg->src->length;
  int64_t *si = malloc(((size_t)ns + 1) * sizeof *si);
  int32_t *assign = malloc(((size_t)ns + 1) * sizeof *assign);
  if (!si || !assign) {
    free(si);
    free(assign);
    return CP_ENOMEM(err, "merge_into");
  }
  for (int64_t i = 0; i < ns; i++)
    if (!r->matched[i]) si[n++] = i;
  struct ArrowSchema js, out_schema;
  memset(&js, 0, sizeof js);
  memset(&out_schema, 0, sizeof out_schema);
  struct ArrowArray ja, out;
  memset(&ja, 0, sizeof ja);
  memset(&out, 0, sizeof out);
  cp_array_view jv;
  memset(&jv, 0, sizeof jv);
  int rc = n ? joined(r, NULL, NULL, si, n, &js, &ja, err) : PAIMON_OK;
  if (!rc && n) rc = cp_array_view_init(&jv, &js, &ja, err);
  if (!rc && n) rc = evaluate(r, mg->nm, mg->n_nm, &jv, assign, err);
  const cp_type *row = mg->t->schema->row;
  int64_t *take = malloc(((size_t)n + 1) * sizeof *take), n_ins = 0;
  if (!rc && !take) rc = CP_ENOMEM(err, "merge_into");
  if (!rc && n) rc = cp_row_to_arrow_schema(row, &out_schema, err);
  if (!rc && n) rc = cp_array_init(&out, 1, (int64_t)row->n_fields, err);
  cp_builder **b = calloc(row->n_fields + 1, sizeof *b);
  if (!rc && !b) rc = CP_ENOMEM(err, "merge_into");
  for (size_t f = 0; !rc && n && f < row->n_fields; f++)
    rc = cp_builder_create(&b[f], out_schema.children[f], err);
  for (size_t c = 0; !rc && n && c < mg->n_nm; c++) {
    for (size_t f = 0; !rc && f < row->n_fields; f++) {
      const cp_merge_set *s = NULL;
      for (size_t i = 0; i < mg->nm[c].n_set && !s; i++)
        if (strcmp(mg->nm[c].set[i].column, row->fields[f].name) == 0) s = &mg->nm[c].set[i];
      struct ArrowSchema vs;
      memset(&vs, 0, sizeof vs);
      struct ArrowArray va;
      memset(&va, 0, sizeof va);
      cp_array_view vv;
      memset(&vv, 0, sizeof vv);
      if (s) rc = value_array(r, &mg->nm[c], row->fields[f].name, &jv, &vs, &va, err);
      if (!rc && s) rc = cp_array_view_init(&vv, &vs, &va, err);
      for (int64_t k = 0; !rc && k < n; k++)
        if (assign[k] == (int32_t)c)
          rc = s ? cp_builder_append_view(b[f], &vv, k, 1, err) : cp_builder_append_null(b[f], err);
      cp_array_view_reset(&vv);
      cp_array_release(&va);
      if (vs.release) vs.release(&vs);
    }
    for (int64_t k = 0; k < n; k++)
      if (assign[k] == (int32_t)c) n_ins++;
  }
  for (size_t f = 0; !rc && n && f < row->n_fields; f++)
    rc = cp_builder_finish(b[f], out.children[f], err);
  paimon_write *w = NULL;
  paimon_commit_messages *m = NULL;
  if (!rc && n_ins) {
    out.length = n_ins;
    out.null_count = 0;
    rc = paimon_write_new(&w, mg->t, NULL, 0, err);
    if (!rc) rc = paimon_write_batch(w, &out_schema, &out, err);
    if (!rc) rc = paimon_write_prepare_commit(w, &m, err);
    if (!rc) rc = paimon_commit_messages_append(msgs, m, err);
  }
  paimon_commit_messages_free(m);
  paimon_write_free(w);
  for (size_t f = 0; b && f < row->n_fields; f++) cp_builder_free(b[f]);
  free(b);
  cp_array_view_reset(&jv);
  cp_array_release(&ja);
  cp_array_release(&out);
  if (js.release) js.release(&js);
  if (out_schema.release) out_schema.release(&out_schema);
  free(take);
  free(si);
  free(assign);
  return rc;
}

void cp_merge_run_free(cp_merge_run *r) {
  size_t nk = r->mg->n_on;
  for (size_t k = 0; r->keys && k < nk; k++) cp_array_view_reset(&r->keys[k]);
  for (size_t k = 0; r->key_arrays && k < nk; k++) cp_array_release(&r->key_arrays[k]);
  for (size_t k = 0; r->key_schemas && k < nk; k++)
    if (r->key_schemas[k].release) r->key_schemas[k].release(&r->key_schemas[k]);
  for (size_t u = 0; r->upd && u < r->mg->n_update; u++) cp_builder_free(r->upd[u]);
  for (size_t u = 0; r->upd_schemas && u < r->mg->n_update; u++)
    if (r->upd_schemas[u].release) r->upd_schemas[u].release(&r->upd_schemas[u]);
  free(r->keys);
  free(r->key_arrays);
  free(r->key_schemas);
  free(r->slot_first);
  free(r->slot_hash);
  free(r->next);
  free(r->matched);
  free(r->upd);
  free(r->upd_schemas);
  free(r->upd_ids);
  free(r->del_ids);
}

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return x < y ? -1 : x > y;
}

/* pypaimon's _validate_unique_action_row_ids over the update and delete ids. */
static int check_unique_ids(cp_merge_run *r, paimon_error *err) {
  int64_t n = r->n_upd + r->n_del;
  int64_t *all = malloc(((size_t)n + 1) * sizeof *all);
  if (!all) return CP_ENOMEM(err, "merge_into");
  if (r->n_upd) memcpy(all, r->upd_ids, (size_t)r->n_upd * sizeof *all);
  if (r->n_del) memcpy(all + r->n_upd, r->del_ids, (size_t)r->n_del * sizeof *all);
  qsort(all, (size_t)n, sizeof *all, cmp_i64);
  int rc = PAIMON_OK;
  for (int64_t i = 1; i < n && !rc; i++)
    if (all[i] == all[i - 1])
      rc = paimon_error_set(err, PAIMON_EINVAL,
                            "MERGE matched multiple source rows to the same target _ROW_ID. "
                            "Deduplicate the source before merging.");
  free(all);
  return rc;
}

/* The collected updates through the §3.2 funnel, the deletes through the DV delete. */
int cp_merge_apply_actions(cp_merge_run *r, paimon_commit_messages *msgs, paimon_error *err) {
  cp_merge *mg = r->mg;
  CP_RETURN_IF_ERROR(check_unique_ids(r, err));
  int rc = PAIMON_OK;
  if (r->n_upd && mg->n_update) {
    cp_update_rows ur;
    memset(&ur, 0, sizeof ur);
    cp_type *row = NULL;
    rc = cp_update_columns_row(mg->t, mg->update_cols, mg->n_update, &row, err);
    ur.row = row;
    ur.n = r->n_upd;
    ur.row_ids = r->upd_ids;
    r->upd_ids = NULL;
    ur.order = malloc(((size_t)ur.n + 1) * sizeof *ur.order);
    ur.values = calloc(mg->n_update, sizeof *ur.values);
    ur.schemas = calloc(mg->n_update, sizeof *ur.schemas);
    ur.views = calloc(mg->n_update, sizeof *ur.views);
    if (!rc && (!ur.order || !ur.values || !ur.schemas || !ur.views))
      rc = CP_ENOMEM(err, "merge_into");
    for (int64_t i = 0; !rc && i < ur.n; i++) ur.order[i] = i;
    for (size_t c = 0; !rc && c < mg->n_update; c++) {
      rc = cp_schema_copy(&ur.schemas[c], &r->upd_schemas[c], err);
      if (!rc) rc = cp_builder_finish(r->upd[c], &ur.values[c], err);
      if (!rc) rc = cp_array_view_init(&ur.views[c], &ur.schemas[c], &ur.values[c], err);
    }
    if (!rc) rc = cp_update_rows_sort(&ur, err);
    if (!rc) rc = cp_update_apply(mg->u, &ur, msgs, err);
    cp_update_rows_free(&ur);
    cp_type_free(row);
  }
  if (!rc && r->n_del) {
    paimon_commit_messages *d = NULL;
    rc = paimon_delete_by_row_ids(mg->t, r->del_ids, (size_t)r->n_del, &d, err);
    if (!rc) rc = paimon_commit_messages_append(msgs, d, err);
    paimon_commit_messages_free(d);
  }
  return rc;
}

int cp_merge_run_start(cp_merge_run *r) {
  cp_merge *mg = r->mg;
  int64_t ns = mg->self ? 0 : mg->src->length;
  r->matched = calloc((size_t)ns + 1, sizeof *r->matched);
  r->upd = calloc(mg->n_update + 1, sizeof *r->upd);
  r->upd_schemas = calloc(mg->n_update + 1, sizeof *r->upd_schemas);
  if (!r->matched || !r->upd || !r->upd_schemas) return CP_ENOMEM(mg->err, "merge_into");
  /* Spark checks the match cardinality; a sole unconditional DELETE is unambiguous. */
  r->dedupe = mg->n_m == 1 && mg->m[0].action == PAIMON_MERGE_DELETE && !mg->m[0].text;
  for (size_t u = 0; u < mg->n_update; u++) {
    CP_RETURN_IF_ERROR(cp_field_to_arrow(cp_row_find_field(mg->t->schema->row, mg->update_cols[u]),
                                         &r->upd_schemas[u], mg->err));
    CP_RETURN_IF_ERROR(cp_builder_create(&r->upd[u], &r->upd_schemas[u], mg->err));
  }
  return mg->self ? PAIMON_OK : build_source_hash(r);
}
