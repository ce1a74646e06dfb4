"""Subqueries in `cpaimon sql` checked against DuckDB (an independent engine with the standard's
semantics, which Spark shares here: three-valued IN, NULL-aware NOT IN, EXISTS) on random data
with NULLs and duplicates: generated queries, uncorrelated and correlated, give the same multiset
of rows. No known Spark-vs-DuckDB difference applies to these forms. The golden file
tests/sql/select_subquery.sql has Spark's answers and the error messages; this test also checks
that UPDATE / DELETE with subquery conditions change the rows the same SELECT finds."""
import itertools
import random

import duckdb
import pyarrow as pa
import pytest

from test_sql_setops import key, literal, ours, theirs


def random_rows(rng, n):
    return [{"k": rng.choice([None, 1, 2, 3, 4, 5]), "x": rng.choice([None, 0, 1, 2, 3])}
            for _ in range(n)]


@pytest.fixture(scope="module")
def tables(tmp_path_factory, cpaimon_bin):
    import subprocess
    rng = random.Random(20261203)
    wh = tmp_path_factory.mktemp("wh")
    data = {"o": random_rows(rng, 40), "i": random_rows(rng, 25), "e": []}
    stmts = []
    for name, rows in data.items():
        stmts.append(f"CREATE TABLE {name} (k INT, x INT) TBLPROPERTIES "
                     "('row-tracking.enabled' = 'true')")
        if rows:
            values = ", ".join(f"({literal(r['k'])}, {literal(r['x'])})" for r in rows)
            stmts.append(f"INSERT INTO {name} VALUES {values}")
    subprocess.run([str(cpaimon_bin), "sql", "--warehouse", str(wh), "-e", ";\n".join(stmts)],
                   check=True, capture_output=True, text=True)
    con = duckdb.connect()
    schema = pa.schema([("k", pa.int32()), ("x", pa.int32())])
    for name, rows in data.items():
        con.register(name, pa.Table.from_pylist(rows, schema=schema))
    return wh, con


# Inner conditions: uncorrelated, and correlated through the outer table's alias `t`.
UNCORRELATED = ["", "WHERE x > 1", "WHERE k IS NOT NULL", "WHERE x IS NULL OR k = 2"]
CORRELATED = ["WHERE i.k = t.k", "WHERE i.k = t.k AND i.x > 0", "WHERE i.x < t.x",
              "WHERE i.k = t.k AND i.x <> t.x", "WHERE i.k + 1 = t.k OR i.x = t.x"]
SOURCES = ["i", "e"]


def queries():
    for src, cond in itertools.product(SOURCES, UNCORRELATED + CORRELATED):
        sub = f"FROM {src} {cond}".replace(" i.", f" {src}.").replace("(i.", f"({src}.")
        for form in (f"EXISTS (SELECT 1 {sub})", f"NOT EXISTS (SELECT * {sub})",
                     f"t.k IN (SELECT {src}.k {sub})", f"t.k NOT IN (SELECT {src}.x {sub})"):
            yield f"SELECT t.k, t.x FROM o t WHERE {form}"
            yield f"SELECT t.k, t.x FROM o t WHERE t.x IS NOT NULL AND {form}"
        if cond in UNCORRELATED:
            yield f"SELECT k, k IN (SELECT {src}.x {sub}) FROM o t"
            yield f"SELECT k, (SELECT max(x) {sub}) FROM o t"


@pytest.mark.parametrize("query", list(queries()))
def test_subquery_matches_duckdb(tables, run_cli, query):
    wh, con = tables
    got, want = ours(run_cli, wh, query), theirs(con, query)
    assert sorted(got, key=key) == sorted(want, key=key), query


