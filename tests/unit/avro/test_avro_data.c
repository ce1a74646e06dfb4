/*
 * Tests for src/format/avro/data_*.c (Avro data files): the schema Java writes, round trips of
 * every type through the writer and reader (nested, NULLs, edge values), row ranges and batch
 * sizes, projection by name with absent columns and widened types, statistics, NOT NULL checks,
 * refused conversions and types, and truncated or damaged files refused with the file named.
 */
#include <stdlib.h>
#include <unistd.h>

#include "arrow/array.h"
#include "arrow/ops.h"
#include "base/fs.h"
#include "format/avro/data_file.h"
#include "test.h"
#include "types/type_arrow.h"
#include "types/type_sql.h"

static const char *ROW_SQL =
    "ROW<id INT NOT NULL, b BOOLEAN, i8 TINYINT, i64 BIGINT, f FLOAT, d DOUBLE, s STRING, "
    "bin BYTES, dec DECIMAL(30, 4), dt DATE, t TIME(3), ts0 TIMESTAMP(0), ts3 TIMESTAMP(3), "
    "ts6 TIMESTAMP(6), ltz TIMESTAMP(6) WITH LOCAL TIME ZONE, a ARRAY<BIGINT>, "
    "ms MAP<STRING, DOUBLE>, mi MAP<INT NOT NULL, STRING>, r ROW<x INT, y ARRAY<STRING>>, "
    "v VECTOR<FLOAT, 2>, mu MULTISET<STRING>>";

#define N_ROWS 1000

static cp_type *row_type(const char *sql) {
  cp_type *t = NULL;
  paimon_error err = {0};
  CHECK_OK(cp_type_parse(sql, &t, &err), &err);
  return t;
}

