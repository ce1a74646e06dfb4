/*
 * The Parquet reader on the apache/parquet-testing corpus (spec/parquet.md §5.1): every readable
 * file in data/ reads completely with valid Arrow batches and the right row count, the files with
 * *_expect.csv give exactly those values, a few files are checked value by value against their
 * documentation (.md files / README), the unsupported files fail with EUNSUPPORTED, and every
 * file in bad_data/ fails with an error (never a crash — this test runs under ASan in CI), and
 * reading with the decode helper thread gives the same rows and errors as without.
 *
 * Also a tool:
 *   test_reader_corpus dump FILE [BATCH_SIZE]   rows as JSON lines on stdout; errors on stderr
 *                                               as "<STATUS>: <message>" with exit status 1.
 *   test_reader_corpus count FILE [COLUMN...]   reads the columns (all by default) and prints the
 *                                               row count: for timing and peak-memory checks.
 */
#include <errno.h>

#include "reader_test_util.h"
#include "test.h"

/* ---- the corpus lists --------------------------------------------------------------------------
 */

/* Files that must read completely. */
static const char *const k_readable[] = {
    /* A bug reproduction (GH-43605: bit width 0 for dictionary indices) that is valid Parquet:
     * every index is 0. pyarrow 19 reads it too, with the same values (test_parquet_read_corpus).
     */
    "../bad_data/ARROW-GH-43605.parquet",
    "alltypes_dictionary.parquet",
    "alltypes_plain.parquet",
    "alltypes_plain.snappy.parquet",
    "alltypes_tiny_pages.parquet",
    "alltypes_tiny_pages_plain.parquet",
    "binary.parquet",
    "binary_truncated_min_max.parquet",
    "byte_array_decimal.parquet",
    "byte_stream_split.zstd.parquet",
    "byte_stream_split_extended.gzip.parquet",
    "column_chunk_key_value_metadata.parquet",
    "concatenated_gzip_members.parquet",
    "data_index_bloom_encoding_stats.parquet",
    "data_index_bloom_encoding_with_length.parquet",
    "datapage_v1-corrupt-checksum.parquet", /* CRCs are not verified by default (as pyarrow) */
    "datapage_v1-snappy-compressed-checksum.parquet",
    "datapage_v1-uncompressed-checksum.parquet",
    "datapage_v2.snappy.parquet",
    "datapage_v2_empty_datapage.snappy.parquet",
    "delta_binary_packed.parquet",
    "delta_byte_array.parquet",
    "delta_encoding_optional_column.parquet",
    "delta_encoding_required_column.parquet",
    "delta_length_byte_array.parquet",
    "dict-page-offset-zero.parquet",
    "fixed_length_byte_array.parquet",
    "fixed_length_decimal.parquet",
    "fixed_length_decimal_legacy.parquet",
    "float16_nonzeros_and_nans.parquet",
    "float16_zeros_and_nans.parquet",
    "floating_orders_nan_count.parquet",
    "hadoop_lz4_compressed.parquet",
    "hadoop_lz4_compressed_larger.parquet",
    "incorrect_map_schema.parquet",
    "int32_decimal.parquet",
    "int32_with_null_pages.parquet",
    "int64_decimal.parquet",
    "int96_from_spark.parquet",
    "list_columns.parquet",
    "lz4_raw_compressed.parquet",
    "lz4_raw_compressed_larger.parquet",
    "map_no_value.parquet",
    "nan_in_stats.parquet",
    "nation.dict-malformed.parquet",
    "nested_lists.snappy.parquet",
    "nested_maps.snappy.parquet",
    "nested_structs.rust.parquet",
    "non_hadoop_lz4_compressed.parquet",
    "nonnullable.impala.parquet",
    "null_list.parquet",
    "nullable.impala.parquet",
    "nulls.snappy.parquet",
    "old_list_structure.parquet",
    "overflow_i16_page_cnt.parquet",
    "page_v2_empty_compressed.parquet",
    "plain-dict-uncompressed-checksum.parquet",
    "repeated_no_annotation.parquet",
    "repeated_primitive_no_list.parquet",
    "rle-dict-snappy-checksum.parquet",
    "rle-dict-uncompressed-corrupt-checksum.parquet",
    "rle_boolean_encoding.parquet",
    "single_nan.parquet",
    "sort_columns.parquet",
    "unknown-logical-type.parquet",
};

