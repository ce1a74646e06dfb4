/*
 * Vectorized kernels for predicates (eval_internal.h): comparisons of a column with a constant or
 * with another column of the same layout, IN lists of constants, LIKE with a compiled pattern,
 * IS [NOT] NULL. Results are written eight rows to a byte so the inner loops vectorize; the
 * validity of a comparison is the validity of its inputs (NULL in, NULL out), except for <=>.
 *
 * Floating point follows Spark: NaN equals NaN and is above every number, so `x > k` and
 * `x >= k` also hold for NaN rows; a NaN constant, and column-vs-column float comparisons, go
 * through the per-row path.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "expr/eval_internal.h"
#include "expr/like.h"

/* Sets OUT's bits [0, N) to EXPR evaluated for each row i, after DECL (which may declare what
 * EXPR uses, e.g. `T x = P[i]`). Eight rows make one output byte; the eight are spelled out so
 * that the shifts are constants and the compiler can keep the block in registers. */
#define BIT_AT(J, DECL, EXPR)                                                                      \
  {                                                                                                \
    int64_t i = i_ + (J);                                                                          \
    DECL;                                                                                          \
    b_ |= (uint8_t)((unsigned)(EXPR) << (J));                                                      \
  }
/* clang-format off: the formatter does not reach a fixed point on this macro */
#define BITS_LOOP(N, OUT, DECL, EXPR)                                                              \
  do {                                                                                             \
    int64_t i_ = 0;                                                                                \
    for (; i_ + 8 <= (N); i_ += 8) {                                                               \
      unsigned b_ = 0;                                                                             \
      BIT_AT(0, DECL, EXPR)                                                                        \
      BIT_AT(1, DECL, EXPR)                                                                        \
      BIT_AT(2, DECL, EXPR)                                                                        \
      BIT_AT(3, DECL, EXPR)                                                                        \
      BIT_AT(4, DECL, EXPR) BIT_AT(5, DECL, EXPR) BIT_AT(6, DECL, EXPR)                            \
          BIT_AT(7, DECL, EXPR)(OUT)[i_ >> 3] = (uint8_t)b_;                                       \
    }                                                                                              \
    if (i_ < (N)) {                                                                                \
      unsigned b_ = 0;                                                                             \
      for (int j_ = 0; i_ + j_ < (N); j_++) BIT_AT(j_, DECL, EXPR)                                 \
      (OUT)[i_ >> 3] = (uint8_t)b_;                                                                \
    }                                                                                              \
  } while (0)
/* clang-format on */

/* Column (values P of type T) against constant K with operator OP. */
#define CMP_CONST(T, P, N, OUT, K, OP)                                                             \
  switch (OP) {                                                                                    \
  case CP_CMP_EQ: BITS_LOOP(N, OUT, T x = (P)[i], x == (K)); break;                                \
  case CP_CMP_NE: BITS_LOOP(N, OUT, T x = (P)[i], x != (K)); break;                                \
  case CP_CMP_LT: BITS_LOOP(N, OUT, T x = (P)[i], x < (K)); break;                                 \
  case CP_CMP_LE: BITS_LOOP(N, OUT, T x = (P)[i], x <= (K)); break;                                \
  case CP_CMP_GT: BITS_LOOP(N, OUT, T x = (P)[i], x > (K)); break;                                 \
  default: BITS_LOOP(N, OUT, T x = (P)[i], x >= (K)); break;                                       \
  }

/* The same for floating point, NaN being the greatest value. */
#define CMP_CONST_FLOAT(T, P, N, OUT, K, OP)                                                       \
  switch (OP) {                                                                                    \
  case CP_CMP_EQ: BITS_LOOP(N, OUT, T x = (P)[i], x == (K)); break;                                \
  case CP_CMP_NE: BITS_LOOP(N, OUT, T x = (P)[i], !(x == (K))); break;                             \
  case CP_CMP_LT: BITS_LOOP(N, OUT, T x = (P)[i], x < (K)); break;                                 \
  case CP_CMP_LE: BITS_LOOP(N, OUT, T x = (P)[i], x <= (K)); break;                                \
  case CP_CMP_GT: BITS_LOOP(N, OUT, T x = (P)[i], x > (K) || x != x); break;                       \
  default: BITS_LOOP(N, OUT, T x = (P)[i], x >= (K) || x != x); break;                             \
  }

