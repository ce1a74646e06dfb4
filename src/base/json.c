/*
 * JSON helpers over jansson (json.h): parsing with file-and-position errors, typed getters that
 * name the file and key, and a writer that reproduces Jackson's DefaultPrettyPrinter, the format
 * of Java Paimon's schema and snapshot files (spec/format.md §2.1, §3).
 *
 * The writer is ours rather than json_dumps() because jansson's indented form differs from
 * Jackson's ("key": value, arrays broken over lines), and files that differ from Java's only in
 * whitespace would still make every diff of a table's metadata noisy.
 */
#include "base/json.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"

/* Deeper trees are not metadata; refusing them keeps the recursive writer's stack bounded. */
enum { CP_JSON_MAX_DEPTH = 1000 };

int cp_json_parse(const void *data, size_t len, const char *source, json_t **out,
                  paimon_error *err) {
  *out = NULL;
  /* jansson calls an empty buffer "wrong arguments" at line -1; say what it is. */
  size_t blank = 0;
  while (blank < len && strchr(" \t\r\n", ((const char *)data)[blank])) blank++;
  if (blank == len)
    return paimon_error_set(err, PAIMON_ECORRUPT, "%s: the file is empty%s", source,
                            len ? " (white space only)" : "");
  json_error_t je;
  *out = json_loadb(data, len, JSON_DECODE_ANY, &je);
  if (*out) return PAIMON_OK;
  if (json_error_code(&je) == json_error_out_of_memory) return CP_ENOMEM(err, source);
  return paimon_error_set(err, PAIMON_ECORRUPT, "%s: invalid JSON at line %d, column %d: %s",
                          source, je.line, je.column, je.text);
}

/* ---- getters ---- */

static const char *cp_json_kind(const json_t *v) {
  switch (json_typeof(v)) {
  case JSON_OBJECT: return "an object";
  case JSON_ARRAY: return "an array";
  case JSON_STRING: return "a string";
  case JSON_INTEGER: return "an integer";
  case JSON_REAL: return "a real number";
  case JSON_TRUE:
  case JSON_FALSE: return "a boolean";
  default: return "null";
  }
}

/* Looks `key` up; *out is NULL when the key is absent (or null and `null_is_absent`). */
static int cp_json_lookup(const json_t *obj, const char *key, const char *source,
                          bool null_is_absent, json_t **out, paimon_error *err) {
  *out = NULL;
  if (!json_is_object(obj))
    return paimon_error_set(err, PAIMON_ECORRUPT, "%s: expected an object holding '%s', found %s",
                            source, key, obj ? cp_json_kind(obj) : "nothing");
  json_t *v = json_object_get(obj, key);
  if (v && null_is_absent && json_is_null(v)) v = NULL;
  *out = v;
  return PAIMON_OK;
}

/* Looks up a required key whose value must be of `type` (JSON_TRUE standing for either boolean,
 * since jansson gives true and false separate types); `want` names the type for messages. */
static int cp_json_require(const json_t *obj, const char *key, const char *source, json_type type,
                           const char *want, json_t **out, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_json_lookup(obj, key, source, false, out, err));
  if (!*out) return paimon_error_set(err, PAIMON_ECORRUPT, "%s: key '%s' missing", source, key);
  bool ok = type == JSON_TRUE ? json_is_boolean(*out) : json_typeof(*out) == type;
  if (!ok)
    return paimon_error_set(err, PAIMON_ECORRUPT, "%s: key '%s' not %s (found %s)", source, key,
                            want, cp_json_kind(*out));
  return PAIMON_OK;
}

int cp_json_get_string(const json_t *obj, const char *key, const char *source, const char **out,
                       paimon_error *err) {
  json_t *v;
  CP_RETURN_IF_ERROR(cp_json_require(obj, key, source, JSON_STRING, "a string", &v, err));
  *out = json_string_value(v);
  return PAIMON_OK;
}

int cp_json_get_int64(const json_t *obj, const char *key, const char *source, int64_t *out,
                      paimon_error *err) {
  json_t *v;
  CP_RETURN_IF_ERROR(cp_json_require(obj, key, source, JSON_INTEGER, "an integer", &v, err));
  *out = (int64_t)json_integer_value(v);
  return PAIMON_OK;
}

int cp_json_get_bool(const json_t *obj, const char *key, const char *source, bool *out,
                     paimon_error *err) {
  json_t *v;
  CP_RETURN_IF_ERROR(cp_json_require(obj, key, source, JSON_TRUE, "a boolean", &v, err));
  *out = json_is_true(v);
  return PAIMON_OK;
}

