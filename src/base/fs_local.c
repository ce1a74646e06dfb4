/*
 * The local-disk backend of the file-I/O seam (fs.h, fs_impl.h; DESIGN.md "One file-IO seam").
 *
 * Everything is plain POSIX on file descriptors. The atomic publish Paimon's commit protocol needs
 * ("write snapshot-N only if nobody else did", spec/format.md §6.2) is
 * renameat2(RENAME_NOREPLACE), called through syscall() so an old libc does not matter; file
 * systems that reject the flag (EINVAL, or ENOSYS from old kernels) get link()+unlink(), which is
 * equally atomic about the target because link() never replaces an existing name.
 *
 * Paths may carry a "file:" prefix (file:///w/t, file:/w/t, as Java and pypaimon write them);
 * it is dropped before every system call.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#include "base/fs_impl.h"
#include "base/status.h"
#include "base/uuid.h"

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif

/* A directory tree deeper than this is not something Paimon creates; refusing it bounds the file
 * descriptors cp_fs_delete_dir keeps open. */
enum { CP_FS_MAX_DELETE_DEPTH = 128 };

typedef struct local_fs {
  cp_fs base;
  bool no_renameat2;
} local_fs;

typedef struct local_rfile {
  cp_rfile base;
  int fd;
} local_rfile;

typedef struct local_wfile {
  cp_wfile base;
  int fd;
  uint64_t flushing; /* bytes before this offset have been handed to write-back */
} local_wfile;

/* Written data is handed to the kernel's write-back in steps of this size as the file grows
 * (sync_file_range SYNC_FILE_RANGE_WRITE: start writing, do not wait), so the disk works while
 * the writer goes on and the fsync before a commit waits for the last step only, not for a whole
 * file of dirty pages. */
#define WRITEBACK_STEP ((uint64_t)8 << 20)

static const cp_fs_ops local_ops;

/* The OS path of `path`: without a "file:" scheme ("file:///a" and "file:/a" are "/a"). */
static const char *os_path(const char *path) {
  if (strncmp(path, "file:", 5) != 0) return path;
  const char *p = path + 5;
  if (p[0] == '/' && p[1] == '/') {
    p += 2;
    /* "file://host/a": only an empty host (or localhost) names this machine */
    if (strncmp(p, "localhost/", 10) == 0) p += 9;
  }
  return p;
}

int cp_fs_local_new(cp_fs **out, paimon_error *err) {
  local_fs *fs = calloc(1, sizeof *fs);
  if (!fs) return CP_ENOMEM(err, "file system handle");
  cp_fs_init(&fs->base, &local_ops);
  *out = &fs->base;
  return PAIMON_OK;
}

static void local_destroy(cp_fs *fs) { free(fs); }

void cp_fs_local_disable_renameat2(cp_fs *fs) {
  if (fs->ops == &local_ops) ((local_fs *)fs)->no_renameat2 = true;
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

/* ---- reading ---- */

static int local_open_read(cp_fs *fs, const char *path, cp_rfile **out, paimon_error *err) {
  local_rfile *f = calloc(1, sizeof *f);
  char *copy = strdup(path);
  if (!f || !copy) {
    free(f);
    free(copy);
    return CP_ENOMEM(err, path);
  }
  int fd;
  do fd = open(os_path(path), O_RDONLY | O_CLOEXEC);
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
  f->base.fs = fs;
  f->fd = fd;
  f->base.size = (uint64_t)st.st_size;
  f->base.path = copy;
  *out = &f->base;
  return PAIMON_OK;
}

static int local_read_at(cp_rfile *rf, uint64_t offset, void *dst, size_t len, paimon_error *err) {
  local_rfile *f = (local_rfile *)rf;
  uint8_t *p = dst;
  size_t done = 0;
  while (done < len) {
    ssize_t r = pread(f->fd, p + done, len - done, (off_t)(offset + done));
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) {
      char what[96];
      snprintf(what, sizeof what, "read [%llu, %llu)", (unsigned long long)offset,
               (unsigned long long)offset + len);
      if (r < 0) return cp_fs_errno(err, errno, what, rf->path);
      /* The file shrank after it was opened: the bytes the caller expects are gone. */
      return paimon_error_set(err, PAIMON_ECORRUPT, "%s of %s: file truncated at %llu", what,
                              rf->path, (unsigned long long)(offset + done));
    }
    done += (size_t)r;
  }
  return PAIMON_OK;
}

