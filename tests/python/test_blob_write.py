"""Writing BLOB columns (issue 17; spec/maintenance-and-blob.md §5.3, §5.5): cpaimon splits rows
into the Parquet file and one `.blob` file per BLOB field, rolling them at
blob.target-file-size and closing them with their normal file; the committer gives a field's
files the row ids of their normal file. pypaimon 2.1 and Java Paimon 1.4.2 read what cpaimon wrote
exactly as cpaimon does, hidden columns included. What is not supported yet is refused before
anything is written: BlobDescriptor values naming nothing readable, BLOB-only writes. Blob updates by row id (`.blob`
files with placeholders, as pypaimon writes them) are read the same by pypaimon and Java; a BLOB
column added later is backfilled by row id or by the shard updater into `.blob` files covering
whole groups, which Java 1.4.2 reads too."""
import base64
import os

import pyarrow as pa
import pypaimon
import pytest

import cpaimon
from cpaimon.schema.data_types import AtomicType
from cpaimon.schema.schema_change import SchemaChange
from test_java_interop import java  # noqa: F401  (Java Paimon 1.4.2, the session fixture)

COLS = ["id", "v", "pic", "_ROW_ID", "_SEQUENCE_NUMBER"]
JAVA_1_4_2_BLOB_UPDATES = "All files in a field merge split should have the same row count."


def create(wh, lib=cpaimon, **options):
    """Table db.t (id INT, v STRING, pic BLOB) with data evolution, made by `lib`."""
    cat = lib.CatalogFactory.create({"warehouse": str(wh)})
    cat.create_database("db", True)
    cat.create_table("db.t", lib.Schema.from_pyarrow_schema(
        pa.schema([("id", pa.int32()), ("v", pa.string()), ("pic", pa.large_binary())]),
        options={"row-tracking.enabled": "true", "data-evolution.enabled": "true", **options}),
        False)
    return cat.get_table("db.t")


def write(t, ids, pics, binary=pa.large_binary()):
    wb = t.new_batch_write_builder()
    w, c = wb.new_write(), wb.new_commit()
    w.write_arrow(pa.table({"id": pa.array(ids, pa.int32()), "v": [f"v{i}" for i in ids],
                            "pic": pa.array(pics, binary)}))
    c.commit(w.prepare_commit())
    w.close()
    c.close()


def read(lib, wh):
    t = lib.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    rb = t.new_read_builder().with_projection(COLS)
    rows = rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist()
    return sorted(tuple(r.values()) for r in rows)


def java_read(java, wh):  # noqa: F811
    out = []
    for r in java.read(wh, "db.t", row_tracking=True):
        pic = None if r["pic"] is None else base64.b64decode(r["pic"])
        out.append((r["id"], r["v"], pic, r["_ROW_ID"], r["_SEQUENCE_NUMBER"]))
    return sorted(out)


def files(wh, suffix):
    return sorted(p.name for p in (wh / "db.db" / "t").rglob(f"*{suffix}"))


@pytest.mark.parametrize("target", [None, "1 kb"])
def test_written_blobs_read_by_pypaimon_and_java(tmp_path, run_cli, java, target):  # noqa: F811
    wh = tmp_path / "wh"
    t = create(wh, **({"blob.target-file-size": target} if target else {}))
    big = os.urandom(300_000)
    write(t, list(range(8)), [b"a", None, b"", big, bytes(range(256)) * 3, None, b"z" * 900, b"q"])
    write(t, [100, 101], [None, None])
    write(t, list(range(200, 230)), [bytes([i]) * (i * 13) for i in range(30)],
          binary=pa.binary())  # plain binary input converts
    blobs = files(wh, ".blob")
    assert len(files(wh, ".parquet")) == 3
    assert (len(blobs) > 6) == (target is not None)
    ours = read(cpaimon, wh)
    assert ours == read(pypaimon, wh) == java_read(java, wh)
    assert [r[2] for r in ours][:8] == [b"a", None, b"", big, bytes(range(256)) * 3, None,
                                        b"z" * 900, b"q"]
    assert [r[3] for r in ours] == list(range(len(ours)))  # row ids 0..39
    check = run_cli("check", wh, "db.t")
    assert check.returncode == 0 and "0 violation(s)" in check.stdout, check.stdout + check.stderr


