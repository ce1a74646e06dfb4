/*
 * The Spark show() table (print.h): cell text as Spark's ToPrettyString produces it, and the table
 * layout of Dataset.showString / getRows (sql/core Dataset.scala): meta-characters escaped, cells
 * truncated by UTF-16 length, widths by Utils.stringHalfWidth, minimum width 3, right-aligned when
 * truncating and left-aligned otherwise, "only showing top N rows" when rows were left out.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arrow/print.h"
#include "arrow/schema.h"
#include "arrow/stream.h"
#include "base/status.h"
#include "base/time.h"

/* ---- cell text ------------------------------------------------------------------------------ */

static int append_hex(cp_buf *out, const uint8_t *p, int64_t n, paimon_error *err) {
  static const char hex[] = "0123456789ABCDEF";
  CP_RETURN_IF_ERROR(cp_buf_reserve(out, (size_t)n * 3 + 2, err));
  cp_buf_push_unchecked(out, '[');
  for (int64_t k = 0; k < n; k++) {
    if (k) cp_buf_push_unchecked(out, ' ');
    cp_buf_push_unchecked(out, (uint8_t)hex[p[k] >> 4]);
    cp_buf_push_unchecked(out, (uint8_t)hex[p[k] & 15]);
  }
  cp_buf_push_unchecked(out, ']');
  return PAIMON_OK;
}

/* Dates, times and timestamps in Spark's text form (fractions trimmed); `value` is the raw number.
 */
static int append_temporal(cp_buf *out, const cp_arrow_type_info *t, int64_t value,
                           paimon_error *err) {
  char text[CP_TIMESTAMP_STR_MAX];
  size_t n;
  if (t->id == CP_ARROW_DATE32) {
    n = cp_format_date(value, text);
  } else if (t->id == CP_ARROW_TIMESTAMP) {
    n = cp_format_timestamp(value, t->unit, CP_FRAC_TRIM, text);
  } else if (cp_format_time_of_day(value, t->unit, CP_FRAC_TRIM, text, NULL) == 0) {
    n = strlen(text);
  } else {
    /* Not a time of day; show the number rather than fail the whole table. */
    return cp_buf_appendf(out, err, "%lld", (long long)value);
  }
  return cp_buf_append(out, text, n, err);
}

static int value_text(cp_buf *out, const cp_array_view *v, int64_t i, const char *null_text,
                      paimon_error *err);

static int append_list_text(cp_buf *out, const cp_array_view *v, int64_t i, const char *null_text,
                            paimon_error *err) {
  int64_t s, e;
  cp_view_list_range(v, i, &s, &e);
  CP_RETURN_IF_ERROR(cp_buf_append(out, "[", 1, err));
  for (int64_t k = s; k < e; k++) {
    if (k > s) CP_RETURN_IF_ERROR(cp_buf_append(out, ", ", 2, err));
    CP_RETURN_IF_ERROR(value_text(out, &v->children[0], k, null_text, err));
  }
  return cp_buf_append(out, "]", 1, err);
}

static int append_map_text(cp_buf *out, const cp_array_view *v, int64_t i, const char *null_text,
                           paimon_error *err) {
  int64_t s, e;
  cp_view_list_range(v, i, &s, &e);
  CP_RETURN_IF_ERROR(cp_buf_append(out, "{", 1, err));
  for (int64_t k = s; k < e; k++) {
    if (k > s) CP_RETURN_IF_ERROR(cp_buf_append(out, ", ", 2, err));
    CP_RETURN_IF_ERROR(value_text(out, cp_view_map_keys(v), k, null_text, err));
    CP_RETURN_IF_ERROR(cp_buf_append(out, " -> ", 4, err));
    CP_RETURN_IF_ERROR(value_text(out, cp_view_map_values(v), k, null_text, err));
  }
  return cp_buf_append(out, "}", 1, err);
}

int cp_print_value(cp_buf *out, const cp_array_view *v, int64_t i, paimon_error *err) {
  return value_text(out, v, i, "NULL", err);
}

int cp_print_value_cast(cp_buf *out, const cp_array_view *v, int64_t i, paimon_error *err) {
  return value_text(out, v, i, "null", err);
}

