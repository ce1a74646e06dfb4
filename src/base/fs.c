/*
 * The local-disk implementation of the file-I/O seam (fs.h; DESIGN.md "One file-IO seam").
 *
 * Everything is plain POSIX on file descriptors. The atomic publish Paimon's commit protocol needs
 * ("write snapshot-N only if nobody else did", spec/format.md §6.2) is
 * renameat2(RENAME_NOREPLACE), called through syscall() so an old libc does not matter; file
 * systems that reject the flag (EINVAL, or ENOSYS from old kernels) get link()+unlink(), which is
 * equally atomic about the target because link() never replaces an existing name.
 *
 * Every public entry point first passes through cp_fs_enter(), which counts the call and fires an
 * injected fault when one is armed for that call; the counters are atomics so that concurrent use
 * of one cp_fs for distinct files stays well-defined.
 */
#include "base/fs.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include "base/status.h"

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

/* A directory tree deeper than this is not something Paimon creates; refusing it bounds the file
 * descriptors cp_fs_delete_dir keeps open. */
enum { CP_FS_MAX_DELETE_DEPTH = 128 };

struct cp_fs {
  _Atomic uint64_t counts[CP_FS_OP_COUNT];
  /* The call number (1-based, over the life of the fs) that fails, or 0 when disarmed. */
  _Atomic uint64_t fault_at[CP_FS_OP_COUNT];
  int fault_code[CP_FS_OP_COUNT];
  bool no_renameat2;
};

struct cp_rfile {
  cp_fs *fs;
  int fd;
  uint64_t size;
  char *path;
};

struct cp_wfile {
  cp_fs *fs;
  int fd;
  uint64_t pos;
  char *path;
};

static const char *const cp_fs_op_names[CP_FS_OP_COUNT] = {
    "open",   "read", "create", "write",  "fsync", "close",
    "rename", "link", "delete", "mkdirs", "list",  "stat",
};

const char *cp_fs_op_name(cp_fs_op op) {
  if ((unsigned)op >= CP_FS_OP_COUNT) return "unknown";
  return cp_fs_op_names[op];
}

int cp_fs_local_new(cp_fs **out, paimon_error *err) {
  cp_fs *fs = calloc(1, sizeof *fs);
  if (!fs) return CP_ENOMEM(err, "file system handle");
  for (int i = 0; i < CP_FS_OP_COUNT; i++) {
    atomic_init(&fs->counts[i], 0);
    atomic_init(&fs->fault_at[i], 0);
  }
  *out = fs;
  return PAIMON_OK;
}

void cp_fs_free(cp_fs *fs) { free(fs); }

void cp_fs_local_disable_renameat2(cp_fs *fs) { fs->no_renameat2 = true; }

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

/* Counts one call of kind `op` on `path`; fails it when it is the armed one. The fault disarms
 * itself (compare-exchange) so exactly one call fails even under concurrent use. */
static int cp_fs_enter(cp_fs *fs, cp_fs_op op, const char *path, paimon_error *err) {
  uint64_t n = atomic_fetch_add(&fs->counts[op], 1) + 1;
  uint64_t at = atomic_load(&fs->fault_at[op]);
  if (at == 0 || n != at) return PAIMON_OK;
  if (!atomic_compare_exchange_strong(&fs->fault_at[op], &at, 0)) return PAIMON_OK;
  int code = fs->fault_code[op] ? fs->fault_code[op] : PAIMON_EIO;
  return paimon_error_set(err, code, "%s of %s: injected fault (call %llu)", cp_fs_op_name(op),
                          path, (unsigned long long)n);
}

static int cp_errno_code(int e) {
  switch (e) {
  case ENOENT: return PAIMON_ENOTFOUND;
  case EEXIST: return PAIMON_EEXIST;
  default: return PAIMON_EIO;
  }
}

/* Records errno `e` for operation `what` on `path` ("fsync of <path>: <strerror>"). */
static int cp_fs_errno(paimon_error *err, int e, const char *what, const char *path) {
  char buf[256];
  const char *msg = strerror_r(e, buf, sizeof buf);
  return paimon_error_set(err, cp_errno_code(e), "%s of %s: %s", what, path, msg);
}

