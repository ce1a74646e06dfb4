"""Snapshot expiration (include/cpaimon/history.h, docs/maintenance.md) against Java Paimon 1.4.2's
ExpireSnapshots (tests/java `history --op expire`): the same history expired by cpaimon and by
Java leaves the same files; every reader (cpaimon, Java, pypaimon) reads the retained snapshots
and the tags as before; commits expire with the table's options as Java's writers do."""
import json
import os
import shutil
import time

import pypaimon
import pytest

import cpaimon
from test_java_interop import java  # noqa: F401  (Java Paimon 1.4.2, the session fixture)
from test_tags_rollback import java_rows  # (id, v, _ROW_ID, _SEQUENCE_NUMBER) as Java reads

KINDS = {
    # data evolution: partial-column updates add files per row-id group
    "de": ("'data-evolution.enabled' = 'true'",
           ["UPDATE db.t SET v = 'u' WHERE id = 1", "UPDATE db.t SET v = 'w' WHERE id < 2"]),
    # deletion vectors: deletes add index files (Java refuses both options on one table)
    "dv": ("'deletion-vectors.enabled' = 'true'",
           ["DELETE FROM db.t WHERE id = 2", "DELETE FROM db.t WHERE id = 10"]),
    # copy-on-write: changes rewrite data files (the old ones stay only for older snapshots)
    "cow": ("'bucket' = '-1'",
            ["UPDATE db.t SET v = 'u' WHERE id = 1", "DELETE FROM db.t WHERE id = 10"]),
}


def sql(run_cli, wh, *statements):
    r = run_cli("sql", "--warehouse", wh, "-e", ";".join(statements))
    assert r.returncode == 0, r.stderr
    return r.stdout


def history(run_cli, wh, kind="de", extra=""):
    """Eight snapshots: three appends, a change (an update or a delete, by `kind`), an append, a
    second change, more appends; each its own commit a few milliseconds apart."""
    props, changes = KINDS[kind]
    statements = ["CREATE DATABASE db",
                  "CREATE TABLE db.t (id INT, v STRING) TBLPROPERTIES "
                  f"('row-tracking.enabled' = 'true', {props}{extra})"]
    for i in range(3):
        statements.append(f"INSERT INTO db.t VALUES ({2 * i}, 'a{i}'), ({2 * i + 1}, 'b{i}')")
    statements += [changes[0], "INSERT INTO db.t VALUES (10, 'c')", changes[1],
                   "INSERT INTO db.t VALUES (11, 'd')", "INSERT INTO db.t VALUES (12, 'e')"]
    for s in statements:
        sql(run_cli, wh, s)
        time.sleep(0.005)


def files(wh):
    root = wh / "db.db" / "t"
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def cp_rows(wh, **options):
    t = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    t = t.copy(options) if options else t
    rb = t.new_read_builder().with_projection(["id", "v", "_ROW_ID", "_SEQUENCE_NUMBER"])
    return sorted(tuple(r.values()) for r in
                  rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist())


def py_rows(wh):
    t = pypaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    rb = t.new_read_builder().with_projection(["id", "v", "_ROW_ID", "_SEQUENCE_NUMBER"])
    return sorted(tuple(r.values()) for r in
                  rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist())


