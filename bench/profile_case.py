"""`bench/run.py --profile CASE_ID`: runs one side of one case under a profiler and prints where
the time goes (docs/benchmarks.md, "Profiling a case").

perf (sampling, user space only, which perf_event_paranoid <= 2 allows) is used when it works: the
flat profile by symbol, then the inclusive time of cpaimon's own functions from DWARF call graphs.
Otherwise valgrind --tool=callgrind, which is ~50x slower: profile with --quick or a small
--scale. The worker is the same one the measurements use, so the profile is of exactly the
measured operation: under perf, sampling is switched on and off by the worker's clock, so
interpreter start-up, imports, input loading and warm-up are left out.
"""
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import datagen
import run
import suites


def _perf_works() -> bool:
    if not shutil.which("perf"):
        return False
    probe = subprocess.run(["perf", "stat", "-e", "task-clock", "true"], capture_output=True)
    return probe.returncode == 0


def _top_lines(text: str, limit: int):
    rows = [l for l in text.splitlines() if l.strip() and not l.lstrip().startswith("#")]
    return rows[:limit]


def _perf(spec, args, outdir: pathlib.Path):
    data = outdir / "perf.data"
    ctl, ack = outdir / "ctl.fifo", outdir / "ack.fifo"
    os.mkfifo(ctl)
    os.mkfifo(ack)
    # Events start disabled; the worker enables them for the measured operation only.
    os.environ.update(BENCH_PERF_CTL=str(ctl), BENCH_PERF_ACK=str(ack))
    try:
        r = run.run_worker(spec, args.build, args.timeout,
                           prefix=["perf", "record", "-q", "-F", "999", "--call-graph",
                                   "dwarf,32768", "-D", "-1", f"--control=fifo:{ctl},{ack}",
                                   "-o", str(data), "--"])
    finally:
        del os.environ["BENCH_PERF_CTL"], os.environ["BENCH_PERF_ACK"]
    if not r["ok"]:
        sys.exit(f"profiled run failed: {r['error']}")
    print(f"operation: {r['seconds']:.3f} s, peak RSS {r['peak_rss'] >> 20} MB "
          f"(perf data: {data})\n")
    dsos = subprocess.run(["perf", "report", "-i", str(data), "--no-children", "--stdio",
                           "--sort", "dso", "-g", "none", "--percent-limit", "1"],
                          capture_output=True, text=True).stdout
    print("== self time by shared object ==")
    print("\n".join(_top_lines(dsos, 12)) + "\n")
    flat = subprocess.run(["perf", "report", "-i", str(data), "--no-children", "--stdio",
                           "--sort", "dso,symbol", "-g", "none", "--percent-limit", "0.5"],
                          capture_output=True, text=True).stdout
    print("== self time by symbol (top 30) ==")
    print("\n".join(_top_lines(flat, 30)))
    incl = subprocess.run(["perf", "report", "-i", str(data), "--children", "--stdio",
                           "--sort", "symbol", "-g", "none", "--percent-limit", "1"],
                          capture_output=True, text=True).stdout
    ours = [l for l in _top_lines(incl, 400) if " cp_" in l or " paimon_" in l or "py_" in l]
    print("\n== inclusive time of cpaimon functions (top 30) ==")
    print("\n".join(ours[:30]))


def _callgrind(spec, args, outdir: pathlib.Path):
    out = outdir / "callgrind.out"
    r = run.run_worker(spec, args.build, args.timeout * 50,
                       prefix=["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}"])
    if not r["ok"]:
        sys.exit(f"profiled run failed: {r['error']}")
    ann = subprocess.run(["callgrind_annotate", "--inclusive=no", str(out)],
                         capture_output=True, text=True).stdout
    print(f"== self cost by function (callgrind: {out}) ==")
    print("\n".join(ann.splitlines()[:60]))


def main(args) -> int:
    scale = suites.scale_for(args.quick, args.scale)
    manifest = datagen.generate(args.data_dir, scale, args.suites, run.log)
    work = args.data_dir / "work"
    work.mkdir(parents=True, exist_ok=True)
    cases = [c for c in run.build_cases(args, manifest, work) if c.id == args.profile]
    if not cases:
        sys.exit(f"no case {args.profile!r} (see --list)")
    case = cases[0]
    if case.prepare:
        case.prepare()
    spec = dict(case.cp if args.side == "cpaimon" else case.ref, verify=False)
    outdir = pathlib.Path(tempfile.mkdtemp(prefix="cpaimon-profile-", dir=args.data_dir))
    profiler = args.profiler or ("perf" if _perf_works() else "callgrind")
    print(f"profiling {case.id} ({args.side}: {spec['side']}) with {profiler}")
    (_perf if profiler == "perf" else _callgrind)(spec, args, outdir)
    return 0
