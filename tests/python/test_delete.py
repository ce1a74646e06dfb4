"""Deletes on data-evolution tables with deletion vectors (spec/data-evolution.md §3.7,
format.md §7), with pypaimon as the oracle: what cpaimon deletes pypaimon reads identically (rows,
_ROW_ID, _SEQUENCE_NUMBER) and vice versa; the DV index files both write for the same delete are
byte-identical; deletes by the two libraries interleave on one table; the anchor rule after a
partial-column update; partition drops; pypaimon's error messages, with the table unchanged after
each. Every scenario ends with `cpaimon check`."""
import pathlib

import pyarrow as pa
import pypaimon
import pytest

import cpaimon
from cpaimon import _cpaimon
from cpaimon.write import CommitMessage

DE_DV = {"row-tracking.enabled": "true", "data-evolution.enabled": "true",
         "deletion-vectors.enabled": "true"}
SCHEMA = pa.schema([("id", pa.int32()), ("name", pa.string()), ("age", pa.int32()),
                    ("city", pa.string())])
ROWS = pa.table({"id": pa.array([1, 2, 3, 4, 5], pa.int32()),
                 "name": ["Alice", "Bob", "Charlie", "David", "Eve"],
                 "age": pa.array([25, 30, 35, 40, 45], pa.int32()),
                 "city": ["NYC", "LA", "Chicago", "Houston", "Phoenix"]})
HIDDEN = ["id", "name", "age", "city", "_ROW_ID", "_SEQUENCE_NUMBER"]


def make_tables(tmp_path, options, partition_keys=None, name="t"):
    """The same table opened by both libraries (created by pypaimon)."""
    wh = str(tmp_path / "wh")
    pcat = pypaimon.CatalogFactory.create({"warehouse": wh})
    pcat.create_database("db", True)
    pcat.create_table(f"db.{name}", pypaimon.Schema.from_pyarrow_schema(
        SCHEMA, partition_keys=partition_keys, options=options), False)
    ccat = cpaimon.CatalogFactory.create({"warehouse": wh})
    return wh, pcat.get_table(f"db.{name}"), ccat.get_table(f"db.{name}")


def p_write(ptable, data):
    wb = ptable.new_batch_write_builder()
    w, c = wb.new_write(), wb.new_commit()
    w.write_arrow(data)
    c.commit(w.prepare_commit())
    w.close()
    c.close()


def read(table, projection=HIDDEN):
    rb = table.new_read_builder().with_projection(projection)
    return rb.new_read().to_arrow(rb.new_scan().plan().splits()).sort_by("_ROW_ID")


def fresh(lib, wh, name="t"):
    """A new handle (re-reads the latest schema; reads always see the latest snapshot)."""
    return lib.CatalogFactory.create({"warehouse": wh}).get_table(f"db.{name}")


def c_delete_ids(ctable, ids):
    return CommitMessage(_cpaimon.table_delete_by_row_ids(ctable._handle, ids))


def c_delete_pred(ctable, predicate):
    handle = predicate._handle if predicate is not None else None
    return CommitMessage(_cpaimon.table_delete_by_predicate(ctable._handle, handle))


def c_commit(ctable, msg):
    commit = ctable.new_batch_write_builder().new_commit()
    commit.commit([msg])
    return commit.last_snapshot_id


def p_delete_ids(ptable, ids):
    wb = ptable.new_batch_write_builder()
    msgs = wb.new_update().delete_by_row_id(ids)
    wb.new_commit().commit(msgs)


def check_clean(run_cli, wh, ident="db.t"):
    r = run_cli("check", wh, ident)
    assert r.returncode == 0, r.stdout + r.stderr


def index_files(wh, name="t"):
    return sorted((pathlib.Path(wh) / "db.db" / name / "index").glob("index-*"))


