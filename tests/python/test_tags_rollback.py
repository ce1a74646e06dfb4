"""Tags, rollback and time travel by tag and timestamp (include/cpaimon/history.h,
docs/maintenance.md) against Java Paimon 1.4.2 (tests/java `history`, `read --option`) and
pypaimon 2.1: each side creates tags and rolls back, the others list the same tags and read the
same rows, `_ROW_ID` and `_SEQUENCE_NUMBER`.

Named expected difference:
- PYPAIMON_LIST_TAGS_ORDER: pypaimon's list_tags returns the directory listing's order; cpaimon
  orders by tagged snapshot, then name, as Java's TagManager.tags() — compared as sets.
"""
import json
import os
import subprocess
import time

import pyarrow as pa
import pypaimon
import pytest

import cpaimon
from test_java_interop import java  # noqa: F401  (Java Paimon 1.4.2, the session fixture)

OPTIONS = {"row-tracking.enabled": "true", "data-evolution.enabled": "true"}
SCHEMA = pa.schema([pa.field("id", pa.int32(), nullable=False), ("v", pa.string())])
COLS = ["id", "v", "_ROW_ID", "_SEQUENCE_NUMBER"]


def make(wh):
    c = cpaimon.CatalogFactory.create({"warehouse": str(wh)})
    c.create_database("db", True)
    c.create_table("db.t", cpaimon.Schema.from_pyarrow_schema(SCHEMA, options=OPTIONS), True)
    return c, c.get_table("db.t")


def append(t, ids):
    time.sleep(0.01)  # distinct commit milliseconds, so each timestamp names one snapshot
    wb = t.new_batch_write_builder()
    w, c = wb.new_write(), wb.new_commit()
    w.write_arrow(pa.table({"id": pa.array(ids, pa.int32()), "v": [f"v{i}" for i in ids]}))
    c.commit(w.prepare_commit())


def rows(t, **options):
    t = t.copy(options) if options else t
    rb = t.new_read_builder().with_projection(COLS)
    got = rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist()
    return sorted((r["id"], r["v"], r["_ROW_ID"], r["_SEQUENCE_NUMBER"]) for r in got)


def py_table(wh):
    return pypaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")


def java_rows(java, wh, *options):  # noqa: F811
    args = ["read", wh, "db.t", "--with-row-tracking"]
    for o in options:
        args += ["--option", o]
    return sorted((r["id"], r["v"], r["_ROW_ID"], r["_SEQUENCE_NUMBER"])
                  for r in map(json.loads, java(*args).splitlines()))


def java_tags(java, wh):  # noqa: F811
    return [(r["name"], r["snapshot"])
            for r in map(json.loads, java("history", wh, "db.t", "--op", "list-tags").splitlines())]


def history(wh):
    """A table of three appends (snapshots 1..3) and its expected rows per snapshot."""
    c, t = make(wh)
    append(t, [1, 2])
    append(t, [3])
    append(t, [4, 5])
    expect = {1: [(1, "v1", 0, 1), (2, "v2", 1, 1)]}
    expect[2] = expect[1] + [(3, "v3", 2, 2)]
    expect[3] = expect[2] + [(4, "v4", 3, 3), (5, "v5", 4, 3)]
    return c, t, expect


