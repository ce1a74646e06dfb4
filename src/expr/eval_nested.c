/*
 * Vectorized SIZE and ARRAY (expr.h CP_FUNC_SIZE / CP_FUNC_ARRAY; eval_internal.h): the two
 * functions whose argument or result is nested. Nested values have no cp_datum form, so these
 * kernels never decline to the per-row path.
 */
#include <stdlib.h>
#include <string.h>

#include "arrow/ops.h"
#include "arrow/print.h"
#include "arrow/schema.h"
#include "base/status.h"
#include "expr/eval_internal.h"
#include "types/datum_arrow.h"
#include "types/type_arrow.h"

/* SIZE: list or map lengths from the offsets; -1 for a NULL, as Spark by default. */
static int size_kernel(cp_eval_ctx *ctx, const cp_expr *e, const cp_vec *arg, cp_vec *out,
                       paimon_error *err) {
  if (arg->scalar) { /* only a NULL can be a scalar of a nested type */
    cp_datum minus_one = cp_datum_int(-1);
    cp_vec_set_scalar(out, &minus_one);
    return PAIMON_OK;
  }
  const cp_array_view *v = arg->view;
  cp_out o;
  CP_RETURN_IF_ERROR(cp_out_init(&o, ctx->n, 4, err));
  int32_t *vals = (int32_t *)o.values;
  for (int64_t i = 0; i < ctx->n; i++) {
    if (v->type.id == CP_ARROW_NA || cp_view_is_null(v, i)) {
      vals[i] = -1;
      continue;
    }
    int64_t start, end;
    cp_view_list_range(v, i, &start, &end);
    vals[i] = (int32_t)(end - start);
  }
  return cp_out_finish(&o, e->type, out, err);
}

/* ARRAY: row i's list holds each argument's row-i value (arguments are already cast to the
 * element type by binding). */
static int array_kernel(cp_eval_ctx *ctx, const cp_expr *e, const cp_vec *args, cp_vec *out,
                        paimon_error *err) {
  const cp_type *elem = e->type->element;
  cp_builder *b = NULL;
  int rc = cp_result_builder(ctx, e, &b, err);
  cp_builder *items = rc == 0 ? cp_builder_child(b, 0) : NULL;
  for (int64_t i = 0; rc == 0 && i < ctx->n; i++) {
    for (size_t k = 0; rc == 0 && k < e->n_args; k++) {
      cp_datum d;
      rc = cp_vec_get(&args[k], elem, i, &d, err);
      if (rc == 0) rc = cp_datum_append(elem, &d, items, err);
    }
    if (rc == 0) rc = cp_builder_end_element(b, err);
  }
  struct ArrowArray array;
  if (rc == 0) rc = cp_builder_finish(b, &array, err);
  cp_builder_free(b);
  if (rc == 0) rc = cp_vec_adopt(out, e->type, &array, err);
  return rc;
}

/* NAMED_STRUCT: each field from its value column (copied run-wise) or scalar; every row valid. */
static int struct_kernel(cp_eval_ctx *ctx, const cp_expr *e, const cp_vec *args, cp_vec *out,
                         paimon_error *err) {
  cp_builder *b = NULL;
  int rc = cp_result_builder(ctx, e, &b, err);
  for (size_t k = 0; rc == 0 && k < e->type->n_fields; k++) {
    cp_builder *child = cp_builder_child(b, (int64_t)k);
    const cp_vec *v = &args[2 * k + 1];
    const cp_type *ft = e->type->fields[k].type;
    if (!v->scalar) {
      rc = cp_builder_append_view(child, v->view, 0, ctx->n, err);
    } else if (v->value.is_null || cp_type_is_nested(ft)) { /* a nested scalar is a NULL */
      rc = cp_builder_append_nulls(child, ctx->n, err);
    } else {
      for (int64_t i = 0; rc == 0 && i < ctx->n; i++)
        rc = cp_datum_append(ft, &v->value, child, err);
    }
  }
  if (rc == 0) rc = cp_builder_end_elements(b, ctx->n, err);
  struct ArrowArray array;
  if (rc == 0) rc = cp_builder_finish(b, &array, err);
  cp_builder_free(b);
  if (rc == 0) rc = cp_vec_adopt(out, e->type, &array, err);
  return rc;
}

