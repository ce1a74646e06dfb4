"""Data-evolution compaction (include/cpaimon/compact.h, docs/maintenance.md) against Java Paimon
1.4.2's DataEvolutionCompactCoordinator + DataEvolutionCompactTask (tests/java `history --op
compact`, what Spark's sys.compact runs): the same table compacted by cpaimon and by Java ends with
the same files (ranges, sequence numbers, columns); cpaimon, Java and pypaimon read identical rows,
_ROW_ID and _SEQUENCE_NUMBER from either; concurrent updaters in other processes lose nothing; a
compaction killed with SIGKILL leaves the table as it was.

Named expected difference (JAVA_1_4_2_FILE_SOURCE): Java 1.4.2 writes the compacted file with
file_source APPEND; Paimon's current source (DataEvolutionNormalCompactTask.withFileSource) and
cpaimon write COMPACT. Both are skipped by row-id assignment (the file has a first row id), so
readers see no difference."""
import json
import os
import shutil
import signal
import subprocess
import sys
import time

import pyarrow as pa
import pypaimon
import pytest

import cpaimon
from test_java_interop import java  # noqa: F401  (Java Paimon 1.4.2, the session fixture)

JAVA_1_4_2_FILE_SOURCE = "APPEND"
DE = "'row-tracking.enabled' = 'true', 'data-evolution.enabled' = 'true'"


def sql(run_cli, wh, *statements):
    r = run_cli("sql", "--warehouse", wh, "-e", ";".join(statements))
    assert r.returncode == 0, r.stderr
    return r.stdout


# Histories of a table db.t with columns id, v, n (and more after ALTERs); each statement its own
# commit.
HISTORIES = {
    # appends, then partial-column updates on some groups
    "updates": [f"CREATE TABLE db.t (id INT, v STRING, n INT) TBLPROPERTIES ({DE})"]
    + [f"INSERT INTO db.t VALUES ({3 * i}, 'a{i}', {i}), ({3 * i + 1}, 'b{i}', {i}), "
       f"({3 * i + 2}, 'c{i}', {i})" for i in range(5)]
    + ["UPDATE db.t SET v = 'u' WHERE id < 7", "UPDATE db.t SET n = 70 WHERE id % 2 = 0",
       "UPDATE db.t SET v = 'w' WHERE id = 13"],
    # partitioned: row-id ranges interleave between partitions, so runs break at every gap
    "partitioned": [f"CREATE TABLE db.t (id INT, v STRING, n INT, dt STRING) PARTITIONED BY (dt) "
                    f"TBLPROPERTIES ({DE})"]
    + [f"INSERT INTO db.t VALUES ({2 * i}, 'a{i}', {i}, 'x'), ({2 * i + 1}, 'b{i}', {i}, "
       f"'{'x' if i % 3 else 'y'}')" for i in range(6)]
    + ["UPDATE db.t SET n = -n WHERE dt = 'x'", "UPDATE db.t SET v = 'y' WHERE dt = 'y'"],
    # a column added later and backfilled: old files are read through schema evolution
    "evolved": [f"CREATE TABLE db.t (id INT, v STRING, n INT) TBLPROPERTIES ({DE})"]
    + [f"INSERT INTO db.t VALUES ({2 * i}, 'a{i}', {i}), ({2 * i + 1}, 'b{i}', {i})"
       for i in range(4)]
    + ["ALTER TABLE db.t ADD COLUMNS (e DOUBLE)", "UPDATE db.t SET e = id * 1.5 WHERE id < 6",
       "INSERT INTO db.t VALUES (100, 'z', 0, 2.5)", "UPDATE db.t SET v = 'q' WHERE id > 3"],
}

# Planner settings: Java's defaults, and small targets that cut runs into several bins (every
# test file is far below the open cost, so each weighs exactly source.split.open-file-cost).
SETTINGS = {
    "default": {},
    "min2": {"compaction.min.file-num": "2"},
    "bins": {"compaction.min.file-num": "2", "source.split.open-file-cost": "100 kb",
             "target-file-size": "250 kb"},
}