def test_tags_by_cpaimon_read_by_java_and_pypaimon(tmp_path, java):  # noqa: F811
    wh = tmp_path / "wh"
    c, t, expect = history(wh)
    t.create_tag("first", 1)
    t.create_tag("second", 2, time_retained="1 h")
    t.create_tag("latest")
    assert t.list_tags() == ["first", "second", "latest"]
    assert java_tags(java, wh) == [("first", 1), ("second", 2), ("latest", 3)]
    assert sorted(py_table(wh).list_tags()) == sorted(t.list_tags())  # PYPAIMON_LIST_TAGS_ORDER
    for name, sid in [("first", 1), ("second", 2), ("latest", 3)]:
        assert rows(t, **{"scan.tag-name": name}) == expect[sid]
        assert rows(t, **{"scan.version": name}) == expect[sid]
        assert java_rows(java, wh, f"scan.tag-name={name}") == expect[sid]
        pt = py_table(wh).copy({"scan.tag-name": name})
        rb = pt.new_read_builder().with_projection(COLS)
        got = rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist()
        assert sorted((r["id"], r["v"], r["_ROW_ID"], r["_SEQUENCE_NUMBER"]) for r in got) \
            == expect[sid]
    # The retention is Java's: $tags shows it as Java's Duration, with the creation time.
    st = c.get_table("db.t$tags")
    rb = st.new_read_builder()
    tags = {r["tag_name"]: r for r in rb.new_read().to_arrow(rb.new_scan().plan().splits())
            .to_pylist()}
    assert tags["second"]["time_retained"] == "PT1H" and tags["second"]["create_time"]
    assert tags["first"]["time_retained"] is None and tags["first"]["create_time"] is None
    assert [tags[n]["snapshot_id"] for n in ("first", "second", "latest")] == [1, 2, 3]
    assert tags["latest"]["record_count"] == 5
    java_view = {r["tag_name"]: r for r in map(json.loads, java("read", wh, "db.t$tags")
                                                   .splitlines())}
    assert java_view["second"]["time_retained"] == "PT1H"
    assert {n: r["snapshot_id"] for n, r in java_view.items()} == \
        {n: r["snapshot_id"] for n, r in tags.items()}
    # Rename, replace and delete, seen by Java.
    t.rename_tag("first", "one")
    t.replace_tag("latest", 1)
    assert t.delete_tag("second") is True and t.delete_tag("second") is False
    # Java lists the tags of one snapshot in directory order; cpaimon by name.
    assert sorted(java_tags(java, wh)) == [("latest", 1), ("one", 1)]
    assert t.list_tags() == ["latest", "one"]


def test_tags_by_java_read_by_cpaimon(tmp_path, java):  # noqa: F811
    wh = tmp_path / "wh"
    _, t, expect = history(wh)
    java("history", wh, "db.t", "--op", "create-tag", "--tag", "j1", "--snapshot", "1")
    java("history", wh, "db.t", "--op", "create-tag", "--tag", "j2", "--snapshot", "2",
         "--retain-ms", "90000")
    assert t.list_tags() == ["j1", "j2"]
    assert rows(t, **{"scan.tag-name": "j2"}) == expect[2]
    tags = {g[0]: g for g in cpaimon._cpaimon.table_list_tags(t._handle)}
    assert tags["j2"][6] == 90000 and tags["j2"][5] is not None and tags["j1"][6] is None
    # cpaimon's rollback to Java's tag: Java reads the rolled-back table.
    t.rollback_to("j1")
    assert t.list_tags() == ["j1"] and t.latest_snapshot_id() == 1
    assert java_rows(java, wh) == expect[1] == rows(t)


def test_rollback_matches_java(tmp_path, java):  # noqa: F811
    """The same history rolled back by cpaimon and by Java: same files left, same rows, and the
    next append hands out the discarded snapshots' row ids again in both."""
    results = {}
    for who in ("cpaimon", "java"):
        wh = tmp_path / who
        _, t, expect = history(wh)
        t.create_tag("keep", 1)
        t.create_tag("gone", 3)
        if who == "cpaimon":
            t.rollback_to(2)
        else:
            java("history", wh, "db.t", "--op", "rollback", "--snapshot", "2")
        table_dir = wh / "db.db" / "t"
        results[who] = {
            "snapshots": sorted(os.listdir(table_dir / "snapshot")),
            "latest_hint": (table_dir / "snapshot" / "LATEST").read_text(),
            "tags": sorted(os.listdir(table_dir / "tag")),
        }
        assert rows(t) == expect[2] == java_rows(java, wh)
        append(t, [6])
        after = expect[2] + [(6, "v6", 3, 3)]  # row id 3 again: snapshot 3 had assigned it
        assert rows(t) == after == java_rows(java, wh)
    assert results["cpaimon"] == results["java"]
    assert results["cpaimon"]["snapshots"] == ["LATEST", "snapshot-1", "snapshot-2"]
    assert results["cpaimon"]["tags"] == ["tag-keep"] and results["cpaimon"]["latest_hint"] == "2"


def test_rollback_to_expired_tag_restores_the_snapshot(tmp_path, java):  # noqa: F811
    wh = tmp_path / "wh"
    _, t, expect = history(wh)
    t.create_tag("old", 1)
    snap_dir = wh / "db.db" / "t" / "snapshot"
    # Expire snapshot 1 as Java's expiration leaves it: file gone, EARLIEST = 2.
    (snap_dir / "snapshot-1").unlink()
    (snap_dir / "EARLIEST").write_text("2")
    assert rows(t, **{"scan.tag-name": "old"}) == expect[1]  # the tag's own copy
    assert java_rows(java, wh, "scan.tag-name=old") == expect[1]
    t.rollback_to(1)  # a snapshot that survives only as a tag: restored from it
    assert sorted(os.listdir(snap_dir)) == ["EARLIEST", "LATEST", "snapshot-1"]
    assert (snap_dir / "EARLIEST").read_text() == "1"
    assert rows(t) == expect[1] == java_rows(java, wh)


