/*
 * Tests for the byte-array statistics of dictionary-encoded chunks (writer_values.c;
 * spec/parquet.md §2.9, §4 P8): while a chunk's dictionary is on, its bounds come from the
 * dictionary entries as they are added instead of from every value. Property test on random strings
 * (empty ones, bytes
 * >= 0x80, values that are prefixes of others): columns whose dictionary is kept (low
 * cardinality), given up on the first page (unique values), and falling back mid-chunk (a small
 * dictionary limit), with NULLs in some batches (the slot path) and not in others (the run path),
 * a list column, many pages and row groups that cut across batches. For every chunk the footer's
 * min_value/max_value must be the bounds computed here from the generated values with memcmp,
 * the decoded values must be the generated ones, and each column must be in its intended
 * dictionary regime. The file-level datums are checked too.
 *
 * Also the float and double bounds (stats_write.c), whose bulk goes through SSE2 min/max on x86:
 * on random runs of every length 0..200 at every alignment, with NaNs (none, some, all),
 * infinities and signed zeros, in one call or split over several, the bounds, NaN count and
 * has_minmax must be those of a plain sequential scan (zeros compared by value: the footer
 * writes a zero min as -0.0 and a zero max as +0.0 either way).
 */
#include <stdlib.h>
#include <string.h>

#include <math.h>

#include "format/parquet/stats_write.h"
#include "test_writer_util.h"

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;
static uint32_t rnd(uint32_t n) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return n ? (uint32_t)(rng_state >> 17) % n : 0;
}

enum { COLS = 4, BATCHES = 5, BATCH_ROWS = 3000, GROUP_ROWS = 4000, MAX_LEN = 24 };
enum { ROWS = BATCHES * BATCH_ROWS, GROUPS = (ROWS + GROUP_ROWS - 1) / GROUP_ROWS };

/* The values generated, per column, in file order (for the list column: its elements). */
typedef struct str {
  uint8_t b[MAX_LEN];
  int len;
} str;

typedef struct bounds {
  bool any;
  str lo, hi;
} bounds;

static int str_cmp(const str *a, const str *b) {
  int m = a->len < b->len ? a->len : b->len;
  int r = m ? memcmp(a->b, b->b, (size_t)m) : 0;
  return r ? r : (a->len > b->len) - (a->len < b->len);
}

static void bounds_add(bounds *bd, const str *s) {
  if (!bd->any || str_cmp(s, &bd->lo) < 0) bd->lo = *s;
  if (!bd->any || str_cmp(s, &bd->hi) > 0) bd->hi = *s;
  bd->any = true;
}

/* A pool of 40 strings for the low-cardinality columns: lengths 0..MAX_LEN, shared prefixes. */
static str pool[40];
static void make_pool(void) {
  for (int i = 0; i < 40; i++) {
    pool[i].len = i == 0 ? 0 : (int)rnd(MAX_LEN + 1);
    for (int k = 0; k < pool[i].len; k++) pool[i].b[k] = (uint8_t)(k < 3 ? 'p' : rnd(256));
  }
  pool[1] = pool[2];
  if (pool[1].len > 1) pool[1].len--; /* a prefix of another value */
}

static void random_str(str *s, uint32_t distinct) {
  if (distinct == 0) { /* unique: a counter in the middle, random bytes around it */
    static uint32_t counter;
    s->len = 8 + (int)rnd(MAX_LEN - 7);
    for (int k = 0; k < s->len; k++) s->b[k] = (uint8_t)rnd(256);
    uint32_t c = counter++;
    memcpy(s->b + 2, &c, 4);
    return;
  }
  if (distinct <= 40) {
    *s = pool[rnd(distinct)];
    return;
  }
  /* Mid cardinality: "m" + v in 19 digits, long enough that the dictionary pays on the first page
   * (so it is kept, then falls back at the limit). */
  s->len = snprintf((char *)s->b, sizeof s->b, "m%019u", rnd(distinct));
}

typedef struct gen {
  str *vals[COLS]; /* non-null values in order */
  int64_t n[COLS];
  int64_t *rows_of[COLS]; /* the row of each value (the group is row / GROUP_ROWS) */
} gen;

static void gen_push(gen *g, int col, const str *s, int64_t row) {
  g->vals[col][g->n[col]] = *s;
  g->rows_of[col][g->n[col]++] = row;
}

