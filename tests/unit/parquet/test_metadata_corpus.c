/*
 * Tests for format/parquet/metadata.h and footer.h on real files (spec/parquet.md §2.1, §2.6,
 * §2.9, §3.1, §5.1): the apache/parquet-testing corpus, read in place from CPAIMON_TESTDATA_DIR
 * (never copied). Hand-built and malformed inputs are in test_metadata.c.
 *
 * Expected values marked "pyarrow" were produced by pyarrow 19 on the same files, e.g.
 *   m = pq.ParquetFile(p).metadata; c = m.row_group(0).column(i); s = m.schema.column(i)
 *   (m.num_rows, m.num_row_groups, m.num_columns, m.created_by, s.path, s.physical_type,
 *    s.max_definition_level, s.max_repetition_level, c.compression, c.num_values,
 *    c.total_compressed_size, c.data_page_offset, c.dictionary_page_offset,
 * c.statistics.null_count) Values marked "README" come from parquet-testing's data/README.md. Page
 * CRCs are checked with zlib's crc32, independently of this code.
 *
 * Besides the CTest run (no arguments), the binary has two modes used by
 * tests/python/test_parquet_meta.py to compare with pyarrow/DuckDB on files pyarrow writes:
 *   test_metadata_corpus dump <file>            prints the decoded footer as JSON
 *   test_metadata_corpus reencode <in> <out>    rewrites <in> with a footer encoded by this code
 */
#include "format/parquet/metadata.h"

#include <stdint.h>
#include <zlib.h>

#include "base/fs.h"
#include "format/parquet/footer.h"
#include "test.h"

static cp_fs *g_fs;

static const char *corpus_path(const char *dir, const char *name) {
  static char path[1024];
  snprintf(path, sizeof path, "%s/parquet-testing/%s/%s", CPAIMON_TESTDATA_DIR, dir, name);
  return path;
}

static int read_footer(const char *path, cp_pq_footer *ft, paimon_error *err) {
  cp_rfile *f;
  int rc = cp_fs_open_read(g_fs, path, &f, err);
  if (rc) return rc;
  rc = cp_pq_footer_read(f, ft, err);
  cp_rfile_close(f);
  return rc;
}

/* ---- corpus footers against pyarrow ---- */

typedef struct expect_col {
  int leaf;
  const char *path;
  int type, max_def, max_rep, codec;
  long long num_values, total_compressed_size, data_page_offset;
  long long dictionary_page_offset; /* -1: not set */
  long long null_count;             /* -1: not set */
} expect_col;

typedef struct expect_file {
  const char *name;
  long long num_rows;
  int num_row_groups, num_columns;
  const char *created_by; /* NULL: not set (pyarrow shows "") */
  int num_cols;
  expect_col cols[3];
} expect_file;

/* pyarrow-derived (see the top comment), for row group 0. Codec 5 for the Hadoop LZ4 file is
 * from parquet.thrift (pyarrow 19 names it "UNKNOWN"). pyarrow hides statistics it distrusts
 * (BYTE_ARRAY from parquet-mr 1.8.2, INT96), so the null counts of nested_maps column 0 and of
 * int96_from_spark are DuckDB's (`select stats_null_count from parquet_metadata(p)`). */
