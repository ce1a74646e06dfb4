/*
 * The statistics and key columns of `$files` (Java FilesTable.StatsLazyGetter and
 * SimpleStatsEvolution(s), Paimon 1.4.2 with HEAD's write_cols projection): a file's value
 * statistics (spec/format.md §4.5, §5.6) mapped onto the table's current columns and printed as
 * Java's TreeMap<String, Object>.toString, e.g. "{id=1, name=a, score=null}".
 *
 * The mapping, step by step as Java does it:
 *  1. The file's columns ("data fields"): the current columns when the file was written with the
 *     current schema (and is not a partial file); otherwise the columns of the file's schema, for
 *     a data-evolution partial file only its write_cols (HEAD; 1.4.2 reads such a file's stats
 *     against all columns by position and prints another column's bytes).
 *  2. The stored statistic rows are dense: _VALUE_STATS_COLS names the stored columns (an empty
 *     list: none stored), or null when they are the data fields in order.
 *  3. Each current column takes the data field with its field id (none: a column added after the
 *     file was written, whose values are null and whose null count is the row count).
 *  4. Without that mapping (same columns in the same order) Java prints only as many columns as
 *     the stored row has.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "meta/binary_row.h"
#include "meta/data_file.h"
#include "table/system_table.h"

/* One file's statistics, per data field. */
typedef struct file_stats {
  const cp_field **data; /* the data fields */
  size_t n_data;
  cp_datum *min, *max; /* per data field */
  bool *has_null_count;
  int64_t *null_count;
  int *map;       /* per current column: the data field, or -1; NULL: identity */
  size_t n_shown; /* columns printed */
} file_stats;

static void file_stats_free(file_stats *s) {
  free(s->data);
  free(s->min);
  free(s->max);
  free(s->has_null_count);
  free(s->null_count);
  free(s->map);
}

static ptrdiff_t strings_index(cp_strings list, const char *s) {
  for (size_t i = 0; i < list.n; i++)
    if (strcmp(list.items[i], s) == 0) return (ptrdiff_t)i;
  return -1;
}

/* Step 1. */
static int data_fields(paimon_table *t, const cp_data_file_meta *f, file_stats *s,
                       paimon_error *err) {
  const cp_table_schema *fs = t->schema;
  if (f->schema_id != t->schema->id || f->has_write_cols)
    CP_RETURN_IF_ERROR(cp_table_schema_by_id(t, f->schema_id, &fs, err));
  const cp_type *row = fs->row;
  s->data = malloc((row->n_fields + 1) * sizeof *s->data);
  if (!s->data) return CP_ENOMEM(err, "statistics");
  if (!f->has_write_cols) {
    for (size_t i = 0; i < row->n_fields; i++) s->data[s->n_data++] = &row->fields[i];
    return PAIMON_OK;
  }
  /* RowType.project(write_cols that are columns): write_cols order; _ROW_ID and the like are
   * not columns. */
  for (size_t i = 0; i < f->write_cols.n && s->n_data < row->n_fields; i++) {
    const cp_field *field = cp_row_find_field(row, f->write_cols.items[i]);
    if (field) s->data[s->n_data++] = field;
  }
  return PAIMON_OK;
}

/* Decodes a stored statistics row into the data fields (nulls where nothing is stored). */
static void decode_row(const file_stats *s, const cp_data_file_meta *f, cp_bytes row, cp_datum *out,
                       const cp_type *placeholder) {
  for (size_t k = 0; k < s->n_data; k++) out[k] = cp_datum_null();
  int32_t arity = 0;
  if (!row.data || cp_binary_row_arity(row.data, row.len, &arity, NULL) != 0 || arity <= 0) return;
  const cp_type **types = malloc((size_t)arity * sizeof *types);
  cp_datum *stored = malloc((size_t)arity * sizeof *stored);
  int *slot = malloc((s->n_data + 1) * sizeof *slot);
  bool ok = types && stored && slot;
  for (size_t k = 0; ok && k < s->n_data; k++) {
    ptrdiff_t j = f->has_value_stats_cols ? strings_index(f->value_stats_cols, s->data[k]->name)
                                          : (ptrdiff_t)k;
    slot[k] = j < arity ? (int)j : -1;
  }
  /* Positions no data field reads still need a type to be skipped: a fixed 8-byte one. */
  for (int32_t j = 0; ok && j < arity; j++) types[j] = placeholder;
  for (size_t k = 0; ok && k < s->n_data; k++)
    if (slot[k] >= 0) types[slot[k]] = s->data[k]->type;
  /* Bytes that do not decode as the declared types leave the values null. */
  ok = ok && cp_binary_row_read(row.data, row.len, types, (size_t)arity, stored, NULL) == 0;
  for (size_t k = 0; ok && k < s->n_data; k++)
    if (slot[k] >= 0) out[k] = stored[slot[k]];
  free(types);
  free(stored);
  free(slot);
}

