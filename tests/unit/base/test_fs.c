/*
 * Tests for base/fs.h, the local-disk file-I/O seam: every call on its success and error paths,
 * the no-replace publish (renameat2 and the link+unlink fallback), recursive delete, sorted
 * listings, and fault injection firing on exactly the Nth call of each kind; the choice of backend
 * by scheme. The object-store backend is tested against a real S3 server in
 * tests/python/test_s3_*.py.
 */
#include "base/fs.h"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "test.h"

static char g_root[512];

/* A fresh directory under $TMPDIR for one test; returns a path inside it built from `name`. */
static void make_root(const char *tag) {
  const char *tmp = getenv("TMPDIR");
  snprintf(g_root, sizeof g_root, "%s/cp_fs_%s_XXXXXX", tmp && tmp[0] ? tmp : "/tmp", tag);
  if (!mkdtemp(g_root)) {
    perror("mkdtemp");
    exit(2);
  }
}

static char *at(const char *rel) {
  static char bufs[8][1024];
  static int next;
  char *b = bufs[next++ % 8];
  snprintf(b, sizeof bufs[0], "%s/%s", g_root, rel);
  return b;
}

static void drop_root(cp_fs *fs) {
  paimon_error err;
  CHECK_OK(cp_fs_delete_dir(fs, g_root, &err), &err);
}

static void put(cp_fs *fs, const char *path, const char *text) {
  paimon_error err;
  CHECK_OK(cp_fs_write_file(fs, path, text, strlen(text), CP_CREATE_OVERWRITE, false, &err), &err);
}

/* Reads a whole file as a C string ("" on failure, which the CHECK_STR then reports). */
static const char *slurp(cp_fs *fs, const char *path) {
  static char out[4096];
  paimon_error err;
  cp_buf b = CP_BUF_INIT;
  out[0] = '\0';
  if (cp_fs_read_file(fs, path, &b, sizeof out - 1, &err) == 0) {
    if (b.len) memcpy(out, b.data, b.len);
    out[b.len] = '\0';
  } else {
    snprintf(out, sizeof out, "<error %s>", err.message);
  }
  cp_buf_free(&b);
  return out;
}

