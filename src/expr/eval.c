/*
 * Vectorized evaluation of bound expressions over Arrow batches (expr.h: cp_expr_eval,
 * cp_expr_eval_selection; design in eval_internal.h): node dispatch, the per-row fallback, the
 * result buffers kernels fill, and turning the root's vector into the caller's array or bitmap.
 */
#include <stdlib.h>
#include <string.h>

#include "arrow/ops.h"
#include "arrow/schema.h"
#include "base/status.h"
#include "expr/eval_internal.h"
#include "types/datum_arrow.h"
#include "types/type_arrow.h"

/* ---- vectors and output buffers ----------------------------------------------------------- */

void cp_vec_release(cp_vec *v) {
  if (v->view == &v->own_view) cp_array_view_reset(&v->own_view);
  cp_array_release(&v->array);
  cp_schema_release(&v->schema);
  memset(v, 0, sizeof *v);
}

void cp_vec_set_scalar(cp_vec *v, const cp_datum *value) {
  memset(v, 0, sizeof *v);
  v->scalar = true;
  v->value = *value;
}

int cp_vec_adopt(cp_vec *v, const cp_type *t, struct ArrowArray *array, paimon_error *err) {
  memset(v, 0, sizeof *v);
  cp_array_move(array, &v->array);
  int rc = cp_type_to_arrow(t, "", &v->schema, err);
  if (rc == 0) rc = cp_array_view_init(&v->own_view, &v->schema, &v->array, err);
  if (rc != 0) {
    cp_array_release(&v->array);
    cp_schema_release(&v->schema);
    return rc;
  }
  v->view = &v->own_view;
  return PAIMON_OK;
}

int cp_out_init(cp_out *o, int64_t n, int width, paimon_error *err) {
  memset(o, 0, sizeof *o);
  o->n = n;
  CP_RETURN_IF_ERROR(cp_array_init(&o->array, 2, 0, err));
  int64_t vbytes = width ? n * width : cp_bitmap_bytes(n);
  void *validity, *values;
  int rc = cp_array_alloc_buffer(&o->array, 0, cp_bitmap_bytes(n), &validity, err);
  if (rc == 0) rc = cp_array_alloc_buffer(&o->array, 1, vbytes, &values, err);
  if (rc != 0) {
    cp_array_release(&o->array);
    return rc;
  }
  o->validity = validity;
  o->values = values;
  memset(o->validity, 0xFF, (size_t)cp_bitmap_bytes(n));
  o->array.length = n;
  return PAIMON_OK;
}

int cp_out_finish(cp_out *o, const cp_type *t, cp_vec *v, paimon_error *err) {
  int64_t valid = cp_bitmap_count_set(o->validity, 0, o->n);
  o->array.null_count = o->n - valid;
  if (valid == o->n) CP_RETURN_IF_ERROR(cp_array_set_buffer_ref(&o->array, 0, NULL, 0, err));
  return cp_vec_adopt(v, t, &o->array, err);
}

void cp_out_discard(cp_out *o) { cp_array_release(&o->array); }

void cp_copy_validity(uint8_t *dst, const cp_array_view *v, int64_t n) {
  if (v->type.id == CP_ARROW_NA)
    memset(dst, 0, (size_t)cp_bitmap_bytes(n));
  else if (!v->validity)
    memset(dst, 0xFF, (size_t)cp_bitmap_bytes(n));
  else
    cp_bitmap_copy(dst, 0, v->validity, v->offset, n);
}

const uint8_t *cp_aligned_bits(const uint8_t *bits, int64_t offset, int64_t n, uint8_t **tmp) {
  *tmp = NULL;
  if (offset % 8 == 0) return bits + offset / 8;
  *tmp = calloc((size_t)cp_bitmap_bytes(n) + 1, 1);
  if (!*tmp) return NULL;
  cp_bitmap_copy(*tmp, 0, bits, offset, n);
  return *tmp;
}

/* ---- Arrow layouts ------------------------------------------------------------------------ */