def test_time_travel_and_rollback_by_timestamp(tmp_path, java):  # noqa: F811
    wh = tmp_path / "wh"
    _, t, expect = history(wh)
    snap_dir = wh / "db.db" / "t" / "snapshot"
    times = {i: json.loads((snap_dir / f"snapshot-{i}").read_text())["timeMillis"]
             for i in (1, 2, 3)}
    for i in (1, 2, 3):
        assert rows(t, **{"scan.timestamp-millis": times[i]}) == expect[i]
        assert java_rows(java, wh, f"scan.timestamp-millis={times[i]}") == expect[i]
    with pytest.raises(ValueError, match="no snapshot earlier than or equal to timestamp"):
        t.copy({"scan.timestamp-millis": times[1] - 1})
    t.rollback_to_timestamp(times[2])
    assert t.latest_snapshot_id() == 2 and rows(t) == expect[2] == java_rows(java, wh)


def test_errors_leave_the_table_as_it_was(tmp_path):
    wh = tmp_path / "wh"
    _, t, expect = history(wh)
    t.create_tag("a", 1)
    table_dir = wh / "db.db" / "t"

    def state():
        return {p: (table_dir / p).read_bytes() for p in
                [str(f.relative_to(table_dir)) for f in table_dir.rglob("*") if f.is_file()]}

    before = state()
    cases = [
        (lambda: t.create_tag("a", 2), ValueError, "Tag 'a' already exists."),
        (lambda: t.create_tag("  "), ValueError, "Tag name shouldn't be blank."),
        (lambda: t.create_tag("b", 9), ValueError, "given snapshot #9 doesn't exist"),
        (lambda: t.create_tag("b", 1, time_retained="soon"), ValueError, "invalid duration"),
        (lambda: t.replace_tag("zz", 1), ValueError, "Tag 'zz' doesn't exist."),
        (lambda: t.rename_tag("zz", "y"), ValueError, "Tag 'zz' doesn't exist."),
        (lambda: t.rename_tag("a", "a"), ValueError, "Tag 'a' already exists."),
        (lambda: t.rollback_to(9), ValueError, "Rollback snapshot '9' doesn't exist."),
        (lambda: t.rollback_to("zz"), ValueError, "Tag 'zz' doesn't exist."),
        (lambda: t.rollback_to(1.5), ValueError, "Unsupported rollback target type"),
        (lambda: t.copy({"scan.tag-name": "zz"}), ValueError, "Tag 'zz' doesn't exist."),
    ]
    for fn, exc, msg in cases:
        with pytest.raises(exc, match=msg.replace("(", r"\(").replace(".", r"\.")):
            fn()
        assert state() == before, msg
    assert t.create_tag("a", 2, ignore_if_exists=True) is None
    assert state() == before
    assert rows(t) == expect[3]
    # A corrupt tag file: every call that reads tags names it; nothing is changed.
    bad = table_dir / "tag" / "tag-bad"
    bad.write_text("{not json")
    before = state()
    for fn in (t.list_tags, lambda: t.rollback_to(9), lambda: rows(t, **{"scan.tag-name": "bad"}),
               lambda: t.expire_snapshots(retain_max=1, retain_min=1)):
        with pytest.raises(Exception, match="tag-bad"):
            fn()
        assert state() == before


