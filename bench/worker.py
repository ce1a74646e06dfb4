"""One measurement in a fresh process (docs/benchmarks.md, "How a figure is taken").

Usage: worker.py '<json spec>'. The spec names an operation and a side; the worker imports only
that side's library, loads its input, resets the kernel's peak-RSS mark, runs the operation once
under a wall clock, reads the peak, and only then does anything else (verification reads the output
back with the reference reader). It prints one line, ``BENCH_RESULT <json>``:

  seconds     wall time of the operation (minus the time spent digesting, when verifying)
  cpu         user + system CPU seconds of the operation, all threads
  base_rss    RSS when the operation started (interpreter, libraries, loaded input)
  peak_rss    peak RSS during the operation (VmHWM after a reset); lifetime peak if no reset
  rows        rows written or read
  bytes_out   bytes on disk written (writes), files written (tables)
  digest      per-column digest of what was read or written back (verification runs only)

Operations: pq_write, pq_read (Parquet suite), tbl_write, tbl_scan (table suite). Sides: cpaimon,
pyarrow, pypaimon.
"""
import json
import os
import pathlib
import resource
import shutil
import sys
import time

import pyarrow as pa

import common


def _single_threaded():
    """The Parquet suite compares single-threaded code; the table suite leaves each library its
    own thread pools (spec "single_threaded": false)."""
    pa.set_cpu_count(1)
    pa.set_io_thread_count(1)


def _load_ipc(path) -> pa.Table:
    # Read into memory (not memory-mapped), so both sides start from the same resident data.
    with pa.OSFile(path) as src:
        return pa.ipc.open_file(src).read_all()


WARMUP_ROWS = 1000


def _warm_up(op, sample):
    """Runs `op` once on a small input and digests `sample` before the measured run, so lazy
    imports, first-call initialisation and the digest's compute kernels are not measured, on
    either side. The small input keeps what the allocators retain afterwards small too."""
    op()
    if sample is not None:
        common.Digest().add(sample if isinstance(sample, pa.RecordBatch) else
                            sample.combine_chunks().to_batches()[0])


def _profiler_control(command):
    """Under `run.py --profile`, perf records only while the clock runs: it was started with
    events disabled and listens on a FIFO named by BENCH_PERF_CTL (acknowledging on
    BENCH_PERF_ACK)."""
    ctl = os.environ.get("BENCH_PERF_CTL")
    if not ctl:
        return
    with open(ctl, "w") as f:
        f.write(command + "\n")
    with open(os.environ["BENCH_PERF_ACK"]) as f:
        f.readline()


class Clock:
    """Wall and CPU time of the operation; `pause` excludes verification work."""

    def __init__(self):
        self.excluded = 0.0

    def start(self):
        _profiler_control("enable")
        self.have_reset = common.reset_peak_rss()
        self.base_rss = common.rss_bytes()
        self.cpu0 = _cpu()
        self.t0 = time.perf_counter()

    def stop(self):
        self.seconds = time.perf_counter() - self.t0 - self.excluded
        self.cpu = _cpu() - self.cpu0
        self.peak_rss = common.peak_rss_bytes()
        _profiler_control("disable")

    def timed_digest(self, digest, batch):
        t = time.perf_counter()
        digest.add(batch)
        self.excluded += time.perf_counter() - t


def _cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return ru.ru_utime + ru.ru_stime


# ---- Parquet suite ----

def _parquet_source(path):
    """A Parquet input streamed in batches (only for preparing the cpaimon copy of the
    20-column file, which is too large to hold); returns (stream, rows)."""
    import pyarrow.parquet as pq
    pf = pq.ParquetFile(path)
    batches = pf.iter_batches(batch_size=65536, use_threads=False)
    return pa.RecordBatchReader.from_batches(pf.schema_arrow, batches), pf.metadata.num_rows


