/*
 * Vectorized AND / OR / NOT in SQL's three-valued logic, and CASE / COALESCE by picking, for
 * every row, the branch that supplies its value (eval_internal.h).
 *
 * AND is FALSE when any input is FALSE, else NULL when any is NULL, else TRUE; OR likewise with
 * TRUE. Working a byte (eight rows) at a time: `decided` collects the rows where some input has
 * the dominant value (FALSE for AND, TRUE for OR) and `unknown` the rows where some input is
 * NULL; the result is the dominant value on `decided` rows, NULL on the other `unknown` rows and
 * the other value elsewhere.
 */
#include <stdlib.h>
#include <string.h>

#include "arrow/schema.h"
#include "base/status.h"
#include "expr/eval_internal.h"
#include "types/type_arrow.h"

/* The value and validity bits of a boolean column, aligned to bit 0. */
typedef struct bool_bits {
  const uint8_t *values, *validity; /* validity NULL: all valid */
  uint8_t *tmp_values, *tmp_validity;
} bool_bits;

static int get_bits(const cp_array_view *v, int64_t n, bool_bits *b, paimon_error *err) {
  memset(b, 0, sizeof *b);
  if (v->type.id == CP_ARROW_NA) {
    b->tmp_values = calloc((size_t)cp_bitmap_bytes(n) + 1, 1);
    b->tmp_validity = calloc((size_t)cp_bitmap_bytes(n) + 1, 1);
    b->values = b->tmp_values;
    b->validity = b->tmp_validity;
  } else {
    b->values = cp_aligned_bits(v->values.u8, v->offset, n, &b->tmp_values);
    if (v->validity) b->validity = cp_aligned_bits(v->validity, v->offset, n, &b->tmp_validity);
    if (v->validity && !b->validity) b->values = NULL;
  }
  if (!b->values) {
    free(b->tmp_values);
    free(b->tmp_validity);
    return CP_ENOMEM(err, "boolean bits");
  }
  return PAIMON_OK;
}

static void put_bits(bool_bits *b) {
  free(b->tmp_values);
  free(b->tmp_validity);
}

static int eval_not(const cp_expr *e, const cp_vec *arg, int64_t n, cp_vec *out,
                    paimon_error *err) {
  bool_bits b;
  CP_RETURN_IF_ERROR(get_bits(arg->view, n, &b, err));
  cp_out o;
  int rc = cp_out_init(&o, n, 0, err);
  if (rc == 0) {
    for (int64_t k = 0; k < cp_bitmap_bytes(n); k++) o.values[k] = (uint8_t)~b.values[k];
    if (b.validity) memcpy(o.validity, b.validity, (size_t)cp_bitmap_bytes(n));
    rc = cp_out_finish(&o, e->type, out, err);
  }
  put_bits(&b);
  return rc;
}

int cp_kernel_logic(cp_eval_ctx *ctx, const cp_expr *e, cp_vec *args, cp_vec *out,
                    paimon_error *err) {
  int64_t n = ctx->n, bytes = cp_bitmap_bytes(n);
  bool any_column = false;
  for (size_t k = 0; k < e->n_args; k++) any_column = any_column || !args[k].scalar;
  if (!any_column) return CP_KERNEL_DECLINED;
  if (e->kind == CP_EXPR_NOT) return eval_not(e, &args[0], n, out, err);
  bool dominant = e->kind == CP_EXPR_OR, const_null = false;
  for (size_t k = 0; k < e->n_args; k++) {
    if (!args[k].scalar) continue;
    if (args[k].value.is_null)
      const_null = true;
    else if (args[k].value.v.b == dominant) {
      cp_vec_set_scalar(out, &args[k].value);
      return PAIMON_OK;
    }
  }
  cp_out o;
  CP_RETURN_IF_ERROR(cp_out_init(&o, n, 0, err));
  uint8_t *decided = o.values, *unknown = o.validity; /* reused as accumulators */
  memset(decided, 0, (size_t)bytes);
  memset(unknown, const_null ? 0xFF : 0, (size_t)bytes);
  for (size_t k = 0; k < e->n_args; k++) {
    if (args[k].scalar) continue;
    bool_bits b;
    int rc = get_bits(args[k].view, n, &b, err);
    if (rc != 0) {
      cp_out_discard(&o);
      return rc;
    }
    for (int64_t i = 0; i < bytes; i++) {
      uint8_t valid = b.validity ? b.validity[i] : 0xFF;
      uint8_t val = dominant ? b.values[i] : (uint8_t)~b.values[i];
      decided[i] |= valid & val;
      unknown[i] |= (uint8_t)~valid;
    }
    put_bits(&b);
  }
  for (int64_t i = 0; i < bytes; i++) {
    uint8_t d = decided[i], u = unknown[i];
    o.validity[i] = (uint8_t)(d | ~u);
    o.values[i] = dominant ? d : (uint8_t)(~d & ~u);
  }
  return cp_out_finish(&o, e->type, out, err);
}