def build(run_cli, wh, history):
    sql(run_cli, wh, "CREATE DATABASE db")
    for s in HISTORIES[history]:
        sql(run_cli, wh, s)


def read(lib, wh, ident="db.t"):
    t = lib.CatalogFactory.create({"warehouse": str(wh)}).get_table(ident)
    names = [f.name for f in t.fields] + ["_ROW_ID", "_SEQUENCE_NUMBER"]
    rb = t.new_read_builder().with_projection(names)
    return sorted(tuple(r.values()) for r in
                  rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist())


def java_read(java, wh):  # noqa: F811
    rows = java.read(wh, "db.t", row_tracking=True)
    return sorted(tuple(r.values()) for r in rows)


def canon(rows):
    """Rows as text cells (Java's JSON renders doubles and ints its own way)."""
    return sorted(tuple("None" if v is None else str(float(v)) if isinstance(v, float) else str(v)
                        for v in r) for r in rows)


def layout(java, wh):  # noqa: F811
    """The live files as Java lists them: what compaction decides, without names and sizes."""
    keep = ("partition", "first_row_id", "row_count", "min_sequence_number",
            "max_sequence_number", "write_cols", "schema_id", "file_source")
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
    assert read(pypaimon, ours) == before
    opts = SETTINGS[setting]

    t = cpaimon.CatalogFactory.create({"warehouse": str(ours)}).get_table("db.t")
    result = t.compact(options=opts)
    args = [a for k, v in opts.items() for a in ("--option", f"{k}={v}")]
    java_tasks = int(java("history", theirs, "db.t", "--op", "compact", *args))
    assert result.tasks == java_tasks
    if setting != "default":
        assert result.tasks > 0 and result.snapshot_id is not None
    mine, java_layout = layout(java, ours), layout(java, theirs)
    fix = json.dumps(JAVA_1_4_2_FILE_SOURCE)
    assert [r[:-1] + ((fix,) if r[-1] == '"COMPACT"' else (r[-1],)) for r in mine] == java_layout
    assert sum(r[-1] == '"COMPACT"' for r in mine) == result.files_after

    after = read(cpaimon, ours)
    # Values and row ids never change; sequence numbers follow Java's (max of the bin's files).
    assert [r[:-1] for r in after] == [r[:-1] for r in before]
    assert read(cpaimon, theirs) == after
    assert read(pypaimon, ours) == after
    assert canon(java_read(java, ours)) == canon(after)
    check_clean(run_cli, ours)
    if result.tasks:
        assert snapshots(run_cli, ours).split("|")[-2].strip() == "COMPACT"
        assert json.loads(java("snapshot", ours, "db.t"))["nextRowId"] == \
            json.loads(java("snapshot", theirs, "db.t"))["nextRowId"]


def test_updates_after_compaction_interop(tmp_path, run_cli, java):  # noqa: F811
    """After a compaction every writer keeps working on the new layout: cpaimon updates and
    appends, Java updates by row id, pypaimon reads it all the same way."""
    wh = tmp_path / "wh"
    build(run_cli, wh, "updates")
    sql(run_cli, wh, "CALL sys.compact(table => 'db.t', options => 'compaction.min.file-num=2')")
    sql(run_cli, wh, "UPDATE db.t SET n = 5 WHERE id = 3", "INSERT INTO db.t VALUES (99, 'z', 9)")
    java.update(wh, "db.t", [{"_ROW_ID": 4, "v": "java"}], columns=["v"])
    rows = read(cpaimon, wh)
    assert read(pypaimon, wh) == rows
    assert canon(java_read(java, wh)) == canon(rows)
    by_id = {r[0]: r for r in rows}
    assert by_id[3][2] == 5 and by_id[4][1] == "java" and by_id[99][1] == "z"
    check_clean(run_cli, wh)