def test_sql_and_cli_time_travel(tmp_path, run_cli):
    wh = tmp_path / "wh"
    _, t, expect = history(wh)
    t.create_tag("t1", 1)
    ms = json.loads((wh / "db.db" / "t" / "snapshot" / "snapshot-2").read_text())["timeMillis"]
    local = subprocess.run(["date", "-d", f"@{ms / 1000:.3f}", "+%Y-%m-%d %H:%M:%S.%3N"],
                           capture_output=True, text=True, check=True).stdout.strip()
    r = run_cli("sql", "--warehouse", wh, "--format", "csv", "-e",
                "SELECT id, _ROW_ID FROM db.t VERSION AS OF 't1' ORDER BY id;"
                f"SELECT count(*) FROM db.t TIMESTAMP AS OF '{local}';"
                "SELECT tag_name, snapshot_id FROM db.`t$tags`")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["id,_ROW_ID", "1,0", "2,1", "count(1)", "3",
                                "tag_name,snapshot_id", "t1,1"]
    r = run_cli("sql", "--warehouse", wh, "-e", "SELECT * FROM db.t VERSION AS OF 'nope'")
    assert r.returncode == 1 and "Tag 'nope' doesn't exist." in r.stderr
    r = run_cli("cat", wh, "db.t", "--tag", "t1", "--format", "csv")
    assert r.returncode == 0 and r.stdout.split() == ["id,v", "1,v1", "2,v2"]
    r = run_cli("cat", wh, "db.t", "--timestamp", ms, "--format", "csv")
    assert r.returncode == 0 and len(r.stdout.split()) == 4
    r = run_cli("cat", wh, "db.t", "--tag", "t1", "--snapshot", "2")
    assert r.returncode == 2 and "exclude each other" in r.stderr
    # Spark's procedure: rolls back to the latest snapshot at or before the moment.
    r = run_cli("sql", "--warehouse", wh, "--format", "csv", "-e",
                f"CALL sys.rollback_to_timestamp(table => 'db.t', timestamp => {ms})")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["previous_snapshot_id,current_snapshot_id", "3,2"]
    assert rows(t) == expect[2]
    r = run_cli("sql", "--warehouse", wh, "-e",
                "CALL sys.rollback_to_timestamp(table => 'db.t', timestamp => 1)")
    assert r.returncode == 1 and "count not find snapshot earlier than 1" in r.stderr


def test_rollback_to_as_latest(tmp_path, run_cli, java):  # noqa: F811
    """Java's rollbackToAsLatest (FileStoreCommitImpl; not in 1.4.2's API, so Java and pypaimon
    are the readers here): a new OVERWRITE snapshot with the target's files, deletion vectors
    and schema; the history stays; nextRowId = max(latest, target), so the next append gets
    fresh row ids where rollback_to would hand out the discarded ones again."""
    wh = tmp_path / "wh"
    r = run_cli("sql", "--warehouse", wh, "-e",
                "CREATE DATABASE db; CREATE TABLE db.t (id INT NOT NULL, v STRING) TBLPROPERTIES "
                "('row-tracking.enabled' = 'true', 'deletion-vectors.enabled' = 'true');"
                "INSERT INTO db.t VALUES (1, 'v1'), (2, 'v2'); INSERT INTO db.t VALUES (3, 'v3');"
                "DELETE FROM db.t WHERE id = 2; INSERT INTO db.t VALUES (4, 'v4')")
    assert r.returncode == 0, r.stderr
    t = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    t.create_tag("after_delete", 3)
    at = {i: rows(t, **{"scan.snapshot-id": str(i)}) for i in (1, 2, 3, 4)}
    t.rollback_to_as_latest(2)
    assert t.latest_snapshot_id() == 5
    snap = json.loads((wh / "db.db" / "t" / "snapshot" / "snapshot-5").read_text())
    assert snap["commitKind"] == "OVERWRITE" and snap["nextRowId"] == 4
    assert rows(t) == at[2] == java_rows(java, wh)
    assert rows(t, **{"scan.snapshot-id": "4"}) == at[4]  # the history stays
    t.rollback_to_as_latest("after_delete")  # from a tag: its deletion vectors come back
    assert rows(t) == at[3] == java_rows(java, wh)
    append(t, [7])
    assert rows(t) == at[3] + [(7, "v7", 4, 7)] == java_rows(java, wh)  # row id 4: never reused
    pt = py_table(wh)
    rb = pt.new_read_builder().with_projection(COLS)
    got = rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist()
    assert sorted((r["id"], r["v"], r["_ROW_ID"], r["_SEQUENCE_NUMBER"]) for r in got) == rows(t)
    check = run_cli("check", wh, "db.t")
    assert check.returncode == 0, check.stdout + check.stderr
    r = run_cli("sql", "--warehouse", wh, "--format", "csv", "-e",
                "CALL sys.rollback_to_as_latest(table => 'db.t', version => '1')")
    assert r.returncode == 0 and r.stdout.split() == [
        "previous_snapshot_id,current_snapshot_id", "7,1"], r.stdout + r.stderr
    assert rows(t) == at[1]
    with pytest.raises(ValueError, match="Rollback snapshot '99' doesn't exist"):
        t.rollback_to_as_latest(99)
