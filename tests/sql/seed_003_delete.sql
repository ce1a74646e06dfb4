-- Seed 003: DELETE by a column condition after the UPDATE and MERGE.
CREATE TABLE t (id INT, data STRING) TBLPROPERTIES ('row-tracking.enabled' = 'true');
INSERT INTO t VALUES (11, 'a'), (22, 'b');
SELECT id, data, _ROW_ID, _SEQUENCE_NUMBER FROM t;
UPDATE t SET data = 'new-data-update' WHERE id = 11;
CREATE TABLE s (id INT, data STRING);
INSERT INTO s VALUES (22, 'new-data-merge'), (33, 'c');
MERGE INTO t USING s
ON t.id = s.id
WHEN MATCHED THEN UPDATE SET t.data = s.data
WHEN NOT MATCHED THEN INSERT *;
SELECT id, data, _ROW_ID, _SEQUENCE_NUMBER FROM t;
DELETE FROM t WHERE id = 11;
SELECT id, data, _ROW_ID, _SEQUENCE_NUMBER FROM t;
