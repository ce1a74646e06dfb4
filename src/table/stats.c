/* File value statistics in Java's collectors and dense store (stats.h; spec/format.md §5.6,
 * Java TruncateSimpleColStatsCollector / StatsCollectorFactories). */
#include "table/stats.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/status.h"
#include "meta/binary_row.h"

typedef enum { MODE_NONE, MODE_COUNTS, MODE_FULL, MODE_TRUNCATE } stats_mode;

static int parse_mode(const char *text, const char *key, stats_mode *mode, int *length,
                      paimon_error *err) {
  if (strcasecmp(text, "none") == 0)
    *mode = MODE_NONE;
  else if (strcasecmp(text, "counts") == 0)
    *mode = MODE_COUNTS;
  else if (strcasecmp(text, "full") == 0)
    *mode = MODE_FULL;
  else if (strncasecmp(text, "truncate(", 9) == 0) {
    char *end;
    long n = strtol(text + 9, &end, 10);
    if (n <= 0 || strcmp(end, ")") != 0)
      return paimon_error_set(err, PAIMON_EINVAL, "table option '%s' = '%s': bad truncate length",
                              key, text);
    *mode = MODE_TRUNCATE;
    *length = (int)n;
  } else
    return paimon_error_set(err, PAIMON_EINVAL,
                            "table option '%s' = '%s' is not one of none, counts, full, "
                            "truncate(N)",
                            key, text);
  return PAIMON_OK;
}

/* Byte length of the first `n` code points of UTF-8 `s`. */
static size_t utf8_prefix(const uint8_t *s, size_t len, int n) {
  size_t i = 0;
  for (int k = 0; k < n && i < len; k++) {
    i++;
    while (i < len && (s[i] & 0xC0) == 0x80) i++;
  }
  return i;
}

static size_t utf8_encode(uint32_t cp, uint8_t *out) {
  if (cp < 0x80) return out[0] = (uint8_t)cp, 1;
  if (cp < 0x800)
    return out[0] = (uint8_t)(0xC0 | cp >> 6), out[1] = (uint8_t)(0x80 | (cp & 0x3F)), 2;
  if (cp < 0x10000)
    return out[0] = (uint8_t)(0xE0 | cp >> 12), out[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3F)),
           out[2] = (uint8_t)(0x80 | (cp & 0x3F)), 3;
  return out[0] = (uint8_t)(0xF0 | cp >> 18), out[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3F)),
         out[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3F)), out[3] = (uint8_t)(0x80 | (cp & 0x3F)), 4;
}

static uint32_t utf8_decode(const uint8_t *s, size_t n) {
  if (n == 1) return s[0];
  uint32_t cp = s[0] & (0xFF >> (n + 1));
  for (size_t i = 1; i < n; i++) cp = cp << 6 | (s[i] & 0x3F);
  return cp;
}

/* truncateMax for strings: the truncated prefix with its last incrementable code point + 1;
 * false when none can be incremented (then Java drops min and max). */
static bool truncate_string_max(cp_datum *d, int length, cp_arena *a) {
  const uint8_t *s = d->v.bytes.data;
  size_t cut = utf8_prefix(s, d->v.bytes.len, length);
  if (cut == d->v.bytes.len) return true;
  size_t starts[64], n = 0;
  for (size_t i = 0; i < cut && n < 64; n++) {
    starts[n] = i;
    i++;
    while (i < cut && (s[i] & 0xC0) == 0x80) i++;
  }
  for (size_t k = n; k-- > 0;) {
    size_t end = k + 1 < n ? starts[k + 1] : cut;
    uint32_t next = utf8_decode(s + starts[k], end - starts[k]) + 1;
    if (next >= 0xD800 && next <= 0xDFFF) next = 0xE000;
    if (next > 0x10FFFF) continue;
    uint8_t *out = cp_arena_alloc(a, starts[k] + 4);
    if (!out) return false;
    memcpy(out, s, starts[k]);
    d->v.bytes.len = starts[k] + utf8_encode(next, out + starts[k]);
    d->v.bytes.data = out;
    return true;
  }
  return false;
}

static bool truncate_bytes_max(cp_datum *d, int length, cp_arena *a) {
  if (d->v.bytes.len <= (size_t)length) return true;
  for (int i = length - 1; i >= 0; i--)
    if (d->v.bytes.data[i] != 0xFF) {
      uint8_t *out = cp_arena_alloc(a, (size_t)i + 1);
      if (!out) return false;
      memcpy(out, d->v.bytes.data, (size_t)i + 1);
      out[i]++;
      d->v.bytes.data = out;
      d->v.bytes.len = (size_t)i + 1;
      return true;
    }
  return false;
}