static const expect_file k_expect[] = {
    {"alltypes_plain.parquet",
     8,
     1,
     11,
     "impala version 1.3.0-INTERNAL (build 8a48ddb1eff84592b3fc06bc6f51ec120e1fffc9)",
     3,
     {{0, "id", 1, 1, 0, 0, 8, 73, 49, 4, -1},
      {5, "bigint_col", 2, 1, 0, 0, 8, 55, 458, 429, -1},
      {10, "timestamp_col", 3, 1, 0, 0, 8, 139, 1040, 929, -1}}},
    {"alltypes_tiny_pages.parquet",
     7300,
     1,
     13,
     "parquet-mr version 1.12.0-SNAPSHOT (build 6901a2040848c6b37fa61f4b0a76246445f396db)",
     3,
     {{0, "id", 1, 1, 0, 0, 7300, 37325, 4, -1, 0},
      {6, "float_col", 4, 1, 0, 0, 7300, 12394, 95048, -1, 0},
      {12, "month", 1, 1, 0, 0, 7300, 8582, 315001, -1, 0}}},
    {"nested_maps.snappy.parquet",
     6,
     1,
     5,
     "parquet-mr version 1.8.2 (build c6522788629e590a53eb79874b95f6c3ff11f16c)",
     3,
     {{0, "a.key_value.key", 6, 2, 1, 1, 6, 69, 4, -1, 0},
      {2, "a.key_value.value.key_value.value", 0, 4, 2, 1, 9, 50, 168, -1, 2},
      {4, "c", 5, 0, 0, 1, 6, 68, 274, -1, 0}}},
    {"nullable.impala.parquet",
     7,
     1,
     13,
     "parquet-mr version 1.8.0 (build 0fda28af84b9746396014ad6a415b90592a98b3b)",
     3,
     {{0, "id", 2, 1, 0, 0, 7, 103, 4, -1, 0},
      {6, "int_Map_Array.list.element.map.value", 1, 5, 2, 0, 11, 72, 506, -1, 9},
      {12, "nested_struct.g.map.value.H.i.list.element", 5, 8, 2, 0, 13, 104, 973, -1, 9}}},
    {"datapage_v2.snappy.parquet",
     5,
     1,
     5,
     "parquet-mr version 1.8.1 (build 4aba4dae7bb0d4edbcf7923ae1339f28fd3f7fcf)",
     3,
     {{0, "a", 6, 1, 0, 1, 5, 63, 4, -1, 1},
      {2, "c", 5, 0, 0, 1, 5, 88, 116, -1, 0},
      {4, "e.list.element", 1, 2, 1, 1, 10, 78, 243, -1, 2}}},
    {"byte_stream_split.zstd.parquet",
     300,
     1,
     2,
     "parquet-cpp-arrow version 14.0.2",
     2,
     {{0, "f32", 4, 1, 0, 6, 300, 1158, 4, -1, 0}, {1, "f64", 5, 1, 0, 6, 300, 2283, 1230, -1, 0}}},
    {"lz4_raw_compressed.parquet",
     4,
     1,
     3,
     "parquet-cpp version 1.5.1-SNAPSHOT",
     3,
     {{0, "c0", 2, 0, 0, 7, 4, 85, 4, -1, 0},
      {1, "c1", 6, 0, 0, 7, 4, 58, 171, -1, 0},
      {2, "v11", 5, 1, 0, 7, 4, 95, 280, -1, 0}}},
    {"hadoop_lz4_compressed.parquet",
     4,
     1,
     3,
     "parquet-mr version 1.10.1 (build a89df8f9932b6ef6633d06069e50c9b7970bebd1)",
     3,
     {{0, "c0", 2, 0, 0, 5, 4, 112, 4, -1, 0},
      {1, "c1", 6, 0, 0, 5, 4, 79, 116, -1, 0},
      {2, "v11", 5, 1, 0, 5, 4, 123, 195, -1, 0}}},
    {"int32_decimal.parquet",
     24,
     1,
     1,
     "parquet-mr version 1.8.2 (build c6522788629e590a53eb79874b95f6c3ff11f16c)",
     1,
     {{0, "value", 1, 1, 0, 0, 24, 137, 4, -1, 0}}},
    {"sort_columns.parquet",
     6,
     2,
     2,
     "parquet-cpp-arrow version 16.1.0",
     2,
     {{0, "a", 2, 1, 0, 1, 3, 104, 36, 4, 1}, {1, "b", 6, 1, 0, 1, 3, 70, 230, 199, 0}}},
    {"data_index_bloom_encoding_stats.parquet",
     14,
     1,
     1,
     "parquet-mr version 1.13.0-SNAPSHOT (build 7398d9b522733c669d497c25495c9efa1c860994)",
     1,
     {{0, "String", 6, 1, 0, 2, 14, 152, 4, -1, 0}}},
    {"column_chunk_key_value_metadata.parquet",
     0,
     1,
     2,
     "parquet-cpp-arrow version 17.0.0-SNAPSHOT",
     2,
     {{0, "column1", 1, 1, 0, 0, 0, 14, 0, 4, -1}, {1, "column2", 1, 1, 0, 0, 0, 14, 0, 97, -1}}},
    {"fixed_length_decimal.parquet",
     24,
     1,
     1,
     "parquet-mr version 1.8.2 (build c6522788629e590a53eb79874b95f6c3ff11f16c)",
     1,
     {{0, "value", 7, 1, 0, 0, 24, 319, 4, -1, 0}}},
    {"int96_from_spark.parquet",
     6,
     1,
     1,
     "parquet-mr version 1.13.1 (build db4183109d5b734ec5930d870cdae161e408ddba)",
     1,
     {{0, "a", 3, 1, 0, 1, 6, 113, 81, 4, 1}}},
    {"floating_orders_nan_count.parquet",
     50,
     5,
     6,
     "parquet-mr version 1.18.0-SNAPSHOT (build c5dcd8ca5bad5fde9c797b876a16b5bf3b9206c0)",
     3,
     {{0, "float_ieee754", 4, 0, 0, 0, 10, 63, 4, -1, 0},
      {3, "double_typedef", 5, 0, 0, 0, 10, 105, 235, -1, 0},
      {5, "float16_typedef", 7, 0, 0, 0, 10, 43, 383, -1, 0}}},
    {"binary_truncated_min_max.parquet",
     12,
     1,
     6,
     "parquet-rs version 55.1.0",
     3,
     {{0, "utf8_full_truncation", 6, 0, 0, 0, 12, 250, 4, -1, 0},
      {3, "binary_partial_truncation", 6, 0, 0, 0, 12, 236, 762, -1, 0},
      {5, "binary_no_truncation", 6, 0, 0, 0, 12, 210, 1208, -1, 0}}},
    {"nested_structs.rust.parquet",
     1,
     1,
     216,
     "UrbanLogiq",
     3,
     {{0, "roll_num.min", 2, 0, 0, 6, 1, 82, 35, 4, -1},
      {108, "rw_area_tot.min", 5, 0, 0, 6, 1, 82, 16543, 16512, -1},
      {215, "ul_tz_offset_minutes_ul_observation_date.variance", 2, 0, 0, 6, 1, 82, 33503, 33472,
       -1}}},
    {"old_list_structure.parquet",
     1,
     1,
     1,
     "parquet-mr version 1.14.3 (build b5e376a2caee767a11e75b783512b14cf8ca90ec)",
     1,
     {{0, "a.array.array", 1, 2, 2, 0, 4, 53, 4, -1, 0}}},
    {"concatenated_gzip_members.parquet",
     513,
     1,
     1,
     NULL,
     1,
     {{0, "long_col", 2, 1, 0, 2, 513, 1467, 4, -1, -1}}},
    {"repeated_no_annotation.parquet",
     0,
     1,
     3,
     "parquet-rs version 0.3.0 (build b45ce7cba2199f22d93269c150d8a83916c69b5e)",
     3,
     {{0, "id", 1, 0, 0, 0, 6, 60, 42, 4, -1},
      {1, "phoneNumbers.phone.number", 2, 2, 1, 0, 8, 80, 139, 93, -1},
      {2, "phoneNumbers.phone.kind", 6, 3, 1, 0, 8, 65, 261, 229, -1}}},
    {"dict-page-offset-zero.parquet",
     39,
     1,
     1,
     "parquet-mr version 1.12.0-201812210311360288-a86293f (build "
     "cec1a483e9dcd545e09170ae787d3dcb13744433)",
     1,
     {{0, "l_partkey", 1, 1, 0, 1, 39, 40, 4, 0, 0}}},
    {"delta_binary_packed.parquet",
     200,
     1,
     66,
     "parquet-mr version 1.10.0 (build 031a6654009e3b82020012a18434c582bd74c73a)",
     3,
     {{0, "bitwidth0", 2, 1, 0, 0, 200, 95, 4, -1, 0},
      {33, "bitwidth33", 2, 1, 0, 0, 200, 1020, 17813, -1, 0},
      {65, "int_value", 1, 1, 0, 0, 200, 980, 64491, -1, 0}}},
};

