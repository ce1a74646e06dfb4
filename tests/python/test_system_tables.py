"""System tables ("db.t$snapshots", include/cpaimon/system_table.h) against the two references:

1. pypaimon 2.1.0 (`catalog.get_table('db.t$files')`): same column names, Arrow types and rows,
   modulo the differences named in PYPAIMON_DIFFERENCES below (pypaimon follows Java HEAD's newer
   columns and prints several values its own way; cpaimon follows Java 1.4.2, the oracle);
2. Java Paimon 1.4.2 through tests/java's paimon-tool (`read WAREHOUSE 'db.t$files'`), row for row
   in the tool's JSON form, modulo JAVA_DIFFERENCES;

on tables written by pypaimon and by cpaimon, with row tracking and data evolution (a partial-column
update), an ALTER, partitions (a NULL one) and deletion vectors. Then the Python API surface
(read builder, filters, projection, limits, errors), the `cpaimon cat` and SQL fronts, and the
local time zone of commit times.
"""
import datetime
import json
import os
import subprocess

import pyarrow as pa
import pypaimon
import pytest
from pypaimon.schema.data_types import AtomicType as PyAtomicType
from pypaimon.schema.schema_change import SchemaChange as PySchemaChange

import cpaimon
from cpaimon.schema.data_types import AtomicType
from cpaimon.schema.schema_change import SchemaChange
from test_java_interop import JAR, JavaError, canon_rows, java  # noqa: F401  (session fixture)

VIEWS = ["snapshots", "schemas", "options", "manifests", "files", "partitions", "buckets",
         "table_indexes", "tags", "branches", "consumers"]
DATA = pa.schema([("id", pa.int32()), ("name", pa.string()), ("pt", pa.string()),
                  ("score", pa.float64())])
DE = {"row-tracking.enabled": "true", "data-evolution.enabled": "true"}

# pypaimon 2.1.0 vs Java 1.4.2 (which cpaimon follows):
PYPAIMON_DIFFERENCES = {
    # columns pypaimon has from Java HEAD (1.4.2 has none of them)
    "extra_columns": {"snapshots": ["writer_version"],
                      "partitions": ["total_buckets", "done", "deleted_record_count"],
                      "table_indexes": ["row_range_start", "row_range_end", "index_field_id",
                                        "index_field_name"]},
    # partition (files, buckets, table_indexes): pypaimon prints "pt=x" ("pt=__NULL__" in
    # buckets, "pt=None" in files) where Java prints the row CAST AS STRING "{x}" / "{null}", and
    # None for an unpartitioned table where Java prints "{}"
    # pypaimon's file_path is the file name; Java's the full path
    # pypaimon's statistics are JSON ('{"id":1}'), Java's a TreeMap's toString ("{id=1}")
    # pypaimon's file_source is the byte ("0"), Java's the enum name ("APPEND")
    # pypaimon truncates creation times (files, buckets.last_update_time) to seconds
    "files": ["partition", "file_path", "null_value_counts", "min_value_stats", "max_value_stats",
              "file_source", "creation_time"],
    "buckets": ["partition", "last_update_time"],
    "table_indexes": ["partition"],
    # pypaimon renders a NULL partition value "pt=None" where Java prints the default name, and
    # does not sort the partitions
    "partitions": ["partition"],
}
# pypaimon shows commit and schema times in UTC; Java (and cpaimon) as the local wall clock
# (LocalDateTime.ofInstant(..., ZoneId.systemDefault())): the same where TZ is UTC.
LOCAL_TIMES = {"snapshots": "commit_time", "schemas": "update_time"}


def _utc_to_local(v):
    if v is None:
        return None
    utc = v.replace(tzinfo=datetime.timezone.utc)
    return utc.astimezone().replace(tzinfo=None)

JAVA_DIFFERENCES = """
- $schemas: Java lists the schema directory in file-system order; cpaimon in id order. Java reads
  pypaimon's `"comment": null` as the text "null" (Jackson's asText); cpaimon as NULL.
- $files of a data-evolution partial file (write_cols set): Java 1.4.2 reads its statistics against
  all columns by position and prints another column's bytes ({a=121}), or fails with an
  ArrayIndexOutOfBoundsException when the table has more columns than the file; cpaimon follows
  Java HEAD (SimpleStatsEvolutions.getOrCreate(schemaId, writeCols)): the write columns'
  statistics, the others null with a null count of the row count. Checked separately below.
- $files rows are in manifest order in cpaimon, in partition hash order in Java: compared sorted.
"""


