/* Helpers for the manifest record structs (data_file.h; spec/format.md §4.2–4.8, §7.1). */
#include "meta/data_file.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/status.h"
#include "meta/binary_row.h"

#define CP_IMPLEMENT_VEC(name, type)                                                               \
  int name##_push(name *v, const type *item, paimon_error *err) {                                  \
    if (v->n == v->cap) {                                                                          \
      size_t cap = v->cap ? v->cap * 2 : 16;                                                       \
      type *p = realloc(v->items, cap * sizeof *p);                                                \
      if (!p) return CP_ENOMEM(err, #name);                                                        \
      v->items = p;                                                                                \
      v->cap = cap;                                                                                \
    }                                                                                              \
    v->items[v->n++] = *item;                                                                      \
    return PAIMON_OK;                                                                              \
  }                                                                                                \
  void name##_free(name *v) {                                                                      \
    free(v->items);                                                                                \
    v->items = NULL;                                                                               \
    v->n = v->cap = 0;                                                                             \
  }

CP_IMPLEMENT_VEC(cp_entry_vec, cp_manifest_entry)
CP_IMPLEMENT_VEC(cp_manifest_meta_vec, cp_manifest_file_meta)
CP_IMPLEMENT_VEC(cp_index_entry_vec, cp_index_manifest_entry)

static bool ends_with(const char *s, const char *suffix) {
  size_t n = strlen(s), m = strlen(suffix);
  return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

bool cp_data_file_is_blob(const cp_data_file_meta *f) { return ends_with(f->file_name, ".blob"); }

bool cp_data_file_is_vector_store(const cp_data_file_meta *f) {
  return strstr(f->file_name, ".vector.") != NULL;
}

void cp_data_file_blob_meta(cp_data_file_meta *m, const char *file_name, int64_t file_size,
                            int64_t row_count, int64_t schema_id, const char **col,
                            int64_t creation_time_millis) {
  memset(m, 0, sizeof *m);
  m->file_name = file_name;
  m->file_size = file_size;
  m->row_count = row_count;
  m->min_key = m->max_key = (cp_bytes){cp_binary_row_empty, 12};
  m->key_stats = cp_simple_stats_empty();
  m->value_stats = cp_simple_stats_empty();
  m->has_value_stats_cols = true;
  m->schema_id = schema_id;
  m->has_creation_time = true;
  m->creation_time_millis = creation_time_millis;
  m->has_delete_row_count = true;
  m->has_file_source = true;
  m->file_source = CP_FILE_SOURCE_APPEND;
  m->has_write_cols = true;
  m->write_cols = (cp_strings){col, 1};
}

int cp_data_file_format(const char *name, const char **start, size_t *len, paimon_error *err) {
  static const char *const compressed[] = {"gz", "bz2", "deflate", "snappy", "lz4", "zst"};
  const char *dot = strrchr(name, '.');
  if (!dot) return paimon_error_set(err, PAIMON_ECORRUPT, "%s is not a legal file name.", name);
  for (size_t i = 0; i < sizeof compressed / sizeof compressed[0]; i++) {
    if (strcasecmp(dot + 1, compressed[i]) != 0) continue;
    const char *prev = dot;
    while (prev > name && prev[-1] != '.') prev--;
    if (prev == name)
      return paimon_error_set(err, PAIMON_ECORRUPT, "%s is not a legal file name.", name);
    *start = prev;
    *len = (size_t)(dot - prev);
    return PAIMON_OK;
  }
  *start = dot + 1;
  *len = strlen(dot + 1);
  return PAIMON_OK;
}

int cp_data_file_check_readable(const char *name, const char *path, paimon_error *err) {
  const char *f;
  size_t n;
  CP_RETURN_IF_ERROR(cp_data_file_format(name, &f, &n, err));
  if ((n == 7 && strncasecmp(f, "parquet", 7) == 0) || (n == 4 && strncasecmp(f, "avro", 4) == 0))
    return PAIMON_OK;
  /* Names as Paimon's docs write them; the rest as the extension says. */
  static const struct {
    const char *ext, *name;
  } known[] = {{"orc", "an ORC"},
               {"csv", "a CSV"},
               {"json", "a JSON"},
               {"lance", "a Lance"},
               {"blob", "a BLOB"}};
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
    if (strlen(known[i].ext) == n && strncasecmp(f, known[i].ext, n) == 0)
      return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                              "data file %s is %s file (file.format '%.*s'): cpaimon does not "
                              "read %s data files yet, only Parquet and Avro",
                              path, known[i].name, (int)n, f, strchr(known[i].name, ' ') + 1);
  return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                          "data file %s has format '%.*s': cpaimon does not read it yet, only "
                          "Parquet and Avro",
                          path, (int)n, f);
}

