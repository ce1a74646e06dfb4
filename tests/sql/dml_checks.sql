-- UPDATE / DELETE / MERGE INTO: the checks made before any row changes (spec/data-evolution.md
-- §3.8: Spark's rules for row-tracking and data-evolution tables), and MERGE INTO with only
-- WHEN NOT MATCHED clauses, which only inserts and runs today.
CREATE TABLE plain (id INT, v STRING);
CREATE TABLE rt (id INT, v STRING, dt STRING) PARTITIONED BY (dt)
  TBLPROPERTIES ('row-tracking.enabled' = 'true');
CREATE TABLE de (id INT, v STRING, dt STRING) PARTITIONED BY (dt)
  TBLPROPERTIES ('row-tracking.enabled' = 'true', 'data-evolution.enabled' = 'true');
CREATE TABLE src (id INT, v STRING, extra INT);
INSERT INTO rt VALUES (1, 'a', 'p'), (2, 'b', 'p');
INSERT INTO de VALUES (1, 'a', 'p'), (2, 'b', 'p');
INSERT INTO src VALUES (2, 'B', 0), (3, 'C', 0), (3, 'C2', 1);
UPDATE plain SET v = 'x';
DELETE FROM plain WHERE id = 1;
UPDATE rt SET _ROW_ID = 5;
UPDATE rt SET nope = 1;
UPDATE rt SET v = 'x', v = 'y';
UPDATE rt SET v = 'x' WHERE nope = 1;
UPDATE rt SET id = 'not a number';
UPDATE rt SET v = 'x' WHERE id;
UPDATE rt AS r SET q.v = 'x';
UPDATE de SET dt = 'q';
DELETE FROM de WHERE id = 1;
DELETE FROM rt WHERE count(*) > 1;
MERGE INTO de USING src ON de.id = src.id WHEN MATCHED THEN DELETE;
MERGE INTO de USING src ON de.id = src.id WHEN MATCHED THEN UPDATE SET dt = src.v;
MERGE INTO de USING src ON de.id = src.id WHEN NOT MATCHED BY SOURCE THEN UPDATE SET v = 'gone';
MERGE INTO rt t USING src s ON t.id = s.id WHEN NOT MATCHED THEN INSERT (id, v) VALUES (t.id, s.v);
MERGE INTO rt t USING src s ON t.id = s.id WHEN NOT MATCHED THEN INSERT (id, v) VALUES (s.id);
MERGE INTO rt t USING (SELECT id FROM src) s ON t.id = s.id WHEN NOT MATCHED THEN INSERT *;
MERGE INTO rt t USING src s ON t.id = s.id WHEN NOT MATCHED THEN INSERT (id, v, dt) VALUES (s.id, s.extra, 'p');
MERGE INTO rt t USING src s ON t.id = s.id WHEN NOT MATCHED THEN INSERT (id, v, dt) VALUES (s.id, s.v, 'q');
SELECT id, v, dt, _SEQUENCE_NUMBER FROM rt ORDER BY id, v;
MERGE INTO rt t USING (SELECT id * 10 AS id, v FROM src WHERE extra = 0) s ON t.id = s.id
  WHEN NOT MATCHED AND s.id > 20 THEN INSERT (id, v, dt) VALUES (s.id, concat(s.v, '!'), 'r')
  WHEN NOT MATCHED THEN INSERT (id, v, dt) VALUES (s.id, s.v, 's');
SELECT id, v, dt, _SEQUENCE_NUMBER FROM rt ORDER BY id, v;