def test_partitioned_and_updates_around_blobs(tmp_path, java):  # noqa: F811
    """A partitioned blob table; an update of the other columns by row id (partial Parquet files
    beside the `.blob` files), read the same by all three; compaction keeps the blobs."""
    wh = tmp_path / "wh"
    cat = cpaimon.CatalogFactory.create({"warehouse": str(wh)})
    cat.create_database("db", True)
    cat.create_table("db.t", cpaimon.Schema.from_pyarrow_schema(
        pa.schema([("id", pa.int32()), ("v", pa.string()), ("pic", pa.large_binary()),
                   ("dt", pa.string())]), partition_keys=["dt"],
        options={"row-tracking.enabled": "true", "data-evolution.enabled": "true"}), False)
    t = cat.get_table("db.t")
    for k in range(3):
        wb = t.new_batch_write_builder()
        w, c = wb.new_write(), wb.new_commit()
        w.write_arrow(pa.table({"id": pa.array([2 * k, 2 * k + 1], pa.int32()),
                                "v": ["x", "y"],
                                "pic": pa.array([bytes([k]) * 50, None], pa.large_binary()),
                                "dt": ["a", "b"]}))
        c.commit(w.prepare_commit())
    t = cat.get_table("db.t")
    wb = t.new_batch_write_builder()
    msgs = wb.new_update().with_update_type(["v"]).update_by_arrow_with_row_id(
        pa.table({"_ROW_ID": pa.array([0, 3], pa.int64()), "v": ["u0", "u3"]}))
    wb.new_commit().commit(msgs)
    cols = ["id", "v", "pic", "dt", "_ROW_ID"]

    def rows(lib):
        tt = lib.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
        rb = tt.new_read_builder().with_projection(cols)
        return sorted(tuple(r.values()) for r in
                      rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist())

    before = rows(cpaimon)
    assert before == rows(pypaimon)
    assert [r[1] for r in before] == ["u0", "y", "x", "u3", "x", "y"]
    cat.get_table("db.t").compact(options={"compaction.min.file-num": "2"})
    assert rows(cpaimon) == before == rows(pypaimon)
    jr = sorted((r["id"], r["v"], None if r["pic"] is None else base64.b64decode(r["pic"]),
                 r["dt"], r["_ROW_ID"]) for r in java.read(wh, "db.t", row_tracking=True))
    assert jr == before


def test_refused_before_anything_is_written(tmp_path):
    wh = tmp_path / "wh"
    t = create(wh)
    write(t, [0], [b"ok"])
    state = sorted(p.name for p in (wh / "db.db" / "t").rglob("*") if p.is_file())
    # A serialized BlobDescriptor (version 2, "BLOBDESC") naming an object that does not exist
    # (test_blob_descriptor.py has the others).
    desc = bytes([2]) + b"CSEDBOLB" + (4).to_bytes(4, "little") + b"/x/y" + bytes(16)
    wb = t.new_batch_write_builder()
    w = wb.new_write()
    with pytest.raises(FileNotFoundError, match="column pic, row 1: .*/x/y"):
        w.write_arrow(pa.table({"id": pa.array([1, 2], pa.int32()), "v": ["a", "b"],
                                "pic": pa.array([b"fine", desc], pa.large_binary())}))
    w.close()
    # A value of another type for the BLOB column.
    w = t.new_batch_write_builder().new_write()
    with pytest.raises(ValueError, match="Column pic has type"):
        w.write_arrow(pa.table({"id": pa.array([1], pa.int32()), "v": ["a"],
                                "pic": pa.array([7], pa.int32())}))
    w.close()
    # BLOB columns alone.
    w = t.new_batch_write_builder().new_write().with_write_type(["pic"])
    with pytest.raises(NotImplementedError, match="BLOB columns only"):
        w.write_arrow(pa.table({"pic": pa.array([b"x"], pa.large_binary())}))
    w.close()
    assert sorted(p.name for p in (wh / "db.db" / "t").rglob("*") if p.is_file()) == state
    assert read(cpaimon, wh) == [(0, "v0", b"ok", 0, 1)]


