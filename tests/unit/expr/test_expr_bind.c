/*
 * Binding (src/expr/bind.c, coerce.c): name resolution, the types and casts binding produces,
 * how text literals and untyped NULLs are typed, error messages naming columns and types, and
 * the tree utilities of expr.c (column lists, remapping, copying, rendering, constructors'
 * argument checks).
 */
#include "expr_test.h"

static const char *const ROW_TYPE =
    "ROW<age INT, name STRING, d DOUBLE, dec DECIMAL(10, 2), dt DATE, ts TIMESTAMP(6), "
    "bin BYTES, tags ARRAY<STRING>, flag BOOLEAN>";

static const char *const ROW_CELLS[] = {
    "42",    "ann", "1.5",  "1.23", "2024-01-01", "2024-01-01 10:00:00",
    "X'0A'", NULL,  "true", "7",    "bob",        "2.0",
    NULL,    NULL,  NULL,   NULL,   NULL,         NULL};

static tb t;

static void test_unknown_columns(void) {
  CHECK_BIND_FAILS(&t, "(= x 1)", PAIMON_ENOTFOUND, "column 'x' not found among: age, name, d");
  CHECK_BIND_FAILS(&t, "(= AGE 1)", PAIMON_ENOTFOUND, "column 'AGE' not found");
  paimon_error err;
  cp_expr *u = px("(= AGE 1)"), *b = NULL;
  CHECK_OK(cp_expr_bind(u, t.row, true, &b, &err), &err);
  CHECK(b && b->args[0]->column == 0);
  CHECK_STR(b ? b->args[0]->name : NULL, "age"); /* the schema's spelling */
  cp_expr_free(b);
  cp_expr_free(u);
  cp_type *not_row = tt_type("INT");
  u = px("(= age 1)");
  CHECK_ERR(cp_expr_bind(u, not_row, false, &b, &err), PAIMON_EINVAL);
  cp_expr_free(u);
  cp_type_free(not_row);
}

static void test_type_errors(void) {
  /* The brief's example: a text literal that is not a value of the column's type. */
  CHECK_BIND_FAILS(&t, "(= age t'abc')", PAIMON_EINVAL,
                   "cannot compare column 'age' (INT) with 'abc' (STRING): not a number");
  CHECK_BIND_FAILS(&t, "(> t'abc' age)", PAIMON_EINVAL,
                   "cannot compare column 'age' (INT) with 'abc' (STRING)");
  CHECK_BIND_FAILS(
      &t, "(= dt t'2024-13-01')", PAIMON_EINVAL,
      "cannot compare column 'dt' (DATE) with '2024-13-01' (STRING): month out of range");
  CHECK_BIND_FAILS(&t, "(in age 1 t'x')", PAIMON_EINVAL,
                   "cannot compare column 'age' (INT) with 'x'");
  CHECK_BIND_FAILS(&t, "(= dt 1)", PAIMON_EINVAL, "cannot compare column 'dt' (DATE) with 1 (INT)");
  CHECK_BIND_FAILS(&t, "(= tags 'a')", PAIMON_EINVAL,
                   "cannot compare column 'tags' (ARRAY<STRING>) with 'a' (STRING)");
  CHECK_BIND_FAILS(&t, "(< bin 1)", PAIMON_EINVAL,
                   "cannot compare column 'bin' (BYTES) with 1 (INT)");
  /* DATE + INT is Spark's date_add; DATE + DATE, BIGINT days and DATE - DATE are not */
  CHECK_BIND_FAILS(&t, "(+ dt dt)", PAIMON_EINVAL,
                   "cannot apply + to column 'dt' (DATE) and column 'dt' (DATE)");
  CHECK_BIND_FAILS(&t, "(+ dt 10000000000)", PAIMON_EINVAL,
                   "a number of days must be TINYINT, SMALLINT or INT");
  CHECK_BIND_FAILS(&t, "(- dt dt)", PAIMON_EUNSUPPORTED, "use datediff(end, start)");
  CHECK_BIND_FAILS(&t, "(* flag 2)", PAIMON_EINVAL, "cannot apply * to column 'flag' (BOOLEAN)");
  CHECK_BIND_FAILS(&t, "(+ age t'x')", PAIMON_EINVAL, "'x' (STRING): not a number");
  CHECK_BIND_FAILS(&t, "(and age true)", PAIMON_EINVAL,
                   "AND needs a BOOLEAN operand, not column 'age' (INT)");
  CHECK_BIND_FAILS(&t, "(not d)", PAIMON_EINVAL,
                   "NOT needs a BOOLEAN operand, not column 'd' (DOUBLE)");
  CHECK_BIND_FAILS(&t, "(and t'maybe' flag)", PAIMON_EINVAL,
                   "cannot use 'maybe' (STRING) as BOOLEAN: not a boolean");
  CHECK_BIND_FAILS(&t, "(neg dt)", PAIMON_EINVAL,
                   "unary minus needs a number, not column 'dt' (DATE)");
  CHECK_BIND_FAILS(&t, "(abs bin)", PAIMON_EINVAL, "ABS needs a number, not column 'bin' (BYTES)");
  CHECK_BIND_FAILS(&t, "(coalesce age dt)", PAIMON_EINVAL, "no common type for");
  CHECK_BIND_FAILS(&t, "(case flag tags 1)", PAIMON_EINVAL, "no common type for");
  CHECK_BIND_FAILS(&t, "(case age 1 2)", PAIMON_EINVAL, "CASE WHEN needs a BOOLEAN operand");
  CHECK_BIND_FAILS(&t, "(like tags 'x')", PAIMON_EINVAL, "expected a string, not column 'tags'");
  CHECK_BIND_FAILS(&t, "(substring name dt)", PAIMON_EINVAL, "SUBSTRING needs an integer position");
  CHECK_BIND_FAILS(&t, "(coalesce age t'x')", PAIMON_EINVAL, "cannot use 'x' (STRING) as INT");
  CHECK_BIND_FAILS(&t, "(= (+ age 1) dt)", PAIMON_EINVAL,
                   "cannot compare 'age + 1' (INT) with column 'dt' (DATE)");
}

