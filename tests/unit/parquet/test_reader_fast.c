/*
 * The reader's fast paths (page_read.h "spaced" leaf batches, reader_values.c; spec/parquet.md
 * §2.5 levels, §2.7 encodings, §3.3 levels → Arrow) checked on random hand-built files against the
 * data they were built from, and against the general (dense) path:
 *
 *  - spaced values: leaves without repetition get their values copied run by run into their slots
 *    (nulls zeroed) instead of being scattered during assembly;
 *  - pooled buffers: batch buffers come back to the reader when the consumer releases a batch;
 *  - non-null counts taken from RLE runs as definition levels are decoded.
 *
 * Files mix RLE and bit-packed level runs (random null patterns: none, all, sparse, long runs,
 * dense, nulls at page boundaries), v1 and v2 pages, PLAIN and dictionary pages (with fallback to
 * PLAIN mid-chunk), uncompressed and compressed chunks, and nested (struct) leaves; they are read
 * with random batch sizes and row ranges that start and end mid-run and mid-page, keeping each
 * batch alive while the next one is read (a recycled buffer still in use would show up as changed
 * values, and as a use-after-free under ASan).
 */
#include "base/status.h"
#include "format/parquet/encoding.h"
#include "format/parquet/page_read.h"
#include "reader_test_build.h"
#include "reader_test_util.h"
#include "test.h"

static cp_fs *g_fs;
static char g_path[512];
static uint64_t g_rng = 0x9E3779B97F4A7C15ULL;

static uint64_t rnd(void) {
  g_rng ^= g_rng << 13;
  g_rng ^= g_rng >> 7;
  g_rng ^= g_rng << 17;
  return g_rng;
}

static int64_t rnd_in(int64_t lo, int64_t hi) {
  return lo + (int64_t)(rnd() % (uint64_t)(hi - lo + 1));
}

static const char *tmp_path(const char *name) {
  const char *dir = getenv("TMPDIR");
  snprintf(g_path, sizeof g_path, "%s/cpaimon_test_reader_fast_%s.parquet", dir ? dir : "/tmp",
           name);
  return g_path;
}

/* ---- random columns ------------------------------------------------------------------------- */

enum { V_REQ, V_OPT, V_NESTED, V_STR, V_I32, V_BOOL, V_COUNT };
enum { N_NONE, N_ALL, N_SPARSE, N_RUNS, N_DENSE, N_EDGES, N_COUNT };
enum { E_PLAIN, E_DICT, E_FALLBACK, E_COUNT };

/* One column of n rows: its levels and values, and how it goes into pages. */
typedef struct gen {
  int variant, nulls, enc, codec;
  int64_t n;
  int16_t max_def;
  int16_t *def;  /* per row (all max_def for V_REQ) */
  int64_t *ival; /* per row, valid rows only meaningful */
  int32_t *soff; /* V_STR: n + 1 offsets, null rows empty */
  uint8_t *sdata;
  int32_t *idx; /* dictionary index per row */
  int64_t n_dict;
  int64_t dict_int[40]; /* dictionary entries of fixed-width columns */
  int64_t *cuts;        /* page boundaries: cuts[0] = 0 < ... < cuts[n_pages] = n */
  int n_pages;
  bool *v2; /* per page */
} gen;

static bool gen_valid(const gen *g, int64_t i) { return g->def[i] == g->max_def; }

static void gen_levels(gen *g) {
  for (int64_t i = 0; i < g->n; i++) g->def[i] = g->max_def;
  if (g->variant == V_REQ) return;
  int64_t run = 0;
  bool null_run = false;
  for (int64_t i = 0; i < g->n; i++) {
    bool is_null = false;
    switch (g->nulls) {
    case N_ALL: is_null = true; break;
    case N_SPARSE: is_null = rnd() % 100 == 0; break;
    case N_DENSE: is_null = rnd() % 2 == 0; break;
    case N_RUNS:
      if (run == 0) {
        run = rnd_in(1, 300);
        null_run = !null_run;
      }
      run--;
      is_null = null_run;
      break;
    default: break;
    }
    /* a nested leaf is null below a null parent (0) or itself (1) */
    if (is_null) g->def[i] = (int16_t)(g->max_def == 2 ? rnd() % 2 : 0);
  }
}

