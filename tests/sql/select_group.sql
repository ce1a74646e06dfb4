-- GROUP BY and aggregates with Spark's result types: COUNT(*), COUNT(x), COUNT(DISTINCT x),
-- SUM, MIN, MAX, AVG; HAVING; ordinals and aliases in GROUP BY; global aggregates.
CREATE TABLE sales (region STRING, product STRING, qty INT, price DECIMAL(8, 2), rating DOUBLE,
  big BIGINT);
INSERT INTO sales VALUES
  ('east', 'apple', 10, 1.25, 4.5, 9223372036854775807),
  ('east', 'pear', 5, 2.10, NULL, 1),
  ('west', 'apple', 7, 1.30, 3.0, 5),
  ('west', 'apple', NULL, NULL, 5.0, NULL),
  (NULL, 'fig', 1, 9.99, 2.0, 7);
SELECT region, count(*), count(qty), sum(qty), min(qty), max(qty), avg(qty) FROM sales GROUP BY region;
SELECT region, sum(price), avg(price), min(price), max(price) FROM sales GROUP BY region;
SELECT region, avg(rating), sum(rating), max(product), count(DISTINCT product) FROM sales GROUP BY region;
SELECT product, count(*) AS n FROM sales GROUP BY product HAVING n > 1;
SELECT product, count(*) FROM sales GROUP BY product HAVING count(*) = 1 AND max(qty) > 1;
SELECT upper(region) AS r, count(*) FROM sales GROUP BY 1;
SELECT upper(region) AS r, count(*) FROM sales GROUP BY r;
SELECT region IS NULL, sum(qty) FROM sales GROUP BY region IS NULL;
SELECT count(*), count(region), sum(qty), avg(qty), min(product), max(product) FROM sales;
SELECT count(*), sum(qty), avg(price), max(product) FROM sales WHERE qty > 100;
SELECT sum(big) FROM sales;
SELECT sum(qty) + 1, max(qty) - min(qty) FROM sales;
SELECT count(DISTINCT region), count(DISTINCT qty) FROM sales;
SELECT sum('5'), avg('x') FROM sales WHERE region = 'east';
SELECT region, product FROM sales GROUP BY region;
SELECT sum(count(*)) FROM sales;
SELECT sum(product) FROM sales;
SELECT * FROM sales GROUP BY region;
SELECT region FROM sales GROUP BY 5;
-- count over several arguments counts the rows where none is NULL (Spark: 3 of 5 rows; per
-- region as below), DISTINCT the distinct such tuples.
SELECT count(region, qty), count(DISTINCT region, qty), count(product, NULL) FROM sales;
SELECT region, count(product, qty) FROM sales GROUP BY region ORDER BY region;
