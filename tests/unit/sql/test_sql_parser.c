/* Unit tests for the SQL parser (src/sql/parser.h) and the tree printer (src/sql/ast.h):
 * canonical printing of every statement form, print -> parse -> print round trips, precedence,
 * Spark's column names for expressions, and syntax errors with line:column and what was
 * expected. */
#include <dirent.h>
#include <string.h>

#include "sql/parser.h"
#include "test.h"

/* Parses one statement and returns its canonical text (malloc'd), or NULL on failure (printing
 * the error). */
static char *canon(const char *sql) {
  cp_sql_stmt **stmts = NULL;
  size_t n = 0;
  paimon_error err;
  int rc = cp_sql_parse(sql, strlen(sql), &stmts, &n, &err);
  if (rc) {
    fprintf(stderr, "  parse of [%s] failed: %s\n", sql, err.message);
    return NULL;
  }
  cp_buf out = CP_BUF_INIT;
  if (n != 1)
    fprintf(stderr, "  [%s] gave %zu statements\n", sql, n);
  else if (cp_sql_print_stmt(stmts[0], &out, &err) || cp_buf_nul_terminate(&out, &err))
    fprintf(stderr, "  print failed: %s\n", err.message);
  cp_sql_stmts_free(stmts, n);
  if (!out.data) return NULL;
  return (char *)cp_buf_detach(&out);
}

/* The canonical text of `sql` is `expected` (NULL: skip that check), and printing is a fixed
 * point: parsing the canonical text prints it again. */
static void check_canon(const char *sql, const char *expected) {
  char *first = canon(sql);
  CHECK(first != NULL);
  if (!first) return;
  if (expected) CHECK_STR(first, expected);
  char *second = canon(first);
  CHECK(second != NULL);
  if (second) CHECK_STR(second, first);
  free(first);
  free(second);
}

static void test_select_forms(void) {
  check_canon("select a, b as c, t.d e from db.t", "SELECT a, b AS c, t.d AS e FROM db.t");
  check_canon("SELECT * , t.* FROM t", "SELECT *, t.* FROM t");
  check_canon("SELECT DISTINCT a FROM t WHERE a > 1 GROUP BY a HAVING count(*) > 2 "
              "ORDER BY a DESC NULLS LAST, 2 LIMIT 10",
              "SELECT DISTINCT a FROM t WHERE (a > 1) GROUP BY a HAVING (count(*) > 2) "
              "ORDER BY a DESC NULLS LAST, 2 ASC LIMIT 10");
  check_canon("SELECT 1", "SELECT 1");
  check_canon("SELECT id, _ROW_ID, _SEQUENCE_NUMBER FROM t VERSION AS OF 3 x",
              "SELECT id, _ROW_ID, _SEQUENCE_NUMBER FROM t VERSION AS OF 3 AS x");
  check_canon("SELECT * FROM t FOR SYSTEM_VERSION AS OF '2'", "SELECT * FROM t VERSION AS OF 2");
  check_canon("SELECT * FROM t VERSION AS OF 'tag1'", "SELECT * FROM t VERSION AS OF 'tag1'");
  check_canon("call sys.create_tag(table=>'db.t', tag => 'a', snapshot => -1, x => NULL)",
              "CALL sys.create_tag(table => 'db.t', tag => 'a', snapshot => -1, x => NULL)");
  check_canon("CALL paimon.sys.rollback('t', TRUE)", "CALL paimon.sys.rollback('t', TRUE)");
  check_canon("SELECT * FROM t FOR SYSTEM_TIME AS OF '2024-01-01 10:00:00' x",
              "SELECT * FROM t TIMESTAMP AS OF '2024-01-01 10:00:00' AS x");
  check_canon("SELECT * FROM a JOIN b ON a.id = b.id LEFT OUTER JOIN c ON c.x = a.x, d",
              "SELECT * FROM a JOIN b ON (a.id = b.id) LEFT JOIN c ON (c.x = a.x) CROSS JOIN d");
  check_canon(
      "SELECT * FROM (SELECT a FROM t) s RIGHT JOIN u ON s.a = u.a FULL JOIN v ON 1 = 1",
      "SELECT * FROM (SELECT a FROM t) AS s RIGHT JOIN u ON (s.a = u.a) FULL JOIN v ON (1 = "
      "1)");
  check_canon("SELECT count(DISTINCT a), sum(b), `select`, `a b` FROM `my db`.t",
              "SELECT count(DISTINCT a), sum(b), `select`, `a b` FROM `my db`.t");
  check_canon("(SELECT a FROM t)", "SELECT a FROM t");
}

static void test_precedence(void) {
  check_canon("SELECT a + b * c - d", "SELECT ((a + (b * c)) - d)");
  check_canon("SELECT NOT a = b AND c OR d", "SELECT (((NOT ((a = b))) AND c) OR d)");
  check_canon("SELECT a || b + c", "SELECT ((a || b) + c)");
  check_canon("SELECT -a, - 5, -(5), +a, ~a", "SELECT (-(a)), -5, (-(5)), (+(a)), (~(a))");
  check_canon("SELECT a IS NOT NULL, b IS NULL, c IS TRUE, d IS NOT FALSE",
              "SELECT (a IS NOT NULL), (b IS NULL), (c IS TRUE), (d IS NOT FALSE)");
  check_canon(
      "SELECT a NOT IN (1, 2), a IN ('x'), b BETWEEN 1 AND 2 + 3, c NOT LIKE 'a%' ESCAPE '!'",
      "SELECT (a NOT IN (1, 2)), (a IN ('x')), (b BETWEEN 1 AND (2 + 3)), "
      "(c NOT LIKE 'a%' ESCAPE '!')");
  check_canon("SELECT a BETWEEN 1 AND 2 AND b", "SELECT ((a BETWEEN 1 AND 2) AND b)");
  check_canon("SELECT a = 1 = b, a <=> b, a == b, a != b",
              "SELECT ((a = 1) = b), (a <=> b), (a = b), (a <> b)");
}