static void check_expected_file(const expect_file *e) {
  paimon_error err;
  cp_pq_footer ft;
  int rc = read_footer(corpus_path("data", e->name), &ft, &err);
  CHECK_OK(rc, &err);
  if (rc) return;
  const cp_pq_file_meta *m = &ft.meta;
  CHECK_INT(m->num_rows, e->num_rows);
  CHECK_INT(m->num_row_groups, e->num_row_groups);
  CHECK_INT(ft.schema.num_leaves, e->num_columns);
  if (e->created_by)
    CHECK_STR(m->created_by, e->created_by);
  else
    CHECK(m->created_by == NULL);
  for (int i = 0; i < e->num_cols; i++) {
    const expect_col *x = &e->cols[i];
    const cp_pq_schema_node *leaf = ft.schema.leaves[x->leaf];
    const cp_pq_column_meta *cm = &m->row_groups[0].columns[x->leaf].meta_data;
    CHECK_STR(leaf->path_str, x->path);
    CHECK_INT(leaf->leaf_index, x->leaf);
    CHECK_INT(leaf->element->type.value, x->type);
    CHECK_INT(leaf->max_def, x->max_def);
    CHECK_INT(leaf->max_rep, x->max_rep);
    CHECK_INT(cm->type, x->type);
    CHECK_INT(cm->codec, x->codec);
    CHECK_INT(cm->num_values, x->num_values);
    CHECK_INT(cm->total_compressed_size, x->total_compressed_size);
    CHECK_INT(cm->data_page_offset, x->data_page_offset);
    CHECK_INT(cm->dictionary_page_offset.is_set ? cm->dictionary_page_offset.value : -1,
              x->dictionary_page_offset);
    CHECK_INT(cm->has_statistics && cm->statistics.null_count.is_set
                  ? cm->statistics.null_count.value
                  : -1,
              x->null_count);
  }
  cp_pq_footer_free(&ft);
}

static void test_corpus_against_pyarrow(void) {
  for (size_t i = 0; i < sizeof k_expect / sizeof k_expect[0]; i++)
    check_expected_file(&k_expect[i]);
}

static const cp_pq_column_meta *chunk_meta(const cp_pq_footer *ft, uint32_t rg, uint32_t col) {
  return &ft->meta.row_groups[rg].columns[col].meta_data;
}

static bool bytes_are(const cp_pq_opt_bytes *b, const char *s, size_t n) {
  return b->is_set && b->len == n && memcmp(b->data, s, n) == 0;
}