/* Row i: every sixth row NULL in each nullable column, the others derived from i. */
static void build_rows(const cp_type *row, struct ArrowSchema *schema, struct ArrowArray *out) {
  paimon_error err = {0};
  CHECK_OK(cp_row_to_arrow_schema(row, schema, &err), &err);
  cp_builder *b = NULL;
  CHECK_OK(cp_builder_create(&b, schema, &err), &err);
  char s[64];
  for (int i = 0; i < N_ROWS; i++) {
    bool null = i % 6 == 5;
    int c = 0;
    CHECK_OK(cp_builder_append_int64(cp_builder_child(b, c++), i, &err), &err);
#define CHILD cp_builder_child(b, c++)
#define OR_NULL(x) (null ? cp_builder_append_null(CHILD, &err) : (x))
    CHECK_OK(OR_NULL(cp_builder_append_bool(CHILD, i % 2 == 0, &err)), &err);
    CHECK_OK(OR_NULL(cp_builder_append_int64(CHILD, (i % 256) - 128, &err)), &err);
    CHECK_OK(OR_NULL(cp_builder_append_int64(CHILD, (int64_t)i * -7000000011LL, &err)), &err);
    CHECK_OK(OR_NULL(cp_builder_append_double(CHILD, i == 3 ? 0.0 / 0.0 : i * 0.25, &err)), &err);
    CHECK_OK(OR_NULL(cp_builder_append_double(CHILD, i == 4 ? -0.0 : i * -1.5e10, &err)), &err);
    snprintf(s, sizeof s, "str-%d-\xc3\xa9", i * 31 % 997);
    CHECK_OK(OR_NULL(cp_builder_append_str(CHILD, i == 7 ? "" : s, &err)), &err);
    uint8_t bin[3] = {(uint8_t)i, 0, 0xff};
    CHECK_OK(OR_NULL(cp_builder_append_bytes(CHILD, bin, i % 4, &err)), &err);
    __int128 dx = (__int128)i * 1000000007LL * 1000000007LL * (i % 2 ? -1 : 1);
    cp_dec128 dv;
    memcpy(&dv, &dx, sizeof dv);
    CHECK_OK(OR_NULL(cp_builder_append_decimal128(CHILD, dv, &err)), &err);
    CHECK_OK(OR_NULL(cp_builder_append_int64(CHILD, i * 37 - 20000, &err)), &err);
    CHECK_OK(OR_NULL(cp_builder_append_int64(CHILD, (i * 86399) % 86400000, &err)), &err);
    CHECK_OK(OR_NULL(cp_builder_append_int64(CHILD, (int64_t)i * 86401 - 3000000000LL, &err)),
             &err);
    CHECK_OK(OR_NULL(cp_builder_append_int64(CHILD, (int64_t)i * 1000003 - 99, &err)), &err);
    CHECK_OK(OR_NULL(cp_builder_append_int64(CHILD, (int64_t)i * 1000000007 - 5, &err)), &err);
    CHECK_OK(OR_NULL(cp_builder_append_int64(CHILD, -(int64_t)i * 999999937, &err)), &err);
    /* a ARRAY<BIGINT>: i % 4 items, the second NULL */
    cp_builder *a = CHILD;
    if (null) {
      CHECK_OK(cp_builder_append_null(a, &err), &err);
    } else {
      for (int k = 0; k < i % 4; k++)
        CHECK_OK(k == 1 ? cp_builder_append_null(cp_builder_child(a, 0), &err)
                        : cp_builder_append_int64(cp_builder_child(a, 0), i + k, &err),
                 &err);
      CHECK_OK(cp_builder_end_element(a, &err), &err);
    }
    /* ms MAP<STRING, DOUBLE> and mi MAP<INT, STRING>: i % 3 entries */
    for (int m = 0; m < 2; m++) {
      cp_builder *mb = CHILD;
      if (null) {
        CHECK_OK(cp_builder_append_null(mb, &err), &err);
        continue;
      }
      for (int k = 0; k < i % 3; k++) {
        snprintf(s, sizeof s, "k%d", k);
        if (m == 0) {
          CHECK_OK(cp_builder_append_str(cp_builder_map_keys(mb), s, &err), &err);
          CHECK_OK(cp_builder_append_double(cp_builder_map_values(mb), k + 0.5, &err), &err);
        } else {
          CHECK_OK(cp_builder_append_int64(cp_builder_map_keys(mb), i * 10 + k, &err), &err);
          CHECK_OK(k ? cp_builder_append_str(cp_builder_map_values(mb), s, &err)
                     : cp_builder_append_null(cp_builder_map_values(mb), &err),
                   &err);
        }
      }
      CHECK_OK(cp_builder_end_element(mb, &err), &err);
    }
    /* r ROW<x INT, y ARRAY<STRING>> */
    cp_builder *r = CHILD;
    if (null) {
      CHECK_OK(cp_builder_append_null(r, &err), &err);
    } else {
      CHECK_OK(i % 4 ? cp_builder_append_int64(cp_builder_child(r, 0), -i, &err)
                     : cp_builder_append_null(cp_builder_child(r, 0), &err),
               &err);
      cp_builder *y = cp_builder_child(r, 1);
      CHECK_OK(cp_builder_append_str(cp_builder_child(y, 0), "y", &err), &err);
      CHECK_OK(cp_builder_end_element(y, &err), &err);
      CHECK_OK(cp_builder_end_element(r, &err), &err);
    }
    /* v VECTOR<FLOAT, 2> and mu MULTISET<STRING> (a map to counts) */
    cp_builder *v = CHILD;
    if (null) {
      CHECK_OK(cp_builder_append_null(v, &err), &err);
    } else {
      CHECK_OK(cp_builder_append_double(cp_builder_child(v, 0), i * 0.5, &err), &err);
      CHECK_OK(cp_builder_append_double(cp_builder_child(v, 0), -i, &err), &err);
      CHECK_OK(cp_builder_end_element(v, &err), &err);
    }
    cp_builder *mu = CHILD;
    if (null) {
      CHECK_OK(cp_builder_append_null(mu, &err), &err);
    } else {
      CHECK_OK(cp_builder_append_str(cp_builder_map_keys(mu), i % 2 ? "odd" : "even", &err), &err);
      CHECK_OK(cp_builder_append_int64(cp_builder_map_values(mu), i % 5 + 1, &err), &err);
      CHECK_OK(cp_builder_end_element(mu, &err), &err);
    }
#undef CHILD
#undef OR_NULL
    CHECK_OK(cp_builder_end_element(b, &err), &err);
  }
  CHECK_OK(cp_builder_finish(b, out, &err), &err);
  cp_builder_free(b);
}

