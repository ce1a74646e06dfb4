/* Snapshot, hint and schema files (store.h; spec/format.md §2, §3, §6.2). */
#include "table/store.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/status.h"

#define MAX_META_FILE ((size_t)64 << 20)

static int cmp_i64(const void *a, const void *b) {
  int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
  return (x > y) - (x < y);
}

/* Parses a decimal id; false unless the whole text is digits (Java Long.parseLong of the suffix).
 */
static bool parse_id(const char *s, int64_t *out) {
  if (!*s || strlen(s) > 18) return false;
  int64_t v = 0;
  for (; *s; s++) {
    if (*s < '0' || *s > '9') return false;
    v = v * 10 + (*s - '0');
  }
  *out = v;
  return true;
}

int cp_list_versioned(cp_fs *fs, const char *dir, const char *prefix, int64_t **ids, size_t *n,
                      paimon_error *err) {
  *ids = NULL;
  *n = 0;
  cp_fs_list_result list = {0};
  int rc = cp_fs_list(fs, dir, &list, err);
  if (rc == PAIMON_ENOTFOUND) return PAIMON_OK;
  CP_RETURN_IF_ERROR(rc);
  size_t plen = strlen(prefix);
  int64_t *out = list.count ? malloc(list.count * sizeof *out) : NULL;
  if (list.count && !out) {
    cp_fs_list_free(&list);
    return CP_ENOMEM(err, "listing");
  }
  for (size_t i = 0; i < list.count; i++) {
    const char *name = list.entries[i].name;
    int64_t id;
    if (!list.entries[i].is_dir && strncmp(name, prefix, plen) == 0 && parse_id(name + plen, &id))
      out[(*n)++] = id;
  }
  cp_fs_list_free(&list);
  if (*n > 1) qsort(out, *n, sizeof *out, cmp_i64);
  *ids = out;
  return PAIMON_OK;
}

static char *path_of(const char *table_path, const char *sub, const char *prefix, int64_t id) {
  size_t len = strlen(table_path) + strlen(sub) + strlen(prefix) + 32;
  char *p = malloc(len);
  if (p) snprintf(p, len, "%s/%s/%s%" PRId64, table_path, sub, prefix, id);
  return p;
}

static int file_exists(cp_fs *fs, const char *table_path, const char *sub, const char *prefix,
                       int64_t id, bool *out, paimon_error *err) {
  char *p = path_of(table_path, sub, prefix, id);
  if (!p) return CP_ENOMEM(err, "path");
  int rc = cp_fs_file_exists(fs, p, out, err);
  free(p);
  return rc;
}

/* Reads a hint file; false when missing or unreadable (hints are advisory). */
static bool read_hint(cp_fs *fs, const char *table_path, const char *name, int64_t *out) {
  char *p = malloc(strlen(table_path) + strlen(name) + 16);
  if (!p) return false;
  sprintf(p, "%s/snapshot/%s", table_path, name);
  cp_buf b = CP_BUF_INIT;
  bool ok = cp_fs_read_file(fs, p, &b, 64, NULL) == 0 && cp_hint_parse(b.data, b.len, out) == 0;
  cp_buf_free(&b);
  free(p);
  return ok;
}

static int listed_extreme(cp_fs *fs, const char *table_path, bool want_max, int64_t *id,
                          bool *exists, paimon_error *err) {
  char *dir = malloc(strlen(table_path) + 16);
  if (!dir) return CP_ENOMEM(err, "path");
  sprintf(dir, "%s/snapshot", table_path);
  int64_t *ids;
  size_t n;
  int rc = cp_list_versioned(fs, dir, "snapshot-", &ids, &n, err);
  free(dir);
  CP_RETURN_IF_ERROR(rc);
  *exists = n > 0;
  if (n) *id = want_max ? ids[n - 1] : ids[0];
  free(ids);
  return PAIMON_OK;
}

