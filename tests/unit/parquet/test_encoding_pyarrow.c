/*
 * Cross-check against pyarrow: pages written by pyarrow (raw payloads in encoding_vectors.h, made
 * by gen_encoding_vectors.py from values it also records) decode to the original values. Where the
 * encoding leaves the writer no choice — INT32 DELTA_* with 128-value blocks of 4 miniblocks (our
 * layout and Arrow's for INT32), BYTE_STREAM_SPLIT, PLAIN, the dictionary page — our encoders must
 * also reproduce pyarrow's bytes exactly.
 */
#include "encoding_vectors.h"
#include "format/parquet/encoding.h"
#include "test_encoding_util.h"

static void test_delta_binary_packed(void) {
  paimon_error err;
  cp_pq_delta_decoder d;
  int32_t o32[V_DBP32_NUM_VALUES];
  int64_t o64[V_DBP64_NUM_VALUES];
  size_t end = 0;
  CHECK_INT(V_DBP32_ENCODING, 5);
  CHECK_OK(cp_pq_delta_decoder_init(&d, v_dbp32_page, V_DBP32_PAGE_LEN, 32, "x", &err), &err);
  CHECK_OK(cp_pq_delta_decode_i32(&d, o32, V_DBP32_NUM_VALUES, &err), &err);
  CHECK_MEM(o32, v_dbp32_values, sizeof o32);
  CHECK_OK(cp_pq_delta_decoder_end(&d, &end, &err), &err);
  CHECK_INT(end, V_DBP32_PAGE_LEN);
  CHECK_OK(cp_pq_delta_decoder_init(&d, v_dbp64_page, V_DBP64_PAGE_LEN, 64, "x", &err), &err);
  CHECK_OK(cp_pq_delta_decode_i64(&d, o64, V_DBP64_NUM_VALUES, &err), &err);
  CHECK_MEM(o64, v_dbp64_values, sizeof o64);
  cp_buf b = CP_BUF_INIT;
  CHECK_OK(cp_pq_delta_encode_i32(&b, v_dbp32_values, V_DBP32_NUM_VALUES, &err), &err);
  CHECK_INT(b.len, V_DBP32_PAGE_LEN);
  CHECK_MEM(b.data, v_dbp32_page, V_DBP32_PAGE_LEN);
  /* For INT64 pyarrow 19 picks 256-value blocks (4 miniblocks of 64) where we, like
   * parquet-java, use 128: the header says so, and our bytes decode to the same values. */
  CHECK_HEX(v_dbp64_page, 3, "80 02 04");
  b.len = 0;
  CHECK_OK(cp_pq_delta_encode_i64(&b, v_dbp64_values, V_DBP64_NUM_VALUES, &err), &err);
  CHECK_OK(cp_pq_delta_decoder_init(&d, b.data, b.len, 64, "x", &err), &err);
  CHECK_OK(cp_pq_delta_decode_i64(&d, o64, V_DBP64_NUM_VALUES, &err), &err);
  CHECK_MEM(o64, v_dbp64_values, sizeof o64);
  cp_buf_free(&b);
}

/* An optional INT64 column: def levels (v1 with a length prefix, v2 raw with the header's length)
 * then DELTA values for the non-null entries only. */
static void check_optional_page(const uint8_t *page, size_t len, int v2, size_t def_len) {
  paimon_error err;
  int16_t def[V_OPT64_ROWS];
  size_t used = 0;
  if (v2) {
    CHECK_OK(cp_pq_levels_decode(def, V_OPT64_ROWS, &used, page, def_len, 1, 0, "def", &err), &err);
  } else {
    CHECK_OK(cp_pq_levels_decode(def, V_OPT64_ROWS, &used, page, len, 1, 1, "def", &err), &err);
  }
  size_t bad = 0;
  for (size_t i = 0; i < V_OPT64_ROWS; i++) bad += (uint8_t)def[i] != v_opt64_valid[i];
  CHECK_INT(bad, 0);
  size_t nonnull = cp_pq_count_level(def, V_OPT64_ROWS, 1);
  CHECK_INT(nonnull, sizeof v_opt64_values / sizeof v_opt64_values[0]);
  cp_pq_delta_decoder d;
  int64_t vals[V_OPT64_ROWS];
  CHECK_OK(cp_pq_delta_decoder_init(&d, page + used, len - used, 64, "x", &err), &err);
  CHECK_INT(cp_pq_delta_decoder_total(&d), nonnull);
  CHECK_OK(cp_pq_delta_decode_i64(&d, vals, nonnull, &err), &err);
  CHECK_MEM(vals, v_opt64_values, nonnull * sizeof *vals);
}

