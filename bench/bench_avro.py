#!/usr/bin/env python3
"""Avro data-file benchmark (`file.format` = avro, issue 15): cpaimon vs pypaimon writing and
reading the same table, each case in a fresh process, best of 3, wall time and peak RSS (VmHWM);
cpaimon's Parquet table of the same rows beside it for scale.

    bench/bench_avro.py [--rows N] [--work DIR] [--no-results]

Rows: id BIGINT, k INT, x DOUBLE, s STRING (10-20 characters), d DATE, a ARRAY<BIGINT> (0-3
items), on a data-evolution table with zstd. Reads are of the table pypaimon wrote (page cache
warm), so both read the same files; the cpaimon Parquet row reads cpaimon's own Parquet table.
Results go to bench/RESULTS.md under "## Avro data files".
"""
import argparse
import pathlib
import shutil
import sys
import tempfile

BENCH = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from common import best_worker_run, compile_package, write_results_section  # noqa: E402

WORKER = r"""
import json, sys, time
import pyarrow as pa
import pyarrow.compute as pc
lib, what, wh, n, fmt = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5]
mod = __import__(lib)
pa.table({"a": pa.array([1, 2])}).to_pylist()
cat = mod.CatalogFactory.create({"warehouse": wh})
if what == "write":
    cat.create_database("db", True)
    schema = pa.schema([("id", pa.int64()), ("k", pa.int32()), ("x", pa.float64()),
                        ("s", pa.string()), ("d", pa.date32()), ("a", pa.list_(pa.int64()))])
    cat.create_table("db.t", mod.Schema.from_pyarrow_schema(schema, options={
        "row-tracking.enabled": "true", "data-evolution.enabled": "true",
        "file.format": fmt}), False)
    t = cat.get_table("db.t")
    ids = pa.array(range(n), pa.int64())
    s = pc.binary_join_element_wise("row-", pc.cast(ids, pa.string()), "-x", "")
    lens = pc.cast(pc.bit_wise_and(ids, 3), pa.int32())
    offsets = pa.concat_arrays([pa.array([0], pa.int32()), pc.cumulative_sum(lens)])
    items = pa.array(range(pc.sum(lens).as_py()), pa.int64())
    data = pa.table({"id": ids, "k": pc.cast(pc.bit_wise_and(ids, 1023), pa.int32()),
                     "x": pc.multiply(pc.cast(ids, pa.float64()), 0.5), "s": s,
                     "d": pc.cast(pc.cast(pc.bit_wise_and(ids, 32767), pa.int32()), pa.date32()),
                     "a": pa.ListArray.from_arrays(offsets, items)}, schema=schema)
    start = time.perf_counter()
    wb = t.new_batch_write_builder()
    w, c = wb.new_write(), wb.new_commit()
    for b in data.to_batches(max_chunksize=100_000):
        w.write_arrow_batch(b)
    c.commit(w.prepare_commit())
    rows = n
else:
    start = time.perf_counter()
    t = cat.get_table("db.t")
    rb = t.new_read_builder()
    rows = 0
    for b in rb.new_read().to_arrow_batch_reader(rb.new_scan().plan().splits()):
        rows += b.num_rows
seconds = time.perf_counter() - start
rss = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(json.dumps({"seconds": seconds, "rss_mib": rss / 1024, "rows": rows}))
"""

REPEAT = 3


def run(lib, what, wh, n, fmt):
    """The fastest of REPEAT runs; a write starts from an empty warehouse every time."""
    reset = (lambda: shutil.rmtree(wh, ignore_errors=True)) if what == "write" else None
    return best_worker_run(WORKER, [lib, what, wh, n, fmt], REPEAT, n, reset)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=1_000_000)
    ap.add_argument("--work", default=None)
    ap.add_argument("--no-results", action="store_true")
    args = ap.parse_args()
    work = pathlib.Path(args.work or tempfile.mkdtemp(prefix="bench-avro-"))
    compile_package()
    n = args.rows
    res = {}
    for lib in ("pypaimon", "cpaimon"):
        res["write", lib] = run(lib, "write", work / lib, n, "avro")
    res["write", "parquet"] = run("cpaimon", "write", work / "parquet", n, "parquet")
    run("cpaimon", "read", work / "pypaimon", n, "avro")  # page cache warm for both
    for lib in ("pypaimon", "cpaimon"):
        res["read", lib] = run(lib, "read", work / "pypaimon", n, "avro")
    res["read", "parquet"] = run("cpaimon", "read", work / "parquet", n, "parquet")
    size = sum(p.stat().st_size for p in (work / "pypaimon").rglob("*.avro"))
    lines = [
        "## Avro data files",
        "",
        f"`bench/bench_avro.py --rows {n}` (2 cores, local disk): {n:,} rows of id BIGINT, k "
        "INT, x DOUBLE, s STRING, d DATE, a ARRAY<BIGINT>, zstd, data-evolution table; each case "
        "a fresh process, best of 3. Reads stream `to_arrow_batch_reader` over the table "
        f"pypaimon wrote ({size / 2**20:.1f} MiB of Avro files). cpaimon's Parquet table of the "
        "same rows for scale.",
        "",
        "| case | pypaimon s | cpaimon s | speed-up | pypaimon peak RSS MiB | cpaimon peak RSS MiB "
        "| cpaimon Parquet s |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for what in ("write", "read"):
        p, c, q = res[what, "pypaimon"], res[what, "cpaimon"], res[what, "parquet"]
        lines.append(f"| {what} | {p['seconds']:.3f} | {c['seconds']:.3f} | "
                     f"{p['seconds'] / c['seconds']:.1f}x | {p['rss_mib']:.0f} | "
                     f"{c['rss_mib']:.0f} | {q['seconds']:.3f} |")
    print("\n".join(lines))
    if not args.no_results:
        write_results_section(lines)


if __name__ == "__main__":
    main()
