"""Append compaction of row-tracking tables without data evolution (include/cpaimon/compact.h,
spec/maintenance-and-blob.md §1.6, docs/maintenance.md) against Java Paimon 1.4.2's
AppendCompactCoordinator + AppendCompactTask with the row-tracking write type (tests/java `history
--op compact`, what Spark's sys.compact runs on such a table): the same table compacted by cpaimon
and by Java ends with the same files (tasks, row counts, columns, file source), and cpaimon and
Java read identical rows, _ROW_ID and _SEQUENCE_NUMBER from either; deletion vectors are applied;
a compaction killed with SIGKILL leaves the table as it was.

Named expected differences:
- JAVA_1_4_2_SEQUENCE_RANGE: Java 1.4.2 gives a compacted file the sequence range of a counter
  started at its first input's min sequence number (max − min + 1 = row count); Paimon's current
  RowDataFileSequenceNumberTracker and cpaimon take min/max of the _SEQUENCE_NUMBER values the
  file holds. Readers take every row's physical value, so rows read the same.
- PYPAIMON_PHYSICAL_ROW_ID: pypaimon 2.1 ignores physical _ROW_ID columns and reads NULL
  _ROW_ID from compacted files (spec/data-evolution.md §1.4); everything else it reads the same."""
import json
import os
import shutil
import signal
import subprocess
import time

import pyarrow as pa
import pypaimon
import pytest

import cpaimon
from test_java_interop import java  # noqa: F401  (Java Paimon 1.4.2, the session fixture)

PYPAIMON_PHYSICAL_ROW_ID = None
RT = "'row-tracking.enabled' = 'true'"
DV = f"{RT}, 'deletion-vectors.enabled' = 'true'"


def sql(run_cli, wh, *statements):
    r = run_cli("sql", "--warehouse", wh, "-e", ";".join(statements))
    assert r.returncode == 0, r.stderr
    return r.stdout


def inserts(n, part=None):
    out = []
    for i in range(n):
        rows = [f"({3 * i + k}, '{'abc'[k]}{i}', {i * k})" for k in range(3 - i % 2)]
        if part:
            rows = [r[:-1] + f", '{part(i)}')" for r in rows]
        out.append("INSERT INTO db.t VALUES " + ", ".join(rows))
    return out


# Histories of db.t (id, v, n ...); each statement its own commit. Copy-on-write updates and
# deletes leave files with physical row ids among the appended ones.
HISTORIES = {
    "cow": [f"CREATE TABLE db.t (id INT, v STRING, n INT) TBLPROPERTIES ({RT})"]
    + inserts(7)
    + ["UPDATE db.t SET v = 'u' WHERE id IN (1, 9)", "DELETE FROM db.t WHERE id = 4",
       "UPDATE db.t SET n = -1 WHERE id > 15"],
    "dv": [f"CREATE TABLE db.t (id INT, v STRING, n INT) TBLPROPERTIES ({DV})"]
    + inserts(7)
    + ["DELETE FROM db.t WHERE id IN (0, 1, 7)", "UPDATE db.t SET v = 'u' WHERE id = 13"],
    "partitioned": [f"CREATE TABLE db.t (id INT, v STRING, n INT, dt STRING) PARTITIONED BY (dt) "
                    f"TBLPROPERTIES ({DV})"]
    + inserts(8, part=lambda i: "x" if i % 3 else "y")
    + ["DELETE FROM db.t WHERE id = 3", "UPDATE db.t SET n = 7 WHERE dt = 'y'"],
    "evolved": [f"CREATE TABLE db.t (id INT, v STRING, n INT) TBLPROPERTIES ({RT})"]
    + inserts(3)
    + ["ALTER TABLE db.t ADD COLUMNS (e DOUBLE)", "INSERT INTO db.t VALUES (100, 'z', 0, 2.5)",
       "UPDATE db.t SET e = id * 1.5 WHERE id < 4", "INSERT INTO db.t VALUES (101, 'y', 1, 0.5)"],
}

