/* Tests for meta/manifest.h: round trips of every record kind and field, Java's schema shape
 * (null-first unions, _VERSION), reading a manifest written with a pypaimon-like subset schema,
 * and corrupt files. */
#include "meta/manifest.h"

#include "format/avro/container.h"
#include "meta/binary_row.h"
#include "test.h"

static cp_manifest_entry sample_entry(int i) {
  static const char *write_cols[] = {"age", "name"};
  static const char *extra[] = {"data-x.parquet.index"};
  static const int64_t seqs[] = {5, 6};
  static const int64_t nulls[] = {0, 3};
  static const bool known[] = {true, false};
  cp_manifest_entry e;
  memset(&e, 0, sizeof e);
  e.kind = i % 2 ? CP_FILE_KIND_DELETE : CP_FILE_KIND_ADD;
  e.partition.data = cp_binary_row_empty;
  e.partition.len = 12;
  e.bucket = 0;
  e.total_buckets = -1;
  cp_data_file_meta *f = &e.file;
  f->file_name = i ? "data-b.parquet" : "data-a.parquet";
  f->file_size = 1234 + i;
  f->row_count = 10 + i;
  f->min_key = e.partition;
  f->max_key = e.partition;
  f->key_stats = cp_simple_stats_empty();
  f->value_stats = cp_simple_stats_empty();
  f->value_stats.null_counts = nulls;
  f->value_stats.null_count_known = known;
  f->value_stats.n_null_counts = 2;
  f->min_sequence_number = 1;
  f->max_sequence_number = 7;
  f->schema_id = 3;
  f->extra_files.items = extra;
  f->extra_files.n = i ? 1 : 0;
  f->has_creation_time = true;
  f->creation_time_millis = 1720496663041LL;
  f->has_delete_row_count = true;
  f->has_file_source = true;
  f->file_source = CP_FILE_SOURCE_APPEND;
  f->has_value_stats_cols = true; /* [] = no stats */
  f->has_first_row_id = i == 0;
  f->first_row_id = 100;
  f->has_write_cols = i == 0;
  f->write_cols.items = write_cols;
  f->write_cols.n = 2;
  f->has_write_cols_sequences = i == 0;
  f->write_cols_sequences = seqs;
  f->n_write_cols_sequences = 2;
  f->external_path = i ? "/elsewhere/data-b.parquet" : NULL;
  return e;
}

static void check_entry_equal(const cp_manifest_entry *a, const cp_manifest_entry *b) {
  CHECK_INT(a->kind, b->kind);
  CHECK(cp_manifest_entry_same_file(a, b));
  CHECK_INT(a->total_buckets, b->total_buckets);
  CHECK_INT(a->file.file_size, b->file.file_size);
  CHECK_INT(a->file.row_count, b->file.row_count);
  CHECK_INT(a->file.min_sequence_number, b->file.min_sequence_number);
  CHECK_INT(a->file.max_sequence_number, b->file.max_sequence_number);
  CHECK_INT(a->file.schema_id, b->file.schema_id);
  CHECK_INT(a->file.has_creation_time, b->file.has_creation_time);
  CHECK_INT(a->file.creation_time_millis, b->file.creation_time_millis);
  CHECK_INT(a->file.has_first_row_id, b->file.has_first_row_id);
  if (a->file.has_first_row_id) CHECK_INT(a->file.first_row_id, b->file.first_row_id);
  CHECK_INT(a->file.has_write_cols, b->file.has_write_cols);
  if (a->file.has_write_cols) {
    CHECK_INT(a->file.write_cols.n, b->file.write_cols.n);
    CHECK_STR(a->file.write_cols.items[1], b->file.write_cols.items[1]);
  }
  CHECK_INT(a->file.has_write_cols_sequences, b->file.has_write_cols_sequences);
  if (a->file.has_write_cols_sequences)
    CHECK_INT(a->file.n_write_cols_sequences, b->file.n_write_cols_sequences);
  CHECK_INT(a->file.value_stats.n_null_counts, b->file.value_stats.n_null_counts);
  CHECK_INT(a->file.value_stats.null_count_known[1], b->file.value_stats.null_count_known[1]);
  CHECK_INT(a->file.value_stats.null_counts[0], b->file.value_stats.null_counts[0]);
  CHECK_INT(a->file.has_value_stats_cols, b->file.has_value_stats_cols);
  CHECK_INT(a->file.key_stats.min_values.len, 12);
}