def pq_write(spec, clock):
    out = spec["out"]
    if spec["input"].endswith(".parquet"):
        table, rows = _parquet_source(spec["input"])
    else:
        table = _load_ipc(spec["input"])
        rows = table.num_rows
    if spec["side"] == "cpaimon":
        from cpaimon import _cpaimon
        kwargs = {"codec": spec["codec"]}
        if spec["codec"] == "zstd":
            kwargs["level"] = 1

        def write(data, path):
            _cpaimon.write_parquet(path, data, spec["row_type"], **kwargs)
    else:
        import pyarrow.parquet as pq
        import datagen

        def write(data, path):
            pq.write_table(data, path, use_dictionary=True, data_page_version="1.0",
                           **datagen.pypaimon_parquet_kwargs(spec["codec"]))
    if isinstance(table, pa.Table):
        _warm_up(lambda: write(table.slice(0, WARMUP_ROWS), out), table.slice(0, WARMUP_ROWS))
        os.unlink(out)
    clock.start()
    write(table, out)
    clock.stop()
    result = {"rows": rows, "bytes_out": os.path.getsize(out)}
    if spec.get("verify"):
        import pyarrow.parquet as pq
        d = common.Digest()
        for b in pq.ParquetFile(out).iter_batches(use_threads=False):
            d.add(b)
        result["digest"] = d.to_json()
    return result


def _cpaimon_stream(spec):
    from cpaimon import _cpaimon
    kwargs = {"columns": spec.get("columns")}
    if spec.get("batch_size"):
        kwargs["batch_size"] = spec["batch_size"]
    return pa.RecordBatchReader.from_stream(_cpaimon.read_parquet(spec["path"], **kwargs))


def _read_whole(spec) -> pa.Table:
    if spec["side"] == "cpaimon":
        return _cpaimon_stream(spec).read_all()
    import pyarrow.parquet as pq
    return pq.read_table(spec["path"], columns=spec.get("columns"), use_threads=False)


def _stream(spec):
    if spec["side"] == "cpaimon":
        return _cpaimon_stream(spec)
    import pyarrow.parquet as pq
    return pq.ParquetFile(spec["path"]).iter_batches(
        batch_size=spec.get("batch_size") or 65536, columns=spec.get("columns"),
        use_threads=False)


def pq_read(spec, clock):
    """mode "table": read the whole file into one Table (what most callers do); mode "stream":
    consume batch by batch, never holding more than one batch."""
    verify, mode, side = spec.get("verify"), spec["mode"], spec["side"]
    digest = common.Digest()
    rows = 0
    if side == "cpaimon":
        from cpaimon import _cpaimon  # noqa: F401  (imported before the clock starts)
    else:
        import pyarrow.parquet as pq
    warm = dict(spec, path=spec["warmup_path"])
    if mode == "table":
        _warm_up(lambda: None, _read_whole(warm))
    else:
        _warm_up(lambda: None, next(iter(_stream(warm))))
    clock.start()
    if mode == "table":
        table = _read_whole(spec)
        rows = table.num_rows
        clock.stop()
        if verify:
            for b in table.to_batches():
                digest.add(b)
    else:
        for b in _stream(spec):
            rows += b.num_rows
            if verify:
                clock.timed_digest(digest, b)
        clock.stop()
    result = {"rows": rows, "bytes_in": os.path.getsize(spec["path"])}
    if verify:
        result["digest"] = digest.to_json()
    return result


# ---- table suite ----

def _library(side):
    if side == "cpaimon":
        import cpaimon as lib
    else:
        import pypaimon as lib
    return lib


def _open_table(lib, warehouse, name):
    return lib.CatalogFactory.create({"warehouse": warehouse}).get_table(name)


def _scan(lib, warehouse, name, projection, mode, on_batch=None):
    """Plans and reads a whole table: mode "stream" hands each batch to `on_batch` and drops it;
    mode "to_arrow" builds one Table. Returns (rows, the Table or None)."""
    table = _open_table(lib, warehouse, name)
    rb = table.new_read_builder()
    if projection:
        rb = rb.with_projection(projection)
    splits = rb.new_scan().plan().splits()
    if mode == "to_arrow":
        result = rb.new_read().to_arrow(splits)
        return result.num_rows, result
    rows = 0
    for b in rb.new_read().to_arrow_batch_reader(splits):
        rows += b.num_rows
        if on_batch:
            on_batch(b)
    return rows, None


