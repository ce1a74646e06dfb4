/*
 * Avro values ↔ JSON: field defaults (JSON in the schema) → values, for the resolving reader
 * (Avro 1.11 specification, "Complex Types: Records", the table of default-value encodings), and
 * values → JSON text for `cpaimon avro cat` (close to Avro's "JSON Encoding"; value.h says where
 * and why it differs).
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "format/avro/value.h"

#define CP_AVRO_JSON_MAX_DEPTH 128

/* ---- defaults ---- */

static int bad_default(const cp_avro_node *s, const char *why, paimon_error *err) {
  return paimon_error_set(err, PAIMON_EINVAL, "default value does not fit type %s: %s",
                          s->name ? s->name : cp_avro_type_name(s->type), why);
}

/* Avro writes bytes defaults as a JSON string whose code points 0-255 are the bytes; jansson hands
 * us UTF-8, so each code point is one or two UTF-8 bytes. */
static int latin1_bytes(const cp_avro_node *s, const json_t *j, cp_arena *a, cp_avro_value *out,
                        paimon_error *err) {
  if (!json_is_string(j)) return bad_default(s, "expected a string", err);
  const uint8_t *src = (const uint8_t *)json_string_value(j);
  size_t n = json_string_length(j), len = 0;
  uint8_t *dst = cp_arena_alloc(a, n + 1);
  if (!dst) return CP_ENOMEM(err, "Avro default");
  for (size_t i = 0; i < n; i++) {
    if (src[i] < 0x80)
      dst[len++] = src[i];
    else if ((src[i] & 0xE0) == 0xC0 && src[i] <= 0xC3 && i + 1 < n) {
      dst[len++] = (uint8_t)(((src[i] & 0x03) << 6) | (src[i + 1] & 0x3F));
      i++;
    } else {
      return bad_default(s, "string has a code point above U+00FF", err);
    }
  }
  dst[len] = 0;
  if (s->type == CP_AVRO_FIXED && len != s->fixed_size)
    return bad_default(s, "string length differs from the fixed size", err);
  out->u.bytes.data = dst;
  out->u.bytes.len = len;
  return 0;
}

static int from_json(const cp_avro_node *s, const json_t *j, cp_arena *a, cp_avro_value *out,
                     int depth, paimon_error *err);

static int record_from_json(const cp_avro_node *s, const json_t *j, cp_arena *a, cp_avro_value *out,
                            int depth, paimon_error *err) {
  if (!json_is_object(j)) return bad_default(s, "expected an object", err);
  cp_avro_value *fields = cp_arena_calloc(a, (s->n_fields ? s->n_fields : 1) * sizeof *fields);
  if (!fields) return CP_ENOMEM(err, "Avro default");
  for (size_t i = 0; i < s->n_fields; i++) {
    const cp_avro_field *f = &s->fields[i];
    const json_t *fj = json_object_get(j, f->name);
    if (!fj) fj = f->default_json;
    if (!fj) return bad_default(s, "a field has neither a value nor a default", err);
    int rc = from_json(f->type, fj, a, &fields[i], depth + 1, err);
    if (rc) {
      paimon_error_prefix(err, "field %s", f->name);
      return rc;
    }
  }
  out->u.record.fields = fields;
  out->u.record.count = s->n_fields;
  return 0;
}

static int list_from_json(const cp_avro_node *s, const json_t *j, cp_arena *a, cp_avro_value *out,
                          int depth, paimon_error *err) {
  bool is_map = s->type == CP_AVRO_MAP;
  if (is_map ? !json_is_object(j) : !json_is_array(j))
    return bad_default(s, is_map ? "expected an object" : "expected an array", err);
  size_t n = is_map ? json_object_size(j) : json_array_size(j);
  size_t elem = is_map ? sizeof(cp_avro_map_entry) : sizeof(cp_avro_value);
  void *elems = cp_arena_calloc(a, (n ? n : 1) * elem);
  if (!elems) return CP_ENOMEM(err, "Avro default");
  if (is_map) {
    cp_avro_map_entry *e = elems;
    const char *key;
    json_t *val;
    json_object_foreach((json_t *)j, key, val) {
      e->key_len = strlen(key);
      if (!(e->key = cp_arena_strndup(a, key, e->key_len))) return CP_ENOMEM(err, "Avro default");
      CP_RETURN_IF_ERROR(from_json(s->items, val, a, &e->value, depth + 1, err));
      e++;
    }
    out->u.map.entries = elems;
    out->u.map.count = n;
  } else {
    cp_avro_value *items = elems;
    for (size_t i = 0; i < n; i++)
      CP_RETURN_IF_ERROR(from_json(s->items, json_array_get(j, i), a, &items[i], depth + 1, err));
    out->u.array.items = items;
    out->u.array.count = n;
  }
  return 0;
}