cp_arrow_type cp_canonical_arrow_id(const cp_type *t) {
  switch (t->kind) {
  case CP_TYPE_BOOLEAN: return CP_ARROW_BOOL;
  case CP_TYPE_TINYINT: return CP_ARROW_INT8;
  case CP_TYPE_SMALLINT: return CP_ARROW_INT16;
  case CP_TYPE_INT: return CP_ARROW_INT32;
  case CP_TYPE_BIGINT: return CP_ARROW_INT64;
  case CP_TYPE_FLOAT: return CP_ARROW_FLOAT;
  case CP_TYPE_DOUBLE: return CP_ARROW_DOUBLE;
  case CP_TYPE_DECIMAL: return CP_ARROW_DECIMAL128;
  case CP_TYPE_CHAR:
  case CP_TYPE_VARCHAR: return CP_ARROW_STRING;
  case CP_TYPE_BINARY:
  case CP_TYPE_VARBINARY: return CP_ARROW_BINARY;
  case CP_TYPE_BLOB: return CP_ARROW_LARGE_BINARY;
  case CP_TYPE_DATE: return CP_ARROW_DATE32;
  case CP_TYPE_TIME: return CP_ARROW_TIME32;
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ: return CP_ARROW_TIMESTAMP;
  default: return CP_ARROW_TYPE_COUNT;
  }
}

static cp_time_unit precision_unit(int p) {
  return p == 0 ? CP_UNIT_SECOND : p <= 3 ? CP_UNIT_MILLI : p <= 6 ? CP_UNIT_MICRO : CP_UNIT_NANO;
}

bool cp_view_is_canonical(const cp_array_view *v, const cp_type *t) {
  if (v->type.id != cp_canonical_arrow_id(t)) return false;
  switch (t->kind) {
  case CP_TYPE_TIME: return v->type.unit == CP_UNIT_MILLI;
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ: return v->type.unit == precision_unit(t->precision);
  case CP_TYPE_DECIMAL: return v->type.scale == t->scale && v->type.precision == t->precision;
  default: return true;
  }
}

/* Whether a column's Arrow type can hold its Paimon type (the variants cp_datum_from_view reads,
 * and the matching classes of nested types). */
static bool column_type_ok(const cp_type *t, const cp_array_view *v) {
  cp_arrow_type id = v->type.id;
  if (id == CP_ARROW_NA) return true;
  switch (t->kind) {
  case CP_TYPE_BOOLEAN: return id == CP_ARROW_BOOL;
  case CP_TYPE_TINYINT:
  case CP_TYPE_SMALLINT:
  case CP_TYPE_INT:
  case CP_TYPE_BIGINT: return cp_arrow_type_is_integer(id);
  case CP_TYPE_DATE: return id == CP_ARROW_DATE32 || cp_arrow_type_is_integer(id);
  case CP_TYPE_TIME:
    return id == CP_ARROW_TIME32 || id == CP_ARROW_TIME64 || cp_arrow_type_is_integer(id);
  case CP_TYPE_FLOAT: return id == CP_ARROW_FLOAT;
  case CP_TYPE_DOUBLE: return cp_arrow_type_is_floating(id);
  case CP_TYPE_DECIMAL: return id == CP_ARROW_DECIMAL128 && v->type.scale == t->scale;
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ: return id == CP_ARROW_TIMESTAMP;
  case CP_TYPE_CHAR:
  case CP_TYPE_VARCHAR:
  case CP_TYPE_BINARY:
  case CP_TYPE_VARBINARY:
  case CP_TYPE_BLOB: return cp_arrow_type_is_var_binary(id) || id == CP_ARROW_FIXED_SIZE_BINARY;
  case CP_TYPE_ARRAY: return id == CP_ARROW_LIST || id == CP_ARROW_LARGE_LIST;
  case CP_TYPE_VECTOR: return id == CP_ARROW_FIXED_SIZE_LIST;
  case CP_TYPE_MAP:
  case CP_TYPE_MULTISET: return id == CP_ARROW_MAP;
  case CP_TYPE_ROW:
  case CP_TYPE_VARIANT: return id == CP_ARROW_STRUCT;
  default: return false;
  }
}

