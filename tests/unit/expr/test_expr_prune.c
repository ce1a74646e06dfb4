/*
 * Statistics-based pruning (src/expr/prune.c) and single-row evaluation (src/expr/eval_row.c):
 * a truth table of may_match over hand-made statistics, a randomized property test (a unit that
 * holds a matching row is never pruned, checked against evaluation over random small batches and
 * their exact statistics), and partition-row evaluation with absent columns.
 */
#include <math.h>

#include "expr_test.h"

typedef struct fake_stats {
  cp_col_stats cols[8];
  int calls;
} fake_stats;

static int get_stats(void *ctx, int32_t column, cp_col_stats *out, paimon_error *err) {
  fake_stats *f = ctx;
  f->calls++;
  if (column < 0 || column >= 8)
    return paimon_error_set(err, PAIMON_EINVAL, "bad column %d", column);
  *out = f->cols[column];
  return PAIMON_OK;
}

static int failing_stats(void *ctx, int32_t column, cp_col_stats *out, paimon_error *err) {
  (void)ctx;
  (void)out;
  return paimon_error_set(err, PAIMON_EIO, "cannot read stats of column %d", column);
}

static const char *const PRUNE_ROW =
    "ROW<x INT, y INT, d DOUBLE, s STRING, dt DATE, dec DECIMAL(10, 2), l BIGINT>";
static tb schema_only;

/* Parses a datum of column c's type. */
static cp_datum dv(int c, const char *text, cp_arena *a) {
  cp_datum d;
  paimon_error err;
  CHECK_OK(cp_datum_parse_text(schema_only.row->fields[c].type, text, a, &d, &err), &err);
  return d;
}

static void set_col(fake_stats *f, int c, const char *min, const char *max, int64_t nulls,
                    int64_t rows, cp_arena *a) {
  cp_col_stats *s = &f->cols[c];
  memset(s, 0, sizeof *s);
  s->has_min = min != NULL;
  s->has_max = max != NULL;
  if (min) s->min = dv(c, min, a);
  if (max) s->max = dv(c, max, a);
  s->null_count = nulls;
  s->row_count = rows;
}

static int may_match(fake_stats *f, const char *text) {
  cp_expr *e = bx(&schema_only, text);
  if (!e) return -1;
  bool out = false;
  paimon_error err;
  int rc = cp_expr_may_match(e, get_stats, f, &out, &err);
  CHECK_OK(rc, &err);
  cp_expr_free(e);
  return out;
}

#define CHECK_MAY(f, text, expected)                                                               \
  do {                                                                                             \
    int got_ = may_match(f, text);                                                                 \
    if (got_ != (expected)) fprintf(stderr, "  may_match(%s) = %d\n", text, got_);                 \
    CHECK_INT(got_, expected);                                                                     \
  } while (0)

