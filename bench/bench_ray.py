#!/usr/bin/env python3
"""Ray benchmark (issue 18): cpaimon.ray vs pypaimon.ray on the same tables, each case in a fresh
process with its own single-node Ray cluster (loopback, dashboard off), best of 3.

    bench/bench_ray.py [--rows N] [--read-rows M] [--work DIR] [--no-results]

Cases:
- backfill: an ARRAY<FLOAT> column of 128 values per row added to a data-evolution table of N
  rows (default 2,000,000) and computed from `id` by a trivial function (the "model" costs
  nothing, so the job's own cost shows), with 1 and with 2 Ray CPUs. cpaimon: shard_update (one
  shard per CPU x 2); pypaimon: read_paimon(id, _ROW_ID) -> map_batches(fn) -> update_by_row_id,
  its way to do the job. Each run starts from a copy of the same base table. cpaimon also with
  one thread per task (cpaimon.write.compress-threads=0): by default a task's Parquet writer
  compresses on a second thread, so on 2 cores one task already uses both.
- read: a table of M rows (default 10,000,000; id, k, x, s) into a Ray Dataset, consumed by
  iterating its batches: read_paimon of each library over the same table; then the same read
  again in the same cluster ("warm": workers started and the library imported).
- Ray's own overhead: ray.init plus an empty Dataset job of the same shape, reported apart.
Results go to bench/RESULTS.md under "## Ray".
"""
import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

BENCH = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from common import best_worker_run, compile_package, write_results_section  # noqa: E402

WORKER = r"""
import json, os, sys, time
os.environ["RAY_USAGE_STATS_ENABLED"] = "0"
os.environ["RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"] = "0"
import numpy as np
import pyarrow as pa
lib, what, wh, n, cpus = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
import ray
t0 = time.perf_counter()
ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False, configure_logging=False,
         object_store_memory=4 << 30)
ctx = ray.data.DataContext.get_current()
ctx.enable_progress_bars = False
# Both libraries' update_by_row_id group rows with a shuffle; Ray's hash shuffle reserves CPUs
# for aggregators and never starts on one CPU, so the sort-based one is used throughout.
ctx.shuffle_strategy = ray.data.context.ShuffleStrategy.SORT_SHUFFLE_PULL_BASED
init = time.perf_counter() - t0
opts = {"warehouse": wh}
EMB = pa.list_(pa.float32())

def embed(batch):
    ids = np.asarray(batch.column("id"), dtype=np.float32)
    flat = np.repeat(ids, 128)
    offsets = np.arange(0, 128 * (len(ids) + 1), 128, dtype=np.int32)
    return pa.ListArray.from_arrays(pa.array(offsets), pa.array(flat, pa.float32()))

start = time.perf_counter()
if what == "overhead":
    ray.data.range(n, override_num_blocks=2 * cpus).map_batches(lambda b: b).count()
    rows = n
elif what == "backfill" and lib == "cpaimon":
    import cpaimon.ray as cray
    res = cray.shard_update("db.t", opts, lambda b: {"emb": embed(b)}, read_cols=["id"],
                            update_cols=["emb"], num_shards=2 * cpus, batch_size=65536)
    rows = res["rows"]
elif what == "backfill":
    import pypaimon.ray as pray
    ds = pray.read_paimon("db.t", opts, projection=["id", "_ROW_ID"])
    def fn(t):
        return pa.table({"_ROW_ID": t.column("_ROW_ID"), "emb": embed(t)})
    rows = pray.update_by_row_id("db.t", ds.map_batches(fn, batch_format="pyarrow"), opts,
                                 update_cols=["emb"])["num_updated"]
else:
    mod = __import__(lib + ".ray", fromlist=["read_paimon"])
    def read_all():
        n = 0
        for b in mod.read_paimon("db.t", opts).iter_batches(batch_format="pyarrow", batch_size=None):
            n += b.num_rows
        return n
    rows = read_all()
seconds = time.perf_counter() - start
warm = None
if what == "read":  # the same read again: Ray's workers are up and have imported the library
    t0 = time.perf_counter()
    assert read_all() == rows
    warm = time.perf_counter() - t0
ray.shutdown()
print(json.dumps({"seconds": seconds, "init": init, "rows": rows, "warm": warm}))
"""

SETUP = r"""
import sys
import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import cpaimon
from cpaimon.schema.data_types import ArrayType, AtomicType
from cpaimon.schema.schema_change import SchemaChange
wh, n, what = sys.argv[1], int(sys.argv[2]), sys.argv[3]
extra = dict(kv.split("=", 1) for kv in sys.argv[4:])
cat = cpaimon.CatalogFactory.create({"warehouse": wh})
cat.create_database("db", True)
schema = pa.schema([("id", pa.int64()), ("k", pa.int32()), ("x", pa.float64()), ("s", pa.string())])
cat.create_table("db.t", cpaimon.Schema.from_pyarrow_schema(schema, options={
    "row-tracking.enabled": "true", "data-evolution.enabled": "true", **extra}), False)
t = cat.get_table("db.t")
wb = t.new_batch_write_builder()
w = wb.new_write()
step = 1_000_000
for s in range(0, n, step):
    ids = pa.array(np.arange(s, min(n, s + step)), pa.int64())
    w.write_arrow(pa.table({"id": ids, "k": pc.cast(pc.bit_wise_and(ids, 1023), pa.int32()),
                            "x": pc.multiply(pc.cast(ids, pa.float64()), 0.5),
                            "s": pc.binary_join_element_wise("row-", pc.cast(ids, pa.string()), "")},
                           schema=schema))
wb.new_commit().commit(w.prepare_commit())
if what == "backfill":
    cat.alter_table("db.t", [SchemaChange.add_column("emb", ArrayType(True, AtomicType("FLOAT")))])
"""

