/*
 * Tests of the dictionary builder and gathers (encoding_dict.c), and of a whole dictionary-encoded
 * column chunk's values as the writer and reader will use them (builder → PLAIN dictionary page +
 * RLE_DICTIONARY indices → decode → gather). Expected dictionaries are computed independently in
 * the test (first-seen order by linear search).
 */
#include "format/parquet/encoding.h"
#include "test_encoding_util.h"

static void test_fixed_basics(void) {
  paimon_error err;
  cp_pq_dict_builder *b;
  CHECK_OK(cp_pq_dict_builder_new(&b, 4, &err), &err);
  int32_t v[7] = {7, -1, 7, 7, 0, -1, 5}, idx[7];
  CHECK_OK(cp_pq_dict_builder_put_fixed(b, idx, v, 7, &err), &err);
  const int32_t want_idx[7] = {0, 1, 0, 0, 2, 1, 3};
  CHECK_MEM(idx, want_idx, sizeof idx);
  CHECK_INT(cp_pq_dict_builder_count(b), 4);
  CHECK_INT(cp_pq_dict_builder_plain_size(b), 16);
  cp_buf page = CP_BUF_INIT;
  CHECK_OK(cp_pq_dict_builder_write_plain(b, &page, &err), &err);
  CHECK_HEX(page.data, page.len, "07000000 ffffffff 00000000 05000000");
  CHECK_MEM(cp_pq_dict_builder_fixed_values(b), page.data, 16);
  CHECK(cp_pq_dict_builder_binary_offsets(b) == NULL);
  CHECK_ERR(cp_pq_dict_builder_put_binary(b, idx, NULL, NULL, 0, &err), PAIMON_EINVAL);
  /* Reset starts a new chunk: indices restart at 0. */
  cp_pq_dict_builder_reset(b);
  CHECK_INT(cp_pq_dict_builder_count(b), 0);
  CHECK_OK(cp_pq_dict_builder_put_fixed(b, idx, v + 6, 1, &err), &err);
  CHECK_INT(idx[0], 0);
  CHECK_INT(cp_pq_dict_builder_plain_size(b), 4);
  cp_pq_dict_builder_free(b);
  cp_buf_free(&page);

  /* Doubles compare bit for bit: -0.0 and 0.0 are different entries, equal NaNs one entry. */
  CHECK_OK(cp_pq_dict_builder_new(&b, 8, &err), &err);
  double d[5] = {0.0, -0.0, 0.0, 1.5, 0.0};
  uint64_t nan_bits = 0x7ff8000000000001ULL;
  memcpy(&d[4], &nan_bits, 8);
  int32_t di[5];
  CHECK_OK(cp_pq_dict_builder_put_fixed(b, di, d, 5, &err), &err);
  CHECK_INT(di[1], 1);
  CHECK_INT(di[2], 0);
  CHECK_INT(di[4], 3);
  CHECK_OK(cp_pq_dict_builder_put_fixed(b, di, d + 4, 1, &err), &err);
  CHECK_INT(di[0], 3);
  cp_pq_dict_builder_free(b);
}

static void test_binary_basics(void) {
  paimon_error err;
  cp_pq_dict_builder *b;
  CHECK_OK(cp_pq_dict_builder_new(&b, 0, &err), &err);
  const uint8_t data[] = "abcabab";
  int32_t offs[6] = {0, 3, 3, 6, 6, 7}; /* "abc", "", "aba", "", "b" */
  int32_t idx[5];
  CHECK_OK(cp_pq_dict_builder_put_binary(b, idx, offs, data, 5, &err), &err);
  const int32_t want[5] = {0, 1, 2, 1, 3};
  CHECK_MEM(idx, want, sizeof want);
  CHECK_INT(cp_pq_dict_builder_plain_size(b), 4 * 4 + 7);
  cp_buf page = CP_BUF_INIT;
  CHECK_OK(cp_pq_dict_builder_write_plain(b, &page, &err), &err);
  CHECK_HEX(page.data, page.len, "03000000 616263 00000000 03000000 616261 01000000 62");
  const int32_t *doff = cp_pq_dict_builder_binary_offsets(b);
  CHECK_INT(doff[0], 0);
  CHECK_INT(doff[4], 7);
  CHECK(memcmp(cp_pq_dict_builder_binary_data(b),
               "abcaba"
               "b",
               7) == 0);
  CHECK_ERR(cp_pq_dict_builder_put_fixed(b, idx, data, 1, &err), PAIMON_EINVAL);
  int32_t neg[2] = {3, 1};
  CHECK_ERR(cp_pq_dict_builder_put_binary(b, idx, neg, data, 1, &err), PAIMON_EINVAL);
  cp_pq_dict_builder_free(b);
  cp_buf_free(&page);
}

/* Writer → reader for a chunk of many values with few distinct ones, for each kind of value:
 * the decoded dictionary page gathered through the decoded indices gives the input back. */
