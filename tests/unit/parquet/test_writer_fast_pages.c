/*
 * Tests for the writer's fast paths at file level (writer_column.c, writer.c; spec/parquet.md
 * §2.3 items 1-4, §2.4, §2.11, §3): list columns written through level runs, the dictionary
 * decision on the first page, and pages streamed to the file by the first column.
 *
 *  - Property test: random ARRAY<FLOAT> / ARRAY<STRING> / MAP data, clean batches mixed with
 *    batches holding empty lists, NULL lists and NULL elements, a list longer than a page, tiny
 *    pages and row groups (many of each), zstd and uncompressed: the file written with the list
 *    shortcut is byte-identical to the one written with the general level walk, and decodes —
 *    page by page through the lower layers — to the levels and values computed here from the
 *    generated rows (spec §3.1); every page starts at a row (its first rep level is 0).
 *  - Dictionary: a mid-cardinality column whose first page alone does not pay keeps its dictionary
 *    for the whole chunk (as pyarrow does); high-cardinality numbers and strings give it up on the
 *    first page; a first page without values does not decide; a dictionary that falls back mid
 *    chunk in a streaming column keeps its dictionary page first.
 *  - Streaming: the first column's pages reach the file before the row group ends and the writer
 *    buffers about a page, over many row groups; a second column is buffered and follows; the
 *    footer's offsets and sizes agree with the pages; a failed write while streaming fails the
 *    writer cleanly.
 */
#include <math.h>

#include "format/parquet/writer_internal.h"
#include "test_writer_util.h"

static uint64_t rng_state = 0xD1B54A32D192ED03ULL;
static uint32_t rnd(uint32_t n) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return n ? (uint32_t)(rng_state >> 17) % n : 0;
}

/* ---- expected levels, from the rows as generated ---- */

typedef struct expect {
  int16_t *rep, *def;
  int64_t n, cap;
  cp_buf values; /* floats, or strings as [len byte][bytes] */
  int64_t n_values;
} expect;

static void expect_entry(expect *x, int16_t rep, int16_t def) {
  if (x->n == x->cap) {
    x->cap = x->cap ? x->cap * 2 : 4096;
    x->rep = realloc(x->rep, (size_t)x->cap * 2);
    x->def = realloc(x->def, (size_t)x->cap * 2);
  }
  x->rep[x->n] = rep;
  x->def[x->n++] = def;
}

static void expect_free(expect *x) {
  free(x->rep);
  free(x->def);
  cp_buf_free(&x->values);
  memset(x, 0, sizeof *x);
}

/* One batch of an ARRAY<FLOAT> (kind 0), ARRAY<STRING> (1) or MAP<INT, STRING> (2, value leaf)
 * column, nullable lists and elements. `mode`: 0 clean embeddings of 128, 1 random lengths with
 * empties, 2 with NULL lists and NULL elements, 3 one list longer than a page among short ones.
 * Appends the levels of §3.1 (max_def 3: list NULL 0, empty 1, element NULL 2, value 3). */
static void fill_lists(tw_batch *t, int kind, int mode, int64_t rows, expect *x) {
  paimon_error err;
  cp_builder *l = tw_col(t, 0);
  cp_builder *keys = kind == 2 ? cp_builder_map_keys(l) : NULL;
  cp_builder *elem = kind == 2 ? cp_builder_map_values(l) : cp_builder_child(l, 0);
  for (int64_t r = 0; r < rows; r++) {
    if (mode == 2 && rnd(6) == 0) {
      CHECK_OK(cp_builder_append_null(l, &err), &err);
      expect_entry(x, 0, 0);
      continue;
    }
    uint32_t len = mode == 0 ? 128 : mode == 3 && r == rows / 2 ? 3000 : rnd(mode == 1 ? 9 : 6);
    if (len == 0) expect_entry(x, 0, 1);
    for (uint32_t i = 0; i < len; i++) {
      if (keys) CHECK_OK(cp_builder_append_int64(keys, (int64_t)i, &err), &err);
      if (mode == 2 && rnd(5) == 0) {
        CHECK_OK(cp_builder_append_null(elem, &err), &err);
        expect_entry(x, i ? 1 : 0, 2);
        continue;
      }
      expect_entry(x, i ? 1 : 0, 3);
      x->n_values++;
      if (kind == 0) {
        float f = (float)rnd(1u << 20) / 64.0f;
        CHECK_OK(cp_builder_append_double(elem, f, &err), &err);
        CHECK_OK(cp_buf_append(&x->values, &f, 4, &err), &err);
      } else {
        char s[8];
        uint8_t n = (uint8_t)(1 + rnd(5));
        for (uint8_t k = 0; k < n; k++) s[k] = (char)('a' + rnd(3));
        CHECK_OK(cp_builder_append_bytes(elem, s, n, &err), &err);
        CHECK_OK(cp_buf_append(&x->values, &n, 1, &err), &err);
        CHECK_OK(cp_buf_append(&x->values, s, n, &err), &err);
      }
    }
    CHECK_OK(cp_builder_end_element(l, &err), &err);
  }
}