/* Two columns P and Q of type T. */
#define CMP_COLS(T, P, Q, N, OUT, OP)                                                              \
  switch (OP) {                                                                                    \
  case CP_CMP_EQ: BITS_LOOP(N, OUT, T x = (P)[i]; T y = (Q)[i], x == y); break;                    \
  case CP_CMP_NE: BITS_LOOP(N, OUT, T x = (P)[i]; T y = (Q)[i], x != y); break;                    \
  case CP_CMP_LT: BITS_LOOP(N, OUT, T x = (P)[i]; T y = (Q)[i], x < y); break;                     \
  case CP_CMP_LE: BITS_LOOP(N, OUT, T x = (P)[i]; T y = (Q)[i], x <= y); break;                    \
  case CP_CMP_GT: BITS_LOOP(N, OUT, T x = (P)[i]; T y = (Q)[i], x > y); break;                     \
  default: BITS_LOOP(N, OUT, T x = (P)[i]; T y = (Q)[i], x >= y); break;                           \
  }

static int flip(int op) {
  switch (op) {
  case CP_CMP_LT: return CP_CMP_GT;
  case CP_CMP_LE: return CP_CMP_GE;
  case CP_CMP_GT: return CP_CMP_LT;
  case CP_CMP_GE: return CP_CMP_LE;
  default: return op;
  }
}

static bool test_cmp(int c, int op) {
  switch (op) {
  case CP_CMP_EQ:
  case CP_CMP_EQ_NULL_SAFE: return c == 0;
  case CP_CMP_NE: return c != 0;
  case CP_CMP_LT: return c < 0;
  case CP_CMP_LE: return c <= 0;
  case CP_CMP_GT: return c > 0;
  default: return c >= 0;
  }
}

static bool is_signed_or_date(cp_arrow_type id) {
  return cp_arrow_type_is_signed_int(id) || id == CP_ARROW_DATE32 || id == CP_ARROW_TIME32 ||
         id == CP_ARROW_TIMESTAMP;
}

/* The integer a column stores for constant `k` of a kind held as an integer (integers, DATE,
 * TIME in milliseconds, TIMESTAMP in the column's unit); false when the column's layout is not
 * plain or the constant has no exact counterpart. */
static bool int_constant(const cp_type *t, const cp_array_view *v, const cp_datum *k,
                         int64_t *out) {
  cp_arrow_type id = v->type.id;
  switch (t->kind) {
  case CP_TYPE_TINYINT:
  case CP_TYPE_SMALLINT:
  case CP_TYPE_INT:
  case CP_TYPE_BIGINT: *out = k->v.i64; return cp_arrow_type_is_signed_int(id);
  case CP_TYPE_DATE: *out = k->v.i64; return id == CP_ARROW_DATE32;
  case CP_TYPE_TIME: *out = k->v.i64; return id == CP_ARROW_TIME32 && v->type.unit == CP_UNIT_MILLI;
  case CP_TYPE_TIMESTAMP:
  case CP_TYPE_TIMESTAMP_LTZ: {
    if (id != CP_ARROW_TIMESTAMP) return false;
    int64_t raw, m;
    int32_t nanos;
    if (cp_timestamp_join(k->v.ts.millis, k->v.ts.nanos_of_milli, v->type.unit, &raw, NULL) != 0)
      return false;
    cp_timestamp_split(raw, v->type.unit, &m, &nanos);
    *out = raw;
    return m == k->v.ts.millis && nanos == k->v.ts.nanos_of_milli;
  }
  default: return false;
  }
}

