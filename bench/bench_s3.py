#!/usr/bin/env python3
"""Object-storage benchmark: cpaimon vs pypaimon on the same S3 store (issue 12), one run.

    bench/bench_s3.py [--rows N] [--latency-ms 10] [--only CASE,...] [--no-results]

The store is the local S3 server (moto, as in the tests) behind a proxy that adds a delay to
every request (10 ms: a store in the same region) and counts requests and bytes each way. Both
sides read and write the same tables through it: cpaimon with its own S3 client, pypaimon through
pyarrow's S3FileSystem, with the same catalog options.

Cases (each side on its own copy of one table of N rows x 20 columns, written once by cpaimon):
  scan        full scan to Arrow (to_arrow of all splits)
  project1    one column (c0, INT64) of the 20
  update      update one INT column (v) of every row by _ROW_ID, commit
  backfill    on a table of min(N, 500k) rows in 2 row-id groups: ADD COLUMN emb ARRAY<FLOAT>, then
              2 shard processes each read their shard's ids and write emb (dim 32, computed
              before the clock), and one commit of both shards' messages
Each figure runs in a fresh process; reported: wall time, requests, bytes downloaded and uploaded
(through the proxy), and for project1 the bytes of the projected column chunks plus the footers,
for update the bytes of the changed column alone. Results go to bench/RESULTS.md under
"## Object storage" (that section is replaced, the rest of the file kept).
"""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time

BENCH = pathlib.Path(__file__).resolve().parent
ROOT = BENCH.parent
sys.path.insert(0, str(ROOT / "tests" / "python"))
sys.path.insert(0, str(BENCH))

import bench_update as bu  # noqa: E402  (the 20-column table of the data-evolution benchmark)
import s3_support  # noqa: E402

DIM = 32


def lib(side):
    if side == "cpaimon":
        import cpaimon as m
    else:
        import pypaimon as m
    return m


def open_table(side, opts, name="db.t"):
    return lib(side).CatalogFactory.create(opts).get_table(name)


def read_all(table, projection=None):
    rb = table.new_read_builder()
    if projection:
        rb = rb.with_projection(projection)
    return rb.new_read().to_arrow(rb.new_scan().plan().splits())


# ---- workers (fresh processes) ----

def work_scan(side, opts, projection=None):
    table = open_table(side, opts)
    t0 = time.perf_counter()
    n = read_all(table, projection).num_rows
    return time.perf_counter() - t0, {"rows": n}


def work_update(side, opts, rows):
    import numpy as np
    import pyarrow as pa
    table = open_table(side, opts)
    ids = np.arange(0, rows, dtype=np.int64)
    data = pa.table({"_ROW_ID": pa.array(ids), "v": pa.array((ids % 1000).astype(np.int32))})
    t0 = time.perf_counter()
    wb = table.new_batch_write_builder()
    msgs = wb.new_update().with_update_type(["v"]).update_by_arrow_with_row_id(data)
    wb.new_commit().commit(msgs)
    return time.perf_counter() - t0, {}


def work_shard(side, opts, shard, out_path):
    import numpy as np
    import pyarrow as pa
    table = open_table(side, opts, "db.b")
    upd = table.new_batch_write_builder().new_update()
    upd.with_read_projection(["id"])
    upd.with_update_type(["emb"])
    emb_type = pa.list_(pa.float32())
    t0 = time.perf_counter()
    s = upd.new_shard_updator(shard, 2)
    reader = s.arrow_reader()
    compute = 0.0
    for batch in iter(reader.read_next_batch, None):
        c0 = time.perf_counter()
        ids = batch.column(0).to_numpy().astype(np.float32)
        vec = (ids[:, None] * np.arange(1, DIM + 1, dtype=np.float32)[None, :]).reshape(-1)
        arr = pa.ListArray.from_arrays(pa.array(np.arange(0, len(ids) * DIM + 1, DIM,
                                                          dtype=np.int32)), pa.array(vec))
        col = arr.cast(emb_type)
        compute += time.perf_counter() - c0
        s.update_by_arrow_batch(pa.RecordBatch.from_arrays([col], names=["emb"]))
    msgs = s.prepare_commit()
    elapsed = time.perf_counter() - t0 - compute
    if side == "cpaimon":
        payload = [m.serialize() for m in msgs]
    else:
        import pickle
        payload = [pickle.dumps(m) for m in msgs]
    pathlib.Path(out_path).write_bytes(json.dumps([p.hex() for p in payload]).encode())
    return elapsed, {}


