"""INSERT OVERWRITE (format.md §6, data-evolution.md §4.1) with pypaimon as the oracle: the same
overwrites done by each library on twin tables give the same rows, _ROW_ID, _SEQUENCE_NUMBER and
snapshot (kind, totals, nextRowId); each library reads what the other overwrote; the SQL statement
(Spark's static mode) is read back by pypaimon; a spec the new rows do not fit is refused with the
table unchanged. Every scenario ends with `cpaimon check`."""
import json
import pathlib

import pyarrow as pa
import pypaimon
import pytest

import cpaimon

SCHEMA = pa.schema([("id", pa.int32()), ("name", pa.string()), ("dt", pa.string())])
HIDDEN = ["id", "name", "dt", "_ROW_ID", "_SEQUENCE_NUMBER"]
RT = {"row-tracking.enabled": "true"}
DE_DV = {"row-tracking.enabled": "true", "data-evolution.enabled": "true",
         "deletion-vectors.enabled": "true"}


def rows(ids, dt):
    return pa.table({"id": pa.array(ids, pa.int32()), "name": [f"n{i}" for i in ids],
                     "dt": [dt] * len(ids)}, schema=SCHEMA)


def make(tmp_path, options, partition_keys=("dt",)):
    wh = str(tmp_path / "wh")
    pcat = pypaimon.CatalogFactory.create({"warehouse": wh})
    pcat.create_database("db", True)
    pcat.create_table("db.t", pypaimon.Schema.from_pyarrow_schema(
        SCHEMA, partition_keys=list(partition_keys), options=options), False)
    return wh


def table(lib, wh):
    return lib.CatalogFactory.create({"warehouse": wh}).get_table("db.t")


def write(lib, wh, data, overwrite=False, static_partition=None):
    """One commit by `lib`: an append, or an overwrite with pypaimon's builder API."""
    wb = table(lib, wh).new_batch_write_builder()
    if overwrite:
        wb = wb.overwrite(static_partition)
    w, c = wb.new_write(), wb.new_commit()
    if data is not None:
        w.write_arrow(data)
    msgs = w.prepare_commit()
    try:
        c.commit(msgs)
    except Exception:
        c.abort(msgs)  # as pypaimon, a failed commit leaves its files to the caller
        raise
    finally:
        w.close()
        c.close()


def read(lib, wh):
    rb = table(lib, wh).new_read_builder().with_projection(HIDDEN)
    return rb.new_read().to_arrow(rb.new_scan().plan().splits()).sort_by("_ROW_ID").to_pydict()


def snapshots(wh):
    out = []
    for p in sorted((pathlib.Path(wh) / "db.db" / "t" / "snapshot").glob("snapshot-*"),
                    key=lambda p: int(p.name.split("-")[1])):
        s = json.loads(p.read_text())
        out.append((s["id"], s["commitKind"], s["totalRecordCount"], s["deltaRecordCount"],
                    s.get("nextRowId")))
    return out


def check_clean(run_cli, wh):
    r = run_cli("check", wh, "db.t")
    assert r.returncode == 0, r.stdout + r.stderr


# Each step: (rows or None, overwrite, static_partition).
SCENARIOS = {
    "dynamic": (RT, {}, [
        (rows([1, 2, 3], "a"), False, None),
        (rows([4, 5], "b"), False, None),
        (rows([10], "a"), True, None),            # replaces a only
        (rows([11, 12], "c"), True, {}),          # a new partition: nothing replaced
        (None, True, None),                       # no rows: no snapshot at all
    ]),
    "static": (RT, {"dynamic-partition-overwrite": "false"}, [
        (rows([1, 2], "a"), False, None),
        (rows([3], "b"), False, None),
        (rows([7], "b"), True, {"dt": "b"}),
        (None, True, {"dt": "a"}),                # empties a: an OVERWRITE snapshot
        (rows([8, 9], "z"), True, {}),            # the whole table
    ]),
    "dv": (DE_DV, {}, [
        (rows([1, 2, 3], "a"), False, None),
        (rows([4, 5, 6], "b"), False, None),
        (rows([20], "b"), True, None),
    ]),
}


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_same_overwrites_same_table(tmp_path, run_cli, name):
    options, extra, steps = SCENARIOS[name]
    whs = {}
    for lib in (cpaimon, pypaimon):
        wh = make(tmp_path / lib.__name__, {**options, **extra})
        for data, ow, spec in steps:
            write(lib, wh, data, ow, spec)
        whs[lib] = wh
    ours, theirs = whs[cpaimon], whs[pypaimon]
    assert read(cpaimon, ours) == read(pypaimon, theirs)
    assert read(pypaimon, ours) == read(pypaimon, theirs)
    assert read(cpaimon, theirs) == read(pypaimon, theirs)
    assert snapshots(ours) == snapshots(theirs)
    assert snapshots(ours)[-1][1] == "OVERWRITE"
    check_clean(run_cli, ours)
    check_clean(run_cli, theirs)