static void test_read_write_roundtrip(void) {
  paimon_error err;
  cp_fs *fs;
  CHECK_OK(cp_fs_local_new(&fs, &err), &err);
  make_root("rw");
  cp_wfile *w;
  CHECK_OK(cp_fs_create(fs, at("f.bin"), CP_CREATE_EXCLUSIVE, &w, &err), &err);
  CHECK_OK(cp_wfile_write(w, "hello ", 6, &err), &err);
  CHECK_OK(cp_wfile_write(w, "", 0, &err), &err);
  CHECK_OK(cp_wfile_write(w, "world", 5, &err), &err);
  CHECK_INT(cp_wfile_pos(w), 11);
  CHECK_OK(cp_wfile_sync(w, &err), &err);
  CHECK_OK(cp_wfile_close(w, &err), &err);

  cp_rfile *r;
  CHECK_OK(cp_fs_open_read(fs, at("f.bin"), &r, &err), &err);
  CHECK_INT(cp_rfile_size(r), 11);
  CHECK_STR(cp_rfile_path(r), at("f.bin"));
  char buf[16] = {0};
  CHECK_OK(cp_rfile_read_at(r, 6, buf, 5, &err), &err);
  CHECK_STR(buf, "world");
  CHECK_OK(cp_rfile_read_at(r, 11, buf, 0, &err), &err);
  CHECK_ERR(cp_rfile_read_at(r, 5, buf, 10, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, at("f.bin"));
  CHECK_CONTAINS(err.message, "[5, 15)");
  CHECK_CONTAINS(err.message, "size 11");
  CHECK_ERR(cp_rfile_read_at(r, 12, buf, 0, &err), PAIMON_ECORRUPT);
  CHECK_ERR(cp_rfile_read_at(r, UINT64_MAX, buf, 2, &err), PAIMON_ECORRUPT);
  cp_rfile_close(r);

  cp_buf b = CP_BUF_INIT;
  CHECK_OK(cp_buf_append(&b, "pre:", 4, &err), &err);
  CHECK_OK(cp_fs_read_file(fs, at("f.bin"), &b, 11, &err), &err);
  CHECK_INT(b.len, 15);
  CHECK(memcmp(b.data, "pre:hello world", 15) == 0);
  CHECK_ERR(cp_fs_read_file(fs, at("f.bin"), &b, 10, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, at("f.bin"));
  CHECK_CONTAINS(err.message, "11 bytes");
  CHECK_INT(b.len, 15);
  cp_buf_free(&b);

  /* A file that shrinks after it was opened: the promised bytes are gone, which is corruption. */
  CHECK_OK(cp_fs_open_read(fs, at("f.bin"), &r, &err), &err);
  CHECK(truncate(at("f.bin"), 4) == 0);
  CHECK_ERR(cp_rfile_read_at(r, 2, buf, 6, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "truncated at 4");
  CHECK_CONTAINS(err.message, "[2, 8)");
  cp_rfile_close(r);

  /* An empty file reads as nothing. */
  put(fs, at("empty"), "");
  CHECK_STR(slurp(fs, at("empty")), "");
  drop_root(fs);
  cp_fs_free(fs);
}

static void test_missing_and_bad_paths(void) {
  paimon_error err;
  cp_fs *fs;
  CHECK_OK(cp_fs_local_new(&fs, &err), &err);
  make_root("missing");
  cp_rfile *r = (cp_rfile *)1;
  CHECK_ERR(cp_fs_open_read(fs, at("nope"), &r, &err), PAIMON_ENOTFOUND);
  CHECK(r == NULL);
  CHECK_CONTAINS(err.message, "open of");
  CHECK_CONTAINS(err.message, at("nope"));
  cp_buf b = CP_BUF_INIT;
  CHECK_ERR(cp_fs_read_file(fs, at("nope"), &b, 100, &err), PAIMON_ENOTFOUND);
  CHECK_ERR(cp_fs_open_read(fs, g_root, &r, &err), PAIMON_EIO);
  CHECK_CONTAINS(err.message, "directory");
  uint64_t size;
  CHECK_ERR(cp_fs_size(fs, at("nope"), &size, &err), PAIMON_ENOTFOUND);
  CHECK_CONTAINS(err.message, at("nope"));
  bool ex = true;
  CHECK_OK(cp_fs_exists(fs, at("nope"), &ex, &err), &err);
  CHECK(!ex);
  put(fs, at("file"), "x");
  CHECK_OK(cp_fs_exists(fs, at("file/below"), &ex, &err), &err);
  CHECK(!ex);
  CHECK_OK(cp_fs_exists(fs, at("file"), &ex, &err), &err);
  CHECK(ex);
  CHECK_OK(cp_fs_size(fs, at("file"), &size, &err), &err);
  CHECK_INT(size, 1);
  CHECK_OK(cp_fs_size(fs, g_root, &size, &err), &err);
  CHECK_INT(size, 0);
  /* A path below a regular file cannot be created. */
  cp_wfile *w;
  CHECK_ERR(cp_fs_create(fs, at("file/x"), CP_CREATE_OVERWRITE, &w, &err), PAIMON_EIO);
  CHECK_CONTAINS(err.message, "create of");
  CHECK_ERR(cp_fs_sync_dir(fs, at("nope"), &err), PAIMON_ENOTFOUND);
  CHECK_ERR(cp_fs_delete_dir(fs, at("nope"), &err), PAIMON_ENOTFOUND);
  drop_root(fs);
  cp_fs_free(fs);
}

static void test_create_modes(void) {
  paimon_error err;
  cp_fs *fs;
  CHECK_OK(cp_fs_local_new(&fs, &err), &err);
  make_root("create");
  put(fs, at("a"), "original");
  cp_wfile *w = (cp_wfile *)1;
  CHECK_ERR(cp_fs_create(fs, at("a"), CP_CREATE_EXCLUSIVE, &w, &err), PAIMON_EEXIST);
  CHECK(w == NULL);
  CHECK_CONTAINS(err.message, at("a"));
  CHECK_ERR(cp_fs_write_file(fs, at("a"), "new", 3, CP_CREATE_EXCLUSIVE, true, &err),
            PAIMON_EEXIST);
  /* The failed exclusive create must leave the existing file alone. */
  CHECK_STR(slurp(fs, at("a")), "original");
  CHECK_OK(cp_fs_write_file(fs, at("a"), "new", 3, CP_CREATE_OVERWRITE, true, &err), &err);
  CHECK_STR(slurp(fs, at("a")), "new");

  /* Missing parents are created. */
  CHECK_OK(cp_fs_write_file(fs, at("p/q/r/file"), "deep", 4, CP_CREATE_EXCLUSIVE, false, &err),
           &err);
  CHECK_STR(slurp(fs, at("p/q/r/file")), "deep");

  /* Abort removes the partial file. */
  CHECK_OK(cp_fs_create(fs, at("partial"), CP_CREATE_EXCLUSIVE, &w, &err), &err);
  CHECK_OK(cp_wfile_write(w, "abc", 3, &err), &err);
  cp_wfile_abort(w);
  bool ex = true;
  CHECK_OK(cp_fs_exists(fs, at("partial"), &ex, &err), &err);
  CHECK(!ex);

  /* A large write goes through whole. */
  size_t big = 3u << 20;
  char *data = malloc(big);
  for (size_t i = 0; i < big; i++) data[i] = (char)(i * 31 + (i >> 12));
  CHECK_OK(cp_fs_write_file(fs, at("big"), data, big, CP_CREATE_EXCLUSIVE, true, &err), &err);
  cp_buf b = CP_BUF_INIT;
  CHECK_OK(cp_fs_read_file(fs, at("big"), &b, big, &err), &err);
  CHECK(b.len == big && memcmp(b.data, data, big) == 0);
  cp_buf_free(&b);
  free(data);
  drop_root(fs);
  cp_fs_free(fs);
}

/* rename_noreplace with and without renameat2: success, then a lost race against an existing
 * target that must leave both files exactly as they were. */
static void check_rename(bool fallback) {
  paimon_error err;
  cp_fs *fs;
  CHECK_OK(cp_fs_local_new(&fs, &err), &err);
  if (fallback) cp_fs_local_disable_renameat2(fs);
  make_root(fallback ? "rename_fb" : "rename");
  put(fs, at("tmp-1"), "snapshot one");
  CHECK_OK(cp_fs_rename_noreplace(fs, at("tmp-1"), at("snapshot-1"), &err), &err);
  bool ex = true;
  CHECK_OK(cp_fs_exists(fs, at("tmp-1"), &ex, &err), &err);
  CHECK(!ex);
  CHECK_STR(slurp(fs, at("snapshot-1")), "snapshot one");

  put(fs, at("tmp-2"), "loser");
  CHECK_ERR(cp_fs_rename_noreplace(fs, at("tmp-2"), at("snapshot-1"), &err), PAIMON_EEXIST);
  CHECK_CONTAINS(err.message, at("tmp-2"));
  CHECK_CONTAINS(err.message, at("snapshot-1"));
  CHECK_STR(slurp(fs, at("snapshot-1")), "snapshot one");
  CHECK_STR(slurp(fs, at("tmp-2")), "loser");

  CHECK_ERR(cp_fs_rename_noreplace(fs, at("gone"), at("snapshot-2"), &err), PAIMON_ENOTFOUND);
  CHECK_CONTAINS(err.message, at("gone"));
  CHECK_OK(cp_fs_exists(fs, at("snapshot-2"), &ex, &err), &err);
  CHECK(!ex);
  drop_root(fs);
  cp_fs_free(fs);
}

static void test_rename_noreplace(void) { check_rename(false); }
static void test_rename_noreplace_link_fallback(void) { check_rename(true); }

static void test_link_and_delete(void) {
  paimon_error err;
  cp_fs *fs;
  CHECK_OK(cp_fs_local_new(&fs, &err), &err);
  make_root("link");
  put(fs, at("src"), "payload");
  CHECK_OK(cp_fs_link(fs, at("src"), at("dst"), &err), &err);
  CHECK_STR(slurp(fs, at("dst")), "payload");
  CHECK_STR(slurp(fs, at("src")), "payload");
  put(fs, at("other"), "other");
  CHECK_ERR(cp_fs_link(fs, at("other"), at("dst"), &err), PAIMON_EEXIST);
  CHECK_CONTAINS(err.message, at("dst"));
  CHECK_STR(slurp(fs, at("dst")), "payload");
  CHECK_ERR(cp_fs_link(fs, at("missing"), at("dst2"), &err), PAIMON_ENOTFOUND);

  CHECK_OK(cp_fs_delete(fs, at("src"), &err), &err);
  CHECK_STR(slurp(fs, at("dst")), "payload");
  CHECK_ERR(cp_fs_delete(fs, at("src"), &err), PAIMON_ENOTFOUND);
  CHECK_CONTAINS(err.message, "delete of");
  CHECK_CONTAINS(err.message, at("src"));
  CHECK_OK(cp_fs_mkdirs(fs, at("emptydir"), &err), &err);
  CHECK_OK(cp_fs_delete(fs, at("emptydir"), &err), &err);
  put(fs, at("full/x"), "x");
  CHECK_ERR(cp_fs_delete(fs, at("full"), &err), PAIMON_EIO);
  CHECK_CONTAINS(err.message, at("full"));
  CHECK_STR(slurp(fs, at("full/x")), "x");
  drop_root(fs);
  cp_fs_free(fs);
}

static void test_mkdirs_and_delete_dir(void) {
  paimon_error err;
  cp_fs *fs;
  CHECK_OK(cp_fs_local_new(&fs, &err), &err);
  make_root("tree");
  CHECK_OK(cp_fs_mkdirs(fs, at("db.db/t/snapshot"), &err), &err);
  CHECK_OK(cp_fs_mkdirs(fs, at("db.db/t/snapshot"), &err), &err);
  CHECK_OK(cp_fs_mkdirs(fs, at("db.db//t/manifest/"), &err), &err);
  struct stat st;
  CHECK(stat(at("db.db/t/manifest"), &st) == 0 && S_ISDIR(st.st_mode));
  put(fs, at("db.db/t/snapshot/snapshot-1"), "s1");
  put(fs, at("db.db/t/snapshot/LATEST"), "1");
  put(fs, at("db.db/t/bucket-0/data-1.parquet"), "d");
  CHECK_OK(cp_fs_mkdirs(fs, at("db.db/t/empty/deeper"), &err), &err);
  CHECK_ERR(cp_fs_mkdirs(fs, at("db.db/t/snapshot/LATEST/x"), &err), PAIMON_EEXIST);
  CHECK_CONTAINS(err.message, "not a directory");
  CHECK_ERR(cp_fs_mkdirs(fs, "", &err), PAIMON_EINVAL);
  CHECK_OK(cp_fs_sync_dir(fs, at("db.db/t/snapshot"), &err), &err);

  /* A symlink inside the tree is removed without touching what it points to. */
  put(fs, at("outside/keep"), "keep");
  CHECK(symlink(at("outside"), at("db.db/t/link")) == 0);
  CHECK_OK(cp_fs_delete_dir(fs, at("db.db"), &err), &err);
  bool ex = true;
  CHECK_OK(cp_fs_exists(fs, at("db.db"), &ex, &err), &err);
  CHECK(!ex);
  CHECK_STR(slurp(fs, at("outside/keep")), "keep");
  drop_root(fs);
  cp_fs_free(fs);
}

static void test_list_sorted(void) {
  paimon_error err;
  cp_fs *fs;
  CHECK_OK(cp_fs_local_new(&fs, &err), &err);
  make_root("list");
  const char *names[] = {"snapshot-10", "snapshot-9",        "LATEST", "EARLIEST", "snapshot-1",
                         "b",           "\xc3\xa9t\xc3\xa9", "a"};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) put(fs, at(names[i]), names[i]);
  CHECK_OK(cp_fs_mkdirs(fs, at("dir"), &err), &err);
  cp_fs_list_result l;
  CHECK_OK(cp_fs_list(fs, g_root, &l, &err), &err);
  /* Bytewise: upper case before lower case, "-10" before "-9", UTF-8 after ASCII. */
  const char *want[] = {"EARLIEST",    "LATEST",     "a",
                        "b",           "dir",        "snapshot-1",
                        "snapshot-10", "snapshot-9", "\xc3\xa9t\xc3\xa9"};
  CHECK_INT(l.count, 9);
  for (size_t i = 0; i < l.count && i < 9; i++) {
    CHECK_STR(l.entries[i].name, want[i]);
    CHECK_INT(l.entries[i].is_dir, strcmp(want[i], "dir") == 0);
    CHECK_INT(l.entries[i].size, strcmp(want[i], "dir") == 0 ? 0 : strlen(want[i]));
  }
  cp_fs_list_free(&l);
  CHECK(l.entries == NULL && l.count == 0);
  CHECK_OK(cp_fs_list(fs, at("dir"), &l, &err), &err);
  CHECK_INT(l.count, 0);
  cp_fs_list_free(&l);
  CHECK_ERR(cp_fs_list(fs, at("nope"), &l, &err), PAIMON_ENOTFOUND);
  CHECK_CONTAINS(err.message, "list of");
  CHECK_CONTAINS(err.message, at("nope"));
  CHECK(l.entries == NULL && l.count == 0);
  drop_root(fs);
  cp_fs_free(fs);
}

/* Performs one call of kind `op` (against files set up by the caller) and returns its status. */
static int do_op(cp_fs *fs, cp_fs_op op, int i, paimon_error *err) {
  char a[1100], b[1100];
  snprintf(a, sizeof a, "%s/src-%d", g_root, i);
  snprintf(b, sizeof b, "%s/dst-%d", g_root, i);
  int rc;
  cp_rfile *r;
  cp_wfile *w;
  cp_fs_list_result l;
  bool ex;
  char byte;
  switch (op) {
  case CP_FS_OP_OPEN_READ:
    rc = cp_fs_open_read(fs, a, &r, err);
    if (rc == 0) cp_rfile_close(r);
    return rc;
  case CP_FS_OP_READ:
    rc = cp_fs_open_read(fs, a, &r, err);
    if (rc == 0) {
      rc = cp_rfile_read_at(r, 0, &byte, 1, err);
      cp_rfile_close(r);
    }
    return rc;
  case CP_FS_OP_CREATE:
    rc = cp_fs_create(fs, b, CP_CREATE_OVERWRITE, &w, err);
    if (rc == 0) cp_wfile_abort(w);
    return rc;
  case CP_FS_OP_WRITE: return cp_fs_write_file(fs, b, "w", 1, CP_CREATE_OVERWRITE, false, err);
  case CP_FS_OP_FSYNC: return cp_fs_write_file(fs, b, "w", 1, CP_CREATE_OVERWRITE, true, err);
  case CP_FS_OP_CLOSE: return cp_fs_write_file(fs, b, "w", 1, CP_CREATE_OVERWRITE, false, err);
  case CP_FS_OP_RENAME: return cp_fs_rename_noreplace(fs, a, b, err);
  case CP_FS_OP_LINK: return cp_fs_link(fs, a, b, err);
  case CP_FS_OP_DELETE: return cp_fs_delete(fs, a, err);
  case CP_FS_OP_MKDIRS: return cp_fs_mkdirs(fs, b, err);
  case CP_FS_OP_LIST:
    rc = cp_fs_list(fs, g_root, &l, err);
    if (rc == 0) cp_fs_list_free(&l);
    return rc;
  case CP_FS_OP_STAT: return cp_fs_exists(fs, a, &ex, err);
  case CP_FS_OP_PUBLISH: return cp_fs_publish(fs, b, "p", 1, true, err);
  default: return PAIMON_EINVAL;
  }
}

static void test_fault_injection_each_op(void) {
  paimon_error err;
  for (int op = 0; op < CP_FS_OP_COUNT; op++) {
    cp_fs *fs;
    CHECK_OK(cp_fs_local_new(&fs, &err), &err);
    make_root("fault");
    for (int i = 1; i <= 4; i++) {
      char p[1100];
      snprintf(p, sizeof p, "%s/src-%d", g_root, i);
      put(fs, p, "s");
    }
    uint64_t before = cp_fs_op_count(fs, (cp_fs_op)op);
    cp_fs_inject_fault(fs, (cp_fs_op)op, 3, PAIMON_EIO);
    for (int i = 1; i <= 4; i++) {
      paimon_error e2 = {0, ""};
      int rc = do_op(fs, (cp_fs_op)op, i, &e2);
      if (i == 3) {
        if (rc != PAIMON_EIO) fprintf(stderr, "op %s call 3: rc %d\n", cp_fs_op_name(op), rc);
        CHECK_INT(rc, PAIMON_EIO);
        CHECK_CONTAINS(e2.message, "injected fault");
        CHECK_CONTAINS(e2.message, cp_fs_op_name((cp_fs_op)op));
        CHECK_CONTAINS(e2.message, g_root);
      } else {
        if (rc != 0) fprintf(stderr, "op %s call %d: %s\n", cp_fs_op_name(op), i, e2.message);
        CHECK_INT(rc, 0);
      }
    }
    CHECK_INT(cp_fs_op_count(fs, (cp_fs_op)op) - before, 4);
    /* Disarming before the Nth call means nothing fails. */
    cp_fs_inject_fault(fs, (cp_fs_op)op, 1, PAIMON_ENOTFOUND);
    cp_fs_inject_fault(fs, (cp_fs_op)op, 0, 0);
    paimon_error e3;
    if (op != CP_FS_OP_RENAME && op != CP_FS_OP_LINK && op != CP_FS_OP_DELETE)
      CHECK_OK(do_op(fs, (cp_fs_op)op, 4, &e3), &e3);
    drop_root(fs);
    cp_fs_free(fs);
  }
}

static void test_fault_codes_and_cleanup(void) {
  paimon_error err;
  cp_fs *fs;
  CHECK_OK(cp_fs_local_new(&fs, &err), &err);
  make_root("fault2");
  /* A failing write inside write_file leaves no partial file behind. */
  cp_fs_inject_fault(fs, CP_FS_OP_WRITE, 1, PAIMON_ENOMEM);
  CHECK_ERR(cp_fs_write_file(fs, at("w"), "abc", 3, CP_CREATE_EXCLUSIVE, true, &err),
            PAIMON_ENOMEM);
  CHECK_CONTAINS(err.message, "write of");
  bool ex = true;
  CHECK_OK(cp_fs_exists(fs, at("w"), &ex, &err), &err);
  CHECK(!ex);
  /* A failing close reports the error and also removes the file. */
  cp_fs_inject_fault(fs, CP_FS_OP_CLOSE, 1, PAIMON_EIO);
  CHECK_ERR(cp_fs_write_file(fs, at("c"), "abc", 3, CP_CREATE_EXCLUSIVE, false, &err), PAIMON_EIO);
  CHECK_OK(cp_fs_exists(fs, at("c"), &ex, &err), &err);
  CHECK(!ex);
  /* An injected fsync on sync_dir names the directory. */
  cp_fs_inject_fault(fs, CP_FS_OP_FSYNC, 1, PAIMON_EIO);
  CHECK_ERR(cp_fs_sync_dir(fs, g_root, &err), PAIMON_EIO);
  CHECK_CONTAINS(err.message, "fsync of");
  CHECK_CONTAINS(err.message, g_root);
  /* A fault on delete_dir fails it without removing anything. */
  put(fs, at("t/x"), "x");
  cp_fs_inject_fault(fs, CP_FS_OP_DELETE, 1, PAIMON_EIO);
  CHECK_ERR(cp_fs_delete_dir(fs, at("t"), &err), PAIMON_EIO);
  CHECK_STR(slurp(fs, at("t/x")), "x");
  CHECK_STR(cp_fs_op_name(CP_FS_OP_COUNT), "unknown");
  drop_root(fs);
  cp_fs_free(fs);
}

/* Publishing: all-or-nothing, without replacing unless asked; no temporary file stays behind,
 * also when a step fails. */
static void test_publish(void) {
  paimon_error err;
  cp_fs *fs;
  CHECK_OK(cp_fs_local_new(&fs, &err), &err);
  make_root("publish");
  CHECK_OK(cp_fs_publish(fs, at("snap/snapshot-1"), "one", 3, false, &err), &err);
  CHECK_STR(slurp(fs, at("snap/snapshot-1")), "one");
  CHECK_ERR(cp_fs_publish(fs, at("snap/snapshot-1"), "two", 3, false, &err), PAIMON_EEXIST);
  CHECK_CONTAINS(err.message, at("snap/snapshot-1"));
  CHECK_STR(slurp(fs, at("snap/snapshot-1")), "one");
  CHECK_OK(cp_fs_publish(fs, at("snap/LATEST"), "1", 1, true, &err), &err);
  CHECK_OK(cp_fs_publish(fs, at("snap/LATEST"), "22", 2, true, &err), &err);
  CHECK_STR(slurp(fs, at("snap/LATEST")), "22");
  /* a failed rename leaves the old hint and no temporary file */
  cp_fs_inject_fault(fs, CP_FS_OP_RENAME, 1, PAIMON_EIO);
  CHECK_ERR(cp_fs_publish(fs, at("snap/LATEST"), "333", 3, true, &err), PAIMON_EIO);
  CHECK_STR(slurp(fs, at("snap/LATEST")), "22");
  cp_fs_list_result l;
  CHECK_OK(cp_fs_list(fs, at("snap"), &l, &err), &err);
  CHECK_INT(l.count, 2);
  cp_fs_list_free(&l);
  bool ex;
  CHECK_OK(cp_fs_file_exists(fs, at("snap/LATEST"), &ex, &err), &err);
  CHECK(ex);
  CHECK_OK(cp_fs_file_exists(fs, at("snap"), &ex, &err), &err);
  CHECK(!ex); /* a directory is not a file */
  CHECK_OK(cp_fs_exists(fs, at("snap"), &ex, &err), &err);
  CHECK(ex);
  drop_root(fs);
  cp_fs_free(fs);
}

/* cp_fs_open picks the backend by scheme; file: paths reach the same files as plain ones. */
static void test_open_by_scheme(void) {
  paimon_error err;
  cp_fs *fs;
  CHECK_OK(cp_fs_open("/tmp/x", NULL, &fs, &err), &err);
  CHECK(!cp_fs_is_object_store(fs));
  CHECK_INT(cp_fs_requests(fs), 0);
  make_root("scheme");
  char uri[1200];
  snprintf(uri, sizeof uri, "file://%s/f", g_root);
  put(fs, uri, "via uri");
  CHECK_STR(slurp(fs, at("f")), "via uri");
  snprintf(uri, sizeof uri, "file:%s/f", g_root);
  CHECK_STR(slurp(fs, uri), "via uri");
  drop_root(fs);
  cp_fs_free(fs);
  CHECK_ERR(cp_fs_open("hdfs://nn:8020/wh", NULL, &fs, &err), PAIMON_EUNSUPPORTED);
  CHECK_CONTAINS(err.message, "scheme 'hdfs'");
  CHECK_CONTAINS(err.message, "hdfs://nn:8020/wh");
  CHECK(cp_uri_is_object_store("s3://b/k") && cp_uri_is_object_store("S3A://b/k") &&
        cp_uri_is_object_store("oss://b/k") && !cp_uri_is_object_store("/s3://b"));
  /* an object-store fs needs no network to be opened; configuration errors are found at once */
  const char *keys[] = {"fs.s3.endpoint", "cpaimon.fs.part-size"};
  const char *vals[] = {"http://127.0.0.1:1", "1k"};
  cp_fs_conf conf = {keys, vals, 2};
  CHECK_ERR(cp_fs_open("s3://b/wh", &conf, &fs, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "cpaimon.fs.part-size");
  conf.n = 1;
  CHECK_OK(cp_fs_open("s3://b/wh", &conf, &fs, &err), &err);
  CHECK(cp_fs_is_object_store(fs));
  cp_fs_free(fs);
  CHECK_ERR(cp_fs_open("oss://b/wh", NULL, &fs, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "fs.oss.endpoint");
}

static void test_path_join(void) {
  char *p = cp_path_join("/w/db.db", "t");
  CHECK_STR(p, "/w/db.db/t");
  free(p);
  p = cp_path_join("/w/", "t");
  CHECK_STR(p, "/w/t");
  free(p);
  p = cp_path_join("", "t");
  CHECK_STR(p, "t");
  free(p);
}

int main(void) {
  RUN(test_read_write_roundtrip);
  RUN(test_missing_and_bad_paths);
  RUN(test_create_modes);
  RUN(test_rename_noreplace);
  RUN(test_rename_noreplace_link_fallback);
  RUN(test_link_and_delete);
  RUN(test_mkdirs_and_delete_dir);
  RUN(test_list_sorted);
  RUN(test_fault_injection_each_op);
  RUN(test_fault_codes_and_cleanup);
  RUN(test_publish);
  RUN(test_open_by_scheme);
  RUN(test_path_join);
  TEST_MAIN_END();
}