static int32_t le32(const uint8_t *p) {
  return (int32_t)((uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                   (uint32_t)p[3] << 24);
}

/* Specific fields, with where each expected value comes from. */
static void test_corpus_details(void) {
  paimon_error err;
  cp_pq_footer ft;

  /* README: is_{min,max}_value_exact and the truncated bounds per column. */
  CHECK_OK(read_footer(corpus_path("data", "binary_truncated_min_max.parquet"), &ft, &err), &err);
  static const struct {
    const char *min, *max;
    bool min_exact, max_exact;
  } trunc[6] = {{"Al", "Kf", false, false},
                {"Al", "Kf", false, false},
                {"Al", "\xf0\x9f\x9a\x80Kevin Bacon", false, true},
                {"Al", "\xff\xff\x01\x02", false, true},
                {"Al", "Ke", true, true},
                {"Al", "Ke", true, true}};
  for (uint32_t c = 0; c < 6 && ft.meta.num_row_groups; c++) {
    const cp_pq_statistics *st = &chunk_meta(&ft, 0, c)->statistics;
    CHECK(bytes_are(&st->min_value, trunc[c].min, strlen(trunc[c].min)));
    CHECK(bytes_are(&st->max_value, trunc[c].max, strlen(trunc[c].max)));
    CHECK(st->is_min_value_exact.is_set && st->is_min_value_exact.value == trunc[c].min_exact);
    CHECK(st->is_max_value_exact.is_set && st->is_max_value_exact.value == trunc[c].max_exact);
  }
  /* README: STRING logical type on the utf8 columns only. */
  CHECK_INT(ft.schema.leaves[0]->element->logical_type.kind, CP_PQ_LT_STRING);
  CHECK_INT(ft.schema.leaves[1]->element->logical_type.kind, CP_PQ_LT_NONE);
  CHECK_INT(ft.meta.num_column_orders, 6);
  CHECK_INT(ft.meta.column_orders[0], CP_PQ_ORDER_TYPE_DEFINED);
  cp_pq_footer_free(&ft);

  /* README: chunk key/value metadata {"foo": "bar", "thisiskeywithoutvalue": null}. */
  CHECK_OK(read_footer(corpus_path("data", "column_chunk_key_value_metadata.parquet"), &ft, &err),
           &err);
  const cp_pq_column_meta *cm = chunk_meta(&ft, 0, 0);
  CHECK_INT(cm->num_key_value_metadata, 2);
  if (cm->num_key_value_metadata == 2) {
    CHECK_STR(cm->key_value_metadata[0].key, "foo");
    CHECK(bytes_are(&cm->key_value_metadata[0].value, "bar", 3));
    CHECK_STR(cm->key_value_metadata[1].key, "thisiskeywithoutvalue");
    CHECK(!cm->key_value_metadata[1].value.is_set);
  }
  cp_pq_footer_free(&ft);

  /* pyarrow: id min 0, max 7299, null_count 0; has_offset_index and has_column_index True. */
  CHECK_OK(read_footer(corpus_path("data", "alltypes_tiny_pages.parquet"), &ft, &err), &err);
  cm = chunk_meta(&ft, 0, 0);
  CHECK(cm->statistics.min_value.is_set && cm->statistics.min_value.len == 4);
  CHECK(cm->statistics.max_value.is_set && cm->statistics.max_value.len == 4);
  if (cm->statistics.max_value.len == 4) {
    CHECK_INT(le32(cm->statistics.min_value.data), 0);
    CHECK_INT(le32(cm->statistics.max_value.data), 7299);
  }
  CHECK(ft.meta.row_groups[0].columns[0].offset_index_offset.is_set);
  CHECK(ft.meta.row_groups[0].columns[0].column_index_offset.is_set);
  cp_pq_footer_free(&ft);
}

static void test_corpus_indexes_and_sorting(void) {
  paimon_error err;
  cp_pq_footer ft;
  const cp_pq_column_meta *cm;
  /* pyarrow: GZIP, encodings (BIT_PACKED, RLE, PLAIN), min "Hello" max "today", key/value
   * metadata writer.model.name=avro; README: bloom filter, column/offset index, encoding stats. */
  CHECK_OK(read_footer(corpus_path("data", "data_index_bloom_encoding_stats.parquet"), &ft, &err),
           &err);
  cm = chunk_meta(&ft, 0, 0);
  CHECK_INT(cm->codec, CP_PQ_CODEC_GZIP);
  CHECK_INT(cm->num_encodings, 3);
  CHECK(bytes_are(&cm->statistics.min_value, "Hello", 5));
  CHECK(bytes_are(&cm->statistics.max_value, "today", 5));
  CHECK(cm->bloom_filter_offset.is_set && cm->bloom_filter_offset.value > 0);
  CHECK(cm->num_encoding_stats > 0);
  CHECK_INT(ft.meta.num_key_value_metadata, 2);
  bool found = false;
  for (uint32_t i = 0; i < ft.meta.num_key_value_metadata; i++)
    if (strcmp(ft.meta.key_value_metadata[i].key, "writer.model.name") == 0)
      found = bytes_are(&ft.meta.key_value_metadata[i].value, "avro", 4);
  CHECK(found);
  cp_pq_footer_free(&ft);

  /* README: bloom_filter_length populated in this one. */
  CHECK_OK(
      read_footer(corpus_path("data", "data_index_bloom_encoding_with_length.parquet"), &ft, &err),
      &err);
  CHECK(chunk_meta(&ft, 0, 0)->bloom_filter_length.is_set);
  CHECK(chunk_meta(&ft, 0, 0)->bloom_filter_length.value > 0);
  cp_pq_footer_free(&ft);

  /* pyarrow: row group 1 has 3 rows; row group 0 total_byte_size 166; column b of row group 1 has
   * min "a" max "c". sorting_columns (present, README) are skipped without harm. */
  CHECK_OK(read_footer(corpus_path("data", "sort_columns.parquet"), &ft, &err), &err);
  CHECK_INT(ft.meta.row_groups[1].num_rows, 3);
  CHECK_INT(ft.meta.row_groups[0].total_byte_size, 166);
  CHECK(bytes_are(&chunk_meta(&ft, 1, 1)->statistics.min_value, "a", 1));
  CHECK(bytes_are(&chunk_meta(&ft, 1, 1)->statistics.max_value, "c", 1));
  CHECK(ft.meta.row_groups[1].ordinal.is_set && ft.meta.row_groups[1].ordinal.value == 1);
  cp_pq_footer_free(&ft);
}

static void test_corpus_types_and_orders(void) {
  paimon_error err;
  cp_pq_footer ft;
  /* pyarrow: Decimal(precision=4, scale=2) via converted type DECIMAL only (no logicalType). */
  CHECK_OK(read_footer(corpus_path("data", "int32_decimal.parquet"), &ft, &err), &err);
  const cp_pq_schema_element *el = ft.schema.leaves[0]->element;
  CHECK(el->converted_type.is_set && el->converted_type.value == CP_PQ_CT_DECIMAL);
  CHECK(el->precision.value == 4 && el->scale.value == 2);
  cp_pq_footer_free(&ft);

  /* pyarrow: FIXED_LEN_BYTE_ARRAY length 11, Decimal(precision=25, scale=2). */
  CHECK_OK(read_footer(corpus_path("data", "fixed_length_decimal.parquet"), &ft, &err), &err);
  el = ft.schema.leaves[0]->element;
  CHECK(el->type_length.is_set && el->type_length.value == 11);
  CHECK(el->precision.value == 25 && el->scale.value == 2);
  cp_pq_footer_free(&ft);

  /* pyarrow: column 5 is FLBA(2) with logical type Float16; README: IEEE754 vs TYPE_DEFINED
   * orders and nan_count in statistics. */
  CHECK_OK(read_footer(corpus_path("data", "floating_orders_nan_count.parquet"), &ft, &err), &err);
  el = ft.schema.leaves[5]->element;
  CHECK_INT(el->logical_type.kind, CP_PQ_LT_FLOAT16);
  CHECK_INT(el->type_length.value, 2);
  CHECK_INT(ft.meta.column_orders[0], CP_PQ_ORDER_IEEE_754_TOTAL);
  CHECK_INT(ft.meta.column_orders[3], CP_PQ_ORDER_TYPE_DEFINED);
  CHECK(chunk_meta(&ft, 0, 0)->statistics.nan_count.is_set);
  cp_pq_footer_free(&ft);

  /* README: an unrecognised LogicalType id (pyarrow refuses the file; we keep the id). */
  CHECK_OK(read_footer(corpus_path("data", "unknown-logical-type.parquet"), &ft, &err), &err);
  CHECK_INT(ft.schema.leaves[0]->element->logical_type.kind, CP_PQ_LT_STRING);
  CHECK_INT(ft.schema.leaves[1]->element->logical_type.kind, CP_PQ_LT_OTHER);
  CHECK(ft.schema.leaves[1]->element->logical_type.other_id > 19);
  cp_pq_footer_free(&ft);

  /* pyarrow: MAP/LIST groups; the map key is STRING and REQUIRED; levels from the table above. */
  CHECK_OK(read_footer(corpus_path("data", "nested_maps.snappy.parquet"), &ft, &err), &err);
  const cp_pq_schema_node *key = ft.schema.leaves[0];
  CHECK_INT(key->repetition, CP_PQ_REQUIRED);
  CHECK_INT(key->parent->repetition, CP_PQ_REPEATED);
  CHECK(key->parent->parent->element->converted_type.value == CP_PQ_CT_MAP);
  CHECK_INT(key->path_len, 3);
  CHECK_STR(key->path[1], "key_value");
  CHECK(ft.schema.nodes[0].leaf_index == -1 && ft.schema.nodes[0].depth == 0);
  cp_pq_footer_free(&ft);
}

/* Every data file decodes; decode → encode → decode → encode is stable byte for byte. */
static const char *const k_all_data[] = {"alltypes_dictionary.parquet",
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
                                         "datapage_v1-corrupt-checksum.parquet",
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
                                         "unknown-logical-type.parquet"};

#define N_ALL_DATA (sizeof k_all_data / sizeof k_all_data[0])

static void test_corpus_reencode_stable(void) {
  paimon_error err;
  for (size_t i = 0; i < N_ALL_DATA; i++) {
    cp_pq_footer ft;
    int rc = read_footer(corpus_path("data", k_all_data[i]), &ft, &err);
    CHECK_OK(rc, &err);
    if (rc) continue;
    cp_buf a = CP_BUF_INIT, b = CP_BUF_INIT;
    cp_pq_file_meta m2;
    CHECK_OK(cp_pq_file_meta_encode(&ft.meta, &a, &err), &err);
    CHECK_OK(cp_pq_file_meta_decode(&m2, a.data, a.len, 0, &err), &err);
    CHECK_OK(cp_pq_file_meta_encode(&m2, &b, &err), &err);
    CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
    /* Nothing the decoder keeps is lost: a re-encoded footer is never longer than the original. */
    CHECK(a.len <= ft.metadata_len);
    cp_pq_file_meta_free(&m2);
    cp_buf_free(&a);
    cp_buf_free(&b);
    cp_pq_footer_free(&ft);
  }
}

/* ---- pages: walk every chunk's page headers and check them against the footer ---- */

typedef struct walk_result {
  long long chunks, pages, crc_checked, crc_bad, padded;
} walk_result;

/* Reads pages until the chunk's num_values are seen, as page readers do; the pages must then end
 * exactly at total_compressed_size, except for PARQUET-816 files (see footer.h). */
static void walk_chunk(cp_rfile *f, const cp_pq_footer *ft, const cp_pq_column_meta *cm,
                       walk_result *res) {
  paimon_error err;
  int64_t start = cp_pq_column_chunk_start(cm);
  size_t len = (size_t)cp_pq_column_chunk_read_len(ft->meta.created_by, cm, ft->metadata_offset);
  uint8_t *buf = malloc(len ? len : 1);
  CHECK_OK(cp_rfile_read_at(f, (uint64_t)start, buf, len, &err), &err);
  size_t pos = 0;
  long long values = 0, page = 0;
  while (pos < len && values < cm->num_values) {
    cp_pq_page_header h;
    size_t hl = 0;
    int rc =
        cp_pq_page_header_decode(&h, buf + pos, len - pos, (uint64_t)start + pos, &hl, NULL, &err);
    CHECK_OK(rc, &err);
    if (rc || h.compressed_page_size < 0 || (size_t)h.compressed_page_size > len - pos - hl) break;
    if (h.type == CP_PQ_PAGE_DICTIONARY) {
      CHECK(h.has_dictionary_page_header);
      CHECK_INT(page, 0); /* the dictionary page comes first */
    } else if (h.type == CP_PQ_PAGE_DATA) {
      CHECK(h.has_data_page_header);
      values += h.data_page_header.num_values;
    } else if (h.type == CP_PQ_PAGE_DATA_V2) {
      CHECK(h.has_data_page_header_v2);
      values += h.data_page_header_v2.num_values;
    }
    if (h.crc.is_set) {
      uLong crc = crc32(0L, buf + pos + hl, (uInt)h.compressed_page_size);
      res->crc_checked++;
      if ((uint32_t)crc != (uint32_t)h.crc.value) res->crc_bad++;
    }
    pos += hl + (size_t)h.compressed_page_size;
    page++;
  }
  if (len == (size_t)cm->total_compressed_size)
    CHECK_INT(pos, len);
  else
    res->padded++;
  CHECK_INT(values, cm->num_values);
  res->chunks++;
  res->pages += page;
  free(buf);
}

static walk_result walk_file(const char *name) {
  paimon_error err;
  walk_result res = {0, 0, 0, 0, 0};
  cp_rfile *f;
  if (cp_fs_open_read(g_fs, corpus_path("data", name), &f, &err) != 0) {
    CHECK_OK(err.code, &err);
    return res;
  }
  cp_pq_footer ft;
  CHECK_OK(cp_pq_footer_read(f, &ft, &err), &err);
  for (uint32_t g = 0; g < ft.meta.num_row_groups; g++) {
    if (ft.meta.row_groups[g].num_rows == 0) continue;
    for (uint32_t c = 0; c < ft.meta.row_groups[g].num_columns; c++)
      walk_chunk(f, &ft, chunk_meta(&ft, g, c), &res);
  }
  cp_pq_footer_free(&ft);
  cp_rfile_close(f);
  return res;
}

static void test_page_headers_walk_corpus(void) {
  long long chunks = 0;
  for (size_t i = 0; i < N_ALL_DATA; i++) {
    walk_result r = walk_file(k_all_data[i]);
    chunks += r.chunks;
    bool corrupt_crc = strstr(k_all_data[i], "corrupt-checksum") != NULL;
    if (!corrupt_crc) CHECK_INT(r.crc_bad, 0);
  }
  CHECK(chunks > 500);
  /* README: these parquet-mr files carry page CRCs; the corrupt ones have a wrong CRC. */
  walk_result ok = walk_file("datapage_v1-uncompressed-checksum.parquet");
  CHECK(ok.crc_checked > 0 && ok.crc_bad == 0);
  ok = walk_file("rle-dict-snappy-checksum.parquet");
  CHECK(ok.crc_checked > 0 && ok.crc_bad == 0);
  walk_result bad = walk_file("datapage_v1-corrupt-checksum.parquet");
  CHECK(bad.crc_bad > 0);
  /* created_by "parquet-mr" without a version gets the PARQUET-816 allowance (all 4 chunks); the
   * two dictionary-encoded ones need it (DuckDB: total_compressed_size 322 and 2002). */
  walk_result nation = walk_file("nation.dict-malformed.parquet");
  CHECK_INT(nation.padded, 4);
  CHECK_INT(nation.chunks, 4);
  /* pyarrow: alltypes_tiny_pages has page indexes because it has many small pages. */
  walk_result tiny = walk_file("alltypes_tiny_pages.parquet");
  CHECK(tiny.pages > 100);
}

static void test_page_header_v2_details(void) {
  paimon_error err;
  cp_rfile *f;
  CHECK_OK(cp_fs_open_read(g_fs, corpus_path("data", "datapage_v2.snappy.parquet"), &f, &err),
           &err);
  cp_pq_footer ft;
  CHECK_OK(cp_pq_footer_read(f, &ft, &err), &err);
  /* pyarrow (table above): column "a" starts at 4 with 63 bytes, 5 values, 1 null, an optional
   * flat column. parquet-mr 1.8 put its dictionary page at data_page_offset without setting
   * dictionary_page_offset, so the data page is the second page. */
  const cp_pq_column_meta *cm = chunk_meta(&ft, 0, 0);
  uint8_t buf[63];
  CHECK_OK(cp_rfile_read_at(f, 4, buf, sizeof buf, &err), &err);
  cp_pq_page_header h;
  size_t hl = 0, at = 0;
  CHECK_OK(cp_pq_page_header_decode(&h, buf, sizeof buf, 4, &hl, NULL, &err), &err);
  CHECK_INT(h.type, CP_PQ_PAGE_DICTIONARY);
  CHECK(!cm->dictionary_page_offset.is_set);
  at = hl + (size_t)h.compressed_page_size;
  CHECK_OK(cp_pq_page_header_decode(&h, buf + at, sizeof buf - at, 4 + at, &hl, NULL, &err), &err);
  CHECK_INT(at + hl + (size_t)h.compressed_page_size, sizeof buf);
  CHECK_INT(h.type, CP_PQ_PAGE_DATA_V2);
  CHECK_INT(h.data_page_header_v2.num_values, 5);
  CHECK_INT(h.data_page_header_v2.num_nulls, 1);
  CHECK_INT(h.data_page_header_v2.num_rows, 5);
  CHECK_INT(h.data_page_header_v2.repetition_levels_byte_length, 0);
  CHECK(h.data_page_header_v2.definition_levels_byte_length > 0);
  CHECK(h.data_page_header_v2.is_compressed);
  /* A prefix of the header is reported as truncated, so a caller can read more and retry. */
  bool truncated = false;
  CHECK_ERR(cp_pq_page_header_decode(&h, buf + at, hl - 1, 4 + at, &hl, &truncated, &err),
            PAIMON_ECORRUPT);
  CHECK(truncated);
  CHECK_INT(hl, 0);
  cp_pq_footer_free(&ft);
  cp_rfile_close(f);
}

/* ---- bad files: decode or fail cleanly, with the path in the message ---- */

static void test_bad_and_encrypted_files(void) {
  paimon_error err;
  static const char *const bad[] = {
      "ARROW-GH-41317.parquet",          "ARROW-GH-41321.parquet",
      "ARROW-GH-43605.parquet",          "ARROW-GH-45185.parquet",
      "ARROW-GH-47662.parquet",          "ARROW-RS-GH-6229-DICTHEADER.parquet",
      "ARROW-RS-GH-6229-LEVELS.parquet", "PARQUET-1481.parquet"};
  int failed = 0;
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    cp_pq_footer ft;
    const char *path = corpus_path("bad_data", bad[i]);
    int rc = read_footer(path, &ft, &err);
    if (rc == 0) {
      cp_pq_footer_free(&ft);
      continue;
    }
    failed++;
    CHECK(rc == PAIMON_ECORRUPT || rc == PAIMON_EUNSUPPORTED);
    CHECK_CONTAINS(err.message, bad[i]);
  }
  /* README: PARQUET-1481 has a corrupted schema type (pyarrow: "Invalid physical column type");
   * ARROW-GH-41317 has row groups whose columns do not agree; the DICTHEADER file's chunk runs
   * past its data (pyarrow: "Invalid column metadata"). */
  CHECK(failed >= 3);
  cp_pq_footer ft;
  CHECK_ERR(read_footer(corpus_path("bad_data", "PARQUET-1481.parquet"), &ft, &err),
            PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "physical type -7");

  /* Encrypted files: the footer magic PARE, or a plaintext footer with encryption_algorithm. */
  static const char *const enc[] = {"encrypt_columns_and_footer.parquet.encrypted",
                                    "encrypt_columns_and_footer_ctr.parquet.encrypted",
                                    "encrypt_columns_and_footer_disable_aad_storage.parquet."
                                    "encrypted",
                                    "encrypt_columns_plaintext_footer.parquet.encrypted",
                                    "uniform_encryption.parquet.encrypted"};
  for (size_t i = 0; i < sizeof enc / sizeof enc[0]; i++) {
    char name[256];
    snprintf(name, sizeof name, "aes256/%s", enc[i]);
    CHECK_ERR(read_footer(corpus_path("data", name), &ft, &err), PAIMON_EUNSUPPORTED);
    CHECK_CONTAINS(err.message, "encrypted");
  }
}

