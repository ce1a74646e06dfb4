"""Table-level interop with pypaimon (the oracle): tables cpaimon writes are read identically by
pypaimon and the other way round, including the hidden _ROW_ID / _SEQUENCE_NUMBER, schema and
snapshot ids; both libraries commit alternately to one table; fastavro reads our manifests with
Java's conventions."""
import datetime
import decimal
import json
import pathlib

import fastavro
import pyarrow as pa
import pypaimon
import pytest

import cpaimon
from cpaimon.schema.data_types import AtomicType, DataField

ALL_TYPES = pa.schema([
    pa.field("id", pa.int32(), nullable=False),
    ("b", pa.bool_()),
    ("i8", pa.int8()),
    ("i16", pa.int16()),
    ("i64", pa.int64()),
    ("f32", pa.float32()),
    ("f64", pa.float64()),
    ("dec", pa.decimal128(10, 2)),
    ("bigdec", pa.decimal128(30, 5)),
    ("s", pa.string()),
    ("bin", pa.binary()),
    ("d", pa.date32()),
    ("ts", pa.timestamp("us")),
    ("ts_ms", pa.timestamp("ms")),
    ("ltz", pa.timestamp("us", tz="UTC")),
    ("arr", pa.list_(pa.float32())),
    ("m", pa.map_(pa.string(), pa.int32())),
    ("st", pa.struct([("x", pa.int32()), ("y", pa.string())])),
    ("dt", pa.string()),
])


def all_types_rows(start, n):
    rows = []
    for i in range(start, start + n):
        null = i % 5 == 4
        rows.append({
            "id": i,
            "b": None if null else i % 2 == 0,
            "i8": None if null else (i % 100) - 50,
            "i16": None if null else i * 7 - 300,
            "i64": None if null else i * 1_000_000_007,
            "f32": None if null else i / 4,
            "f64": None if null else i * 1.5 - 10,
            "dec": None if null else decimal.Decimal(f"{i}.{i % 100:02d}"),
            "bigdec": None if null else decimal.Decimal(f"-{i}123456789.12345"),
            "s": None if null else f"string-{i}" * (i % 3),
            "bin": None if null else bytes([i % 256, 0, 255]),
            "d": None if null else datetime.date(2020, 1, 1) + datetime.timedelta(days=i * 37),
            "ts": None if null else datetime.datetime(2024, 5, 14, 1, 2, 3, i * 11),
            "ts_ms": None if null else datetime.datetime(1969, 12, 31, 23, 59, 59, 123000),
            "ltz": None if null else datetime.datetime(2001, 2, 3, 4, 5, 6, i,
                                                       tzinfo=datetime.timezone.utc),
            "arr": None if null else [float(i), None, 0.5][: i % 4],
            "m": None if null else {f"k{j}": j for j in range(i % 3)},
            "st": None if null else {"x": i, "y": None if i % 2 else "y"},
            "dt": "p" + str(i % 2),
        })
    return pa.Table.from_pylist(rows, schema=ALL_TYPES)


def sorted_table(t, key="id"):
    return t.sort_by([(key, "ascending")])


def read_all(lib_table, projection=None):
    rb = lib_table.new_read_builder()
    if projection is not None:
        rb = rb.with_projection(projection)
    return rb.new_read().to_arrow(rb.new_scan().plan().splits())


def write(lib_table, data):
    wb = lib_table.new_batch_write_builder()
    w = wb.new_write()
    c = wb.new_commit()
    w.write_arrow(data)
    c.commit(w.prepare_commit())
    w.close()
    c.close()


def catalogs(warehouse):
    return (cpaimon.CatalogFactory.create({"warehouse": str(warehouse)}),
            pypaimon.CatalogFactory.create({"warehouse": str(warehouse)}))


