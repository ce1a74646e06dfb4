/*
 * Long and deep expression trees (expr.h, "Depth"): left-associative chains of any length bind,
 * evaluate (vectorized and per row), prune, copy, render and free without a stack frame per
 * operator; AND / OR built two at a time flatten; nesting through other operands beyond
 * CP_EXPR_MAX_DEPTH is refused when the tree is built. The chains are 100,000 long, far past what
 * recursion survived (about 3,000 on an 8 MiB stack). Expected values are derived by hand.
 */
#include "expr_test.h"

enum { LONG = 100000 };

static cp_expr *col(const char *name) {
  cp_expr *e = NULL;
  paimon_error err;
  CHECK_OK(cp_expr_column(&e, name, &err), &err);
  return e;
}

static cp_expr *lit(int32_t v) {
  cp_expr *e = NULL;
  paimon_error err;
  CHECK_OK(cp_expr_int(&e, v, &err), &err);
  return e;
}

static cp_expr *eq(const char *name, int32_t v) {
  cp_expr *e = NULL;
  paimon_error err;
  CHECK_OK(cp_expr_compare(&e, CP_CMP_EQ, col(name), lit(v), &err), &err);
  return e;
}

static cp_expr *bind(const tb *t, const cp_expr *u) {
  cp_expr *b = NULL;
  paimon_error err;
  CHECK_OK(cp_expr_bind(u, t->row, false, &b, &err), &err);
  return b;
}

/* x + 1 + 1 + ... (LONG - 1 ones): x + LONG - 1 on every row, NULL stays NULL. */
static void test_long_arithmetic_chain(void) {
  static const char *const cells[] = {"0", "5", NULL};
  tb t;
  tb_make(&t, "ROW<x INT>", 3, cells);
  paimon_error err;
  cp_expr *e = col("x");
  for (int i = 1; i < LONG && e; i++)
    CHECK_OK(cp_expr_arith(&e, CP_ARITH_ADD, e, lit(1), &err), &err);
  CHECK_INT(e->depth, 1);
  cp_expr *copy = NULL;
  CHECK_OK(cp_expr_copy(&copy, e, &err), &err);
  cp_expr *b = bind(&t, copy);
  char *got = tt_eval(&t, b); /* also checks each row against the per-row evaluation */
  CHECK_STR(got, "99999|100004|NULL");
  free(got);
  cp_buf sql = CP_BUF_INIT;
  CHECK_OK(cp_expr_append_sql(e, &sql, &err), &err);
  cp_buf_nul_terminate(&sql, NULL);
  /* ((x + 1) + 1) ...: LONG - 2 opening parentheses, then x. */
  CHECK(sql.len > (size_t)LONG * 4);
  CHECK(strncmp((char *)sql.data + LONG - 2, "x + 1) + 1", 10) == 0);
  cp_buf_free(&sql);
  cp_expr_free(b);
  cp_expr_free(copy);
  cp_expr_free(e);
  tb_free(&t);
}

static int64_t count_selected(const tb *t, const cp_expr *b) {
  uint8_t bits[8];
  int64_t n = -1;
  paimon_error err;
  CHECK_OK(cp_expr_eval_selection(b, &t->view, bits, &n, &err), &err);
  return n;
}

/* p OR q OR r ... built two at a time, either way round, is one OR node. Built left to right
 * (p = p OR q) it costs linear time; right to left copies the operands each time, so that chain
 * is shorter here. */
static void test_pairwise_or_flattens(void) {
  static const char *const cells[] = {"1", "7", "200000", NULL};
  tb t;
  tb_make(&t, "ROW<x INT>", 4, cells);
  paimon_error err;
  cp_expr *left = eq("x", 0), *right = eq("x", 0);
  for (int i = 1; i < LONG; i++) CHECK_OK(cp_expr_or2(&left, left, eq("x", i), &err), &err);
  for (int i = 1; i < LONG / 10; i++) CHECK_OK(cp_expr_or2(&right, eq("x", i), right, &err), &err);
  CHECK_INT(left->kind, CP_EXPR_OR);
  CHECK_INT(left->n_args, LONG);
  CHECK_INT(right->n_args, LONG / 10);
  CHECK_INT(left->depth, 2); /* the comparisons' literals */
  cp_expr *bl = bind(&t, left), *br = bind(&t, right);
  CHECK_INT(count_selected(&t, bl), 2); /* 1 and 7; 200000 is past the last term */
  CHECK_INT(count_selected(&t, br), 2);
  cp_expr_free(bl);
  cp_expr_free(br);
  cp_expr_free(left);
  cp_expr_free(right);
  tb_free(&t);
}

