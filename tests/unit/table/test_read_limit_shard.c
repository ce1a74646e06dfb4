/* Tests for the read builder's limit, partition filter, shards and slices (include/cpaimon/read.h,
 * src/table/plan_select.c). Expected rows come from the rules themselves (pypaimon's
 * shard_range: contiguous blocks, the first total % n one row larger; Java's push-down limit),
 * computed here from the rows written, never from a previous cpaimon run. Parity with pypaimon on
 * the same tables is tested in tests/python/test_read_api.py. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arrow/array.h"
#include "arrow/stream.h"
#include "cpaimon/commit.h"
#include "cpaimon/predicate.h"
#include "cpaimon/read.h"
#include "cpaimon/write.h"
#include "commit_test_util.h"
#include "test.h"
#include "types/type_arrow.h"
#include "types/type_sql.h"

static paimon_catalog *cat;

#define MAX_ROWS 256

static void pt_text(const char *column, int64_t id, char *buf, size_t cap) {
  (void)column;
  snprintf(buf, cap, "%s", id % 2 ? "b" : "a");
}

/* Writes rows id = first .. first+n-1 with pt = "a" for even ids, "b" for odd ones. */
static void write_rows(paimon_table *t, int first, int n) {
  commit_rows(t, "ROW<id BIGINT NOT NULL, pt STRING>", first, n, pt_text);
}

static paimon_table *create(const char *ident, bool partitioned, bool data_evolution) {
  paimon_error err;
  paimon_schema *s = NULL;
  CHECK_OK(paimon_schema_new(&s, &err), &err);
  CHECK_OK(paimon_schema_add_column(s, "id", "BIGINT NOT NULL", NULL, &err), &err);
  CHECK_OK(paimon_schema_add_column(s, "pt", "STRING", NULL, &err), &err);
  const char *keys[] = {"pt"};
  if (partitioned) CHECK_OK(paimon_schema_set_partition_keys(s, keys, 1, &err), &err);
  CHECK_OK(paimon_schema_set_option(s, "row-tracking.enabled", "true", &err), &err);
  if (data_evolution)
    CHECK_OK(paimon_schema_set_option(s, "data-evolution.enabled", "true", &err), &err);
  CHECK_OK(paimon_catalog_create_table(cat, ident, s, false, &err), &err);
  paimon_schema_free(s);
  paimon_table *t = NULL;
  CHECK_OK(paimon_catalog_get_table(cat, ident, &t, &err), &err);
  return t;
}

/* The ids and _ROW_IDs a builder (projection id, _ROW_ID) reads, in read order. */
typedef struct rows {
  int64_t n, n_splits;
  int64_t ids[MAX_ROWS], row_ids[MAX_ROWS];
} rows;

/* Reads what `rb` plans into `out`; *failed receives the code of a read error (0 when the read
 * ended normally, NULL: an error fails the test), the rows before it stay in `out`. */
/* Reads splits `indices[0..n)` (all when NULL) of `p` through `rb` into `out`; *failed receives
 * the code of a read error (0 when the read ended normally, NULL: an error fails the test), the
 * rows before it stay in `out`. */
static void read_plan(paimon_read_builder *rb, const paimon_plan *p, const size_t *indices,
                      size_t n, rows *out, int *failed, char *message, size_t message_size) {
  paimon_error err;
  struct ArrowArrayStream s;
  memset(out, 0, sizeof *out);
  if (failed) *failed = 0;
  out->n_splits = (int64_t)(indices ? n : paimon_plan_split_count(p));
  CHECK_OK(paimon_plan_read(rb, p, indices, n, &s, &err), &err);
  struct ArrowSchema schema;
  CHECK_OK(cp_stream_get_schema(&s, &schema, &err), &err);
  for (;;) {
    struct ArrowArray batch;
    int rc = cp_stream_next(&s, &batch, &err);
    if (rc && failed) {
      *failed = rc;
      snprintf(message, message_size, "%.500s", err.message);
      break;
    }
    CHECK_OK(rc, &err);
    if (rc || !batch.release) break;
    cp_array_view v;
    CHECK_OK(cp_array_view_init(&v, &schema, &batch, &err), &err);
    for (int64_t i = 0; i < v.length && out->n < MAX_ROWS; i++, out->n++) {
      out->ids[out->n] = cp_view_get_int64(&v.children[0], i);
      out->row_ids[out->n] = cp_view_get_int64(&v.children[1], i);
    }
    cp_array_view_reset(&v);
    batch.release(&batch);
  }
  schema.release(&schema);
  s.release(&s);
}