static void test_manifest_round_trip(void) {
  paimon_error err;
  cp_manifest_entry in[2] = {sample_entry(0), sample_entry(1)};
  const char *codecs[] = {"zstandard", "null", "deflate", "snappy"};
  for (size_t c = 0; c < 4; c++) {
    cp_buf out = CP_BUF_INIT;
    cp_manifest_write_options opts = {.codec = codecs[c]};
    CHECK_OK(cp_manifest_file_encode(in, 2, &opts, &out, &err), &err);
    cp_arena arena = CP_ARENA_INIT;
    cp_entry_vec got = {0};
    CHECK_OK(cp_manifest_file_decode("manifest-x-0", out.data, out.len, &arena, &got, &err), &err);
    CHECK_INT(got.n, 2);
    for (size_t i = 0; i < got.n && i < 2; i++) check_entry_equal(&in[i], &got.items[i]);
    /* The header says which codec was used. */
    cp_avro_reader *r = NULL;
    CHECK_OK(cp_avro_reader_open_mem(&r, "m", out.data, out.len, NULL, &err), &err);
    if (r) CHECK_STR(cp_avro_reader_codec(r), codecs[c]);
    cp_avro_reader_free(r);
    cp_entry_vec_free(&got);
    cp_arena_free(&arena);
    cp_buf_free(&out);
  }
}

static void test_manifest_list_and_index_round_trip(void) {
  paimon_error err;
  cp_manifest_file_meta m;
  memset(&m, 0, sizeof m);
  m.file_name = "manifest-abc-0";
  m.file_size = 999;
  m.num_added_files = 3;
  m.num_deleted_files = 1;
  m.partition_stats = cp_simple_stats_empty();
  m.schema_id = 2;
  m.has_row_id_range = true;
  m.min_row_id = 0;
  m.max_row_id = 41;
  cp_buf out = CP_BUF_INIT;
  CHECK_OK(cp_manifest_list_encode(&m, 1, NULL, &out, &err), &err);
  cp_arena arena = CP_ARENA_INIT;
  cp_manifest_meta_vec metas = {0};
  CHECK_OK(cp_manifest_list_decode("manifest-list-x-0", out.data, out.len, &arena, &metas, &err),
           &err);
  CHECK_INT(metas.n, 1);
  if (metas.n) {
    CHECK_STR(metas.items[0].file_name, "manifest-abc-0");
    CHECK_INT(metas.items[0].num_deleted_files, 1);
    CHECK(!metas.items[0].has_bucket_range);
    CHECK(metas.items[0].has_row_id_range && metas.items[0].max_row_id == 41);
  }
  cp_buf_free(&out);

  cp_dv_meta dv = {"data-a.parquet", 1, 24, true, 2};
  cp_index_manifest_entry ie;
  memset(&ie, 0, sizeof ie);
  ie.partition.data = cp_binary_row_empty;
  ie.partition.len = 12;
  ie.index_type = "DELETION_VECTORS";
  ie.file_name = "index-u-0";
  ie.file_size = 33;
  ie.row_count = 1;
  ie.has_dv_ranges = true;
  ie.dv_ranges = &dv;
  ie.n_dv_ranges = 1;
  CHECK_OK(cp_index_manifest_encode(&ie, 1, NULL, &out, &err), &err);
  cp_index_entry_vec idx = {0};
  CHECK_OK(cp_index_manifest_decode("index-manifest-x", out.data, out.len, &arena, &idx, &err),
           &err);
  CHECK_INT(idx.n, 1);
  if (idx.n) {
    CHECK_STR(idx.items[0].index_type, "DELETION_VECTORS");
    CHECK_INT(idx.items[0].n_dv_ranges, 1);
    CHECK_STR(idx.items[0].dv_ranges[0].data_file, "data-a.parquet");
    CHECK_INT(idx.items[0].dv_ranges[0].length, 24);
    CHECK_INT(idx.items[0].dv_ranges[0].cardinality, 2);
  }
  /* A manifest list is not an index manifest: _VERSION differs and fields are missing. */
  cp_buf_free(&out);
  CHECK_OK(cp_manifest_list_encode(&m, 1, NULL, &out, &err), &err);
  CHECK_ERR(cp_index_manifest_decode("manifest-list-x-0", out.data, out.len, &arena, &idx, &err),
            PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "manifest-list-x-0");
  cp_index_entry_vec_free(&idx);
  cp_manifest_meta_vec_free(&metas);
  cp_arena_free(&arena);
  cp_buf_free(&out);
}

/* A manifest written with fewer DataFileMeta fields (pypaimon's 20, no _WRITE_COLS_SEQUENCES, and
 * its own record names) decodes, the missing field reading as absent. */