static int eval_column(cp_eval_ctx *ctx, const cp_expr *e, cp_vec *out, paimon_error *err) {
  const cp_array_view *b = ctx->batch;
  if (e->column < 0 || e->column >= b->n_children)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "column '%s' (index %d) is not in the batch of %lld columns",
                            e->name ? e->name : "?", (int)e->column, (long long)b->n_children);
  const cp_array_view *v = &b->children[e->column];
  if (!column_type_ok(e->type, v)) {
    cp_buf name = CP_BUF_INIT;
    cp_type_append_name(e->type, &name);
    paimon_error_set(err, PAIMON_EINVAL, "column '%s': Arrow type %s cannot hold %.*s values",
                     e->name ? e->name : "?", cp_arrow_type_name(v->type.id), (int)name.len,
                     name.data ? (char *)name.data : "?");
    cp_buf_free(&name);
    return PAIMON_EINVAL;
  }
  memset(out, 0, sizeof *out);
  out->view = v;
  return PAIMON_OK;
}

/* ---- the per-row path --------------------------------------------------------------------- */

enum { CP_ROW_ARENA_LIMIT = 1 << 16, CP_STACK_ARGS = 8 };

static int gather(const cp_expr *e, const cp_vec *args, int64_t i, cp_datum *vals,
                  paimon_error *err) {
  for (size_t k = 0; k < e->n_args; k++)
    CP_RETURN_IF_ERROR(cp_vec_get(&args[k], e->args[k]->type, i, &vals[k], err));
  return PAIMON_OK;
}

static int eval_rows(cp_eval_ctx *ctx, const cp_expr *e, const cp_vec *args, cp_datum *vals,
                     cp_vec *out, paimon_error *err) {
  bool all_scalar = true;
  for (size_t k = 0; k < e->n_args; k++) all_scalar = all_scalar && args[k].scalar;
  if (all_scalar) {
    cp_datum r;
    CP_RETURN_IF_ERROR(gather(e, args, 0, vals, err));
    CP_RETURN_IF_ERROR(cp_scalar_eval(e, vals, &ctx->arena, &r, err));
    cp_vec_set_scalar(out, &r);
    return PAIMON_OK;
  }
  cp_builder *b = NULL;
  int rc = cp_result_builder(ctx, e, &b, err);
  cp_arena rows = CP_ARENA_INIT;
  for (int64_t i = 0; rc == 0 && i < ctx->n; i++) {
    cp_datum r;
    rc = gather(e, args, i, vals, err);
    if (rc == 0) rc = cp_scalar_eval(e, vals, &rows, &r, err);
    if (rc == 0) rc = cp_datum_append(e->type, &r, b, err);
    if (rows.total > CP_ROW_ARENA_LIMIT) cp_arena_free(&rows);
  }
  cp_arena_free(&rows);
  struct ArrowArray array;
  if (rc == 0) rc = cp_builder_finish(b, &array, err);
  cp_builder_free(b);
  if (rc == 0) rc = cp_vec_adopt(out, e->type, &array, err);
  return rc;
}

int cp_result_builder(const cp_eval_ctx *ctx, const cp_expr *e, cp_builder **out,
                      paimon_error *err) {
  *out = NULL;
  struct ArrowSchema schema;
  CP_RETURN_IF_ERROR(cp_type_to_arrow(e->type, "", &schema, err));
  int rc = cp_builder_create(out, &schema, err);
  cp_schema_release(&schema);
  if (rc == 0) rc = cp_builder_reserve(*out, ctx->n, 0, err);
  return rc;
}