/* ---- reading ---- */

int cp_fs_open_read(cp_fs *fs, const char *path, cp_rfile **out, paimon_error *err) {
  *out = NULL;
  CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_OPEN_READ, path, err));
  cp_rfile *f = calloc(1, sizeof *f);
  char *copy = strdup(path);
  if (!f || !copy) {
    free(f);
    free(copy);
    return CP_ENOMEM(err, path);
  }
  int fd;
  do fd = open(path, O_RDONLY | O_CLOEXEC);
  while (fd < 0 && errno == EINTR);
  struct stat st;
  if (fd < 0 || fstat(fd, &st) != 0) {
    int e = errno;
    if (fd >= 0) close(fd);
    free(f);
    free(copy);
    return cp_fs_errno(err, e, "open", path);
  }
  if (S_ISDIR(st.st_mode)) {
    close(fd);
    free(f);
    free(copy);
    return cp_fs_errno(err, EISDIR, "open", path);
  }
  f->fs = fs;
  f->fd = fd;
  f->size = (uint64_t)st.st_size;
  f->path = copy;
  *out = f;
  return PAIMON_OK;
}

uint64_t cp_rfile_size(const cp_rfile *f) { return f->size; }

const char *cp_rfile_path(const cp_rfile *f) { return f->path; }

int cp_rfile_read_at(cp_rfile *f, uint64_t offset, void *dst, size_t len, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_fs_enter(f->fs, CP_FS_OP_READ, f->path, err));
  if (offset > f->size || len > f->size - offset)
    return paimon_error_set(
        err, PAIMON_ECORRUPT, "read of %s [%llu, %llu): past end of file (size %llu)", f->path,
        (unsigned long long)offset, (unsigned long long)offset + len, (unsigned long long)f->size);
  uint8_t *p = dst;
  size_t done = 0;
  while (done < len) {
    ssize_t r = pread(f->fd, p + done, len - done, (off_t)(offset + done));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      char what[96];
      snprintf(what, sizeof what, "read [%llu, %llu)", (unsigned long long)offset,
               (unsigned long long)offset + len);
      if (r < 0) return cp_fs_errno(err, errno, what, f->path);
      /* The file shrank after it was opened: the bytes the caller expects are gone. */
      return paimon_error_set(err, PAIMON_ECORRUPT, "%s of %s: file truncated at %llu", what,
                              f->path, (unsigned long long)(offset + done));
    }
    done += (size_t)r;
  }
  return PAIMON_OK;
}

void cp_rfile_close(cp_rfile *f) {
  if (!f) return;
  close(f->fd);
  free(f->path);
  free(f);
}

int cp_fs_read_file(cp_fs *fs, const char *path, cp_buf *out, size_t max_len, paimon_error *err) {
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

/* ---- writing ---- */

/* The parent directory of `path` as a new string ("" when there is none). */
static char *cp_parent_dir(const char *path) {
  const char *slash = strrchr(path, '/');
  if (!slash) return strdup("");
  if (slash == path) return strdup("/");
  return strndup(path, (size_t)(slash - path));
}

static int cp_mkdirs_raw(const char *path, paimon_error *err);

int cp_fs_create(cp_fs *fs, const char *path, cp_create_mode mode, cp_wfile **out,
                 paimon_error *err) {
  *out = NULL;
  CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_CREATE, path, err));
  cp_wfile *f = calloc(1, sizeof *f);
  char *copy = strdup(path);
  if (!f || !copy) {
    free(f);
    free(copy);
    return CP_ENOMEM(err, path);
  }
  int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (mode == CP_CREATE_EXCLUSIVE ? O_EXCL : O_TRUNC);
  int fd, e = 0;
  for (int attempt = 0; attempt < 2; attempt++) {
    do fd = open(path, flags, 0644);
    while (fd < 0 && errno == EINTR);
    e = errno;
    if (fd >= 0 || e != ENOENT || attempt > 0) break;
    /* Like Java Paimon's LocalFileIO, creating a file creates its missing parent directories:
     * object stores have no directories, so callers must not depend on making them first. */
    char *parent = cp_parent_dir(path);
    int rc = parent ? (parent[0] ? cp_mkdirs_raw(parent, NULL) : PAIMON_ENOTFOUND) : PAIMON_ENOMEM;
    free(parent);
    if (rc != 0) break;
  }
  if (fd < 0) {
    free(f);
    free(copy);
    return cp_fs_errno(err, e, "create", path);
  }
  f->fs = fs;
  f->fd = fd;
  f->path = copy;
  *out = f;
  return PAIMON_OK;
}

