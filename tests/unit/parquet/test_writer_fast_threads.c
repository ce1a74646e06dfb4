/*
 * Tests for compress_threads (writer.h, writer_pool.c; spec/parquet.md §2.4, §2.8): the same
 * batches written with 0, 1, 2 and 4 compression threads, for every compressing codec, give
 * byte-identical files, and the size estimate after every batch is the same number whatever the
 * thread count (a table rolls files on it). The data has a streaming first column, columns whose
 * dictionary is kept, given up or falls back mid-chunk, a list column, tiny pages (many pages in
 * flight) and several row groups. A write failing while pages are in flight fails the writer
 * cleanly, and freeing it joins its threads; out-of-range thread counts are refused.
 */
#include "test_writer_util.h"

static const char *k_row = "ROW<id BIGINT NOT NULL, s STRING, d DOUBLE, e ARRAY<FLOAT>, k INT>";

static void fill(tw_batch *t, int64_t row0, int64_t n) {
  paimon_error err;
  char s[64];
  cp_builder *e = tw_col(t, 3);
  for (int64_t i = 0; i < n; i++) {
    const int64_t r = row0 + i;
    CHECK_OK(cp_builder_append_int64(tw_col(t, 0), r * 7919, &err), &err);
    snprintf(s, sizeof s, "value %lld", (long long)(r < 3000 ? r % 13 : r));
    CHECK_OK(cp_builder_append_str(tw_col(t, 1), s, &err), &err);
    if (r % 11 == 0)
      CHECK_OK(cp_builder_append_null(tw_col(t, 2), &err), &err);
    else
      CHECK_OK(cp_builder_append_double(tw_col(t, 2), (double)(r % 500) * 0.5, &err), &err);
    for (int64_t k = 0; k < r % 5; k++)
      CHECK_OK(cp_builder_append_double(cp_builder_child(e, 0), (double)(r + k), &err), &err);
    CHECK_OK(cp_builder_end_element(e, &err), &err);
    CHECK_OK(cp_builder_append_int64(tw_col(t, 4), r % 3, &err), &err);
  }
}

/* Writes 6 batches with `threads`; returns the file bytes and the estimates after each batch. */
static void write_with(cp_codec codec, int threads, cp_buf *bytes, uint64_t *estimates) {
  paimon_error err;
  cp_type *row = tw_type(k_row);
  cp_pq_writer_options o;
  cp_pq_writer_options_init(&o);
  o.codec = codec;
  o.compress_threads = threads;
  o.page_size = 2048;
  o.page_row_limit = 700;
  o.dictionary_page_limit = 4000;
  o.row_group_rows = 5000;
  tw_file tf;
  CHECK_OK(tw_open(&tf, "threads", row, &o, &err), &err);
  if (tf.w) {
    for (int b = 0; b < 6; b++) {
      tw_batch t;
      tw_batch_init(&t, row);
      fill(&t, b * 2100, 2100);
      tw_batch_finish(&t);
      CHECK_OK(cp_pq_writer_write(tf.w, &t.schema, &t.array, &err), &err);
      tw_batch_free(&t);
      estimates[b] = cp_pq_writer_estimated_size(tf.w);
    }
    cp_pq_file_stats st;
    CHECK_OK(tw_close(&tf, &st, &err), &err);
    CHECK_INT(st.num_row_groups, 3);
    CHECK_OK(cp_fs_read_file(tw_fs, tf.path, bytes, (size_t)1 << 30, &err), &err);
  }
  tw_free(&tf);
  cp_type_free(row);
}