static void cmp_int_const(const cp_array_view *v, int64_t n, int op, int64_t k, uint8_t *out) {
  int64_t o = v->offset;
  switch (v->type.id) {
  case CP_ARROW_INT8: CMP_CONST(int64_t, v->values.i8 + o, n, out, k, op); break;
  case CP_ARROW_INT16: CMP_CONST(int64_t, v->values.i16 + o, n, out, k, op); break;
  case CP_ARROW_INT32:
  case CP_ARROW_DATE32:
  case CP_ARROW_TIME32:
    if (k >= INT32_MIN && k <= INT32_MAX) {
      int32_t k32 = (int32_t)k;
      CMP_CONST(int32_t, v->values.i32 + o, n, out, k32, op);
    } else {
      CMP_CONST(int64_t, v->values.i32 + o, n, out, k, op);
    }
    break;
  default: CMP_CONST(int64_t, v->values.i64 + o, n, out, k, op); break;
  }
}

static int bytes_cmp(const uint8_t *a, int64_t la, const uint8_t *b, int64_t lb) {
  int64_t m = la < lb ? la : lb;
  int c = m ? memcmp(a, b, (size_t)m) : 0;
  if (c) return c;
  return (la > lb) - (la < lb);
}

static void cmp_bytes_const(const cp_array_view *v, int64_t n, int op, const cp_datum *k,
                            uint8_t *out) {
  const uint8_t *kd = k->v.bytes.data;
  int64_t kl = (int64_t)k->v.bytes.len;
  if (op == CP_CMP_EQ || op == CP_CMP_NE) {
    bool want = op == CP_CMP_EQ;
    BITS_LOOP(n, out, int64_t len;
              const uint8_t *p = cp_view_get_bytes(v, i, &len),
              (len == kl && (kl == 0 || memcmp(p, kd, (size_t)kl) == 0)) == want);
    return;
  }
  BITS_LOOP(n, out, int64_t len; const uint8_t *p = cp_view_get_bytes(v, i, &len),
                                 test_cmp(bytes_cmp(p, len, kd, kl), op));
}

static cp_int128 dec_at(const cp_array_view *v, int64_t i) {
  cp_dec128 d = cp_view_get_decimal128(v, i);
  return (cp_int128)(((unsigned __int128)(uint64_t)d.hi << 64) | d.lo);
}

/* Fills `out` with `col op k` for the layouts handled here; false otherwise. */
static bool compare_const_bits(const cp_type *t, const cp_array_view *v, int op, const cp_datum *k,
                               uint8_t *out) {
  int64_t n = v->length, o = v->offset, ki;
  if (int_constant(t, v, k, &ki)) {
    cmp_int_const(v, n, op, ki, out);
    return true;
  }
  cp_arrow_type id = v->type.id;
  if (t->kind == CP_TYPE_DOUBLE && id == CP_ARROW_DOUBLE && !isnan(k->v.f64)) {
    double kd = k->v.f64;
    CMP_CONST_FLOAT(double, v->values.f64 + o, n, out, kd, op);
    return true;
  }
  if (t->kind == CP_TYPE_FLOAT && id == CP_ARROW_FLOAT && !isnan(k->v.f32)) {
    float kf = k->v.f32;
    CMP_CONST_FLOAT(float, v->values.f32 + o, n, out, kf, op);
    return true;
  }
  if ((cp_type_is_string(t) || cp_type_is_binary(t) || t->kind == CP_TYPE_BLOB) &&
      cp_arrow_type_is_var_binary(id)) {
    cmp_bytes_const(v, n, op, k, out);
    return true;
  }
  if (t->kind == CP_TYPE_DECIMAL && id == CP_ARROW_DECIMAL128) {
    cp_int128 kd = k->v.dec;
    BITS_LOOP(n, out, cp_int128 x = dec_at(v, i), test_cmp((x > kd) - (x < kd), op));
    return true;
  }
  return false;
}

/* The result of a comparison whose values are in o->values: validity from the inputs, or, for
 * <=> (computed as =), no nulls and NULL rows false. */
