"""Tests of the benchmark harness (bench/, docs/benchmarks.md): the digests that check both sides'
data, the deterministic data generator, the report's preserved hand-written part, failure
reporting, and a tiny end-to-end run. Speed is never asserted here; only that the harness
measures the right thing and notices wrong data."""
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pyarrow as pa
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))
# The harness's modules have plain names (bench/ is a directory of scripts, not a package): make
# sure a same-named module imported earlier in the session is not taken for them.
for _name in ("common", "datagen", "report", "run", "suites"):
    _file = getattr(sys.modules.get(_name), "__file__", None)
    if _name in sys.modules and (not _file or pathlib.Path(_file).parent != ROOT / "bench"):
        del sys.modules[_name]

import common  # noqa: E402
import datagen  # noqa: E402
import report  # noqa: E402
import run  # noqa: E402
import suites  # noqa: E402

BUILD = pathlib.Path(os.environ.get("CPAIMON_BUILD", ROOT / "build"))


def sample_table():
    return pa.table({
        "i": pa.array([1, None, -3, 2**62, 0], pa.int64()),
        "f": pa.array([1.5, -0.0, None, float("inf"), 2.25], pa.float64()),
        "s": pa.array(["a", None, "", "héllo", "z" * 300]),
        "l": pa.array([[1.0, 2.0], None, [], [float("nan")], [3.0]], pa.list_(pa.float32())),
        "b": pa.array([True, False, None, True, True]),
        "t": pa.array([0, 1, None, -5, 10**15], pa.timestamp("us")),
        "i32": pa.array([1, 2, 3, None, -1], pa.int32()),
    })


def test_digest_is_independent_of_batching_and_row_order():
    t = sample_table()
    whole = common.digest_table(t)
    d = common.Digest()
    for b in t.to_batches(max_chunksize=2):
        d.add(b)
    assert d.to_json() == whole
    shuffled = t.take(pa.array([4, 2, 0, 3, 1]))
    assert common.digest_table(shuffled) == whole
    assert whole["i"][:2] == [5, 1]  # rows, nulls
    assert whole["s"][2] == 1 + 0 + len("héllo".encode()) + 300  # bytes of the non-null values


@pytest.mark.parametrize("column,index,value", [
    ("i", 0, 2), ("f", 1, 0.0), ("s", 3, "hello"), ("l", 0, [1.0, 2.5]), ("b", 1, True),
    ("t", 0, 7), ("i32", 4, None), ("s", 1, ""),
])
def test_digest_notices_one_changed_value(column, index, value):
    t = sample_table()
    values = t.column(column).to_pylist()
    values[index] = value
    changed = t.set_column(t.schema.get_field_index(column), column,
                           pa.array(values, t.schema.field(column).type))
    before, after = common.digest_table(t), common.digest_table(changed)
    assert before[column] != after[column]
    assert common.compare_digests(after, before) != ""
    assert all(before[c] == after[c] for c in t.column_names if c != column)


def test_digest_sees_slices_correctly():
    arr = pa.array(["xx", "yyy", None, "z"])
    assert common.column_digest(arr.slice(1, 2)) == common.column_digest(pa.array(["yyy", None]))
    nums = pa.array(np.arange(10, dtype=np.int64))
    assert common.column_digest(nums.slice(3, 4))[2] == 3 + 4 + 5 + 6


def test_compare_digests_reports_missing_columns():
    assert common.compare_digests({"a": [1, 0, 0, 0]}, {"a": [1, 0, 0, 0]}) == ""
    assert "missing" in common.compare_digests({}, {"a": [1, 0, 0, 0]})
    assert "b" in common.compare_digests({"a": [1, 0, 0, 0]}, {"a": [1, 0, 0, 0], "b": [0] * 4})


def test_data_generation_is_deterministic():
    for name, spec in datagen.PARQUET_SETS.items():
        gen = datagen.GENERATORS[name]
        a = gen(np.random.default_rng([datagen.SEED, spec["num"], 0]), 500, spec["num"])
        b = gen(np.random.default_rng([datagen.SEED, spec["num"], 0]), 500, spec["num"])
        c = gen(np.random.default_rng([datagen.SEED, spec["num"], 1]), 500, spec["num"])
        assert a.equals(b), name
        assert not a.equals(c), name
        assert len(a) == 500
    t1, t2 = datagen.table_chunk(0, 0, 300), datagen.table_chunk(0, 0, 300)
    assert t1.equals(t2) and t1.schema == datagen.TABLE_SCHEMA
    assert t1.column("id").to_pylist() == list(range(300))


def test_long_strings_have_the_promised_shape():
    arr = datagen.gen_long_string(np.random.default_rng(7), 2000, 4)
    lengths = [len(s) for s in arr.to_pylist() if s is not None]
    assert min(lengths) >= 100 and max(lengths) <= 500
    assert 0 < arr.null_count < 100
    emb = datagen.gen_embedding(np.random.default_rng(7), 10, 5)
    assert all(len(v) == 128 for v in emb.to_pylist())


