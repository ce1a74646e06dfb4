/*
 * The file-I/O seam: every byte cpaimon reads or writes, and every rename, link, fsync, list and
 * delete, goes through a cp_fs (DESIGN.md, "One file-IO seam"). Two implementations sit behind
 * it, chosen by the path's scheme (cp_fs_open): the local disk (fs_local.c; plain paths and
 * file://) and S3-compatible object stores (fs_s3.c; s3://, s3a://, s3n://, oss://). The contract
 * is phrased in terms of what Paimon needs (ranged reads, read-ahead hints, create-exclusive,
 * publish-without-replace) rather than POSIX, so nothing above this header knows which store it
 * is on.
 *
 * Object stores differ from a disk in ways the contract allows: directories are prefixes (mkdirs
 * writes a marker object "dir/" as Hadoop's S3A and pyarrow do, so an empty directory exists),
 * fsync is a no-op (an object exists once its upload completed), a file is visible only once
 * closed, deleting a missing file succeeds, and rename/link are refused (cp_fs_publish is the
 * atomic primitive instead).
 *
 * Fault injection: cp_fs_inject_fault() makes the Nth future call of one kind fail with a chosen
 * code, so tests can fail every step of a commit in turn. The counters live in the cp_fs, so there
 * is no global state and two handles never interfere.
 *
 * Errors name the path and the operation, e.g. "fsync of /w/db.db/t/snapshot/snapshot-3: EIO ...".
 * Handles: a cp_fs from cp_fs_open() or cp_fs_local_new() is freed with cp_fs_free();
 * cp_rfile/cp_wfile are closed with their _close() (which frees them, also on error). A cp_fs is
 * not thread-safe while a fault is armed; otherwise concurrent use of distinct files is safe.
 */
#ifndef CP_BASE_FS_H
#define CP_BASE_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "cpaimon/error.h"

typedef struct cp_fs cp_fs;
typedef struct cp_rfile cp_rfile;
typedef struct cp_wfile cp_wfile;

/* The kinds of call a fault can be injected into. */
typedef enum cp_fs_op {
  CP_FS_OP_OPEN_READ = 0, /* cp_fs_open_read, and the open inside cp_fs_read_file */
  CP_FS_OP_READ,          /* cp_rfile_read_at (each call) */
  CP_FS_OP_CREATE,        /* cp_fs_create, and the create inside cp_fs_write_file */
  CP_FS_OP_WRITE,         /* cp_wfile_write (each call) */
  CP_FS_OP_FSYNC,         /* cp_wfile_sync, cp_fs_sync_dir */
  CP_FS_OP_CLOSE,         /* cp_wfile_close */
  CP_FS_OP_RENAME,        /* cp_fs_rename_noreplace */
  CP_FS_OP_LINK,          /* cp_fs_link */
  CP_FS_OP_DELETE,        /* cp_fs_delete, cp_fs_delete_dir */
  CP_FS_OP_MKDIRS,        /* cp_fs_mkdirs */
  CP_FS_OP_LIST,          /* cp_fs_list */
  CP_FS_OP_STAT,          /* cp_fs_exists, cp_fs_size */
  CP_FS_OP_PUBLISH,       /* cp_fs_publish (its inner steps count as their own kinds too) */
  CP_FS_OP_COUNT
} cp_fs_op;

const char *cp_fs_op_name(cp_fs_op op);

int cp_fs_local_new(cp_fs **out, paimon_error *err);
void cp_fs_free(cp_fs *fs);

/* Configuration of a file system: borrowed key/value pairs with Paimon's option names
 * (fs.s3.endpoint, fs.s3.accessKeyId, s3.path.style.access, fs.oss.endpoint, ...; the full list
 * is in docs/options.md). Later pairs win over earlier ones with the same key. */
typedef struct cp_fs_conf {
  const char *const *keys;
  const char *const *values;
  size_t n;
} cp_fs_conf;

/* The file system for `uri`'s scheme: local for a plain path or file://, the object store for
 * s3://, s3a://, s3n:// and oss:// (credentials from `conf`, else the AWS_* environment
 * variables). Other schemes are EUNSUPPORTED naming the scheme. `conf` may be NULL. */