def test_overwrite_after_deletes_drops_their_deletion_vectors(tmp_path, run_cli):
    """A partition with deletion vectors is overwritten: its DV index file leaves the snapshot
    with the data files, so the new rows are not masked by the old vectors."""
    wh = make(tmp_path, DE_DV)
    write(pypaimon, wh, rows([1, 2, 3], "a"))
    write(pypaimon, wh, rows([4, 5], "b"))
    pt = table(pypaimon, wh)
    wb = pt.new_batch_write_builder()
    wb.new_commit().commit(wb.new_update().delete_by_row_id([0, 3]))
    write(cpaimon, wh, rows([30, 31, 32], "a"), overwrite=True)
    got = read(pypaimon, wh)
    assert got == read(cpaimon, wh)
    assert got["id"] == [5, 30, 31, 32]
    assert got["_ROW_ID"] == [4, 5, 6, 7]
    check_clean(run_cli, wh)


def test_static_spec_refuses_rows_outside_it(tmp_path, run_cli):
    wh = make(tmp_path, {**RT, "dynamic-partition-overwrite": "false"})
    write(cpaimon, wh, rows([1], "a"))
    before, files_before = read(pypaimon, wh), snapshots(wh)
    with pytest.raises(ValueError, match=r"do not belong to it"):
        write(cpaimon, wh, rows([2], "b"), overwrite=True, static_partition={"dt": "a"})
    with pytest.raises(ValueError, match=r"nope is not a partition key of table db.t"):
        write(cpaimon, wh, rows([2], "a"), overwrite=True, static_partition={"nope": "a"})
    assert read(pypaimon, wh) == before
    assert snapshots(wh) == files_before
    data_files = list((pathlib.Path(wh) / "db.db" / "t").glob("dt=*/bucket-0/*.parquet"))
    assert len(data_files) == 1  # the refused commits' files were deleted
    check_clean(run_cli, wh)


def test_sql_insert_overwrite_read_by_pypaimon(tmp_path, run_cli):
    """Spark's static mode: PARTITION (dt = 'a') replaces a (whatever the table option), no
    PARTITION clause replaces the whole table."""
    wh = make(tmp_path, RT)
    write(pypaimon, wh, rows([1, 2], "a"))
    write(pypaimon, wh, rows([3], "b"))
    r = run_cli("sql", "--warehouse", wh, "-e",
                "INSERT OVERWRITE db.t PARTITION (dt = 'a') VALUES (10, 'x');")
    assert r.returncode == 0, r.stderr
    got = read(pypaimon, wh)
    assert got == read(cpaimon, wh)
    assert got == {"id": [3, 10], "name": ["n3", "x"], "dt": ["b", "a"], "_ROW_ID": [2, 3],
                   "_SEQUENCE_NUMBER": [2, 3]}
    r = run_cli("sql", "--warehouse", wh, "-e",
                "INSERT OVERWRITE db.t SELECT id + 100, name, 'c' FROM db.t;")
    assert r.returncode == 0, r.stderr
    got = read(pypaimon, wh)
    assert got["id"] == [103, 110] and got["dt"] == ["c", "c"]
    assert got["_ROW_ID"] == [4, 5] and got["_SEQUENCE_NUMBER"] == [4, 4]
    assert snapshots(wh)[-1][1:] == ("OVERWRITE", 2, 0, 6)
    check_clean(run_cli, wh)