static void test_literals_and_forms(void) {
  check_canon("SELECT 'it''s', \"dq\", 'a\\tb', 'x' 'y', 1L, 2.50, 1e3, X'0A', NULL, TRUE, false",
              "SELECT 'its', 'dq', 'a\\tb', 'xy', 1L, 2.50, 1e3, X'0A', NULL, TRUE, FALSE");
  check_canon("SELECT 'it\\'s', \"it's\", 'a\\\\b'", "SELECT 'it\\'s', 'it\\'s', 'a\\\\b'");
  check_canon("SELECT DATE '2024-01-02', TIMESTAMP '2024-01-02 03:04:05', TIMESTAMP_NTZ 'x'",
              "SELECT DATE '2024-01-02', TIMESTAMP '2024-01-02 03:04:05', TIMESTAMP_NTZ 'x'");
  check_canon("SELECT CAST(a AS int), CAST(b AS decimal(10,2)), CAST(c AS timestamp), "
              "CAST(d AS timestamp_ntz), CAST(e AS binary), CAST(f AS long)",
              "SELECT CAST(a AS INT), CAST(b AS DECIMAL(10, 2)), CAST(c AS TIMESTAMP(6) WITH LOCAL "
              "TIME ZONE), CAST(d AS TIMESTAMP(6)), CAST(e AS BYTES), CAST(f AS BIGINT)");
  check_canon("SELECT CASE WHEN a > 1 THEN 'x' WHEN a < 0 THEN 'y' ELSE 'z' END, "
              "CASE a WHEN 1 THEN 2 END",
              "SELECT CASE WHEN (a > 1) THEN 'x' WHEN (a < 0) THEN 'y' ELSE 'z' END, "
              "CASE a WHEN 1 THEN 2 END");
  check_canon("SELECT coalesce(a, b), upper(name), count(*), if(a, 1, 2), f()",
              "SELECT coalesce(a, b), upper(name), count(*), if(a, 1, 2), f()");
  check_canon("SELECT 'a\\\\b', '\\%'", "SELECT 'a\\\\b', '\\\\%'");
  /* A NUL before digits prints as three octal digits, which the lexer reads back alone. */
  check_canon("SELECT 'a\\0' '12', '\\u0000'", "SELECT 'a\\00012', '\\000'");
  /* Empty literals, double-quoted ones and runs of them (an empty token has no text; the fuzzer
   * found copying it undefined). */
  check_canon("SELECT \"\", '', \"\" \"\" \"\", '' 'a' ''", "SELECT '', '', '', 'a'");
}

static void test_dml(void) {
  check_canon("insert into t values (1, 'a'), (2, 'b')", "INSERT INTO t VALUES (1, 'a'), (2, 'b')");
  check_canon("INSERT INTO TABLE db.t (a, b) SELECT x, y FROM s",
              "INSERT INTO db.t (a, b) SELECT x, y FROM s");
  check_canon("INSERT OVERWRITE t PARTITION (dt = '2024', hr) VALUES 1, 2",
              "INSERT OVERWRITE t PARTITION (dt = '2024', hr) VALUES (1), (2)");
  check_canon("INSERT INTO t (SELECT 1)", "INSERT INTO t SELECT 1");
  check_canon("UPDATE t SET data = 'new-data-update' WHERE _ROW_ID = 0",
              "UPDATE t SET data = 'new-data-update' WHERE (_ROW_ID = 0)");
  check_canon("UPDATE db.t AS x SET x.a = a + 1, b = NULL",
              "UPDATE db.t AS x SET x.a = (a + 1), b = NULL");
  check_canon("DELETE FROM t WHERE id = 11", "DELETE FROM t WHERE (id = 11)");
  check_canon("DELETE FROM t", "DELETE FROM t");
  check_canon("MERGE INTO my_db.target_table AS t USING my_db.source_table AS s ON t.id = s.id "
              "WHEN MATCHED THEN UPDATE SET t.age = s.age "
              "WHEN NOT MATCHED THEN INSERT (id, name, age) VALUES (s.id, '', s.age)",
              "MERGE INTO my_db.target_table AS t USING my_db.source_table AS s ON (t.id = s.id) "
              "WHEN MATCHED THEN UPDATE SET t.age = s.age "
              "WHEN NOT MATCHED THEN INSERT (id, name, age) VALUES (s.id, '', s.age)");
  check_canon("MERGE INTO t USING (SELECT * FROM s) src ON t.id = src.id "
              "WHEN MATCHED AND src.x > 1 THEN DELETE WHEN MATCHED THEN UPDATE SET * "
              "WHEN NOT MATCHED BY TARGET THEN INSERT * "
              "WHEN NOT MATCHED BY SOURCE AND t.y IS NULL THEN DELETE "
              "WHEN NOT MATCHED BY SOURCE THEN UPDATE SET y = 0",
              "MERGE INTO t USING (SELECT * FROM s) AS src ON (t.id = src.id) "
              "WHEN MATCHED AND (src.x > 1) THEN DELETE WHEN MATCHED THEN UPDATE SET * "
              "WHEN NOT MATCHED THEN INSERT * "
              "WHEN NOT MATCHED BY SOURCE AND (t.y IS NULL) THEN DELETE "
              "WHEN NOT MATCHED BY SOURCE THEN UPDATE SET y = 0");
}

