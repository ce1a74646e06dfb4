/*
 * Value comparison, equality and hashing of rows (ops.h); sorting is in sort.c.
 *
 * Orders follow Spark SQL (the engine Paimon users compare against): doubles and floats by
 * SQLOrderingUtil.compareDoubles/compareFloats — -0.0 equals 0.0, NaN equals NaN and is larger than
 * every other value, including +Infinity; strings and binaries as unsigned bytes; arrays
 * lexicographically with the shorter prefix first; structs field by field.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/ops.h"
#include "base/status.h"

/* Value classes: values of different physical types in one class compare and hash alike. */
typedef enum value_class {
  CLS_NULL,
  CLS_INT, /* bool, integers, date32, time32/64, timestamp: their stored number */
  CLS_FLOAT,
  CLS_DECIMAL,
  CLS_BYTES, /* string, binary, large variants, fixed_size_binary */
  CLS_LIST,  /* list, large_list, fixed_size_list */
  CLS_STRUCT,
  CLS_MAP
} value_class;

static value_class class_of(cp_arrow_type id) {
  switch (id) {
  case CP_ARROW_NA: return CLS_NULL;
  case CP_ARROW_HALF_FLOAT:
  case CP_ARROW_FLOAT:
  case CP_ARROW_DOUBLE: return CLS_FLOAT;
  case CP_ARROW_DECIMAL128: return CLS_DECIMAL;
  case CP_ARROW_STRING:
  case CP_ARROW_LARGE_STRING:
  case CP_ARROW_BINARY:
  case CP_ARROW_LARGE_BINARY:
  case CP_ARROW_FIXED_SIZE_BINARY: return CLS_BYTES;
  case CP_ARROW_LIST:
  case CP_ARROW_LARGE_LIST:
  case CP_ARROW_FIXED_SIZE_LIST: return CLS_LIST;
  case CP_ARROW_STRUCT: return CLS_STRUCT;
  case CP_ARROW_MAP: return CLS_MAP;
  default: return CLS_INT;
  }
}

/* Integers of any width and signedness as one 128-bit number. */
static __int128 get_int128(const cp_array_view *v, int64_t i) {
  if (v->type.id == CP_ARROW_UINT64) return (__int128)v->values.u64[v->offset + i];
  return (__int128)cp_view_get_int64(v, i);
}

static __int128 get_dec(const cp_array_view *v, int64_t i) {
  cp_dec128 d = cp_view_get_decimal128(v, i);
  return (__int128)(((unsigned __int128)(uint64_t)d.hi << 64) | d.lo);
}

static int cmp_double(double x, double y) {
  if (x < y) return -1;
  if (x > y) return 1;
  if (x == y) return 0; /* includes -0.0 == 0.0 */
  bool nx = isnan(x), ny = isnan(y);
  return nx == ny ? 0 : nx ? 1 : -1;
}

/* Compares two decimals of different scales exactly: scales `x` up by 10^(sy - sx) unless that
 * overflows, in which case |x| exceeds every int128 and its sign decides. */
static int cmp_decimal(__int128 x, int32_t sx, __int128 y, int32_t sy) {
  if (sx > sy) return -cmp_decimal(y, sy, x, sx);
  for (int32_t k = sx; k < sy; k++) {
    __int128 t;
    if (__builtin_mul_overflow(x, (__int128)10, &t)) return x < 0 ? -1 : 1;
    x = t;
  }
  return x < y ? -1 : x > y;
}

static int cmp_bytes(const cp_array_view *a, int64_t i, const cp_array_view *b, int64_t j) {
  int64_t la, lb;
  const uint8_t *pa = cp_view_get_bytes(a, i, &la), *pb = cp_view_get_bytes(b, j, &lb);
  int64_t n = la < lb ? la : lb;
  int c = n ? memcmp(pa, pb, (size_t)n) : 0;
  if (c) return c < 0 ? -1 : 1;
  return la < lb ? -1 : la > lb;
}