bool cp_is_plain_file_name(const char *name, size_t len) {
  if (!name || len == 0 || memchr(name, '/', len) || memchr(name, '\0', len)) return false;
  return !(len == 1 && name[0] == '.') && !(len == 2 && name[0] == '.' && name[1] == '.');
}

int cp_check_file_name(const char *name, size_t len, const char *what, paimon_error *err) {
  if (cp_is_plain_file_name(name, len)) return PAIMON_OK;
  return paimon_error_set(err, PAIMON_ECORRUPT,
                          "%s name '%.*s' is not a plain file name (Paimon names files without "
                          "'/', '.' or '..'; it would reach outside the table)",
                          what, (int)(name ? strnlen(name, len) : 0), name ? name : "");
}

int cp_check_external_path(const char *path, const char *what, paimon_error *err) {
  const char *scheme_end = strstr(path, ":/");
  bool uri = scheme_end && scheme_end > path && !memchr(path, '/', (size_t)(scheme_end - path));
  const char *p = uri ? scheme_end + 1 : path;
  bool ok = *p == '/';
  /* Segment by segment: none may be "." or ".." */
  for (const char *seg = p; ok && *seg;) {
    while (*seg == '/') seg++;
    const char *end = strchr(seg, '/');
    size_t n = end ? (size_t)(end - seg) : strlen(seg);
    if ((n == 1 && seg[0] == '.') || (n == 2 && seg[0] == '.' && seg[1] == '.')) ok = false;
    seg += n;
  }
  if (ok) return PAIMON_OK;
  return paimon_error_set(err, PAIMON_ECORRUPT,
                          "%s external path '%s' is not an absolute path or URI without '.' and "
                          "'..' segments, as Paimon writes them",
                          what, path);
}

bool cp_strings_contains(cp_strings list, const char *s) {
  for (size_t i = 0; i < list.n; i++)
    if (strcmp(list.items[i], s) == 0) return true;
  return false;
}

bool cp_data_file_writes_col(const cp_data_file_meta *f, const char *col) {
  return f->has_write_cols && cp_strings_contains(f->write_cols, col);
}

cp_simple_stats cp_simple_stats_empty(void) {
  cp_simple_stats s;
  memset(&s, 0, sizeof s);
  s.min_values.data = cp_binary_row_empty;
  s.min_values.len = 12;
  s.max_values.data = cp_binary_row_empty;
  s.max_values.len = 12;
  return s;
}

/* ---- deep copies into an arena ---- */

static int copy_str(const char **dst, const char *src, cp_arena *a, paimon_error *err) {
  if (!src) {
    *dst = NULL;
    return PAIMON_OK;
  }
  if (!(*dst = cp_arena_strdup(a, src))) return CP_ENOMEM(err, "manifest string");
  return PAIMON_OK;
}

