-- options: --truncate 0
-- Partition management: SHOW PARTITIONS, ALTER TABLE ... DROP [IF EXISTS] PARTITION (...), TRUNCATE TABLE
-- [PARTITION (...)]: each one OVERWRITE snapshot; rows keep their row ids; and the errors.
CREATE TABLE t (id INT, dt STRING, h INT) PARTITIONED BY (dt, h) TBLPROPERTIES ('row-tracking.enabled' = 'true');
INSERT INTO t VALUES (1, 'a', 1), (2, 'a', 2), (3, 'b', 1), (4, 'b', 2), (5, NULL, 1), (6, 'c', 3);
SHOW PARTITIONS t;
ALTER TABLE t DROP PARTITION (dt = 'a', h = 1), PARTITION (dt = 'c');
SELECT id, _ROW_ID FROM t ORDER BY id;
ALTER TABLE t DROP IF EXISTS PARTITION (dt = 'zz');
TRUNCATE TABLE t PARTITION (h = 2);
SELECT id FROM t ORDER BY id;
SHOW PARTITIONS t;
TRUNCATE TABLE t;
SELECT count(*) FROM t;
SELECT commit_kind FROM `t$snapshots`;
ALTER TABLE t DROP PARTITION (id = 1);
ALTER TABLE t DROP PARTITION (h);
TRUNCATE TABLE t PARTITION (h = 'x');
CREATE TABLE u (x INT);
SHOW PARTITIONS u;
ALTER TABLE t ADD PARTITION (dt = 'x');
TRUNCATE t;
