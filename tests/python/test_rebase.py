"""Rebasing a staged update over a concurrent compaction (src/table/rebase.h,
spec/maintenance-and-blob.md §2, docs/maintenance.md): an update prepared before a compaction of
its row-id groups commits after it without losing either. The same race run with pypaimon 2.1 as
the updater (its RowIdConflictRewriter) and with cpaimon ends in the same rows, _ROW_ID and
_SEQUENCE_NUMBER; Java Paimon 1.4.2 compacting in between (pypaimon's e2e
test_compact_conflict_shard_update) works the same; Java and pypaimon read what cpaimon commits.
What is refused stays refused with pypaimon's messages: a concurrent update of the same column
(before or after the compaction), the max-size bound, deletion vectors.

The other direction (Spark's DataEvolutionCompactMergeConflictRewriter): an update committed on
the old group boundaries after a compaction was planned is rebased onto the compaction's ranges
when the compaction commits; refused with deletion vectors or after a schema change."""
import shutil

import pyarrow as pa
import pypaimon
import pytest

import cpaimon
from test_java_interop import java  # noqa: F401  (Java Paimon 1.4.2, the session fixture)

DE = "'row-tracking.enabled' = 'true', 'data-evolution.enabled' = 'true'"


def sql(run_cli, wh, *statements):
    r = run_cli("sql", "--warehouse", wh, "-e", ";".join(statements))
    assert r.returncode == 0, r.stderr
    return r.stdout


def build(run_cli, wh, props=""):
    sql(run_cli, wh, "CREATE DATABASE db",
        f"CREATE TABLE db.t (id INT, name STRING, age INT) TBLPROPERTIES ({DE}{props})")
    for i in range(4):
        sql(run_cli, wh, f"INSERT INTO db.t VALUES ({2 * i}, 'n{2 * i}', {10 * i}), "
                         f"({2 * i + 1}, 'n{2 * i + 1}', {10 * i + 1})")


def table(lib, wh):
    return lib.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")


def stage(lib, wh, cols, ids, values):
    """An update by row id prepared (not committed) by `lib`; returns (write builder, messages)."""
    t = table(lib, wh)
    wb = t.new_batch_write_builder()
    update = wb.new_update().with_update_type(cols)
    data = {"_ROW_ID": pa.array(ids, pa.int64())}
    for c, v in zip(cols, values):
        data[c] = pa.array(v, pa.int32() if c == "age" else pa.string())
    return wb, update.update_by_arrow_with_row_id(pa.table(data))


def commit(wb, messages):
    c = wb.new_commit()
    c.commit(messages)
    c.close()


def compact(run_cli, wh):
    sql(run_cli, wh, "CALL sys.compact(table => 'db.t', options => 'compaction.min.file-num=2')")


def read(lib, wh):
    t = table(lib, wh)
    rb = t.new_read_builder().with_projection(["id", "name", "age", "_ROW_ID",
                                                "_SEQUENCE_NUMBER"])
    return sorted(tuple(r.values()) for r in
                  rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist())


def java_read(java, wh):  # noqa: F811
    return sorted(tuple(r[c] for c in ("id", "name", "age", "_ROW_ID", "_SEQUENCE_NUMBER"))
                  for r in java.read(wh, "db.t", row_tracking=True))


def layout(run_cli, wh):
    return sql(run_cli, wh, "SELECT first_row_id, record_count, write_cols FROM db.`t$files` "
                            "ORDER BY first_row_id, write_cols")


