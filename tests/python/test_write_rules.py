"""Write behaviours cpaimon now shares with pypaimon 2.1 (issue 15 item 9): the input of a
``with_write_type`` writer may hold every table column (the write columns are taken), other
inputs fail with pypaimon's "Input schema isn't consistent ..." message; ``target-file-row-num``
rolls data-evolution files by row count exactly where pypaimon does and is refused on other
tables; data files are numbered per partition (the first in each is ``-0``)."""
import glob
import os

import pyarrow as pa
import pypaimon
import pytest

import cpaimon

SCHEMA = pa.schema([("x", pa.int32()), ("y", pa.string()), ("p", pa.string())])
DE = {"row-tracking.enabled": "true", "data-evolution.enabled": "true"}


def make(lib, opts, name, options):
    cat = lib.CatalogFactory.create(opts)
    cat.create_database("d", True)
    cat.create_table(f"d.{name}", lib.Schema.from_pyarrow_schema(
        SCHEMA, partition_keys=["p"], options=options), False)
    return cat.get_table(f"d.{name}")


def files(opts, name):
    st = cpaimon.CatalogFactory.create(opts).get_table(f"d.{name}$files")
    rb = st.new_read_builder()
    return sorted((r["partition"], r["record_count"], r["first_row_id"], r["write_cols"])
                  for r in rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist())


def data(ids, p="a"):
    return pa.table({"x": pa.array(ids, pa.int32()), "y": [f"y{i}" for i in ids],
                     "p": [p] * len(ids)})


@pytest.mark.parametrize("lib", [cpaimon, pypaimon], ids=["cpaimon", "pypaimon"])
def test_write_type_takes_its_columns_from_a_whole_row(tmp_path, lib):
    opts = {"warehouse": str(tmp_path / "wh")}
    t = make(lib, opts, "t", DE)
    wb = t.new_batch_write_builder()
    w = wb.new_write().with_write_type(["x", "p"])
    w.write_arrow(data([1, 2]))  # every table column: x and p are written
    wb.new_commit().commit(w.prepare_commit())
    assert files(opts, "t") == [("{a}", 2, 0, ["x", "p"])]
    w = t.new_batch_write_builder().new_write().with_write_type(["x", "p"])
    with pytest.raises(ValueError, match="Input schema isn't consistent with table schema and "
                                         "write cols."):
        w.write_arrow(data([3]).select(["x", "y"]))  # neither the write columns nor the table's


def test_target_file_row_num_rolls_as_pypaimon(tmp_path):
    opts = {"warehouse": str(tmp_path / "wh")}
    for lib in (cpaimon, pypaimon):
        t = make(lib, opts, lib.__name__, dict(DE, **{"target-file-row-num": "3"}))
        wb = t.new_batch_write_builder()
        w = wb.new_write()
        w.write_arrow(pa.concat_tables([data(range(7)), data([7], "b")]))
        w.write_arrow(data([8, 9]))
        wb.new_commit().commit(w.prepare_commit())
    assert files(opts, "cpaimon") == files(opts, "pypaimon")
    assert [f[1] for f in files(opts, "cpaimon")] == [3, 3, 3, 1]
    for lib in (cpaimon, pypaimon):
        t = make(lib, opts, f"plain_{lib.__name__}", {"target-file-row-num": "3"})
        w = t.new_batch_write_builder().new_write()
        with pytest.raises(NotImplementedError, match="target-file-row-num"):
            w.write_arrow(data([1]))
            w.prepare_commit()
    with pytest.raises(ValueError, match="target-file-row-num should be at least 1"):
        make(cpaimon, opts, "zero", dict(DE, **{"target-file-row-num": "0"}))


def test_files_are_numbered_per_partition(tmp_path):
    opts = {"warehouse": str(tmp_path / "wh")}
    t = make(cpaimon, opts, "t", DE)
    wb = t.new_batch_write_builder()
    w = wb.new_write()
    w.write_arrow(pa.concat_tables([data([1], "a"), data([2], "b"), data([3], "c")]))
    wb.new_commit().commit(w.prepare_commit())
    names = glob.glob(str(tmp_path / "wh" / "d.db" / "t" / "p=*" / "bucket-0" / "*.parquet"))
    assert len(names) == 3
    assert all(os.path.basename(n).endswith("-0.parquet") for n in names)


