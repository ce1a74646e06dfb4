-- ORDER BY (ASC / DESC, NULLS FIRST / LAST with Spark's defaults), ordinals, aliases, sorting
-- by unselected expressions, LIMIT, DISTINCT.
CREATE TABLE t (id INT, grp STRING, v DOUBLE);
INSERT INTO t VALUES (1, 'b', 2.0), (2, 'a', NULL), (3, NULL, 1.0), (4, 'a', 3.5), (5, 'b', -0.0),
  (6, 'c', CAST('NaN' AS DOUBLE));
SELECT id, v FROM t ORDER BY v;
SELECT id, v FROM t ORDER BY v DESC;
SELECT id, v FROM t ORDER BY v ASC NULLS LAST;
SELECT id, v FROM t ORDER BY v DESC NULLS FIRST;
SELECT grp, id FROM t ORDER BY grp, id DESC;
SELECT grp AS g, id FROM t ORDER BY g DESC, 2;
SELECT id FROM t ORDER BY v * -1;
SELECT id FROM t ORDER BY grp NULLS LAST, id LIMIT 3;
SELECT id FROM t ORDER BY id LIMIT 0;
SELECT id FROM t LIMIT 100;
SELECT DISTINCT grp FROM t ORDER BY grp;
SELECT DISTINCT grp, v > 0 AS pos FROM t ORDER BY 1, 2;
SELECT grp, count(*) AS n FROM t GROUP BY grp ORDER BY n DESC, grp;
SELECT grp, count(*) FROM t GROUP BY grp ORDER BY max(id);
SELECT DISTINCT grp FROM t ORDER BY id;
SELECT id FROM t ORDER BY 3;
SELECT id FROM t LIMIT -1;
SELECT id FROM t LIMIT id;
