"""Avro data files (`file.format` = avro): tables whose data files are Avro, as pypaimon 2.1,
Spark and Flink write them. pypaimon writes and updates, cpaimon reads the same rows and hidden
columns; cpaimon writes, updates, backfills, upserts and compacts, pypaimon and Java 1.4.2 read
the same; statistics equal Java's for the same data; codecs and refusals. (Java interop of every
type, both ways and with partial-column files: test_java_interop.py, parametrized by FORMATS.)"""
import datetime
import decimal
import json
import pathlib

import fastavro
import pyarrow as pa
import pypaimon
import pytest

import cpaimon
from cpaimon.schema.data_types import ArrayType, AtomicType
from cpaimon.schema.schema_change import SchemaChange
from test_java_interop import java  # noqa: F401  (Java Paimon 1.4.2, the session fixture)
from test_java_interop import (ALL_TYPES, ALL_TYPES_PAIMON, all_types_rows, canon_rows,
                               cp_catalog, schema_doc)
from test_java_interop import cp_write as write  # one batch write and commit, either library

DE = {"row-tracking.enabled": "true", "data-evolution.enabled": "true", "file.format": "avro"}
HIDDEN = ["_ROW_ID", "_SEQUENCE_NUMBER"]

# The types pypaimon 2.1 writes into Avro (its PyarrowFieldParser.to_avro_type has no maps).
PY_SCHEMA = pa.schema([
    pa.field("id", pa.int32(), nullable=False), ("b", pa.bool_()), ("i8", pa.int8()),
    ("i16", pa.int16()), ("i64", pa.int64()), ("f32", pa.float32()), ("f64", pa.float64()),
    ("s", pa.string()), ("bin", pa.binary()), ("dec", pa.decimal128(12, 3)),
    ("d", pa.date32()), ("ts", pa.timestamp("us")), ("ts_ms", pa.timestamp("ms")),
    ("arr", pa.list_(pa.int64())), ("st", pa.struct([("x", pa.int32()), ("y", pa.string())])),
])


def py_rows(start, n):
    rows = []
    for i in range(start, start + n):
        null = i % 7 == 6
        rows.append({
            "id": i, "b": None if null else i % 2 == 0, "i8": None if null else i % 100 - 50,
            "i16": None if null else i * 3 - 500, "i64": None if null else i * -10_000_000_019,
            "f32": None if null else i / 8, "f64": None if null else (float("nan") if i == 3
                                                                     else i * 2.5 - 1),
            "s": None if null else f"s-{i}" * (i % 3), "bin": None if null else bytes([i % 256]),
            "dec": None if null else decimal.Decimal(f"{i}.{i % 1000:03d}"),
            "d": None if null else datetime.date(1999, 12, 31) + datetime.timedelta(days=i * 11),
            "ts": None if null else datetime.datetime(2024, 2, 29, 23, 59, 59, i),
            "ts_ms": None if null else datetime.datetime(1960, 1, 1, 0, 0, 1, (i % 1000) * 1000),
            "arr": None if null else [i, 2 * i, -i][: i % 4],  # (pypaimon: no NULL items)
            "st": None if null else {"x": i if i % 2 else None, "y": f"y{i}"},
        })
    return pa.Table.from_pylist(rows, schema=PY_SCHEMA)


def catalog(lib, wh):
    c = lib.CatalogFactory.create({"warehouse": str(wh)})
    c.create_database("db", True)
    return c


def create(lib, wh, schema, options=DE, name="t"):
    c = catalog(lib, wh)
    c.create_table(f"db.{name}", lib.Schema.from_pyarrow_schema(schema, options=dict(options)),
                   False)
    return c.get_table(f"db.{name}")


def update(table, data, cols):
    wb = table.new_batch_write_builder()
    upd = wb.new_update().with_update_type(cols)
    c = wb.new_commit()
    c.commit(upd.update_by_arrow_with_row_id(data))
    c.close()