static void apply_validity(cp_out *o, const cp_array_view *a, const cp_array_view *b,
                           bool null_safe, bool both_null_equal) {
  int64_t n = o->n, bytes = cp_bitmap_bytes(n);
  cp_copy_validity(o->validity, a, n);
  if (b) {
    uint8_t *tmp = malloc((size_t)bytes + 1);
    if (tmp) {
      cp_copy_validity(tmp, b, n);
      for (int64_t k = 0; k < bytes; k++) {
        uint8_t va = o->validity[k], vb = tmp[k];
        if (null_safe)
          o->values[k] = (uint8_t)((o->values[k] & va & vb) | (both_null_equal ? ~(va | vb) : 0));
        else
          o->validity[k] = va & vb;
      }
      free(tmp);
    } else if (!null_safe) {
      /* Out of memory for the temporary: fall back to bit by bit. */
      for (int64_t i = 0; i < n; i++)
        if (cp_view_is_null(b, i)) cp_bit_clear(o->validity, i);
    }
  } else if (null_safe) {
    for (int64_t k = 0; k < bytes; k++) o->values[k] &= o->validity[k];
  }
  if (null_safe) memset(o->validity, 0xFF, (size_t)bytes);
}

static int compare_const(const cp_expr *e, const cp_vec *col, const cp_type *t, int op,
                         const cp_datum *k, cp_vec *out, paimon_error *err) {
  bool null_safe = op == CP_CMP_EQ_NULL_SAFE;
  if (k->is_null) {
    if (!null_safe) {
      cp_vec_set_scalar(out, k);
      return PAIMON_OK;
    }
    cp_out o;
    CP_RETURN_IF_ERROR(cp_out_init(&o, col->view->length, 0, err));
    cp_copy_validity(o.values, col->view, o.n);
    for (int64_t b = 0; b < cp_bitmap_bytes(o.n); b++) o.values[b] = (uint8_t)~o.values[b];
    return cp_out_finish(&o, e->type, out, err);
  }
  cp_out o;
  CP_RETURN_IF_ERROR(cp_out_init(&o, col->view->length, 0, err));
  if (!compare_const_bits(t, col->view, null_safe ? CP_CMP_EQ : op, k, o.values)) {
    cp_out_discard(&o);
    return CP_KERNEL_DECLINED;
  }
  apply_validity(&o, col->view, NULL, null_safe, false);
  return cp_out_finish(&o, e->type, out, err);
}

/* Column against column with identical plain layouts (integers, strings, decimals). */
static bool compare_cols_bits(const cp_type *t, const cp_array_view *a, const cp_array_view *b,
                              int op, uint8_t *out) {
  int64_t n = a->length, oa = a->offset, ob = b->offset;
  cp_arrow_type id = a->type.id;
  bool text = cp_type_is_string(t) || cp_type_is_binary(t) || t->kind == CP_TYPE_BLOB;
  if (text && cp_arrow_type_is_var_binary(id) && cp_arrow_type_is_var_binary(b->type.id)) {
    BITS_LOOP(n, out, int64_t la; int64_t lb; const uint8_t *p = cp_view_get_bytes(a, i, &la);
              const uint8_t *q = cp_view_get_bytes(b, i, &lb),
              test_cmp(bytes_cmp(p, la, q, lb), op));
    return true;
  }
  if (id != b->type.id) return false;
  if (t->kind == CP_TYPE_DECIMAL && id == CP_ARROW_DECIMAL128 && a->type.scale == b->type.scale) {
    BITS_LOOP(n, out, cp_int128 x = dec_at(a, i);
              cp_int128 y = dec_at(b, i), test_cmp((x > y) - (x < y), op));
    return true;
  }
  bool ints = cp_type_is_integer(t) || t->kind == CP_TYPE_DATE;
  if (t->kind == CP_TYPE_TIMESTAMP || t->kind == CP_TYPE_TIMESTAMP_LTZ)
    ints = id == CP_ARROW_TIMESTAMP && a->type.unit == b->type.unit;
  if (!ints || !is_signed_or_date(id)) return false;
  switch (id) {
  case CP_ARROW_INT8: CMP_COLS(int8_t, a->values.i8 + oa, b->values.i8 + ob, n, out, op); break;
  case CP_ARROW_INT16: CMP_COLS(int16_t, a->values.i16 + oa, b->values.i16 + ob, n, out, op); break;
  case CP_ARROW_INT32:
  case CP_ARROW_DATE32:
    CMP_COLS(int32_t, a->values.i32 + oa, b->values.i32 + ob, n, out, op);
    break;
  case CP_ARROW_INT64:
  case CP_ARROW_TIMESTAMP:
    CMP_COLS(int64_t, a->values.i64 + oa, b->values.i64 + ob, n, out, op);
    break;
  default: return false;
  }
  return true;
}