/* Files cpaimon does not read, with the reason; each must fail with EUNSUPPORTED. */
static const struct {
  const char *dir, *name, *why;
} k_unsupported[] = {
    {"data/aes256", "encrypt_columns_and_footer.parquet.encrypted", "encrypted footer"},
    {"data/aes256", "encrypt_columns_and_footer_ctr.parquet.encrypted", "encrypted footer"},
    {"data/aes256", "encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted",
     "encrypted footer"},
    {"data/aes256", "encrypt_columns_plaintext_footer.parquet.encrypted", "encrypted columns"},
    {"data/aes256", "uniform_encryption.parquet.encrypted", "encrypted footer"},
};

static const char *const k_bad[] = {
    "ARROW-GH-41317.parquet",
    "ARROW-GH-41321.parquet",
    "ARROW-GH-45185.parquet",
    "ARROW-GH-47662.parquet",
    "ARROW-RS-GH-6229-DICTHEADER.parquet",
    "ARROW-RS-GH-6229-LEVELS.parquet",
    "PARQUET-1481.parquet",
};

static cp_fs *g_fs;

static int64_t footer_rows(const char *path) {
  paimon_error err;
  cp_pq_reader *r;
  if (cp_pq_reader_open(&r, g_fs, path, NULL, &err)) return -1;
  int64_t n = cp_pq_reader_selected_rows(r);
  cp_pq_reader_free(r);
  return n;
}

static void test_readable_files(void) {
  for (size_t i = 0; i < sizeof k_readable / sizeof k_readable[0]; i++) {
    const char *path = rt_corpus("data", k_readable[i]);
    int64_t expect = footer_rows(path);
    CHECK(expect >= 0);
    /* Whole batches, and batches of 7 rows that cut through pages and rows everywhere. */
    static const int64_t sizes[] = {0, 7};
    for (size_t s = 0; s < 2; s++) {
      cp_pq_reader_options o = {0};
      o.batch_size = sizes[s];
      paimon_error err = {0};
      int64_t rows = -1;
      int rc = rt_read_all(g_fs, path, &o, &rows, NULL, &err);
      if (rc) fprintf(stderr, "  %s: %s\n", k_readable[i], err.message);
      CHECK_INT(rc, 0);
      CHECK_INT(rows, expect);
    }
  }
}

static bool listed(const char *dir, const char *name) {
  char rel[512];
  for (size_t i = 0; i < sizeof k_readable / sizeof k_readable[0]; i++)
    if (strcmp(dir, "data") == 0 && strcmp(k_readable[i], name) == 0) return true;
  for (size_t i = 0; i < sizeof k_unsupported / sizeof k_unsupported[0]; i++)
    if (strcmp(k_unsupported[i].dir, dir) == 0 && strcmp(k_unsupported[i].name, name) == 0)
      return true;
  for (size_t i = 0; i < sizeof k_bad / sizeof k_bad[0]; i++)
    if (strcmp(dir, "bad_data") == 0 && strcmp(k_bad[i], name) == 0) return true;
  snprintf(rel, sizeof rel, "../bad_data/%s", name);
  for (size_t i = 0; i < sizeof k_readable / sizeof k_readable[0]; i++)
    if (strcmp(dir, "bad_data") == 0 && strcmp(k_readable[i], rel) == 0) return true;
  return false;
}

/* Every Parquet file of the corpus is in exactly one of the lists above, so a file added to the
 * corpus cannot go untested. */
static void test_lists_cover_the_corpus(void) {
  static const char *const dirs[] = {"data", "data/aes256", "bad_data"};
  for (size_t d = 0; d < 3; d++) {
    paimon_error err = {0};
    cp_fs_list_result l;
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/parquet-testing/%s", CPAIMON_TESTDATA_DIR, dirs[d]);
    CHECK_OK(cp_fs_list(g_fs, dir, &l, &err), &err);
    size_t files = 0;
    for (size_t i = 0; i < l.count; i++) {
      const char *n = l.entries[i].name;
      if (l.entries[i].is_dir || !strstr(n, ".parquet")) continue;
      files++;
      if (!listed(dirs[d], n)) fprintf(stderr, "  %s/%s is in no list\n", dirs[d], n);
      CHECK(listed(dirs[d], n));
    }
    CHECK(files > 0);
    cp_fs_list_free(&l);
  }
}

