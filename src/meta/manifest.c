/*
 * Encoding and decoding of manifest files, manifest lists and index manifests (spec/format.md §4,
 * §7.1) on top of the Avro container layer. Records are built as Avro values in Java's schema
 * (manifest_schema.c) for writing; reading resolves any writer's schema into that same shape, so
 * the converters below index fields by their position in Java's schema.
 */
#include "meta/manifest.h"

#include <stdlib.h>
#include <string.h>

#include "base/status.h"
#include "format/avro/container.h"

/* Field positions in the schemas of manifest_schema.c. */
enum { ME_VERSION, ME_KIND, ME_PARTITION, ME_BUCKET, ME_TOTAL_BUCKETS, ME_FILE, ME_COUNT };
enum {
  DF_FILE_NAME,
  DF_FILE_SIZE,
  DF_ROW_COUNT,
  DF_MIN_KEY,
  DF_MAX_KEY,
  DF_KEY_STATS,
  DF_VALUE_STATS,
  DF_MIN_SEQ,
  DF_MAX_SEQ,
  DF_SCHEMA_ID,
  DF_LEVEL,
  DF_EXTRA_FILES,
  DF_CREATION_TIME,
  DF_DELETE_ROW_COUNT,
  DF_EMBEDDED_INDEX,
  DF_FILE_SOURCE,
  DF_VALUE_STATS_COLS,
  DF_EXTERNAL_PATH,
  DF_FIRST_ROW_ID,
  DF_WRITE_COLS,
  DF_WRITE_COLS_SEQUENCES,
  DF_COUNT
};
enum { ST_MIN, ST_MAX, ST_NULL_COUNTS, ST_COUNT };
enum {
  MF_VERSION,
  MF_FILE_NAME,
  MF_FILE_SIZE,
  MF_ADDED,
  MF_DELETED,
  MF_PARTITION_STATS,
  MF_SCHEMA_ID,
  MF_MIN_BUCKET,
  MF_MAX_BUCKET,
  MF_MIN_LEVEL,
  MF_MAX_LEVEL,
  MF_MIN_ROW_ID,
  MF_MAX_ROW_ID,
  MF_COUNT
};
enum {
  IM_VERSION,
  IM_KIND,
  IM_PARTITION,
  IM_BUCKET,
  IM_INDEX_TYPE,
  IM_FILE_NAME,
  IM_FILE_SIZE,
  IM_ROW_COUNT,
  IM_DV_RANGES,
  IM_EXTERNAL_PATH,
  IM_GLOBAL_INDEX,
  IM_COUNT
};
enum { DV_F0, DV_F1, DV_F2, DV_CARDINALITY, DV_COUNT };
enum {
  GI_ROW_RANGE_START,
  GI_ROW_RANGE_END,
  GI_INDEX_FIELD_ID,
  GI_EXTRA_FIELD_IDS,
  GI_INDEX_META,
  GI_SOURCE_META,
  GI_COUNT
};

/* _VERSION format identifiers Java checks (ManifestEntrySerializer etc.). */
#define MANIFEST_VERSION 2
#define INDEX_MANIFEST_VERSION 1

/* ===================================== building values ===================================== */

typedef struct builder {
  cp_arena *arena;
  bool oom;
} builder;

static cp_avro_value *alloc_values(builder *b, size_t n) {
  cp_avro_value *v = cp_arena_calloc(b->arena, (n ? n : 1) * sizeof *v);
  if (!v) b->oom = true;
  return v;
}

static cp_avro_value record(builder *b, size_t n, cp_avro_value **fields) {
  cp_avro_value v = cp_avro_null();
  *fields = alloc_values(b, n);
  v.type = CP_AVRO_RECORD;
  v.u.record.fields = *fields;
  v.u.record.count = *fields ? n : 0;
  return v;
}

/* ["null", T]: branch 0 = null, branch 1 = the value. */
static cp_avro_value optional(builder *b, bool present, cp_avro_value inner) {
  cp_avro_value *p = alloc_values(b, 1);
  if (!p) return cp_avro_null();
  *p = present ? inner : cp_avro_null();
  return cp_avro_branch(present ? 1 : 0, p);
}

static cp_avro_value bytes_value(cp_bytes bytes) {
  return cp_avro_bytes_of(CP_AVRO_BYTES, bytes.data ? bytes.data : (const uint8_t *)"", bytes.len);
}