/* ---- tool modes for tests/python/test_parquet_meta.py ---- */

static void json_str(const char *s) {
  if (!s) {
    fputs("null", stdout);
    return;
  }
  putchar('"');
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    if (*p == '"' || *p == '\\')
      printf("\\%c", *p);
    else if (*p < 0x20)
      printf("\\u%04x", *p);
    else
      putchar(*p);
  }
  putchar('"');
}

static void json_hex(const cp_pq_opt_bytes *b) {
  if (!b->is_set) {
    fputs("null", stdout);
    return;
  }
  putchar('"');
  for (uint32_t i = 0; i < b->len; i++) printf("%02x", b->data[i]);
  putchar('"');
}

#define JOPT(o) ((o).is_set ? printf("%lld", (long long)(o).value) : printf("null"))
#define JBOOL(o) fputs(!(o).is_set ? "null" : (o).value ? "true" : "false", stdout)

static void json_kvs(const cp_pq_key_value *kv, uint32_t n) {
  putchar('[');
  for (uint32_t i = 0; i < n; i++) {
    printf(i ? ", [" : "[");
    json_str(kv[i].key);
    printf(", ");
    json_hex(&kv[i].value);
    putchar(']');
  }
  putchar(']');
}

static void json_schema(const cp_pq_footer *ft) {
  printf(", \"schema\": [");
  for (uint32_t i = 0; i < ft->meta.num_schema; i++) {
    const cp_pq_schema_element *e = &ft->meta.schema[i];
    const cp_pq_logical_type *lt = &e->logical_type;
    const cp_pq_schema_node *n = &ft->schema.nodes[i];
    printf("%s{\"name\": ", i ? ", " : "");
    json_str(e->name);
    printf(", \"type\": ");
    JOPT(e->type);
    printf(", \"type_length\": ");
    JOPT(e->type_length);
    printf(", \"repetition\": ");
    JOPT(e->repetition_type);
    printf(", \"num_children\": ");
    JOPT(e->num_children);
    printf(", \"converted_type\": ");
    JOPT(e->converted_type);
    printf(", \"scale\": ");
    JOPT(e->scale);
    printf(", \"precision\": ");
    JOPT(e->precision);
    printf(", \"field_id\": ");
    JOPT(e->field_id);
    printf(", \"logical\": {\"kind\": %d, \"other_id\": %d, \"scale\": %d, \"precision\": %d, "
           "\"utc\": %s, \"unit\": %d, \"bit_width\": %d, \"signed\": %s}",
           lt->kind, lt->other_id, (int)lt->decimal.scale, (int)lt->decimal.precision,
           lt->time.is_adjusted_to_utc ? "true" : "false", lt->time.unit,
           (int)lt->integer.bit_width, lt->integer.is_signed ? "true" : "false");
    printf(", \"depth\": %u, \"max_def\": %d, \"max_rep\": %d, \"leaf\": %d, \"path\": ", n->depth,
           n->max_def, n->max_rep, (int)n->leaf_index);
    json_str(n->path_str);
    putchar('}');
  }
  putchar(']');
}