static void local_close_read(cp_rfile *rf) {
  local_rfile *f = (local_rfile *)rf;
  close(f->fd);
  free(rf->path);
  free(f);
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

static int local_create(cp_fs *fs, const char *path, cp_create_mode mode, cp_wfile **out,
                        paimon_error *err) {
  local_wfile *f = calloc(1, sizeof *f);
  char *copy = strdup(path);
  if (!f || !copy) {
    free(f);
    free(copy);
    return CP_ENOMEM(err, path);
  }
  const char *os = os_path(path);
  int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (mode == CP_CREATE_EXCLUSIVE ? O_EXCL : O_TRUNC);
  int fd, e = 0;
  for (int attempt = 0; attempt < 2; attempt++) {
    do fd = open(os, flags, 0644);
    while (fd < 0 && errno == EINTR);
    e = errno;
    if (fd >= 0 || e != ENOENT || attempt > 0) break;
    /* Like Java Paimon's LocalFileIO, creating a file creates its missing parent directories:
     * object stores have no directories, so callers must not depend on making them first. */
    char *parent = cp_parent_dir(os);
    int rc = parent ? (parent[0] ? cp_mkdirs_raw(parent, NULL) : PAIMON_ENOTFOUND) : PAIMON_ENOMEM;
    free(parent);
    if (rc != 0) break;
  }
  if (fd < 0) {
    free(f);
    free(copy);
    return cp_fs_errno(err, e, "create", path);
  }
  f->base.fs = fs;
  f->fd = fd;
  f->base.path = copy;
  *out = &f->base;
  return PAIMON_OK;
}

static int local_write(cp_wfile *wf, const void *src, size_t n, paimon_error *err) {
  local_wfile *f = (local_wfile *)wf;
  const uint8_t *p = src;
  size_t done = 0;
  while (done < n) {
    ssize_t w = write(f->fd, p + done, n - done);
    if (w < 0 && errno == EINTR) continue;
    if (w < 0) {
      wf->pos += done;
      char what[64];
      snprintf(what, sizeof what, "write at %llu", (unsigned long long)wf->pos);
      return cp_fs_errno(err, errno, what, wf->path);
    }
    done += (size_t)w;
  }
  wf->pos += n;
#ifdef SYNC_FILE_RANGE_WRITE
  if (wf->pos - f->flushing >= WRITEBACK_STEP) {
    /* A hint: a failure here shows again (and is reported) at the fsync. */
    (void)sync_file_range(f->fd, (off_t)f->flushing, (off_t)(wf->pos - f->flushing),
                          SYNC_FILE_RANGE_WRITE);
    f->flushing = wf->pos;
  }
#endif
  return PAIMON_OK;
}

static int local_sync(cp_wfile *wf, paimon_error *err) {
  local_wfile *f = (local_wfile *)wf;
  int r;
  do r = fsync(f->fd);
  while (r != 0 && errno == EINTR);
  if (r != 0) return cp_fs_errno(err, errno, "fsync", wf->path);
  return PAIMON_OK;
}

static int local_close_write(cp_wfile *wf, paimon_error *err) {
  local_wfile *f = (local_wfile *)wf;
  int rc = PAIMON_OK;
  /* close() is not retried on EINTR: Linux releases the descriptor before reporting it. */
  if (close(f->fd) != 0) rc = cp_fs_errno(err, errno, "close", wf->path);
  free(wf->path);
  free(f);
  return rc;
}

static void local_abort_write(cp_wfile *wf) {
  local_wfile *f = (local_wfile *)wf;
  close(f->fd);
  unlink(os_path(wf->path));
  free(wf->path);
  free(f);
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
  if (link(os_path(from), os_path(to)) != 0)
    return cp_fs_errno2(err, errno, "rename (link)", from, to);
  if (unlink(os_path(from)) != 0)
    return cp_fs_errno2(err, errno, "rename (unlink source)", from, to);
  return PAIMON_OK;
}

static int local_rename_noreplace(cp_fs *fs, const char *from, const char *to, paimon_error *err) {
  if (((local_fs *)fs)->no_renameat2) return cp_link_then_unlink(from, to, err);
#ifdef SYS_renameat2
  long r = syscall(SYS_renameat2, AT_FDCWD, os_path(from), AT_FDCWD, os_path(to), RENAME_NOREPLACE);
  if (r == 0) return PAIMON_OK;
  int e = errno;
  if (e != EINVAL && e != ENOSYS) return cp_fs_errno2(err, e, "rename", from, to);
#endif
  return cp_link_then_unlink(from, to, err);
}

static int local_link(cp_fs *fs, const char *from, const char *to, paimon_error *err) {
  if (link(os_path(from), os_path(to)) != 0) return cp_fs_errno2(err, errno, "link", from, to);
  return PAIMON_OK;
}

static int local_remove(cp_fs *fs, const char *path, paimon_error *err) {
  const char *os = os_path(path);
  if (unlink(os) == 0) return PAIMON_OK;
  int e = errno;
  /* An empty directory may be deleted as a file, as Java's FileIO.delete(path, false) does. */
  if ((e == EISDIR || e == EPERM) && rmdir(os) == 0) return PAIMON_OK;
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

static int local_remove_dir(cp_fs *fs, const char *path, paimon_error *err) {
  const char *os = os_path(path);
  int dfd = open(os, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dfd < 0) return cp_fs_errno(err, errno, "delete", path);
  CP_RETURN_IF_ERROR(cp_delete_tree_at(dfd, path, 1, err));
  if (rmdir(os) != 0) return cp_fs_errno(err, errno, "delete", path);
  return PAIMON_OK;
}

static int local_stat(cp_fs *fs, const char *path, bool dirs, cp_fs_stat *out, paimon_error *err) {
  struct stat st;
  if (stat(os_path(path), &st) != 0) {
    /* ENOTDIR: some prefix of the path is a file, so the path cannot exist either. */
    if (errno == ENOENT || errno == ENOTDIR) return PAIMON_OK;
    return cp_fs_errno(err, errno, "stat", path);
  }
  out->exists = true;
  out->is_dir = S_ISDIR(st.st_mode);
  out->size = out->is_dir ? 0 : (uint64_t)st.st_size;
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

static int local_mkdirs(cp_fs *fs, const char *path, paimon_error *err) {
  return cp_mkdirs_raw(os_path(path), err);
}

static int local_sync_dir(cp_fs *fs, const char *path, paimon_error *err) {
  int fd = open(os_path(path), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
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

static int local_list(cp_fs *fs, const char *dir, cp_fs_list_result *out, paimon_error *err) {
  DIR *d = opendir(os_path(dir));
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
    rc = cp_fs_list_push(out, &cap, ent->d_name, strlen(ent->d_name), S_ISDIR(st.st_mode),
                         (uint64_t)st.st_size, err);
    if (!rc)
      out->entries[out->count - 1].mtime_millis =
          (int64_t)st.st_mtim.tv_sec * 1000 + st.st_mtim.tv_nsec / 1000000;
  }
  if (rc == 0 && errno != 0) rc = cp_fs_errno(err, errno, "list", dir);
  closedir(d);
  return rc;
}

/* ---- publishing ---- */

/* The whole file to a temporary name in the same directory, fsynced, then renamed into place:
 * without replacing (RENAME_NOREPLACE, atomic about the target) or with (rename(2)). The steps go
 * through the seam so each can be failed by an injected fault. */
static int local_publish(cp_fs *fs, const char *path, const void *data, size_t n, bool replace,
                         paimon_error *err) {
  char uuid[37];
  CP_RETURN_IF_ERROR(cp_uuid_v4(uuid, err));
  char *dir = cp_parent_dir(path);
  const char *slash = strrchr(path, '/');
  const char *name = slash ? slash + 1 : path;
  size_t len = strlen(path) + 64;
  char *tmp = malloc(len);
  int rc = dir && tmp ? PAIMON_OK : CP_ENOMEM(err, "path");
  if (!rc) {
    snprintf(tmp, len, "%s%s.%s.%s.tmp", dir, dir[0] ? "/" : "", name, uuid);
    if (dir[0]) rc = cp_fs_mkdirs(fs, dir, err);
  }
  if (!rc) rc = cp_fs_write_file(fs, tmp, data, n, CP_CREATE_EXCLUSIVE, true, err);
  if (!rc) {
    if (replace) {
      rc = cp_fs_enter(fs, CP_FS_OP_RENAME, path, err);
      if (!rc && rename(os_path(tmp), os_path(path)) != 0)
        rc = cp_fs_errno2(err, errno, "rename", tmp, path);
    } else {
      rc = cp_fs_rename_noreplace(fs, tmp, path, err);
    }
    if (rc) local_remove(fs, tmp, NULL);
  }
  if (!rc && dir[0]) rc = cp_fs_sync_dir(fs, dir, err);
  free(tmp);
  free(dir);
  return rc;
}

static const cp_fs_ops local_ops = {
    .name = "local",
    .object_store = false,
    .destroy = local_destroy,
    .open_read = local_open_read,
    .read_at = local_read_at,
    .close_read = local_close_read,
    .create = local_create,
    .write = local_write,
    .sync = local_sync,
    .close_write = local_close_write,
    .abort_write = local_abort_write,
    .publish = local_publish,
    .rename_noreplace = local_rename_noreplace,
    .link = local_link,
    .remove = local_remove,
    .remove_dir = local_remove_dir,
    .stat = local_stat,
    .mkdirs = local_mkdirs,
    .sync_dir = local_sync_dir,
    .list = local_list,
};