static char dir[] = "/tmp/cp_avro_data_XXXXXX";

static void path_of(char *out, size_t cap, const char *name) {
  snprintf(out, cap, "%s/%s", dir, name);
}

/* Writes the batch in two halves; returns the writer's stats copy through *stats_out. */
static void write_file(cp_fs *fs, const char *path, const cp_type *row,
                       const struct ArrowSchema *schema, struct ArrowArray *batch,
                       cp_avro_column_stats *stats_out) {
  paimon_error err = {0};
  cp_wfile *f = NULL;
  CHECK_OK(cp_fs_create(fs, path, CP_CREATE_OVERWRITE, &f, &err), &err);
  cp_avro_dw *w = NULL;
  cp_avro_dw_options o = {"zstandard", 3};
  CHECK_OK(cp_avro_dw_open(&w, f, path, row, &o, &err), &err);
  struct ArrowArray half;
  CHECK_OK(cp_array_slice(batch, 0, 400, &half, &err), &err);
  CHECK_OK(cp_avro_dw_write(w, schema, &half, &err), &err);
  half.release(&half);
  CHECK_OK(cp_array_slice(batch, 400, N_ROWS - 400, &half, &err), &err);
  CHECK_OK(cp_avro_dw_write(w, schema, &half, &err), &err);
  half.release(&half);
  CHECK_INT(cp_avro_dw_row_count(w), N_ROWS);
  uint64_t size = 0;
  const cp_avro_column_stats *st = NULL;
  CHECK_OK(cp_avro_dw_close(w, &size, &st, &err), &err);
  if (stats_out)
    for (size_t i = 0; i < row->n_fields; i++) stats_out[i] = st[i];
  CHECK_OK(cp_wfile_close(f, &err), &err);
  CHECK(size > 100);
  cp_avro_dw_free(w);
}

/* Reads every column of `row` back, concatenating the batches. */
static int read_all(cp_fs *fs, const char *path, const cp_avro_dr_column *cols, size_t n,
                    const cp_avro_dr_range *ranges, size_t n_ranges, int64_t batch_size,
                    struct ArrowSchema *schema, struct ArrowArray *out, int64_t *n_batches,
                    paimon_error *err) {
  cp_avro_dr_options o = {cols, n, ranges, n_ranges, batch_size, 0};
  cp_avro_dr *r = NULL;
  int rc = cp_avro_dr_open(&r, fs, path, &o, err);
  if (rc) return rc;
  cp_array_view views[64];
  struct ArrowArray arrays[64];
  int64_t k = 0;
  memset(schema, 0, sizeof *schema);
  for (;;) {
    bool eof = false;
    struct ArrowSchema s;
    rc = cp_avro_dr_next(r, &arrays[k], &s, &eof, err);
    if (rc || eof) break;
    if (!schema->release)
      *schema = s;
    else
      s.release(&s);
    CHECK(k < 63);
    k++;
  }
  *n_batches = k;
  for (int64_t i = 0; !rc && i < k; i++)
    rc = cp_array_view_init(&views[i], schema, &arrays[i], err);
  if (!rc && k) rc = cp_concat(views, k, out, err);
  for (int64_t i = 0; i < k; i++) {
    cp_array_view_reset(&views[i]);
    arrays[i].release(&arrays[i]);
  }
  cp_avro_dr_free(r);
  return rc;
}