def create(catalog_mod, catalog, name, schema, partition_keys=None, options=None):
    catalog.create_database("db", True)
    catalog.create_table(f"db.{name}",
                         catalog_mod.Schema.from_pyarrow_schema(schema, partition_keys=partition_keys,
                                                                options=options or {}),
                         False)
    return catalog.get_table(f"db.{name}")


HIDDEN = ["_ROW_ID", "_SEQUENCE_NUMBER"]


@pytest.mark.parametrize("partitioned", [False, True])
@pytest.mark.parametrize("row_tracking", [False, True])
def test_cpaimon_writes_pypaimon_reads(tmp_path, partitioned, row_tracking):
    cp_cat, py_cat = catalogs(tmp_path)
    options = {"row-tracking.enabled": "true"} if row_tracking else {}
    cp_t = create(cpaimon, cp_cat, "t", ALL_TYPES, ["dt"] if partitioned else None, options)
    batches = [all_types_rows(0, 7), all_types_rows(7, 11), all_types_rows(18, 1)]
    for b in batches:
        write(cp_t, b)
    expected = sorted_table(pa.concat_tables(batches))
    py_t = py_cat.get_table("db.t")
    got = sorted_table(read_all(py_t))
    assert got.select(expected.column_names).to_pylist() == expected.to_pylist()
    # Our own reading agrees.
    assert sorted_table(read_all(cp_t)).to_pylist() == expected.to_pylist()
    if row_tracking:
        cols = ["id"] + HIDDEN
        ours = sorted_table(read_all(cp_t, cols)).to_pylist()
        theirs = sorted_table(read_all(py_t, cols)).to_pylist()
        assert ours == theirs
        assert sorted(r["_ROW_ID"] for r in ours) == list(range(19))
        assert {r["_SEQUENCE_NUMBER"] for r in ours} == {1, 2, 3}
    assert py_t.table_schema.id == cp_t.schema_id == 0


@pytest.mark.parametrize("partitioned", [False, True])
def test_pypaimon_writes_cpaimon_reads(tmp_path, partitioned):
    cp_cat, py_cat = catalogs(tmp_path)
    py_t = create(pypaimon, py_cat, "t", ALL_TYPES, ["dt"] if partitioned else None,
                  {"row-tracking.enabled": "true"})
    batches = [all_types_rows(0, 5), all_types_rows(5, 9)]
    for b in batches:
        write(py_t, b)
    cp_t = cp_cat.get_table("db.t")
    expected = sorted_table(pa.concat_tables(batches))
    assert sorted_table(read_all(cp_t)).to_pylist() == expected.to_pylist()
    cols = ["id"] + HIDDEN
    assert (sorted_table(read_all(cp_t, cols)).to_pylist()
            == sorted_table(read_all(py_t, cols)).to_pylist())


def test_alternating_commits(tmp_path):
    cp_cat, py_cat = catalogs(tmp_path)
    schema = pa.schema([pa.field("id", pa.int32(), nullable=False), ("v", pa.string())])
    create(cpaimon, cp_cat, "t", schema, None, {"row-tracking.enabled": "true"})
    expected = []
    for round_ in range(4):
        lib_cat = cp_cat if round_ % 2 == 0 else py_cat
        t = lib_cat.get_table("db.t")
        data = pa.Table.from_pylist([{"id": round_ * 10 + i, "v": f"r{round_}"} for i in range(3)],
                                    schema=schema)
        write(t, data)
        expected += data.to_pylist()
    for lib_cat in (cp_cat, py_cat):
        t = lib_cat.get_table("db.t")
        rows = sorted_table(read_all(t, ["id", "v"] + HIDDEN)).to_pylist()
        assert [{"id": r["id"], "v": r["v"]} for r in rows] == sorted(expected, key=lambda r: r["id"])
        assert [r["_ROW_ID"] for r in rows] == list(range(12))
        assert [r["_SEQUENCE_NUMBER"] for r in rows] == [1] * 3 + [2] * 3 + [3] * 3 + [4] * 3
    snap = json.loads((tmp_path / "db.db/t/snapshot/snapshot-4").read_text())
    assert snap["nextRowId"] == 12 and snap["totalRecordCount"] == 12