int cp_fs_open(const char *uri, const cp_fs_conf *conf, cp_fs **out, paimon_error *err);

/* Whether `fs` is an object store (for the few callers that word messages differently). */
bool cp_fs_is_object_store(const cp_fs *fs);

/* Requests this fs has sent to a remote store (0 for the local disk): I/O accounting. */
uint64_t cp_fs_requests(const cp_fs *fs);

/* Whether `uri` names an object-store location (s3://, s3a://, s3n://, oss://). */
bool cp_uri_is_object_store(const char *uri);

/* Arms a fault: the `nth` (1-based) call of kind `op` from now on fails with `code` and a message
 * saying it was injected; later calls succeed again. nth = 0 disarms. One fault per kind. */
void cp_fs_inject_fault(cp_fs *fs, cp_fs_op op, int nth, int code);

/* Number of calls of kind `op` made through this fs since it was created (I/O accounting). Calls
 * that fail, including injected failures, count too. */
uint64_t cp_fs_op_count(const cp_fs *fs, cp_fs_op op);

/* Makes cp_fs_rename_noreplace use link()+unlink() instead of renameat2(RENAME_NOREPLACE), as it
 * does by itself on file systems that reject the flag; lets tests exercise that path. */
void cp_fs_local_disable_renameat2(cp_fs *fs);

/* ---- reading ---- */
int cp_fs_open_read(cp_fs *fs, const char *path, cp_rfile **out, paimon_error *err);
/* The file's size in bytes, as of open. */
uint64_t cp_rfile_size(const cp_rfile *f);
const char *cp_rfile_path(const cp_rfile *f);
/* Reads exactly `len` bytes at `offset`; a range past the end is ECORRUPT naming path and range.
 * Safe to call from several threads at once on one file. */
int cp_rfile_read_at(cp_rfile *f, uint64_t offset, void *dst, size_t len, paimon_error *err);
void cp_rfile_close(cp_rfile *f);

/* A byte range of a file. */
typedef struct cp_fs_range {
  uint64_t offset;
  uint64_t len;
} cp_fs_range;

/* Hints that the reader will now read these ranges (a row group's column chunks), each from its
 * start onwards. An object store fetches them concurrently, nearby ranges coalesced, and keeps
 * reading ahead within each range as it is consumed; the hint replaces the previous one. On a
 * local disk it does nothing. Reads outside the ranges still work. */
int cp_rfile_will_read(cp_rfile *f, const cp_fs_range *ranges, size_t n, paimon_error *err);

/* Whether the file's first bytes are cheap to read (a local file), so format readers may verify
 * a leading magic number; on an object store that is one more request, and Parquet readers such
 * as pyarrow verify only the trailing magic. */
bool cp_rfile_cheap_head(const cp_rfile *f);

/* Reads a whole file into `out` (appending). Files larger than `max_len` are refused (EINVAL). */
int cp_fs_read_file(cp_fs *fs, const char *path, cp_buf *out, size_t max_len, paimon_error *err);

/* Reads whole files, concurrently on an object store (one request each, all in flight at once),
 * one after the other on a local disk. outs[i] receives file i (appended). With `rcs`, a missing
 * file is not an error: rcs[i] is 0 or ENOTFOUND, and only other failures are returned. Without,
 * the first failure is returned. */
int cp_fs_read_files(cp_fs *fs, const char *const *paths, size_t n, size_t max_len, cp_buf *outs,
                     int *rcs, paimon_error *err);

/* ---- writing ---- */
typedef enum cp_create_mode {
  CP_CREATE_OVERWRITE = 0, /* truncate an existing file */
  CP_CREATE_EXCLUSIVE = 1  /* fail with EEXIST if the path exists (O_EXCL) */
} cp_create_mode;

/* Creates (or truncates) a file for writing. Missing parent directories are created, as Java
 * Paimon's LocalFileIO does (object stores have no directories, so callers need not make them). */
int cp_fs_create(cp_fs *fs, const char *path, cp_create_mode mode, cp_wfile **out,
                 paimon_error *err);
