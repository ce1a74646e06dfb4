/* Unit tests for the SQL binder (src/sql/bind.h): Spark's literal types, name resolution with
 * qualifiers, case-insensitivity and ambiguity, binding-row names, aggregate rules and their
 * messages, structural equality, constants. */
#include <string.h>

#include "sql/bind.h"
#include "sql/parser.h"
#include "test.h"
#include "types/type_sql.h"

typedef struct fixture {
  cp_rel_col cols[5];
  size_t n;
  cp_sql_scope scope;
} fixture;

/* Columns t.id INT, t.name STRING, s.id BIGINT, s.score DOUBLE, t._ROW_ID BIGINT (hidden); s is
 * table db.s read without an alias (so db.s.score names a column too), t an alias. */
static void fixture_init(fixture *f) {
  static const struct {
    const char *name, *qual, *type;
    bool hidden;
  } defs[] = {{"id", "t", "INT", false},
              {"name", "t", "STRING", false},
              {"id", "s", "BIGINT", false},
              {"Score", "s", "DOUBLE", false},
              {"_ROW_ID", "t", "BIGINT NOT NULL", true}};
  paimon_error err;
  f->n = 5;
  for (size_t i = 0; i < f->n; i++) {
    cp_type *t = NULL;
    CHECK_OK(cp_type_parse(defs[i].type, &t, &err), &err);
    CHECK_OK(cp_rel_col_init(&f->cols[i], defs[i].name, defs[i].qual, t, defs[i].hidden, &err),
             &err);
    if (strcmp(defs[i].qual, "s") == 0)
      CHECK_OK(cp_rel_col_set_database(&f->cols[i], "db", &err), &err);
    cp_type_free(t);
  }
  CHECK_OK(cp_sql_scope_init(&f->scope, f->cols, f->n, "WHERE", &err), &err);
}

static void fixture_free(fixture *f) {
  cp_sql_scope_free(&f->scope);
  for (size_t i = 0; i < f->n; i++) {
    free(f->cols[i].name);
    free(f->cols[i].qualifier);
    free(f->cols[i].database);
    cp_type_free(f->cols[i].type);
  }
}

/* Binds `text` in `scope`; returns the status and the result type's SQL text in `type`. */
static int bind_text(const cp_sql_scope *scope, const char *text, char *type, size_t size,
                     paimon_error *err) {
  cp_sql_stmt *owner = NULL;
  cp_sql_expr *e = NULL;
  int rc = cp_sql_parse_expr(text, strlen(text), &owner, &e, err);
  cp_expr *b = NULL;
  if (!rc) rc = cp_sql_bind(scope, e, &b, err);
  if (!rc) {
    char *s = NULL;
    cp_type_to_sql(b->type, &s, NULL);
    snprintf(type, size, "%s", s ? s : "?");
    free(s);
  }
  cp_expr_free(b);
  cp_sql_stmt_free(owner);
  return rc;
}

static void check_type(const cp_sql_scope *scope, const char *text, const char *want) {
  char type[128] = "";
  paimon_error err;
  CHECK_OK(bind_text(scope, text, type, sizeof type, &err), &err);
  /* Literal types are compared without nullability. */
  size_t n = strlen(type);
  if (n > 9 && strcmp(type + n - 9, " NOT NULL") == 0) type[n - 9] = '\0';
  if (strcmp(type, want) != 0)
    fprintf(stderr, "  [%s] bound to %s, expected %s\n", text, type, want);
  CHECK_STR(type, want);
}

static void check_bind_error(const cp_sql_scope *scope, const char *text, int code,
                             const char *msg) {
  char type[128];
  paimon_error err;
  memset(&err, 0, sizeof err);
  CHECK_ERR(bind_text(scope, text, type, sizeof type, &err), code);
  if (msg)
    CHECK_STR(err.message, msg);
  else
    CHECK_CONTAINS(err.message, "line 1:");
}

