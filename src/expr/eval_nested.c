/*
 * Vectorized SIZE and ARRAY (expr.h CP_FUNC_SIZE / CP_FUNC_ARRAY; eval_internal.h): the two
 * functions whose argument or result is nested. Nested values have no cp_datum form, so these
 * kernels never decline to the per-row path.
 */
#include <string.h>

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

int cp_kernel_nested(cp_eval_ctx *ctx, const cp_expr *e, cp_vec *args, cp_vec *out,
                     paimon_error *err) {
  if (e->kind != CP_EXPR_FUNC) return CP_KERNEL_DECLINED;
  if (e->op == CP_FUNC_SIZE) return size_kernel(ctx, e, &args[0], out, err);
  if (e->op == CP_FUNC_ARRAY) return array_kernel(ctx, e, args, out, err);
  return CP_KERNEL_DECLINED;
}