static void chunk_round_trip(size_t width, size_t n, size_t distinct, test_rng *r) {
  paimon_error err;
  cp_pq_dict_builder *b;
  CHECK_OK(cp_pq_dict_builder_new(&b, width, &err), &err);
  size_t vw = width ? width : 9; /* byte arrays: up to 9 bytes from a pool */
  uint8_t *pool = xmalloc(distinct * vw);
  for (size_t i = 0; i < distinct * vw; i++) pool[i] = (uint8_t)rng_next(r);
  uint8_t *vals = xmalloc(n * vw);
  int32_t *offs = xmalloc((n + 1) * sizeof *offs), *idx = xmalloc(n * sizeof *idx);
  size_t pos = 0;
  offs[0] = 0;
  for (size_t i = 0; i < n; i++) {
    size_t k = rng_below(r, distinct), l = width ? width : k % vw; /* lengths 0..8 */
    memcpy(vals + pos, pool + k * vw, l);
    pos += l;
    offs[i + 1] = (int32_t)pos;
  }
  CHECK_OK(width ? cp_pq_dict_builder_put_fixed(b, idx, vals, n, &err)
                 : cp_pq_dict_builder_put_binary(b, idx, offs, vals, n, &err),
           &err);
  size_t count = cp_pq_dict_builder_count(b);
  CHECK(count <= distinct);
  /* The gathers below check that every value equals its entry; count <= distinct that the
   * entries do not repeat a value of the pool. */
  cp_buf page = CP_BUF_INIT, ids = CP_BUF_INIT;
  CHECK_OK(cp_pq_dict_builder_write_plain(b, &page, &err), &err);
  CHECK_INT(page.len, cp_pq_dict_builder_plain_size(b));
  CHECK_OK(cp_pq_dict_indices_encode(&ids, idx, n, count, &err), &err);
  /* Reader side. */
  cp_pq_rle_decoder d;
  int32_t *idx2 = xmalloc(n * sizeof *idx2), *o2 = xmalloc((n + 1) * sizeof *o2);
  CHECK_OK(cp_pq_dict_indices_init(&d, ids.data, ids.len, &err), &err);
  CHECK_OK(cp_pq_dict_indices_decode(&d, idx2, n, count, &err), &err);
  CHECK_MEM(idx2, idx, n * sizeof *idx);
  uint8_t *out = xmalloc(n * vw);
  if (width) {
    uint8_t *dict = xmalloc(count * width);
    size_t used = 0;
    CHECK_OK(cp_pq_plain_decode_fixed(dict, count, &used, page.data, page.len, width, &err), &err);
    CHECK_OK(cp_pq_dict_gather_fixed(out, idx2, n, dict, count, width, &err), &err);
    CHECK_MEM(out, vals, n * width);
    free(dict);
  } else {
    int32_t *doffs = xmalloc((count + 1) * sizeof *doffs);
    cp_buf dd = CP_BUF_INIT, gv = CP_BUF_INIT;
    size_t used = 0;
    CHECK_OK(cp_pq_plain_decode_binary(doffs, &dd, count, &used, page.data, page.len, &err), &err);
    CHECK_OK(cp_pq_dict_gather_binary(o2, &gv, idx2, n, doffs, dd.data, count, &err), &err);
    CHECK_MEM(o2, offs, (n + 1) * sizeof *offs);
    if (pos) CHECK_MEM(gv.data, vals, pos);
    cp_buf_free(&dd);
    cp_buf_free(&gv);
    free(doffs);
  }
  free(out);
  free(idx2);
  free(o2);
  cp_buf_free(&page);
  cp_buf_free(&ids);
  free(pool);
  free(vals);
  free(offs);
  free(idx);
  cp_pq_dict_builder_free(b);
}

static void test_chunk_round_trips(void) {
  test_rng r = {17};
  const size_t widths[] = {0, 4, 8, 12, 3, 16};
  for (size_t wi = 0; wi < sizeof widths / sizeof widths[0]; wi++) {
    chunk_round_trip(widths[wi], 0, 1, &r);
    chunk_round_trip(widths[wi], 1, 1, &r);
    chunk_round_trip(widths[wi], 129, 1, &r);
    chunk_round_trip(widths[wi], 1000, 7, &r);
    chunk_round_trip(widths[wi], 100000, 5000, &r); /* grows the hash table several times */
  }
}

/* Distinct values grow the PLAIN size exactly: the number the writer checks against 1 MiB. */
static void test_plain_size_for_fallback(void) {
  paimon_error err;
  cp_pq_dict_builder *b;
  CHECK_OK(cp_pq_dict_builder_new(&b, 8, &err), &err);
  size_t crossed_at = 0;
  int rc = 0;
  for (int64_t i = 0; i < 200000 && !crossed_at && rc == 0; i++) {
    int32_t idx;
    int64_t v = i * 1000003;
    rc = cp_pq_dict_builder_put_fixed(b, &idx, &v, 1, &err);
    if (cp_pq_dict_builder_plain_size(b) > CP_PQ_DICT_PAGE_LIMIT_DEFAULT) crossed_at = (size_t)i;
  }
  CHECK_INT(rc, 0);
  CHECK_INT(crossed_at, 1024 * 1024 / 8); /* the 131073rd distinct INT64 passes 1 MiB */
  cp_pq_dict_builder_free(b);
}

static void test_gather_errors(void) {
  paimon_error err;
  int32_t dict[3] = {10, 20, 30}, out[4];
  int32_t idx[4] = {0, 2, 3, 1};
  CHECK_ERR(cp_pq_dict_gather_fixed(out, idx, 4, dict, 3, 4, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "index 3 at position 2 is out of range for a dictionary of 3");
  idx[2] = -1;
  CHECK_ERR(cp_pq_dict_gather_fixed(out, idx, 4, dict, 3, 4, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "index -1 at position 2");
  idx[2] = 1;
  CHECK_OK(cp_pq_dict_gather_fixed(out, idx, 4, dict, 3, 4, &err), &err);
  CHECK_INT(out[1], 30);
  int32_t doff[2] = {0, 1}, offs[5];
  cp_buf v = CP_BUF_INIT;
  CHECK_ERR(cp_pq_dict_gather_binary(offs, &v, idx, 4, doff, (const uint8_t *)"x", 1, &err),
            PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "index 2 at position 1");
  cp_buf_free(&v);
}

int main(void) {
  RUN(test_fixed_basics);
  RUN(test_binary_basics);
  RUN(test_chunk_round_trips);
  RUN(test_plain_size_for_fallback);
  RUN(test_gather_errors);
  TEST_MAIN_END();
}
