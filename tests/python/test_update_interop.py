"""Interop of the data-evolution updates with pypaimon, both ways (issue 5): pypaimon applies
updates → cpaimon reads identical rows, _ROW_ID and _SEQUENCE_NUMBER; cpaimon applies them →
pypaimon reads identical (the other test_update*.py files check that after every operation);
histories mixing both libraries' updates, upserts, merges and shard backfills; the files cpaimon
writes carry pypaimon's metadata (write_cols, first_row_id, file source); and each library's
conflict detection sees the other's commits."""
import pyarrow as pa
import pyarrow.compute  # noqa: F401  (pa.compute in the callable assignment)
import pypaimon
import pytest
from pypaimon.table.data_evolution_merge_into import WhenMatched as PyWhenMatched
from pypaimon.table.data_evolution_merge_into import WhenNotMatched as PyWhenNotMatched

import cpaimon
from conftest_update import PA_SCHEMA, env, seed, update  # noqa: F401
from cpaimon.data_evolution_merge_into import WhenMatched, WhenNotMatched, lit, source_col


def test_pypaimon_updates_read_by_cpaimon(env):
    ident = seed(env, lib="py")
    update(env, ident, pa.table({"_ROW_ID": [4, 1], "age": pa.array([99, 88], pa.int32())}),
           ["age"], lib="py")
    table = env.py_table(ident)
    wb = table.new_batch_write_builder()
    pb = table.new_read_builder().new_predicate_builder()
    msgs = wb.new_update().update_by_predicate(pb.equal("id", 3), {"city": "Paris"})
    wb.new_commit().commit(msgs)
    msgs = wb.new_update().upsert_by_arrow_with_key(
        pa.table({"id": pa.array([2, 9], pa.int32()), "name": ["B2", "New"],
                  "age": pa.array([1, 2], pa.int32()), "city": ["c", "d"]}), upsert_keys=["id"])
    wb.new_commit().commit(msgs)
    result = env.same_rows(ident)
    assert result.to_pylist()[-1] == {"id": 9, "name": "New", "age": 2, "city": "d",
                                      "_ROW_ID": 5, "_SEQUENCE_NUMBER": 5}
    assert result["age"].to_pylist() == [25, 1, 35, 40, 99, 2]


def test_mixed_history(env):
    """Updates alternate between the libraries on one table; both read the same after each."""
    ident = seed(env, lib="py")
    update(env, ident, pa.table({"_ROW_ID": [0], "age": pa.array([1], pa.int32())}), ["age"],
           lib="cp")
    env.same_rows(ident)
    update(env, ident, pa.table({"_ROW_ID": [1], "name": ["py"]}), ["name"], lib="py")
    env.same_rows(ident)
    update(env, ident, pa.table({"_ROW_ID": [0, 1], "age": pa.array([2, 3], pa.int32())}),
           ["age"], lib="cp")
    env.write(ident, pa.table({"id": pa.array([6], pa.int32()), "name": ["F"],
                               "age": pa.array([6], pa.int32()), "city": ["Z"]},
                              schema=PA_SCHEMA), lib="py")
    cp_table = env.cp_table(ident)
    wb = cp_table.new_batch_write_builder()
    msgs = wb.new_update().merge_into(
        pa.table({"id": pa.array([6, 7], pa.int32()), "age": pa.array([60, 70], pa.int32())}),
        on=["id"], when_matched=[WhenMatched.update({"age": source_col("age")})],
        when_not_matched=[WhenNotMatched(insert={"id": source_col("id"), "name": lit("G"),
                                                 "age": source_col("age")})])
    wb.new_commit().commit(msgs)
    py_table = env.py_table(ident)
    pwb = py_table.new_batch_write_builder()
    msgs = pwb.new_update().merge_into(
        pa.table({"id": pa.array([7], pa.int32()), "city": ["Q"]}), on=["id"],
        when_matched=[PyWhenMatched.update({"city": "s.city"})],
        when_not_matched=[])
    pwb.new_commit().commit(msgs)
    result = env.same_rows(ident)
    assert result["id"].to_pylist() == [1, 2, 3, 4, 5, 6, 7]
    assert result["age"].to_pylist() == [2, 3, 35, 40, 45, 60, 70]
    assert result["name"].to_pylist() == ["Alice", "py", "Charlie", "David", "Eve", "F", "G"]
    assert result["city"].to_pylist()[-1] == "Q"


