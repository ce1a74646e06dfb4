"""Tables on an S3-compatible object store (issue 12), against a real local S3 server: moto in
server mode, started by the fixtures, verifying every request's Signature V4.

Interop both ways with pypaimon 2.1 through its own S3 file IO (pyarrow's S3FileSystem): what
cpaimon writes, updates (by row id, upsert, shard backfill), merges and deletes on S3, pypaimon
reads with identical rows, _ROW_ID and _SEQUENCE_NUMBER; what pypaimon writes, cpaimon reads
identically. The SQL shell, the CLI (cat, table, check), system tables, time travel and schema
changes work on s3:// warehouses; a file larger than a part goes up as a multipart upload.
"""
import subprocess

import pyarrow as pa
import pytest

import cpaimon
from conftest_update import PA_SCHEMA, Env, seed, update
from cpaimon.schema.data_types import AtomicType
from cpaimon.schema.schema_change import SchemaChange


@pytest.fixture
def env(s3):
    e = Env(s3.warehouse, s3.options)
    e.s3 = s3
    return e


ROWS = pa.Table.from_pydict({"id": list(range(1, 9)), "name": [f"n{i}" for i in range(1, 9)],
                             "age": list(range(21, 29)),
                             "city": ["A", "B", "A", "C", "B", "A", "C", "C"]}, schema=PA_SCHEMA)


def test_cpaimon_writes_pypaimon_reads(env):
    ident = env.create()
    env.write(ident, ROWS.slice(0, 5))
    env.write(ident, ROWS.slice(5))
    result = env.same_rows(ident)
    assert result["_ROW_ID"].to_pylist() == list(range(8))
    assert result["_SEQUENCE_NUMBER"].to_pylist() == [1] * 5 + [2] * 3
    # the files are where Paimon puts them, as objects in the bucket
    keys = env.s3.keys("wh/db.db/t1/")
    assert "wh/db.db/t1/snapshot/snapshot-2" in keys and "wh/db.db/t1/schema/schema-0" in keys
    assert sum(k.endswith(".parquet") for k in keys) == 2


def test_pypaimon_writes_cpaimon_reads_partitioned(env):
    ident = env.create(partition_keys=["city"])
    env.write(ident, ROWS.slice(0, 4), lib="py")
    env.write(ident, ROWS.slice(4), lib="py")
    result = env.same_rows(ident)
    assert sorted(result["id"].to_pylist()) == list(range(1, 9))
    # a partition filter reaches the same rows through cpaimon's scan on S3
    table = env.cp_table(ident)
    rb = table.new_read_builder().with_filter(
        table.new_read_builder().new_predicate_builder().equal("city", "C"))
    got = rb.new_read().to_arrow(rb.new_scan().plan().splits())
    assert sorted(got["id"].to_pylist()) == [4, 7, 8]


def test_updates_upsert_delete_on_s3_read_by_pypaimon(env):
    ident = seed(env)
    update(env, ident, pa.table({"_ROW_ID": [4, 1], "age": pa.array([99, 88], pa.int32())}),
           ["age"])
    env.same_rows(ident)
    table = env.cp_table(ident)
    wb = table.new_batch_write_builder()
    msgs = wb.new_update().upsert_by_arrow_with_key(
        pa.table({"id": pa.array([2, 9], pa.int32()), "name": ["B2", "New"],
                  "age": pa.array([1, 2], pa.int32()), "city": ["c", "d"]}), upsert_keys=["id"])
    wb.new_commit().commit(msgs)
    env.same_rows(ident)
    pb = table.new_read_builder().new_predicate_builder()
    msgs = wb.new_update().update_by_predicate(pb.equal("id", 3), {"city": "Paris"})
    wb.new_commit().commit(msgs)
    result = env.same_rows(ident)
    assert result["age"].to_pylist() == [25, 1, 35, 40, 99, 2]
    assert result["city"].to_pylist()[2] == "Paris"
    assert result.to_pylist()[-1] == {"id": 9, "name": "New", "age": 2, "city": "d",
                                      "_ROW_ID": 5, "_SEQUENCE_NUMBER": 4}


def test_deletion_vectors_on_s3(env):
    ident = env.create(options={"row-tracking.enabled": "true", "data-evolution.enabled": "true",
                                "deletion-vectors.enabled": "true"})
    env.write(ident, ROWS)
    table = env.cp_table(ident)
    wb = table.new_batch_write_builder()
    wb.new_commit().commit(wb.new_update().delete_by_row_id([0, 3, 5]))
    result = env.same_rows(ident)
    assert result["_ROW_ID"].to_pylist() == [1, 2, 4, 6, 7]
    # and pypaimon's delete on top, read by cpaimon
    pwb = env.py_table(ident).new_batch_write_builder()
    pwb.new_commit().commit(pwb.new_update().delete_by_row_id([7]))
    assert env.same_rows(ident)["_ROW_ID"].to_pylist() == [1, 2, 4, 6]