int cp_wfile_write(cp_wfile *f, const void *src, size_t n, paimon_error *err);
/* Bytes written so far. */
uint64_t cp_wfile_pos(const cp_wfile *f);
int cp_wfile_sync(cp_wfile *f, paimon_error *err);
/* Closes and frees; returns the close error if any (the handle is freed regardless). */
int cp_wfile_close(cp_wfile *f, paimon_error *err);
/* Closes, frees and deletes the partial file (for aborted writes); never fails. */
void cp_wfile_abort(cp_wfile *f);

/* Writes a whole file: create (mode), write, optionally fsync, close. On failure the partial file
 * is removed. */
int cp_fs_write_file(cp_fs *fs, const char *path, const void *data, size_t n, cp_create_mode mode,
                     bool fsync, paimon_error *err);

/* Writes a whole small file atomically: readers see all of it or nothing. With `replace` false
 * the call fails with EEXIST when `path` exists, atomically (create-if-absent: never
 * check-then-write); this is how a snapshot is published (spec/format.md §6.2). Local disk: a
 * temporary file renamed into place without replacing (or with, for `replace`), then the directory
 * fsynced. Object store: a conditional PUT (If-None-Match: *); a store found to ignore the
 * condition is refused with EUNSUPPORTED rather than risk two winners. */
int cp_fs_publish(cp_fs *fs, const char *path, const void *data, size_t n, bool replace,
                  paimon_error *err);

/* ---- namespace ---- */
/* Renames `from` to `to` failing with EEXIST if `to` exists, atomically (renameat2 NOREPLACE, or
 * link+unlink where the file system lacks it). Never check-then-rename. */
int cp_fs_rename_noreplace(cp_fs *fs, const char *from, const char *to, paimon_error *err);
/* Hard-links `to` to `from`; EEXIST if `to` exists. */
int cp_fs_link(cp_fs *fs, const char *from, const char *to, paimon_error *err);
/* Deletes a file (or an empty directory); deleting a missing file is ENOTFOUND on a local disk
 * and succeeds on an object store (which cannot tell). */
int cp_fs_delete(cp_fs *fs, const char *path, paimon_error *err);
/* Deletes a directory tree (for DROP TABLE/DATABASE); symbolic links inside are removed, not
 * followed. A missing directory is ENOTFOUND. */
int cp_fs_delete_dir(cp_fs *fs, const char *path, paimon_error *err);
/* *out = whether `path` exists (file or directory); only real I/O errors fail. */
int cp_fs_exists(cp_fs *fs, const char *path, bool *out, paimon_error *err);
/* *out = whether a file (not a directory) is at `path`; cheaper than cp_fs_exists on an object
 * store when the path is missing. */
int cp_fs_file_exists(cp_fs *fs, const char *path, bool *out, paimon_error *err);
/* Size of a file in bytes (0 for a directory); ENOTFOUND if missing. */
int cp_fs_size(cp_fs *fs, const char *path, uint64_t *out, paimon_error *err);
/* Creates a directory and its missing parents; existing directories are fine. */
int cp_fs_mkdirs(cp_fs *fs, const char *path, paimon_error *err);
/* fsyncs a directory so a create/rename in it is durable. */
int cp_fs_sync_dir(cp_fs *fs, const char *path, paimon_error *err);

/* A directory listing: names (not paths) of entries, sorted bytewise, "." and ".." excluded. */
typedef struct cp_fs_entry {
  char *name;
  bool is_dir;
  uint64_t size; /* 0 for directories */
  int64_t mtime_millis; /* last modification (epoch ms); 0 when unknown (S3 common prefixes) */
} cp_fs_entry;

typedef struct cp_fs_list_result {
  cp_fs_entry *entries;
  size_t count;
} cp_fs_list_result;

/* Lists a directory; ENOTFOUND if it does not exist. Free with cp_fs_list_free. */
int cp_fs_list(cp_fs *fs, const char *dir, cp_fs_list_result *out, paimon_error *err);
void cp_fs_list_free(cp_fs_list_result *l);

/* Joins path parts with '/' into a newly malloc'd string (NULL when out of memory). */
char *cp_path_join(const char *a, const char *b);

#endif
