/*
 * The object-store backend of the file-I/O seam (fs.h; DESIGN.md "File I/O is an interface"):
 * s3://, s3a://, s3n:// and oss:// paths over the S3 protocol (s3.h).
 *
 * How each file operation maps to requests:
 * - open for reading: one GET of the last 64 KiB ("Range: bytes=-65536"), which gives the size
 *   (Content-Range) and, for Parquet, the footer; small files are then read whole from memory.
 * - read-ahead (cp_rfile_will_read): the ranges a reader announces (a row group's column chunks)
 *   are fetched concurrently. When they fit `cpaimon.fs.read-ahead` (default 64 MiB) they are
 *   coalesced across holes of up to 8 KiB and fetched whole in 8 MiB pieces (pyarrow's
 *   pre-buffering); otherwise each is read as a stream of windows, one window ahead of its
 *   reader, all windows together within the budget. Reads outside any announced range are plain
 *   ranged GETs, large ones split into parallel 8 MiB pieces.
 * - writing: bytes collect in a part buffer; a file that stays below `cpaimon.fs.part-size`
 *   (default 8 MiB) is one PUT at close; a larger one becomes a multipart upload whose parts upload
 *   while the writer goes on, at most `cpaimon.fs.upload-concurrency` (default 4) in flight, so a
 *   writer holds at most (concurrency + 1) parts however large the file. A failed or aborted write
 *   aborts its upload, so no part is left behind.
 * - create-if-absent and publish: PUT with "If-None-Match: *" (on a multipart upload, on its
 *   completion). Before the first publish to a bucket the store is probed: a second conditional
 *   PUT of a probe object must answer 412, else the store is refused (two committers could both
 *   win). A 412 after an ambiguous attempt (the first try may have landed) is resolved by reading
 *   the object back: our own bytes mean our own success.
 * - directories are prefixes: listing is ListObjectsV2 with "/" delimiter; mkdirs writes the
 *   "dir/" marker object (as Hadoop's S3A and pyarrow do); deleting a tree lists it and deletes in
 *   batches of 1000.
 */
#include <ctype.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/digest.h"
#include "base/fs_impl.h"
#include "base/s3.h"
#include "base/status.h"
#include "base/time.h"
#include "base/uuid.h"
#include "base/xml.h"

enum {
  TAIL_READ = 64 * 1024,
  HOLE_LIMIT = 8 * 1024,
  PIECE = 8 << 20, /* parallel pieces of a large direct read */
  MIN_WINDOW = 1 << 20,
  MIN_PART = 5 << 20,  /* S3's smallest part but the last */
  DELETE_BATCH = 1000, /* S3's limit per DeleteObjects */
  MAX_PROBED = 8
};

typedef struct s3_fs {
  cp_fs base;
  cp_s3 *s3;
  bool oss;
  size_t part_size;
  int upload_concurrency;
  size_t read_ahead;
  bool trust_conditional;
  pthread_mutex_t probe_mu;
  char *probed[MAX_PROBED]; /* buckets whose conditional PUT was verified */
  size_t n_probed;
} s3_fs;

static const cp_fs_ops s3_ops;

/* ---- paths ---- */

/* Splits "s3://bucket/key" into a malloc'd bucket and a pointer to the key inside `uri` (without
 * leading slashes; "" for the bucket itself). */
static int split_uri(const s3_fs *fs, const char *uri, char **bucket, const char **key,
                     paimon_error *err) {
  const char *p = strstr(uri, "://");
  if (!p) return paimon_error_set(err, PAIMON_EINVAL, "%s: not an object-store URI", uri);
  p += 3;
  size_t n = strcspn(p, "/");
  /* pypaimon accepts oss://bucket.endpoint/key and takes the first label as the bucket */
  size_t b = fs->oss ? strcspn(p, "./") : n;
  if (b > n) b = n;
  if (b == 0) return paimon_error_set(err, PAIMON_EINVAL, "%s: no bucket in the URI", uri);
  if (!(*bucket = strndup(p, b))) return CP_ENOMEM(err, "path");
  const char *k = p + n;
  while (*k == '/') k++;
  *key = k;
  return PAIMON_OK;
}

typedef struct s3_path {
  char *bucket;
  const char *key;
} s3_path;

/* ---- small request helpers ---- */

/* A call on `path` with method and query; the caller sets body/headers/dst as needed. */
static cp_s3_call make_call(const char *method, const s3_path *p, const char *query) {
  cp_s3_call c = {0};
  c.method = method;
  c.bucket = p->bucket;
  c.key = p->key;
  c.query = query;
  return c;
}

/* Performs `c` and turns a non-2xx answer into an error for `op` of `uri`. */
static int perform_ok(s3_fs *fs, cp_s3_call *c, const char *op, const char *uri,
                      paimon_error *err) {
  CP_RETURN_IF_ERROR(cp_s3_perform(fs->s3, c, uri, err));
  if (!cp_s3_ok(c)) return cp_s3_error(c, op, uri, err);
  return PAIMON_OK;
}

/* Parses "bytes a-b/total". */
static bool parse_content_range(const char *v, uint64_t *first, uint64_t *total) {
  unsigned long long a, b, t;
  if (!v || sscanf(v, "bytes %llu-%llu/%llu", &a, &b, &t) != 3) return false;
  *first = a;
  *total = t;
  return true;
}

static bool header_u64(const cp_s3_call *c, const char *name, uint64_t *out) {
  char *v = cp_http_header(&c->http, name);
  bool ok = false;
  if (v) {
    char *end;
    unsigned long long x = strtoull(v, &end, 10);
    ok = end != v && *end == '\0';
    if (ok) *out = x;
  }
  free(v);
  return ok;
}

/* ---- reading: streams and windows ---- */

enum { W_EMPTY = 0, W_IN_FLIGHT, W_READY, W_FAILED };

typedef struct s3_window {
  uint64_t off;
  size_t len;
  uint8_t *data;
  size_t cap;
  int state;
  int rc;
  char msg[PAIMON_ERROR_MESSAGE_SIZE];
  cp_s3_call call;
  char range[64];
  const char *hdr[1];
} s3_window;

typedef struct s3_stream {
  uint64_t start, end;
  size_t win;
  s3_window w[2];
} s3_stream;

typedef struct s3_rfile {
  cp_rfile base;
  s3_fs *fs;
  s3_path p;
  uint8_t *tail;
  uint64_t tail_off;
  size_t tail_len;
  pthread_mutex_t mu;
  s3_stream *streams;
  size_t n_streams;
} s3_rfile;

static void set_range(char *buf, size_t cap, uint64_t off, uint64_t len) {
  snprintf(buf, cap, "Range: bytes=%llu-%llu", (unsigned long long)off,
           (unsigned long long)(off + len - 1));
}

/* Starts fetching [off, off + len) into window `w` (the file lock is held). */
static int window_start(s3_rfile *f, s3_window *w, uint64_t off, size_t len, paimon_error *err) {
  if (w->cap < len) {
    uint8_t *d = realloc(w->data, len);
    if (!d) return CP_ENOMEM(err, "read-ahead window");
    w->data = d;
    w->cap = len;
  }
  cp_s3_call_free(&w->call);
  w->call = make_call("GET", &f->p, NULL);
  set_range(w->range, sizeof w->range, off, len);
  w->hdr[0] = w->range;
  w->call.headers = w->hdr;
  w->call.n_headers = 1;
  w->call.dst = w->data;
  w->call.dst_cap = len;
  w->off = off;
  w->len = len;
  w->state = W_IN_FLIGHT;
  int rc = cp_s3_start(f->fs->s3, &w->call, err);
  if (rc) w->state = W_EMPTY;
  return rc;
}

/* Waits for window `w` to be ready (the file lock is held on entry and exit, released while
 * waiting). */