/* Every data page of column `col` in row group `rg` begins a row: its first rep level is 0. */
static void check_pages_start_rows(const tw_read *r, int rg, int col) {
  paimon_error err;
  const cp_pq_column_meta *m = tw_meta(r, rg, col);
  int64_t pos = cp_pq_column_chunk_start(m), end = pos + m->total_compressed_size;
  cp_buf body = CP_BUF_INIT;
  bool ok = true;
  while (ok && pos < end) {
    cp_pq_page_header h;
    size_t hl;
    ok = cp_pq_page_header_decode(&h, r->bytes.data + pos, (size_t)(end - pos), (uint64_t)pos, &hl,
                                  NULL, &err) == 0;
    if (!ok) break;
    cp_buf_clear(&body);
    ok = cp_buf_reserve(&body, (size_t)h.uncompressed_page_size + 1, &err) == 0 &&
         cp_decompress_exact(tw_codec(m->codec), r->bytes.data + pos + hl,
                             (size_t)h.compressed_page_size, body.data,
                             (size_t)h.uncompressed_page_size, &err) == 0;
    if (ok && h.type == CP_PQ_PAGE_DATA) {
      int16_t first = -1;
      size_t used;
      ok = cp_pq_levels_decode(&first, 1, &used, body.data, (size_t)h.uncompressed_page_size, 1, 1,
                               "rep", &err) == 0 &&
           first == 0;
    }
    pos += (int64_t)hl + h.compressed_page_size;
  }
  CHECK(ok);
  cp_buf_free(&body);
}

/* Decodes the list's element (a map's value: leaf 1) in every row group and compares with the
 * expected entries and values. */
static void check_against_expect(const tw_read *r, int kind, const expect *x) {
  paimon_error err;
  int64_t e = 0, at = 0;
  bool ok = true;
  const int leaf = kind == 2 ? 1 : 0;
  for (uint32_t g = 0; g < r->ft.meta.num_row_groups && ok; g++) {
    tw_chunk c;
    CHECK_OK(tw_decode_chunk(r, (int)g, leaf, &c, &err), &err);
    ok = e + c.n <= x->n && memcmp(c.rep, x->rep + e, (size_t)c.n * 2) == 0 &&
         memcmp(c.def, x->def + e, (size_t)c.n * 2) == 0;
    for (int64_t i = 0; ok && i < c.n_values; i++) {
      if (kind == 0) {
        ok = memcmp(c.fixed.data + i * 4, x->values.data + at, 4) == 0;
        at += 4;
      } else {
        uint8_t n = x->values.data[at];
        ok = c.offsets[i + 1] - c.offsets[i] == n &&
             memcmp(c.bytes.data + c.offsets[i], x->values.data + at + 1, n) == 0;
        at += 1 + n;
      }
    }
    e += c.n;
    check_pages_start_rows(r, (int)g, 0);
    check_pages_start_rows(r, (int)g, leaf);
    tw_chunk_free(&c);
  }
  CHECK(ok);
  CHECK_INT(e, x->n);
  CHECK_INT(at, (int64_t)x->values.len);
}

/* Writes the same batches with and without the list shortcut; returns the two files' bytes. */
static void write_both(const cp_type *row, const cp_pq_writer_options *o, int kind,
                       const int *modes, int n_batches, int64_t rows, cp_buf *fast, cp_buf *slow,
                       expect *x) {
  paimon_error err;
  tw_file ff, fs;
  CHECK_OK(tw_open(&ff, "lists_fast", row, o, &err), &err);
  CHECK_OK(tw_open(&fs, "lists_general", row, o, &err), &err);
  if (!ff.w || !fs.w) return;
  cp_pq_writer_set_general_levels(fs.w, true);
  for (int b = 0; b < n_batches; b++) {
    tw_batch t;
    tw_batch_init(&t, row);
    fill_lists(&t, kind, modes[b], rows, x);
    tw_batch_finish(&t);
    CHECK_OK(cp_pq_writer_write(ff.w, &t.schema, &t.array, &err), &err);
    CHECK_OK(cp_pq_writer_write(fs.w, &t.schema, &t.array, &err), &err);
    tw_batch_free(&t);
  }
  CHECK_OK(tw_close(&ff, NULL, &err), &err);
  CHECK_OK(tw_close(&fs, NULL, &err), &err);
  CHECK_OK(cp_fs_read_file(tw_fs, ff.path, fast, (size_t)1 << 30, &err), &err);
  CHECK_OK(cp_fs_read_file(tw_fs, fs.path, slow, (size_t)1 << 30, &err), &err);
  tw_free(&ff);
  tw_free(&fs);
}