def _local(ts_text):
    return datetime.datetime.fromisoformat(ts_text)


# ---------------------------------------------------------------------------------------------
# Tables


def _write(table, rows):
    wb = table.new_batch_write_builder()
    w, c = wb.new_write(), wb.new_commit()
    w.write_arrow(rows)
    c.commit(w.prepare_commit())
    w.close()
    c.close()


def _scenario(lib, wh):
    """The same history through pypaimon or cpaimon: two appends to a partitioned data-evolution
    table (one with a NULL partition), a partial-column update, ADD COLUMN, an option, an append
    with the new column."""
    cat = lib.CatalogFactory.create({"warehouse": wh})
    cat.create_database("db", True)
    cat.create_table("db.t", lib.Schema.from_pyarrow_schema(DATA, partition_keys=["pt"],
                                                             options=dict(DE)), False)
    t = cat.get_table("db.t")
    _write(t, pa.table({"id": pa.array([1, 2, 3], pa.int32()), "name": ["a", "b", None],
                        "pt": ["x", "x", "y"], "score": [1.5, 2.25, None]}, schema=DATA))
    _write(t, pa.table({"id": pa.array([5], pa.int32()), "name": ["n"], "pt": [None],
                        "score": [0.5]}, schema=DATA))
    t = cat.get_table("db.t")
    wb = t.new_batch_write_builder()
    msgs = wb.new_update().with_update_type(["name"]).update_by_arrow_with_row_id(
        pa.table({"_ROW_ID": pa.array([0, 1], pa.int64()), "name": ["A", "B"]}))
    c = wb.new_commit()
    c.commit(msgs)
    c.close()
    if lib is pypaimon:
        cat.alter_table("db.t", [PySchemaChange.add_column("extra", PyAtomicType("BIGINT"))], False)
        cat.alter_table("db.t", [PySchemaChange.set_option("my.opt", "v1")], False)
    else:
        cat.alter_table("db.t", [SchemaChange.add_column("extra", AtomicType("BIGINT"))], False)
        cat.alter_table("db.t", [SchemaChange.set_option("my.opt", "v1")], False)
    t = cat.get_table("db.t")
    full = pa.schema(list(DATA) + [("extra", pa.int64())])
    _write(t, pa.table({"id": pa.array([4], pa.int32()), "name": ["d"], "pt": ["y"],
                        "score": [1e10], "extra": pa.array([7], pa.int64())}, schema=full))
    return wh


@pytest.fixture(scope="module")
def py_written(tmp_path_factory):
    return _scenario(pypaimon, str(tmp_path_factory.mktemp("py") / "wh"))


@pytest.fixture(scope="module")
def cp_written(tmp_path_factory):
    return _scenario(cpaimon, str(tmp_path_factory.mktemp("cp") / "wh"))


@pytest.fixture(scope="module")
def dv_written(tmp_path_factory, cpaimon_bin):
    """Row tracking with deletion vectors (no data evolution: Java 1.4.2 refuses the two
    together), unpartitioned, rows deleted in two commits."""
    wh = str(tmp_path_factory.mktemp("dv") / "wh")
    sql = ("CREATE DATABASE db; USE db; CREATE TABLE t (id INT, name STRING) TBLPROPERTIES "
           "('row-tracking.enabled' = 'true', 'deletion-vectors.enabled' = 'true'); "
           "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c'); INSERT INTO t VALUES (4, 'd'); "
           "DELETE FROM t WHERE id = 2; DELETE FROM t WHERE id IN (3, 4);")
    subprocess.run([str(cpaimon_bin), "sql", "--warehouse", wh, "-e", sql], check=True,
                   capture_output=True)
    return wh


SCENARIOS = ["py_written", "cp_written", "dv_written"]


