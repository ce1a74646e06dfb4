/*
 * Joins (docs/sql.md, "Joins"): the row pairs of two relations for an ON condition, used by
 * SELECT's INNER / LEFT / RIGHT / FULL / CROSS joins and by MERGE INTO (which needs matched pairs
 * and both sides' unmatched rows, spec/data-evolution.md §3.8).
 *
 * The bound ON condition is split into its AND conjuncts. Equalities whose sides read one input
 * each become hash keys: the right input is hashed (rows with a NULL key never match, as `=`
 * says), the left probes it. The other conjuncts are evaluated on the candidate pairs. Without an
 * equality every pair is a candidate, bounded so that a mistaken cross join fails cleanly instead
 * of exhausting memory.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/ops.h"
#include "arrow/schema.h"
#include "base/status.h"
#include "sql/exec.h"

/* Most candidate pairs a join without an equality condition may produce. */
#define CP_SQL_MAX_CROSS_PAIRS ((int64_t)50 * 1000 * 1000)

void cp_sql_pairs_free(cp_sql_pairs *p) {
  free(p->left);
  free(p->right);
  memset(p, 0, sizeof *p);
}

static int pairs_push(cp_sql_pairs *p, int64_t *cap, int64_t l, int64_t r, paimon_error *err) {
  if (p->n == *cap) {
    int64_t c = *cap ? *cap * 2 : 64;
    int64_t *nl = realloc(p->left, (size_t)c * sizeof *nl);
    if (nl) p->left = nl;
    int64_t *nr = nl ? realloc(p->right, (size_t)c * sizeof *nr) : NULL;
    if (nr) p->right = nr;
    if (!nl || !nr) return CP_ENOMEM(err, "join");
    *cap = c;
  }
  p->left[p->n] = l;
  p->right[p->n] = r;
  p->n++;
  return PAIMON_OK;
}

/* ---- splitting the condition ---------------------------------------------------------------- */

typedef struct join_plan {
  cp_expr **left_keys, **right_keys; /* bound over each side's own columns */
  size_t n_keys;
  cp_expr **residual; /* bound over both sides */
  size_t n_residual;
} join_plan;

static void plan_free(join_plan *jp) {
  for (size_t i = 0; i < jp->n_keys; i++) {
    cp_expr_free(jp->left_keys[i]);
    cp_expr_free(jp->right_keys[i]);
  }
  for (size_t i = 0; i < jp->n_residual; i++) cp_expr_free(jp->residual[i]);
  free(jp->left_keys);
  free(jp->right_keys);
  free(jp->residual);
  memset(jp, 0, sizeof *jp);
}

/* -1: reads no column; 0: only left columns; 1: only right ones; 2: both. */
static int side_of(const cp_expr *e, size_t n_left, paimon_error *err, int *side) {
  int32_t *cols = NULL;
  size_t n = 0;
  CP_RETURN_IF_ERROR(cp_expr_columns(e, &cols, &n, err));
  *side = -1;
  for (size_t i = 0; i < n; i++) {
    int s = (size_t)cols[i] < n_left ? 0 : 1;
    *side = *side < 0 ? s : (*side == s ? s : 2);
  }
  free(cols);
  return PAIMON_OK;
}

/* A copy of `e` reading the right side's columns at their own indexes. */
static int shift_right(const cp_expr *e, size_t n_left, size_t n_total, cp_expr **out,
                       paimon_error *err) {
  int32_t *map = malloc((n_total + 1) * sizeof *map);
  if (!map) return CP_ENOMEM(err, "join");
  for (size_t i = 0; i < n_total; i++) map[i] = i < n_left ? -1 : (int32_t)(i - n_left);
  int rc = cp_expr_copy(out, e, err);
  if (!rc) rc = cp_expr_remap_columns(*out, map, n_total, err);
  if (rc) {
    cp_expr_free(*out);
    *out = NULL;
  }
  free(map);
  return rc;
}

static int add_conjunct(join_plan *jp, const cp_expr *c, size_t n_left, size_t n_total,
                        paimon_error *err) {
  if (c->kind == CP_EXPR_COMPARE && c->op == CP_CMP_EQ && c->n_args == 2) {
    int sa, sb;
    CP_RETURN_IF_ERROR(side_of(c->args[0], n_left, err, &sa));
    CP_RETURN_IF_ERROR(side_of(c->args[1], n_left, err, &sb));
    if ((sa == 0 && sb == 1) || (sa == 1 && sb == 0)) {
      const cp_expr *l = sa == 0 ? c->args[0] : c->args[1], *r = sa == 0 ? c->args[1] : c->args[0];
      size_t k = jp->n_keys;
      cp_expr **lk = realloc(jp->left_keys, (k + 1) * sizeof *lk);
      if (lk) jp->left_keys = lk;
      cp_expr **rk = lk ? realloc(jp->right_keys, (k + 1) * sizeof *rk) : NULL;
      if (rk) jp->right_keys = rk;
      if (!lk || !rk) return CP_ENOMEM(err, "join");
      jp->left_keys[k] = jp->right_keys[k] = NULL;
      int rc = cp_expr_copy(&jp->left_keys[k], l, err);
      if (!rc) rc = shift_right(r, n_left, n_total, &jp->right_keys[k], err);
      jp->n_keys++;
      return rc;
    }
  }
  cp_expr **res = realloc(jp->residual, (jp->n_residual + 1) * sizeof *res);
  if (!res) return CP_ENOMEM(err, "join");
  jp->residual = res;
  jp->residual[jp->n_residual] = NULL;
  int rc = cp_expr_copy(&jp->residual[jp->n_residual], c, err);
  jp->n_residual++;
  return rc;
}

