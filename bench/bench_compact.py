#!/usr/bin/env python3
"""Data-evolution compaction benchmark (issue 16): a ROWS x 20-column table after 5 partial-column
updates (every row, one column each) compacted by cpaimon, against the physical floor.

    bench/bench_compact.py [--rows N] [--work DIR] [--no-results]

The floor is what any compactor must at least do, done by pyarrow single-threaded: for each
row-id group, read the group's files (the base file's columns that no update replaced and each
update file's column) and write one Parquet file of the same data with the same codec (zstd 1).
cpaimon runs `table.compact()` in a fresh process on its own copy of the table, once with its
defaults (one page-compression thread beside the writer, as every cpaimon write) and once
single-threaded (cpaimon.write.compress-threads = 0), with wall time and peak RSS (VmHWM). Also
the merged scan of the whole table (cpaimon to_arrow, best of three in one process) before and
after. pypaimon cannot compact.
Results go to bench/RESULTS.md under "## Compaction" (the section is replaced, the rest kept).
"""
import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

BENCH = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from common import SINGLE_THREAD_ENV, WORKER_ENV, write_results_section  # noqa: E402

N_COLS = 20
UPDATED = ["c1", "c2", "c3", "c4", "c5"]

WORKER = """
import json, sys, time
import pyarrow as pa
import cpaimon
wh, what = sys.argv[1], sys.argv[2]
t = cpaimon.CatalogFactory.create({"warehouse": wh}).get_table("db.t")
start = time.perf_counter()
if what == "compact":
    r = t.compact()
    extra = {"tasks": r.tasks, "files_before": r.files_before, "files_after": r.files_after}
    seconds = time.perf_counter() - start
else:
    # Best of three: one cold run varies by 2x with the page cache (identical files measured
    # 0.4 to 0.85 s).
    seconds = None
    for _ in range(3):
        start = time.perf_counter()
        rb = t.new_read_builder()
        n = rb.new_read().to_arrow(rb.new_scan().plan().splits()).num_rows
        took = time.perf_counter() - start
        seconds = took if seconds is None else min(seconds, took)
    extra = {"rows": n}
rss = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(json.dumps(dict(extra, seconds=seconds, rss_mib=rss / 1024)))
"""

FLOOR = """
import json, pathlib, sys, time
import pyarrow as pa, pyarrow.parquet as pq
import cpaimon
wh, out = sys.argv[1], pathlib.Path(sys.argv[2])
t = cpaimon.CatalogFactory.create({"warehouse": wh}).get_table("db.t")
# The live files by group (taken from cpaimon's $files, outside the timing).
files = cpaimon.CatalogFactory.create({"warehouse": wh}).get_table("db.t$files")
rb = files.new_read_builder()
rows = rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist()
groups = {}
for f in rows:
    groups.setdefault(f["first_row_id"], []).append(f)
names = [fl.name for fl in t.fields]
start = time.perf_counter()
written = 0
for first, fs in sorted(groups.items()):
    fs.sort(key=lambda f: f["max_sequence_number"])
    cols = {}
    for f in fs:  # later files win, as the merged read
        want = names if f["write_cols"] is None else list(f["write_cols"])
        data = pq.read_table(f["file_path"], columns=want, use_threads=False)
        for n in want:
            cols[n] = data.column(n)
    table = pa.table([cols[n] for n in names], names=names)
    path = out / f"group-{first}.parquet"
    pq.write_table(table, path, compression="zstd", compression_level=1, use_dictionary=True)
    written += path.stat().st_size
seconds = time.perf_counter() - start
rss = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(json.dumps({"seconds": seconds, "rss_mib": rss / 1024, "bytes": written,
                  "groups": len(groups)}))
"""


def run(script, *args, single=False):
    env = dict(os.environ, **WORKER_ENV, **(SINGLE_THREAD_ENV if single else {}))
    r = subprocess.run([sys.executable, "-c", script, *map(str, args)], capture_output=True,
                       text=True, env=env)
    if r.returncode:
        raise SystemExit(r.stderr)
    return json.loads(r.stdout.strip().splitlines()[-1])