def test_blob_updates_by_row_id(tmp_path, java):  # noqa: F811
    """cpaimon updates BLOB values by row id: per touched group a `.blob` file up to the last
    updated row, placeholders between; pypaimon, Java and cpaimon read the same, over two rounds
    of updates (the newer file wins, NULL included) and after a compaction."""
    wh = tmp_path / "wh"
    t = create(wh)
    write(t, list(range(6)), [bytes([i]) * 5 for i in range(6)])
    write(t, list(range(6, 10)), [None, b"g", b"h", b"i"])

    def update(ids, pics):
        tt = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
        wb = tt.new_batch_write_builder()
        msgs = wb.new_update().with_update_type(["pic"]).update_by_arrow_with_row_id(
            pa.table({"_ROW_ID": pa.array(ids, pa.int64()),
                      "pic": pa.array(pics, pa.large_binary())}))
        wb.new_commit().commit(msgs)

    update([1, 3, 6], [b"one", None, b"six"])
    update([3, 9], [b"three", b"nine"])
    ours = read(cpaimon, wh)
    assert [r[2] for r in ours] == [bytes([0]) * 5, b"one", bytes([2]) * 5, b"three",
                                    bytes([4]) * 5, bytes([5]) * 5, b"six", b"g", b"h", b"nine"]
    assert ours == read(pypaimon, wh)
    # JAVA_1_4_2_BLOB_UPDATES: Java 1.4.2 reads no table with a blob update shorter than its
    # group — pypaimon's own included (checked below) — current Paimon reads them with its
    # placeholder fallback (BlobFallbackRecordReader), as pypaimon and cpaimon do.
    with pytest.raises(Exception, match=JAVA_1_4_2_BLOB_UPDATES):
        java_read(java, wh)
    twin = tmp_path / "twin"
    write(create(twin, pypaimon), list(range(6)), [bytes([i]) * 5 for i in range(6)])
    pt = pypaimon.CatalogFactory.create({"warehouse": str(twin)}).get_table("db.t")
    wb = pt.new_batch_write_builder()
    wb.new_commit().commit(wb.new_update().with_update_type(["pic"]).update_by_arrow_with_row_id(
        pa.table({"_ROW_ID": pa.array([1], pa.int64()), "pic": pa.array([b"x"], pa.large_binary())})))
    with pytest.raises(Exception, match=JAVA_1_4_2_BLOB_UPDATES):
        java_read(java, twin)
    assert len(files(wh, ".blob")) == 2 + 4  # appended, then one per touched group and round
    cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t").compact(
        options={"compaction.min.file-num": "2"})
    assert [r[:4] for r in read(cpaimon, wh)] == [r[:4] for r in ours]
    assert read(cpaimon, wh) == read(pypaimon, wh)


PYPAIMON_SHARD_BLOB_IN_PARQUET = "Expecting BlobDescriptor version"


def blob_file_rows(wh):
    """The record counts of the table's current `.blob` files (its $files system table)."""
    t = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t$files")
    rb = t.new_read_builder()
    rows = rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist()
    return sorted(r["record_count"] for r in rows if r["file_path"].endswith(".blob"))


def add_pic(wh):
    cat = cpaimon.CatalogFactory.create({"warehouse": str(wh)})
    cat.alter_table("db.t", [SchemaChange.add_column("pic", AtomicType("BLOB"))])


def create_plain(wh, lib=cpaimon):
    cat = lib.CatalogFactory.create({"warehouse": str(wh)})
    cat.create_database("db", True)
    cat.create_table("db.t", lib.Schema.from_pyarrow_schema(
        pa.schema([("id", pa.int32()), ("v", pa.string())]),
        options={"row-tracking.enabled": "true", "data-evolution.enabled": "true"}), False)
    for ids in (range(0, 5), range(5, 8)):
        wb = cat.get_table("db.t").new_batch_write_builder()
        w, c = wb.new_write(), wb.new_commit()
        w.write_arrow(pa.table({"id": pa.array(list(ids), pa.int32()),
                                "v": [f"v{i}" for i in ids]}))
        c.commit(w.prepare_commit())
        w.close()
        c.close()


def shard_fill_pic(lib, wh):
    """Every row's pic computed from its id by one shard updater."""
    t = lib.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    wb = t.new_batch_write_builder()
    upd = wb.new_update()
    upd.with_read_projection(["id"])
    upd.with_update_type(["pic"])
    s = upd.new_shard_updator(0, 1)
    for batch in iter(s.arrow_reader().read_next_batch, None):
        pics = [None if i % 3 == 2 else b"img" + bytes([i]) * (i + 1)
                for i in batch["id"].to_pylist()]
        s.update_by_arrow_batch(pa.RecordBatch.from_pydict(
            {"pic": pa.array(pics, pa.large_binary())}))
    wb.new_commit().commit(s.prepare_commit())


def expected_pic(i):
    return None if i % 3 == 2 else b"img" + bytes([i]) * (i + 1)