def test_add_column_and_shard_backfill_on_s3(env):
    ident = seed(env)
    env.cp.alter_table(ident, [SchemaChange.add_column("score", AtomicType("DOUBLE"))])
    table = env.cp_table(ident)
    wb = table.new_batch_write_builder()
    messages = []
    for shard in range(2):
        upd = wb.new_update()
        upd.with_read_projection(["id", "age"])
        upd.with_update_type(["score"])
        s = upd.new_shard_updator(shard, 2)
        reader = s.arrow_reader()
        for batch in iter(reader.read_next_batch, None):
            s.update_by_arrow_batch(pa.RecordBatch.from_pydict(
                {"score": [a / 10 for a in batch["age"].to_pylist()]},
                schema=pa.schema([("score", pa.float64())])))
        messages += s.prepare_commit()
    wb.new_commit().commit(messages)
    result = env.same_rows(ident)
    assert result["score"].to_pylist() == [2.5, 3.0, 3.5, 4.0, 4.5]


def test_merge_into_and_time_travel_on_s3(env):
    from cpaimon.data_evolution_merge_into import WhenMatched, WhenNotMatched, source_col
    ident = seed(env)
    table = env.cp_table(ident)
    wb = table.new_batch_write_builder()
    msgs = wb.new_update().merge_into(
        pa.table({"id": pa.array([1, 7], pa.int32()), "age": pa.array([50, 70], pa.int32())}),
        on=["id"], when_matched=[WhenMatched.update({"age": source_col("age")})],
        when_not_matched=[WhenNotMatched(insert={"id": source_col("id"),
                                                 "age": source_col("age")})])
    wb.new_commit().commit(msgs)
    result = env.same_rows(ident)
    assert result["age"].to_pylist() == [50, 30, 35, 40, 45, 70]
    old = env.cp_table(ident).copy({"scan.snapshot-id": "2"})
    rb = old.new_read_builder()
    assert sorted(rb.new_read().to_arrow(rb.new_scan().plan().splits())["age"].to_pylist()) == \
        [25, 30, 35, 40, 45]


def test_large_file_is_a_multipart_upload(s3):
    """A data file bigger than one part goes up in parts (5 MiB, the smallest S3 allows); the
    object is whole and pypaimon reads it."""
    opts = s3.catalog_options(**{"cpaimon.fs.part-size": "5m",
                                 "cpaimon.fs.upload-concurrency": "2"})
    cat = cpaimon.CatalogFactory.create(opts)
    cat.create_database("db", True)
    schema = cpaimon.Schema.from_pyarrow_schema(
        pa.schema([("k", pa.int64()), ("blob", pa.binary())]),
        options={"row-tracking.enabled": "true", "file.compression": "none"})
    cat.create_table("db.big", schema, False)
    t = cat.get_table("db.big")
    n = 3000
    data = pa.table({"k": pa.array(range(n), pa.int64()),
                     "blob": [bytes([i % 251]) * 5000 for i in range(n)]})
    wb = t.new_batch_write_builder()
    w = wb.new_write()
    w.write_arrow(data)
    wb.new_commit().commit(w.prepare_commit())
    parquet = [k for k in s3.keys("wh/db.db/big/") if k.endswith(".parquet")]
    assert len(parquet) == 1
    head = s3.client.head_object(Bucket=s3.bucket, Key=parquet[0])
    assert head["ContentLength"] > 12 << 20
    assert "-" in head["ETag"]  # a multipart object's ETag: "<md5 of md5s>-<parts>"
    assert not s3.uploads()
    got = s3.pypaimon().get_table("db.big")
    rb = got.new_read_builder()
    back = rb.new_read().to_arrow(rb.new_scan().plan().splits()).sort_by("k")
    assert back["k"].to_pylist() == list(range(n))
    assert back["blob"].to_pylist() == data["blob"].to_pylist()