static void test_round_trip(void) {
  cp_type *row = row_type(ROW_SQL);
  struct ArrowSchema schema;
  struct ArrowArray batch;
  build_rows(row, &schema, &batch);
  cp_fs *fs = NULL;
  paimon_error err = {0};
  CHECK_OK(cp_fs_local_new(&fs, &err), &err);
  char path[256];
  path_of(path, sizeof path, "all.avro");
  cp_avro_column_stats stats[32];
  write_file(fs, path, row, &schema, &batch, stats);

  cp_avro_dr_column cols[32];
  for (size_t i = 0; i < row->n_fields; i++)
    cols[i] = (cp_avro_dr_column){row->fields[i].name, row->fields[i].type, NULL};
  struct ArrowSchema got_schema;
  struct ArrowArray got;
  int64_t batches = 0;
  CHECK_OK(read_all(fs, path, cols, row->n_fields, NULL, 0, 300, &got_schema, &got, &batches, &err),
           &err);
  CHECK_INT(batches, 4); /* 1000 rows in batches of at most 300 */
  cp_array_view a, b;
  CHECK_OK(cp_array_view_init(&a, &schema, &batch, &err), &err);
  CHECK_OK(cp_array_view_init(&b, &got_schema, &got, &err), &err);
  CHECK_INT(b.length, N_ROWS);
  int64_t diffs = 0;
  for (int64_t i = 0; i < N_ROWS && b.length == N_ROWS; i++)
    for (int64_t c = 0; c < a.n_children; c++)
      if (!cp_rows_equal(&a.children[c], i, &b.children[c], i)) {
        if (diffs++ < 5)
          fprintf(stderr, "  row %lld column %lld differs\n", (long long)i, (long long)c);
      }
  CHECK_INT(diffs, 0);
  cp_array_view_reset(&b);
  got.release(&got);
  got_schema.release(&got_schema);

  /* Statistics: id 0..999, s bytewise, NaN the max of f (Java's Float.compareTo), -0.0 < 0.0. */
  CHECK_INT(stats[0].null_count, 0);
  CHECK_INT(stats[0].min.v.i64, 0);
  CHECK_INT(stats[0].max.v.i64, N_ROWS - 1);
  CHECK_INT(stats[1].null_count, N_ROWS / 6);
  CHECK(stats[4].max.v.f32 != stats[4].max.v.f32);
  CHECK(stats[5].max.v.f64 == 0.0);
  CHECK_INT(stats[6].min.v.bytes.len, 0);                /* "" */
  CHECK(stats[15].min.is_null && stats[15].max.is_null); /* ARRAY: no bounds */
  CHECK_INT(stats[15].null_count, N_ROWS / 6);

  /* Row ranges across blocks, a projection in another order, an absent column, widened types. */
  static cp_type bigint = {.kind = CP_TYPE_BIGINT, .nullable = true};
  static cp_type dbl = {.kind = CP_TYPE_DOUBLE, .nullable = true};
  cp_type *ts9 = row_type("TIMESTAMP(9)");
  cp_avro_dr_column proj[] = {{"s", row->fields[6].type, "s2"},
                              {"id", &bigint, NULL},
                              {NULL, &bigint, "gone"},
                              {"f", &dbl, NULL},
                              {"ts6", ts9, NULL},
                              {"r", row->fields[18].type, NULL}};
  cp_avro_dr_range ranges[] = {{5, 8}, {398, 403}, {990, 2000}};
  CHECK_OK(read_all(fs, path, proj, 6, ranges, 3, 4, &got_schema, &got, &batches, &err), &err);
  CHECK_OK(cp_array_view_init(&b, &got_schema, &got, &err), &err);
  CHECK_INT(b.length, 3 + 5 + 10);
  CHECK_STR(got_schema.children[0]->name, "s2");
  CHECK_STR(got_schema.children[2]->name, "gone");
  int64_t want[] = {5, 6, 7, 398, 399, 400, 401, 402};
  for (int k = 0; k < 8 && b.length == 18; k++) {
    CHECK_INT(cp_view_get_int64(&b.children[1], k), want[k]);
    CHECK(cp_rows_equal(&a.children[6], want[k], &b.children[0], k));
    CHECK(cp_view_is_null(&b.children[2], k));
    CHECK(cp_rows_equal(&a.children[18], want[k], &b.children[5], k));
    if (want[k] % 6 != 5)
      CHECK_INT(cp_view_get_int64(&b.children[4], k),
                cp_view_get_int64(&a.children[13], want[k]) * 1000);
  }
  cp_array_view_reset(&b);
  got.release(&got);
  got_schema.release(&got_schema);
  cp_type_free(ts9);

  /* A conversion schema evolution does not allow names the column and both types. */
  static cp_type integer = {.kind = CP_TYPE_INT, .nullable = true};
  cp_avro_dr_column bad[] = {{"s", &integer, NULL}};
  int rc = read_all(fs, path, bad, 1, NULL, 0, 0, &got_schema, &got, &batches, &err);
  CHECK_INT(rc, PAIMON_EUNSUPPORTED);
  CHECK_CONTAINS(err.message, "column s");
  CHECK_CONTAINS(err.message, "string");
  CHECK_CONTAINS(err.message, path);

  cp_array_view_reset(&a);
  batch.release(&batch);
  schema.release(&schema);
  cp_fs_free(fs);
  cp_type_free(row);
}