def work_commit_shards(side, opts, paths):
    table = open_table(side, opts, "db.b")
    msgs = []
    for p in paths:
        for h in json.loads(pathlib.Path(p).read_bytes()):
            b = bytes.fromhex(h)
            if side == "cpaimon":
                from cpaimon.write import CommitMessage
                msgs.append(CommitMessage.deserialize(b))
            else:
                import pickle
                msgs.append(pickle.loads(b))
    t0 = time.perf_counter()
    table.new_batch_write_builder().new_commit().commit(msgs)
    return time.perf_counter() - t0, {}


def worker_main(arg):
    spec = json.loads(arg)
    fn = {"scan": work_scan, "update": work_update, "shard": work_shard,
          "commit_shards": work_commit_shards}[spec.pop("kind")]
    seconds, extra = fn(**spec)
    print(json.dumps(dict(extra, seconds=seconds, rss_mib=bu.peak_rss_mib())))


def run_worker(build, **spec):
    env = dict(os.environ, CPAIMON_BUILD=str(build), PYTHONPATH=str(ROOT / "python"),
               AWS_EC2_METADATA_DISABLED="true")
    out = subprocess.run([sys.executable, __file__, "--worker", json.dumps(spec)], env=env,
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{spec['kind']} on {spec.get('side')} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


# ---- driver ----

class Store:
    def __init__(self, server, proxy):
        self.server, self.proxy = server, proxy
        self.client = server.client()

    def opts(self, bucket, via_proxy=True):
        ep = self.proxy.endpoint if via_proxy else self.server.endpoint
        return dict(s3_support.catalog_options(ep), warehouse=f"s3://{bucket}/wh")

    def copy_bucket(self, src, dst):
        self.client.create_bucket(Bucket=dst)
        for key in s3_support.list_keys(self.client, src):
            self.client.copy_object(Bucket=dst, Key=key, CopySource={"Bucket": src, "Key": key})

    def warm(self, bucket):
        """Loads every object of `bucket` into the proxy's cache (uncounted), so the timed run
        sees a store that answers ranges at once rather than moto's first whole-object read."""
        import boto3
        c = boto3.client("s3", endpoint_url=self.proxy.endpoint, aws_access_key_id="x",
                         aws_secret_access_key="y", region_name=s3_support.REGION)
        for key, size in self.object_sizes(bucket, "").items():
            if size:
                c.get_object(Bucket=bucket, Key=key, Range="bytes=0-0")["Body"].read()
        self.proxy.reset_counters()

    def object_sizes(self, bucket, prefix="wh/"):
        out, token = {}, None
        while True:
            kw = {"Bucket": bucket, "Prefix": prefix}
            if token:
                kw["ContinuationToken"] = token
            r = self.client.list_objects_v2(**kw)
            out.update({o["Key"]: o["Size"] for o in r.get("Contents", [])})
            if not r.get("IsTruncated"):
                return out
            token = r["NextContinuationToken"]


def build_base(store, build, rows):
    env = dict(os.environ, CPAIMON_BUILD=str(build), PYTHONPATH=str(ROOT / "python"))
    code = f"""
import sys, json; sys.path.insert(0, {str(BENCH)!r})
import cpaimon, bench_update as b
opts = json.loads({json.dumps(json.dumps(store.opts("base", via_proxy=False)))})
cat = cpaimon.CatalogFactory.create(opts)
cat.create_database("db", True)
cat.create_table("db.t", cpaimon.Schema.from_pyarrow_schema(b.schema(), options={{
    "row-tracking.enabled": "true", "data-evolution.enabled": "true",
    "target-file-size": "2gb"}}), False)
t = cat.get_table("db.t")
step = 500_000
for start in range(0, {rows}, step):
    wb = t.new_batch_write_builder(); w = wb.new_write()
    w.write_arrow(b.batch(start, min(step, {rows} - start)))
    wb.new_commit().commit(w.prepare_commit())
import pyarrow as pa
n = min({rows}, 500_000)
cat.create_table("db.b", cpaimon.Schema.from_pyarrow_schema(pa.schema([("id", pa.int64())]),
    options={{"row-tracking.enabled": "true", "data-evolution.enabled": "true"}}), False)
bt = cat.get_table("db.b")
for start in (0, n // 2):
    wb = bt.new_batch_write_builder(); w = wb.new_write()
    w.write_arrow(pa.table({{"id": pa.array(range(start, start + n // 2), pa.int64())}}))
    wb.new_commit().commit(w.prepare_commit())
from cpaimon.schema.data_types import ArrayType, AtomicType
from cpaimon.schema.schema_change import SchemaChange
cat.alter_table("db.b", [SchemaChange.add_column("emb", ArrayType(True, AtomicType("FLOAT")))])
"""
    store.client.create_bucket(Bucket="base")
    subprocess.run([sys.executable, "-c", code], env=env, check=True)


def projected_bytes(store, bucket, column, footers=True):
    """Compressed bytes of `column`'s chunks (plus every file's footer) in the table."""
    import io
    import pyarrow.parquet as pq
    total = 0
    for key, size in store.object_sizes(bucket, "wh/db.db/t/").items():
        if not key.endswith(".parquet"):
            continue
        body = store.client.get_object(Bucket=bucket, Key=key)["Body"].read()
        md = pq.ParquetFile(io.BytesIO(body)).metadata
        if footers:
            total += int.from_bytes(body[-8:-4], "little") + 8
        for rg in range(md.num_row_groups):
            for c in range(md.num_columns):
                col = md.row_group(rg).column(c)
                if col.path_in_schema == column:
                    total += col.total_compressed_size
    return total


def measure(store, build, case, side, bucket, **spec):
    store.proxy.reset_counters()  # (also after the worker's start-up: it makes no request)
    r = run_worker(build, side=side, **spec)
    r["requests"] = store.proxy.total_requests()
    r["bytes_down"] = store.proxy.bytes_out
    r["bytes_up"] = store.proxy.bytes_in
    return r


def case_backfill(store, build, side, bucket):
    opts = store.opts(bucket)
    work = pathlib.Path(tempfile.mkdtemp(prefix="bench-s3-"))
    store.proxy.reset_counters()
    env = dict(os.environ, CPAIMON_BUILD=str(build), PYTHONPATH=str(ROOT / "python"),
               AWS_EC2_METADATA_DISABLED="true")
    procs = []
    for shard in range(2):
        spec = {"kind": "shard", "side": side, "opts": opts, "shard": shard,
                "out_path": str(work / f"s{shard}")}
        procs.append(subprocess.Popen([sys.executable, __file__, "--worker", json.dumps(spec)],
                                      env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                      text=True))
    shard_results = []
    for p in procs:
        out, err = p.communicate()
        if p.returncode != 0:
            raise RuntimeError(f"shard on {side} failed:\n{err[-3000:]}")
        shard_results.append(json.loads(out.strip().splitlines()[-1]))
    c = run_worker(build, kind="commit_shards", side=side, opts=opts,
                   paths=[str(work / "s0"), str(work / "s1")])
    return {"seconds": max(s["seconds"] for s in shard_results) + c["seconds"],
            "rss_mib": max(s["rss_mib"] for s in shard_results),
            "requests": store.proxy.total_requests(), "bytes_down": store.proxy.bytes_out,
            "bytes_up": store.proxy.bytes_in}


def write_results(results, rows, latency_ms, proj_bytes, col_bytes, note):
    from common import write_results_section
    lines = ["## Object storage\n",
             f"`bench/bench_s3.py --rows {rows} --latency-ms {latency_ms}`: the local S3 server "
             f"(moto) behind a proxy adding {latency_ms} ms to every request; one fresh process "
             f"per figure; requests and bytes as the proxy counted them. {note}\n",
             "| case | cpaimon s | pypaimon s | ratio | cpaimon requests | pypaimon requests "
             "| cpaimon MB down / up | pypaimon MB down / up | cpaimon RSS MiB "
             "| pypaimon RSS MiB |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, r in results.items():
        c, p = r.get("cpaimon"), r.get("pypaimon")

        def mb(x):
            return f"{x['bytes_down'] / 1e6:.1f} / {x['bytes_up'] / 1e6:.1f}" if x else "-"

        def f(x, k, fmt):
            return fmt.format(x[k]) if x and k in x else "-"
        ratio = f"{p['seconds'] / c['seconds']:.1f}x" if c and p else "-"
        lines.append(f"| {name} | {f(c, 'seconds', '{:.2f}')} | {f(p, 'seconds', '{:.2f}')} | "
                     f"{ratio} | {f(c, 'requests', '{}')} | {f(p, 'requests', '{}')} | {mb(c)} | "
                     f"{mb(p)} | {f(c, 'rss_mib', '{:.0f}')} | {f(p, 'rss_mib', '{:.0f}')} |")
    c = results.get("project1", {}).get("cpaimon")
    if c and proj_bytes:
        lines.append(f"\nproject1: the projected column's chunks plus the footers are "
                     f"{proj_bytes:,} bytes; cpaimon downloaded {c['bytes_down']:,} "
                     f"({c['bytes_down'] / proj_bytes:.2f}x, headers and metadata files "
                     f"included).")
    u = results.get("update", {}).get("cpaimon")
    if u and col_bytes:
        lines.append(f"update: the changed column `v` alone is {col_bytes:,} bytes of Parquet; "
                     f"cpaimon's new data files hold {u['data_bytes']:,} "
                     f"({u['data_bytes'] / col_bytes:.2f}x).")
    lines.append("")
    write_results_section(lines)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rows", type=int, default=1_000_000)
    p.add_argument("--latency-ms", type=float, default=10.0)
    p.add_argument("--build", type=pathlib.Path,
                   default=pathlib.Path(os.environ.get("CPAIMON_BUILD", ROOT / "build")))
    p.add_argument("--only")
    p.add_argument("--sides", default="cpaimon,pypaimon")
    p.add_argument("--no-results", action="store_true")
    p.add_argument("--note", default="")
    p.add_argument("--worker")
    a = p.parse_args()
    if a.worker:
        return worker_main(a.worker)
    cases = (a.only or "scan,project1,update,backfill").split(",")
    results = {}
    with s3_support.MotoServer() as server, \
            s3_support.S3Proxy(server.port, latency_s=a.latency_ms / 1000,
                               cache_objects=True) as proxy:
        store = Store(server, proxy)
        t0 = time.time()
        build_base(store, a.build, a.rows)
        print(f"base table: {time.time() - t0:.0f}s", flush=True)
        proj = projected_bytes(store, "base", "c0")
        v_bytes = projected_bytes(store, "base", "v", footers=False)
        n = 0
        for case in cases:
            for side in a.sides.split(","):
                n += 1
                bucket = f"b{n}-{case}-{side}"
                store.copy_bucket("base", bucket)
                store.warm(bucket)
                opts = store.opts(bucket)
                before = store.object_sizes(bucket)
                t0 = time.time()
                if case == "scan":
                    r = measure(store, a.build, case, side, bucket, kind="scan", opts=opts)
                elif case == "project1":
                    r = measure(store, a.build, case, side, bucket, kind="scan", opts=opts,
                                projection=["c0"])
                elif case == "update":
                    r = measure(store, a.build, case, side, bucket, kind="update", opts=opts,
                                rows=a.rows)
                else:
                    r = case_backfill(store, a.build, side, bucket)
                after = store.object_sizes(bucket)
                r["data_bytes"] = sum(v for k, v in after.items()
                                      if k not in before and k.endswith(".parquet"))
                results.setdefault(case, {})[side] = r
                print(f"{case} {side}: {r} ({time.time() - t0:.0f}s)", flush=True)
    if not a.no_results:
        write_results(results, a.rows, a.latency_ms, proj, v_bytes, a.note)
    print(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