/* Plans `rb` and reads the plan (read_plan). */
static void read_rows_until(paimon_read_builder *rb, rows *out, int *failed, char *message,
                            size_t message_size) {
  paimon_error err;
  paimon_plan *p = NULL;
  memset(out, 0, sizeof *out);
  CHECK_OK(paimon_read_builder_plan(rb, &p, &err), &err);
  if (!p) return;
  read_plan(rb, p, NULL, 0, out, failed, message, message_size);
  paimon_plan_free(p);
}

static void read_rows(paimon_read_builder *rb, rows *out) {
  read_rows_until(rb, out, NULL, NULL, 0);
}

static paimon_read_builder *builder(paimon_table *t) {
  paimon_error err;
  paimon_read_builder *rb = NULL;
  CHECK_OK(paimon_read_builder_new(&rb, t, &err), &err);
  const char *cols[] = {"id", "_ROW_ID"};
  if (rb) CHECK_OK(paimon_read_builder_set_projection(rb, cols, 2, &err), &err);
  if (rb) paimon_read_builder_set_batch_size(rb, 2); /* shard edges fall inside batches */
  return rb;
}

static paimon_predicate *text_pred(const char *column, const char *value) {
  paimon_error err;
  paimon_predicate *p = NULL;
  CHECK_OK(paimon_predicate_compare_text(&p, PAIMON_COMPARE_EQUAL, column, value, &err), &err);
  return p;
}

/* Shards 0..n-1 read every row once; shard i reads exactly the positions pypaimon's shard_range
 * gives it. `position_of[id]` is the row's position in the order shards count. */
static void check_shards(paimon_table *t, int64_t total, const int64_t *position_of,
                         bool row_id_is_id) {
  for (int64_t n = 1; n <= 5; n++) {
    int seen[MAX_ROWS] = {0};
    for (int64_t i = 0; i < n; i++) {
      paimon_read_builder *rb = builder(t);
      if (!rb) return;
      paimon_error err;
      CHECK_OK(paimon_read_builder_set_shard(rb, i, n, &err), &err);
      rows r;
      read_rows(rb, &r);
      int64_t base = total / n, rem = total % n;
      int64_t start = i * base + (i < rem ? i : rem), end = start + base + (i < rem);
      CHECK_INT(r.n, end - start);
      for (int64_t k = 0; k < r.n; k++) {
        int64_t pos = position_of[r.ids[k]];
        CHECK(pos >= start && pos < end);
        if (row_id_is_id) CHECK_INT(r.row_ids[k], r.ids[k]);
        seen[r.ids[k]]++;
      }
      paimon_read_builder_free(rb);
    }
    for (int64_t id = 0; id < total; id++) CHECK_INT(seen[id], 1);
  }
}

/* Data-evolution tables: positions are row ids. Unpartitioned, the rows written get row ids
 * 0..N-1 in write order (the commit assigns consecutive ranges from nextRowId), so a row's
 * position is its id. */
static void test_shards_data_evolution(void) {
  paimon_table *t = create("db.de", false, true);
  if (!t) return;
  write_rows(t, 0, 7);
  write_rows(t, 7, 5);
  write_rows(t, 12, 4);
  int64_t pos[MAX_ROWS];
  for (int64_t id = 0; id < 16; id++) pos[id] = id;
  check_shards(t, 16, pos, true);
  /* A slice is a row-id range too; the end is clipped. */
  paimon_read_builder *rb = builder(t);
  paimon_error err;
  CHECK_OK(paimon_read_builder_set_slice(rb, 5, 100, &err), &err);
  rows r;
  read_rows(rb, &r);
  CHECK_INT(r.n, 11);
  for (int64_t k = 0; k < r.n; k++) CHECK(r.ids[k] >= 5);
  paimon_read_builder_free(rb);
  paimon_table_free(t);
}

/* Other tables: positions are physical rows in plan order — (partition, bucket) in order of first
 * appearance, files in commit order inside each. */
static void test_shards_append(void) {
  paimon_table *t = create("db.app", true, false);
  if (!t) return;
  write_rows(t, 0, 7); /* a: 0 2 4 6   b: 1 3 5 */
  write_rows(t, 7, 5); /* a: 8 10      b: 7 9 11 */
  write_rows(t, 12, 4);
  int64_t pos[MAX_ROWS], p = 0;
  for (int parity = 0; parity < 2; parity++) /* "a" (even ids) appears first */
    for (int64_t id = 0; id < 16; id++)
      if (id % 2 == parity) pos[id] = p++;
  check_shards(t, 16, pos, false);
  /* The plan itself reads in that order (pypaimon's and Java's). */
  paimon_read_builder *rb = builder(t);
  rows r;
  read_rows(rb, &r);
  CHECK_INT(r.n, 16);
  for (int64_t k = 0; k < r.n; k++) CHECK_INT(pos[r.ids[k]], k);
  paimon_read_builder_free(rb);
  paimon_table_free(t);
}

