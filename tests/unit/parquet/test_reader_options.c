/*
 * The Parquet reader's options on hand-built files: projection by name and by field id, target
 * Paimon types with Java's widening rules (spec/parquet.md §2.5), absent columns read as NULLs,
 * impossible conversions, VECTOR and MAP targets, row-group selection, the stream interface, and
 * chunk statistics decoded to datums (§2.9 "Reading"). Expected values are written out by hand
 * from the bytes each test stores.
 */
#include "reader_test_build.h"
#include "arrow/stream.h"
#include "reader_test_util.h"
#include "test.h"
#include "types/type_sql.h"

static cp_fs *g_fs;
static char g_file[512];

/* ---- file A: five flat columns with statistics --------------------------------------------- */

static cp_pq_schema_element g_a[6];

static void set_id(cp_pq_schema_element *e, int32_t id) { e->field_id = (cp_pq_opt_i32){true, id}; }

static void schema_a(void) {
  g_a[0] = tb_group("schema", -1, 5);
  g_a[1] = tb_leaf("a", CP_PQ_OPTIONAL, CP_PQ_INT32);
  g_a[2] = tb_leaf("b", CP_PQ_REQUIRED, CP_PQ_FLOAT);
  g_a[3] = tb_leaf("c", CP_PQ_OPTIONAL, CP_PQ_BYTE_ARRAY);
  g_a[3].converted_type = (cp_pq_opt_i32){true, CP_PQ_CT_UTF8};
  g_a[3].logical_type.kind = CP_PQ_LT_STRING;
  g_a[4] = tb_leaf("d", CP_PQ_OPTIONAL, CP_PQ_INT64);
  g_a[4].logical_type.kind = CP_PQ_LT_TIMESTAMP;
  g_a[4].logical_type.time.unit = CP_PQ_MICROS;
  g_a[4].logical_type.time.is_adjusted_to_utc = false;
  g_a[4].converted_type = (cp_pq_opt_i32){true, CP_PQ_CT_TIMESTAMP_MICROS};
  g_a[5] = tb_leaf("e", CP_PQ_OPTIONAL, CP_PQ_FIXED_LEN_BYTE_ARRAY);
  g_a[5].type_length = (cp_pq_opt_i32){true, 5};
  g_a[5].logical_type.kind = CP_PQ_LT_DECIMAL;
  g_a[5].logical_type.decimal.precision = 10;
  g_a[5].logical_type.decimal.scale = 2;
  g_a[5].converted_type = (cp_pq_opt_i32){true, CP_PQ_CT_DECIMAL};
  g_a[5].precision = (cp_pq_opt_i32){true, 10};
  g_a[5].scale = (cp_pq_opt_i32){true, 2};
  for (int i = 1; i <= 5; i++) set_id(&g_a[i], i);
}

static cp_pq_opt_bytes ob(const void *p, uint32_t n) { return (cp_pq_opt_bytes){true, n, p}; }

/* Rows: (1, 1.5, "x", 1500us, 123.45), (NULL, 2.5, "yz", -1us, -0.01), (3, -0.5, NULL, NULL,
 * NULL). Def levels 1 0 1 / 1 1 0 / 1 1 0 / 1 0 0 are one bit-packed group each. */
