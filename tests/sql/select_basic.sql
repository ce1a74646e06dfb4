-- SELECT: '*' (never the hidden row-tracking columns), qualified '*', column and expression
-- aliases, Spark's names for unaliased expressions, SELECT without FROM, literals of every kind.
CREATE TABLE t (id INT, name STRING, score DOUBLE) TBLPROPERTIES ('row-tracking.enabled' = 'true');
INSERT INTO t VALUES (1, 'a', 1.5), (2, 'b', NULL), (3, NULL, 3.0);
SELECT * FROM t;
SELECT t.* FROM t;
SELECT x.*, x._ROW_ID FROM t x;
SELECT id, name AS who, score * 2 doubled, id + 1, -id, NOT id > 1, upper(name) FROM t;
SELECT _ROW_ID, _SEQUENCE_NUMBER, id FROM t;
SELECT 1, 2147483648, 9223372036854775808, 1.50, .5, 1e3, 1L, 2S, 3Y, 1.5D, 2F, 7BD, 'it''s', "dq",
  X'CAFE', TRUE, NULL, DATE '2024-02-29', TIMESTAMP '2024-01-02 03:04:05.678', TIMESTAMP_NTZ '2024-01-02 03:04:05';
SELECT 5 / 2, 7 % 3, 1 / 0, 2 * 3 + 1, (2 + 3) * 4, 10 - 2 - 3, 'a' || 'b', 1 = 1, 1 <> 1, NULL = NULL, NULL <=> NULL;
SELECT CAST('42' AS INT), CAST('x' AS INT), CAST(3.9 AS INT), CAST(1 AS STRING), CAST('2024-01-31' AS DATE),
  CAST(300 AS TINYINT), CAST(TRUE AS INT);
SELECT coalesce(NULL, NULL, 3), nvl(NULL, 'x'), ifnull(1, 2), nullif(1, 1), nullif(1, 2),
  if(1 < 2, 'yes', 'no'), isnull(NULL), isnotnull(1);
SELECT concat('a', 'b', 'c'), upper('mixed'), lower('MiXeD'), length('héllo'), substring('hello', 2, 3),
  substr('hello', -3), trim('  x  '), abs(-5), abs(-2.5);
SELECT CASE WHEN id = 1 THEN 'one' WHEN id = 2 THEN 'two' ELSE 'many' END AS word,
  CASE name WHEN 'a' THEN 1 WHEN 'b' THEN 2 END AS code FROM t;
SELECT DISTINCT name IS NULL AS missing FROM t;
