-- ALTER TABLE: ADD COLUMN(S), RENAME COLUMN, DROP COLUMN(S), SET / UNSET TBLPROPERTIES,
-- ALTER COLUMN ... COMMENT; rows written before a change read the new schema.
CREATE TABLE t (id INT NOT NULL, name STRING, age INT)
TBLPROPERTIES ('row-tracking.enabled' = 'true', 'data-evolution.enabled' = 'true');
INSERT INTO t VALUES (1, 'Alice', 30), (2, 'Bob', 25);
ALTER TABLE t ADD COLUMN embedding ARRAY<FLOAT> COMMENT 'model output';
ALTER TABLE t ADD COLUMNS (score DOUBLE, tag STRING);
DESCRIBE t;
SELECT * FROM t;
INSERT INTO t VALUES (3, 'Carol', 41, array(0.5, 1.5), 9.5, 'new');
SELECT id, name, embedding, score, tag, _ROW_ID FROM t;
ALTER TABLE t RENAME COLUMN name TO full_name;
ALTER TABLE t DROP COLUMN tag;
ALTER TABLE t ALTER COLUMN age COMMENT 'years';
DESCRIBE t;
SELECT * FROM t;
ALTER TABLE t SET TBLPROPERTIES ('owner' = 'analytics', 'note' = 'x');
ALTER TABLE t UNSET TBLPROPERTIES ('note');
ALTER TABLE t UNSET TBLPROPERTIES ('note');
ALTER TABLE t UNSET TBLPROPERTIES IF EXISTS ('note');
ALTER TABLE t ADD COLUMN required INT NOT NULL;
ALTER TABLE t DROP COLUMN missing;
ALTER TABLE t RENAME COLUMN missing TO other;
ALTER TABLE missing_table ADD COLUMN x INT;
ALTER TABLE t SET TBLPROPERTIES ('row-tracking.enabled' = 'false');