static int per_row(cp_eval_ctx *ctx, const cp_expr *e, const cp_vec *args, cp_vec *out,
                   paimon_error *err) {
  cp_datum stack[CP_STACK_ARGS];
  cp_datum *vals = e->n_args <= CP_STACK_ARGS ? stack : malloc(e->n_args * sizeof *vals);
  if (!vals) return CP_ENOMEM(err, "argument values");
  int rc = eval_rows(ctx, e, args, vals, out, err);
  if (vals != stack) free(vals);
  return rc;
}

/* ---- dispatch ----------------------------------------------------------------------------- */

static int run_kernel(cp_eval_ctx *ctx, const cp_expr *e, cp_vec *args, cp_vec *out,
                      paimon_error *err) {
  switch (e->kind) {
  case CP_EXPR_COMPARE: return cp_kernel_compare(ctx, e, args, out, err);
  case CP_EXPR_IN: return cp_kernel_in(ctx, e, args, out, err);
  case CP_EXPR_LIKE: return cp_kernel_like(ctx, e, args, out, err);
  case CP_EXPR_IS_NULL: return cp_kernel_is_null(ctx, e, args, out, err);
  case CP_EXPR_AND:
  case CP_EXPR_OR:
  case CP_EXPR_NOT: return cp_kernel_logic(ctx, e, args, out, err);
  case CP_EXPR_COALESCE:
  case CP_EXPR_CASE: return cp_kernel_pick(ctx, e, args, out, err);
  case CP_EXPR_ARITH: return cp_kernel_arith(ctx, e, args, out, err);
  case CP_EXPR_CAST: return cp_kernel_cast(ctx, e, args, out, err);
  case CP_EXPR_FUNC: return cp_kernel_nested(ctx, e, args, out, err);
  default: return CP_KERNEL_DECLINED;
  }
}

/* Node `e` over its argument vectors, args[0] evaluated already: evaluates the others, runs the
 * kernel (or the per-row path) into *out and releases every argument. */
static int eval_above(cp_eval_ctx *ctx, const cp_expr *e, cp_vec *args, cp_vec *out,
                      paimon_error *err) {
  size_t done = 1;
  int rc = 0;
  for (; done < e->n_args && rc == 0; done++)
    rc = cp_eval_node(ctx, e->args[done], &args[done], err);
  if (rc == 0) {
    rc = run_kernel(ctx, e, args, out, err);
    if (rc == CP_KERNEL_DECLINED) rc = per_row(ctx, e, args, out, err);
  }
  for (size_t k = 0; k < done; k++) cp_vec_release(&args[k]);
  return rc;
}

static int eval_leaf(cp_eval_ctx *ctx, const cp_expr *e, cp_vec *out, paimon_error *err) {
  if (e->kind == CP_EXPR_COLUMN) return eval_column(ctx, e, out, err);
  if (e->kind == CP_EXPR_LITERAL) {
    cp_vec_set_scalar(out, &e->value);
    return PAIMON_OK;
  }
  return paimon_error_set(err, PAIMON_EINVAL, "expression kind %d has no arguments", e->kind);
}

/* Argument vectors for `e`: `inline_args` when two are enough (the binary operators that long
 * chains are made of), else allocated. Zeroed. */
enum { CP_INLINE_ARGS = 2 };
static cp_vec *args_for(const cp_expr *e, cp_vec *inline_args) {
  if (e->n_args <= CP_INLINE_ARGS) {
    memset(inline_args, 0, CP_INLINE_ARGS * sizeof *inline_args);
    return inline_args;
  }
  return calloc(e->n_args, sizeof(cp_vec));
}

/* Evaluates the chain of first arguments bottom up with a loop (expr.h, "Depth"): each node's
 * result is written straight into the first argument slot of the node above (a cp_vec cannot be
 * moved: its view may point into itself), so two levels of argument vectors are live at a time.
 * The other arguments recurse; the guard bounds trees not made by the constructors. */