def check_clean(run_cli, wh):
    r = run_cli("check", wh, "db.t")
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("updater", ["cpaimon", "pypaimon"])
def test_same_result_as_pypaimon(tmp_path, run_cli, java, updater):  # noqa: F811
    """Two updates staged on the same snapshot (two columns, rows in two groups), a compaction
    of every group, then the commits: the result is the same whichever library rebases, and all
    three read it."""
    lib = cpaimon if updater == "cpaimon" else pypaimon
    wh, ref = tmp_path / "wh", tmp_path / "ref"
    build(run_cli, wh)
    shutil.copytree(wh, ref)
    a = stage(lib, wh, ["age"], [2, 5], [[31, 56]])
    b = stage(lib, wh, ["name"], [1], [["renamed"]])
    compact(run_cli, wh)
    commit(*a)
    commit(*b)
    got = read(cpaimon, wh)
    by_id = {r[0]: r for r in got}
    assert by_id[2][2] == 31 and by_id[5][2] == 56 and by_id[1][1] == "renamed"
    untouched = [r[:4] for r in got if r[0] not in (1, 2, 5)]
    assert untouched == [r[:4] for r in read(cpaimon, ref) if r[0] not in (1, 2, 5)]
    assert read(pypaimon, wh) == got
    assert java_read(java, wh) == got
    check_clean(run_cli, wh)

    # The other library on the twin table: the very same rows and hidden columns.
    other = pypaimon if lib is cpaimon else cpaimon
    a = stage(other, ref, ["age"], [2, 5], [[31, 56]])
    b = stage(other, ref, ["name"], [1], [["renamed"]])
    compact(run_cli, ref)
    commit(*a)
    commit(*b)
    assert read(cpaimon, ref) == got
    assert layout(run_cli, ref) == layout(run_cli, wh)


def test_java_compaction_in_between(tmp_path, run_cli, java):  # noqa: F811
    """pypaimon's e2e test_compact_conflict_shard_update with cpaimon as the updater: Java
    compacts between prepare and commit; the commit succeeds and Java reads the update."""
    wh = tmp_path / "wh"
    build(run_cli, wh)
    before = {r[0]: r for r in read(cpaimon, wh)}
    wb, msgs = stage(cpaimon, wh, ["age"], [0, 3, 6], [[100, 103, 106]])
    assert int(java("history", wh, "db.t", "--op", "compact", "--option",
                    "compaction.min.file-num=2")) == 1
    commit(wb, msgs)
    rows = read(cpaimon, wh)
    for r in rows:
        want = {0: 100, 3: 103, 6: 106}.get(r[3], before[r[0]][2])
        assert r[2] == want and r[1] == before[r[0]][1] and r[3] == before[r[0]][3]
    assert java_read(java, wh) == rows and read(pypaimon, wh) == rows
    check_clean(run_cli, wh)


@pytest.mark.parametrize("when", ["before", "after"])
def test_same_column_conflict_is_not_hidden(tmp_path, run_cli, when):
    """The same column of the same rows updated by someone else before or after the compaction:
    pypaimon's conflict, from both libraries; the other update is kept."""
    for lib in (cpaimon, pypaimon):
        wh = tmp_path / f"{lib.__name__}-{when}"
        build(run_cli, wh)
        wb, msgs = stage(lib, wh, ["age"], [2], [[31]])
        if when == "before":
            commit(*stage(cpaimon, wh, ["age"], [3], [[99]]))
        compact(run_cli, wh)
        if when == "after":
            commit(*stage(cpaimon, wh, ["age"], [3], [[99]]))
        state = read(cpaimon, wh)
        with pytest.raises(Exception, match="For Data Evolution table, multiple 'MERGE INTO' "
                                            "operations have encountered conflicts"):
            commit(wb, msgs)
        assert read(cpaimon, wh) == state
        assert {r[0]: r[2] for r in state}[3] == 99
        check_clean(run_cli, wh)


