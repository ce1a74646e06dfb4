"""Stream writes (issue 15 item 1): ``table.new_stream_write_builder()`` as pypaimon has it —
a writer prepared round after round with ``prepare_commit(commit_identifier)`` and a reusable
committer ``commit(messages, commit_identifier)`` — with Paimon's streaming idempotence: every
snapshot carries the builder's commit user and the round's identifier, and a round that user
already committed is not committed again (Java's StreamTableCommit.filterAndCommit), so a worker
that retries after a crash never duplicates rows. pypaimon 2.1 reads what cpaimon streamed, and
cpaimon resumes a stream pypaimon wrote.

Expected difference: pypaimon 2.1's StreamTableCommit.commit re-commits a round it is given
again (it checks only after a failed attempt); cpaimon follows Java's filterAndCommit."""
import json
import subprocess
import sys

import pyarrow as pa
import pypaimon
import pytest

import cpaimon
from test_java_interop import java  # noqa: F401  (Java Paimon 1.4.2, the session fixture)

SCHEMA = pa.schema([("id", pa.int32()), ("v", pa.string())])


def make_table(tmp_path, options=None, partition_keys=None):
    opts = {"warehouse": str(tmp_path / "wh")}
    cat = cpaimon.CatalogFactory.create(opts)
    cat.create_database("db", True)
    cat.create_table("db.t", cpaimon.Schema.from_pyarrow_schema(
        SCHEMA, partition_keys=partition_keys,
        options=options or {"row-tracking.enabled": "true"}), False)
    return opts, cat.get_table("db.t")


def rows(ids):
    return pa.table({"id": pa.array(ids, pa.int32()), "v": [f"v{i}" for i in ids]})


def snapshots(tmp_path):
    d = tmp_path / "wh" / "db.db" / "t" / "snapshot"
    return [json.loads((d / f"snapshot-{i}").read_text())
            for i in sorted(int(p.name.split("-")[1]) for p in d.glob("snapshot-*"))]


def read_ids(lib, opts, hidden=False):
    t = lib.CatalogFactory.create(opts).get_table("db.t")
    rb = t.new_read_builder()
    if hidden:
        rb = rb.with_projection(["id", "_ROW_ID"])
    got = rb.new_read().to_arrow(rb.new_scan().plan().splits())
    return sorted(got.to_pylist(), key=lambda r: r["id"]) if hidden else sorted(
        got["id"].to_pylist())


def test_rounds_carry_user_and_identifier(tmp_path):
    opts, t = make_table(tmp_path)
    builder = t.new_stream_write_builder()
    write, commit = builder.new_write(), builder.new_commit()
    assert commit.commit_user == builder.commit_user
    for round_no in (1, 2, 5):
        write.write_arrow(rows([round_no * 10, round_no * 10 + 1]))
        assert commit.commit(write.prepare_commit(round_no), round_no) is True
    # an empty round commits nothing
    assert commit.commit(write.prepare_commit(6), 6) is False
    snaps = snapshots(tmp_path)
    assert [(s["commitUser"], s["commitIdentifier"], s["commitKind"]) for s in snaps] == [
        (builder.commit_user, i, "APPEND") for i in (1, 2, 5)]
    assert commit.latest_committed_identifier() == 5
    assert read_ids(pypaimon, opts) == [10, 11, 20, 21, 50, 51]
    assert read_ids(pypaimon, opts, hidden=True) == read_ids(cpaimon, opts, hidden=True)