/* Checks the kinds and types binding gives a comparison's operands. */
static void check_operands(const char *text, cp_expr_kind k0, const char *t0, cp_expr_kind k1,
                           const char *t1) {
  cp_expr *e = bx(&t, text);
  if (!e) return;
  const cp_expr *c = e->kind == CP_EXPR_NOT ? e->args[0] : e;
  cp_buf a = CP_BUF_INIT, b = CP_BUF_INIT;
  cp_type_append_name(c->args[0]->type, &a);
  cp_type_append_name(c->args[1]->type, &b);
  cp_buf_nul_terminate(&a, NULL);
  cp_buf_nul_terminate(&b, NULL);
  if (c->args[0]->kind != k0 || c->args[1]->kind != k1 || strcmp((char *)a.data, t0) ||
      strcmp((char *)b.data, t1))
    fprintf(stderr, "  %s: got %d %s / %d %s\n", text, c->args[0]->kind, (char *)a.data,
            c->args[1]->kind, (char *)b.data);
  CHECK_INT(c->args[0]->kind, k0);
  CHECK_INT(c->args[1]->kind, k1);
  CHECK_STR((char *)a.data, t0);
  CHECK_STR((char *)b.data, t1);
  CHECK_INT(e->type->kind, CP_TYPE_BOOLEAN);
  cp_buf_free(&a);
  cp_buf_free(&b);
  cp_expr_free(e);
}

