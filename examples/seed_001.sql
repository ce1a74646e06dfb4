-- Seed 001 (data evolution and row tracking): the SQL part, as documented.
CREATE DATABASE IF NOT EXISTS my_db;

CREATE TABLE my_db.target_table (
    id INT NOT NULL,
    name STRING,
    age INT
) TBLPROPERTIES (
    'row-tracking.enabled' = 'true',
    'data-evolution.enabled' = 'true'
);

INSERT INTO my_db.target_table VALUES (1, 'Alice', 30), (2, 'Bob', 25);

CREATE TABLE my_db.source_table (
  id INT NOT NULL,
  age INT
);
INSERT INTO my_db.source_table VALUES (1, 31), (2, 26), (3, 28);

MERGE INTO my_db.target_table AS t
USING my_db.source_table AS s
ON t.id = s.id
WHEN MATCHED THEN UPDATE SET t.age = s.age
WHEN NOT MATCHED THEN INSERT (id, name, age) VALUES (s.id, '', s.age);

SELECT * FROM my_db.target_table;

-- Only the age column was written to a new file; the files with id and name are untouched.
SELECT id, name, age, _ROW_ID, _SEQUENCE_NUMBER FROM my_db.target_table;
