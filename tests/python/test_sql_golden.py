"""Golden tests of the SQL front end: each tests/sql/<name>.sql runs through
`cpaimon sql --echo --continue -f` on a fresh warehouse, and its transcript (statements, results as
Spark show() tables, errors) must equal tests/sql/<name>.out.

Result rows are compared as a multiset unless the statement has an ORDER BY (the seeds' tables list
rows in whatever order the engine returned them). A first line `-- options: ...` adds command-line
options. Cases that need the table layer's update/delete API are expected to fail until it lands;
they pass (XPASS) the moment it does, and then their entry in XFAIL goes.

Set CPAIMON_UPDATE_GOLDEN=1 to rewrite the .out files from the current output (review the diff!).
"""
import os
import pathlib
import re
import shlex
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SQL_DIR = ROOT / "tests" / "sql"
CASES = sorted(p.stem for p in SQL_DIR.glob("*.sql"))

# Cases expected to fail, with the reason (none today: every seed statement runs).
XFAIL = {}


def options_of(sql_text):
    first = sql_text.splitlines()[0] if sql_text else ""
    m = re.match(r"--\s*options:\s*(.*)$", first)
    return shlex.split(m.group(1)) if m else []


def run_script(cpaimon_bin, path, workdir):
    text = path.read_text()
    cmd = [str(cpaimon_bin), "sql", "--warehouse", "wh", "--echo", "--continue",
           *options_of(text), "-f", str(path)]
    proc = subprocess.run(cmd, cwd=workdir, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True, timeout=300)
    return proc.returncode, proc.stdout


def blocks(transcript):
    """Splits a transcript into (statement lines, output lines) per statement."""
    out, stmt, body = [], None, []
    for line in transcript.splitlines():
        if line.startswith("sql> "):
            if stmt is not None:
                out.append((stmt, body))
            stmt, body = [line], []
        elif line.startswith("  -> ") and stmt is not None and not body:
            stmt.append(line)
        else:
            if stmt is None:
                stmt = []
            body.append(line)
    if stmt is not None:
        out.append((stmt, body))
    return out


def unordered(lines):
    """Sorts the data rows of every show() table in `lines` (the rows between the second and
    third separator lines of each table)."""
    result, rows, seps = [], [], 0
    for line in lines:
        if line.startswith("+") and line.endswith("+"):
            seps += 1
            if seps == 3:
                result.extend(sorted(rows))
                rows, seps = [], 0
            result.append(line)
        elif seps == 2:
            rows.append(line)
        else:
            result.append(line)
    return result + rows


def normalize(transcript):
    norm = []
    for stmt, body in blocks(transcript):
        ordered = re.search(r"\border\s+by\b", " ".join(stmt), re.IGNORECASE)
        norm.append((stmt, body if ordered else unordered(body)))
    return norm


@pytest.mark.parametrize("name", CASES)
def test_sql_golden(name, cpaimon_bin, tmp_path, request):
    if name in XFAIL:
        request.applymarker(pytest.mark.xfail(reason=XFAIL[name], strict=False))
    script = SQL_DIR / f"{name}.sql"
    expected_path = SQL_DIR / f"{name}.out"
    rc, actual = run_script(cpaimon_bin, script, tmp_path)
    assert "Sanitizer" not in actual, actual
    if os.environ.get("CPAIMON_UPDATE_GOLDEN") and name not in XFAIL:
        expected_path.write_text(actual)
    expected = expected_path.read_text()
    assert normalize(actual) == normalize(expected), actual
    assert rc == (1 if "\ncpaimon sql: " in "\n" + expected else 0)


def test_every_case_has_expected_output():
    for name in CASES:
        assert (SQL_DIR / f"{name}.out").exists(), name
    for name in XFAIL:
        assert name in CASES, name


def test_unordered_comparison_sorts_rows_only():
    t = ["+---+", "|  a|", "+---+", "|  2|", "|  1|", "+---+"]
    assert unordered(t) == ["+---+", "|  a|", "+---+", "|  1|", "|  2|", "+---+"]
    assert normalize("sql> SELECT a FROM t ORDER BY a\n" + "\n".join(t))[0][1] == t