def test_update_file_metadata_matches_pypaimon(env):
    """Files of a cpaimon update, as pypaimon's manifests show them: one file per touched group,
    write_cols = the update columns, first_row_id of the group, APPEND, sequence = snapshot."""
    ident = seed(env)
    update(env, ident, pa.table({"_ROW_ID": [3], "age": pa.array([1], pa.int32())}), ["age"])
    splits = env.py_table(ident).new_read_builder().new_scan().plan().splits()
    files = sorted((f for s in splits for f in s.files), key=lambda f: (f.first_row_id,
                                                                         f.max_sequence_number))
    assert [(f.first_row_id, f.row_count, f.write_cols, f.min_sequence_number,
             f.max_sequence_number, f.file_source) for f in files] == [
        (0, 2, None, 1, 1, 0), (2, 3, None, 2, 2, 0), (2, 3, ["age"], 3, 3, 0)]


def test_pypaimon_commit_conflicts_with_cpaimon_update(env):
    """cpaimon's committer sees a pypaimon update of the same column of the same group."""
    ident = seed(env)
    tu = env.cp_table(ident).new_batch_write_builder().new_update().with_update_type(["age"])
    msgs = tu.update_by_arrow_with_row_id(pa.table({"_ROW_ID": [2], "age": [7]}))
    update(env, ident, pa.table({"_ROW_ID": [3], "age": pa.array([8], pa.int32())}), ["age"],
           lib="py")
    with pytest.raises(cpaimon.CommitConflictError, match="multiple 'MERGE INTO'"):
        env.commit(ident, msgs)
    assert env.same_rows(ident)["age"].to_pylist() == [25, 30, 35, 8, 45]


def test_cpaimon_commit_seen_by_pypaimon_conflict_check(env):
    ident = seed(env)
    ptu = env.py_table(ident).new_batch_write_builder().new_update().with_update_type(["age"])
    msgs = ptu.update_by_arrow_with_row_id(pa.table({"_ROW_ID": [2], "age": pa.array([7],
                                                                                      pa.int32())}))
    update(env, ident, pa.table({"_ROW_ID": [3], "age": [8]}), ["age"])
    with pytest.raises(Exception, match="multiple 'MERGE INTO'"):
        env.py_table(ident).new_batch_write_builder().new_commit().commit(msgs)
    assert env.same_rows(ident)["age"].to_pylist() == [25, 30, 35, 8, 45]


def test_row_id_existence_conflict_after_rewrite(env):
    """§4.3: an update staged against a group that a concurrent overwrite replaced by a file with
    other row ids fails with Paimon's message (ranges only, as Java: DIVERGENCE #7)."""
    ident = seed(env)
    tu = env.cp_table(ident).new_batch_write_builder().new_update().with_update_type(["age"])
    msgs = tu.update_by_arrow_with_row_id(pa.table({"_ROW_ID": [0], "age": [7]}))
    # pypaimon drops the whole table content (overwrite) and writes new rows 5..6
    ptable = env.py_table(ident)
    wb = ptable.new_batch_write_builder().overwrite()
    w = wb.new_write()
    w.write_arrow(pa.table({"id": pa.array([8, 9], pa.int32()), "name": ["x", "y"],
                            "age": pa.array([1, 2], pa.int32()), "city": ["a", "b"]},
                           schema=PA_SCHEMA))
    wb.new_commit().commit(w.prepare_commit())
    with pytest.raises(cpaimon.CommitConflictError) as e:
        env.commit(ident, msgs)
    assert str(e.value).startswith("Row ID existence conflict: file '")
    assert "references firstRowId=0, rowCount=2 in bucket 0, but no matching file exists in the " \
           "current snapshot." in str(e.value)
    assert env.same_rows(ident)["id"].to_pylist() == [8, 9]