def test_manifests_follow_java_conventions(tmp_path):
    cp_cat, _ = catalogs(tmp_path)
    schema = pa.schema([pa.field("id", pa.int32(), nullable=False), ("dt", pa.string())])
    t = create(cpaimon, cp_cat, "t", schema, ["dt"], {"row-tracking.enabled": "true"})
    write(t, pa.Table.from_pylist([{"id": 1, "dt": "a"}, {"id": 2, "dt": "b"}], schema=schema))
    table_dir = tmp_path / "db.db/t"
    snap = json.loads((table_dir / "snapshot/snapshot-1").read_text())
    with open(table_dir / "manifest" / snap["deltaManifestList"], "rb") as f:
        reader = fastavro.reader(f)
        assert reader.codec == "zstandard"
        metas = list(reader)
    assert [m["_VERSION"] for m in metas] == [2]
    manifest = metas[0]["_FILE_NAME"]
    with open(table_dir / "manifest" / manifest, "rb") as f:
        reader = fastavro.reader(f)
        schema_json = reader.writer_schema
        entries = list(reader)
    assert schema_json["name"] == "org.apache.paimon.avro.generated.record"
    file_fields = {f["name"]: f for f in schema_json["fields"][5]["type"]["fields"]}
    assert len(file_fields) == 21
    # Nullable fields are ["null", T] with null first and default null (Java's reader needs it).
    for name in ("_CREATION_TIME", "_DELETE_ROW_COUNT", "_FILE_SOURCE", "_FIRST_ROW_ID",
                 "_WRITE_COLS", "_WRITE_COLS_SEQUENCES", "_VALUE_STATS_COLS"):
        assert file_fields[name]["type"][0] == "null" and "default" in file_fields[name]
    assert file_fields["_CREATION_TIME"]["type"][1]["logicalType"] == "timestamp-millis"
    assert [e["_VERSION"] for e in entries] == [2, 2]
    assert sorted(e["_FILE"]["_FIRST_ROW_ID"] for e in entries) == [0, 1]
    assert all(e["_FILE"]["_FILE_SOURCE"] == 0 and e["_TOTAL_BUCKETS"] == -1 for e in entries)
    assert all(e["_FILE"]["_VALUE_STATS"]["_NULL_COUNTS"] == [0, 0] for e in entries)
    for e in entries:
        part_dir = table_dir / ("dt=" + ("a" if e["_FILE"]["_FIRST_ROW_ID"] == 0 else "b"))
        assert (part_dir / "bucket-0" / e["_FILE"]["_FILE_NAME"]).exists()


def manifest_list(table_dir, name):
    with open(table_dir / "manifest" / name, "rb") as f:
        return list(fastavro.reader(f))


