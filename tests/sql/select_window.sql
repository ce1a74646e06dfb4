-- Window functions (issue 20, item 11), with Spark's defaults: ascending ORDER BY sorts NULLs
-- first, the default frame with ORDER BY ends at the current row's last peer, without ORDER BY it
-- is the whole partition; column names as Spark prints them. tests/python/test_sql_window.py
-- compares 122 generated queries with DuckDB.
CREATE TABLE t (k STRING, v INT, d DOUBLE);
INSERT INTO t VALUES ('a', 3, 1.0), ('a', 1, 2.0), ('a', 3, 4.0), ('b', 5, 0.5), ('b', NULL, 1.5), ('c', 7, NULL);
-- Spark: a: 1/1/1, 2/2/2, 3/2/2; b: NULL first (1/1/1), then 5 (2/2/2); c: 1/1/1.
SELECT k, v, row_number() OVER (PARTITION BY k ORDER BY v, d) AS rn, rank() OVER (PARTITION BY k ORDER BY v) AS rk,
  dense_rank() OVER (PARTITION BY k ORDER BY v) AS dr FROM t ORDER BY k, v, d;
-- Running sum up to the last peer (a: 1, 7, 7), partition total, global count, a moving average.
SELECT k, v, d, sum(v) OVER (PARTITION BY k ORDER BY v) AS run, sum(v) OVER (PARTITION BY k) AS tot,
  count(*) OVER () AS c, avg(d) OVER (PARTITION BY k ORDER BY d ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS mv
  FROM t ORDER BY k, v, d;
-- Offsets and values: lag / lead with a default, first / last value of the default frame.
SELECT k, d, v, lag(v) OVER (PARTITION BY k ORDER BY d) AS lg, lead(v, 1, -1) OVER (PARTITION BY k ORDER BY d) AS ld,
  first_value(v) OVER (PARTITION BY k ORDER BY d) AS fv, last_value(v) OVER (PARTITION BY k ORDER BY d) AS lv
  FROM t ORDER BY k, d;
-- Spark: ntile, percent_rank, cume_dist over all rows (NULL v first).
SELECT v, d, ntile(2) OVER (ORDER BY d) AS nt, percent_rank() OVER (ORDER BY v) AS pr, cume_dist() OVER (ORDER BY v) AS cd
  FROM t ORDER BY v, d;
-- Dedupe, then keep the first row per key (the latest d): a/4.0, b/1.5, c/NULL.
SELECT k, v, d FROM (SELECT k, v, d, row_number() OVER (PARTITION BY k ORDER BY d DESC) AS rn FROM t) x WHERE rn = 1;
-- Over an aggregation: rank of each key's sum (a, c tie at 7).
SELECT k, sum(v) AS s, rank() OVER (ORDER BY sum(v) DESC) AS r FROM t GROUP BY k ORDER BY k;
-- Column names Spark gives unaliased window columns.
SELECT row_number() OVER (PARTITION BY k ORDER BY v), sum(v) OVER (PARTITION BY k), lag(v) OVER (ORDER BY v)
  FROM t WHERE k = 'c';
-- Errors.
SELECT k FROM t WHERE row_number() OVER (ORDER BY v) = 1;
SELECT row_number() OVER (PARTITION BY k) FROM t;
SELECT sum(v) OVER (ORDER BY v RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM t;
SELECT count(DISTINCT v) OVER (PARTITION BY k) FROM t;
SELECT nth_value(v, 2) OVER (ORDER BY v) FROM t;
