-- Syntax errors: each names the line:column and what was expected; the shell goes on after the
-- failed statement's ';' (--continue).
SELEC 1;
SELECT a FORM t;
SELECT * FROM;
SELECT 1 +
  FROM t;
SELECT (1;
SELECT CASE END;
CREATE TABLE t (a FOO);
CREATE TABLE t (a DECIMAL(50, 2));
CREATE TABLE t (a INT) USING parquet;
INSERT t VALUES (1);
MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN INSERT *;
MERGE INTO t USING s ON t.id = s.id WHEN NOT MATCHED THEN DELETE;
SELECT * FROM t VERSION AS OF -1;
SELECT * FROM t TIMESTAMP AS OF '2024-13-01';
SELECT a FROM t UNION;
WITH x AS (SELECT 1) SELECT * FROM x UNION ALL;
SELECT x IN (SELECT 1, 2);
SELECT select FROM t;
ALTER TABLE t RENAME u;
SELECT 12abc;
SELECT $1;
SELECT 1;
SELECT 'unterminated;
