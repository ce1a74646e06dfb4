/*
 * Tests for the list_runs shortcut of levels_write.h (spec/parquet.md §3.1, §3.4): for a leaf under
 * one list or map, ranges without NULL collections or NULL elements skip the per-entry walk, and
 * their levels are streamed as runs. Property test on random data: for ARRAY<FLOAT>, ARRAY<INT NOT
 * NULL> NOT NULL, ARRAY<STRING>, MAP<INT, STRING> (key and value leaves) and VECTOR<FLOAT, 3>, with
 * empty lists, NULL lists and NULL elements sprinkled in some batches only, every range at every
 * offset is computed twice — the general walk (general_only) and the default — and the shortcut
 * must be taken exactly when the range has no NULL, give the same entries, values, value slots,
 * spans for any row cut, and levels that decode to the general walk's arrays. Also the slice
 * sizing of cp_pq_levels_rows_within against a brute-force count, for lists and a list in a ROW.
 */
#include <stdlib.h>
#include <string.h>

#include "format/parquet/levels_write.h"
#include "format/parquet/schema_build.h"
#include "test_writer_util.h"

static uint64_t rng_state = 0x2545F4914F6CDD1DULL;
static uint32_t rnd(uint32_t n) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return n ? (uint32_t)(rng_state >> 17) % n : 0;
}

/* A random batch of `rows` rows for the one-column row type: list lengths 0..max_len (a VECTOR
 * has its fixed length), NULL lists and elements with the given odds (1 in n; 0: none). */
static void fill_random(tw_batch *t, const cp_type *col, int64_t rows, uint32_t max_len,
                        uint32_t null_list, uint32_t null_elem) {
  paimon_error err;
  cp_builder *l = tw_col(t, 0);
  const bool is_map = col->kind == CP_TYPE_MAP;
  cp_builder *keys = is_map ? cp_builder_map_keys(l) : NULL;
  cp_builder *elem = is_map ? cp_builder_map_values(l) : cp_builder_child(l, 0);
  const cp_type *et = is_map ? col->value : col->element;
  for (int64_t r = 0; r < rows; r++) {
    if (col->nullable && null_list && rnd(null_list) == 0) {
      CHECK_OK(cp_builder_append_null(l, &err), &err);
      continue;
    }
    uint32_t len = col->kind == CP_TYPE_VECTOR ? (uint32_t)col->length : rnd(max_len + 1);
    for (uint32_t i = 0; i < len; i++) {
      if (keys) CHECK_OK(cp_builder_append_int64(keys, (int64_t)i, &err), &err);
      if (et->nullable && null_elem && rnd(null_elem) == 0)
        CHECK_OK(cp_builder_append_null(elem, &err), &err);
      else if (et->kind == CP_TYPE_VARCHAR)
        CHECK_OK(cp_builder_append_str(elem, rnd(2) ? "x" : "yz", &err), &err);
      else if (et->kind == CP_TYPE_FLOAT)
        CHECK_OK(cp_builder_append_double(elem, (double)rnd(1000) / 8, &err), &err);
      else
        CHECK_OK(cp_builder_append_int64(elem, (int64_t)rnd(1000), &err), &err);
    }
    CHECK_OK(cp_builder_end_element(l, &err), &err);
  }
}

/* Whether rows [row0, row0 + n) hold a NULL collection or a NULL element. */
static bool range_has_null(const cp_array_view *list, const cp_array_view *elems, int64_t row0,
                           int64_t n) {
  for (int64_t r = row0; r < row0 + n; r++) {
    if (cp_view_is_null(list, r)) return true;
    int64_t s, e;
    cp_view_list_range(list, r, &s, &e);
    for (int64_t i = s; i < e; i++)
      if (cp_view_is_null(elems, i)) return true;
  }
  return false;
}

/* The list_runs levels of rows [0, rows) expanded through the RLE writer and decoded. */
static void expand_runs(const cp_pq_levels *lv, const cp_pq_leaf *l, int16_t *rep, int16_t *def) {
  paimon_error err;
  cp_buf rb = CP_BUF_INIT, db = CP_BUF_INIT;
  cp_pq_rle_writer rw, dw;
  cp_pq_rle_writer_init(&rw, &rb, cp_pq_bit_width((uint64_t)l->max_rep));
  cp_pq_rle_writer_init(&dw, &db, cp_pq_bit_width((uint64_t)l->max_def));
  /* In two calls, as page cuts would make them. */
  const int64_t cut = lv->n_rows / 3;
  CHECK_OK(cp_pq_levels_put_runs(lv, l->max_def, 0, cut, &rw, &dw, &err), &err);
  CHECK_OK(cp_pq_levels_put_runs(lv, l->max_def, cut, lv->n_rows - cut, &rw, &dw, &err), &err);
  CHECK_OK(cp_pq_rle_writer_finish(&rw, &err), &err);
  CHECK_OK(cp_pq_rle_writer_finish(&dw, &err), &err);
  cp_pq_rle_decoder d;
  CHECK_OK(cp_pq_rle_decoder_init(&d, rb.data, rb.len, rw.bit_width, "rep", &err), &err);
  CHECK_OK(cp_pq_rle_decode_i16(&d, rep, (size_t)lv->n_entries, &err), &err);
  CHECK_OK(cp_pq_rle_decoder_init(&d, db.data, db.len, dw.bit_width, "def", &err), &err);
  CHECK_OK(cp_pq_rle_decode_i16(&d, def, (size_t)lv->n_entries, &err), &err);
  cp_buf_free(&rb);
  cp_buf_free(&db);
}