static void test_optional_levels(void) {
  check_optional_page(v_opt64_v1_page, V_OPT64_V1_PAGE_LEN, 0, 0);
  check_optional_page(v_opt64_v2_page, V_OPT64_V2_PAGE_LEN, 1, V_OPT64_V2_DEF_LEN);
  CHECK_INT(V_OPT64_V2_REP_LEN, 0);
  CHECK_INT(V_OPT64_V2_NUM_NULLS, V_OPT64_ROWS - sizeof v_opt64_values / sizeof v_opt64_values[0]);
}

static void test_delta_byte_arrays(void) {
  paimon_error err;
  int32_t offs[V_STRS_COUNT + 1];
  cp_buf vals = CP_BUF_INIT, b = CP_BUF_INIT;
  CHECK_OK(cp_pq_dlba_decode(offs, &vals, V_STRS_COUNT, v_dlba_page, V_DLBA_PAGE_LEN, &err), &err);
  CHECK_MEM(offs, v_strs_offsets, sizeof offs);
  CHECK_INT(vals.len, V_STRS_DATA_LEN);
  CHECK_MEM(vals.data, v_strs_data, V_STRS_DATA_LEN);
  vals.len = 0;
  CHECK_OK(cp_pq_dba_decode(offs, &vals, V_STRS_COUNT, v_dba_page, V_DBA_PAGE_LEN, 0, &err), &err);
  CHECK_MEM(offs, v_strs_offsets, sizeof offs);
  CHECK_MEM(vals.data, v_strs_data, V_STRS_DATA_LEN);
  CHECK_OK(cp_pq_dlba_encode(&b, v_strs_offsets, v_strs_data, V_STRS_COUNT, &err), &err);
  CHECK_INT(b.len, V_DLBA_PAGE_LEN);
  CHECK_MEM(b.data, v_dlba_page, V_DLBA_PAGE_LEN);
  b.len = 0;
  CHECK_OK(cp_pq_dba_encode(&b, v_strs_offsets, v_strs_data, V_STRS_COUNT, &err), &err);
  CHECK_INT(b.len, V_DBA_PAGE_LEN);
  CHECK_MEM(b.data, v_dba_page, V_DBA_PAGE_LEN);
  /* FIXED_LEN_BYTE_ARRAY(5) through DELTA_BYTE_ARRAY. */
  int32_t foffs[V_FLBA_COUNT + 1];
  uint8_t fixed[V_FLBA_VALUES_LEN];
  vals.len = 0;
  CHECK_OK(
      cp_pq_dba_decode(foffs, &vals, V_FLBA_COUNT, v_flba_dba_page, V_FLBA_DBA_PAGE_LEN, 0, &err),
      &err);
  CHECK_OK(cp_pq_binary_to_fixed(fixed, foffs, vals.data, V_FLBA_COUNT, 5, &err), &err);
  CHECK_MEM(fixed, v_flba_values, V_FLBA_VALUES_LEN);
  cp_buf_free(&vals);
  cp_buf_free(&b);
}

static void check_bss(const uint8_t *page, size_t len, const uint8_t *want, size_t width) {
  paimon_error err;
  uint8_t out[4096];
  CHECK_OK(cp_pq_bss_decode(out, len / width, page, len, width, 0, &err), &err);
  CHECK_MEM(out, want, len);
  cp_buf b = CP_BUF_INIT;
  CHECK_OK(cp_pq_bss_encode(&b, want, len / width, width, &err), &err);
  CHECK_INT(b.len, len);
  CHECK_MEM(b.data, page, len);
  cp_buf_free(&b);
}