static int window_wait(s3_rfile *f, s3_window *w, paimon_error *err) {
  while (w->state == W_IN_FLIGHT) {
    pthread_mutex_unlock(&f->mu);
    cp_http_wait(cp_s3_http(f->fs->s3), &w->call.http);
    pthread_mutex_lock(&f->mu);
    if (w->state != W_IN_FLIGHT) break;
    paimon_error e = {0};
    int rc = cp_s3_finish(f->fs->s3, &w->call, f->base.path, &e);
    if (!rc && (w->call.http.status != 206 && w->call.http.status != 200))
      rc = cp_s3_error(&w->call, "read", f->base.path, &e);
    if (!rc && w->call.http.dst_len != w->len)
      rc = paimon_error_set(&e, PAIMON_ECORRUPT, "read of %s [%llu, %llu): got %zu bytes",
                            f->base.path, (unsigned long long)w->off,
                            (unsigned long long)(w->off + w->len), w->call.http.dst_len);
    w->state = rc ? W_FAILED : W_READY;
    w->rc = rc;
    if (rc) snprintf(w->msg, sizeof w->msg, "%s", e.message);
  }
  if (w->state == W_FAILED) return paimon_error_set(err, w->rc, "%s", w->msg);
  return PAIMON_OK;
}

static bool window_has(const s3_window *w, uint64_t off) {
  return (w->state == W_IN_FLIGHT || w->state == W_READY) && off >= w->off && off < w->off + w->len;
}

/* Makes sure the window after `cur` in stream `s` is being fetched. */
static void prefetch_next(s3_rfile *f, s3_stream *s, int cur) {
  s3_window *w = &s->w[cur], *o = &s->w[1 - cur];
  uint64_t next = w->off + w->len;
  if (next >= s->end || window_has(o, next) || o->state == W_IN_FLIGHT) return;
  size_t len = (size_t)(s->end - next < s->win ? s->end - next : s->win);
  window_start(f, o, next, len, NULL); /* a failed start is retried by the read that needs it */
}

/* Copies from the stream windows; *done = bytes copied from `off` (0 when `off` is not in a
 * stream). `read_start` is where the caller's read began: the window before is only let go
 * (reused for the next) once a read begins in the current one, because a reader re-reads from
 * the start of a page that crossed the boundary, and read starts never go backwards. */
static int stream_read(s3_rfile *f, uint64_t read_start, uint64_t off, uint8_t *dst, size_t len,
                       size_t *done, paimon_error *err) {
  *done = 0;
  s3_stream *s = NULL;
  for (size_t i = 0; i < f->n_streams && !s; i++)
    if (off >= f->streams[i].start && off < f->streams[i].end) s = &f->streams[i];
  if (!s) return PAIMON_OK;
  int k = window_has(&s->w[0], off) ? 0 : window_has(&s->w[1], off) ? 1 : -1;
  if (k < 0) {
    /* Not where the reader was expected: restart this stream's windows at `off`. */
    k = s->w[0].state == W_IN_FLIGHT ? 1 : 0;
    CP_RETURN_IF_ERROR(window_wait(f, &s->w[k], err));
    size_t wl = (size_t)(s->end - off < s->win ? s->end - off : s->win);
    CP_RETURN_IF_ERROR(window_start(f, &s->w[k], off, wl, err));
  }
  CP_RETURN_IF_ERROR(window_wait(f, &s->w[k], err));
  s3_window *w = &s->w[k];
  if (!(off >= w->off && off < w->off + w->len)) return PAIMON_OK; /* replaced while waiting */
  size_t n = (size_t)(w->off + w->len - off);
  if (n > len) n = len;
  memcpy(dst, w->data + (off - w->off), n);
  *done = n;
  if (read_start >= w->off) prefetch_next(f, s, k);
  return PAIMON_OK;
}

/* A ranged GET straight into `dst`, in parallel pieces when large. */
static int direct_read(s3_rfile *f, uint64_t off, uint8_t *dst, size_t len, paimon_error *err) {
  size_t n = (len + PIECE - 1) / PIECE;
  cp_s3_call *calls = calloc(n, sizeof *calls);
  cp_s3_call **ptrs = calloc(n, sizeof *ptrs);
  const char **uris = calloc(n, sizeof *uris);
  char(*ranges)[64] = calloc(n, sizeof *ranges);
  const char **hdrs = calloc(n, sizeof *hdrs);
  int rc = calls && ptrs && uris && ranges && hdrs ? PAIMON_OK : CP_ENOMEM(err, "read");
  for (size_t i = 0; i < n && !rc; i++) {
    uint64_t o = off + (uint64_t)i * PIECE;
    size_t l = len - (size_t)(o - off) < PIECE ? len - (size_t)(o - off) : PIECE;
    calls[i] = make_call("GET", &f->p, NULL);
    set_range(ranges[i], sizeof ranges[i], o, l);
    hdrs[i] = ranges[i];
    calls[i].headers = &hdrs[i];
    calls[i].n_headers = 1;
    calls[i].dst = dst + (o - off);
    calls[i].dst_cap = l;
    ptrs[i] = &calls[i];
    uris[i] = f->base.path;
  }
  if (!rc) rc = cp_s3_perform_many(f->fs->s3, ptrs, uris, n, err);
  for (size_t i = 0; i < n && !rc; i++) {
    if (calls[i].http.status != 206 && calls[i].http.status != 200)
      rc = cp_s3_error(&calls[i], "read", f->base.path, err);
    else if (calls[i].http.dst_len != calls[i].dst_cap)
      rc = paimon_error_set(
          err, PAIMON_ECORRUPT, "read of %s [%llu, %llu): the store sent %zu bytes", f->base.path,
          (unsigned long long)off, (unsigned long long)(off + len), calls[i].http.dst_len);
  }
  for (size_t i = 0; calls && i < n; i++) cp_s3_call_free(&calls[i]);
  free(calls);
  free(ptrs);
  free(uris);
  free(ranges);
  free(hdrs);
  return rc;
}

static int s3_read_at(cp_rfile *rf, uint64_t off, void *dstv, size_t len, paimon_error *err) {
  s3_rfile *f = (s3_rfile *)rf;
  uint8_t *dst = dstv;
  const uint64_t start = off;
  pthread_mutex_lock(&f->mu);
  int rc = PAIMON_OK;
  while (len && !rc) {
    if (f->tail && off >= f->tail_off && off < f->tail_off + f->tail_len) {
      size_t n = (size_t)(f->tail_off + f->tail_len - off);
      if (n > len) n = len;
      memcpy(dst, f->tail + (off - f->tail_off), n);
      off += n, dst += n, len -= n;
      continue;
    }
    size_t done = 0;
    rc = stream_read(f, start, off, dst, len, &done, err);
    if (rc) break;
    if (done) {
      off += done, dst += done, len -= done;
      continue;
    }
    /* Outside the tail and every stream: read up to the next cached byte directly. */
    uint64_t stop = off + len;
    if (f->tail && f->tail_off > off && f->tail_off < stop) stop = f->tail_off;
    for (size_t i = 0; i < f->n_streams; i++)
      if (f->streams[i].start > off && f->streams[i].start < stop) stop = f->streams[i].start;
    size_t n = (size_t)(stop - off);
    pthread_mutex_unlock(&f->mu);
    rc = direct_read(f, off, dst, n, err);
    pthread_mutex_lock(&f->mu);
    off += n, dst += n, len -= n;
  }
  pthread_mutex_unlock(&f->mu);
  return rc;
}

/* Waits for every window in flight and frees the streams (the file lock is held). */
static void drop_streams(s3_rfile *f) {
  for (size_t i = 0; i < f->n_streams; i++) {
    for (int k = 0; k < 2; k++) {
      s3_window *w = &f->streams[i].w[k];
      if (w->state == W_IN_FLIGHT) window_wait(f, w, NULL);
      cp_s3_call_free(&w->call);
      free(w->data);
    }
  }
  free(f->streams);
  f->streams = NULL;
  f->n_streams = 0;
}

static int by_offset(const void *a, const void *b) {
  const cp_fs_range *x = a, *y = b;
  return (x->offset > y->offset) - (x->offset < y->offset);
}

