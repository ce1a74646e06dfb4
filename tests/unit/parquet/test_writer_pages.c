/*
 * Tests for the Parquet writer's pages, row groups, dictionary and codecs (spec/parquet.md §2.3
 * items 1-4 and 10, §2.4 bookkeeping, §2.11 limits, §4 P1-P4, P12): many pages and row groups
 * under small limits, page cuts at row boundaries for nested data, dictionary pages with the
 * fallback to PLAIN mid-chunk and the give-up rule, every codec, and the sizes and offsets the
 * footer records checked against the pages themselves (test_writer_util.h decodes every page).
 */
#include "format/parquet/writer.h"

#include "test_writer_util.h"

/* Writes `n_batches` batches of `rows` rows, each filled by fill(b, column builders, row0, n). */
typedef void (*fill_rows_fn)(tw_batch *t, int64_t row0, int64_t n);

static bool write_batches(const char *tag, const cp_type *row, const cp_pq_writer_options *o,
                          fill_rows_fn fill, int n_batches, int64_t rows, tw_read *r,
                          cp_pq_file_stats *st, tw_file *tf) {
  paimon_error err;
  bool ok = false;
  CHECK_OK(tw_open(tf, tag, row, o, &err), &err);
  if (!tf->w) return false;
  for (int b = 0; b < n_batches; b++) {
    tw_batch t;
    tw_batch_init(&t, row);
    fill(&t, b * rows, rows);
    tw_batch_finish(&t);
    CHECK_OK(cp_pq_writer_write(tf->w, &t.schema, &t.array, &err), &err);
    tw_batch_free(&t);
  }
  CHECK_INT(cp_pq_writer_row_count(tf->w), n_batches * rows);
  CHECK_OK(tw_close(tf, st, &err), &err);
  CHECK_OK(tw_read_file(r, tf->path, &err), &err);
  ok = r->ft.meta.schema != NULL;
  return ok;
}

/* Checks every chunk of the file decodes, and that the row group sums agree (§2.4). */
static void check_bookkeeping(const tw_read *r) {
  const cp_pq_file_meta *m = &r->ft.meta;
  int64_t rows = 0, end = 4;
  for (uint32_t g = 0; g < m->num_row_groups; g++) {
    const cp_pq_row_group *rg = &m->row_groups[g];
    int64_t unc = 0, comp = 0;
    CHECK_INT(rg->file_offset.value, end);
    CHECK_INT(rg->ordinal.value, g);
    for (uint32_t c = 0; c < rg->num_columns; c++) {
      const cp_pq_column_meta *cm = &rg->columns[c].meta_data;
      paimon_error err;
      tw_chunk k;
      CHECK_INT(cp_pq_column_chunk_start(cm), end); /* chunks are back to back */
      CHECK_OK(tw_decode_chunk(r, (int)g, (int)c, &k, &err), &err);
      CHECK_INT(cm->total_uncompressed_size, k.header_bytes + k.body_bytes_unc);
      CHECK_INT(cm->total_compressed_size, k.header_bytes + k.body_bytes_comp);
      CHECK_INT(cm->statistics.null_count.value, k.n - k.n_values);
      /* Encoding stats agree with the pages (§4 P12). */
      int dict_data = 0, plain_data = 0, dict_pages = 0;
      for (uint32_t i = 0; i < cm->num_encoding_stats; i++) {
        const cp_pq_page_encoding_stats *es = &cm->encoding_stats[i];
        if (es->page_type == CP_PQ_PAGE_DICTIONARY) dict_pages += es->count;
        if (es->page_type == CP_PQ_PAGE_DATA && es->encoding == CP_PQ_ENC_RLE_DICTIONARY)
          dict_data += es->count;
        if (es->page_type == CP_PQ_PAGE_DATA && es->encoding == CP_PQ_ENC_PLAIN)
          plain_data += es->count;
      }
      CHECK_INT(dict_pages, k.dict_pages);
      CHECK_INT(dict_data, k.dict_encoded_pages);
      CHECK_INT(plain_data, k.data_pages - k.dict_encoded_pages);
      CHECK_INT(cm->dictionary_page_offset.is_set, k.dict_pages > 0);
      CHECK_INT(tw_has_encoding(cm, CP_PQ_ENC_RLE_DICTIONARY), k.dict_encoded_pages > 0);
      CHECK_INT(tw_has_encoding(cm, CP_PQ_ENC_PLAIN),
                k.dict_pages > 0 || k.data_pages > k.dict_encoded_pages);
      unc += cm->total_uncompressed_size;
      comp += cm->total_compressed_size;
      end += cm->total_compressed_size;
      tw_chunk_free(&k);
    }
    CHECK_INT(rg->total_byte_size, unc);
    CHECK_INT(rg->total_compressed_size.value, comp);
    rows += rg->num_rows;
  }
  CHECK_INT(m->num_rows, rows);
  CHECK_INT((int64_t)r->ft.metadata_offset, end);
}