static void test_ddl(void) {
  check_canon("CREATE TABLE my_db.target_table (id INT NOT NULL, name STRING, age INT) "
              "TBLPROPERTIES ('row-tracking.enabled' = 'true', 'data-evolution.enabled' = 'true')",
              "CREATE TABLE my_db.target_table (id INT NOT NULL, name STRING, age INT) "
              "TBLPROPERTIES ('row-tracking.enabled' = 'true', 'data-evolution.enabled' = 'true')");
  check_canon("CREATE TABLE part_t (f0 INT, f1 STRING, dt STRING) PARTITIONED BY (dt) "
              "WITH ('row-tracking.enabled' = 'true')",
              "CREATE TABLE part_t (f0 INT, f1 STRING, dt STRING) PARTITIONED BY (dt) "
              "TBLPROPERTIES ('row-tracking.enabled' = 'true')");
  check_canon("create table if not exists t (a integer comment 'the a', b long, c short, d byte, "
              "e real, f double precision, g decimal, h numeric(5), i char(3), j varchar(9), "
              "k binary, l binary(4), m varbinary(7), n bytes, o date, p time, q timestamp, "
              "r timestamp_ntz, s timestamp_ltz(3), t timestamp(3), u timestamp(9) with local "
              "time zone, v boolean, w array<float>, x map<string, array<int not null>>, "
              "y struct<a: int, b string comment 'c'>, z row(q int), aa multiset<int>, "
              "ab vector<float, 4>, ac variant, ad blob, ae tinyint, af smallint, ag bigint, "
              "ah float) using paimon comment 'tbl' tblproperties (a.b.c = 1, 'x' 'y')",
              "CREATE TABLE IF NOT EXISTS t (a INT COMMENT 'the a', b BIGINT, c SMALLINT, "
              "d TINYINT, e FLOAT, f DOUBLE, g DECIMAL(10, 0), h DECIMAL(5, 0), i CHAR(3), "
              "j VARCHAR(9), k BYTES, l BINARY(4), m VARBINARY(7), n BYTES, o DATE, p TIME(0), "
              "q TIMESTAMP(6) WITH LOCAL TIME ZONE, r TIMESTAMP(6), "
              "s TIMESTAMP(3) WITH LOCAL TIME ZONE, t TIMESTAMP(3), "
              "u TIMESTAMP(9) WITH LOCAL TIME ZONE, v BOOLEAN, w ARRAY<FLOAT>, "
              "x MAP<STRING, ARRAY<INT NOT NULL>>, y ROW<`a` INT, `b` STRING COMMENT 'c'>, "
              "z ROW<`q` INT>, aa MULTISET<INT>, ab VECTOR<FLOAT, 4>, ac VARIANT, ad BLOB, "
              "ae TINYINT, af SMALLINT, ag BIGINT, ah FLOAT) COMMENT 'tbl' "
              "TBLPROPERTIES ('a.b.c' = '1', 'x' = 'y')");
  check_canon("CREATE DATABASE IF NOT EXISTS d", "CREATE DATABASE IF NOT EXISTS d");
  check_canon("create schema d comment 'x'", "CREATE DATABASE d COMMENT 'x'");
  check_canon("DROP DATABASE IF EXISTS d CASCADE", "DROP DATABASE IF EXISTS d CASCADE");
  check_canon("drop table if exists db.t purge", "DROP TABLE IF EXISTS db.t");
  check_canon("USE d", "USE d");
  check_canon("USE DATABASE d", "USE d");
  check_canon("SHOW DATABASES", "SHOW DATABASES");
  check_canon("SHOW TABLES FROM d", "SHOW TABLES IN d");
  check_canon("desc table extended db.t", "DESCRIBE EXTENDED db.t");
  check_canon("ALTER TABLE t ADD COLUMN embedding ARRAY<FLOAT> COMMENT 'e'",
              "ALTER TABLE t ADD COLUMNS (embedding ARRAY<FLOAT> COMMENT 'e')");
  check_canon("ALTER TABLE t ADD COLUMNS (a INT, b STRING)",
              "ALTER TABLE t ADD COLUMNS (a INT, b STRING)");
  check_canon("ALTER TABLE t RENAME COLUMN a TO b", "ALTER TABLE t RENAME COLUMN a TO b");
  check_canon("alter table db.t rename to u", "ALTER TABLE db.t RENAME TO u");
  check_canon("alter table t drop if exists partition (dt = 'a', h = 1), partition (dt = 'b')",
              "ALTER TABLE t DROP IF EXISTS PARTITION (dt = 'a', h = 1), PARTITION (dt = 'b')");
  check_canon("truncate table db.t", "TRUNCATE TABLE db.t");
  check_canon("TRUNCATE TABLE t PARTITION (h = 2)", "TRUNCATE TABLE t PARTITION (h = 2)");
  check_canon("show partitions db.t", "SHOW PARTITIONS db.t");
  check_canon("alter table t alter column a type bigint",
              "ALTER TABLE t ALTER COLUMN a TYPE BIGINT");
  check_canon("ALTER TABLE t CHANGE COLUMN a FIRST", "ALTER TABLE t ALTER COLUMN a FIRST");
  check_canon("ALTER TABLE t ALTER a AFTER b", "ALTER TABLE t ALTER COLUMN a AFTER b");
  check_canon("ALTER TABLE t ALTER COLUMN a SET NOT NULL",
              "ALTER TABLE t ALTER COLUMN a SET NOT NULL");
  check_canon("ALTER TABLE t ALTER COLUMN a DROP NOT NULL",
              "ALTER TABLE t ALTER COLUMN a DROP NOT NULL");
  check_canon("create database d comment 'c' location '/x' with dbproperties (a = 'b')",
              "CREATE DATABASE d COMMENT 'c' WITH DBPROPERTIES ('a' = 'b', 'location' = '/x')");
  check_canon("CREATE SCHEMA IF NOT EXISTS d WITH PROPERTIES ('k' = 'v') COMMENT 'x'",
              "CREATE DATABASE IF NOT EXISTS d COMMENT 'x' WITH DBPROPERTIES ('k' = 'v')");
  check_canon("alter database d set dbproperties ('k' = 'v')",
              "ALTER DATABASE d SET DBPROPERTIES ('k' = 'v')");
  check_canon("ALTER NAMESPACE d SET PROPERTIES ('k' = 'v', 'j' = 'w')",
              "ALTER DATABASE d SET DBPROPERTIES ('k' = 'v', 'j' = 'w')");
  check_canon("ALTER TABLE t RENAME TO db2.u", "ALTER TABLE t RENAME TO db2.u");
  check_canon("ALTER TABLE t DROP COLUMN a", "ALTER TABLE t DROP COLUMNS (a)");
  check_canon("ALTER TABLE t DROP COLUMNS a, b", "ALTER TABLE t DROP COLUMNS (a, b)");
  check_canon("ALTER TABLE t SET TBLPROPERTIES ('k' = 'v')",
              "ALTER TABLE t SET TBLPROPERTIES ('k' = 'v')");
  check_canon("ALTER TABLE t UNSET TBLPROPERTIES IF EXISTS ('k', 'j')",
              "ALTER TABLE t UNSET TBLPROPERTIES IF EXISTS ('k', 'j')");
  check_canon("ALTER TABLE t ALTER COLUMN a COMMENT 'x'",
              "ALTER TABLE t ALTER COLUMN a COMMENT 'x'");
}

