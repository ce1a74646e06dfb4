/*
 * The public single-file Parquet API (include/cpaimon/parquet.h): a file written through it reads
 * back through it with every option (columns by name and field id, target types, absent columns,
 * row groups, row ranges, batch size); the statistics come out as paimon_value; bad arguments are
 * refused before a file is made, a failed write leaves no file, and errors name the path.
 */
#include <unistd.h>

#include "arrow/stream.h"
#include "cpaimon/parquet.h"
#include "test_writer_util.h"

static char path_a[512];

/* Rows: (1, 'b', -1.50, ts 1700000000123456 us, [1, 2]), (2, 'a', 2.25, -5 us, []),
 * (NULL, NULL, NULL, NULL, NULL) in one batch; (3, 'c', 0.00, 0, [3]) in a second. */
static const char *ROW_TYPE =
    "ROW<id INT, s STRING, d DECIMAL(10, 2), ts TIMESTAMP_LTZ(6), tags ARRAY<INT>>";

static void build_batch(tw_batch *b, const cp_type *row, int which) {
  paimon_error err;
  tw_batch_init(b, row);
  cp_builder *tags = tw_col(b, 4);
  if (which == 0) {
    CHECK_OK(cp_builder_append_int64(tw_col(b, 0), 1, &err), &err);
    CHECK_OK(cp_builder_append_int64(tw_col(b, 0), 2, &err), &err);
    CHECK_OK(cp_builder_append_null(tw_col(b, 0), &err), &err);
    CHECK_OK(cp_builder_append_str(tw_col(b, 1), "b", &err), &err);
    CHECK_OK(cp_builder_append_str(tw_col(b, 1), "a", &err), &err);
    CHECK_OK(cp_builder_append_null(tw_col(b, 1), &err), &err);
    CHECK_OK(cp_builder_append_decimal128(tw_col(b, 2), cp_dec128_from_int64(-150), &err), &err);
    CHECK_OK(cp_builder_append_decimal128(tw_col(b, 2), cp_dec128_from_int64(225), &err), &err);
    CHECK_OK(cp_builder_append_null(tw_col(b, 2), &err), &err);
    CHECK_OK(cp_builder_append_int64(tw_col(b, 3), 1700000000123456LL, &err), &err);
    CHECK_OK(cp_builder_append_int64(tw_col(b, 3), -5, &err), &err);
    CHECK_OK(cp_builder_append_null(tw_col(b, 3), &err), &err);
    CHECK_OK(cp_builder_append_int64(cp_builder_child(tags, 0), 1, &err), &err);
    CHECK_OK(cp_builder_append_int64(cp_builder_child(tags, 0), 2, &err), &err);
    CHECK_OK(cp_builder_end_element(tags, &err), &err);
    CHECK_OK(cp_builder_end_element(tags, &err), &err);
    CHECK_OK(cp_builder_append_null(tags, &err), &err);
  } else {
    CHECK_OK(cp_builder_append_int64(tw_col(b, 0), 3, &err), &err);
    CHECK_OK(cp_builder_append_str(tw_col(b, 1), "c", &err), &err);
    CHECK_OK(cp_builder_append_decimal128(tw_col(b, 2), cp_dec128_from_int64(0), &err), &err);
    CHECK_OK(cp_builder_append_int64(tw_col(b, 3), 0, &err), &err);
    CHECK_OK(cp_builder_append_int64(cp_builder_child(tags, 0), 3, &err), &err);
    CHECK_OK(cp_builder_end_element(tags, &err), &err);
  }
  tw_batch_finish(b);
}

/* A stream of the two batches (moved in). */
static void make_stream(struct ArrowArrayStream *s, const char *row_sql) {
  paimon_error err;
  cp_type *row = tw_type(row_sql);
  tw_batch b0, b1;
  build_batch(&b0, row, 0);
  build_batch(&b1, row, 1);
  struct ArrowArray arrays[2] = {b0.array, b1.array};
  b0.array.release = NULL;
  b1.array.release = NULL;
  struct ArrowSchema schema = b0.schema;
  b0.schema.release = NULL;
  CHECK_OK(cp_stream_from_batches(s, &schema, arrays, 2, &err), &err);
  tw_batch_free(&b0);
  tw_batch_free(&b1);
  cp_type_free(row);
}

static bool file_exists(const char *p) { return access(p, F_OK) == 0; }

