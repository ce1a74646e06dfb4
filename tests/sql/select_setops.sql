-- UNION / EXCEPT / INTERSECT [ALL | DISTINCT] and WITH (common table expressions), as Spark:
-- columns widen to a common type and take the left side's names, NULLs compare equal, ORDER BY
-- and LIMIT after a set operation apply to its result. tests/python/test_sql_setops.py checks
-- the same operations against DuckDB on random data.
CREATE TABLE a (id INT, name STRING) TBLPROPERTIES ('row-tracking.enabled' = 'true');
CREATE TABLE b (id BIGINT, name STRING);
INSERT INTO a VALUES (1, 'x'), (2, 'y'), (2, 'y'), (3, NULL);
INSERT INTO b VALUES (2, 'y'), (3, NULL), (4, 'z'), (4, 'z');
SELECT * FROM a UNION ALL SELECT * FROM b ORDER BY id, name;
SELECT * FROM a UNION SELECT * FROM b ORDER BY 1;
SELECT * FROM a UNION DISTINCT SELECT * FROM b;
SELECT * FROM a INTERSECT SELECT * FROM b;
SELECT * FROM a INTERSECT ALL SELECT * FROM a;
SELECT * FROM a EXCEPT SELECT * FROM b;
SELECT * FROM a EXCEPT ALL SELECT * FROM b;
SELECT * FROM a MINUS SELECT * FROM b;
-- INTERSECT binds tighter than UNION and EXCEPT; the rest group from the left.
SELECT id FROM a UNION SELECT id FROM b INTERSECT SELECT 4 ORDER BY id;
SELECT id FROM b EXCEPT SELECT id FROM a UNION SELECT 1 ORDER BY id;
SELECT id FROM b EXCEPT (SELECT id FROM a UNION SELECT 4) ORDER BY id;
-- Types widen: INT and BIGINT meet at BIGINT, numbers and strings at STRING.
SELECT id FROM a UNION ALL SELECT id FROM b ORDER BY id DESC LIMIT 3;
SELECT name FROM a UNION SELECT id FROM b ORDER BY name;
SELECT 1 AS one UNION ALL SELECT 2.5 UNION ALL SELECT NULL ORDER BY one;
-- Each side keeps its own ORDER BY / LIMIT inside parentheses.
(SELECT id FROM a ORDER BY id DESC LIMIT 2) UNION ALL (SELECT id FROM b ORDER BY id LIMIT 1) ORDER BY id;
SELECT * FROM (SELECT id FROM a UNION SELECT id FROM b) u WHERE u.id > 1 ORDER BY id;
-- WITH: later CTEs and the body see earlier ones; a CTE hides a table of the same name.
WITH big AS (SELECT id, name FROM a WHERE id > 1), tens AS (SELECT id * 10 AS t FROM big)
SELECT t FROM tens UNION SELECT id FROM big ORDER BY t DESC LIMIT 3;
WITH b AS (SELECT 'shadow' AS name) SELECT * FROM b;
WITH c AS (SELECT id, count(*) AS n FROM a GROUP BY id) SELECT x.id, x.n, y.n FROM c x JOIN c y ON x.id = y.id ORDER BY x.id;
SELECT * FROM (WITH q AS (SELECT 7 AS v) SELECT v FROM q) s;
INSERT INTO a WITH s AS (SELECT 9 AS id, 'n' AS name) SELECT * FROM s UNION ALL SELECT 10, 'm';
SELECT id, name, _ROW_ID FROM a ORDER BY _ROW_ID;
-- Errors.
SELECT id FROM a UNION SELECT id, name FROM b;
SELECT name FROM a EXCEPT SELECT id > 1 FROM b;
WITH x AS (SELECT 1 AS q), x AS (SELECT 2 AS q) SELECT * FROM x;
WITH x AS (SELECT 1 AS q) SELECT * FROM x VERSION AS OF 1;
WITH x (q) AS (SELECT 1) SELECT * FROM x;
WITH RECURSIVE x AS (SELECT 1 AS q) SELECT * FROM x;
SELECT id FROM a UNION;
