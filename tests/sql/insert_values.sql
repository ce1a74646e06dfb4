-- INSERT ... VALUES: store assignment to the column types, column lists, NULL for missing
-- columns, nested values, static partitions, and the errors Spark gives.
CREATE TABLE t (id INT NOT NULL, name STRING, score DOUBLE, price DECIMAL(6, 2), day DATE,
  flag BOOLEAN, tiny TINYINT)
TBLPROPERTIES ('row-tracking.enabled' = 'true');
INSERT INTO t VALUES (1, 'a', 1, 1.005, DATE '2024-02-29', true, 1);
INSERT INTO t VALUES (2, 'b', 2.5, 12, NULL, false, -128), (3, 'c', 1e2, 0.5, DATE '1999-12-31', NULL, 127);
INSERT INTO t (id, name) VALUES (4, 'only name');
INSERT INTO t (name, id) VALUES ('swapped', 5);
INSERT INTO TABLE t (id) VALUES 6, 7;
SELECT *, _ROW_ID, _SEQUENCE_NUMBER FROM t ORDER BY id;
INSERT INTO t VALUES (NULL, 'x', 1, 1, NULL, NULL, NULL);
INSERT INTO t (name) VALUES ('no id');
INSERT INTO t VALUES ('8', 'x', 1, 1, NULL, NULL, NULL);
INSERT INTO t VALUES (8, 'x', 1, 1, 'not a date', NULL, NULL);
INSERT INTO t VALUES (8, 'x');
INSERT INTO t VALUES (8, 'x', 1, 1, NULL, NULL, NULL, 'extra');
INSERT INTO t VALUES (8, 'x', 1, 1, NULL, NULL, 128);
INSERT INTO t VALUES (8, 'x', 1, 12345.6, NULL, NULL, NULL);
INSERT INTO t VALUES (2147483648, 'x', 1, 1, NULL, NULL, NULL);
INSERT INTO t (id, missing) VALUES (8, 1);
INSERT INTO t (id, id) VALUES (8, 9);
INSERT INTO t (id, _ROW_ID) VALUES (8, 9);
INSERT INTO nope VALUES (1);
SELECT count(*) FROM t;
CREATE TABLE nested (id INT, tags ARRAY<STRING>, attrs MAP<STRING, INT>, point STRUCT<x: DOUBLE, y: DOUBLE>,
  vec ARRAY<FLOAT>);
INSERT INTO nested VALUES
  (1, array('a', 'b'), map('k', 1, 'j', 2), struct(1.5, 2.5), array(0.1, 0.2)),
  (2, array(), map(), named_struct('x', 0, 'y', -1), NULL),
  (3, NULL, NULL, NULL, array(1, NULL));
SELECT * FROM nested ORDER BY id;
INSERT INTO nested (id, tags) VALUES (4, 'not an array');
INSERT INTO nested (id, point) VALUES (4, struct(1));
CREATE TABLE parts (v INT, dt STRING, hr INT) PARTITIONED BY (dt, hr);
INSERT INTO parts PARTITION (dt = '2024-01-01', hr = 1) VALUES (10), (11);
INSERT INTO parts PARTITION (dt = '2024-01-02', hr) VALUES (12, 3);
INSERT INTO parts PARTITION (v = 1) VALUES ('x', 1);
SELECT * FROM parts ORDER BY v;
SELECT v FROM parts WHERE dt = '2024-01-01' AND v > 10;
SELECT v FROM parts WHERE hr = 3 OR dt > '2024-01-01';
