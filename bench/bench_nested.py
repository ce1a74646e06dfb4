#!/usr/bin/env python3
"""Nested projection benchmark (`with_projection(['r.x'])`, issue 15): cpaimon vs pypaimon reading
fields nested in a ROW column, each case in a fresh process, best of 3, wall time and peak RSS
(VmHWM), against reading the whole ROW column for scale.

    bench/bench_nested.py [--rows N] [--work DIR] [--no-results]

Rows: id BIGINT, r ROW<x BIGINT, y STRING (~200 bytes), z ROW<u DOUBLE, w STRING (~20 bytes)>>,
written once by cpaimon (zstd, page cache warm for every read). cpaimon reads only the projected
leaves; results go to bench/RESULTS.md under "## Nested projection".
"""
import argparse
import pathlib
import sys
import tempfile

BENCH = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))
from common import best_worker_run, compile_package, write_results_section  # noqa: E402

WORKER = r"""
import json, sys, time
import pyarrow as pa
import pyarrow.compute as pc
lib, what, wh, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
mod = __import__(lib)
pa.table({"a": pa.array([1, 2])}).to_pylist()
cat = mod.CatalogFactory.create({"warehouse": wh})
if what == "write":
    cat.create_database("db", True)
    zt = pa.struct([("u", pa.float64()), ("w", pa.string())])
    schema = pa.schema([("id", pa.int64()),
                        ("r", pa.struct([("x", pa.int64()), ("y", pa.string()), ("z", zt)]))])
    cat.create_table("db.t", mod.Schema.from_pyarrow_schema(schema), False)
    t = cat.get_table("db.t")
    ids = pa.array(range(n), pa.int64())
    y = pc.binary_join_element_wise(pc.cast(ids, pa.string()), pa.scalar("y" * 200), "")
    w = pc.binary_join_element_wise("w-", pc.cast(ids, pa.string()), "-wwwww", "")
    z = pa.StructArray.from_arrays([pc.multiply(pc.cast(ids, pa.float64()), 0.5), w], ["u", "w"])
    r = pa.StructArray.from_arrays([ids, y, z], ["x", "y", "z"])
    data = pa.Table.from_arrays([ids, r], schema=schema)
    start = time.perf_counter()
    wb = t.new_batch_write_builder()
    wr, c = wb.new_write(), wb.new_commit()
    for b in data.to_batches(max_chunksize=100_000):
        wr.write_arrow_batch(b)
    c.commit(wr.prepare_commit())
    rows = n
else:
    start = time.perf_counter()
    t = cat.get_table("db.t")
    rb = t.new_read_builder().with_projection(what.split(","))
    rows = rb.new_read().to_arrow(rb.new_scan().plan().splits()).num_rows
seconds = time.perf_counter() - start
rss = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(json.dumps({"seconds": seconds, "rss_mib": rss / 1024, "rows": rows}))
"""

REPEAT = 3
CASES = ["r.x", "r.z.u,id", "r.x,r.z.w", "r"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=2_000_000)
    ap.add_argument("--work", default=None)
    ap.add_argument("--no-results", action="store_true")
    args = ap.parse_args()
    work = pathlib.Path(args.work or tempfile.mkdtemp(prefix="bench-nested-"))
    compile_package()
    n = args.rows
    wh = work / "wh"
    best_worker_run(WORKER, ["cpaimon", "write", wh, n], 1, n)
    lines = [
        "## Nested projection",
        "",
        f"`bench/bench_nested.py --rows {n}` (2 cores, local disk): {n:,} rows of id BIGINT, "
        "r ROW<x BIGINT, y STRING (~200 bytes), z ROW<u DOUBLE, w STRING>> written by cpaimon; "
        "`with_projection([...])` then `to_arrow`, each case a fresh process, best of 3, page "
        "cache warm. `r` (the whole column) for scale.",
        "",
        "| projection | pypaimon s | cpaimon s | speed-up | pypaimon peak RSS MiB | cpaimon peak "
        "RSS MiB |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for case in CASES:
        res = {lib: best_worker_run(WORKER, [lib, case, wh, n], REPEAT, n)
               for lib in ("pypaimon", "cpaimon")}
        p, c = res["pypaimon"], res["cpaimon"]
        lines.append(f"| `{case}` | {p['seconds']:.3f} | {c['seconds']:.3f} | "
                     f"{p['seconds'] / c['seconds']:.1f}x | {p['rss_mib']:.0f} | "
                     f"{c['rss_mib']:.0f} |")
    print("\n".join(lines))
    if not args.no_results:
        write_results_section(lines)


if __name__ == "__main__":
    main()
