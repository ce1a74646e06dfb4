/*
 * Error paths of the Parquet writer (writer.h): batches whose Arrow types do not match the row
 * type (and the equivalents that are accepted), NULLs in NOT NULL columns at every nesting level
 * with Java's message (spec/parquet.md §4 P21) — after which the writer keeps working — values the
 * physical type cannot hold, bad options and types, misuse of a closed or failed writer, and
 * every write of a file failed in turn through the fault injection of base/fs.h.
 */
#include "format/parquet/writer.h"

#include "arrow/schema.h"
#include "test_writer_util.h"

/* Writes a batch of `batch_row` (an Arrow record-batch schema made from that Paimon type) filled
 * by fill() to an open writer; returns the status. */
typedef void (*fill_fn)(tw_batch *t);

static int write_batch(cp_pq_writer *w, const cp_type *batch_row, fill_fn fill, paimon_error *err) {
  tw_batch t;
  tw_batch_init(&t, batch_row);
  fill(&t);
  tw_batch_finish(&t);
  int rc = cp_pq_writer_write(w, &t.schema, &t.array, err);
  tw_batch_free(&t);
  return rc;
}

static int64_t rows_in(const char *path) {
  tw_read r;
  paimon_error err;
  int64_t n = -1;
  if (tw_read_file(&r, path, &err) == 0) n = r.ft.meta.num_rows;
  tw_read_free(&r);
  return n;
}

/* ---- Arrow types ---- */

static void fill_a_s(tw_batch *t) {
  paimon_error err;
  CHECK_OK(cp_builder_append_int64(tw_col(t, 0), 5, &err), &err);
  CHECK_OK(cp_builder_append_str(tw_col(t, 1), "five", &err), &err);
}

static void fill_a(tw_batch *t) {
  paimon_error err;
  CHECK_OK(cp_builder_append_int64(tw_col(t, 0), 5, &err), &err);
}

static void fill_list(tw_batch *t) {
  paimon_error err;
  CHECK_OK(cp_builder_append_int64(cp_builder_child(tw_col(t, 0), 0), 5, &err), &err);
  CHECK_OK(cp_builder_end_element(tw_col(t, 0), &err), &err);
}

static void test_type_mismatch(void) {
  cp_type *row = tw_type("ROW<a INT, s STRING>");
  cp_type *wrong = tw_type("ROW<a BIGINT, s STRING>");
  cp_type *fewer = tw_type("ROW<a INT>");
  cp_type *lrow = tw_type("ROW<l ARRAY<INT>>"), *lwrong = tw_type("ROW<l ARRAY<BIGINT>>");
  paimon_error err;
  tw_file tf;
  CHECK_OK(tw_open(&tf, "mismatch", row, NULL, &err), &err);
  if (tf.w) {
    CHECK_ERR(write_batch(tf.w, wrong, fill_a_s, &err), PAIMON_EINVAL);
    CHECK_CONTAINS(err.message, "column 'a'");
    CHECK_CONTAINS(err.message, "int64");
    CHECK_CONTAINS(err.message, "Paimon type INT");
    CHECK_CONTAINS(err.message, "expected int32");
    CHECK_ERR(write_batch(tf.w, fewer, fill_a, &err), PAIMON_EINVAL);
    CHECK_CONTAINS(err.message, "1 columns but the file has 2");
    /* The writer is unchanged and takes a good batch. */
    CHECK_OK(write_batch(tf.w, row, fill_a_s, &err), &err);
    CHECK_INT(cp_pq_writer_row_count(tf.w), 1);
    CHECK_OK(tw_close(&tf, NULL, &err), &err);
    CHECK_INT(rows_in(tf.path), 1);
  }
  tw_free(&tf);
  CHECK_OK(tw_open(&tf, "mismatch2", lrow, NULL, &err), &err);
  if (tf.w) {
    CHECK_ERR(write_batch(tf.w, lwrong, fill_list, &err), PAIMON_EINVAL);
    CHECK_CONTAINS(err.message, "column 'l.element'");
    /* Not a struct at the top. */
    struct ArrowSchema s;
    struct ArrowArray a;
    memset(&a, 0, sizeof a);
    CHECK_OK(cp_schema_init(&s, "i", "x", 0, 0, &err), &err);
    CHECK_ERR(cp_pq_writer_write(tf.w, &s, &a, &err), PAIMON_EINVAL);
    CHECK_CONTAINS(err.message, "struct");
    cp_schema_release(&s);
  }
  tw_free(&tf);
  cp_type_free(row);
  cp_type_free(wrong);
  cp_type_free(fewer);
  cp_type_free(lrow);
  cp_type_free(lwrong);
}

