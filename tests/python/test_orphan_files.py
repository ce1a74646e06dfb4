"""Orphan-file removal (include/cpaimon/history.h, docs/maintenance.md) against Java Paimon 1.4.2's
LocalOrphanFilesClean (tests/java `history --op remove-orphans`): a history whose rollback and
aborted writes left unreferenced files, plus stray files, cleaned by cpaimon and by Java, leaves
the same files; every retained snapshot and tag reads as before in cpaimon, Java and pypaimon;
young files, tagged files and everything outside the data and metadata directories stay.

Named expected difference: JAVA_COUNTS_NAMES (below)."""
import json
import os
import shutil
import time

import pyarrow as pa
import pypaimon
import pytest

import cpaimon
from test_java_interop import java  # noqa: F401  (Java Paimon 1.4.2, the session fixture)

DAY = 24 * 3600


def sql(run_cli, wh, *statements):
    r = run_cli("sql", "--warehouse", wh, "-e", ";".join(statements))
    assert r.returncode == 0, r.stderr
    return r.stdout


def files(wh):
    root = wh / "db.db" / "t"
    return sorted(str(p.relative_to(root)) for p in root.rglob("*") if p.is_file())


def age_everything(wh, seconds):
    past = time.time() - seconds
    for p in (wh / "db.db" / "t").rglob("*"):
        os.utime(p, (past, past))


def history(run_cli, wh, partitioned):
    part = "PARTITIONED BY (p) " if partitioned else ""
    sql(run_cli, wh, "CREATE DATABASE db",
        f"CREATE TABLE db.t (id INT, v STRING, p STRING) {part}TBLPROPERTIES "
        "('row-tracking.enabled' = 'true', 'deletion-vectors.enabled' = 'true')")
    for s in ["INSERT INTO db.t VALUES (1, 'a', 'x'), (2, 'b', 'y')",
              "INSERT INTO db.t VALUES (3, 'c', 'x')",
              "DELETE FROM db.t WHERE id = 1",
              "INSERT INTO db.t VALUES (4, 'd', 'y')",
              "INSERT OVERWRITE db.t SELECT id, v, p FROM db.t WHERE id > 2",
              "INSERT INTO db.t VALUES (5, 'e', 'x')"]:
        sql(run_cli, wh, s)
    t = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    t.create_tag("keep", 2)
    # The last two snapshots are discarded: their data, manifests and index files are orphans.
    t.rollback_to(4)
    # An aborted write (files written, never committed) and stray files.
    wb = t.new_batch_write_builder()
    w = wb.new_write()
    w.write_arrow(pa.table({"id": pa.array([9], pa.int32()), "v": ["z"], "p": ["x"]}))
    w.prepare_commit()
    root = wh / "db.db" / "t"
    (root / "snapshot" / ".snapshot-9.tmp").write_text("{}")
    (root / "manifest" / "manifest-stray-0").write_bytes(b"x" * 10)


def snapshot_rows(wh, reader):
    out = {}
    for opts in ({"scan.snapshot-id": "2"}, {"scan.snapshot-id": "3"}, {"scan.snapshot-id": "4"},
                 {"scan.tag-name": "keep"}, {}):
        key = json.dumps(opts)
        out[key] = reader(wh, opts)
    return out


def cp_read(wh, opts):
    t = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t").copy(opts)
    rb = t.new_read_builder().with_projection(["id", "v", "p", "_ROW_ID"])
    return sorted(tuple(r.values()) for r in
                  rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist())


def py_read(wh, opts):
    t = pypaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t").copy(opts)
    rb = t.new_read_builder().with_projection(["id", "v", "p", "_ROW_ID"])
    return sorted(tuple(r.values()) for r in
                  rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist())


