-- INSERT OVERWRITE, Spark's static partition-overwrite mode: the partitions named by the static
-- PARTITION values are replaced (the whole table without any); new rows get fresh row ids.
CREATE TABLE events (id INT, v STRING, dt STRING, hr INT) PARTITIONED BY (dt, hr)
  TBLPROPERTIES ('row-tracking.enabled' = 'true');
INSERT INTO events VALUES (1, 'a', 'd1', 1), (2, 'b', 'd1', 2), (3, 'c', 'd2', 1), (4, 'd', 'd2', 2);
-- one level of the partition tree: both hours of d1 go, hr comes from the rows
INSERT OVERWRITE events PARTITION (dt = 'd1') VALUES (10, 'x', 5);
SELECT *, _ROW_ID, _SEQUENCE_NUMBER FROM events ORDER BY id;
-- a fully static spec: only d2/hr=1
INSERT OVERWRITE TABLE events PARTITION (dt = 'd2', hr = 1) VALUES (20, 'y');
SELECT *, _ROW_ID, _SEQUENCE_NUMBER FROM events ORDER BY id;
-- a query producing no rows still empties the partition
INSERT OVERWRITE events PARTITION (dt = 'd2') SELECT id, v, hr FROM events WHERE id < 0;
SELECT *, _ROW_ID FROM events ORDER BY id;
-- from a query over the table itself (read before the overwrite)
INSERT OVERWRITE events PARTITION (dt = 'd1') SELECT id + 1, upper(v), hr FROM events WHERE dt = 'd1';
SELECT *, _ROW_ID, _SEQUENCE_NUMBER FROM events ORDER BY id;
-- no PARTITION clause: the whole table, whatever partitions the rows fall in
INSERT OVERWRITE events VALUES (30, 'z', 'd3', 1), (31, 'w', 'd4', 1);
SELECT *, _ROW_ID, _SEQUENCE_NUMBER FROM events ORDER BY id;
-- an explicit column list with a static partition
INSERT OVERWRITE events PARTITION (dt = 'd3', hr = 1) (v, id) VALUES ('q', 40);
SELECT *, _ROW_ID FROM events ORDER BY id;
-- errors change nothing
INSERT OVERWRITE events PARTITION (v = 'x') VALUES (1, 'd1', 1);
INSERT OVERWRITE events PARTITION (dt = 'd1') VALUES (1, 'a');
INSERT OVERWRITE events PARTITION (dt = 'd1', hr = 'not a number') VALUES (1, 'a');
SELECT *, _ROW_ID FROM events ORDER BY id;

-- an unpartitioned table with typed partition-free columns, and a DATE-partitioned one
CREATE TABLE plain (id BIGINT, score DOUBLE) TBLPROPERTIES ('row-tracking.enabled' = 'true');
INSERT INTO plain VALUES (1, 1.5), (2, 2.5);
INSERT OVERWRITE plain SELECT id * 10, score * 2 FROM plain;
SELECT *, _ROW_ID, _SEQUENCE_NUMBER FROM plain ORDER BY id;
CREATE TABLE daily (id INT, d DATE, amount DECIMAL(10, 2)) PARTITIONED BY (d);
INSERT INTO daily VALUES (1, DATE '2026-11-01', 1.25), (2, DATE '2026-11-02', 2.50);
INSERT OVERWRITE daily PARTITION (d = '2026-11-02') VALUES (3, 9.99);
SELECT * FROM daily ORDER BY id;

-- a data-evolution table: the replaced rows' ids are not reused
CREATE TABLE feats (id INT, f1 DOUBLE, f2 STRING) TBLPROPERTIES (
  'row-tracking.enabled' = 'true', 'data-evolution.enabled' = 'true');
INSERT INTO feats VALUES (1, 0.1, 'a'), (2, 0.2, 'b');
UPDATE feats SET f2 = 'B' WHERE id = 2;
INSERT OVERWRITE feats VALUES (3, 0.3, 'c');
SELECT *, _ROW_ID, _SEQUENCE_NUMBER FROM feats ORDER BY id;
UPDATE feats SET f1 = 3.3 WHERE id = 3;
SELECT *, _ROW_ID, _SEQUENCE_NUMBER FROM feats ORDER BY id;