static void test_unsupported_files(void) {
  for (size_t i = 0; i < sizeof k_unsupported / sizeof k_unsupported[0]; i++) {
    paimon_error err = {0};
    int64_t rows;
    int rc = rt_read_all(g_fs, rt_corpus(k_unsupported[i].dir, k_unsupported[i].name), NULL, &rows,
                         NULL, &err);
    if (rc != PAIMON_EUNSUPPORTED)
      fprintf(stderr, "  %s (%s): %s\n", k_unsupported[i].name, k_unsupported[i].why, err.message);
    CHECK_INT(rc, PAIMON_EUNSUPPORTED);
    CHECK_CONTAINS(err.message, k_unsupported[i].name);
  }
}

static void test_bad_files(void) {
  for (size_t i = 0; i < sizeof k_bad / sizeof k_bad[0]; i++) {
    const char *path = rt_corpus("bad_data", k_bad[i]);
    static const int64_t sizes[] = {0, 3};
    for (size_t s = 0; s < 2; s++) {
      cp_pq_reader_options o = {0};
      o.batch_size = sizes[s];
      paimon_error err = {0};
      int64_t rows;
      int rc = rt_read_all(g_fs, path, &o, &rows, NULL, &err);
      if (rc == 0)
        fprintf(stderr, "  %s read without error (%lld rows)\n", k_bad[i], (long long)rows);
      CHECK(rc == PAIMON_ECORRUPT || rc == PAIMON_EUNSUPPORTED || rc == PAIMON_EINVAL);
      CHECK_CONTAINS(err.message, k_bad[i]);
    }
  }
}

/* ---- the decode helper thread ------------------------------------------------------------------
 */

/* Reads `path` with and without the helper thread (decode_threads 1 / 0) and checks that both
 * give the same rows, or the same error. */
static void check_same_with_helper(const char *name, const char *path, int64_t batch_size,
                                   const cp_pq_row_range *ranges, size_t n_ranges) {
  cp_buf out[2] = {CP_BUF_INIT, CP_BUF_INIT};
  paimon_error err[2] = {{0}, {0}};
  int rc[2];
  int64_t rows[2] = {-1, -1};
  for (int t = 0; t < 2; t++) {
    cp_pq_reader_options o = {0};
    o.batch_size = batch_size;
    o.row_ranges = ranges;
    o.num_row_ranges = n_ranges;
    o.decode_threads = t;
    rc[t] = rt_read_all(g_fs, path, &o, &rows[t], &out[t], &err[t]);
  }
  if (rc[0] != rc[1] || rows[0] != rows[1] || out[0].len != out[1].len ||
      (out[0].len && memcmp(out[0].data, out[1].data, out[0].len) != 0) ||
      strcmp(err[0].message, err[1].message) != 0)
    fprintf(stderr, "  %s (batch %lld, %zu ranges): one thread %d \"%s\", two %d \"%s\"\n", name,
            (long long)batch_size, n_ranges, rc[0], err[0].message, rc[1], err[1].message);
  CHECK_INT(rc[1], rc[0]);
  CHECK_INT(rows[1], rows[0]);
  CHECK_INT(out[1].len, out[0].len);
  CHECK(out[0].len == out[1].len &&
        (out[0].len == 0 || memcmp(out[0].data, out[1].data, out[0].len) == 0));
  CHECK_STR(err[1].message, err[0].message);
  cp_buf_free(&out[0]);
  cp_buf_free(&out[1]);
}

/* Every readable file in whole batches, in batches of 7 rows, and through row ranges that skip
 * inside and across row groups; every bad file fails with the same error. */
