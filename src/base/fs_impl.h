/*
 * What a file-system backend implements (fs.h): a table of operations, and the common head of the
 * fs, read-file and write-file structs each backend embeds as its first member. fs.c does the
 * accounting and fault injection, then calls through the table; backends never see a fault.
 */
#ifndef CP_BASE_FS_IMPL_H
#define CP_BASE_FS_IMPL_H

#include <stdatomic.h>

#include "base/fs.h"

typedef struct cp_fs_stat {
  bool exists;
  bool is_dir;
  uint64_t size; /* files only */
} cp_fs_stat;

typedef struct cp_fs_ops {
  const char *name; /* "local", "s3" */
  bool object_store;
  void (*destroy)(cp_fs *fs);
  uint64_t (*requests)(const cp_fs *fs); /* may be NULL */

  int (*open_read)(cp_fs *fs, const char *path, cp_rfile **out, paimon_error *err);
  int (*read_at)(cp_rfile *f, uint64_t offset, void *dst, size_t len, paimon_error *err);
  int (*will_read)(cp_rfile *f, const cp_fs_range *ranges, size_t n, paimon_error *err); /* NULL */
  void (*close_read)(cp_rfile *f);
  /* Whole-file read in one request where the store can do that; NULL: open + read_at. */
  int (*read_file)(cp_fs *fs, const char *path, cp_buf *out, size_t max_len, paimon_error *err);
  /* Several whole files at once (cp_fs_read_files' contract); NULL: read_file in turn. */
  int (*read_files)(cp_fs *fs, const char *const *paths, size_t n, size_t max_len, cp_buf *outs,
                    int *rcs, paimon_error *err);

  int (*create)(cp_fs *fs, const char *path, cp_create_mode mode, cp_wfile **out,
                paimon_error *err);
  int (*write)(cp_wfile *f, const void *src, size_t n, paimon_error *err);
  int (*sync)(cp_wfile *f, paimon_error *err);
  int (*close_write)(cp_wfile *f, paimon_error *err); /* frees */
  void (*abort_write)(cp_wfile *f);                   /* frees, removes the partial file */

  int (*publish)(cp_fs *fs, const char *path, const void *data, size_t n, bool replace,
                 paimon_error *err);
  int (*rename_noreplace)(cp_fs *fs, const char *from, const char *to, paimon_error *err);
  int (*link)(cp_fs *fs, const char *from, const char *to, paimon_error *err);
  int (*remove)(cp_fs *fs, const char *path, paimon_error *err);
  int (*remove_dir)(cp_fs *fs, const char *path, paimon_error *err);
  /* What is at `path`; with `dirs` false, only whether a file is there (object stores then skip
   * the listing that finds a directory). A missing path is not an error. */
  int (*stat)(cp_fs *fs, const char *path, bool dirs, cp_fs_stat *out, paimon_error *err);
  int (*mkdirs)(cp_fs *fs, const char *path, paimon_error *err);
  int (*sync_dir)(cp_fs *fs, const char *path, paimon_error *err);
  int (*list)(cp_fs *fs, const char *dir, cp_fs_list_result *out, paimon_error *err);
} cp_fs_ops;

struct cp_fs {
  const cp_fs_ops *ops;
  _Atomic uint64_t counts[CP_FS_OP_COUNT];
  /* The call number (1-based, over the life of the fs) that fails, or 0 when disarmed. */
  _Atomic uint64_t fault_at[CP_FS_OP_COUNT];
  int fault_code[CP_FS_OP_COUNT];
};

struct cp_rfile {
  cp_fs *fs;
  uint64_t size;
  char *path;
};

struct cp_wfile {
  cp_fs *fs;
  uint64_t pos;
  char *path;
};

/* Sets up the common head of a new fs. */
void cp_fs_init(cp_fs *fs, const cp_fs_ops *ops);

/* Counts one call of kind `op` on `path` and fails it when it is the armed one (fs.c). */
int cp_fs_enter(cp_fs *fs, cp_fs_op op, const char *path, paimon_error *err);

/* Appends an entry to a listing under construction (`cap` its capacity), and sorts a finished
 * listing bytewise. */
int cp_fs_list_push(cp_fs_list_result *out, size_t *cap, const char *name, size_t name_len,
                    bool is_dir, uint64_t size, paimon_error *err);
void cp_fs_list_sort(cp_fs_list_result *out);

/* A ListObjectsV2 answer being read into a listing (fs_s3.c; exposed for its fuzz harness).
 * Keys under `prefix` ("dir/") become entries named relative to it, common prefixes become
 * directories; with `recursive`, keys are kept whole. */
typedef struct cp_s3_listing {
  cp_fs_list_result *out;
  size_t cap;
  const char *prefix;
  size_t prefix_len;
  bool recursive;
  bool marker;    /* the "dir/" object itself was listed */
  bool truncated; /* IsTruncated */
  char *token;    /* NextContinuationToken (malloc'd) */
  char *key;      /* of the Contents element being read */
  uint64_t size;
  int64_t mtime_millis; /* its LastModified */
} cp_s3_listing;

/* Adds one page of the answer to `l`; free l->token afterwards. */
int cp_s3_parse_listing(const void *xml, size_t len, cp_s3_listing *l, paimon_error *err);

/* The object-store backend (fs_s3.c): `uri` gives the scheme. */
int cp_fs_s3_new(const char *uri, const cp_fs_conf *conf, cp_fs **out, paimon_error *err);

#endif
