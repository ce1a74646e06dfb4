/*
 * CSV (RFC 4180) and JSON-lines (RFC 8259) renderings of record batches (print.h), for `cpaimon`
 * output formats and for piping results into other tools. The choices that neither RFC makes
 * (NULL, binary, decimals, maps with non-string keys) are documented in print.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/ops.h"
#include "arrow/print.h"
#include "arrow/schema.h"
#include "arrow/stream.h"
#include "base/status.h"

static int append_base64(cp_buf *out, const uint8_t *p, int64_t n, paimon_error *err) {
  static const char alphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  CP_RETURN_IF_ERROR(cp_buf_reserve(out, (size_t)((n + 2) / 3 * 4), err));
  int64_t k = 0;
  for (; k + 3 <= n; k += 3) {
    uint32_t w = (uint32_t)p[k] << 16 | (uint32_t)p[k + 1] << 8 | p[k + 2];
    for (int s = 18; s >= 0; s -= 6) cp_buf_push_unchecked(out, (uint8_t)alphabet[(w >> s) & 63]);
  }
  if (k < n) {
    uint32_t w = (uint32_t)p[k] << 16 | (k + 1 < n ? (uint32_t)p[k + 1] << 8 : 0);
    cp_buf_push_unchecked(out, (uint8_t)alphabet[(w >> 18) & 63]);
    cp_buf_push_unchecked(out, (uint8_t)alphabet[(w >> 12) & 63]);
    cp_buf_push_unchecked(out, k + 1 < n ? (uint8_t)alphabet[(w >> 6) & 63] : '=');
    cp_buf_push_unchecked(out, '=');
  }
  return PAIMON_OK;
}

static bool is_binary(cp_arrow_type t) {
  return t == CP_ARROW_BINARY || t == CP_ARROW_LARGE_BINARY || t == CP_ARROW_FIXED_SIZE_BINARY;
}

static bool is_text(cp_arrow_type t) { return t == CP_ARROW_STRING || t == CP_ARROW_LARGE_STRING; }

/* ---- CSV ------------------------------------------------------------------------------------ */

static int append_csv_field(cp_buf *out, const uint8_t *p, size_t n, bool quote_empty,
                            paimon_error *err) {
  bool quote = n == 0 && quote_empty;
  for (size_t k = 0; k < n && !quote; k++)
    quote = p[k] == ',' || p[k] == '"' || p[k] == '\n' || p[k] == '\r';
  if (!quote) return cp_buf_append(out, p, n, err);
  CP_RETURN_IF_ERROR(cp_buf_append(out, "\"", 1, err));
  size_t run = 0;
  for (size_t k = 0; k < n; k++) {
    if (p[k] == '"') {
      CP_RETURN_IF_ERROR(cp_buf_append(out, p + run, k + 1 - run, err));
      CP_RETURN_IF_ERROR(cp_buf_append(out, "\"", 1, err));
      run = k + 1;
    }
  }
  CP_RETURN_IF_ERROR(cp_buf_append(out, p + run, n - run, err));
  return cp_buf_append(out, "\"", 1, err);
}

static int csv_rows(cp_buf *out, const cp_array_view *batch, cp_buf *scratch, paimon_error *err) {
  for (int64_t r = 0; r < batch->length; r++) {
    for (int64_t c = 0; c < batch->n_children; c++) {
      const cp_array_view *v = &batch->children[c];
      if (c) CP_RETURN_IF_ERROR(cp_buf_append(out, ",", 1, err));
      if (cp_view_is_null(v, r)) continue;
      cp_buf_clear(scratch);
      int64_t len;
      if (is_binary(v->type.id)) {
        const uint8_t *p = cp_view_get_bytes(v, r, &len);
        CP_RETURN_IF_ERROR(append_base64(scratch, p, len, err));
      } else if (is_text(v->type.id)) {
        const uint8_t *p = cp_view_get_bytes(v, r, &len);
        CP_RETURN_IF_ERROR(cp_buf_append(scratch, p, (size_t)len, err));
      } else {
        CP_RETURN_IF_ERROR(cp_print_value(scratch, v, r, err));
      }
      CP_RETURN_IF_ERROR(append_csv_field(out, scratch->data, scratch->len, true, err));
    }
    CP_RETURN_IF_ERROR(cp_buf_append(out, "\n", 1, err));
  }
  return PAIMON_OK;
}

static int csv_header(cp_buf *out, const struct ArrowSchema *schema, paimon_error *err) {
  for (int64_t c = 0; c < schema->n_children; c++) {
    const char *name = schema->children[c]->name ? schema->children[c]->name : "";
    if (c) CP_RETURN_IF_ERROR(cp_buf_append(out, ",", 1, err));
    CP_RETURN_IF_ERROR(append_csv_field(out, (const uint8_t *)name, strlen(name), false, err));
  }
  return cp_buf_append(out, "\n", 1, err);
}