static int value_text(cp_buf *out, const cp_array_view *v, int64_t i, const char *null_text,
                      paimon_error *err) {
  if (cp_view_is_null(v, i)) return cp_buf_append(out, null_text, strlen(null_text), err);
  const cp_arrow_type_info *t = &v->type;
  int64_t len;
  const uint8_t *p;
  switch (t->id) {
  case CP_ARROW_BOOL:
    return cp_view_get_bool(v, i) ? cp_buf_append(out, "true", 4, err)
                                  : cp_buf_append(out, "false", 5, err);
  case CP_ARROW_UINT64:
    return cp_buf_appendf(out, err, "%llu", (unsigned long long)cp_view_get_uint64(v, i));
  case CP_ARROW_INT8:
  case CP_ARROW_UINT8:
  case CP_ARROW_INT16:
  case CP_ARROW_UINT16:
  case CP_ARROW_INT32:
  case CP_ARROW_UINT32:
  case CP_ARROW_INT64: return cp_buf_appendf(out, err, "%lld", (long long)cp_view_get_int64(v, i));
  case CP_ARROW_HALF_FLOAT:
  case CP_ARROW_FLOAT: return cp_format_float_java(out, (float)cp_view_get_double(v, i), err);
  case CP_ARROW_DOUBLE: return cp_format_double_java(out, cp_view_get_double(v, i), err);
  case CP_ARROW_DECIMAL128:
    return cp_format_decimal128(out, cp_view_get_decimal128(v, i), t->scale, err);
  case CP_ARROW_STRING:
  case CP_ARROW_LARGE_STRING:
    p = cp_view_get_bytes(v, i, &len);
    return cp_buf_append(out, p, (size_t)len, err);
  case CP_ARROW_BINARY:
  case CP_ARROW_LARGE_BINARY:
  case CP_ARROW_FIXED_SIZE_BINARY:
    p = cp_view_get_bytes(v, i, &len);
    return append_hex(out, p, len, err);
  case CP_ARROW_DATE32:
  case CP_ARROW_TIME32:
  case CP_ARROW_TIME64:
  case CP_ARROW_TIMESTAMP: return append_temporal(out, t, cp_view_get_int64(v, i), err);
  case CP_ARROW_LIST:
  case CP_ARROW_LARGE_LIST:
  case CP_ARROW_FIXED_SIZE_LIST: return append_list_text(out, v, i, null_text, err);
  case CP_ARROW_MAP: return append_map_text(out, v, i, null_text, err);
  case CP_ARROW_STRUCT:
    CP_RETURN_IF_ERROR(cp_buf_append(out, "{", 1, err));
    for (int64_t k = 0; k < v->n_children; k++) {
      if (k) CP_RETURN_IF_ERROR(cp_buf_append(out, ", ", 2, err));
      CP_RETURN_IF_ERROR(value_text(out, &v->children[k], i, null_text, err));
    }
    return cp_buf_append(out, "}", 1, err);
  default: return cp_buf_append(out, null_text, strlen(null_text), err);
  }
}

/* ---- cells: escaping, UTF-16 length, half widths, truncation ------------------------------- */

/* Decodes the UTF-8 sequence at p (at most `left` bytes): returns its byte length and the code
 * point; an invalid byte counts as one character (Java decodes it to U+FFFD). */
static int decode_utf8(const uint8_t *p, size_t left, uint32_t *cp) {
  uint8_t c = p[0];
  int n = c < 0x80 ? 1 : c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
  if (n == 0 || (size_t)n > left || !cp_utf8_valid(p, n, NULL)) {
    *cp = 0xfffd;
    return 1;
  }
  uint32_t v = n == 1 ? c : c & (0x7f >> n);
  for (int k = 1; k < n; k++) v = (v << 6) | (p[k] & 0x3f);
  *cp = v;
  return n;
}

/* The East Asian full-width ranges of Spark's Utils.fullWidthRegex (BMP only). */
static bool is_full_width(uint32_t c) {
  return (c >= 0x1100 && c <= 0x115f) || (c >= 0x2e80 && c <= 0xa4cf) ||
         (c >= 0xac00 && c <= 0xd7a3) || (c >= 0xf900 && c <= 0xfaff) ||
         (c >= 0xfe10 && c <= 0xfe19) || (c >= 0xfe30 && c <= 0xfe6f) ||
         (c >= 0xff00 && c <= 0xff60) || (c >= 0xffe0 && c <= 0xffe6);
}

typedef struct cell {
  size_t start, len;  /* bytes in the table's text buffer */
  int64_t half_width; /* display width per Spark */
} cell;

/* Appends `text` to `buf` as one finished cell: control characters escaped as SchemaUtils.
 * escapeMetaCharacters does, then cut to `truncate` UTF-16 units with "..." when longer. */
