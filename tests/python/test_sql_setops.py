"""UNION / EXCEPT / INTERSECT [ALL] and WITH in `cpaimon sql`, checked against DuckDB (an
independent SQL engine with the standard's set semantics) on random data with NULLs and
duplicates: the same queries over the same rows give the same multiset of rows. The golden file
tests/sql/select_setops.sql covers type widening, ordering and the error messages."""
import json
import random

import duckdb
import pyarrow as pa
import pytest

OPS = ["UNION", "UNION ALL", "INTERSECT", "INTERSECT ALL", "EXCEPT", "EXCEPT ALL"]


def random_rows(rng, n):
    return [{"k": rng.choice([None, 1, 2, 3, 4]), "s": rng.choice([None, "a", "b", "c"])}
            for _ in range(n)]


def literal(v):
    return "NULL" if v is None else (f"'{v}'" if isinstance(v, str) else str(v))


@pytest.fixture(scope="module")
def tables(tmp_path_factory, cpaimon_bin):
    import subprocess
    rng = random.Random(20261130)
    wh = tmp_path_factory.mktemp("wh")
    data = {name: random_rows(rng, 60) for name in ("l", "r", "m")}
    stmts = []
    for name, rows in data.items():
        stmts.append(f"CREATE TABLE {name} (k INT, s STRING)")
        values = ", ".join(f"({literal(r['k'])}, {literal(r['s'])})" for r in rows)
        stmts.append(f"INSERT INTO {name} VALUES {values}")
    subprocess.run([str(cpaimon_bin), "sql", "--warehouse", str(wh), "-e", ";\n".join(stmts)],
                   check=True, capture_output=True, text=True)
    con = duckdb.connect()
    for name, rows in data.items():
        con.register(name, pa.Table.from_pylist(rows, schema=pa.schema([("k", pa.int32()),
                                                                        ("s", pa.string())])))
    return wh, con


def ours(run_cli, wh, query):
    p = run_cli("sql", "--warehouse", wh, "--format", "json", "-e", query)
    assert p.returncode == 0, p.stderr
    return [tuple(json.loads(line).values()) for line in p.stdout.splitlines() if line.strip()]


def theirs(con, query):
    return [tuple(r) for r in con.execute(query).fetchall()]


def key(row):
    return tuple((v is None, v) for v in row)


@pytest.mark.parametrize("op", OPS)
def test_set_operation_matches_duckdb(tables, run_cli, op):
    wh, con = tables
    for cols in ("k, s", "k", "s"):
        q = f"SELECT {cols} FROM l {op} SELECT {cols} FROM r"
        got, want = ours(run_cli, wh, q), theirs(con, q)
        assert sorted(got, key=key) == sorted(want, key=key), q
        assert got or cols != "k, s", q  # the data leaves rows in every two-column case


@pytest.mark.parametrize("first,second", [("UNION", "INTERSECT"), ("EXCEPT", "UNION ALL"),
                                          ("INTERSECT ALL", "EXCEPT"), ("UNION ALL", "EXCEPT ALL")])
def test_chains_and_precedence_match_duckdb(tables, run_cli, first, second):
    wh, con = tables
    q = f"SELECT k, s FROM l {first} SELECT k, s FROM r {second} SELECT k, s FROM m"
    assert sorted(ours(run_cli, wh, q), key=key) == sorted(theirs(con, q), key=key), q
    q = f"SELECT k FROM l {first} (SELECT k FROM r {second} SELECT k FROM m) ORDER BY k NULLS FIRST"
    assert ours(run_cli, wh, q) == theirs(con, q), q


def test_with_and_limits_match_duckdb(tables, run_cli):
    wh, con = tables
    q = ("WITH big AS (SELECT k, s FROM l WHERE k > 1), both_ AS (SELECT k FROM big INTERSECT "
         "SELECT k FROM r) SELECT b.k, count(*) AS n FROM big b JOIN both_ x ON b.k = x.k "
         "GROUP BY b.k ORDER BY b.k")
    assert ours(run_cli, wh, q) == theirs(con, q)
    q = "SELECT s FROM l UNION ALL SELECT s FROM r ORDER BY s NULLS FIRST LIMIT 7"
    assert ours(run_cli, wh, q) == theirs(con, q)