static void test_truth_table(void) {
  cp_arena a = CP_ARENA_INIT;
  fake_stats f;
  memset(&f, 0, sizeof f);
  for (int c = 0; c < 8; c++) f.cols[c].null_count = f.cols[c].row_count = -1;
  set_col(&f, 0, "10", "20", 0, 100, &a);
  set_col(&f, 1, "1", "3", 5, 100, &a);
  CHECK_MAY(&f, "(= x 5)", 0);
  CHECK_MAY(&f, "(= x 10)", 1);
  CHECK_MAY(&f, "(= x 15)", 1);
  CHECK_MAY(&f, "(= x 21)", 0);
  CHECK_MAY(&f, "(= 21 x)", 0);
  CHECK_MAY(&f, "(< x 10)", 0);
  CHECK_MAY(&f, "(<= x 10)", 1);
  CHECK_MAY(&f, "(> x 20)", 0);
  CHECK_MAY(&f, "(>= x 20)", 1);
  CHECK_MAY(&f, "(> 10 x)", 0);
  CHECK_MAY(&f, "(<> x 15)", 1);
  CHECK_MAY(&f, "(in x 1 2 3)", 0);
  CHECK_MAY(&f, "(in x 1 15)", 1);
  CHECK_MAY(&f, "(in x null)", 0);
  CHECK_MAY(&f, "(not_in x 1 2)", 1);
  CHECK_MAY(&f, "(between x 21 30)", 0);
  CHECK_MAY(&f, "(between x 0 10)", 1);
  CHECK_MAY(&f, "(not_between x 0 30)", 0);
  CHECK_MAY(&f, "(is_null x)", 0);
  CHECK_MAY(&f, "(is_not_null x)", 1);
  CHECK_MAY(&f, "(is_null y)", 1);
  CHECK_MAY(&f, "(not (< x 10))", 1);
  CHECK_MAY(&f, "(not (< x 30))", 0);
  CHECK_MAY(&f, "(and (> x 15) (< y 1))", 0);
  CHECK_MAY(&f, "(and (> x 15) (< y 2))", 1);
  CHECK_MAY(&f, "(or (> x 25) (= y 9))", 0);
  CHECK_MAY(&f, "(or (> x 25) (= y 2))", 1);
  CHECK_MAY(&f, "(= x null)", 0);
  CHECK_MAY(&f, "(<=> x null)", 0);
  CHECK_MAY(&f, "(<=> y null)", 1);
  CHECK_MAY(&f, "(<=> x 15)", 1);
  CHECK_MAY(&f, "(not (<=> x 15))", 1);
  CHECK_MAY(&f, "(= x 15.5d)", 1); /* INT widened to DOUBLE: bounds cast too */
  CHECK_MAY(&f, "(= x 25.5d)", 0);
  CHECK_MAY(&f, "(> x 5000000000L)", 0);
  CHECK_MAY(&f, "(= 1 1)", 1);
  CHECK_MAY(&f, "(= 1 2)", 0);
  CHECK_MAY(&f, "(and (= x 15) false)", 0);
  CHECK_MAY(&f, "(or (= x 5) true)", 1);
  CHECK_MAY(&f, "(= (+ x 1) 100)", 1); /* not understood: may match */
  CHECK_MAY(&f, "(< x y)", 1);
  CHECK_MAY(&f, "(= x (+ 5 5))", 1); /* constant subexpressions are evaluated */
  CHECK_MAY(&f, "(= x (+ 20 5))", 0);
  /* A single-valued column: x = 15 everywhere. */
  set_col(&f, 0, "15", "15", 0, 100, &a);
  CHECK_MAY(&f, "(<> x 15)", 0);
  CHECK_MAY(&f, "(not (= x 15))", 0);
  CHECK_MAY(&f, "(not_in x 15 16)", 0);
  CHECK_MAY(&f, "(not_in x 16)", 1);
  CHECK_MAY(&f, "(not (in x 15 null))", 0);
  /* Nothing known. */
  set_col(&f, 0, NULL, NULL, -1, -1, &a);
  CHECK_MAY(&f, "(= x 5)", 1);
  CHECK_MAY(&f, "(is_null x)", 1);
  CHECK_MAY(&f, "(is_not_null x)", 1);
  /* Only nulls. */
  set_col(&f, 0, NULL, NULL, 100, 100, &a);
  CHECK_MAY(&f, "(= x 5)", 0);
  CHECK_MAY(&f, "(not (= x 5))", 0);
  CHECK_MAY(&f, "(is_null x)", 1);
  CHECK_MAY(&f, "(is_not_null x)", 0);
  CHECK_MAY(&f, "(<=> x null)", 1);
  CHECK_MAY(&f, "(in x 1 2)", 0);
  /* An empty unit matches nothing. */
  set_col(&f, 0, NULL, NULL, 0, 0, &a);
  CHECK_MAY(&f, "(is_null x)", 0);
  CHECK_MAY(&f, "(not (= x 5))", 0);
  CHECK_MAY(&f, "(or (= x 5) (is_not_null x))", 0);
  cp_arena_free(&a);
}