static cp_avro_value string_array(builder *b, cp_strings s) {
  cp_avro_value v = cp_avro_null(), *items = alloc_values(b, s.n);
  v.type = CP_AVRO_ARRAY;
  v.u.array.items = items;
  v.u.array.count = items ? s.n : 0;
  for (size_t i = 0; items && i < s.n; i++) items[i] = cp_avro_string(s.items[i]);
  return v;
}

static cp_avro_value long_array(builder *b, const int64_t *vals, size_t n) {
  cp_avro_value v = cp_avro_null(), *items = alloc_values(b, n);
  v.type = CP_AVRO_ARRAY;
  v.u.array.items = items;
  v.u.array.count = items ? n : 0;
  for (size_t i = 0; items && i < n; i++) items[i] = cp_avro_long(vals[i]);
  return v;
}

static cp_avro_value stats_value(builder *b, const cp_simple_stats *s) {
  cp_avro_value *f, v = record(b, ST_COUNT, &f);
  if (!f) return v;
  f[ST_MIN] = bytes_value(s->min_values);
  f[ST_MAX] = bytes_value(s->max_values);
  /* Java NPEs on a null _NULL_COUNTS (§4.4): always write an array, elements ["null","long"]. */
  cp_avro_value arr = cp_avro_null(), *items = alloc_values(b, s->n_null_counts);
  arr.type = CP_AVRO_ARRAY;
  arr.u.array.items = items;
  arr.u.array.count = items ? s->n_null_counts : 0;
  for (size_t i = 0; items && i < s->n_null_counts; i++)
    items[i] = optional(b, s->null_count_known[i], cp_avro_long(s->null_counts[i]));
  f[ST_NULL_COUNTS] = optional(b, true, arr);
  return v;
}

static cp_avro_value file_value(builder *b, const cp_data_file_meta *m) {
  cp_avro_value *f, v = record(b, DF_COUNT, &f);
  if (!f) return v;
  f[DF_FILE_NAME] = cp_avro_string(m->file_name);
  f[DF_FILE_SIZE] = cp_avro_long(m->file_size);
  f[DF_ROW_COUNT] = cp_avro_long(m->row_count);
  f[DF_MIN_KEY] = bytes_value(m->min_key);
  f[DF_MAX_KEY] = bytes_value(m->max_key);
  f[DF_KEY_STATS] = stats_value(b, &m->key_stats);
  f[DF_VALUE_STATS] = stats_value(b, &m->value_stats);
  f[DF_MIN_SEQ] = cp_avro_long(m->min_sequence_number);
  f[DF_MAX_SEQ] = cp_avro_long(m->max_sequence_number);
  f[DF_SCHEMA_ID] = cp_avro_long(m->schema_id);
  f[DF_LEVEL] = cp_avro_int(m->level);
  f[DF_EXTRA_FILES] = string_array(b, m->extra_files);
  f[DF_CREATION_TIME] = optional(b, m->has_creation_time, cp_avro_long(m->creation_time_millis));
  f[DF_DELETE_ROW_COUNT] = optional(b, m->has_delete_row_count, cp_avro_long(m->delete_row_count));
  f[DF_EMBEDDED_INDEX] =
      optional(b, m->embedded_index.data != NULL, bytes_value(m->embedded_index));
  f[DF_FILE_SOURCE] = optional(b, m->has_file_source, cp_avro_int(m->file_source));
  f[DF_VALUE_STATS_COLS] =
      optional(b, m->has_value_stats_cols, string_array(b, m->value_stats_cols));
  f[DF_EXTERNAL_PATH] = optional(b, m->external_path != NULL,
                                 cp_avro_string(m->external_path ? m->external_path : ""));
  f[DF_FIRST_ROW_ID] = optional(b, m->has_first_row_id, cp_avro_long(m->first_row_id));
  f[DF_WRITE_COLS] = optional(b, m->has_write_cols, string_array(b, m->write_cols));
  f[DF_WRITE_COLS_SEQUENCES] =
      optional(b, m->has_write_cols_sequences,
               long_array(b, m->write_cols_sequences, m->n_write_cols_sequences));
  return v;
}