int cp_snapshot_latest_id(cp_fs *fs, const char *table_path, int64_t *id, bool *exists,
                          paimon_error *err) {
  int64_t hint;
  if (read_hint(fs, table_path, "LATEST", &hint) && hint > 0) {
    /* The hint is the latest when its snapshot exists and none follows it (Java's
     * HintFileUtils.findLatest checks only the next; a hint left pointing at a removed snapshot
     * must not win). Both are asked at once: one round trip on an object store. */
    char *paths[2] = {path_of(table_path, "snapshot", "snapshot-", hint),
                      path_of(table_path, "snapshot", "snapshot-", hint + 1)};
    cp_buf bufs[2] = {CP_BUF_INIT, CP_BUF_INIT};
    int rcs[2] = {0, 0};
    int rc = paths[0] && paths[1] ? cp_fs_read_files(fs, (const char *const *)paths, 2,
                                                     MAX_META_FILE, bufs, rcs, err)
                                  : CP_ENOMEM(err, "path");
    for (int i = 0; i < 2; i++) {
      free(paths[i]);
      cp_buf_free(&bufs[i]);
    }
    CP_RETURN_IF_ERROR(rc);
    if (rcs[0] == 0 && rcs[1] == PAIMON_ENOTFOUND) {
      *id = hint;
      *exists = true;
      return PAIMON_OK;
    }
  }
  return listed_extreme(fs, table_path, true, id, exists, err);
}

int cp_snapshot_earliest_id(cp_fs *fs, const char *table_path, int64_t *id, bool *exists,
                            paimon_error *err) {
  int64_t hint;
  if (read_hint(fs, table_path, "EARLIEST", &hint)) {
    bool here;
    CP_RETURN_IF_ERROR(file_exists(fs, table_path, "snapshot", "snapshot-", hint, &here, err));
    if (here) {
      *id = hint;
      *exists = true;
      return PAIMON_OK;
    }
  }
  return listed_extreme(fs, table_path, false, id, exists, err);
}

int cp_snapshot_load(cp_fs *fs, const char *table_path, int64_t id, cp_snapshot **out,
                     paimon_error *err) {
  char *p = path_of(table_path, "snapshot", "snapshot-", id);
  if (!p) return CP_ENOMEM(err, "path");
  cp_buf b = CP_BUF_INIT;
  int rc = cp_fs_read_file(fs, p, &b, MAX_META_FILE, err);
  if (rc == PAIMON_ENOTFOUND)
    rc = paimon_error_set(err, PAIMON_ENOTFOUND, "snapshot %" PRId64 " of table %s does not exist",
                          id, table_path);
  if (!rc) rc = cp_snapshot_parse(b.data, b.len, p, out, err);
  if (!rc && (*out)->id != id) {
    rc = paimon_error_set(err, PAIMON_ECORRUPT, "%s: holds snapshot id %" PRId64, p, (*out)->id);
    cp_snapshot_free(*out);
    *out = NULL;
  }
  cp_buf_free(&b);
  free(p);
  return rc;
}

int cp_publish_file(cp_fs *fs, const char *dir, const char *name, const void *data, size_t len,
                    paimon_error *err) {
  char *path = cp_path_join(dir, name);
  if (!path) return CP_ENOMEM(err, "path");
  int rc = cp_fs_publish(fs, path, data, len, false, err);
  free(path);
  return rc;
}

int cp_snapshot_publish(cp_fs *fs, const char *table_path, const cp_snapshot *snap,
                        paimon_error *err) {
  cp_buf json = CP_BUF_INIT;
  char *dir = malloc(strlen(table_path) + 16), name[40];
  int rc = dir ? PAIMON_OK : CP_ENOMEM(err, "path");
  if (!rc) {
    sprintf(dir, "%s/snapshot", table_path);
    snprintf(name, sizeof name, "snapshot-%" PRId64, snap->id);
    rc = cp_snapshot_write(snap, &json, err);
  }
  if (!rc) rc = cp_publish_file(fs, dir, name, json.data, json.len, err);
  if (!rc) {
    /* The LATEST hint is advisory (§3.1): readers verify it, so a failed update only costs them a
     * directory listing. It is replaced atomically, so a crash never leaves it empty. */
    char hint[24], *path = malloc(strlen(dir) + 16);
    int len = snprintf(hint, sizeof hint, "%" PRId64, snap->id);
    if (path) {
      sprintf(path, "%s/LATEST", dir);
      cp_fs_publish(fs, path, hint, (size_t)len, true, NULL);
      free(path);
    }
  }
  cp_buf_free(&json);
  free(dir);
  return rc;
}