int cp_kernel_compare(cp_eval_ctx *ctx, const cp_expr *e, cp_vec *args, cp_vec *out,
                      paimon_error *err) {
  (void)ctx;
  cp_vec *a = &args[0], *b = &args[1];
  if (a->scalar && b->scalar) return CP_KERNEL_DECLINED;
  if (a->scalar || b->scalar) {
    const cp_vec *col = a->scalar ? b : a, *k = a->scalar ? a : b;
    const cp_type *t = e->args[a->scalar ? 1 : 0]->type;
    return compare_const(e, col, t, a->scalar ? flip(e->op) : e->op, &k->value, out, err);
  }
  bool null_safe = e->op == CP_CMP_EQ_NULL_SAFE;
  cp_out o;
  CP_RETURN_IF_ERROR(cp_out_init(&o, a->view->length, 0, err));
  if (!compare_cols_bits(e->args[0]->type, a->view, b->view, null_safe ? CP_CMP_EQ : e->op,
                         o.values)) {
    cp_out_discard(&o);
    return CP_KERNEL_DECLINED;
  }
  apply_validity(&o, a->view, b->view, null_safe, true);
  return cp_out_finish(&o, e->type, out, err);
}

/* ---- IN ----------------------------------------------------------------------------------- */

static int cmp_i64(const void *x, const void *y) {
  int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
  return (a > b) - (a < b);
}

static int cmp_datum_bytes(const void *x, const void *y) {
  const cp_datum *a = x, *b = y;
  return bytes_cmp(a->v.bytes.data, (int64_t)a->v.bytes.len, b->v.bytes.data,
                   (int64_t)b->v.bytes.len);
}

static bool find_i64(const int64_t *set, size_t n, int64_t x) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (set[mid] < x)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo < n && set[lo] == x;
}

static bool find_bytes(const cp_datum *set, size_t n, const uint8_t *p, int64_t len) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    int c = bytes_cmp(set[mid].v.bytes.data, (int64_t)set[mid].v.bytes.len, p, len);
    if (c == 0) return true;
    if (c < 0)
      lo = mid + 1;
    else
      hi = mid;
  }
  return false;
}

/* Fills o->values with "row matches an element" for integer-like or byte layouts. */
static bool in_bits(const cp_type *t, const cp_array_view *v, const cp_vec *elems, size_t n_elems,
                    cp_out *o, bool *ok_alloc) {
  int64_t n = v->length;
  *ok_alloc = true;
  bool text = cp_type_is_string(t) || cp_type_is_binary(t) || t->kind == CP_TYPE_BLOB;
  if (text && cp_arrow_type_is_var_binary(v->type.id)) {
    cp_datum *set = malloc((n_elems ? n_elems : 1) * sizeof *set);
    if (!set) return !(*ok_alloc = false);
    size_t m = 0;
    for (size_t k = 0; k < n_elems; k++)
      if (!elems[k].value.is_null) set[m++] = elems[k].value;
    qsort(set, m, sizeof *set, cmp_datum_bytes);
    BITS_LOOP(n, o->values, int64_t len;
              const uint8_t *p = cp_view_get_bytes(v, i, &len), find_bytes(set, m, p, len));
    free(set);
    return true;
  }
  int64_t *set = malloc((n_elems ? n_elems : 1) * sizeof *set);
  if (!set) return !(*ok_alloc = false);
  size_t m = 0;
  for (size_t k = 0; k < n_elems; k++) {
    if (elems[k].value.is_null) continue;
    int64_t x;
    if (!int_constant(t, v, &elems[k].value, &x)) {
      /* A timestamp finer than the column's unit matches nothing; any other miss declines. */
      if ((t->kind != CP_TYPE_TIMESTAMP && t->kind != CP_TYPE_TIMESTAMP_LTZ) ||
          v->type.id != CP_ARROW_TIMESTAMP) {
        free(set);
        return false;
      }
      continue;
    }
    set[m++] = x;
  }
  qsort(set, m, sizeof *set, cmp_i64);
  BITS_LOOP(n, o->values, int64_t x = cp_view_get_int64(v, i), find_i64(set, m, x));
  free(set);
  return true;
}