# Java's defaults, a low min-file-num, and a small target that packs files into several bins
# (every test file is far below the open cost, so each weighs about 100 KiB).
SETTINGS = {
    "default": {},
    "min2": {"compaction.min.file-num": "2"},
    "bins": {"compaction.min.file-num": "2", "source.split.open-file-cost": "100 kb",
             "target-file-size": "150 kb"},
}


def build(run_cli, wh, history):
    sql(run_cli, wh, "CREATE DATABASE db")
    for s in HISTORIES[history]:
        sql(run_cli, wh, s)


def read(lib, wh):
    t = lib.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    names = [f.name for f in t.fields] + ["_ROW_ID", "_SEQUENCE_NUMBER"]
    rb = t.new_read_builder().with_projection(names)
    rows = rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist()
    return sorted((tuple(r.values()) for r in rows), key=lambda r: r[0])


def canon(rows):
    return sorted(tuple("None" if v is None else str(float(v)) if isinstance(v, float) else str(v)
                        for v in r) for r in rows)


def java_read(java, wh):  # noqa: F811
    return canon(tuple(r.values()) for r in java.read(wh, "db.t", row_tracking=True))


def layout(java, wh):  # noqa: F811
    """What compaction decides, as Java lists the files. Not which of several files of the same
    size is left out of a bin: Java breaks those ties by HashSet order (names are random)."""
    keep = ("partition", "row_count", "write_cols", "schema_id", "file_source")
    return sorted(tuple(json.dumps(f.get(k)) for k in keep) for f in java.files(wh, "db.t"))


def snapshots(run_cli, wh):
    return sql(run_cli, wh, "SELECT snapshot_id, commit_kind FROM db.`t$snapshots`")


def check_clean(run_cli, wh):
    r = run_cli("check", wh, "db.t")
    assert r.returncode == 0, r.stdout + r.stderr


@pytest.mark.parametrize("setting", sorted(SETTINGS))
@pytest.mark.parametrize("history", sorted(HISTORIES))
def test_same_files_as_java(tmp_path, run_cli, java, history, setting):  # noqa: F811
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    build(run_cli, ours, history)
    shutil.copytree(ours, theirs)
    before = read(cpaimon, ours)
    opts = SETTINGS[setting]

    t = cpaimon.CatalogFactory.create({"warehouse": str(ours)}).get_table("db.t")
    result = t.compact(options=opts)
    args = [a for k, v in opts.items() for a in ("--option", f"{k}={v}")]
    java_tasks = int(java("history", theirs, "db.t", "--op", "compact", *args))
    assert result.tasks == java_tasks
    if setting != "default":
        assert result.tasks > 0
    assert layout(java, ours) == layout(java, theirs)
    compacted = [f for f in java.files(ours, "db.t") if f["file_source"] == "COMPACT"]
    assert len(compacted) == result.files_after
    assert all(f["first_row_id"] is None and f["write_cols"][-2:] == ["_ROW_ID", "_SEQUENCE_NUMBER"]
               for f in compacted)
    # JAVA_1_4_2_SEQUENCE_RANGE: Java's ranges count rows; ours bound the values.
    seqs = {r[-1] for r in before}
    for f in compacted:
        assert f["min_sequence_number"] in seqs and f["max_sequence_number"] in seqs
    for f in java.files(theirs, "db.t"):
        if f["file_source"] == "COMPACT":
            assert f["max_sequence_number"] - f["min_sequence_number"] + 1 == f["row_count"]

    # Rows, row ids and sequence numbers never change; deleted rows are gone from the files.
    assert read(cpaimon, ours) == before
    assert read(cpaimon, theirs) == before
    assert java_read(java, ours) == canon(before)
    assert java_read(java, theirs) == canon(before)
    ids = {r[-2] for r in before}
    assert len(ids) == len(before)
    py = read(pypaimon, ours)
    assert [r[:-2] + (r[-1],) for r in py] == [r[:-2] + (r[-1],) for r in before]
    if result.tasks:
        assert PYPAIMON_PHYSICAL_ROW_ID in {r[-2] for r in py}
        assert snapshots(run_cli, ours).split("|")[-2].strip() == "COMPACT"
        assert java.snapshot(ours, "db.t")["nextRowId"] == java.snapshot(theirs, "db.t")["nextRowId"]
    check_clean(run_cli, ours)
    check_clean(run_cli, theirs)


