/*
 * Exact decimal arithmetic for DECIMAL(p, s) values held as 128-bit unscaled integers
 * (spec/format.md §2.2: precision up to 38), with Spark's semantics: results are computed exactly
 * (as Java's BigDecimal would), rounded HALF_UP to the result scale, and NULL when they do not
 * fit the result precision (non-ANSI CheckOverflow).
 *
 * Intermediate values can exceed 128 bits (a 38-digit value rescaled by 10^76 in a division), so
 * magnitudes are carried in 512-bit unsigned integers (eight 64-bit limbs, least significant
 * first) with schoolbook multiplication and shift-subtract division. That is slow compared with
 * native integers, but decimal arithmetic is not the hot path of a scan.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "expr/expr_internal.h"

#define LIMBS 8

typedef struct u512 {
  uint64_t w[LIMBS];
} u512;

typedef unsigned __int128 u128;

static u512 from_u128(u128 v) {
  u512 r;
  memset(&r, 0, sizeof r);
  r.w[0] = (uint64_t)v;
  r.w[1] = (uint64_t)(v >> 64);
  return r;
}

static bool is_zero(const u512 *a) {
  for (int i = 0; i < LIMBS; i++)
    if (a->w[i]) return false;
  return true;
}

static int cmp(const u512 *a, const u512 *b) {
  for (int i = LIMBS - 1; i >= 0; i--)
    if (a->w[i] != b->w[i]) return a->w[i] < b->w[i] ? -1 : 1;
  return 0;
}

static void add(u512 *a, const u512 *b) {
  unsigned carry = 0;
  for (int i = 0; i < LIMBS; i++) {
    u128 s = (u128)a->w[i] + b->w[i] + carry;
    a->w[i] = (uint64_t)s;
    carry = (unsigned)(s >> 64);
  }
}

/* a -= b; requires a >= b. */
static void sub(u512 *a, const u512 *b) {
  unsigned borrow = 0;
  for (int i = 0; i < LIMBS; i++) {
    u128 d = (u128)a->w[i] - b->w[i] - borrow;
    a->w[i] = (uint64_t)d;
    borrow = (unsigned)((d >> 64) & 1);
  }
}

static void mul_small(u512 *a, uint64_t m) {
  uint64_t carry = 0;
  for (int i = 0; i < LIMBS; i++) {
    u128 p = (u128)a->w[i] * m + carry;
    a->w[i] = (uint64_t)p;
    carry = (uint64_t)(p >> 64);
  }
}

static void mul_pow10(u512 *a, int n) {
  while (n >= 19) {
    mul_small(a, 10000000000000000000ull);
    n -= 19;
  }
  uint64_t m = 1;
  while (n-- > 0) m *= 10;
  if (m != 1) mul_small(a, m);
}

/* Product of two values below 2^128 (fits in 256 bits). */
static u512 mul128(u128 a, u128 b) {
  uint64_t x[2] = {(uint64_t)a, (uint64_t)(a >> 64)}, y[2] = {(uint64_t)b, (uint64_t)(b >> 64)};
  u512 r;
  memset(&r, 0, sizeof r);
  for (int i = 0; i < 2; i++) {
    uint64_t carry = 0;
    for (int j = 0; j < 2; j++) {
      u128 p = (u128)x[i] * y[j] + r.w[i + j] + carry;
      r.w[i + j] = (uint64_t)p;
      carry = (uint64_t)(p >> 64);
    }
    r.w[i + 2] = carry;
  }
  return r;
}

static int bit_length(const u512 *a) {
  for (int i = LIMBS - 1; i >= 0; i--)
    if (a->w[i]) return i * 64 + 64 - __builtin_clzll(a->w[i]);
  return 0;
}

static void shl1(u512 *a) {
  for (int i = LIMBS - 1; i > 0; i--) a->w[i] = (a->w[i] << 1) | (a->w[i - 1] >> 63);
  a->w[0] <<= 1;
}

/* q = n / d, r = n % d (d != 0), by shift and subtract. */
static void divmod(const u512 *n, const u512 *d, u512 *q, u512 *r) {
  memset(q, 0, sizeof *q);
  memset(r, 0, sizeof *r);
  for (int i = bit_length(n) - 1; i >= 0; i--) {
    shl1(r);
    r->w[0] |= (n->w[i / 64] >> (i % 64)) & 1;
    if (cmp(r, d) >= 0) {
      sub(r, d);
      q->w[i / 64] |= (uint64_t)1 << (i % 64);
    }
  }
}

/* n / d rounded half away from zero (HALF_UP on a magnitude). */
static u512 div_round(const u512 *n, const u512 *d) {
  u512 q, r, one = from_u128(1);
  divmod(n, d, &q, &r);
  shl1(&r);
  if (cmp(&r, d) >= 0) add(&q, &one);
  return q;
}

static u512 pow10_512(int n) {
  u512 p = from_u128(1);
  mul_pow10(&p, n);
  return p;
}

/* Rounds a magnitude at scale `from` to scale `to` (multiplying when to > from). */
static u512 rescale_mag(const u512 *m, int from, int to) {
  u512 r = *m;
  if (to >= from) {
    mul_pow10(&r, to - from);
    return r;
  }
  u512 d = pow10_512(from - to);
  return div_round(&r, &d);
}

cp_int128 cp_dec_pow10(int n) {
  cp_int128 p = 1;
  for (int i = 0; i < n; i++) p *= 10;
  return p;
}

static u128 magnitude(cp_int128 v) { return v < 0 ? (u128)0 - (u128)v : (u128)v; }

bool cp_dec_fits(cp_int128 v, int precision) {
  return magnitude(v) < (u128)cp_dec_pow10(precision);
}

