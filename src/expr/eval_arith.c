/*
 * Vectorized arithmetic and casts for the common physical types (eval_internal.h): + - * % on
 * INT / BIGINT wrapping as Java's int and long do (Spark non-ANSI), + - * / % on FLOAT / DOUBLE,
 * division and remainder by zero giving NULL; and the widening casts binding inserts most often
 * (integer to wider integer, integer or FLOAT to DOUBLE, integer to FLOAT). Other types
 * (TINYINT / SMALLINT results, decimals, other casts) take the per-row path.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "expr/eval_internal.h"

/* An operand: a column in canonical layout, or a constant. */
typedef struct operand {
  const cp_array_view *v; /* NULL for a constant */
  cp_datum k;
} operand;

/* Integer kernels: T the C type, UT its unsigned twin (wrapping arithmetic). */
#define INT_ARITH(T, UT, OP, X, Y, OUT, N, ZERO)                                                   \
  do {                                                                                             \
    for (int64_t i = 0; i < (N); i++) {                                                            \
      T x = X, y = Y, r;                                                                           \
      switch (OP) {                                                                                \
      case CP_ARITH_ADD: r = (T)((UT)x + (UT)y); break;                                            \
      case CP_ARITH_SUB: r = (T)((UT)x - (UT)y); break;                                            \
      case CP_ARITH_MUL: r = (T)((UT)x * (UT)y); break;                                            \
      default: r = (y == 0 || y == -1) ? 0 : (T)(x % y); break;                                    \
      }                                                                                            \
      (OUT)[i] = r;                                                                                \
      if (y == 0 && (OP) == CP_ARITH_MOD) ZERO;                                                    \
    }                                                                                              \
  } while (0)

static bool const_is_zero(const cp_type *t, const cp_datum *k) {
  switch (t->kind) {
  case CP_TYPE_FLOAT: return k->v.f32 == 0;
  case CP_TYPE_DOUBLE: return k->v.f64 == 0;
  default: return k->v.i64 == 0;
  }
}

static void int32_kernel(int op, const operand *a, const operand *b, int64_t n, cp_out *o) {
  int32_t *out = (int32_t *)o->values;
  const int32_t *pa = a->v ? a->v->values.i32 + a->v->offset : NULL;
  const int32_t *pb = b->v ? b->v->values.i32 + b->v->offset : NULL;
  int32_t ka = (int32_t)a->k.v.i64, kb = (int32_t)b->k.v.i64;
  if (op != CP_ARITH_MOD && pa && !pb) {
    switch (op) {
    case CP_ARITH_ADD:
      for (int64_t i = 0; i < n; i++) out[i] = (int32_t)((uint32_t)pa[i] + (uint32_t)kb);
      return;
    case CP_ARITH_SUB:
      for (int64_t i = 0; i < n; i++) out[i] = (int32_t)((uint32_t)pa[i] - (uint32_t)kb);
      return;
    default:
      for (int64_t i = 0; i < n; i++) out[i] = (int32_t)((uint32_t)pa[i] * (uint32_t)kb);
      return;
    }
  }
  INT_ARITH(int32_t, uint32_t, op, pa ? pa[i] : ka, pb ? pb[i] : kb, out, n,
            cp_bit_clear(o->validity, i));
}

static void int64_kernel(int op, const operand *a, const operand *b, int64_t n, cp_out *o) {
  int64_t *out = (int64_t *)o->values;
  const int64_t *pa = a->v ? a->v->values.i64 + a->v->offset : NULL;
  const int64_t *pb = b->v ? b->v->values.i64 + b->v->offset : NULL;
  int64_t ka = a->k.v.i64, kb = b->k.v.i64;
  if (op != CP_ARITH_MOD && pa && !pb) {
    switch (op) {
    case CP_ARITH_ADD:
      for (int64_t i = 0; i < n; i++) out[i] = (int64_t)((uint64_t)pa[i] + (uint64_t)kb);
      return;
    case CP_ARITH_SUB:
      for (int64_t i = 0; i < n; i++) out[i] = (int64_t)((uint64_t)pa[i] - (uint64_t)kb);
      return;
    default:
      for (int64_t i = 0; i < n; i++) out[i] = (int64_t)((uint64_t)pa[i] * (uint64_t)kb);
      return;
    }
  }
  INT_ARITH(int64_t, uint64_t, op, pa ? pa[i] : ka, pb ? pb[i] : kb, out, n,
            cp_bit_clear(o->validity, i));
}