int cp_snapshot_write_hint(cp_fs *fs, const char *table_path, const char *name, int64_t id,
                           paimon_error *err) {
  char hint[24], *path = malloc(strlen(table_path) + strlen(name) + 16);
  if (!path) return CP_ENOMEM(err, "path");
  int len = snprintf(hint, sizeof hint, "%" PRId64, id);
  sprintf(path, "%s/snapshot/%s", table_path, name);
  int rc = cp_fs_publish(fs, path, hint, (size_t)len, true, err);
  free(path);
  return rc;
}

int cp_snapshot_delete(cp_fs *fs, const char *table_path, int64_t id, paimon_error *err) {
  char *p = path_of(table_path, "snapshot", "snapshot-", id);
  if (!p) return CP_ENOMEM(err, "path");
  int rc = cp_fs_delete(fs, p, err);
  free(p);
  if (rc == PAIMON_ENOTFOUND) {
    paimon_error_clear(err);
    rc = PAIMON_OK;
  }
  return rc;
}

int cp_snapshot_exists(cp_fs *fs, const char *table_path, int64_t id, bool *out,
                       paimon_error *err) {
  return file_exists(fs, table_path, "snapshot", "snapshot-", id, out, err);
}

int cp_schema_load(cp_fs *fs, const char *table_path, int64_t id, cp_table_schema **out,
                   paimon_error *err) {
  char *p = path_of(table_path, "schema", "schema-", id);
  if (!p) return CP_ENOMEM(err, "path");
  cp_buf b = CP_BUF_INIT;
  int rc = cp_fs_read_file(fs, p, &b, MAX_META_FILE, err);
  if (rc == PAIMON_ENOTFOUND)
    rc = paimon_error_set(err, PAIMON_ENOTFOUND, "schema %" PRId64 " of table %s does not exist",
                          id, table_path);
  if (!rc) rc = cp_table_schema_parse(b.data, b.len, p, out, err);
  cp_buf_free(&b);
  free(p);
  return rc;
}

int cp_schema_load_latest(cp_fs *fs, const char *table_path, cp_table_schema **out,
                          paimon_error *err) {
  char *dir = malloc(strlen(table_path) + 16);
  if (!dir) return CP_ENOMEM(err, "path");
  sprintf(dir, "%s/schema", table_path);
  int64_t *ids;
  size_t n;
  int rc = cp_list_versioned(fs, dir, "schema-", &ids, &n, err);
  free(dir);
  CP_RETURN_IF_ERROR(rc);
  if (n == 0)
    rc = paimon_error_set(err, PAIMON_ENOTFOUND, "%s has no schema", table_path);
  else
    rc = cp_schema_load(fs, table_path, ids[n - 1], out, err);
  free(ids);
  return rc;
}

int cp_schema_publish(cp_fs *fs, const char *table_path, const cp_table_schema *schema,
                      paimon_error *err) {
  cp_buf json = CP_BUF_INIT;
  char *dir = malloc(strlen(table_path) + 16), name[40];
  int rc = dir ? PAIMON_OK : CP_ENOMEM(err, "path");
  if (!rc) {
    sprintf(dir, "%s/schema", table_path);
    snprintf(name, sizeof name, "schema-%" PRId64, schema->id);
    rc = cp_table_schema_write(schema, &json, err);
  }
  if (!rc) rc = cp_publish_file(fs, dir, name, json.data, json.len, err);
  cp_buf_free(&json);
  free(dir);
  return rc;
}