/* ---- many pages and row groups ---- */

static void fill_ints(tw_batch *t, int64_t row0, int64_t n) {
  paimon_error err;
  for (int64_t i = 0; i < n; i++) {
    int64_t v = row0 + i;
    CHECK_OK(cp_builder_append_int64(tw_col(t, 0), v, &err), &err);
    if (v % 7 == 3)
      CHECK_OK(cp_builder_append_null(tw_col(t, 1), &err), &err);
    else
      CHECK_OK(cp_builder_append_int64(tw_col(t, 1), v * 3, &err), &err);
  }
}

static void test_pages_and_row_groups(void) {
  cp_type *row = tw_type("ROW<a BIGINT NOT NULL, b INT>");
  cp_pq_writer_options o;
  cp_pq_writer_options_init(&o);
  o.page_row_limit = 100;
  o.row_group_rows = 1000;
  o.dictionary = false;
  tw_read r;
  tw_file tf;
  cp_pq_file_stats st;
  if (write_batches("pages", row, &o, fill_ints, 9, 333, &r, &st, &tf)) {
    /* 2997 rows: row groups of 1000, 1000, 997; pages of 100 rows. */
    CHECK_INT(r.ft.meta.num_row_groups, 3);
    CHECK_INT(st.num_row_groups, 3);
    CHECK_INT(st.num_rows, 2997);
    CHECK_INT(r.ft.meta.row_groups[2].num_rows, 997);
    check_bookkeeping(&r);
    paimon_error err;
    int64_t next = 0, nulls = 0;
    for (int g = 0; g < 3; g++) {
      tw_chunk a, b;
      CHECK_OK(tw_decode_chunk(&r, g, 0, &a, &err), &err);
      CHECK_OK(tw_decode_chunk(&r, g, 1, &b, &err), &err);
      CHECK_INT(a.data_pages, g < 2 ? 10 : 10);
      for (int64_t i = 0; i < a.n_values; i++) CHECK_INT(tw_int(&a, 8, i), next + i);
      int64_t k = 0;
      for (int64_t i = 0; i < b.n; i++) {
        int64_t v = next + i;
        CHECK_INT(b.def[i], v % 7 == 3 ? 0 : 1);
        if (v % 7 != 3) CHECK_INT(tw_int(&b, 4, k++), v * 3);
      }
      nulls += b.n - b.n_values;
      next += a.n;
      tw_chunk_free(&a);
      tw_chunk_free(&b);
    }
    CHECK_INT(next, 2997);
    CHECK_INT(st.columns[1].null_count, nulls);
    CHECK(st.columns[0].min.v.i64 == 0 && st.columns[0].max.v.i64 == 2996);
    tw_read_free(&r);
  }
  tw_free(&tf);
  cp_type_free(row);
}

/* Strings of 100 bytes against a 1000-byte page size: pages close by size. */
static void fill_wide(tw_batch *t, int64_t row0, int64_t n) {
  paimon_error err;
  char s[101];
  for (int64_t i = 0; i < n; i++) {
    memset(s, 'a' + (int)((row0 + i) % 26), 100);
    snprintf(s, sizeof s, "%08lld", (long long)(row0 + i));
    s[8] = 'x';
    CHECK_OK(cp_builder_append_bytes(tw_col(t, 0), s, 100, &err), &err);
  }
}