static void test_multiple_statements(void) {
  const char *src = "CREATE TABLE t (id INT, data STRING) TBLPROPERTIES ('row-tracking.enabled' = "
                    "'true');\n;;INSERT INTO t VALUES (11, 'a'), (22, 'b')\n;\n"
                    "  SELECT id, data, _ROW_ID, _SEQUENCE_NUMBER FROM t;  -- done\n";
  cp_sql_stmt **stmts = NULL;
  size_t n = 0;
  paimon_error err;
  CHECK_OK(cp_sql_parse(src, strlen(src), &stmts, &n, &err), &err);
  CHECK_INT(n, 3);
  if (n == 3) {
    CHECK_INT(stmts[0]->kind, CP_SQL_S_CREATE_TABLE);
    CHECK_INT(stmts[1]->kind, CP_SQL_S_INSERT);
    CHECK_INT(stmts[2]->kind, CP_SQL_S_SELECT);
    CHECK_INT(stmts[1]->pos.line, 2);
    CHECK_INT(stmts[1]->pos.col, 3);
    CHECK_INT(stmts[2]->pos.line, 4);
    CHECK_INT(stmts[2]->pos.col, 3);
    /* The text range covers the statement without its ';'. */
    size_t len = stmts[1]->text_end - stmts[1]->text_start;
    CHECK(strncmp(src + stmts[1]->text_start, "INSERT INTO t VALUES (11, 'a'), (22, 'b')", len) ==
          0);
    CHECK_INT(len, strlen("INSERT INTO t VALUES (11, 'a'), (22, 'b')"));
  }
  cp_sql_stmts_free(stmts, n);
}

static void check_error(const char *sql, const char *msg) {
  cp_sql_stmt **stmts = NULL;
  size_t n = 0;
  paimon_error err;
  CHECK_ERR(cp_sql_parse(sql, strlen(sql), &stmts, &n, &err), PAIMON_EINVAL);
  CHECK_STR(err.message, msg);
  CHECK(stmts == NULL);
}