static void test_write_stats(void) {
  paimon_error err;
  struct ArrowArrayStream s;
  make_stream(&s, ROW_TYPE);
  paimon_parquet_write_options o;
  paimon_parquet_write_options_init(&o);
  int32_t ids[] = {10, 11, 12, 13, 14};
  o.field_ids = ids;
  o.num_field_ids = 5;
  o.row_group_rows = 2; /* 4 rows → 2 row groups */
  paimon_parquet_file_stats *st = NULL;
  CHECK_OK(paimon_parquet_write(path_a, ROW_TYPE, &s, &o, &st, &err), &err);
  CHECK(s.release != NULL); /* still the caller's */
  s.release(&s);
  CHECK(st != NULL);
  if (!st) return;
  CHECK_INT(st->num_rows, 4);
  CHECK_INT(st->num_row_groups, 2);
  CHECK(st->file_size > 0);
  CHECK_INT(st->num_columns, 5);
  const paimon_parquet_column_stats *c = st->columns;
  CHECK_STR(c[0].name, "id");
  CHECK_INT(c[0].null_count, 1);
  CHECK_INT(c[0].min.kind, PAIMON_VALUE_INT);
  CHECK_INT(c[0].min.i64, 1);
  CHECK_INT(c[0].max.i64, 3);
  CHECK_INT(c[1].min.kind, PAIMON_VALUE_STRING);
  CHECK(c[1].min.len == 1 && c[1].min.bytes[0] == 'a');
  CHECK(c[1].max.len == 1 && c[1].max.bytes[0] == 'c');
  CHECK_INT(c[2].min.kind, PAIMON_VALUE_DECIMAL);
  CHECK_INT(c[2].min.decimal_high, -1);
  CHECK(c[2].min.decimal_low == (uint64_t)-150);
  CHECK_INT(c[2].min.decimal_scale, 2);
  CHECK_INT(c[2].max.decimal_high, 0);
  CHECK(c[2].max.decimal_low == 225);
  CHECK_INT(c[3].min.kind, PAIMON_VALUE_TIMESTAMP_LTZ);
  CHECK_INT(c[3].min.millis, -1); /* -5 us: floor to the millisecond, 995 us after it */
  CHECK_INT(c[3].min.nanos_of_milli, 995000);
  CHECK_INT(c[3].max.millis, 1700000000123LL);
  CHECK_INT(c[3].max.nanos_of_milli, 456000);
  CHECK_INT(c[4].null_count, 1);
  CHECK_INT(c[4].min.kind, PAIMON_VALUE_NULL); /* nested: no bounds */
  paimon_parquet_file_stats_free(st);
  paimon_parquet_file_stats_free(NULL);
}

/* All batches of a stream, counted; the first column of each as int64 values (-1 for NULL) and
 * the null count of column `nulls_of`. */
static int64_t drain(struct ArrowArrayStream *s, int64_t *firsts, int64_t cap, int64_t *batches,
                     int nulls_of, int64_t *nulls, char *format0, size_t format_len) {
  paimon_error err;
  struct ArrowSchema schema;
  int64_t n = 0;
  *batches = 0;
  *nulls = 0;
  CHECK_OK(cp_stream_get_schema(s, &schema, &err), &err);
  snprintf(format0, format_len, "%s", schema.n_children ? schema.children[0]->format : "");
  bool is32 = strcmp(format0, "i") == 0;
  schema.release(&schema);
  for (;;) {
    struct ArrowArray b;
    if (cp_stream_next(s, &b, &err) != 0 || !b.release) break;
    (*batches)++;
    const struct ArrowArray *c0 = b.children[0];
    const uint8_t *valid = c0->buffers[0];
    for (int64_t i = 0; i < c0->length && n < cap; i++, n++) {
      int64_t j = i + c0->offset;
      bool ok = !valid || (valid[j / 8] >> (j % 8) & 1);
      firsts[n] = !ok    ? -1
                  : is32 ? ((const int32_t *)c0->buffers[1])[j]
                         : ((const int64_t *)c0->buffers[1])[j];
    }
    if (nulls_of >= 0) *nulls += b.children[nulls_of]->null_count;
    b.release(&b);
  }
  s->release(s);
  return n;
}