REPEAT = int(os.environ.get("BENCH_REPEAT", "3"))


def run(lib, what, wh, n, cpus, base=None):
    """The fastest of REPEAT runs, each from a fresh copy of `base` when given."""
    def reset():
        shutil.rmtree(wh, ignore_errors=True)
        shutil.copytree(base, wh)
    return best_worker_run(WORKER, [lib, what, wh, n, cpus], REPEAT, n,
                           reset if base is not None else None)


def setup(wh, n, what, *options):
    shutil.rmtree(wh, ignore_errors=True)
    subprocess.run([sys.executable, "-c", SETUP, str(wh), str(n), what, *options], check=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=2_000_000)
    ap.add_argument("--read-rows", type=int, default=10_000_000)
    ap.add_argument("--work", default=None)
    ap.add_argument("--no-results", action="store_true")
    args = ap.parse_args()
    work = pathlib.Path(args.work or tempfile.mkdtemp(prefix="bench-ray-"))
    compile_package()
    base = work / "backfill-base"
    setup(base, args.rows, "backfill")
    # The same table with one thread per write task (no page-compression helper thread): on 2
    # cores one default cpaimon task already keeps both busy, so only this one shows scaling.
    single = work / "backfill-base-1t"
    setup(single, args.rows, "backfill", "cpaimon.write.compress-threads=0")
    res = {}
    for cpus in (1, 2):
        for lib in ("pypaimon", "cpaimon"):
            res["backfill", lib, cpus] = run(lib, "backfill", work / "bf", args.rows, cpus, base)
        res["backfill", "single", cpus] = run("cpaimon", "backfill", work / "bf", args.rows,
                                              cpus, single)
        res["overhead", cpus] = run("cpaimon", "overhead", work / "bf", args.rows, cpus)
    setup(work / "read", args.read_rows, "read")
    for lib in ("pypaimon", "cpaimon"):
        res["read", lib] = run(lib, "read", work / "read", args.read_rows, 2)
    res["overhead", "read"] = run("cpaimon", "overhead", work / "read", args.read_rows, 2)
    lines = [
        "## Ray",
        "",
        f"`bench/bench_ray.py --rows {args.rows} --read-rows {args.read_rows}` (2 cores): each "
        "case a fresh process starting its own single-node Ray 2.54 cluster, best of 3; times "
        "exclude ray.init (shown apart). Backfill: an ARRAY<FLOAT> of 128 values per row computed "
        "from id by a trivial function and written back (cpaimon.ray.shard_update with 2 shards "
        "per CPU; pypaimon.ray: read_paimon -> map_batches -> update_by_row_id). Read: "
        "read_paimon of the whole table, batches iterated. Ray's overhead: an empty Dataset job "
        "of as many rows (`range -> map_batches -> count`).",
        "",
        "| case | pypaimon.ray s | cpaimon.ray s | speed-up | Ray's empty job s | ray.init s |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for cpus in (1, 2):
        p, c = res["backfill", "pypaimon", cpus], res["backfill", "cpaimon", cpus]
        lines.append(f"| backfill {args.rows:,} rows, {cpus} CPU | {p['seconds']:.2f} | "
                     f"{c['seconds']:.2f} | {p['seconds'] / c['seconds']:.1f}x | "
                     f"{res['overhead', cpus]['seconds']:.2f} | {c['init']:.2f} |")
    for cpus in (1, 2):
        c = res["backfill", "single", cpus]
        lines.append(f"| backfill, cpaimon one thread per task, {cpus} CPU | | {c['seconds']:.2f} "
                     f"| | {res['overhead', cpus]['seconds']:.2f} | {c['init']:.2f} |")
    p, c = res["read", "pypaimon"], res["read", "cpaimon"]
    lines.append(f"| read {args.read_rows:,} rows, 2 CPUs | {p['seconds']:.2f} | "
                 f"{c['seconds']:.2f} | {p['seconds'] / c['seconds']:.1f}x | "
                 f"{res['overhead', 'read']['seconds']:.2f} | {c['init']:.2f} |")
    def speedup(key):
        one, two = res["backfill", key, 1]["seconds"], res["backfill", key, 2]["seconds"]
        net = (one - res["overhead", 1]["seconds"]) / max(1e-9, two - res["overhead", 2]["seconds"])
        return f"{one / two:.2f}x ({net:.2f}x net of Ray's empty job)"
    lines += ["", f"Backfill speed-up from 1 to 2 CPUs: cpaimon.ray {speedup('cpaimon')}, with one "
              f"thread per task {speedup('single')}; pypaimon.ray {speedup('pypaimon')}. Read "
              f"warm (a second read_paimon in the same cluster): pypaimon.ray "
              f"{res['read', 'pypaimon']['warm']:.2f} s, cpaimon.ray "
              f"{res['read', 'cpaimon']['warm']:.2f} s "
              f"({res['read', 'pypaimon']['warm'] / res['read', 'cpaimon']['warm']:.1f}x)."]
    print("\n".join(lines))
    if not args.no_results:
        write_results_section(lines)


if __name__ == "__main__":
    main()
