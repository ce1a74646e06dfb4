-- Seed 003 (row tracking): the Spark SQL walk-through, as documented.
CREATE TABLE t (id INT, data STRING) TBLPROPERTIES ('row-tracking.enabled' = 'true');
INSERT INTO t VALUES (11, 'a'), (22, 'b');

SELECT id, data, _ROW_ID, _SEQUENCE_NUMBER FROM t;

UPDATE t SET data = 'new-data-update' WHERE id = 11;
SELECT id, data, _ROW_ID, _SEQUENCE_NUMBER FROM t;

-- The source table s of the MERGE: (22, 'new-data-merge') and (33, 'c').
CREATE TABLE s (id INT, data STRING);
INSERT INTO s VALUES (22, 'new-data-merge'), (33, 'c');

MERGE INTO t USING s
ON t.id = s.id
WHEN MATCHED THEN UPDATE SET t.data = s.data
WHEN NOT MATCHED THEN INSERT *;
SELECT id, data, _ROW_ID, _SEQUENCE_NUMBER FROM t;

DELETE FROM t WHERE id = 11;
SELECT id, data, _ROW_ID, _SEQUENCE_NUMBER FROM t;