static void write_a(bool orders) {
  schema_a();
  tb t;
  tb_init(&t, g_a, 6);
  tb_row_group(&t, 3);
  cp_buf b = CP_BUF_INIT;
  static const uint8_t def101[] = {2, 0, 0, 0, 0x03, 0x05}, def110[] = {2, 0, 0, 0, 0x03, 0x03};
  /* a */
  cp_buf_append(&b, def101, 6, NULL);
  tb_put_le32(&b, 1);
  tb_put_le32(&b, 3);
  tb_chunk(&t, CP_PQ_CODEC_SNAPPY);
  tb_data_page(&t, 3, CP_PQ_ENC_PLAIN, b.data, b.len);
  static const int32_t a_min = 1, a_max = 3;
  cp_pq_column_meta *cm = tb_meta(&t);
  cm->has_statistics = true;
  cm->statistics.min_value = ob(&a_min, 4);
  cm->statistics.max_value = ob(&a_max, 4);
  cm->statistics.min = ob(&a_min, 4);
  cm->statistics.max = ob(&a_max, 4);
  cm->statistics.null_count = (cp_pq_opt_i64){true, 1};
  /* b */
  b.len = 0;
  float fv[] = {1.5f, 2.5f, -0.5f};
  cp_buf_append(&b, fv, sizeof fv, NULL);
  tb_chunk(&t, CP_PQ_CODEC_UNCOMPRESSED);
  tb_data_page(&t, 3, CP_PQ_ENC_PLAIN, b.data, b.len);
  static const float b_min = -0.5f, b_max = 2.5f;
  cm = tb_meta(&t);
  cm->has_statistics = true;
  cm->statistics.min_value = ob(&b_min, 4);
  cm->statistics.max_value = ob(&b_max, 4);
  /* c */
  b.len = 0;
  cp_buf_append(&b, def110, 6, NULL);
  tb_put_le32(&b, 1);
  cp_buf_append(&b, "x", 1, NULL);
  tb_put_le32(&b, 2);
  cp_buf_append(&b, "yz", 2, NULL);
  tb_chunk(&t, CP_PQ_CODEC_ZSTD);
  tb_data_page(&t, 3, CP_PQ_ENC_PLAIN, b.data, b.len);
  cm = tb_meta(&t);
  cm->has_statistics = true;
  cm->statistics.min_value = ob("x", 1);
  cm->statistics.max_value = ob("yz", 2);
  cm->statistics.min = ob("x", 1);
  cm->statistics.max = ob("yz", 2);
  cm->statistics.null_count = (cp_pq_opt_i64){true, 1};
  /* d */
  b.len = 0;
  cp_buf_append(&b, def110, 6, NULL);
  int64_t dv[] = {1500, -1};
  cp_buf_append(&b, dv, sizeof dv, NULL);
  tb_chunk(&t, CP_PQ_CODEC_GZIP);
  tb_data_page(&t, 3, CP_PQ_ENC_PLAIN, b.data, b.len);
  static const int64_t d_min = -1, d_max = 1500;
  cm = tb_meta(&t);
  cm->has_statistics = true;
  cm->statistics.min_value = ob(&d_min, 8);
  cm->statistics.max_value = ob(&d_max, 8);
  /* e: 12345 and -1 as 5-byte big-endian two's complement */
  b.len = 0;
  static const uint8_t def100[] = {2, 0, 0, 0, 0x03, 0x03};
  cp_buf_append(&b, def100, 6, NULL);
  static const uint8_t ev[] = {0, 0, 0, 0x30, 0x39, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
  cp_buf_append(&b, ev, sizeof ev, NULL);
  tb_chunk(&t, CP_PQ_CODEC_LZ4_RAW);
  tb_data_page(&t, 3, CP_PQ_ENC_PLAIN, b.data, b.len);
  cm = tb_meta(&t);
  cm->has_statistics = true;
  cm->statistics.min_value = ob(ev + 5, 5);
  cm->statistics.max_value = ob(ev, 5);
  cp_buf_free(&b);
  static int32_t type_orders[5] = {1, 1, 1, 1, 1};
  t.column_orders = orders ? type_orders : NULL;
  snprintf(g_file, sizeof g_file, "%s/cpaimon_test_reader_options_a.parquet",
           getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  CHECK_INT(tb_finish(&t, g_fs, g_file), 0);
  tb_free(&t);
}

/* Reads file A with one request per column (NULL type = natural) into JSON lines. */
static int read_a(const cp_pq_column_request *rq, size_t n, cp_buf *out, struct ArrowSchema *schema,
                  paimon_error *err) {
  cp_pq_reader_options o = {0};
  o.columns = rq;
  o.num_columns = n;
  cp_pq_reader *r;
  int rc = cp_pq_reader_open(&r, g_fs, g_file, &o, err);
  if (rc) return rc;
  if (schema) rc = cp_pq_reader_schema(r, schema, err);
  cp_pq_reader_free(r);
  int64_t rows;
  if (rc == 0) rc = rt_read_all(g_fs, g_file, &o, &rows, out, err);
  if (rc == 0) rc = cp_buf_nul_terminate(out, err);
  return rc;
}

static cp_type *parse(const char *sql) {
  cp_type *t = NULL;
  paimon_error err;
  if (cp_type_parse(sql, &t, &err)) fprintf(stderr, "parse %s: %s\n", sql, err.message);
  return t;
}

static void test_natural(void) {
  write_a(true);
  paimon_error err = {0};
  cp_buf out = CP_BUF_INIT;
  struct ArrowSchema s;
  s.release = NULL;
  cp_pq_reader *r;
  CHECK_OK(cp_pq_reader_open(&r, g_fs, g_file, NULL, &err), &err);
  CHECK_OK(cp_pq_reader_schema(r, &s, &err), &err);
  cp_pq_reader_free(r);
  static const char *formats[] = {"i", "f", "u", "tsu:", "d:10,2"};
  CHECK_INT(s.n_children, 5);
  for (int i = 0; i < 5 && i < s.n_children; i++) {
    CHECK_STR(s.children[i]->format, formats[i]);
    const char *v;
    int32_t len;
    CHECK_OK(cp_metadata_get(s.children[i]->metadata, "PARQUET:field_id", &v, &len, &err), &err);
    CHECK(v && len == 1 && v[0] == '1' + i);
  }
  CHECK_INT(s.children[1]->flags & ARROW_FLAG_NULLABLE, 0);
  CHECK_INT(s.children[0]->flags & ARROW_FLAG_NULLABLE, ARROW_FLAG_NULLABLE);
  cp_schema_release(&s);
  int64_t rows;
  CHECK_OK(rt_read_all(g_fs, g_file, NULL, &rows, &out, &err), &err);
  CHECK_OK(cp_buf_nul_terminate(&out, &err), &err);
  CHECK_STR((const char *)out.data,
            "{\"a\":1,\"b\":1.5,\"c\":\"x\",\"d\":\"1970-01-01 00:00:00.0015\",\"e\":123.45}\n"
            "{\"a\":null,\"b\":2.5,\"c\":\"yz\",\"d\":\"1969-12-31 23:59:59.999999\",\"e\":-0.01}\n"
            "{\"a\":3,\"b\":-0.5,\"c\":null,\"d\":null,\"e\":null}\n");
  cp_buf_free(&out);
}

static void test_projection(void) {
  write_a(true);
  paimon_error err = {0};
  cp_buf out = CP_BUF_INIT;
  cp_pq_column_request by_name[] = {{"c", 0, NULL, NULL, false}, {"a", 0, NULL, NULL, false}};
  CHECK_OK(read_a(by_name, 2, &out, NULL, &err), &err);
  CHECK_STR((const char *)out.data,
            "{\"c\":\"x\",\"a\":1}\n{\"c\":\"yz\",\"a\":null}\n{\"c\":null,\"a\":3}\n");
  out.len = 0;
  cp_pq_column_request by_id[] = {{NULL, 2, NULL, NULL, false}, {NULL, 1, NULL, "first", false}};
  CHECK_OK(read_a(by_id, 2, &out, NULL, &err), &err);
  CHECK_STR((const char *)out.data,
            "{\"b\":1.5,\"first\":1}\n{\"b\":2.5,\"first\":null}\n{\"b\":-0.5,\"first\":3}\n");
  out.len = 0;
  cp_pq_column_request missing[] = {{"zz", 0, NULL, NULL, false}};
  CHECK_INT(read_a(missing, 1, &out, NULL, &err), PAIMON_ENOTFOUND);
  CHECK_CONTAINS(err.message, "'zz'");
  cp_pq_column_request missing_id[] = {{NULL, 42, NULL, NULL, false}};
  CHECK_INT(read_a(missing_id, 1, &out, NULL, &err), PAIMON_ENOTFOUND);
  CHECK_CONTAINS(err.message, "42");
  cp_pq_column_request twice[] = {{"a", 0, NULL, NULL, false}, {"a", 0, NULL, "again", false}};
  CHECK_INT(read_a(twice, 2, &out, NULL, &err), PAIMON_EINVAL);
  cp_buf_free(&out);
}

static void test_targets(void) {
  write_a(true);
  paimon_error err = {0};
  cp_buf out = CP_BUF_INIT;
  cp_type *bigint = parse("BIGINT"), *dbl = parse("DOUBLE"), *ts3 = parse("TIMESTAMP(3)"),
          *dec = parse("DECIMAL(12, 4)"), *bin = parse("BYTES"), *str = parse("STRING"),
          *i = parse("INT"), *small_dec = parse("DECIMAL(3, 2)"), *row = parse("ROW<x INT>");
  cp_pq_column_request rq[] = {{"a", 0, bigint, NULL, false}, {"b", 0, dbl, NULL, false},
                               {"c", 0, bin, NULL, false},    {"d", 0, ts3, NULL, false},
                               {"e", 0, dec, NULL, false},    {"new", 0, i, NULL, false}};
  struct ArrowSchema s;
  CHECK_OK(read_a(rq, 6, &out, &s, &err), &err);
  static const char *formats[] = {"l", "g", "z", "tsm:", "d:12,4", "i"};
  for (int k = 0; k < 6 && k < s.n_children; k++) CHECK_STR(s.children[k]->format, formats[k]);
  cp_schema_release(&s);
  /* 1500 us floor-divided to 1 ms, -1 us to -1 ms; decimals rescaled by 10^2; binary as base64 */
  CHECK_STR((const char *)out.data,
            "{\"a\":1,\"b\":1.5,\"c\":\"eA==\",\"d\":\"1970-01-01 00:00:00.001\",\"e\":123.4500,"
            "\"new\":null}\n"
            "{\"a\":null,\"b\":2.5,\"c\":\"eXo=\",\"d\":\"1969-12-31 23:59:59.999\",\"e\":-0.0100,"
            "\"new\":null}\n"
            "{\"a\":3,\"b\":-0.5,\"c\":null,\"d\":null,\"e\":null,\"new\":null}\n");
  out.len = 0;
  /* An absent column by field id needs an output name. */
  cp_pq_column_request absent_id[] = {{NULL, 77, i, "seventy_seven", false}};
  CHECK_OK(read_a(absent_id, 1, &out, NULL, &err), &err);
  CHECK_STR((const char *)out.data,
            "{\"seventy_seven\":null}\n{\"seventy_seven\":null}\n{\"seventy_seven\":null}\n");
  cp_pq_column_request no_name[] = {{NULL, 77, i, NULL, false}};
  CHECK_INT(read_a(no_name, 1, &out, NULL, &err), PAIMON_EINVAL);
  /* Impossible: INT32 as STRING, a primitive as ROW, FLOAT as INT. */
  cp_pq_column_request bad1[] = {{"a", 0, str, NULL, false}};
  CHECK_INT(read_a(bad1, 1, &out, NULL, &err), PAIMON_EUNSUPPORTED);
  CHECK_CONTAINS(err.message, "'a'");
  CHECK_CONTAINS(err.message, "INT32");
  CHECK_CONTAINS(err.message, "STRING");
  CHECK_CONTAINS(err.message, g_file);
  cp_pq_column_request bad2[] = {{"b", 0, row, NULL, false}};
  CHECK_INT(read_a(bad2, 1, &out, NULL, &err), PAIMON_EUNSUPPORTED);
  CHECK_CONTAINS(err.message, "'b'");
  cp_pq_column_request bad3[] = {{"b", 0, i, NULL, false}};
  CHECK_INT(read_a(bad3, 1, &out, NULL, &err), PAIMON_EUNSUPPORTED);
  CHECK_CONTAINS(err.message, "FLOAT");
  /* Narrowing BIGINT into INT is refused rather than truncated. */
  cp_pq_column_request bad4[] = {{"d", 0, i, NULL, false}};
  CHECK_INT(read_a(bad4, 1, &out, NULL, &err), PAIMON_EUNSUPPORTED);
  /* DECIMAL(10,2) into DECIMAL(3,2): checked per value; 123.45 does not fit. */
  cp_pq_column_request narrow[] = {{"e", 0, small_dec, NULL, false}};
  out.len = 0;
  CHECK_INT(read_a(narrow, 1, &out, NULL, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "does not fit 3 digits");
  cp_type *types[] = {bigint, dbl, ts3, dec, bin, str, i, small_dec, row};
  for (size_t k = 0; k < 9; k++) cp_type_free(types[k]);
  cp_buf_free(&out);
}

static void test_statistics(void) {
  write_a(true);
  paimon_error err = {0};
  cp_pq_reader *r;
  CHECK_OK(cp_pq_reader_open(&r, g_fs, g_file, NULL, &err), &err);
  cp_type *i = parse("INT"), *f = parse("FLOAT"), *s = parse("STRING"), *ts = parse("TIMESTAMP(6)"),
          *dec = parse("DECIMAL(10, 2)"), *dec4 = parse("DECIMAL(12, 4)"),
          *arr = parse("ARRAY<INT>");
  cp_pq_chunk_stats st;
  CHECK_OK(cp_pq_reader_column_stats(r, 0, "a", i, &st, &err), &err);
  CHECK(st.has_min_max && st.min.v.i64 == 1 && st.max.v.i64 == 3);
  CHECK(st.has_null_count && st.null_count == 1);
  CHECK_INT(st.num_values, 3);
  CHECK_OK(cp_pq_reader_column_stats(r, 0, "b", f, &st, &err), &err);
  CHECK(st.has_min_max && st.min.v.f32 == -0.5f && st.max.v.f32 == 2.5f);
  CHECK(!st.has_null_count);
  CHECK_OK(cp_pq_reader_column_stats(r, 0, "c", s, &st, &err), &err);
  CHECK(st.has_min_max && st.min.v.bytes.len == 1 && memcmp(st.min.v.bytes.data, "x", 1) == 0);
  CHECK(st.max.v.bytes.len == 2 && memcmp(st.max.v.bytes.data, "yz", 2) == 0);
  CHECK_OK(cp_pq_reader_column_stats(r, 0, "d", ts, &st, &err), &err);
  /* -1 us = millis -1 + 999000 ns; 1500 us = 1 ms + 500000 ns */
  CHECK(st.has_min_max && st.min.v.ts.millis == -1 && st.min.v.ts.nanos_of_milli == 999000);
  CHECK(st.max.v.ts.millis == 1 && st.max.v.ts.nanos_of_milli == 500000);
  CHECK_OK(cp_pq_reader_column_stats(r, 0, "e", dec, &st, &err), &err);
  CHECK(st.has_min_max && st.min.v.dec == -1 && st.max.v.dec == 12345);
  CHECK_OK(cp_pq_reader_column_stats(r, 0, "e", dec4, &st, &err), &err);
  CHECK(st.has_min_max && st.min.v.dec == -100 && st.max.v.dec == 1234500);
  /* Wrong type for the column, missing column, nested type (null count only). */
  CHECK_INT(cp_pq_reader_column_stats(r, 0, "c", i, &st, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "'c'");
  CHECK_INT(cp_pq_reader_column_stats(r, 0, "nope", i, &st, &err), PAIMON_ENOTFOUND);
  CHECK_OK(cp_pq_reader_column_stats(r, 0, "a", arr, &st, &err), &err);
  CHECK(!st.has_min_max && st.has_null_count);
  CHECK_INT(cp_pq_chunk_stats_get(cp_pq_reader_footer(r), 1, 0, i, &st, &err), PAIMON_EINVAL);
  cp_pq_reader_free(r);

  /* Without column_orders min_value/max_value are not trusted (as Arrow): the deprecated min/max
   * serve signed columns (a), and strings (c) get no bounds. */
  write_a(false);
  CHECK_OK(cp_pq_reader_open(&r, g_fs, g_file, NULL, &err), &err);
  CHECK_OK(cp_pq_reader_column_stats(r, 0, "a", i, &st, &err), &err);
  CHECK(st.has_min_max && st.min.v.i64 == 1 && st.max.v.i64 == 3);
  CHECK_OK(cp_pq_reader_column_stats(r, 0, "c", s, &st, &err), &err);
  CHECK(!st.has_min_max);
  CHECK_OK(cp_pq_reader_column_stats(r, 0, "d", ts, &st, &err), &err);
  CHECK(!st.has_min_max);
  cp_pq_reader_free(r);
  cp_type *types[] = {i, f, s, ts, dec, dec4, arr};
  for (size_t k = 0; k < 7; k++) cp_type_free(types[k]);
}

/* ---- lists as VECTOR, maps, row groups, streams --------------------------------------------- */

static cp_pq_schema_element g_l[7];

/* l: ARRAY<INT> rows [1, 2], NULL, [3, 4] (and [5] when `ragged`); m: MAP<STRING, INT> rows
 * {"k": 1}, {}, {"a": NULL, "b": 2}. Two row groups: rows 0-1 and row 2 (+3). */
static void write_lists(const char *path, bool ragged) {
  g_l[0] = tb_group("schema", -1, 2);
  g_l[1] = tb_group("l", CP_PQ_OPTIONAL, 1);
  g_l[1].logical_type.kind = CP_PQ_LT_LIST;
  g_l[2] = tb_group("list", CP_PQ_REPEATED, 1);
  g_l[3] = tb_leaf("element", CP_PQ_REQUIRED, CP_PQ_INT32);
  g_l[4] = tb_group("m", CP_PQ_OPTIONAL, 1);
  g_l[4].logical_type.kind = CP_PQ_LT_MAP;
  g_l[5] = tb_group("key_value", CP_PQ_REPEATED, 2);
  g_l[6] = tb_leaf("key", CP_PQ_REQUIRED, CP_PQ_BYTE_ARRAY);
  g_l[6].logical_type.kind = CP_PQ_LT_STRING;
  cp_pq_schema_element value = tb_leaf("value", CP_PQ_OPTIONAL, CP_PQ_INT32);
  static cp_pq_schema_element all[8];
  memcpy(all, g_l, sizeof g_l);
  all[7] = value;
  tb t;
  tb_init(&t, all, 8);
  paimon_error err = {0};
  /* row group 0: l = [1,2], NULL  (rep 0 1 0, def 2 2 0, max_def 2); m = {"k":1}, {} */
  static const int16_t l_rep0[] = {0, 1, 0}, l_def0[] = {2, 2, 0};
  static const int16_t m_rep0[] = {0, 0}, k_def0[] = {2, 1}, v_def0[] = {3, 1};
  /* row group 1: l = [3,4] (+ [5]); m = {"a":NULL,"b":2} (+ NULL) */
  static const int16_t l_rep1[] = {0, 1, 0}, l_def1[] = {2, 2, 2};
  static const int16_t m_rep1[] = {0, 1, 0}, k_def1[] = {2, 2, 0}, v_def1[] = {2, 3, 0};
  for (int g = 0; g < 2; g++) {
    int64_t rows = g == 0 ? 2 : (ragged ? 2 : 1);
    tb_row_group(&t, rows);
    size_t ln = g == 0 ? 3 : (ragged ? 3 : 2), mn = g == 0 ? 2 : (ragged ? 3 : 2);
    cp_buf b = CP_BUF_INIT;
    CHECK_OK(cp_pq_levels_encode(&b, g ? l_rep1 : l_rep0, ln, 1, 1, &err), &err);
    CHECK_OK(cp_pq_levels_encode(&b, g ? l_def1 : l_def0, ln, 2, 1, &err), &err);
    int32_t lv0[] = {1, 2}, lv1[] = {3, 4, 5};
    cp_buf_append(&b, g ? (void *)lv1 : (void *)lv0, (g ? (ragged ? 3 : 2) : 2) * 4, NULL);
    tb_chunk(&t, CP_PQ_CODEC_UNCOMPRESSED);
    tb_data_page(&t, (int32_t)ln, CP_PQ_ENC_PLAIN, b.data, b.len);
    b.len = 0;
    CHECK_OK(cp_pq_levels_encode(&b, g ? m_rep1 : m_rep0, mn, 1, 1, &err), &err);
    CHECK_OK(cp_pq_levels_encode(&b, g ? k_def1 : k_def0, mn, 2, 1, &err), &err);
    if (g == 0) {
      tb_put_le32(&b, 1);
      cp_buf_append(&b, "k", 1, NULL);
    } else {
      tb_put_le32(&b, 1);
      cp_buf_append(&b, "a", 1, NULL);
      tb_put_le32(&b, 1);
      cp_buf_append(&b, "b", 1, NULL);
    }
    tb_chunk(&t, CP_PQ_CODEC_UNCOMPRESSED);
    tb_data_page(&t, (int32_t)mn, CP_PQ_ENC_PLAIN, b.data, b.len);
    b.len = 0;
    CHECK_OK(cp_pq_levels_encode(&b, g ? m_rep1 : m_rep0, mn, 1, 1, &err), &err);
    CHECK_OK(cp_pq_levels_encode(&b, g ? v_def1 : v_def0, mn, 3, 1, &err), &err);
    tb_put_le32(&b, g == 0 ? 1 : 2);
    tb_chunk(&t, CP_PQ_CODEC_UNCOMPRESSED);
    tb_data_page(&t, (int32_t)mn, CP_PQ_ENC_PLAIN, b.data, b.len);
    cp_buf_free(&b);
  }
  CHECK_INT(tb_finish(&t, g_fs, path), 0);
  tb_free(&t);
}

static void test_lists_maps_row_groups(void) {
  char path[512];
  snprintf(path, sizeof path, "%s/cpaimon_test_reader_options_l.parquet",
           getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
  write_lists(path, false);
  paimon_error err = {0};
  cp_buf out = CP_BUF_INIT;
  int64_t rows;
  CHECK_OK(rt_read_all(g_fs, path, NULL, &rows, &out, &err), &err);
  CHECK_OK(cp_buf_nul_terminate(&out, &err), &err);
  CHECK_STR((const char *)out.data, "{\"l\":[1,2],\"m\":{\"k\":1}}\n{\"l\":null,\"m\":{}}\n"
                                    "{\"l\":[3,4],\"m\":{\"a\":null,\"b\":2}}\n");
  out.len = 0;
  /* Row groups in the order asked; a row range crossing them. */
  int32_t rgs[] = {1, 0};
  cp_pq_reader_options o = {0};
  o.row_groups = rgs;
  o.num_row_groups = 2;
  CHECK_OK(rt_read_all(g_fs, path, &o, &rows, &out, &err), &err);
  CHECK_OK(cp_buf_nul_terminate(&out, &err), &err);
  CHECK_STR((const char *)out.data, "{\"l\":[3,4],\"m\":{\"a\":null,\"b\":2}}\n"
                                    "{\"l\":[1,2],\"m\":{\"k\":1}}\n{\"l\":null,\"m\":{}}\n");
  out.len = 0;
  cp_pq_row_range range = {1, 3};
  o.row_ranges = &range;
  o.num_row_ranges = 1;
  CHECK_OK(rt_read_all(g_fs, path, &o, &rows, &out, &err), &err);
  CHECK_OK(cp_buf_nul_terminate(&out, &err), &err);
  CHECK_STR((const char *)out.data,
            "{\"l\":[3,4],\"m\":{\"a\":null,\"b\":2}}\n{\"l\":null,\"m\":{}}\n");
  out.len = 0;
  int32_t bad_rg = 2;
  o.row_groups = &bad_rg;
  o.num_row_groups = 1;
  CHECK_INT(rt_read_all(g_fs, path, &o, &rows, NULL, &err), PAIMON_EINVAL);

  /* VECTOR<INT, 2>: a null list becomes two null placeholders in the child. */
  cp_type *vec = parse("VECTOR<INT, 2>"), *map = parse("MAP<STRING, BIGINT>");
  cp_pq_column_request rq[] = {{"l", 0, vec, NULL, false}, {"m", 0, map, NULL, false}};
  cp_pq_reader_options ov = {0};
  ov.columns = rq;
  ov.num_columns = 2;
  cp_pq_reader *r;
  CHECK_OK(cp_pq_reader_open(&r, g_fs, path, &ov, &err), &err);
  struct ArrowSchema s;
  struct ArrowArray batch;
  bool eof;
  CHECK_OK(cp_pq_reader_next(r, &batch, &s, &eof, &err), &err);
  if (batch.release) {
    CHECK_STR(s.children[0]->format, "+w:2");
    CHECK_STR(s.children[1]->format, "+m");
    CHECK_STR(s.children[1]->children[0]->children[1]->format, "l");
    const struct ArrowArray *l = batch.children[0];
    CHECK_INT(l->length, 2);
    CHECK_INT(l->null_count, 1);
    CHECK_INT(l->children[0]->length, 4);
    CHECK_INT(l->children[0]->null_count, 2);
    CHECK_INT(((const int32_t *)l->children[0]->buffers[1])[1], 2);
    cp_array_release(&batch);
    cp_schema_release(&s);
  }
  cp_pq_reader_free(r);
  /* A list of the wrong length for the VECTOR is corrupt data for that type. */
  write_lists(path, true);
  CHECK_INT(rt_read_all(g_fs, path, &ov, &rows, NULL, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "VECTOR of 2 elements has a list of 1");
  cp_type_free(vec);
  cp_type_free(map);
  cp_buf_free(&out);
}

static void test_stream(void) {
  write_a(true);
  paimon_error err = {0};
  cp_pq_reader_options o = {0};
  o.batch_size = 2;
  cp_pq_reader *r;
  CHECK_OK(cp_pq_reader_open(&r, g_fs, g_file, &o, &err), &err);
  struct ArrowArrayStream st;
  CHECK_OK(cp_pq_reader_to_stream(r, &st, &err), &err);
  struct ArrowSchema s;
  CHECK_OK(cp_stream_get_schema(&st, &s, &err), &err);
  CHECK_INT(s.n_children, 5);
  int64_t rows = 0, batches = 0;
  for (;;) {
    struct ArrowArray b;
    CHECK_OK(cp_stream_next(&st, &b, &err), &err);
    if (!b.release) break;
    rows += b.length;
    batches++;
    cp_array_release(&b);
  }
  CHECK_INT(rows, 3);
  CHECK_INT(batches, 2);
  cp_schema_release(&s);
  cp_stream_release(&st);

  /* A stream over a corrupt file reports the reader's message through get_last_error. */
  cp_buf whole = CP_BUF_INIT;
  CHECK_OK(cp_fs_read_file(g_fs, g_file, &whole, 1 << 20, &err), &err);
  whole.data[4] = 0x55; /* the first page header of column a */
  CHECK_OK(cp_fs_write_file(g_fs, g_file, whole.data, whole.len, CP_CREATE_OVERWRITE, false, &err),
           &err);
  cp_buf_free(&whole);
  CHECK_OK(cp_pq_reader_open(&r, g_fs, g_file, NULL, &err), &err);
  CHECK_OK(cp_pq_reader_to_stream(r, &st, &err), &err);
  struct ArrowArray b;
  int rc = st.get_next(&st, &b);
  CHECK(rc != 0);
  CHECK_CONTAINS(st.get_last_error(&st), g_file);
  cp_stream_release(&st);
}

int main(void) {
  paimon_error err;
  if (cp_fs_local_new(&g_fs, &err)) return 2;
  RUN(test_natural);
  RUN(test_projection);
  RUN(test_targets);
  RUN(test_statistics);
  RUN(test_lists_maps_row_groups);
  RUN(test_stream);
  cp_fs_free(g_fs);
  TEST_MAIN_END();
}