static cp_avro_value entry_value(builder *b, const cp_manifest_entry *e) {
  cp_avro_value *f, v = record(b, ME_COUNT, &f);
  if (!f) return v;
  f[ME_VERSION] = cp_avro_int(MANIFEST_VERSION);
  f[ME_KIND] = cp_avro_int(e->kind);
  f[ME_PARTITION] = bytes_value(e->partition);
  f[ME_BUCKET] = cp_avro_int(e->bucket);
  f[ME_TOTAL_BUCKETS] = cp_avro_int(e->total_buckets);
  f[ME_FILE] = file_value(b, &e->file);
  return v;
}

static cp_avro_value meta_value(builder *b, const cp_manifest_file_meta *m) {
  cp_avro_value *f, v = record(b, MF_COUNT, &f);
  if (!f) return v;
  f[MF_VERSION] = cp_avro_int(MANIFEST_VERSION);
  f[MF_FILE_NAME] = cp_avro_string(m->file_name);
  f[MF_FILE_SIZE] = cp_avro_long(m->file_size);
  f[MF_ADDED] = cp_avro_long(m->num_added_files);
  f[MF_DELETED] = cp_avro_long(m->num_deleted_files);
  f[MF_PARTITION_STATS] = stats_value(b, &m->partition_stats);
  f[MF_SCHEMA_ID] = cp_avro_long(m->schema_id);
  f[MF_MIN_BUCKET] = optional(b, m->has_bucket_range, cp_avro_int(m->min_bucket));
  f[MF_MAX_BUCKET] = optional(b, m->has_bucket_range, cp_avro_int(m->max_bucket));
  f[MF_MIN_LEVEL] = optional(b, m->has_level_range, cp_avro_int(m->min_level));
  f[MF_MAX_LEVEL] = optional(b, m->has_level_range, cp_avro_int(m->max_level));
  f[MF_MIN_ROW_ID] = optional(b, m->has_row_id_range, cp_avro_long(m->min_row_id));
  f[MF_MAX_ROW_ID] = optional(b, m->has_row_id_range, cp_avro_long(m->max_row_id));
  return v;
}

/* The _GLOBAL_INDEX record, written back as it was read. */
static cp_avro_value global_index_value(builder *b, const cp_global_index_meta *g) {
  cp_avro_value *f, v = record(b, GI_COUNT, &f);
  if (!f) return v;
  f[GI_ROW_RANGE_START] = cp_avro_long(g->row_range_start);
  f[GI_ROW_RANGE_END] = cp_avro_long(g->row_range_end);
  f[GI_INDEX_FIELD_ID] = cp_avro_int(g->index_field_id);
  cp_avro_value ids = cp_avro_null(), *items = alloc_values(b, g->n_extra_field_ids);
  ids.type = CP_AVRO_ARRAY;
  ids.u.array.items = items;
  ids.u.array.count = items ? g->n_extra_field_ids : 0;
  for (size_t i = 0; items && i < g->n_extra_field_ids; i++)
    items[i] = cp_avro_int(g->extra_field_ids[i]);
  f[GI_EXTRA_FIELD_IDS] = optional(b, g->has_extra_field_ids, ids);
  f[GI_INDEX_META] = optional(b, g->has_index_meta, bytes_value(g->index_meta));
  f[GI_SOURCE_META] = optional(b, g->has_source_meta, bytes_value(g->source_meta));
  return v;
}

static cp_avro_value index_value(builder *b, const cp_index_manifest_entry *e) {
  cp_avro_value *f, v = record(b, IM_COUNT, &f);
  if (!f) return v;
  f[IM_VERSION] = cp_avro_int(INDEX_MANIFEST_VERSION);
  f[IM_KIND] = cp_avro_int(e->kind);
  f[IM_PARTITION] = bytes_value(e->partition);
  f[IM_BUCKET] = cp_avro_int(e->bucket);
  f[IM_INDEX_TYPE] = cp_avro_string(e->index_type);
  f[IM_FILE_NAME] = cp_avro_string(e->file_name);
  f[IM_FILE_SIZE] = cp_avro_long(e->file_size);
  f[IM_ROW_COUNT] = cp_avro_long(e->row_count);
  cp_avro_value arr = cp_avro_null(), *items = alloc_values(b, e->n_dv_ranges);
  arr.type = CP_AVRO_ARRAY;
  arr.u.array.items = items;
  arr.u.array.count = items ? e->n_dv_ranges : 0;
  for (size_t i = 0; items && i < e->n_dv_ranges; i++) {
    const cp_dv_meta *dv = &e->dv_ranges[i];
    cp_avro_value *df, rec = record(b, DV_COUNT, &df);
    if (!df) break;
    df[DV_F0] = cp_avro_string(dv->data_file);
    df[DV_F1] = cp_avro_int(dv->offset);
    df[DV_F2] = cp_avro_int(dv->length);
    df[DV_CARDINALITY] = optional(b, dv->has_cardinality, cp_avro_long(dv->cardinality));
    items[i] = optional(b, true, rec); /* Java's element type is a nullable row */
  }
  f[IM_DV_RANGES] = optional(b, e->has_dv_ranges, arr);
  f[IM_EXTERNAL_PATH] = optional(b, e->external_path != NULL,
                                 cp_avro_string(e->external_path ? e->external_path : ""));
  f[IM_GLOBAL_INDEX] = optional(b, e->has_global_index, global_index_value(b, &e->global_index));
  return v;
}