/* Steps 2 and 3 for the null counts and the mapping. */
static int map_fields(paimon_table *t, const cp_data_file_meta *f, file_stats *s,
                      paimon_error *err) {
  const cp_simple_stats *vs = &f->value_stats;
  for (size_t k = 0; k < s->n_data; k++) {
    ptrdiff_t j = f->has_value_stats_cols ? strings_index(f->value_stats_cols, s->data[k]->name)
                                          : (ptrdiff_t)k;
    s->has_null_count[k] = j >= 0 && (size_t)j < vs->n_null_counts && !vs->null_counts_is_null &&
                           vs->null_count_known[j];
    s->null_count[k] = s->has_null_count[k] ? vs->null_counts[j] : 0;
  }
  const cp_type *cur = t->schema->row;
  bool same = f->schema_id == t->schema->id && !f->has_write_cols;
  int *map = same ? NULL : malloc((cur->n_fields + 1) * sizeof *map);
  if (!same && !map) return CP_ENOMEM(err, "statistics");
  bool identity = true;
  for (size_t i = 0; map && i < cur->n_fields; i++) {
    map[i] = -1;
    for (size_t k = 0; k < s->n_data; k++)
      if (s->data[k]->id == cur->fields[i].id) map[i] = (int)k;
    identity &= map[i] == (int)i;
  }
  if (map && identity) {
    free(map);
    map = NULL;
  }
  s->map = map;
  /* What Java's min row reports as its field count, capped by the current columns (step 4). */
  int32_t arity = 0;
  if (!f->has_value_stats_cols && vs->min_values.data)
    cp_binary_row_arity(vs->min_values.data, vs->min_values.len, &arity, NULL);
  size_t width = map || f->has_value_stats_cols ? s->n_data : (size_t)(arity > 0 ? arity : 0);
  if (map) width = cur->n_fields;
  s->n_shown = width < cur->n_fields ? width : cur->n_fields;
  return PAIMON_OK;
}

static int load_stats(paimon_table *t, const cp_data_file_meta *f, file_stats *s,
                      paimon_error *err) {
  memset(s, 0, sizeof *s);
  CP_RETURN_IF_ERROR(data_fields(t, f, s, err));
  size_t n = s->n_data + 1;
  s->min = malloc(n * sizeof *s->min);
  s->max = malloc(n * sizeof *s->max);
  s->has_null_count = malloc(n * sizeof *s->has_null_count);
  s->null_count = malloc(n * sizeof *s->null_count);
  if (!s->min || !s->max || !s->has_null_count || !s->null_count)
    return CP_ENOMEM(err, "statistics");
  cp_type *placeholder = NULL;
  CP_RETURN_IF_ERROR(cp_type_new(&placeholder, CP_TYPE_BIGINT, true, err));
  /* An empty _VALUE_STATS_COLS stores nothing (SimpleStatsEvolution's emptyValues). */
  bool none = f->has_value_stats_cols && f->value_stats_cols.n == 0;
  cp_bytes nothing = {NULL, 0};
  decode_row(s, f, none ? nothing : f->value_stats.min_values, s->min, placeholder);
  decode_row(s, f, none ? nothing : f->value_stats.max_values, s->max, placeholder);
  cp_type_free(placeholder);
  return map_fields(t, f, s, err);
}

/* Column indices 0..n-1 in the order of their names (Java TreeMap over String keys). */
static int name_order(const cp_type *row, size_t n, size_t **out, paimon_error *err) {
  size_t *order = malloc((n ? n : 1) * sizeof *order);
  if (!order) return CP_ENOMEM(err, "statistics");
  for (size_t i = 0; i < n; i++) order[i] = i;
  /* Names are unique, so an insertion sort by strcmp is stable and needs no global state. */
  for (size_t i = 1; i < n; i++)
    for (size_t j = i;
         j > 0 && strcmp(row->fields[order[j - 1]].name, row->fields[order[j]].name) > 0; j--) {
      size_t tmp = order[j];
      order[j] = order[j - 1];
      order[j - 1] = tmp;
    }
  *out = order;
  return PAIMON_OK;
}

static int append_entry(cp_buf *out, bool first, const char *name, paimon_error *err) {
  if (!first) CP_RETURN_IF_ERROR(cp_buf_append(out, ", ", 2, err));
  CP_RETURN_IF_ERROR(cp_buf_append(out, name, strlen(name), err));
  return cp_buf_append(out, "=", 1, err);
}

static int append_value(cp_buf *out, const cp_type *type, const cp_datum *d, paimon_error *err) {
  if (d->is_null) return cp_buf_append(out, "null", 4, err);
  return cp_java_value_string(type, d, out, err);
}

