-- BLOB columns in SQL (docs/blob.md): INSERT VALUES with binary literals and NULL, INSERT SELECT
-- into another BLOB table, UPDATE and MERGE INTO of the BLOB column and of a column beside it,
-- length() and substring() of BLOB values, the `$files` of the `.blob` files, and the errors.
CREATE TABLE t (id INT, tag STRING, pic BLOB)
TBLPROPERTIES ('row-tracking.enabled' = 'true', 'data-evolution.enabled' = 'true');
INSERT INTO t VALUES (1, 'a', X'0102'), (2, 'b', NULL), (3, 'c', X'');
INSERT INTO t VALUES (4, 'd', X'CAFEBABE');
SELECT id, tag, pic, length(pic), substring(pic, 2, 2), _ROW_ID, _SEQUENCE_NUMBER FROM t ORDER BY id;
UPDATE t SET pic = X'FF' WHERE id = 2;
UPDATE t SET pic = NULL, tag = 'dd' WHERE id = 4;
SELECT id, tag, pic, _ROW_ID FROM t ORDER BY id;
CREATE TABLE u (id INT, img BLOB)
TBLPROPERTIES ('row-tracking.enabled' = 'true', 'data-evolution.enabled' = 'true');
INSERT INTO u SELECT id, pic FROM t WHERE id < 3;
MERGE INTO u USING t ON u.id = t.id
WHEN MATCHED THEN UPDATE SET img = t.pic;
SELECT id, img FROM u ORDER BY id;
SELECT count(*), sum(record_count) FROM `u$files` WHERE file_path LIKE '%.blob';
INSERT INTO t VALUES (5, 'e', 42);
INSERT INTO t (pic) VALUES (X'01');
SELECT count(*) FROM t;
