/*
 * Stable multi-key sorting of row indices (ops.h, cp_sort_indices), in the Spark SQL order
 * described there.
 *
 * A comparison sort pays a type dispatch and two null checks per comparison, which dominates on
 * millions of rows. So the first key is mapped, once per row, to an order-preserving unsigned
 * 64-bit key — exact for integers, floats, booleans, dates, times and timestamps; the first 8 bytes
 * (big-endian) for strings and binaries — and the non-null rows are LSD-radix-sorted on it, which
 * is stable and O(n). Null rows keep their input order and go first or last. Runs of rows whose
 * 64-bit keys tie are then refined with a stable merge sort on the full comparator: the remaining
 * keys (exact first keys) or all keys (prefix first keys). Decimal and nested first keys use the
 * merge sort alone.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/ops.h"
#include "base/status.h"

/* ---- comparator and merge sort -------------------------------------------------------------- */

typedef struct sort_ctx {
  const cp_sort_key *keys;
  int64_t first; /* first key the comparator looks at */
  int64_t n_keys;
} sort_ctx;

static int cmp_double(double x, double y) {
  if (x < y) return -1;
  if (x > y) return 1;
  if (x == y) return 0;
  bool nx = isnan(x), ny = isnan(y);
  return nx == ny ? 0 : nx ? 1 : -1;
}

static int compare_rows(const sort_ctx *ctx, int64_t x, int64_t y) {
  for (int64_t k = ctx->first; k < ctx->n_keys; k++) {
    const cp_sort_key *key = &ctx->keys[k];
    const cp_array_view *v = key->column;
    bool nx = cp_view_is_null(v, x), ny = cp_view_is_null(v, y);
    int c;
    if (nx || ny) {
      if (nx && ny) continue;
      c = nx ? -1 : 1;
      return key->nulls_first ? c : -c;
    }
    switch (v->type.id) {
    case CP_ARROW_INT64:
    case CP_ARROW_TIMESTAMP: {
      int64_t a = v->values.i64[v->offset + x], b = v->values.i64[v->offset + y];
      c = a < b ? -1 : a > b;
      break;
    }
    case CP_ARROW_INT32:
    case CP_ARROW_DATE32: {
      int32_t a = v->values.i32[v->offset + x], b = v->values.i32[v->offset + y];
      c = a < b ? -1 : a > b;
      break;
    }
    case CP_ARROW_DOUBLE:
      c = cmp_double(v->values.f64[v->offset + x], v->values.f64[v->offset + y]);
      break;
    default: c = cp_compare_values(v, x, v, y); break;
    }
    if (c) return key->descending ? -c : c;
  }
  return 0;
}

/* Stable: insertion sort on short runs, then bottom-up merges that take from the left run on
 * ties. `tmp` holds n entries. */
static void merge_sort(const sort_ctx *ctx, int64_t *a, int64_t *tmp, int64_t n) {
  const int64_t RUN = 16;
  for (int64_t lo = 0; lo < n; lo += RUN) {
    int64_t hi = lo + RUN < n ? lo + RUN : n;
    for (int64_t i = lo + 1; i < hi; i++) {
      int64_t x = a[i], j = i;
      while (j > lo && compare_rows(ctx, a[j - 1], x) > 0) a[j] = a[j - 1], j--;
      a[j] = x;
    }
  }
  int64_t *src = a, *dst = tmp;
  for (int64_t width = RUN; width < n; width *= 2) {
    for (int64_t lo = 0; lo < n; lo += 2 * width) {
      int64_t mid = lo + width < n ? lo + width : n;
      int64_t hi = lo + 2 * width < n ? lo + 2 * width : n;
      int64_t i = lo, j = mid, k = lo;
      if (mid >= hi || compare_rows(ctx, src[mid - 1], src[mid]) <= 0) {
        memcpy(dst + lo, src + lo, (size_t)(hi - lo) * sizeof *dst); /* already in order */
        continue;
      }
      while (i < mid && j < hi)
        dst[k++] = compare_rows(ctx, src[j], src[i]) < 0 ? src[j++] : src[i++];
      while (i < mid) dst[k++] = src[i++];
      while (j < hi) dst[k++] = src[j++];
    }
    int64_t *t = src;
    src = dst;
    dst = t;
  }
  if (src != a) memcpy(a, src, (size_t)n * sizeof *a);
}

/* ---- 64-bit order-preserving keys ----------------------------------------------------------- */

typedef enum key_kind { KEY_NONE, KEY_EXACT, KEY_PREFIX } key_kind;

static key_kind kind_of(cp_arrow_type id) {
  if (cp_arrow_type_is_integer(id) || cp_arrow_type_is_floating(id)) return KEY_EXACT;
  switch (id) {
  case CP_ARROW_BOOL:
  case CP_ARROW_DATE32:
  case CP_ARROW_TIME32:
  case CP_ARROW_TIME64:
  case CP_ARROW_TIMESTAMP: return KEY_EXACT;
  case CP_ARROW_STRING:
  case CP_ARROW_LARGE_STRING:
  case CP_ARROW_BINARY:
  case CP_ARROW_LARGE_BINARY:
  case CP_ARROW_FIXED_SIZE_BINARY: return KEY_PREFIX;
  default: return KEY_NONE;
  }
}