static void test_byte_stream_split(void) {
  CHECK_INT(V_BSS_FLOAT_ENCODING, 9);
  check_bss(v_bss_float_page, V_BSS_FLOAT_PAGE_LEN, v_bss_float_values, 4);
  check_bss(v_bss_double_page, V_BSS_DOUBLE_PAGE_LEN, v_bss_double_values, 8);
  check_bss(v_bss_int32_page, V_BSS_INT32_PAGE_LEN, v_bss_int32_values, 4);
  check_bss(v_bss_int64_page, V_BSS_INT64_PAGE_LEN, v_bss_int64_values, 8);
  check_bss(v_bss_flba3_page, V_BSS_FLBA3_PAGE_LEN, v_bss_flba3_values, 3);
}

static void test_rle_booleans_v2(void) {
  paimon_error err;
  int16_t def[V_RLEBOOL_ROWS];
  size_t used = 0;
  CHECK_INT(V_RLEBOOL_ENCODING, 3);
  CHECK_OK(cp_pq_levels_decode(def, V_RLEBOOL_ROWS, &used, v_rlebool_page, V_RLEBOOL_DEF_LEN, 1, 0,
                               "def", &err),
           &err);
  size_t bad = 0;
  for (size_t i = 0; i < V_RLEBOOL_ROWS; i++) bad += (uint8_t)def[i] != v_rlebool_valid[i];
  CHECK_INT(bad, 0);
  size_t nonnull = cp_pq_count_level(def, V_RLEBOOL_ROWS, 1);
  CHECK_INT(nonnull, V_RLEBOOL_ROWS - V_RLEBOOL_NUM_NULLS);
  uint8_t vals[V_RLEBOOL_ROWS];
  CHECK_OK(cp_pq_rle_bool_decode(vals, nonnull, &used, v_rlebool_page + V_RLEBOOL_DEF_LEN,
                                 V_RLEBOOL_PAGE_LEN - V_RLEBOOL_DEF_LEN, &err),
           &err);
  CHECK_INT(used, V_RLEBOOL_PAGE_LEN - V_RLEBOOL_DEF_LEN);
  CHECK_MEM(vals, v_rlebool_values, nonnull);
}