def test_replayed_round_is_not_committed_twice(tmp_path):
    """A worker restarted with its commit user replays rounds 2 and 3; round 2 was committed by
    its first life, round 3 was not. Only round 3 lands; the replay's files of round 2 are
    aborted. Then pypaimon's own stream commit replays a round: it commits it again."""
    opts, t = make_table(tmp_path)
    first = t.new_stream_write_builder()
    w, c = first.new_write(), first.new_commit()
    for r in (1, 2):
        w.write_arrow(rows([r]))
        c.commit(w.prepare_commit(r), r)
    again = t.new_stream_write_builder().with_commit_user(first.commit_user)
    w2, c2 = again.new_write(), again.new_commit()
    assert c2.latest_committed_identifier() == 2
    w2.write_arrow(rows([2]))
    replay = w2.prepare_commit(2)
    assert c2.commit(replay, 2) is False
    c2.abort(replay)
    w2.write_arrow(rows([3]))
    assert c2.commit(w2.prepare_commit(3), 3) is True
    assert read_ids(cpaimon, opts) == [1, 2, 3]
    assert len(snapshots(tmp_path)) == 3
    # A different user's round 2 is its own.
    other = t.new_stream_write_builder()
    ow, oc = other.new_write(), other.new_commit()
    ow.write_arrow(rows([4]))
    assert oc.commit(ow.prepare_commit(2), 2) is True
    assert read_ids(pypaimon, opts) == [1, 2, 3, 4]

    # pypaimon: the same replay duplicates the round (the named expected difference).
    pt = pypaimon.CatalogFactory.create(opts).get_table("db.t")
    pb = pt.new_stream_write_builder()
    pw, pc = pb.new_write(), pb.new_commit()
    pw.write_arrow(rows([7]))
    pc.commit(pw.prepare_commit(1), 1)
    pb2 = pt.new_stream_write_builder()
    pb2._with_commit_user(pb.commit_user)
    pw2, pc2 = pb2.new_write(), pb2.new_commit()
    pw2.write_arrow(rows([7]))
    pc2.commit(pw2.prepare_commit(1), 1)
    assert read_ids(cpaimon, opts).count(7) == 2
    # cpaimon, with pypaimon's user, knows where that stream is and refuses the replay.
    resumed = t.new_stream_write_builder().with_commit_user(pb.commit_user)
    rc = resumed.new_commit()
    assert rc.latest_committed_identifier() == 1
    rw = resumed.new_write()
    rw.write_arrow(rows([7]))
    m = rw.prepare_commit(1)
    assert rc.commit(m, 1) is False
    rc.abort(m)
    assert read_ids(cpaimon, opts).count(7) == 2


WORKER = r"""
import sys, pyarrow as pa, cpaimon
wh, user, first, last, crash_after = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:6])
t = cpaimon.CatalogFactory.create({"warehouse": wh}).get_table("db.t")
b = t.new_stream_write_builder().with_commit_user(user)
w, c = b.new_write(), b.new_commit()
start = c.latest_committed_identifier() or 0
for r in range(first, last + 1):
    w.write_arrow(pa.table({"id": pa.array([r], pa.int32()), "v": [f"v{r}"]}))
    msgs = w.prepare_commit(r)
    if not c.commit(msgs, r):
        c.abort(msgs)
    if r == crash_after:
        import os
        os._exit(3)  # dies after committing round r, before telling anyone
print(start)
"""


