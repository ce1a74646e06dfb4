"""Hints and read-only commands (hardening issue items 5 and 7).

- The LATEST hint is replaced atomically (temporary file + rename), so no crash can leave it empty
  or half written, and no temporary file stays behind. A hint that is empty or names a snapshot
  that does not exist anyway (written by a crashed older writer, or by hand) is a warning of
  `cpaimon check`, not a violation: Paimon treats hints as advisory, readers fall back to listing.
- Commands that only read (cat, check, table info, sql SELECT / SHOW) never create directories.
"""
import os

import pyarrow as pa

import cpaimon


def make(wh):
    cat = cpaimon.CatalogFactory.create({"warehouse": str(wh)})
    cat.create_database("db", True)
    cat.create_table("db.t", cpaimon.Schema.from_pyarrow_schema(
        pa.schema([("a", pa.int32())]), options={"row-tracking.enabled": "true"}), False)
    t = cat.get_table("db.t")
    for i in range(3):
        wb = t.new_batch_write_builder()
        w = wb.new_write()
        w.write_arrow(pa.table({"a": pa.array([i], pa.int32())}))
        wb.new_commit().commit(w.prepare_commit())
    return wh / "db.db" / "t" / "snapshot"


def test_hint_written_atomically(tmp_path):
    snap = make(tmp_path / "wh")
    assert (snap / "LATEST").read_text() == "3"
    assert sorted(os.listdir(snap)) == ["LATEST", "snapshot-1", "snapshot-2", "snapshot-3"]


def test_bad_hint_is_a_warning(tmp_path, run_cli):
    wh = tmp_path / "wh"
    snap = make(wh)
    (snap / "LATEST").write_text("")  # what a kill between O_TRUNC and write() used to leave
    r = run_cli("check", wh, "db.t")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "warning: snapshot/LATEST hint is unreadable" in r.stdout
    assert "0 violation(s), 1 warning(s)" in r.stdout
    (snap / "LATEST").write_text("9")
    r = run_cli("check", wh, "db.t")
    assert r.returncode == 0
    assert "LATEST hint names snapshot 9, which does not exist" in r.stdout
    # readers are not misled by either hint
    t = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    assert t.latest_snapshot_id() == 3
    rb = t.new_read_builder()
    assert sorted(rb.new_read().to_arrow(rb.new_scan().plan().splits())["a"].to_pylist()) == \
        [0, 1, 2]


def test_reading_commands_create_nothing(tmp_path, run_cli):
    wh = tmp_path / "nonexistent" / "wh"
    for args in (["cat", wh, "db.t"], ["check", wh, "db.t"], ["table", "info", wh, "db.t"],
                 ["sql", "--warehouse", wh, "-e", "SHOW DATABASES"],
                 ["sql", "--warehouse", wh, "-e", "SELECT * FROM db.t"]):
        r = run_cli(*args)
        assert not (tmp_path / "nonexistent").exists(), args
        if args[0] != "sql" or "SELECT" in args[-1]:
            assert r.returncode != 0 and "db.t does not exist" in r.stderr, (args, r.stderr)
    cpaimon.CatalogFactory.create({"warehouse": str(wh)}).list_databases()
    assert not (tmp_path / "nonexistent").exists()
