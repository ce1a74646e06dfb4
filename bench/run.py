#!/usr/bin/env python3
"""cpaimon benchmarks against pyarrow and pypaimon: the entry point of `make bench`.

    bench/run.py                      # every suite at the sizes the issues ask for, 3 runs each
    bench/run.py --quick              # smoke run: 1/16 of the data, 1 run each, about 2 minutes
    bench/run.py --suite table --cases 'scan' --repeat 5
    bench/run.py --list               # the case ids
    bench/run.py --profile table.write --side cpaimon   # where the time goes (perf or callgrind)

Each figure is taken in a fresh process per side and run (worker.py), on data generated once with
a fixed seed (datagen.py) and shared by both sides; results go to bench/RESULTS.md (full runs) or
<data-dir>/RESULTS-quick.md (quick runs), raw figures to <data-dir>/results-<mode>.json. See
docs/benchmarks.md.
"""
import argparse
import json
import os
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

BENCH = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import common  # noqa: E402
import datagen  # noqa: E402
import report  # noqa: E402
import suites  # noqa: E402

SUITES = ["parquet", "table"]


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--suite", action="append", choices=SUITES + ["all"],
                   help="suite to run (repeatable; default: all)")
    p.add_argument("--quick", action="store_true",
                   help="1/16 of the data and one run per side: a smoke run of about 2 minutes")
    p.add_argument("--scale", type=float, default=1.0,
                   help="multiply every data set's rows by this (e.g. 0.5 on a small machine)")
    p.add_argument("--repeat", type=int, help="runs per side per case (default 3, quick 1)")
    p.add_argument("--cases", help="only cases whose id matches this regular expression")
    p.add_argument("--list", action="store_true", help="list the case ids and exit")
    p.add_argument("--build", type=pathlib.Path, default=common.default_build_dir(),
                   help="cpaimon build directory (default: $CPAIMON_BUILD or <repo>/build)")
    p.add_argument("--data-dir", type=pathlib.Path,
                   help="where data and outputs go (default: <build>/bench-data[-quick])")
    p.add_argument("--results", type=pathlib.Path,
                   help="Markdown results file (default: bench/RESULTS.md; quick runs: "
                        "<data-dir>/RESULTS-quick.md)")
    p.add_argument("--timeout", type=float, default=1800,
                   help="seconds one run may take before it is killed and reported (default 1800)")
    p.add_argument("--no-verify", action="store_true",
                   help="skip the digest checks of what each side wrote and read")
    p.add_argument("--profile", metavar="CASE_ID",
                   help="run one side of one case under a profiler and print the hot spots")
    p.add_argument("--side", choices=["cpaimon", "ref"], default="cpaimon",
                   help="the side --profile runs (default cpaimon)")
    p.add_argument("--profiler", choices=["perf", "callgrind"],
                   help="default: perf when it works, else valgrind --tool=callgrind")
    args = p.parse_args(argv)
    args.suites = SUITES if not args.suite or "all" in args.suite else \
        [s for s in SUITES if s in args.suite]
    if args.repeat is None:
        args.repeat = 1 if args.quick else 3
    if args.repeat < 1:
        p.error("--repeat must be at least 1")
    if args.data_dir is None:
        args.data_dir = args.build / ("bench-data-quick" if args.quick else "bench-data")
    if args.results is None:
        args.results = args.data_dir / "RESULTS-quick.md" if args.quick else \
            BENCH / "RESULTS.md"
    return args


def log(msg):
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", flush=True)


# ---- running one worker ----