#define FLOAT_ARITH(T, MODF, OP, X, Y, OUT, N, ZERO)                                               \
  do {                                                                                             \
    switch (OP) {                                                                                  \
    case CP_ARITH_ADD:                                                                             \
      for (int64_t i = 0; i < (N); i++) (OUT)[i] = (X) + (Y);                                      \
      break;                                                                                       \
    case CP_ARITH_SUB:                                                                             \
      for (int64_t i = 0; i < (N); i++) (OUT)[i] = (X) - (Y);                                      \
      break;                                                                                       \
    case CP_ARITH_MUL:                                                                             \
      for (int64_t i = 0; i < (N); i++) (OUT)[i] = (X) * (Y);                                      \
      break;                                                                                       \
    default:                                                                                       \
      for (int64_t i = 0; i < (N); i++) {                                                          \
        T x = X, y = Y;                                                                            \
        if (y == 0) {                                                                              \
          (OUT)[i] = 0;                                                                            \
          ZERO;                                                                                    \
        } else {                                                                                   \
          (OUT)[i] = (OP) == CP_ARITH_DIV ? x / y : MODF(x, y);                                    \
        }                                                                                          \
      }                                                                                            \
    }                                                                                              \
  } while (0)

static void double_kernel(int op, const operand *a, const operand *b, int64_t n, cp_out *o) {
  double *out = (double *)o->values;
  const double *pa = a->v ? a->v->values.f64 + a->v->offset : NULL;
  const double *pb = b->v ? b->v->values.f64 + b->v->offset : NULL;
  double ka = a->k.v.f64, kb = b->k.v.f64;
  if (op == CP_ARITH_DIV && pa && !pb) { /* kb != 0: the caller handled division by zero */
    for (int64_t i = 0; i < n; i++) out[i] = pa[i] / kb;
    return;
  }
  FLOAT_ARITH(double, fmod, op, pa ? pa[i] : ka, pb ? pb[i] : kb, out, n,
              cp_bit_clear(o->validity, i));
}

static void float_kernel(int op, const operand *a, const operand *b, int64_t n, cp_out *o) {
  float *out = (float *)o->values;
  const float *pa = a->v ? a->v->values.f32 + a->v->offset : NULL;
  const float *pb = b->v ? b->v->values.f32 + b->v->offset : NULL;
  float ka = a->k.v.f32, kb = b->k.v.f32;
  FLOAT_ARITH(float, fmodf, op, pa ? pa[i] : ka, pb ? pb[i] : kb, out, n,
              cp_bit_clear(o->validity, i));
}

/* Intersects o->validity with the validity of a column operand. */
static void and_validity(cp_out *o, const cp_array_view *v) {
  if (!v->validity) return;
  for (int64_t i = 0; i < o->n; i++)
    if (!cp_bit_get(v->validity, v->offset + i)) cp_bit_clear(o->validity, i);
}