static void test_dictionary_pages(void) {
  paimon_error err;
  CHECK_INT(V_DICT_STR_DICT_ENCODING, 0);
  CHECK_INT(V_DICT_STR_DATA_ENCODING, 8);
  int32_t doffs[V_DICT_STR_DICT_NUM_VALUES + 1], idx[V_DICT_STRS_COUNT];
  int32_t offs[V_DICT_STRS_COUNT + 1];
  cp_buf dict = CP_BUF_INIT, vals = CP_BUF_INIT;
  size_t used = 0;
  CHECK_OK(cp_pq_plain_decode_binary(doffs, &dict, V_DICT_STR_DICT_NUM_VALUES, &used,
                                     v_dict_str_dict_page, V_DICT_STR_DICT_PAGE_LEN, &err),
           &err);
  CHECK_INT(used, V_DICT_STR_DICT_PAGE_LEN);
  cp_pq_rle_decoder d;
  CHECK_OK(cp_pq_dict_indices_init(&d, v_dict_str_data_page, V_DICT_STR_DATA_PAGE_LEN, &err), &err);
  CHECK_OK(cp_pq_dict_indices_decode(&d, idx, V_DICT_STRS_COUNT, V_DICT_STR_DICT_NUM_VALUES, &err),
           &err);
  CHECK_OK(cp_pq_dict_gather_binary(offs, &vals, idx, V_DICT_STRS_COUNT, doffs, dict.data,
                                    V_DICT_STR_DICT_NUM_VALUES, &err),
           &err);
  CHECK_MEM(offs, v_dict_strs_offsets, sizeof offs);
  CHECK_MEM(vals.data, v_dict_strs_data, V_DICT_STRS_DATA_LEN);
  /* Our builder sees values in the same order as pyarrow's, so its dictionary page is the same. */
  cp_pq_dict_builder *b;
  cp_buf page = CP_BUF_INIT;
  CHECK_OK(cp_pq_dict_builder_new(&b, 0, &err), &err);
  CHECK_OK(cp_pq_dict_builder_put_binary(b, idx, v_dict_strs_offsets, v_dict_strs_data,
                                         V_DICT_STRS_COUNT, &err),
           &err);
  CHECK_OK(cp_pq_dict_builder_write_plain(b, &page, &err), &err);
  CHECK_INT(page.len, V_DICT_STR_DICT_PAGE_LEN);
  CHECK_MEM(page.data, v_dict_str_dict_page, V_DICT_STR_DICT_PAGE_LEN);
  cp_pq_dict_builder_free(b);

  int64_t d64[V_DICT_I64_DICT_NUM_VALUES], o64[400];
  int32_t idx64[400];
  CHECK_OK(cp_pq_plain_decode_fixed(d64, V_DICT_I64_DICT_NUM_VALUES, &used, v_dict_i64_dict_page,
                                    V_DICT_I64_DICT_PAGE_LEN, 8, &err),
           &err);
  CHECK_OK(cp_pq_dict_indices_init(&d, v_dict_i64_data_page, V_DICT_I64_DATA_PAGE_LEN, &err), &err);
  CHECK_OK(cp_pq_dict_indices_decode(&d, idx64, V_DICT_I64_DATA_NUM_VALUES,
                                     V_DICT_I64_DICT_NUM_VALUES, &err),
           &err);
  CHECK_OK(cp_pq_dict_gather_fixed(o64, idx64, V_DICT_I64_DATA_NUM_VALUES, d64,
                                   V_DICT_I64_DICT_NUM_VALUES, 8, &err),
           &err);
  CHECK_MEM(o64, v_dict_i64_values, sizeof o64);
  /* One index too many for a 3-entry dictionary must be caught. */
  CHECK_OK(cp_pq_dict_indices_init(&d, v_dict_i64_data_page, V_DICT_I64_DATA_PAGE_LEN, &err), &err);
  CHECK_ERR(cp_pq_dict_indices_decode(&d, idx64, V_DICT_I64_DATA_NUM_VALUES, 3, &err),
            PAIMON_ECORRUPT);
  cp_buf_free(&dict);
  cp_buf_free(&vals);
  cp_buf_free(&page);
}

static void test_plain_all_types(void) {
  paimon_error err;
  uint8_t b8[V_PLAIN_COUNT], out[2048];
  size_t used = 0;
  CHECK_OK(
      cp_pq_plain_decode_bool(b8, V_PLAIN_COUNT, v_plain_bool_page, V_PLAIN_BOOL_PAGE_LEN, 0, &err),
      &err);
  CHECK_MEM(b8, v_plain_bool_values, V_PLAIN_COUNT);
  CHECK_OK(cp_pq_plain_decode_fixed(out, V_PLAIN_COUNT, &used, v_plain_float_page,
                                    V_PLAIN_FLOAT_PAGE_LEN, 4, &err),
           &err);
  CHECK_MEM(out, v_plain_float_values, V_PLAIN_FLOAT_VALUES_LEN);
  CHECK_OK(cp_pq_plain_decode_fixed(out, V_PLAIN_COUNT, &used, v_plain_flba_page,
                                    V_PLAIN_FLBA_PAGE_LEN, 7, &err),
           &err);
  CHECK_MEM(out, v_plain_flba_values, V_PLAIN_FLBA_VALUES_LEN);
  CHECK_OK(cp_pq_plain_decode_fixed(out, V_PLAIN_COUNT, &used, v_plain_int96_page,
                                    V_PLAIN_INT96_PAGE_LEN, 12, &err),
           &err);
  CHECK_MEM(out, v_plain_int96_values, V_PLAIN_INT96_VALUES_LEN);
  int32_t offs[V_PLAIN_COUNT + 1];
  cp_buf vals = CP_BUF_INIT, b = CP_BUF_INIT;
  CHECK_OK(cp_pq_plain_decode_binary(offs, &vals, V_PLAIN_COUNT, &used, v_plain_binary_page,
                                     V_PLAIN_BINARY_PAGE_LEN, &err),
           &err);
  CHECK_MEM(offs, v_plain_bins_offsets, sizeof offs);
  CHECK_MEM(vals.data, v_plain_bins_data, V_PLAIN_BINS_DATA_LEN);
  /* Encoders give pyarrow's bytes. */
  size_t bits = 0;
  CHECK_OK(cp_pq_plain_encode_bool(&b, &bits, v_plain_bool_values, V_PLAIN_COUNT, &err), &err);
  CHECK_MEM(b.data, v_plain_bool_page, V_PLAIN_BOOL_PAGE_LEN);
  CHECK_INT(b.len, V_PLAIN_BOOL_PAGE_LEN);
  b.len = 0;
  CHECK_OK(
      cp_pq_plain_encode_binary(&b, v_plain_bins_offsets, v_plain_bins_data, V_PLAIN_COUNT, &err),
      &err);
  CHECK_INT(b.len, V_PLAIN_BINARY_PAGE_LEN);
  CHECK_MEM(b.data, v_plain_binary_page, V_PLAIN_BINARY_PAGE_LEN);
  cp_buf_free(&vals);
  cp_buf_free(&b);
}

