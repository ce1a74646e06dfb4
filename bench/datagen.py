"""Benchmark data, generated once per size and seed and shared by both sides of every case
(docs/benchmarks.md, "The data").

Every data set is a pure function of (name, rows, SEED): numpy's PCG64 generator seeded with
[SEED, data-set number, chunk number], so a data set can be produced chunk by chunk (the 20-column
file is larger than we want in memory at once) and is the same on every machine. Inputs are stored
as uncompressed Arrow IPC files; the reference Parquet files are written by pyarrow with the
settings pypaimon uses (pypaimon/filesystem/local_file_io.py: ``pq.write_table(..., compression=
'zstd', compression_level=1)``, everything else default: dictionary on, data page v1, 1 Mi rows per
row group). A manifest records what was generated and each data set's digest; a later run with the
same sizes reuses the files.
"""
import functools
import json
import os
import pathlib

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

import common

SEED = 20240611
# Bump a data set's version when its generator changes: cached copies are then rebuilt.
VERSIONS = {"int64": 1, "double": 1, "short_string": 1, "long_string": 1, "embedding": 1,
            "wide": 2, "table": 1}
CHUNK_ROWS = 1 << 20

# Parquet suite: one column per data set. Rows are the full sizes; --quick divides them.
PARQUET_SETS = {
    "int64": dict(num=1, rows=16_000_000, sql="BIGINT",
                  note="uniform in [0, 1e12), 1% null"),
    "double": dict(num=2, rows=16_000_000, sql="DOUBLE",
                   note="normal(100, 50), 1% null"),
    "short_string": dict(num=3, rows=8_000_000, sql="STRING",
                         note="4-16 letters from 20K distinct, 1% null"),
    "long_string": dict(num=4, rows=800_000, sql="STRING",
                        note="100-500 bytes of word text, unique, 1% null"),
    "embedding": dict(num=5, rows=400_000, sql="ARRAY<FLOAT>",
                      note="list<float> of 128 normal values, no null"),
}
# The wide file: 20 columns, > 1 GB of Parquet at full size (about 1.1 GB).
WIDE_ROWS = 3_500_000
WIDE_KINDS = ["int64", "double"] * 8 + ["short_string", "long_string"] * 2
# Table suite: 8 columns.
TABLE_ROWS = 10_000_000
TABLE_SCHEMA = pa.schema([
    pa.field("id", pa.int64(), nullable=False),
    ("k", pa.int32()),
    ("price", pa.float64()),
    ("qty", pa.int64()),
    ("name", pa.string()),
    ("category", pa.string()),
    ("ts", pa.timestamp("us")),
    ("flag", pa.bool_()),
])
TABLE_OPTIONS = {"row-tracking.enabled": "true", "data-evolution.enabled": "true"}
CODECS = ["zstd", "none"]
WARMUP_ROWS = 1000


def pypaimon_parquet_kwargs(codec: str) -> dict:
    """What pypaimon passes to pq.write_table for file.compression=`codec`."""
    if codec == "zstd":
        return {"compression": "zstd", "compression_level": 1}
    return {"compression": "none"}


# ---- generators: (rng, rows) -> pa.Array ----

def _nulls(rng, n, fraction=0.01):
    return rng.random(n) < fraction


def _letters(rng, count, lo, hi):
    """`count` random lowercase words of lo..hi letters, as one string array."""
    lengths = rng.integers(lo, hi + 1, count)
    offsets = np.zeros(count + 1, np.int32)
    np.cumsum(lengths, out=offsets[1:])
    data = rng.integers(ord("a"), ord("z") + 1, int(offsets[-1]), dtype=np.uint8)
    return pa.StringArray.from_buffers(count, pa.py_buffer(offsets), pa.py_buffer(data))


def _vocabulary(num, count, lo, hi):
    return _letters(np.random.default_rng([SEED, num, 1_000_000]), count, lo, hi)


@functools.lru_cache(maxsize=8)
def _corpus(num) -> np.ndarray:
    """About 4 MB of text: words of a 2,000-word vocabulary separated by spaces."""
    rng = np.random.default_rng([SEED, num, 2_000_000])
    words = _vocabulary(num, 2000, 2, 10).to_pylist()
    picks = rng.integers(0, len(words), 600_000)
    return np.frombuffer(" ".join(words[i] for i in picks).encode(), np.uint8)


def gen_int64(rng, n, num):
    return pa.array(rng.integers(0, 10**12, n), pa.int64(), mask=_nulls(rng, n))


def gen_double(rng, n, num):
    return pa.array(rng.normal(100.0, 50.0, n), pa.float64(), mask=_nulls(rng, n))


def gen_short_string(rng, n, num):
    vocab = _vocabulary(num, 20_000, 4, 16)
    idx = pa.array(rng.integers(0, len(vocab), n), pa.int32(), mask=_nulls(rng, n))
    return vocab.take(idx)