static void test_other_types(void) {
  cp_arena a = CP_ARENA_INIT;
  fake_stats f;
  memset(&f, 0, sizeof f);
  for (int c = 0; c < 8; c++) f.cols[c].null_count = f.cols[c].row_count = -1;
  set_col(&f, 2, "1.5", "2.0", 0, 10, &a);
  /* Parquet leaves NaN out of statistics and NaN is above every number: never trust the max. */
  CHECK_MAY(&f, "(> d 5.0d)", 1);
  CHECK_MAY(&f, "(= d nan)", 1);
  CHECK_MAY(&f, "(< d 1.0d)", 0);
  CHECK_MAY(&f, "(<= d 1.5d)", 1);
  set_col(&f, 3, "apple", "banana", 0, 10, &a);
  CHECK_MAY(&f, "(startswith s 'b')", 1);
  CHECK_MAY(&f, "(startswith s 'c')", 0);
  CHECK_MAY(&f, "(startswith s 'a')", 1);
  CHECK_MAY(&f, "(startswith s 'ap')", 1);
  CHECK_MAY(&f, "(startswith s 'aa')", 0);
  CHECK_MAY(&f, "(startswith s 'bananas')", 0);
  CHECK_MAY(&f, "(startswith s '')", 1);
  CHECK_MAY(&f, "(like s 'ba%')", 1);
  CHECK_MAY(&f, "(like s 'c%')", 0);
  CHECK_MAY(&f, "(like s 'cherry')", 0);
  CHECK_MAY(&f, "(like s '%x')", 1);
  CHECK_MAY(&f, "(endswith s 'zzz')", 1);
  CHECK_MAY(&f, "(= s 'b')", 1);
  CHECK_MAY(&f, "(> s 'banana')", 0);
  CHECK_MAY(&f, "(in s 'a' 'c')", 0);
  set_col(&f, 4, "2024-01-01", "2024-01-31", 0, 10, &a);
  CHECK_MAY(&f, "(= dt '2024-02-01')", 0);
  CHECK_MAY(&f, "(< dt (lit 'TIMESTAMP(6)' '2024-01-01 00:00:01'))", 1);
  CHECK_MAY(&f, "(< dt (lit 'TIMESTAMP(6)' '2024-01-01 00:00:00'))", 0);
  CHECK_MAY(&f, "(> dt (lit 'TIMESTAMP(6)' '2024-01-31 00:00:01'))", 0);
  set_col(&f, 5, "1.00", "2.50", 0, 10, &a);
  CHECK_MAY(&f, "(> dec 2.5)", 0);
  CHECK_MAY(&f, "(>= dec 2.5)", 1);
  CHECK_MAY(&f, "(> dec 2.499)", 1); /* through a decimal widening cast */
  CHECK_MAY(&f, "(< dec 1)", 0);
  set_col(&f, 6, "-5", "5", 1, 10, &a);
  CHECK_MAY(&f, "(= (cast l 'DOUBLE') 7.0d)", 0);
  CHECK_MAY(&f, "(= (cast l 'TINYINT') 7)", 1); /* narrowing wraps: not monotonic */
  CHECK_MAY(&f, "(= (cast l 'STRING') '7')", 1);
  cp_arena_free(&a);
}

static void test_errors(void) {
  paimon_error err;
  bool out;
  cp_expr *e = bx(&schema_only, "(= x 1)");
  CHECK_ERR(cp_expr_may_match(e, failing_stats, NULL, &out, &err), PAIMON_EIO);
  CHECK_CONTAINS(err.message, "column 0");
  cp_expr_free(e);
  e = bx(&schema_only, "(+ x 1)");
  CHECK_ERR(cp_expr_may_match(e, get_stats, NULL, &out, &err), PAIMON_EINVAL);
  cp_expr_free(e);
}

/* ---- randomized: may_match never prunes a batch that has a matching row -------------------- */

static uint64_t seed = 88172645463325252ull;
static uint64_t rnd(void) {
  seed ^= seed << 13;
  seed ^= seed >> 7;
  seed ^= seed << 17;
  return seed;
}

static const char *const INTS[] = {"-3", "-1", "0", "1", "2", "5", "8"};
static const char *const DBLS[] = {"-1.5", "0.0", "0.5", "2.0", "NaN", "-0.0", "3.25"};
static const char *const STRS[] = {"", "a", "ab", "abc", "b", "ba", "c"};

/* Exact statistics of column c of the batch; for DOUBLE the max leaves NaN out, as Parquet. */
static void exact_stats(const tb *t, int c, cp_col_stats *s) {
  const cp_type *ty = t->row->fields[c].type;
  memset(s, 0, sizeof *s);
  s->row_count = t->rows;
  paimon_error err;
  for (int64_t i = 0; i < t->rows; i++) {
    cp_datum d;
    CHECK_OK(cp_datum_from_view(ty, &t->view.children[c], i, &d, &err), &err);
    if (d.is_null) {
      s->null_count++;
      continue;
    }
    if (ty->kind == CP_TYPE_DOUBLE && isnan(d.v.f64)) continue;
    if (!s->has_min || cp_datum_compare(ty, &d, &s->min) < 0) s->min = d, s->has_min = true;
    if (!s->has_max || cp_datum_compare(ty, &d, &s->max) > 0) s->max = d, s->has_max = true;
  }
}