/* large_utf8, large_binary, large_list and a non-UTC zone for TIMESTAMP_LTZ are accepted. */
static void test_equivalent_types(void) {
  cp_type *row = tw_type("ROW<s STRING, b BYTES, l ARRAY<INT>, t TIMESTAMP_LTZ(6)>");
  paimon_error err;
  struct ArrowSchema kids[4], item, schema;
  CHECK_OK(cp_schema_init(&kids[0], "U", "s", ARROW_FLAG_NULLABLE, 0, &err), &err);
  CHECK_OK(cp_schema_init(&kids[1], "Z", "b", ARROW_FLAG_NULLABLE, 0, &err), &err);
  CHECK_OK(cp_schema_init(&item, "i", "item", ARROW_FLAG_NULLABLE, 0, &err), &err);
  CHECK_OK(cp_schema_make_list(&kids[2], "l", ARROW_FLAG_NULLABLE, true, &item, &err), &err);
  CHECK_OK(cp_schema_init(&kids[3], "tsu:Europe/Paris", "t", ARROW_FLAG_NULLABLE, 0, &err), &err);
  CHECK_OK(cp_schema_make_struct(&schema, "", 0, kids, 4, &err), &err);
  cp_builder *b;
  CHECK_OK(cp_builder_create(&b, &schema, &err), &err);
  for (int r = 0; r < 3; r++) {
    CHECK_OK(cp_builder_append_str(cp_builder_child(b, 0), "large", &err), &err);
    CHECK_OK(cp_builder_append_bytes(cp_builder_child(b, 1), "\0\1", 2, &err), &err);
    cp_builder *l = cp_builder_child(b, 2);
    CHECK_OK(cp_builder_append_int64(cp_builder_child(l, 0), r, &err), &err);
    CHECK_OK(cp_builder_end_element(l, &err), &err);
    CHECK_OK(cp_builder_append_int64(cp_builder_child(b, 3), 1000 * r, &err), &err);
    CHECK_OK(cp_builder_end_element(b, &err), &err);
  }
  struct ArrowArray a;
  CHECK_OK(cp_builder_finish(b, &a, &err), &err);
  tw_file tf;
  cp_pq_file_stats st;
  CHECK_OK(tw_open(&tf, "equiv", row, NULL, &err), &err);
  if (tf.w) {
    CHECK_OK(cp_pq_writer_write(tf.w, &schema, &a, &err), &err);
    CHECK_OK(tw_close(&tf, &st, &err), &err);
    tw_read r;
    CHECK_OK(tw_read_file(&r, tf.path, &err), &err);
    tw_chunk c;
    CHECK_OK(tw_decode_chunk(&r, 0, 0, &c, &err), &err);
    CHECK(c.n_values == 3 && tw_str_is(&c, 2, "large"));
    tw_chunk_free(&c);
    CHECK_OK(tw_decode_chunk(&r, 0, 2, &c, &err), &err);
    CHECK(c.n_values == 3 && tw_int(&c, 4, 2) == 2);
    tw_chunk_free(&c);
    CHECK_OK(tw_decode_chunk(&r, 0, 3, &c, &err), &err);
    CHECK(c.n_values == 3 && tw_int(&c, 8, 2) == 2000);
    tw_chunk_free(&c);
    CHECK(st.columns[3].max.v.ts.millis == 2 && st.columns[3].max.v.ts.nanos_of_milli == 0);
    tw_read_free(&r);
  }
  tw_free(&tf);
  cp_array_release(&a);
  cp_builder_free(b);
  cp_schema_release(&schema);
  cp_type_free(row);
}