int cp_wfile_write(cp_wfile *f, const void *src, size_t n, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_fs_enter(f->fs, CP_FS_OP_WRITE, f->path, err));
  const uint8_t *p = src;
  size_t done = 0;
  while (done < n) {
    ssize_t w = write(f->fd, p + done, n - done);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) {
      f->pos += done;
      char what[64];
      snprintf(what, sizeof what, "write at %llu", (unsigned long long)f->pos);
      return cp_fs_errno(err, errno, what, f->path);
    }
    done += (size_t)w;
  }
  f->pos += n;
  return PAIMON_OK;
}

uint64_t cp_wfile_pos(const cp_wfile *f) { return f->pos; }

int cp_wfile_sync(cp_wfile *f, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_fs_enter(f->fs, CP_FS_OP_FSYNC, f->path, err));
  int r;
  do r = fsync(f->fd);
  while (r != 0 && errno == EINTR);
  if (r != 0) return cp_fs_errno(err, errno, "fsync", f->path);
  return PAIMON_OK;
}

static void cp_wfile_release(cp_wfile *f) {
  free(f->path);
  free(f);
}

int cp_wfile_close(cp_wfile *f, paimon_error *err) {
  if (!f) return PAIMON_OK;
  int rc = cp_fs_enter(f->fs, CP_FS_OP_CLOSE, f->path, err);
  /* close() is not retried on EINTR: Linux releases the descriptor before reporting it. */
  if (close(f->fd) != 0 && rc == 0) rc = cp_fs_errno(err, errno, "close", f->path);
  cp_wfile_release(f);
  return rc;
}

void cp_wfile_abort(cp_wfile *f) {
  if (!f) return;
  close(f->fd);
  unlink(f->path);
  cp_wfile_release(f);
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
  if (rc != 0) unlink(path);
  return rc;
}

/* ---- namespace ---- */

/* "rename of a to b" style operation names for messages about two paths. */
static int cp_fs_errno2(paimon_error *err, int e, const char *what, const char *from,
                        const char *to) {
  char buf[256];
  const char *msg = strerror_r(e, buf, sizeof buf);
  return paimon_error_set(err, cp_errno_code(e), "%s of %s to %s: %s", what, from, to, msg);
}

static int cp_link_then_unlink(const char *from, const char *to, paimon_error *err) {
  if (link(from, to) != 0) return cp_fs_errno2(err, errno, "rename (link)", from, to);
  if (unlink(from) != 0) return cp_fs_errno2(err, errno, "rename (unlink source)", from, to);
  return PAIMON_OK;
}

int cp_fs_rename_noreplace(cp_fs *fs, const char *from, const char *to, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_RENAME, to, err));
  if (fs->no_renameat2) return cp_link_then_unlink(from, to, err);
#ifdef SYS_renameat2
  long r = syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
  if (r == 0) return PAIMON_OK;
  int e = errno;
  if (e != EINVAL && e != ENOSYS) return cp_fs_errno2(err, e, "rename", from, to);
#endif
  return cp_link_then_unlink(from, to, err);
}

int cp_fs_link(cp_fs *fs, const char *from, const char *to, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_LINK, to, err));
  if (link(from, to) != 0) return cp_fs_errno2(err, errno, "link", from, to);
  return PAIMON_OK;
}

int cp_fs_delete(cp_fs *fs, const char *path, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_DELETE, path, err));
  if (unlink(path) == 0) return PAIMON_OK;
  int e = errno;
  /* An empty directory may be deleted as a file, as Java's FileIO.delete(path, false) does. */
  if ((e == EISDIR || e == EPERM) && rmdir(path) == 0) return PAIMON_OK;
  if (e == EISDIR || e == EPERM) e = errno;
  return cp_fs_errno(err, e, "delete", path);
}