typedef cp_avro_value (*to_value_fn)(builder *b, const void *item);

static cp_avro_value entry_fn(builder *b, const void *p) { return entry_value(b, p); }
static cp_avro_value meta_fn(builder *b, const void *p) { return meta_value(b, p); }
static cp_avro_value index_fn(builder *b, const void *p) { return index_value(b, p); }

static int encode_all(const char *schema_json, const char *what, const void *items, size_t n,
                      size_t item_size, to_value_fn fn, const cp_manifest_write_options *opts,
                      cp_buf *out, paimon_error *err) {
  cp_avro_schema *schema = NULL;
  cp_avro_writer *w = NULL;
  cp_arena arena = CP_ARENA_INIT;
  int rc;
  CP_GOTO_IF_ERROR(rc, cp_avro_schema_parse(&schema, schema_json, strlen(schema_json), what, err),
                   done);
  cp_avro_writer_options wo = {0};
  wo.codec = opts && opts->codec ? opts->codec : "zstandard";
  wo.level = opts && opts->level ? opts->level : 1;
  wo.sync_marker = opts ? opts->sync_marker : NULL;
  CP_GOTO_IF_ERROR(rc, cp_avro_writer_new_mem(&w, what, schema, &wo, err), done);
  for (size_t i = 0; i < n; i++) {
    builder b = {&arena, false};
    cp_avro_value v = fn(&b, (const char *)items + i * item_size);
    if (b.oom) {
      rc = paimon_error_set(err, PAIMON_ENOMEM, "%s: out of memory building record %zu", what, i);
      goto done;
    }
    CP_GOTO_IF_ERROR(rc, cp_avro_writer_append(w, &v, err), done);
    if (arena.total > (1u << 20)) cp_arena_free(&arena);
  }
  rc = cp_avro_writer_finish(w, out, err);
done:
  cp_avro_writer_free(w);
  cp_avro_schema_free(schema);
  cp_arena_free(&arena);
  return rc;
}

int cp_manifest_file_encode(const cp_manifest_entry *entries, size_t n,
                            const cp_manifest_write_options *opts, cp_buf *out, paimon_error *err) {
  return encode_all(cp_manifest_entry_schema_json, "manifest", entries, n, sizeof *entries,
                    entry_fn, opts, out, err);
}

int cp_manifest_list_encode(const cp_manifest_file_meta *metas, size_t n,
                            const cp_manifest_write_options *opts, cp_buf *out, paimon_error *err) {
  return encode_all(cp_manifest_file_meta_schema_json, "manifest list", metas, n, sizeof *metas,
                    meta_fn, opts, out, err);
}

int cp_index_manifest_encode(const cp_index_manifest_entry *entries, size_t n,
                             const cp_manifest_write_options *opts, cp_buf *out,
                             paimon_error *err) {
  return encode_all(cp_index_manifest_entry_schema_json, "index manifest", entries, n,
                    sizeof *entries, index_fn, opts, out, err);
}

/* ===================================== reading values ====================================== */

typedef struct reader {
  const char *name; /* file name for messages */
  size_t record;    /* record index for messages */
  cp_arena *arena;
  paimon_error *err;
} reader;

static int oom(reader *r) { return CP_ENOMEM(r->err, r->name); }

static const cp_avro_value *field(const cp_avro_value *rec, size_t i) {
  return &rec->u.record.fields[i];
}

static int get_string(reader *r, const cp_avro_value *v, const char **out) {
  v = cp_avro_value_unwrap(v);
  if (!v) {
    *out = NULL;
    return PAIMON_OK;
  }
  if (!(*out = cp_arena_strndup(r->arena, (const char *)v->u.bytes.data, v->u.bytes.len)))
    return oom(r);
  return PAIMON_OK;
}