def ours(wh, ident, projection=None, predicate=None):
    t = cpaimon.CatalogFactory.create({"warehouse": wh}).get_table(ident)
    rb = t.new_read_builder()
    if projection:
        rb.with_projection(projection)
    if predicate is not None:
        rb.with_filter(predicate(rb.new_predicate_builder()))
    return rb.new_read().to_arrow(rb.new_scan().plan().splits())


def theirs(wh, ident):
    t = pypaimon.CatalogFactory.create({"warehouse": wh}).get_table(ident)
    rb = t.new_read_builder()
    return rb.new_read().to_arrow(rb.new_scan().plan().splits())


# ---------------------------------------------------------------------------------------------
# 1. pypaimon


@pytest.mark.parametrize("view", VIEWS)
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_matches_pypaimon(request, scenario, view):
    wh = request.getfixturevalue(scenario)
    got, want = ours(wh, f"db.t${view}"), theirs(wh, f"db.t${view}")
    extra = PYPAIMON_DIFFERENCES["extra_columns"].get(view, [])
    assert got.schema.names == [n for n in want.schema.names if n not in extra]
    for field in got.schema:
        # pypaimon builds its tables with pa.table({...}): every column nullable
        assert field.type == want.schema.field(field.name).type, field.name
    assert got.num_rows == want.num_rows
    differ = PYPAIMON_DIFFERENCES.get(view, [])
    for name in got.schema.names:
        if name in differ:
            continue
        a, b = got.column(name).to_pylist(), want.column(name).to_pylist()
        if LOCAL_TIMES.get(view) == name:
            b = [_utc_to_local(v) for v in b]
        if view in ("options", "partitions", "files"):
            # options: Java's HashMap order vs pypaimon's file order; partitions: Java sorts by
            # the partition text, pypaimon does not; files: order of the live entries
            a, b = sorted(map(repr, a)), sorted(map(repr, b))
        assert a == b, (view, name)


def test_pypaimon_differences_are_real(py_written, cp_written):
    """The named differences exist (so they stay named for a reason): pypaimon's text forms."""
    got, want = ours(cp_written, "db.t$files"), theirs(cp_written, "db.t$files")
    assert set(want.column("file_source").to_pylist()) == {"0"}
    assert set(got.column("file_source").to_pylist()) == {"APPEND"}
    assert all(p.startswith("{") for p in got.column("partition").to_pylist())
    assert all(p.startswith("pt=") for p in want.column("partition").to_pylist())
    assert all(s.startswith('{"') for s in want.column("min_value_stats").to_pylist())
    assert "writer_version" in theirs(py_written, "db.t$snapshots").schema.names


# ---------------------------------------------------------------------------------------------
# 2. Java 1.4.2


def _java_rows(java, wh, view):  # noqa: F811
    rows = java.read(wh, f"db.t${view}")
    if view == "schemas":
        rows.sort(key=lambda r: r["schema_id"])
        for r in rows:
            if r["comment"] == "null":  # Java's reading of pypaimon's "comment": null
                r["comment"] = None
    if view in ("files", "file_key_ranges"):
        rows.sort(key=lambda r: r["file_path"])
    return rows


def _our_rows(wh, view):
    rows = canon_rows(ours(wh, f"db.t${view}"))
    if view in ("files", "file_key_ranges"):
        rows.sort(key=lambda r: r["file_path"])
    return rows


@pytest.mark.parametrize("view", VIEWS + ["file_key_ranges"])
@pytest.mark.parametrize("scenario", SCENARIOS)
def test_matches_java(request, java, scenario, view):  # noqa: F811
    wh = request.getfixturevalue(scenario)
    if scenario == "cp_written" and view == "files":
        # Java 1.4.2 cannot show this table's files at all: reading the partial file's statistics
        # by position runs off its one-column null-count array (see JAVA_DIFFERENCES); cpaimon's
        # partial files are Java's own shape (test_java_partial_file_statistics)
        with pytest.raises(JavaError, match="ArrayIndexOutOfBoundsException"):
            java.read(wh, "db.t$files")
        return
    got, want = _our_rows(wh, view), _java_rows(java, wh, view)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert list(g) == list(w)  # the same columns in the same order
        if view == "files" and g["write_cols"] is not None:
            # Java 1.4.2 vs HEAD for partial files (see JAVA_DIFFERENCES)
            for c in ("null_value_counts", "min_value_stats", "max_value_stats"):
                g.pop(c), w.pop(c)
        assert g == w