static void test_limit(void) {
  paimon_table *t = create("db.lim", true, false);
  if (!t) return;
  write_rows(t, 0, 6); /* splits: a(3 rows), b(3) */
  write_rows(t, 6, 4); /* a(2), b(2); plan order a, a, b, b */
  paimon_error err;
  struct {
    int64_t limit, splits, rows;
  } cases[] = {{0, 1, 0}, {2, 1, 2}, {3, 1, 3}, {4, 2, 4}, {5, 2, 5}, {9, 4, 9}, {50, 4, 10}};
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    paimon_read_builder *rb = builder(t);
    CHECK_OK(paimon_read_builder_set_limit(rb, cases[i].limit, &err), &err);
    rows r;
    read_rows(rb, &r);
    CHECK_INT(r.n_splits, cases[i].splits);
    CHECK_INT(r.n, cases[i].rows);
    /* The first rows in plan order: partition a's ids 0 2 4 6 8, then b's. */
    for (int64_t k = 0; k < r.n && k < 5; k++) CHECK_INT(r.ids[k], 2 * k);
    paimon_read_builder_free(rb);
  }
  paimon_read_builder *rb = builder(t);
  CHECK_ERR(paimon_read_builder_set_limit(rb, -1, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "limit -1");
  /* A filter on a data column: counts say nothing, so every split stays; rows still stop. */
  paimon_predicate *id_even = NULL;
  CHECK_OK(
      paimon_predicate_compare_text(&id_even, PAIMON_COMPARE_GREATER_OR_EQUAL, "id", "1", &err),
      &err);
  CHECK_OK(paimon_read_builder_set_filter(rb, id_even, &err), &err);
  CHECK_OK(paimon_read_builder_set_limit(rb, 2, &err), &err);
  rows r;
  read_rows(rb, &r);
  CHECK_INT(r.n_splits, 4);
  CHECK_INT(r.n, 2);
  CHECK(r.n == 2 && r.ids[0] == 2 && r.ids[1] == 4);
  /* A filter on the partition key only: pushed down again. */
  paimon_predicate *pt_b = text_pred("pt", "b");
  CHECK_OK(paimon_read_builder_set_filter(rb, pt_b, &err), &err);
  read_rows(rb, &r);
  CHECK_INT(r.n_splits, 1);
  CHECK(r.n == 2 && r.ids[0] == 1 && r.ids[1] == 3);
  paimon_read_builder_clear_limit(rb);
  read_rows(rb, &r);
  CHECK_INT(r.n, 5);
  paimon_predicate_free(id_even);
  paimon_predicate_free(pt_b);
  paimon_read_builder_free(rb);
  paimon_table_free(t);
}

