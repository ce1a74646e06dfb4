"""The cpaimon command's top-level behaviour: version, help, unknown commands."""
import re


def test_version(run_cli):
    r = run_cli("--version")
    assert r.returncode == 0
    assert re.fullmatch(r"cpaimon \d+\.\d+\.\d+\n", r.stdout)


def test_help_lists_commands(run_cli):
    r = run_cli("--help")
    assert r.returncode == 0
    assert "usage: cpaimon" in r.stdout
    assert "version" in r.stdout


def test_unknown_command_is_usage_error(run_cli):
    r = run_cli("frobnicate")
    assert r.returncode == 2
    assert "unknown command 'frobnicate'" in r.stderr


def test_no_arguments_is_usage_error(run_cli):
    r = run_cli()
    assert r.returncode == 2
    assert "usage:" in r.stderr


# ---- numeric flags (issue 14, item 6): parsed strictly, an error names the flag ----------------

BAD_NUMBERS = ["abc", "", "2x", "1.5", " 1", "+1", "1e3", "99999999999999999999"]


def _table_with_two_snapshots(run_cli, tmp_path):
    wh = tmp_path / "wh"
    p = run_cli("sql", "--warehouse", wh, "-e",
                "CREATE TABLE t (a INT); INSERT INTO t VALUES (1); INSERT INTO t VALUES (2);")
    assert p.returncode == 0, p.stderr
    return wh


def test_numeric_flags_refuse_what_is_not_a_number(run_cli, tmp_path):
    wh = _table_with_two_snapshots(run_cli, tmp_path)
    pq = tmp_path / "f.parquet"
    import pyarrow as pa
    import pyarrow.parquet as papq
    papq.write_table(pa.table({"x": [1]}), pq)
    calls = {
        "--snapshot": lambda v: ("cat", wh, "default.t", "--snapshot", v),
        "--limit": lambda v: ("cat", wh, "default.t", "--limit", v),
        "--truncate": lambda v: ("sql", "--warehouse", wh, "--truncate", v, "-e", "SELECT 1"),
        "--limit ": lambda v: ("parquet", "cat", pq, "--limit", v),
        "--truncate ": lambda v: ("parquet", "cat", pq, "--truncate", v),
        "--snapshot ": lambda v: ("table", "files", wh, "default.t", "--snapshot", v),
        "--level": lambda v: ("avro", "rewrite", "in.avro", "out.avro", "--codec", "deflate",
                              "--level", v),
        "--sync-interval": lambda v: ("avro", "rewrite", "in.avro", "out.avro", "--codec",
                                      "deflate", "--sync-interval", v),
    }
    for flag, call in calls.items():
        for bad in BAD_NUMBERS:
            p = run_cli(*call(bad))
            assert p.returncode == 2, (flag, bad, p.stdout)
            assert f"{flag.strip()} needs a whole number" in p.stderr, (flag, bad, p.stderr)
            assert f"not '{bad}'" in p.stderr


def test_snapshot_zero_and_negative_limit_are_errors(run_cli, tmp_path):
    wh = _table_with_two_snapshots(run_cli, tmp_path)
    for flag, value in [("--snapshot", "0"), ("--snapshot", "-1"), ("--limit", "-1")]:
        p = run_cli("cat", wh, "default.t", flag, value)
        assert p.returncode == 2
        assert f"{flag} needs a whole number" in p.stderr


def test_numeric_flags_still_work(run_cli, tmp_path):
    wh = _table_with_two_snapshots(run_cli, tmp_path)
    p = run_cli("cat", wh, "default.t", "--snapshot", "1", "--format", "csv")
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["a", "1"]  # snapshot 1 holds the first insert only
    p = run_cli("cat", wh, "default.t", "--limit", "1", "--format", "csv")
    assert p.returncode == 0, p.stderr
    assert len(p.stdout.split()) == 2


def test_limit_applies_to_every_format(run_cli, tmp_path):
    wh = _table_with_two_snapshots(run_cli, tmp_path)
    p = run_cli("cat", wh, "default.t", "--limit", "1", "--format", "json")
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == ['{"a":1}']
    p = run_cli("cat", wh, "default.t$snapshots", "--limit", "1", "--format", "csv")
    assert p.returncode == 0, p.stderr
    assert len(p.stdout.splitlines()) == 2  # the header and snapshot 1