int cp_eval_node(cp_eval_ctx *ctx, const cp_expr *e, cp_vec *out, paimon_error *err) {
  memset(out, 0, sizeof *out);
  if (ctx->depth >= 2 * CP_EXPR_MAX_DEPTH + 16)
    return paimon_error_set(err, PAIMON_EINVAL, "expression nested too deeply to evaluate");
  cp_chain s;
  CP_RETURN_IF_ERROR(cp_expr_spine(&s, e, err));
  for (size_t i = 0; i < s.n; i++)
    if (!cp_spine_node(&s, i)->bound || !cp_spine_node(&s, i)->type) {
      cp_chain_free(&s);
      return paimon_error_set(err, PAIMON_ESTATE, "evaluating an expression that is not bound");
    }
  size_t k = s.n - 1;
  ctx->depth++;
  cp_vec buf[2][CP_INLINE_ARGS];
  cp_vec *cur = k ? args_for(cp_spine_node(&s, k - 1), buf[k % 2]) : NULL;
  int rc = k && !cur ? CP_ENOMEM(err, "argument vectors") : PAIMON_OK;
  if (rc == 0) rc = eval_leaf(ctx, cp_spine_node(&s, k), k ? &cur[0] : out, err);
  for (size_t i = k; rc == 0 && i-- > 0;) {
    const cp_expr *node = cp_spine_node(&s, i);
    cp_vec *next = i ? args_for(cp_spine_node(&s, i - 1), buf[i % 2]) : NULL;
    if (i && !next) {
      rc = CP_ENOMEM(err, "argument vectors");
      cp_vec_release(&cur[0]);
    } else {
      rc = eval_above(ctx, node, cur, i ? &next[0] : out, err);
    }
    if (cur != buf[(i + 1) % 2]) free(cur);
    cur = next;
  }
  if (rc != 0 && cur) {
    cp_vec_release(&cur[0]);
    if (cur != buf[0] && cur != buf[1]) free(cur);
  }
  ctx->depth--;
  cp_chain_free(&s);
  return rc;
}

/* ---- entry points ------------------------------------------------------------------------- */

static int start(cp_eval_ctx *ctx, const cp_expr *e, const cp_array_view *batch,
                 paimon_error *err) {
  if (!batch || batch->type.id != CP_ARROW_STRUCT)
    return paimon_error_set(err, PAIMON_EINVAL, "expressions evaluate over a struct batch");
  if (!e->bound)
    return paimon_error_set(err, PAIMON_ESTATE, "evaluating an expression that is not bound");
  ctx->batch = batch;
  ctx->n = batch->length;
  ctx->depth = 0;
  ctx->arena = (cp_arena)CP_ARENA_INIT;
  return PAIMON_OK;
}

int cp_expr_arrow_schema(const cp_expr *e, const char *name, struct ArrowSchema *out,
                         paimon_error *err) {
  if (!e->type) return paimon_error_set(err, PAIMON_ESTATE, "expression is not bound");
  return cp_type_to_arrow(e->type, name, out, err);
}

/* Rows of a borrowed view as an owned array of the canonical Arrow type: copied when the view
 * already has it, converted by cp_cast (nested types) or value by value (atomic types) when not. */
static int copy_view(const cp_type *t, const cp_array_view *v, int64_t n, struct ArrowArray *out,
                     paimon_error *err) {
  struct ArrowSchema schema;
  CP_RETURN_IF_ERROR(cp_type_to_arrow(t, "", &schema, err));
  bool same = cp_schema_equal(&schema, v->schema, CP_SCHEMA_CMP_TYPES);
  int rc = 0;
  if (!same && cp_type_is_nested(t)) {
    rc = cp_cast(v, &schema, out, err);
    cp_schema_release(&schema);
    return rc;
  }
  cp_builder *b = NULL;
  rc = cp_builder_create(&b, &schema, err);
  cp_schema_release(&schema);
  if (rc != 0) return rc;
  if (same) {
    rc = cp_builder_append_view(b, v, 0, n, err);
  } else {
    rc = cp_builder_reserve(b, n, 0, err);
    for (int64_t i = 0; rc == 0 && i < n; i++) {
      cp_datum d;
      rc = cp_datum_from_view(t, v, i, &d, err);
      if (rc == 0) rc = cp_datum_append(t, &d, b, err);
    }
  }
  if (rc == 0) rc = cp_builder_finish(b, out, err);
  cp_builder_free(b);
  return rc;
}

