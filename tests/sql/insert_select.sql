-- INSERT ... SELECT: a query's rows converted to the target's column types, one snapshot.
CREATE TABLE src (a INT, b STRING, c DOUBLE);
INSERT INTO src VALUES (1, 'x', 1.5), (2, 'y', 2.5), (3, NULL, NULL);
CREATE TABLE dst (big BIGINT, txt STRING, dec DECIMAL(5, 1)) TBLPROPERTIES ('row-tracking.enabled' = 'true');
INSERT INTO dst SELECT a, b, c FROM src WHERE a < 3;
INSERT INTO dst (txt, big) SELECT b, a * 10 FROM src WHERE a = 3;
INSERT INTO dst SELECT a + 100, upper(b), c * 2 FROM src;
SELECT *, _ROW_ID, _SEQUENCE_NUMBER FROM dst ORDER BY big;
INSERT INTO dst SELECT a, b FROM src;
INSERT INTO dst SELECT b, a, c FROM src;
INSERT INTO dst SELECT a, b, c * 100000 FROM src;
SELECT count(*) FROM dst;