/* Unsigned order of the result == the comparator's order of the values (non-null rows). */
static uint64_t norm_key(const cp_array_view *v, int64_t i) {
  const uint64_t sign = 1ULL << 63;
  cp_arrow_type id = v->type.id;
  if (id == CP_ARROW_UINT64) return v->values.u64[v->offset + i];
  if (cp_arrow_type_is_floating(id)) {
    double d = cp_view_get_double(v, i);
    uint64_t bits;
    if (isnan(d)) return ~0ULL; /* above +Infinity, all NaNs equal */
    if (d == 0) d = 0;          /* -0.0 sorts as 0.0 */
    memcpy(&bits, &d, 8);
    return (bits & sign) ? ~bits : bits | sign;
  }
  if (kind_of(id) == KEY_PREFIX) {
    int64_t len;
    const uint8_t *p = cp_view_get_bytes(v, i, &len);
    uint64_t k = 0;
    for (int b = 0; b < 8; b++) k = (k << 8) | (b < len ? p[b] : 0);
    return k;
  }
  return (uint64_t)cp_view_get_int64(v, i) ^ sign;
}

/* Stable LSD radix sort of (keys, idx) by keys, 8 bits per pass; passes where every key has the
 * same digit are skipped. The result is in keys/idx; k2/i2 are scratch of n entries, count of
 * 8 x 256. */
static void radix_sort(uint64_t *keys, int64_t *idx, uint64_t *k2, int64_t *i2, int64_t n,
                       int64_t (*count)[256]) {
  memset(count, 0, 8 * sizeof *count);
  for (int64_t i = 0; i < n; i++)
    for (int d = 0; d < 8; d++) count[d][(keys[i] >> (8 * d)) & 255]++;
  uint64_t *ks = keys, *kd = k2;
  int64_t *is = idx, *id = i2;
  for (int d = 0; d < 8; d++) {
    int64_t pos = 0;
    bool trivial = false;
    for (int b = 0; b < 256; b++) {
      int64_t c = count[d][b];
      if (c == n) trivial = true;
      count[d][b] = pos;
      pos += c;
    }
    if (trivial) continue;
    for (int64_t i = 0; i < n; i++) {
      int64_t at = count[d][(ks[i] >> (8 * d)) & 255]++;
      kd[at] = ks[i];
      id[at] = is[i];
    }
    uint64_t *tk = ks;
    ks = kd, kd = tk;
    int64_t *ti = is;
    is = id, id = ti;
  }
  if (ks != keys) {
    memcpy(keys, ks, (size_t)n * sizeof *keys);
    memcpy(idx, is, (size_t)n * sizeof *idx);
  }
}

/* Sorts runs of equal 64-bit keys with the comparator from key `first` on. */
static void refine_runs(const sort_ctx *ctx, const uint64_t *keys, int64_t *idx, int64_t n,
                        int64_t *tmp) {
  int64_t lo = 0;
  while (lo < n) {
    int64_t hi = lo + 1;
    while (hi < n && keys[hi] == keys[lo]) hi++;
    if (hi - lo > 1) merge_sort(ctx, idx + lo, tmp, hi - lo);
    lo = hi;
  }
}

int cp_sort_indices(const cp_sort_key *keys, int64_t n_keys, int64_t *indices, paimon_error *err) {
  if (n_keys <= 0) return paimon_error_set(err, PAIMON_EINVAL, "sort needs at least one key");
  const cp_array_view *v0 = keys[0].column;
  int64_t n = v0->length;
  for (int64_t k = 1; k < n_keys; k++)
    if (keys[k].column->length != n)
      return paimon_error_set(err, PAIMON_EINVAL, "sort key '%s' has %lld rows, key '%s' has %lld",
                              keys[k].column->name, (long long)keys[k].column->length, v0->name,
                              (long long)n);
  for (int64_t i = 0; i < n; i++) indices[i] = i;
  if (n < 2) return PAIMON_OK;
  key_kind kind = kind_of(v0->type.id);
  int64_t *tmp = malloc((size_t)n * sizeof *tmp);
  uint64_t *k1 = kind != KEY_NONE ? malloc((size_t)n * sizeof *k1) : NULL;
  uint64_t *k2 = kind != KEY_NONE ? malloc((size_t)n * sizeof *k2) : NULL;
  int64_t(*count)[256] = kind != KEY_NONE ? malloc(8 * sizeof *count) : NULL;
  if (!tmp || (kind != KEY_NONE && (!k1 || !k2 || !count))) {
    free(tmp), free(k1), free(k2), free(count);
    return CP_ENOMEM(err, "sort scratch");
  }
  sort_ctx all = {keys, 0, n_keys};
  if (kind == KEY_NONE) {
    merge_sort(&all, indices, tmp, n);
  } else {
    int64_t n_null = v0->null_count, m = n - n_null;
    int64_t *nn = indices + (keys[0].nulls_first ? n_null : 0);
    int64_t *nulls = indices + (keys[0].nulls_first ? 0 : m);
    uint64_t flip = keys[0].descending ? ~0ULL : 0;
    for (int64_t i = 0, j = 0, q = 0; i < n; i++) {
      if (cp_view_is_null(v0, i)) {
        nulls[q++] = i;
      } else {
        k1[j] = norm_key(v0, i) ^ flip;
        nn[j++] = i;
      }
    }
    radix_sort(k1, nn, k2, tmp, m, count);
    sort_ctx rest = {keys, kind == KEY_EXACT ? 1 : 0, n_keys};
    if (rest.first < n_keys) refine_runs(&rest, k1, nn, m, tmp);
    sort_ctx after_first = {keys, 1, n_keys};
    if (n_keys > 1 && n_null > 1) merge_sort(&after_first, nulls, tmp, n_null);
  }
  free(tmp);
  free(k1);
  free(k2);
  free(count);
  return PAIMON_OK;
}
