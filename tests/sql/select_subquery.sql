-- Subqueries in FROM, nested, with and without aliases; time travel with VERSION AS OF.
CREATE TABLE t (id INT, v STRING) TBLPROPERTIES ('row-tracking.enabled' = 'true');
INSERT INTO t VALUES (1, 'one'), (2, 'two');
INSERT INTO t VALUES (3, 'three');
SELECT * FROM (SELECT id * 10 AS x, v FROM t WHERE id > 1) s WHERE s.x < 40;
SELECT x FROM (SELECT id AS x FROM (SELECT id FROM t) inner_q) outer_q ORDER BY x DESC;
SELECT * FROM (SELECT count(*) AS n, max(id) AS top FROM t);
SELECT s.id, s._ROW_ID FROM (SELECT id, _ROW_ID FROM t) s ORDER BY s.id;
SELECT id, v, _ROW_ID, _SEQUENCE_NUMBER FROM t VERSION AS OF 1;
SELECT count(*) FROM t VERSION AS OF 2;
SELECT count(*) FROM t FOR SYSTEM_VERSION AS OF 1;
SELECT a.id, b.id FROM t VERSION AS OF 1 a JOIN t b ON a.id = b.id;
SELECT * FROM t VERSION AS OF 9;
SELECT y FROM (SELECT id AS x FROM t) s;