def gen_long_string(rng, n, num):
    corpus = _corpus(num)
    lengths = rng.integers(100, 501, n)
    starts = rng.integers(0, len(corpus) - 501, n)
    mask = _nulls(rng, n)
    lengths[mask] = 0
    offsets = np.zeros(n + 1, np.int64)
    np.cumsum(lengths, out=offsets[1:])
    # Gather every value's bytes at once: position p of value i reads corpus[starts[i] + p].
    gather = np.arange(offsets[-1], dtype=np.int64) + np.repeat(starts - offsets[:-1], lengths)
    data = corpus[gather]
    validity = pa.array(~mask).buffers()[1]
    return pa.LargeStringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(data),
                                            validity, int(mask.sum())).cast(pa.string())


def gen_embedding(rng, n, num):
    values = rng.standard_normal(n * 128, dtype=np.float32)
    offsets = np.arange(0, (n + 1) * 128, 128, dtype=np.int32)
    return pa.ListArray.from_arrays(pa.array(offsets), pa.array(values))


GENERATORS = {"int64": gen_int64, "double": gen_double, "short_string": gen_short_string,
              "long_string": gen_long_string, "embedding": gen_embedding}


def table_chunk(chunk: int, start: int, n: int) -> pa.RecordBatch:
    rng = np.random.default_rng([SEED, 50, chunk])
    ids = np.arange(start, start + n, dtype=np.int64)
    users = pa.array(rng.integers(0, 1_000_000, n)).cast(pa.string())
    cats = pa.array(rng.integers(0, 50, n)).cast(pa.string())
    ts = 1_700_000_000_000_000 + ids * 1000 + rng.integers(0, 1000, n)
    cols = [
        pa.array(ids),
        pa.array(rng.integers(0, 1000, n, dtype=np.int32), pa.int32()),
        pa.array(np.round(rng.uniform(0, 1000, n), 2), pa.float64(), mask=_nulls(rng, n)),
        pa.array(rng.integers(0, 1_000_000, n), pa.int64()),
        pc.if_else(pa.array(_nulls(rng, n)), pa.scalar(None, pa.string()),
                   pc.binary_join_element_wise("user_", users, "")),
        pc.binary_join_element_wise("category_", cats, ""),
        pa.array(ts, pa.timestamp("us")),
        pa.array(rng.random(n) < 0.5),
    ]
    return pa.RecordBatch.from_arrays(cols, schema=TABLE_SCHEMA)


# ---- writing data sets ----

def _write_ipc(path: pathlib.Path, batches, digest):
    tmp = path.with_suffix(".tmp")
    with pa.OSFile(str(tmp), "wb") as sink:
        writer = None
        for b in batches:
            if writer is None:
                writer = pa.ipc.new_file(sink, b.schema)
            digest.add(b)
            writer.write_batch(b)
        writer.close()
    os.replace(tmp, path)


def _set_batches(name, rows):
    num = PARQUET_SETS[name]["num"]
    for chunk, start in enumerate(range(0, rows, CHUNK_ROWS)):
        n = min(CHUNK_ROWS, rows - start)
        rng = np.random.default_rng([SEED, num, chunk])
        yield pa.RecordBatch.from_arrays([GENERATORS[name](rng, n, num)], names=[name])


def _wide_batches(rows):
    """The 20-column data in 128 Ki-row chunks (the long-string gather needs ~10x a chunk's
    bytes of scratch, so chunks stay small)."""
    chunk_rows = 1 << 17
    for chunk, start in enumerate(range(0, rows, chunk_rows)):
        n = min(chunk_rows, rows - start)
        arrays, names = [], []
        for i, kind in enumerate(WIDE_KINDS):
            rng = np.random.default_rng([SEED, 100 + i, chunk])
            arrays.append(GENERATORS[kind](rng, n, 100 + i))
            names.append(f"c{i:02d}_{kind}")
        yield pa.RecordBatch.from_arrays(arrays, names=names)


def wide_row_type() -> str:
    cols = [f"c{i:02d}_{k} {PARQUET_SETS[k]['sql']}" for i, k in enumerate(WIDE_KINDS)]
    return "ROW<" + ", ".join(cols) + ">"


def arrow_bytes(path: pathlib.Path) -> int:
    with pa.memory_map(str(path)) as src:
        return pa.ipc.open_file(src).read_all().nbytes


def _pq_ref(ipc: pathlib.Path, out: pathlib.Path, codec: str):
    with pa.memory_map(str(ipc)) as src:
        table = pa.ipc.open_file(src).read_all()
    tmp = out.with_suffix(".tmp")
    pq.write_table(table, str(tmp), **pypaimon_parquet_kwargs(codec))
    os.replace(tmp, out)


def _pq_head(src: pathlib.Path, out: pathlib.Path):
    """The first WARMUP_ROWS rows of a Parquet file: what a reader warms up on (worker.py)."""
    first = next(pq.ParquetFile(str(src)).iter_batches(batch_size=WARMUP_ROWS))
    pq.write_table(pa.Table.from_batches([first]), str(out), **pypaimon_parquet_kwargs("zstd"))