def test_cpaimon_delete_read_by_pypaimon(tmp_path, run_cli):
    wh, pt, ct = make_tables(tmp_path, DE_DV)
    p_write(pt, ROWS)
    msg = c_delete_ids(ct, [0, 2, 4, 2])
    assert msg.new_file_count() == 0
    assert c_commit(ct, msg) == 2
    expected = {"id": [2, 4], "name": ["Bob", "David"], "age": [30, 40], "city": ["LA", "Houston"],
                "_ROW_ID": [1, 3], "_SEQUENCE_NUMBER": [1, 1]}
    assert read(fresh(pypaimon, wh)).to_pydict() == expected
    assert read(fresh(cpaimon, wh)).to_pydict() == expected
    snap = fresh(pypaimon, wh).snapshot_manager().get_latest_snapshot()
    assert snap.commit_kind == "OVERWRITE"
    check_clean(run_cli, wh)


def test_index_file_bytes_match_pypaimon(tmp_path):
    """The same delete on two identical tables: the DV index files are byte for byte equal."""
    wh_c, pt_c, ct = make_tables(tmp_path / "c", DE_DV)
    wh_p, pt_p, _ = make_tables(tmp_path / "p", DE_DV)
    for pt in (pt_c, pt_p):
        p_write(pt, ROWS)
    c_commit(ct, c_delete_ids(ct, [1, 3, 4]))
    p_delete_ids(pt_p, [1, 3, 4])
    [ours], [theirs] = index_files(wh_c), index_files(wh_p)
    assert ours.read_bytes() == theirs.read_bytes()
    assert ours.read_bytes()[:1] == b"\x01"


def test_pypaimon_delete_read_by_cpaimon(tmp_path, run_cli):
    wh, pt, ct = make_tables(tmp_path, DE_DV, partition_keys=["city"])
    p_write(pt, ROWS)
    p_write(pt, pa.table({"id": pa.array([6, 7], pa.int32()), "name": ["F", "G"],
                          "age": pa.array([50, 55], pa.int32()), "city": ["LA", "NYC"]}))
    p_delete_ids(pt, [1, 5, 6])
    ours, theirs = read(fresh(cpaimon, wh)), read(fresh(pypaimon, wh))
    assert ours.to_pydict() == theirs.to_pydict()
    assert sorted(ours["id"].to_pylist()) == [1, 3, 4, 5]
    check_clean(run_cli, wh)


def test_interleaved_deletes(tmp_path, run_cli):
    """cpaimon and pypaimon delete alternately; each delete rewrites the bucket's single DV index
    file, and both libraries always read the same rows."""
    wh, pt, ct = make_tables(tmp_path, DE_DV)
    data = pa.table({"id": pa.array(range(20), pa.int32()), "name": [f"n{i}" for i in range(20)],
                     "age": pa.array(range(20), pa.int32()), "city": ["X"] * 20})
    p_write(pt, data)
    p_write(pt, data)
    alive = set(range(40))
    for step, ids in enumerate([[0, 5], [5, 21], [39], [10, 11, 12], [22, 30]]):
        if step % 2 == 0:
            c_commit(fresh(cpaimon, wh), c_delete_ids(fresh(cpaimon, wh), ids))
        else:
            p_delete_ids(fresh(pypaimon, wh), ids)
        alive -= set(ids)
        ours, theirs = read(fresh(cpaimon, wh)), read(fresh(pypaimon, wh))
        assert ours.to_pydict() == theirs.to_pydict()
        assert ours["_ROW_ID"].to_pylist() == sorted(alive)
        snap = fresh(pypaimon, wh).snapshot_manager().get_latest_snapshot()
        entries = pypaimon.manifest.index_manifest_file.IndexManifestFile(
            fresh(pypaimon, wh)).read(snap.index_manifest)
        assert len(entries) == 1
    check_clean(run_cli, wh)