@pytest.mark.parametrize("kind", ["de", "dv"])
@pytest.mark.parametrize("tagged", [False, True])
def test_expire_matches_java(tmp_path, run_cli, java, tagged, kind):  # noqa: F811
    base = tmp_path / "base"
    history(run_cli, base, kind)
    if tagged:  # a tag in the expired range keeps its snapshot's files
        cpaimon.CatalogFactory.create({"warehouse": str(base)}).get_table("db.t") \
            .create_tag("kept", 4)
    latest = cp_rows(base)
    tag_rows = cp_rows(base, **{"scan.tag-name": "kept"}) if tagged else None
    mine, theirs = tmp_path / "cpaimon", tmp_path / "java"
    shutil.copytree(base, mine)
    shutil.copytree(base, theirs)
    now = int(time.time() * 1000) + 1000
    t = cpaimon.CatalogFactory.create({"warehouse": str(mine)}).get_table("db.t")
    # Everything is older than `now`: all but retain_min go, snapshots 1..5.
    expired = t.expire_snapshots(retain_max=5, retain_min=3, older_than_millis=now)
    java_expired = int(java("history", theirs, "db.t", "--op", "expire", "--retain-max", "5",
                            "--retain-min", "3", "--older-than-ms", now))
    assert expired == java_expired == 5
    mf, tf = files(mine), files(theirs)
    assert mf == tf, (sorted(set(mf) - set(tf)), sorted(set(tf) - set(mf)))
    assert sorted(os.listdir(mine / "db.db" / "t" / "snapshot")) == \
        ["EARLIEST", "LATEST", "snapshot-6", "snapshot-7", "snapshot-8"]
    assert len(files(mine)) < len(files(base))
    for wh in (mine, theirs):
        assert cp_rows(wh) == latest == java_rows(java, wh) == py_rows(wh)
        if tagged:
            assert cp_rows(wh, **{"scan.tag-name": "kept"}) == tag_rows == \
                java_rows(java, wh, "scan.tag-name=kept")
        with pytest.raises(ValueError, match="Snapshot id '3' doesn't exist"):
            cp_rows(wh, **{"scan.snapshot-id": "3"})
        check = run_cli("check", wh, "db.t")
        assert check.returncode == 0, check.stdout + check.stderr


def test_commits_expire_with_the_table_options(tmp_path, run_cli, java):  # noqa: F811
    wh = tmp_path / "wh"
    history(run_cli, wh, "dv", extra=", 'snapshot.num-retained.max' = '4', "
                               "'snapshot.num-retained.min' = '2', 'snapshot.time-retained' = '1 ms'")
    snaps = sorted(os.listdir(wh / "db.db" / "t" / "snapshot"))
    # Older than 1 ms: each commit leaves retain_min (2) snapshots.
    assert snaps == ["EARLIEST", "LATEST", "snapshot-7", "snapshot-8"]
    assert (wh / "db.db" / "t" / "snapshot" / "EARLIEST").read_text() == "7"
    assert cp_rows(wh) == java_rows(java, wh) == py_rows(wh)
    # write-only: no expiration on commit (Java's option).
    sql(run_cli, wh, "ALTER TABLE db.t SET TBLPROPERTIES ('write-only' = 'true')",
        "INSERT INTO db.t VALUES (20, 'x')", "INSERT INTO db.t VALUES (21, 'y')")
    assert len([s for s in os.listdir(wh / "db.db" / "t" / "snapshot")
                if s.startswith("snapshot-")]) == 4


def test_defaults_keep_recent_snapshots_and_consumers_hold_back(tmp_path, run_cli):
    wh = tmp_path / "wh"
    history(run_cli, wh)
    t = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    before = files(wh)
    # Defaults: ten retained and one hour: nothing of a minute-old table goes.
    assert t.expire_snapshots() == 0 and files(wh) == sorted(before + ["snapshot/EARLIEST"])
    consumer = wh / "db.db" / "t" / "consumer"
    consumer.mkdir()
    (consumer / "consumer-app").write_text('{"nextSnapshot":3}')
    now = int(time.time() * 1000) + 1000
    assert t.expire_snapshots(retain_max=2, retain_min=1, older_than_millis=now) == 2
    assert (wh / "db.db" / "t" / "snapshot" / "EARLIEST").read_text() == "3"