static void random_predicate(char *out, size_t cap, int depth) {
  static const char *const CMP[] = {"=", "<>", "<", "<=", ">", ">=", "<=>"};
  int kind = (int)(rnd() % (depth > 0 ? 12 : 9));
  const char *i1 = INTS[rnd() % 7], *i2 = INTS[rnd() % 7], *d1 = DBLS[rnd() % 7];
  const char *s1 = STRS[rnd() % 7], *s2 = STRS[rnd() % 7];
  char a[256], b[256];
  switch (kind) {
  case 0: snprintf(out, cap, "(%s x %s)", CMP[rnd() % 7], i1); break;
  case 1: snprintf(out, cap, "(%s %s x)", CMP[rnd() % 7], i1); break;
  case 2:
    snprintf(out, cap, "(%s d %s)", CMP[rnd() % 7],
             strcmp(d1, "NaN") == 0    ? "nan"
             : strcmp(d1, "-0.0") == 0 ? "-0.0d"
                                       : d1);
    break;
  case 3: snprintf(out, cap, "(%s s '%s')", CMP[rnd() % 7], s1); break;
  case 4:
    snprintf(out, cap, "(%s x %s %s)", rnd() % 2 ? "in" : "not_in", i1, rnd() % 3 ? i2 : "null");
    break;
  case 5: snprintf(out, cap, "(%s x %s %s)", rnd() % 2 ? "between" : "not_between", i1, i2); break;
  case 6: {
    static const char *const COLS[] = {"x", "d", "s"};
    snprintf(out, cap, "(%s %s)", rnd() % 2 ? "is_null" : "is_not_null", COLS[rnd() % 3]);
    break;
  }
  case 7: snprintf(out, cap, "(%s s '%s')", rnd() % 2 ? "startswith" : "like", s1); break;
  case 8: snprintf(out, cap, "(in s '%s' '%s')", s1, s2); break;
  case 9:
  case 10:
    random_predicate(a, sizeof a, depth - 1);
    random_predicate(b, sizeof b, depth - 1);
    snprintf(out, cap, "(%s %s %s)", kind == 9 ? "and" : "or", a, b);
    break;
  default:
    random_predicate(a, sizeof a, depth - 1);
    snprintf(out, cap, "(not %s)", a);
    break;
  }
}

static void test_random_never_prunes_a_match(void) {
  int pruned = 0, matched = 0, unsound = 0;
  paimon_error err;
  for (int round = 0; round < 400; round++) {
    int64_t rows = 1 + (int64_t)(rnd() % 8);
    const char *cells[8 * 3];
    for (int64_t r = 0; r < rows; r++) {
      cells[r * 3 + 0] = rnd() % 5 == 0 ? NULL : INTS[rnd() % 7];
      cells[r * 3 + 1] = rnd() % 5 == 0 ? NULL : DBLS[rnd() % 7];
      cells[r * 3 + 2] = rnd() % 5 == 0 ? NULL : STRS[rnd() % 7];
    }
    tb t;
    tb_make(&t, "ROW<x INT, d DOUBLE, s STRING>", rows, cells);
    fake_stats f;
    memset(&f, 0, sizeof f);
    for (int c = 0; c < 3; c++) exact_stats(&t, c, &f.cols[c]);
    for (int k = 0; k < 25; k++) {
      char text[1024];
      random_predicate(text, sizeof text, 2);
      cp_expr *e = bx(&t, text);
      if (!e) continue;
      uint8_t bits[1];
      int64_t n_true = 0;
      bool may = true;
      CHECK_OK(cp_expr_eval_selection(e, &t.view, bits, &n_true, &err), &err);
      CHECK_OK(cp_expr_may_match(e, get_stats, &f, &may, &err), &err);
      if (n_true > 0) matched++;
      if (!may) pruned++;
      if (n_true > 0 && !may) {
        if (unsound++ < 5)
          fprintf(stderr, "pruned a match: %s (%lld rows)\n", text, (long long)rows);
      }
      cp_expr_free(e);
    }
    tb_free(&t);
  }
  CHECK_INT(unsound, 0);
  /* The test is only meaningful if pruning happens and matches occur. */
  CHECK(pruned > 1000);
  CHECK(matched > 1000);
}

/* ---- partition rows ----------------------------------------------------------------------------
 */

static cp_truth row_truth(const tb *t, const char *text, const cp_datum *row, const bool *present) {
  cp_expr *e = bx(t, text);
  cp_truth r = CP_UNKNOWN;
  paimon_error err;
  if (e) CHECK_OK(cp_expr_eval_row(e, row, present, &r, &err), &err);
  cp_expr_free(e);
  return r;
}

