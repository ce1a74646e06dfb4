/*
 * The file-I/O seam's dispatch (fs.h): picks the backend by scheme, counts every call, fires
 * injected faults, then calls the backend through its operation table (fs_impl.h). What works the
 * same on every store (whole-file reads and writes, listings, path joins) is here too.
 *
 * The counters are atomics so that concurrent use of one cp_fs for distinct files stays
 * well-defined.
 */
#include "base/fs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/fs_impl.h"
#include "base/status.h"

static const char *const cp_fs_op_names[CP_FS_OP_COUNT] = {
    "open", "read",   "create", "write", "fsync", "close",   "rename",
    "link", "delete", "mkdirs", "list",  "stat",  "publish",
};

const char *cp_fs_op_name(cp_fs_op op) {
  if ((unsigned)op >= CP_FS_OP_COUNT) return "unknown";
  return cp_fs_op_names[op];
}

void cp_fs_init(cp_fs *fs, const cp_fs_ops *ops) {
  fs->ops = ops;
  for (int i = 0; i < CP_FS_OP_COUNT; i++) {
    atomic_init(&fs->counts[i], 0);
    atomic_init(&fs->fault_at[i], 0);
    fs->fault_code[i] = 0;
  }
}

bool cp_uri_is_object_store(const char *uri) {
  static const char *const schemes[] = {"s3://", "s3a://", "s3n://", "oss://"};
  for (size_t i = 0; i < sizeof schemes / sizeof *schemes; i++)
    if (strncasecmp(uri, schemes[i], strlen(schemes[i])) == 0) return true;
  return false;
}

int cp_fs_open(const char *uri, const cp_fs_conf *conf, cp_fs **out, paimon_error *err) {
  *out = NULL;
  if (!uri) return paimon_error_set(err, PAIMON_EINVAL, "file system: no path");
  if (cp_uri_is_object_store(uri)) return cp_fs_s3_new(uri, conf, out, err);
  const char *colon = strstr(uri, "://");
  if (colon && strncasecmp(uri, "file://", 7) != 0) {
    /* A scheme is letters, digits, '+', '-', '.' before "://"; anything else is a plain path. */
    bool scheme = colon > uri;
    for (const char *p = uri; p < colon && scheme; p++)
      scheme = (*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
               (p > uri && ((*p >= '0' && *p <= '9') || *p == '+' || *p == '-' || *p == '.'));
    if (scheme)
      return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                              "%s: cpaimon has no file system for scheme '%.*s' (it reads local "
                              "paths, file://, s3://, s3a://, s3n:// and oss://)",
                              uri, (int)(colon - uri), uri);
  }
  return cp_fs_local_new(out, err);
}

void cp_fs_free(cp_fs *fs) {
  if (fs) fs->ops->destroy(fs);
}

bool cp_fs_is_object_store(const cp_fs *fs) { return fs->ops->object_store; }

uint64_t cp_fs_requests(const cp_fs *fs) { return fs->ops->requests ? fs->ops->requests(fs) : 0; }

void cp_fs_inject_fault(cp_fs *fs, cp_fs_op op, int nth, int code) {
  if ((unsigned)op >= CP_FS_OP_COUNT) return;
  if (nth <= 0) {
    atomic_store(&fs->fault_at[op], 0);
    return;
  }
  fs->fault_code[op] = code;
  atomic_store(&fs->fault_at[op], atomic_load(&fs->counts[op]) + (uint64_t)nth);
}

uint64_t cp_fs_op_count(const cp_fs *fs, cp_fs_op op) {
  if ((unsigned)op >= CP_FS_OP_COUNT) return 0;
  return atomic_load(&((cp_fs *)fs)->counts[op]);
}

/* The fault disarms itself (compare-exchange) so exactly one call fails even under concurrent
 * use. */
int cp_fs_enter(cp_fs *fs, cp_fs_op op, const char *path, paimon_error *err) {
  uint64_t n = atomic_fetch_add(&fs->counts[op], 1) + 1;
  uint64_t at = atomic_load(&fs->fault_at[op]);
  if (at == 0 || n != at) return PAIMON_OK;
  if (!atomic_compare_exchange_strong(&fs->fault_at[op], &at, 0)) return PAIMON_OK;
  int code = fs->fault_code[op] ? fs->fault_code[op] : PAIMON_EIO;
  return paimon_error_set(err, code, "%s of %s: injected fault (call %llu)", cp_fs_op_name(op),
                          path, (unsigned long long)n);
}

/* ---- reading ---- */

int cp_fs_open_read(cp_fs *fs, const char *path, cp_rfile **out, paimon_error *err) {
  *out = NULL;
  CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_OPEN_READ, path, err));
  return fs->ops->open_read(fs, path, out, err);
}

uint64_t cp_rfile_size(const cp_rfile *f) { return f->size; }

const char *cp_rfile_path(const cp_rfile *f) { return f->path; }