def test_commit_message_new_files_as_pypaimon(tmp_path):
    """CommitMessage.new_files: the fields of each new file users inspect, as pypaimon's
    DataFileMeta has them (cpaimon hands one message for every partition; pypaimon one per
    partition and bucket, so the files are compared across all messages)."""
    opts = {"warehouse": str(tmp_path / "wh")}
    got = {}
    for lib in (cpaimon, pypaimon):
        t = make(lib, opts, lib.__name__, DE)
        w = t.new_batch_write_builder().new_write().with_write_type(["x", "p"])
        w.write_arrow(pa.concat_tables([data([1, 2], "a"), data([3], "b")]).select(["x", "p"]))
        msgs = w.prepare_commit()
        got[lib] = sorted((f.row_count, f.schema_id, f.first_row_id, f.write_cols,
                           f.min_sequence_number, f.max_sequence_number)
                          for m in msgs for f in m.new_files)
        assert all(f.file_name.endswith(".parquet") and f.file_size > 0
                   for m in msgs for f in m.new_files)
    assert got[cpaimon] == got[pypaimon]
    assert [g[0] for g in got[cpaimon]] == [1, 2]


@pytest.mark.parametrize("lib", [cpaimon, pypaimon], ids=["cpaimon", "pypaimon"])
def test_map_column_updated_from_lists_of_pairs(tmp_path, lib):
    """update_by_arrow_with_row_id of a MAP<STRING, STRING> column from the Arrow column pyarrow
    infers for Python (key, value) pairs (list<list<string>>): both libraries take it."""
    opts = {"warehouse": str(tmp_path / "wh")}
    cat = lib.CatalogFactory.create(opts)
    cat.create_database("d", True)
    cat.create_table("d.m", lib.Schema.from_pyarrow_schema(pa.schema([
        ("id", pa.int32()), ("m", pa.map_(pa.string(), pa.string()))]), options=DE), False)
    t = cat.get_table("d.m")
    wb = t.new_batch_write_builder()
    w = wb.new_write()
    w.write_arrow(pa.table({"id": pa.array([1, 2], pa.int32()), "m": pa.array(
        [[("a", "1")], [("b", "2")]], pa.map_(pa.string(), pa.string()))}))
    wb.new_commit().commit(w.prepare_commit())
    update = pa.table({"_ROW_ID": pa.array([0, 1], pa.int64()),
                       "m": pa.array([[("k", "v"), ("k2", "v2")], None])})
    assert update.schema.field("m").type == pa.list_(pa.list_(pa.string()))
    wb = t.new_batch_write_builder()
    wb.new_commit().commit(wb.new_update().with_update_type(["m"]).update_by_arrow_with_row_id(
        update))
    rb = pypaimon.CatalogFactory.create(opts).get_table("d.m").new_read_builder()
    assert rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist() == [
        {"id": 1, "m": [("k", "v"), ("k2", "v2")]}, {"id": 2, "m": None}]


def _generic_row(lib, values, fields):
    return lib.table.row.generic_row.GenericRow(values, fields)


@pytest.mark.parametrize("lib", [cpaimon, pypaimon], ids=["cpaimon", "pypaimon"])
def test_write_row(tmp_path, lib):
    """write_row (pypaimon's): GenericRows with their fields, interleaved with write_arrow, land
    in write order; a row without the partition key or a write column is refused with pypaimon's
    message; with_write_type writes the rows' write columns. Both libraries write the same rows,
    and each reads the other's table the same."""
    import importlib
    importlib.import_module(lib.__name__ + ".table.row.generic_row")
    opts = {"warehouse": str(tmp_path)}
    t = make(lib, opts, "r", {"row-tracking.enabled": "true"})
    wb = t.new_batch_write_builder()
    w = wb.new_write()
    fields = t.fields
    w.write_row(_generic_row(lib, [1, "y1", "a"], fields))
    w.write_arrow(data([2, 3]))
    for i in (4, 5):
        w.write_row(_generic_row(lib, [i, f"y{i}", "b"], fields))
    with pytest.raises(ValueError, match=r"write_row requires row field\(s\) \['p'\]"):
        w.write_row(_generic_row(lib, [9, "y9"], fields[:2]))
    wb.new_commit().commit(w.prepare_commit())
    w.close()
    for reader in (cpaimon, pypaimon):
        rt = reader.CatalogFactory.create(opts).get_table("d.r")
        rb = rt.new_read_builder().with_projection(["x", "y", "p", "_ROW_ID"])
        got = sorted(rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist(),
                     key=lambda r: r["x"])
        assert [(r["x"], r["y"], r["p"]) for r in got] == [
            (1, "y1", "a"), (2, "y2", "a"), (3, "y3", "a"), (4, "y4", "b"), (5, "y5", "b")]
        assert sorted(r["_ROW_ID"] for r in got) == [0, 1, 2, 3, 4]