def test_java_schema_order_difference_is_real(java, py_written):  # noqa: F811
    """Java's $schemas is not sorted by id (the listing order); ours is."""
    ids = [r["schema_id"] for r in java.read(py_written, "db.t$schemas")]
    assert sorted(ids) == [0, 1, 2]
    assert ours(py_written, "db.t$schemas").column("schema_id").to_pylist() == [0, 1, 2]


def test_partial_file_statistics(cp_written, py_written):
    """A partial file's statistics cover its write_cols (Java HEAD): the update wrote name 'A' and
    'B' for rows 0 and 1; the other columns have no values and null count = the row count."""
    files = ours(cp_written, "db.t$files").to_pylist()
    partial = [f for f in files if f["write_cols"] is not None]
    assert [f["write_cols"] for f in partial] == [["name"]]
    p = partial[0]
    assert (p["first_row_id"], p["record_count"]) == (0, 2)
    assert p["null_value_counts"] == "{extra=2, id=2, name=0, pt=2, score=2}"
    assert p["min_value_stats"] == "{extra=null, id=null, name=A, pt=null, score=null}"
    assert p["max_value_stats"] == "{extra=null, id=null, name=B, pt=null, score=null}"
    # the first file, written before ADD COLUMN: extra null everywhere (null count 2)
    first = [f for f in files if f["first_row_id"] == 0 and f["write_cols"] is None][0]
    assert first["null_value_counts"] == "{extra=2, id=0, name=0, pt=0, score=0}"
    assert first["min_value_stats"] == "{extra=null, id=1, name=a, pt=x, score=1.5}"
    assert first["max_value_stats"] == "{extra=null, id=2, name=b, pt=x, score=2.25}"
    newest = [f for f in files if f["schema_id"] == 2][0]
    assert newest["min_value_stats"] == "{extra=7, id=4, name=d, pt=y, score=1.0E10}"
    # pypaimon writes no statistics (_VALUE_STATS_COLS = []): all null
    py = [f for f in ours(py_written, "db.t$files").to_pylist() if f["write_cols"] is None]
    assert {f["min_value_stats"] for f in py} == {
        "{extra=null, id=null, name=null, pt=null, score=null}"}


def test_java_partial_file_statistics(java, tmp_path):  # noqa: F811
    """Java's own data-evolution partial write (the whole row-id group: name 'z' for row 0, 'b'
    kept for row 1) stores the write column's statistics only, with _VALUE_STATS_COLS null,
    exactly as cpaimon does; Java 1.4.2's $files then prints them as the first column's ({id=98}:
    the bytes of 'b'), where cpaimon (as Java HEAD) shows name=b .. z."""
    wh = str(tmp_path / "wh")
    schema = {"fields": [{"id": 0, "name": "id", "type": "INT"},
                         {"id": 1, "name": "name", "type": "STRING"}], "partitionKeys": []}
    java.write(wh, "db.t", [{"id": 1, "name": "a"}, {"id": 2, "name": "b"}], schema=schema,
               options=DE)
    java.update(wh, "db.t", [{"_ROW_ID": 0, "name": "z"}], columns=["name"])
    theirs_ = [r for r in java.read(wh, "db.t$files") if r["write_cols"] == ["name"]]
    ours_ = [r for r in ours(wh, "db.t$files").to_pylist() if r["write_cols"] == ["name"]]
    assert len(theirs_) == len(ours_) == 1
    assert (theirs_[0]["min_value_stats"], theirs_[0]["max_value_stats"]) == ("{id=98}", "{id=122}")
    assert ours_[0]["record_count"] == 2
    assert ours_[0]["null_value_counts"] == "{id=2, name=0}"
    assert ours_[0]["min_value_stats"] == "{id=null, name=b}"
    assert ours_[0]["max_value_stats"] == "{id=null, name=z}"


# ---------------------------------------------------------------------------------------------
# 3. The Python API


