/*
 * Statistics written by the Parquet writer (spec/parquet.md §2.3 item 5, §2.9, §4 P6-P8, P20):
 * the chunk statistics in the footer (min_value/max_value bytes, deprecated min/max only where
 * the rules allow them, null and NaN counts, the 4096-byte limit), and the Paimon datums
 * cp_pq_writer_close returns for whole top-level columns across row groups. Expected bytes are
 * PLAIN encodings written out by hand.
 */
#include "format/parquet/writer.h"

#include <math.h>

#include "test_writer_util.h"

typedef void (*fill_fn)(tw_batch *t, int batch);

/* Writes n_batches batches, each its own row group (row_group_rows = rows per batch). */
static bool write_groups(const char *tag, const char *type, fill_fn fill, int n_batches,
                         int64_t rows, tw_read *r, cp_pq_file_stats *st, tw_file *tf,
                         cp_type **row) {
  paimon_error err;
  cp_pq_writer_options o;
  cp_pq_writer_options_init(&o);
  o.row_group_rows = rows;
  *row = tw_type(type);
  CHECK_OK(tw_open(tf, tag, *row, &o, &err), &err);
  if (!tf->w) return false;
  for (int b = 0; b < n_batches; b++) {
    tw_batch t;
    tw_batch_init(&t, *row);
    fill(&t, b);
    tw_batch_finish(&t);
    CHECK_OK(cp_pq_writer_write(tf->w, &t.schema, &t.array, &err), &err);
    tw_batch_free(&t);
  }
  CHECK_OK(tw_close(tf, st, &err), &err);
  CHECK_OK(tw_read_file(r, tf->path, &err), &err);
  return r->ft.meta.schema != NULL;
}

static const cp_pq_statistics *stats_of(const tw_read *r, int rg, int col) {
  const cp_pq_column_meta *m = tw_meta(r, rg, col);
  CHECK(m->has_statistics);
  return &m->statistics;
}

static bool bytes_eq(const cp_pq_opt_bytes *b, const void *want, size_t n) {
  return b->is_set && b->len == n && memcmp(b->data, want, n) == 0;
}

/* ---- floats: Java's order, NaN above every number and -0.0 below +0.0 (stats_write.h) ---- */

static void fill_floats(tw_batch *t, int batch) {
  paimon_error err;
  cp_builder *f = tw_col(t, 0), *zeros = tw_col(t, 1), *nans = tw_col(t, 2), *d = tw_col(t, 3);
  const double fv[2][4] = {{NAN, 0.0, -0.0, 1.5}, {-3.0, -0.0, -0.0, -1.0}};
  for (int i = 0; i < 4; i++) {
    CHECK_OK(cp_builder_append_double(f, fv[batch][i], &err), &err);
    CHECK_OK(cp_builder_append_double(zeros, batch == 0 && i % 2 ? -0.0 : 0.0, &err), &err);
    CHECK_OK(cp_builder_append_double(nans, NAN, &err), &err);
    CHECK_OK(cp_builder_append_double(d, i == 0 ? -INFINITY : i == 1 ? NAN : 3.0, &err), &err);
  }
  CHECK_OK(cp_builder_append_null(f, &err), &err);
  CHECK_OK(cp_builder_append_null(zeros, &err), &err);
  CHECK_OK(cp_builder_append_null(nans, &err), &err);
  CHECK_OK(cp_builder_append_null(d, &err), &err);
}

static bool f32_bound(const cp_pq_opt_bytes *b, float *out) {
  if (!b->is_set || b->len != 4) return false;
  memcpy(out, b->data, 4);
  return true;
}