static void json_column(const cp_pq_column_chunk *ch) {
  const cp_pq_column_meta *cm = &ch->meta_data;
  const cp_pq_statistics *st = &cm->statistics;
  printf("{\"file_offset\": %lld, \"type\": %d, \"codec\": %d, \"encodings\": [",
         (long long)ch->file_offset, (int)cm->type, (int)cm->codec);
  for (uint32_t i = 0; i < cm->num_encodings; i++) printf("%s%d", i ? ", " : "", cm->encodings[i]);
  printf("], \"path\": [");
  for (uint32_t i = 0; i < cm->path_len; i++) {
    if (i) printf(", ");
    json_str(cm->path_in_schema[i]);
  }
  printf(
      "], \"num_values\": %lld, \"total_uncompressed_size\": %lld, "
      "\"total_compressed_size\": %lld, \"data_page_offset\": %lld, \"dictionary_page_offset\": ",
      (long long)cm->num_values, (long long)cm->total_uncompressed_size,
      (long long)cm->total_compressed_size, (long long)cm->data_page_offset);
  JOPT(cm->dictionary_page_offset);
  printf(", \"index_page_offset\": ");
  JOPT(cm->index_page_offset);
  printf(", \"offset_index_offset\": ");
  JOPT(ch->offset_index_offset);
  printf(", \"column_index_offset\": ");
  JOPT(ch->column_index_offset);
  printf(", \"bloom_filter_offset\": ");
  JOPT(cm->bloom_filter_offset);
  printf(", \"kv\": ");
  json_kvs(cm->key_value_metadata, cm->num_key_value_metadata);
  printf(", \"encoding_stats\": [");
  for (uint32_t i = 0; i < cm->num_encoding_stats; i++)
    printf("%s[%d, %d, %d]", i ? ", " : "", (int)cm->encoding_stats[i].page_type,
           (int)cm->encoding_stats[i].encoding, (int)cm->encoding_stats[i].count);
  printf("], \"stats\": ");
  if (!cm->has_statistics) {
    printf("null}");
    return;
  }
  printf("{\"null_count\": ");
  JOPT(st->null_count);
  printf(", \"distinct_count\": ");
  JOPT(st->distinct_count);
  printf(", \"nan_count\": ");
  JOPT(st->nan_count);
  printf(", \"min\": ");
  json_hex(&st->min);
  printf(", \"max\": ");
  json_hex(&st->max);
  printf(", \"min_value\": ");
  json_hex(&st->min_value);
  printf(", \"max_value\": ");
  json_hex(&st->max_value);
  printf(", \"is_min_value_exact\": ");
  JBOOL(st->is_min_value_exact);
  printf(", \"is_max_value_exact\": ");
  JBOOL(st->is_max_value_exact);
  printf("}}");
}