def read(lib, wh, hidden=False, name="t", projection=None):
    t = lib.CatalogFactory.create({"warehouse": str(wh)}).get_table(f"db.{name}")
    names = projection or ([f.name for f in t.fields] + (HIDDEN if hidden else []))
    rb = t.new_read_builder().with_projection(names)
    out = rb.new_read().to_arrow(rb.new_scan().plan().splits())
    return sorted(canon_rows(out), key=lambda r: (r["id"] if "id" in r else 0,
                                                  r.get("_ROW_ID", 0)))


def data_files(wh, name="t"):
    return sorted(p for p in (pathlib.Path(wh) / "db.db" / name).rglob("data-*")
                  if p.is_file())


def avro_fields(path):
    with open(path, "rb") as f:
        r = fastavro.reader(f)
        schema = r.writer_schema
        if isinstance(schema, list):  # a partial-column file of Java: ["null", record]
            schema = schema[1]
        return [fl["name"] for fl in schema["fields"]], r.metadata["avro.codec"]


def test_pypaimon_writes_avro_cpaimon_reads(tmp_path):
    wh = tmp_path
    t = create(pypaimon, wh, PY_SCHEMA)
    for start, n in ((0, 9), (20, 13), (50, 1)):
        write(t, py_rows(start, n))
    # pypaimon's data-evolution update: partial-column Avro files beside the base files.
    update(t, pa.table({"_ROW_ID": pa.array([1, 12, 22], pa.int64()),
                        "s": ["upd-1", None, "upd-22"],
                        "i64": pa.array([7, 8, None], pa.int64())}), ["s", "i64"])
    files = data_files(wh)
    assert files and all(f.suffix == ".avro" for f in files)
    assert ["s", "i64"] in [avro_fields(f)[0] for f in files]  # the partial files
    expected = read(pypaimon, wh, hidden=True)
    assert [r["s"] for r in expected if r["_ROW_ID"] in (1, 12, 22)] == ["upd-1", None, "upd-22"]
    assert read(cpaimon, wh, hidden=True) == expected
    # Projections (the merged columns alone, the base columns alone) and a filter.
    for cols in (["s", "id"], ["d", "st", "id"], ["i64", "_ROW_ID", "id"]):
        assert read(cpaimon, wh, projection=cols) == read(pypaimon, wh, projection=cols)
    ct = cp_catalog(wh).get_table("db.t")
    rb = ct.new_read_builder()
    rb = rb.with_filter(rb.new_predicate_builder().greater_or_equal("id", 22))
    got = rb.new_read().to_arrow(rb.new_scan().plan().splits())
    assert sorted(got["id"].to_pylist()) == [r["id"] for r in expected if r["id"] >= 22]
    # Shards of the table read the same rows, together exactly once.
    ids = []
    for i in range(3):
        rb = ct.new_read_builder()
        scan = rb.new_scan().with_shard(i, 3)
        ids += rb.new_read().to_arrow(scan.plan().splits())["id"].to_pylist()
    assert sorted(ids) == [r["id"] for r in expected]


