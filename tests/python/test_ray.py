"""cpaimon.ray (python/cpaimon/ray) on a real single-node Ray cluster started by a session fixture
(2 CPUs, 127.0.0.1, dashboard off, small object store, usage stats off; shut down at the end):
read_paimon, write_paimon, update_by_row_id and shard_update against pypaimon 2.1 reading and
writing the same tables; a shard task killed once and retried commits exactly once; and the
Ray-free twin of the same flows on a spawn process pool (pickled splits and predicates, the same
committer)."""
import concurrent.futures as cf
import multiprocessing as mp
import os
import pickle

import pyarrow as pa
import pyarrow.compute as pc
import pypaimon
import pytest

import cpaimon
import cpaimon.ray as cray
from cpaimon.ray import _tasks
from cpaimon.schema.data_types import AtomicType
from cpaimon.schema.schema_change import SchemaChange

DE = {"row-tracking.enabled": "true", "data-evolution.enabled": "true"}
SCHEMA = pa.schema([("id", pa.int64()), ("name", pa.string()), ("pt", pa.string())])


@pytest.fixture(scope="session")
def ray_cluster(tmp_path_factory):
    os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
    # Every Ray server on the loopback address: Ray otherwise binds the machine's own address
    # (services.get_node_ip_address; this switch makes it use localhost, as on a laptop).
    os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
    import ray

    ray.init(num_cpus=2, include_dashboard=False, object_store_memory=256 << 20,
             _node_ip_address="127.0.0.1", _temp_dir=str(tmp_path_factory.mktemp("ray")),
             log_to_driver=False, configure_logging=False)
    try:
        assert ray.get_runtime_context().gcs_address.startswith("127.0.0.1:")
        yield ray
    finally:
        ray.shutdown()


def rows(start, n):
    return pa.table({"id": pa.array(range(start, start + n), pa.int64()),
                     "name": [f"n{i}" for i in range(start, start + n)],
                     "pt": ["a" if i % 3 else "b" for i in range(start, start + n)]},
                    schema=SCHEMA)


def make_table(lib, wh, options=DE, partitioned=True):
    cat = lib.CatalogFactory.create({"warehouse": str(wh)})
    cat.create_database("db", True)
    cat.create_table("db.t", lib.Schema.from_pyarrow_schema(
        SCHEMA, partition_keys=["pt"] if partitioned else None, options=dict(options)), False)
    return cat.get_table("db.t")


def py_write(t, data):
    wb = t.new_batch_write_builder()
    w, c = wb.new_write(), wb.new_commit()
    w.write_arrow(data)
    c.commit(w.prepare_commit())
    w.close()
    c.close()


def py_rows(wh, cols=None):
    t = pypaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    names = cols or [f.name for f in t.fields] + ["_ROW_ID", "_SEQUENCE_NUMBER"]
    rb = t.new_read_builder().with_projection(names)
    return sorted(rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist(),
                  key=lambda r: r["_ROW_ID"] if "_ROW_ID" in r else r["id"])


def snapshots(wh):
    t = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t$snapshots")
    rb = t.new_read_builder()
    return rb.new_read().to_arrow(rb.new_scan().plan().splits()).num_rows


def dataset_rows(ds, key="_ROW_ID"):
    return sorted(ds.take_all(), key=lambda r: r[key])