static void gen_pages(gen *g) {
  int want = (int)rnd_in(1, 6);
  g->cuts = calloc((size_t)want + 1, sizeof *g->cuts);
  g->v2 = calloc((size_t)want, sizeof *g->v2);
  g->n_pages = 0;
  int64_t at = 0;
  for (int p = 0; p < want && at < g->n; p++) {
    int64_t left = g->n - at;
    int64_t len = p == want - 1 ? left : rnd_in(1, left);
    g->cuts[g->n_pages] = at;
    g->v2[g->n_pages] = rnd() % 2;
    g->n_pages++;
    at += len;
  }
  g->cuts[g->n_pages] = g->n;
  if (g->nulls == N_EDGES && g->variant != V_REQ)
    for (int p = 0; p < g->n_pages; p++) {
      g->def[g->cuts[p]] = 0;
      g->def[g->cuts[p + 1] - 1] = 0;
    }
}

static void gen_values(gen *g) {
  /* booleans have no dictionary: their E_DICT and E_FALLBACK chunks are RLE-encoded instead */
  g->n_dict = g->enc == E_PLAIN || g->variant == V_BOOL ? 0 : rnd_in(1, 40);
  for (int64_t k = 0; k < g->n_dict; k++)
    g->dict_int[k] = g->variant == V_I32 ? (int32_t)rnd() : (int64_t)rnd();
  cp_buf sdata = CP_BUF_INIT;
  g->soff[0] = 0;
  for (int64_t i = 0; i < g->n; i++) {
    g->idx[i] = g->n_dict ? (int32_t)(rnd() % (uint64_t)g->n_dict) : 0;
    g->ival[i] = gen_valid(g, i) ? (g->n_dict ? g->dict_int[g->idx[i]] : (int64_t)rnd()) : 0;
    if (g->variant == V_I32) g->ival[i] = (int32_t)g->ival[i];
    if (g->variant == V_BOOL) g->ival[i] = gen_valid(g, i) ? (int64_t)(rnd() % 2) : 0;
    if (g->variant == V_STR && gen_valid(g, i)) {
      /* dictionary strings are "d<k>" repeated; PLAIN ones random letters of 0..20 bytes */
      char s[64];
      int len;
      if (g->n_dict) {
        len = snprintf(s, sizeof s, "d%d-%d", (int)g->idx[i], (int)(g->idx[i] * 7919 % 1000));
      } else {
        len = (int)rnd_in(0, 20);
        for (int k = 0; k < len; k++) s[k] = (char)('a' + rnd() % 26);
      }
      cp_buf_append(&sdata, s, (size_t)len, NULL);
    }
    g->soff[i + 1] = (int32_t)sdata.len;
  }
  g->sdata = cp_buf_detach(&sdata);
}

static void gen_init(gen *g, int variant, int nulls, int enc, int codec, int64_t n) {
  memset(g, 0, sizeof *g);
  g->variant = variant;
  g->nulls = nulls;
  g->enc = enc;
  g->codec = codec;
  g->n = n;
  g->max_def = variant == V_REQ ? 0 : variant == V_NESTED ? 2 : 1;
  g->def = calloc((size_t)n, sizeof *g->def);
  g->ival = calloc((size_t)n, sizeof *g->ival);
  g->soff = calloc((size_t)n + 1, sizeof *g->soff);
  g->idx = calloc((size_t)n, sizeof *g->idx);
  gen_levels(g);
  gen_pages(g);
  gen_values(g);
}

static void gen_free(gen *g) {
  free(g->def);
  free(g->ival);
  free(g->soff);
  free(g->sdata);
  free(g->idx);
  free(g->cuts);
  free(g->v2);
}

/* ---- building the file ---------------------------------------------------------------------- */

static cp_pq_schema_element g_schema[3];

static uint32_t gen_schema(const gen *g) {
  static const int phys[V_COUNT] = {CP_PQ_INT64,      CP_PQ_INT64, CP_PQ_INT64,
                                    CP_PQ_BYTE_ARRAY, CP_PQ_INT32, CP_PQ_BOOLEAN};
  g_schema[0] = tb_group("schema", -1, 1);
  if (g->variant == V_NESTED) {
    g_schema[1] = tb_group("g", CP_PQ_OPTIONAL, 1);
    g_schema[2] = tb_leaf("x", CP_PQ_OPTIONAL, CP_PQ_INT64);
    return 3;
  }
  g_schema[1] =
      tb_leaf("v", g->variant == V_REQ ? CP_PQ_REQUIRED : CP_PQ_OPTIONAL, phys[g->variant]);
  return 2;
}