def test_cpaimon_writes_avro_pypaimon_and_java_read(tmp_path, java):  # noqa: F811
    wh = tmp_path
    schema = PY_SCHEMA.append(pa.field("m", pa.map_(pa.string(), pa.int32())))
    t = create(cpaimon, wh, schema)
    for start, n in ((0, 9), (20, 13)):
        rows = py_rows(start, n)
        write(t, rows.append_column("m", pa.array(
            [None if i % 5 == 4 else [(f"k{i}", i)] for i in range(start, start + n)],
            pa.map_(pa.string(), pa.int32()))))
    update(t, pa.table({"_ROW_ID": pa.array([0, 10, 21], pa.int64()),
                        "f64": [1.25, None, -3.5]}), ["f64"])
    # Backfill a new column with the shard updater, and upsert by key.
    cp_catalog(wh).alter_table("db.t", [SchemaChange.add_column(
        "emb", ArrayType(True, AtomicType("FLOAT")))])
    t = cp_catalog(wh).get_table("db.t")
    wb = t.new_batch_write_builder()
    upd = wb.new_update().with_read_projection(["id"]).with_update_type(["emb"])
    msgs = []
    for i in range(2):
        shard = upd.new_shard_updator(i, 2)
        for batch in shard.arrow_reader():
            shard.update_by_arrow_batch(pa.RecordBatch.from_pydict(
                {"emb": [[float(x), 0.5] for x in batch.column("id").to_pylist()]},
                schema=pa.schema([("emb", pa.list_(pa.float32()))])))
        msgs += shard.prepare_commit()
    wb.new_commit().commit(msgs)
    t = cp_catalog(wh).get_table("db.t")
    wb = t.new_batch_write_builder()
    up = pa.concat_tables([py_rows(5, 1), py_rows(99, 1)])
    up = up.set_column(up.schema.get_field_index("s"), "s", pa.array(["up-5", "new-99"]))
    up = up.append_column("m", pa.array([None, [("n", 1)]], pa.map_(pa.string(), pa.int32())))
    up = up.append_column("emb", pa.array([[5.0], None], pa.list_(pa.float32())))
    wb.new_commit().commit(wb.new_update().upsert_by_arrow_with_key(up, upsert_keys=["id"]))

    files = data_files(wh)
    assert files and all(f.suffix == ".avro" for f in files)
    written = sorted(avro_fields(f)[0] for f in files)
    assert ["emb"] in written and ["f64"] in written
    assert {avro_fields(f)[1] for f in files} == {"zstandard"}  # file.compression zstd
    ours = read(cpaimon, wh, hidden=True)
    assert read(pypaimon, wh, hidden=True) == ours
    by_id = {r["id"]: r for r in ours}
    assert by_id[0]["f64"] == 1.25 and by_id[21]["f64"] is None and by_id[32]["f64"] == -3.5
    assert by_id[5]["s"] == "up-5" and by_id[5]["emb"] == [5.0] and by_id[99]["s"] == "new-99"
    assert by_id[20]["emb"] == [20.0, 0.5] and by_id[20]["m"] == [["k20", 20]]
    # Java 1.4.2 reads the merged rows the same (maps compared as sets: JAVA_AVRO_MAP_ORDER).
    theirs = sorted(java.read(str(wh), "db.t", row_tracking=True), key=lambda r: r["id"])
    assert [{k: r[k] for k in ("id", "s", "f64", "emb", "_ROW_ID", "_SEQUENCE_NUMBER")}
            for r in theirs] == [{k: r[k] for k in ("id", "s", "f64", "emb", "_ROW_ID",
                                                    "_SEQUENCE_NUMBER")} for r in ours]


def stats_rows(wh, name):
    files = cp_catalog(wh).get_table(f"db.{name}$files")
    rb = files.new_read_builder().with_projection(
        ["record_count", "null_value_counts", "min_value_stats", "max_value_stats"])
    return rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist()


def test_avro_statistics_equal_javas(tmp_path, java):  # noqa: F811
    """The same rows written in one commit by Java 1.4.2 and by cpaimon into Avro tables: the
    data file's null counts, minima and maxima (Java's SimpleStatsCollector, truncate(16)) are
    the same, NaN and -0.0 included."""
    wh = str(tmp_path)
    rows = all_types_rows(0, 12)
    java.write(wh, "db.j", canon_rows(rows), schema=schema_doc(ALL_TYPES_PAIMON),
               options={"file.format": "avro"})
    t = create(cpaimon, wh, ALL_TYPES, options={"file.format": "avro"}, name="c")
    write(t, rows)
    theirs, ours = stats_rows(wh, "j"), stats_rows(wh, "c")
    assert len(theirs) == len(ours) == 1
    # Expected difference JAVA_1_4_2_NO_AVRO_BINARY_STATS: Java 1.4.2's stats collectors skip
    # values that are not Comparable, so BYTES/VARBINARY columns of Avro files get no bounds;
    # newer Java (Full/TruncateSimpleColStatsCollector compare byte[] since) and cpaimon do.
    bounds = {}
    for side, got in (("java", theirs[0]), ("cpaimon", ours[0])):
        for k in ("min_value_stats", "max_value_stats"):
            fields = dict(x.split("=", 1) for x in got[k].strip("{}").split(", "))
            bounds[side, k] = fields.pop("bin")
            got[k] = fields
    assert ours == theirs
    assert bounds["java", "min_value_stats"] == bounds["java", "max_value_stats"] == "null"
    assert bounds["cpaimon", "min_value_stats"] != "null"
    assert ours[0]["max_value_stats"]["f64"] == "NaN"  # Java's Double.compareTo order