static int materialize(const cp_type *t, const cp_datum *d, int64_t n, struct ArrowArray *out,
                       paimon_error *err) {
  struct ArrowSchema schema;
  CP_RETURN_IF_ERROR(cp_type_to_arrow(t, "", &schema, err));
  cp_builder *b;
  int rc = cp_builder_create(&b, &schema, err);
  cp_schema_release(&schema);
  if (rc != 0) return rc;
  bool bytes = cp_type_is_string(t) || cp_type_is_binary(t) || t->kind == CP_TYPE_BLOB;
  rc = cp_builder_reserve(b, n, d->is_null || !bytes ? 0 : n * (int64_t)d->v.bytes.len, err);
  if (rc == 0 && d->is_null) rc = cp_builder_append_nulls(b, n, err);
  for (int64_t i = 0; rc == 0 && !d->is_null && i < n; i++) rc = cp_datum_append(t, d, b, err);
  if (rc == 0) rc = cp_builder_finish(b, out, err);
  cp_builder_free(b);
  return rc;
}

int cp_expr_eval(const cp_expr *e, const cp_array_view *batch, struct ArrowArray *out,
                 paimon_error *err) {
  out->release = NULL;
  cp_eval_ctx ctx;
  CP_RETURN_IF_ERROR(start(&ctx, e, batch, err));
  cp_vec v;
  int rc = cp_eval_node(&ctx, e, &v, err);
  if (rc == 0) {
    if (v.scalar)
      rc = materialize(e->type, &v.value, ctx.n, out, err);
    else if (v.array.release)
      cp_array_move(&v.array, out);
    else
      rc = copy_view(e->type, v.view, ctx.n, out, err);
    cp_vec_release(&v);
  }
  cp_arena_free(&ctx.arena);
  return rc;
}

int cp_expr_eval_selection(const cp_expr *e, const cp_array_view *batch, uint8_t *bitmap_out,
                           int64_t *n_true, paimon_error *err) {
  cp_eval_ctx ctx;
  CP_RETURN_IF_ERROR(start(&ctx, e, batch, err));
  if (e->type->kind != CP_TYPE_BOOLEAN)
    return paimon_error_set(err, PAIMON_EINVAL, "a filter must be BOOLEAN");
  cp_vec v;
  int rc = cp_eval_node(&ctx, e, &v, err);
  int64_t n = ctx.n, bytes = cp_bitmap_bytes(n);
  if (rc == 0 && v.scalar) {
    memset(bitmap_out, !v.value.is_null && v.value.v.b ? 0xFF : 0, (size_t)bytes);
  } else if (rc == 0) {
    const cp_array_view *bv = v.view;
    if (bv->type.id == CP_ARROW_NA)
      memset(bitmap_out, 0, (size_t)bytes);
    else
      cp_bitmap_copy(bitmap_out, 0, bv->values.u8, bv->offset, n);
    if (bv->validity && bv->type.id != CP_ARROW_NA) {
      uint8_t *tmp;
      const uint8_t *valid = cp_aligned_bits(bv->validity, bv->offset, n, &tmp);
      if (!valid) rc = CP_ENOMEM(err, "selection");
      for (int64_t k = 0; valid && k < bytes; k++) bitmap_out[k] &= valid[k];
      free(tmp);
    }
  }
  if (rc == 0 && n % 8) bitmap_out[bytes - 1] &= (uint8_t)((1u << (n % 8)) - 1);
  if (rc == 0 && n_true) *n_true = cp_bitmap_count_set(bitmap_out, 0, n);
  cp_vec_release(&v);
  cp_arena_free(&ctx.arena);
  return rc;
}
