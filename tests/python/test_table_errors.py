"""Corrupt metadata gives an error naming the file, and the table is left as it was."""
import json

import pyarrow as pa
import pytest

import cpaimon

SCHEMA = pa.schema([pa.field("id", pa.int32(), nullable=False), ("v", pa.string())])


def make_table(tmp_path, commits=2, options=None):
    """Table db.t of warehouse `tmp_path`, row tracking (and `options`), `commits` one-row
    commits; returns the catalog and the table directory."""
    catalog = cpaimon.CatalogFactory.create({"warehouse": str(tmp_path)})
    catalog.create_database("db", True)
    catalog.create_table("db.t", cpaimon.Schema.from_pyarrow_schema(
        SCHEMA, options={"row-tracking.enabled": "true", **(options or {})}))
    t = catalog.get_table("db.t")
    for i in range(commits):
        wb = t.new_batch_write_builder()
        w, c = wb.new_write(), wb.new_commit()
        w.write_arrow(pa.table({"id": pa.array([i], pa.int32()), "v": [str(i)]}))
        c.commit(w.prepare_commit())
    return catalog, tmp_path / "db.db" / "t"


def read(catalog, **kw):
    rb = catalog.get_table("db.t").new_read_builder()
    if "snapshot" in kw:
        rb = rb.with_snapshot(kw["snapshot"])
    return rb.new_read().to_arrow(rb.new_scan().plan().splits())


def test_corrupt_manifest_names_the_file(tmp_path):
    catalog, table_dir = make_table(tmp_path)
    snap = json.loads((table_dir / "snapshot/snapshot-2").read_text())
    manifest_list = table_dir / "manifest" / snap["deltaManifestList"]
    data = bytearray(manifest_list.read_bytes())
    data[len(data) // 2] ^= 0xFF
    data = data[: len(data) - 20]
    manifest_list.write_bytes(bytes(data))
    with pytest.raises(RuntimeError, match=snap["deltaManifestList"]):
        read(catalog)
    # The older snapshot does not reference it and still reads.
    assert read(catalog, snapshot=1).column("id").to_pylist() == [0]


def test_corrupt_snapshot_and_schema_name_the_file(tmp_path):
    catalog, table_dir = make_table(tmp_path)
    (table_dir / "snapshot/snapshot-2").write_text('{"id": 2, "schemaId": ')
    with pytest.raises(RuntimeError, match="snapshot-2"):
        read(catalog)
    (table_dir / "schema/schema-0").write_text('{"version": 3, "id": 0, "fields": [{"id": 0}]}')
    with pytest.raises(RuntimeError, match="schema-0"):
        catalog.get_table("db.t")


def test_empty_schema_and_snapshot_files_say_so(tmp_path):
    # Was "invalid JSON at line -1, column -1: wrong arguments" (jansson's words for no input).
    catalog, table_dir = make_table(tmp_path)
    (table_dir / "snapshot/snapshot-2").write_bytes(b"")
    with pytest.raises(RuntimeError, match=r"snapshot-2: the file is empty"):
        read(catalog)
    (table_dir / "schema/schema-0").write_bytes(b"")
    with pytest.raises(RuntimeError) as e:
        catalog.get_table("db.t")
    assert str(table_dir / "schema/schema-0") + ": the file is empty" in str(e.value)


def test_missing_data_file_names_the_file(tmp_path):
    catalog, table_dir = make_table(tmp_path, commits=1)
    data_file = next(table_dir.glob("bucket-0/*.parquet"))
    data_file.unlink()
    # Errors met while streaming reach pyarrow through the Arrow C stream (as OSError).
    with pytest.raises(OSError, match=data_file.name):
        read(catalog)


def test_stale_or_garbage_hint_is_tolerated(tmp_path):
    catalog, table_dir = make_table(tmp_path, commits=3)
    (table_dir / "snapshot/LATEST").write_text("1")   # stale
    assert sorted(read(catalog).column("id").to_pylist()) == [0, 1, 2]
    (table_dir / "snapshot/LATEST").write_text("xyz")  # garbage
    assert sorted(read(catalog).column("id").to_pylist()) == [0, 1, 2]
    (table_dir / "snapshot/LATEST").unlink()          # missing
    assert catalog.get_table("db.t").latest_snapshot_id() == 3


@pytest.mark.parametrize("fmt, shown", [("orc", "an ORC")])
def test_unsupported_data_file_format_says_which(tmp_path, run_cli, fmt, shown):
    # pypaimon (and Spark) write ORC data files; cpaimon reads Parquet and Avro only, and used to
    # say "not a Parquet file: bytes at offset N are not the PAR1 magic".
    import pypaimon
    py = pypaimon.CatalogFactory.create({"warehouse": str(tmp_path)})
    py.create_database("db", True)
    py.create_table("db.t", pypaimon.Schema.from_pyarrow_schema(
        SCHEMA, options={"file.format": fmt, "row-tracking.enabled": "true"}), False)
    t = py.get_table("db.t")
    wb = t.new_batch_write_builder()
    w, c = wb.new_write(), wb.new_commit()
    w.write_arrow(pa.table({"id": pa.array([1], pa.int32()), "v": ["a"]}))
    c.commit(w.prepare_commit())
    catalog = cpaimon.CatalogFactory.create({"warehouse": str(tmp_path)})
    data_file = next((tmp_path / "db.db" / "t" / "bucket-0").glob(f"*.{fmt}"))
    expected = (f"data file {data_file} is {shown} file (file.format '{fmt}'): cpaimon does not "
                f"read {shown.split()[1]} data files yet, only Parquet and Avro")
    with pytest.raises(OSError) as e:
        read(catalog)
    assert expected in str(e.value)
    p = run_cli("cat", tmp_path, "db.t")
    assert p.returncode == 1 and expected in p.stderr
