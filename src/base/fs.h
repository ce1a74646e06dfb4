/*
 * The file-I/O seam: every byte cpaimon reads or writes, and every rename, link, fsync, list and
 * delete, goes through a cp_fs (DESIGN.md, "One file-IO seam"). The local-disk implementation is
 * the only one today; object stores plug in behind the same calls later, which is why the contract
 * is phrased in terms of what Paimon needs (ranged reads, create-exclusive,
 * publish-without-replace) rather than POSIX.
 *
 * Fault injection: cp_fs_inject_fault() makes the Nth future call of one kind fail with a chosen
 * code, so tests can fail every step of a commit in turn. The counters live in the cp_fs, so there
 * is no global state and two handles never interfere.
 *
 * Errors name the path and the operation, e.g. "fsync of /w/db.db/t/snapshot/snapshot-3: EIO ...".
 * Handles: cp_fs from cp_fs_local_new() is freed with cp_fs_free(); cp_rfile/cp_wfile are closed
 * with their _close() (which frees them, also on error). A cp_fs is not thread-safe while a fault
 * is armed; otherwise concurrent use of distinct files is safe.
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
  CP_FS_OP_COUNT
} cp_fs_op;

const char *cp_fs_op_name(cp_fs_op op);

int cp_fs_local_new(cp_fs **out, paimon_error *err);
void cp_fs_free(cp_fs *fs);

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
/* Reads exactly `len` bytes at `offset`; a range past the end is ECORRUPT naming path and range. */
int cp_rfile_read_at(cp_rfile *f, uint64_t offset, void *dst, size_t len, paimon_error *err);
void cp_rfile_close(cp_rfile *f);

/* Reads a whole file into `out` (appending). Files larger than `max_len` are refused (EINVAL). */
int cp_fs_read_file(cp_fs *fs, const char *path, cp_buf *out, size_t max_len, paimon_error *err);

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

/* ---- namespace ---- */
/* Renames `from` to `to` failing with EEXIST if `to` exists, atomically (renameat2 NOREPLACE, or
 * link+unlink where the file system lacks it). Never check-then-rename. */
int cp_fs_rename_noreplace(cp_fs *fs, const char *from, const char *to, paimon_error *err);
/* Hard-links `to` to `from`; EEXIST if `to` exists. */
int cp_fs_link(cp_fs *fs, const char *from, const char *to, paimon_error *err);
/* Deletes a file (or an empty directory); deleting a missing file is ENOTFOUND. */
int cp_fs_delete(cp_fs *fs, const char *path, paimon_error *err);
/* Deletes a directory tree (for DROP TABLE/DATABASE); symbolic links inside are removed, not
 * followed. A missing directory is ENOTFOUND. */
int cp_fs_delete_dir(cp_fs *fs, const char *path, paimon_error *err);
/* *out = whether `path` exists (file or directory); only real I/O errors fail. */
int cp_fs_exists(cp_fs *fs, const char *path, bool *out, paimon_error *err);
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
