-- Spark SQL conformance (issue 20): each statement's expected answer is Spark 3.5's (with the
-- Paimon 1.4.2 connector), quoted in the comment before it.
CREATE TABLE nan_c (id INT, d DOUBLE) TBLPROPERTIES ('row-tracking.enabled' = 'true');
INSERT INTO nan_c VALUES (1, CAST('NaN' AS DOUBLE)), (2, 1.0D);
-- Spark: [1] (NaN is above every number; the file's stats must not prune it).
SELECT id FROM nan_c WHERE d > 2;
-- Spark: [2].
SELECT id FROM nan_c WHERE d < 5;
-- Decimal typing: an integer literal is a DECIMAL of its own digits.
-- Spark: 3.333333 (DECIMAL(8,6)), 0.333333, 0.5 / 7 at scale 6.
SELECT 10.0 / 3, CAST(1 AS DECIMAL(10,2)) / 3L, CAST(3.5 AS DECIMAL(10,2)) / 7, 1.5 * 2, 1.5 + 1, 7.5 % 2;
CREATE TABLE dec_t (id INT, dec DECIMAL(10,2));
INSERT INTO dec_t VALUES (1, 7483.49), (2, 40000000.00), (3, NULL);
-- Spark: 3741.745000, 20000000.000000, NULL.
SELECT id, dec / 2 FROM dec_t ORDER BY id;
-- Spark: 57152618.812858 (DECIMAL(24,6)); avg DECIMAL(14,6); sum DECIMAL(20,2).
SELECT sum(dec / 7), avg(dec), sum(dec) FROM dec_t;
-- Default column names: Spark prints DECIMAL(10,2), TIMESTAMP, STRING for VARCHAR casts.
SELECT sum(cast(1 as decimal(10,2))), CAST(1 AS VARCHAR(3)), CAST(0 AS TIMESTAMP);
-- -0.0: one group, shown 0.0, in GROUP BY, DISTINCT and set operations; UNION ALL keeps it.
CREATE TABLE zeros (d DOUBLE);
INSERT INTO zeros VALUES (-0.0D), (0.0D), (-0.0D);
-- Spark: 0.0 | 3.
SELECT d, count(*) FROM zeros GROUP BY d;
-- Spark: 0.0.
SELECT DISTINCT d FROM zeros;
-- Spark: 0.0.
SELECT d FROM zeros UNION SELECT d FROM zeros;
-- Spark: 0.0.
SELECT d FROM zeros INTERSECT SELECT 0.0D;
-- Spark: -0.0, 0.0, -0.0, 0.0.
SELECT d FROM zeros UNION ALL SELECT 0.0D;
-- _SEQUENCE_NUMBER in conditions of UPDATE and DELETE.
CREATE TABLE seq (id INT, s STRING) TBLPROPERTIES ('row-tracking.enabled' = 'true');
INSERT INTO seq VALUES (1, 'a'), (2, 'b');
INSERT INTO seq VALUES (3, 'c');
UPDATE seq SET s = 'z' WHERE _SEQUENCE_NUMBER = 2;
-- Spark: (1,a,0,1), (2,b,1,1), (3,z,2,3).
SELECT id, s, _ROW_ID, _SEQUENCE_NUMBER FROM seq ORDER BY id;
DELETE FROM seq WHERE _SEQUENCE_NUMBER = 1;
-- Spark: (3,z,2,3).
SELECT id, s, _ROW_ID, _SEQUENCE_NUMBER FROM seq;
-- MAP values where Spark needs an order or equality: refused with Spark's error classes.
CREATE TABLE maps (id INT, m MAP<STRING, INT>);
INSERT INTO maps VALUES (1, map('a', 1));
SELECT DISTINCT m FROM maps;
SELECT m FROM maps GROUP BY m;
SELECT m FROM maps ORDER BY m;
SELECT max(m) FROM maps;
SELECT m FROM maps UNION SELECT m FROM maps;
-- Spark: both rows (UNION ALL needs no equality).
SELECT m FROM maps UNION ALL SELECT m FROM maps;
-- CAST of a DATE to a number or BOOLEAN: Spark answers NULL.
SELECT CAST(DATE '2024-01-01' AS INT), CAST(DATE '2024-01-01' AS DOUBLE), CAST(DATE '2024-01-01' AS BOOLEAN);
-- CAST of an integer to BINARY: its big-endian bytes, as wide as its type (Spark: [00 00 00 01],
-- [01 02], [FF FF FF FF], [00 00 00 00 00 00 00 01], [07]); BOOLEAN to TIMESTAMP: 0 or 1
-- microsecond after the epoch; a fraction to BINARY stays refused, as in Spark.
SELECT CAST(1 AS BINARY), CAST(CAST(258 AS SMALLINT) AS BINARY) AS s, CAST(-1 AS BINARY) AS m,
  CAST(1L AS BINARY) AS l, CAST(CAST(7 AS TINYINT) AS BINARY) AS t;
SELECT CAST(true AS TIMESTAMP) AS t, CAST(false AS TIMESTAMP) AS f, CAST(NULL AS BOOLEAN) IS NULL AS n;
-- Spark: 1.0E-6, 0.0, 8.
SELECT CAST(CAST(true AS TIMESTAMP) AS DOUBLE) AS d, CAST(CAST(false AS TIMESTAMP) AS DOUBLE) AS e,
  length(CAST(1L AS BINARY)) AS n;
SELECT CAST(1.5 AS BINARY);
-- String literals: '' ends a literal and adjacent literals are joined (Spark: its, ab); \ escapes.
SELECT 'it''s', 'a' 'b', 'it\'s', "it's", length('a\tb') AS n;
CREATE TABLE strs (s STRING);
INSERT INTO strs VALUES ('its'), ('it''s'), ('x');
-- Spark: 2 (both rows hold "its").
SELECT count(*) FROM strs WHERE s = 'it''s';
-- Item 13: DATE +/- INT (Spark's date_add / date_sub), datediff; DATE - DATE is an INTERVAL in
-- Spark, which cpaimon refuses with a pointer to datediff.
CREATE TABLE dates (dt DATE, n INT);
INSERT INTO dates VALUES (DATE '2024-02-28', 2), (DATE '2024-12-31', NULL), (NULL, 1);
-- Spark: 2024-02-29, 2024-03-01, 2024-02-27, 2024-03-01, 2024-01-29, 308 | 2025-01-01, NULL, ... | NULLs.
-- (Spark names `dt + 1` date_add(dt, 1); cpaimon names it as written, (dt + 1).)
SELECT dt, dt + 1, dt + n, dt - 1, date_add(dt, 2), date_sub(dt, 30), datediff(DATE '2025-01-01', dt) FROM dates ORDER BY dt;
SELECT DATE '2024-03-01' - DATE '2024-01-01';
-- count(DISTINCT a, b): distinct tuples with no NULL; FILTER (WHERE ...) on aggregates.
CREATE TABLE agg2 (id INT, s STRING, g STRING);
INSERT INTO agg2 VALUES (1, 'x', 'p'), (2, 'y', 'p'), (3, 'x', 'q'), (NULL, 'x', 'q'), (3, 'x', 'q');
-- Spark: 3, 3, 4, 8, 2.
SELECT count(DISTINCT id, s), count(DISTINCT s, g), count(*) FILTER (WHERE s = 'x'), sum(id) FILTER (WHERE id > 1),
  count(DISTINCT id) FILTER (WHERE s = 'x') FROM agg2;
-- Spark: p 1 2, q 3 3.
SELECT g, count(*) FILTER (WHERE s = 'x') AS cx, count(*) AS c FROM agg2 GROUP BY g ORDER BY g;
-- Tuple IN: row values compared field by field, NULL equal to NULL (Spark's struct equality).
-- Spark: 2/p and the two 3/q rows.
SELECT id, g FROM agg2 WHERE (id, g) IN ((3, 'q'), (2, 'p')) ORDER BY id;
-- Spark: true for the NULL row only.
SELECT id, (id, s) IN ((NULL, 'x')) AS hit FROM agg2 ORDER BY id;
-- concat() of no argument is the empty string.
SELECT concat(), concat('a'), length(concat());
-- Item 9: assignments. Spark with the Paimon connector stores '7' into INT and '2024-01-01' into
-- DATE; a string that does not parse fails. Deliberate differences: where Spark loses data
-- silently (2147483648 into INT, 123456789.0 into DECIMAL(10,2)) cpaimon fails the statement.
CREATE TABLE assign (id INT, d DATE, b BOOLEAN, x DECIMAL(10,2)) TBLPROPERTIES ('row-tracking.enabled' = 'true');
INSERT INTO assign VALUES ('7', '2024-01-01', 'true', '1.25');
UPDATE assign SET d = '2025-05-05', id = ' 8 ' WHERE id = 7;
-- Spark: (8, 2025-05-05, true, 1.25).
SELECT * FROM assign;
INSERT INTO assign VALUES ('7a', NULL, NULL, NULL);
INSERT INTO assign VALUES (2147483648, NULL, NULL, NULL);
INSERT INTO assign VALUES (1, NULL, NULL, 123456789.0);
SELECT count(*) FROM assign;
