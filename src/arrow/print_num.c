/*
 * Number text for the printers (print.h): Java's Double.toString / Float.toString, and decimals in
 * plain notation.
 *
 * Java (JDK 19 and later, java.lang.Double#toString javadoc) picks, among the decimals that round
 * back to the value, those of the shortest length m — or of length 2 when m is 1 — and of those
 * the one closest to the value. C's "%.*e" gives the correctly rounded decimal of a given length,
 * which is the closest one of that length, so trying lengths 2, 3, ... until one reads back as the
 * same value yields Java's digits. The layout is then Java's: plain "ddd.ddd" with at least one
 * fraction digit when 10^-3 <= |v| < 10^7, otherwise "d.dddE[-]n".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/print.h"
#include "base/status.h"

/* Shortest round-trip digits of `v` (positive, finite, non-zero): digits[] without a point, their
 * count, and the decimal exponent of the first digit (v = d.ddd × 10^exp10). */
static int shortest_digits(double v, bool is_float, char digits[32], int *exp10) {
  char text[48];
  int max = is_float ? 9 : 17;
  for (int len = 2; len <= max; len++) {
    snprintf(text, sizeof text, "%.*e", len - 1, v);
    bool same = is_float ? strtof(text, NULL) == (float)v : strtod(text, NULL) == v;
    if (same || len == max) break;
  }
  /* text is "d.ddd...e[+-]xx" */
  int n = 0;
  const char *p = text;
  for (; *p && *p != 'e'; p++)
    if (*p >= '0' && *p <= '9') digits[n++] = *p;
  *exp10 = atoi(p + 1);
  while (n > 1 && digits[n - 1] == '0') n--;
  digits[n] = 0;
  return n;
}

static int format_java(cp_buf *out, double v, bool is_float, paimon_error *err) {
  if (isnan(v)) return cp_buf_append(out, "NaN", 3, err);
  if (isinf(v))
    return v > 0 ? cp_buf_append(out, "Infinity", 8, err) : cp_buf_append(out, "-Infinity", 9, err);
  if (v == 0)
    return signbit(v) ? cp_buf_append(out, "-0.0", 4, err) : cp_buf_append(out, "0.0", 3, err);
  char digits[32], text[64];
  int e;
  size_t k = 0;
  if (v < 0) text[k++] = '-', v = -v;
  int n = shortest_digits(v, is_float, digits, &e);
  if (e >= -3 && e < 7) {
    if (e < 0) {
      text[k++] = '0';
      text[k++] = '.';
      for (int z = 0; z < -e - 1; z++) text[k++] = '0';
      for (int d = 0; d < n; d++) text[k++] = digits[d];
    } else {
      for (int d = 0; d <= e; d++) text[k++] = d < n ? digits[d] : '0';
      text[k++] = '.';
      if (n > e + 1)
        for (int d = e + 1; d < n; d++) text[k++] = digits[d];
      else
        text[k++] = '0';
    }
    text[k] = 0;
  } else {
    text[k++] = digits[0];
    text[k++] = '.';
    if (n > 1)
      for (int d = 1; d < n; d++) text[k++] = digits[d];
    else
      text[k++] = '0';
    k += (size_t)snprintf(text + k, sizeof text - k, "E%d", e);
  }
  return cp_buf_append(out, text, strlen(text), err);
}

int cp_format_double_java(cp_buf *out, double d, paimon_error *err) {
  return format_java(out, d, false, err);
}

int cp_format_float_java(cp_buf *out, float f, paimon_error *err) {
  return format_java(out, (double)f, true, err);
}

int cp_format_decimal128(cp_buf *out, cp_dec128 v, int32_t scale, paimon_error *err) {
  __int128 x = (__int128)(((unsigned __int128)(uint64_t)v.hi << 64) | v.lo);
  unsigned __int128 mag =
      x < 0 ? (unsigned __int128)0 - (unsigned __int128)x : (unsigned __int128)x;
  char digits[48];
  int n = 0;
  do {
    digits[n++] = (char)('0' + (int)(mag % 10));
    mag /= 10;
  } while (mag);
  while (n <= scale && n < 45) digits[n++] = '0'; /* at least one digit before the point */
  char text[64];
  size_t k = 0;
  if (x < 0) text[k++] = '-';
  for (int d = n - 1; d >= 0; d--) {
    text[k++] = digits[d];
    if (d == scale && scale > 0) text[k++] = '.';
  }
  return cp_buf_append(out, text, k, err);
}