static void test_coercions(void) {
  const cp_expr_kind COL = CP_EXPR_COLUMN, LIT = CP_EXPR_LITERAL, CAST = CP_EXPR_CAST;
  /* Literals that fit the column's type are converted, the column is left alone. */
  check_operands("(= age t'42')", COL, "INT", LIT, "INT");
  check_operands("(= age 2.0d)", COL, "INT", LIT, "INT");
  check_operands("(= age 2.0)", COL, "INT", LIT, "INT");
  check_operands("(< 5 age)", LIT, "INT", COL, "INT");
  check_operands("(= age 5000000000L)", COL, "INT", LIT, "BIGINT");
  check_operands("(= d 1.5)", COL, "DOUBLE", LIT, "DOUBLE");
  check_operands("(= d t'1.5')", COL, "DOUBLE", LIT, "DOUBLE");
  check_operands("(= dec t'1.5')", COL, "DECIMAL(10, 2)", LIT, "DECIMAL(10, 2)");
  check_operands("(= dt '2024-01-01')", COL, "DATE", LIT, "DATE");
  check_operands("(= ts t'2024-01-01 10:00:00')", COL, "TIMESTAMP(6)", LIT, "TIMESTAMP(6)");
  check_operands("(= dt (lit 'TIMESTAMP(3)' '2024-01-01 00:00:00'))", COL, "DATE", LIT, "DATE");
  check_operands("(= bin t'X''0A''')", COL, "BYTES", LIT, "BYTES");
  check_operands("(= name t'ann')", COL, "STRING", LIT, "STRING");
  check_operands("(= age null)", COL, "INT", LIT, "INT");
  check_operands("(<=> null ts)", LIT, "TIMESTAMP(6)", COL, "TIMESTAMP(6)");
  /* Otherwise the column is cast to the common type, as Spark does. */
  check_operands("(= age 1.5d)", CAST, "DOUBLE", LIT, "DOUBLE");
  check_operands("(= age 1.5)", CAST, "DECIMAL(11, 1)", LIT, "DECIMAL(2, 1)");
  check_operands("(= dec t'1.234')", CAST, "DECIMAL(11, 3)", LIT, "DECIMAL(4, 3)");
  check_operands("(= dt (lit 'TIMESTAMP(3)' '2024-01-01 12:00:00'))", CAST, "TIMESTAMP(3)", LIT,
                 "TIMESTAMP(3)");
  check_operands("(= name 5)", CAST, "INT", LIT, "INT"); /* string vs number: the number's type */
  check_operands("(= name 1.5)", CAST, "DOUBLE", LIT, "DOUBLE"); /* vs a decimal: DOUBLE */
  check_operands("(= flag 1)", CAST, "INT", LIT, "INT");         /* true = 1 */
  check_operands("(= age d)", CAST, "DOUBLE", COL, "DOUBLE");
  check_operands("(not_in age 1 2)", COL, "INT", LIT, "INT");
  cp_expr *e = bx(&t, "(= dec t'1.234')");
  if (e) {
    char *r = tt_eval(&t, e);
    CHECK_STR(r, "false|NULL"); /* 1.23 <> 1.234: the literal was not rounded */
    free(r);
  }
  cp_expr_free(e);
}

static void test_lowering_and_results(void) {
  cp_expr *e = bx(&t, "(between age 1 10)");
  CHECK(e && e->kind == CP_EXPR_AND && e->n_args == 2);
  CHECK(e && e->args[0]->op == CP_CMP_GE && e->args[1]->op == CP_CMP_LE);
  cp_expr_free(e);
  e = bx(&t, "(not_between age 1 10)");
  CHECK(e && e->kind == CP_EXPR_NOT && e->args[0]->kind == CP_EXPR_AND);
  cp_expr_free(e);
  e = bx(&t, "(not_in age 1 2)");
  CHECK(e && e->kind == CP_EXPR_NOT && e->args[0]->kind == CP_EXPR_IN && !e->args[0]->negated);
  cp_expr_free(e);
  e = bx(&t, "(not_like name 'a%')");
  CHECK(e && e->kind == CP_EXPR_NOT && e->args[0]->like != NULL);
  cp_expr_free(e);
  e = bx(&t, "(is_not_null name)");
  CHECK(e && e->kind == CP_EXPR_IS_NULL && e->negated && !e->type->nullable);
  cp_expr_free(e);
  e = bx(&t, "(cast name 'STRING')"); /* a cast to the same representation disappears */
  CHECK(e && e->kind == CP_EXPR_COLUMN);
  cp_expr_free(e);
  e = bx(&t, "(cast '12' 'INT')"); /* literal casts are folded */
  CHECK(e && e->kind == CP_EXPR_LITERAL && e->value.v.i64 == 12);
  cp_expr_free(e);
  e = bx(&t, "null");
  CHECK(e && e->type->kind == CP_TYPE_BOOLEAN && e->value.is_null);
  cp_expr_free(e);
  e = bx(&t, "t'x'");
  CHECK(e && cp_type_is_string(e->type));
  cp_expr_free(e);
  e = bx(&t, "(coalesce tags null)");
  CHECK(e && e->type->kind == CP_TYPE_ARRAY);
  if (e) {
    char *r = tt_eval(&t, e);
    CHECK_STR(r, "NULL|NULL");
    free(r);
  }
  cp_expr_free(e);
  e = bx(&t, "(coalesce null null)");
  CHECK(e && cp_type_is_string(e->type));
  cp_expr_free(e);
  e = bx(&t, "(concat bin bin)");
  CHECK(e && e->type->kind == CP_TYPE_VARBINARY);
  cp_expr_free(e);
  e = bx(&t, "(/ age 2)");
  CHECK(e && e->type->kind == CP_TYPE_DOUBLE);
  cp_expr_free(e);
  e = bx(&t, "(+ age 1L)");
  CHECK(e && e->type->kind == CP_TYPE_BIGINT);
  cp_expr_free(e);
  e = bx(&t, "(* dec dec)");
  CHECK(e && e->type->kind == CP_TYPE_DECIMAL && e->type->precision == 21 && e->type->scale == 4);
  cp_expr_free(e);
  e = bx(&t, "(+ age 1.5f)");
  CHECK(e && e->type->kind == CP_TYPE_FLOAT);
  cp_expr_free(e);
  e = bx(&t, "(+ dec 1.5d)");
  CHECK(e && e->type->kind == CP_TYPE_DOUBLE);
  cp_expr_free(e);
  e = bx(&t, "(substring bin 1 1)");
  CHECK(e && e->type->kind == CP_TYPE_VARBINARY);
  cp_expr_free(e);
}