def test_deletion_vectors_are_moved(tmp_path, run_cli):
    """With deletion vectors the compacted file keeps the deleted rows and the DVs move onto it;
    pypaimon reads the same rows. (Java 1.4.2 refuses data evolution with deletion vectors, so
    pypaimon is the second reader here.)"""
    wh = tmp_path / "wh"
    sql(run_cli, wh, "CREATE DATABASE db",
        f"CREATE TABLE db.t (id INT, v STRING, n INT) TBLPROPERTIES ({DE}, "
        "'deletion-vectors.enabled' = 'true')")
    for i in range(4):
        sql(run_cli, wh, f"INSERT INTO db.t VALUES ({2 * i}, 'a', {i}), ({2 * i + 1}, 'b', {i})")
    sql(run_cli, wh, "UPDATE db.t SET v = 'u' WHERE id > 2")
    sql(run_cli, wh, "DELETE FROM db.t WHERE id IN (1, 4)")
    before = read(cpaimon, wh)
    sql(run_cli, wh, "CALL sys.compact(table => 'db.t', options => 'compaction.min.file-num=2')")
    after = read(cpaimon, wh)
    assert [r[:-1] for r in after] == [r[:-1] for r in before]
    assert len(after) == 6 and read(pypaimon, wh) == after
    # One DV index file, for the one new file.
    idx = sql(run_cli, wh, "SELECT * FROM db.`t$table_indexes`")
    assert idx.count("DELETION_VECTORS") == 1, idx
    sql(run_cli, wh, "DELETE FROM db.t WHERE id = 6")
    assert len(read(cpaimon, wh)) == 5 and read(pypaimon, wh) == read(cpaimon, wh)
    check_clean(run_cli, wh)


def test_cli_sql_and_python_forms(tmp_path, run_cli):
    wh = tmp_path / "wh"
    build(run_cli, wh, "partitioned")
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
    files = sql(run_cli, wh, "SELECT partition, file_source FROM db.`t$files`")
    assert any("{x}" in line and "COMPACT" in line for line in files.splitlines())
    t = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    assert t.compact(options={"compaction.min.file-num": "2"}).tasks == 0  # nothing left
    assert [r[:-1] for r in read(cpaimon, wh)] == [r[:-1] for r in before]
    # A partition filter from the predicate builder; commit=False hands the messages over.
    pb = t.new_read_builder().new_predicate_builder()
    sql(run_cli, wh, "UPDATE db.t SET n = 1 WHERE dt = 'y'")
    t = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    res = t.compact(partition_filter=pb.equal("dt", "y"),
                    options={"compaction.min.file-num": "2"}, commit=False)
    assert res.tasks > 0 and res.snapshot_id is None and res.messages
    c = t.new_batch_write_builder().new_commit()
    c.commit(res.messages)
    assert "COMPACT" in snapshots(run_cli, wh).splitlines()[-2]
    check_clean(run_cli, wh)


def test_errors_leave_the_table_unchanged(tmp_path, run_cli):
    wh = tmp_path / "wh"
    build(run_cli, wh, "partitioned")
    sql(run_cli, wh, "CREATE TABLE db.plain (id INT)", "INSERT INTO db.plain VALUES (1)")
    state = snapshots(run_cli, wh)
    cases = [
        ("CALL sys.compact(table => 'db.t', partitions => 'id=1')",
         "Only partition predicate is supported, your predicate is id = 1, but partition keys "
         "are [dt]"),
        ("CALL sys.compact(table => 'db.t', partitions => 'dt')", "partitions must be"),
        ("CALL sys.compact(table => 'db.t', options => 'compaction.min.file-num=x')",
         "'compaction.min.file-num' = 'x' is not an integer"),
        ("CALL sys.compact(table => 'db.t', options => "
         "'data-evolution.compaction.rewrite-row-ids=true')",
         "Option 'data-evolution.compaction.rewrite-row-ids=true' is no longer supported."),
        ("CALL sys.compact(table => 'db.t', order_strategy => 'zorder', order_by => 'id')",
         "Data Evolution table cannot be sorted!"),
        ("CALL sys.compact(table => 'db.t', compact_strategy => 'most')",
         "The compact strategy only supports 'full' or 'minor'"),
        ("CALL sys.compact(table => 'db.t', where => 'n = 1')", "Only partition predicate is supported"),
        ("CALL sys.compact(table => 'db.t', where => 'dt = 1', partitions => 'dt=x')",
         "partitions and where cannot be used together."),
        ("CALL sys.compact(table => 'db.plain')", "only tables with row tracking"),
        ("CALL sys.compact(table => 'db.nope')", "db.nope"),
    ]
    for stmt, message in cases:
        r = run_cli("sql", "--warehouse", wh, "-e", stmt)
        assert r.returncode != 0 and message in r.stderr, (stmt, r.stderr)
    assert snapshots(run_cli, wh) == state
    t = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    pb = t.new_read_builder().new_predicate_builder()
    with pytest.raises(ValueError, match="Only partition predicate is supported"):
        t.compact(partition_filter=pb.equal("n", 1))
    with pytest.raises(ValueError, match="compaction.min.file-num"):
        t.compact(options={"compaction.min.file-num": "0"})
    with pytest.raises(ValueError, match="nope"):
        t.compact(partition_filter=pb.equal("nope", 1))
    with pytest.raises(TypeError, match="partition_filter must be a predicate"):
        t.compact(partition_filter="dt=x")
    with pytest.raises(TypeError, match="options must be a dict"):
        t.compact(options=["compaction.min.file-num=2"])
    r = run_cli("sql", "--warehouse", wh, "-e",
                "CALL sys.compact(table => 'db.t', partitions => 'nope=1')")
    assert r.returncode != 0 and "nope" in r.stderr, r.stderr
    assert snapshots(run_cli, wh) == state