static int union_from_json(const cp_avro_node *s, const json_t *j, cp_arena *a, cp_avro_value *out,
                           int depth, paimon_error *err) {
  cp_avro_value *inner = cp_arena_alloc(a, sizeof *inner);
  if (!inner) return CP_ENOMEM(err, "Avro default");
  /* Avro 1.11 ties a union default to the first branch; 1.12 accepts any branch the value fits.
   * Trying them in order gives the 1.11 answer whenever that one is valid. */
  for (size_t i = 0; i < s->n_branches; i++) {
    if (from_json(s->branches[i], j, a, inner, depth + 1, NULL) == 0) {
      out->u.branch.index = i;
      out->u.branch.value = inner;
      return 0;
    }
  }
  return bad_default(s, "no union branch accepts the value", err);
}

static int number_from_json(const cp_avro_node *s, const json_t *j, double *out,
                            paimon_error *err) {
  if (json_is_number(j)) {
    *out = json_number_value(j);
    return 0;
  }
  const char *t = json_is_string(j) ? json_string_value(j) : "";
  if (strcmp(t, "NaN") == 0)
    *out = NAN;
  else if (strcmp(t, "Infinity") == 0)
    *out = INFINITY;
  else if (strcmp(t, "-Infinity") == 0)
    *out = -INFINITY;
  else
    return bad_default(s, "expected a number", err);
  return 0;
}

static int from_json(const cp_avro_node *s, const json_t *j, cp_arena *a, cp_avro_value *out,
                     int depth, paimon_error *err) {
  if (depth > CP_AVRO_JSON_MAX_DEPTH) return bad_default(s, "nested too deeply", err);
  memset(out, 0, sizeof *out);
  out->type = s->type;
  double d = 0;
  switch (s->type) {
  case CP_AVRO_NULL: return json_is_null(j) ? 0 : bad_default(s, "expected null", err);
  case CP_AVRO_BOOLEAN:
    if (!json_is_boolean(j)) return bad_default(s, "expected true or false", err);
    out->u.boolean = json_is_true(j);
    return 0;
  case CP_AVRO_INT:
    if (!json_is_integer(j) || json_integer_value(j) < INT32_MIN ||
        json_integer_value(j) > INT32_MAX)
      return bad_default(s, "expected a 32-bit integer", err);
    out->u.i32 = (int32_t)json_integer_value(j);
    return 0;
  case CP_AVRO_LONG:
    if (!json_is_integer(j)) return bad_default(s, "expected an integer", err);
    out->u.i64 = json_integer_value(j);
    return 0;
  case CP_AVRO_FLOAT:
  case CP_AVRO_DOUBLE:
    CP_RETURN_IF_ERROR(number_from_json(s, j, &d, err));
    if (s->type == CP_AVRO_FLOAT)
      out->u.f32 = (float)d;
    else
      out->u.f64 = d;
    return 0;
  case CP_AVRO_STRING: {
    if (!json_is_string(j)) return bad_default(s, "expected a string", err);
    char *copy = cp_arena_strndup(a, json_string_value(j), json_string_length(j));
    if (!copy) return CP_ENOMEM(err, "Avro default");
    out->u.bytes.data = (const uint8_t *)copy;
    out->u.bytes.len = json_string_length(j);
    return 0;
  }
  case CP_AVRO_BYTES:
  case CP_AVRO_FIXED: return latin1_bytes(s, j, a, out, err);
  case CP_AVRO_ENUM:
    for (size_t i = 0; json_is_string(j) && i < s->n_symbols; i++) {
      if (strcmp(s->symbols[i], json_string_value(j)) == 0) {
        out->u.enum_index = i;
        return 0;
      }
    }
    return bad_default(s, "not one of the enum's symbols", err);
  case CP_AVRO_RECORD: return record_from_json(s, j, a, out, depth, err);
  case CP_AVRO_ARRAY:
  case CP_AVRO_MAP: return list_from_json(s, j, a, out, depth, err);
  case CP_AVRO_UNION: return union_from_json(s, j, a, out, depth, err);
  }
  return bad_default(s, "unknown type", err);
}

int cp_avro_value_from_json(const cp_avro_node *schema, const json_t *json, cp_arena *arena,
                            cp_avro_value *out, paimon_error *err) {
  return from_json(schema, json, arena, out, 0, err);
}

/* ---- values → JSON text ---- */

static int put(cp_buf *out, const char *s, paimon_error *err) {
  return cp_buf_append(out, s, strlen(s), err);
}

/* Appends a JSON string. Text strings pass UTF-8 through; bytes (latin1 = true) map each byte to
 * the code point of the same value and escape everything outside printable ASCII as \u00XX. */
static int put_quoted(cp_buf *out, const uint8_t *s, size_t n, bool latin1, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_buf_reserve(out, n + 2, err));
  cp_buf_push_unchecked(out, '"');
  for (size_t i = 0; i < n; i++) {
    uint8_t c = s[i];
    char esc[8] = {0};
    if (c == '"' || c == '\\')
      snprintf(esc, sizeof esc, "\\%c", c);
    else if (c == '\n')
      strcpy(esc, "\\n");
    else if (c == '\t')
      strcpy(esc, "\\t");
    else if (c == '\r')
      strcpy(esc, "\\r");
    else if (c < 0x20 || (latin1 && c >= 0x7F))
      snprintf(esc, sizeof esc, "\\u%04x", c);
    if (esc[0])
      CP_RETURN_IF_ERROR(put(out, esc, err));
    else
      CP_RETURN_IF_ERROR(cp_buf_append(out, &c, 1, err));
  }
  return cp_buf_append(out, "\"", 1, err);
}