int cp_rfile_read_at(cp_rfile *f, uint64_t offset, void *dst, size_t len, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_fs_enter(f->fs, CP_FS_OP_READ, f->path, err));
  if (offset > f->size || len > f->size - offset)
    return paimon_error_set(
        err, PAIMON_ECORRUPT, "read of %s [%llu, %llu): past end of file (size %llu)", f->path,
        (unsigned long long)offset, (unsigned long long)offset + len, (unsigned long long)f->size);
  if (len == 0) return PAIMON_OK;
  return f->fs->ops->read_at(f, offset, dst, len, err);
}

int cp_rfile_will_read(cp_rfile *f, const cp_fs_range *ranges, size_t n, paimon_error *err) {
  if (!f->fs->ops->will_read || n == 0) return PAIMON_OK;
  return f->fs->ops->will_read(f, ranges, n, err);
}

bool cp_rfile_cheap_head(const cp_rfile *f) { return !f->fs->ops->object_store; }

void cp_rfile_close(cp_rfile *f) {
  if (f) f->fs->ops->close_read(f);
}

int cp_fs_read_file(cp_fs *fs, const char *path, cp_buf *out, size_t max_len, paimon_error *err) {
  if (fs->ops->read_file) {
    CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_OPEN_READ, path, err));
    CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_READ, path, err));
    return fs->ops->read_file(fs, path, out, max_len, err);
  }
  cp_rfile *f;
  CP_RETURN_IF_ERROR(cp_fs_open_read(fs, path, &f, err));
  int rc = PAIMON_OK;
  if (f->size > max_len) {
    rc = paimon_error_set(err, PAIMON_EINVAL, "read of %s: file is %llu bytes, limit is %zu", path,
                          (unsigned long long)f->size, max_len);
  } else if (f->size > 0) {
    rc = cp_buf_reserve(out, (size_t)f->size, err);
    if (rc == 0) rc = cp_rfile_read_at(f, 0, out->data + out->len, (size_t)f->size, err);
    if (rc == 0) out->len += (size_t)f->size;
  }
  cp_rfile_close(f);
  return rc;
}

int cp_fs_read_files(cp_fs *fs, const char *const *paths, size_t n, size_t max_len, cp_buf *outs,
                     int *rcs, paimon_error *err) {
  for (size_t i = 0; i < n; i++) {
    if (rcs) rcs[i] = PAIMON_OK;
    CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_OPEN_READ, paths[i], err));
    CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_READ, paths[i], err));
  }
  if (fs->ops->read_files) return fs->ops->read_files(fs, paths, n, max_len, outs, rcs, err);
  for (size_t i = 0; i < n; i++) {
    paimon_error e = {0};
    int rc = fs->ops->read_file ? fs->ops->read_file(fs, paths[i], &outs[i], max_len, &e)
                                : cp_fs_read_file(fs, paths[i], &outs[i], max_len, &e);
    if (rc == PAIMON_ENOTFOUND && rcs) {
      rcs[i] = rc;
      continue;
    }
    if (rc) return paimon_error_set(err, rc, "%s", e.message);
  }
  return PAIMON_OK;
}

/* ---- writing ---- */

int cp_fs_create(cp_fs *fs, const char *path, cp_create_mode mode, cp_wfile **out,
                 paimon_error *err) {
  *out = NULL;
  CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_CREATE, path, err));
  return fs->ops->create(fs, path, mode, out, err);
}

int cp_wfile_write(cp_wfile *f, const void *src, size_t n, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_fs_enter(f->fs, CP_FS_OP_WRITE, f->path, err));
  return f->fs->ops->write(f, src, n, err);
}

uint64_t cp_wfile_pos(const cp_wfile *f) { return f->pos; }

int cp_wfile_sync(cp_wfile *f, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_fs_enter(f->fs, CP_FS_OP_FSYNC, f->path, err));
  return f->fs->ops->sync ? f->fs->ops->sync(f, err) : PAIMON_OK;
}

int cp_wfile_close(cp_wfile *f, paimon_error *err) {
  if (!f) return PAIMON_OK;
  int rc = cp_fs_enter(f->fs, CP_FS_OP_CLOSE, f->path, err);
  if (rc) {
    /* An injected close failure: the file must not appear, as when a real close fails. */
    f->fs->ops->abort_write(f);
    return rc;
  }
  return f->fs->ops->close_write(f, err);
}

void cp_wfile_abort(cp_wfile *f) {
  if (f) f->fs->ops->abort_write(f);
}

int cp_fs_write_file(cp_fs *fs, const char *path, const void *data, size_t n, cp_create_mode mode,
                     bool fsync, paimon_error *err) {
  cp_wfile *f;
  CP_RETURN_IF_ERROR(cp_fs_create(fs, path, mode, &f, err));
  int rc = cp_wfile_write(f, data, n, err);
  if (rc == 0 && fsync) rc = cp_wfile_sync(f, err);
  if (rc != 0) {
    cp_wfile_abort(f);
    return rc;
  }
  rc = cp_wfile_close(f, err);
  /* The handle is gone, but a file whose close failed may hold less than was written. */
  if (rc != 0 && !fs->ops->object_store) fs->ops->remove(fs, path, NULL);
  return rc;
}

