"""Shared pieces of the benchmark harness (see docs/benchmarks.md): where things live, the data
digests both sides are checked against, and peak-RSS bookkeeping.

A digest summarises a column so that two readers (or a writer and the data it was given) can be
compared without holding both results in one process: per column the row count, the null count and
two wrapping 64-bit sums over the values' bit patterns. The sums are order-independent and exact
(integers, not floating point), so they do not depend on how a reader cuts its output into batches
or in which order a table scan visits its files.
"""
import os
import pathlib

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

BENCH_DIR = pathlib.Path(__file__).resolve().parent
ROOT = BENCH_DIR.parent
MASK64 = (1 << 64) - 1

# Environment of every measured process: numpy's BLAS pool is used by neither side, and its
# idle threads only add noise.
WORKER_ENV = {"OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
# Added for single-threaded cases: Arrow sizes its CPU pool from OMP_NUM_THREADS.
SINGLE_THREAD_ENV = {"OMP_NUM_THREADS": "1"}


def compile_package() -> None:
    """Byte-compiles the cpaimon package in the source tree once, as `pip install` does for an
    installed package (and had done for pypaimon): with PYTHONDONTWRITEBYTECODE set, every fresh
    process would otherwise compile cpaimon's modules from source, a few ms per case that an
    installed cpaimon never pays."""
    import compileall
    compileall.compile_dir(str(pathlib.Path(__file__).resolve().parents[1] / "python" / "cpaimon"),
                           quiet=1)


def best_worker_run(worker: str, args: list, repeat: int, rows: int, before=None) -> dict:
    """Runs `python -c worker *args` `repeat` times in fresh processes (calling `before()` ahead of
    each, e.g. to reset a warehouse) and returns the fastest run's JSON line (its last stdout
    line, which must carry "seconds" and "rows" == `rows`)."""
    import json
    import subprocess
    import sys

    best = None
    for _ in range(repeat):
        if before is not None:
            before()
        r = subprocess.run([sys.executable, "-c", worker, *map(str, args)], capture_output=True,
                           text=True, env=dict(os.environ, **WORKER_ENV))
        if r.returncode:
            raise SystemExit(f"{args}: {r.stderr[-3000:]}")
        got = json.loads(r.stdout.strip().splitlines()[-1])
        assert got["rows"] == rows, got
        if best is None or got["seconds"] < best["seconds"]:
            best = got
    return best


def write_results_section(lines: list) -> None:
    """Puts `lines` (starting with a "## Title" heading) into bench/RESULTS.md in place of the
    section of that title, at the end; the rest of the file is kept."""
    path = pathlib.Path(__file__).resolve().parent / "RESULTS.md"
    text = path.read_text() if path.exists() else "# Benchmark results\n"
    heading = lines[0].rstrip("\n") + "\n"
    start = text.find(heading)
    if start >= 0:
        end = text.find("\n## ", start + 1)
        text = text[:start] + (text[end + 1:] if end >= 0 else "")
    path.write_text(text.rstrip() + "\n\n" + "\n".join(lines).rstrip("\n") + "\n")


def default_build_dir() -> pathlib.Path:
    return pathlib.Path(os.environ.get("CPAIMON_BUILD", ROOT / "build"))


# ---- peak RSS ----

def _status_kib(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    raise RuntimeError(f"{field} missing from /proc/self/status")


def rss_bytes() -> int:
    return _status_kib("VmRSS") * 1024


def peak_rss_bytes() -> int:
    return _status_kib("VmHWM") * 1024


def reset_peak_rss() -> bool:
    """Resets VmHWM to the current RSS (Linux >= 4.0, clear_refs value 5), so the peak read after
    an operation is that operation's and not the data loading's before it. Returns False where the
    kernel refuses; the caller then reports the process-lifetime peak instead."""
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


# ---- digests ----

def _wrap_sum(values: np.ndarray) -> int:
    # numpy integer sums wrap silently, which is exactly the modular sum wanted here.
    return int(values.astype(np.uint64, copy=False).sum(dtype=np.uint64)) & MASK64


def _fixed_digest(arr: pa.Array):
    t = arr.type
    if pa.types.is_boolean(t):
        return int(pc.sum(arr.cast(pa.int64())).as_py() or 0), 0
    if pa.types.is_floating(t):
        width = {16: np.uint16, 32: np.uint32, 64: np.uint64}[t.bit_width]
        vals = pc.fill_null(arr, 0).to_numpy(zero_copy_only=False)
        return _wrap_sum(vals.view(width)), 0
    if pa.types.is_temporal(t):
        arr = arr.view(pa.int64() if t.bit_width == 64 else pa.int32())
    vals = pc.fill_null(arr, 0).to_numpy(zero_copy_only=False)
    return _wrap_sum(vals.view(np.int64) if vals.dtype == np.int64 else vals.astype(np.int64)), 0


def _binary_digest(arr: pa.Array):
    if arr.null_count:
        arr = arr.drop_null()
    arr = arr.cast(pa.large_binary())
    offsets = np.frombuffer(arr.buffers()[1], np.int64)[arr.offset:arr.offset + len(arr) + 1]
    data = arr.buffers()[2]
    if data is None or len(offsets) < 2:
        return 0, 0
    raw = np.frombuffer(data, np.uint8)[offsets[0]:offsets[-1]]
    return int(offsets[-1] - offsets[0]), _wrap_sum(raw)


def column_digest(arr) -> list:
    """[rows, nulls, sum1, sum2] of one column (Array or ChunkedArray)."""
    chunks = arr.chunks if isinstance(arr, pa.ChunkedArray) else [arr]
    acc = [0, 0, 0, 0]
    for chunk in chunks:
        acc[0] += len(chunk)
        acc[1] += chunk.null_count
        t = chunk.type
        if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
            lengths = pc.fill_null(pc.list_value_length(chunk), 0)
            inner = column_digest(pc.list_flatten(chunk))
            s1, s2 = int(pc.sum(lengths).as_py() or 0), inner[2] ^ (inner[3] << 1)
        elif (pa.types.is_string(t) or pa.types.is_binary(t) or pa.types.is_large_string(t)
              or pa.types.is_large_binary(t)):
            s1, s2 = _binary_digest(chunk)
        else:
            s1, s2 = _fixed_digest(chunk)
        acc[2] = (acc[2] + s1) & MASK64
        acc[3] = (acc[3] + s2) & MASK64
    return acc


class Digest:
    """Accumulates column digests batch by batch (keyed by column name)."""

    def __init__(self):
        self.columns = {}

    def add(self, batch):
        for name, col in zip(batch.schema.names, batch.columns):
            d = column_digest(col)
            acc = self.columns.setdefault(name, [0, 0, 0, 0])
            acc[0] += d[0]
            acc[1] += d[1]
            acc[2] = (acc[2] + d[2]) & MASK64
            acc[3] = (acc[3] + d[3]) & MASK64

    def rows(self) -> int:
        return next(iter(self.columns.values()))[0] if self.columns else 0

    def to_json(self) -> dict:
        return {k: list(v) for k, v in self.columns.items()}


def digest_table(table) -> dict:
    d = Digest()
    for batch in table.to_batches():
        d.add(batch)
    return d.to_json()


def compare_digests(got: dict, expected: dict, columns=None) -> str:
    """'' when `got` matches `expected` on `columns` (default: expected's), else what differs."""
    problems = []
    for name in columns or expected:
        if name not in got:
            problems.append(f"column {name} missing")
        elif name not in expected:
            problems.append(f"column {name} has no expected digest")
        elif list(got[name]) != list(expected[name]):
            problems.append(f"column {name}: {got[name]} != {expected[name]}")
    return "; ".join(problems)


# ---- formatting ----

def fmt_bytes(n) -> str:
    if n is None:
        return "–"
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if abs(n) >= scale:
            return f"{n / scale:.1f} {unit}" if abs(n) < 100 * scale else f"{n / scale:.0f} {unit}"
    return f"{n} B"


def fmt_rows(n: int) -> str:
    if n >= 1_000_000 and n % 100_000 == 0:
        return f"{n / 1_000_000:g}M"
    if n >= 1000 and n % 100 == 0:
        return f"{n / 1000:g}K"
    return str(n)


def fmt_seconds(s) -> str:
    if s is None:
        return "–"
    return f"{s:.3f} s" if s < 10 else f"{s:.1f} s"