def _generate_wide(path: pathlib.Path, rows: int) -> dict:
    """Writes the 20-column file as pypaimon would have written it in one `write_table` call:
    row groups of pyarrow's default 1 Mi rows (each `write_table` call on a ParquetWriter starts
    new row groups, so chunks are gathered to 1 Mi rows first)."""
    digest = common.Digest()
    tmp = path.with_suffix(".tmp")
    writer = None
    raw = 0
    column_bytes = {}
    pending, pending_rows = [], 0

    def flush():
        writer.write_table(pa.Table.from_batches(pending))
        pending.clear()

    for b in _wide_batches(rows):
        if writer is None:
            writer = pq.ParquetWriter(str(tmp), b.schema, **pypaimon_parquet_kwargs("zstd"))
        digest.add(b)
        raw += b.nbytes
        for name, col in zip(b.schema.names, b.columns):
            column_bytes[name] = column_bytes.get(name, 0) + col.nbytes
        pending.append(b)
        pending_rows += b.num_rows
        if pending_rows >= CHUNK_ROWS:
            flush()
            pending_rows = 0
    if pending:
        flush()
    writer.close()
    os.replace(tmp, path)
    return {"path": str(path), "rows": rows, "arrow_bytes": raw, "digest": digest.to_json(),
            "column_bytes": column_bytes, "file_bytes": path.stat().st_size,
            "row_type": wide_row_type()}


def _current(sets, name, path, rows) -> bool:
    """Whether the cached data set `name` was made by the current generator at `rows` rows."""
    entry = sets.get(name)
    return (bool(entry) and entry.get("version") == VERSIONS[name] and entry["rows"] == rows
            and path.exists())


def generate(data_dir: pathlib.Path, scale: dict, suites, log) -> dict:
    """Generates (or reuses) every data set the chosen suites need; returns the manifest."""
    data_dir.mkdir(parents=True, exist_ok=True)
    mpath = data_dir / "manifest.json"
    manifest = json.loads(mpath.read_text()) if mpath.exists() else {}
    if manifest.get("seed") != SEED:
        manifest = {"seed": SEED, "sets": {}}

    def save():
        mpath.write_text(json.dumps(manifest, indent=1))

    sets = manifest["sets"]
    if "parquet" in suites:
        for name in PARQUET_SETS:
            rows = scale["parquet"][name]
            ipc = data_dir / f"in_{name}.arrow"
            if not _current(sets, name, ipc, rows):
                log(f"generating {name}: {rows} rows")
                d = common.Digest()
                _write_ipc(ipc, _set_batches(name, rows), d)
                sets[name] = {"path": str(ipc), "rows": rows, "arrow_bytes": arrow_bytes(ipc),
                              "version": VERSIONS[name],
                              "digest": d.to_json(), "sql": PARQUET_SETS[name]["sql"],
                              "note": PARQUET_SETS[name]["note"], "ref": {}}
                save()
            for codec in CODECS:
                ref = data_dir / f"ref_{name}_{codec}.parquet"
                if codec not in sets[name]["ref"] or not ref.exists():
                    log(f"writing the pyarrow reference file {ref.name}")
                    _pq_ref(ipc, ref, codec)
                    sets[name]["ref"][codec] = {"path": str(ref),
                                                "file_bytes": ref.stat().st_size}
                    save()
            head = data_dir / f"ref_{name}_head.parquet"
            if "head" not in sets[name] or not head.exists():
                _pq_head(data_dir / f"ref_{name}_zstd.parquet", head)
                sets[name]["head"] = str(head)
                save()
        wide = data_dir / "ref_wide_zstd.parquet"
        if not _current(sets, "wide", wide, scale["wide"]):
            log(f"generating the 20-column file: {scale['wide']} rows")
            sets["wide"] = dict(_generate_wide(wide, scale["wide"]), version=VERSIONS["wide"])
            head = data_dir / "ref_wide_head.parquet"
            _pq_head(wide, head)
            sets["wide"]["head"] = str(head)
            save()
    if "table" in suites:
        ipc = data_dir / "in_table.arrow"
        rows = scale["table"]
        if not _current(sets, "table", ipc, rows):
            log(f"generating the table data: {rows} rows x {len(TABLE_SCHEMA)} columns")
            d = common.Digest()
            batches = (table_chunk(c, s, min(CHUNK_ROWS, rows - s))
                       for c, s in enumerate(range(0, rows, CHUNK_ROWS)))
            _write_ipc(ipc, batches, d)
            sets["table"] = {"path": str(ipc), "rows": rows, "arrow_bytes": arrow_bytes(ipc),
                             "version": VERSIONS["table"],
                             "digest": d.to_json()}
            save()
    return manifest