/* Column 0 low cardinality, 1 unique, 2 mid (falls back), 3 ARRAY<STRING> of the pool. */
static void fill(tw_batch *t, gen *g, int batch) {
  paimon_error err;
  const bool nulls = batch % 2 == 1;
  static const uint32_t distinct[3] = {40, 0, 200};
  for (int64_t i = 0; i < BATCH_ROWS; i++) {
    const int64_t row = (int64_t)batch * BATCH_ROWS + i;
    for (int c = 0; c < 3; c++) {
      if (nulls && rnd(7) == 0) {
        CHECK_OK(cp_builder_append_null(tw_col(t, c), &err), &err);
        continue;
      }
      str s;
      random_str(&s, distinct[c]);
      CHECK_OK(cp_builder_append_bytes(tw_col(t, c), s.b, (size_t)s.len, &err), &err);
      gen_push(g, c, &s, row);
    }
    cp_builder *l = tw_col(t, 3), *e = cp_builder_child(l, 0);
    const uint32_t len = rnd(4);
    for (uint32_t k = 0; k < len; k++) {
      str s;
      random_str(&s, 25);
      CHECK_OK(cp_builder_append_bytes(e, s.b, (size_t)s.len, &err), &err);
      gen_push(g, 3, &s, row);
    }
    CHECK_OK(cp_builder_end_element(l, &err), &err);
  }
}

static bool opt_is(const cp_pq_opt_bytes *b, const str *s) {
  return b->is_set && b->len == (size_t)s->len &&
         (s->len == 0 || memcmp(b->data, s->b, b->len) == 0);
}

static bool datum_is(const cp_datum *d, const str *s) {
  return !d->is_null && d->v.bytes.len == (size_t)s->len &&
         (s->len == 0 || memcmp(d->v.bytes.data, s->b, (size_t)s->len) == 0);
}

/* Every chunk of column `col`: bounds, decoded values, dictionary regime. */
static void check_column(const tw_read *r, const gen *g, int col, bounds *file) {
  paimon_error err;
  int64_t at = 0;
  for (int rg = 0; rg < GROUPS; rg++) {
    bounds bd = {0};
    const int64_t start = at;
    while (at < g->n[col] && g->rows_of[col][at] / GROUP_ROWS == rg)
      bounds_add(&bd, &g->vals[col][at++]);
    for (int64_t i = start; i < at; i++) bounds_add(file, &g->vals[col][i]);
    const cp_pq_statistics *s = &tw_meta(r, rg, col)->statistics;
    CHECK(bd.any);
    CHECK(opt_is(&s->min_value, &bd.lo));
    CHECK(opt_is(&s->max_value, &bd.hi));
    tw_chunk ch;
    CHECK_OK(tw_decode_chunk(r, rg, col, &ch, &err), &err);
    CHECK_INT(ch.n_values, at - start);
    for (int64_t i = 0; i < ch.n_values && i < at - start; i++) {
      const str *want = &g->vals[col][start + i];
      const int32_t len = ch.offsets[i + 1] - ch.offsets[i];
      CHECK(len == want->len && memcmp(ch.bytes.data + ch.offsets[i], want->b, (size_t)len) == 0);
    }
    if (col == 0 || col == 3) CHECK(ch.dict_encoded_pages == ch.data_pages && ch.dict_pages == 1);
    if (col == 1) CHECK(ch.dict_encoded_pages == 0 && ch.dict_pages == 0);
    if (col == 2) CHECK(ch.dict_encoded_pages > 0 && ch.dict_encoded_pages < ch.data_pages);
    tw_chunk_free(&ch);
  }
}