def test_dml_with_subqueries_changes_what_select_finds(tables, run_cli, tmp_path, cpaimon_bin):
    import subprocess
    wh, con = tables
    local = tmp_path / "wh"
    # a private copy of `o` to change
    rows = theirs(con, "SELECT k, x FROM o")
    values = ", ".join(f"({literal(k)}, {literal(x)})" for k, x in rows)
    subprocess.run([str(cpaimon_bin), "sql", "--warehouse", str(local), "-e",
                    "CREATE TABLE o (k INT, x INT) TBLPROPERTIES ('row-tracking.enabled' = 'true');"
                    f"INSERT INTO o VALUES {values}"], check=True, capture_output=True, text=True)
    rows_i = theirs(con, "SELECT k, x FROM i")
    values_i = ", ".join(f"({literal(k)}, {literal(x)})" for k, x in rows_i)
    subprocess.run([str(cpaimon_bin), "sql", "--warehouse", str(local), "-e",
                    f"CREATE TABLE i (k INT, x INT); INSERT INTO i VALUES {values_i}"],
                   check=True, capture_output=True, text=True)
    con.execute("CREATE TABLE o2 AS SELECT * FROM o")
    cond = "EXISTS (SELECT 1 FROM i WHERE i.k = o.k AND i.x > 1)"
    p = run_cli("sql", "--warehouse", local, "-e", f"UPDATE o SET x = -1 WHERE {cond}")
    assert p.returncode == 0, p.stderr
    con.execute(f"UPDATE o2 SET x = -1 WHERE {cond.replace('o.k', 'o2.k')}")
    cond = "o.k NOT IN (SELECT i.x FROM i WHERE i.x IS NOT NULL)"
    p = run_cli("sql", "--warehouse", local, "-e", f"DELETE FROM o WHERE {cond}")
    assert p.returncode == 0, p.stderr
    con.execute(f"DELETE FROM o2 WHERE {cond.replace('o.k', 'o2.k')}")
    got = ours(run_cli, local, "SELECT k, x FROM o")
    want = theirs(con, "SELECT k, x FROM o2")
    assert sorted(got, key=key) == sorted(want, key=key)
    assert got and any(x == -1 for _, x in got)


# ---- semi / anti joins, JOIN ... USING and NATURAL JOIN, the join forms of the same questions ----

JOINS = ["SELECT o.k, o.x FROM o LEFT SEMI JOIN i ON o.k = i.k",
         "SELECT o.k, o.x FROM o SEMI JOIN i ON o.k = i.k AND i.x > o.x",
         "SELECT o.k, o.x FROM o LEFT ANTI JOIN i ON o.k = i.k",
         "SELECT o.k, o.x FROM o ANTI JOIN i ON o.k = i.k OR i.x = o.x",
         "SELECT * FROM o LEFT SEMI JOIN i USING (k)",
         "SELECT * FROM o ANTI JOIN i USING (k, x)",
         "SELECT k, o.x AS ox, i.x AS ix FROM o JOIN i USING (k)",
         "SELECT x, o.k AS ok, i.k AS ik FROM o LEFT JOIN i USING (x)",
         "SELECT k, o.x AS ox, i.x AS ix FROM o RIGHT JOIN i USING (k)",
         "SELECT k, o.x AS ox, i.x AS ix, o.k AS ok, i.k AS ik FROM o FULL JOIN i USING (k)",
         "SELECT k, count(*) FROM o JOIN i USING (k, x) GROUP BY k",
         # NATURAL: USING every column both have (here k and x)
         "SELECT * FROM o NATURAL JOIN i",
         "SELECT k, x FROM o NATURAL LEFT JOIN i",
         "SELECT k, x, count(*) FROM o NATURAL FULL OUTER JOIN i GROUP BY k, x",
         "SELECT o.k AS ok, i.k AS ik, x FROM o NATURAL RIGHT JOIN i"]


def test_star_of_using_join_lists_the_joined_columns_once(tables, run_cli):
    """`*` over JOIN ... USING: the USING columns once, then each side's others (Spark, DuckDB)."""
    wh, con = tables
    p = run_cli("sql", "--warehouse", wh, "--format", "csv", "-e",
                "SELECT * FROM o FULL JOIN i USING (k) LIMIT 1")
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[0] == "k,x,x"
    assert [d[0] for d in con.execute("SELECT * FROM o FULL JOIN i USING (k)").description] == [
        "k", "x", "x"]


@pytest.mark.parametrize("query", JOINS)
def test_semi_anti_using_joins_match_duckdb(tables, run_cli, query):
    wh, con = tables
    # Named difference DUCKDB_SEMI_SYNTAX: DuckDB spells Spark's LEFT SEMI / LEFT ANTI without LEFT.
    duck = query.replace("LEFT SEMI", "SEMI").replace("LEFT ANTI", "ANTI")
    got, want = ours(run_cli, wh, query), theirs(con, duck)
    assert sorted(got, key=key) == sorted(want, key=key), query
    assert got, query  # the data leaves rows for each