static void test_lists_fast_vs_general(void) {
  static const char *types[] = {"ROW<e ARRAY<FLOAT>>", "ROW<e ARRAY<STRING>>",
                                "ROW<e MAP<INT, STRING>>"};
  static const int modes[] = {0, 0, 1, 2, 0, 3, 1, 0, 2, 2, 0};
  const int n_batches = (int)(sizeof modes / sizeof modes[0]);
  for (int kind = 0; kind < 3; kind++) {
    for (int codec = 0; codec < 2; codec++) {
      cp_type *row = tw_type(types[kind]);
      cp_pq_writer_options o;
      cp_pq_writer_options_init(&o);
      o.codec = codec ? CP_CODEC_ZSTD : CP_CODEC_NONE;
      o.page_size = 4096; /* a 3000-element list is larger than a page */
      o.row_group_rows = 700;
      cp_buf fast = CP_BUF_INIT, slow = CP_BUF_INIT;
      expect x = {0};
      write_both(row, &o, kind, modes, n_batches, 300, &fast, &slow, &x);
      CHECK(fast.len > 0 && fast.len == slow.len && memcmp(fast.data, slow.data, fast.len) == 0);
      tw_read r;
      paimon_error err;
      const char *path = tw_new_path("lists_check");
      CHECK_OK(cp_fs_write_file(tw_fs, path, fast.data, fast.len, CP_CREATE_OVERWRITE, false, &err),
               &err);
      CHECK_OK(tw_read_file(&r, path, &err), &err);
      if (r.ft.meta.schema) {
        CHECK(r.ft.meta.num_row_groups >= 4);
        check_against_expect(&r, kind, &x);
        tw_read_free(&r);
      }
      cp_fs_delete(tw_fs, path, NULL);
      expect_free(&x);
      cp_buf_free(&fast);
      cp_buf_free(&slow);
      cp_type_free(row);
    }
  }
}

/* ---- the dictionary decision ---- */

/* Writes `rows` rows of one column from gen(row) (numbers) and reads the file back. */
typedef double (*gen_fn)(int64_t row);
static bool write_numbers(const char *sql, gen_fn gen, int64_t rows, const cp_pq_writer_options *o,
                          tw_read *r, tw_file *tf) {
  paimon_error err;
  cp_type *row = tw_type(sql);
  CHECK_OK(tw_open(tf, "numbers", row, o, &err), &err);
  bool ok = tf->w != NULL;
  for (int64_t at = 0; ok && at < rows; at += 50000) {
    tw_batch t;
    tw_batch_init(&t, row);
    for (int64_t i = at; i < at + 50000 && i < rows; i++) {
      double v = gen(i);
      if (isnan(v))
        CHECK_OK(cp_builder_append_null(tw_col(&t, 0), &err), &err);
      else if (row->fields[0].type->kind == CP_TYPE_DOUBLE)
        CHECK_OK(cp_builder_append_double(tw_col(&t, 0), v, &err), &err);
      else
        CHECK_OK(cp_builder_append_int64(tw_col(&t, 0), (int64_t)v, &err), &err);
    }
    tw_batch_finish(&t);
    CHECK_OK(cp_pq_writer_write(tf->w, &t.schema, &t.array, &err), &err);
    tw_batch_free(&t);
  }
  if (ok) CHECK_OK(tw_close(tf, NULL, &err), &err);
  if (ok) CHECK_OK(tw_read_file(r, tf->path, &err), &err);
  cp_type_free(row);
  return ok && r->ft.meta.schema;
}

/* 60,000 distinct prices in a random order: a page of 20,000 sees ~17,000 of them. */
static uint64_t mix(uint64_t x) {
  x ^= x >> 31;
  x *= 0x7fb5d329728ea185ULL;
  x ^= x >> 27;
  return x;
}
static double gen_price(int64_t row) { return (double)(mix((uint64_t)row) % 60000) / 4.0; }