/* A file name (meta/data_file.h: plain names only), checked on its stored bytes so that a NUL
 * inside cannot hide a '/' after it. `what` says which name, for the error; a `required` one
 * may not be absent. */
static int get_name(reader *r, const cp_avro_value *v, const char *what, bool required,
                    const char **out) {
  const cp_avro_value *u = cp_avro_value_unwrap(v);
  if (!u && required)
    return paimon_error_set(r->err, PAIMON_ECORRUPT, "%s: record %zu: %s without a name", r->name,
                            r->record, what);
  if (u && cp_check_file_name((const char *)u->u.bytes.data, u->u.bytes.len, what, r->err) != 0)
    return paimon_error_prefix(r->err, "%s: record %zu", r->name, r->record);
  return get_string(r, v, out);
}

static int get_external_path(reader *r, const cp_avro_value *v, const char *what,
                             const char **out) {
  CP_RETURN_IF_ERROR(get_string(r, v, out));
  if (*out && cp_check_external_path(*out, what, r->err) != 0)
    return paimon_error_prefix(r->err, "%s: record %zu", r->name, r->record);
  return PAIMON_OK;
}

static int get_bytes(reader *r, const cp_avro_value *v, cp_bytes *out) {
  v = cp_avro_value_unwrap(v);
  out->data = NULL;
  out->len = 0;
  if (!v) return PAIMON_OK;
  uint8_t *p = cp_arena_alloc(r->arena, v->u.bytes.len ? v->u.bytes.len : 1);
  if (!p) return oom(r);
  if (v->u.bytes.len) memcpy(p, v->u.bytes.data, v->u.bytes.len);
  out->data = p;
  out->len = v->u.bytes.len;
  return PAIMON_OK;
}

static bool get_opt_long(const cp_avro_value *v, int64_t *out) {
  v = cp_avro_value_unwrap(v);
  if (!v) return false;
  *out = v->type == CP_AVRO_INT ? v->u.i32 : v->u.i64;
  return true;
}

static bool get_opt_int(const cp_avro_value *v, int32_t *out) {
  v = cp_avro_value_unwrap(v);
  if (!v) return false;
  *out = v->type == CP_AVRO_INT ? v->u.i32 : (int32_t)v->u.i64;
  return true;
}

static int get_strings(reader *r, const cp_avro_value *v, cp_strings *out, bool *present) {
  v = cp_avro_value_unwrap(v);
  out->items = NULL;
  out->n = 0;
  if (present) *present = v != NULL;
  if (!v) return PAIMON_OK;
  size_t n = v->u.array.count;
  const char **items = cp_arena_alloc(r->arena, (n ? n : 1) * sizeof *items);
  if (!items) return oom(r);
  for (size_t i = 0; i < n; i++) {
    CP_RETURN_IF_ERROR(get_string(r, &v->u.array.items[i], &items[i]));
    if (!items[i])
      return paimon_error_set(r->err, PAIMON_ECORRUPT, "%s: record %zu: null string in a list",
                              r->name, r->record);
  }
  out->items = items;
  out->n = n;
  return PAIMON_OK;
}

static int get_stats(reader *r, const cp_avro_value *rec, cp_simple_stats *s) {
  memset(s, 0, sizeof *s);
  CP_RETURN_IF_ERROR(get_bytes(r, field(rec, ST_MIN), &s->min_values));
  CP_RETURN_IF_ERROR(get_bytes(r, field(rec, ST_MAX), &s->max_values));
  const cp_avro_value *arr = cp_avro_value_unwrap(field(rec, ST_NULL_COUNTS));
  if (!arr) {
    s->null_counts_is_null = true;
    return PAIMON_OK;
  }
  size_t n = arr->u.array.count;
  int64_t *counts = cp_arena_alloc(r->arena, (n ? n : 1) * sizeof *counts);
  bool *known = cp_arena_alloc(r->arena, n ? n : 1);
  if (!counts || !known) return oom(r);
  for (size_t i = 0; i < n; i++) {
    known[i] = get_opt_long(&arr->u.array.items[i], &counts[i]);
    if (!known[i]) counts[i] = 0;
  }
  s->null_counts = counts;
  s->null_count_known = known;
  s->n_null_counts = n;
  return PAIMON_OK;
}