int cp_fs_publish(cp_fs *fs, const char *path, const void *data, size_t n, bool replace,
                  paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_PUBLISH, path, err));
  return fs->ops->publish(fs, path, data, n, replace, err);
}

/* ---- namespace ---- */

int cp_fs_rename_noreplace(cp_fs *fs, const char *from, const char *to, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_RENAME, to, err));
  return fs->ops->rename_noreplace(fs, from, to, err);
}

int cp_fs_link(cp_fs *fs, const char *from, const char *to, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_LINK, to, err));
  return fs->ops->link(fs, from, to, err);
}

int cp_fs_delete(cp_fs *fs, const char *path, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_DELETE, path, err));
  return fs->ops->remove(fs, path, err);
}

int cp_fs_delete_dir(cp_fs *fs, const char *path, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_DELETE, path, err));
  return fs->ops->remove_dir(fs, path, err);
}

int cp_fs_exists(cp_fs *fs, const char *path, bool *out, paimon_error *err) {
  *out = false;
  CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_STAT, path, err));
  cp_fs_stat st = {0};
  CP_RETURN_IF_ERROR(fs->ops->stat(fs, path, true, &st, err));
  *out = st.exists;
  return PAIMON_OK;
}

int cp_fs_file_exists(cp_fs *fs, const char *path, bool *out, paimon_error *err) {
  *out = false;
  CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_STAT, path, err));
  cp_fs_stat st = {0};
  CP_RETURN_IF_ERROR(fs->ops->stat(fs, path, false, &st, err));
  *out = st.exists && !st.is_dir;
  return PAIMON_OK;
}

int cp_fs_size(cp_fs *fs, const char *path, uint64_t *out, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_STAT, path, err));
  cp_fs_stat st = {0};
  CP_RETURN_IF_ERROR(fs->ops->stat(fs, path, true, &st, err));
  if (!st.exists)
    return paimon_error_set(err, PAIMON_ENOTFOUND, "stat of %s: No such file or directory", path);
  *out = st.is_dir ? 0 : st.size;
  return PAIMON_OK;
}

int cp_fs_mkdirs(cp_fs *fs, const char *path, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_MKDIRS, path, err));
  if (!path[0]) return paimon_error_set(err, PAIMON_EINVAL, "mkdirs of an empty path");
  return fs->ops->mkdirs(fs, path, err);
}

int cp_fs_sync_dir(cp_fs *fs, const char *path, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_FSYNC, path, err));
  return fs->ops->sync_dir ? fs->ops->sync_dir(fs, path, err) : PAIMON_OK;
}

/* ---- listings ---- */

static int cp_entry_cmp(const void *a, const void *b) {
  return strcmp(((const cp_fs_entry *)a)->name, ((const cp_fs_entry *)b)->name);
}

void cp_fs_list_sort(cp_fs_list_result *out) {
  if (out->count > 1) qsort(out->entries, out->count, sizeof *out->entries, cp_entry_cmp);
}

void cp_fs_list_free(cp_fs_list_result *l) {
  if (!l) return;
  for (size_t i = 0; i < l->count; i++) free(l->entries[i].name);
  free(l->entries);
  l->entries = NULL;
  l->count = 0;
}

int cp_fs_list_push(cp_fs_list_result *out, size_t *cap, const char *name, size_t name_len,
                    bool is_dir, uint64_t size, paimon_error *err) {
  if (out->count == *cap) {
    size_t ncap = *cap ? *cap * 2 : 16;
    cp_fs_entry *p = realloc(out->entries, ncap * sizeof *p);
    if (!p) return CP_ENOMEM(err, "directory listing");
    out->entries = p;
    *cap = ncap;
  }
  char *copy = strndup(name, name_len);
  if (!copy) return CP_ENOMEM(err, "directory listing");
  out->entries[out->count++] = (cp_fs_entry){copy, is_dir, is_dir ? 0 : size, 0};
  return PAIMON_OK;
}

int cp_fs_list(cp_fs *fs, const char *dir, cp_fs_list_result *out, paimon_error *err) {
  out->entries = NULL;
  out->count = 0;
  CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_LIST, dir, err));
  int rc = fs->ops->list(fs, dir, out, err);
  if (rc) {
    cp_fs_list_free(out);
    return rc;
  }
  cp_fs_list_sort(out);
  return PAIMON_OK;
}

char *cp_path_join(const char *a, const char *b) {
  size_t la = strlen(a), lb = strlen(b);
  bool sep = la > 0 && a[la - 1] != '/';
  char *p = malloc(la + sep + lb + 1);
  if (!p) return NULL;
  memcpy(p, a, la);
  if (sep) p[la] = '/';
  memcpy(p + la + sep, b, lb + 1);
  return p;
}