int cp_kernel_arith(cp_eval_ctx *ctx, const cp_expr *e, cp_vec *args, cp_vec *out,
                    paimon_error *err) {
  const cp_type *t = e->type;
  cp_type_kind k = t->kind;
  if (k != CP_TYPE_INT && k != CP_TYPE_BIGINT && k != CP_TYPE_FLOAT && k != CP_TYPE_DOUBLE)
    return CP_KERNEL_DECLINED;
  if (args[0].scalar && args[1].scalar) return CP_KERNEL_DECLINED;
  operand ops[2];
  for (int i = 0; i < 2; i++) {
    ops[i].v = args[i].scalar ? NULL : args[i].view;
    ops[i].k = args[i].value;
    if (ops[i].v && !cp_view_is_canonical(ops[i].v, e->args[i]->type)) return CP_KERNEL_DECLINED;
    if (!cp_type_same_repr(e->args[i]->type, t)) return CP_KERNEL_DECLINED;
    if (!ops[i].v && ops[i].k.is_null) {
      cp_vec_set_scalar(out, &ops[i].k); /* NULL op x */
      return PAIMON_OK;
    }
  }
  bool divides = e->op == CP_ARITH_DIV || e->op == CP_ARITH_MOD;
  if (divides && !ops[1].v && const_is_zero(t, &ops[1].k)) {
    cp_datum null = cp_datum_null();
    cp_vec_set_scalar(out, &null);
    return PAIMON_OK;
  }
  int width = k == CP_TYPE_INT || k == CP_TYPE_FLOAT ? 4 : 8;
  cp_out o;
  CP_RETURN_IF_ERROR(cp_out_init(&o, ctx->n, width, err));
  const cp_array_view *first = ops[0].v ? ops[0].v : ops[1].v;
  cp_copy_validity(o.validity, first, o.n);
  if (ops[0].v && ops[1].v) and_validity(&o, ops[1].v);
  switch (k) {
  case CP_TYPE_INT: int32_kernel(e->op, &ops[0], &ops[1], o.n, &o); break;
  case CP_TYPE_BIGINT: int64_kernel(e->op, &ops[0], &ops[1], o.n, &o); break;
  case CP_TYPE_FLOAT: float_kernel(e->op, &ops[0], &ops[1], o.n, &o); break;
  default: double_kernel(e->op, &ops[0], &ops[1], o.n, &o); break;
  }
  return cp_out_finish(&o, t, out, err);
}

/* ---- casts -------------------------------------------------------------------------------- */

#define CONVERT(TO, FROM_P, N, OUT)                                                                \
  for (int64_t i = 0; i < (N); i++) ((TO *)(OUT))[i] = (TO)(FROM_P)[i]

int cp_kernel_cast(cp_eval_ctx *ctx, const cp_expr *e, cp_vec *args, cp_vec *out,
                   paimon_error *err) {
  (void)ctx;
  if (args[0].scalar) return CP_KERNEL_DECLINED;
  const cp_type *from = e->args[0]->type, *to = e->type;
  const cp_array_view *v = args[0].view;
  bool int_from = cp_type_is_integer(from) && cp_view_is_canonical(v, from);
  bool float_from = from->kind == CP_TYPE_FLOAT && v->type.id == CP_ARROW_FLOAT;
  int width;
  switch (to->kind) {
  case CP_TYPE_INT: width = 4; break;
  case CP_TYPE_BIGINT: width = 8; break;
  case CP_TYPE_FLOAT: width = 4; break;
  case CP_TYPE_DOUBLE: width = 8; break;
  default: return CP_KERNEL_DECLINED;
  }
  if (!int_from && !(float_from && to->kind == CP_TYPE_DOUBLE)) return CP_KERNEL_DECLINED;
  if (int_from && cp_type_is_integer(to) && !cp_cast_is_monotonic(from, to))
    return CP_KERNEL_DECLINED; /* narrowing wraps: per row */
  cp_out o;
  CP_RETURN_IF_ERROR(cp_out_init(&o, v->length, width, err));
  int64_t n = o.n, off = v->offset;
  void *dst = o.values;
#define FROM_ANY(TO)                                                                               \
  switch (v->type.id) {                                                                            \
  case CP_ARROW_INT8: CONVERT(TO, v->values.i8 + off, n, dst); break;                              \
  case CP_ARROW_INT16: CONVERT(TO, v->values.i16 + off, n, dst); break;                            \
  case CP_ARROW_INT32: CONVERT(TO, v->values.i32 + off, n, dst); break;                            \
  case CP_ARROW_INT64: CONVERT(TO, v->values.i64 + off, n, dst); break;                            \
  default: CONVERT(TO, v->values.f32 + off, n, dst); break;                                        \
  }
  switch (to->kind) {
  case CP_TYPE_INT: FROM_ANY(int32_t); break;
  case CP_TYPE_BIGINT: FROM_ANY(int64_t); break;
  case CP_TYPE_FLOAT: FROM_ANY(float); break;
  default: FROM_ANY(double); break;
  }
#undef FROM_ANY
  cp_copy_validity(o.validity, v, n);
  return cp_out_finish(&o, to, out, err);
}