static int copy_bytes(cp_bytes *dst, cp_bytes src, cp_arena *a, paimon_error *err) {
  dst->len = src.len;
  dst->data = NULL;
  if (!src.data) return PAIMON_OK;
  uint8_t *p = cp_arena_alloc(a, src.len ? src.len : 1);
  if (!p) return CP_ENOMEM(err, "manifest bytes");
  if (src.len) memcpy(p, src.data, src.len);
  dst->data = p;
  return PAIMON_OK;
}

static int copy_strings(cp_strings *dst, cp_strings src, cp_arena *a, paimon_error *err) {
  dst->n = src.n;
  dst->items = NULL;
  if (!src.n) return PAIMON_OK;
  const char **items = cp_arena_alloc(a, src.n * sizeof *items);
  if (!items) return CP_ENOMEM(err, "manifest strings");
  for (size_t i = 0; i < src.n; i++) CP_RETURN_IF_ERROR(copy_str(&items[i], src.items[i], a, err));
  dst->items = items;
  return PAIMON_OK;
}

static void *copy_array(const void *src, size_t n, size_t size, cp_arena *a) {
  if (!n) return NULL;
  void *p = cp_arena_alloc(a, n * size);
  if (p) memcpy(p, src, n * size);
  return p;
}

static int copy_stats(cp_simple_stats *dst, const cp_simple_stats *src, cp_arena *a,
                      paimon_error *err) {
  *dst = *src;
  CP_RETURN_IF_ERROR(copy_bytes(&dst->min_values, src->min_values, a, err));
  CP_RETURN_IF_ERROR(copy_bytes(&dst->max_values, src->max_values, a, err));
  if (src->n_null_counts) {
    dst->null_counts = copy_array(src->null_counts, src->n_null_counts, sizeof(int64_t), a);
    dst->null_count_known = copy_array(src->null_count_known, src->n_null_counts, sizeof(bool), a);
    if (!dst->null_counts || !dst->null_count_known) return CP_ENOMEM(err, "null counts");
  }
  return PAIMON_OK;
}

static int copy_file(cp_data_file_meta *dst, const cp_data_file_meta *src, cp_arena *a,
                     paimon_error *err) {
  *dst = *src;
  CP_RETURN_IF_ERROR(copy_str(&dst->file_name, src->file_name, a, err));
  CP_RETURN_IF_ERROR(copy_bytes(&dst->min_key, src->min_key, a, err));
  CP_RETURN_IF_ERROR(copy_bytes(&dst->max_key, src->max_key, a, err));
  CP_RETURN_IF_ERROR(copy_stats(&dst->key_stats, &src->key_stats, a, err));
  CP_RETURN_IF_ERROR(copy_stats(&dst->value_stats, &src->value_stats, a, err));
  CP_RETURN_IF_ERROR(copy_strings(&dst->extra_files, src->extra_files, a, err));
  CP_RETURN_IF_ERROR(copy_bytes(&dst->embedded_index, src->embedded_index, a, err));
  CP_RETURN_IF_ERROR(copy_strings(&dst->value_stats_cols, src->value_stats_cols, a, err));
  CP_RETURN_IF_ERROR(copy_str(&dst->external_path, src->external_path, a, err));
  CP_RETURN_IF_ERROR(copy_strings(&dst->write_cols, src->write_cols, a, err));
  if (src->n_write_cols_sequences &&
      !(dst->write_cols_sequences =
            copy_array(src->write_cols_sequences, src->n_write_cols_sequences, sizeof(int64_t), a)))
    return CP_ENOMEM(err, "write cols sequences");
  return PAIMON_OK;
}

int cp_manifest_entry_copy(cp_manifest_entry *dst, const cp_manifest_entry *src, cp_arena *arena,
                           paimon_error *err) {
  *dst = *src;
  CP_RETURN_IF_ERROR(copy_bytes(&dst->partition, src->partition, arena, err));
  return copy_file(&dst->file, &src->file, arena, err);
}

