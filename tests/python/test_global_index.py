"""Global indexes pypaimon builds stay right when cpaimon changes the table (issue 14, item 11).
pypaimon 2.1 (table.create_global_index) writes btree index files with a _GLOBAL_INDEX record in
the index manifest. An update of an indexed column leaves the index answering with old values, so
Java and pypaimon apply global-index.column-update-action at commit: THROW_ERROR (the default)
refuses, DROP_PARTITION_INDEX drops the affected index entries, IGNORE keeps them. cpaimon does
the same, and keeps the entries byte for byte whenever it rewrites an index manifest. pypaimon is
the oracle throughout."""
import json
import pathlib

import fastavro
import pyarrow as pa
import pypaimon
import pytest

import cpaimon

SCHEMA = pa.schema([("id", pa.int32()), ("name", pa.string()), ("age", pa.int32())])


def make(tmp_path, options=None):
    wh = str(tmp_path / "wh")
    py = pypaimon.CatalogFactory.create({"warehouse": wh})
    py.create_database("db", True)
    opts = {"row-tracking.enabled": "true", "data-evolution.enabled": "true"}
    opts.update(options or {})
    py.create_table("db.t", pypaimon.Schema.from_pyarrow_schema(SCHEMA, options=opts), False)
    t = py.get_table("db.t")
    wb = t.new_batch_write_builder()
    w, c = wb.new_write(), wb.new_commit()
    w.write_arrow(pa.table({"id": pa.array([1, 2, 3], pa.int32()), "name": ["a", "b", "c"],
                            "age": pa.array([10, 20, 30], pa.int32())}))
    c.commit(w.prepare_commit())
    assert t.create_global_index("name") == 1
    return py, cpaimon.CatalogFactory.create({"warehouse": wh}), pathlib.Path(wh) / "db.db" / "t"


def latest(table_dir):
    ids = [int(p.name.split("-")[1]) for p in (table_dir / "snapshot").glob("snapshot-*")]
    return json.loads((table_dir / "snapshot" / f"snapshot-{max(ids)}").read_text())


def global_entries(table_dir):
    name = latest(table_dir).get("indexManifest")
    if not name:
        return []
    with open(table_dir / "manifest" / name, "rb") as f:
        return [r for r in fastavro.reader(f) if r["_GLOBAL_INDEX"] is not None]


def indexed_read(catalog, name):
    t = catalog.get_table("db.t")
    rb = t.new_read_builder()
    rb = rb.with_filter(rb.new_predicate_builder().equal("name", name))
    return rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist()


def update_name(catalog, row_id, value):
    t = catalog.get_table("db.t")
    wb = t.new_batch_write_builder()
    tu = wb.new_update()
    tu.with_update_type(["name"])
    msgs = tu.update_by_arrow_with_row_id(
        pa.table({"_ROW_ID": pa.array([row_id], pa.int64()), "name": [value]}))
    wb.new_commit().commit(msgs)


def test_update_of_an_indexed_column_is_refused_by_default(tmp_path):
    py, cp, table_dir = make(tmp_path)
    before = latest(table_dir)["id"]
    # The oracle refuses first ...
    with pytest.raises(RuntimeError, match="Update columns contain globally indexed columns"):
        update_name(py, 1, "zz")
    # ... and so does cpaimon (it used to commit, and pypaimon's indexed reads then missed the
    # changed row).
    with pytest.raises(RuntimeError) as e:
        update_name(cp, 1, "zz")
    assert "Update columns contain globally indexed columns, not supported now" in str(e.value)
    assert "Conflicted columns: [name]" in str(e.value)
    assert latest(table_dir)["id"] == before
    assert indexed_read(py, "b") == [{"id": 2, "name": "b", "age": 20}]
    # A column the index does not cover updates as before.
    t = cp.get_table("db.t")
    wb = t.new_batch_write_builder()
    tu = wb.new_update()
    tu.with_update_type(["age"])
    wb.new_commit().commit(tu.update_by_arrow_with_row_id(
        pa.table({"_ROW_ID": pa.array([1], pa.int64()), "age": pa.array([21], pa.int32())})))
    assert indexed_read(py, "b") == [{"id": 2, "name": "b", "age": 21}]


def test_sql_update_of_an_indexed_column_is_refused(tmp_path, run_cli):
    _, _, table_dir = make(tmp_path)
    p = run_cli("sql", "--warehouse", tmp_path / "wh", "-e", "UPDATE db.t SET name = 'q' WHERE id = 2")
    assert p.returncode == 1
    assert "Update columns contain globally indexed columns" in p.stderr


def test_drop_partition_index_drops_the_entries(tmp_path):
    results = []
    for lib in ("py", "cp"):
        py, cp, table_dir = make(tmp_path / lib,
                                 {"global-index.column-update-action": "DROP_PARTITION_INDEX"})
        update_name(py if lib == "py" else cp, 1, "zz")
        assert global_entries(table_dir) == []
        results.append((indexed_read(py, "zz"), indexed_read(py, "b")))
    assert results[0] == results[1] == ([{"id": 2, "name": "zz", "age": 20}], [])


def test_ignore_keeps_the_entries(tmp_path):
    py, cp, table_dir = make(tmp_path, {"global-index.column-update-action": "ignore"})
    entries = global_entries(table_dir)
    update_name(cp, 1, "zz")
    assert global_entries(table_dir) == entries


def test_rewritten_index_manifest_keeps_global_index_entries(tmp_path):
    # A cpaimon delete adds a deletion-vector index file, so it writes a new index manifest: the
    # btree entry must come through unchanged (cpaimon used to refuse to write it at all).
    py, cp, table_dir = make(tmp_path, {"deletion-vectors.enabled": "true"})
    entries = global_entries(table_dir)
    manifest_before = latest(table_dir)["indexManifest"]
    wb = cp.get_table("db.t").new_batch_write_builder()
    wb.new_commit().commit(wb.new_update().delete_by_row_id([2]))
    assert latest(table_dir)["indexManifest"] != manifest_before
    assert global_entries(table_dir) == entries
    assert indexed_read(py, "b") == [{"id": 2, "name": "b", "age": 20}]
    assert indexed_read(py, "c") == []  # deleted
    assert indexed_read(cp, "b") == [{"id": 2, "name": "b", "age": 20}]