/* One range of one leaf: general walk vs default. */
static void compare_range(const cp_pq_leaf *l, const cp_array_view **vs, int64_t row0, int64_t n,
                          cp_pq_levels *gen, cp_pq_levels *fast) {
  paimon_error err;
  gen->general_only = true;
  CHECK_OK(cp_pq_levels_compute(gen, l, vs, row0, n, false, &err), &err);
  CHECK_OK(cp_pq_levels_compute(fast, l, vs, row0, n, false, &err), &err);
  const bool nulls = range_has_null(vs[0], vs[1], row0, n);
  CHECK_INT(gen->list_runs, false);
  CHECK_INT(fast->list_runs, !nulls);
  CHECK_INT(fast->n_entries, gen->n_entries);
  CHECK_INT(fast->n_values, gen->n_values);
  if (!fast->list_runs) return;
  /* Values: one run at the general walk's first slot. */
  CHECK(fast->contiguous);
  bool slots_ok = gen->n_values == 0 || gen->contiguous || gen->slots[0] == fast->first_slot;
  for (int64_t i = 0; slots_ok && !gen->contiguous && i < gen->n_values; i++)
    slots_ok = gen->slots[i] == fast->first_slot + i;
  if (gen->contiguous && gen->n_values) slots_ok = gen->first_slot == fast->first_slot;
  CHECK(slots_ok);
  /* Levels. */
  int16_t *rep = calloc((size_t)gen->n_entries + 1, 2),
          *def = calloc((size_t)gen->n_entries + 1, 2);
  expand_runs(fast, l, rep, def);
  CHECK(memcmp(rep, gen->rep, (size_t)gen->n_entries * 2) == 0);
  CHECK(memcmp(def, gen->def, (size_t)gen->n_entries * 2) == 0);
  free(rep);
  free(def);
  /* Spans of every piece of a random cut. */
  for (int64_t r = 0, e = 0, k; r < n; r += k) {
    k = 1 + rnd((uint32_t)(n - r));
    int64_t ge, gv, fe, fv;
    cp_pq_levels_span(gen, l->max_def, e, r, k, &ge, &gv);
    cp_pq_levels_span(fast, l->max_def, e, r, k, &fe, &fv);
    CHECK(ge == fe && gv == fv);
    e += ge;
  }
}

static void run_type(const char *sql) {
  paimon_error err;
  cp_type *row = tw_type(sql);
  const cp_type *col = row->fields[0].type;
  cp_pq_write_schema ws;
  CHECK_OK(cp_pq_write_schema_build(&ws, row, &err), &err);
  cp_pq_levels gen, fast;
  cp_pq_levels_init(&gen);
  cp_pq_levels_init(&fast);
  /* Batch kinds: clean (no NULL at all), some empties, NULL lists, NULL elements. */
  static const struct {
    uint32_t max_len, null_list, null_elem;
  } kinds[] = {{6, 0, 0}, {300, 0, 0}, {3, 5, 0}, {5, 0, 7}, {4, 9, 9}};
  for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++) {
    tw_batch t;
    tw_batch_init(&t, row);
    fill_random(&t, col, 400, kinds[k].max_len, kinds[k].null_list, kinds[k].null_elem);
    tw_batch_finish(&t);
    cp_array_view v;
    CHECK_OK(cp_array_view_init(&v, &t.schema, &t.array, &err), &err);
    for (uint32_t i = 0; i < ws.n_leaves; i++) {
      const cp_pq_leaf *l = &ws.leaves[i];
      const cp_array_view *vs[8];
      cp_pq_leaf_views(l, &v, vs);
      for (int rep = 0; rep < 30; rep++) {
        int64_t row0 = rnd(400), n = 1 + rnd((uint32_t)(400 - row0));
        if (rep % 3 == 0) n = 1 + rnd(6); /* short ranges: clean ones happen in NULL batches */
        if (row0 + n > 400) n = 400 - row0;
        compare_range(l, vs, row0, n, &gen, &fast);
      }
      compare_range(l, vs, 0, 400, &gen, &fast);
    }
    cp_array_view_reset(&v);
    tw_batch_free(&t);
  }
  cp_pq_levels_free(&gen);
  cp_pq_levels_free(&fast);
  cp_pq_write_schema_free(&ws);
  cp_type_free(row);
}

static void test_fast_vs_general(void) {
  run_type("ROW<e ARRAY<FLOAT>>");
  run_type("ROW<e ARRAY<INT NOT NULL> NOT NULL>");
  run_type("ROW<e ARRAY<STRING>>");
  run_type("ROW<m MAP<INT, STRING>>");
  run_type("ROW<v VECTOR<FLOAT, 3>>");
}