/* spec/parquet.md §3.2 shape: optional list<optional int32>; rep levels (max 1), def levels
 * (max 3), then PLAIN values for def == 3 only. */
static void test_list_levels(void) {
  paimon_error err;
  int16_t rep[V_LIST_LEVELS], def[V_LIST_LEVELS];
  size_t used = 0, used2 = 0;
  CHECK_INT(V_LIST_NUM_VALUES, V_LIST_LEVELS); /* num_values counts level entries (§4 P1) */
  CHECK_OK(cp_pq_levels_decode(rep, V_LIST_LEVELS, &used, v_list_page, V_LIST_PAGE_LEN, 1, 1,
                               "repetition levels", &err),
           &err);
  CHECK_OK(cp_pq_levels_decode(def, V_LIST_LEVELS, &used2, v_list_page + used,
                               V_LIST_PAGE_LEN - used, 3, 1, "definition levels", &err),
           &err);
  CHECK_MEM(rep, v_list_rep, sizeof rep);
  CHECK_MEM(def, v_list_def, sizeof def);
  size_t nv = cp_pq_count_level(def, V_LIST_LEVELS, 3);
  CHECK_INT(nv, sizeof v_list_values / sizeof v_list_values[0]);
  int32_t vals[V_LIST_LEVELS];
  size_t used3 = 0;
  CHECK_OK(cp_pq_plain_decode_fixed(vals, nv, &used3, v_list_page + used + used2,
                                    V_LIST_PAGE_LEN - used - used2, 4, &err),
           &err);
  CHECK_INT(used + used2 + used3, V_LIST_PAGE_LEN);
  CHECK_MEM(vals, v_list_values, nv * sizeof *vals);
  /* Our level encoding decodes to the same levels (bytes may differ: run choices are free). */
  cp_buf b = CP_BUF_INIT;
  CHECK_OK(cp_pq_levels_encode(&b, v_list_def, V_LIST_LEVELS, 3, 1, &err), &err);
  CHECK_OK(cp_pq_levels_decode(def, V_LIST_LEVELS, &used, b.data, b.len, 3, 1, "def", &err), &err);
  CHECK_MEM(def, v_list_def, sizeof def);
  cp_buf_free(&b);
}

int main(void) {
  RUN(test_delta_binary_packed);
  RUN(test_optional_levels);
  RUN(test_delta_byte_arrays);
  RUN(test_byte_stream_split);
  RUN(test_rle_booleans_v2);
  RUN(test_dictionary_pages);
  RUN(test_plain_all_types);
  RUN(test_list_levels);
  TEST_MAIN_END();
}