static int cmp_lists(const cp_array_view *a, int64_t i, const cp_array_view *b, int64_t j) {
  int64_t sa, ea, sb, eb;
  cp_view_list_range(a, i, &sa, &ea);
  cp_view_list_range(b, j, &sb, &eb);
  for (; sa < ea && sb < eb; sa++, sb++) {
    int c = cp_compare_values(&a->children[0], sa, &b->children[0], sb);
    if (c) return c;
  }
  return (ea - sa) > 0 ? 1 : (eb - sb) > 0 ? -1 : 0;
}

int cp_compare_values(const cp_array_view *a, int64_t i, const cp_array_view *b, int64_t j) {
  bool na = cp_view_is_null(a, i), nb = cp_view_is_null(b, j);
  if (na || nb) return na && nb ? 0 : na ? -1 : 1;
  value_class ca = class_of(a->type.id), cb = class_of(b->type.id);
  if (ca != cb) {
    if ((ca == CLS_INT || ca == CLS_FLOAT) && (cb == CLS_INT || cb == CLS_FLOAT))
      return cmp_double(cp_view_get_double(a, i), cp_view_get_double(b, j));
    return ca < cb ? -1 : 1;
  }
  switch (ca) {
  case CLS_INT: {
    __int128 x = get_int128(a, i), y = get_int128(b, j);
    return x < y ? -1 : x > y;
  }
  case CLS_FLOAT: return cmp_double(cp_view_get_double(a, i), cp_view_get_double(b, j));
  case CLS_DECIMAL: return cmp_decimal(get_dec(a, i), a->type.scale, get_dec(b, j), b->type.scale);
  case CLS_BYTES: return cmp_bytes(a, i, b, j);
  case CLS_LIST:
  case CLS_MAP: return cmp_lists(a, i, b, j);
  case CLS_STRUCT: {
    int64_t n = a->n_children < b->n_children ? a->n_children : b->n_children;
    for (int64_t k = 0; k < n; k++) {
      int c = cp_compare_values(&a->children[k], i, &b->children[k], j);
      if (c) return c;
    }
    return a->n_children < b->n_children ? -1 : a->n_children > b->n_children;
  }
  default: return 0;
  }
}

/* ---- equality ----------------------------------------------------------------------------- */

bool cp_rows_equal(const cp_array_view *a, int64_t i, const cp_array_view *b, int64_t j) {
  bool na = cp_view_is_null(a, i), nb = cp_view_is_null(b, j);
  if (na || nb) return na && nb;
  value_class ca = class_of(a->type.id);
  if (ca != class_of(b->type.id)) return false;
  switch (ca) {
  case CLS_INT: return get_int128(a, i) == get_int128(b, j);
  case CLS_FLOAT: return cmp_double(cp_view_get_double(a, i), cp_view_get_double(b, j)) == 0;
  case CLS_DECIMAL: return a->type.scale == b->type.scale && get_dec(a, i) == get_dec(b, j);
  case CLS_BYTES: {
    int64_t la, lb;
    const uint8_t *pa = cp_view_get_bytes(a, i, &la), *pb = cp_view_get_bytes(b, j, &lb);
    return la == lb && (la == 0 || memcmp(pa, pb, (size_t)la) == 0);
  }
  case CLS_LIST:
  case CLS_MAP: {
    int64_t sa, ea, sb, eb;
    cp_view_list_range(a, i, &sa, &ea);
    cp_view_list_range(b, j, &sb, &eb);
    if (ea - sa != eb - sb) return false;
    for (; sa < ea; sa++, sb++)
      if (!cp_rows_equal(&a->children[0], sa, &b->children[0], sb)) return false;
    return true;
  }
  case CLS_STRUCT:
    if (a->n_children != b->n_children) return false;
    for (int64_t k = 0; k < a->n_children; k++)
      if (!cp_rows_equal(&a->children[k], i, &b->children[k], j)) return false;
    return true;
  default: return true;
  }
}

/* ---- hashing ------------------------------------------------------------------------------ */

#define K1 0x9e3779b97f4a7c15ULL
#define K2 0xc2b2ae3d27d4eb4fULL
#define K3 0x165667b19e3779f9ULL