/* The shortcut does not apply to deeper shapes: a list in a ROW, a list of lists. */
static void test_not_for_deeper_shapes(void) {
  paimon_error err;
  cp_type *row = tw_type("ROW<s ROW<a ARRAY<INT>>, ll ARRAY<ARRAY<INT>>>");
  cp_pq_write_schema ws;
  CHECK_OK(cp_pq_write_schema_build(&ws, row, &err), &err);
  tw_batch t;
  tw_batch_init(&t, row);
  cp_builder *s = tw_col(&t, 0), *a = cp_builder_child(s, 0), *ll = tw_col(&t, 1);
  cp_builder *inner = cp_builder_child(ll, 0);
  for (int r = 0; r < 10; r++) {
    CHECK_OK(cp_builder_append_int64(cp_builder_child(a, 0), r, &err), &err);
    CHECK_OK(cp_builder_end_element(a, &err), &err);
    CHECK_OK(cp_builder_end_element(s, &err), &err);
    CHECK_OK(cp_builder_append_int64(cp_builder_child(inner, 0), r, &err), &err);
    CHECK_OK(cp_builder_end_element(inner, &err), &err);
    CHECK_OK(cp_builder_end_element(ll, &err), &err);
  }
  tw_batch_finish(&t);
  cp_array_view v;
  CHECK_OK(cp_array_view_init(&v, &t.schema, &t.array, &err), &err);
  cp_pq_levels lv;
  cp_pq_levels_init(&lv);
  for (uint32_t i = 0; i < ws.n_leaves; i++) {
    const cp_array_view *vs[8];
    cp_pq_leaf_views(&ws.leaves[i], &v, vs);
    CHECK_OK(cp_pq_levels_compute(&lv, &ws.leaves[i], vs, 0, 10, false, &err), &err);
    CHECK(!lv.list_runs);
    CHECK_INT(lv.n_values, 10);
  }
  cp_pq_levels_free(&lv);
  cp_array_view_reset(&v);
  tw_batch_free(&t);
  cp_pq_write_schema_free(&ws);
  cp_type_free(row);
}

/* rows_within: the largest k with elements + k <= budget, checked by brute force; the count it
 * reports; n for a leaf without collections; a list under a ROW is sized too. */
static void test_rows_within(void) {
  paimon_error err;
  cp_type *row = tw_type("ROW<e ARRAY<INT>, s ROW<a ARRAY<INT>>, x INT>");
  cp_pq_write_schema ws;
  CHECK_OK(cp_pq_write_schema_build(&ws, row, &err), &err);
  tw_batch t;
  tw_batch_init(&t, row);
  cp_builder *e = tw_col(&t, 0), *s = tw_col(&t, 1), *a = cp_builder_child(s, 0);
  enum { ROWS = 500 };
  int64_t len[ROWS];
  for (int r = 0; r < ROWS; r++) {
    len[r] = r % 50 == 0 ? 0 : rnd(40);
    for (int64_t i = 0; i < len[r]; i++) {
      CHECK_OK(cp_builder_append_int64(cp_builder_child(e, 0), i, &err), &err);
      CHECK_OK(cp_builder_append_int64(cp_builder_child(a, 0), i, &err), &err);
    }
    CHECK_OK(cp_builder_end_element(e, &err), &err);
    CHECK_OK(cp_builder_end_element(a, &err), &err);
    CHECK_OK(cp_builder_end_element(s, &err), &err);
    CHECK_OK(cp_builder_append_int64(tw_col(&t, 2), r, &err), &err);
  }
  tw_batch_finish(&t);
  cp_array_view v;
  CHECK_OK(cp_array_view_init(&v, &t.schema, &t.array, &err), &err);
  for (uint32_t i = 0; i < ws.n_leaves; i++) {
    const cp_pq_leaf *l = &ws.leaves[i];
    const cp_array_view *vs[8];
    cp_pq_leaf_views(l, &v, vs);
    for (int rep = 0; rep < 200; rep++) {
      int64_t row0 = rnd(ROWS), n = 1 + rnd((uint32_t)(ROWS - row0)), budget = 1 + rnd(2000);
      int64_t entries, k = cp_pq_levels_rows_within(l, vs, row0, n, budget, &entries);
      if (l->max_rep == 0) {
        CHECK(k == n && entries == n);
        continue;
      }
      int64_t want = 0, sum = 0;
      for (int64_t j = 1; j <= n; j++) {
        sum += len[row0 + j - 1];
        if (sum + j <= budget) want = j;
      }
      if (want == 0) want = 1; /* always progress */
      int64_t got_entries = 0;
      for (int64_t j = 0; j < want; j++) got_entries += len[row0 + j];
      CHECK_INT(k, want);
      CHECK_INT(entries, got_entries + want);
    }
  }
  cp_array_view_reset(&v);
  tw_batch_free(&t);
  cp_pq_write_schema_free(&ws);
  cp_type_free(row);
}

int main(void) {
  RUN(test_fast_vs_general);
  RUN(test_not_for_deeper_shapes);
  RUN(test_rows_within);
  TEST_MAIN_END();
}