def test_pypaimon_reads_cpaimon_shard_backfill_of_new_column(env):
    ident = seed(env, lib="py")
    from pypaimon.schema.data_types import ArrayType as PyArrayType
    from pypaimon.schema.data_types import AtomicType as PyAtomicType
    from pypaimon.schema.schema_change import SchemaChange as PySchemaChange
    env.py.alter_table(ident, [PySchemaChange.add_column("emb", PyArrayType(
        True, PyAtomicType("FLOAT")))])
    upd = env.cp_table(ident).new_batch_write_builder().new_update()
    upd.with_read_projection(["id"])
    upd.with_update_type(["emb"])
    s = upd.new_shard_updator(0, 1)
    for batch in s.arrow_reader():
        s.update_by_arrow_batch(pa.RecordBatch.from_pydict(
            {"emb": [[float(i)] * 3 for i in batch["id"].to_pylist()]},
            schema=pa.schema([("emb", pa.list_(pa.float32()))])))
    env.commit(ident, s.prepare_commit())
    assert env.same_rows(ident)["emb"].to_pylist() == [[float(i)] * 3 for i in range(1, 6)]
    assert pypaimon is not None


def _interleaved(env):
    """Partition p written interleaved: commits to p=1, p=2, p=1 (row ids 0-1, 2, 3-4), so a scan
    meets p=1's ids 0, 1, 3, 4 before p=2's 2."""
    schema = pa.schema([("id", pa.int32()), ("p", pa.int32()), ("v", pa.string())])
    ident = env.create(pa_schema=schema, partition_keys=["p"])
    for ids, p in [([1, 2], 1), ([3], 2), ([4, 5], 1)]:
        env.write(ident, pa.table({"id": pa.array(ids, pa.int32()),
                                   "p": pa.array([p] * len(ids), pa.int32()),
                                   "v": [f"x{i}" for i in ids]}, schema=schema), lib="py")
    return ident


@pytest.mark.parametrize("kind", ["literal", "array", "callable"])
def test_update_by_predicate_on_interleaved_partitions_matches_pypaimon(env, kind):
    # Issue 14 item 2: cpaimon failed with "the scan returned _ROW_ID 2 after 4"; pypaimon
    # updates. Both tables get the same update, one per library, and must read the same.
    results = []
    for lib in ("py", "cp"):
        ident = _interleaved(env)
        table = env.py_table(ident) if lib == "py" else env.cp_table(ident)
        wb = table.new_batch_write_builder()
        pb = table.new_read_builder().new_predicate_builder()
        tu = wb.new_update()
        if kind == "literal":
            msgs = tu.update_by_predicate(pb.greater_than("id", 1), {"v": "new"})
        elif kind == "array":
            # The i-th value goes to the i-th matched row in scan order (p=1 first).
            msgs = tu.update_by_predicate(pb.greater_than("id", 1),
                                          {"v": pa.array(["a", "b", "c", "d"])})
        else:
            msgs = tu.update_by_predicate(
                pb.greater_than("id", 1),
                {"v": lambda t: pa.compute.binary_join_element_wise(
                    t["v"], pa.array(["!"] * t.num_rows), "")},
                read_columns=["v"])
        wb.new_commit().commit(msgs)
        results.append(env.same_rows(ident).to_pylist())
    assert results[0] == results[1]
    if kind == "literal":
        assert [r["v"] for r in results[1]] == ["x1", "new", "new", "new", "new"]
        assert [r["_ROW_ID"] for r in results[1]] == [0, 1, 2, 3, 4]