static void test_literal_types(void) {
  cp_sql_scope empty;
  paimon_error err;
  CHECK_OK(cp_sql_scope_init(&empty, NULL, 0, "SELECT", &err), &err);
  check_type(&empty, "1", "INT");
  check_type(&empty, "-2147483648", "INT");
  check_type(&empty, "2147483648", "BIGINT");
  check_type(&empty, "-9223372036854775808", "BIGINT");
  check_type(&empty, "9223372036854775808", "DECIMAL(19, 0)");
  check_type(&empty, "1.5", "DECIMAL(2, 1)");
  check_type(&empty, ".5", "DECIMAL(1, 1)");
  check_type(&empty, "0.00", "DECIMAL(2, 2)");
  check_type(&empty, "123.", "DECIMAL(3, 0)");
  check_type(&empty, "007.50", "DECIMAL(3, 2)");
  check_type(&empty, "1e3", "DOUBLE");
  check_type(&empty, "1.5E-2", "DOUBLE");
  check_type(&empty, "1L", "BIGINT");
  check_type(&empty, "1S", "SMALLINT");
  check_type(&empty, "1Y", "TINYINT");
  check_type(&empty, "1D", "DOUBLE");
  check_type(&empty, "1.5F", "FLOAT");
  check_type(&empty, "12.345BD", "DECIMAL(5, 3)");
  check_type(&empty, "'x'", "STRING");
  check_type(&empty, "X'0A'", "BYTES");
  check_type(&empty, "TRUE", "BOOLEAN");
  check_type(&empty, "DATE '2024-01-31'", "DATE");
  check_type(&empty, "TIMESTAMP '2024-01-31 01:02:03'", "TIMESTAMP(6) WITH LOCAL TIME ZONE");
  check_type(&empty, "TIMESTAMP_NTZ '2024-01-31 01:02:03'", "TIMESTAMP(6)");
  check_type(&empty, "5 / 2", "DOUBLE");
  check_type(&empty, "1 + 2L", "BIGINT");
  check_type(&empty, "CAST(1 AS DECIMAL(5, 2))", "DECIMAL(5, 2)");
  check_type(&empty, "CAST('2024-01-01' AS TIMESTAMP_NTZ)", "TIMESTAMP(6)");
  check_bind_error(&empty, "32768S", PAIMON_EINVAL,
                   "line 1:1: Numeric literal 32768S is outside the range of SMALLINT");
  check_bind_error(&empty, "9223372036854775808L", PAIMON_EINVAL,
                   "line 1:1: Numeric literal 9223372036854775808L is outside the range of BIGINT");
  check_bind_error(&empty, "1.5L", PAIMON_EINVAL, "line 1:1: invalid number '1.5L'");
  check_bind_error(&empty, "TIMESTAMP 'yesterday'", PAIMON_EINVAL,
                   "line 1:1: The value of the typed literal TIMESTAMP is invalid: 'yesterday'");
  cp_sql_scope_free(&empty);
}

static void test_resolution(void) {
  fixture f;
  fixture_init(&f);
  check_type(&f.scope, "t.id", "INT");
  check_type(&f.scope, "T.ID + 1", "INT");
  check_type(&f.scope, "s.id", "BIGINT");
  check_type(&f.scope, "score", "DOUBLE");
  check_type(&f.scope, "SCORE", "DOUBLE");
  check_type(&f.scope, "db.s.score", "DOUBLE");
  check_type(&f.scope, "paimon.db.s.score", "DOUBLE");
  check_type(&f.scope, "SPARK_CATALOG.DB.S.SCORE", "DOUBLE");
  check_type(&f.scope, "_row_id", "BIGINT");
  check_type(&f.scope, "name = 'x' AND score > 1", "BOOLEAN");
  check_bind_error(&f.scope, "id", PAIMON_EINVAL,
                   "line 1:1: Reference 'id' is ambiguous, could be: t.id, s.id.");
  check_bind_error(&f.scope, "nope + 1", PAIMON_ENOTFOUND,
                   "line 1:1: A column or function parameter with name 'nope' cannot be "
                   "resolved. Did you mean one of the following? [id, name, id, Score]");
  check_bind_error(&f.scope, "x.name", PAIMON_ENOTFOUND,
                   "line 1:1: A column or function parameter with name 'x.name' cannot be "
                   "resolved. Did you mean one of the following? [t.id, t.name, s.id, s.Score]");
  /* Spark's rule: db.t.col and catalog.db.t.col name a table read without an alias only. */
  check_bind_error(&f.scope, "db.t.id", PAIMON_ENOTFOUND,
                   "line 1:1: A column or function parameter with name 'db.t.id' cannot be "
                   "resolved. Did you mean one of the following? [t.id, t.name, s.id, s.Score]");
  check_bind_error(&f.scope, "other.s.score", PAIMON_ENOTFOUND, NULL);
  check_bind_error(&f.scope, "hive.db.s.score", PAIMON_ENOTFOUND, NULL);
  /* Binding names are unique and say which column they are, for expr/'s messages. */
  CHECK_STR(f.scope.bind_names[0], "t.id");
  CHECK_STR(f.scope.bind_names[1], "name");
  CHECK_STR(f.scope.bind_names[2], "s.id");
  CHECK_STR(f.scope.bind_names[3], "Score");
  check_bind_error(&f.scope, "name > DATE '2024-01-01' * 2", PAIMON_EINVAL, NULL);
  fixture_free(&f);
}