/* VARIANT children must be binaries named value, metadata in that order. */
static void test_variant_shape(void) {
  cp_type *row = tw_type("ROW<v VARIANT>");
  paimon_error err;
  struct ArrowSchema kids[2], v, schema;
  CHECK_OK(cp_schema_init(&kids[0], "z", "metadata", 0, 0, &err), &err);
  CHECK_OK(cp_schema_init(&kids[1], "z", "value", 0, 0, &err), &err);
  CHECK_OK(cp_schema_make_struct(&v, "v", ARROW_FLAG_NULLABLE, kids, 2, &err), &err);
  CHECK_OK(cp_schema_make_struct(&schema, "", 0, &v, 1, &err), &err);
  tw_file tf;
  CHECK_OK(tw_open(&tf, "variant", row, NULL, &err), &err);
  if (tf.w) {
    struct ArrowArray a;
    memset(&a, 0, sizeof a);
    CHECK_ERR(cp_pq_writer_write(tf.w, &schema, &a, &err), PAIMON_EINVAL);
    CHECK_CONTAINS(err.message, "column 'v'");
    CHECK_CONTAINS(err.message, "VARIANT");
  }
  tw_free(&tf);
  cp_schema_release(&schema);
  cp_type_free(row);
}

/* ---- NULL in NOT NULL (§4 P21) ---- */

static void fill_null_a(tw_batch *t) {
  paimon_error err;
  CHECK_OK(cp_builder_append_int64(tw_col(t, 0), 1, &err), &err);
  CHECK_OK(cp_builder_append_null(tw_col(t, 0), &err), &err);
  CHECK_OK(cp_builder_append_str(tw_col(t, 1), "x", &err), &err);
  CHECK_OK(cp_builder_append_null(tw_col(t, 1), &err), &err);
}

static void fill_good_a(tw_batch *t) {
  paimon_error err;
  for (int i = 0; i < 3; i++) {
    CHECK_OK(cp_builder_append_int64(tw_col(t, 0), i, &err), &err);
    CHECK_OK(cp_builder_append_null(tw_col(t, 1), &err), &err);
  }
}

static void test_null_top_level(void) {
  cp_type *row = tw_type("ROW<a INT NOT NULL, b STRING>");
  paimon_error err;
  tw_file tf;
  CHECK_OK(tw_open(&tf, "nn", row, NULL, &err), &err);
  if (tf.w) {
    CHECK_ERR(write_batch(tf.w, row, fill_null_a, &err), PAIMON_EINVAL);
    CHECK_STR(err.message, "Cannot write null to non-null column(a)");
    CHECK_INT(cp_pq_writer_row_count(tf.w), 0);
    CHECK_OK(write_batch(tf.w, row, fill_good_a, &err), &err);
    CHECK_OK(tw_close(&tf, NULL, &err), &err);
    CHECK_INT(rows_in(tf.path), 3);
  }
  tw_free(&tf);
  cp_type_free(row);
}

/* s.x NOT NULL: NULL while s is present fails; NULL hidden under a NULL s is fine. */
static void fill_struct_bad(tw_batch *t) {
  paimon_error err;
  cp_builder *s = tw_col(t, 0);
  CHECK_OK(cp_builder_append_null(cp_builder_child(s, 0), &err), &err);
  CHECK_OK(cp_builder_append_int64(cp_builder_child(s, 1), 1, &err), &err);
  CHECK_OK(cp_builder_end_element(s, &err), &err);
}