static int make_cell(cp_buf *buf, const uint8_t *text, size_t n, int32_t truncate, cell *c,
                     paimon_error *err) {
  cp_buf esc = CP_BUF_INIT;
  int rc = cp_buf_reserve(&esc, n + 1, err);
  for (size_t k = 0; rc == 0 && k < n; k++) {
    static const char from[] = "\n\r\t\f\b\v\a", to[] = "nrtfbva";
    const char *hit = text[k] ? strchr(from, text[k]) : NULL;
    if (hit) {
      char pair[2] = {'\\', to[hit - from]};
      rc = cp_buf_append(&esc, pair, 2, err);
    } else {
      rc = cp_buf_append(&esc, &text[k], 1, err);
    }
  }
  /* UTF-16 length, and the byte position where `keep` units end. */
  int64_t units = 0;
  for (size_t k = 0; rc == 0 && k < esc.len;) {
    uint32_t cp;
    k += (size_t)decode_utf8(esc.data + k, esc.len - k, &cp);
    units += cp >= 0x10000 ? 2 : 1;
  }
  size_t keep_bytes = esc.len;
  bool ellipsis = false;
  if (truncate > 0 && units > truncate) {
    int64_t keep = truncate < 4 ? truncate : truncate - 3, u = 0;
    ellipsis = truncate >= 4;
    size_t k = 0;
    while (k < esc.len) {
      uint32_t cp;
      int step = decode_utf8(esc.data + k, esc.len - k, &cp);
      int w = cp >= 0x10000 ? 2 : 1;
      if (u + w > keep) break; /* never split a surrogate pair */
      u += w;
      k += (size_t)step;
    }
    keep_bytes = k;
  }
  c->start = buf->len;
  if (rc == 0) rc = cp_buf_append(buf, esc.data, keep_bytes, err);
  if (rc == 0 && ellipsis) rc = cp_buf_append(buf, "...", 3, err);
  c->len = buf->len - c->start;
  c->half_width = 0;
  for (size_t k = c->start; rc == 0 && k < buf->len;) {
    uint32_t cp;
    k += (size_t)decode_utf8(buf->data + k, buf->len - k, &cp);
    c->half_width += (cp >= 0x10000 ? 2 : 1) + is_full_width(cp);
  }
  cp_buf_free(&esc);
  return rc;
}

/* ---- the table ------------------------------------------------------------------------------ */

typedef struct table {
  int64_t n_cols;
  int64_t n_rows; /* data rows collected (header not counted) */
  int64_t limit;  /* rows to show; INT64_MAX for all */
  bool more;      /* rows beyond `limit` exist */
  int32_t truncate;
  cp_buf text;
  cell *cells; /* (1 + n_rows) * n_cols */
  int64_t cap;
  cp_buf scratch;
} table;

static int table_init(table *t, const struct ArrowSchema *schema, const cp_print_options *opts,
                      paimon_error *err) {
  memset(t, 0, sizeof *t);
  cp_print_options defaults = CP_PRINT_OPTIONS_DEFAULT;
  if (!opts) opts = &defaults;
  t->limit = opts->max_rows < 0 ? INT64_MAX : opts->max_rows;
  t->truncate = opts->truncate < 0 ? 0 : opts->truncate;
  if (!schema->format || strcmp(schema->format, "+s") != 0)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "a record batch must be a struct array (+s), "
                            "not '%s'",
                            schema->format ? schema->format : "(null)");
  t->n_cols = schema->n_children;
  t->cap = t->n_cols > 0 ? 64 * t->n_cols : 1;
  t->cells = calloc((size_t)t->cap, sizeof *t->cells);
  if (!t->cells) return CP_ENOMEM(err, "table cells");
  for (int64_t c = 0; c < t->n_cols; c++) {
    const char *name = schema->children[c]->name ? schema->children[c]->name : "";
    CP_RETURN_IF_ERROR(
        make_cell(&t->text, (const uint8_t *)name, strlen(name), t->truncate, &t->cells[c], err));
  }
  return PAIMON_OK;
}

static void table_free(table *t) {
  cp_buf_free(&t->text);
  cp_buf_free(&t->scratch);
  free(t->cells);
}

/* Adds the rows of one batch view until the table holds `limit` rows (then notes whether more
 * exist). */
static int table_add_batch(table *t, const cp_array_view *batch, paimon_error *err) {
  for (int64_t r = 0; r < batch->length; r++) {
    if (t->n_rows >= t->limit) {
      t->more = true;
      return PAIMON_OK;
    }
    int64_t need = (t->n_rows + 2) * t->n_cols;
    if (need > t->cap) {
      int64_t cap = t->cap * 2 > need ? t->cap * 2 : need;
      cell *c = realloc(t->cells, (size_t)cap * sizeof *c);
      if (!c) return CP_ENOMEM(err, "table cells");
      t->cells = c;
      t->cap = cap;
    }
    cell *row = &t->cells[(t->n_rows + 1) * t->n_cols];
    for (int64_t c = 0; c < t->n_cols; c++) {
      cp_buf_clear(&t->scratch);
      CP_RETURN_IF_ERROR(cp_print_value(&t->scratch, &batch->children[c], r, err));
      CP_RETURN_IF_ERROR(
          make_cell(&t->text, t->scratch.data, t->scratch.len, t->truncate, &row[c], err));
    }
    t->n_rows++;
  }
  return PAIMON_OK;
}