def test_writers_after_compaction(tmp_path, run_cli, java):  # noqa: F811
    """After a compaction the table keeps working for every writer: cpaimon updates and deletes
    the compacted rows, Java appends, and the ids stay unique and stable."""
    wh = tmp_path / "wh"
    build(run_cli, wh, "dv")
    sql(run_cli, wh, "CALL sys.compact(table => 'db.t', options => 'compaction.min.file-num=2')")
    before = {r[0]: r for r in read(cpaimon, wh)}
    sql(run_cli, wh, "UPDATE db.t SET v = 'after' WHERE id = 3", "DELETE FROM db.t WHERE id = 6")
    java.write(wh, "db.t", [{"id": 500, "v": "java", "n": 1}])
    rows = {r[0]: r for r in read(cpaimon, wh)}
    assert rows[3][1] == "after" and rows[3][3] == before[3][3] and 6 not in rows
    assert rows[500][3] not in {r[3] for r in before.values()}
    assert java_read(java, wh) == canon(rows.values())
    assert len({r[3] for r in rows.values()}) == len(rows)
    check_clean(run_cli, wh)


def test_cli_sql_python_and_pypaimon_tables(tmp_path, run_cli, java):  # noqa: F811
    """The three front ends on a partitioned table; a table pypaimon wrote is compacted and Java
    and cpaimon read it the same."""
    wh = tmp_path / "wh"
    build(run_cli, wh, "partitioned")
    sql(run_cli, wh, "INSERT INTO db.t VALUES (200, 'p', 1, 'y')")
    sql(run_cli, wh, "INSERT INTO db.t VALUES (201, 'q', 2, 'y')")
    before = read(cpaimon, wh)
    r = run_cli("table", "compact", wh, "db.t", "--partitions", "dt=y",
                "--option", "compaction.min.file-num=2")
    assert r.returncode == 0 and "compacted" in r.stdout, r.stderr
    files = sql(run_cli, wh, "SELECT partition, file_source FROM db.`t$files`")
    compacted = [line for line in files.splitlines() if "COMPACT" in line]
    assert compacted and all("{y}" in line for line in compacted)
    out = sql(run_cli, wh, "CALL sys.compact(table => 'db.t', partitions => 'dt=x', "
                           "options => 'compaction.min.file-num=2')")
    assert "true" in out
    t = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    # The DV group of x was its own task: its one-row output and the rest's merge now, as in Java;
    # with the default min-file-num (5) two files stay.
    assert t.compact().tasks == 0
    assert t.compact(options={"compaction.min.file-num": "2"}).files_before == 2
    assert read(cpaimon, wh) == before

    pwh = tmp_path / "py"
    cat = pypaimon.CatalogFactory.create({"warehouse": str(pwh)})
    cat.create_database("db", False)
    schema = pypaimon.Schema.from_pyarrow_schema(
        pa.schema([("id", pa.int32()), ("v", pa.string())]),
        options={"row-tracking.enabled": "true"})
    cat.create_table("db.t", schema, False)
    pt = cat.get_table("db.t")
    for k in range(6):
        wb = pt.new_batch_write_builder()
        w, c = wb.new_write(), wb.new_commit()
        w.write_arrow(pa.table({"id": pa.array([2 * k, 2 * k + 1], pa.int32()),
                                "v": [f"p{k}", f"q{k}"]}))
        c.commit(w.prepare_commit())
        w.close()
        c.close()
    want = read(cpaimon, pwh)
    res = cpaimon.CatalogFactory.create({"warehouse": str(pwh)}).get_table("db.t").compact()
    assert res.tasks == 1 and res.files_before == 6 and res.rows == 12
    assert read(cpaimon, pwh) == want and java_read(java, pwh) == canon(want)