def test_manifests_roll_at_target_size_and_merge(tmp_path):
    """manifest.target-file-size (spec/format.md §6.1 step 5, §6.7): a commit with more entries
    than fit the target writes several manifest files, each but the last at least the target, as
    Java's rolling writer; minor compaction merges small base manifests into rolled files and
    leaves files at the target alone on later commits. pypaimon reads every step identically."""
    cp_cat, py_cat = catalogs(tmp_path)
    schema = pa.schema([pa.field("id", pa.int32(), nullable=False), ("dt", pa.string())])
    target = 4 * 1024
    t = create(cpaimon, cp_cat, "t", schema, ["dt"],
               {"row-tracking.enabled": "true", "manifest.target-file-size": "4kb",
                "manifest.merge-min-count": "5"})
    table_dir = tmp_path / "db.db/t"
    # One commit of 600 files (one per partition).
    write(t, pa.Table.from_pylist([{"id": i, "dt": f"p{i:04d}"} for i in range(600)],
                                  schema=schema))
    snap = json.loads((table_dir / "snapshot/snapshot-1").read_text())
    delta = manifest_list(table_dir, snap["deltaManifestList"])
    sizes = [m["_FILE_SIZE"] for m in delta]
    assert len(delta) >= 3 and all(s >= target for s in sizes[:-1]), sizes
    assert sum(m["_NUM_ADDED_FILES"] for m in delta) == 600
    for m in delta:  # the list's sizes are the files' and every file holds its counted entries
        assert (table_dir / "manifest" / m["_FILE_NAME"]).stat().st_size == m["_FILE_SIZE"]
        with open(table_dir / "manifest" / m["_FILE_NAME"], "rb") as f:
            assert len(list(fastavro.reader(f))) == m["_NUM_ADDED_FILES"]
    # Small commits: the base list merges them (merge-min-count 5) without rewriting the rolled
    # files, which stay at or above the target.
    for k in range(8):
        write(t, pa.Table.from_pylist([{"id": 1000 + k, "dt": "p0000"}], schema=schema))
    last = json.loads((table_dir / "snapshot/snapshot-9").read_text())
    base = manifest_list(table_dir, last["baseManifestList"])
    base_names = {m["_FILE_NAME"] for m in base}
    assert {m["_FILE_NAME"] for m in delta[:-1]} <= base_names
    assert len(base) < len(delta) + 8
    expected = sorted([{"id": i, "dt": f"p{i:04d}"} for i in range(600)] +
                      [{"id": 1000 + k, "dt": "p0000"} for k in range(8)], key=lambda r: r["id"])
    for lib_cat in (cp_cat, py_cat):
        rows = sorted_table(read_all(lib_cat.get_table("db.t"), ["id", "dt"] + HIDDEN))
        assert rows.select(["id", "dt"]).to_pylist() == expected
        assert sorted(rows["_ROW_ID"].to_pylist()) == list(range(608))


def test_errors_name_the_column_and_leave_table_unchanged(tmp_path):
    cp_cat, py_cat = catalogs(tmp_path)
    schema = pa.schema([pa.field("id", pa.int32(), nullable=False), ("v", pa.string())])
    t = create(cpaimon, cp_cat, "t", schema, None, {"row-tracking.enabled": "true"})
    w = t.new_batch_write_builder().new_write()
    with pytest.raises(ValueError, match=r"Cannot write null to non-null column\(id\)"):
        w.write_arrow(pa.table({"id": pa.array([1, None], pa.int32()), "v": ["a", "b"]}))
    with pytest.raises(ValueError, match="nope"):
        w.write_arrow(pa.table({"id": pa.array([1], pa.int32()), "nope": ["a"]}))
    with pytest.raises(ValueError, match="Column v is missing"):
        w.write_arrow(pa.table({"id": pa.array([1], pa.int32())}))
    with pytest.raises(ValueError, match="Column id"):
        w.write_arrow(pa.table({"id": ["x"], "v": ["a"]}))
    assert w.prepare_commit() == []
    assert t.latest_snapshot_id() == 0
    assert not any((tmp_path / "db.db/t").glob("bucket-0/*.parquet"))
    with pytest.raises(ValueError, match="Cannot define primary-key for row tracking table."):
        cp_cat.create_table("db.pk", cpaimon.Schema(
            [DataField(0, "id", AtomicType("INT NOT NULL"))], primary_keys=["id"],
            options={"row-tracking.enabled": "true"}))
    with pytest.raises(FileExistsError, match="Table db.t already exists."):
        cp_cat.create_table("db.t", cpaimon.Schema([DataField(0, "id", AtomicType("INT"))]))