def test_avro_compaction_keeps_rows_and_ids(tmp_path, java):  # noqa: F811
    wh = tmp_path
    t = create(cpaimon, wh, PY_SCHEMA)
    for start in (0, 10, 20):
        write(t, py_rows(start, 10))
    update(t, pa.table({"_ROW_ID": pa.array([3, 15], pa.int64()), "s": ["x", "y"]}), ["s"])
    before = read(cpaimon, wh, hidden=True)
    res = cp_catalog(wh).get_table("db.t").compact()
    assert res.snapshot_id is not None
    files = java.files(str(wh), "db.t")
    assert {f["file_source"] for f in files} == {"COMPACT"} and len(files) == 1
    assert files[0]["file_name"].endswith(".avro")
    # As Java's DataEvolutionCompactTask: values and _ROW_ID kept, and every row of the rewritten
    # file takes its maximum sequence number (4, the update's snapshot).
    before = [{**r, "_SEQUENCE_NUMBER": 4} for r in before]
    assert read(cpaimon, wh, hidden=True) == before
    assert read(pypaimon, wh, hidden=True) == before
    theirs = sorted(java.read(str(wh), "db.t", row_tracking=True), key=lambda r: r["id"])
    assert [(r["id"], r["s"], r["_ROW_ID"], r["_SEQUENCE_NUMBER"]) for r in theirs] == [
        (r["id"], r["s"], r["_ROW_ID"], r["_SEQUENCE_NUMBER"]) for r in before]


@pytest.mark.parametrize("options, codec", [
    ({"file.compression": "zstd"}, "zstandard"), ({"file.compression": "snappy"}, "snappy"),
    ({"file.compression": "none"}, "null"), ({"avro.codec": "deflate"}, "deflate")])
def test_avro_codecs(tmp_path, options, codec):
    wh = tmp_path
    t = create(cpaimon, wh, PY_SCHEMA, options={**DE, **options})
    write(t, py_rows(0, 30))
    (f,) = data_files(wh)
    assert avro_fields(f) == (PY_SCHEMA.names, codec)
    assert read(pypaimon, wh, hidden=True) == read(cpaimon, wh, hidden=True)


def test_avro_refusals_leave_the_table_as_it_was(tmp_path):
    wh = tmp_path
    c = catalog(cpaimon, wh)
    ns = pa.schema([("id", pa.int32()), ("ts", pa.timestamp("ns"))])
    with pytest.raises(NotImplementedError,
                       match="Avro does not support TIMESTAMP type with precision: 9"):
        c.create_table("db.n", cpaimon.Schema.from_pyarrow_schema(ns, options=DE), False)
    assert "n" not in c.list_tables("db")
    t = create(cpaimon, wh, PY_SCHEMA)
    write(t, py_rows(0, 5))
    schema_before = cp_catalog(wh).get_table("db.t").table_schema.id
    with pytest.raises(NotImplementedError, match="column ns: Avro does not support TIMESTAMP"):
        cp_catalog(wh).alter_table("db.t", [SchemaChange.add_column(
            "ns", AtomicType("TIMESTAMP(9)"))])
    assert cp_catalog(wh).get_table("db.t").table_schema.id == schema_before
    # A codec Avro files cannot take: the write fails naming the table, nothing is committed.
    t = create(cpaimon, wh, PY_SCHEMA, options={**DE, "file.compression": "lz4"}, name="z")
    with pytest.raises(NotImplementedError, match="db.z: file.compression 'lz4_raw' is not an"):
        write(t, py_rows(0, 5))
    assert cp_catalog(wh).get_table("db.z").new_read_builder().new_scan().plan().splits() == []
    # A damaged data file: reads fail naming it.
    (f,) = data_files(wh)
    data = f.read_bytes()
    f.write_bytes(data[: len(data) - 40])
    with pytest.raises(OSError, match=f"Avro data file {f}"):
        read(cpaimon, wh)