static void test_function_errors(void) {
  fixture f;
  fixture_init(&f);
  check_bind_error(&f.scope, "count(*) > 1", PAIMON_EINVAL,
                   "line 1:1: aggregate function count(1) is not allowed in WHERE");
  check_bind_error(&f.scope, "nosuch(1)", PAIMON_ENOTFOUND,
                   "line 1:1: Undefined function: 'nosuch'");
  check_bind_error(&f.scope, "if(true, 1)", PAIMON_EINVAL,
                   "line 1:1: function if takes 3 arguments, got 2");
  check_bind_error(&f.scope, "upper(DISTINCT name)", PAIMON_EINVAL,
                   "line 1:1: DISTINCT is only allowed in aggregate functions");
  check_bind_error(&f.scope, "~1", PAIMON_EUNSUPPORTED,
                   "line 1:1: bitwise operators are not supported");
  check_bind_error(&f.scope, "CAST(1 AS MAP<INT, INT>)", PAIMON_EUNSUPPORTED,
                   "line 1:1: CAST to MAP<INT, INT> is not supported");
  check_type(&f.scope, "nvl(name, 'x')", "STRING");
  check_type(&f.scope, "nullif(score, 1)", "DOUBLE");
  check_type(&f.scope, "isnotnull(name)", "BOOLEAN");
  check_type(&f.scope, "score IS NOT TRUE", "BOOLEAN");
  check_type(&f.scope, "CASE t.id WHEN 1 THEN 'a' WHEN 2 THEN 'b' END", "STRING");
  fixture_free(&f);
}

static cp_sql_expr *parse(const char *text, cp_sql_stmt **owner) {
  cp_sql_expr *e = NULL;
  paimon_error err;
  CHECK_OK(cp_sql_parse_expr(text, strlen(text), owner, &e, &err), &err);
  return e;
}