@pytest.mark.parametrize("partitioned", [False, True])
def test_remove_orphans_matches_java(tmp_path, run_cli, java, partitioned):  # noqa: F811
    base = tmp_path / "base"
    history(run_cli, base, partitioned)
    age_everything(base, 2 * DAY)
    want = snapshot_rows(base, cp_read)
    mine, theirs = tmp_path / "cpaimon", tmp_path / "java"
    shutil.copytree(base, mine)
    shutil.copytree(base, theirs)
    for wh in (mine, theirs):  # a young orphan: written a minute ago, kept by both
        young = wh / "db.db" / "t" / "manifest" / "manifest-young-0"
        young.write_bytes(b"y")
    t = cpaimon.CatalogFactory.create({"warehouse": str(mine)}).get_table("db.t")
    dry = t.remove_orphan_files(dry_run=True)
    assert files(mine) == files(theirs)
    result = t.remove_orphan_files()
    java_result = json.loads(java("history", theirs, "db.t", "--op", "remove-orphans",
                                  "--older-than-ms", int((time.time() - DAY) * 1000)))
    assert (result.deleted_file_count, result.deleted_file_total_bytes) == \
        (dry.deleted_file_count, dry.deleted_file_total_bytes)
    assert result.deleted_file_count == len(result.paths)
    # JAVA_COUNTS_NAMES: Java keys candidates by file name, so two orphans of one name in two
    # partitions (cpaimon numbers files per partition, as pypaimon) count once there.
    names = {p.rsplit("/", 1)[1] for p in result.paths}
    assert java_result["count"] == len(names)
    if len(names) == len(result.paths):
        assert java_result["bytes"] == result.deleted_file_total_bytes
    assert sorted(dry.paths) == sorted(result.paths)
    assert result.deleted_file_count >= 6  # data, manifests, index files, the stray ones
    mf, tf = files(mine), files(theirs)
    # JAVA_COUNTS_NAMES again: of two orphans with one name Java deletes only the one its map
    # kept; cpaimon deletes both. Everything else is the same.
    dup = [p for p in result.paths if [q.rsplit("/", 1)[1] for q in result.paths]
           .count(p.rsplit("/", 1)[1]) > 1]
    assert set(mf) <= set(tf) and set(tf) - set(mf) <= {p.split("/db.db/t/")[1] for p in dup}, \
        (sorted(set(tf) - set(mf)), dup)
    assert "manifest/manifest-young-0" in files(mine)
    assert not any(".snapshot-9.tmp" in f or "manifest-stray" in f for f in files(mine))
    assert all(str(mine / "db.db" / "t") in p for p in result.paths)
    for wh in (mine, theirs):
        assert snapshot_rows(wh, cp_read) == want == snapshot_rows(wh, py_read)
        assert "tag/tag-keep" in files(wh)
        for opts in ([], ["scan.tag-name=keep"], ["scan.snapshot-id=3"]):
            args = ["read", wh, "db.t", "--with-row-tracking"]
            for o in opts:
                args += ["--option", o]
            got = sorted((r["id"], r["v"], r["p"], r["_ROW_ID"])
                         for r in map(json.loads, java(*args).splitlines()))
            key = json.dumps(dict(o.split("=") for o in opts))
            assert got == want[key]
        check = run_cli("check", wh, "db.t")
        assert check.returncode == 0, check.stdout + check.stderr
    # Nothing left to remove.
    assert t.remove_orphan_files().deleted_file_count == 0


def test_recent_files_are_safe_and_errors(tmp_path, run_cli):
    wh = tmp_path / "wh"
    history(run_cli, wh, partitioned=False)
    before = files(wh)
    t = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    # Default cut-off: a day ago. Everything here is minutes old.
    assert t.remove_orphan_files().deleted_file_count == 0 and files(wh) == before
    with pytest.raises(ValueError, match="The arg olderThan must be less than now"):
        t.remove_orphan_files(older_than_millis=int(time.time() * 1000) + 60000)
    branch = wh / "db.db" / "t" / "branch" / "branch-b"
    branch.mkdir(parents=True)
    with pytest.raises(NotImplementedError, match="has branches"):
        t.remove_orphan_files(older_than_millis=int(time.time() * 1000))
    shutil.rmtree(wh / "db.db" / "t" / "branch")
    assert files(wh) == before
    # SQL: Spark's procedure and columns.
    r = run_cli("sql", "--warehouse", wh, "--format", "csv", "-e",
                "CALL sys.remove_orphan_files(table => 'db.t', older_than => '2999-01-01 00:00:00')")
    assert r.returncode == 1 and "must be less than now" in r.stderr
    age_everything(wh, 2 * DAY)
    r = run_cli("sql", "--warehouse", wh, "--format", "csv", "-e",
                "CALL sys.remove_orphan_files(table => 'db.t', dry_run => true)")
    assert r.returncode == 0, r.stderr
    header, row = r.stdout.split()
    assert header == "deletedFileCount,deletedFileTotalLenInBytes" and int(row.split(",")[0]) > 0
    assert files(wh) == before
    r = run_cli("sql", "--warehouse", wh, "--format", "csv", "-e",
                "CALL sys.remove_orphan_files(table => 'db.t', mode => 'nope')")
    assert r.returncode == 1 and "Unknown mode: nope" in r.stderr


def test_on_object_storage(s3):
    """On S3 the listing's LastModified decides the age; an aborted write's file goes, the
    table's live files stay."""
    c = s3.cpaimon()
    c.create_database("db", True)
    c.create_table("db.t", cpaimon.Schema.from_pyarrow_schema(
        pa.schema([("id", pa.int32())]), options={"row-tracking.enabled": "true"}), True)
    t = c.get_table("db.t")
    for ids in ([1, 2], [3]):
        wb = t.new_batch_write_builder()
        w, cm = wb.new_write(), wb.new_commit()
        w.write_arrow(pa.table({"id": pa.array(ids, pa.int32())}))
        cm.commit(w.prepare_commit())
    w = t.new_batch_write_builder().new_write()
    w.write_arrow(pa.table({"id": pa.array([9], pa.int32())}))
    w.prepare_commit()  # never committed
    time.sleep(1.1)  # S3 times have whole seconds
    keys = lambda: sorted(o["Key"] for o in s3.client.list_objects_v2(  # noqa: E731
        Bucket=s3.bucket, Prefix="wh/db.db/t/").get("Contents", []))
    before = keys()
    r = t.remove_orphan_files(older_than_millis=int(time.time() * 1000))
    assert r.deleted_file_count == 1 and r.paths[0].startswith(f"s3://{s3.bucket}/wh/db.db/t/")
    assert sorted(set(before) - set(keys())) == [r.paths[0][len(f"s3://{s3.bucket}/"):]]
    rb = t.new_read_builder()
    assert sorted(rb.new_read().to_arrow(rb.new_scan().plan().splits())["id"].to_pylist()) == \
        [1, 2, 3]