/* Signed result from a sign and magnitude when |value| < 10^precision. */
static bool finish(bool negative, const u512 *m, int precision, cp_int128 *out) {
  u512 limit = pow10_512(precision);
  if (cmp(m, &limit) >= 0) return false;
  u128 v = (u128)m->w[0] | ((u128)m->w[1] << 64);
  *out = negative ? -(cp_int128)v : (cp_int128)v;
  return true;
}

bool cp_dec_rescale(cp_int128 v, int from, int to, int precision, cp_int128 *out) {
  u512 m = from_u128(magnitude(v));
  u512 r = rescale_mag(&m, from, to);
  return finish(v < 0, &r, precision, out);
}

/* Signed addition of magnitudes: (na, a) + (nb, b) into (*neg, result). */
static u512 signed_add(bool na, const u512 *a, bool nb, const u512 *b, bool *neg) {
  u512 r;
  if (na == nb) {
    r = *a;
    add(&r, b);
    *neg = na;
  } else if (cmp(a, b) >= 0) {
    r = *a;
    sub(&r, b);
    *neg = na;
  } else {
    r = *b;
    sub(&r, a);
    *neg = nb;
  }
  if (is_zero(&r)) *neg = false;
  return r;
}

bool cp_dec_arith(cp_arith_op op, cp_int128 a, int sa, cp_int128 b, int sb, int rp, int rs,
                  cp_int128 *out) {
  bool na = a < 0, nb = b < 0, neg = false;
  u512 ma = from_u128(magnitude(a)), mb = from_u128(magnitude(b)), r;
  int s = sa > sb ? sa : sb;
  switch (op) {
  case CP_ARITH_ADD:
  case CP_ARITH_SUB: {
    u512 x = rescale_mag(&ma, sa, s), y = rescale_mag(&mb, sb, s);
    r = signed_add(na, &x, op == CP_ARITH_SUB ? !nb : nb, &y, &neg);
    r = rescale_mag(&r, s, rs);
    break;
  }
  case CP_ARITH_MUL:
    r = mul128(magnitude(a), magnitude(b));
    r = rescale_mag(&r, sa + sb, rs);
    neg = na != nb;
    break;
  case CP_ARITH_DIV: {
    if (b == 0) return false;
    int e = rs + sb - sa;
    u512 n = ma, d = mb;
    if (e >= 0)
      mul_pow10(&n, e);
    else
      mul_pow10(&d, -e);
    r = div_round(&n, &d);
    neg = na != nb;
    break;
  }
  case CP_ARITH_MOD: {
    if (b == 0) return false;
    u512 x = rescale_mag(&ma, sa, s), y = rescale_mag(&mb, sb, s), q;
    divmod(&x, &y, &q, &r);
    r = rescale_mag(&r, s, rs);
    neg = na; /* the remainder takes the dividend's sign, as Java's BigDecimal.remainder */
    break;
  }
  default: return false;
  }
  if (is_zero(&r)) neg = false;
  return finish(neg, &r, rp, out);
}

size_t cp_dec_format(cp_int128 v, int scale, char *buf) {
  char digits[48];
  int n = 0;
  u128 m = magnitude(v);
  do {
    digits[n++] = (char)('0' + (int)(m % 10));
    m /= 10;
  } while (m);
  while (n <= scale) digits[n++] = '0'; /* at least one digit before the point */
  size_t len = 0;
  if (v < 0) buf[len++] = '-';
  for (int i = n - 1; i >= 0; i--) {
    buf[len++] = digits[i];
    if (i == scale && scale > 0) buf[len++] = '.';
  }
  buf[len] = '\0';
  return len;
}

double cp_dec_to_double(cp_int128 v, int scale) {
  static const double P10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                               1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
                               1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
  /* Both operands exact and one IEEE division: correctly rounded, like BigDecimal.doubleValue. */
  if (magnitude(v) <= ((u128)1 << 53) && scale <= 22) return (double)v / P10[scale];
  char buf[48];
  cp_dec_format(v, scale, buf);
  return strtod(buf, NULL);
}

bool cp_dec_from_double(double d, int precision, int scale, cp_int128 *out) {
  if (!isfinite(d)) return false;
  /* Spark goes through BigDecimal(Double.toString(d)): the shortest decimal that reads back as d,
   * then rounds HALF_UP to the scale. */
  char text[40];
  snprintf(text, sizeof text, "%.17g", d);
  for (int digits = 1; digits <= 17; digits++) {
    snprintf(text, sizeof text, "%.*e", digits - 1, d);
    if (strtod(text, NULL) == d) break;
  }
  /* text is "-d.ddde±x": gather the digits and the exponent. */
  const char *p = text;
  bool neg = *p == '-';
  if (neg) p++;
  u512 m = from_u128(0);
  int n_frac = -1;
  for (; *p && *p != 'e'; p++) {
    if (*p == '.') {
      n_frac = 0;
      continue;
    }
    mul_small(&m, 10);
    u512 digit = from_u128((u128)(*p - '0'));
    add(&m, &digit);
    if (n_frac >= 0) n_frac++;
  }
  int exp10 = *p == 'e' ? atoi(p + 1) : 0;
  int value_scale = (n_frac < 0 ? 0 : n_frac) - exp10;      /* d = m * 10^-value_scale */
  if (value_scale - scale > 400) value_scale = scale + 400; /* rounds to zero either way */
  u512 r;
  if (value_scale < scale) {
    if (scale - value_scale > 120) return false; /* far beyond 38 digits */
    r = m;
    mul_pow10(&r, scale - value_scale);
  } else if (value_scale - scale > 150) {
    r = from_u128(0);
  } else {
    r = rescale_mag(&m, value_scale, scale);
  }
  return finish(neg && !is_zero(&r), &r, precision, out);
}
