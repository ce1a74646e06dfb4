"""Concurrent writers on one table (spec/format.md §6; data-evolution.md §4.6): 8 processes x 25
commits each of appends, updates and deletes, through cpaimon's C core. Afterwards:

- every commit that reported success is a snapshot, and the snapshot ids are exactly the
  successful commits (no lost or doubled publish);
- replaying the successful operations in snapshot order gives exactly the rows the table holds
  (no row lost or duplicated, every update visible), read by cpaimon, pypaimon and Java Paimon
  (which also reads the physical _ROW_IDs of moved rows: they must equal cpaimon's);
- _ROW_IDs are unique and `cpaimon check` finds nothing wrong;
- losers fail with a conflict error naming the conflict (Paimon does not retry row-level
  conflicts; only lost races for the snapshot id are retried, inside the committer).

Row-level changes use the row-change API (copy-on-write, or deletion vectors when enabled) on a
row-tracking table partitioned into 4 partitions, so some concurrent changes conflict and some
do not."""
import multiprocessing
import os
import random
import time

import pyarrow as pa
import pypaimon
import pytest

import cpaimon
from test_java_interop import java  # noqa: F401  (Java Paimon 1.4.2, the reference reader)

SCHEMA = pa.schema([("k", pa.string()), ("v", pa.string()), ("p", pa.int32())])


def _commit(table, msg_handle):
    from cpaimon.write import CommitMessage
    commit = table.new_batch_write_builder().new_commit()
    commit.commit([CommitMessage(msg_handle)])
    return commit.last_snapshot_id


def _visible(table, part):
    """(snapshot id, [(row id, key)]) of partition `part` as of the latest snapshot."""
    rb = table.new_read_builder().with_projection(["_ROW_ID", "k"])
    rb = rb.with_filter(rb.new_predicate_builder().equal("p", part))
    plan = rb.new_scan().plan()
    rows = rb.new_read().to_arrow(plan.splits()).to_pylist()
    return plan.snapshot_id, [(r["_ROW_ID"], r["k"]) for r in rows]


def _worker(index, wh, n_ops, result_queue, catalog_options=None):
    from cpaimon import _cpaimon
    rng = random.Random(1000 + index)
    cat = cpaimon.CatalogFactory.create(dict(catalog_options or {}, warehouse=wh))
    log = []
    for step in range(n_ops):
        table = cat.get_table("db.t")
        op = ("append", "update", "delete")[(index + step) % 3]
        part = rng.randrange(4)
        try:
            if op == "append":
                keys = [f"w{index}-{step}-{j}" for j in range(3)]
                data = pa.table({"k": keys, "v": [f"{k}-v0" for k in keys],
                                 "p": pa.array([part] * 3, pa.int32())})
                handle = _cpaimon.table_row_changes(table._handle, 0, [("insert", data)])
                log.append(("ok", _commit(table, handle), op, [(k, f"{k}-v0") for k in keys]))
                continue
            base, rows = _visible(table, part)
            if not rows:
                log.append(("skip", 0, op, None))
                continue
            row_id, key = rows[rng.randrange(len(rows))]
            if op == "update":
                value = f"w{index}-{step}-upd"
                changes = [("update", pa.table({"_ROW_ID": pa.array([row_id], pa.int64()),
                                                "v": [value]}))]
                payload = (key, value)
            else:
                changes = [("delete", [row_id])]
                payload = key
            handle = _cpaimon.table_row_changes(table._handle, base, changes)
            log.append(("ok", _commit(table, handle), op, payload))
        except cpaimon.CommitConflictError as e:
            log.append(("conflict", 0, op, str(e)))
        except Exception as e:  # anything else is a failure of the test
            log.append(("error", 0, op, f"{type(e).__name__}: {e}"))
    result_queue.put((index, log))


def run_writers(wh, n_procs, n_ops, catalog_options=None):
    ctx = multiprocessing.get_context("spawn")
    queue = ctx.Queue()
    procs = [ctx.Process(target=_worker, args=(i, wh, n_ops, queue, catalog_options))
             for i in range(n_procs)]
    for p in procs:
        p.start()
    logs = dict(queue.get(timeout=300) for _ in procs)
    for p in procs:
        p.join(timeout=60)
        assert p.exitcode == 0
    return logs


def make_table(wh, options, catalog_options=None):
    cat = cpaimon.CatalogFactory.create(dict(catalog_options or {}, warehouse=wh))
    cat.create_database("db", True)
    cat.create_table("db.t", cpaimon.Schema.from_pyarrow_schema(
        SCHEMA, partition_keys=["p"], options=options), False)
    t = cat.get_table("db.t")
    keys = [f"seed-{i}" for i in range(40)]
    wb = t.new_batch_write_builder()
    w, c = wb.new_write(), wb.new_commit()
    w.write_arrow(pa.table({"k": keys, "v": [f"{k}-v0" for k in keys],
                            "p": pa.array([i % 4 for i in range(40)], pa.int32())}))
    c.commit(w.prepare_commit())
    return {k: f"{k}-v0" for k in keys}