static void test_dictionary_bounds(void) {
  paimon_error err;
  make_pool();
  gen g;
  memset(&g, 0, sizeof g);
  for (int c = 0; c < COLS; c++) {
    g.vals[c] = malloc(sizeof(str) * ROWS * 4);
    g.rows_of[c] = malloc(sizeof(int64_t) * ROWS * 4);
  }
  cp_type *row = tw_type("ROW<lo STRING, hi STRING, mid BYTES, e ARRAY<STRING>>");
  cp_pq_writer_options o;
  cp_pq_writer_options_init(&o);
  o.row_group_rows = GROUP_ROWS;
  o.page_size = 2048;
  o.dictionary_page_limit = 3000; /* 125 of the 200 mid values: falls back in every chunk */
  tw_file tf;
  CHECK_OK(tw_open(&tf, "faststats", row, &o, &err), &err);
  for (int b = 0; tf.w && b < BATCHES; b++) {
    tw_batch t;
    tw_batch_init(&t, row);
    fill(&t, &g, b);
    tw_batch_finish(&t);
    CHECK_OK(cp_pq_writer_write(tf.w, &t.schema, &t.array, &err), &err);
    tw_batch_free(&t);
  }
  cp_pq_file_stats st;
  tw_read r;
  if (tf.w && tw_close(&tf, &st, &err) == 0 && tw_read_file(&r, tf.path, &err) == 0) {
    CHECK_INT((int64_t)r.ft.meta.num_row_groups, GROUPS);
    for (int c = 0; c < COLS; c++) {
      bounds file = {0};
      check_column(&r, &g, c, &file);
      if (c < 3)
        CHECK(datum_is(&st.columns[c].min, &file.lo) && datum_is(&st.columns[c].max, &file.hi));
    }
    tw_read_free(&r);
  } else {
    CHECK(false);
  }
  tw_free(&tf);
  cp_type_free(row);
  for (int c = 0; c < COLS; c++) {
    free(g.vals[c]);
    free(g.rows_of[c]);
  }
}

/* ---- float and double bounds ---- */

static double special(uint32_t nan_odds) {
  switch (rnd(nan_odds ? 40 : 36)) {
  case 0: return INFINITY;
  case 1: return -INFINITY;
  case 2: return 0.0;
  case 3: return -0.0;
  case 36:
  case 37:
  case 38:
  case 39: return rnd(2) ? NAN : -NAN;
  default: return ((double)rnd(1u << 30) - (double)(1u << 29)) / (double)(1u << rnd(20));
  }
}

#define CHECK_FLOATS(T, field, update)                                                             \
  do {                                                                                             \
    T buf[216];                                                                                    \
    for (int round = 0; round < 3000; round++) {                                                   \
      const size_t n = rnd(201), at = rnd(16);                                                     \
      const int mode = (int)rnd(4); /* 0 no NaN, 1 some, 2 all NaN, 3 mostly NaN */                \
      for (size_t i = 0; i < n; i++)                                                               \
        buf[at + i] = mode == 2 || (mode == 3 && rnd(8)) ? (T)NAN : (T)special(mode == 1);         \
      cp_pq_stats s;                                                                               \
      cp_pq_stats_init(&s, kind);                                                                  \
      for (size_t i = 0, k; i < n; i += k) { /* one call or several */                             \
        k = rnd(2) ? n - i : 1 + rnd((uint32_t)(n - i));                                           \
        update(&s, buf + at + i, k);                                                               \
      }                                                                                            \
      T lo = 0, hi = 0;                                                                            \
      int64_t nans = 0;                                                                            \
      bool any = false;                                                                            \
      for (size_t i = 0; i < n; i++) {                                                             \
        T x = buf[at + i];                                                                         \
        if (isnan(x)) {                                                                            \
          nans++;                                                                                  \
          continue;                                                                                \
        }                                                                                          \
        if (!any || x < lo) lo = x;                                                                \
        if (!any || x > hi) hi = x;                                                                \
        any = true;                                                                                \
      }                                                                                            \
      CHECK_INT(s.nan_count, nans);                                                                \
      CHECK(s.has_minmax == any);                                                                  \
      if (any) CHECK(s.min.field == lo && s.max.field == hi);                                      \
      cp_pq_stats_free(&s);                                                                        \
    }                                                                                              \
  } while (0)

static void test_float_bounds(void) {
  cp_pq_stats_kind kind = CP_PQ_STATS_F32;
  CHECK_FLOATS(float, f32, cp_pq_stats_update_f32);
  kind = CP_PQ_STATS_F64;
  CHECK_FLOATS(double, f64, cp_pq_stats_update_f64);
}

int main(void) {
  paimon_error err;
  if (cp_fs_local_new(&tw_fs, &err) != 0) return 1;
  RUN(test_dictionary_bounds);
  RUN(test_float_bounds);
  cp_fs_free(tw_fs);
  TEST_MAIN_END();
}
