#!/usr/bin/env python3
"""How much of the backfill case (bench_update.py) is the codec alone: one shard's embeddings
(rows x dim float32, uniform in [0, 1) as bench_update.py makes them) written to Parquet by cpaimon
and by pyarrow, with zstd level 1 (what both Paimon writers use) and without compression, on one
thread each. The difference between the two codecs is the zstd work, which no writer of the same
files can avoid; the backfill ratio cannot exceed (the reference's time) / (that floor).

    bench/codec_floor.py [--rows 500000] [--dim 128] [--runs 3]

Prints CPU seconds (user + system of this process) per writer and codec, best of --runs.
"""
import argparse
import os
import resource
import sys
import tempfile
import time


def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=500_000)
    ap.add_argument("--dim", type=int, default=128)
    ap.add_argument("--runs", type=int, default=3)
    a = ap.parse_args()
    os.environ.setdefault("ARROW_NUM_THREADS", "1")
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq
    from cpaimon import _cpaimon

    flat = np.random.default_rng(0).random(a.rows * a.dim, dtype=np.float32)
    emb = pa.FixedSizeListArray.from_arrays(pa.array(flat), a.dim).cast(pa.list_(pa.float32()))
    table = pa.table({"emb": emb})
    row_type = "ROW<emb ARRAY<FLOAT>>"
    writers = {
        "cpaimon": lambda path, codec: _cpaimon.write_parquet(
            path, table, row_type, codec=codec, **({"level": 1} if codec == "zstd" else {})),
        "pyarrow": lambda path, codec: pq.write_table(
            table, path, use_dictionary=True, data_page_version="1.0", compression=codec,
            **({"compression_level": 1} if codec == "zstd" else {})),
    }
    raw = flat.nbytes
    print(f"{a.rows:,} rows x {a.dim} float32 = {raw / 1e6:.0f} MB; CPU s, best of {a.runs}")
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "f.parquet")
        best = {}
        for name, write in writers.items():
            for codec in ("none", "zstd"):
                times = []
                for _ in range(a.runs):
                    c0, t0 = cpu(), time.perf_counter()
                    write(path, codec)
                    times.append((cpu() - c0, time.perf_counter() - t0))
                best[name, codec] = min(times)
                print(f"  {name:8s} {codec:5s} CPU {best[name, codec][0]:.3f} s  "
                      f"wall {best[name, codec][1]:.3f} s  file {os.path.getsize(path) / 1e6:.0f} MB")
        for name in writers:
            z = best[name, "zstd"][0] - best[name, "none"][0]
            print(f"  {name}: zstd level 1 costs {z:.3f} CPU s ({raw / z / 1e6:.0f} MB/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