static int stats_of(void *ctx, int32_t column, cp_col_stats *out, paimon_error *err) {
  (void)column;
  (void)err;
  const int32_t *range = ctx;
  out->has_min = out->has_max = true;
  out->min = cp_datum_int(range[0]);
  out->max = cp_datum_int(range[1]);
  out->null_count = 0;
  out->row_count = 10;
  return 0;
}

/* ((x = 0 OR x = 1) AND x IS NOT NULL) OR x = 2 ...: AND and OR alternate down the first
 * operand, so nothing flattens; x in {0, 1, 2, ..} up to LONG / 2. NOT NOT ... NOT (even count)
 * of it means the same. */
static void test_alternating_chain_and_nots(void) {
  static const char *const cells[] = {"3", "-1", NULL};
  tb t;
  tb_make(&t, "ROW<x INT>", 3, cells);
  paimon_error err;
  cp_expr *e = eq("x", 0);
  for (int i = 1; i < LONG; i++) {
    if (i % 2) {
      CHECK_OK(cp_expr_or2(&e, e, eq("x", i / 2 + 1), &err), &err);
    } else {
      cp_expr *nn = NULL;
      CHECK_OK(cp_expr_is_null(&nn, col("x"), true, &err), &err);
      CHECK_OK(cp_expr_and2(&e, e, nn, &err), &err);
    }
  }
  for (int i = 0; i < LONG; i++) CHECK_OK(cp_expr_not(&e, e, &err), &err);
  CHECK_INT(e->depth, 2); /* x = k and x IS NOT NULL in second operands */
  cp_expr *b = bind(&t, e);
  char *got = tt_eval(&t, b);
  CHECK_STR(got, "true|false|NULL");
  free(got);
  bool may = false;
  int32_t in_range[2] = {2, 9}, out_of_range[2] = {LONG, 2 * LONG};
  CHECK_OK(cp_expr_may_match(b, stats_of, in_range, &may, &err), &err);
  CHECK(may);
  CHECK_OK(cp_expr_may_match(b, stats_of, out_of_range, &may, &err), &err);
  CHECK(!may);
  cp_expr_free(b);
  cp_expr_free(e);
  tb_free(&t);
}

/* 1 + (1 + (1 + ...)): nesting through the second operand counts; CP_EXPR_MAX_DEPTH levels are
 * fine, one more is refused with a message, and the operands are freed (ASan checks). */
static void test_right_nesting_limit(void) {
  paimon_error err;
  cp_expr *e = lit(1);
  for (int i = 0; i < CP_EXPR_MAX_DEPTH && e; i++)
    CHECK_OK(cp_expr_arith(&e, CP_ARITH_ADD, lit(1), e, &err), &err);
  CHECK_INT(e->depth, CP_EXPR_MAX_DEPTH);
  static const char *const cells[] = {"0"};
  tb t;
  tb_make(&t, "ROW<x INT>", 1, cells);
  cp_expr *b = bind(&t, e);
  char *got = tt_eval(&t, b);
  CHECK_STR(got, "501");
  free(got);
  cp_expr_free(b);
  tb_free(&t);
  cp_expr *deeper = NULL;
  CHECK_ERR(cp_expr_arith(&deeper, CP_ARITH_ADD, lit(1), e, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "nested too deeply");
  CHECK(deeper == NULL);
  /* OR and AND alternating through second operands cannot flatten either. */
  cp_expr *p = eq("x", 0);
  int rc = 0;
  for (int i = 0; rc == 0 && i <= CP_EXPR_MAX_DEPTH; i++) {
    cp_expr *q = NULL;
    rc = i % 2 ? cp_expr_and2(&q, eq("x", i), p, &err) : cp_expr_or2(&q, eq("x", i), p, &err);
    p = rc == 0 ? q : NULL;
  }
  CHECK_INT(rc, PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "nested too deeply");
  cp_expr_free(p);
}

int main(void) {
  RUN(test_long_arithmetic_chain);
  RUN(test_pairwise_or_flattens);
  RUN(test_alternating_chain_and_nots);
  RUN(test_right_nesting_limit);
  TEST_MAIN_END();
}
