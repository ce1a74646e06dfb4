-- Time travel reads a snapshot with the schema it was written with (Java's scan.snapshot-id):
-- columns added later are absent, renamed columns have their old names, dropped columns are back.
CREATE TABLE t (id INT NOT NULL, name STRING, age INT)
TBLPROPERTIES ('row-tracking.enabled' = 'true', 'data-evolution.enabled' = 'true');
INSERT INTO t VALUES (1, 'Alice', 30), (2, 'Bob', 25);
ALTER TABLE t ADD COLUMN city STRING;
INSERT INTO t VALUES (3, 'Carol', 41, 'Oslo');
ALTER TABLE t RENAME COLUMN name TO full_name;
UPDATE t SET city = 'Rome' WHERE id = 1;
ALTER TABLE t DROP COLUMN age;
INSERT INTO t VALUES (4, 'Dan', 'Lima');
ALTER TABLE t SET TBLPROPERTIES ('owner' = 'analytics');
SELECT *, _ROW_ID, _SEQUENCE_NUMBER FROM t VERSION AS OF 1 ORDER BY id;
SELECT *, _ROW_ID, _SEQUENCE_NUMBER FROM t VERSION AS OF 2 ORDER BY id;
SELECT *, _ROW_ID, _SEQUENCE_NUMBER FROM t VERSION AS OF 3 ORDER BY id;
SELECT *, _ROW_ID, _SEQUENCE_NUMBER FROM t VERSION AS OF 4 ORDER BY id;
SELECT *, _ROW_ID, _SEQUENCE_NUMBER FROM t ORDER BY id;
SELECT name, age FROM t VERSION AS OF 2 WHERE name > 'B' ORDER BY name;
SELECT full_name FROM t VERSION AS OF 2;
SELECT city FROM t VERSION AS OF 1;
SELECT age FROM t;
SELECT a.id, a.name, b.full_name, b.city FROM t VERSION AS OF 1 a JOIN t b ON a.id = b.id ORDER BY a.id;
SELECT count(*) FROM t VERSION AS OF 5;
