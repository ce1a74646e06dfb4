"""Turns measured cases into bench/RESULTS.md tables (docs/benchmarks.md, "Reading RESULTS.md").

Only the text between the BEGIN/END markers is generated; whatever surrounds it (the hand-written
"Where the time goes" analysis) is kept when a run rewrites the file.
"""
import datetime
import os
import pathlib
import platform
import re
import subprocess
import sys

import common

BEGIN = "<!-- BEGIN GENERATED RESULTS (bench/run.py rewrites this part) -->"
END = "<!-- END GENERATED RESULTS -->"
SUITE_TITLES = {
    "parquet": "Parquet: cpaimon vs pyarrow, single-threaded (issue 3)",
    "table": "Table core: cpaimon vs pypaimon (issue 4)",
}
DEFAULT_TAIL = """
## Where the time goes

(Not yet written: profile a case with `bench/run.py --profile CASE_ID` and note the hot spots.)
"""


def machine_info(build_dir: pathlib.Path) -> dict:
    info = {"cpus": os.cpu_count(), "kernel": platform.release(),
            "python": platform.python_version()}
    try:
        with open("/proc/cpuinfo") as f:
            info["cpu"] = next(l.split(":", 1)[1].strip() for l in f if l.startswith("model name"))
    except (OSError, StopIteration):
        info["cpu"] = platform.processor() or "unknown"
    try:
        with open("/proc/meminfo") as f:
            info["mem"] = int(f.readline().split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        info["mem"] = None
    import pyarrow
    info["pyarrow"] = pyarrow.__version__
    try:
        from importlib.metadata import version
        info["pypaimon"] = version("pypaimon")
    except Exception:  # pypaimon missing: the table suite reports the failure per case
        info["pypaimon"] = "not installed"
    try:
        info["commit"] = subprocess.run(
            ["git", "-C", str(common.ROOT), "describe", "--always", "--dirty"],
            capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        info["commit"] = "unknown"
    cache = build_dir / "CMakeCache.txt"
    build_type = "unknown"
    if cache.exists():
        m = re.search(r"^CMAKE_BUILD_TYPE:STRING=(.*)$", cache.read_text(), re.M)
        build_type = m.group(1) if m else build_type
    info["build"] = f"{build_dir} ({build_type})"
    return info


def _mbps(nbytes, seconds):
    if not seconds or not nbytes:
        return ""
    return f" ({nbytes / seconds / 1e6:.0f} MB/s)"


def _rss(side):
    if not side.get("ok"):
        return "–"
    return f"{common.fmt_bytes(side['peak_rss'])} (+{common.fmt_bytes(side['delta_rss'])})"


def _ratio(x, fmt="{:.2f}×"):
    return fmt.format(x) if x is not None else "–"


def _time(case, side):
    s = case[side]
    if not s.get("ok"):
        return "FAILED: " + s.get("error", "?").splitlines()[-1][:120].replace("|", "/")
    return (common.fmt_seconds(s["seconds"]) + _mbps(case["arrow_bytes"], s["seconds"])
            + f", CPU {s['cpu']:.2f} s")


def _targets(case) -> str:
    parts = []
    for key, label in (("speed", "speed ≥{t:g}×"), ("rss", "RSS ≤{t:g}×"),
                       ("rss_limit", "Δ RSS < {t}")):
        verdict = case["verdicts"].get(key)
        if verdict is None:
            continue
        t = case["targets"][key]
        t = common.fmt_bytes(t) if key == "rss_limit" else t
        parts.append(label.format(t=t) + (": met" if verdict else ": **missed**"))
    return "; ".join(parts) or "–"


def suite_table(cases) -> str:
    ref = cases[0]["ref_name"]
    lines = [
        f"| operation | data | cpaimon time | {ref} time | speed ratio ({ref}/cpaimon) | "
        "CPU-time ratio | "
        f"cpaimon peak RSS (Δ) | {ref} peak RSS (Δ) | RSS ratio (Δ; peak) | target | "
        "check | machine load |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for c in cases:
        rss = "–"
        if c["rss_ratio_delta"] is not None:
            rss = f"{c['rss_ratio_delta']:.2f}×; {c['rss_ratio_peak']:.2f}×"
        lines.append(" | ".join([
            "", c["operation"], c["data"], _time(c, "cp"), _time(c, "ref"),
            _ratio(c["speed_ratio"]), _ratio(c.get("cpu_ratio")), _rss(c["cp"]), _rss(c["ref"]),
            rss, _targets(c),
            c["check"], f"{c['load']:.1f}", ""]).strip())
    return "\n".join(lines)


def render(results: dict) -> str:
    m = results["machine"]
    out = [BEGIN, "",
           f"Run {results['started']} – {results['finished']}, mode **{results['mode']}**, "
           f"{results['repeat']} run(s) per side per case, median reported.",
           "",
           f"Command: `{results['command']}`",
           "",
           f"Machine: {m['cpu']}, {m['cpus']} CPUs, {common.fmt_bytes(m['mem'])} RAM, Linux "
           f"{m['kernel']}; Python {m['python']}, pyarrow {m['pyarrow']}, pypaimon "
           f"{m['pypaimon']}; cpaimon {m['commit']} from {m['build']}. Load average at start "
           f"{results['load_start']:.1f}, at end {results['load_end']:.1f} (the machine is "
           "shared: the load column is the 1-minute load when the case started).",
           "",
           "How to read: times are wall-clock seconds of the operation alone (interpreter start, "
           "imports, input loading and a warm-up on a small input excluded), MB/s over the "
           "uncompressed Arrow size, CPU = user + system seconds of all the process's threads. "
           "Speed ratio = reference time / cpaimon time (above 1: cpaimon is faster); the "
           "CPU-time ratio is the same on CPU seconds, steadier when the machine is busy. "
           "Targets are judged on the wall-clock ratio. Peak RSS is the "
           "process's high-water mark during the operation, Δ its growth over the RSS at the "
           "start of the operation (interpreter, libraries and, for writes, the input table); "
           "the RSS ratio is cpaimon / reference, first on Δ then on the peak. `check` says "
           "whether both sides produced the expected data (digests, see docs/benchmarks.md).",
           ""]
    for suite in results["suites"]:
        cases = [c for c in results["cases"] if c["suite"] == suite]
        if not cases:
            continue
        out += [f"## {SUITE_TITLES.get(suite, suite)}", "", suite_table(cases), ""]
        notes = sorted({c["note"] for c in cases if c["note"]})
        if notes:
            out += ["Data: " + "; ".join(notes) + ".", ""]
        for line in results.get("suite_notes", {}).get(suite, []):
            out += [line, ""]
    out.append(END)
    return "\n".join(out)


HEADER = ("# cpaimon benchmark results\n\nThe latest `make bench` run (see docs/benchmarks.md "
          "for what each case does and how to run them).\n\n")


def write(path: pathlib.Path, results: dict):
    """Replaces the generated block of `path`, keeping everything around it (the hand-written
    analysis, and sections other benchmarks maintain in the same file). A file without the
    block gets it after its title; a missing file is created."""
    block = render(results)
    text = path.read_text() if path.exists() else ""
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        path.write_text(head + block + rest.split(END, 1)[1])
        return
    body = text
    if body.startswith("# "):
        body = body.split("\n", 1)[1] if "\n" in body else ""
    tail = DEFAULT_TAIL if "## Where the time goes" not in body else ""
    path.write_text(HEADER + block + "\n" + tail + ("\n" + body.lstrip("\n") if body else ""))


def now() -> str:
    return datetime.datetime.now().strftime("%Y-%m-%d %H:%M")


def command_line() -> str:
    return " ".join([pathlib.Path(sys.executable).name, *sys.argv])