static void test_same_bytes_any_thread_count(void) {
  const cp_codec codecs[] = {CP_CODEC_ZSTD, CP_CODEC_GZIP, CP_CODEC_SNAPPY, CP_CODEC_LZ4_RAW};
  const int threads[] = {1, 2, 4};
  for (size_t c = 0; c < sizeof codecs / sizeof codecs[0]; c++) {
    cp_buf ref = CP_BUF_INIT;
    uint64_t ref_est[6] = {0};
    write_with(codecs[c], 0, &ref, ref_est);
    CHECK(ref.len > 1000);
    for (size_t t = 0; t < sizeof threads / sizeof threads[0]; t++) {
      cp_buf got = CP_BUF_INIT;
      uint64_t est[6] = {0};
      write_with(codecs[c], threads[t], &got, est);
      CHECK(got.len == ref.len && memcmp(got.data, ref.data, ref.len) == 0);
      CHECK(memcmp(est, ref_est, sizeof est) == 0);
      cp_buf_free(&got);
    }
    /* And the file reads back: every chunk decodes, values in place. */
    paimon_error err;
    const char *path = tw_new_path("threads_check");
    CHECK_OK(cp_fs_write_file(tw_fs, path, ref.data, ref.len, CP_CREATE_OVERWRITE, false, &err),
             &err);
    tw_read r;
    CHECK_OK(tw_read_file(&r, path, &err), &err);
    if (r.ft.meta.schema) {
      for (uint32_t g = 0; g < r.ft.meta.num_row_groups; g++)
        for (int col = 0; col < 5; col++) {
          tw_chunk k;
          CHECK_OK(tw_decode_chunk(&r, (int)g, col, &k, &err), &err);
          if (col == 0 && g == 1) CHECK(k.n_values == 5000 && tw_int(&k, 8, 3) == 5003 * 7919);
          tw_chunk_free(&k);
        }
      tw_read_free(&r);
    }
    cp_fs_delete(tw_fs, path, NULL);
    cp_buf_free(&ref);
  }
}

static void test_bad_thread_counts(void) {
  paimon_error err;
  cp_type *row = tw_type("ROW<a INT>");
  const int bad[] = {-1, 65};
  for (int i = 0; i < 2; i++) {
    cp_pq_writer_options o;
    cp_pq_writer_options_init(&o);
    o.compress_threads = bad[i];
    tw_file tf;
    CHECK_ERR(tw_open(&tf, "bad_threads", row, &o, &err), PAIMON_EINVAL);
    CHECK_CONTAINS(err.message, "compress_threads");
    tw_free(&tf);
  }
  cp_type_free(row);
}

/* Every write failing in turn while threads compress: the writer fails with EIO, refuses the
 * rest, and is freed with pages possibly still in flight. */
static void test_faults_with_threads(void) {
  cp_type *row = tw_type(k_row);
  int failures = 0, nth;
  for (nth = 1; nth < 200; nth++) {
    paimon_error err;
    cp_pq_writer_options o;
    cp_pq_writer_options_init(&o);
    o.compress_threads = 2;
    o.page_size = 2048;
    o.row_group_rows = 3000;
    tw_file tf;
    cp_fs_inject_fault(tw_fs, CP_FS_OP_WRITE, nth, PAIMON_EIO);
    int rc = tw_open(&tf, "fault_threads", row, &o, &err);
    for (int b = 0; rc == 0 && b < 3; b++) {
      tw_batch t;
      tw_batch_init(&t, row);
      fill(&t, b * 2000, 2000);
      tw_batch_finish(&t);
      rc = cp_pq_writer_write(tf.w, &t.schema, &t.array, &err);
      if (rc) CHECK_ERR(cp_pq_writer_write(tf.w, &t.schema, &t.array, &err), PAIMON_ESTATE);
      tw_batch_free(&t);
    }
    if (rc == 0) rc = cp_pq_writer_close(tf.w, NULL, &err);
    cp_fs_inject_fault(tw_fs, CP_FS_OP_WRITE, 0, 0);
    tw_free(&tf);
    if (rc == 0) break;
    CHECK_INT(rc, PAIMON_EIO);
    failures++;
  }
  CHECK(failures >= 10);
  CHECK(nth < 200);
  cp_type_free(row);
}

int main(void) {
  paimon_error err;
  if (cp_fs_local_new(&tw_fs, &err) != 0) return 1;
  RUN(test_same_bytes_any_thread_count);
  RUN(test_bad_thread_counts);
  RUN(test_faults_with_threads);
  cp_fs_free(tw_fs);
  TEST_MAIN_END();
}