static int get_file(reader *r, const cp_avro_value *rec, cp_data_file_meta *m) {
  memset(m, 0, sizeof *m);
  CP_RETURN_IF_ERROR(get_name(r, field(rec, DF_FILE_NAME), "data file", true, &m->file_name));
  get_opt_long(field(rec, DF_FILE_SIZE), &m->file_size);
  get_opt_long(field(rec, DF_ROW_COUNT), &m->row_count);
  CP_RETURN_IF_ERROR(get_bytes(r, field(rec, DF_MIN_KEY), &m->min_key));
  CP_RETURN_IF_ERROR(get_bytes(r, field(rec, DF_MAX_KEY), &m->max_key));
  CP_RETURN_IF_ERROR(get_stats(r, field(rec, DF_KEY_STATS), &m->key_stats));
  CP_RETURN_IF_ERROR(get_stats(r, field(rec, DF_VALUE_STATS), &m->value_stats));
  get_opt_long(field(rec, DF_MIN_SEQ), &m->min_sequence_number);
  get_opt_long(field(rec, DF_MAX_SEQ), &m->max_sequence_number);
  get_opt_long(field(rec, DF_SCHEMA_ID), &m->schema_id);
  get_opt_int(field(rec, DF_LEVEL), &m->level);
  CP_RETURN_IF_ERROR(get_strings(r, field(rec, DF_EXTRA_FILES), &m->extra_files, NULL));
  for (size_t i = 0; i < m->extra_files.n; i++)
    if (cp_check_file_name(m->extra_files.items[i], strlen(m->extra_files.items[i]), "extra file",
                           r->err) != 0)
      return paimon_error_prefix(r->err, "%s: record %zu: data file %s", r->name, r->record,
                                 m->file_name);
  m->has_creation_time = get_opt_long(field(rec, DF_CREATION_TIME), &m->creation_time_millis);
  m->has_delete_row_count = get_opt_long(field(rec, DF_DELETE_ROW_COUNT), &m->delete_row_count);
  CP_RETURN_IF_ERROR(get_bytes(r, field(rec, DF_EMBEDDED_INDEX), &m->embedded_index));
  m->has_file_source = get_opt_int(field(rec, DF_FILE_SOURCE), &m->file_source);
  CP_RETURN_IF_ERROR(get_strings(r, field(rec, DF_VALUE_STATS_COLS), &m->value_stats_cols,
                                 &m->has_value_stats_cols));
  CP_RETURN_IF_ERROR(
      get_external_path(r, field(rec, DF_EXTERNAL_PATH), "data file", &m->external_path));
  m->has_first_row_id = get_opt_long(field(rec, DF_FIRST_ROW_ID), &m->first_row_id);
  CP_RETURN_IF_ERROR(get_strings(r, field(rec, DF_WRITE_COLS), &m->write_cols, &m->has_write_cols));
  const cp_avro_value *seqs = cp_avro_value_unwrap(field(rec, DF_WRITE_COLS_SEQUENCES));
  if (seqs) {
    size_t n = seqs->u.array.count;
    int64_t *vals = cp_arena_alloc(r->arena, (n ? n : 1) * sizeof *vals);
    if (!vals) return oom(r);
    for (size_t i = 0; i < n; i++) get_opt_long(&seqs->u.array.items[i], &vals[i]);
    m->has_write_cols_sequences = true;
    m->write_cols_sequences = vals;
    m->n_write_cols_sequences = n;
  }
  return PAIMON_OK;
}

static int check_version(reader *r, const cp_avro_value *v, int32_t expect) {
  int32_t got = -1;
  get_opt_int(v, &got);
  if (got != expect)
    return paimon_error_set(r->err, PAIMON_ECORRUPT,
                            "%s: record %zu: _VERSION is %d, expected %d (not a Paimon manifest of "
                            "this kind)",
                            r->name, r->record, got, expect);
  return PAIMON_OK;
}