/* GET_FIELD, SUBSCRIPT, ELEMENT_AT: per row, the child row to take (-1: NULL), then one take. */
static int access_kernel(cp_eval_ctx *ctx, const cp_expr *e, cp_vec *args, cp_vec *out,
                         paimon_error *err) {
  if (args[0].scalar) { /* only a NULL can be a scalar of a nested type */
    cp_datum null = cp_datum_null();
    cp_vec_set_scalar(out, &null);
    return PAIMON_OK;
  }
  const cp_array_view *v = args[0].view;
  const cp_type *t = e->args[0]->type, *kt = e->args[1]->type;
  const cp_array_view *from = NULL;
  if (v->type.id == CP_ARROW_NA) {
    cp_datum null = cp_datum_null();
    cp_vec_set_scalar(out, &null);
    return PAIMON_OK;
  }
  if (e->op == CP_FUNC_GET_FIELD)
    from = &v->children[e->args[1]->value.v.i64];
  else if (t->kind == CP_TYPE_MAP)
    from = cp_view_map_values(v);
  else
    from = &v->children[0];
  int64_t *idx = malloc(((size_t)ctx->n + 1) * sizeof *idx);
  if (!idx) return CP_ENOMEM(err, "element access");
  int rc = PAIMON_OK;
  for (int64_t i = 0; rc == 0 && i < ctx->n; i++) {
    idx[i] = -1;
    if (cp_view_is_null(v, i)) continue;
    if (e->op == CP_FUNC_GET_FIELD) {
      idx[i] = i;
      continue;
    }
    cp_datum k;
    rc = cp_vec_get(&args[1], kt, i, &k, err);
    if (rc || k.is_null) continue;
    int64_t start, end;
    cp_view_list_range(v, i, &start, &end);
    if (t->kind == CP_TYPE_MAP) {
      const cp_array_view *keys = cp_view_map_keys(v);
      for (int64_t j = start; rc == 0 && j < end && idx[i] < 0; j++) {
        cp_datum kj;
        rc = cp_datum_from_view(t->key, keys, j, &kj, err);
        if (rc == 0 && cp_datum_compare(t->key, &kj, &k) == 0) idx[i] = j;
      }
      continue;
    }
    int64_t pos = k.v.i64, n = end - start;
    if (e->op == CP_FUNC_ELEMENT_AT) {
      if (pos == 0) {
        rc = paimon_error_set(err, PAIMON_EINVAL,
                              "[INVALID_INDEX_OF_ZERO] The index 0 is invalid. An index shall be "
                              "either < 0 or > 0 (the first element has index 1).");
        break;
      }
      pos = pos > 0 ? pos - 1 : n + pos;
    }
    if (pos >= 0 && pos < n) idx[i] = start + pos;
  }
  struct ArrowArray array;
  memset(&array, 0, sizeof array);
  if (rc == 0) rc = cp_take(from, idx, ctx->n, &array, err);
  free(idx);
  if (rc == 0) rc = cp_vec_adopt(out, e->type, &array, err);
  return rc;
}

/* NESTED_EQUAL: cp_rows_equal per row (NULLs inside equal), NULL when a side is NULL. */
static int equal_kernel(cp_eval_ctx *ctx, const cp_expr *e, const cp_vec *args, cp_vec *out,
                        paimon_error *err) {
  if (args[0].scalar || args[1].scalar) { /* only a NULL is a scalar of a nested type */
    cp_datum null = cp_datum_null();
    cp_vec_set_scalar(out, &null);
    return PAIMON_OK;
  }
  cp_builder *b = NULL;
  int rc = cp_result_builder(ctx, e, &b, err);
  const cp_array_view *x = args[0].view, *y = args[1].view;
  for (int64_t i = 0; rc == 0 && i < ctx->n; i++) {
    bool null = x->type.id == CP_ARROW_NA || y->type.id == CP_ARROW_NA || cp_view_is_null(x, i) ||
                cp_view_is_null(y, i);
    rc = null ? cp_builder_append_null(b, err)
              : cp_builder_append_bool(b, cp_rows_equal(x, i, y, i), err);
  }
  struct ArrowArray array;
  if (rc == 0) rc = cp_builder_finish(b, &array, err);
  cp_builder_free(b);
  if (rc == 0) rc = cp_vec_adopt(out, e->type, &array, err);
  return rc;
}

/* NESTED_TO_STRING: each row's text as Spark's cast writes it. */
static int to_string_kernel(cp_eval_ctx *ctx, const cp_expr *e, const cp_vec *arg, cp_vec *out,
                            paimon_error *err) {
  if (arg->scalar) {
    cp_datum null = cp_datum_null();
    cp_vec_set_scalar(out, &null);
    return PAIMON_OK;
  }
  cp_builder *b = NULL;
  cp_buf text = CP_BUF_INIT;
  int rc = cp_result_builder(ctx, e, &b, err);
  for (int64_t i = 0; rc == 0 && i < ctx->n; i++) {
    if (arg->view->type.id == CP_ARROW_NA || cp_view_is_null(arg->view, i)) {
      rc = cp_builder_append_null(b, err);
      continue;
    }
    cp_buf_clear(&text);
    rc = cp_print_value_cast(&text, arg->view, i, err);
    if (rc == 0)
      rc = cp_builder_append_bytes(b, text.len ? text.data : (const uint8_t *)"", (int64_t)text.len,
                                   err);
  }
  cp_buf_free(&text);
  struct ArrowArray array;
  if (rc == 0) rc = cp_builder_finish(b, &array, err);
  cp_builder_free(b);
  if (rc == 0) rc = cp_vec_adopt(out, e->type, &array, err);
  return rc;
}

int cp_kernel_nested(cp_eval_ctx *ctx, const cp_expr *e, cp_vec *args, cp_vec *out,
                     paimon_error *err) {
  if (e->kind != CP_EXPR_FUNC) return CP_KERNEL_DECLINED;
  if (e->op == CP_FUNC_NESTED_TO_STRING) return to_string_kernel(ctx, e, &args[0], out, err);
  if (e->op == CP_FUNC_NESTED_EQUAL) return equal_kernel(ctx, e, args, out, err);
  if (e->op == CP_FUNC_NAMED_STRUCT) return struct_kernel(ctx, e, args, out, err);
  if (e->op >= CP_FUNC_GET_FIELD) return access_kernel(ctx, e, args, out, err);
  if (e->op == CP_FUNC_SIZE) return size_kernel(ctx, e, &args[0], out, err);
  if (e->op == CP_FUNC_ARRAY) return array_kernel(ctx, e, args, out, err);
  return CP_KERNEL_DECLINED;
}