def test_python_read_api(cp_written):
    cat = cpaimon.CatalogFactory.create({"warehouse": cp_written})
    t = cat.get_table("db.t$snapshots")
    assert t.name == "db.t$snapshots" and t.system_table_name() == "snapshots"
    assert t.primary_keys() == ["snapshot_id"]
    assert [f.name for f in t.fields][:3] == ["snapshot_id", "schema_id", "commit_user"]
    assert str(t.fields[5].type) == "TIMESTAMP(3) NOT NULL"
    assert t.arrow_schema().field("commit_time").type == pa.timestamp("ms")
    assert not t.arrow_schema().field("commit_time").nullable
    rb = t.new_read_builder()
    pb = rb.new_predicate_builder()
    rb.with_projection(["snapshot_id", "commit_kind", "next_row_id"]).with_filter(
        pb.greater_or_equal("snapshot_id", 2))
    splits = rb.new_scan().plan().splits()
    assert len(splits) == 1 and splits[0].row_count == 3
    read = rb.new_read()
    assert read.to_arrow(splits).to_pylist() == [
        {"snapshot_id": 2, "commit_kind": "APPEND", "next_row_id": 4},
        {"snapshot_id": 3, "commit_kind": "APPEND", "next_row_id": 4},
        {"snapshot_id": 4, "commit_kind": "APPEND", "next_row_id": 5}]
    assert list(read.to_pandas(splits)["snapshot_id"]) == [2, 3, 4]
    assert [r["snapshot_id"] for r in read.to_iterator(splits)] == [2, 3, 4]
    assert read.to_arrow_batch_reader(splits).read_all().num_rows == 3
    assert sum(b.num_rows for b in read.to_record_batch_iterator(splits)) == 3
    assert read.to_arrow([]).schema.names == ["snapshot_id", "commit_kind", "next_row_id"]
    assert rb.read_type().names == ["snapshot_id", "commit_kind", "next_row_id"]
    rb.with_limit(1)
    assert rb.new_read().to_arrow(rb.new_scan().plan().splits()).num_rows == 1
    # filter on a column left out of the projection, an IN filter
    files = ours(cp_written, "db.t$files", ["file_path"],
                 lambda pb: pb.is_not_null("write_cols"))
    assert files.num_rows == 1
    parts = ours(cp_written, "db.t$buckets", ["partition"],
                 lambda pb: pb.is_in("partition", ["{x}", "{null}"]))
    assert sorted(parts.column("partition").to_pylist()) == ["{null}", "{x}"]


def test_python_errors(cp_written):
    cat = cpaimon.CatalogFactory.create({"warehouse": cp_written})
    # Java's TableNotExistException message (pypaimon raises TableNotExistException; cpaimon maps
    # ENOTFOUND to FileNotFoundError, as for data tables)
    with pytest.raises(FileNotFoundError, match=r"^Table db\.t\$nope does not exist\.$"):
        cat.get_table("db.t$nope")
    with pytest.raises(FileNotFoundError, match=r"Table db\.missing\$files does not exist\."):
        cat.get_table("db.missing$files")
    with pytest.raises(NotImplementedError, match="branches"):
        cat.get_table("db.t$branch_b")
    t = cat.get_table("db.t$FILES")  # kinds are case-insensitive (Java lower-cases them)
    assert t.name == "db.t$files"
    with pytest.raises(NotImplementedError, match="System table is read-only"):
        t.new_batch_write_builder()
    with pytest.raises(NotImplementedError, match="scan.snapshot-id"):
        t.copy({"scan.snapshot-id": "1"})
    assert t.copy({}) is t
    rb = t.new_read_builder().with_projection(["file_path", "nope"])
    with pytest.raises(ValueError, match=r"db\.t\$files has no column 'nope'"):
        rb.new_scan().plan()
    rb = t.new_read_builder()
    rb.with_filter(rb.new_predicate_builder().equal("nope", 1))
    with pytest.raises(FileNotFoundError, match="nope"):
        rb.new_scan().plan()
    # the data table is untouched by all this
    assert cat.get_table("db.t").latest_snapshot_id() == 4


def test_empty_table(tmp_path):
    cat = cpaimon.CatalogFactory.create({"warehouse": str(tmp_path)})
    cat.create_database("db", True)
    cat.create_table("db.e", cpaimon.Schema.from_pyarrow_schema(DATA, options=dict(DE)), False)
    wh = str(tmp_path)
    for view in VIEWS:
        got, want = ours(wh, f"db.e${view}"), theirs(wh, f"db.e${view}")
        assert got.num_rows == want.num_rows, view
    assert ours(wh, "db.e$options").to_pylist() == [
        {"key": "row-tracking.enabled", "value": "true"},
        {"key": "data-evolution.enabled", "value": "true"}]