static void test_reads_subset_schema(void) {
  paimon_error err;
  const char *py_schema =
      "{\"type\":\"record\",\"name\":\"ManifestFileMeta\",\"fields\":["
      "{\"name\":\"_VERSION\",\"type\":\"int\"},{\"name\":\"_FILE_NAME\",\"type\":\"string\"},"
      "{\"name\":\"_FILE_SIZE\",\"type\":\"long\"},{\"name\":\"_NUM_ADDED_FILES\",\"type\":"
      "\"long\"},"
      "{\"name\":\"_NUM_DELETED_FILES\",\"type\":\"long\"},{\"name\":\"_PARTITION_STATS\",\"type\":"
      "{\"type\":\"record\",\"name\":\"record_PARTITION_STATS\",\"fields\":[{\"name\":"
      "\"_MIN_VALUES\",\"type\":\"bytes\"},{\"name\":\"_MAX_VALUES\",\"type\":\"bytes\"},{\"name\":"
      "\"_NULL_COUNTS\",\"type\":[\"null\",{\"type\":\"array\",\"items\":[\"null\",\"long\"]}],"
      "\"default\":null}]}},{\"name\":\"_SCHEMA_ID\",\"type\":\"long\"},"
      "{\"name\":\"_MIN_ROW_ID\",\"type\":[\"null\",\"long\"],\"default\":null},"
      "{\"name\":\"_MAX_ROW_ID\",\"type\":[\"null\",\"long\"],\"default\":null}]}";
  cp_avro_schema *schema = NULL;
  CHECK_OK(cp_avro_schema_parse(&schema, py_schema, strlen(py_schema), "py", &err), &err);
  cp_avro_writer *w = NULL;
  CHECK_OK(cp_avro_writer_new_mem(&w, "py", schema, NULL, &err), &err);
  cp_avro_value fields[9], stats[3], nulls_arr, nulls_branch_inner, row_min, row_max;
  memset(fields, 0, sizeof fields);
  fields[0] = cp_avro_int(2);
  fields[1] = cp_avro_string("manifest-py-0");
  fields[2] = cp_avro_long(1500);
  fields[3] = cp_avro_long(2);
  fields[4] = cp_avro_long(0);
  stats[0] = cp_avro_bytes_of(CP_AVRO_BYTES, cp_binary_row_empty, 12);
  stats[1] = stats[0];
  nulls_arr = cp_avro_null();
  nulls_arr.type = CP_AVRO_ARRAY;
  nulls_branch_inner = nulls_arr;
  stats[2] = cp_avro_branch(1, &nulls_branch_inner);
  cp_avro_value stats_rec = cp_avro_null();
  stats_rec.type = CP_AVRO_RECORD;
  stats_rec.u.record.fields = stats;
  stats_rec.u.record.count = 3;
  fields[5] = stats_rec;
  fields[6] = cp_avro_long(0);
  row_min = cp_avro_long(0);
  row_max = cp_avro_long(2);
  fields[7] = cp_avro_branch(1, &row_min);
  fields[8] = cp_avro_branch(1, &row_max);
  cp_avro_value rec = cp_avro_null();
  rec.type = CP_AVRO_RECORD;
  rec.u.record.fields = fields;
  rec.u.record.count = 9;
  CHECK_OK(cp_avro_writer_append(w, &rec, &err), &err);
  cp_buf out = CP_BUF_INIT;
  CHECK_OK(cp_avro_writer_finish(w, &out, &err), &err);
  cp_arena arena = CP_ARENA_INIT;
  cp_manifest_meta_vec metas = {0};
  CHECK_OK(cp_manifest_list_decode("py-list", out.data, out.len, &arena, &metas, &err), &err);
  CHECK_INT(metas.n, 1);
  if (metas.n) {
    CHECK_STR(metas.items[0].file_name, "manifest-py-0");
    CHECK(!metas.items[0].has_bucket_range);
    CHECK(metas.items[0].has_row_id_range && metas.items[0].max_row_id == 2);
    CHECK_INT(metas.items[0].partition_stats.n_null_counts, 0);
  }
  cp_manifest_meta_vec_free(&metas);
  cp_arena_free(&arena);
  cp_buf_free(&out);
  cp_avro_writer_free(w);
  cp_avro_schema_free(schema);
}

static void test_corrupt_manifest(void) {
  paimon_error err;
  cp_manifest_entry in = sample_entry(0);
  cp_buf out = CP_BUF_INIT;
  CHECK_OK(cp_manifest_file_encode(&in, 1, NULL, &out, &err), &err);
  cp_arena arena = CP_ARENA_INIT;
  cp_entry_vec got = {0};
  /* Truncated */
  CHECK_ERR(cp_manifest_file_decode("manifest-t-0", out.data, out.len - 5, &arena, &got, &err),
            PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "manifest-t-0");
  /* Not Avro */
  CHECK_ERR(cp_manifest_file_decode("manifest-t-1", "hello world!", 12, &arena, &got, &err),
            PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, "manifest-t-1");
  cp_entry_vec_free(&got);
  cp_arena_free(&arena);
  cp_buf_free(&out);
}

int main(void) {
  RUN(test_manifest_round_trip);
  RUN(test_manifest_list_and_index_round_trip);
  RUN(test_reads_subset_schema);
  RUN(test_corrupt_manifest);
  TEST_MAIN_END();
}