static int append_spaces(cp_buf *out, int64_t n, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_buf_reserve(out, (size_t)(n > 0 ? n : 0), err));
  for (int64_t k = 0; k < n; k++) cp_buf_push_unchecked(out, ' ');
  return PAIMON_OK;
}

static int table_render(table *t, cp_buf *out, paimon_error *err) {
  int64_t *width = calloc((size_t)(t->n_cols ? t->n_cols : 1), sizeof *width);
  if (!width) return CP_ENOMEM(err, "table widths");
  for (int64_t c = 0; c < t->n_cols; c++) {
    width[c] = 3;
    for (int64_t r = 0; r <= t->n_rows; r++)
      if (t->cells[r * t->n_cols + c].half_width > width[c])
        width[c] = t->cells[r * t->n_cols + c].half_width;
  }
  int rc = PAIMON_OK;
  cp_buf sep = CP_BUF_INIT;
  rc = cp_buf_append(&sep, "+", 1, err);
  for (int64_t c = 0; rc == 0 && c < t->n_cols; c++) {
    for (int64_t k = 0; rc == 0 && k < width[c]; k++) rc = cp_buf_append(&sep, "-", 1, err);
    if (rc == 0) rc = cp_buf_append(&sep, "+", 1, err);
  }
  if (rc == 0) rc = cp_buf_append(&sep, "\n", 1, err);
  if (rc == 0) rc = cp_buf_append(out, sep.data, sep.len, err);
  for (int64_t r = 0; rc == 0 && r <= t->n_rows; r++) {
    rc = cp_buf_append(out, "|", 1, err);
    for (int64_t c = 0; rc == 0 && c < t->n_cols; c++) {
      const cell *x = &t->cells[r * t->n_cols + c];
      int64_t pad = width[c] - x->half_width;
      if (t->truncate > 0) rc = append_spaces(out, pad, err);
      if (rc == 0) rc = cp_buf_append(out, t->text.data + x->start, x->len, err);
      if (rc == 0 && t->truncate == 0) rc = append_spaces(out, pad, err);
      if (rc == 0) rc = cp_buf_append(out, "|", 1, err);
    }
    if (rc == 0) rc = cp_buf_append(out, "\n", 1, err);
    if (rc == 0 && r == 0) rc = cp_buf_append(out, sep.data, sep.len, err);
  }
  if (rc == 0) rc = cp_buf_append(out, sep.data, sep.len, err);
  if (rc == 0 && t->more)
    rc = cp_buf_appendf(out, err, "only showing top %lld %s\n", (long long)t->limit,
                        t->limit == 1 ? "row" : "rows");
  cp_buf_free(&sep);
  free(width);
  return rc;
}

int cp_print_table(cp_buf *out, const struct ArrowSchema *schema, const struct ArrowArray *batch,
                   const cp_print_options *opts, paimon_error *err) {
  table t;
  cp_array_view v;
  int rc = table_init(&t, schema, opts, err);
  if (rc == 0) {
    rc = cp_array_view_init(&v, schema, batch, err);
    if (rc == 0) {
      rc = table_add_batch(&t, &v, err);
      cp_array_view_reset(&v);
    }
  }
  if (rc == 0) rc = table_render(&t, out, err);
  table_free(&t);
  return rc;
}

int cp_print_table_stream(cp_buf *out, struct ArrowArrayStream *stream,
                          const cp_print_options *opts, paimon_error *err) {
  struct ArrowSchema schema;
  CP_RETURN_IF_ERROR(cp_stream_get_schema(stream, &schema, err));
  table t;
  int rc = table_init(&t, &schema, opts, err);
  while (rc == 0 && !t.more) {
    struct ArrowArray batch;
    rc = cp_stream_next(stream, &batch, err);
    if (rc != 0 || !batch.release) break;
    cp_array_view v;
    rc = cp_array_view_init(&v, &schema, &batch, err);
    if (rc == 0) rc = table_add_batch(&t, &v, err);
    cp_array_view_reset(&v);
    cp_array_release(&batch);
  }
  if (rc == 0) rc = table_render(&t, out, err);
  table_free(&t);
  cp_schema_release(&schema);
  return rc;
}