static int require_struct(const struct ArrowSchema *schema, paimon_error *err) {
  if (!schema->format || strcmp(schema->format, "+s") != 0)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "a record batch must be a struct array (+s), not '%s'",
                            schema->format ? schema->format : "(null)");
  return PAIMON_OK;
}

int cp_print_csv(cp_buf *out, const struct ArrowSchema *schema, const struct ArrowArray *batch,
                 bool header, paimon_error *err) {
  CP_RETURN_IF_ERROR(require_struct(schema, err));
  cp_array_view v;
  CP_RETURN_IF_ERROR(cp_array_view_init(&v, schema, batch, err));
  cp_buf scratch = CP_BUF_INIT;
  int rc = header ? csv_header(out, schema, err) : 0;
  if (rc == 0) rc = csv_rows(out, &v, &scratch, err);
  cp_buf_free(&scratch);
  cp_array_view_reset(&v);
  return rc;
}

/* ---- JSON ----------------------------------------------------------------------------------- */

static int append_json_string(cp_buf *out, const uint8_t *p, int64_t n, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_buf_append(out, "\"", 1, err));
  int64_t k = 0;
  while (k < n) {
    uint8_t c = p[k];
    if (c >= 0x80) {
      int64_t bad;
      int64_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
      if (len > n - k || !cp_utf8_valid(p + k, len, &bad)) {
        CP_RETURN_IF_ERROR(cp_buf_append(out, "\xef\xbf\xbd", 3, err)); /* U+FFFD */
        k++;
      } else {
        CP_RETURN_IF_ERROR(cp_buf_append(out, p + k, (size_t)len, err));
        k += len;
      }
      continue;
    }
    const char *esc = NULL;
    char u[8];
    switch (c) {
    case '"': esc = "\\\""; break;
    case '\\': esc = "\\\\"; break;
    case '\n': esc = "\\n"; break;
    case '\r': esc = "\\r"; break;
    case '\t': esc = "\\t"; break;
    case '\b': esc = "\\b"; break;
    case '\f': esc = "\\f"; break;
    default:
      if (c < 0x20) {
        snprintf(u, sizeof u, "\\u%04x", c);
        esc = u;
      }
    }
    if (esc)
      CP_RETURN_IF_ERROR(cp_buf_append(out, esc, strlen(esc), err));
    else
      CP_RETURN_IF_ERROR(cp_buf_append(out, &c, 1, err));
    k++;
  }
  return cp_buf_append(out, "\"", 1, err);
}

static int json_value(cp_buf *out, const cp_array_view *v, int64_t i, paimon_error *err);

/* A map becomes an object keyed by the keys' text when no two keys are equal, else an array of
 * {"key": .., "value": ..} objects (JSON objects cannot repeat a key meaningfully). */
static int json_map(cp_buf *out, const cp_array_view *v, int64_t i, paimon_error *err) {
  const cp_array_view *keys = cp_view_map_keys(v), *vals = cp_view_map_values(v);
  int64_t s, e;
  cp_view_list_range(v, i, &s, &e);
  bool unique = true;
  for (int64_t a = s; a < e && unique; a++)
    for (int64_t b = a + 1; b < e && unique; b++) unique = !cp_rows_equal(keys, a, keys, b);
  CP_RETURN_IF_ERROR(cp_buf_append(out, unique ? "{" : "[", 1, err));
  cp_buf key = CP_BUF_INIT;
  int rc = PAIMON_OK;
  for (int64_t k = s; rc == 0 && k < e; k++) {
    if (k > s) rc = cp_buf_append(out, ",", 1, err);
    if (rc == 0 && unique) {
      cp_buf_clear(&key);
      int64_t len;
      if (is_text(keys->type.id) && !cp_view_is_null(keys, k)) {
        const uint8_t *p = cp_view_get_bytes(keys, k, &len);
        rc = append_json_string(out, p, len, err);
      } else {
        rc = cp_print_value(&key, keys, k, err);
        if (rc == 0) rc = append_json_string(out, key.data, (int64_t)key.len, err);
      }
      if (rc == 0) rc = cp_buf_append(out, ":", 1, err);
    } else if (rc == 0) {
      rc = cp_buf_append(out, "{\"key\":", 7, err);
      if (rc == 0) rc = json_value(out, keys, k, err);
      if (rc == 0) rc = cp_buf_append(out, ",\"value\":", 9, err);
    }
    if (rc == 0) rc = json_value(out, vals, k, err);
    if (rc == 0 && !unique) rc = cp_buf_append(out, "}", 1, err);
  }
  cp_buf_free(&key);
  CP_RETURN_IF_ERROR(rc);
  return cp_buf_append(out, unique ? "}" : "]", 1, err);
}

static int json_object(cp_buf *out, const cp_array_view *v, int64_t i, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_buf_append(out, "{", 1, err));
  for (int64_t c = 0; c < v->n_children; c++) {
    if (c) CP_RETURN_IF_ERROR(cp_buf_append(out, ",", 1, err));
    const char *name = v->children[c].name;
    CP_RETURN_IF_ERROR(append_json_string(out, (const uint8_t *)name, (int64_t)strlen(name), err));
    CP_RETURN_IF_ERROR(cp_buf_append(out, ":", 1, err));
    CP_RETURN_IF_ERROR(json_value(out, &v->children[c], i, err));
  }
  return cp_buf_append(out, "}", 1, err);
}