# ---------------------------------------------------------------------------------------------
# 4. The command line and SQL


def test_cli_cat(run_cli, cp_written):
    out = run_cli("cat", cp_written, "db.t$partitions", "--format", "json", check=True).stdout
    rows = [json.loads(line) for line in out.splitlines()]
    want = ours(cp_written, "db.t$partitions").to_pylist()
    assert [r["partition"] for r in rows] == [r["partition"] for r in want] == [
        "pt=__DEFAULT_PARTITION__", "pt=x", "pt=y"]
    assert [r["record_count"] for r in rows] == [r["record_count"] for r in want] == [1, 4, 2]
    out = run_cli("cat", cp_written, "db.t$snapshots", "--columns", "snapshot_id,next_row_id",
                  "--format", "csv", check=True).stdout
    assert out.splitlines() == ["snapshot_id,next_row_id", "1,3", "2,4", "3,4", "4,5"]
    bad = run_cli("cat", cp_written, "db.t$nope")
    assert bad.returncode == 1 and "Table db.t$nope does not exist." in bad.stderr
    bad = run_cli("cat", cp_written, "db.t$files", "--snapshot", "1")
    assert bad.returncode == 2 and "system table" in bad.stderr


def test_sql(run_cli, cp_written):
    sql = ("SELECT partition, count(*) AS n FROM db.t$files GROUP BY partition ORDER BY partition; "
           "SELECT key FROM db.`t$options` WHERE value = 'v1'")
    out = run_cli("sql", "--warehouse", cp_written, "--format", "json", "-e", sql,
                  check=True).stdout
    rows = [json.loads(line) for line in out.splitlines()]
    assert rows == [{"partition": "{null}", "n": 1}, {"partition": "{x}", "n": 2},
                    {"partition": "{y}", "n": 2}, {"key": "my.opt"}]
    bad = run_cli("sql", "--warehouse", cp_written, "-e", "DELETE FROM db.t$files")
    assert bad.returncode == 1 and "db.t$files is a system table" in bad.stderr


# ---------------------------------------------------------------------------------------------
# 5. Local time


def test_commit_time_is_local_wall_clock(cpaimon_bin, cp_written):
    """Java shows commit and schema times as LocalDateTime in the JVM's zone, file creation times
    as stored; cpaimon does the same in the process's TZ (checked against Java in the same zone)."""
    env = dict(os.environ, TZ="Asia/Kolkata")
    ident = "db.t$snapshots"
    with open(os.path.join(cp_written, "db.db", "t", "snapshot", "snapshot-1")) as f:
        millis = json.load(f)["timeMillis"]
    utc = datetime.datetime(1970, 1, 1) + datetime.timedelta(milliseconds=millis)
    res = subprocess.run([str(cpaimon_bin), "cat", cp_written, ident, "--format", "json",
                          "--columns", "snapshot_id,commit_time"], env=env, capture_output=True,
                         text=True, check=True)
    first = json.loads(res.stdout.splitlines()[0])
    assert _local(first["commit_time"]) == utc + datetime.timedelta(hours=5, minutes=30)
    java_out = subprocess.run(["java", "-jar", str(JAR), "read", cp_written, ident, "--columns",
                               "snapshot_id,commit_time"], env=env, capture_output=True, text=True,
                              check=True).stdout
    assert _local(json.loads(java_out.splitlines()[0])["commit_time"]) == _local(
        first["commit_time"])
    # file creation times are wall clock already: the same in any zone
    files = subprocess.run([str(cpaimon_bin), "cat", cp_written, "db.t$files", "--format", "json",
                            "--columns", "file_path,creation_time"], env=env, capture_output=True,
                           text=True, check=True).stdout
    here = ours(cp_written, "db.t$files", ["file_path", "creation_time"]).to_pylist()
    assert sorted(_local(json.loads(line)["creation_time"]) for line in files.splitlines()) == \
        sorted(r["creation_time"] for r in here)