/* The values of the valid rows of [lo, hi): PLAIN, or dictionary indices. */
static void page_values(const gen *g, int64_t lo, int64_t hi, bool dict, cp_buf *out) {
  paimon_error err;
  int32_t *idx = malloc(((size_t)(hi - lo) + 1) * sizeof *idx);
  int64_t *iv = malloc(((size_t)(hi - lo) + 1) * sizeof *iv);
  int32_t *i32 = malloc(((size_t)(hi - lo) + 1) * sizeof *i32);
  int32_t *offs = malloc(((size_t)(hi - lo) + 2) * sizeof *offs);
  uint8_t *u8 = malloc((size_t)(hi - lo) + 1);
  cp_buf data = CP_BUF_INIT;
  size_t m = 0;
  offs[0] = 0;
  for (int64_t i = lo; i < hi; i++) {
    if (!gen_valid(g, i)) continue;
    idx[m] = g->idx[i];
    iv[m] = g->ival[i];
    i32[m] = (int32_t)g->ival[i];
    u8[m] = (uint8_t)g->ival[i];
    cp_buf_append(&data, g->sdata + g->soff[i], (size_t)(g->soff[i + 1] - g->soff[i]), NULL);
    offs[m + 1] = (int32_t)data.len;
    m++;
  }
  int rc;
  size_t bits = 0;
  if (g->variant == V_BOOL && g->enc != E_PLAIN)
    rc = cp_pq_rle_bool_encode(out, u8, m, &err);
  else if (g->variant == V_BOOL)
    rc = cp_pq_plain_encode_bool(out, &bits, u8, m, &err);
  else if (dict)
    rc = cp_pq_dict_indices_encode(out, idx, m, (size_t)g->n_dict, &err);
  else if (g->variant == V_STR)
    rc = cp_pq_plain_encode_binary(out, offs, data.data, m, &err);
  else if (g->variant == V_I32)
    rc = cp_pq_plain_encode_fixed(out, i32, m, 4, &err);
  else
    rc = cp_pq_plain_encode_fixed(out, iv, m, 8, &err);
  if (rc) abort();
  free(idx);
  free(iv);
  free(i32);
  free(offs);
  free(u8);
  cp_buf_free(&data);
}

static void write_dictionary(tb *t, const gen *g) {
  cp_buf body = CP_BUF_INIT;
  for (int64_t k = 0; k < g->n_dict; k++) {
    if (g->variant == V_STR) {
      char s[64];
      int len = snprintf(s, sizeof s, "d%d-%d", (int)k, (int)(k * 7919 % 1000));
      tb_put_le32(&body, (uint32_t)len);
      cp_buf_append(&body, s, (size_t)len, NULL);
    } else {
      int64_t v = g->dict_int[k];
      if (g->variant == V_I32)
        cp_buf_append(&body, &(int32_t){(int32_t)v}, 4, NULL);
      else
        cp_buf_append(&body, &v, 8, NULL);
    }
  }
  tb_dict_page(t, (int32_t)g->n_dict, body.data, body.len);
  cp_buf_free(&body);
}

static void write_page(tb *t, const gen *g, int p) {
  int64_t lo = g->cuts[p], hi = g->cuts[p + 1], n = hi - lo;
  bool dict = g->enc == E_DICT || (g->enc == E_FALLBACK && p < (g->n_pages + 1) / 2);
  int enc = dict ? CP_PQ_ENC_RLE_DICTIONARY : CP_PQ_ENC_PLAIN;
  if (g->variant == V_BOOL) {
    dict = false;
    enc = g->enc == E_PLAIN ? CP_PQ_ENC_PLAIN : CP_PQ_ENC_RLE;
  }
  paimon_error err;
  cp_buf b = CP_BUF_INIT;
  int64_t nulls = 0;
  for (int64_t i = lo; i < hi; i++) nulls += !gen_valid(g, i);
  if (!g->v2[p]) {
    if (cp_pq_levels_encode(&b, g->def + lo, (size_t)n, g->max_def, 1, &err)) abort();
    page_values(g, lo, hi, dict, &b);
    tb_data_page(t, (int32_t)n, enc, b.data, b.len);
  } else {
    if (cp_pq_levels_encode(&b, g->def + lo, (size_t)n, g->max_def, 0, &err)) abort();
    size_t dl = b.len;
    page_values(g, lo, hi, dict, &b);
    cp_pq_page_header h;
    memset(&h, 0, sizeof h);
    h.type = CP_PQ_PAGE_DATA_V2;
    h.has_data_page_header_v2 = true;
    cp_pq_data_page_header_v2 *d = &h.data_page_header_v2;
    d->num_values = d->num_rows = (int32_t)n;
    d->num_nulls = (int32_t)nulls;
    d->encoding = enc;
    d->definition_levels_byte_length = (int32_t)dl;
    d->is_compressed = true;
    tb_page(t, &h, b.data, b.len);
  }
  cp_buf_free(&b);
}