def test_read_paimon_reads_what_pypaimon_reads(ray_cluster, tmp_path):
    t = make_table(pypaimon, tmp_path)
    for start in (0, 40, 100):
        py_write(t, rows(start, 30))
    upd = t.new_batch_write_builder().new_update().with_update_type(["name"])
    c = t.new_batch_write_builder().new_commit()
    c.commit(upd.update_by_arrow_with_row_id(pa.table({"_ROW_ID": pa.array([3, 50], pa.int64()),
                                                        "name": ["x", "y"]})))
    opts = {"warehouse": str(tmp_path)}
    names = ["id", "name", "pt", "_ROW_ID", "_SEQUENCE_NUMBER"]
    ds = cray.read_paimon("db.t", opts, projection=names, override_num_blocks=4)
    assert dataset_rows(ds) == py_rows(tmp_path)
    assert ds.schema().names == names
    # A filter (pickled into the tasks), a limit, and time travel to before the update.
    pb = cpaimon.CatalogFactory.create(opts).get_table("db.t").new_read_builder() \
        .new_predicate_builder()
    pred = pb.or_predicates([pb.less_than("id", 5), pb.and_predicates(
        [pb.greater_or_equal("id", 110), pb.equal("pt", "b")])])
    got = sorted(r["id"] for r in cray.read_paimon("db.t", opts, filter=pred).take_all())
    assert got == [i for i in range(130) if i < 5 or (i >= 110 and i % 3 == 0)
                   and i in set(range(0, 30)) | set(range(40, 70)) | set(range(100, 130))]
    assert cray.read_paimon("db.t", opts, limit=7).count() >= 7
    old = dataset_rows(cray.read_paimon("db.t", opts, projection=["id", "name", "_ROW_ID"],
                                        snapshot_id=3))
    assert all(r["name"] == f"n{r['id']}" for r in old) and len(old) == 90
    assert sorted(r["name"] for r in py_rows(tmp_path)) != sorted(r["name"] for r in old)
    with pytest.raises(ValueError, match="cannot be set at the same time"):
        cray.read_paimon("db.t", opts, snapshot_id=1, tag_name="x")
    # TableRead.to_ray (pypaimon's): the splits of a plan made here, read by Ray tasks.
    rb = cpaimon.CatalogFactory.create(opts).get_table("db.t").new_read_builder() \
        .with_projection(names).with_filter(pb.greater_than("id", 100))
    splits = rb.new_scan().plan().splits()
    assert dataset_rows(rb.new_read().to_ray(splits, override_num_blocks=2)) == [
        r for r in py_rows(tmp_path) if r["id"] > 100]
    with pytest.raises(ValueError, match="override_num_blocks must be at least 1"):
        rb.new_read().to_ray(splits, override_num_blocks=0)
    # An empty table reads as an empty dataset with the table's columns.
    make_table(cpaimon, tmp_path / "e")
    empty = cray.read_paimon("db.t", {"warehouse": str(tmp_path / "e")})
    assert empty.count() == 0 and empty.schema().names == ["id", "name", "pt"]


def test_read_paimon_cuts_large_splits_into_shards(ray_cluster, tmp_path):
    """One file, four read tasks: the driver plans four shards of its rows (with_shard), and the
    tasks together read every row once, _ROW_ID and _SEQUENCE_NUMBER included."""
    t = make_table(cpaimon, tmp_path, partitioned=False)
    py_write(t, rows(0, 1000))
    opts = {"warehouse": str(tmp_path)}
    names = ["id", "name", "pt", "_ROW_ID", "_SEQUENCE_NUMBER"]
    ds = cray.read_paimon("db.t", opts, projection=names, override_num_blocks=4).materialize()
    assert ds.num_blocks() == 4
    assert dataset_rows(ds) == py_rows(tmp_path)


def test_write_paimon_commits_once(ray_cluster, tmp_path):
    make_table(cpaimon, tmp_path)
    opts = {"warehouse": str(tmp_path)}
    ds = ray_cluster.data.from_arrow(rows(0, 800)).repartition(8)
    res = cray.write_paimon(ds, "db.t", opts)
    assert res == cray.PaimonWriteResult(800, 1) and snapshots(tmp_path) == 1
    got = py_rows(tmp_path)
    assert sorted(r["id"] for r in got) == list(range(800))
    assert [r["_ROW_ID"] for r in got] == list(range(800))
    assert {r["_SEQUENCE_NUMBER"] for r in got} == {1}
    res = cray.write_paimon(ray_cluster.data.from_arrow(rows(5000, 10)), "db.t", opts,
                            overwrite=True)
    assert res.snapshot_id == 2
    assert sorted(r["id"] for r in py_rows(tmp_path, ["id"])) == list(range(5000, 5010))
    with pytest.raises(FileNotFoundError):
        cray.write_paimon(ds, "db.nope", opts)


def test_update_by_row_id_one_file_per_group(ray_cluster, tmp_path):
    t = make_table(cpaimon, tmp_path, partitioned=False)
    for start in (0, 100, 200):
        py_write(t, rows(start, 100))
    opts = {"warehouse": str(tmp_path)}
    before = py_rows(tmp_path)
    source = pa.table({"_ROW_ID": pa.array([5, 150, 299, 7], pa.int64()),
                       "name": ["u5", "u150", "u299", "u7"]})
    assert cray.update_by_row_id("db.t", ray_cluster.data.from_arrow(source), opts,
                                 update_cols=["name"]) == {"num_updated": 4}
    assert snapshots(tmp_path) == 4
    after = py_rows(tmp_path)
    assert [r["_ROW_ID"] for r in after] == [r["_ROW_ID"] for r in before]
    want = {5: "u5", 7: "u7", 150: "u150", 299: "u299"}
    assert [r["name"] for r in after] == [want.get(r["_ROW_ID"], r["name"]) for r in before]
    files = cpaimon.CatalogFactory.create(opts).get_table("db.t$files")
    rb = files.new_read_builder().with_projection(["first_row_id", "write_cols"])
    partial = [r for r in rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist()
               if r["write_cols"]]
    assert sorted(r["first_row_id"] for r in partial) == [0, 100, 200]  # one file per group
    with pytest.raises(ValueError, match="_ROW_ID 300 is not a row of 'db.t'; nothing was"):
        cray.update_by_row_id("db.t", pa.table({"_ROW_ID": pa.array([300], pa.int64()),
                                                "name": ["x"]}), opts, update_cols=["name"])
    assert snapshots(tmp_path) == 4
    with pytest.raises(ValueError, match="update column 'nope'"):
        cray.update_by_row_id("db.t", source, opts, update_cols=["nope"])