static void test_decode_helper_same_rows(void) {
  static const cp_pq_row_range ranges[] = {{1, 3}, {5, 6}, {9, 40}, {100, 4000}, {5000, 1 << 30}};
  for (size_t i = 0; i < sizeof k_readable / sizeof k_readable[0]; i++) {
    const char *path = rt_corpus("data", k_readable[i]);
    check_same_with_helper(k_readable[i], path, 0, NULL, 0);
    check_same_with_helper(k_readable[i], path, 7, NULL, 0);
    check_same_with_helper(k_readable[i], path, 0, ranges, sizeof ranges / sizeof ranges[0]);
  }
  for (size_t i = 0; i < sizeof k_bad / sizeof k_bad[0]; i++) {
    const char *path = rt_corpus("bad_data", k_bad[i]);
    check_same_with_helper(k_bad[i], path, 0, NULL, 0);
    check_same_with_helper(k_bad[i], path, 3, NULL, 0);
  }
}

static void test_decode_threads_option(void) {
  cp_pq_reader_options o = {0};
  o.decode_threads = 2;
  cp_pq_reader *r = NULL;
  paimon_error err;
  CHECK_ERR(cp_pq_reader_open(&r, g_fs, rt_corpus("data", "alltypes_plain.parquet"), &o, &err),
            PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "decode_threads 2");
  CHECK(r == NULL);
}

/* ---- values: *_expect.csv -------------------------------------------------------------------
 */

typedef struct csv_cell {
  const char *text;
  size_t len;
  bool quoted;
} csv_cell;

/* Splits RFC 4180 text into rows of cells (in place: quotes are kept in `text`, handled by the
 * comparison, since the corpus has no doubled quotes inside values). */
static size_t csv_parse(char *text, size_t len, csv_cell *cells, size_t cap, size_t *ncols) {
  size_t n = 0, col = 0;
  *ncols = 0;
  for (size_t i = 0; i < len && n < cap;) {
    csv_cell c = {text + i, 0, text[i] == '"'};
    if (c.quoted) {
      size_t j = i + 1;
      while (j < len && text[j] != '"') j++;
      c.text = text + i + 1;
      c.len = j - i - 1;
      i = j + 1;
    } else {
      size_t j = i;
      while (j < len && text[j] != ',' && text[j] != '\n') j++;
      c.len = j - i;
      i = j;
    }
    cells[n++] = c;
    col++;
    if (i >= len || text[i] == '\n') {
      if (*ncols == 0) *ncols = col;
      col = 0;
    }
    i++;
  }
  return n;
}

/* The value of row i of `v` as the expect files write it; false for NULL. */
static bool cell_text(const cp_array_view *v, int64_t i, char *buf, size_t cap, const char **out,
                      size_t *len) {
  if (cp_view_is_null(v, i)) return false;
  if (cp_arrow_type_is_var_binary(v->type.id)) {
    int64_t n;
    *out = (const char *)cp_view_get_bytes(v, i, &n);
    *len = (size_t)n;
  } else {
    *len = (size_t)snprintf(buf, cap, "%lld", (long long)cp_view_get_int64(v, i));
    *out = buf;
  }
  return true;
}