def test_corrupt_data_file_fails_cleanly(tmp_path, run_cli):
    """A data file that does not decode stops the compaction with an error naming it; nothing is
    committed and the compaction's own files are gone."""
    wh = tmp_path / "wh"
    build(run_cli, wh, "updates")
    state = snapshots(run_cli, wh)
    data = sorted((wh / "db.db" / "t").rglob("data-*.parquet"))
    victim = data[0]
    victim.write_bytes(b"PAR1" + b"\0" * 64 + b"PAR1")
    r = run_cli("sql", "--warehouse", wh, "-e",
                "CALL sys.compact(table => 'db.t', options => 'compaction.min.file-num=2')")
    assert r.returncode != 0 and victim.name in r.stderr, r.stderr
    assert snapshots(run_cli, wh) == state
    assert sorted((wh / "db.db" / "t").rglob("data-*.parquet")) == data


def test_concurrent_compaction_loses_cleanly(tmp_path, run_cli):
    """Two compactions planned on the same snapshot: the second commit is Java's file-deletion
    conflict and leaves its files behind for nobody (they are deleted); an update committed on
    the old boundaries before a merging compaction commits is rebased onto it, and both stay."""
    wh = tmp_path / "wh"
    build(run_cli, wh, "updates")
    t = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    opts = {"compaction.min.file-num": "2"}
    first = t.compact(options=opts, commit=False)
    second = t.compact(options=opts, commit=False)
    count = len(list((wh / "db.db" / "t").rglob("data-*")))
    # Compaction messages travel like any others (a compactor hands them to a committer).
    from cpaimon.write import CommitMessage
    moved = [CommitMessage.deserialize(m.serialize()) for m in first.messages]
    wb = t.new_batch_write_builder()
    w = wb.new_write()
    w.write_arrow(pa.table({"id": pa.array([500], pa.int32()), "v": ["x"],
                            "n": pa.array([1], pa.int32())}))
    appended = w.prepare_commit()
    with pytest.raises(ValueError, match="compaction messages cannot be committed together"):
        wb.new_commit().commit(moved + appended)
    wb.new_commit().abort(appended)
    t.new_batch_write_builder().new_commit().commit(moved)
    assert "COMPACT" in snapshots(run_cli, wh).splitlines()[-2]
    c = t.new_batch_write_builder().new_commit()
    with pytest.raises(Exception, match="File deletion conflicts detected! Give up committing."):
        c.commit(second.messages)
    c.abort(second.messages)
    assert len(list((wh / "db.db" / "t").rglob("data-*"))) == count - second.files_after
    check_clean(run_cli, wh)

    # An update committed on the old boundaries in between is rebased onto the compacted ranges
    # (Spark's compaction-side rewriter; test_rebase.py has the rest).
    wh2 = tmp_path / "wh2"
    build(run_cli, wh2, "updates")
    t = cpaimon.CatalogFactory.create({"warehouse": str(wh2)}).get_table("db.t")
    planned = t.compact(options=opts, commit=False)
    sql(run_cli, wh2, "UPDATE db.t SET n = 1234 WHERE id = 4")
    t.new_batch_write_builder().new_commit().commit(planned.messages)
    assert "COMPACT" in snapshots(run_cli, wh2).splitlines()[-2]
    assert [r[2] for r in read(cpaimon, wh2) if r[0] == 4] == [1234]
    assert read(pypaimon, wh2) == read(cpaimon, wh2)
    check_clean(run_cli, wh2)