int cp_kernel_in(cp_eval_ctx *ctx, const cp_expr *e, cp_vec *args, cp_vec *out, paimon_error *err) {
  (void)ctx;
  if (args[0].scalar) return CP_KERNEL_DECLINED;
  bool has_null = false;
  for (size_t k = 1; k < e->n_args; k++) {
    if (!args[k].scalar) return CP_KERNEL_DECLINED;
    has_null = has_null || args[k].value.is_null;
  }
  const cp_array_view *v = args[0].view;
  if (!cp_arrow_type_is_var_binary(v->type.id) && !is_signed_or_date(v->type.id))
    return CP_KERNEL_DECLINED;
  cp_out o;
  CP_RETURN_IF_ERROR(cp_out_init(&o, v->length, 0, err));
  bool ok_alloc;
  if (!in_bits(e->args[0]->type, v, args + 1, e->n_args - 1, &o, &ok_alloc)) {
    cp_out_discard(&o);
    return ok_alloc ? CP_KERNEL_DECLINED : CP_ENOMEM(err, "IN list");
  }
  cp_copy_validity(o.validity, v, o.n);
  /* Not found and a NULL among the elements: NULL. */
  if (has_null)
    for (int64_t b = 0; b < cp_bitmap_bytes(o.n); b++) o.validity[b] &= o.values[b];
  return cp_out_finish(&o, e->type, out, err);
}

/* ---- LIKE and IS NULL --------------------------------------------------------------------- */

int cp_kernel_like(cp_eval_ctx *ctx, const cp_expr *e, cp_vec *args, cp_vec *out,
                   paimon_error *err) {
  (void)ctx;
  if (args[1].scalar && args[1].value.is_null) {
    cp_vec_set_scalar(out, &args[1].value);
    return PAIMON_OK;
  }
  if (args[0].scalar || !e->like || !cp_arrow_type_is_var_binary(args[0].view->type.id))
    return CP_KERNEL_DECLINED;
  const cp_array_view *v = args[0].view;
  const cp_like_pattern *p = e->like;
  const uint8_t *text = p->text;
  int64_t tl = (int64_t)p->text_len;
  cp_out o;
  CP_RETURN_IF_ERROR(cp_out_init(&o, v->length, 0, err));
  /* The common shapes inline; the rest through the matcher. */
  switch (p->match) {
  case CP_MATCH_PREFIX:
    BITS_LOOP(o.n, o.values, int64_t len; const uint8_t *s = cp_view_get_bytes(v, i, &len),
                                          len >= tl && memcmp(s, text, (size_t)tl) == 0);
    break;
  case CP_MATCH_SUFFIX:
    BITS_LOOP(o.n, o.values, int64_t len; const uint8_t *s = cp_view_get_bytes(v, i, &len),
                                          len >= tl && memcmp(s + len - tl, text, (size_t)tl) == 0);
    break;
  case CP_MATCH_EXACT:
    BITS_LOOP(o.n, o.values, int64_t len; const uint8_t *s = cp_view_get_bytes(v, i, &len),
                                          len == tl && memcmp(s, text, (size_t)tl) == 0);
    break;
  default:
    BITS_LOOP(o.n, o.values, int64_t len;
              const uint8_t *s = cp_view_get_bytes(v, i, &len), cp_like_match(p, s, (size_t)len));
  }
  cp_copy_validity(o.validity, v, o.n);
  return cp_out_finish(&o, e->type, out, err);
}

int cp_kernel_is_null(cp_eval_ctx *ctx, const cp_expr *e, cp_vec *args, cp_vec *out,
                      paimon_error *err) {
  (void)ctx;
  if (args[0].scalar) return CP_KERNEL_DECLINED;
  cp_out o;
  CP_RETURN_IF_ERROR(cp_out_init(&o, args[0].view->length, 0, err));
  cp_copy_validity(o.values, args[0].view, o.n);
  if (!e->negated)
    for (int64_t b = 0; b < cp_bitmap_bytes(o.n); b++) o.values[b] = (uint8_t)~o.values[b];
  return cp_out_finish(&o, e->type, out, err);
}