static void gen_write(const gen *g, const char *path) {
  tb t;
  tb_init(&t, g_schema, gen_schema(g));
  tb_row_group(&t, g->n);
  tb_chunk(&t, g->codec);
  if (g->n_dict) write_dictionary(&t, g);
  for (int p = 0; p < g->n_pages; p++) write_page(&t, g, p);
  if (tb_finish(&t, g_fs, path)) abort();
  tb_free(&t);
}

/* ---- checking batches against the data ------------------------------------------------------ */

static bool bit(const void *bitmap, int64_t i) {
  return !bitmap || (((const uint8_t *)bitmap)[i >> 3] >> (i & 7)) & 1;
}

/* True when `batch` holds rows rows[0..len) of g (by row number). */
static bool batch_matches(const gen *g, const struct ArrowArray *batch, const int64_t *rows) {
  const struct ArrowArray *col = batch->children[0];
  if (g->variant == V_NESTED) {
    for (int64_t i = 0; i < batch->length; i++)
      if (bit(col->buffers[0], col->offset + i) != (g->def[rows[i]] >= 1)) return false;
    col = col->children[0];
  }
  if (col->length != batch->length) return false;
  int64_t nulls = 0;
  for (int64_t i = 0; i < batch->length; i++) {
    int64_t r = rows[i], j = col->offset + i;
    bool valid = gen_valid(g, r);
    nulls += !valid;
    if (bit(col->buffers[0], j) != valid) return false;
    if (!valid) continue;
    if (g->variant == V_STR) {
      const int32_t *o = col->buffers[1];
      const uint8_t *d = col->buffers[2];
      int32_t len = g->soff[r + 1] - g->soff[r];
      if (o[j + 1] - o[j] != len || memcmp(d + o[j], g->sdata + g->soff[r], (size_t)len) != 0)
        return false;
    } else if (g->variant == V_BOOL) {
      if (bit(col->buffers[1], j) != (g->ival[r] != 0)) return false;
    } else if (g->variant == V_I32) {
      if (((const int32_t *)col->buffers[1])[j] != (int32_t)g->ival[r]) return false;
    } else if (((const int64_t *)col->buffers[1])[j] != g->ival[r]) {
      return false;
    }
  }
  return col->null_count < 0 || col->null_count == nulls;
}

/* Random sorted, non-overlapping row ranges (none: every row); *sel receives the rows in order. */
static size_t pick_ranges(const gen *g, cp_pq_row_range *ranges, int64_t **sel, int64_t *n_sel) {
  size_t nr = (size_t)rnd_in(0, 3);
  *sel = malloc(((size_t)g->n + 1) * sizeof **sel);
  *n_sel = 0;
  if (nr == 0) {
    for (int64_t i = 0; i < g->n; i++) (*sel)[(*n_sel)++] = i;
    return 0;
  }
  int64_t at = 0;
  size_t k = 0;
  for (size_t i = 0; i < nr && at < g->n; i++) {
    int64_t start = rnd_in(at, g->n - 1), end = rnd_in(start + 1, g->n);
    ranges[k++] = (cp_pq_row_range){start, end};
    for (int64_t r = start; r < end; r++) (*sel)[(*n_sel)++] = r;
    at = end;
  }
  return k;
}

/* Reads the file in random batches and row ranges, checking each batch, then checking it again
 * after the next one was read (before releasing it). */
