-- options: --truncate 0
-- System tables: t$snapshots, t$schemas, t$options, t$manifests, t$files, t$partitions, t$buckets,
-- t$table_indexes and the empty t$tags, with Java Paimon's columns and value text, read like any
-- relation (WHERE, ORDER BY, joins, aggregates) and refused as write targets. Only stable columns
-- are selected: no times, commit users, manifest or data file names, file sizes.
CREATE TABLE t (id INT, name STRING, score DOUBLE, pt STRING) PARTITIONED BY (pt)
TBLPROPERTIES ('row-tracking.enabled' = 'true', 'data-evolution.enabled' = 'true');
INSERT INTO t VALUES (1, 'a', 1.5, 'x'), (2, 'b', NULL, 'x'), (3, 'c', 0.25, 'y');
UPDATE t SET name = 'B' WHERE id = 2;
ALTER TABLE t ADD COLUMN extra BIGINT;
INSERT INTO t VALUES (4, 'd', 1e10, 'y', 7);
SELECT snapshot_id, schema_id, commit_kind, total_record_count, delta_record_count, next_row_id
FROM t$snapshots ORDER BY snapshot_id;
SELECT schema_id, fields, partition_keys, primary_keys, comment FROM `t$schemas` ORDER BY schema_id;
SELECT * FROM t$options;
SELECT num_added_files, num_deleted_files, schema_id, min_partition_stats, max_partition_stats,
       min_row_id, max_row_id
FROM t$manifests;
SELECT partition, bucket, file_format, schema_id, level, record_count, null_value_counts,
       min_value_stats, max_value_stats, file_source, first_row_id, write_cols
FROM t$files ORDER BY min_sequence_number, first_row_id;
SELECT partition, record_count, file_count, created_by FROM t$partitions;
SELECT partition, bucket, record_count, file_count FROM `default`.`t$buckets`;
SELECT f.first_row_id, f.write_cols, s.commit_kind
FROM t$files f JOIN t$snapshots s ON f.min_sequence_number = s.snapshot_id
WHERE f.write_cols IS NOT NULL;
SELECT partition, count(*), sum(record_count) FROM t$files GROUP BY partition ORDER BY partition;
SELECT file_path LIKE '%/pt=y/bucket-0/data-%.parquet' AS under_partition FROM t$files
WHERE partition = '{y}';
CREATE TABLE d (id INT, v STRING)
TBLPROPERTIES ('row-tracking.enabled' = 'true', 'deletion-vectors.enabled' = 'true');
INSERT INTO d VALUES (1, 'p'), (2, 'q'), (3, 'r');
DELETE FROM d WHERE id = 2;
SELECT partition, bucket, index_type, row_count FROM d$table_indexes;
SELECT partition, record_count, file_count FROM d$partitions;
SELECT * FROM d$tags;
INSERT INTO t$files VALUES (1);
DELETE FROM t$snapshots WHERE snapshot_id = 1;
UPDATE t$options SET value = 'x';
ALTER TABLE t$options SET TBLPROPERTIES ('a' = 'b');
SELECT * FROM t$nope;
SELECT * FROM missing$files;
SELECT * FROM t$files VERSION AS OF 1;