def test_concurrent_updaters_in_other_processes(tmp_path, run_cli, cpaimon_bin):
    """Updaters of different columns (each its own process, retrying on conflicts as a job
    would) and a compactor run at the same time: every update is there at the end, compaction
    made progress, and the table checks clean. Bounded: 30 attempts per process."""
    wh = tmp_path / "wh"
    cols = ["c0", "c1", "c2"]
    sql(run_cli, wh, "CREATE DATABASE db",
        f"CREATE TABLE db.t (id INT, {', '.join(c + ' INT' for c in cols)}) "
        f"TBLPROPERTIES ({DE})")
    for i in range(6):
        sql(run_cli, wh, "INSERT INTO db.t VALUES " + ", ".join(
            f"({10 * i + k}, 0, 0, 0)" for k in range(10)))
    script = (
        "import subprocess, sys, time\n"
        "bin, wh, stmt = sys.argv[1], sys.argv[2], sys.argv[3]\n"
        "for attempt in range(30):\n"
        "    r = subprocess.run([bin, 'sql', '--warehouse', wh, '-e', stmt], capture_output=True,"
        " text=True)\n"
        "    if r.returncode == 0:\n"
        "        print('ok', attempt); sys.exit(0)\n"
        "    if 'conflict' not in r.stderr.lower() and 'Conflict' not in r.stderr:\n"
        "        print(r.stderr); sys.exit(2)\n"
        "    time.sleep(0.05)\n"
        "sys.exit(3)\n")
    procs = [subprocess.Popen([sys.executable, "-c", script, str(cpaimon_bin), str(wh),
                               f"UPDATE db.t SET {c} = id + {k + 1} WHERE id % 3 = {k}"],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for k, c in enumerate(cols)]
    procs.append(subprocess.Popen(
        [sys.executable, "-c", script, str(cpaimon_bin), str(wh),
         "CALL sys.compact(table => 'db.t', options => 'compaction.min.file-num=2')"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
    for p in procs:
        out, errs = p.communicate(timeout=300)
        assert p.returncode == 0, out + errs
    # One more compaction after everything: none of the updates may be lost by it either.
    sql(run_cli, wh, "CALL sys.compact(table => 'db.t', options => 'compaction.min.file-num=2')")
    rows = read(cpaimon, wh)
    assert len(rows) == 60
    for r in rows:
        for k in range(3):
            assert r[1 + k] == (r[0] + k + 1 if r[0] % 3 == k else 0), r
    assert read(pypaimon, wh) == rows
    assert "COMPACT" in snapshots(run_cli, wh)
    check_clean(run_cli, wh)


def test_sigkill_during_compaction(tmp_path, run_cli, cpaimon_bin):
    """A compaction killed with SIGKILL at various moments: the table reads as before (or as
    compacted, if the commit got through), checks clean, and the next compaction finishes."""
    wh = tmp_path / "wh"
    sql(run_cli, wh, "CREATE DATABASE db",
        f"CREATE TABLE db.t (id INT, v STRING, n BIGINT) TBLPROPERTIES ({DE})")
    t = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    n = 200_000
    for k in range(4):
        wb = t.new_batch_write_builder()
        w, c = wb.new_write(), wb.new_commit()
        ids = pa.array(range(k * n, (k + 1) * n), pa.int32())
        w.write_arrow(pa.table({"id": ids, "v": pa.compute.cast(ids, pa.string()),
                                "n": pa.array(range(n), pa.int64())}))
        c.commit(w.prepare_commit())
    sql(run_cli, wh, "UPDATE db.t SET n = -1 WHERE id % 1000 = 0")
    want = read(cpaimon, wh)
    values = [r[:-1] for r in want]
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
        got = read(cpaimon, wh)
        assert [r[:-1] for r in got] == values
        check_clean(run_cli, wh)
        if "COMPACT" in snapshots(run_cli, wh):
            break
    assert killed >= 1
    sql(run_cli, wh, stmt)
    assert [r[:-1] for r in read(cpaimon, wh)] == values
    assert "COMPACT" in snapshots(run_cli, wh)
    check_clean(run_cli, wh)


def test_blob_table_compacts_normal_files_like_java(tmp_path, java):  # noqa: F811
    """A table pypaimon wrote with a BLOB column: compaction (Java's default,
    blob-compaction.enabled=false) folds the normal files and leaves the .blob files; cpaimon and
    Java end with the same files, and pypaimon and cpaimon read every blob as before."""
    ours, theirs = tmp_path / "ours", tmp_path / "theirs"
    cat = pypaimon.CatalogFactory.create({"warehouse": str(ours)})
    cat.create_database("db", False)
    cat.create_table("db.t", pypaimon.Schema.from_pyarrow_schema(
        pa.schema([("id", pa.int32()), ("v", pa.string()), ("pic", pa.large_binary())]),
        options={"row-tracking.enabled": "true", "data-evolution.enabled": "true"}), False)
    t = cat.get_table("db.t")
    for k in range(3):
        wb = t.new_batch_write_builder()
        w, c = wb.new_write(), wb.new_commit()
        w.write_arrow(pa.table({"id": pa.array([2 * k, 2 * k + 1], pa.int32()),
                                "v": [f"a{k}", f"b{k}"],
                                "pic": pa.array([bytes([k]) * 10, bytes([k + 1]) * 7000],
                                                pa.large_binary())}))
        c.commit(w.prepare_commit())
        w.close()
        c.close()
    shutil.copytree(ours, theirs)

    def py_all(wh):
        pt = pypaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
        rb = pt.new_read_builder().with_projection(["id", "v", "pic", "_ROW_ID",
                                                    "_SEQUENCE_NUMBER"])
        return sorted(tuple(r.values()) for r in
                      rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist())

    def cp_plain(wh):
        ct = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
        rb = ct.new_read_builder().with_projection(["id", "v", "_ROW_ID", "_SEQUENCE_NUMBER"])
        return sorted(tuple(r.values()) for r in
                      rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist())

    before = py_all(ours)
    assert cp_plain(ours) == sorted(r[:2] + r[3:] for r in before)
    res = cpaimon.CatalogFactory.create({"warehouse": str(ours)}).get_table("db.t").compact(
        options={"compaction.min.file-num": "2"})
    assert res.tasks == 1 and res.files_before == 3
    assert int(java("history", theirs, "db.t", "--op", "compact", "--option",
                    "compaction.min.file-num=2")) == 1
    fix = json.dumps(JAVA_1_4_2_FILE_SOURCE)
    mine = layout(java, ours)
    assert [r[:-1] + ((fix,) if r[-1] == '"COMPACT"' else (r[-1],)) for r in mine] == \
        layout(java, theirs)
    assert sum(1 for f in java.files(ours, "db.t") if f["file_name"].endswith(".blob")) == 3
    for wh in (ours, theirs):
        after = py_all(wh)
        assert [r[:4] for r in after] == [r[:4] for r in before]
        assert cp_plain(wh) == sorted(r[:2] + r[3:] for r in after)
    ct = cpaimon.CatalogFactory.create({"warehouse": str(ours)}).get_table("db.t")
    with pytest.raises(NotImplementedError, match="'blob-compaction.enabled' = 'true' is not "
                                                  "supported yet"):
        ct.compact(options={"blob-compaction.enabled": "true"})
    # cpaimon reads the blobs too (test_blob_read.py), the same as pypaimon.
    rb = ct.new_read_builder().with_projection(["id", "v", "pic", "_ROW_ID", "_SEQUENCE_NUMBER"])
    assert sorted(tuple(r.values()) for r in
                  rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist()) == py_all(ours)