/* Shortest %g rendering that reads back to the same value, with ".0" added to integral values so
 * the JSON still says it is a floating-point number. */
static int put_real(cp_buf *out, double v, bool is_float, paimon_error *err) {
  if (isnan(v)) return put(out, "NaN", err);
  if (isinf(v)) return put(out, v > 0 ? "Infinity" : "-Infinity", err);
  char tmp[40];
  for (int prec = 1; prec <= 17; prec++) {
    snprintf(tmp, sizeof tmp, "%.*g", prec, v);
    if (is_float ? strtof(tmp, NULL) == (float)v : strtod(tmp, NULL) == v) break;
  }
  if (!strpbrk(tmp, ".eE")) strcat(tmp, ".0");
  return put(out, tmp, err);
}

static int to_json(const cp_avro_node *s, const cp_avro_value *v, cp_buf *out, paimon_error *err);

static int list_to_json(const cp_avro_node *s, const cp_avro_value *v, cp_buf *out,
                        paimon_error *err) {
  bool is_map = s->type == CP_AVRO_MAP, is_record = s->type == CP_AVRO_RECORD;
  size_t n = is_record ? v->u.record.count : is_map ? v->u.map.count : v->u.array.count;
  if (is_record && n != s->n_fields)
    return paimon_error_set(err, PAIMON_EINVAL, "record value has %zu fields, schema %s has %zu", n,
                            s->name, s->n_fields);
  CP_RETURN_IF_ERROR(put(out, is_map || is_record ? "{" : "[", err));
  for (size_t i = 0; i < n; i++) {
    if (i) CP_RETURN_IF_ERROR(put(out, ",", err));
    const cp_avro_node *item_schema = s->items;
    const cp_avro_value *item;
    if (is_record) {
      item_schema = s->fields[i].type;
      item = &v->u.record.fields[i];
      const char *name = s->fields[i].name;
      CP_RETURN_IF_ERROR(put_quoted(out, (const uint8_t *)name, strlen(name), false, err));
      CP_RETURN_IF_ERROR(put(out, ":", err));
    } else if (is_map) {
      const cp_avro_map_entry *e = &v->u.map.entries[i];
      item = &e->value;
      CP_RETURN_IF_ERROR(put_quoted(out, (const uint8_t *)e->key, e->key_len, false, err));
      CP_RETURN_IF_ERROR(put(out, ":", err));
    } else {
      item = &v->u.array.items[i];
    }
    CP_RETURN_IF_ERROR(to_json(item_schema, item, out, err));
  }
  return put(out, is_map || is_record ? "}" : "]", err);
}

static int to_json(const cp_avro_node *s, const cp_avro_value *v, cp_buf *out, paimon_error *err) {
  if (v->type != s->type)
    return paimon_error_set(err, PAIMON_EINVAL, "value of type %s where the schema has %s",
                            cp_avro_type_name(v->type), cp_avro_type_name(s->type));
  switch (s->type) {
  case CP_AVRO_NULL: return put(out, "null", err);
  case CP_AVRO_BOOLEAN: return put(out, v->u.boolean ? "true" : "false", err);
  case CP_AVRO_INT: return cp_buf_appendf(out, err, "%" PRId32, v->u.i32);
  case CP_AVRO_LONG: return cp_buf_appendf(out, err, "%" PRId64, v->u.i64);
  case CP_AVRO_FLOAT: return put_real(out, v->u.f32, true, err);
  case CP_AVRO_DOUBLE: return put_real(out, v->u.f64, false, err);
  case CP_AVRO_STRING: return put_quoted(out, v->u.bytes.data, v->u.bytes.len, false, err);
  case CP_AVRO_BYTES:
  case CP_AVRO_FIXED: return put_quoted(out, v->u.bytes.data, v->u.bytes.len, true, err);
  case CP_AVRO_ENUM: {
    if (v->u.enum_index >= s->n_symbols)
      return paimon_error_set(err, PAIMON_EINVAL, "enum index out of range");
    const char *sym = s->symbols[v->u.enum_index];
    return put_quoted(out, (const uint8_t *)sym, strlen(sym), false, err);
  }
  case CP_AVRO_UNION:
    if (v->u.branch.index >= s->n_branches)
      return paimon_error_set(err, PAIMON_EINVAL, "union branch out of range");
    return to_json(s->branches[v->u.branch.index], v->u.branch.value, out, err);
  case CP_AVRO_RECORD:
  case CP_AVRO_ARRAY:
  case CP_AVRO_MAP: return list_to_json(s, v, out, err);
  }
  return paimon_error_set(err, PAIMON_EINVAL, "unknown Avro type");
}

int cp_avro_value_to_json(const cp_avro_node *schema, const cp_avro_value *v, cp_buf *out,
                          paimon_error *err) {
  return to_json(schema, v, out, err);
}