def test_delete_uses_anchor_after_partial_update(tmp_path, run_cli):
    """After a partial-column update (a newer file over the same rows) the DV goes to the group's
    anchor — the oldest file — and both readers apply it to the merged rows (§2.6)."""
    wh, pt, ct = make_tables(tmp_path, DE_DV)
    p_write(pt, ROWS)
    wb = pt.new_batch_write_builder()
    upd = wb.new_update().with_update_type(["age"])
    msgs = upd.update_by_arrow_with_row_id(pa.table({
        "_ROW_ID": pa.array([0, 1, 2, 3, 4], pa.int64()),
        "age": pa.array([1, 2, 3, 4, 5], pa.int32())}))
    wb.new_commit().commit(msgs)
    c_commit(ct, c_delete_ids(fresh(cpaimon, wh), [1, 3]))
    ours, theirs = read(fresh(cpaimon, wh)), read(fresh(pypaimon, wh))
    assert ours.to_pydict() == theirs.to_pydict()
    assert ours["age"].to_pylist() == [1, 3, 5]
    assert ours["_SEQUENCE_NUMBER"].to_pylist() == [2, 2, 2]
    # The DV names the original (anchor) file, not the update file.
    snap = fresh(pypaimon, wh).snapshot_manager().get_latest_snapshot()
    [entry] = pypaimon.manifest.index_manifest_file.IndexManifestFile(
        fresh(pypaimon, wh)).read(snap.index_manifest)
    assert list(entry.index_file.dv_ranges.keys())[0] in _data_files_of_snapshot(wh, 1)
    check_clean(run_cli, wh)


def _data_files_of_snapshot(wh, snapshot_id):
    """Names of the live data files committed by snapshot `snapshot_id` (their sequence number)."""
    plan = fresh(pypaimon, wh).new_read_builder().new_scan().plan()
    return [f.file_name for split in plan.splits() for f in split.files
            if f.max_sequence_number == snapshot_id]


def test_delete_by_predicate_and_partition_drop(tmp_path, run_cli):
    wh, pt, ct = make_tables(tmp_path, DE_DV, partition_keys=["city"])
    p_write(pt, ROWS)
    pb = ct.new_read_builder().new_predicate_builder()
    c_commit(ct, c_delete_pred(ct, pb.greater_or_equal("age", 40)))
    assert sorted(read(fresh(pypaimon, wh))["id"].to_pylist()) == [1, 2, 3]
    # A partition-only predicate drops the partition (its data files become DELETE entries).
    msg = c_delete_pred(fresh(cpaimon, wh), pb.equal("city", "LA"))
    c_commit(fresh(cpaimon, wh), msg)
    assert sorted(read(fresh(pypaimon, wh))["id"].to_pylist()) == [1, 3]
    assert read(fresh(cpaimon, wh)).to_pydict() == read(fresh(pypaimon, wh)).to_pydict()
    check_clean(run_cli, wh)


def test_partition_drop_without_dv(tmp_path, run_cli):
    wh, pt, ct = make_tables(tmp_path, {"row-tracking.enabled": "true"}, partition_keys=["city"])
    p_write(pt, ROWS)
    pb = ct.new_read_builder().new_predicate_builder()
    c_commit(ct, c_delete_pred(ct, pb.is_in("city", ["LA", "NYC"])))
    assert read(fresh(pypaimon, wh)).to_pydict() == read(fresh(cpaimon, wh)).to_pydict()
    assert sorted(read(fresh(pypaimon, wh))["id"].to_pylist()) == [3, 4, 5]
    # A mixed predicate is a row-level delete, which needs data evolution and DVs (§3.7).
    with pytest.raises(ValueError, match="delete requires 'data-evolution.enabled'"):
        c_delete_pred(fresh(cpaimon, wh), pb.and_predicates([pb.equal("city", "Chicago"),
                                                              pb.equal("age", 35)]))
    check_clean(run_cli, wh)


