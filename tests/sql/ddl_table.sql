-- options: --truncate 0
-- CREATE TABLE with Spark and Paimon type names, NOT NULL, comments, partitions, properties;
-- DESCRIBE [EXTENDED]; DROP TABLE; and the catalog's errors.
CREATE TABLE types (
  b BOOLEAN, i8 TINYINT, i8b BYTE, i16 SMALLINT, i16b SHORT, i32 INT NOT NULL, i32b INTEGER,
  i64 BIGINT, i64b LONG, f FLOAT, f2 REAL, d DOUBLE, dec DECIMAL(20, 4), dec_default DECIMAL,
  s STRING COMMENT 'a string', c CHAR(3), vc VARCHAR(12), bin BINARY, bin4 BINARY(4),
  vb VARBINARY(9), bytes_col BYTES, dt DATE, tm TIME, ts TIMESTAMP, ts_ntz TIMESTAMP_NTZ,
  ts3 TIMESTAMP(3), ltz TIMESTAMP_LTZ(3), arr ARRAY<FLOAT>, m MAP<STRING, ARRAY<INT>>,
  st STRUCT<x: INT, y STRING COMMENT 'why'>, r ROW<a BIGINT>
) COMMENT 'all types';
DESCRIBE types;
CREATE TABLE part_t (f0 INT, f1 STRING, dt STRING) PARTITIONED BY (dt)
WITH ('row-tracking.enabled' = 'true');
DESCRIBE EXTENDED part_t;
CREATE TABLE part_t (x INT);
CREATE TABLE IF NOT EXISTS part_t (x INT);
CREATE TABLE bad_part (a INT) PARTITIONED BY (b);
CREATE TABLE dup (a INT, A STRING);
CREATE TABLE no_db.t (a INT);
CREATE TABLE rt_pk (id INT, _ROW_ID BIGINT) TBLPROPERTIES ('row-tracking.enabled' = 'true');
CREATE TABLE de_only (id INT) TBLPROPERTIES ('data-evolution.enabled' = 'true');
DROP TABLE part_t;
DROP TABLE part_t;
DROP TABLE IF EXISTS part_t;
DESCRIBE part_t;
SHOW TABLES;
-- ALTER TABLE ... RENAME TO: within the database (one-part name) or into another; the table keeps
-- its rows and row ids; a taken name, a missing table or database, a system table are refused.
CREATE TABLE ren (id INT) TBLPROPERTIES ('row-tracking.enabled' = 'true');
INSERT INTO ren VALUES (1), (2);
ALTER TABLE ren RENAME TO ren2;
SELECT id, _ROW_ID FROM ren2;
CREATE DATABASE other;
ALTER TABLE default.ren2 RENAME TO other.ren3;
SELECT * FROM other.ren3;
CREATE TABLE taken (x INT);
ALTER TABLE other.ren3 RENAME TO default.taken;
ALTER TABLE ren RENAME TO ren4;
ALTER TABLE other.ren3 RENAME TO no_db.ren4;
ALTER TABLE other.`ren3$files` RENAME TO ren5;
SHOW TABLES IN other;