static int json_value(cp_buf *out, const cp_array_view *v, int64_t i, paimon_error *err) {
  if (cp_view_is_null(v, i)) return cp_buf_append(out, "null", 4, err);
  cp_arrow_type id = v->type.id;
  int64_t len;
  if (is_text(id)) {
    const uint8_t *p = cp_view_get_bytes(v, i, &len);
    return append_json_string(out, p, len, err);
  }
  if (is_binary(id)) {
    const uint8_t *p = cp_view_get_bytes(v, i, &len);
    CP_RETURN_IF_ERROR(cp_buf_append(out, "\"", 1, err));
    CP_RETURN_IF_ERROR(append_base64(out, p, len, err));
    return cp_buf_append(out, "\"", 1, err);
  }
  if (cp_arrow_type_is_floating(id) && !isfinite(cp_view_get_double(v, i))) {
    double d = cp_view_get_double(v, i);
    const char *s = isnan(d) ? "\"NaN\"" : d > 0 ? "\"Infinity\"" : "\"-Infinity\"";
    return cp_buf_append(out, s, strlen(s), err);
  }
  switch (id) {
  case CP_ARROW_DATE32:
  case CP_ARROW_TIME32:
  case CP_ARROW_TIME64:
  case CP_ARROW_TIMESTAMP: {
    cp_buf text = CP_BUF_INIT;
    int rc = cp_print_value(&text, v, i, err);
    if (rc == 0) rc = append_json_string(out, text.data, (int64_t)text.len, err);
    cp_buf_free(&text);
    return rc;
  }
  case CP_ARROW_LIST:
  case CP_ARROW_LARGE_LIST:
  case CP_ARROW_FIXED_SIZE_LIST: {
    int64_t s, e;
    cp_view_list_range(v, i, &s, &e);
    CP_RETURN_IF_ERROR(cp_buf_append(out, "[", 1, err));
    for (int64_t k = s; k < e; k++) {
      if (k > s) CP_RETURN_IF_ERROR(cp_buf_append(out, ",", 1, err));
      CP_RETURN_IF_ERROR(json_value(out, &v->children[0], k, err));
    }
    return cp_buf_append(out, "]", 1, err);
  }
  case CP_ARROW_STRUCT: return json_object(out, v, i, err);
  case CP_ARROW_MAP: return json_map(out, v, i, err);
  default: return cp_print_value(out, v, i, err); /* bool, integers, floats, decimals */
  }
}

int cp_print_jsonl(cp_buf *out, const struct ArrowSchema *schema, const struct ArrowArray *batch,
                   paimon_error *err) {
  CP_RETURN_IF_ERROR(require_struct(schema, err));
  cp_array_view v;
  CP_RETURN_IF_ERROR(cp_array_view_init(&v, schema, batch, err));
  int rc = PAIMON_OK;
  for (int64_t r = 0; rc == 0 && r < v.length; r++) {
    /* A null top-level row still has its columns; print them (the row validity is not data). */
    rc = json_object(out, &v, r, err);
    if (rc == 0) rc = cp_buf_append(out, "\n", 1, err);
  }
  cp_array_view_reset(&v);
  return rc;
}

/* ---- streams -------------------------------------------------------------------------------- */

static int each_batch(cp_buf *out, struct ArrowArrayStream *stream, bool csv, bool header,
                      int64_t limit, paimon_error *err) {
  struct ArrowSchema schema;
  CP_RETURN_IF_ERROR(cp_stream_get_schema(stream, &schema, err));
  int rc = require_struct(&schema, err);
  if (rc == 0 && csv && header) rc = csv_header(out, &schema, err);
  while (rc == 0 && limit != 0) {
    struct ArrowArray batch;
    rc = cp_stream_next(stream, &batch, err);
    if (rc != 0 || !batch.release) break;
    if (limit > 0 && batch.length > limit) rc = cp_array_slice_inplace(&batch, 0, limit, err);
    if (limit > 0) limit -= batch.length;
    if (rc == 0)
      rc = csv ? cp_print_csv(out, &schema, &batch, false, err)
               : cp_print_jsonl(out, &schema, &batch, err);
    cp_array_release(&batch);
  }
  cp_schema_release(&schema);
  return rc;
}

int cp_print_csv_stream(cp_buf *out, struct ArrowArrayStream *stream, bool header, int64_t limit,
                        paimon_error *err) {
  return each_batch(out, stream, true, header, limit, err);
}

int cp_print_jsonl_stream(cp_buf *out, struct ArrowArrayStream *stream, int64_t limit,
                          paimon_error *err) {
  return each_batch(out, stream, false, false, limit, err);
}
