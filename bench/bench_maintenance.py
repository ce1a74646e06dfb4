#!/usr/bin/env python3
"""Table maintenance benchmark (issue 16): snapshot expiration and orphan-file removal, cpaimon vs
Java Paimon 1.4.2 (tests/java paimon-tool), each on its own byte-identical copy of one table.

    bench/bench_maintenance.py [--snapshots N] [--orphans N] [--work DIR] [--no-results]

Cases:
  expire   a table of N one-row append snapshots (written by cpaimon); expire all but the last 10
           (retain_max = retain_min = 10, everything older than now, no per-run limit)
  orphans  the same table plus N stray data files (aged two days) in its bucket directory;
           remove the orphans (older than a day)
cpaimon runs in a fresh Python process (wall time of the call, peak RSS VmHWM); Java runs in a
fresh JVM through paimon-tool (wall time of the whole process, JVM start included, and its peak
RSS from getrusage). pypaimon has neither operation. Results go to bench/RESULTS.md under
"## Maintenance" (the section is replaced, the rest kept).
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
import uuid

BENCH = pathlib.Path(__file__).resolve().parent
ROOT = BENCH.parent
JAR = ROOT / "tests" / "java" / "target" / "paimon-tool.jar"

CPAIMON_EXPIRE = """
import json, sys, time
import cpaimon
t = cpaimon.CatalogFactory.create({"warehouse": sys.argv[1]}).get_table("db.t")
start = time.perf_counter()
n = t.expire_snapshots(retain_max=10, retain_min=10, older_than_millis=int(sys.argv[2]),
                       max_deletes=2**31 - 1)
seconds = time.perf_counter() - start
rss = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(json.dumps({"seconds": seconds, "rss_mib": rss / 1024, "count": n}))
"""

CPAIMON_ORPHANS = """
import json, sys, time
import cpaimon
t = cpaimon.CatalogFactory.create({"warehouse": sys.argv[1]}).get_table("db.t")
start = time.perf_counter()
r = t.remove_orphan_files(older_than_millis=int(sys.argv[2]))
seconds = time.perf_counter() - start
rss = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(json.dumps({"seconds": seconds, "rss_mib": rss / 1024, "count": r.deleted_file_count}))
"""


def build(warehouse, snapshots):
    import pyarrow as pa
    import cpaimon
    c = cpaimon.CatalogFactory.create({"warehouse": str(warehouse)})
    c.create_database("db", True)
    c.create_table("db.t", cpaimon.Schema.from_pyarrow_schema(
        pa.schema([("id", pa.int64()), ("v", pa.string())]),
        options={"row-tracking.enabled": "true"}))
    t = c.get_table("db.t")
    for i in range(snapshots):
        wb = t.new_batch_write_builder()
        w, cm = wb.new_write(), wb.new_commit()
        w.write_arrow(pa.table({"id": pa.array([i], pa.int64()), "v": [f"v{i}"]}))
        cm.commit(w.prepare_commit())


def run_cpaimon(script, warehouse, arg):
    env = dict(os.environ, CPAIMON_BUILD=os.environ.get("CPAIMON_BUILD", str(ROOT / "build")))
    out = subprocess.run([sys.executable, "-c", script, str(warehouse), str(arg)], env=env,
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def run_java(*args):
    """One paimon-tool process: its wall time and its own peak RSS (wait4's rusage)."""
    start = time.perf_counter()
    proc = subprocess.Popen(["java", "-jar", str(JAR), *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    assert proc.returncode == 0, args
    return {"seconds": seconds, "rss_mib": usage.ru_maxrss / 1024, "out": out.strip()}


def add_orphans(warehouse, n):
    bucket = warehouse / "db.db" / "t" / "bucket-0"
    past = time.time() - 2 * 86400
    for _ in range(n):
        p = bucket / f"data-{uuid.uuid4()}-0.parquet"
        p.write_bytes(b"PAR1")
        os.utime(p, (past, past))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--snapshots", type=int, default=10_000)
    ap.add_argument("--orphans", type=int, default=100_000)
    ap.add_argument("--work", default=None)
    ap.add_argument("--no-results", action="store_true")
    args = ap.parse_args()
    work = pathlib.Path(args.work or tempfile.mkdtemp(prefix="cpaimon-bench-maint-"))
    base = work / "base"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    t0 = time.perf_counter()
    build(base, args.snapshots)
    build_s = time.perf_counter() - t0
    print(f"built {args.snapshots} snapshots in {build_s:.1f} s", flush=True)
    results = {}

    now = int(time.time() * 1000) + 1000
    mine, theirs = work / "expire-cpaimon", work / "expire-java"
    shutil.copytree(base, mine)
    shutil.copytree(base, theirs)
    c = run_cpaimon(CPAIMON_EXPIRE, mine, now)
    j = run_java("history", theirs, "db.t", "--op", "expire", "--retain-max", 10,
                 "--retain-min", 10, "--older-than-ms", now)
    assert c["count"] == int(j["out"]) == args.snapshots - 10, (c, j)
    results["expire"] = {"cpaimon": c, "java": j, "what": f"{c['count']:,} snapshots"}
    print("expire", results["expire"], flush=True)
    shutil.rmtree(mine)
    shutil.rmtree(theirs)

    add_orphans(base, args.orphans)
    mine, theirs = work / "orphans-cpaimon", work / "orphans-java"
    shutil.copytree(base, mine)
    shutil.copytree(base, theirs)
    total = sum(len(f) for _, _, f in os.walk(mine))
    cut = int((time.time() - 86400) * 1000)
    c = run_cpaimon(CPAIMON_ORPHANS, mine, cut)
    j = run_java("history", theirs, "db.t", "--op", "remove-orphans", "--older-than-ms", cut)
    assert c["count"] == json.loads(j["out"])["count"] == args.orphans, (c, j)
    results["orphans"] = {"cpaimon": c, "java": j,
                          "what": f"{args.orphans:,} orphans among {total:,} files"}
    print("orphans", results["orphans"], flush=True)
    shutil.rmtree(work, ignore_errors=True)
    if not args.no_results:
        write_results(results, args, build_s)


def write_results(results, args, build_s):
    from common import write_results_section
    lines = ["## Maintenance\n",
             f"`bench/bench_maintenance.py --snapshots {args.snapshots} --orphans {args.orphans}` "
             f"(2 cores, local disk). One table of {args.snapshots:,} one-row append snapshots "
             f"written by cpaimon ({build_s:.0f} s to build); each side works on its own copy. "
             "Java's times are a whole paimon-tool process (JVM start included, about 1 s).\n",
             "| case | work | cpaimon s | Java s | ratio | cpaimon peak RSS MiB | Java peak RSS MiB |",
             "|---|---|---:|---:|---:|---:|---:|"]
    for name, r in results.items():
        c, j = r["cpaimon"], r["java"]
        lines.append(f"| {name} | {r['what']} | {c['seconds']:.2f} | {j['seconds']:.2f} | "
                     f"{j['seconds'] / c['seconds']:.1f}x | {c['rss_mib']:.0f} | "
                     f"{j['rss_mib']:.0f} |")
    write_results_section(lines)


if __name__ == "__main__":
    main()