static void read_and_check(const gen *g, const char *path, const char *what) {
  cp_pq_row_range ranges[3];
  int64_t *sel, n_sel;
  size_t nr = pick_ranges(g, ranges, &sel, &n_sel);
  cp_pq_reader_options o = {0};
  o.batch_size = rnd() % 3 == 0 ? rnd_in(1, 16) : rnd_in(1, g->n + 10);
  o.row_ranges = nr ? ranges : NULL;
  o.num_row_ranges = nr;
  paimon_error err = {0};
  cp_pq_reader *r;
  CHECK_OK(cp_pq_reader_open(&r, g_fs, path, &o, &err), &err);
  if (!r) {
    free(sel);
    return;
  }
  struct ArrowArray prev = {0};
  int64_t prev_at = 0, at = 0;
  bool ok = true;
  for (;;) {
    struct ArrowArray batch;
    bool eof;
    int rc = cp_pq_reader_next(r, &batch, NULL, &eof, &err);
    CHECK_OK(rc, &err);
    if (rc || eof) break;
    if (at + batch.length > n_sel || !batch_matches(g, &batch, sel + at)) ok = false;
    if (prev.release && !batch_matches(g, &prev, sel + prev_at)) ok = false;
    cp_array_release(&prev);
    cp_array_move(&batch, &prev);
    prev_at = at;
    at += prev.length;
  }
  cp_pq_reader_free(r);
  /* the last batch outlives its reader (its buffers go back to a released pool) */
  if (prev.release && !batch_matches(g, &prev, sel + prev_at)) ok = false;
  cp_array_release(&prev);
  if (!ok || at != n_sel)
    fprintf(stderr, "mismatch: %s, %lld of %lld rows, batch %lld, %zu ranges\n", what,
            (long long)at, (long long)n_sel, (long long)o.batch_size, nr);
  CHECK(ok);
  CHECK_INT(at, n_sel);
  free(sel);
}

/* ---- fast path against the general path, at the chunk reader -------------------------------- */

typedef struct chunk_side {
  cp_rfile *file;
  cp_pq_footer ft;
  cp_pq_chunk_reader *cr;
  cp_pq_leaf_batch b;
} chunk_side;

static int side_open(chunk_side *s, const gen *g, const char *path, const cp_pq_leaf_conv *conv,
                     bool spaced, cp_codec_ctx *ctx, cp_buf_pool *pool, paimon_error *err) {
  memset(s, 0, sizeof *s);
  CP_RETURN_IF_ERROR(cp_fs_open_read(g_fs, path, &s->file, err));
  CP_RETURN_IF_ERROR(cp_pq_footer_read(s->file, &s->ft, err));
  cp_pq_read_limits lim = {0};
  lim.max_page_size = CP_PQ_DEFAULT_MAX_PAGE_SIZE;
  lim.max_page_values = CP_PQ_DEFAULT_MAX_PAGE_VALUES;
  CP_RETURN_IF_ERROR(
      cp_pq_chunk_reader_new(&s->cr, s->file, path, &s->ft, 0, conv, &lim, ctx, err));
  s->b.max_def = g->max_def;
  s->b.max_rep = 0;
  s->b.out_kind = conv->out_kind;
  s->b.out_width = conv->out_width;
  s->b.spaced = spaced;
  s->b.pool = pool;
  return cp_pq_chunk_reader_start(s->cr, 0, err);
}

static void side_close(chunk_side *s) {
  cp_pq_leaf_batch_free(&s->b);
  cp_pq_chunk_reader_free(s->cr);
  cp_pq_footer_free(&s->ft);
  cp_rfile_close(s->file);
}

/* The spaced batch holds exactly the dense batch's values at the valid entries, zeros (fixed) or
 * empty values (binary) at the null ones. */
static bool spaced_matches_dense(const cp_pq_leaf_batch *sp, const cp_pq_leaf_batch *dn, size_t w) {
  if (sp->n_entries != dn->n_entries || sp->n_values != dn->n_values ||
      sp->n_present != dn->n_present)
    return false;
  const int16_t *def = (const int16_t *)dn->def.data;
  if (sp->out_kind == CP_PQ_OUT_BINARY) {
    const int32_t *so = (const int32_t *)sp->values.data, *dof = (const int32_t *)dn->values.data;
    int64_t j = 0;
    for (int64_t i = 0; i < sp->n_entries; i++) {
      int32_t len = so[i + 1] - so[i];
      if (def && def[i] != sp->max_def) {
        if (len != 0) return false;
        continue;
      }
      if (len != dof[j + 1] - dof[j] ||
          memcmp(sp->data.data + so[i], dn->data.data + dof[j], (size_t)len) != 0)
        return false;
      j++;
    }
    return j == dn->n_values;
  }
  const uint8_t *sv = sp->values.data;
  const uint8_t *dv = dn->values.data;
  static const uint8_t zero[16];
  int64_t j = 0;
  for (int64_t i = 0; i < sp->n_entries; i++) {
    if (def && def[i] != sp->max_def) {
      if (memcmp(sv + (size_t)i * w, zero, w) != 0) return false;
      continue;
    }
    if (memcmp(sv + (size_t)i * w, dv + (size_t)j * w, w) != 0) return false;
    j++;
  }
  return j == dn->n_values;
}