static void test_page_size_limit(void) {
  cp_type *row = tw_type("ROW<s STRING>");
  cp_pq_writer_options o;
  cp_pq_writer_options_init(&o);
  o.page_size = 1000;
  o.dictionary = false;
  o.codec = CP_CODEC_NONE;
  tw_read r;
  tw_file tf;
  cp_pq_file_stats st;
  if (write_batches("wide", row, &o, fill_wide, 3, 700, &r, &st, &tf)) {
    check_bookkeeping(&r);
    paimon_error err;
    tw_chunk c;
    CHECK_OK(tw_decode_chunk(&r, 0, 0, &c, &err), &err);
    /* 2100 values of 104 PLAIN bytes: at least 2100 * 104 / (1000 + 104) pages, and no page far
     * beyond the limit (each is cut within a row of it once the size per row is known). */
    CHECK(c.data_pages >= 198);
    CHECK(c.body_bytes_unc / c.data_pages <= 1200);
    CHECK_INT(c.n_values, 2100);
    char want[16];
    snprintf(want, sizeof want, "%08d", 1234);
    CHECK(memcmp(c.bytes.data + c.offsets[1234], want, 8) == 0);
    tw_chunk_free(&c);
    tw_read_free(&r);
  }
  tw_free(&tf);
  cp_type_free(row);
}

/* Nested rows: pages and row groups start at row boundaries (rep = 0, §3.4). */
static void fill_lists(tw_batch *t, int64_t row0, int64_t n) {
  paimon_error err;
  cp_builder *l = tw_col(t, 0), *e = cp_builder_child(l, 0);
  for (int64_t i = 0; i < n; i++) {
    int64_t v = row0 + i, len = v % 11 == 0 ? 0 : v % 5;
    for (int64_t k = 0; k < len; k++) CHECK_OK(cp_builder_append_int64(e, v * 10 + k, &err), &err);
    if (v % 11 == 0)
      CHECK_OK(cp_builder_append_null(l, &err), &err);
    else
      CHECK_OK(cp_builder_end_element(l, &err), &err);
  }
}

static void test_nested_page_cuts(void) {
  cp_type *row = tw_type("ROW<l ARRAY<BIGINT>>");
  cp_pq_writer_options o;
  cp_pq_writer_options_init(&o);
  o.page_row_limit = 37;
  o.row_group_rows = 500;
  tw_read r;
  tw_file tf;
  cp_pq_file_stats st;
  if (write_batches("lists", row, &o, fill_lists, 4, 300, &r, &st, &tf)) {
    CHECK_INT(r.ft.meta.num_row_groups, 3);
    check_bookkeeping(&r);
    paimon_error err;
    int64_t v = 0;
    for (uint32_t g = 0; g < r.ft.meta.num_row_groups; g++) {
      tw_chunk c;
      CHECK_OK(tw_decode_chunk(&r, (int)g, 0, &c, &err), &err);
      int64_t rows = 0, k = 0, val = 0;
      for (int64_t i = 0; i < c.n; i++) rows += c.rep[i] == 0;
      CHECK_INT(rows, r.ft.meta.row_groups[g].num_rows);
      /* Re-walk the rows and compare levels and values. */
      for (int64_t row_i = 0; row_i < rows; row_i++, v++) {
        int64_t len = v % 5;
        if (v % 11 == 0) {
          CHECK(c.rep[k] == 0 && c.def[k] == 0);
          k++;
        } else if (len == 0) {
          CHECK(c.rep[k] == 0 && c.def[k] == 1);
          k++;
        } else {
          for (int64_t j = 0; j < len; j++, k++) {
            CHECK_INT(c.rep[k], j == 0 ? 0 : 1);
            CHECK_INT(c.def[k], 3);
            CHECK_INT(tw_int(&c, 8, val++), v * 10 + j);
          }
        }
      }
      CHECK_INT(k, c.n);
      /* Each page holds at most 37 rows: 500 rows need at least 14 pages. */
      if (g < 2) CHECK(c.data_pages >= 14);
      tw_chunk_free(&c);
    }
    CHECK_INT(v, 1200);
    tw_read_free(&r);
  }
  tw_free(&tf);
  cp_type_free(row);
}