@pytest.mark.parametrize("options,ids,message", [
    ({"row-tracking.enabled": "true", "data-evolution.enabled": "true"}, [0],
     "delete requires 'deletion-vectors.enabled' = 'true'."),
    ({"row-tracking.enabled": "true", "deletion-vectors.enabled": "true"}, [0],
     "delete requires 'data-evolution.enabled' = 'true'."),
    (DE_DV, [1, None], "_ROW_ID value must not be null."),
    (DE_DV, [7], "Row ID 7 does not belong to any valid range ['[0, 4]']"),
    (DE_DV, [-3], "Row ID -3 does not belong to any valid range ['[0, 4]']"),
])
def test_errors_match_pypaimon_and_change_nothing(tmp_path, run_cli, options, ids, message):
    wh, pt, ct = make_tables(tmp_path, options)
    p_write(pt, ROWS)
    before = read(fresh(cpaimon, wh))
    with pytest.raises(ValueError) as ours:
        c_delete_ids(ct, ids)
    assert message in str(ours.value)
    with pytest.raises(ValueError) as theirs:
        fresh(pypaimon, wh).new_batch_write_builder().new_update().delete_by_row_id(ids)
    assert message in str(theirs.value)
    assert fresh(cpaimon, wh).latest_snapshot_id() == 1
    assert not index_files(wh)
    assert read(fresh(cpaimon, wh)).to_pydict() == before.to_pydict()
    check_clean(run_cli, wh)


def test_concurrent_deletes_conflict(tmp_path, run_cli):
    """Two deletes planned on the same snapshot in one bucket: the second commit loses with
    pypaimon's DV index conflict and the table keeps only the first delete."""
    wh, pt, ct = make_tables(tmp_path, DE_DV)
    p_write(pt, ROWS)
    c_commit(ct, c_delete_ids(ct, [4]))  # the bucket already has an index file
    first = c_delete_ids(fresh(cpaimon, wh), [0])
    second = c_delete_ids(fresh(cpaimon, wh), [1])
    c_commit(fresh(cpaimon, wh), first)
    with pytest.raises(cpaimon.CommitConflictError, match="Deletion vector index conflict"):
        c_commit(fresh(cpaimon, wh), second)
    assert read(fresh(pypaimon, wh))["id"].to_pylist() == [2, 3, 4]
    # Also against pypaimon's own delete.
    mine = c_delete_ids(fresh(cpaimon, wh), [2])
    p_delete_ids(fresh(pypaimon, wh), [3])
    with pytest.raises(cpaimon.CommitConflictError, match="Deletion vector index conflict"):
        c_commit(fresh(cpaimon, wh), mine)
    assert read(fresh(cpaimon, wh))["id"].to_pylist() == [2, 3]
    check_clean(run_cli, wh)


@pytest.mark.parametrize("lib", [pypaimon, cpaimon], ids=["pypaimon", "cpaimon"])
def test_pypaimon_api_names(tmp_path, run_cli, lib):
    """The same pypaimon code, with only the import changed, deletes the same rows
    (TableUpdate.delete_by_row_id / delete_by_predicate, §3.7)."""
    wh, pt, _ = make_tables(tmp_path, DE_DV)
    p_write(pt, ROWS)
    table = lib.CatalogFactory.create({"warehouse": wh}).get_table("db.t")
    wb = table.new_batch_write_builder()
    wb.new_commit().commit(wb.new_update().delete_by_row_id([0, 4]))
    table = lib.CatalogFactory.create({"warehouse": wh}).get_table("db.t")
    wb = table.new_batch_write_builder()
    pb = table.new_read_builder().new_predicate_builder()
    wb.new_commit().commit(wb.new_update().delete_by_predicate(pb.equal("name", "Charlie")))
    expected = {"id": [2, 4], "_ROW_ID": [1, 3]}
    for reader in (pypaimon, cpaimon):
        got = read(fresh(reader, wh), ["id", "_ROW_ID"])
        assert got.to_pydict() == expected
    check_clean(run_cli, wh)


def test_abort_deletes_the_new_index_file(tmp_path, run_cli):
    """A delete that is aborted instead of committed leaves no DV index file behind."""
    wh, pt, ct = make_tables(tmp_path, DE_DV)
    p_write(pt, ROWS)
    c_commit(ct, c_delete_ids(ct, [0]))
    before = index_files(wh)
    assert len(before) == 1
    msg = c_delete_ids(ct, [1, 2])
    assert len(index_files(wh)) == 2  # the new vectors are written before the commit
    ct.new_batch_write_builder().new_commit().abort([msg])
    assert index_files(wh) == before
    assert read(fresh(pypaimon, wh))["id"].to_pylist() == [2, 3, 4, 5]
    check_clean(run_cli, wh)