/* Walks the chunk with both paths in the same random steps (reads and skips). */
static void compare_paths(const gen *g, const char *path, const char *what) {
  cp_pq_leaf_conv conv = {0};
  conv.conv = CP_PQ_CONV_COPY;
  conv.mul = conv.div = 1;
  conv.out_kind = g->variant == V_STR    ? CP_PQ_OUT_BINARY
                  : g->variant == V_BOOL ? CP_PQ_OUT_BOOL
                                         : CP_PQ_OUT_FIXED;
  conv.out_width = conv.phys_width = g->variant == V_I32    ? 4
                                     : g->variant == V_STR  ? 0
                                     : g->variant == V_BOOL ? 1
                                                            : 8;
  paimon_error err = {0};
  cp_codec_ctx *ctx = NULL;
  cp_buf_pool *pool = NULL;
  CHECK_OK(cp_codec_ctx_new(&ctx, &err), &err);
  CHECK_OK(cp_buf_pool_new(&pool, 1 << 20, &err), &err);
  chunk_side sp, dn;
  int rc = side_open(&sp, g, path, &conv, true, ctx, pool, &err);
  if (rc == 0) rc = side_open(&dn, g, path, &conv, false, NULL, NULL, &err);
  CHECK_OK(rc, &err);
  bool ok = rc == 0;
  for (int64_t at = 0; ok && at < g->n;) {
    int64_t k = rnd_in(1, g->n - at);
    if (rnd() % 4 == 0) { /* positional reads start mid-run and mid-page */
      rc = cp_pq_chunk_skip_rows(sp.cr, k, &err);
      if (rc == 0) rc = cp_pq_chunk_skip_rows(dn.cr, k, &err);
    } else {
      rc = cp_pq_leaf_batch_reset(&sp.b, k, &err);
      if (rc == 0) rc = cp_pq_leaf_batch_reset(&dn.b, k, &err);
      /* sometimes in two reads into the same batch */
      int64_t k1 = rnd() % 3 == 0 ? rnd_in(0, k) : k;
      if (rc == 0 && k1 > 0) rc = cp_pq_chunk_read_rows(sp.cr, k1, &sp.b, &err);
      if (rc == 0 && k1 < k) rc = cp_pq_chunk_read_rows(sp.cr, k - k1, &sp.b, &err);
      if (rc == 0) rc = cp_pq_chunk_read_rows(dn.cr, k, &dn.b, &err);
      if (rc == 0 && !spaced_matches_dense(&sp.b, &dn.b, (size_t)conv.out_width)) ok = false;
    }
    CHECK_OK(rc, &err);
    ok = ok && rc == 0;
    at += k;
  }
  if (!ok) fprintf(stderr, "fast and general paths differ: %s\n", what);
  CHECK(ok);
  side_close(&sp);
  side_close(&dn);
  cp_buf_pool_release(pool);
  cp_codec_ctx_free(ctx);
}

/* ---- tests ---------------------------------------------------------------------------------- */

static const int k_codecs[] = {CP_PQ_CODEC_UNCOMPRESSED, CP_PQ_CODEC_ZSTD, CP_PQ_CODEC_SNAPPY};

static void describe(char *buf, size_t n, const gen *g, int iter) {
  snprintf(buf, n, "iteration %d: variant %d nulls %d enc %d codec %d rows %lld pages %d", iter,
           g->variant, g->nulls, g->enc, g->codec, (long long)g->n, g->n_pages);
}

/* Property test: random files through the reader and through both chunk paths. */
static void test_random_files(void) {
  for (int iter = 0; iter < 360; iter++) {
    gen g;
    int variant = iter % V_COUNT, nulls = (iter / V_COUNT) % N_COUNT;
    int enc = (int)(rnd() % E_COUNT), codec = k_codecs[rnd() % 3];
    int64_t n = rnd() % 8 == 0 ? rnd_in(1, 20) : rnd_in(50, 3000);
    gen_init(&g, variant, nulls, enc, codec, n);
    char what[200];
    describe(what, sizeof what, &g, iter);
    const char *path = tmp_path("random");
    gen_write(&g, path);
    read_and_check(&g, path, what);
    if (variant != V_NESTED || rnd() % 2) compare_paths(&g, path, what);
    gen_free(&g);
  }
}

