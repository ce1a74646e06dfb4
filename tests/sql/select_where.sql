-- WHERE with Spark's three-valued logic: rows are kept only where the condition is TRUE.
CREATE TABLE t (id INT, name STRING, score DOUBLE, day DATE);
INSERT INTO t VALUES (1, 'apple', 1.5, DATE '2024-01-01'), (2, 'banana', NULL, DATE '2024-02-01'),
  (3, NULL, 3.0, NULL), (4, 'avocado', 4.5, DATE '2024-03-01'), (5, 'a%b', 0.0, DATE '2024-01-15');
SELECT id FROM t WHERE id = 2;
SELECT id FROM t WHERE id <> 2 AND id >= 3;
SELECT id FROM t WHERE score > 1 OR name = 'banana';
SELECT id FROM t WHERE NOT score > 1;
SELECT id FROM t WHERE score IS NULL;
SELECT id FROM t WHERE name IS NOT NULL AND score IS NOT NULL;
SELECT id FROM t WHERE id IN (1, 3, 5);
SELECT id FROM t WHERE id NOT IN (1, 3, NULL);
SELECT id FROM t WHERE id BETWEEN 2 AND 4;
SELECT id FROM t WHERE id NOT BETWEEN 2 AND 4;
SELECT id FROM t WHERE name LIKE 'a%';
SELECT id FROM t WHERE name LIKE '_a%';
SELECT id FROM t WHERE name NOT LIKE 'a%';
SELECT id FROM t WHERE name LIKE 'a!%b' ESCAPE '!';
SELECT id FROM t WHERE day >= '2024-02-01';
SELECT id FROM t WHERE day < DATE '2024-02-01' AND day IS NOT NULL;
SELECT id FROM t WHERE (id > 1) = (score > 1);
SELECT id FROM t WHERE (score > 1) IS TRUE;
SELECT id FROM t WHERE (score > 1) IS NOT TRUE;
SELECT id FROM t WHERE NULL;
SELECT id FROM t WHERE id = 1 OR NULL;
SELECT id FROM t WHERE 1 = 1;
SELECT id FROM t WHERE id = '3';
SELECT id FROM t WHERE id;
SELECT id FROM t WHERE count(*) > 1;
