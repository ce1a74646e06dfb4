/*
 * The vectorized evaluator's working parts (eval.c and the kernels in eval_*.c); not part of the
 * layer's interface.
 *
 * Every node evaluates to a cp_vec: either a scalar (one value for every row: literals, and nodes
 * whose inputs are all scalars) or a column of `n` rows, held as a validated Arrow view that is
 * borrowed from the input batch (column references) or owns the array a kernel produced (in the
 * Arrow type types/type_arrow.h maps the node's type to, offset 0). Kernels look at the physical
 * layout of their inputs and handle the common cases in tight loops; anything they do not
 * handle returns CP_KERNEL_DECLINED and falls back to the per-row path, which applies the
 * reference semantics of scalar.c to every row.
 */
#ifndef CP_EXPR_EVAL_INTERNAL_H
#define CP_EXPR_EVAL_INTERNAL_H

#include "arrow/array.h"
#include "expr/expr_internal.h"
#include "types/datum_arrow.h"

/* Returned by a kernel that does not handle its inputs (not an error). */
#define CP_KERNEL_DECLINED 1

typedef struct cp_vec {
  bool scalar;
  cp_datum value;            /* scalar: the value (bytes in the context's arena or a literal) */
  const cp_array_view *view; /* column: the rows (borrowed, or &own_view) */
  struct ArrowArray array;   /* owned result; release NULL when the view is borrowed */
  struct ArrowSchema schema;
  cp_array_view own_view;
} cp_vec;

typedef struct cp_eval_ctx {
  const cp_array_view *batch;
  int64_t n;      /* rows */
  cp_arena arena; /* scalar results of this evaluation */
  int depth;      /* recursion of cp_eval_node, guarded */
} cp_eval_ctx;

/* Evaluates `e` into *out (initialised here; release with cp_vec_release). */
int cp_eval_node(cp_eval_ctx *ctx, const cp_expr *e, cp_vec *out, paimon_error *err);

void cp_vec_release(cp_vec *v);

/* Makes *v a scalar. */
void cp_vec_set_scalar(cp_vec *v, const cp_datum *value);

/* Makes *v own `array` (moved in), an array of Paimon type `t` in its canonical Arrow type. */
int cp_vec_adopt(cp_vec *v, const cp_type *t, struct ArrowArray *array, paimon_error *err);

/* Row i of a vec as a datum of type t. */
static inline int cp_vec_get(const cp_vec *v, const cp_type *t, int64_t i, cp_datum *out,
                             paimon_error *err) {
  if (v->scalar) {
    *out = v->value;
    return PAIMON_OK;
  }
  return cp_datum_from_view(t, v->view, i, out, err);
}

/* A builder for ctx->n rows of e's type (its canonical Arrow type), reserved. */
int cp_result_builder(const cp_eval_ctx *ctx, const cp_expr *e, cp_builder **out,
                      paimon_error *err);

/* ---- output buffers ----------------------------------------------------------------------- */

/* A fixed-width or boolean result being filled in place: values (n elements of `width` bytes, or
 * n bits when width is 0) and a validity bitmap (all bits set at first), both from bit/element 0.
 */
typedef struct cp_out {
  struct ArrowArray array;
  uint8_t *values;
  uint8_t *validity;
  int64_t n;
} cp_out;

int cp_out_init(cp_out *o, int64_t n, int width, paimon_error *err);
/* Counts nulls, drops an all-set validity bitmap and hands the array to *v. */
int cp_out_finish(cp_out *o, const cp_type *t, cp_vec *v, paimon_error *err);
void cp_out_discard(cp_out *o);

/* Copies n validity bits of a view (all set when it has none) to dst from bit 0. */
void cp_copy_validity(uint8_t *dst, const cp_array_view *v, int64_t n);

/* The bits of a boolean view, aligned to bit 0: a pointer into the view when it starts at a byte
 * boundary, else into `tmp` (which the caller frees; NULL when unused). NULL on ENOMEM. */
const uint8_t *cp_aligned_bits(const uint8_t *bits, int64_t offset, int64_t n, uint8_t **tmp);

/* ---- kernels (each returns 0, an error, or CP_KERNEL_DECLINED) ----------------------------- */

int cp_kernel_compare(cp_eval_ctx *ctx, const cp_expr *e, cp_vec *args, cp_vec *out,
                      paimon_error *err);
int cp_kernel_in(cp_eval_ctx *ctx, const cp_expr *e, cp_vec *args, cp_vec *out, paimon_error *err);
int cp_kernel_like(cp_eval_ctx *ctx, const cp_expr *e, cp_vec *args, cp_vec *out,
                   paimon_error *err);
int cp_kernel_is_null(cp_eval_ctx *ctx, const cp_expr *e, cp_vec *args, cp_vec *out,
                      paimon_error *err);
int cp_kernel_logic(cp_eval_ctx *ctx, const cp_expr *e, cp_vec *args, cp_vec *out,
                    paimon_error *err);
int cp_kernel_pick(cp_eval_ctx *ctx, const cp_expr *e, cp_vec *args, cp_vec *out,
                   paimon_error *err);
int cp_kernel_arith(cp_eval_ctx *ctx, const cp_expr *e, cp_vec *args, cp_vec *out,
                    paimon_error *err);
int cp_kernel_cast(cp_eval_ctx *ctx, const cp_expr *e, cp_vec *args, cp_vec *out,
                   paimon_error *err);
/* SIZE and ARRAY (eval_nested.c); never declines those two. */
int cp_kernel_nested(cp_eval_ctx *ctx, const cp_expr *e, cp_vec *args, cp_vec *out,
                     paimon_error *err);

/* The Arrow type id a Paimon atomic type is held in canonically (types/type_arrow.h). */
cp_arrow_type cp_canonical_arrow_id(const cp_type *t);

/* True when the view holds `t` in exactly its canonical Arrow layout (so kernels may read the
 * raw values; for timestamps the unit must also match the precision's unit). */
bool cp_view_is_canonical(const cp_array_view *v, const cp_type *t);

#endif
