-- Nested data (issue 20, item 12), Spark's semantics: st.x takes a ROW field (named x), a[i] is
-- 0-based and m[k] looks a key up (NULL when out of range or missing), element_at is 1-based
-- (negative from the end, 0 an error).
CREATE TABLE nt (id INT, st STRUCT<x: INT, y: STRUCT<z: STRING>>, arr ARRAY<INT>, m MAP<STRING, INT>);
INSERT INTO nt VALUES (1, named_struct('x', 5, 'y', named_struct('z', 'a')), array(1, 2, 3), map('k', 9)),
  (2, NULL, NULL, NULL), (3, named_struct('x', NULL, 'y', NULL), array(), map());
-- Spark: (1, 5, a, a), (2, NULL...), (3, NULL, NULL, NULL).
SELECT id, st.x, st.y.z, nt.st.y.z FROM nt ORDER BY id;
-- Spark: 1, 3, NULL, NULL, 9, NULL, 1, 3, 9 for id 1; NULLs otherwise.
SELECT id, arr[0], arr[2], arr[5], arr[-1], m['k'], m['nope'], element_at(arr, 1), element_at(arr, -1),
  element_at(m, 'k') FROM nt ORDER BY id;
-- In WHERE and GROUP BY.
SELECT id FROM nt WHERE st.x = 5 OR arr[1] = 2;
SELECT st.x IS NULL AS missing, count(*) FROM nt GROUP BY st.x IS NULL ORDER BY missing;
-- Errors.
SELECT st.nope FROM nt;
SELECT element_at(arr, 0) FROM nt;
SELECT id[0] FROM nt;
-- CAST of nested values to STRING, as Spark writes them: NULLs inside are "null".
-- Spark: [1, 2, 3] / {5, {a}} / {k -> 9} / [1, null]; NULL for the NULL row; [] / {null, null} / {}.
SELECT id, CAST(arr AS STRING), CAST(st AS STRING), CAST(m AS STRING), CAST(array(1, NULL) AS STRING) FROM nt ORDER BY id;
-- = and <> on whole ARRAY and ROW values (NULL if a side is NULL; MAPs are not comparable).
-- Spark: id 1 true / false / true; id 2 NULLs; id 3 false / true / true (NULL fields equal).
SELECT a.id, a.arr = array(1, 2, 3), a.arr <> array(1, 2, 3), a.st = b.st FROM nt a JOIN nt b ON a.id = b.id ORDER BY a.id;
SELECT id FROM nt WHERE arr = array(1, 2, 3);
SELECT m = m FROM nt;
-- A field of an element, a map value or a field of one (Spark: v[0].a, named `v[0].a`); NULL
-- where the element, value or row is missing or NULL.
CREATE TABLE nv (id INT, v ARRAY<STRUCT<a: INT, b: STRUCT<c: STRING>>>, mv MAP<STRING, STRUCT<p: INT>>);
INSERT INTO nv VALUES (1, array(named_struct('a', 1, 'b', named_struct('c', 'z')), NULL), map('k', named_struct('p', 5))),
  (2, NULL, NULL), (3, array(named_struct('a', NULL, 'b', NULL)), map('k', NULL));
-- Spark: (1, 1, z, NULL, NULL, 5, NULL), (2, NULL x6), (3, NULL, NULL, NULL, NULL, NULL, NULL).
SELECT id, v[0].a, v[0].b.c, v[1].a, v[5].a, mv['k'].p, mv['nope'].p FROM nv ORDER BY id;
SELECT id FROM nv WHERE v[0].a = 1;
SELECT mv['k'].p + 1 AS q, count(*) FROM nv GROUP BY mv['k'].p ORDER BY q;
SELECT v[0].nope FROM nv;
SELECT v[0].a.b FROM nv;
-- named_struct builds a ROW from name / value pairs anywhere (Spark: {1, x}, {NULL, [1, 2]}), also
-- of columns and nested values, and in UPDATE values; a wrong argument count or name is refused.
SELECT named_struct('a', 1, 'b', 'x') AS s, named_struct('n', NULL, 'v', array(1, 2)) AS t;
SELECT id, named_struct('k', id, 'v', v, 'p', mv['k'].p) AS w FROM nv ORDER BY id;
SELECT named_struct('a', 1, 'b');
SELECT named_struct(1, 2);
CREATE TABLE ns (id INT, r STRUCT<x: INT, y: STRING>) TBLPROPERTIES ('row-tracking.enabled' = 'true');
INSERT INTO ns VALUES (1, named_struct('x', 1, 'y', 'a')), (2, NULL);
INSERT INTO ns SELECT 3, named_struct('x', 3, 'y', 'c');
UPDATE ns SET r = named_struct('x', 5, 'y', r.y) WHERE id = 1;
UPDATE ns SET r = named_struct('x', 9, 'y', 'n') WHERE r IS NULL;
-- Spark: (1, {5, a}), (2, {9, n}), (3, {3, c}).
SELECT * FROM ns ORDER BY id;
UPDATE ns SET r = named_struct('x', 1);
-- Assigning fields nested in a ROW column (Spark's nested assignments): the other fields keep
-- their values, a NULL row becomes a row with NULL elsewhere; in MERGE too.
CREATE TABLE na2 (id INT, r STRUCT<x: INT, y: STRING, z: STRUCT<u: INT, w: STRING>>)
  TBLPROPERTIES ('row-tracking.enabled' = 'true', 'data-evolution.enabled' = 'true');
INSERT INTO na2 VALUES (1, named_struct('x', 1, 'y', 'a', 'z', named_struct('u', 10, 'w', 'p'))), (2, NULL);
UPDATE na2 SET r.x = 7 WHERE id = 1;
UPDATE na2 SET na2.r.z.w = 'q', R.Y = 'b';
-- Spark: (1, {7, b, {10, q}}), (2, {NULL, b, {NULL, q}}).
SELECT * FROM na2 ORDER BY id;
CREATE TABLE na2src (id INT, v INT);
INSERT INTO na2src VALUES (1, 100), (2, 200);
MERGE INTO na2 t USING na2src s ON t.id = s.id
  WHEN MATCHED AND s.id = 1 THEN UPDATE SET t.r.z.u = s.v, r.x = s.v + 1
  WHEN MATCHED THEN UPDATE SET r.y = 'm';
-- Spark: (1, {101, b, {100, q}}), (2, {NULL, m, {NULL, q}}).
SELECT * FROM na2 ORDER BY id;
UPDATE na2 SET r.nope = 1;
UPDATE na2 SET r.x = 1, r.x = 2;
UPDATE na2 SET r.x = 1, r = NULL;