static void check_expect_csv(const char *name, const char *csv_name) {
  paimon_error err = {0};
  cp_buf text = CP_BUF_INIT;
  CHECK_OK(cp_fs_read_file(g_fs, rt_corpus("data", csv_name), &text, 1 << 24, &err), &err);
  size_t cap = 400000, ncols;
  csv_cell *cells = calloc(cap, sizeof *cells);
  size_t n = csv_parse((char *)text.data, text.len, cells, cap, &ncols);
  CHECK(ncols > 0 && n % ncols == 0);
  cp_pq_reader_options o = {0};
  o.batch_size = 37; /* many batches, cutting pages */
  cp_pq_reader *r;
  CHECK_OK(cp_pq_reader_open(&r, g_fs, rt_corpus("data", name), &o, &err), &err);
  struct ArrowSchema schema;
  int64_t row = 0, mismatches = 0;
  for (bool first = true;; first = false) {
    struct ArrowArray batch;
    bool eof;
    CHECK_OK(cp_pq_reader_next(r, &batch, first ? &schema : NULL, &eof, &err), &err);
    if (eof || !batch.release) break;
    cp_array_view v;
    CHECK_OK(cp_array_view_init(&v, &schema, &batch, &err), &err);
    CHECK_INT(v.n_children, (int64_t)ncols);
    for (int64_t i = 0; i < batch.length; i++, row++) {
      for (size_t c = 0; c < ncols && (size_t)(row + 1) * ncols + c < n; c++) {
        const csv_cell *want = &cells[(size_t)(row + 1) * ncols + c];
        char buf[32];
        const char *got;
        size_t len;
        bool present = cell_text(&v.children[c], i, buf, sizeof buf, &got, &len);
        bool want_null = want->len == 0 && !want->quoted;
        bool ok = present ? (!want_null && len == want->len && memcmp(got, want->text, len) == 0)
                          : want_null;
        if (!ok && mismatches++ < 5)
          fprintf(stderr, "  %s row %lld column %zu: got %.*s, want %.*s\n", name, (long long)row,
                  c, present ? (int)len : 4, present ? got : "NULL", (int)want->len, want->text);
      }
    }
    cp_array_view_reset(&v);
    cp_array_release(&batch);
  }
  CHECK_INT(mismatches, 0);
  CHECK_INT(row, (int64_t)(n / ncols) - 1);
  cp_schema_release(&schema);
  cp_pq_reader_free(r);
  free(cells);
  cp_buf_free(&text);
}

static void test_expect_csv(void) {
  check_expect_csv("delta_binary_packed.parquet", "delta_binary_packed_expect.csv");
  check_expect_csv("delta_byte_array.parquet", "delta_byte_array_expect.csv");
  check_expect_csv("delta_encoding_optional_column.parquet",
                   "delta_encoding_optional_column_expect.csv");
  check_expect_csv("delta_encoding_required_column.parquet",
                   "delta_encoding_required_column_expect.csv");
}

/* ---- values: documented in the corpus (.md files, README) ------------------------------------
 */

static void check_jsonl(const char *name, const char *want) {
  paimon_error err = {0};
  cp_buf out = CP_BUF_INIT;
  int64_t rows;
  CHECK_OK(rt_read_all(g_fs, rt_corpus("data", name), NULL, &rows, &out, &err), &err);
  CHECK_OK(cp_buf_nul_terminate(&out, &err), &err);
  CHECK_STR((const char *)out.data, want);
  cp_buf_free(&out);
}

static void test_documented_values(void) {
  /* old_list_structure.md: LIST<LIST<INT32>> in the legacy two-level form, [[1, 2], [3, 4]]. */
  check_jsonl("old_list_structure.parquet", "{\"a\":[[1,2],[3,4]]}\n");
  /* README: one row, a NULL FLOAT in a v2 page whose empty values section must not be fed to
   * snappy. */
  check_jsonl("datapage_v2_empty_datapage.snappy.parquet", "{\"value\":null}\n");
  /* README (arrow GH-41764): an unknown logical type reads by its physical type (DuckDB agrees:
   * b'unknown string 1', ...; binary prints as base64). */
  check_jsonl("unknown-logical-type.parquet",
              "{\"column with known type\":\"known string 1\",\"column with unknown type\":"
              "\"dW5rbm93biBzdHJpbmcgMQ==\"}\n"
              "{\"column with known type\":\"known string 2\",\"column with unknown type\":"
              "\"dW5rbm93biBzdHJpbmcgMg==\"}\n"
              "{\"column with known type\":\"known string 3\",\"column with unknown type\":"
              "\"dW5rbm93biBzdHJpbmcgMw==\"}\n");
  /* README: a map whose key is not marked REQUIRED (Presto); DuckDB reads the same entries. */
  check_jsonl("incorrect_map_schema.parquet",
              "{\"my_map\":{\"parent\":\"another\",\"name\":\"report\"}}\n");

  /* int96_from_spark.md: the instants as microseconds; the last is outside the int64 nanosecond
   * range, so it is read into TIMESTAMP(6) (microseconds) where it fits. */
  static const int64_t micros[] = {
      1704141296123456,   1704070800000000, 253402225200000000, 1735599600000000, 0,
      9089380393200000000};
  paimon_error err = {0};
  cp_type *ts;
  CHECK_OK(cp_type_new_precision(&ts, CP_TYPE_TIMESTAMP, 6, true, &err), &err);
  cp_pq_column_request rq = {"a", 0, ts, NULL, false};
  cp_pq_reader_options o = {0};
  o.columns = &rq;
  o.num_columns = 1;
  cp_pq_reader *r;
  CHECK_OK(cp_pq_reader_open(&r, g_fs, rt_corpus("data", "int96_from_spark.parquet"), &o, &err),
           &err);
  struct ArrowSchema schema;
  struct ArrowArray batch;
  bool eof;
  CHECK_OK(cp_pq_reader_next(r, &batch, &schema, &eof, &err), &err);
  CHECK_STR(schema.children[0]->format, "tsu:");
  cp_array_view v;
  CHECK_OK(cp_array_view_init(&v, &schema, &batch, &err), &err);
  CHECK_INT(v.length, 6);
  for (int64_t i = 0; i < 6 && i < v.length; i++) {
    CHECK(cp_view_is_null(&v.children[0], i) == (i == 4));
    if (i != 4) CHECK_INT(cp_view_get_int64(&v.children[0], i), micros[i]);
  }
  cp_array_view_reset(&v);
  cp_array_release(&batch);
  cp_schema_release(&schema);
  cp_pq_reader_free(r);
  cp_type_free(ts);
}