static int entry_from(reader *r, const cp_avro_value *rec, void *out_vec) {
  cp_manifest_entry e;
  memset(&e, 0, sizeof e);
  CP_RETURN_IF_ERROR(check_version(r, field(rec, ME_VERSION), MANIFEST_VERSION));
  get_opt_int(field(rec, ME_KIND), &e.kind);
  if (e.kind != CP_FILE_KIND_ADD && e.kind != CP_FILE_KIND_DELETE)
    return paimon_error_set(r->err, PAIMON_ECORRUPT, "%s: record %zu: unknown _KIND %d", r->name,
                            r->record, e.kind);
  CP_RETURN_IF_ERROR(get_bytes(r, field(rec, ME_PARTITION), &e.partition));
  get_opt_int(field(rec, ME_BUCKET), &e.bucket);
  get_opt_int(field(rec, ME_TOTAL_BUCKETS), &e.total_buckets);
  CP_RETURN_IF_ERROR(get_file(r, field(rec, ME_FILE), &e.file));
  return cp_entry_vec_push(out_vec, &e, r->err);
}

static int meta_from(reader *r, const cp_avro_value *rec, void *out_vec) {
  cp_manifest_file_meta m;
  memset(&m, 0, sizeof m);
  CP_RETURN_IF_ERROR(check_version(r, field(rec, MF_VERSION), MANIFEST_VERSION));
  CP_RETURN_IF_ERROR(get_name(r, field(rec, MF_FILE_NAME), "manifest", true, &m.file_name));
  get_opt_long(field(rec, MF_FILE_SIZE), &m.file_size);
  get_opt_long(field(rec, MF_ADDED), &m.num_added_files);
  get_opt_long(field(rec, MF_DELETED), &m.num_deleted_files);
  CP_RETURN_IF_ERROR(get_stats(r, field(rec, MF_PARTITION_STATS), &m.partition_stats));
  get_opt_long(field(rec, MF_SCHEMA_ID), &m.schema_id);
  /* Each pair is present only when both ends are (they are written together). */
  bool lo = get_opt_int(field(rec, MF_MIN_BUCKET), &m.min_bucket);
  bool hi = get_opt_int(field(rec, MF_MAX_BUCKET), &m.max_bucket);
  m.has_bucket_range = lo && hi;
  lo = get_opt_int(field(rec, MF_MIN_LEVEL), &m.min_level);
  hi = get_opt_int(field(rec, MF_MAX_LEVEL), &m.max_level);
  m.has_level_range = lo && hi;
  lo = get_opt_long(field(rec, MF_MIN_ROW_ID), &m.min_row_id);
  hi = get_opt_long(field(rec, MF_MAX_ROW_ID), &m.max_row_id);
  m.has_row_id_range = lo && hi;
  return cp_manifest_meta_vec_push(out_vec, &m, r->err);
}

/* The _GLOBAL_INDEX record (cp_global_index_meta), when present. */
static int get_global_index(reader *r, const cp_avro_value *v, cp_index_manifest_entry *e) {
  const cp_avro_value *gi = cp_avro_value_unwrap(v);
  e->has_global_index = gi != NULL;
  if (!gi) return PAIMON_OK;
  cp_global_index_meta *g = &e->global_index;
  get_opt_long(field(gi, GI_ROW_RANGE_START), &g->row_range_start);
  get_opt_long(field(gi, GI_ROW_RANGE_END), &g->row_range_end);
  get_opt_int(field(gi, GI_INDEX_FIELD_ID), &g->index_field_id);
  const cp_avro_value *ids = cp_avro_value_unwrap(field(gi, GI_EXTRA_FIELD_IDS));
  if (ids) {
    size_t n = ids->u.array.count;
    int32_t *vals = cp_arena_alloc(r->arena, (n ? n : 1) * sizeof *vals);
    if (!vals) return oom(r);
    for (size_t i = 0; i < n; i++) get_opt_int(&ids->u.array.items[i], &vals[i]);
    g->has_extra_field_ids = true;
    g->extra_field_ids = vals;
    g->n_extra_field_ids = n;
  }
  g->has_index_meta = cp_avro_value_unwrap(field(gi, GI_INDEX_META)) != NULL;
  g->has_source_meta = cp_avro_value_unwrap(field(gi, GI_SOURCE_META)) != NULL;
  CP_RETURN_IF_ERROR(get_bytes(r, field(gi, GI_INDEX_META), &g->index_meta));
  return get_bytes(r, field(gi, GI_SOURCE_META), &g->source_meta);
}