/* The finaliser of a 64-bit avalanche mix (xor-shift-multiply rounds). */
static inline uint64_t mix64(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

static inline uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }

static inline uint64_t combine(uint64_t seed, uint64_t v) {
  return mix64(seed ^ (v * K1 + K3 + rotl(seed, 23)));
}

static uint64_t hash_bytes(const uint8_t *p, int64_t n, uint64_t seed) {
  uint64_t h = seed ^ ((uint64_t)n * K2);
  int64_t k = 0;
  for (; k + 8 <= n; k += 8) {
    uint64_t w;
    memcpy(&w, p + k, 8);
    h ^= mix64(w * K1);
    h = rotl(h, 27) * K2 + K3;
  }
  if (k < n) {
    uint64_t w = 0;
    memcpy(&w, p + k, (size_t)(n - k));
    h ^= mix64(w * K1 + (uint64_t)(n - k));
  }
  return mix64(h);
}

uint64_t cp_hash_value(const cp_array_view *v, int64_t i, uint64_t seed) {
  if (cp_view_is_null(v, i)) return combine(seed, 0x6e756c6c); /* "null" */
  switch (class_of(v->type.id)) {
  case CLS_INT: return combine(seed, cp_view_get_uint64(v, i));
  case CLS_FLOAT: {
    double d = cp_view_get_double(v, i);
    if (d == 0) d = 0; /* -0.0 hashes as 0.0 */
    uint64_t bits;
    if (isnan(d))
      bits = 0x7ff8000000000000ULL;
    else
      memcpy(&bits, &d, 8);
    return combine(seed ^ K2, bits);
  }
  case CLS_DECIMAL: {
    cp_dec128 d = cp_view_get_decimal128(v, i);
    return combine(combine(seed, d.lo), (uint64_t)d.hi);
  }
  case CLS_BYTES: {
    int64_t len;
    const uint8_t *p = cp_view_get_bytes(v, i, &len);
    return hash_bytes(p, len, seed);
  }
  case CLS_LIST:
  case CLS_MAP: {
    int64_t s, e;
    cp_view_list_range(v, i, &s, &e);
    uint64_t h = combine(seed, (uint64_t)(e - s) ^ 0x6c697374); /* "list" */
    for (; s < e; s++) h = cp_hash_value(&v->children[0], s, h);
    return h;
  }
  case CLS_STRUCT: {
    uint64_t h = combine(seed, (uint64_t)v->n_children ^ 0x73747275); /* "stru" */
    for (int64_t k = 0; k < v->n_children; k++) h = cp_hash_value(&v->children[k], i, h);
    return h;
  }
  default: return combine(seed, 0x6e756c6c);
  }
}

int cp_hash_rows(const cp_array_view *columns, int64_t n_columns, uint64_t *hashes,
                 paimon_error *err) {
  if (n_columns <= 0) return paimon_error_set(err, PAIMON_EINVAL, "hash of no key columns");
  int64_t n = columns[0].length;
  for (int64_t c = 1; c < n_columns; c++)
    if (columns[c].length != n)
      return paimon_error_set(
          err, PAIMON_EINVAL, "key column '%s' has %lld rows, column '%s' has %lld",
          columns[c].name, (long long)columns[c].length, columns[0].name, (long long)n);
  for (int64_t r = 0; r < n; r++) hashes[r] = K3;
  /* Column at a time: one type dispatch per value but sequential memory access. */
  for (int64_t c = 0; c < n_columns; c++) {
    const cp_array_view *v = &columns[c];
    if (v->validity == NULL && (v->type.id == CP_ARROW_INT64 || v->type.id == CP_ARROW_INT32)) {
      for (int64_t r = 0; r < n; r++)
        hashes[r] = combine(hashes[r], (uint64_t)cp_view_get_int64(v, r));
    } else {
      for (int64_t r = 0; r < n; r++) hashes[r] = cp_hash_value(v, r, hashes[r]);
    }
  }
  return PAIMON_OK;
}