static void test_columns_and_remap(void) {
  paimon_error err;
  cp_expr *e = bx(&t, "(and (> age 1) (= name 'x') (> (+ age d) 2) (is_null flag))");
  int32_t *cols;
  size_t n;
  CHECK_OK(cp_expr_columns(e, &cols, &n, &err), &err);
  CHECK_INT(n, 4);
  if (n == 4) {
    CHECK_INT(cols[0], 0);
    CHECK_INT(cols[1], 1);
    CHECK_INT(cols[2], 2);
    CHECK_INT(cols[3], 8);
  }
  free(cols);
  /* Project (age, name, d, flag) into a narrower batch. */
  int32_t map[9] = {0, 1, 2, -1, -1, -1, -1, -1, 3};
  CHECK_OK(cp_expr_remap_columns(e, map, 9, &err), &err);
  CHECK_OK(cp_expr_columns(e, &cols, &n, &err), &err);
  CHECK_INT(n == 4 ? cols[3] : -1, 3);
  free(cols);
  static const char *const narrow_cells[] = {"42", "x", "1.5", NULL};
  tb narrow;
  tb_make(&narrow, "ROW<age INT, name STRING, d DOUBLE, flag BOOLEAN>", 1, narrow_cells);
  char *r = tt_eval(&narrow, e);
  CHECK_STR(r, "true");
  free(r);
  tb_free(&narrow);
  int32_t bad[1] = {0};
  CHECK_ERR(cp_expr_remap_columns(e, bad, 1, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "column 'name'");
  cp_expr_free(e);
  e = bx(&t, "(= 1 1)");
  CHECK_OK(cp_expr_columns(e, &cols, &n, &err), &err);
  CHECK(n == 0 && cols == NULL);
  CHECK(cp_expr_is_constant(e));
  cp_expr_free(e);
  cp_expr *u = px("(= age 1)");
  CHECK_ERR(cp_expr_columns(u, &cols, &n, &err), PAIMON_ESTATE);
  CHECK(!cp_expr_is_constant(u));
  cp_expr_free(u);
}

static void test_rebind_and_copy(void) {
  paimon_error err;
  cp_expr *e = bx(&t, "(and (> age 5) (like name 'a%') (in d 1.5d 2))");
  cp_expr *c;
  CHECK_OK(cp_expr_copy(&c, e, &err), &err);
  char *r1 = tt_eval(&t, e), *r2 = tt_eval(&t, c);
  CHECK_STR(r1, "true|false");
  CHECK_STR(r2, r1);
  free(r1);
  free(r2);
  /* A bound tree binds again against another schema, by column name. */
  static const char *const cells[] = {"ax", "2.0", "9"};
  tb other;
  tb_make(&other, "ROW<name STRING, d DOUBLE, age BIGINT>", 1, cells);
  cp_expr *rb;
  CHECK_OK(cp_expr_bind(c, other.row, false, &rb, &err), &err);
  char *r3 = tt_eval(&other, rb);
  CHECK_STR(r3, "true");
  free(r3);
  cp_expr_free(rb);
  tb_free(&other);
  cp_expr_free(c);
  cp_expr_free(e);
}

static void test_rendering(void) {
  struct {
    const char *expr, *sql;
  } cases[] = {{"(and (> age 5) (like name 'a%'))", "(age > 5) AND (name LIKE 'a%')"},
               {"(or (is_not_null name) (not_in age 1 null))",
                "(name IS NOT NULL) OR (age NOT IN (1, NULL))"},
               {"(between d 1.5d 2.5d)", "d BETWEEN 1.5 AND 2.5"},
               {"(startswith name 'it''s')", "STARTS_WITH(name, 'it''s')"},
               {"(= dt (lit 'DATE' '2024-01-31'))", "dt = DATE '2024-01-31'"},
               {"(= bin (lit 'BYTES' 'X''0aff'''))", "bin = X'0AFF'"},
               {"(<=> (+ age 1) (neg age))", "(age + 1) <=> (-age)"},
               {"(case (> age 1) 'a' 'b')", "CASE WHEN age > 1 THEN 'a' ELSE 'b' END"},
               {"(substring (upper name) 1 2)", "SUBSTRING(UPPER(name), 1, 2)"},
               {"(= age t'4''2')", "age = '4''2'"},
               {"(cast age 'BIGINT')", "CAST(age AS BIGINT)"},
               {"(like name 'a!%' '!')", "name LIKE 'a!%' ESCAPE '!'"}};
  paimon_error err;
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    cp_expr *e = px(cases[i].expr);
    cp_buf b = CP_BUF_INIT;
    CHECK_OK(cp_expr_append_sql(e, &b, &err), &err);
    cp_buf_nul_terminate(&b, NULL);
    CHECK_STR((char *)b.data, cases[i].sql);
    cp_buf_free(&b);
    cp_expr_free(e);
  }
  /* Bound trees show the casts binding added. */
  cp_expr *e = bx(&t, "(= age 1.5d)");
  cp_buf b = CP_BUF_INIT;
  CHECK_OK(cp_expr_append_sql(e, &b, &err), &err);
  cp_buf_nul_terminate(&b, NULL);
  CHECK_STR((char *)b.data, "CAST(age AS DOUBLE) = 1.5");
  cp_buf_free(&b);
  cp_expr_free(e);
}