static int split(const cp_expr *on, size_t n_left, size_t n_total, join_plan *jp,
                 paimon_error *err) {
  if (!on) return PAIMON_OK;
  if (on->kind == CP_EXPR_AND) {
    for (size_t i = 0; i < on->n_args; i++)
      CP_RETURN_IF_ERROR(split(on->args[i], n_left, n_total, jp, err));
    return PAIMON_OK;
  }
  return add_conjunct(jp, on, n_left, n_total, err);
}

/* ---- candidates ----------------------------------------------------------------------------- */

/* Evaluates key expressions over `r` into a relation of key columns. */
static int key_rel(const cp_rel *r, cp_expr **keys, size_t n, cp_rel *out, paimon_error *err) {
  cp_rel_builder b = CP_REL_BUILDER_INIT;
  for (size_t i = 0; i < n; i++) {
    struct ArrowSchema s;
    struct ArrowArray a;
    int rc = cp_sql_eval(r, keys[i], "k", &s, &a, err);
    if (!rc) rc = cp_rel_builder_add(&b, "k", NULL, keys[i]->type, false, &s, &a, err);
    if (rc) {
      cp_rel_builder_free(&b);
      return rc;
    }
  }
  return cp_rel_builder_finish(&b, cp_rel_rows(r), out, err);
}

static bool any_null(const cp_array_view *cols, size_t n, int64_t row) {
  for (size_t i = 0; i < n; i++)
    if (cp_view_is_null(&cols[i], row)) return true;
  return false;
}

/* Hash join on the keys: candidate pairs in left-row order, right rows ascending per left row. */
static int hash_candidates(const cp_rel *l, const cp_rel *r, join_plan *jp, cp_sql_pairs *out,
                           paimon_error *err) {
  cp_rel lk, rk;
  cp_array_view lv, rv;
  memset(&lv, 0, sizeof lv);
  memset(&rv, 0, sizeof rv);
  memset(&rk, 0, sizeof rk);
  CP_RETURN_IF_ERROR(key_rel(l, jp->left_keys, jp->n_keys, &lk, err));
  int64_t nl = cp_rel_rows(l), nr = cp_rel_rows(r), cap = 0;
  size_t hcap = 16;
  while (hcap < (size_t)nr * 2 + 2) hcap *= 2;
  int64_t *heads = malloc(hcap * sizeof *heads), *next = malloc(((size_t)nr + 1) * sizeof *next);
  uint64_t *lh = malloc(((size_t)nl + 1) * sizeof *lh), *rh = malloc(((size_t)nr + 1) * sizeof *rh);
  int rc = (!heads || !next || !lh || !rh) ? CP_ENOMEM(err, "join") : PAIMON_OK;
  if (!rc) rc = key_rel(r, jp->right_keys, jp->n_keys, &rk, err);
  if (!rc) rc = cp_rel_view(&lk, &lv, err);
  if (!rc) rc = cp_rel_view(&rk, &rv, err);
  if (!rc) rc = cp_hash_rows(lv.children, (int64_t)jp->n_keys, lh, err);
  if (!rc) rc = cp_hash_rows(rv.children, (int64_t)jp->n_keys, rh, err);
  if (!rc) {
    for (size_t i = 0; i < hcap; i++) heads[i] = -1;
    /* Inserted last to first, so that each chain lists right rows in ascending order. */
    for (int64_t j = nr - 1; j >= 0; j--) {
      if (any_null(rv.children, jp->n_keys, j)) continue;
      size_t h = (size_t)rh[j] & (hcap - 1);
      next[j] = heads[h];
      heads[h] = j;
    }
  }
  for (int64_t i = 0; !rc && i < nl; i++) {
    if (any_null(lv.children, jp->n_keys, i)) continue;
    for (int64_t j = heads[(size_t)lh[i] & (hcap - 1)]; j >= 0 && !rc; j = next[j]) {
      if (rh[j] != lh[i]) continue;
      bool eq = true;
      for (size_t k = 0; k < jp->n_keys && eq; k++)
        eq = cp_rows_equal(&lv.children[k], i, &rv.children[k], j);
      if (eq) rc = pairs_push(out, &cap, i, j, err);
    }
  }
  cp_array_view_reset(&lv);
  cp_array_view_reset(&rv);
  cp_rel_free(&lk);
  cp_rel_free(&rk);
  free(heads);
  free(next);
  free(lh);
  free(rh);
  return rc;
}