/* ---- dictionary ---- */

static void fill_low_card(tw_batch *t, int64_t row0, int64_t n) {
  paimon_error err;
  char s[32];
  for (int64_t i = 0; i < n; i++) {
    snprintf(s, sizeof s, "value-%d", (int)((row0 + i) % 10));
    CHECK_OK(cp_builder_append_str(tw_col(t, 0), s, &err), &err);
    CHECK_OK(cp_builder_append_double(tw_col(t, 1), (double)((row0 + i) % 3), &err), &err);
    CHECK_OK(cp_builder_append_bool(tw_col(t, 2), (row0 + i) % 2, &err), &err);
  }
}

static void test_dictionary(void) {
  cp_type *row = tw_type("ROW<s STRING, d DOUBLE, b BOOLEAN>");
  cp_pq_writer_options o;
  cp_pq_writer_options_init(&o);
  tw_read r;
  tw_file tf;
  cp_pq_file_stats st;
  if (write_batches("dict", row, &o, fill_low_card, 5, 10000, &r, &st, &tf)) {
    check_bookkeeping(&r);
    paimon_error err;
    for (int col = 0; col < 2; col++) {
      const cp_pq_column_meta *m = tw_meta(&r, 0, col);
      tw_chunk c;
      CHECK_OK(tw_decode_chunk(&r, 0, col, &c, &err), &err);
      CHECK_INT(c.dict_pages, 1);
      CHECK_INT(c.dict_count, col == 0 ? 10 : 3);
      CHECK_INT(c.dict_encoded_pages, c.data_pages);
      CHECK_INT(c.data_pages, 3); /* 50000 rows, 20000 per page */
      CHECK(m->dictionary_page_offset.is_set &&
            m->dictionary_page_offset.value < m->data_page_offset);
      CHECK(tw_str_is(&c, 12345, "value-5") || col == 1);
      if (col == 1) CHECK(tw_f64(&c, 8, 12345) == 0.0);
      tw_chunk_free(&c);
    }
    /* BOOLEAN never gets a dictionary (§2.3 item 2). */
    const cp_pq_column_meta *mb = tw_meta(&r, 0, 2);
    CHECK(!mb->dictionary_page_offset.is_set);
    CHECK(!tw_has_encoding(mb, CP_PQ_ENC_RLE_DICTIONARY));
    tw_read_free(&r);
  }
  tw_free(&tf);
  cp_type_free(row);
}

/* 5 values repeat for the first 1000 rows, then every value is new: the dictionary passes its
 * 2000-byte limit mid-chunk and the rest of the chunk falls back to PLAIN. */
static void fill_fallback(tw_batch *t, int64_t row0, int64_t n) {
  paimon_error err;
  char s[32];
  for (int64_t i = 0; i < n; i++) {
    int64_t v = row0 + i;
    snprintf(s, sizeof s, "k%06lld", (long long)(v < 1000 ? v % 5 : v));
    CHECK_OK(cp_builder_append_str(tw_col(t, 0), s, &err), &err);
    CHECK_OK(cp_builder_append_int64(tw_col(t, 1), v < 1000 ? v % 5 : v, &err), &err);
  }
}