def verify(wh, expected_seed, logs, run_cli, java_tool, catalog_options=None):
    opts = dict(catalog_options or {}, warehouse=wh)
    errors = [e for log in logs.values() for e in log if e[0] == "error"]
    assert not errors, errors
    done = sorted((e for log in logs.values() for e in log if e[0] == "ok"), key=lambda e: e[1])
    conflicts = [e for log in logs.values() for e in log if e[0] == "conflict"]
    # Snapshots 2..N are exactly the successful commits.
    sids = [e[1] for e in done]
    assert sids == list(range(2, 2 + len(sids))), sids
    t = cpaimon.CatalogFactory.create(opts).get_table("db.t")
    assert t.latest_snapshot_id() == 1 + len(sids)
    # Replay.
    state = dict(expected_seed)
    for _, _, op, payload in done:
        if op == "append":
            for k, v in payload:
                assert k not in state
                state[k] = v
        elif op == "update":
            k, v = payload
            assert k in state, f"update of {k}, which a committed delete removed"
            state[k] = v
        else:
            assert payload in state, f"delete of {payload}, already deleted"
            del state[payload]
    rb = t.new_read_builder().with_projection(["k", "v", "_ROW_ID"])
    rows = rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist()
    assert len({r["_ROW_ID"] for r in rows}) == len(rows), "duplicate _ROW_ID"
    assert len({r["k"] for r in rows}) == len(rows), "a row is duplicated"
    assert {r["k"]: r["v"] for r in rows} == state
    pt = pypaimon.CatalogFactory.create(opts).get_table("db.t")
    prb = pt.new_read_builder().with_projection(["k", "v"])
    theirs = prb.new_read().to_arrow(prb.new_scan().plan().splits()).to_pylist()
    assert sorted((r["k"], r["v"]) for r in theirs) == sorted(state.items())
    # Java reads physical _ROW_IDs of moved rows too: it must see the same ids as cpaimon.
    if java_tool is not None:  # (the Java oracle reads local warehouses only)
        java_rows = java_tool.read(wh, "db.t", row_tracking=True, columns=["k", "v"])
        assert sorted((r["k"], r["v"], r["_ROW_ID"]) for r in java_rows) == sorted(
            (r["k"], r["v"], r["_ROW_ID"]) for r in rows)
    for _, _, op, message in conflicts:
        assert "conflict" in message.lower(), message
    cli_opts = [a for k, v in (catalog_options or {}).items() for a in ("--catalog", f"{k}={v}")]
    r = run_cli("check", wh, "db.t", *cli_opts)
    assert r.returncode == 0, r.stdout + r.stderr
    return done, conflicts


@pytest.mark.parametrize("options,n_procs,n_ops", [
    ({"row-tracking.enabled": "true", "deletion-vectors.enabled": "true"}, 8, 25),
    ({"row-tracking.enabled": "true"}, 8, 12),
], ids=["deletion-vectors", "copy-on-write"])
def test_concurrent_writers(tmp_path, run_cli, java, options, n_procs, n_ops):  # noqa: F811
    wh = str(tmp_path / "wh")
    seed = make_table(wh, options)
    started = time.monotonic()
    logs = run_writers(wh, n_procs, n_ops)
    done, conflicts = verify(wh, seed, logs, run_cli, java)
    kinds = {op for _, _, op, _ in done}
    assert kinds == {"append", "update", "delete"}, kinds
    assert len(done) + len(conflicts) + sum(
        1 for log in logs.values() for e in log if e[0] == "skip") == n_procs * n_ops
    print(f"{len(done)} commits, {len(conflicts)} conflicts in "
          f"{time.monotonic() - started:.1f}s ({os.cpu_count()} cpus)")


def test_concurrent_writers_on_s3(s3, run_cli):
    """4 processes commit appends, updates and deletes to one table on the object store at once:
    snapshots are published by create-if-absent PUTs, so no acknowledged commit is lost or
    doubled, row ids stay unique, and `cpaimon check` finds nothing wrong."""
    opts = {k: v for k, v in s3.catalog_options().items() if k != "warehouse"}
    options = {"row-tracking.enabled": "true", "deletion-vectors.enabled": "true"}
    seed = make_table(s3.warehouse, options, opts)
    started = time.monotonic()
    logs = run_writers(s3.warehouse, 4, 12, opts)
    done, conflicts = verify(s3.warehouse, seed, logs, run_cli, None, opts)
    assert {op for _, _, op, _ in done} == {"append", "update", "delete"}
    print(f"S3: {len(done)} commits, {len(conflicts)} conflicts in "
          f"{time.monotonic() - started:.1f}s")