static int index_from(reader *r, const cp_avro_value *rec, void *out_vec) {
  cp_index_manifest_entry e;
  memset(&e, 0, sizeof e);
  CP_RETURN_IF_ERROR(check_version(r, field(rec, IM_VERSION), INDEX_MANIFEST_VERSION));
  get_opt_int(field(rec, IM_KIND), &e.kind);
  CP_RETURN_IF_ERROR(get_bytes(r, field(rec, IM_PARTITION), &e.partition));
  get_opt_int(field(rec, IM_BUCKET), &e.bucket);
  CP_RETURN_IF_ERROR(get_string(r, field(rec, IM_INDEX_TYPE), &e.index_type));
  CP_RETURN_IF_ERROR(get_name(r, field(rec, IM_FILE_NAME), "index file", true, &e.file_name));
  get_opt_long(field(rec, IM_FILE_SIZE), &e.file_size);
  get_opt_long(field(rec, IM_ROW_COUNT), &e.row_count);
  const cp_avro_value *arr = cp_avro_value_unwrap(field(rec, IM_DV_RANGES));
  if (arr) {
    size_t n = arr->u.array.count;
    cp_dv_meta *dvs = cp_arena_calloc(r->arena, (n ? n : 1) * sizeof *dvs);
    if (!dvs) return oom(r);
    for (size_t i = 0; i < n; i++) {
      const cp_avro_value *dv = cp_avro_value_unwrap(&arr->u.array.items[i]);
      if (!dv)
        return paimon_error_set(r->err, PAIMON_ECORRUPT,
                                "%s: record %zu: null deletion-vector range", r->name, r->record);
      CP_RETURN_IF_ERROR(
          get_name(r, field(dv, DV_F0), "deletion vector's data file", true, &dvs[i].data_file));
      get_opt_int(field(dv, DV_F1), &dvs[i].offset);
      get_opt_int(field(dv, DV_F2), &dvs[i].length);
      dvs[i].has_cardinality = get_opt_long(field(dv, DV_CARDINALITY), &dvs[i].cardinality);
    }
    e.has_dv_ranges = true;
    e.dv_ranges = dvs;
    e.n_dv_ranges = n;
  }
  CP_RETURN_IF_ERROR(
      get_external_path(r, field(rec, IM_EXTERNAL_PATH), "index file", &e.external_path));
  CP_RETURN_IF_ERROR(get_global_index(r, field(rec, IM_GLOBAL_INDEX), &e));
  return cp_index_entry_vec_push(out_vec, &e, r->err);
}

typedef int (*from_value_fn)(reader *r, const cp_avro_value *rec, void *out_vec);

static int decode_all(const char *schema_json, const char *name, const void *data, size_t len,
                      cp_arena *arena, from_value_fn fn, void *out_vec, paimon_error *err) {
  cp_avro_schema *schema = NULL;
  cp_avro_reader *rd = NULL;
  int rc;
  CP_GOTO_IF_ERROR(rc, cp_avro_schema_parse(&schema, schema_json, strlen(schema_json), name, err),
                   done);
  cp_avro_reader_options ro = {0};
  ro.reader_schema = cp_avro_schema_root(schema);
  rc = cp_avro_reader_open_mem(&rd, name, data, len, &ro, err);
  if (rc) {
    /* A schema that cannot be resolved against Paimon's is a corrupt (or foreign) file. */
    if (rc == PAIMON_EINVAL) rc = err ? (err->code = PAIMON_ECORRUPT) : PAIMON_ECORRUPT;
    goto done;
  }
  reader r = {name, 0, arena, err};
  for (;;) {
    const cp_avro_value *rec;
    CP_GOTO_IF_ERROR(rc, cp_avro_reader_next(rd, &rec, err), done);
    if (!rec) break;
    CP_GOTO_IF_ERROR(rc, fn(&r, rec, out_vec), done);
    r.record++;
  }
done:
  cp_avro_reader_free(rd);
  cp_avro_schema_free(schema);
  return rc;
}

int cp_manifest_file_decode(const char *name, const void *data, size_t len, cp_arena *arena,
                            cp_entry_vec *out, paimon_error *err) {
  return decode_all(cp_manifest_entry_schema_json, name, data, len, arena, entry_from, out, err);
}

int cp_manifest_list_decode(const char *name, const void *data, size_t len, cp_arena *arena,
                            cp_manifest_meta_vec *out, paimon_error *err) {
  return decode_all(cp_manifest_file_meta_schema_json, name, data, len, arena, meta_from, out, err);
}

int cp_index_manifest_decode(const char *name, const void *data, size_t len, cp_arena *arena,
                             cp_index_entry_vec *out, paimon_error *err) {
  return decode_all(cp_index_manifest_entry_schema_json, name, data, len, arena, index_from, out,
                    err);
}