static void test_dictionary_fallback(void) {
  cp_type *row = tw_type("ROW<s STRING, l BIGINT>");
  cp_pq_writer_options o;
  cp_pq_writer_options_init(&o);
  o.dictionary_page_limit = 2000;
  o.page_row_limit = 100;
  tw_read r;
  tw_file tf;
  cp_pq_file_stats st;
  if (write_batches("fallback", row, &o, fill_fallback, 3, 1000, &r, &st, &tf)) {
    check_bookkeeping(&r);
    paimon_error err;
    for (int col = 0; col < 2; col++) {
      const cp_pq_column_meta *m = tw_meta(&r, 0, col);
      tw_chunk c;
      CHECK_OK(tw_decode_chunk(&r, 0, col, &c, &err), &err);
      CHECK_INT(c.dict_pages, 1);
      CHECK(c.dict_encoded_pages >= 10);                /* the first 1000 rows at least */
      CHECK(c.data_pages - c.dict_encoded_pages >= 15); /* most of the unique rows are PLAIN */
      CHECK(tw_has_encoding(m, CP_PQ_ENC_PLAIN) && tw_has_encoding(m, CP_PQ_ENC_RLE_DICTIONARY));
      /* The dictionary stopped near its limit: 10-byte entries, limit 2000. */
      CHECK(c.dict_count <= 2000 / (col == 0 ? 11 : 8) + 100);
      CHECK_INT(c.n_values, 3000);
      for (int64_t v = 0; v < 3000; v += 37) {
        int64_t want = v < 1000 ? v % 5 : v;
        if (col == 1) {
          CHECK_INT(tw_int(&c, 8, v), want);
        } else {
          char s[32];
          snprintf(s, sizeof s, "k%06lld", (long long)want);
          CHECK(tw_str_is(&c, v, s));
        }
      }
      tw_chunk_free(&c);
    }
    tw_read_free(&r);
  }
  tw_free(&tf);
  cp_type_free(row);
}

/* Unique values: the dictionary does not beat PLAIN on the first page, so there is none. */
static void fill_unique(tw_batch *t, int64_t row0, int64_t n) {
  paimon_error err;
  for (int64_t i = 0; i < n; i++)
    CHECK_OK(cp_builder_append_int64(tw_col(t, 0), (row0 + i) * 7919, &err), &err);
}

static void test_dictionary_given_up(void) {
  cp_type *row = tw_type("ROW<l BIGINT>");
  tw_read r;
  tw_file tf;
  cp_pq_file_stats st;
  if (write_batches("unique", row, NULL, fill_unique, 2, 30000, &r, &st, &tf)) {
    check_bookkeeping(&r);
    const cp_pq_column_meta *m = tw_meta(&r, 0, 0);
    CHECK(!m->dictionary_page_offset.is_set);
    CHECK(!tw_has_encoding(m, CP_PQ_ENC_RLE_DICTIONARY));
    paimon_error err;
    tw_chunk c;
    CHECK_OK(tw_decode_chunk(&r, 0, 0, &c, &err), &err);
    CHECK_INT(c.data_pages, 3);
    for (int64_t v = 0; v < 60000; v += 999) CHECK_INT(tw_int(&c, 8, v), v * 7919);
    tw_chunk_free(&c);
    tw_read_free(&r);
  }
  tw_free(&tf);
  cp_type_free(row);
}

/* ---- codecs ---- */

static void fill_mixed(tw_batch *t, int64_t row0, int64_t n) {
  paimon_error err;
  char s[48];
  for (int64_t i = 0; i < n; i++) {
    int64_t v = row0 + i;
    snprintf(s, sizeof s, "row %lld of the codec test", (long long)v);
    CHECK_OK(cp_builder_append_str(tw_col(t, 0), s, &err), &err);
    CHECK_OK(cp_builder_append_int64(tw_col(t, 1), v * v, &err), &err);
  }
}