static void test_schema_and_refusals(void) {
  paimon_error err = {0};
  cp_type *row =
      row_type("ROW<id INT NOT NULL, m MAP<BIGINT NOT NULL, ROW<z INT>>, r ROW<q INT NOT NULL>>");
  cp_buf json = CP_BUF_INIT;
  CHECK_OK(cp_avro_data_schema_json(row, &json, &err), &err);
  CHECK_OK(cp_buf_nul_terminate(&json, &err), &err);
  CHECK_STR((const char *)json.data,
            "{\"type\":\"record\",\"name\":\"org.apache.paimon.avro.generated.record\","
            "\"fields\":[{\"name\":\"id\",\"type\":\"int\"},{\"name\":\"m\",\"type\":[\"null\","
            "{\"type\":\"array\",\"items\":{\"type\":\"record\",\"name\":"
            "\"org.apache.paimon.avro.generated.record_m\",\"fields\":[{\"name\":\"key\","
            "\"type\":\"long\"},{\"name\":\"value\",\"type\":[\"null\",{\"type\":\"record\","
            "\"name\":\"org.apache.paimon.avro.generated.record_m_value\",\"fields\":[{\"name\":"
            "\"z\",\"type\":[\"null\",\"int\"],\"default\":null}]}],\"default\":null}]},"
            "\"logicalType\":\"map\"}],\"default\":null},{\"name\":\"r\",\"type\":[\"null\","
            "{\"type\":\"record\",\"name\":\"org.apache.paimon.avro.generated.record_r\","
            "\"fields\":[{\"name\":\"q\",\"type\":\"int\"}]}],\"default\":null}]}");
  cp_buf_free(&json);
  cp_type_free(row);

  row = row_type("ROW<id INT, ts TIMESTAMP(9)>");
  CHECK_INT(cp_avro_data_check_row(row, &err), PAIMON_EUNSUPPORTED);
  CHECK_CONTAINS(err.message, "column ts");
  CHECK_CONTAINS(err.message, "Avro does not support TIMESTAMP type with precision: 9");
  cp_type_free(row);
  row = row_type("ROW<t TIME(6)>");
  CHECK_INT(cp_avro_data_check_row(row, &err), PAIMON_EUNSUPPORTED);
  CHECK_CONTAINS(err.message, "TIME type with precision: 6");
  cp_type_free(row);
}