static void test_read_options(void) {
  paimon_error err;
  struct ArrowArrayStream s;
  int64_t v[8], batches, nulls;
  char fmt[16];

  /* NULL options: every column as written. */
  CHECK_OK(paimon_parquet_read(path_a, NULL, &s, &err), &err);
  CHECK_INT(drain(&s, v, 8, &batches, 1, &nulls, fmt, sizeof fmt), 4);
  CHECK_STR(fmt, "i");
  CHECK_INT(v[0], 1);
  CHECK_INT(v[2], -1);
  CHECK_INT(v[3], 3);
  CHECK_INT(nulls, 1);

  /* By name with a wider type, by field id, and an absent column with a type. */
  paimon_parquet_column cols[] = {{"id", 0, "BIGINT"}, {NULL, 12, NULL}, {"missing", 0, "INT"}};
  paimon_parquet_read_options o = {0};
  o.columns = cols;
  o.num_columns = 3;
  o.batch_size = 1;
  CHECK_OK(paimon_parquet_read(path_a, &o, &s, &err), &err);
  CHECK_INT(drain(&s, v, 8, &batches, 2, &nulls, fmt, sizeof fmt), 4);
  CHECK_STR(fmt, "l");
  CHECK_INT(batches, 4);
  CHECK_INT(nulls, 4); /* "missing" is all NULL */
  CHECK_INT(v[1], 2);

  /* Row groups in the given order, then row ranges. */
  int32_t rgs[] = {1, 0};
  paimon_parquet_read_options g = {0};
  g.row_groups = rgs;
  g.num_row_groups = 2;
  CHECK_OK(paimon_parquet_read(path_a, &g, &s, &err), &err);
  CHECK_INT(drain(&s, v, 8, &batches, -1, &nulls, fmt, sizeof fmt), 4);
  CHECK_INT(v[0], -1);
  CHECK_INT(v[1], 3);
  CHECK_INT(v[2], 1);
  paimon_parquet_row_range ranges[] = {{1, 2}, {3, 100}};
  paimon_parquet_read_options r = {0};
  r.row_ranges = ranges;
  r.num_row_ranges = 2;
  CHECK_OK(paimon_parquet_read(path_a, &r, &s, &err), &err);
  CHECK_INT(drain(&s, v, 8, &batches, -1, &nulls, fmt, sizeof fmt), 2);
  CHECK_INT(v[0], 2);
  CHECK_INT(v[1], 3);
}