def kill_once(marker):
    def fn(batch):
        if not os.path.exists(marker) and 40 <= batch.column("id")[0].as_py() < 80:
            open(marker, "w").close()
            os._exit(3)  # the worker dies mid-shard: its files are never committed
        return {"score": pc.multiply(batch.column("id"), 10)}
    return fn


def test_shard_update_retried_task_commits_exactly_once(ray_cluster, tmp_path):
    t = make_table(cpaimon, tmp_path, partitioned=False)
    for start in (0, 100):
        py_write(t, rows(start, 100))
    opts = {"warehouse": str(tmp_path)}
    cpaimon.CatalogFactory.create(opts).alter_table(
        "db.t", [SchemaChange.add_column("score", AtomicType("BIGINT"))])
    before = py_rows(tmp_path)
    marker = str(tmp_path / "killed")
    res = cray.shard_update("db.t", opts, kill_once(marker), read_cols=["id"],
                            update_cols=["score"], num_shards=8, batch_size=7,
                            ray_remote_args={"max_retries": 1})
    assert os.path.exists(marker)  # one task really died
    assert res == {"rows": 200, "snapshot_id": 3}
    after = py_rows(tmp_path)
    assert [r["_ROW_ID"] for r in after] == [r["_ROW_ID"] for r in before]
    assert [r["score"] for r in after] == [r["id"] * 10 for r in after]
    assert snapshots(tmp_path) == 3


def test_ray_free_twin_on_a_process_pool(tmp_path):
    """The same flows without Ray: pickled splits and predicates read in spawned processes, a
    shard backfill and an update by row id on a process pool, and the committer refusing a
    missing or doubled shard."""
    t = make_table(cpaimon, tmp_path, partitioned=False)
    for start in (0, 100):
        py_write(t, rows(start, 100))
    opts = {"warehouse": str(tmp_path)}
    pool = cf.ProcessPoolExecutor(2, mp_context=mp.get_context("spawn"))
    with pool:
        rb = t.new_read_builder().with_projection(["id", "_ROW_ID"])
        pred = rb.new_predicate_builder().is_in("id", [3, 150, 199])
        rb = rb.with_filter(pred)
        splits = rb.new_scan().plan().splits()
        blobs = [pickle.dumps(s) for s in splits]
        parts = list(pool.map(_read_in_worker, [(opts, b, pickle.dumps(pred)) for b in blobs]))
        assert sorted(i for p in parts for i in p) == [3, 150, 199]
        cpaimon.CatalogFactory.create(opts).alter_table(
            "db.t", [SchemaChange.add_column("score", AtomicType("BIGINT"))])
        res = cray.shard_update("db.t", opts, _times_ten, read_cols=["id"],
                                update_cols=["score"], num_shards=4, executor=pool)
        assert res == {"rows": 200, "snapshot_id": 3}
        assert cray.update_by_row_id("db.t", pa.table({"_ROW_ID": pa.array([0, 199], pa.int64()),
                                                       "name": ["z0", "z199"]}), opts,
                                     update_cols=["name"], executor=pool) == {"num_updated": 2}
    got = py_rows(tmp_path)
    assert [r["score"] for r in got] == [r["id"] * 10 for r in got]
    assert (got[0]["name"], got[199]["name"]) == ("z0", "z199")
    assert snapshots(tmp_path) == 4
    one = _tasks.shard_update("db.t", opts, 0, 2, ["id"], ["score"], _times_ten)
    for results, what in (([one], r"shards \[1\] returned no result"),
                          ([one, one], r"\[0\] returned more than one")):
        with pytest.raises(RuntimeError, match=what):
            _tasks.commit_shards("db.t", opts, results, 2)
    assert snapshots(tmp_path) == 4


def _read_in_worker(args):
    opts, blob, pred = args
    t = cpaimon.CatalogFactory.create(opts).get_table("db.t")
    rb = t.new_read_builder().with_projection(["id", "_ROW_ID"]).with_filter(pickle.loads(pred))
    return rb.new_read().to_arrow([pickle.loads(blob)])["id"].to_pylist()


def _times_ten(batch):
    return {"score": pc.multiply(batch.column("id"), 10)}