def test_worker_killed_and_restarted_from_the_start(tmp_path):
    """A worker process dies right after committing round 3 of 1..5; its restart replays every
    round from 1 with the same commit user: each round lands exactly once."""
    opts, t = make_table(tmp_path, partition_keys=["v"])
    wh = opts["warehouse"]
    run = [sys.executable, "-c", WORKER, wh, "worker-a"]
    p = subprocess.run(run + ["1", "5", "3"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 3, p.stderr
    assert read_ids(cpaimon, opts) == [1, 2, 3]
    p = subprocess.run(run + ["1", "5", "0"], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "3"
    assert read_ids(pypaimon, opts) == [1, 2, 3, 4, 5]
    assert [s["commitIdentifier"] for s in snapshots(tmp_path)] == [1, 2, 3, 4, 5]
    got = read_ids(cpaimon, opts, hidden=True)
    assert sorted(r["_ROW_ID"] for r in got) == [0, 1, 2, 3, 4]
    r = subprocess.run([str(cpaimon_cli()), "check", wh, "db.t"], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def cpaimon_cli():
    import os
    import pathlib
    return pathlib.Path(os.environ.get("CPAIMON_BUILD", pathlib.Path(__file__).resolve()
                                       .parents[2] / "build")) / "cpaimon"


def test_bad_identifiers(tmp_path):
    _, t = make_table(tmp_path)
    b = t.new_stream_write_builder()
    w, c = b.new_write(), b.new_commit()
    w.write_arrow(rows([1]))
    m = w.prepare_commit(1)
    with pytest.raises(TypeError):
        c.commit(m, "1")
    with pytest.raises(ValueError, match="commit identifier -1 of table db.t"):
        c.commit(m, -1)
    with pytest.raises(TypeError, match="snapshot_properties must be a dict"):
        c.commit(m, 1, snapshot_properties=[("k", "v")])
    with pytest.raises(ValueError, match="an empty key"):
        c.commit(m, 1, snapshot_properties={"": "v"})
    assert c.commit(m, 1) is True
    with pytest.raises(ValueError, match="commit user"):
        t.new_stream_write_builder().with_commit_user("").new_commit()


def test_stream_update_rounds(tmp_path):
    """A stream builder's new_update(): its messages are committed as a round like any other,
    and a replay of that round is skipped."""
    opts, t = make_table(tmp_path, options={"row-tracking.enabled": "true",
                                            "data-evolution.enabled": "true"})
    b = t.new_stream_write_builder()
    w, c = b.new_write(), b.new_commit()
    w.write_arrow(rows([1, 2]))
    assert c.commit(w.prepare_commit(1), 1)
    msgs = b.new_update().with_update_type(["v"]).update_by_arrow_with_row_id(
        pa.table({"_ROW_ID": pa.array([1], pa.int64()), "v": ["changed"]}))
    assert c.commit(msgs, 2) is True
    again = b.new_update().with_update_type(["v"]).update_by_arrow_with_row_id(
        pa.table({"_ROW_ID": pa.array([1], pa.int64()), "v": ["twice"]}))
    assert c.commit(again, 2) is False
    c.abort(again)
    got = pypaimon.CatalogFactory.create(opts).get_table("db.t").new_read_builder()
    assert sorted(got.new_read().to_arrow(got.new_scan().plan().splits())["v"].to_pylist()) == [
        "changed", "v1"]


def test_snapshot_properties(tmp_path, java):  # noqa: F811
    """snapshot_properties (pypaimon's, Java's Snapshot.properties) on batch and stream commits:
    written into that commit's snapshot only; pypaimon and Java read them back."""
    opts, t = make_table(tmp_path)
    wb = t.new_batch_write_builder()
    w = wb.new_write()
    w.write_arrow(rows([1]))
    wb.new_commit().commit(w.prepare_commit(), snapshot_properties={"job": "backfill-7",
                                                                    "owner": "ml"})
    b = t.new_stream_write_builder()
    sw, sc = b.new_write(), b.new_commit()
    sw.write_arrow(rows([2]))
    assert sc.commit(sw.prepare_commit(1), 1, snapshot_properties={"checkpoint": "1"})
    sw.write_arrow(rows([3]))
    assert sc.commit(sw.prepare_commit(2), 2)
    got = [s.get("properties") for s in snapshots(tmp_path)]
    assert got == [{"job": "backfill-7", "owner": "ml"}, {"checkpoint": "1"}, None]
    py = pypaimon.CatalogFactory.create(opts).get_table("db.t")
    assert py.snapshot_manager().get_snapshot_by_id(1).properties == {"job": "backfill-7",
                                                                      "owner": "ml"}
    assert java.snapshot(opts["warehouse"], "db.t")["id"] == 3
    assert java.read(opts["warehouse"], "db.t", snapshot=2)  # Java parses the properties