static void test_read_errors(void) {
  paimon_error err;
  struct ArrowArrayStream s;
  paimon_parquet_column nope[] = {{"nope", 0, NULL}};
  paimon_parquet_read_options o = {0};
  o.columns = nope;
  o.num_columns = 1;
  CHECK_ERR(paimon_parquet_read(path_a, &o, &s, &err), PAIMON_ENOTFOUND);
  CHECK_CONTAINS(err.message, "'nope'");
  CHECK_CONTAINS(err.message, path_a);
  CHECK(s.release == NULL);
  paimon_parquet_column badtype[] = {{"id", 0, "INTEGR"}};
  o.columns = badtype;
  CHECK_ERR(paimon_parquet_read(path_a, &o, &s, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "INTEGR");
  paimon_parquet_column narrowing[] = {{"s", 0, "INT"}};
  o.columns = narrowing;
  CHECK(paimon_parquet_read(path_a, &o, &s, &err) != 0);
  CHECK_CONTAINS(err.message, "s");
  int32_t rg[] = {7};
  paimon_parquet_read_options g = {0};
  g.row_groups = rg;
  g.num_row_groups = 1;
  CHECK(paimon_parquet_read(path_a, &g, &s, &err) != 0);
  CHECK_CONTAINS(err.message, "7");
  g.batch_size = -1;
  CHECK_ERR(paimon_parquet_read(path_a, &g, &s, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "batch_size");
  CHECK_ERR(paimon_parquet_read("/nonexistent/dir/f.parquet", NULL, &s, &err), PAIMON_ENOTFOUND);
  CHECK_CONTAINS(err.message, "/nonexistent/dir/f.parquet");
  CHECK_ERR(paimon_parquet_read("ftp://host/f.parquet", NULL, &s, &err), PAIMON_EUNSUPPORTED);
  CHECK_CONTAINS(err.message, "ftp");
  CHECK_ERR(paimon_parquet_read(NULL, NULL, &s, &err), PAIMON_EINVAL);

  /* Not a Parquet file: ECORRUPT naming it. */
  char junk[600];
  snprintf(junk, sizeof junk, "%s", tw_new_path("junk"));
  FILE *f = fopen(junk, "w");
  fputs("this is not parquet", f);
  fclose(f);
  CHECK_ERR(paimon_parquet_read(junk, NULL, &s, &err), PAIMON_ECORRUPT);
  CHECK_CONTAINS(err.message, junk);
  unlink(junk);
}

static void test_write_errors(void) {
  paimon_error err;
  char p[600];
  snprintf(p, sizeof p, "%s", tw_new_path("bad"));
  struct ArrowArrayStream s;
  make_stream(&s, ROW_TYPE);
  paimon_parquet_write_options o;
  paimon_parquet_write_options_init(&o);

  CHECK_ERR(paimon_parquet_write(p, "BIGINT", &s, NULL, NULL, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "ROW<...>");
  CHECK_ERR(paimon_parquet_write(p, "ROW<a FOO>", &s, NULL, NULL, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "FOO");
  o.codec = "brotli";
  CHECK_ERR(paimon_parquet_write(p, ROW_TYPE, &s, &o, NULL, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "brotli");
  o.codec = NULL;
  int32_t ids[] = {1, 2};
  o.field_ids = ids;
  o.num_field_ids = 2;
  CHECK_ERR(paimon_parquet_write(p, ROW_TYPE, &s, &o, NULL, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "2 field ids given; the type has 5 columns, 5 fields");
  o.field_ids = NULL;
  o.num_field_ids = 0;
  o.page_size = 0;
  CHECK_ERR(paimon_parquet_write(p, ROW_TYPE, &s, &o, NULL, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "positive");
  CHECK(!file_exists(p)); /* refused before a file was made */

  /* The batches do not match the row type: the partial file is removed. */
  paimon_parquet_file_stats *st = (paimon_parquet_file_stats *)&o; /* must be reset */
  CHECK(paimon_parquet_write(p,
                             "ROW<id STRING, s STRING, d DECIMAL(10, 2), ts "
                             "TIMESTAMP_LTZ(6), tags ARRAY<INT>>",
                             &s, NULL, &st, &err) != 0);
  CHECK(st == NULL);
  CHECK_CONTAINS(err.message, p);
  CHECK_CONTAINS(err.message, "id");
  CHECK(!file_exists(p));
  s.release(&s);
}

/* Field ids for the whole tree (a field before those nested in it), read back by nested id. */
static void test_nested_field_ids(void) {
  paimon_error err;
  const char *row_sql = "ROW<id INT, r ROW<x INT, y STRING>>";
  cp_type *row = tw_type(row_sql);
  tw_batch b;
  tw_batch_init(&b, row);
  cp_builder *r = tw_col(&b, 1);
  CHECK_OK(cp_builder_append_int64(tw_col(&b, 0), 7, &err), &err);
  CHECK_OK(cp_builder_append_int64(cp_builder_child(r, 0), 70, &err), &err);
  CHECK_OK(cp_builder_append_str(cp_builder_child(r, 1), "seven", &err), &err);
  CHECK_OK(cp_builder_end_element(r, &err), &err);
  tw_batch_finish(&b);
  struct ArrowArrayStream s;
  struct ArrowSchema schema = b.schema;
  b.schema.release = NULL;
  struct ArrowArray arr = b.array;
  b.array.release = NULL;
  CHECK_OK(cp_stream_from_batches(&s, &schema, &arr, 1, &err), &err);
  char p[600];
  snprintf(p, sizeof p, "%s", tw_new_path("nested"));
  paimon_parquet_write_options o;
  paimon_parquet_write_options_init(&o);
  int32_t ids[] = {5, 6, 8, 9}; /* id, r, r.x, r.y */
  o.field_ids = ids;
  o.num_field_ids = 4;
  o.codec = "snappy";
  CHECK_OK(paimon_parquet_write(p, row_sql, &s, &o, NULL, &err), &err);
  s.release(&s);
  /* by the top-level ids given */
  paimon_parquet_column cols[] = {{NULL, 6, NULL}, {NULL, 5, NULL}};
  paimon_parquet_read_options ro = {0};
  ro.columns = cols;
  ro.num_columns = 2;
  CHECK_OK(paimon_parquet_read(p, &ro, &s, &err), &err);
  struct ArrowSchema got;
  CHECK_OK(cp_stream_get_schema(&s, &got, &err), &err);
  CHECK_INT(got.n_children, 2);
  CHECK_STR(got.children[0]->name, "r");
  CHECK_INT(got.children[0]->n_children, 2);
  CHECK_STR(got.children[1]->name, "id");
  got.release(&got);
  s.release(&s);
  /* the nested ids: the footer's schema holds 5, 6, 8, 9 in pre-order */
  tw_read tr;
  CHECK_OK(tw_read_file(&tr, p, &err), &err);
  int32_t seen[4] = {0};
  int k = 0;
  for (uint32_t i = 1; i < tr.ft.meta.num_schema && k < 4; i++)
    seen[k++] = tr.ft.meta.schema[i].field_id.value;
  CHECK_INT(seen[0], 5);
  CHECK_INT(seen[1], 6);
  CHECK_INT(seen[2], 8);
  CHECK_INT(seen[3], 9);
  tw_read_free(&tr);
  unlink(p);
  tw_batch_free(&b);
  cp_type_free(row);
}

int main(void) {
  paimon_error err;
  if (cp_fs_local_new(&tw_fs, &err) != 0) return 1;
  snprintf(path_a, sizeof path_a, "%s", tw_new_path("api"));
  RUN(test_write_stats);
  RUN(test_read_options);
  RUN(test_read_errors);
  RUN(test_write_errors);
  RUN(test_nested_field_ids);
  unlink(path_a);
  cp_fs_free(tw_fs);
  TEST_MAIN_END();
}