static int s3_will_read(cp_rfile *rf, const cp_fs_range *ranges, size_t n, paimon_error *err) {
  s3_rfile *f = (s3_rfile *)rf;
  cp_fs_range *r = malloc(n * sizeof *r);
  if (!r) return CP_ENOMEM(err, "read-ahead");
  size_t m = 0;
  for (size_t i = 0; i < n; i++) {
    uint64_t s = ranges[i].offset, e = ranges[i].offset + ranges[i].len;
    if (e > f->base.size) e = f->base.size;
    /* what the tail already holds needs no fetching */
    if (f->tail && e > f->tail_off && e <= f->tail_off + f->tail_len)
      e = s > f->tail_off ? s : f->tail_off;
    if (e > s) r[m++] = (cp_fs_range){s, e - s};
  }
  if (m > 1) qsort(r, m, sizeof *r, by_offset);
  /* Two ways to read ahead. When everything fits the budget (the usual row group), it is
   * fetched at once as pyarrow's pre-buffering does: ranges coalesced across small holes, cut
   * into pieces of up to 8 MiB, every piece a stream of one window that stays until the next
   * hint. Otherwise each range is read front to back by its own consumer (a column chunk's
   * pages), so it becomes a stream with two sliding windows within the budget; only small
   * neighbours are merged, into a stream one window holds whole. */
  uint64_t total = 0;
  for (size_t i = 0; i < m; i++) total += r[i].len;
  bool whole = total <= f->fs->read_ahead;
  size_t k = 0;
  for (size_t i = 0; i < m; i++) {
    uint64_t e = r[i].offset + r[i].len;
    if (k && r[i].offset <= r[k - 1].offset + r[k - 1].len + HOLE_LIMIT &&
        (whole || (e > r[k - 1].offset ? e - r[k - 1].offset : 0) <= MIN_WINDOW)) {
      if (e > r[k - 1].offset + r[k - 1].len) r[k - 1].len = e - r[k - 1].offset;
    } else {
      r[k++] = r[i];
    }
  }
  size_t n_streams = k;
  if (whole) {
    n_streams = 0;
    for (size_t i = 0; i < k; i++) n_streams += (size_t)((r[i].len + PIECE - 1) / PIECE);
  }
  pthread_mutex_lock(&f->mu);
  drop_streams(f);
  int rc = PAIMON_OK;
  if (n_streams) {
    f->streams = calloc(n_streams, sizeof *f->streams);
    if (!f->streams) rc = CP_ENOMEM(err, "read-ahead");
  }
  size_t asked = 0;
  if (whole) {
    for (size_t i = 0; i < k && !rc; i++) {
      for (uint64_t at = r[i].offset; at < r[i].offset + r[i].len && !rc; at += PIECE) {
        uint64_t left = r[i].offset + r[i].len - at;
        s3_stream *s = &f->streams[f->n_streams++];
        s->start = at;
        s->win = (size_t)(left < PIECE ? left : PIECE);
        s->end = at + s->win;
        rc = window_start(f, &s->w[0], s->start, s->win, err);
      }
    }
    k = 0; /* no second windows */
  }
  size_t win = k ? f->fs->read_ahead / (2 * k) : 0;
  if (win < MIN_WINDOW) win = MIN_WINDOW;
  if (win > PIECE) win = PIECE;
  for (size_t i = 0; i < k && !rc; i++) {
    s3_stream *s = &f->streams[i];
    s->start = r[i].offset;
    s->end = r[i].offset + r[i].len;
    /* a stream barely longer than a window is read in one */
    s->win = r[i].len <= win + win / 4 ? (size_t)r[i].len : win;
    f->n_streams++;
    rc = window_start(f, &s->w[0], s->start, s->win, err);
    asked += s->win;
  }
  for (size_t i = 0; i < k && !rc && asked < f->fs->read_ahead; i++) {
    s3_stream *s = &f->streams[i];
    uint64_t next = s->start + s->win;
    if (next >= s->end) continue;
    size_t len = (size_t)(s->end - next < s->win ? s->end - next : s->win);
    rc = window_start(f, &s->w[1], next, len, err);
    asked += len;
  }
  if (rc) drop_streams(f);
  pthread_mutex_unlock(&f->mu);
  free(r);
  return rc;
}

static void s3_close_read(cp_rfile *rf) {
  s3_rfile *f = (s3_rfile *)rf;
  pthread_mutex_lock(&f->mu);
  drop_streams(f);
  pthread_mutex_unlock(&f->mu);
  pthread_mutex_destroy(&f->mu);
  free(f->tail);
  free(f->p.bucket);
  free(rf->path);
  free(f);
}

/* HEAD of `p`: *found, and the size when found. */
static int head_object(s3_fs *fs, const s3_path *p, const char *uri, bool *found, uint64_t *size,
                       paimon_error *err) {
  cp_s3_call c = make_call("HEAD", p, NULL);
  int rc = cp_s3_perform(fs->s3, &c, uri, err);
  *found = false;
  if (!rc) {
    if (cp_s3_ok(&c)) {
      *found = true;
      if (!header_u64(&c, "content-length", size))
        rc = paimon_error_set(err, PAIMON_EIO, "stat of %s: no Content-Length in the answer", uri);
    } else if (c.http.status != 404) {
      rc = cp_s3_error(&c, "stat", uri, err);
    }
  }
  cp_s3_call_free(&c);
  return rc;
}

static int s3_open_read(cp_fs *base, const char *path, cp_rfile **out, paimon_error *err) {
  s3_fs *fs = (s3_fs *)base;
  s3_rfile *f = calloc(1, sizeof *f);
  if (!f) return CP_ENOMEM(err, path);
  pthread_mutex_init(&f->mu, NULL);
  f->fs = fs;
  f->base.fs = base;
  int rc = (f->base.path = strdup(path)) ? PAIMON_OK : CP_ENOMEM(err, path);
  if (!rc) rc = split_uri(fs, f->base.path, &f->p.bucket, &f->p.key, err);
  cp_s3_call c = make_call("GET", &f->p, NULL);
  char range[48];
  snprintf(range, sizeof range, "Range: bytes=-%d", TAIL_READ);
  const char *hdr[] = {range};
  c.headers = hdr;
  c.n_headers = 1;
  c.max_resp = TAIL_READ;
  if (!rc) rc = cp_s3_perform(fs->s3, &c, path, err);
  if (!rc) {
    uint64_t first = 0, total = 0;
    char *cr = cp_http_header(&c.http, "content-range");
    if (c.http.status == 206 && parse_content_range(cr, &first, &total) &&
        first + c.http.resp.len == total) {
      f->base.size = total;
      f->tail_off = first;
    } else if (c.http.status == 200 && !c.http.overflow) {
      f->base.size = c.http.resp.len; /* the whole (small or empty) object */
    } else if (c.http.status == 416 || (c.http.status == 200 && c.http.overflow)) {
      /* an empty object some stores refuse a suffix range of, or a store that ignores ranges */
      bool found;
      rc = head_object(fs, &f->p, path, &found, &f->base.size, err);
      if (!rc && !found)
        rc = paimon_error_set(err, PAIMON_ENOTFOUND, "open of %s: No such file or directory", path);
      c.http.resp.len = 0;
    } else {
      rc = c.http.status == 404 ? paimon_error_set(err, PAIMON_ENOTFOUND,
                                                   "open of %s: No such file or directory", path)
                                : cp_s3_error(&c, "open", path, err);
    }
    free(cr);
  }
  if (!rc && c.http.resp.len) {
    f->tail_len = c.http.resp.len;
    f->tail = cp_buf_detach(&c.http.resp);
  }
  cp_s3_call_free(&c);
  if (rc) {
    s3_close_read(&f->base);
    return rc;
  }
  *out = &f->base;
  return PAIMON_OK;
}

static int s3_read_file(cp_fs *base, const char *path, cp_buf *out, size_t max_len,
                        paimon_error *err) {
  s3_fs *fs = (s3_fs *)base;
  s3_path p;
  CP_RETURN_IF_ERROR(split_uri(fs, path, &p.bucket, &p.key, err));
  cp_s3_call c = make_call("GET", &p, NULL);
  c.max_resp = max_len;
  int rc = cp_s3_perform(fs->s3, &c, path, err);
  if (!rc && c.http.overflow)
    rc = paimon_error_set(err, PAIMON_EINVAL, "read of %s: file is larger than the limit of %zu",
                          path, max_len);
  else if (!rc && c.http.status == 404)
    rc = paimon_error_set(err, PAIMON_ENOTFOUND, "open of %s: No such file or directory", path);
  else if (!rc && !cp_s3_ok(&c))
    rc = cp_s3_error(&c, "read", path, err);
  if (!rc) rc = cp_buf_append(out, c.http.resp.data, c.http.resp.len, err);
  cp_s3_call_free(&c);
  free(p.bucket);
  return rc;
}