static void test_float_stats(void) {
  tw_read r;
  tw_file tf;
  cp_pq_file_stats st;
  cp_type *row;
  if (write_groups("floats", "ROW<f FLOAT, z FLOAT, n FLOAT, d DOUBLE>", fill_floats, 2, 5, &r, &st,
                   &tf, &row)) {
    static const uint8_t neg_zero[4] = {0, 0, 0, 0x80}, pos_zero[4] = {0, 0, 0, 0};
    static const uint8_t minus_three[4] = {0, 0, 0x40, 0xC0};
    float lo, hi;
    const cp_pq_statistics *s = stats_of(&r, 0, 0);
    /* Group 0: NaN, 0.0, -0.0, 1.5, NULL -> min -0.0, max NaN (as parquet-java writes them), one
     * NaN, one NULL. */
    CHECK(bytes_eq(&s->min_value, neg_zero, 4));
    CHECK(f32_bound(&s->max_value, &hi) && isnan(hi));
    CHECK(bytes_eq(&s->min, neg_zero, 4)); /* signed order: deprecated fields too */
    CHECK(f32_bound(&s->max, &hi) && isnan(hi));
    CHECK_INT(s->nan_count.value, 1);
    CHECK_INT(s->null_count.value, 1);
    /* Group 1: -3.0, -0.0, -0.0, -1.0 -> min -3.0, max -0.0 (no +0.0 among them). */
    s = stats_of(&r, 1, 0);
    CHECK(bytes_eq(&s->min_value, minus_three, 4));
    CHECK(bytes_eq(&s->max_value, neg_zero, 4));
    CHECK_INT(s->nan_count.value, 0);
    /* Both zeros: min -0.0, max +0.0; only +0.0: +0.0 both. */
    s = stats_of(&r, 0, 1);
    CHECK(bytes_eq(&s->min_value, neg_zero, 4));
    CHECK(bytes_eq(&s->max_value, pos_zero, 4));
    s = stats_of(&r, 1, 1);
    CHECK(bytes_eq(&s->min_value, pos_zero, 4));
    CHECK(bytes_eq(&s->max_value, pos_zero, 4));
    /* Only NaN: NaN both, NaNs counted. */
    s = stats_of(&r, 0, 2);
    CHECK(f32_bound(&s->min_value, &lo) && isnan(lo) && f32_bound(&s->max_value, &hi) && isnan(hi));
    CHECK_INT(s->nan_count.value, 4);
    /* DOUBLE: -inf, NaN, 3.0, 3.0 -> min -inf, max NaN. */
    s = stats_of(&r, 0, 3);
    double mn, mx;
    memcpy(&mn, s->min_value.data, 8);
    memcpy(&mx, s->max_value.data, 8);
    CHECK(isinf(mn) && mn < 0 && isnan(mx));
    /* File datums: f over both groups is -3.0 .. NaN; z is -0.0 .. +0.0; n NaN .. NaN. */
    CHECK(st.columns[0].min.v.f32 == -3.0f && isnan(st.columns[0].max.v.f32));
    CHECK(signbit(st.columns[1].min.v.f32) && !signbit(st.columns[1].max.v.f32));
    CHECK(!st.columns[2].min.is_null && isnan(st.columns[2].min.v.f32));
    CHECK(!st.columns[2].max.is_null && isnan(st.columns[2].max.v.f32));
    CHECK_INT(st.columns[2].null_count, 2);
    CHECK(isinf(st.columns[3].min.v.f64) && isnan(st.columns[3].max.v.f64));
    tw_read_free(&r);
  }
  tw_free(&tf);
  cp_type_free(row);
}

/* ---- strings: unsigned order, deprecated fields, the 4096-byte limit (§2.9, §4 P8) ---- */

static char long_a[3001], long_b[3001];

static void fill_strings(tw_batch *t, int batch) {
  paimon_error err;
  cp_builder *s = tw_col(t, 0), *same = tw_col(t, 1), *big = tw_col(t, 2);
  static const char *const groups[3][2] = {{"b", "c"}, {"a", "\xff"}, {"bb", "b"}};
  for (int i = 0; i < 2; i++) {
    CHECK_OK(cp_builder_append_str(s, groups[batch][i], &err), &err);
    CHECK_OK(cp_builder_append_str(same, "x", &err), &err);
    CHECK_OK(cp_builder_append_str(big, batch == 2 ? "small" : i ? long_a : long_b, &err), &err);
  }
}

static void test_string_stats(void) {
  memset(long_a, 'a', 3000);
  memset(long_b, 'b', 3000);
  tw_read r;
  tw_file tf;
  cp_pq_file_stats st;
  cp_type *row;
  if (write_groups("strings", "ROW<s STRING, x STRING, big BYTES>", fill_strings, 3, 2, &r, &st,
                   &tf, &row)) {
    const cp_pq_statistics *s = stats_of(&r, 0, 0);
    CHECK(bytes_eq(&s->min_value, "b", 1) && bytes_eq(&s->max_value, "c", 1));
    CHECK(!s->min.is_set && !s->max.is_set); /* unsigned order, min != max */
    s = stats_of(&r, 1, 0);
    CHECK(bytes_eq(&s->min_value, "a", 1) && bytes_eq(&s->max_value, "\xff", 1));
    s = stats_of(&r, 0, 1);
    CHECK(bytes_eq(&s->min, "x", 1) && bytes_eq(&s->max, "x", 1)); /* exact: min == max */
    /* 3000 + 3000 bytes >= 4096: no bounds in the footer; later group small again. */
    s = stats_of(&r, 0, 2);
    CHECK(!s->min_value.is_set && !s->max_value.is_set);
    CHECK_INT(s->null_count.value, 0);
    s = stats_of(&r, 2, 2);
    CHECK(bytes_eq(&s->min_value, "small", 5));
    /* File datums: byte-wise unsigned over all groups, full values however long. */
    CHECK(st.columns[0].min.v.bytes.len == 1 && st.columns[0].min.v.bytes.data[0] == 'a');
    CHECK(st.columns[0].max.v.bytes.len == 1 && st.columns[0].max.v.bytes.data[0] == 0xff);
    CHECK(st.columns[2].min.v.bytes.len == 3000 && st.columns[2].min.v.bytes.data[0] == 'a');
    CHECK(st.columns[2].max.v.bytes.len == 5 &&
          memcmp(st.columns[2].max.v.bytes.data, "small", 5) == 0);
    tw_read_free(&r);
  }
  tw_free(&tf);
  cp_type_free(row);
}

/* ---- decimals, booleans, integers, timestamps ---- */

