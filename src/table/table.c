/* Table handles, their core options, and ALTER TABLE (catalog.h; spec/format.md §2, §8;
 * Java SchemaManager.generateTableSchema for the change semantics and messages). */
#include "table/table.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "base/json.h"
#include "base/status.h"
#include "base/time.h"
#include "format/parquet/writer.h"
#include "meta/binary_row.h"
#include "table/paths.h"
#include "table/rest_catalog.h"
#include "table/store.h"
#include "types/special_fields.h"
#include "types/type_arrow.h"
#include "types/type_sql.h"

static const char *opt_or(const cp_table_schema *s, const char *key, const char *dflt) {
  const char *v = cp_options_get(&s->options, key);
  return v ? v : dflt;
}

int cp_core_options_parse(const cp_table_schema *s, cp_core_options *o, paimon_error *err) {
  const cp_options *opts = &s->options;
  memset(o, 0, sizeof *o);
  CP_RETURN_IF_ERROR(cp_options_int64(opts, CP_OPT_BUCKET, -1, &o->bucket, err));
  CP_RETURN_IF_ERROR(cp_options_bool(opts, CP_OPT_ROW_TRACKING, false, &o->row_tracking, err));
  CP_RETURN_IF_ERROR(cp_options_bool(opts, CP_OPT_DATA_EVOLUTION, false, &o->data_evolution, err));
  CP_RETURN_IF_ERROR(
      cp_options_bool(opts, CP_OPT_DELETION_VECTORS, false, &o->deletion_vectors, err));
  CP_RETURN_IF_ERROR(cp_options_bool(opts, CP_OPT_PARTITION_GROUP_ON_COMMIT, true,
                                     &o->partition_group_on_commit, err));
  CP_RETURN_IF_ERROR(cp_options_memory_size(opts, CP_OPT_TARGET_FILE_SIZE, 256LL << 20,
                                            &o->target_file_size, err));
  CP_RETURN_IF_ERROR(
      cp_options_int64(opts, CP_OPT_TARGET_FILE_ROW_NUM, INT64_MAX, &o->target_file_row_num, err));
  if (o->target_file_row_num < 1)
    return paimon_error_set(err, PAIMON_EINVAL, "%s should be at least 1",
                            CP_OPT_TARGET_FILE_ROW_NUM);
  const char *codec = opt_or(s, CP_OPT_FILE_COMPRESSION, "zstd");
  /* Parquet "lz4" means LZ4_RAW when writing (spec/parquet.md §2.3.4). */
  if (strcasecmp(codec, "lz4") == 0)
    o->file_codec = CP_CODEC_LZ4_RAW;
  else {
    int rc = cp_codec_from_name(codec, &o->file_codec, err);
    if (rc) return paimon_error_prefix(err, "table option '%s'", CP_OPT_FILE_COMPRESSION);
  }
  int64_t level;
  CP_RETURN_IF_ERROR(cp_options_int64(opts, CP_OPT_FILE_COMPRESSION_ZSTD_LEVEL, 1, &level, err));
  o->file_zstd_level = (int)level;
  int64_t threads;
  CP_RETURN_IF_ERROR(cp_options_int64(opts, CP_OPT_WRITE_COMPRESS_THREADS, -1, &threads, err));
  if (threads < -1 || threads > 64)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "table option '%s' must be -1 (automatic) or 0..64, got %" PRId64,
                            CP_OPT_WRITE_COMPRESS_THREADS, threads);
  o->compress_threads = (int)threads;
  o->file_format = opt_or(s, CP_OPT_FILE_FORMAT, "parquet");
  const char *mcodec = opt_or(s, CP_OPT_MANIFEST_COMPRESSION, "zstd");
  o->manifest_codec = strcasecmp(mcodec, "zstd") == 0 ? "zstandard" : mcodec;
  CP_RETURN_IF_ERROR(cp_options_memory_size(opts, CP_OPT_MANIFEST_TARGET_FILE_SIZE, 8LL << 20,
                                            &o->manifest_target_size, err));
  CP_RETURN_IF_ERROR(cp_options_int64(opts, CP_OPT_MANIFEST_MERGE_MIN_COUNT, 30,
                                      &o->manifest_merge_min_count, err));
  o->partition_default_name = opt_or(s, CP_OPT_PARTITION_DEFAULT_NAME, "__DEFAULT_PARTITION__");
  CP_RETURN_IF_ERROR(
      cp_options_int64(opts, CP_OPT_COMMIT_MAX_RETRIES, 10, &o->commit_max_retries, err));
  o->data_file_prefix = opt_or(s, CP_OPT_DATA_FILE_PREFIX, "data-");
  o->full_stats = strcasecmp(opt_or(s, CP_OPT_STATS_MODE, "none"), "full") == 0;
  return PAIMON_OK;
}