static void test_not_null_and_damage(void) {
  paimon_error err = {0};
  cp_fs *fs = NULL;
  CHECK_OK(cp_fs_local_new(&fs, &err), &err);
  cp_type *row = row_type(ROW_SQL);
  struct ArrowSchema schema;
  struct ArrowArray batch;
  build_rows(row, &schema, &batch);
  char path[256];
  path_of(path, sizeof path, "damaged.avro");
  write_file(fs, path, row, &schema, &batch, NULL);

  /* A NULL in a NOT NULL field: nothing of the batch is written. */
  cp_type *nn = row_type("ROW<b BOOLEAN NOT NULL>");
  cp_type *nb = row_type("ROW<b BOOLEAN>");
  struct ArrowSchema s2;
  CHECK_OK(cp_row_to_arrow_schema(nb, &s2, &err), &err);
  cp_builder *bb = NULL;
  CHECK_OK(cp_builder_create(&bb, &s2, &err), &err);
  CHECK_OK(cp_builder_append_bool(cp_builder_child(bb, 0), true, &err), &err);
  CHECK_OK(cp_builder_end_element(bb, &err), &err);
  CHECK_OK(cp_builder_append_null(cp_builder_child(bb, 0), &err), &err);
  CHECK_OK(cp_builder_end_element(bb, &err), &err);
  struct ArrowArray two;
  CHECK_OK(cp_builder_finish(bb, &two, &err), &err);
  char p2[256];
  path_of(p2, sizeof p2, "nn.avro");
  cp_wfile *f = NULL;
  CHECK_OK(cp_fs_create(fs, p2, CP_CREATE_OVERWRITE, &f, &err), &err);
  cp_avro_dw *w = NULL;
  CHECK_OK(cp_avro_dw_open(&w, f, p2, nn, NULL, &err), &err);
  CHECK_INT(cp_avro_dw_write(w, &s2, &two, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "column b is NOT NULL");
  CHECK_CONTAINS(err.message, "row 1");
  CHECK_INT(cp_avro_dw_row_count(w), 0);
  cp_avro_dw_free(w);
  cp_wfile_abort(f);
  two.release(&two);
  s2.release(&s2);
  cp_builder_free(bb);
  cp_type_free(nn);
  cp_type_free(nb);

  /* Every truncation and a flipped byte at many offsets: an error naming the file, or (for
   * flips in values) other values, never a crash. */
  cp_buf bytes = CP_BUF_INIT;
  CHECK_OK(cp_fs_read_file(fs, path, &bytes, SIZE_MAX, &err), &err);
  cp_avro_dr_column cols[32];
  for (size_t i = 0; i < row->n_fields; i++)
    cols[i] = (cp_avro_dr_column){row->fields[i].name, row->fields[i].type, NULL};
  char p3[256];
  path_of(p3, sizeof p3, "cut.avro");
  int refused = 0, tried = 0;
  for (size_t cut = 0; cut < bytes.len; cut += bytes.len / 97 + 1) {
    CHECK_OK(cp_fs_write_file(fs, p3, bytes.data, cut, CP_CREATE_OVERWRITE, false, &err), &err);
    struct ArrowSchema gs;
    struct ArrowArray g;
    int64_t nbat;
    int rc = read_all(fs, p3, cols, row->n_fields, NULL, 0, 0, &gs, &g, &nbat, &err);
    tried++;
    if (rc) {
      refused++;
      CHECK_CONTAINS(err.message, "cut.avro");
    } else {
      if (nbat) g.release(&g);
      if (gs.release) gs.release(&gs);
    }
  }
  CHECK_INT(refused, tried);
  for (size_t at = 40; at < bytes.len; at += bytes.len / 61 + 1) {
    bytes.data[at] ^= 0x5a;
    CHECK_OK(cp_fs_write_file(fs, p3, bytes.data, bytes.len, CP_CREATE_OVERWRITE, false, &err),
             &err);
    bytes.data[at] ^= 0x5a;
    struct ArrowSchema gs;
    struct ArrowArray g;
    int64_t nbat;
    if (read_all(fs, p3, cols, row->n_fields, NULL, 0, 0, &gs, &g, &nbat, &err) == 0) {
      if (nbat) g.release(&g);
      if (gs.release) gs.release(&gs);
    } else {
      CHECK_CONTAINS(err.message, "cut.avro");
    }
  }
  cp_buf_free(&bytes);
  batch.release(&batch);
  schema.release(&schema);
  cp_type_free(row);
  cp_fs_free(fs);
}

int main(void) {
  if (!mkdtemp(dir)) return 1;
  RUN(test_schema_and_refusals);
  RUN(test_round_trip);
  RUN(test_not_null_and_damage);
  char cmd[300];
  snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
  if (system(cmd) != 0) return 1;
  TEST_MAIN_END();
}