/* ---- dump mode ---------------------------------------------------------------------------------
 */

static int dump(const char *path, const char *batch) {
  paimon_error err = {0};
  cp_pq_reader_options o = {0};
  o.batch_size = batch ? atoll(batch) : 0;
  cp_buf out = CP_BUF_INIT;
  int64_t rows;
  int rc = rt_read_all(g_fs, path, &o, &rows, &out, &err);
  if (rc) {
    fprintf(stderr, "%s: %s\n", paimon_status_name(rc), err.message);
  } else {
    fwrite(out.data, 1, out.len, stdout);
  }
  cp_buf_free(&out);
  return rc ? 1 : 0;
}

static int count(const char *path, int ncols, char **cols) {
  paimon_error err = {0};
  cp_pq_column_request rq[64];
  cp_pq_reader_options o = {0};
  for (int i = 0; i < ncols && i < 64; i++)
    rq[i] = (cp_pq_column_request){cols[i], 0, NULL, NULL, false};
  o.columns = ncols ? rq : NULL;
  o.num_columns = (size_t)(ncols < 64 ? ncols : 64);
  cp_pq_reader *r = NULL;
  int rc = cp_pq_reader_open(&r, g_fs, path, &o, &err);
  int64_t rows = 0;
  while (rc == 0) {
    struct ArrowArray batch;
    bool eof;
    rc = cp_pq_reader_next(r, &batch, NULL, &eof, &err);
    if (rc || eof) break;
    rows += batch.length;
    cp_array_release(&batch);
  }
  cp_pq_reader_free(r);
  if (rc)
    fprintf(stderr, "%s: %s\n", paimon_status_name(rc), err.message);
  else
    printf("%lld\n", (long long)rows);
  return rc ? 1 : 0;
}

int main(int argc, char **argv) {
  paimon_error err;
  if (cp_fs_local_new(&g_fs, &err)) return 2;
  if (argc >= 3 && strcmp(argv[1], "count") == 0) {
    int rc = count(argv[2], argc - 3, argv + 3);
    cp_fs_free(g_fs);
    return rc;
  }
  if (argc >= 3 && strcmp(argv[1], "dump") == 0) {
    int rc = dump(argv[2], argc > 3 ? argv[3] : NULL);
    cp_fs_free(g_fs);
    return rc;
  }
  RUN(test_lists_cover_the_corpus);
  RUN(test_readable_files);
  RUN(test_expect_csv);
  RUN(test_documented_values);
  RUN(test_unsupported_files);
  RUN(test_bad_files);
  RUN(test_decode_helper_same_rows);
  RUN(test_decode_threads_option);
  cp_fs_free(g_fs);
  TEST_MAIN_END();
}