/* Removes everything inside the open directory `dfd` (named `path` for messages), then closes it.
 * Symbolic links are removed, never followed. */
static int cp_delete_tree_at(int dfd, const char *path, int depth, paimon_error *err) {
  DIR *d = fdopendir(dfd);
  if (!d) {
    int e = errno;
    close(dfd);
    return cp_fs_errno(err, e, "delete", path);
  }
  int rc = PAIMON_OK;
  struct dirent *ent;
  while (rc == 0 && (errno = 0, ent = readdir(d)) != NULL) {
    const char *name = ent->d_name;
    if (strcmp(name, ".") == 0 || strcmp(name, "..") == 0) continue;
    if (unlinkat(dirfd(d), name, 0) == 0) continue;
    int e = errno;
    char *child = cp_path_join(path, name);
    if (!child) {
      rc = CP_ENOMEM(err, path);
      break;
    }
    if (e == EISDIR || e == EPERM) {
      if (depth >= CP_FS_MAX_DELETE_DEPTH) {
        rc = paimon_error_set(err, PAIMON_EIO, "delete of %s: directory tree deeper than %d", child,
                              CP_FS_MAX_DELETE_DEPTH);
      } else {
        int cfd = openat(dirfd(d), name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (cfd < 0) rc = cp_fs_errno(err, errno, "delete", child);
        if (rc == 0) rc = cp_delete_tree_at(cfd, child, depth + 1, err);
        if (rc == 0 && unlinkat(dirfd(d), name, AT_REMOVEDIR) != 0)
          rc = cp_fs_errno(err, errno, "delete", child);
      }
    } else if (e != ENOENT) {
      rc = cp_fs_errno(err, e, "delete", child);
    }
    free(child);
  }
  if (rc == 0 && errno != 0) rc = cp_fs_errno(err, errno, "delete (readdir)", path);
  closedir(d);
  return rc;
}

int cp_fs_delete_dir(cp_fs *fs, const char *path, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_DELETE, path, err));
  int dfd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dfd < 0) return cp_fs_errno(err, errno, "delete", path);
  CP_RETURN_IF_ERROR(cp_delete_tree_at(dfd, path, 1, err));
  if (rmdir(path) != 0) return cp_fs_errno(err, errno, "delete", path);
  return PAIMON_OK;
}

static int cp_stat(cp_fs *fs, const char *path, struct stat *st, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_STAT, path, err));
  if (stat(path, st) != 0) return cp_fs_errno(err, errno, "stat", path);
  return PAIMON_OK;
}

int cp_fs_exists(cp_fs *fs, const char *path, bool *out, paimon_error *err) {
  *out = false;
  CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_STAT, path, err));
  struct stat st;
  if (stat(path, &st) == 0) {
    *out = true;
    return PAIMON_OK;
  }
  /* ENOTDIR: some prefix of the path is a file, so the path cannot exist either. */
  if (errno == ENOENT || errno == ENOTDIR) return PAIMON_OK;
  return cp_fs_errno(err, errno, "stat", path);
}

int cp_fs_size(cp_fs *fs, const char *path, uint64_t *out, paimon_error *err) {
  struct stat st;
  CP_RETURN_IF_ERROR(cp_stat(fs, path, &st, err));
  *out = S_ISDIR(st.st_mode) ? 0 : (uint64_t)st.st_size;
  return PAIMON_OK;
}

/* mkdir -p without the fault hook (also used by cp_fs_create for missing parents). */
static int cp_mkdirs_raw(const char *path, paimon_error *err) {
  char *p = strdup(path);
  if (!p) return CP_ENOMEM(err, path);
  int rc = PAIMON_OK;
  size_t len = strlen(p);
  /* Each prefix ending before a '/' and then the whole path; "a//b" and a trailing '/' are fine. */
  for (size_t i = 1; i <= len && rc == 0; i++) {
    if (i < len && p[i] != '/') continue;
    if (p[i - 1] == '/') continue;
    char saved = p[i];
    p[i] = '\0';
    if (mkdir(p, 0755) != 0) {
      int e = errno;
      struct stat st;
      if (e != EEXIST) {
        rc = cp_fs_errno(err, e, "mkdirs", p);
      } else if (stat(p, &st) != 0 || !S_ISDIR(st.st_mode)) {
        rc = paimon_error_set(err, PAIMON_EEXIST, "mkdirs of %s: %s exists and is not a directory",
                              path, p);
      }
    }
    p[i] = saved;
  }
  free(p);
  return rc;
}