/* Options that configure a file system (docs/options.md, "Object storage"). */
static bool is_fs_option(const char *key) {
  static const char *const prefixes[] = {"fs.", "s3.", "s3a.", "oss.", "cpaimon.fs."};
  for (size_t i = 0; i < sizeof prefixes / sizeof *prefixes; i++)
    if (strncmp(key, prefixes[i], strlen(prefixes[i])) == 0) return true;
  return false;
}

/* A table whose options set file-system options gets its own file system, configured by the
 * catalog's options overridden by the table's. */
static int open_table_fs(paimon_table *t, paimon_error *err) {
  const cp_options *o = &t->schema->options;
  if (t->token_expires_ms) return PAIMON_OK; /* the data token decides (a REST table) */
  bool own = false;
  for (size_t i = 0; i < o->n && !own; i++) own = is_fs_option(o->keys[i]);
  if (!own) return PAIMON_OK;
  cp_fs_conf conf;
  CP_RETURN_IF_ERROR(cp_catalog_fs_conf(t->catalog, o, &conf, err));
  cp_fs_free(t->owned_fs); /* (a REST table's, opened without the table's own options) */
  int rc = cp_fs_open(t->path, &conf, &t->owned_fs, err);
  free((void *)conf.keys);
  free((void *)conf.values);
  if (rc) return paimon_error_prefix(err, "table %s", t->full_name);
  t->fs = t->owned_fs;
  return PAIMON_OK;
}

/* The file system of a REST table's path from the catalog's merged options: its own for an
 * object store, the catalog's local one otherwise. */
static int open_catalog_fs(paimon_table *t, paimon_error *err) {
  paimon_catalog *c = t->catalog;
  if (cp_uri_is_object_store(t->path)) {
    const cp_options *o = cp_rest_options(c->rest);
    cp_fs_conf fc = {(const char *const *)o->keys, (const char *const *)o->values, o->n};
    CP_RETURN_IF_ERROR(cp_fs_open(t->path, &fc, &t->owned_fs, err));
    t->fs = t->owned_fs;
    return PAIMON_OK;
  }
  if (!c->fs) CP_RETURN_IF_ERROR(cp_fs_local_new(&c->fs, err));
  t->fs = c->fs;
  return PAIMON_OK;
}

/* Fetches the table's data token and opens a file system with it (token keys over the catalog's
 * options; dlf.oss-endpoint as fs.oss.endpoint), spec/rest-catalog.md §2.8. A file system of an
 * earlier token is retired, not freed: files opened through it may still be in use. */
static int open_token_fs(paimon_table *t, paimon_error *err) {
  paimon_catalog *c = t->catalog;
  const cp_options *merged = cp_rest_options(c->rest);
  cp_options conf = CP_OPTIONS_INIT;
  int64_t expires = 0;
  int rc = cp_options_copy(&conf, merged, err);
  if (!rc) rc = cp_rest_table_token(c->rest, t->database, t->name, &conf, &expires, err);
  const char *oss = cp_options_get(merged, "dlf.oss-endpoint");
  if (!rc && oss) rc = cp_options_set(&conf, "fs.oss.endpoint", oss, err);
  if (!rc)
    rc = cp_options_int64(merged, "cpaimon.data-token.refresh-margin", 3600000, &t->token_margin_ms,
                          err);
  cp_fs *fs = NULL;
  if (!rc) {
    cp_fs_conf fc = {(const char *const *)conf.keys, (const char *const *)conf.values, conf.n};
    rc = cp_fs_open(t->path, &fc, &fs, err);
  }
  cp_options_free(&conf);
  if (!rc && t->owned_fs) {
    cp_fs **r = realloc(t->retired_fs, (t->n_retired_fs + 1) * sizeof *r);
    if (!r) rc = CP_ENOMEM(err, "table");
    if (!rc) {
      t->retired_fs = r;
      r[t->n_retired_fs++] = t->owned_fs;
    }
  }
  if (rc) {
    cp_fs_free(fs);
    return rc;
  }
  t->owned_fs = t->fs = fs;
  t->token_expires_ms = expires ? expires : INT64_MAX;
  return PAIMON_OK;
}

/* A REST catalog table: where it is and which schema is current come from the server; its
 * files are reached with the catalog's (merged) options, and with the data token the server
 * vends for it when data-token.enabled is set (spec/rest-catalog.md §2.4, §2.8, §4.1). */