/* TruncateSimpleColStatsCollector.convert on one column's min/max. */
static void truncate(const cp_type *t, cp_datum *min, cp_datum *max, int length, cp_arena *a) {
  if (min->is_null || max->is_null) return;
  bool ok = true;
  if (t->kind == CP_TYPE_CHAR || t->kind == CP_TYPE_VARCHAR) {
    min->v.bytes.len = utf8_prefix(min->v.bytes.data, min->v.bytes.len, length);
    ok = truncate_string_max(max, length, a);
  } else if (t->kind == CP_TYPE_BINARY || t->kind == CP_TYPE_VARBINARY) {
    if (min->v.bytes.len > (size_t)length) min->v.bytes.len = (size_t)length;
    ok = truncate_bytes_max(max, length, a);
  }
  if (!ok) *min = *max = cp_datum_null();
}

static int to_bytes(const cp_type *const *types, const cp_datum *vals, size_t n, cp_arena *a,
                    cp_bytes *out, paimon_error *err) {
  cp_buf b = CP_BUF_INIT;
  int rc = cp_binary_row_write(types, vals, n, &b, err);
  uint8_t *p = rc ? NULL : cp_arena_alloc(a, b.len);
  if (!rc && !p) rc = CP_ENOMEM(err, "stats");
  if (!rc) {
    memcpy(p, b.data, b.len);
    *out = (cp_bytes){p, b.len};
  }
  cp_buf_free(&b);
  return rc;
}

int cp_build_value_stats(const cp_options *options, const cp_type *row,
                         const cp_pq_column_stats *cols, cp_arena *a, cp_data_file_meta *meta,
                         paimon_error *err) {
  size_t n = row->n_fields, k = 0;
  const char *dflt = cp_options_get(options, CP_OPT_STATS_MODE);
  stats_mode base_mode = MODE_TRUNCATE;
  int base_len = 16;
  if (dflt) CP_RETURN_IF_ERROR(parse_mode(dflt, CP_OPT_STATS_MODE, &base_mode, &base_len, err));
  const cp_type **types = cp_arena_alloc(a, (n + 1) * sizeof *types);
  cp_datum *min = cp_arena_alloc(a, (n + 1) * sizeof *min);
  cp_datum *max = cp_arena_alloc(a, (n + 1) * sizeof *max);
  int64_t *nulls = cp_arena_alloc(a, (n + 1) * sizeof *nulls);
  bool *known = cp_arena_alloc(a, n + 1);
  const char **names = cp_arena_alloc(a, (n + 1) * sizeof *names);
  if (!types || !min || !max || !nulls || !known || !names) return CP_ENOMEM(err, "stats");
  for (size_t i = 0; i < n; i++) {
    const cp_field *f = &row->fields[i];
    stats_mode mode = base_mode;
    int len = base_len;
    char key[512];
    snprintf(key, sizeof key, "fields.%s.stats-mode", f->name);
    const char *per = cp_options_get(options, key);
    if (per) CP_RETURN_IF_ERROR(parse_mode(per, key, &mode, &len, err));
    if (mode == MODE_NONE) continue;
    types[k] = f->type;
    names[k] = f->name;
    nulls[k] = cols[i].null_count;
    known[k] = true;
    min[k] = mode == MODE_COUNTS ? cp_datum_null() : cols[i].min;
    max[k] = mode == MODE_COUNTS ? cp_datum_null() : cols[i].max;
    if (mode == MODE_TRUNCATE) truncate(f->type, &min[k], &max[k], len, a);
    k++;
  }
  cp_simple_stats *s = &meta->value_stats;
  memset(s, 0, sizeof *s);
  CP_RETURN_IF_ERROR(to_bytes(types, min, k, a, &s->min_values, err));
  CP_RETURN_IF_ERROR(to_bytes(types, max, k, a, &s->max_values, err));
  s->null_counts = nulls;
  s->null_count_known = known;
  s->n_null_counts = k;
  /* Dense store: null = every column; otherwise the covered columns ([] when none). */
  meta->has_value_stats_cols = k != n;
  meta->value_stats_cols.items = names;
  meta->value_stats_cols.n = k != n ? k : 0;
  return PAIMON_OK;
}