/* The three maps of one column `i` of the current schema. */
static int column_text(const file_stats *s, const cp_data_file_meta *f, const cp_type *cur,
                       size_t i, bool first, cp_buf *nulls, cp_buf *mins, cp_buf *maxs,
                       paimon_error *err) {
  const char *name = cur->fields[i].name;
  int k = s->map ? s->map[i] : (int)i;
  CP_RETURN_IF_ERROR(append_entry(nulls, first, name, err));
  CP_RETURN_IF_ERROR(append_entry(mins, first, name, err));
  CP_RETURN_IF_ERROR(append_entry(maxs, first, name, err));
  if (k < 0 || (size_t)k >= s->n_data) {
    /* A column the file does not have: no values, and every row null (NullCountsEvoArray). */
    CP_RETURN_IF_ERROR(k < 0 ? cp_buf_appendf(nulls, err, "%" PRId64, f->row_count)
                             : cp_buf_append(nulls, "null", 4, err));
    CP_RETURN_IF_ERROR(cp_buf_append(mins, "null", 4, err));
    return cp_buf_append(maxs, "null", 4, err);
  }
  CP_RETURN_IF_ERROR(s->has_null_count[k] ? cp_buf_appendf(nulls, err, "%" PRId64, s->null_count[k])
                                          : cp_buf_append(nulls, "null", 4, err));
  CP_RETURN_IF_ERROR(append_value(mins, s->data[k]->type, &s->min[k], err));
  return append_value(maxs, s->data[k]->type, &s->max[k], err);
}

int cp_sys_stats_text(paimon_table *t, const cp_data_file_meta *f, cp_buf *nulls, cp_buf *mins,
                      cp_buf *maxs, paimon_error *err) {
  file_stats s;
  int rc = load_stats(t, f, &s, err);
  const cp_type *cur = t->schema->row;
  size_t *order = NULL;
  if (!rc) rc = name_order(cur, s.n_shown, &order, err);
  if (!rc) rc = cp_buf_append(nulls, "{", 1, err);
  if (!rc) rc = cp_buf_append(mins, "{", 1, err);
  if (!rc) rc = cp_buf_append(maxs, "{", 1, err);
  for (size_t o = 0; !rc && o < s.n_shown; o++)
    rc = column_text(&s, f, cur, order[o], o == 0, nulls, mins, maxs, err);
  if (!rc) rc = cp_buf_append(nulls, "}", 1, err);
  if (!rc) rc = cp_buf_append(mins, "}", 1, err);
  if (!rc) rc = cp_buf_append(maxs, "}", 1, err);
  free(order);
  file_stats_free(&s);
  return rc;
}

/* ---- keys ----------------------------------------------------------------------------------- */

int cp_sys_key_text(paimon_table *t, const cp_data_file_meta *f, bool min, cp_buf *out,
                    bool *is_null, paimon_error *err) {
  *is_null = true;
  cp_bytes key = min ? f->min_key : f->max_key;
  int32_t arity = 0;
  if (!key.data || cp_binary_row_arity(key.data, key.len, &arity, NULL) != 0 || arity <= 0)
    return PAIMON_OK;
  const cp_table_schema *fs;
  CP_RETURN_IF_ERROR(cp_table_schema_by_id(t, f->schema_id, &fs, err));
  /* logicalTrimmedPrimaryKeysType: primary keys that are not partition keys; else all columns. */
  const cp_type **types = malloc((fs->row->n_fields + 1) * sizeof *types);
  cp_datum *vals = malloc(((size_t)arity + 1) * sizeof *vals);
  int rc = types && vals ? PAIMON_OK : CP_ENOMEM(err, "key");
  size_t n = 0;
  for (size_t i = 0; !rc && i < fs->n_primary_keys; i++) {
    bool part = false;
    for (size_t p = 0; p < fs->n_partition_keys; p++)
      part |= strcmp(fs->partition_keys[p], fs->primary_keys[i]) == 0;
    const cp_field *field = part ? NULL : cp_row_find_field(fs->row, fs->primary_keys[i]);
    if (field) types[n++] = field->type;
  }
  if (!rc && n == 0) {
    for (size_t i = 0; i < fs->row->n_fields; i++) types[i] = fs->row->fields[i].type;
    n = fs->row->n_fields;
  }
  bool ok =
      !rc && (size_t)arity == n && cp_binary_row_read(key.data, key.len, types, n, vals, NULL) == 0;
  if (ok) rc = cp_buf_append(out, "[", 1, err);
  for (size_t i = 0; ok && !rc && i < n; i++) {
    if (i) rc = cp_buf_append(out, ", ", 2, err);
    if (!rc) rc = append_value(out, types[i], &vals[i], err);
  }
  if (ok && !rc) rc = cp_buf_append(out, "]", 1, err);
  if (ok && !rc) *is_null = false;
  free(types);
  free(vals);
  return rc;
}