int cp_json_get_object(const json_t *obj, const char *key, const char *source, json_t **out,
                       paimon_error *err) {
  return cp_json_require(obj, key, source, JSON_OBJECT, "an object", out, err);
}

int cp_json_get_array(const json_t *obj, const char *key, const char *source, json_t **out,
                      paimon_error *err) {
  return cp_json_require(obj, key, source, JSON_ARRAY, "an array", out, err);
}

/* An optional key: absent or null gives *out = NULL; otherwise it must be of `type`. */
static int cp_json_optional(const json_t *obj, const char *key, const char *source, json_type type,
                            const char *want, json_t **out, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_json_lookup(obj, key, source, true, out, err));
  if (*out && json_typeof(*out) != type)
    return paimon_error_set(err, PAIMON_ECORRUPT, "%s: key '%s' not %s (found %s)", source, key,
                            want, cp_json_kind(*out));
  return PAIMON_OK;
}

int cp_json_get_opt_int64(const json_t *obj, const char *key, const char *source, int64_t *out,
                          bool *present, paimon_error *err) {
  json_t *v;
  *present = false;
  CP_RETURN_IF_ERROR(cp_json_optional(obj, key, source, JSON_INTEGER, "an integer", &v, err));
  if (v) {
    *out = (int64_t)json_integer_value(v);
    *present = true;
  }
  return PAIMON_OK;
}

int cp_json_get_opt_string(const json_t *obj, const char *key, const char *source, const char **out,
                           paimon_error *err) {
  json_t *v;
  *out = NULL;
  CP_RETURN_IF_ERROR(cp_json_optional(obj, key, source, JSON_STRING, "a string", &v, err));
  if (v) *out = json_string_value(v);
  return PAIMON_OK;
}

int cp_json_get_opt_object(const json_t *obj, const char *key, const char *source, json_t **out,
                           paimon_error *err) {
  return cp_json_optional(obj, key, source, JSON_OBJECT, "an object", out, err);
}

int cp_json_foreach_string(const json_t *map, const char *source, const char *what,
                           cp_json_string_fn fn, void *ctx, paimon_error *err) {
  if (!json_is_object(map))
    return paimon_error_set(err, PAIMON_ECORRUPT, "%s: %s not an object (found %s)", source, what,
                            map ? cp_json_kind(map) : "nothing");
  const char *key;
  json_t *v;
  json_object_foreach((json_t *)map, key, v) {
    if (!json_is_string(v))
      return paimon_error_set(err, PAIMON_ECORRUPT, "%s: %s.'%s' not a string (found %s)", source,
                              what, key, cp_json_kind(v));
    CP_RETURN_IF_ERROR(fn(ctx, key, json_string_value(v), err));
  }
  return PAIMON_OK;
}

int cp_json_string_map(const json_t *map, const char *source, const char *what, cp_arena *arena,
                       cp_json_kv **out, size_t *count, paimon_error *err) {
  *out = NULL;
  *count = 0;
  /* Validate first, so that no arena memory is spent on a map that fails. */
  if (!json_is_object(map))
    return paimon_error_set(err, PAIMON_ECORRUPT, "%s: %s not an object (found %s)", source, what,
                            map ? cp_json_kind(map) : "nothing");
  size_t n = json_object_size(map);
  cp_json_kv *kv = cp_arena_alloc(arena, (n ? n : 1) * sizeof *kv);
  if (!kv) return CP_ENOMEM(err, what);
  size_t i = 0;
  const char *key;
  json_t *v;
  json_object_foreach((json_t *)map, key, v) {
    if (!json_is_string(v))
      return paimon_error_set(err, PAIMON_ECORRUPT, "%s: %s.'%s' not a string (found %s)", source,
                              what, key, cp_json_kind(v));
    kv[i].key = cp_arena_strdup(arena, key);
    kv[i].value = cp_arena_strndup(arena, json_string_value(v), json_string_length(v));
    if (!kv[i].key || !kv[i].value) return CP_ENOMEM(err, what);
    i++;
  }
  *out = kv;
  *count = i;
  return PAIMON_OK;
}

/* ---- writer ---- */

typedef struct cp_json_writer {
  cp_buf *out;
  bool pretty;
  paimon_error *err;
} cp_json_writer;