static void test_partition_rows(void) {
  tb t;
  tb_make(&t, "ROW<dt STRING, hr INT, x INT>", 0, NULL);
  cp_datum row[3] = {cp_datum_bytes("2024-01-01", 10), cp_datum_int(2), cp_datum_int(0)};
  bool present[3] = {true, true, false};
  CHECK_INT(row_truth(&t, "(= dt '2024-01-01')", row, present), CP_TRUE);
  CHECK_INT(row_truth(&t, "(= dt '2024-01-02')", row, present), CP_FALSE);
  CHECK_INT(row_truth(&t, "(and (= dt '2024-01-01') (> x 5))", row, present), CP_UNKNOWN);
  CHECK_INT(row_truth(&t, "(and (= dt '2024-01-02') (> x 5))", row, present), CP_FALSE);
  CHECK_INT(row_truth(&t, "(or (= hr 2) (> x 5))", row, present), CP_TRUE);
  CHECK_INT(row_truth(&t, "(or (= hr 3) (> x 5))", row, present), CP_UNKNOWN);
  CHECK_INT(row_truth(&t, "(is_null x)", row, present), CP_UNKNOWN);
  CHECK_INT(row_truth(&t, "(not (> x 1))", row, present), CP_UNKNOWN);
  CHECK_INT(row_truth(&t, "(> (coalesce hr x) 1)", row, present), CP_TRUE);
  CHECK_INT(row_truth(&t, "(> (coalesce x hr) 1)", row, present), CP_UNKNOWN);
  CHECK_INT(row_truth(&t, "(case (> hr 1) true (> x 1))", row, present), CP_TRUE);
  CHECK_INT(row_truth(&t, "(case (> hr 5) true (> x 1))", row, present), CP_UNKNOWN);
  CHECK_INT(row_truth(&t, "(in hr 1 2)", row, present), CP_TRUE);
  CHECK_INT(row_truth(&t, "(between hr 3 4)", row, present), CP_FALSE);
  CHECK_INT(row_truth(&t, "(= dt '2024-01-01')", row, NULL), CP_TRUE);
  CHECK_INT(row_truth(&t, "(> x 5)", row, NULL), CP_FALSE); /* all present: x = 0 */
  /* A NULL partition value: NULL, which a filter drops like FALSE. */
  cp_datum nrow[3] = {cp_datum_null(), cp_datum_int(2), cp_datum_int(0)};
  CHECK_INT(row_truth(&t, "(= dt 'a')", nrow, present), CP_NULL);
  CHECK_INT(row_truth(&t, "(not (= dt 'a'))", nrow, present), CP_NULL);
  CHECK_INT(row_truth(&t, "(and (= dt 'a') (> x 1))", nrow, present), CP_UNKNOWN);
  CHECK_INT(row_truth(&t, "(and (= dt 'a') (= hr 3))", nrow, present), CP_FALSE);
  CHECK_INT(row_truth(&t, "(is_null dt)", nrow, present), CP_TRUE);
  CHECK_INT(row_truth(&t, "(startswith dt '2024')", row, present), CP_TRUE);
  paimon_error err;
  cp_expr *e = bx(&t, "(+ hr 1)");
  cp_truth r;
  CHECK_ERR(cp_expr_eval_row(e, row, present, &r, &err), PAIMON_EINVAL);
  cp_arena a = CP_ARENA_INIT;
  cp_datum v;
  bool known;
  CHECK_OK(cp_expr_eval_row_value(e, row, present, &a, &v, &known, &err), &err);
  CHECK(known && v.v.i64 == 3);
  cp_expr_free(e);
  e = bx(&t, "(concat dt '-' hr)");
  CHECK_OK(cp_expr_eval_row_value(e, row, present, &a, &v, &known, &err), &err);
  CHECK(known && v.v.bytes.len == 12 && memcmp(v.v.bytes.data, "2024-01-01-2", 12) == 0);
  cp_expr_free(e);
  cp_arena_free(&a);
  tb_free(&t);
}

int main(void) {
  tb_make(&schema_only, PRUNE_ROW, 0, NULL);
  RUN(test_truth_table);
  RUN(test_other_types);
  RUN(test_errors);
  RUN(test_random_never_prunes_a_match);
  RUN(test_partition_rows);
  tb_free(&schema_only);
  TEST_MAIN_END();
}