enum { READ_BATCH = 32 };

static int s3_read_files(cp_fs *base, const char *const *paths, size_t n, size_t max_len,
                         cp_buf *outs, int *rcs, paimon_error *err) {
  s3_fs *fs = (s3_fs *)base;
  int rc = PAIMON_OK;
  for (size_t at = 0; at < n && !rc; at += READ_BATCH) {
    size_t m = n - at < READ_BATCH ? n - at : READ_BATCH;
    cp_s3_call calls[READ_BATCH];
    cp_s3_call *ptrs[READ_BATCH];
    s3_path p[READ_BATCH];
    size_t made = 0;
    for (; made < m && !rc; made++) {
      rc = split_uri(fs, paths[at + made], &p[made].bucket, &p[made].key, err);
      if (rc) break;
      calls[made] = make_call("GET", &p[made], NULL);
      calls[made].max_resp = max_len;
      ptrs[made] = &calls[made];
    }
    if (!rc) rc = cp_s3_perform_many(fs->s3, ptrs, paths + at, m, err);
    for (size_t i = 0; i < made && !rc; i++) {
      cp_s3_call *c = &calls[i];
      const char *path = paths[at + i];
      if (c->http.overflow)
        rc = paimon_error_set(err, PAIMON_EINVAL,
                              "read of %s: file is larger than the limit of %zu", path, max_len);
      else if (c->http.status == 404 && rcs)
        rcs[at + i] = PAIMON_ENOTFOUND;
      else if (c->http.status == 404)
        rc = paimon_error_set(err, PAIMON_ENOTFOUND, "open of %s: No such file or directory", path);
      else if (!cp_s3_ok(c))
        rc = cp_s3_error(c, "read", path, err);
      else
        rc = cp_buf_append(&outs[at + i], c->http.resp.data, c->http.resp.len, err);
    }
    for (size_t i = 0; i < made; i++) {
      cp_s3_call_free(&calls[i]);
      free(p[i].bucket);
    }
  }
  return rc;
}

/* ---- conditional PUT ---- */

/* Adds the create-if-absent headers to `hdr` (at least 2 slots); returns how many. */
static size_t if_absent_headers(const s3_fs *fs, const char **hdr) {
  size_t n = 0;
  hdr[n++] = "If-None-Match: *";
  if (fs->oss) hdr[n++] = "x-oss-forbid-overwrite: true";
  return n;
}

/* After a 412 on a call that may have succeeded on an earlier attempt: is the object ours? */
static int is_own_object(s3_fs *fs, const s3_path *p, const char *uri, const void *data, size_t n,
                         bool *own, paimon_error *err) {
  cp_buf b = CP_BUF_INIT;
  *own = false;
  int rc = s3_read_file(&fs->base, uri, &b, n + 1, err);
  if (rc == PAIMON_EINVAL || rc == PAIMON_ENOTFOUND) rc = PAIMON_OK; /* larger: not ours */
  if (!rc) *own = b.len == n && (n == 0 || memcmp(b.data, data, n) == 0);
  cp_buf_free(&b);
  return rc;
}

/* PUT of a whole object, create-if-absent unless `replace`. EEXIST when it exists. */
static int put_object(s3_fs *fs, const s3_path *p, const char *uri, const void *data, size_t n,
                      bool replace, paimon_error *err) {
  const char *hdr[2];
  cp_s3_call c = make_call("PUT", p, NULL);
  c.body = data;
  c.body_len = n;
  c.headers = hdr;
  c.n_headers = replace ? 0 : if_absent_headers(fs, hdr);
  int rc = cp_s3_perform(fs->s3, &c, uri, err);
  if (!rc && !cp_s3_ok(&c)) {
    bool taken = c.http.status == 412 || c.http.status == 409;
    bool own = false;
    if (taken && c.ambiguous) rc = is_own_object(fs, p, uri, data, n, &own, err);
    if (!rc && taken && !own)
      rc = paimon_error_set(err, PAIMON_EEXIST, "create of %s: the file exists", uri);
    else if (!rc && !taken)
      rc = cp_s3_error(&c, "write", uri, err);
  }
  cp_s3_call_free(&c);
  return rc;
}

/* Verifies once per bucket that the store honours If-None-Match: * (see the top of the file). */
static int check_conditional_put(s3_fs *fs, const s3_path *p, const char *uri, paimon_error *err) {
  if (fs->trust_conditional) return PAIMON_OK;
  pthread_mutex_lock(&fs->probe_mu);
  int rc = PAIMON_OK;
  bool known = false;
  for (size_t i = 0; i < fs->n_probed && !known; i++) known = strcmp(fs->probed[i], p->bucket) == 0;
  if (!known) {
    char uuid[37];
    rc = cp_uuid_v4(uuid, err);
    cp_buf key = CP_BUF_INIT;
    const char *slash = strrchr(p->key, '/');
    if (!rc)
      rc = cp_buf_appendf(&key, err, "%.*s%s.cpaimon-conditional-put-probe-%s",
                          slash ? (int)(slash - p->key) : 0, p->key, slash ? "/" : "", uuid);
    if (!rc) rc = cp_buf_nul_terminate(&key, err);
    s3_path probe = {p->bucket, key.data ? (const char *)key.data : ""};
    if (!rc) rc = put_object(fs, &probe, uri, "probe", 5, false, err);
    if (!rc) {
      int second = put_object(fs, &probe, uri, "probe", 5, false, err);
      if (second == PAIMON_OK)
        rc =
            paimon_error_set(err, PAIMON_EUNSUPPORTED,
                             "publish of %s: the object store ignores 'If-None-Match: *' (a second "
                             "create-if-absent of a probe object succeeded), so two commits could "
                             "both win; cpaimon does not commit to such a store",
                             uri);
      else if (second != PAIMON_EEXIST)
        rc = second;
      cp_s3_call d = make_call("DELETE", &probe, NULL);
      cp_s3_perform(fs->s3, &d, uri, NULL);
      cp_s3_call_free(&d);
    }
    cp_buf_free(&key);
    if (!rc && fs->n_probed < MAX_PROBED) {
      char *b = strdup(p->bucket);
      if (b) fs->probed[fs->n_probed++] = b;
    }
  }
  pthread_mutex_unlock(&fs->probe_mu);
  return rc;
}

static int s3_publish(cp_fs *base, const char *path, const void *data, size_t n, bool replace,
                      paimon_error *err) {
  s3_fs *fs = (s3_fs *)base;
  s3_path p;
  CP_RETURN_IF_ERROR(split_uri(fs, path, &p.bucket, &p.key, err));
  int rc = replace ? PAIMON_OK : check_conditional_put(fs, &p, path, err);
  if (!rc) rc = put_object(fs, &p, path, data, n, replace, err);
  free(p.bucket);
  return rc;
}

/* ---- writing ---- */

typedef struct s3_part {
  uint8_t *data;
  size_t len;
  cp_s3_call call;
  char query[160];
  bool in_flight;
  char *etag;
} s3_part;

typedef struct s3_wfile {
  cp_wfile base;
  s3_fs *fs;
  s3_path p;
  bool exclusive;
  uint8_t *buf;
  size_t len, cap;
  char *upload_id;
  s3_part *parts;
  size_t n_parts, cap_parts;
  size_t oldest; /* first part that may still be in flight */
  int in_flight;
  int failed; /* a part failed: every later call fails */
} s3_wfile;

static int s3_create(cp_fs *base, const char *path, cp_create_mode mode, cp_wfile **out,
                     paimon_error *err) {
  s3_fs *fs = (s3_fs *)base;
  s3_wfile *f = calloc(1, sizeof *f);
  if (!f) return CP_ENOMEM(err, path);
  f->fs = fs;
  f->base.fs = base;
  f->exclusive = mode == CP_CREATE_EXCLUSIVE;
  int rc = (f->base.path = strdup(path)) ? PAIMON_OK : CP_ENOMEM(err, path);
  if (!rc) rc = split_uri(fs, f->base.path, &f->p.bucket, &f->p.key, err);
  if (!rc && !*f->p.key)
    rc = paimon_error_set(err, PAIMON_EINVAL, "create of %s: the path names a bucket", path);
  if (rc) {
    free(f->p.bucket);
    free(f->base.path);
    free(f);
    return rc;
  }
  *out = &f->base;
  return PAIMON_OK;
}