static void fill_misc(tw_batch *t, int batch) {
  paimon_error err;
  const int64_t dec[2][2] = {{-5, 3}, {-7, -6}};
  for (int i = 0; i < 2; i++) {
    CHECK_OK(cp_builder_append_decimal128(tw_col(t, 0), cp_dec128_from_int64(dec[batch][i]), &err),
             &err);
    CHECK_OK(cp_builder_append_bool(tw_col(t, 1), batch == 0, &err), &err);
    CHECK_OK(cp_builder_append_int64(tw_col(t, 2), batch * 10 - i, &err), &err);
    CHECK_OK(cp_builder_append_int64(tw_col(t, 3), batch ? 1 : -1500, &err), &err);
    CHECK_OK(cp_builder_append_null(tw_col(t, 4), &err), &err);
  }
}

static void test_other_stats(void) {
  tw_read r;
  tw_file tf;
  cp_pq_file_stats st;
  cp_type *row;
  if (write_groups("misc", "ROW<d DECIMAL(20, 0), b BOOLEAN, i INT, ts TIMESTAMP_LTZ(3), n BIGINT>",
                   fill_misc, 2, 2, &r, &st, &tf, &row)) {
    /* FLBA(9) decimals: big-endian two's complement, signed order. */
    uint8_t m5[9], p3[9];
    memset(m5, 0xFF, 9);
    m5[8] = 0xFB;
    memset(p3, 0, 9);
    p3[8] = 3;
    const cp_pq_statistics *s = stats_of(&r, 0, 0);
    CHECK(bytes_eq(&s->min_value, m5, 9) && bytes_eq(&s->max_value, p3, 9));
    CHECK(bytes_eq(&s->min, m5, 9));
    static const uint8_t t1 = 1;
    s = stats_of(&r, 0, 1);
    CHECK(bytes_eq(&s->min_value, &t1, 1) && bytes_eq(&s->max_value, &t1, 1));
    static const uint8_t m1[4] = {0xFF, 0xFF, 0xFF, 0xFF}, z[4] = {0, 0, 0, 0};
    s = stats_of(&r, 0, 2);
    CHECK(bytes_eq(&s->min_value, m1, 4) && bytes_eq(&s->max_value, z, 4));
    CHECK(bytes_eq(&s->min, m1, 4) && bytes_eq(&s->max, z, 4));
    /* All NULL: null_count only. */
    s = stats_of(&r, 0, 4);
    CHECK(!s->min_value.is_set && s->null_count.value == 2);
    CHECK(!s->nan_count.is_set); /* only FLOAT/DOUBLE carry it */
    /* Datums. */
    CHECK(st.columns[0].min.v.dec == -7 && st.columns[0].max.v.dec == 3);
    CHECK(st.columns[1].min.v.b == false && st.columns[1].max.v.b == true);
    CHECK(st.columns[2].min.v.i64 == -1 && st.columns[2].max.v.i64 == 10);
    CHECK(st.columns[3].min.v.ts.millis == -1500 && st.columns[3].min.v.ts.nanos_of_milli == 0);
    CHECK(st.columns[3].max.v.ts.millis == 1);
    CHECK(st.columns[4].min.is_null && st.columns[4].null_count == 4);
    tw_read_free(&r);
  }
  tw_free(&tf);
  cp_type_free(row);
}

/* Null counts of nested columns: rows for the top-level column, entries for the leaves. */
static void fill_nested(tw_batch *t, int batch) {
  paimon_error err;
  (void)batch;
  cp_builder *l = tw_col(t, 0), *e = cp_builder_child(l, 0);
  CHECK_OK(cp_builder_append_null(l, &err), &err);     /* 1 entry, NULL list */
  CHECK_OK(cp_builder_end_element(l, &err), &err);     /* 1 entry, empty list */
  CHECK_OK(cp_builder_append_null(e, &err), &err);     /* 1 entry, NULL element */
  CHECK_OK(cp_builder_append_int64(e, 4, &err), &err); /* 1 value */
  CHECK_OK(cp_builder_end_element(l, &err), &err);
}

static void test_nested_null_counts(void) {
  tw_read r;
  tw_file tf;
  cp_pq_file_stats st;
  cp_type *row;
  if (write_groups("nested", "ROW<l ARRAY<INT>>", fill_nested, 1, 3, &r, &st, &tf, &row)) {
    const cp_pq_statistics *s = stats_of(&r, 0, 0);
    CHECK_INT(s->null_count.value, 3); /* every entry with def < max_def */
    CHECK(bytes_eq(&s->min_value, "\x04\0\0\0", 4));
    CHECK_INT(st.columns[0].null_count, 1);
    CHECK(st.columns[0].min.is_null);
    tw_read_free(&r);
  }
  tw_free(&tf);
  cp_type_free(row);
}

int main(void) {
  paimon_error err;
  if (cp_fs_local_new(&tw_fs, &err) != 0) return 1;
  RUN(test_float_stats);
  RUN(test_string_stats);
  RUN(test_other_stats);
  RUN(test_nested_null_counts);
  cp_fs_free(tw_fs);
  TEST_MAIN_END();
}