static void test_codecs(void) {
  static const struct {
    cp_codec codec;
    int pq;
  } codecs[] = {{CP_CODEC_NONE, CP_PQ_CODEC_UNCOMPRESSED},
                {CP_CODEC_SNAPPY, CP_PQ_CODEC_SNAPPY},
                {CP_CODEC_GZIP, CP_PQ_CODEC_GZIP},
                {CP_CODEC_ZSTD, CP_PQ_CODEC_ZSTD},
                {CP_CODEC_LZ4_RAW, CP_PQ_CODEC_LZ4_RAW}};
  cp_type *row = tw_type("ROW<s STRING, l BIGINT>");
  for (size_t i = 0; i < sizeof codecs / sizeof codecs[0]; i++) {
    cp_pq_writer_options o;
    cp_pq_writer_options_init(&o);
    o.codec = codecs[i].codec;
    o.compression_level = codecs[i].codec == CP_CODEC_ZSTD ? 3 : 0;
    o.page_row_limit = 1000;
    tw_read r;
    tw_file tf;
    cp_pq_file_stats st;
    if (write_batches(cp_codec_name(codecs[i].codec), row, &o, fill_mixed, 2, 2500, &r, &st, &tf)) {
      check_bookkeeping(&r);
      CHECK_INT(tw_meta(&r, 0, 0)->codec, codecs[i].pq);
      paimon_error err;
      tw_chunk c;
      CHECK_OK(tw_decode_chunk(&r, 0, 0, &c, &err), &err);
      CHECK(c.n_values == 5000 && tw_str_is(&c, 4321, "row 4321 of the codec test"));
      if (codecs[i].codec != CP_CODEC_NONE) CHECK(c.body_bytes_comp < c.body_bytes_unc);
      tw_chunk_free(&c);
      tw_read_free(&r);
    }
    tw_free(&tf);
  }
  cp_type_free(row);
}

static void test_codec_names(void) {
  cp_codec c;
  paimon_error err;
  CHECK_OK(cp_pq_writer_codec_from_name("LZ4", &c, &err), &err);
  CHECK_INT(c, CP_CODEC_LZ4_RAW); /* Parquet's lz4 is written LZ4_RAW (§2.3 item 4) */
  CHECK_OK(cp_pq_writer_codec_from_name("none", &c, &err), &err);
  CHECK_INT(c, CP_CODEC_NONE);
  CHECK_OK(cp_pq_writer_codec_from_name("Zstd", &c, &err), &err);
  CHECK_INT(c, CP_CODEC_ZSTD);
  CHECK_ERR(cp_pq_writer_codec_from_name("brotli", &c, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "brotli");
}

/* The estimate grows with the data and ends near the file size. Until a column's first page
 * is compressed its open page counts uncompressed, so only later batches must grow it. */
static void test_estimated_size(void) {
  cp_type *row = tw_type("ROW<s STRING, l BIGINT>");
  paimon_error err;
  tw_file tf;
  CHECK_OK(tw_open(&tf, "estimate", row, NULL, &err), &err);
  if (tf.w) {
    CHECK_INT(cp_pq_writer_estimated_size(tf.w), 4);
    uint64_t last = 4;
    for (int b = 0; b < 8; b++) {
      tw_batch t;
      tw_batch_init(&t, row);
      fill_mixed(&t, b * 5000, 5000);
      tw_batch_finish(&t);
      CHECK_OK(cp_pq_writer_write(tf.w, &t.schema, &t.array, &err), &err);
      tw_batch_free(&t);
      uint64_t now = cp_pq_writer_estimated_size(tf.w);
      if (b != 3) CHECK(now > last); /* batch 3 closes the first 20000-row pages */
      last = now;
    }
    cp_pq_file_stats st;
    CHECK_OK(tw_close(&tf, &st, &err), &err);
    CHECK(last >= st.file_size / 2 && last <= st.file_size * 2);
  }
  tw_free(&tf);
  cp_type_free(row);
}

int main(void) {
  paimon_error err;
  if (cp_fs_local_new(&tw_fs, &err) != 0) return 1;
  RUN(test_pages_and_row_groups);
  RUN(test_page_size_limit);
  RUN(test_nested_page_cuts);
  RUN(test_dictionary);
  RUN(test_dictionary_fallback);
  RUN(test_dictionary_given_up);
  RUN(test_codecs);
  RUN(test_codec_names);
  RUN(test_estimated_size);
  cp_fs_free(tw_fs);
  TEST_MAIN_END();
}