def _create_table(lib, warehouse, name, schema):
    import datagen
    shutil.rmtree(warehouse, ignore_errors=True)
    catalog = lib.CatalogFactory.create({"warehouse": warehouse})
    catalog.create_database(name.split(".")[0], True)
    catalog.create_table(name, lib.Schema.from_pyarrow_schema(
        schema, options=dict(datagen.TABLE_OPTIONS)), False)
    return catalog.get_table(name)


def _append(table, batches):
    wb = table.new_batch_write_builder()
    write, commit = wb.new_write(), wb.new_commit()
    for b in batches:
        write.write_arrow(pa.Table.from_batches([b]))
    commit.commit(write.prepare_commit())
    write.close()
    commit.close()


def _table_files(warehouse):
    files = [p for p in pathlib.Path(warehouse).rglob("*.parquet")]
    return len(files), sum(p.stat().st_size for p in files)


def tbl_write(spec, clock):
    import datagen
    lib = _library(spec["side"])
    warehouse, name = spec["warehouse"], spec["table"]
    data = _load_ipc(spec["input"])
    if spec.get("limit_rows"):
        data = data.slice(0, spec["limit_rows"])
    if not spec.get("no_warmup"):
        scratch = warehouse + "_warmup"
        sample = data.slice(0, WARMUP_ROWS)
        _warm_up(lambda: _append(_create_table(lib, scratch, name, data.schema),
                                 sample.to_batches()), sample)
        shutil.rmtree(scratch, ignore_errors=True)
    table = _create_table(lib, warehouse, name, data.schema)
    batches = data.to_batches(max_chunksize=spec.get("chunk_rows", datagen.CHUNK_ROWS))
    clock.start()
    _append(table, batches)
    clock.stop()
    nfiles, nbytes = _table_files(warehouse)
    result = {"rows": data.num_rows, "bytes_out": nbytes, "files_out": nfiles}
    if spec.get("verify"):
        # Read back with the reference reader: checks cpaimon's table is a pypaimon table.
        import pypaimon
        d = common.Digest()
        _scan(pypaimon, warehouse, name, None, "stream", d.add)
        result["digest"] = d.to_json()
    return result


def tbl_scan(spec, clock):
    lib = _library(spec["side"])
    projection, mode = spec.get("projection"), spec["mode"]
    samples = []
    _, warm = _scan(lib, spec["warmup_warehouse"], spec["table"], projection, mode,
                    samples.append)
    _warm_up(lambda: None, samples[0] if samples else warm)
    del samples, warm
    digest = common.Digest()
    on_batch = None
    if spec.get("verify") and mode == "stream":
        def on_batch(b):
            clock.timed_digest(digest, b)
    clock.start()
    rows, result = _scan(lib, spec["warehouse"], spec["table"], projection, mode, on_batch)
    clock.stop()
    if spec.get("verify") and result is not None:
        for b in result.to_batches():
            digest.add(b)
    out = {"rows": rows}
    if spec.get("verify"):
        out["digest"] = digest.to_json()
    return out


OPS = {"pq_write": pq_write, "pq_read": pq_read, "tbl_write": tbl_write, "tbl_scan": tbl_scan}


def main():
    spec = json.loads(sys.argv[1])
    if spec.get("single_threaded", True):
        _single_threaded()
    clock = Clock()
    result = OPS[spec["op"]](spec, clock)
    result.update(seconds=clock.seconds, cpu=clock.cpu, base_rss=clock.base_rss,
                  peak_rss=clock.peak_rss, rss_reset=clock.have_reset)
    print("BENCH_RESULT " + json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