static int tool_dump(const char *path) {
  paimon_error err;
  cp_pq_footer ft;
  if (read_footer(path, &ft, &err) != 0) {
    fprintf(stderr, "%s\n", err.message);
    return 1;
  }
  const cp_pq_file_meta *m = &ft.meta;
  printf("{\"version\": %d, \"num_rows\": %lld, \"created_by\": ", (int)m->version,
         (long long)m->num_rows);
  json_str(m->created_by);
  printf(", \"metadata_offset\": %llu, \"kv\": ", (unsigned long long)ft.metadata_offset);
  json_kvs(m->key_value_metadata, m->num_key_value_metadata);
  printf(", \"column_orders\": [");
  for (uint32_t i = 0; i < m->num_column_orders; i++)
    printf("%s%d", i ? ", " : "", m->column_orders[i]);
  putchar(']');
  json_schema(&ft);
  printf(", \"row_groups\": [");
  for (uint32_t g = 0; g < m->num_row_groups; g++) {
    const cp_pq_row_group *rg = &m->row_groups[g];
    printf("%s{\"num_rows\": %lld, \"total_byte_size\": %lld, \"file_offset\": ", g ? ", " : "",
           (long long)rg->num_rows, (long long)rg->total_byte_size);
    JOPT(rg->file_offset);
    printf(", \"total_compressed_size\": ");
    JOPT(rg->total_compressed_size);
    printf(", \"ordinal\": ");
    JOPT(rg->ordinal);
    printf(", \"columns\": [");
    for (uint32_t c = 0; c < rg->num_columns; c++) {
      if (c) printf(", ");
      json_column(&rg->columns[c]);
    }
    printf("]}");
  }
  printf("]}\n");
  cp_pq_footer_free(&ft);
  return 0;
}