int cp_manifest_file_meta_copy(cp_manifest_file_meta *dst, const cp_manifest_file_meta *src,
                               cp_arena *arena, paimon_error *err) {
  *dst = *src;
  CP_RETURN_IF_ERROR(copy_str(&dst->file_name, src->file_name, arena, err));
  return copy_stats(&dst->partition_stats, &src->partition_stats, arena, err);
}

int cp_index_manifest_entry_copy(cp_index_manifest_entry *dst, const cp_index_manifest_entry *src,
                                 cp_arena *arena, paimon_error *err) {
  *dst = *src;
  CP_RETURN_IF_ERROR(copy_bytes(&dst->partition, src->partition, arena, err));
  CP_RETURN_IF_ERROR(copy_str(&dst->index_type, src->index_type, arena, err));
  CP_RETURN_IF_ERROR(copy_str(&dst->file_name, src->file_name, arena, err));
  CP_RETURN_IF_ERROR(copy_str(&dst->external_path, src->external_path, arena, err));
  if (src->n_dv_ranges) {
    cp_dv_meta *r = copy_array(src->dv_ranges, src->n_dv_ranges, sizeof *r, arena);
    if (!r) return CP_ENOMEM(err, "dv ranges");
    for (size_t i = 0; i < src->n_dv_ranges; i++)
      CP_RETURN_IF_ERROR(copy_str(&r[i].data_file, src->dv_ranges[i].data_file, arena, err));
    dst->dv_ranges = r;
  }
  cp_global_index_meta *g = &dst->global_index;
  if (src->has_global_index && g->n_extra_field_ids) {
    g->extra_field_ids = copy_array(src->global_index.extra_field_ids, g->n_extra_field_ids,
                                    sizeof *g->extra_field_ids, arena);
    if (!g->extra_field_ids) return CP_ENOMEM(err, "global index field ids");
  }
  CP_RETURN_IF_ERROR(copy_bytes(&g->index_meta, src->global_index.index_meta, arena, err));
  CP_RETURN_IF_ERROR(copy_bytes(&g->source_meta, src->global_index.source_meta, arena, err));
  return PAIMON_OK;
}

/* ---- file identity (§4.8) ---- */

static bool bytes_equal(cp_bytes a, cp_bytes b) {
  if ((a.data == NULL) != (b.data == NULL) || a.len != b.len) return false;
  return a.len == 0 || memcmp(a.data, b.data, a.len) == 0;
}

static bool str_equal(const char *a, const char *b) {
  if (!a || !b) return a == b;
  return strcmp(a, b) == 0;
}

bool cp_manifest_entry_same_file(const cp_manifest_entry *a, const cp_manifest_entry *b) {
  if (a->bucket != b->bucket || a->file.level != b->file.level ||
      !str_equal(a->file.file_name, b->file.file_name) ||
      !bytes_equal(a->partition, b->partition) ||
      !bytes_equal(a->file.embedded_index, b->file.embedded_index) ||
      !str_equal(a->file.external_path, b->file.external_path) ||
      a->file.extra_files.n != b->file.extra_files.n)
    return false;
  for (size_t i = 0; i < a->file.extra_files.n; i++)
    if (!str_equal(a->file.extra_files.items[i], b->file.extra_files.items[i])) return false;
  return true;
}

static uint64_t fnv1a(uint64_t h, const void *data, size_t n) {
  const uint8_t *p = data;
  for (size_t i = 0; i < n; i++) {
    h ^= p[i];
    h *= 0x100000001b3ULL;
  }
  return h;
}

uint64_t cp_manifest_entry_file_hash(const cp_manifest_entry *e) {
  uint64_t h = 0xcbf29ce484222325ULL;
  h = fnv1a(h, e->file.file_name, strlen(e->file.file_name));
  if (e->partition.len) h = fnv1a(h, e->partition.data, e->partition.len);
  h = fnv1a(h, &e->bucket, sizeof e->bucket);
  return fnv1a(h, &e->file.level, sizeof e->file.level);
}