def worker_env(build: pathlib.Path, single_threaded: bool) -> dict:
    env = dict(os.environ, CPAIMON_BUILD=str(build), **common.WORKER_ENV)
    if single_threaded:
        env.update(common.SINGLE_THREAD_ENV)
    env["PYTHONPATH"] = os.pathsep.join(
        [str(BENCH), str(common.ROOT / "python"), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


def run_worker(spec: dict, build: pathlib.Path, timeout: float, prefix=()) -> dict:
    """Runs worker.py on `spec` in a fresh process; returns its result plus the process's
    lifetime peak RSS (from wait4), or {"ok": False, "error": ...}."""
    cmd = [*prefix, sys.executable, str(BENCH / "worker.py"), json.dumps(spec)]
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err:
        proc = subprocess.Popen(cmd, stdout=out, stderr=err,
                                env=worker_env(build, spec.get("single_threaded", True)))
        deadline = time.monotonic() + timeout
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() > deadline:
                proc.kill()
                os.wait4(proc.pid, 0)
                proc.returncode = -9
                return {"ok": False, "error": f"timed out after {timeout:.0f} s"}
            time.sleep(0.02)
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read(), err.read()
    lines = [l for l in stdout.splitlines() if l.startswith("BENCH_RESULT ")]
    if proc.returncode != 0 or not lines:
        tail = (stderr.strip() or stdout.strip() or f"exit status {proc.returncode}")
        return {"ok": False, "error": "\n".join(tail.splitlines()[-6:])}
    result = json.loads(lines[-1][len("BENCH_RESULT "):])
    result["ok"] = True
    result["lifetime_peak_rss"] = usage.ru_maxrss * 1024
    result["delta_rss"] = max(0, result["peak_rss"] - result["base_rss"])
    return result


# ---- preparing inputs that depend on the cpaimon build ----

class Preparer:
    """Makes each build-dependent input once per run (several cases share one)."""

    def __init__(self, args):
        self.args = args
        self.done = {}

    def _once(self, key, spec, what):
        def prepare():
            if key not in self.done:
                log(f"preparing {what}")
                r = run_worker(spec, self.args.build, self.args.timeout)
                self.done[key] = r
            r = self.done[key]
            if not r["ok"]:
                raise RuntimeError(f"preparing {what} failed: {r['error']}")
        return prepare

    def cp_file(self, input_path, out, codec, row_type):
        src = input_path or str(pathlib.Path(self.args.data_dir) / "ref_wide_zstd.parquet")
        spec = {"op": "pq_write", "side": "cpaimon", "input": src, "out": out, "codec": codec,
                "row_type": row_type}
        return self._once(out, spec, f"{pathlib.Path(out).name} (written by cpaimon)")

    def scan_table(self, input_path, warehouse, warmup_warehouse):
        spec = {"op": "tbl_write", "side": "pypaimon", "input": input_path, "no_warmup": True,
                "table": suites.TABLE_NAME}
        table = self._once(warehouse, dict(spec, warehouse=warehouse),
                           "the scan table (written by pypaimon)")
        warmup = self._once(warmup_warehouse, dict(spec, warehouse=warmup_warehouse,
                                                   limit_rows=1000),
                            "the warm-up table (written by pypaimon)")

        def prepare():
            table()
            warmup()
        return prepare


# ---- measuring a case ----

def median_side(runs, verify_run=None):
    """The medians of a side's runs; the digest comes from `verify_run` when given."""
    if verify_run is not None and not verify_run.get("ok"):
        return {"ok": False, "error": "verification run: " + verify_run.get("error", "?")}
    if not runs:
        return {"ok": False, "error": "no run"}
    failed = [r for r in runs if not r.get("ok")]
    if failed:  # one crash in three runs is a bug, not noise
        return {"ok": False, "runs": runs, "error": f"{len(failed)} of {len(runs)} runs failed: "
                + failed[0].get("error", "?")}
    ok = runs
    side = {"ok": True, "runs": runs}
    for k in ("seconds", "cpu", "peak_rss", "delta_rss", "base_rss", "lifetime_peak_rss"):
        side[k] = statistics.median(r[k] for r in ok)
    for k in ("rows", "bytes_in", "bytes_out", "files_out"):
        if k in ok[0]:
            side[k] = ok[0][k]
    digests = [r["digest"] for r in [verify_run or {}] + ok if "digest" in r]
    if digests:
        side["digest"] = digests[0]
    return side


def check_case(case, cp, ref) -> str:
    """'ok' when both sides produced the same, expected data; 'ok (rows)' when only row counts
    could be compared (--no-verify); otherwise what went wrong."""
    if not (cp.get("ok") and ref.get("ok")):
        return "failed"
    problems = []
    if cp.get("rows") != ref.get("rows"):
        problems.append(f"rows {cp.get('rows')} vs {ref.get('rows')}")
    verified = "digest" in cp and "digest" in ref
    if verified:
        cols = case.digest_columns
        if case.expected_digest:
            for name, side in (("cpaimon", cp), (case.ref_name, ref)):
                diff = common.compare_digests(side["digest"], case.expected_digest, cols)
                if diff:
                    problems.append(f"{name}: {diff}")
        diff = common.compare_digests(cp["digest"], ref["digest"], cols or list(ref["digest"]))
        if diff:
            problems.append(f"cpaimon vs {case.ref_name}: {diff}")
    if problems:
        return "MISMATCH: " + "; ".join(problems)
    return "ok" if verified else "ok (rows)"


def data_label(case, cp, ref) -> str:
    """The case's data plus the sizes of the files read or written."""
    label = case.data
    if "file" not in label and cp.get("bytes_in"):
        label += f", {common.fmt_bytes(cp['bytes_in'])} file"
    if cp.get("bytes_out") and ref.get("bytes_out"):
        files = ""
        if cp.get("files_out"):
            files = f" in {cp['files_out']} / {ref['files_out']} files"
        label += (f"; written: {common.fmt_bytes(cp['bytes_out'])} cpaimon, "
                  f"{common.fmt_bytes(ref['bytes_out'])} {case.ref_name}{files}")
    return label


def measure(case, args) -> dict:
    load = os.getloadavg()[0]
    cp_runs, ref_runs = [], []
    error = None
    if case.prepare:
        try:
            case.prepare()
        except RuntimeError as e:
            error = str(e)
    # Streaming reads digest each batch as it arrives, which would disturb their time and
    # memory, so they are verified in runs of their own; other cases digest after the clock
    # stopped, in their first measured run.
    separate = case.cp.get("mode") == "stream"
    verify_runs = {}
    if error is None and separate and not args.no_verify:
        for key, spec in (("cp", case.cp), ("ref", case.ref)):
            verify_runs[key] = run_worker(dict(spec, verify=True), args.build, args.timeout)
    for rep in range(args.repeat if error is None else 0):
        verify = rep == 0 and not args.no_verify and not separate
        order = [(case.cp, cp_runs), (case.ref, ref_runs)]
        if rep % 2:
            order.reverse()  # alternate who goes first, so drift in machine load evens out
        for spec, runs in order:
            runs.append(run_worker(dict(spec, verify=verify), args.build, args.timeout))
    if error is None:
        cp = median_side(cp_runs, verify_runs.get("cp"))
        ref = median_side(ref_runs, verify_runs.get("ref"))
    else:
        cp = ref = {"ok": False, "error": error}
    res = {"id": case.id, "suite": case.suite, "operation": case.operation, "data": case.data,
           "ref_name": case.ref_name, "arrow_bytes": case.arrow_bytes, "note": case.note,
           "load": load, "cp": cp, "ref": ref, "targets": {}, "verdicts": {},
           "speed_ratio": None, "rss_ratio_delta": None, "rss_ratio_peak": None}
    res["check"] = check_case(case, cp, ref) if error is None else "failed"
    res["data"] = data_label(case, cp, ref)
    if cp.get("ok") and ref.get("ok"):
        res["speed_ratio"] = ref["seconds"] / cp["seconds"] if cp["seconds"] > 0 else None
        res["cpu_ratio"] = ref["cpu"] / cp["cpu"] if cp["cpu"] > 0 else None
        if ref["delta_rss"] > 0:
            res["rss_ratio_delta"] = cp["delta_rss"] / ref["delta_rss"]
            res["rss_ratio_peak"] = cp["peak_rss"] / ref["peak_rss"]
        if case.speed_target is not None and res["speed_ratio"] is not None:
            res["targets"]["speed"] = case.speed_target
            res["verdicts"]["speed"] = res["speed_ratio"] >= case.speed_target
        if case.rss_target is not None and res["rss_ratio_delta"] is not None:
            res["targets"]["rss"] = case.rss_target
            res["verdicts"]["rss"] = res["rss_ratio_delta"] <= case.rss_target
    if case.rss_limit is not None and cp.get("ok"):
        res["targets"]["rss_limit"] = case.rss_limit
        res["verdicts"]["rss_limit"] = cp["delta_rss"] < case.rss_limit
    return res


def summary_line(r) -> str:
    def side(s):
        if not s.get("ok"):
            return "FAILED"
        return f"{s['seconds']:.3f}s {common.fmt_bytes(s['peak_rss'])}"
    ratio = f"{r['speed_ratio']:.2f}x" if r["speed_ratio"] else "-"
    missed = [k for k, v in r["verdicts"].items() if not v]
    flag = f" MISSED {','.join(missed)}" if missed else ""
    return (f"{r['id']}: cpaimon {side(r['cp'])} | {r['ref_name']} {side(r['ref'])} | "
            f"ratio {ratio} | {r['check']}{flag}")


# ---- the run ----

def build_cases(args, manifest, work):
    prep = Preparer(args)
    cases = []
    if "parquet" in args.suites:
        cases += suites.parquet_cases(manifest, work, prep.cp_file)
    if "table" in args.suites:
        cases += suites.table_cases(manifest, work, prep.scan_table)
    if args.cases:
        cases = [c for c in cases if re.search(args.cases, c.id)]
    return cases


def check_build(build: pathlib.Path):
    if not list((build / "python").glob("_cpaimon*.so")):
        sys.exit(f"bench: cpaimon's Python module is not built in {build / 'python'}; run "
                 "`make build` (or pass --build DIR)")


def suite_notes(args, manifest) -> dict:
    notes = {}
    if "parquet" in args.suites:
        w = manifest["sets"]["wide"]
        notes["parquet"] = [
            "Settings: pyarrow writes as pypaimon does (zstd level 1 or uncompressed, "
            "dictionary on, data page v1, default row groups and page size); cpaimon with its "
            "defaults (the same codec and level, dictionary on, 1 MiB pages, 1 Mi-row row "
            "groups). Both single-threaded: `pa.set_cpu_count(1)`, `use_threads=False`. Reads "
            "of a whole file materialize one Table (`pq.read_table` / `read_parquet(...)"
            ".read_all()`); the 20-column projections stream 64 Ki-row batches "
            "(`ParquetFile.iter_batches` / the `read_parquet` stream) and keep none.",
            f"The 20-column file: {common.fmt_rows(w['rows'])} rows, "
            f"{common.fmt_bytes(w['file_bytes'])} of Parquet (zstd, 1 Mi-row row groups, "
            "written by pyarrow as pypaimon would), 8 int64, 8 double, 2 short and 2 long string "
            "columns; the MB/s of a projection are over the projected column's Arrow size.",
        ]
    if "table" in args.suites:
        notes["table"] = [
            "Both sides through their Python APIs: `write_arrow` of 1 Mi-row tables then one "
            "`prepare_commit` + `commit` into a fresh table with `row-tracking.enabled` and "
            "`data-evolution.enabled`; scans plan splits and read them with "
            "`to_arrow_batch_reader` (consumed batch by batch) or `to_arrow`. Each library uses "
            "its own default threading (pyarrow's pools at their defaults for pypaimon; the CPU "
            "column shows whether a side used more than one core). Scans read one table "
            "written by pypaimon. Write verification reads the written table back with "
            "pypaimon.",
        ]
    return notes


def main(argv=None):
    args = parse_args(argv)
    if args.list:
        manifest = suites.stub_manifest(suites.scale_for(args.quick, args.scale))
        for case in build_cases(args, manifest, args.data_dir / "work"):
            print(f"{case.id:45} {case.operation}")
        return 0
    check_build(args.build)
    if args.profile:
        import profile_case
        return profile_case.main(args)
    started = report.now()
    load_start = os.getloadavg()[0]
    scale = suites.scale_for(args.quick, args.scale)
    log(f"data in {args.data_dir}; rows {json.dumps(scale)}")
    manifest = datagen.generate(args.data_dir, scale, args.suites, log)
    work = args.data_dir / "work"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    cases = build_cases(args, manifest, work)
    log(f"{len(cases)} cases, {args.repeat} run(s) per side")
    results = []
    for case in cases:
        r = measure(case, args)
        log(summary_line(r))
        results.append(r)
    out = {"started": started, "finished": report.now(), "mode": "quick" if args.quick else
           ("full" if args.scale == 1.0 else f"scale {args.scale:g}"),
           "repeat": args.repeat, "command": report.command_line(),
           "machine": report.machine_info(args.build), "load_start": load_start,
           "load_end": os.getloadavg()[0], "suites": args.suites, "cases": results,
           "suite_notes": suite_notes(args, manifest)}
    raw = args.data_dir / f"results-{'quick' if args.quick else 'full'}.json"
    raw.write_text(json.dumps(out, indent=1))
    report.write(args.results, out)
    log(f"results: {args.results} (raw figures: {raw})")
    failed = [r["id"] for r in results if r["check"] not in ("ok", "ok (rows)")]
    if failed:
        log(f"cases that failed or produced wrong data: {', '.join(failed)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