def test_report_keeps_the_hand_written_part(tmp_path):
    results = {"started": "s", "finished": "f", "mode": "quick", "repeat": 1, "command": "c",
               "machine": {"cpu": "x", "cpus": 2, "mem": 1 << 30, "kernel": "k", "python": "3",
                           "pyarrow": "p", "pypaimon": "q", "commit": "abc", "build": "b"},
               "load_start": 1.0, "load_end": 2.0, "suites": [], "cases": []}
    path = tmp_path / "RESULTS.md"
    report.write(path, results)
    text = path.read_text()
    assert report.BEGIN in text and "Where the time goes" in text
    path.write_text(text.replace("(Not yet written", "HAND-WRITTEN NOTE (Not yet written"))
    results["mode"] = "full"
    report.write(path, results)
    text = path.read_text()
    assert "HAND-WRITTEN NOTE" in text and "mode **full**" in text and "quick" not in text


def test_check_case_flags_wrong_data():
    case = type("C", (), {"digest_columns": None, "expected_digest": {"a": [2, 0, 3, 0]},
                          "ref_name": "pyarrow"})()
    good = {"ok": True, "rows": 2, "digest": {"a": [2, 0, 3, 0]}}
    bad = {"ok": True, "rows": 2, "digest": {"a": [2, 0, 4, 0]}}
    assert run.check_case(case, good, dict(good)) == "ok"
    verdict = run.check_case(case, bad, good)
    assert verdict.startswith("MISMATCH") and "cpaimon" in verdict
    assert run.check_case(case, {"ok": True, "rows": 3}, {"ok": True, "rows": 2}).startswith(
        "MISMATCH")
    assert run.check_case(case, {"ok": False}, good) == "failed"


def test_a_failing_worker_is_reported_not_raised(tmp_path):
    spec = {"op": "pq_read", "side": "pyarrow", "mode": "table", "path": str(tmp_path / "nope"),
            "warmup_path": str(tmp_path / "nope")}
    r = run.run_worker(spec, BUILD, timeout=120)
    assert r["ok"] is False and "nope" in r["error"]


@pytest.mark.skipif(not list((BUILD / "python").glob("_cpaimon*.so")),
                    reason="cpaimon's Python module is not built")
def test_tiny_end_to_end_run(tmp_path):
    """The whole harness on tiny data: every selected case runs on both sides, both produce the
    expected data, and the report has a row per case."""
    results = tmp_path / "R.md"
    cmd = [sys.executable, str(ROOT / "bench" / "run.py"), "--quick", "--scale", "0.02",
           "--build", str(BUILD), "--data-dir", str(tmp_path / "data"), "--results", str(results),
           "--cases", r"int64\.zstd|project\.c00|table\.(write|scan\.hidden)"]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    assert p.returncode == 0, p.stdout[-3000:] + p.stderr[-3000:]
    raw = json.loads((tmp_path / "data" / "results-quick.json").read_text())
    ids = [c["id"] for c in raw["cases"]]
    assert ids == ["parquet.write.int64.zstd", "parquet.read.int64.zstd",
                   "parquet.read_cpfile.int64.zstd", "parquet.project.c00_int64.pyarrowfile",
                   "parquet.project.c00_int64.cpaimonfile", "table.write", "table.scan.hidden"]
    scale = suites.scale_for(True, 0.02)
    expected_rows = {"parquet.write": scale["parquet"]["int64"],
                     "parquet.read": scale["parquet"]["int64"],
                     "parquet.project": scale["wide"], "table": scale["table"]}
    for c in raw["cases"]:
        assert c["check"] == "ok", (c["id"], c["check"])
        rows = next(v for k, v in expected_rows.items() if c["id"].startswith(k))
        for side in ("cp", "ref"):
            s = c[side]
            assert s["ok"] and s["seconds"] > 0 and s["peak_rss"] >= s["base_rss"] > 0
            assert s["rows"] == rows, (c["id"], side)
    hidden = next(c for c in raw["cases"] if c["id"] == "table.scan.hidden")
    assert set(hidden["cp"]["digest"]) >= {"_ROW_ID", "_SEQUENCE_NUMBER"}
    text = results.read_text()
    assert text.count("\n| write int64, zstd |") == 1
    assert "| full scan with _ROW_ID, _SEQUENCE_NUMBER, batch by batch |" in text



def test_report_keeps_other_sections_of_a_file_without_its_block(tmp_path):
    path = tmp_path / "RESULTS.md"
    path.write_text("# Results\n\n## Data evolution\n\n| case | s |\n|---|---|\n| x | 1 |\n")
    results = {"started": "s", "finished": "f", "mode": "full", "repeat": 3, "command": "c",
               "machine": {"cpu": "x", "cpus": 2, "mem": 1 << 30, "kernel": "k", "python": "3",
                           "pyarrow": "p", "pypaimon": "q", "commit": "abc", "build": "b"},
               "load_start": 1.0, "load_end": 2.0, "suites": [], "cases": []}
    report.write(path, results)
    text = path.read_text()
    assert text.count("# ") >= 1 and text.startswith("# cpaimon benchmark results")
    assert "## Data evolution\n\n| case | s |" in text and "| x | 1 |" in text
    assert text.index(report.END) < text.index("## Data evolution")
    report.write(path, results)  # a second run replaces only its block
    assert path.read_text() == text