/* One long page of doubles-like int64 with sparse nulls, read whole: the common shape of the
 * benchmark, where runs of values are copied at once. Every batch size from 1 to 9 crosses the
 * null positions differently. */
static void test_sparse_nulls_every_batch_size(void) {
  gen g;
  gen_init(&g, V_OPT, N_SPARSE, E_PLAIN, CP_PQ_CODEC_ZSTD, 997);
  const char *path = tmp_path("sparse");
  gen_write(&g, path);
  for (int64_t bs = 1; bs <= 9; bs++) {
    cp_pq_reader_options o = {0};
    o.batch_size = bs;
    paimon_error err = {0};
    cp_pq_reader *r;
    CHECK_OK(cp_pq_reader_open(&r, g_fs, path, &o, &err), &err);
    int64_t at = 0;
    bool ok = true;
    int64_t *rows = malloc((size_t)g.n * sizeof *rows);
    for (int64_t i = 0; i < g.n; i++) rows[i] = i;
    for (;;) {
      struct ArrowArray batch;
      bool eof;
      int rc = cp_pq_reader_next(r, &batch, NULL, &eof, &err);
      CHECK_OK(rc, &err);
      if (rc || eof) break;
      ok = ok && batch_matches(&g, &batch, rows + at);
      at += batch.length;
      cp_array_release(&batch);
    }
    CHECK(ok);
    CHECK_INT(at, g.n);
    free(rows);
    cp_pq_reader_free(r);
  }
  gen_free(&g);
}

/* All-null pages between pages with values (nothing to decode, values section empty), and a
 * page that is all nulls except its edges. */
static void test_all_null_pages(void) {
  gen g;
  gen_init(&g, V_OPT, N_NONE, E_PLAIN, CP_PQ_CODEC_ZSTD, 40);
  free(g.cuts);
  free(g.v2);
  static const int64_t cuts[] = {0, 10, 20, 30, 40};
  g.n_pages = 4;
  g.cuts = malloc(sizeof cuts);
  memcpy(g.cuts, cuts, sizeof cuts);
  g.v2 = calloc(4, sizeof *g.v2);
  g.v2[2] = true;
  for (int64_t i = 10; i < 20; i++) g.def[i] = 0; /* page 1: all null (v1) */
  for (int64_t i = 21; i < 29; i++) g.def[i] = 0; /* page 2: nulls but the edges (v2) */
  const char *path = tmp_path("allnull");
  gen_write(&g, path);
  int64_t rows[40];
  for (int i = 0; i < 40; i++) rows[i] = i;
  for (int64_t bs = 1; bs <= 41; bs += 4) {
    cp_pq_reader_options o = {0};
    o.batch_size = bs;
    paimon_error err = {0};
    cp_pq_reader *r;
    CHECK_OK(cp_pq_reader_open(&r, g_fs, path, &o, &err), &err);
    int64_t at = 0;
    for (;;) {
      struct ArrowArray batch;
      bool eof;
      int rc = cp_pq_reader_next(r, &batch, NULL, &eof, &err);
      CHECK_OK(rc, &err);
      if (rc || eof) break;
      CHECK(batch_matches(&g, &batch, rows + at));
      at += batch.length;
      cp_array_release(&batch);
    }
    CHECK_INT(at, 40);
    cp_pq_reader_free(r);
  }
  compare_paths(&g, path, "all-null pages");
  gen_free(&g);
}

/* Definition levels counted from the runs as they are decoded agree with counting the decoded
 * levels, for random level streams mixing RLE and bit-packed runs — including a bit-packed group
 * whose padding past the last level holds the maximum (it must not be counted). */