def test_commit_messages_cross_processes(tmp_path):
    """Messages serialized by one writer commit from another committer."""
    cp_cat, py_cat = catalogs(tmp_path)
    schema = pa.schema([pa.field("id", pa.int32(), nullable=False), ("dt", pa.string())])
    t = create(cpaimon, cp_cat, "t", schema, ["dt"], {"row-tracking.enabled": "true"})
    w = t.new_batch_write_builder().new_write()
    w.write_arrow(pa.table({"id": pa.array([1, 2, 3], pa.int32()), "dt": ["a", "b", "a"]}))
    blobs = [m.serialize() for m in w.prepare_commit()]
    w.close()
    from cpaimon.write import CommitMessage
    t2 = cpaimon.CatalogFactory.create({"warehouse": str(tmp_path)}).get_table("db.t")
    c = t2.new_batch_write_builder().new_commit()
    c.commit([CommitMessage.deserialize(b) for b in blobs])
    py = sorted_table(read_all(py_cat.get_table("db.t"), ["id", "dt"] + HIDDEN)).to_pylist()
    assert [r["id"] for r in py] == [1, 2, 3]
    assert sorted(r["_ROW_ID"] for r in py) == [0, 1, 2]


def test_schema_evolution_add_rename_drop(tmp_path):
    cp_cat, py_cat = catalogs(tmp_path)
    schema = pa.schema([pa.field("id", pa.int32(), nullable=False), ("name", pa.string())])
    t = create(cpaimon, cp_cat, "t", schema, None, {"row-tracking.enabled": "true"})
    write(t, pa.table({"id": pa.array([1], pa.int32()), "name": ["a"]}))
    from cpaimon.schema.data_types import ArrayType
    from cpaimon.schema.schema_change import SchemaChange
    cp_cat.alter_table("db.t", [SchemaChange.add_column("emb", ArrayType(True, AtomicType("FLOAT"))),
                                SchemaChange.rename_column("name", "full_name")])
    t = cp_cat.get_table("db.t")
    write(t, pa.table({"id": pa.array([2], pa.int32()), "full_name": ["b"],
                       "emb": pa.array([[0.5, 1.0]], pa.list_(pa.float32()))}))
    for lib_cat in (cp_cat, py_cat):
        rows = sorted_table(read_all(lib_cat.get_table("db.t"))).to_pylist()
        assert rows == [{"id": 1, "full_name": "a", "emb": None},
                        {"id": 2, "full_name": "b", "emb": [0.5, 1.0]}]
    with pytest.raises(ValueError, match="Column emb2 cannot specify NOT NULL in the db.t table."):
        cp_cat.alter_table("db.t", SchemaChange.add_column("emb2", AtomicType("INT NOT NULL")))


def test_reads_pypaimon_data_evolution_updates(tmp_path):
    """pypaimon writes partial-column files (update by _ROW_ID, shard update of an added column);
    cpaimon's merged read gives the same rows and hidden columns (data-evolution.md §2.4–2.5)."""
    cp_cat, py_cat = catalogs(tmp_path)
    schema = pa.schema([pa.field("id", pa.int32(), nullable=False), ("name", pa.string()),
                        ("age", pa.int32())])
    py_t = create(pypaimon, py_cat, "t", schema, None,
                  {"row-tracking.enabled": "true", "data-evolution.enabled": "true"})
    write(py_t, pa.table({"id": pa.array([1, 2, 3], pa.int32()), "name": ["a", "b", "c"],
                          "age": pa.array([10, 20, 30], pa.int32())}))
    write(py_t, pa.table({"id": pa.array([4, 5], pa.int32()), "name": ["d", "e"],
                          "age": pa.array([40, 50], pa.int32())}))
    wb = py_t.new_batch_write_builder()
    upd = wb.new_update().with_update_type(["age"])
    c = wb.new_commit()
    c.commit(upd.update_by_arrow_with_row_id(pa.table({
        "_ROW_ID": pa.array([1, 4], pa.int64()), "age": pa.array([21, 51], pa.int32())})))
    c.close()
    from pypaimon.schema.data_types import ArrayType as PyArrayType, AtomicType as PyAtomicType
    from pypaimon.schema.schema_change import SchemaChange as PySchemaChange
    py_cat.alter_table("db.t", [PySchemaChange.add_column(
        "emb", PyArrayType(True, PyAtomicType("FLOAT")))])
    py_t = py_cat.get_table("db.t")
    wb = py_t.new_batch_write_builder()
    upd = wb.new_update()
    upd.with_read_projection(["id"])
    upd.with_update_type(["emb"])
    shard = upd.new_shard_updator(0, 2)  # only the first group gets embeddings
    for batch in shard.arrow_reader():
        ids = batch.column("id").to_pylist()
        shard.update_by_arrow_batch(pa.RecordBatch.from_pydict(
            {"emb": [[float(i)] * 2 for i in ids]},
            schema=pa.schema([("emb", pa.list_(pa.float32()))])))
    c = wb.new_commit()
    c.commit(shard.prepare_commit())
    c.close()
    cols = ["id", "name", "age", "emb"] + HIDDEN
    theirs = sorted_table(read_all(py_cat.get_table("db.t"), cols)).to_pylist()
    ours = sorted_table(read_all(cp_cat.get_table("db.t"), cols)).to_pylist()
    assert ours == theirs
    assert [r["age"] for r in ours] == [10, 21, 30, 40, 51]
    assert [r["emb"] is not None for r in ours] == [True] * 3 + [False] * 2
    assert [r["_ROW_ID"] for r in ours] == [0, 1, 2, 3, 4]
    # Every row of a group reads the newest file's sequence number (§2.5).
    assert [r["_SEQUENCE_NUMBER"] for r in ours] == [4, 4, 4, 3, 3]