static int cp_jw_raw(cp_json_writer *w, const char *s, size_t n) {
  return cp_buf_append(w->out, s, n, w->err);
}

static int cp_jw_str(cp_json_writer *w, const char *s) { return cp_jw_raw(w, s, strlen(s)); }

/* A JSON string with Jackson's escaping (see json.h). */
static int cp_jw_string(cp_json_writer *w, const char *s, size_t n) {
  static const char hex[] = "0123456789ABCDEF";
  CP_RETURN_IF_ERROR(cp_jw_raw(w, "\"", 1));
  size_t run = 0; /* start of the pending run of bytes that need no escape */
  for (size_t i = 0; i < n; i++) {
    unsigned char c = (unsigned char)s[i];
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    CP_RETURN_IF_ERROR(cp_jw_raw(w, s + run, i - run));
    run = i + 1;
    char esc[7] = {'\\', 0, 0, 0, 0, 0, 0};
    size_t len = 2;
    switch (c) {
    case '"': esc[1] = '"'; break;
    case '\\': esc[1] = '\\'; break;
    case '\b': esc[1] = 'b'; break;
    case '\t': esc[1] = 't'; break;
    case '\n': esc[1] = 'n'; break;
    case '\f': esc[1] = 'f'; break;
    case '\r': esc[1] = 'r'; break;
    default:
      memcpy(esc + 1, "u00", 3);
      esc[4] = hex[c >> 4];
      esc[5] = hex[c & 15];
      len = 6;
    }
    CP_RETURN_IF_ERROR(cp_jw_raw(w, esc, len));
  }
  CP_RETURN_IF_ERROR(cp_jw_raw(w, s + run, n - run));
  return cp_jw_raw(w, "\"", 1);
}

/* The digits Java's Double.toString (JDK 19 and later) chooses, in "%e" form: the shortest decimal
 * that reads back as `v`, except that when one digit would do, the closer of the one- and
 * two-digit candidates wins (so Double.MIN_VALUE is 4.9E-324, not 5.0E-324). Older JDKs print a
 * longer form for a few values such as 1.0E23; that cannot be matched for every JDK at once. */
static void cp_java_double_digits(double v, char *sci, size_t cap) {
  int prec = 0;
  for (; prec < 17; prec++) {
    snprintf(sci, cap, "%.*e", prec, v);
    if (strtod(sci, NULL) == v) break;
  }
  if (prec != 0) return;
  char two[40];
  snprintf(two, sizeof two, "%.1e", v);
  long double x = v;
  if (fabsl(strtold(two, NULL) - x) < fabsl(strtold(sci, NULL) - x)) snprintf(sci, cap, "%s", two);
}

/* Java's Double.toString: plain notation with at least one fractional digit for
 * 1e-3 <= |v| < 1e7, otherwise d.dddE[-]n. */
static int cp_jw_real(cp_json_writer *w, double v) {
  if (!isfinite(v))
    return paimon_error_set(w->err, PAIMON_EINVAL, "JSON cannot hold the real number %g", v);
  if (v == 0) return cp_jw_str(w, signbit(v) ? "-0.0" : "0.0");
  char sci[40];
  cp_java_double_digits(v, sci, sizeof sci);
  /* sci is "[-]d[.ddd]e[+-]xx": collect the digits and the decimal exponent. */
  const char *p = sci;
  bool neg = *p == '-';
  if (neg) p++;
  char digits[24];
  int nd = 0;
  for (; *p && *p != 'e'; p++)
    if (*p != '.') digits[nd++] = *p;
  while (nd > 1 && digits[nd - 1] == '0') nd--;
  int exp = atoi(p + 1);
  char out[48];
  int o = 0;
  if (neg) out[o++] = '-';
  double mag = fabs(v);
  if (mag >= 1e-3 && mag < 1e7) {
    if (exp < 0) {
      out[o++] = '0';
      out[o++] = '.';
      for (int i = -1; i > exp; i--) out[o++] = '0';
      for (int i = 0; i < nd; i++) out[o++] = digits[i];
    } else {
      for (int i = 0; i <= exp; i++) out[o++] = i < nd ? digits[i] : '0';
      out[o++] = '.';
      if (nd <= exp + 1) out[o++] = '0';
      for (int i = exp + 1; i < nd; i++) out[o++] = digits[i];
    }
    out[o] = '\0';
  } else {
    out[o++] = digits[0];
    out[o++] = '.';
    if (nd == 1) out[o++] = '0';
    for (int i = 1; i < nd; i++) out[o++] = digits[i];
    snprintf(out + o, sizeof out - (size_t)o, "E%d", exp);
  }
  return cp_jw_str(w, out);
}