static void test_partition_filter(void) {
  paimon_table *t = create("db.pf", true, true);
  if (!t) return;
  write_rows(t, 0, 6);
  write_rows(t, 6, 4);
  paimon_error err;
  paimon_read_builder *rb = builder(t);
  paimon_predicate *pt_b = text_pred("pt", "b"), *id3 = text_pred("id", "3");
  CHECK_OK(paimon_read_builder_set_partition_filter(rb, pt_b, &err), &err);
  rows r;
  read_rows(rb, &r);
  CHECK_INT(r.n, 5);
  for (int64_t k = 0; k < r.n; k++) CHECK_INT(r.ids[k] % 2, 1);
  /* As pypaimon: conjuncts on other columns are dropped, not applied to rows. */
  paimon_predicate *both = NULL, *kids[] = {text_pred("pt", "b"), text_pred("id", "3")};
  CHECK_OK(paimon_predicate_and(&both, kids, 2, &err), &err);
  CHECK_OK(paimon_read_builder_set_partition_filter(rb, both, &err), &err);
  read_rows(rb, &r);
  CHECK_INT(r.n, 5);
  CHECK_OK(paimon_read_builder_set_partition_filter(rb, id3, &err), &err);
  read_rows(rb, &r);
  CHECK_INT(r.n, 10);
  /* Combined with a row filter, which still applies. */
  CHECK_OK(paimon_read_builder_set_partition_filter(rb, pt_b, &err), &err);
  CHECK_OK(paimon_read_builder_set_filter(rb, id3, &err), &err);
  read_rows(rb, &r);
  CHECK(r.n == 1 && r.ids[0] == 3);
  /* An unknown column is the caller's mistake; the builder keeps its previous filter. */
  paimon_predicate *nope = text_pred("nope", "1");
  CHECK_ERR(paimon_read_builder_set_partition_filter(rb, nope, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "nope");
  CHECK_CONTAINS(err.message, "partition filter");
  read_rows(rb, &r);
  CHECK(r.n == 1 && r.ids[0] == 3);
  CHECK_OK(paimon_read_builder_set_partition_filter(rb, NULL, &err), &err);
  CHECK_OK(paimon_read_builder_set_filter(rb, NULL, &err), &err);
  read_rows(rb, &r);
  CHECK_INT(r.n, 10);
  paimon_predicate_free(pt_b);
  paimon_predicate_free(id3);
  paimon_predicate_free(both);
  paimon_predicate_free(nope);
  paimon_read_builder_free(rb);
  paimon_table_free(t);
}

static void test_shard_errors(void) {
  paimon_table *t = create("db.err", false, true);
  if (!t) return;
  paimon_error err;
  paimon_read_builder *rb = builder(t);
  CHECK_ERR(paimon_read_builder_set_shard(rb, 0, 0, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "number_of_para_subtasks must be a positive integer");
  CHECK_ERR(paimon_read_builder_set_shard(rb, -1, 2, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "idx_of_this_subtask must be a non-negative integer");
  CHECK_ERR(paimon_read_builder_set_shard(rb, 2, 2, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "idx_of_this_subtask must be less than number_of_para_subtasks");
  CHECK_ERR(paimon_read_builder_set_slice(rb, 3, 3, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "start_pos must be non-negative and less than end_pos");
  CHECK_ERR(paimon_read_builder_set_slice(rb, -1, 3, &err), PAIMON_EINVAL);
  CHECK_OK(paimon_read_builder_set_slice(rb, 0, 3, &err), &err);
  CHECK_ERR(paimon_read_builder_set_shard(rb, 0, 2, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "cannot be used simultaneously");
  /* An empty table: every shard is empty, and planning is fine. */
  rows r;
  read_rows(rb, &r);
  CHECK_INT(r.n, 0);
  CHECK_INT(r.n_splits, 0);
  paimon_read_builder_free(rb);
  rb = builder(t);
  CHECK_OK(paimon_read_builder_set_shard(rb, 1, 2, &err), &err);
  CHECK_ERR(paimon_read_builder_set_slice(rb, 0, 3, &err), PAIMON_EINVAL);
  /* More shards than rows: the last shards are empty. */
  write_rows(t, 0, 1);
  read_rows(rb, &r);
  CHECK_INT(r.n, 0);
  paimon_read_builder_free(rb);
  paimon_table_free(t);
}

/* ---- read threads ----------------------------------------------------------------------- */

/* Reads ids and _ROW_IDs with `threads` read threads; *failed receives the error code (0 when the
 * read ended normally) and the rows before it stay in `out`. */
static int64_t ahead = 2; /* the read-ahead read_threaded sets */
static int decode = -1;   /* the decode threads read_threaded sets */

static void read_threaded(paimon_table *t, int threads, paimon_predicate *filter, rows *out,
                          int *failed, char *message, size_t message_size) {
  paimon_error err;
  paimon_read_builder *rb = builder(t);
  CHECK_OK(paimon_read_builder_set_read_threads(rb, threads, &err), &err);
  CHECK_OK(paimon_read_builder_set_read_ahead(rb, ahead, &err), &err);
  CHECK_OK(paimon_read_builder_set_decode_threads(rb, decode, &err), &err);
  if (filter) CHECK_OK(paimon_read_builder_set_filter(rb, filter, &err), &err);
  read_rows_until(rb, out, failed, message, message_size);
  paimon_read_builder_free(rb);
}

static void check_same(const rows *a, const rows *b) {
  CHECK_INT(a->n, b->n);
  for (int64_t i = 0; i < a->n && i < b->n; i++) {
    CHECK_INT(a->ids[i], b->ids[i]);
    CHECK_INT(a->row_ids[i], b->row_ids[i]);
  }
}

/* Worker threads deliver exactly what one thread reads, in the same order, with filters, when
 * the consumer stops early, and up to the same point when a file is missing. */
static void test_read_threads(void) {
  paimon_error err;
  paimon_table *t = create("db.threads", true, false);
  int sizes[] = {7, 1, 12, 3, 9, 2, 15, 4, 6, 11, 5, 8};
  int first = 0;
  for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
    write_rows(t, first, sizes[i]);
    first += sizes[i];
  }
  char msg[512];
  int failed;
  rows one, many;
  read_threaded(t, 1, NULL, &one, &failed, msg, sizeof msg);
  CHECK_INT(failed, 0);
  CHECK_INT(one.n, first);
  CHECK(one.n_splits >= 20);
  int counts[] = {2, 3, 5, 64};
  int64_t aheads[] = {2, 1, -1};
  for (size_t a = 0; a < sizeof aheads / sizeof aheads[0]; a++) {
    ahead = aheads[a];
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
      read_threaded(t, counts[k], NULL, &many, &failed, msg, sizeof msg);
      CHECK_INT(failed, 0);
      check_same(&one, &many);
    }
  }
  ahead = 2;
  /* With and without the decode helper (one read thread; automatic is on with 2+ CPUs). */
  for (decode = 0; decode <= 1; decode++) {
    read_threaded(t, 1, NULL, &many, &failed, msg, sizeof msg);
    CHECK_INT(failed, 0);
    check_same(&one, &many);
  }
  decode = -1;
  paimon_predicate *b = text_pred("pt", "b");
  read_threaded(t, 1, b, &one, &failed, msg, sizeof msg);
  read_threaded(t, 3, b, &many, &failed, msg, sizeof msg);
  CHECK_INT(failed, 0);
  CHECK_INT(one.n, first / 2);
  check_same(&one, &many);
  paimon_predicate_free(b);

  /* The consumer takes one batch and releases the stream while the workers are ahead. */
  paimon_read_builder *rb = builder(t);
  CHECK_OK(paimon_read_builder_set_read_threads(rb, 4, &err), &err);
  paimon_plan *p = NULL;
  struct ArrowArrayStream s;
  CHECK_OK(paimon_read_builder_plan(rb, &p, &err), &err);
  CHECK_OK(paimon_plan_read(rb, p, NULL, 0, &s, &err), &err);
  struct ArrowArray batch;
  CHECK_OK(cp_stream_next(&s, &batch, &err), &err);
  CHECK(batch.release != NULL);
  if (batch.release) batch.release(&batch);
  s.release(&s);
  paimon_plan_free(p);

  CHECK_ERR(paimon_read_builder_set_read_threads(rb, 0, &err), PAIMON_EINVAL);
  CHECK_ERR(paimon_read_builder_set_read_threads(rb, 65, &err), PAIMON_EINVAL);
  CHECK_ERR(paimon_read_builder_set_read_ahead(rb, 0, &err), PAIMON_EINVAL);
  CHECK_ERR(paimon_read_builder_set_read_ahead(rb, -2, &err), PAIMON_EINVAL);
  CHECK_ERR(paimon_read_builder_set_decode_threads(rb, 2, &err), PAIMON_EINVAL);
  CHECK_ERR(paimon_read_builder_set_decode_threads(rb, -2, &err), PAIMON_EINVAL);
  paimon_read_builder_free(rb);

  /* A missing file fails the read at its split, after the same rows either way. */
  char dir[1024], cmd[1200];
  snprintf(dir, sizeof dir, "%s/pt=b/bucket-0", paimon_table_path(t));
  snprintf(cmd, sizeof cmd, "rm -f \"$(ls -1 %s/*.parquet | sed -n 4p)\"", dir);
  CHECK(system(cmd) == 0);
  char msg1[512];
  read_threaded(t, 1, NULL, &one, &failed, msg1, sizeof msg1);
  CHECK_INT(failed, PAIMON_ENOTFOUND);
  ahead = -1;
  read_threaded(t, 3, NULL, &many, &failed, msg, sizeof msg);
  ahead = 2;
  CHECK_INT(failed, PAIMON_ENOTFOUND);
  CHECK_STR(msg, msg1);
  CHECK(strstr(msg, ".parquet") != NULL);
  check_same(&one, &many);
  CHECK(one.n > 0 && one.n < first);
  paimon_table_free(t);
}

/* Splits as bytes (paimon_plan_serialize / _deserialize): a plan rebuilt from them reads the
 * same rows, in the same order, as the plan they came from — slices at group edges, filters and
 * subsets of splits included; damaged bytes are refused, never read. */
static void test_plan_bytes(void) {
  paimon_table *t = create("db.bytes", true, true);
  if (!t) return;
  write_rows(t, 0, 7);
  write_rows(t, 7, 9);
  write_rows(t, 16, 4);
  paimon_error err;
  for (int variant = 0; variant < 3; variant++) {
    paimon_read_builder *rb = builder(t);
    if (variant == 1) CHECK_OK(paimon_read_builder_set_slice(rb, 3, 17, &err), &err);
    paimon_predicate *pred = variant == 2 ? text_pred("pt", "b") : NULL;
    if (pred) CHECK_OK(paimon_read_builder_set_filter(rb, pred, &err), &err);
    paimon_plan *p = NULL, *back = NULL;
    CHECK_OK(paimon_read_builder_plan(rb, &p, &err), &err);
    uint8_t *bytes = NULL;
    size_t len = 0;
    CHECK_OK(paimon_plan_serialize(p, NULL, 0, &bytes, &len, &err), &err);
    CHECK_OK(paimon_plan_deserialize(&back, bytes, len, &err), &err);
    rows want, got;
    read_plan(rb, p, NULL, 0, &want, NULL, NULL, 0);
    CHECK(want.n > 0);
    if (back) {
      CHECK_INT(paimon_plan_split_count(back), paimon_plan_split_count(p));
      CHECK_INT(paimon_plan_snapshot_id(back), paimon_plan_snapshot_id(p));
      paimon_read_builder *fresh = builder(t);
      if (pred) CHECK_OK(paimon_read_builder_set_filter(fresh, pred, &err), &err);
      read_plan(fresh, back, NULL, 0, &got, NULL, NULL, 0);
      CHECK_INT(got.n, want.n);
      for (int64_t k = 0; k < want.n && k < got.n; k++) {
        CHECK_INT(got.ids[k], want.ids[k]);
        CHECK_INT(got.row_ids[k], want.row_ids[k]);
      }
      paimon_read_builder_free(fresh);
      /* The same bytes again: serialization is a function of the splits. */
      uint8_t *again = NULL;
      size_t again_len = 0;
      CHECK_OK(paimon_plan_serialize(back, NULL, 0, &again, &again_len, &err), &err);
      CHECK(again_len == len && again && memcmp(again, bytes, len) == 0);
      free(again);
    }
    /* One split alone, the last one. */
    size_t last = paimon_plan_split_count(p) - 1;
    uint8_t *one = NULL;
    size_t one_len = 0;
    paimon_plan *single = NULL;
    CHECK_OK(paimon_plan_serialize(p, &last, 1, &one, &one_len, &err), &err);
    CHECK_OK(paimon_plan_deserialize(&single, one, one_len, &err), &err);
    if (single) {
      CHECK_INT(paimon_plan_split_count(single), 1);
      CHECK_INT(paimon_plan_split_row_count(single, 0), paimon_plan_split_row_count(p, last));
    }
    size_t bad = last + 1, none_len = 1;
    uint8_t *none = (uint8_t *)"x";
    CHECK_ERR(paimon_plan_serialize(p, &bad, 1, &none, &none_len, &err), PAIMON_EINVAL);
    CHECK(none == NULL && none_len == 0);
    /* Every truncation is refused; flipped bytes are refused or read as other splits. */
    for (size_t cut = 0; cut < len; cut++) {
      paimon_plan *x = NULL;
      CHECK_ERR(paimon_plan_deserialize(&x, bytes, cut, &err), PAIMON_EINVAL);
      CHECK(x == NULL);
    }
    for (size_t at = 0; at < len; at += 3) {
      bytes[at] ^= 0x41;
      paimon_plan *x = NULL;
      if (paimon_plan_deserialize(&x, bytes, len, &err) != 0) CHECK(x == NULL);
      paimon_plan_free(x);
      bytes[at] ^= 0x41;
    }
    free(bytes);
    free(one);
    paimon_plan_free(single);
    paimon_plan_free(back);
    paimon_plan_free(p);
    paimon_predicate_free(pred);
    paimon_read_builder_free(rb);
  }
  paimon_table_free(t);
}

int main(void) {
  if (!(cat = temp_catalog("limit-shard"))) return 1;
  RUN(test_shards_data_evolution);
  RUN(test_shards_append);
  RUN(test_limit);
  RUN(test_partition_filter);
  RUN(test_shard_errors);
  RUN(test_read_threads);
  RUN(test_plan_bytes);
  paimon_catalog_free(cat);
  TEST_MAIN_END();
}