def test_errors_and_sql(tmp_path, run_cli):
    wh = tmp_path / "wh"
    history(run_cli, wh)
    t = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    before = files(wh)
    with pytest.raises(ValueError, match=r"retainMax \(1\) must not be less than retainMin \(2\)"):
        t.expire_snapshots(retain_max=1, retain_min=2)
    with pytest.raises(ValueError, match="retain_min must be a positive integer"):
        t.expire_snapshots(retain_min=0)
    r = run_cli("sql", "--warehouse", wh, "-e",
                "CALL sys.expire_snapshots(table => 'db.t', options => 'a=b')")
    assert r.returncode == 1 and "options argument is not supported" in r.stderr
    assert files(wh) == before
    r = run_cli("sql", "--warehouse", wh, "--format", "csv", "-e",
                "CALL sys.expire_snapshots(table => 'db.t', retain_max => 6, retain_min => 4, "
                "older_than => '2999-01-01 00:00:00')")
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["deleted_snapshots_count", "4"]
    r = run_cli("sql", "--warehouse", wh, "--format", "csv", "-e",
                "SELECT snapshot_id FROM db.`t$snapshots`")
    assert r.stdout.split() == ["snapshot_id", "5", "6", "7", "8"]


@pytest.mark.parametrize("kind", ["de", "dv", "cow"])
def test_deleting_an_expired_tag_cleans_like_java(tmp_path, run_cli, java, kind):  # noqa: F811
    """Java's TagDeletion: a tag whose snapshot is expired holds the last reference to some
    files; deleting it deletes those its neighbours (the previous tag, and the earliest snapshot
    or next tag) do not use — unless another tag shares the snapshot. cpaimon and Java delete the
    same files at every step, and the rest reads as before."""
    base = tmp_path / "base"
    history(run_cli, base, kind)
    t = cpaimon.CatalogFactory.create({"warehouse": str(base)}).get_table("db.t")
    for name, snap in (("a", 2), ("b", 4), ("b2", 4), ("c", 5)):
        t.create_tag(name, snap)
    now = int(time.time() * 1000) + 1000
    assert t.expire_snapshots(retain_max=5, retain_min=3, older_than_millis=now) == 5
    mine, theirs = tmp_path / "cpaimon", tmp_path / "java"
    shutil.copytree(base, mine)
    shutil.copytree(base, theirs)
    latest = cp_rows(mine)
    seen = [files(mine)]
    for name in ("b", "b2", "a", "c"):  # shared, then middle, left-most, right-most
        rest = {n: cp_rows(mine, **{"scan.tag-name": n}) for n in ("a", "b", "b2", "c")
                if n != name and (mine / "db.db" / "t" / "tag" / f"tag-{n}").exists()}
        assert cpaimon.CatalogFactory.create({"warehouse": str(mine)}).get_table("db.t") \
            .delete_tag(name) is True
        java("history", theirs, "db.t", "--op", "delete-tag", "--tag", name)
        mf, tf = files(mine), files(theirs)
        assert mf == tf, (name, sorted(set(mf) - set(tf)), sorted(set(tf) - set(mf)))
        seen.append(mf)
        for n, want in rest.items():
            assert cp_rows(mine, **{"scan.tag-name": n}) == want
            assert java_rows(java, mine, f"scan.tag-name={n}") == want
        assert cp_rows(mine) == latest == java_rows(java, mine)
        # pypaimon reads NULL for row ids stored in the files (copy-on-write; a named difference
        # in test_delete_java.py): the rest it reads the same.
        assert [r[:2] + r[3:] for r in py_rows(mine)] == [r[:2] + r[3:] for r in latest]
        check = run_cli("check", mine, "db.t")
        assert check.returncode == 0, check.stdout + check.stderr
    # The shared tag's deletion only removed its tag file; the others freed manifests, and with
    # copy-on-write the data files the changes replaced.
    assert len(seen[1]) == len(seen[0]) - 1
    assert all(len(seen[i + 1]) < len(seen[i]) - 1 for i in range(1, 4))
    data = [len([f for f in s if "/data-" in f]) for s in seen]
    assert (data[-1] < data[0]) == (kind == "cow"), data