static void test_equality_and_aggregates(void) {
  cp_sql_stmt *o1, *o2, *o3, *o4;
  cp_sql_expr *a = parse("upper(T.Name) || 'x'", &o1), *b = parse("UPPER(t.name) || 'x'", &o2);
  cp_sql_expr *c = parse("upper(t.name) || 'X'", &o3);
  CHECK(cp_sql_expr_equal(a, b));
  CHECK(!cp_sql_expr_equal(a, c)); /* literals are not case-folded */
  cp_sql_expr *q = parse("sum(x) + max(y) * count(*) + sum(X) + sum(DISTINCT x)", &o4);
  cp_sql_expr **aggs = NULL;
  size_t n = 0;
  paimon_error err;
  CHECK_OK(cp_sql_collect_aggregates(q, &aggs, &n, &err), &err);
  CHECK_INT(n, 4); /* sum(x) == sum(X); DISTINCT differs */
  CHECK(cp_sql_has_aggregate(q));
  CHECK(!cp_sql_has_aggregate(a));
  free(aggs);
  cp_sql_stmt_free(o1);
  cp_sql_stmt_free(o2);
  cp_sql_stmt_free(o3);
  cp_sql_stmt_free(o4);
  cp_sql_stmt *o5;
  cp_sql_expr *nested = parse("max(1 + sum(x))", &o5);
  aggs = NULL;
  n = 0;
  CHECK_ERR(cp_sql_collect_aggregates(nested, &aggs, &n, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "line 1:9: It is not allowed to use an aggregate function in the argument "
                         "of another aggregate function (max((1 + sum(x)))).");
  free(aggs);
  cp_sql_stmt_free(o5);
}

/* After GROUP BY: keys and aggregate results are the scope's columns. */
static void test_aggregation_binding(void) {
  fixture f;
  fixture_init(&f);
  cp_sql_stmt *ok, *oa;
  cp_sql_expr *key = parse("upper(name)", &ok), *agg = parse("sum(score)", &oa);
  paimon_error err;
  cp_type *str = NULL, *dbl = NULL;
  CHECK_OK(cp_type_parse("STRING", &str, &err), &err);
  CHECK_OK(cp_type_parse("DOUBLE", &dbl, &err), &err);
  cp_rel_col post[2];
  CHECK_OK(cp_rel_col_init(&post[0], "upper(name)", NULL, str, false, &err), &err);
  CHECK_OK(cp_rel_col_init(&post[1], "sum(score)", NULL, dbl, false, &err), &err);
  int64_t key_cols[1] = {-1};
  cp_sql_agg_binding ab = {&f.scope, &key, 1, key_cols, &agg, 1, NULL, NULL, 0};
  cp_sql_scope s;
  CHECK_OK(cp_sql_scope_init(&s, post, 2, "HAVING", &err), &err);
  s.agg = &ab;
  check_type(&s, "UPPER(name) || '!'", "STRING");
  check_type(&s, "sum(score) > 2", "BOOLEAN");
  check_bind_error(&s, "score > 1", PAIMON_EINVAL,
                   "line 1:1: The non-aggregating expression 'score' is based on columns which "
                   "are not participating in the GROUP BY clause; add it to the GROUP BY or wrap "
                   "it in an aggregate function");
  check_bind_error(&s, "lower(name)", PAIMON_EINVAL,
                   "line 1:7: The non-aggregating expression 'name' is based on columns which are "
                   "not participating in the GROUP BY clause; add it to the GROUP BY or wrap it "
                   "in an aggregate function");
  check_bind_error(&s, "missing", PAIMON_ENOTFOUND,
                   "line 1:1: A column or function parameter with name 'missing' cannot be "
                   "resolved. Did you mean one of the following? [id, name, id, Score]");
  cp_sql_scope_free(&s);
  for (int i = 0; i < 2; i++) {
    free(post[i].name);
    cp_type_free(post[i].type);
  }
  cp_type_free(str);
  cp_type_free(dbl);
  cp_sql_stmt_free(ok);
  cp_sql_stmt_free(oa);
  fixture_free(&f);
}

static void test_constants(void) {
  cp_sql_stmt *o;
  int64_t v = -1;
  paimon_error err;
  cp_sql_expr *e = parse("2 * 5 + 1", &o);
  CHECK_OK(cp_sql_eval_constant_int(e, "LIMIT", &v, &err), &err);
  CHECK_INT(v, 11);
  cp_sql_stmt_free(o);
  e = parse("-1", &o);
  CHECK_ERR(cp_sql_eval_constant_int(e, "LIMIT", &v, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "line 1:1: LIMIT must be a non-negative integer");
  cp_sql_stmt_free(o);
  e = parse("1.5", &o);
  CHECK_ERR(cp_sql_eval_constant_int(e, "LIMIT", &v, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, "line 1:1: LIMIT must be a constant integer");
  cp_sql_stmt_free(o);
  char name[64];
  cp_type *t = NULL;
  CHECK_OK(cp_type_parse("VARCHAR(2147483647) NOT NULL", &t, &err), &err);
  cp_sql_type_name(t, name, sizeof name);
  CHECK_STR(name, "STRING");
  cp_type_free(t);
}

int main(void) {
  RUN(test_literal_types);
  RUN(test_resolution);
  RUN(test_function_errors);
  RUN(test_equality_and_aggregates);
  RUN(test_aggregation_binding);
  RUN(test_constants);
  TEST_MAIN_END();
}