def test_blob_column_added_later_backfilled_by_row_id(tmp_path, java):  # noqa: F811
    """ADD COLUMN pic BLOB on a table with rows; an update by row id of a few rows writes, per
    touched group, a `.blob` file over the whole group with NULL for the rows not given (there is
    no older value to fall back to): pypaimon writes the same layout; all three read the same."""
    wh = tmp_path / "wh"
    create_plain(wh)
    add_pic(wh)
    t = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    wb = t.new_batch_write_builder()
    wb.new_commit().commit(wb.new_update().with_update_type(["pic"]).update_by_arrow_with_row_id(
        pa.table({"_ROW_ID": pa.array([1, 6], pa.int64()),
                  "pic": pa.array([b"one", b"six"], pa.large_binary())})))
    ours = read(cpaimon, wh)
    assert [r[2] for r in ours] == [None, b"one", None, None, None, None, b"six", None]
    assert ours == read(pypaimon, wh) == java_read(java, wh)
    # Each group's blob file covers the whole group (5 and 3 rows).
    assert blob_file_rows(wh) == [3, 5]
    # A second round within a group that has its file now: placeholders fall back to it.
    t = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    wb = t.new_batch_write_builder()
    wb.new_commit().commit(wb.new_update().with_update_type(["pic"]).update_by_arrow_with_row_id(
        pa.table({"_ROW_ID": pa.array([0], pa.int64()),
                  "pic": pa.array([b"zero"], pa.large_binary())})))
    assert [r[2] for r in read(cpaimon, wh)] == [b"zero", b"one", None, None, None, None,
                                                 b"six", None]
    assert read(cpaimon, wh) == read(pypaimon, wh)


def test_blob_and_other_columns_updated_in_one_call(tmp_path, java):  # noqa: F811
    """with_update_type(["pic", "v"]): v goes into a partial Parquet file of its group, pic into a
    `.blob` file; pypaimon reads what cpaimon wrote the same."""
    wh = tmp_path / "wh"
    t = create(wh)
    write(t, list(range(4)), [bytes([i]) * 4 for i in range(4)])
    wb = t.new_batch_write_builder()
    wb.new_commit().commit(wb.new_update().with_update_type(["pic", "v"])
                           .update_by_arrow_with_row_id(pa.table({
                               "_ROW_ID": pa.array([2, 0], pa.int64()), "v": ["two", "zero"],
                               "pic": pa.array([b"P2", None], pa.large_binary())})))
    ours = read(cpaimon, wh)
    assert [(r[1], r[2]) for r in ours] == [("zero", None), ("v1", bytes([1]) * 4),
                                            ("two", b"P2"), ("v3", bytes([3]) * 4)]
    assert ours == read(pypaimon, wh)


def test_blob_column_backfilled_by_shard_updater(tmp_path, java):  # noqa: F811
    """The shard updater computing a BLOB column for every row writes it to `.blob` files (one per
    group, the whole group), as Java places BLOBs: cpaimon, pypaimon and Java read the same.
    PYPAIMON_SHARD_BLOB_IN_PARQUET: pypaimon 2.1's shard updater writes the BLOB values into a
    Parquet partial file instead, which Java 1.4.2 refuses; cpaimon reads that table as pypaimon
    does."""
    wh = tmp_path / "wh"
    create_plain(wh)
    add_pic(wh)
    shard_fill_pic(cpaimon, wh)
    ours = read(cpaimon, wh)
    assert [r[2] for r in ours] == [expected_pic(i) for i in range(8)]
    assert ours == read(pypaimon, wh) == java_read(java, wh)
    assert blob_file_rows(wh) == [3, 5]

    twin = tmp_path / "twin"
    create_plain(twin, pypaimon)
    add_pic(twin)
    shard_fill_pic(pypaimon, twin)
    assert files(twin, ".blob") == []  # pypaimon: the BLOB went into Parquet
    theirs = read(pypaimon, twin)
    assert [r[:3] for r in theirs] == [r[:3] for r in ours]
    assert read(cpaimon, twin) == theirs
    with pytest.raises(Exception, match=PYPAIMON_SHARD_BLOB_IN_PARQUET):
        java_read(java, twin)


def test_shard_updater_blob_rows_left_short_write_nothing(tmp_path):
    """A shard that stops before its last group's end is refused at prepare_commit and leaves no
    `.blob` or Parquet file behind."""
    wh = tmp_path / "wh"
    create_plain(wh)
    add_pic(wh)
    before = sorted(p.name for p in (wh / "db.db" / "t").rglob("*") if p.is_file())
    t = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    upd = t.new_batch_write_builder().new_update()
    upd.with_update_type(["pic", "v"])
    s = upd.new_shard_updator(0, 1)
    s.update_by_arrow_batch(pa.RecordBatch.from_pydict(
        {"pic": pa.array([b"x"] * 6, pa.large_binary()), "v": ["w"] * 6}))
    with pytest.raises(ValueError, match=r"row range \[5, 7\] received 1 of its 3 rows"):
        s.prepare_commit()
    del s, upd
    import gc
    gc.collect()
    assert sorted(p.name for p in (wh / "db.db" / "t").rglob("*") if p.is_file()) == before