static void fill_struct_hidden(tw_batch *t) {
  paimon_error err;
  cp_builder *s = tw_col(t, 0);
  CHECK_OK(cp_builder_append_null(s, &err), &err); /* x's slot is NULL under a NULL s */
  CHECK_OK(cp_builder_append_int64(cp_builder_child(s, 0), 2, &err), &err);
  CHECK_OK(cp_builder_append_null(cp_builder_child(s, 1), &err), &err);
  CHECK_OK(cp_builder_end_element(s, &err), &err);
}

static void fill_list_bad(tw_batch *t) {
  paimon_error err;
  cp_builder *l = tw_col(t, 0), *e = cp_builder_child(l, 0);
  CHECK_OK(cp_builder_append_int64(e, 1, &err), &err);
  CHECK_OK(cp_builder_append_null(e, &err), &err);
  CHECK_OK(cp_builder_end_element(l, &err), &err);
}

static void fill_list_null(tw_batch *t) {
  paimon_error err;
  CHECK_OK(cp_builder_append_null(tw_col(t, 0), &err), &err);
}

static void fill_map_bad(tw_batch *t) {
  paimon_error err;
  cp_builder *m = tw_col(t, 0);
  CHECK_OK(cp_builder_append_str(cp_builder_map_keys(m), "k", &err), &err);
  CHECK_OK(cp_builder_append_null(cp_builder_map_values(m), &err), &err);
  CHECK_OK(cp_builder_end_element(m, &err), &err);
}

static void check_null_error(const char *type, fill_fn fill, const char *want, int64_t rows) {
  cp_type *row = tw_type(type);
  paimon_error err;
  tw_file tf;
  CHECK_OK(tw_open(&tf, "nested_nn", row, NULL, &err), &err);
  if (tf.w) {
    int rc = write_batch(tf.w, row, fill, &err);
    if (want) {
      CHECK_INT(rc, PAIMON_EINVAL);
      CHECK_STR(err.message, want);
    } else {
      CHECK_OK(rc, &err);
    }
    CHECK_OK(tw_close(&tf, NULL, &err), &err);
    CHECK_INT(rows_in(tf.path), want ? 0 : rows);
  }
  tw_free(&tf);
  cp_type_free(row);
}

static void test_null_nested(void) {
  check_null_error("ROW<s ROW<x INT NOT NULL, y INT>>", fill_struct_bad,
                   "Cannot write null to non-null column(s.x)", 0);
  check_null_error("ROW<s ROW<x INT NOT NULL, y INT>>", fill_struct_hidden, NULL, 2);
  check_null_error("ROW<s ROW<x INT, y INT> NOT NULL>", fill_struct_hidden,
                   "Cannot write null to non-null column(s)", 0);
  check_null_error("ROW<l ARRAY<INT NOT NULL>>", fill_list_bad,
                   "Cannot write null to non-null column(l.element)", 0);
  check_null_error("ROW<l ARRAY<INT> NOT NULL>", fill_list_null,
                   "Cannot write null to non-null column(l)", 0);
  check_null_error("ROW<m MAP<STRING, INT NOT NULL>>", fill_map_bad,
                   "Cannot write null to non-null column(m.value)", 0);
}

/* ---- values the physical type cannot hold: the writer fails for good ---- */

static void fill_big_decimal(tw_batch *t) {
  paimon_error err;
  /* 10^7 in a DECIMAL(5, 0) column, past the builder's precision check (raw 16-byte slot). */
  cp_dec128 v = cp_dec128_from_int64(10000000);
  CHECK_OK(cp_builder_append_values(tw_col(t, 0), &v, 0, 1, NULL, 0, &err), &err);
}

static void fill_big_seconds(tw_batch *t) {
  paimon_error err;
  CHECK_OK(cp_builder_append_int64(tw_col(t, 0), INT64_MAX / 10, &err), &err);
}