def build(wh, rows):
    import numpy as np
    import pyarrow as pa
    import cpaimon
    c = cpaimon.CatalogFactory.create({"warehouse": str(wh)})
    c.create_database("db", True)
    fields = [("id", pa.int64())] + [
        (f"c{i}", pa.int64() if i % 3 == 0 else pa.float64() if i % 3 == 1 else pa.string())
        for i in range(1, N_COLS)]
    schema = pa.schema(fields)
    c.create_table("db.t", cpaimon.Schema.from_pyarrow_schema(
        schema, options={"row-tracking.enabled": "true", "data-evolution.enabled": "true"}), False)
    t = c.get_table("db.t")
    rng = np.random.default_rng(7)
    chunk = 1_000_000
    wb = t.new_batch_write_builder()
    w, cm = wb.new_write(), wb.new_commit()
    for s in range(0, rows, chunk):
        n = min(chunk, rows - s)
        cols = []
        for name, typ in fields:
            if name == "id":
                cols.append(pa.array(np.arange(s, s + n, dtype=np.int64)))
            elif typ == pa.int64():
                cols.append(pa.array(rng.integers(0, 1 << 40, n)))
            elif typ == pa.float64():
                cols.append(pa.array(rng.random(n)))
            else:
                cols.append(pa.array(rng.integers(0, 100_000, n).astype(str)))
        w.write_arrow(pa.Table.from_arrays(cols, schema=schema))
    cm.commit(w.prepare_commit())
    # Five partial updates, one column each, every row (one call: one file per row-id group).
    ids = pa.array(np.arange(rows, dtype=np.int64))
    for col in UPDATED:
        t = c.get_table("db.t")
        tu = t.new_batch_write_builder().new_update().with_update_type([col])
        typ = schema.field(col).type
        vals = (pa.array(rng.integers(0, 1 << 40, rows)) if typ == pa.int64()
                else pa.array(rng.random(rows)) if typ == pa.float64()
                else pa.array(rng.integers(0, 100_000, rows).astype(str)))
        msgs = tu.update_by_arrow_with_row_id(pa.table({"_ROW_ID": ids, col: vals}))
        t.new_batch_write_builder().new_commit().commit(msgs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=10_000_000)
    ap.add_argument("--work", default=None)
    ap.add_argument("--no-results", action="store_true")
    args = ap.parse_args()
    work = pathlib.Path(args.work or tempfile.mkdtemp(prefix="bench-compact-"))
    base = work / "base"
    t0 = time.perf_counter()
    if not (base / "done").exists():
        shutil.rmtree(base, ignore_errors=True)
        build(base, args.rows)
        (base / "done").write_text("")
    build_s = time.perf_counter() - t0
    results = {}
    scan_before = run(WORKER, base, "scan")
    out = work / "floor"
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir()
    floor = run(FLOOR, base, out, single=True)
    for label, threads in (("cpaimon", None), ("cpaimon, 1 thread", "0")):
        wh = work / label.replace(" ", "").replace(",", "_")
        shutil.rmtree(wh, ignore_errors=True)
        shutil.copytree(base, wh)
        if threads is not None:
            from cpaimon.__main__ import executable
            subprocess.run([str(executable()), "sql", "--warehouse", str(wh),
                            "-e", "ALTER TABLE db.t SET TBLPROPERTIES "
                                  f"('cpaimon.write.compress-threads' = '{threads}')"],
                           check=True, capture_output=True)
        results[label] = run(WORKER, wh, "compact", single=threads is not None)
        results[label]["scan_after"] = run(WORKER, wh, "scan")
    lines = [
        "## Compaction",
        "",
        f"bench/bench_compact.py: {args.rows:,} rows x {N_COLS} columns (int64, double, string), "
        f"one append then 5 partial-column updates of every row; {floor['groups']} row-id groups "
        f"of 6 files each. Floor = pyarrow single-threaded reading each group's files and writing "
        f"one zstd-1 Parquet file of the same data. (Table built in {build_s:.0f} s.)",
        "",
        "| compactor | time | vs floor | peak RSS | merged scan after (before: "
        f"{scan_before['seconds']:.2f} s, {scan_before['rss_mib']:.0f} MiB) |",
        "| --- | --- | --- | --- | --- |",
        f"| pyarrow floor | {floor['seconds']:.2f} s | 1.00x | {floor['rss_mib']:.0f} MiB | |",
    ]
    for label, r in results.items():
        lines.append(f"| {label} | {r['seconds']:.2f} s | {r['seconds'] / floor['seconds']:.2f}x | "
                     f"{r['rss_mib']:.0f} MiB | {r['scan_after']['seconds']:.2f} s, "
                     f"{r['scan_after']['rss_mib']:.0f} MiB |")
    print("\n".join(lines))
    print(json.dumps({"floor": floor, "results": results, "scan_before": scan_before}))
    if not args.no_results:
        write_results_section(lines)


if __name__ == "__main__":
    main()
