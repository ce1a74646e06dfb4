-- Seed 003: UPDATE by a column condition; the expected table is the seed's.
CREATE TABLE t (id INT, data STRING) TBLPROPERTIES ('row-tracking.enabled' = 'true');
INSERT INTO t VALUES (11, 'a'), (22, 'b');
SELECT id, data, _ROW_ID, _SEQUENCE_NUMBER FROM t;
UPDATE t SET data = 'new-data-update' WHERE id = 11;
SELECT id, data, _ROW_ID, _SEQUENCE_NUMBER FROM t;