static void test_constructor_checks(void) {
  paimon_error err;
  cp_expr *e, *a, *b;
  cp_expr_column(&a, "x", &err);
  CHECK_ERR(cp_expr_func(&e, CP_FUNC_SUBSTRING, &a, 1, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "SUBSTRING takes 2 or 3 arguments, not 1");
  CHECK(e == NULL);
  cp_expr_column(&a, "x", &err);
  CHECK_ERR(cp_expr_in(&e, a, NULL, 0, false, &err), PAIMON_EINVAL);
  cp_expr_column(&a, "x", &err);
  cp_expr_int(&b, 1, &err);
  CHECK_ERR(cp_expr_compare(&e, (cp_cmp_op)42, a, b, &err), PAIMON_EINVAL);
  cp_expr_column(&a, "x", &err);
  CHECK_ERR(cp_expr_compare(&e, CP_CMP_EQ, a, NULL, &err), PAIMON_EINVAL); /* a is freed */
  CHECK_ERR(cp_expr_column(&e, "", &err), PAIMON_EINVAL);
  CHECK_ERR(cp_expr_and(&e, NULL, 0, &err), PAIMON_EINVAL);
  CHECK_ERR(cp_expr_coalesce(&e, NULL, 0, &err), PAIMON_EINVAL);
  CHECK_ERR(cp_expr_text(&e, NULL, &err), PAIMON_EINVAL);
  cp_type *arr = tt_type("ARRAY<INT>");
  cp_datum one = cp_datum_int(1);
  CHECK_ERR(cp_expr_literal(&e, arr, &one, &err), PAIMON_EINVAL);
  cp_expr_column(&a, "x", &err);
  CHECK_ERR(cp_expr_cast(&e, a, arr, &err), PAIMON_EINVAL);
  cp_type_free(arr);
  cp_expr_column(&a, "x", &err);
  cp_expr_int(&b, 1, &err);
  CHECK_ERR(cp_expr_if(&e, a, b, NULL, &err), PAIMON_EINVAL);
  cp_expr_column(&a, "x", &err);
  CHECK_OK(cp_expr_and(&e, &a, 1, &err), &err); /* one operand: itself */
  CHECK(e == a);
  cp_expr_free(e);
  /* Without an error struct, failures still return their codes. */
  cp_expr *u = px("(= nope t'x')"), *bound = NULL;
  CHECK_ERR(cp_expr_bind(u, t.row, false, &bound, NULL), PAIMON_ENOTFOUND);
  cp_expr_free(u);
  u = px("(= age t'x')");
  CHECK_ERR(cp_expr_bind(u, t.row, false, &bound, NULL), PAIMON_EINVAL);
  CHECK(bound == NULL);
  cp_expr_free(u);
}

int main(void) {
  tb_make(&t, ROW_TYPE, 2, ROW_CELLS);
  RUN(test_unknown_columns);
  RUN(test_type_errors);
  RUN(test_coercions);
  RUN(test_lowering_and_results);
  RUN(test_columns_and_remap);
  RUN(test_rebind_and_copy);
  RUN(test_rendering);
  RUN(test_constructor_checks);
  tb_free(&t);
  TEST_MAIN_END();
}
