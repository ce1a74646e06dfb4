-- ALTER TABLE on nested columns, as Spark names them (r.x, v.element.a, m.value.p; names match
-- case-insensitively): ADD COLUMNS with FIRST / AFTER among the siblings, RENAME COLUMN, DROP
-- COLUMN(S), ALTER COLUMN ... TYPE / COMMENT / DROP NOT NULL. Older files are read by field id:
-- a renamed field keeps its values, a dropped and re-added one is NULL in older rows.
CREATE TABLE t (id INT, r STRUCT<x: INT, y: STRING>, v ARRAY<STRUCT<a: INT>>,
                m MAP<STRING, STRUCT<p: INT>>);
INSERT INTO t VALUES (1, named_struct('x', 10, 'y', 'a'), array(named_struct('a', 1)),
                      map('k', named_struct('p', 5)));
ALTER TABLE t ADD COLUMNS (r.z STRING COMMENT 'zc' FIRST, V.Element.b BIGINT AFTER a);
ALTER TABLE t RENAME COLUMN R.X TO x2;
ALTER TABLE t DROP COLUMN r.y;
ALTER TABLE t ADD COLUMN r.y STRING;
ALTER TABLE t ALTER COLUMN v.element.a TYPE BIGINT;
ALTER TABLE t ALTER COLUMN m.value.p COMMENT 'pc';
SELECT r, r.x2, r.y, v, m FROM t;
INSERT INTO t VALUES (2, named_struct('z', 'new', 'x2', 20, 'y', 'b'),
                      array(named_struct('a', 2, 'b', 3)), map('j', named_struct('p', 6)));
SELECT id, r, v, m FROM t ORDER BY id;
SELECT * FROM t WHERE r.x2 = 10;
-- errors: the schema stays as it was
ALTER TABLE t DROP COLUMNS (r.nope);
ALTER TABLE t RENAME COLUMN r.x2 TO z;
ALTER TABLE t ADD COLUMN v.items.q INT;
ALTER TABLE t ADD COLUMN id.q INT;
ALTER TABLE t ALTER COLUMN v.element.b SET NOT NULL;
ALTER TABLE t ALTER COLUMN r.x2 FIRST;
ALTER TABLE t ALTER COLUMN r.y TYPE INT;
ALTER TABLE t ADD COLUMN m.value.p2 INT AFTER nope;
SELECT id, r FROM t ORDER BY id;