static int on_upload_id(void *ud, const char *path, const char *text, size_t len,
                        paimon_error *err) {
  char **id = ud;
  if (strcmp(path, "InitiateMultipartUploadResult/UploadId") == 0 && !*id && len) {
    if (!(*id = strndup(text, len))) return CP_ENOMEM(err, "upload id");
  }
  return PAIMON_OK;
}

static int start_upload(s3_wfile *f, paimon_error *err) {
  cp_s3_call c = make_call("POST", &f->p, "uploads=");
  int rc = perform_ok(f->fs, &c, "write", f->base.path, err);
  if (!rc)
    rc = cp_xml_parse(c.http.resp.data, c.http.resp.len, on_upload_id, &f->upload_id,
                      "CreateMultipartUpload answer", err);
  if (!rc && !f->upload_id)
    rc =
        paimon_error_set(err, PAIMON_EIO, "write of %s: the store gave no upload id", f->base.path);
  cp_s3_call_free(&c);
  return rc;
}

static void part_query(char *buf, size_t cap, size_t number, const char *upload_id) {
  cp_buf q = CP_BUF_INIT;
  char num[24];
  snprintf(num, sizeof num, "%zu", number);
  if (cp_s3_query_add(&q, "partNumber", num, NULL) == 0 &&
      cp_s3_query_add(&q, "uploadId", upload_id, NULL) == 0)
    snprintf(buf, cap, "%s", (const char *)q.data);
  cp_buf_free(&q);
}

/* Waits for part i and records its ETag; a failure sticks to the file. */
static int finish_part(s3_wfile *f, size_t i, paimon_error *err) {
  s3_part *pt = &f->parts[i];
  if (!pt->in_flight) return PAIMON_OK;
  pt->in_flight = false;
  f->in_flight--;
  int rc = cp_s3_finish(f->fs->s3, &pt->call, f->base.path, err);
  if (!rc && !cp_s3_ok(&pt->call)) rc = cp_s3_error(&pt->call, "write", f->base.path, err);
  if (!rc && !(pt->etag = cp_http_header(&pt->call.http, "etag")))
    rc = paimon_error_set(err, PAIMON_EIO, "write of %s: part %zu was stored without an ETag",
                          f->base.path, i + 1);
  cp_s3_call_free(&pt->call);
  free(pt->data);
  pt->data = NULL;
  if (rc) f->failed = rc;
  return rc;
}

/* Hands the buffered bytes to the store as the next part. */
static int flush_part(s3_wfile *f, paimon_error *err) {
  if (!f->upload_id) CP_RETURN_IF_ERROR(start_upload(f, err));
  if (f->n_parts == 10000)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "write of %s: more than 10000 parts (raise "
                            "cpaimon.fs.part-size)",
                            f->base.path);
  if (f->n_parts == f->cap_parts) {
    size_t nc = f->cap_parts ? f->cap_parts * 2 : 16;
    s3_part *p = realloc(f->parts, nc * sizeof *p);
    if (!p) return CP_ENOMEM(err, "upload parts");
    memset(p + f->cap_parts, 0, (nc - f->cap_parts) * sizeof *p);
    f->parts = p;
    f->cap_parts = nc;
  }
  s3_part *pt = &f->parts[f->n_parts];
  pt->data = f->buf;
  pt->len = f->len;
  f->buf = NULL;
  f->len = f->cap = 0;
  part_query(pt->query, sizeof pt->query, f->n_parts + 1, f->upload_id);
  pt->call = make_call("PUT", &f->p, pt->query);
  pt->call.body = pt->data;
  pt->call.body_len = pt->len;
  f->n_parts++;
  int rc = cp_s3_start(f->fs->s3, &pt->call, err);
  if (rc) {
    f->failed = rc;
    return rc;
  }
  pt->in_flight = true;
  f->in_flight++;
  while (f->in_flight > f->fs->upload_concurrency && !rc) rc = finish_part(f, f->oldest++, err);
  return rc;
}

static int s3_write(cp_wfile *wf, const void *src, size_t n, paimon_error *err) {
  s3_wfile *f = (s3_wfile *)wf;
  if (f->failed)
    return paimon_error_set(err, f->failed, "write of %s: an earlier part failed", wf->path);
  const uint8_t *p = src;
  while (n) {
    if (f->len == f->cap) {
      size_t nc = f->cap ? f->cap * 2 : 64 * 1024;
      if (nc > f->fs->part_size) nc = f->fs->part_size;
      uint8_t *b = realloc(f->buf, nc);
      if (!b) return CP_ENOMEM(err, "upload buffer");
      f->buf = b;
      f->cap = nc;
    }
    size_t k = f->cap - f->len < n ? f->cap - f->len : n;
    memcpy(f->buf + f->len, p, k);
    f->len += k, p += k, n -= k;
    wf->pos += k;
    if (f->len == f->fs->part_size) CP_RETURN_IF_ERROR(flush_part(f, err));
  }
  return PAIMON_OK;
}

static void abort_upload(s3_wfile *f) {
  for (size_t i = f->oldest; i < f->n_parts; i++) finish_part(f, i, NULL);
  if (!f->upload_id) return;
  cp_buf q = CP_BUF_INIT;
  if (cp_s3_query_add(&q, "uploadId", f->upload_id, NULL) == 0) {
    cp_s3_call c = make_call("DELETE", &f->p, (const char *)q.data);
    cp_s3_perform(f->fs->s3, &c, f->base.path, NULL);
    cp_s3_call_free(&c);
  }
  cp_buf_free(&q);
}

static void free_wfile(s3_wfile *f) {
  for (size_t i = 0; i < f->n_parts; i++) {
    free(f->parts[i].data);
    free(f->parts[i].etag);
    cp_s3_call_free(&f->parts[i].call);
  }
  free(f->parts);
  free(f->buf);
  free(f->upload_id);
  free(f->p.bucket);
  free(f->base.path);
  free(f);
}

/* Checks CompleteMultipartUpload's answer, which can be an <Error> inside a 200. */
static int on_complete(void *ud, const char *path, const char *text, size_t len,
                       paimon_error *err) {
  bool *error = ud;
  if (strcmp(path, "Error") == 0) *error = true;
  return PAIMON_OK;
}

static int complete_upload(s3_wfile *f, paimon_error *err) {
  if (f->len || f->n_parts == 0) CP_RETURN_IF_ERROR(flush_part(f, err));
  for (size_t i = f->oldest; i < f->n_parts; i++) CP_RETURN_IF_ERROR(finish_part(f, i, err));
  f->oldest = f->n_parts;
  cp_buf body = CP_BUF_INIT, q = CP_BUF_INIT;
  int rc = cp_buf_appendf(&body, err, "<CompleteMultipartUpload>");
  for (size_t i = 0; i < f->n_parts && !rc; i++)
    rc = cp_buf_appendf(&body, err, "<Part><PartNumber>%zu</PartNumber><ETag>%s</ETag></Part>",
                        i + 1, f->parts[i].etag);
  if (!rc) rc = cp_buf_appendf(&body, err, "</CompleteMultipartUpload>");
  if (!rc) rc = cp_s3_query_add(&q, "uploadId", f->upload_id, err);
  const char *hdr[3] = {"Content-Type: application/xml"};
  cp_s3_call c = make_call("POST", &f->p, (const char *)q.data);
  c.body = body.data;
  c.body_len = body.len;
  c.headers = hdr;
  c.n_headers = 1 + (f->exclusive ? if_absent_headers(f->fs, hdr + 1) : 0);
  if (!rc) rc = cp_s3_perform(f->fs->s3, &c, f->base.path, err);
  if (!rc && (c.http.status == 412 || c.http.status == 409))
    rc = paimon_error_set(err, PAIMON_EEXIST, "create of %s: the file exists", f->base.path);
  else if (!rc && !cp_s3_ok(&c))
    rc = cp_s3_error(&c, "write", f->base.path, err);
  bool error_doc = false;
  if (!rc && c.http.resp.len)
    rc = cp_xml_parse(c.http.resp.data, c.http.resp.len, on_complete, &error_doc,
                      "CompleteMultipartUpload answer", err);
  if (!rc && error_doc) rc = cp_s3_error(&c, "write", f->base.path, err);
  cp_s3_call_free(&c);
  cp_buf_free(&body);
  cp_buf_free(&q);
  return rc;
}