static int all_candidates(const cp_rel *l, const cp_rel *r, cp_sql_pairs *out, paimon_error *err) {
  int64_t nl = cp_rel_rows(l), nr = cp_rel_rows(r), cap = 0;
  if (nl && nr > CP_SQL_MAX_CROSS_PAIRS / nl)
    return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                            "a join without an equality condition between %lld and %lld rows "
                            "would produce too many pairs; add an equality to ON",
                            (long long)nl, (long long)nr);
  for (int64_t i = 0; i < nl; i++)
    for (int64_t j = 0; j < nr; j++) CP_RETURN_IF_ERROR(pairs_push(out, &cap, i, j, err));
  return PAIMON_OK;
}

/* Keeps the candidate pairs for which every residual conjunct is TRUE. */
static int filter_residual(const cp_rel *l, const cp_rel *r, join_plan *jp, cp_sql_pairs *c,
                           paimon_error *err) {
  if (!jp->n_residual || c->n == 0) return PAIMON_OK;
  cp_rel joined;
  CP_RETURN_IF_ERROR(cp_sql_pairs_rel(l, r, c, &joined, err));
  uint8_t *keep = NULL;
  int rc = PAIMON_OK;
  for (size_t i = 0; !rc && i < jp->n_residual; i++) {
    uint8_t *bits = NULL;
    int64_t n_true = 0;
    rc = cp_sql_select_bits(&joined, jp->residual[i], &bits, &n_true, err);
    if (rc) break;
    if (!keep) {
      keep = bits;
    } else {
      for (int64_t b = 0; b < cp_bitmap_bytes(c->n); b++) keep[b] &= bits[b];
      free(bits);
    }
  }
  int64_t k = 0;
  for (int64_t i = 0; !rc && i < c->n; i++)
    if (cp_bit_get(keep, i)) {
      c->left[k] = c->left[i];
      c->right[k] = c->right[i];
      k++;
    }
  if (!rc) c->n = k;
  free(keep);
  cp_rel_free(&joined);
  return rc;
}

/* The final pairs: matches per left row in order, unmatched left rows in place when kept, then
 * unmatched right rows when kept. */
static int assemble(int64_t nl, int64_t nr, const cp_sql_pairs *m, bool keep_left, bool keep_right,
                    cp_sql_pairs *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  int64_t cap = 0, k = 0;
  bool *right_matched = calloc((size_t)nr + 1, 1);
  if (!right_matched) return CP_ENOMEM(err, "join");
  int rc = PAIMON_OK;
  for (int64_t i = 0; i < nl && !rc; i++) {
    bool any = false;
    for (; k < m->n && m->left[k] == i && !rc; k++) {
      any = true;
      right_matched[m->right[k]] = true;
      rc = pairs_push(out, &cap, i, m->right[k], err);
    }
    if (!rc && !any && keep_left) rc = pairs_push(out, &cap, i, -1, err);
  }
  for (int64_t j = 0; keep_right && j < nr && !rc; j++)
    if (!right_matched[j]) rc = pairs_push(out, &cap, -1, j, err);
  free(right_matched);
  if (rc) cp_sql_pairs_free(out);
  return rc;
}

int cp_sql_join_pairs(const cp_rel *l, const cp_rel *r, const cp_expr *on, bool keep_left,
                      bool keep_right, cp_sql_pairs *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  join_plan jp;
  memset(&jp, 0, sizeof jp);
  cp_sql_pairs cand;
  memset(&cand, 0, sizeof cand);
  int rc = split(on, l->n_cols, l->n_cols + r->n_cols, &jp, err);
  if (!rc)
    rc = jp.n_keys ? hash_candidates(l, r, &jp, &cand, err) : all_candidates(l, r, &cand, err);
  if (!rc) rc = filter_residual(l, r, &jp, &cand, err);
  if (!rc) rc = assemble(cp_rel_rows(l), cp_rel_rows(r), &cand, keep_left, keep_right, out, err);
  cp_sql_pairs_free(&cand);
  plan_free(&jp);
  return rc;
}

/* Marks the columns of a side that may now hold NULLs (outer rows) as nullable. */
static void make_nullable(cp_rel *r) {
  for (size_t i = 0; i < r->n_cols; i++) {
    r->cols[i].type->nullable = true;
    r->schema.children[i]->flags |= ARROW_FLAG_NULLABLE;
  }
}

int cp_sql_pairs_rel(const cp_rel *l, const cp_rel *r, const cp_sql_pairs *p, cp_rel *out,
                     paimon_error *err) {
  memset(out, 0, sizeof *out);
  cp_rel lt, rt;
  memset(&rt, 0, sizeof rt);
  CP_RETURN_IF_ERROR(cp_rel_take(l, p->left, p->n, &lt, err));
  int rc = cp_rel_take(r, p->right, p->n, &rt, err);
  bool l_null = false, r_null = false;
  for (int64_t i = 0; i < p->n; i++) {
    l_null |= p->left[i] < 0;
    r_null |= p->right[i] < 0;
  }
  if (!rc && l_null) make_nullable(&lt);
  if (!rc && r_null) make_nullable(&rt);
  if (!rc) rc = cp_rel_concat_cols(&lt, &rt, out, err);
  cp_rel_free(&lt);
  cp_rel_free(&rt);
  return rc;
}