/* ---- CASE / COALESCE ---------------------------------------------------------------------- */

/* src[i] = index of the argument that gives row i its value. */
static int choose_sources(const cp_expr *e, const cp_vec *args, int64_t n, int32_t *src) {
  int32_t last = (int32_t)e->n_args - 1;
  for (int64_t i = 0; i < n; i++) src[i] = -1;
  bool is_case = e->kind == CP_EXPR_CASE;
  size_t step = is_case ? 2 : 1, end = is_case ? e->n_args - 1 : e->n_args;
  for (size_t k = 0; k < end; k += step) {
    const cp_vec *a = &args[k];
    int32_t pick = (int32_t)(is_case ? k + 1 : k);
    if (a->scalar) {
      bool take = is_case ? !a->value.is_null && a->value.v.b : !a->value.is_null;
      if (!take) continue;
      for (int64_t i = 0; i < n; i++)
        if (src[i] < 0) src[i] = pick;
      return PAIMON_OK;
    }
    const cp_array_view *v = a->view;
    for (int64_t i = 0; i < n; i++) {
      if (src[i] >= 0 || cp_view_is_null(v, i)) continue;
      if (!is_case || cp_view_get_bool(v, i)) src[i] = pick;
    }
  }
  for (int64_t i = 0; i < n; i++)
    if (src[i] < 0) src[i] = last;
  return PAIMON_OK;
}

/* Appends rows [start, start + len) of argument vector `a` (of type t) to b. */
static int append_run(cp_builder *b, const cp_type *t, const cp_vec *a, bool canonical,
                      int64_t start, int64_t len, paimon_error *err) {
  if (a->scalar) {
    if (a->value.is_null) return cp_builder_append_nulls(b, len, err);
    for (int64_t i = 0; i < len; i++) CP_RETURN_IF_ERROR(cp_datum_append(t, &a->value, b, err));
    return PAIMON_OK;
  }
  if (canonical || cp_type_is_nested(t)) return cp_builder_append_view(b, a->view, start, len, err);
  for (int64_t i = start; i < start + len; i++) {
    cp_datum d;
    CP_RETURN_IF_ERROR(cp_datum_from_view(t, a->view, i, &d, err));
    CP_RETURN_IF_ERROR(cp_datum_append(t, &d, b, err));
  }
  return PAIMON_OK;
}

static int build_picked(const cp_expr *e, const cp_vec *args, const int32_t *src, int64_t n,
                        struct ArrowArray *result, paimon_error *err) {
  struct ArrowSchema schema;
  CP_RETURN_IF_ERROR(cp_type_to_arrow(e->type, "", &schema, err));
  bool *canonical = calloc(e->n_args, sizeof *canonical);
  cp_builder *b = NULL;
  int rc = canonical ? cp_builder_create(&b, &schema, err) : CP_ENOMEM(err, "CASE");
  for (size_t k = 0; rc == 0 && k < e->n_args; k++)
    canonical[k] =
        !args[k].scalar && cp_schema_equal(&schema, args[k].view->schema, CP_SCHEMA_CMP_TYPES);
  if (rc == 0) rc = cp_builder_reserve(b, n, 0, err);
  for (int64_t i = 0; rc == 0 && i < n;) {
    int64_t j = i + 1;
    while (j < n && src[j] == src[i]) j++;
    const cp_vec *a = &args[src[i]];
    rc = append_run(b, e->type, a, canonical[src[i]], i, j - i, err);
    i = j;
  }
  if (rc == 0) rc = cp_builder_finish(b, result, err);
  cp_builder_free(b);
  free(canonical);
  cp_schema_release(&schema);
  return rc;
}

int cp_kernel_pick(cp_eval_ctx *ctx, const cp_expr *e, cp_vec *args, cp_vec *out,
                   paimon_error *err) {
  bool any_column = false;
  for (size_t k = 0; k < e->n_args; k++) any_column = any_column || !args[k].scalar;
  if (!any_column) return CP_KERNEL_DECLINED;
  int64_t n = ctx->n;
  int32_t *src = malloc((size_t)(n ? n : 1) * sizeof *src);
  if (!src) return CP_ENOMEM(err, "CASE sources");
  choose_sources(e, args, n, src);
  struct ArrowArray result;
  int rc = build_picked(e, args, src, n, &result, err);
  free(src);
  if (rc == 0) rc = cp_vec_adopt(out, e->type, &result, err);
  return rc;
}