static void test_errors(void) {
  check_error("SELECT a FORM t", "line 1:15: syntax error at 't': expected ';' or the end of the "
                                 "statement");
  check_error("SELECT * FROM", "line 1:14: syntax error at end of input: expected an identifier");
  check_error("SELECT\n  a +\n  FROM t",
              "line 3:3: syntax error at 'FROM': expected an expression");
  check_error("SELEC 1",
              "line 1:1: syntax error at 'SELEC': expected a statement (SELECT, INSERT, "
              "UPDATE, DELETE, MERGE, CREATE, DROP, ALTER, TRUNCATE, CALL, USE, SHOW or DESCRIBE)");
  check_error("INSERT t VALUES (1)", "line 1:8: syntax error at 't': expected INTO");
  check_error("SELECT (1", "line 1:10: syntax error at end of input: expected ')'");
  check_error("SELECT CASE END", "line 1:13: syntax error at 'END': expected WHEN");
  check_error("CREATE TABLE t (a FOO)", "line 1:19: syntax error at 'FOO': expected a data type");
  check_error("CREATE TABLE t (a DECIMAL(50, 2))",
              "line 1:19: DECIMAL precision 50 must be between 1 and 38");
  check_error("SELECT 'abc", "line 1:8: unterminated string literal");
  check_error("SELECT 1 'abc", "line 1:10: unterminated string literal");
  check_error("MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN INSERT *",
              "line 1:55: syntax error at 'INSERT': expected UPDATE or DELETE");
  check_error("MERGE INTO t USING s ON t.id = s.id WHEN NOT MATCHED THEN DELETE",
              "line 1:59: syntax error at 'DELETE': expected INSERT");
  check_error("MERGE INTO t USING s ON t.id = s.id",
              "line 1:36: syntax error at end of input: expected WHEN");
  {
    /* A NUL inside a quoted identifier (found by fuzz_sql_parse: the name was cut short and
     * printed as ``, which does not parse back). */
    static const char nul[] = "SELECT * FROM `a\0b`";
    cp_sql_stmt **stmts = NULL;
    size_t n = 0;
    paimon_error err;
    CHECK_ERR(cp_sql_parse(nul, sizeof nul - 1, &stmts, &n, &err), PAIMON_EINVAL);
    CHECK_STR(err.message, "line 1:15: quoted identifier contains a NUL byte");
    cp_sql_stmts_free(stmts, n);
  }
  check_error("CALL sys.f(a => b)",
              "line 1:17: syntax error at 'b': expected a literal (a string, a number, TRUE, "
              "FALSE or NULL)");
  check_error("SELECT * FROM t TIMESTAMP AS OF '2024-13-01'",
              "line 1:17: TIMESTAMP AS OF '2024-13-01': not a timestamp");
  check_error("SELECT * FROM t VERSION AS OF -1",
              "line 1:31: syntax error at '-': expected a snapshot id (a positive integer) or a "
              "tag name");
  check_error("WITH x AS (SELECT 1), X AS (SELECT 2) SELECT * FROM x",
              "line 1:23: CTE definition can't have duplicate names: 'X'.");
  check_error("WITH x (a) AS (SELECT 1) SELECT * FROM x",
              "line 1:8: column lists in WITH are not supported; alias the columns in the query");
  check_error("WITH RECURSIVE x AS (SELECT 1) SELECT * FROM x",
              "line 1:6: WITH RECURSIVE is not supported");
  check_error("SELECT a FROM t UNION", "line 1:22: syntax error at end of input: expected SELECT");
  check_error("SELECT INTERVAL '1' DAY", "line 1:8: INTERVAL literals are not supported");
  check_error("ALTER TABLE t RENAME u", "line 1:22: syntax error at 'u': expected TO");
  check_error("SELECT select FROM t", "line 1:8: syntax error at 'select': expected an expression");
  check_error("CREATE TABLE t (a INT) USING parquet",
              "line 1:30: table provider 'parquet' is not supported (only paimon)");
}

static void test_set_operations_and_with(void) {
  /* Each side is parenthesised when printed; INTERSECT binds tighter than UNION / EXCEPT. */
  check_canon("SELECT a FROM t UNION ALL SELECT b FROM u",
              "(SELECT a FROM t) UNION ALL (SELECT b FROM u)");
  check_canon("SELECT a FROM t UNION SELECT b FROM u INTERSECT SELECT c FROM v",
              "(SELECT a FROM t) UNION ((SELECT b FROM u) INTERSECT (SELECT c FROM v))");
  check_canon("SELECT a FROM t EXCEPT ALL SELECT b FROM u MINUS SELECT c FROM v",
              "((SELECT a FROM t) EXCEPT ALL (SELECT b FROM u)) EXCEPT (SELECT c FROM v)");
  /* ORDER BY / LIMIT after a set operation apply to its result. */
  check_canon("SELECT a FROM t UNION SELECT b FROM u ORDER BY a LIMIT 2",
              "SELECT * FROM ((SELECT a FROM t) UNION (SELECT b FROM u)) ORDER BY a ASC LIMIT 2");
  check_canon("(SELECT a FROM t LIMIT 1) LIMIT 2",
              "SELECT * FROM (SELECT a FROM t LIMIT 1) LIMIT 2");
  check_canon("(SELECT a FROM t) ORDER BY a", "SELECT a FROM t ORDER BY a ASC");
  /* WITH names become subqueries aliased by the name (a table of the same name is hidden). */
  check_canon("WITH x AS (SELECT a FROM t), y AS (SELECT a FROM x) SELECT * FROM y, x z",
              "SELECT * FROM (SELECT a FROM (SELECT a FROM t) AS x) AS y CROSS JOIN "
              "(SELECT a FROM t) AS z");
  check_canon("SELECT * FROM (WITH x AS (SELECT 1 AS a) SELECT a FROM x) s, x",
              "SELECT * FROM (SELECT a FROM (SELECT 1 AS a) AS x) AS s CROSS JOIN x");
  check_canon("INSERT INTO t WITH s AS (SELECT 1 AS a) SELECT a FROM s UNION ALL SELECT 2", NULL);
  /* A WITH chain that doubles at every step stops at CP_SQL_MAX_REFERENCES. */
  char sql[4096] = "WITH c0 AS (SELECT 1 AS a)";
  size_t n = strlen(sql);
  for (int i = 1; i <= 20; i++)
    n += (size_t)snprintf(sql + n, sizeof sql - n, ", c%d AS (SELECT * FROM c%d, c%d)", i, i - 1,
                          i - 1);
  snprintf(sql + n, sizeof sql - n, " SELECT * FROM c20");
  cp_sql_stmt **stmts = NULL;
  size_t count = 0;
  paimon_error err;
  CHECK(cp_sql_parse(sql, strlen(sql), &stmts, &count, &err) == PAIMON_EINVAL);
  CHECK(strstr(err.message, "more than 10000 tables") != NULL);
}