@pytest.mark.parametrize("case", ["max-size", "deletion-vectors"])
def test_refusals_keep_the_existence_conflict(tmp_path, run_cli, case):
    """pypaimon's test_commit_rewrite_respects_max_size (the bound and its option named) and its
    deletion-vector give-up (the original conflict alone), from both libraries."""
    props = (", 'data-evolution.row-id-conflict-rewrite.max-size' = '1 b'" if case == "max-size"
             else ", 'deletion-vectors.enabled' = 'true'")
    for lib in (cpaimon, pypaimon):
        wh = tmp_path / f"{lib.__name__}"
        build(run_cli, wh, props)
        wb, msgs = stage(lib, wh, ["age"], [2], [[31]])
        compact(run_cli, wh)
        state = read(cpaimon, wh)
        with pytest.raises(Exception) as e:
            commit(wb, msgs)
        assert "Row ID existence conflict" in str(e.value)
        if case == "max-size":
            assert "'data-evolution.row-id-conflict-rewrite.max-size'=1 bytes." in str(e.value)
        else:
            assert "Automatic" not in str(e.value)
        assert read(cpaimon, wh) == state
        check_clean(run_cli, wh)


@pytest.mark.parametrize("updater", ["cpaimon", "pypaimon"])
def test_compaction_rebases_a_concurrent_update(tmp_path, run_cli, java, updater):  # noqa: F811
    """Spark's "rebase data evolution compact after operation-less partial update": the
    compaction, planned first, commits after an update of two columns in two old groups; the
    update is kept, newer than the compacted data, and everyone reads the same."""
    lib = cpaimon if updater == "cpaimon" else pypaimon
    wh = tmp_path / "wh"
    build(run_cli, wh)
    t = table(cpaimon, wh)
    planned = t.compact(options={"compaction.min.file-num": "2"}, commit=False)
    assert planned.tasks == 1
    commit(*stage(lib, wh, ["age"], [1, 6], [[11, 66]]))
    commit(*stage(lib, wh, ["name"], [6], [["late"]]))
    t.new_batch_write_builder().new_commit().commit(planned.messages)
    rows = read(cpaimon, wh)
    by_row = {r[3]: r for r in rows}
    assert by_row[1][2] == 11 and by_row[6][2] == 66 and by_row[6][1] == "late"
    assert {r[4] for r in rows} == {6}  # the later update (snapshot 6), newer than the compacted 4
    assert "COMPACT" in sql(run_cli, wh, "SELECT commit_kind FROM db.`t$snapshots`")
    assert read(pypaimon, wh) == rows and java_read(java, wh) == rows
    files = sql(run_cli, wh, "SELECT first_row_id, record_count, write_cols FROM db.`t$files`")
    assert files.count("|           0|           8|") == 2, files  # compacted + rebased
    check_clean(run_cli, wh)
    # Later updates and compactions go on as usual.
    commit(*stage(cpaimon, wh, ["age"], [0], [[1]]))
    t = table(cpaimon, wh)
    t.compact(options={"compaction.min.file-num": "2"})
    assert {r[3]: r[2] for r in read(cpaimon, wh)}[0] == 1
    check_clean(run_cli, wh)


@pytest.mark.parametrize("case", ["schema-change", "deletion-vectors"])
def test_compaction_rebase_refused(tmp_path, run_cli, case):
    """Spark's "reject data evolution compact rebase after schema evolution", and deletion
    vectors: the compaction loses with the range conflict, its files are gone, the update stays."""
    wh = tmp_path / "wh"
    build(run_cli, wh, ", 'deletion-vectors.enabled' = 'true'" if case == "deletion-vectors"
          else "")
    t = table(cpaimon, wh)
    planned = t.compact(options={"compaction.min.file-num": "2"}, commit=False)
    if case == "schema-change":
        sql(run_cli, wh, "ALTER TABLE db.t ADD COLUMNS (e INT)")
    sql(run_cli, wh, "UPDATE db.t SET age = 99 WHERE id = 3")
    state = read(cpaimon, wh)
    c = t.new_batch_write_builder().new_commit()
    with pytest.raises(Exception, match="multiple 'MERGE INTO' and 'COMPACT' operations have "
                                        "encountered conflicts"):
        c.commit(planned.messages)
    c.abort(planned.messages)
    assert read(cpaimon, wh) == state
    assert {r[0]: r[2] for r in state}[3] == 99
    check_clean(run_cli, wh)