static int open_rest_table(paimon_table *t, paimon_error *err) {
  paimon_catalog *c = t->catalog;
  cp_rest_table info;
  CP_RETURN_IF_ERROR(cp_rest_load_table(c->rest, t->database, t->name, &info, err));
  const char *path = info.path;
  if (strncmp(path, "file://", 7) == 0)
    path += 7;
  else if (strncmp(path, "file:/", 6) == 0)
    path += 5;
  t->path = strdup(path);
  t->rest_id = strdup(info.id);
  t->rest_commit = !info.external;
  int rc = t->path && t->rest_id ? PAIMON_OK : CP_ENOMEM(err, "table");
  bool token = false;
  if (!rc) rc = cp_options_bool(cp_rest_options(c->rest), "data-token.enabled", false, &token, err);
  if (!rc) rc = token ? open_token_fs(t, err) : open_catalog_fs(t, err);
  if (!rc) {
    rc = cp_schema_load(t->fs, t->path, info.schema_id, &t->schema, err);
    if (rc) paimon_error_prefix(err, "table %s", t->full_name);
  }
  cp_rest_table_free(&info);
  return rc;
}

int cp_table_latest_snapshot_id(paimon_table *t, int64_t *id, bool *exists, paimon_error *err) {
  /* Every scan, write commit and update starts here: a data token about to expire is renewed
   * first, as Paimon's RESTTokenFileIO does before a file operation. */
  if (t->token_expires_ms && t->token_expires_ms - cp_now_millis() < t->token_margin_ms)
    CP_RETURN_IF_ERROR(open_token_fs(t, err));
  if (!t->rest_commit) return cp_snapshot_latest_id(t->fs, t->path, id, exists, err);
  cp_snapshot *s = NULL;
  CP_RETURN_IF_ERROR(cp_rest_latest_snapshot(t->catalog->rest, t->database, t->name, &s, err));
  *exists = s != NULL;
  *id = s ? s->id : 0;
  cp_snapshot_free(s);
  return PAIMON_OK;
}

int cp_table_open(paimon_catalog *c, const char *db, const char *name, paimon_table **out,
                  paimon_error *err) {
  paimon_table *t = calloc(1, sizeof *t);
  if (!t) return CP_ENOMEM(err, "table");
  t->catalog = c;
  t->fs = c->fs;
  size_t n = strlen(c->warehouse) + strlen(db) + strlen(name) + 8;
  t->path = c->rest ? NULL : malloc(n);
  t->database = strdup(db);
  t->name = strdup(name);
  t->full_name = malloc(strlen(db) + strlen(name) + 2);
  int rc = ((t->path || c->rest) && t->database && t->name && t->full_name)
               ? PAIMON_OK
               : CP_ENOMEM(err, "table");
  if (!rc && c->rest) {
    sprintf(t->full_name, "%s.%s", db, name);
    rc = open_rest_table(t, err);
  } else if (!rc) {
    snprintf(t->path, n, "%s/%s.db/%s", c->warehouse, db, name);
    sprintf(t->full_name, "%s.%s", db, name);
    rc = cp_schema_load_latest(t->fs, t->path, &t->schema, err);
    if (rc == PAIMON_ENOTFOUND)
      rc = paimon_error_set(err, PAIMON_ENOTFOUND, "Table %s does not exist.", t->full_name);
  }
  if (!rc) {
    rc = cp_core_options_parse(t->schema, &t->options, err);
    if (rc) paimon_error_prefix(err, "table %s", t->full_name);
  }
  if (!rc) rc = open_table_fs(t, err);
  if (rc) {
    paimon_table_free(t);
    return rc;
  }
  *out = t;
  return PAIMON_OK;
}

void paimon_table_free(paimon_table *t) {
  if (!t) return;
  cp_fs_free(t->owned_fs);
  for (size_t i = 0; i < t->n_retired_fs; i++) cp_fs_free(t->retired_fs[i]);
  free(t->retired_fs);
  free(t->rest_id);
  cp_table_schema_free(t->schema);
  for (size_t i = 0; i < t->n_schema_cache; i++) cp_table_schema_free(t->schema_cache[i]);
  free(t->schema_cache);
  free(t->path);
  free(t->database);
  free(t->name);
  free(t->full_name);
  free(t);
}

int cp_table_refresh_schema(paimon_table *t, paimon_error *err) {
  cp_table_schema *s;
  CP_RETURN_IF_ERROR(cp_schema_load_latest(t->fs, t->path, &s, err));
  cp_core_options o;
  int rc = cp_core_options_parse(s, &o, err);
  if (rc) {
    cp_table_schema_free(s);
    return rc;
  }
  cp_table_schema_free(t->schema);
  t->schema = s;
  t->options = o;
  return PAIMON_OK;
}

int cp_table_schema_by_id(paimon_table *t, int64_t id, const cp_table_schema **out,
                          paimon_error *err) {
  if (t->schema->id == id) {
    *out = t->schema;
    return PAIMON_OK;
  }
  for (size_t i = 0; i < t->n_schema_cache; i++)
    if (t->schema_cache[i]->id == id) {
      *out = t->schema_cache[i];
      return PAIMON_OK;
    }
  cp_table_schema *s;
  CP_RETURN_IF_ERROR(cp_schema_load(t->fs, t->path, id, &s, err));
  cp_table_schema **cache = realloc(t->schema_cache, (t->n_schema_cache + 1) * sizeof *cache);
  if (!cache) {
    cp_table_schema_free(s);
    return CP_ENOMEM(err, "schema cache");
  }
  t->schema_cache = cache;
  cache[t->n_schema_cache++] = s;
  *out = s;
  return PAIMON_OK;
}

