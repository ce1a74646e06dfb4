-- Seed 001 (data evolution), the part that runs today: the table and its first rows. The rows
-- are the ones the seed's pypaimon read prints after the same write: (1, Alice, 30), (2, Bob, 25).
CREATE DATABASE my_db;
CREATE TABLE my_db.target_table (
    id INT NOT NULL,
    name STRING,
    age INT
) TBLPROPERTIES (
    'row-tracking.enabled' = 'true',
    'data-evolution.enabled' = 'true'
);
INSERT INTO my_db.target_table VALUES (1, 'Alice', 30), (2, 'Bob', 25);
SELECT * FROM my_db.target_table;
SELECT id, _ROW_ID, _SEQUENCE_NUMBER FROM my_db.target_table;