def test_sql_shell_on_s3(s3, run_cli):
    script = """
    CREATE DATABASE IF NOT EXISTS db;
    CREATE TABLE db.people (id INT, name STRING, age INT) TBLPROPERTIES (
      'row-tracking.enabled' = 'true', 'data-evolution.enabled' = 'true');
    INSERT INTO db.people VALUES (1, 'a', 10), (2, 'b', 20), (3, 'c', 30);
    UPDATE db.people SET age = age + 1 WHERE id >= 2;
    CREATE TABLE db.src (id INT, name STRING) TBLPROPERTIES ('row-tracking.enabled' = 'true');
    INSERT INTO db.src VALUES (1, 'A'), (4, 'D');
    MERGE INTO db.people t USING db.src s ON t.id = s.id
      WHEN MATCHED THEN UPDATE SET name = s.name
      WHEN NOT MATCHED THEN INSERT (id, name, age) VALUES (s.id, s.name, 0);
    ALTER TABLE db.people ADD COLUMNS (note STRING);
    SELECT id, name, age, note, _ROW_ID FROM db.people ORDER BY id;
    SELECT id, age FROM db.people VERSION AS OF 1 ORDER BY id;
    SELECT snapshot_id, commit_kind FROM db.`people$snapshots`;
    """
    r = run_cli("sql", "--warehouse", s3.warehouse, *s3.cli_args(), "--format", "csv",
                "-e", script)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert "1,A,10,,0\n2,b,21,,1\n3,c,31,,2\n4,D,0,,3\n" in out
    assert "id,age\n1,10\n2,20\n3,30\n" in out
    assert "1,APPEND\n2,APPEND\n3,APPEND\n" in out
    # pypaimon reads what the SQL shell wrote
    t = s3.pypaimon().get_table("db.people")
    rb = t.new_read_builder().with_projection(["id", "name", "age", "_ROW_ID"])
    got = rb.new_read().to_arrow(rb.new_scan().plan().splits()).sort_by("id").to_pylist()
    assert [tuple(d.values()) for d in got] == [(1, "A", 10, 0), (2, "b", 21, 1), (3, "c", 31, 2),
                                                (4, "D", 0, 3)]
    # the CLI reads, inspects and checks the same table
    r = run_cli("cat", s3.warehouse, "db.people", *s3.cli_args(), "--format", "csv",
                "--with-row-tracking", "--columns", "id,name")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[0] == "id,name,_ROW_ID,_SEQUENCE_NUMBER"
    r = run_cli("table", "info", s3.warehouse, "db.people", *s3.cli_args())
    assert r.returncode == 0 and f"path:           {s3.warehouse}/db.db/people" in r.stdout
    r = run_cli("check", s3.warehouse, "db.people", *s3.cli_args())
    assert r.returncode == 0 and "0 violation(s)" in r.stdout, r.stdout + r.stderr


def test_catalog_operations_on_s3(s3):
    cat = s3.cpaimon()
    assert cat.list_databases() == []  # nothing is created by opening
    assert s3.keys() == []
    cat.create_database("a", False)
    cat.create_database("b", False)
    assert cat.list_databases() == ["a", "b"]
    assert "wh/a.db/" in s3.keys()  # the directory marker, as S3A and pyarrow write it
    schema = cpaimon.Schema.from_pyarrow_schema(pa.schema([("x", pa.int32())]))
    cat.create_table("a.t1", schema, False)
    cat.create_table("a.t2", schema, False)
    assert cat.list_tables("a") == ["t1", "t2"]
    cat.alter_table("a.t1", [SchemaChange.set_option("k", "v")])
    assert cat.get_table("a.t1").options["k"] == "v"
    before = s3.keys()
    with pytest.raises(NotImplementedError, match="object stores have no atomic rename"):
        cat.rename_table("a.t2", "a.t3")  # Java copies object by object; cpaimon refuses
    assert s3.keys() == before
    cat.drop_table("a.t2")
    assert cat.list_tables("a") == ["t1"]
    assert not s3.keys("wh/a.db/t2/")
    cat.drop_database("a", cascade=True)
    assert cat.list_databases() == ["b"]
    assert not s3.keys("wh/a.db/")
    # pypaimon sees the same catalog
    assert s3.pypaimon().list_databases() == ["b"]


def test_table_options_override_the_catalogs(s3):
    """A table whose options carry fs.* options reaches its files with them: here the catalog has
    a wrong secret, the table the right one."""
    good = s3.server.keys["admin"][1]
    cat = s3.cpaimon()
    cat.create_database("db", True)
    schema = cpaimon.Schema.from_pyarrow_schema(pa.schema([("x", pa.int32())]),
                                                options={"fs.s3.accessKeySecret": good})
    cat.create_table("db.t", schema, False)
    bad = cpaimon.CatalogFactory.create(dict(s3.catalog_options(),
                                             **{"fs.s3.accessKeySecret": "wrong-secret"}))
    with pytest.raises(Exception):
        bad.list_tables("db")
    # the schema file itself is read with the catalog's options, so open it with the good ones,
    # then show that the table's file system is its own: writes work with the table's secret
    t = cpaimon.CatalogFactory.create(s3.catalog_options()).get_table("db.t")
    wb = t.new_batch_write_builder()
    w = wb.new_write()
    w.write_arrow(pa.table({"x": pa.array([1, 2], pa.int32())}))
    wb.new_commit().commit(w.prepare_commit())
    rb = t.new_read_builder()
    assert rb.new_read().to_arrow(rb.new_scan().plan().splits())["x"].to_pylist() == [1, 2]


def test_environment_credentials(s3, cpaimon_bin):
    """Without fs.s3 key options, the AWS_* environment variables are used (as the AWS SDKs do)."""
    ak, sk = s3.server.keys["admin"]
    env = {"PATH": "/usr/bin:/bin", "AWS_ACCESS_KEY_ID": ak, "AWS_SECRET_ACCESS_KEY": sk,
           "AWS_REGION": "us-east-1", "AWS_ENDPOINT_URL_S3": s3.endpoint}
    r = subprocess.run([str(cpaimon_bin), "sql", "--warehouse", s3.warehouse,
                        "--catalog", "fs.s3.path-style-access=true", "-e",
                        "CREATE DATABASE d; CREATE TABLE d.t (a INT); INSERT INTO d.t VALUES (7);"
                        " SELECT * FROM d.t"], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    assert "|  7|" in r.stdout