const char *paimon_table_name(const paimon_table *t) { return t->full_name; }
const char *paimon_table_path(const paimon_table *t) { return t->path; }
int64_t paimon_table_schema_id(const paimon_table *t) { return t->schema->id; }

int paimon_table_arrow_schema(const paimon_table *t, struct ArrowSchema *out, paimon_error *err) {
  return cp_row_to_arrow_schema(t->schema->row, out, err);
}

int paimon_table_schema_json(const paimon_table *t, char **out, paimon_error *err) {
  cp_buf b = CP_BUF_INIT;
  int rc = cp_table_schema_write(t->schema, &b, err);
  if (!rc) rc = cp_buf_nul_terminate(&b, err);
  if (rc) {
    cp_buf_free(&b);
    return rc;
  }
  *out = (char *)cp_buf_detach(&b);
  return PAIMON_OK;
}

const char *paimon_table_option(const paimon_table *t, const char *key) {
  return cp_options_get(&t->schema->options, key);
}

size_t paimon_table_partition_key_count(const paimon_table *t) {
  return t->schema->n_partition_keys;
}

const char *paimon_table_partition_key(const paimon_table *t, size_t i) {
  return i < t->schema->n_partition_keys ? t->schema->partition_keys[i] : NULL;
}

int paimon_table_latest_snapshot_id(paimon_table *t, int64_t *out, paimon_error *err) {
  bool exists;
  CP_RETURN_IF_ERROR(cp_table_latest_snapshot_id(t, out, &exists, err));
  if (!exists) *out = 0;
  return PAIMON_OK;
}

int cp_table_partition_path(paimon_table *t, cp_bytes partition, cp_buf *out, paimon_error *err) {
  const cp_table_schema *s = t->schema;
  size_t k = s->n_partition_keys;
  if (k == 0) return PAIMON_OK;
  const cp_type **types = malloc(k * sizeof *types);
  cp_datum *values = malloc(k * sizeof *values);
  int rc = (types && values) ? PAIMON_OK : CP_ENOMEM(err, "partition");
  for (size_t i = 0; !rc && i < k; i++)
    types[i] = s->row->fields[cp_table_schema_partition_index(s, i)].type;
  if (!rc)
    rc = cp_binary_row_read(partition.data, partition.len, (const cp_type *const *)types, k, values,
                            err);
  if (!rc)
    rc = cp_partition_path((const char *const *)s->partition_keys, (const cp_type *const *)types,
                           values, k, t->options.partition_default_name, out, err);
  free(types);
  free(values);
  return rc;
}

int cp_data_file_path(paimon_table *t, cp_bytes partition, int32_t bucket,
                      const cp_data_file_meta *f, char **out, paimon_error *err) {
  *out = NULL;
  /* The readers of metadata refuse such names already (meta/data_file.h); this is the one place
   * data file paths are made, so nothing reaches outside the table whatever built `f`. */
  if (f->external_path) {
    CP_RETURN_IF_ERROR(cp_check_external_path(f->external_path, "data file", err));
    *out = strdup(f->external_path);
    return *out ? PAIMON_OK : CP_ENOMEM(err, "path");
  }
  CP_RETURN_IF_ERROR(
      cp_check_file_name(f->file_name, f->file_name ? strlen(f->file_name) : 0, "data file", err));
  cp_buf b = CP_BUF_INIT;
  int rc = cp_buf_appendf(&b, err, "%s/", t->path);
  if (!rc) rc = cp_table_partition_path(t, partition, &b, err);
  if (!rc) rc = cp_buf_appendf(&b, err, "bucket-%d/%s", (int)bucket, f->file_name);
  if (!rc) rc = cp_buf_nul_terminate(&b, err);
  if (rc) {
    cp_buf_free(&b);
    return rc;
  }
  *out = (char *)cp_buf_detach(&b);
  return PAIMON_OK;
}

void cp_table_writer_options(const paimon_table *t, cp_pq_writer_options *o) {
  cp_pq_writer_options_init(o);
  o->codec = t->options.file_codec;
  o->compression_level = t->options.file_codec == CP_CODEC_ZSTD ? t->options.file_zstd_level : 0;
  int threads = t->options.compress_threads;
  if (threads < 0) threads = sysconf(_SC_NPROCESSORS_ONLN) >= 2 ? 1 : 0;
  o->compress_threads = t->options.file_codec == CP_CODEC_NONE ? 0 : threads;
}