/* Newline and two spaces per object nesting level (pretty mode only). */
static int cp_jw_indent(cp_json_writer *w, int level) {
  CP_RETURN_IF_ERROR(cp_jw_raw(w, "\n", 1));
  for (int i = 0; i < level; i++) CP_RETURN_IF_ERROR(cp_jw_raw(w, "  ", 2));
  return PAIMON_OK;
}

static int cp_jw_value(cp_json_writer *w, const json_t *v, int level, int depth);

static int cp_jw_object(cp_json_writer *w, const json_t *v, int level, int depth) {
  if (json_object_size(v) == 0) return cp_jw_str(w, w->pretty ? "{ }" : "{}");
  CP_RETURN_IF_ERROR(cp_jw_raw(w, "{", 1));
  bool first = true;
  const char *key;
  json_t *child;
  json_object_foreach((json_t *)v, key, child) {
    if (!first) CP_RETURN_IF_ERROR(cp_jw_raw(w, ",", 1));
    first = false;
    if (w->pretty) CP_RETURN_IF_ERROR(cp_jw_indent(w, level + 1));
    CP_RETURN_IF_ERROR(cp_jw_string(w, key, strlen(key)));
    CP_RETURN_IF_ERROR(cp_jw_str(w, w->pretty ? " : " : ":"));
    CP_RETURN_IF_ERROR(cp_jw_value(w, child, level + 1, depth + 1));
  }
  if (w->pretty) CP_RETURN_IF_ERROR(cp_jw_indent(w, level));
  return cp_jw_raw(w, "}", 1);
}

/* Arrays do not indent: Jackson's array indenter writes one space, so elements share a line and
 * objects inside an array keep the nesting level of the object holding the array. */
static int cp_jw_array(cp_json_writer *w, const json_t *v, int level, int depth) {
  size_t n = json_array_size(v);
  if (n == 0) return cp_jw_str(w, w->pretty ? "[ ]" : "[]");
  CP_RETURN_IF_ERROR(cp_jw_str(w, w->pretty ? "[ " : "["));
  for (size_t i = 0; i < n; i++) {
    if (i > 0) CP_RETURN_IF_ERROR(cp_jw_str(w, w->pretty ? ", " : ","));
    CP_RETURN_IF_ERROR(cp_jw_value(w, json_array_get(v, i), level, depth + 1));
  }
  return cp_jw_str(w, w->pretty ? " ]" : "]");
}

static int cp_jw_value(cp_json_writer *w, const json_t *v, int level, int depth) {
  if (depth > CP_JSON_MAX_DEPTH)
    return paimon_error_set(w->err, PAIMON_EINVAL, "JSON value nested deeper than %d levels",
                            CP_JSON_MAX_DEPTH);
  char num[32];
  switch (json_typeof(v)) {
  case JSON_OBJECT: return cp_jw_object(w, v, level, depth);
  case JSON_ARRAY: return cp_jw_array(w, v, level, depth);
  case JSON_STRING: return cp_jw_string(w, json_string_value(v), json_string_length(v));
  case JSON_INTEGER:
    snprintf(num, sizeof num, "%" PRId64, (int64_t)json_integer_value(v));
    return cp_jw_str(w, num);
  case JSON_REAL: return cp_jw_real(w, json_real_value(v));
  case JSON_TRUE: return cp_jw_str(w, "true");
  case JSON_FALSE: return cp_jw_str(w, "false");
  case JSON_NULL: return cp_jw_str(w, "null");
  }
  return paimon_error_set(w->err, PAIMON_EINVAL, "unknown JSON value type");
}

static int cp_json_write(const json_t *v, bool pretty, cp_buf *out, paimon_error *err) {
  if (!v) return paimon_error_set(err, PAIMON_EINVAL, "no JSON value to write");
  cp_json_writer w = {out, pretty, err};
  size_t start = out->len;
  int rc = cp_jw_value(&w, v, 0, 0);
  if (rc != 0) out->len = start;
  return rc;
}

int cp_json_write_pretty(const json_t *v, cp_buf *out, paimon_error *err) {
  return cp_json_write(v, true, out, err);
}

int cp_json_write_compact(const json_t *v, cp_buf *out, paimon_error *err) {
  return cp_json_write(v, false, out, err);
}