static int s3_close_write(cp_wfile *wf, paimon_error *err) {
  s3_wfile *f = (s3_wfile *)wf;
  int rc = f->failed
               ? paimon_error_set(err, f->failed, "write of %s: an earlier part failed", wf->path)
               : PAIMON_OK;
  if (!rc && !f->upload_id)
    rc = put_object(f->fs, &f->p, wf->path, f->buf ? f->buf : (const uint8_t *)"", f->len,
                    !f->exclusive, err);
  else if (!rc)
    rc = complete_upload(f, err);
  if (rc) abort_upload(f);
  free_wfile(f);
  return rc;
}

static void s3_abort_write(cp_wfile *wf) {
  s3_wfile *f = (s3_wfile *)wf;
  abort_upload(f);
  free_wfile(f);
}

/* ---- namespace ---- */

static int s3_remove(cp_fs *base, const char *path, paimon_error *err) {
  s3_fs *fs = (s3_fs *)base;
  s3_path p;
  CP_RETURN_IF_ERROR(split_uri(fs, path, &p.bucket, &p.key, err));
  cp_s3_call c = make_call("DELETE", &p, NULL);
  int rc = perform_ok(fs, &c, "delete", path, err);
  cp_s3_call_free(&c);
  free(p.bucket);
  return rc;
}

static int on_list(void *ud, const char *path, const char *text, size_t len, paimon_error *err) {
  cp_s3_listing *l = ud;
  if (strcmp(path, "ListBucketResult/Contents/Key") == 0) {
    free(l->key);
    if (!(l->key = strndup(text, len))) return CP_ENOMEM(err, "listing");
  } else if (strcmp(path, "ListBucketResult/Contents/Size") == 0) {
    l->size = strtoull(text, NULL, 10);
  } else if (strcmp(path, "ListBucketResult/Contents/LastModified") == 0) {
    /* ISO 8601 in UTC, "2026-12-02T05:00:00.000Z"; unparseable is unknown (0). */
    int64_t ms = 0;
    size_t n = len && text[len - 1] == 'Z' ? len - 1 : len;
    l->mtime_millis = cp_parse_timestamp(text, n, CP_UNIT_MILLI, &ms, NULL) == 0 ? ms : 0;
  } else if (strcmp(path, "ListBucketResult/Contents") == 0 && l->key) {
    size_t n = strlen(l->key);
    int rc = PAIMON_OK;
    size_t before = l->out->count;
    if (l->recursive && strncmp(l->key, l->prefix, l->prefix_len) == 0)
      rc = cp_fs_list_push(l->out, &l->cap, l->key, n, false, l->size, err);
    else if (n == l->prefix_len)
      l->marker = true;
    else if (n > l->prefix_len && strncmp(l->key, l->prefix, l->prefix_len) == 0 &&
             !strchr(l->key + l->prefix_len, '/')) /* a store ignoring the delimiter */
      rc = cp_fs_list_push(l->out, &l->cap, l->key + l->prefix_len, n - l->prefix_len, false,
                           l->size, err);
    if (!rc && l->out->count > before) l->out->entries[before].mtime_millis = l->mtime_millis;
    free(l->key);
    l->key = NULL;
    l->size = 0;
    l->mtime_millis = 0;
    return rc;
  } else if (strcmp(path, "ListBucketResult/CommonPrefixes/Prefix") == 0) {
    if (!l->recursive && len > l->prefix_len + 1 && strncmp(text, l->prefix, l->prefix_len) == 0 &&
        text[len - 1] == '/' && !memchr(text + l->prefix_len, '/', len - l->prefix_len - 1))
      return cp_fs_list_push(l->out, &l->cap, text + l->prefix_len, len - l->prefix_len - 1, true,
                             0, err);
  } else if (strcmp(path, "ListBucketResult/IsTruncated") == 0) {
    l->truncated = strcmp(text, "true") == 0;
  } else if (strcmp(path, "ListBucketResult/NextContinuationToken") == 0) {
    free(l->token);
    if (!(l->token = strndup(text, len))) return CP_ENOMEM(err, "listing");
  }
  return PAIMON_OK;
}

int cp_s3_parse_listing(const void *xml, size_t len, cp_s3_listing *l, paimon_error *err) {
  l->prefix_len = strlen(l->prefix);
  l->truncated = false;
  free(l->token);
  l->token = NULL;
  int rc = cp_xml_parse(xml, len, on_list, l, "ListObjectsV2 answer", err);
  free(l->key);
  l->key = NULL;
  return rc;
}

/* Lists everything under `prefix` ("" or ending in '/'): one level (delimiter '/') or all keys.
 * `max_keys` 0 means all pages. */
static int list_prefix(s3_fs *fs, const char *bucket, const char *prefix, bool recursive,
                       int max_keys, cp_s3_listing *l, const char *uri, paimon_error *err) {
  l->prefix = prefix;
  l->recursive = recursive;
  s3_path bp = {(char *)bucket, ""};
  int rc = PAIMON_OK;
  do {
    cp_buf q = CP_BUF_INIT;
    char mk[16];
    snprintf(mk, sizeof mk, "%d", max_keys ? max_keys : 1000);
    l->truncated = false;
    if (l->token) rc = cp_s3_query_add(&q, "continuation-token", l->token, err);
    if (!rc && !recursive) rc = cp_s3_query_add(&q, "delimiter", "/", err);
    if (!rc) rc = cp_s3_query_add(&q, "list-type", "2", err);
    if (!rc) rc = cp_s3_query_add(&q, "max-keys", mk, err);
    if (!rc) rc = cp_s3_query_add(&q, "prefix", prefix, err);
    cp_s3_call c = make_call("GET", &bp, (const char *)q.data);
    if (!rc) rc = perform_ok(fs, &c, "list", uri, err);
    if (!rc) rc = cp_s3_parse_listing(c.http.resp.data, c.http.resp.len, l, err);
    cp_s3_call_free(&c);
    cp_buf_free(&q);
  } while (!rc && l->truncated && l->token && !max_keys);
  free(l->key);
  free(l->token);
  l->key = l->token = NULL;
  return rc;
}

/* "key/" for a directory key ("" for the bucket root). */
static char *dir_prefix(const char *key) {
  size_t n = strlen(key);
  while (n && key[n - 1] == '/') n--;
  char *p = malloc(n + 2);
  if (!p) return NULL;
  memcpy(p, key, n);
  if (n) p[n++] = '/';
  p[n] = '\0';
  return p;
}

static int s3_list(cp_fs *base, const char *dir, cp_fs_list_result *out, paimon_error *err) {
  s3_fs *fs = (s3_fs *)base;
  s3_path p;
  CP_RETURN_IF_ERROR(split_uri(fs, dir, &p.bucket, &p.key, err));
  char *prefix = dir_prefix(p.key);
  cp_s3_listing l = {.out = out};
  int rc =
      prefix ? list_prefix(fs, p.bucket, prefix, false, 0, &l, dir, err) : CP_ENOMEM(err, "path");
  if (!rc && out->count == 0 && !l.marker && *p.key)
    rc = paimon_error_set(err, PAIMON_ENOTFOUND, "list of %s: No such file or directory", dir);
  free(prefix);
  free(p.bucket);
  return rc;
}