/* Rewrites `in` with everything before the footer kept and the footer re-encoded by this code. */
static int tool_reencode(const char *in, const char *out) {
  paimon_error err;
  cp_buf file = CP_BUF_INIT, result = CP_BUF_INIT;
  cp_pq_footer ft;
  int rc = cp_fs_read_file(g_fs, in, &file, (size_t)1 << 31, &err);
  if (rc == 0) rc = cp_pq_footer_parse(file.data, file.len, in, &ft, &err);
  if (rc == 0) {
    rc = cp_buf_append(&result, file.data, ft.metadata_offset, &err);
    if (rc == 0) rc = cp_pq_footer_write(&ft.meta, &result, &err);
    if (rc == 0)
      rc = cp_fs_write_file(g_fs, out, result.data, result.len, CP_CREATE_OVERWRITE, false, &err);
    cp_pq_footer_free(&ft);
  }
  if (rc) fprintf(stderr, "%s\n", err.message);
  cp_buf_free(&file);
  cp_buf_free(&result);
  return rc ? 1 : 0;
}

int main(int argc, char **argv) {
  paimon_error err;
  if (cp_fs_local_new(&g_fs, &err) != 0) {
    fprintf(stderr, "%s\n", err.message);
    return 2;
  }
  if (argc == 3 && strcmp(argv[1], "dump") == 0) {
    int rc = tool_dump(argv[2]);
    cp_fs_free(g_fs);
    return rc;
  }
  if (argc == 4 && strcmp(argv[1], "reencode") == 0) {
    int rc = tool_reencode(argv[2], argv[3]);
    cp_fs_free(g_fs);
    return rc;
  }
  RUN(test_corpus_against_pyarrow);
  RUN(test_corpus_details);
  RUN(test_corpus_indexes_and_sorting);
  RUN(test_corpus_types_and_orders);
  RUN(test_corpus_reencode_stable);
  RUN(test_page_headers_walk_corpus);
  RUN(test_page_header_v2_details);
  RUN(test_bad_and_encrypted_files);
  cp_fs_free(g_fs);
  TEST_MAIN_END();
}