static void test_dictionary_kept_mid_cardinality(void) {
  /* The premise: dictionary + indices of the first 20,000-row page are not smaller than PLAIN,
   * which is why the first page alone must not decide. */
  bool *seen = calloc(60000, 1);
  int64_t distinct = 0, all_distinct = 0;
  for (int64_t i = 0; i < 200000; i++) {
    size_t k = (size_t)(mix((uint64_t)i) % 60000);
    all_distinct += !seen[k];
    seen[k] = true;
    if (i == 19999) distinct = all_distinct;
  }
  free(seen);
  const int64_t bits = cp_pq_bit_width((uint64_t)distinct - 1);
  CHECK(distinct * 8 + 1 + (20000 * bits + 7) / 8 >= 20000 * 8);
  tw_read r;
  tw_file tf;
  if (write_numbers("ROW<p DOUBLE>", gen_price, 200000, NULL, &r, &tf)) {
    paimon_error err;
    tw_chunk c;
    CHECK_OK(tw_decode_chunk(&r, 0, 0, &c, &err), &err);
    CHECK_INT(c.dict_pages, 1);
    CHECK_INT(c.dict_count, all_distinct);
    CHECK_INT(c.dict_encoded_pages, c.data_pages);
    CHECK_INT(c.data_pages, 10);
    bool ok = c.n_values == 200000;
    for (int64_t i = 0; ok && i < 200000; i += 7) ok = tw_f64(&c, 8, i) == gen_price(i);
    CHECK(ok);
    /* Smaller than PLAIN would be (the point of keeping it). */
    CHECK(tw_meta(&r, 0, 0)->total_uncompressed_size < 200000 * 8);
    tw_chunk_free(&c);
    tw_read_free(&r);
  }
  tw_free(&tf);
}

static double gen_qty(int64_t row) { return (double)(mix((uint64_t)row + 7) % 1000000); }

static void test_dictionary_given_up_high_cardinality(void) {
  tw_read r;
  tw_file tf;
  if (write_numbers("ROW<q BIGINT>", gen_qty, 150000, NULL, &r, &tf)) {
    const cp_pq_column_meta *m = tw_meta(&r, 0, 0);
    CHECK(!m->dictionary_page_offset.is_set);
    CHECK(!tw_has_encoding(m, CP_PQ_ENC_RLE_DICTIONARY));
    paimon_error err;
    tw_chunk c;
    CHECK_OK(tw_decode_chunk(&r, 0, 0, &c, &err), &err);
    bool ok = c.n_values == 150000;
    for (int64_t i = 0; ok && i < 150000; i += 11) ok = tw_int(&c, 8, i) == (int64_t)gen_qty(i);
    CHECK(ok);
    tw_chunk_free(&c);
    tw_read_free(&r);
  }
  tw_free(&tf);
  /* The same for strings (user_<n> from a million). */
  paimon_error err;
  cp_type *row = tw_type("ROW<s STRING>");
  CHECK_OK(tw_open(&tf, "users", row, NULL, &err), &err);
  if (tf.w) {
    tw_batch t;
    tw_batch_init(&t, row);
    char s[32];
    for (int64_t i = 0; i < 60000; i++) {
      snprintf(s, sizeof s, "user_%llu", (unsigned long long)(mix((uint64_t)i) % 1000000));
      CHECK_OK(cp_builder_append_str(tw_col(&t, 0), s, &err), &err);
    }
    tw_batch_finish(&t);
    CHECK_OK(cp_pq_writer_write(tf.w, &t.schema, &t.array, &err), &err);
    tw_batch_free(&t);
    CHECK_OK(tw_close(&tf, NULL, &err), &err);
    CHECK_OK(tw_read_file(&r, tf.path, &err), &err);
    if (r.ft.meta.schema) {
      CHECK(!tw_meta(&r, 0, 0)->dictionary_page_offset.is_set);
      tw_read_free(&r);
    }
  }
  tw_free(&tf);
  cp_type_free(row);
}

/* The first page is all NULL: no values, no decision; the repeats after it keep the dictionary. */
static double gen_nulls_first(int64_t row) { return row < 20000 ? NAN : (double)(row % 10); }