@pytest.mark.parametrize("data_evolution", [False, True])
def test_filters_match_pypaimon_and_prune(tmp_path, data_evolution):
    cp_cat, py_cat = catalogs(tmp_path)
    options = {"row-tracking.enabled": "true"}
    if data_evolution:
        options["data-evolution.enabled"] = "true"
    t = create(cpaimon, cp_cat, "t", ALL_TYPES, ["dt"], options)
    for start in range(0, 40, 10):  # four commits, two partitions each → 8 files
        write(t, all_types_rows(start, 10))
    py_t = py_cat.get_table("db.t")

    def check(build, expect_splits=None):
        rb = t.new_read_builder()
        rb.with_filter(build(rb.new_predicate_builder()))
        plan = rb.new_scan().plan()
        ours = sorted_table(rb.new_read().to_arrow(plan.splits())).to_pylist()
        prb = py_t.new_read_builder()
        prb.with_filter(build(prb.new_predicate_builder()))
        theirs = sorted_table(prb.new_read().to_arrow(prb.new_scan().plan().splits())).to_pylist()
        assert ours == theirs
        if expect_splits is not None:
            assert len(plan.splits()) == expect_splits
        return ours

    assert len(check(lambda pb: pb.equal("dt", "p1"), expect_splits=4)) == 20
    rows = check(lambda pb: pb.between("id", 12, 17))
    assert [r["id"] for r in rows] == list(range(12, 18))
    if not data_evolution:  # file statistics prune files of whole rows
        check(lambda pb: pb.less_than("id", 10), expect_splits=2)
    check(lambda pb: pb.is_null("s"))
    check(lambda pb: pb.and_predicates([pb.is_not_null("b"), pb.greater_or_equal("f64", 20.0)]))
    check(lambda pb: pb.or_predicates([pb.startswith("s", "string-1"), pb.is_in("i16", [-293, 5])]))
    check(lambda pb: pb.is_not_in("dt", ["p0"]))
    hidden = t.new_read_builder().with_projection(["id", "_ROW_ID"])
    hidden.with_filter(hidden.new_predicate_builder().equal("_ROW_ID", 7))
    assert len(hidden.new_read().to_arrow(hidden.new_scan().plan().splits())) == 1
    with pytest.raises(ValueError, match="age"):
        rb = t.new_read_builder()
        rb.with_filter(rb.new_predicate_builder().equal("age", 1))
        rb.new_scan().plan()