def test_errors_and_conflicts(tmp_path, run_cli):
    """A table without row tracking is refused; a bad option is named; a copy-on-write update of
    a compacted file between planning and committing makes the compaction lose (Java's
    file-deletion conflict), its files are deleted and the update stays."""
    wh = tmp_path / "wh"
    build(run_cli, wh, "cow")
    sql(run_cli, wh, "CREATE TABLE db.plain (id INT)", "INSERT INTO db.plain VALUES (1)")
    state = snapshots(run_cli, wh)
    for stmt, message in [
        ("CALL sys.compact(table => 'db.plain')", "only tables with row tracking"),
        ("CALL sys.compact(table => 'db.t', options => 'compaction.small-file-ratio=big')",
         "'compaction.small-file-ratio' = 'big' is not a number"),
    ]:
        r = run_cli("sql", "--warehouse", wh, "-e", stmt)
        assert r.returncode != 0 and message in r.stderr, (stmt, r.stderr)
    assert snapshots(run_cli, wh) == state

    t = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    planned = t.compact(options={"compaction.min.file-num": "2"}, commit=False)
    assert planned.tasks == 1
    data = set((wh / "db.db" / "t").rglob("data-*"))
    sql(run_cli, wh, "UPDATE db.t SET n = 1234 WHERE id = 2")
    c = t.new_batch_write_builder().new_commit()
    with pytest.raises(Exception, match="File deletion conflicts detected! Give up committing."):
        c.commit(planned.messages)
    c.abort(planned.messages)
    assert not any(p.exists() for p in set((wh / "db.db" / "t").rglob("data-*")) - data
                   if "COMPACT" in str(p))
    assert [r[2] for r in read(cpaimon, wh) if r[0] == 2] == [1234]
    check_clean(run_cli, wh)


def test_sigkill_during_compaction(tmp_path, run_cli, cpaimon_bin):
    """A compaction killed with SIGKILL at various moments: the table reads as before, checks
    clean, and the next compaction finishes."""
    wh = tmp_path / "wh"
    sql(run_cli, wh, "CREATE DATABASE db",
        f"CREATE TABLE db.t (id INT, v STRING, n BIGINT) TBLPROPERTIES ({DV})")
    t = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    n = 200_000
    for k in range(4):
        wb = t.new_batch_write_builder()
        w, c = wb.new_write(), wb.new_commit()
        ids = pa.array(range(k * n, (k + 1) * n), pa.int32())
        w.write_arrow(pa.table({"id": ids, "v": pa.compute.cast(ids, pa.string()),
                                "n": pa.array(range(n), pa.int64())}))
        c.commit(w.prepare_commit())
    sql(run_cli, wh, "DELETE FROM db.t WHERE id % 1000 = 0")
    want = read(cpaimon, wh)
    stmt = "CALL sys.compact(table => 'db.t', options => 'compaction.min.file-num=2')"
    killed = 0
    for delay in (0.05, 0.15, 0.3, 0.5, 0.8):
        p = subprocess.Popen([str(cpaimon_bin), "sql", "--warehouse", str(wh), "-e", stmt],
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(delay)
        if p.poll() is None:
            os.kill(p.pid, signal.SIGKILL)
            killed += 1
        p.wait()
        assert read(cpaimon, wh) == want
        check_clean(run_cli, wh)
        if "COMPACT" in snapshots(run_cli, wh):
            break
    assert killed >= 1
    sql(run_cli, wh, stmt)
    assert read(cpaimon, wh) == want
    assert "COMPACT" in snapshots(run_cli, wh)
    check_clean(run_cli, wh)