static void test_first_page_without_values(void) {
  tw_read r;
  tw_file tf;
  if (write_numbers("ROW<n BIGINT>", gen_nulls_first, 60000, NULL, &r, &tf)) {
    paimon_error err;
    tw_chunk c;
    CHECK_OK(tw_decode_chunk(&r, 0, 0, &c, &err), &err);
    CHECK_INT(c.dict_pages, 1);
    CHECK_INT(c.dict_count, 10);
    CHECK_INT(c.data_pages, 3);
    CHECK_INT(c.dict_encoded_pages, 2); /* the all-NULL page is PLAIN (and empty) */
    CHECK_INT(c.n_values, 40000);
    CHECK(c.n_values == 40000 && tw_int(&c, 8, 12345) == (20000 + 12345) % 10);
    tw_chunk_free(&c);
    tw_read_free(&r);
  }
  tw_free(&tf);
}

/* ---- streaming the first column ---- */

/* Long unique strings in column 0, a low-cardinality INT in column 1 (when two_cols). */
static void fill_long(tw_batch *t, int64_t row0, int64_t n, bool two_cols) {
  paimon_error err;
  char s[400];
  for (int64_t i = 0; i < n; i++) {
    int len = snprintf(s, sizeof s, "%lld:", (long long)(row0 + i));
    for (; len < 300; len++) s[len] = (char)('a' + (row0 + i + len) % 26);
    CHECK_OK(cp_builder_append_bytes(tw_col(t, 0), s, len, &err), &err);
    if (two_cols) CHECK_OK(cp_builder_append_int64(tw_col(t, 1), (row0 + i) % 5, &err), &err);
  }
}

/* Footer offsets and sizes agree with the pages, chunks are back to back in column order and a
 * row group starts at its first chunk. */
static void check_layout(const tw_read *r) {
  const cp_pq_file_meta *m = &r->ft.meta;
  int64_t end = 4;
  for (uint32_t g = 0; g < m->num_row_groups; g++) {
    const cp_pq_row_group *rg = &m->row_groups[g];
    CHECK_INT(rg->file_offset.value, end);
    for (uint32_t c = 0; c < rg->num_columns; c++) {
      const cp_pq_column_meta *cm = &rg->columns[c].meta_data;
      paimon_error err;
      tw_chunk k;
      CHECK_INT(cp_pq_column_chunk_start(cm), end);
      CHECK_OK(tw_decode_chunk(r, (int)g, (int)c, &k, &err), &err);
      CHECK_INT(cm->total_compressed_size, k.header_bytes + k.body_bytes_comp);
      CHECK_INT(cm->total_uncompressed_size, k.header_bytes + k.body_bytes_unc);
      if (k.dict_pages) CHECK(cm->dictionary_page_offset.value < cm->data_page_offset);
      end += cm->total_compressed_size;
      tw_chunk_free(&k);
    }
  }
  CHECK_INT((int64_t)r->ft.metadata_offset, end);
}

static void test_streaming(void) {
  for (int two = 0; two < 2; two++) {
    paimon_error err;
    cp_type *row = tw_type(two ? "ROW<s STRING, k INT>" : "ROW<s STRING>");
    cp_pq_writer_options o;
    cp_pq_writer_options_init(&o);
    o.codec = CP_CODEC_NONE;
    o.page_size = 64 * 1024;
    o.row_group_rows = 5000; /* 1.5 MB per row group: several row groups */
    tw_file tf;
    CHECK_OK(tw_open(&tf, "stream", row, &o, &err), &err);
    if (!tf.w) {
      cp_type_free(row);
      continue;
    }
    uint64_t max_buffered = 0;
    bool streamed_mid_group = false;
    for (int b = 0; b < 30; b++) {
      tw_batch t;
      tw_batch_init(&t, row);
      fill_long(&t, b * 700, 700, two);
      tw_batch_finish(&t);
      uint64_t before = cp_wfile_pos(tf.f);
      CHECK_OK(cp_pq_writer_write(tf.w, &t.schema, &t.array, &err), &err);
      tw_batch_free(&t);
      /* Batches that do not end a row group still move the file: column 0 streams. */
      if ((b * 700) / 5000 == (b * 700 + 699) / 5000 && cp_wfile_pos(tf.f) > before)
        streamed_mid_group = true;
      uint64_t buffered = cp_pq_writer_estimated_size(tf.w) - cp_wfile_pos(tf.f);
      if (buffered > max_buffered) max_buffered = buffered;
    }
    CHECK(streamed_mid_group);
    /* One column: about a page in memory, never a row group (1.5 MB). */
    if (!two) CHECK(max_buffered < 3 * o.page_size);
    cp_pq_file_stats st;
    CHECK_OK(tw_close(&tf, &st, &err), &err);
    CHECK_INT(st.num_row_groups, 5);
    tw_read r;
    CHECK_OK(tw_read_file(&r, tf.path, &err), &err);
    if (r.ft.meta.schema) {
      check_layout(&r);
      tw_chunk c;
      CHECK_OK(tw_decode_chunk(&r, 2, 0, &c, &err), &err);
      CHECK(c.n_values == 5000 && c.dict_pages == 0);
      CHECK(c.n_values == 5000 && memcmp(c.bytes.data + c.offsets[7], "10007:", 6) == 0);
      tw_chunk_free(&c);
      if (two) {
        CHECK_OK(tw_decode_chunk(&r, 3, 1, &c, &err), &err);
        CHECK(c.dict_pages == 1 && c.n_values == 5000 && tw_int(&c, 4, 9) == (15000 + 9) % 5);
        tw_chunk_free(&c);
      }
      tw_read_free(&r);
    }
    tw_free(&tf);
    cp_type_free(row);
  }
}