def test_avro_schema_evolution_reads_old_files(tmp_path):
    wh = tmp_path
    schema = pa.schema([pa.field("id", pa.int32(), nullable=False), ("v", pa.int32()),
                        ("f", pa.float32())])
    t = create(cpaimon, wh, schema)
    write(t, pa.table({"id": pa.array([1, 2], pa.int32()), "v": pa.array([5, None], pa.int32()),
                       "f": pa.array([0.5, 1.5], pa.float32())}))
    cp_catalog(wh).alter_table("db.t", [
        SchemaChange.update_column_type("v", AtomicType("BIGINT")),
        SchemaChange.update_column_type("f", AtomicType("DOUBLE")),
        SchemaChange.add_column("w", AtomicType("STRING")),
        SchemaChange.rename_column("v", "v2")])
    t = cp_catalog(wh).get_table("db.t")
    write(t, pa.table({"id": pa.array([3], pa.int32()), "v2": pa.array([2**40], pa.int64()),
                       "f": [2.25], "w": ["new"]}))
    ours = read(cpaimon, wh, hidden=True)
    assert [(r["id"], r["v2"], r["f"], r["w"]) for r in ours] == [
        (1, 5, 0.5, None), (2, None, 1.5, None), (3, 2**40, 2.25, "new")]
    assert read(pypaimon, wh, hidden=True) == ours


def test_avro_tables_in_sql(tmp_path, run_cli):
    wh = tmp_path / "wh"
    p = run_cli("sql", "--warehouse", wh, "-e", """
        CREATE TABLE t (id INT NOT NULL, name STRING, score DOUBLE, tags ARRAY<STRING>)
          TBLPROPERTIES ('file.format' = 'avro', 'row-tracking.enabled' = 'true',
                         'data-evolution.enabled' = 'true');
        INSERT INTO t VALUES (1, 'a', 1.5, array('x')), (2, 'b', NULL, NULL), (3, 'c', 3.0, array());
        UPDATE t SET score = 9.5 WHERE id = 2;
        SELECT id, name, score, tags, _ROW_ID FROM t ORDER BY id;
        SELECT file_format, record_count FROM `t$files` ORDER BY record_count;""")
    assert p.returncode == 0, p.stderr
    assert "|  2|   b|  9.5|NULL|      1|" in p.stdout and "|  3|   c|  3.0|  []|      2|" in p.stdout
    assert p.stdout.count("|       avro|           3|") == 2  # the base file and the update's
    t = pypaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("default.t")
    rb = t.new_read_builder()
    got = sorted(rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist(),
                 key=lambda r: r["id"])
    assert got == [{"id": 1, "name": "a", "score": 1.5, "tags": ["x"]},
                   {"id": 2, "name": "b", "score": 9.5, "tags": None},
                   {"id": 3, "name": "c", "score": 3.0, "tags": []}]


def test_table_switching_format_reads_both_and_deletes(tmp_path):
    """A Parquet table switched to Avro (`SET file.format`) keeps reading its Parquet files by
    their extension and writes Avro from then on; deletion vectors work over both."""
    wh = tmp_path
    opts = {"row-tracking.enabled": "true", "data-evolution.enabled": "true",
            "deletion-vectors.enabled": "true"}
    t = create(cpaimon, wh, PY_SCHEMA, options=opts)
    write(t, py_rows(0, 10))
    cp_catalog(wh).alter_table("db.t", [SchemaChange.set_option("file.format", "avro")])
    t = cp_catalog(wh).get_table("db.t")
    write(t, py_rows(10, 10))
    assert sorted(f.suffix for f in data_files(wh)) == [".avro", ".parquet"]
    wb = t.new_batch_write_builder()
    wb.new_commit().commit(wb.new_update().delete_by_row_id([2, 15]))
    ours = read(cpaimon, wh, hidden=True)
    assert [r["id"] for r in ours] == [i for i in range(20) if i not in (2, 15)]
    assert read(pypaimon, wh, hidden=True) == ours