static int delete_batch(s3_fs *fs, const char *bucket, cp_fs_list_result *keys, size_t from,
                        size_t n, const char *uri, paimon_error *err) {
  cp_buf body = CP_BUF_INIT;
  int rc = cp_buf_appendf(&body, err, "<Delete><Quiet>true</Quiet>");
  for (size_t i = from; i < from + n && !rc; i++) {
    rc = cp_buf_appendf(&body, err, "<Object><Key>");
    for (const char *k = keys->entries[i].name; *k && !rc; k++) {
      const char *esc = *k == '&' ? "&amp;" : *k == '<' ? "&lt;" : *k == '>' ? "&gt;" : NULL;
      rc = esc ? cp_buf_appendf(&body, err, "%s", esc) : cp_buf_append(&body, k, 1, err);
    }
    if (!rc) rc = cp_buf_appendf(&body, err, "</Key></Object>");
  }
  if (!rc) rc = cp_buf_appendf(&body, err, "</Delete>");
  uint8_t md5[16];
  char md5_b64[32], md5_hdr[64];
  cp_md5(body.data, body.len, md5);
  cp_base64(md5, sizeof md5, md5_b64);
  snprintf(md5_hdr, sizeof md5_hdr, "Content-MD5: %s", md5_b64);
  const char *hdr[] = {md5_hdr, "Content-Type: application/xml"};
  s3_path bp = {(char *)bucket, ""};
  cp_s3_call c = make_call("POST", &bp, "delete=");
  c.body = body.data;
  c.body_len = body.len;
  c.headers = hdr;
  c.n_headers = 2;
  if (!rc) rc = perform_ok(fs, &c, "delete", uri, err);
  /* Quiet mode lists only the keys that failed. */
  if (!rc && c.http.resp.len && strstr((const char *)c.http.resp.data, "<Error>"))
    rc = paimon_error_set(err, PAIMON_EIO, "delete of %s: the store refused to delete some files",
                          uri);
  cp_s3_call_free(&c);
  cp_buf_free(&body);
  return rc;
}

static int s3_remove_dir(cp_fs *base, const char *path, paimon_error *err) {
  s3_fs *fs = (s3_fs *)base;
  s3_path p;
  CP_RETURN_IF_ERROR(split_uri(fs, path, &p.bucket, &p.key, err));
  char *prefix = dir_prefix(p.key);
  cp_fs_list_result keys = {0};
  cp_s3_listing l = {.out = &keys};
  int rc = !prefix   ? CP_ENOMEM(err, "path")
           : !*p.key ? paimon_error_set(err, PAIMON_EINVAL,
                                        "delete of %s: refusing to delete a "
                                        "whole bucket",
                                        path)
                     : list_prefix(fs, p.bucket, prefix, true, 0, &l, path, err);
  if (!rc && keys.count == 0)
    rc = paimon_error_set(err, PAIMON_ENOTFOUND, "delete of %s: No such file or directory", path);
  for (size_t i = 0; i < keys.count && !rc; i += DELETE_BATCH)
    rc = delete_batch(fs, p.bucket, &keys, i,
                      keys.count - i < DELETE_BATCH ? keys.count - i : DELETE_BATCH, path, err);
  cp_fs_list_free(&keys);
  free(prefix);
  free(p.bucket);
  return rc;
}

static int s3_stat(cp_fs *base, const char *path, bool dirs, cp_fs_stat *out, paimon_error *err) {
  s3_fs *fs = (s3_fs *)base;
  s3_path p;
  CP_RETURN_IF_ERROR(split_uri(fs, path, &p.bucket, &p.key, err));
  int rc = PAIMON_OK;
  if (!*p.key) {
    /* the bucket itself */
    cp_s3_call c = make_call("HEAD", &p, NULL);
    rc = cp_s3_perform(fs->s3, &c, path, err);
    if (!rc && cp_s3_ok(&c))
      out->exists = out->is_dir = true;
    else if (!rc && c.http.status != 404)
      rc = cp_s3_error(&c, "stat", path, err);
    cp_s3_call_free(&c);
  } else {
    bool found = false;
    rc = head_object(fs, &p, path, &found, &out->size, err);
    out->exists = found;
    if (!rc && !found && dirs) {
      char *prefix = dir_prefix(p.key);
      cp_fs_list_result entries = {0};
      cp_s3_listing l = {.out = &entries};
      rc = prefix ? list_prefix(fs, p.bucket, prefix, false, 1, &l, path, err)
                  : CP_ENOMEM(err, "path");
      out->exists = out->is_dir = !rc && (entries.count || l.marker);
      cp_fs_list_free(&entries);
      free(prefix);
    }
  }
  free(p.bucket);
  return rc;
}

static int s3_mkdirs(cp_fs *base, const char *path, paimon_error *err) {
  s3_fs *fs = (s3_fs *)base;
  s3_path p;
  CP_RETURN_IF_ERROR(split_uri(fs, path, &p.bucket, &p.key, err));
  char *marker = dir_prefix(p.key);
  int rc = marker ? PAIMON_OK : CP_ENOMEM(err, "path");
  if (!rc && *p.key) {
    s3_path mp = {p.bucket, marker};
    rc = put_object(fs, &mp, path, "", 0, true, err);
    if (rc) paimon_error_prefix(err, "mkdirs of %s", path);
  }
  free(marker);
  free(p.bucket);
  return rc;
}

static int s3_no_rename(cp_fs *fs, const char *from, const char *to, paimon_error *err) {
  return paimon_error_set(err, PAIMON_EUNSUPPORTED,
                          "rename of %s to %s: object stores have no atomic rename", from, to);
}

static uint64_t s3_requests(const cp_fs *base) { return cp_s3_requests(((const s3_fs *)base)->s3); }

static void s3_destroy(cp_fs *base) {
  s3_fs *fs = (s3_fs *)base;
  cp_s3_free(fs->s3);
  for (size_t i = 0; i < fs->n_probed; i++) free(fs->probed[i]);
  pthread_mutex_destroy(&fs->probe_mu);
  free(fs);
}

static const cp_fs_ops s3_ops = {
    .name = "s3",
    .object_store = true,
    .destroy = s3_destroy,
    .requests = s3_requests,
    .open_read = s3_open_read,
    .read_at = s3_read_at,
    .will_read = s3_will_read,
    .close_read = s3_close_read,
    .read_file = s3_read_file,
    .read_files = s3_read_files,
    .create = s3_create,
    .write = s3_write,
    .close_write = s3_close_write,
    .abort_write = s3_abort_write,
    .publish = s3_publish,
    .rename_noreplace = s3_no_rename,
    .link = s3_no_rename,
    .remove = s3_remove,
    .remove_dir = s3_remove_dir,
    .stat = s3_stat,
    .mkdirs = s3_mkdirs,
    .list = s3_list,
};

/* ---- configuration ---- */

/* The value of the first of `keys` present in `conf` (the last occurrence of that key), else NULL.
 */
static const char *conf_get(const cp_fs_conf *conf, const char *const *keys) {
  for (const char *const *k = keys; *k; k++)
    for (size_t i = conf ? conf->n : 0; i-- > 0;)
      if (conf->keys[i] && strcmp(conf->keys[i], *k) == 0) return conf->values[i];
  return NULL;
}

static const char *env_get(const char *const *names) {
  for (const char *const *n = names; *n; n++) {
    const char *v = getenv(*n);
    if (v && *v) return v;
  }
  return NULL;
}

/* Option names, as pypaimon's PyArrowFileIO and Java's paimon-s3 / paimon-oss read them. */
#define S3_KEYS(name, ...) "fs.s3." name, "s3." name, "s3a." name, "fs.s3a." name, __VA_ARGS__
static const char *const K_S3_ENDPOINT[] = {S3_KEYS("endpoint", NULL)};
static const char *const K_S3_AKID[] = {"fs.s3.accessKeyId",
                                        S3_KEYS("access-key", S3_KEYS("access.key", NULL))};
static const char *const K_S3_SECRET[] = {"fs.s3.accessKeySecret",
                                          S3_KEYS("secret-key", S3_KEYS("secret.key", NULL))};
static const char *const K_S3_TOKEN[] = {
    "fs.s3.securityToken",
    S3_KEYS("session-token",
            S3_KEYS("session.token", S3_KEYS("security-token", S3_KEYS("security.token", NULL))))};
static const char *const K_S3_REGION[] = {S3_KEYS("region", NULL)};
static const char *const K_S3_PATH_STYLE[] = {
    S3_KEYS("path-style-access", S3_KEYS("path.style.access", NULL))};
static const char *const K_OSS_ENDPOINT[] = {"fs.oss.endpoint", NULL};
static const char *const K_OSS_AKID[] = {"fs.oss.accessKeyId", NULL};
static const char *const K_OSS_SECRET[] = {"fs.oss.accessKeySecret", NULL};
static const char *const K_OSS_TOKEN[] = {"fs.oss.securityToken", NULL};
static const char *const K_OSS_REGION[] = {"fs.oss.region", NULL};
static const char *const E_AKID[] = {"AWS_ACCESS_KEY_ID", NULL};
static const char *const E_SECRET[] = {"AWS_SECRET_ACCESS_KEY", NULL};
static const char *const E_TOKEN[] = {"AWS_SESSION_TOKEN", NULL};
static const char *const E_REGION[] = {"AWS_REGION", "AWS_DEFAULT_REGION", NULL};
static const char *const E_ENDPOINT[] = {"AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL", NULL};