/* The streaming column's dictionary falls back mid-chunk: its dictionary page and dictionary
 * pages go out first, then PLAIN pages, in every row group. */
static double gen_fallback(int64_t row) {
  int64_t k = row % 4000;
  return (double)(k < 1500 ? k % 7 : row);
}

static void test_streaming_fallback(void) {
  cp_pq_writer_options o;
  cp_pq_writer_options_init(&o);
  o.page_row_limit = 250;
  o.dictionary_page_limit = 2000;
  o.row_group_rows = 4000;
  tw_read r;
  tw_file tf;
  if (write_numbers("ROW<x BIGINT NOT NULL>", gen_fallback, 16000, &o, &r, &tf)) {
    check_layout(&r);
    CHECK_INT(r.ft.meta.num_row_groups, 4);
    for (int g = 0; g < 4; g++) {
      paimon_error err;
      tw_chunk c;
      CHECK_OK(tw_decode_chunk(&r, g, 0, &c, &err), &err);
      CHECK_INT(c.dict_pages, 1);
      CHECK(c.dict_encoded_pages >= 6 && c.data_pages - c.dict_encoded_pages >= 8);
      bool ok = c.n_values == 4000;
      for (int64_t i = 0; ok && i < 4000; i++)
        ok = tw_int(&c, 8, i) == (int64_t)gen_fallback(g * 4000 + i);
      CHECK(ok);
      tw_chunk_free(&c);
    }
    tw_read_free(&r);
  }
  tw_free(&tf);
}

/* A write failing while column 0 streams fails the writer (EIO, then ESTATE). */
static void test_streaming_write_fault(void) {
  paimon_error err;
  cp_type *row = tw_type("ROW<s STRING>");
  cp_pq_writer_options o;
  cp_pq_writer_options_init(&o);
  o.page_size = 16 * 1024;
  tw_file tf;
  CHECK_OK(tw_open(&tf, "stream_fault", row, &o, &err), &err);
  if (tf.w) {
    cp_fs_inject_fault(tw_fs, CP_FS_OP_WRITE, 3, PAIMON_EIO);
    tw_batch t;
    tw_batch_init(&t, row);
    fill_long(&t, 0, 2000, false);
    tw_batch_finish(&t);
    CHECK_ERR(cp_pq_writer_write(tf.w, &t.schema, &t.array, &err), PAIMON_EIO);
    CHECK_CONTAINS(err.message, "inject");
    cp_fs_inject_fault(tw_fs, CP_FS_OP_WRITE, 0, 0);
    CHECK_ERR(cp_pq_writer_write(tf.w, &t.schema, &t.array, &err), PAIMON_ESTATE);
    CHECK_ERR(cp_pq_writer_close(tf.w, NULL, &err), PAIMON_ESTATE);
    tw_batch_free(&t);
  }
  tw_free(&tf);
  cp_type_free(row);
}

int main(void) {
  paimon_error err;
  if (cp_fs_local_new(&tw_fs, &err) != 0) return 1;
  RUN(test_lists_fast_vs_general);
  RUN(test_dictionary_kept_mid_cardinality);
  RUN(test_dictionary_given_up_high_cardinality);
  RUN(test_first_page_without_values);
  RUN(test_streaming);
  RUN(test_streaming_fallback);
  RUN(test_streaming_write_fault);
  cp_fs_free(tw_fs);
  TEST_MAIN_END();
}
