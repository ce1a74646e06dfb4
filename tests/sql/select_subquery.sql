-- Subqueries (issue 20, item 10): uncorrelated ones anywhere in an expression, correlated
-- [NOT] EXISTS / [NOT] IN in WHERE (of SELECT, UPDATE and DELETE) as semi / anti joins. Expected
-- rows follow Spark 3.5's semantics (three-valued IN, null-aware NOT IN), noted per statement.
CREATE TABLE a (id INT, v STRING) TBLPROPERTIES ('row-tracking.enabled' = 'true');
CREATE TABLE b (k INT, w DOUBLE);
INSERT INTO a VALUES (1, 'x'), (2, 'y'), (3, NULL), (NULL, 'n');
INSERT INTO b VALUES (2, 1.5), (3, 2.5), (3, 3.5), (NULL, 9.0);
-- Spark: 2, 3.
SELECT id FROM a WHERE id IN (SELECT k FROM b) ORDER BY id;
-- Spark: no row (b.k holds a NULL, so NOT IN is never TRUE).
SELECT id FROM a WHERE id NOT IN (SELECT k FROM b);
-- Spark: 1 (NULL k left out).
SELECT id FROM a WHERE id NOT IN (SELECT k FROM b WHERE k IS NOT NULL) ORDER BY id;
-- Spark: every row, NULL id too (NOT IN over no row is TRUE).
SELECT id FROM a WHERE id NOT IN (SELECT k FROM b WHERE w > 100) ORDER BY id;
-- Spark: NULL for ids NULL and 1 (IN over a set holding NULL is NULL, not false), true for 2, 3.
SELECT id, id IN (SELECT k FROM b) FROM a ORDER BY id;
-- Scalar subqueries: 9.0 in every row; and 3 for the count.
SELECT id, (SELECT max(w) FROM b) AS m, (SELECT count(*) FROM b WHERE w > 2) FROM a ORDER BY id;
-- Spark: 2 (= against a scalar subquery).
SELECT id FROM a WHERE id = (SELECT min(k) FROM b);
-- Spark: NULL (a scalar subquery over no row).
SELECT (SELECT k FROM b WHERE w > 100);
-- Spark: true, false.
SELECT EXISTS (SELECT 1 FROM b WHERE w > 3), EXISTS (SELECT 1 FROM b WHERE w > 100);
-- Nested: Spark 3.
SELECT id FROM a WHERE id IN (SELECT k FROM b WHERE k IN (SELECT 3));
-- Errors: Spark's.
SELECT (SELECT k FROM b);
SELECT (SELECT k, w FROM b);
-- Correlated EXISTS: Spark 2, 3.
SELECT id FROM a WHERE EXISTS (SELECT * FROM b WHERE b.k = a.id) ORDER BY id;
-- Spark: NULL, 1.
SELECT id FROM a WHERE NOT EXISTS (SELECT * FROM b WHERE b.k = a.id) ORDER BY id;
-- Spark: 3 (the inner condition w > 3 filters b first).
SELECT id FROM a WHERE EXISTS (SELECT * FROM b WHERE b.k = a.id AND w > 3) ORDER BY id;
-- With an alias and another conjunct: Spark 2, 3.
SELECT id FROM a x WHERE id > 1 AND EXISTS (SELECT 1 FROM b WHERE k = x.id) ORDER BY id;
-- Correlated IN: Spark 3.
SELECT id FROM a WHERE id IN (SELECT k FROM b WHERE w > a.id) ORDER BY id;
-- Correlated NOT IN (null-aware): Spark NULL, 1.
SELECT id FROM a WHERE id NOT IN (SELECT k FROM b WHERE w < a.id + 1) ORDER BY id;
-- Not supported (yet): a correlated subquery with an aggregate.
SELECT id FROM a WHERE EXISTS (SELECT max(w) FROM b WHERE b.k = a.id);
-- UPDATE and DELETE with correlated conditions: Spark leaves (2, y), (3, hit).
UPDATE a SET v = 'hit' WHERE EXISTS (SELECT 1 FROM b WHERE b.k = a.id AND b.w > 3);
DELETE FROM a WHERE NOT EXISTS (SELECT 1 FROM b WHERE b.k = a.id);
SELECT id, v FROM a ORDER BY id;
-- DELETE with an uncorrelated IN: Spark leaves (3, hit).
DELETE FROM a WHERE id IN (SELECT k FROM b WHERE w < 2);
SELECT id, v, _ROW_ID FROM a;
-- MERGE from a subquery source using a subquery condition.
MERGE INTO a USING (SELECT DISTINCT k, 'merged' AS v FROM b WHERE k IN (SELECT max(k) FROM b)) s ON a.id = s.k
  WHEN MATCHED THEN UPDATE SET v = s.v;
SELECT id, v FROM a;