static void check_bad_value(const char *type, fill_fn fill, const char *want) {
  cp_type *row = tw_type(type);
  paimon_error err;
  tw_file tf;
  CHECK_OK(tw_open(&tf, "badval", row, NULL, &err), &err);
  if (tf.w) {
    CHECK_ERR(write_batch(tf.w, row, fill, &err), PAIMON_EINVAL);
    CHECK_CONTAINS(err.message, want);
    CHECK_ERR(write_batch(tf.w, row, fill, &err), PAIMON_ESTATE);
    CHECK_CONTAINS(err.message, "abort");
    CHECK_ERR(cp_pq_writer_close(tf.w, NULL, &err), PAIMON_ESTATE);
  }
  tw_free(&tf);
  cp_type_free(row);
}

static void test_bad_values(void) {
  check_bad_value("ROW<d DECIMAL(5, 0)>", fill_big_decimal, "column 'd': a decimal value");
  check_bad_value("ROW<t TIMESTAMP(0)>", fill_big_seconds, "column 't'");
}

/* ---- options, types and state ---- */

static void test_bad_open(void) {
  cp_type *row = tw_type("ROW<a INT>");
  paimon_error err;
  cp_pq_writer_options o;
  tw_file tf;
  cp_pq_writer_options_init(&o);
  o.codec = CP_CODEC_LZ4_HADOOP;
  CHECK_ERR(tw_open(&tf, "opts", row, &o, &err), PAIMON_EUNSUPPORTED);
  CHECK_CONTAINS(err.message, "lz4_hadoop");
  cp_pq_writer_options_init(&o);
  o.page_row_limit = 0;
  CHECK_ERR(tw_open(&tf, "opts", row, &o, &err), PAIMON_EINVAL);
  cp_pq_writer_options_init(&o);
  o.compression_level = 99;
  CHECK_OK(tw_open(&tf, "opts", row, &o, &err), &err); /* zstd checks its level on use */
  tw_free(&tf);
  cp_type *empty = tw_type("ROW<>"), *inner = tw_type("ROW<a INT, r ROW<>>");
  CHECK_ERR(tw_open(&tf, "empty", empty, NULL, &err), PAIMON_EINVAL);
  CHECK_ERR(tw_open(&tf, "empty", inner, NULL, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "column 'r'");
  cp_type *atomic = tw_type("INT");
  CHECK_ERR(tw_open(&tf, "atomic", atomic, NULL, &err), PAIMON_EINVAL);
  cp_type_free(empty);
  cp_type_free(inner);
  cp_type_free(atomic);
  cp_type_free(row);
}

static void test_state(void) {
  cp_type *row = tw_type("ROW<a INT NOT NULL, b STRING>");
  paimon_error err;
  tw_file tf;
  CHECK_OK(tw_open(&tf, "state", row, NULL, &err), &err);
  if (tf.w) {
    cp_pq_file_stats st;
    CHECK_OK(tw_close(&tf, &st, &err), &err); /* an empty file: no row group */
    CHECK_INT(st.num_rows, 0);
    CHECK_INT(st.num_row_groups, 0);
    CHECK(st.columns[0].min.is_null);
    CHECK_ERR(cp_pq_writer_close(tf.w, NULL, &err), PAIMON_ESTATE);
    CHECK_CONTAINS(err.message, "closed");
    CHECK_ERR(write_batch(tf.w, row, fill_good_a, &err), PAIMON_ESTATE);
    CHECK_INT(rows_in(tf.path), 0);
  }
  tw_free(&tf);
  cp_pq_writer_free(NULL);
  cp_type_free(row);
}

/* A malformed array (NULL buffers) is rejected by the view check; the writer keeps working. */
static void test_malformed_array(void) {
  cp_type *row = tw_type("ROW<a INT NOT NULL, b STRING>");
  paimon_error err;
  tw_file tf;
  CHECK_OK(tw_open(&tf, "malformed", row, NULL, &err), &err);
  if (tf.w) {
    tw_batch t;
    tw_batch_init(&t, row);
    fill_good_a(&t);
    tw_batch_finish(&t);
    const void *saved = t.array.children[0]->buffers[1];
    t.array.children[0]->buffers[1] = NULL;
    CHECK_ERR(cp_pq_writer_write(tf.w, &t.schema, &t.array, &err), PAIMON_EINVAL);
    CHECK_CONTAINS(err.message, "'a'");
    t.array.children[0]->buffers[1] = saved;
    CHECK_OK(cp_pq_writer_write(tf.w, &t.schema, &t.array, &err), &err);
    tw_batch_free(&t);
    CHECK_OK(tw_close(&tf, NULL, &err), &err);
    CHECK_INT(rows_in(tf.path), 3);
  }
  tw_free(&tf);
  cp_type_free(row);
}

/* ---- every write failing in turn ---- */

static void fill_rows(tw_batch *t) {
  paimon_error err;
  char s[16];
  for (int i = 0; i < 500; i++) {
    snprintf(s, sizeof s, "s%d", i % 17);
    CHECK_OK(cp_builder_append_int64(tw_col(t, 0), i, &err), &err);
    CHECK_OK(cp_builder_append_str(tw_col(t, 1), s, &err), &err);
  }
}

/* Runs open, three batches (each closing a row group) and close, with the nth write failing.
 * Returns 1 when everything succeeded, 0 when a call failed cleanly. */
static int faulty_run(const cp_type *row, int nth) {
  paimon_error err;
  cp_pq_writer_options o;
  cp_pq_writer_options_init(&o);
  o.row_group_rows = 500;
  tw_file tf;
  cp_fs_inject_fault(tw_fs, CP_FS_OP_WRITE, nth, PAIMON_EIO);
  int rc = tw_open(&tf, "fault", row, &o, &err);
  for (int b = 0; rc == 0 && b < 3; b++) rc = write_batch(tf.w, row, fill_rows, &err);
  if (rc == 0) rc = cp_pq_writer_close(tf.w, NULL, &err);
  cp_fs_inject_fault(tw_fs, CP_FS_OP_WRITE, 0, 0);
  if (rc != 0) {
    CHECK_INT(rc, PAIMON_EIO);
    CHECK_CONTAINS(err.message, "inject");
    if (tf.w) {
      /* A failed writer refuses everything but free; the caller aborts the file. */
      CHECK_ERR(write_batch(tf.w, row, fill_rows, &err), PAIMON_ESTATE);
      CHECK_ERR(cp_pq_writer_close(tf.w, NULL, &err), PAIMON_ESTATE);
    }
    tw_free(&tf);
    return 0;
  }
  CHECK_OK(cp_wfile_close(tf.f, &err), &err);
  tf.f = NULL;
  CHECK_INT(rows_in(tf.path), 1500);
  tw_free(&tf);
  return 1;
}

static void test_write_faults(void) {
  cp_type *row = tw_type("ROW<a BIGINT NOT NULL, s STRING>");
  int failures = 0, nth;
  for (nth = 1; nth < 100; nth++) {
    if (faulty_run(row, nth)) break;
    failures++;
  }
  /* magic, 3 row groups of 2 chunks (the string chunks write a dictionary page too), footer */
  CHECK(failures >= 8);
  CHECK(nth < 100);
  cp_type_free(row);
}

int main(void) {
  paimon_error err;
  if (cp_fs_local_new(&tw_fs, &err) != 0) return 1;
  RUN(test_type_mismatch);
  RUN(test_equivalent_types);
  RUN(test_variant_shape);
  RUN(test_null_top_level);
  RUN(test_null_nested);
  RUN(test_bad_values);
  RUN(test_bad_open);
  RUN(test_state);
  RUN(test_malformed_array);
  RUN(test_write_faults);
  cp_fs_free(tw_fs);
  TEST_MAIN_END();
}