static void test_levels_decode_count(void) {
  paimon_error err = {0};
  for (int iter = 0; iter < 200; iter++) {
    size_t n = (size_t)rnd_in(1, 2000);
    int16_t max = (int16_t)rnd_in(1, 5);
    int16_t *lv = malloc(n * sizeof *lv), *out = malloc((n + 8) * sizeof *out);
    for (size_t i = 0; i < n;) {
      size_t run = rnd() % 2 ? (size_t)rnd_in(1, 40) : 1;
      int16_t v = (int16_t)rnd_in(0, max);
      for (size_t k = 0; k < run && i < n; k++, i++)
        lv[i] = rnd() % 4 ? v : (int16_t)rnd_in(0, max);
    }
    cp_buf enc = CP_BUF_INIT;
    CHECK_OK(cp_pq_levels_encode(&enc, lv, n, max, 1, &err), &err);
    size_t used, counted;
    CHECK_OK(
        cp_pq_levels_decode_count(out, n, &used, &counted, enc.data, enc.len, max, 1, "def", &err),
        &err);
    CHECK_INT(counted, cp_pq_count_level(lv, n, max));
    CHECK(memcmp(out, lv, n * sizeof *lv) == 0);
    CHECK_INT(used, enc.len);
    cp_buf_free(&enc);
    free(lv);
    free(out);
  }
  /* 3 levels in one bit-packed group of 8 ones (header 0x03 = 1 group, bit-packed), width 1 */
  static const uint8_t packed[] = {0x03, 0xFF};
  int16_t out[8];
  size_t used, counted;
  CHECK_OK(
      cp_pq_levels_decode_count(out, 3, &used, &counted, packed, sizeof packed, 1, 0, "def", &err),
      &err);
  CHECK_INT(counted, 3);
  /* RLE run of 10 × 1 read as 4: counts 4; max level 0 counts every entry */
  static const uint8_t rle[] = {0x14, 0x01};
  CHECK_OK(cp_pq_levels_decode_count(out, 4, &used, &counted, rle, sizeof rle, 1, 0, "def", &err),
           &err);
  CHECK_INT(counted, 4);
  CHECK_OK(cp_pq_levels_decode_count(out, 5, &used, &counted, rle, sizeof rle, 0, 0, "def", &err),
           &err);
  CHECK_INT(counted, 5);
  /* a level above the maximum is still an error, naming it */
  static const uint8_t bad[] = {0x08, 0x03};
  CHECK_ERR(cp_pq_levels_decode_count(out, 4, &used, &counted, bad, sizeof bad, 1, 0, "def", &err),
            PAIMON_ECORRUPT);
}

/* Batches outlive their reader (their pooled buffers go back to a pool its owner released), and
 * releasing them in any order frees everything (ASan/LSan would report a leak or a double free). */
static void test_batches_outlive_reader(void) {
  gen g;
  gen_init(&g, V_REQ, N_NONE, E_PLAIN, CP_PQ_CODEC_ZSTD, 3000);
  free(g.cuts);
  free(g.v2);
  g.n_pages = 1;
  g.cuts = malloc(2 * sizeof *g.cuts);
  g.cuts[0] = 0;
  g.cuts[1] = g.n;
  g.v2 = calloc(1, sizeof *g.v2);
  const char *path = tmp_path("outlive");
  gen_write(&g, path);
  cp_pq_reader_options o = {0};
  o.batch_size = 1000;
  paimon_error err = {0};
  cp_pq_reader *r;
  CHECK_OK(cp_pq_reader_open(&r, g_fs, path, &o, &err), &err);
  struct ArrowArray b[3];
  int64_t rows[3000];
  for (int i = 0; i < 3000; i++) rows[i] = i;
  for (int i = 0; i < 3; i++) {
    bool eof;
    CHECK_OK(cp_pq_reader_next(r, &b[i], NULL, &eof, &err), &err);
    CHECK(!eof);
  }
  cp_pq_reader_free(r);
  CHECK(batch_matches(&g, &b[1], rows + 1000));
  cp_array_release(&b[1]);
  CHECK(batch_matches(&g, &b[0], rows));
  CHECK(batch_matches(&g, &b[2], rows + 2000));
  CHECK(((uintptr_t)b[2].children[0]->buffers[1] & 7) == 0); /* Arrow: 8-byte aligned at least */
  cp_array_release(&b[2]);
  cp_array_release(&b[0]);
  gen_free(&g);
}

int main(void) {
  paimon_error err;
  if (cp_fs_local_new(&g_fs, &err)) return 2;
  RUN(test_levels_decode_count);
  RUN(test_sparse_nulls_every_batch_size);
  RUN(test_all_null_pages);
  RUN(test_batches_outlive_reader);
  RUN(test_random_files);
  cp_fs_free(g_fs);
  TEST_MAIN_END();
}