static bool parse_bool(const char *v, bool dflt) {
  if (!v) return dflt;
  return strcasecmp(v, "true") == 0;
}

/* A byte count with an optional k/m/g suffix (1024-based), or -1. */
static int64_t parse_bytes(const char *v) {
  char *end;
  long long n = strtoll(v, &end, 10);
  if (end == v || n < 0) return -1;
  while (*end == ' ') end++;
  int64_t mul = 1;
  switch (tolower((unsigned char)*end)) {
  case 'k': mul = 1 << 10; break;
  case 'm': mul = 1 << 20; break;
  case 'g': mul = 1 << 30; break;
  case '\0': return n;
  default: return -1;
  }
  end++;
  if (tolower((unsigned char)*end) == 'b') end++;
  if (*end) return -1;
  return n * mul;
}

/* A cpaimon tuning option as a number within [lo, hi]; EINVAL naming it otherwise. */
static int tuning(const cp_fs_conf *conf, const char *key, int64_t dflt, int64_t lo, int64_t hi,
                  bool bytes, int64_t *out, paimon_error *err) {
  const char *keys[] = {key, NULL};
  const char *v = conf_get(conf, keys);
  if (!v) {
    *out = dflt;
    return PAIMON_OK;
  }
  char *end = NULL;
  int64_t n = bytes ? parse_bytes(v) : (int64_t)strtoll(v, &end, 10);
  if ((!bytes && (end == v || *end)) || n < lo || n > hi)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "option '%s' = '%s' must be %s between %lld and %lld", key, v,
                            bytes ? "a size" : "an integer", (long long)lo, (long long)hi);
  *out = n;
  return PAIMON_OK;
}

/* The region in an OSS endpoint "oss-cn-hangzhou[-internal].aliyuncs.com" ("cn-hangzhou"). */
static void oss_region(const char *endpoint, char *out, size_t cap) {
  const char *h = strstr(endpoint, "://");
  h = h ? h + 3 : endpoint;
  if (strncmp(h, "oss-", 4) == 0) h += 4;
  size_t n = strcspn(h, ".");
  const char *internal = strstr(h, "-internal");
  if (internal && (size_t)(internal - h) < n) n = (size_t)(internal - h);
  snprintf(out, cap, "%.*s", (int)n, h);
}

static bool is_ip_or_localhost(const char *endpoint) {
  const char *h = strstr(endpoint, "://");
  h = h ? h + 3 : endpoint;
  if (strncmp(h, "localhost", 9) == 0 || h[0] == '[') return true;
  size_t n = strcspn(h, ":/");
  for (size_t i = 0; i < n; i++)
    if (!isdigit((unsigned char)h[i]) && h[i] != '.') return false;
  return n > 0;
}

int cp_fs_s3_new(const char *uri, const cp_fs_conf *conf, cp_fs **out, paimon_error *err) {
  *out = NULL;
  bool oss = strncasecmp(uri, "oss://", 6) == 0;
  const char *endpoint, *akid, *secret, *token, *region;
  char region_buf[64], endpoint_buf[128];
  bool path_style;
  if (oss) {
    endpoint = conf_get(conf, K_OSS_ENDPOINT);
    if (!endpoint)
      return paimon_error_set(err, PAIMON_EINVAL,
                              "%s: set fs.oss.endpoint (for example "
                              "oss-cn-hangzhou.aliyuncs.com) to reach OSS",
                              uri);
    akid = conf_get(conf, K_OSS_AKID);
    secret = conf_get(conf, K_OSS_SECRET);
    token = conf_get(conf, K_OSS_TOKEN);
    region = conf_get(conf, K_OSS_REGION);
    if (!region) {
      oss_region(endpoint, region_buf, sizeof region_buf);
      region = region_buf;
    }
    path_style = false; /* OSS serves virtual-hosted requests only */
  } else {
    endpoint = conf_get(conf, K_S3_ENDPOINT);
    if (!endpoint) endpoint = env_get(E_ENDPOINT);
    akid = conf_get(conf, K_S3_AKID);
    secret = conf_get(conf, K_S3_SECRET);
    token = conf_get(conf, K_S3_TOKEN);
    if (!akid && !secret) {
      akid = env_get(E_AKID);
      secret = env_get(E_SECRET);
      token = token ? token : env_get(E_TOKEN);
    }
    region = conf_get(conf, K_S3_REGION);
    if (!region) region = env_get(E_REGION);
    if (!region) region = "us-east-1";
    if (!endpoint) {
      snprintf(endpoint_buf, sizeof endpoint_buf, "https://s3.%s.amazonaws.com", region);
      endpoint = endpoint_buf;
    }
    const char *ps = conf_get(conf, K_S3_PATH_STYLE);
    path_style = ps ? parse_bool(ps, false) : is_ip_or_localhost(endpoint);
  }
  char full_endpoint[600];
  if (!strstr(endpoint, "://")) {
    snprintf(full_endpoint, sizeof full_endpoint, "https://%s", endpoint);
    endpoint = full_endpoint;
  }
  int64_t attempts, base_ms, max_ms, connect_ms, stall_ms, part, conc, ahead;
  CP_RETURN_IF_ERROR(tuning(conf, "cpaimon.fs.max-attempts", 10, 1, 100, false, &attempts, err));
  CP_RETURN_IF_ERROR(
      tuning(conf, "cpaimon.fs.retry.base-delay", 50, 1, 60000, false, &base_ms, err));
  CP_RETURN_IF_ERROR(
      tuning(conf, "cpaimon.fs.retry.max-delay", 2000, 1, 600000, false, &max_ms, err));
  CP_RETURN_IF_ERROR(
      tuning(conf, "cpaimon.fs.connect-timeout", 10000, 1, 600000, false, &connect_ms, err));
  CP_RETURN_IF_ERROR(
      tuning(conf, "cpaimon.fs.stall-timeout", 60000, 1000, 3600000, false, &stall_ms, err));
  CP_RETURN_IF_ERROR(
      tuning(conf, "cpaimon.fs.part-size", 8 << 20, MIN_PART, (int64_t)5 << 30, true, &part, err));
  CP_RETURN_IF_ERROR(tuning(conf, "cpaimon.fs.upload-concurrency", 4, 1, 64, false, &conc, err));
  CP_RETURN_IF_ERROR(tuning(conf, "cpaimon.fs.read-ahead", 64 << 20, 2 << 20, (int64_t)4 << 30,
                            true, &ahead, err));
  const char *cp_keys[] = {"cpaimon.fs.conditional-put", NULL};
  const char *cond = conf_get(conf, cp_keys);
  if (cond && strcmp(cond, "probe") != 0 && strcmp(cond, "trust") != 0)
    return paimon_error_set(err, PAIMON_EINVAL,
                            "option 'cpaimon.fs.conditional-put' = '%s' must be probe or trust",
                            cond);
  s3_fs *fs = calloc(1, sizeof *fs);
  if (!fs) return CP_ENOMEM(err, "file system handle");
  cp_fs_init(&fs->base, &s3_ops);
  pthread_mutex_init(&fs->probe_mu, NULL);
  fs->oss = oss;
  fs->part_size = (size_t)part;
  fs->upload_concurrency = (int)conc;
  fs->read_ahead = (size_t)ahead;
  fs->trust_conditional = cond && strcmp(cond, "trust") == 0;
  cp_s3_config cfg = {
      .endpoint = endpoint,
      .region = region,
      .access_key = akid,
      .secret_key = secret,
      .session_token = token,
      .path_style = path_style,
      .oss = oss,
      .max_attempts = (int)attempts,
      .retry_base_ms = (long)base_ms,
      .retry_max_ms = (long)max_ms,
      .http = {.connect_timeout_ms = (long)connect_ms, .stall_timeout_ms = (long)stall_ms}};
  int rc = cp_s3_new(&fs->s3, &cfg, err);
  if (rc) {
    paimon_error_prefix(err, "%s", uri);
    s3_destroy(&fs->base);
    return rc;
  }
  *out = &fs->base;
  return PAIMON_OK;
}