int cp_fs_mkdirs(cp_fs *fs, const char *path, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_MKDIRS, path, err));
  if (!path[0]) return paimon_error_set(err, PAIMON_EINVAL, "mkdirs of an empty path");
  return cp_mkdirs_raw(path, err);
}

int cp_fs_sync_dir(cp_fs *fs, const char *path, paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_FSYNC, path, err));
  int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return cp_fs_errno(err, errno, "fsync", path);
  int r;
  do r = fsync(fd);
  while (r != 0 && errno == EINTR);
  int e = errno;
  close(fd);
  /* Some file systems cannot fsync a directory; they are durable about names anyway. */
  if (r != 0 && e != EINVAL && e != ENOTSUP) return cp_fs_errno(err, e, "fsync", path);
  return PAIMON_OK;
}

static int cp_entry_cmp(const void *a, const void *b) {
  return strcmp(((const cp_fs_entry *)a)->name, ((const cp_fs_entry *)b)->name);
}

void cp_fs_list_free(cp_fs_list_result *l) {
  if (!l) return;
  for (size_t i = 0; i < l->count; i++) free(l->entries[i].name);
  free(l->entries);
  l->entries = NULL;
  l->count = 0;
}

/* Appends one entry, growing the array geometrically; `cap` is the current capacity. */
static int cp_list_push(cp_fs_list_result *out, size_t *cap, const char *name, bool is_dir,
                        uint64_t size, paimon_error *err) {
  if (out->count == *cap) {
    size_t ncap = *cap ? *cap * 2 : 16;
    cp_fs_entry *p = realloc(out->entries, ncap * sizeof *p);
    if (!p) return CP_ENOMEM(err, "directory listing");
    out->entries = p;
    *cap = ncap;
  }
  char *copy = strdup(name);
  if (!copy) return CP_ENOMEM(err, "directory listing");
  out->entries[out->count++] = (cp_fs_entry){copy, is_dir, is_dir ? 0 : size};
  return PAIMON_OK;
}

int cp_fs_list(cp_fs *fs, const char *dir, cp_fs_list_result *out, paimon_error *err) {
  out->entries = NULL;
  out->count = 0;
  CP_RETURN_IF_ERROR(cp_fs_enter(fs, CP_FS_OP_LIST, dir, err));
  DIR *d = opendir(dir);
  if (!d) return cp_fs_errno(err, errno, "list", dir);
  size_t cap = 0;
  int rc = PAIMON_OK;
  struct dirent *ent;
  while (rc == 0 && (errno = 0, ent = readdir(d)) != NULL) {
    if (strcmp(ent->d_name, ".") == 0 || strcmp(ent->d_name, "..") == 0) continue;
    struct stat st;
    if (fstatat(dirfd(d), ent->d_name, &st, 0) != 0) {
      /* Deleted between readdir and stat (a concurrent expire): it is simply gone. */
      if (errno == ENOENT) continue;
      char *child = cp_path_join(dir, ent->d_name);
      rc = cp_fs_errno(err, errno, "list (stat)", child ? child : dir);
      free(child);
      break;
    }
    rc = cp_list_push(out, &cap, ent->d_name, S_ISDIR(st.st_mode), (uint64_t)st.st_size, err);
  }
  if (rc == 0 && errno != 0) rc = cp_fs_errno(err, errno, "list", dir);
  closedir(d);
  if (rc != 0) {
    cp_fs_list_free(out);
    return rc;
  }
  if (out->count > 1) qsort(out->entries, out->count, sizeof *out->entries, cp_entry_cmp);
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