static void test_depth_limit(void) {
  char sql[4096] = "SELECT ";
  size_t n = strlen(sql);
  for (int i = 0; i < 1000; i++) sql[n++] = '(';
  sql[n] = '\0';
  cp_sql_stmt **stmts = NULL;
  size_t count = 0;
  paimon_error err;
  CHECK_ERR(cp_sql_parse(sql, strlen(sql), &stmts, &count, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "nested too deeply");
}

/* Text of `head` then `unit` repeated n times then `tail` (malloc'd). */
static char *repeat(const char *head, const char *unit, int n, const char *tail) {
  size_t h = strlen(head), u = strlen(unit), t = strlen(tail), at = h;
  char *s = malloc(h + (size_t)n * u + t + 1);
  memcpy(s, head, h);
  for (int i = 0; i < n; i++, at += u) memcpy(s + at, unit, u);
  memcpy(s + at, tail, t + 1);
  return s;
}

static int parse_status(const char *sql, paimon_error *err) {
  cp_sql_stmt **stmts = NULL;
  size_t count = 0;
  int rc = cp_sql_parse(sql, strlen(sql), &stmts, &count, err);
  cp_sql_stmts_free(stmts, count);
  return rc;
}

/* Left-associative chains have no depth limit (the parser builds them with a loop, and every
 * pass walks them with one); runs of predicate suffixes and of joins, which nest the same way
 * but that nothing real needs many of, count towards the nesting limit. */
static void test_chains_and_their_limits(void) {
  paimon_error err;
  char *sum = repeat("SELECT 1", " + 1", 50000, "");
  CHECK_OK(parse_status(sum, &err), &err);
  char *ors = repeat("SELECT * FROM t WHERE a = 0", " OR a = 1", 50000, "");
  CHECK_OK(parse_status(ors, &err), &err);
  char *unions = repeat("SELECT 1", " UNION ALL SELECT 1", 20000, "");
  CHECK_OK(parse_status(unions, &err), &err);
  char *suffixes = repeat("SELECT a", " IS NULL", 300, "");
  CHECK_ERR(parse_status(suffixes, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "nested too deeply");
  char *joins = repeat("SELECT * FROM t", " JOIN t ON true", 300, "");
  CHECK_ERR(parse_status(joins, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "nested too deeply");
  char *commas = repeat("SELECT * FROM t", ", t", 300, "");
  CHECK_ERR(parse_status(commas, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "nested too deeply");
  char *few = repeat("SELECT * FROM t", " JOIN t ON a IS NULL IS NOT NULL", 20, "");
  CHECK_OK(parse_status(few, &err), &err);
  free(sum);
  free(ors);
  free(unions);
  free(suffixes);
  free(joins);
  free(commas);
  free(few);
}

static void test_parser_continues_after_error(void) {
  const char *src = "SELECT 1; SELEC 2; SELECT 3";
  cp_sql_parser *p = NULL;
  paimon_error err;
  CHECK_OK(cp_sql_parser_new(&p, src, strlen(src), &err), &err);
  cp_sql_stmt *s = NULL;
  CHECK_OK(cp_sql_parse_next(p, &s, &err), &err);
  CHECK(s && s->kind == CP_SQL_S_SELECT);
  cp_sql_stmt_free(s);
  CHECK_ERR(cp_sql_parse_next(p, &s, &err), PAIMON_EINVAL);
  CHECK_CONTAINS(err.message, "line 1:11:");
  CHECK_OK(cp_sql_parse_next(p, &s, &err), &err);
  CHECK(s && s->kind == CP_SQL_S_SELECT && s->pos.col == 20);
  cp_sql_stmt_free(s);
  CHECK_OK(cp_sql_parse_next(p, &s, &err), &err);
  CHECK(s == NULL);
  cp_sql_parser_free(p);
}

static void check_display(const char *expr, const char *name) {
  cp_sql_stmt *owner = NULL;
  cp_sql_expr *e = NULL;
  paimon_error err;
  CHECK_OK(cp_sql_parse_expr(expr, strlen(expr), &owner, &e, &err), &err);
  if (!e) return;
  cp_buf out = CP_BUF_INIT;
  CHECK_OK(cp_sql_expr_display_name(e, &out, &err), &err);
  cp_buf_nul_terminate(&out, &err);
  CHECK_STR((const char *)out.data, name);
  cp_buf_free(&out);
  cp_sql_stmt_free(owner);
}

/* Column names as Spark 3.5 prints them for unaliased expressions. */
static void test_display_names(void) {
  check_display("t.id", "id");
  check_display("id + 1", "(id + 1)");
  check_display("COUNT(*)", "count(1)");
  check_display("count(DISTINCT x)", "count(DISTINCT x)");
  check_display("SUM(age)", "sum(age)");
  check_display("1L", "1");
  check_display("'abc'", "abc");
  check_display("NULL", "NULL");
  check_display("true", "true");
  check_display("-id", "(- id)");
  check_display("a <> b", "(NOT (a = b))");
  check_display("NOT a", "(NOT a)");
  check_display("x IS NULL", "(x IS NULL)");
  check_display("x IN (1, 2)", "(x IN (1, 2))");
  check_display("x NOT IN (1, 2)", "(NOT (x IN (1, 2)))");
  check_display("name || 'x'", "concat(name, x)");
  check_display("CASE WHEN x > 1 THEN 'a' ELSE 'b' END", "CASE WHEN (x > 1) THEN a ELSE b END");
  check_display("upper(name)", "upper(name)");
  check_display("DATE '2024-01-01'", "DATE '2024-01-01'");
  /* subqueries, as Spark names them */
  check_display("(SELECT max(a) FROM t)", "scalarsubquery()");
  check_display("EXISTS (SELECT 1)", "exists()");
  check_display("x IN (SELECT a FROM t)", "(x IN (listquery()))");
  check_display("x NOT IN (SELECT a FROM t)", "(NOT (x IN (listquery())))");
  /* window functions: Spark spells out the frame its analyzer settles on */
  check_display("row_number() OVER (PARTITION BY k ORDER BY v)",
                "row_number() OVER (PARTITION BY k ORDER BY v ASC NULLS FIRST ROWS BETWEEN "
                "UNBOUNDED PRECEDING AND CURRENT ROW)");
  check_display("sum(v) OVER (PARTITION BY k)",
                "sum(v) OVER (PARTITION BY k ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED "
                "FOLLOWING)");
  check_display("sum(v) OVER (ORDER BY v DESC)",
                "sum(v) OVER (ORDER BY v DESC NULLS LAST RANGE BETWEEN UNBOUNDED PRECEDING AND "
                "CURRENT ROW)");
  check_display("lag(v) OVER (ORDER BY v)",
                "lag(v, 1, NULL) OVER (ORDER BY v ASC NULLS FIRST ROWS BETWEEN -1 FOLLOWING AND -1 "
                "FOLLOWING)");
  check_display("count(*) OVER ()",
                "count(1) OVER (ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)");
  check_display(
      "avg(d) OVER (ORDER BY d ROWS BETWEEN 1 PRECEDING AND 2 FOLLOWING)",
      "avg(d) OVER (ORDER BY d ASC NULLS FIRST ROWS BETWEEN 1 PRECEDING AND 2 FOLLOWING)");
}

static void test_subqueries(void) {
  check_canon("SELECT (SELECT max(a) FROM t) + 1, x IN (SELECT a FROM u WHERE a > 1) FROM v",
              "SELECT ((SELECT max(a) FROM t) + 1), (x IN (SELECT a FROM u WHERE (a > 1))) FROM v");
  check_canon("SELECT * FROM t WHERE NOT EXISTS (SELECT * FROM u WHERE u.k = t.k) AND x NOT IN "
              "(WITH w AS (SELECT 1 AS c) SELECT c FROM w)",
              NULL);
  check_canon("DELETE FROM t WHERE EXISTS (SELECT 1 FROM u WHERE (SELECT 2) = u.k)", NULL);
  /* a parenthesised expression is not a subquery */
  check_canon("SELECT ((a + 1)) FROM t", "SELECT (a + 1) FROM t");
  check_canon("SELECT sum(v) OVER (PARTITION BY k, j ORDER BY v DESC NULLS FIRST ROWS BETWEEN 2 "
              "PRECEDING AND CURRENT ROW), rank() OVER (ORDER BY v), count(*) OVER () FROM t",
              "SELECT sum(v) OVER (PARTITION BY k, j ORDER BY v DESC NULLS FIRST ROWS BETWEEN 2 "
              "PRECEDING AND CURRENT ROW), rank() OVER (ORDER BY v ASC), count(*) OVER () FROM t");
  check_canon(
      "SELECT lag(v, 2, 0) OVER (ORDER BY v ROWS UNBOUNDED PRECEDING) FROM t",
      "SELECT lag(v, 2, 0) OVER (ORDER BY v ASC ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT "
      "ROW) FROM t");
  check_canon("SELECT * FROM a LEFT SEMI JOIN b ON a.k = b.k ANTI JOIN c USING (k, `x y`)",
              "SELECT * FROM a LEFT SEMI JOIN b ON (a.k = b.k) LEFT ANTI JOIN c USING (k, `x y`)");
  check_canon("SELECT * FROM a semi JOIN b USING (k)",
              "SELECT * FROM a LEFT SEMI JOIN b USING (k)");
  check_canon(
      "SELECT count(*) FILTER (WHERE x > 1), sum(DISTINCT v) FILTER (WHERE s = 'a') FROM t",
      "SELECT count(*) FILTER (WHERE (x > 1)), sum(DISTINCT v) FILTER (WHERE (s = 'a')) FROM t");
  check_canon("SELECT * FROM t WHERE (a, b) NOT IN ((1, 'x'), (2, NULL))",
              "SELECT * FROM t WHERE ((a, b) NOT IN ((1, 'x'), (2, NULL)))");
  check_display("count(*) FILTER (WHERE x > 1)", "count(1) FILTER (WHERE (x > 1))");
  check_canon("SELECT a[0], m['k'][i + 1], st.x.y, element_at(a, -1) FROM t",
              "SELECT a[0], m['k'][(i + 1)], st.x.y, element_at(a, -1) FROM t");
  check_display("a[i + 1]", "a[(i + 1)]");
  check_error("SELECT sum(v) OVER w FROM t", "line 1:20: not supported: named windows (OVER name)");
  check_error("SELECT sum(v) OVER (ROWS BETWEEN x PRECEDING AND CURRENT ROW) FROM t",
              "line 1:34: syntax error at 'x': expected UNBOUNDED, CURRENT ROW or a row count");
}

/* ---- mutation testing: what the fuzz harness checks, on deterministic inputs --------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rnd(void) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return rng_state;
}

/* Parses every statement of src (going on after errors); each error has a position and each
 * statement prints to text that parses back to the same text. Returns the statements parsed. */
static int check_all(const char *src, size_t len) {
  cp_sql_parser *p = NULL;
  paimon_error err;
  if (cp_sql_parser_new(&p, src, len, &err) != 0) return 0;
  int parsed = 0;
  for (int i = 0; i < 1000; i++) {
    cp_sql_stmt *s = NULL;
    int rc = cp_sql_parse_next(p, &s, &err);
    if (rc == 0 && !s) break;
    if (rc) {
      CHECK(strncmp(err.message, "line ", 5) == 0);
      continue;
    }
    parsed++;
    cp_buf b = CP_BUF_INIT;
    CHECK_OK(cp_sql_print_stmt(s, &b, &err), &err);
    cp_buf_nul_terminate(&b, &err);
    char *again = canon((const char *)b.data);
    CHECK(again != NULL);
    if (again && strcmp(again, (const char *)b.data) != 0) {
      fprintf(stderr, "  round trip changed:\n  %s\n  %s\n", (const char *)b.data, again);
      CHECK(0);
    }
    free(again);
    cp_buf_free(&b);
    cp_sql_stmt_free(s);
  }
  cp_sql_parser_free(p);
  return parsed;
}

static char *read_file(const char *path, size_t *len) {
  FILE *f = fopen(path, "rb");
  if (!f) return NULL;
  char *buf = malloc(1 << 16);
  *len = buf ? fread(buf, 1, (1 << 16) - 1, f) : 0;
  fclose(f);
  return buf;
}

static void test_mutations(void) {
  static const char *const pieces[] = {
      "(",  ")",       ",",      ";",       "'",    "`",     "--",  "/*",
      "*/", "SELECT ", " FROM ", " WHERE ", "NOT ", " AND ", "1e",  "X'",
      ".",  "CASE ",   " END",   "ARRAY<",  ">",    "\\",    "-",   "<=>",
      "\"", " JOIN ",  " ON ",   "*",       "NULL", "e+",    "\xff"};
  DIR *dir = opendir(CPAIMON_SOURCE_DIR "/tests/sql");
  CHECK(dir != NULL);
  if (!dir) return;
  int files = 0, parsed = 0;
  struct dirent *de;
  while ((de = readdir(dir)) != NULL) {
    size_t n = strlen(de->d_name);
    if (n < 5 || strcmp(de->d_name + n - 4, ".sql") != 0) continue;
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/sql/%s", CPAIMON_SOURCE_DIR, de->d_name);
    size_t len = 0;
    char *src = read_file(path, &len);
    if (!src) continue;
    files++;
    parsed += check_all(src, len);
    char *buf = malloc(len + 256);
    for (int round = 0; buf && round < 60; round++) {
      size_t m = len;
      memcpy(buf, src, len);
      for (int edit = 0; edit < 3 && m > 0; edit++) {
        size_t at = (size_t)(rnd() % m);
        if (rnd() % 2) { /* delete a short range */
          size_t k = 1 + (size_t)(rnd() % 8);
          if (at + k > m) k = m - at;
          memmove(buf + at, buf + at + k, m - at - k);
          m -= k;
        } else { /* insert a token-ish piece */
          const char *piece = pieces[rnd() % (sizeof pieces / sizeof pieces[0])];
          size_t k = strlen(piece);
          if (m + k > len + 200) continue;
          memmove(buf + at + k, buf + at, m - at);
          memcpy(buf + at, piece, k);
          m += k;
        }
      }
      parsed += check_all(buf, m);
    }
    free(buf);
    free(src);
  }
  closedir(dir);
  CHECK(files >= 10);
  CHECK(parsed > 1000); /* most mutants still hold statements that parse */
}

int main(void) {
  RUN(test_select_forms);
  RUN(test_precedence);
  RUN(test_literals_and_forms);
  RUN(test_dml);
  RUN(test_ddl);
  RUN(test_multiple_statements);
  RUN(test_errors);
  RUN(test_set_operations_and_with);
  RUN(test_depth_limit);
  RUN(test_chains_and_their_limits);
  RUN(test_parser_continues_after_error);
  RUN(test_display_names);
  RUN(test_subqueries);
  RUN(test_mutations);
  TEST_MAIN_END();
}
