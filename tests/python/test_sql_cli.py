"""The `cpaimon sql` command: -e / -f / standard input, exit status and line:column of the first
error, --format csv / json, usage errors, the interactive shell; and interop with pypaimon (the
oracle): tables the SQL front end creates and fills read the same in pypaimon, including the
hidden _ROW_ID / _SEQUENCE_NUMBER, and tables pypaimon writes answer queries as pyarrow computes
them."""
import csv
import decimal
import io
import json
import os
import pathlib
import pty
import select
import subprocess
import time

import pyarrow as pa
import pyarrow.compute as pc
import pypaimon
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
SQL_DIR = ROOT / "tests" / "sql"


def sql(run_cli, warehouse, *args):
    return run_cli("sql", "--warehouse", warehouse, *args)


def py_read(warehouse, ident, projection=None):
    table = pypaimon.CatalogFactory.create({"warehouse": str(warehouse)}).get_table(ident)
    rb = table.new_read_builder()
    if projection is not None:
        rb = rb.with_projection(projection)
    return rb.new_read().to_arrow(rb.new_scan().plan().splits())


def rows_sorted(table, key):
    return sorted(table.to_pylist(), key=lambda r: r[key])


# ---- seeds: what the SQL front end writes, pypaimon reads -------------------------------------


def test_seed_001_supported_part_reads_the_same_in_pypaimon(run_cli, tmp_path):
    wh = tmp_path / "wh"
    p = sql(run_cli, wh, "-f", SQL_DIR / "seed_001_insert.sql")
    assert p.returncode == 0, p.stderr
    got = py_read(wh, "my_db.target_table")
    # The seed's pypaimon print after the same write: (1, Alice, 30), (2, Bob, 25).
    assert rows_sorted(got, "id") == [{"id": 1, "name": "Alice", "age": 30},
                                      {"id": 2, "name": "Bob", "age": 25}]
    assert got.schema.field("id").type == pa.int32()
    assert not got.schema.field("id").nullable
    hidden = py_read(wh, "my_db.target_table", ["id", "_ROW_ID", "_SEQUENCE_NUMBER"])
    assert rows_sorted(hidden, "id") == [{"id": 1, "_ROW_ID": 0, "_SEQUENCE_NUMBER": 1},
                                         {"id": 2, "_ROW_ID": 1, "_SEQUENCE_NUMBER": 1}]
    table = pypaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("my_db.target_table")
    assert table.table_schema.options.get("row-tracking.enabled") == "true"
    assert table.table_schema.options.get("data-evolution.enabled") == "true"


def test_seed_003_supported_part_reads_the_same_in_pypaimon(run_cli, tmp_path):
    wh = tmp_path / "wh"
    p = sql(run_cli, wh, "-f", SQL_DIR / "seed_003_select.sql")
    assert p.returncode == 0, p.stderr
    got = py_read(wh, "default.t", ["id", "data", "_ROW_ID", "_SEQUENCE_NUMBER"])
    # The seed's table: (11, a, 0, 1), (22, b, 1, 1).
    assert rows_sorted(got, "id") == [
        {"id": 11, "data": "a", "_ROW_ID": 0, "_SEQUENCE_NUMBER": 1},
        {"id": 22, "data": "b", "_ROW_ID": 1, "_SEQUENCE_NUMBER": 1}]


def test_every_sql_type_round_trips_through_pypaimon(run_cli, tmp_path):
    wh = tmp_path / "wh"
    p = sql(run_cli, wh, "-e", """
        CREATE TABLE t (id INT NOT NULL, b BOOLEAN, i8 TINYINT, i16 SMALLINT, i64 BIGINT, f FLOAT,
          d DOUBLE, dec DECIMAL(10, 2), s STRING, bin BINARY, dt DATE, ntz TIMESTAMP_NTZ,
          arr ARRAY<INT>, m MAP<STRING, INT>, st STRUCT<x: INT, y: STRING>)
          TBLPROPERTIES ('row-tracking.enabled' = 'true');
        INSERT INTO t VALUES (1, true, -8, 300, 5000000000, 0.5, 2.25, 12.5, 'héllo', X'00FF',
          DATE '2024-02-29', TIMESTAMP_NTZ '2024-02-29 13:14:15.123456', array(1, NULL, 3),
          map('a', 1), struct(7, 'z'));
        INSERT INTO t (id) VALUES (2);""")
    assert p.returncode == 0, p.stderr
    got = rows_sorted(py_read(wh, "default.t"), "id")
    import datetime
    assert got[0] == {
        "id": 1, "b": True, "i8": -8, "i16": 300, "i64": 5000000000, "f": 0.5, "d": 2.25,
        "dec": decimal.Decimal("12.50"), "s": "héllo", "bin": b"\x00\xff",
        "dt": datetime.date(2024, 2, 29),
        "ntz": datetime.datetime(2024, 2, 29, 13, 14, 15, 123456), "arr": [1, None, 3],
        "m": [("a", 1)], "st": {"x": 7, "y": "z"}}
    assert all(v is None for k, v in got[1].items() if k != "id")
    hidden = py_read(wh, "default.t", ["id", "_ROW_ID", "_SEQUENCE_NUMBER"])
    assert rows_sorted(hidden, "id") == [{"id": 1, "_ROW_ID": 0, "_SEQUENCE_NUMBER": 1},
                                         {"id": 2, "_ROW_ID": 1, "_SEQUENCE_NUMBER": 2}]


# ---- pypaimon writes, the SQL front end queries ---------------------------------------------


@pytest.fixture
def pypaimon_sales(tmp_path):
    """A table pypaimon writes: 1000 rows in three commits."""
    wh = tmp_path / "wh"
    catalog = pypaimon.CatalogFactory.create({"warehouse": str(wh)})
    catalog.create_database("shop", True)
    schema = pa.schema([("id", pa.int64()), ("region", pa.string()), ("qty", pa.int32()),
                        ("price", pa.float64())])
    catalog.create_table("shop.sales", pypaimon.Schema.from_pyarrow_schema(
        schema, options={"row-tracking.enabled": "true"}), False)
    table = catalog.get_table("shop.sales")
    regions = ["north", "south", "east", None]
    data = pa.table({
        "id": pa.array(range(1000), pa.int64()),
        "region": pa.array([regions[i % 4] for i in range(1000)], pa.string()),
        "qty": pa.array([None if i % 7 == 0 else i % 13 for i in range(1000)], pa.int32()),
        "price": pa.array([(i % 101) / 4 for i in range(1000)], pa.float64())}, schema=schema)
    for part in (data.slice(0, 400), data.slice(400, 500), data.slice(900)):
        wb = table.new_batch_write_builder()
        w, c = wb.new_write(), wb.new_commit()
        w.write_arrow(part)
        c.commit(w.prepare_commit())
        w.close()
        c.close()
    return wh, data


def test_group_by_matches_pyarrow(run_cli, pypaimon_sales):
    wh, data = pypaimon_sales
    p = sql(run_cli, wh, "--format", "json", "-e",
            "SELECT region, count(*) AS n, count(qty) AS nq, sum(qty) AS sq, min(price) AS lo, "
            "max(price) AS hi, avg(qty) AS aq FROM shop.sales WHERE id >= 100 GROUP BY region")
    assert p.returncode == 0, p.stderr
    got = {r["region"]: r for r in map(json.loads, p.stdout.splitlines())}
    sub = data.filter(pc.greater_equal(data["id"], 100))
    expected = sub.group_by("region", use_threads=False).aggregate(
        [("id", "count"), ("qty", "count"), ("qty", "sum"), ("price", "min"), ("price", "max"),
         ("qty", "mean")])
    assert len(got) == expected.num_rows == 4
    for row in expected.to_pylist():
        g = got[row["region"]]
        assert g["n"] == row["id_count"]
        assert g["nq"] == row["qty_count"]
        assert g["sq"] == row["qty_sum"]
        assert g["lo"] == row["price_min"] and g["hi"] == row["price_max"]
        assert abs(g["aq"] - row["qty_mean"]) < 1e-9


def test_hidden_columns_and_time_travel_match_pypaimon(run_cli, pypaimon_sales):
    wh, _ = pypaimon_sales
    p = sql(run_cli, wh, "--format", "csv", "-e",
            "SELECT id, _ROW_ID, _SEQUENCE_NUMBER FROM shop.sales WHERE id % 97 = 0 ORDER BY id")
    assert p.returncode == 0, p.stderr
    got = [{k: int(v) for k, v in r.items()} for r in csv.DictReader(io.StringIO(p.stdout))]
    theirs = py_read(wh, "shop.sales", ["id", "_ROW_ID", "_SEQUENCE_NUMBER"])
    theirs = [r for r in rows_sorted(theirs, "id") if r["id"] % 97 == 0]
    assert got == theirs
    p = sql(run_cli, wh, "--format", "csv", "-e",
            "SELECT count(*) AS n FROM shop.sales VERSION AS OF 2")
    assert p.stdout.splitlines() == ["n", "900"]


def test_join_and_order_match_python(run_cli, pypaimon_sales):
    wh, data = pypaimon_sales
    p = sql(run_cli, wh, "--format", "csv", "-e", """
        CREATE TABLE shop.regions (name STRING, manager STRING);
        INSERT INTO shop.regions VALUES ('north', 'ann'), ('south', 'bob'), ('west', 'cid');
        SELECT r.manager, s.id FROM shop.sales s JOIN shop.regions r ON s.region = r.name
          WHERE s.qty = 12 ORDER BY s.id DESC LIMIT 5;""")
    assert p.returncode == 0, p.stderr
    managers = {"north": "ann", "south": "bob"}
    rows = [r for r in data.to_pylist() if r["qty"] == 12 and r["region"] in managers]
    rows.sort(key=lambda r: -r["id"])
    expected = ["manager,id"] + [f"{managers[r['region']]},{r['id']}" for r in rows[:5]]
    assert p.stdout.splitlines() == expected


def test_insert_select_commits_once(run_cli, pypaimon_sales):
    wh, data = pypaimon_sales
    p = sql(run_cli, wh, "-e", """
        CREATE TABLE shop.big (id BIGINT, region STRING) TBLPROPERTIES ('row-tracking.enabled' = 'true');
        INSERT INTO shop.big SELECT id, region FROM shop.sales WHERE qty > 6;""")
    assert p.returncode == 0, p.stderr
    got = py_read(wh, "shop.big", ["id", "_SEQUENCE_NUMBER"])
    expected = sorted(r["id"] for r in data.to_pylist() if r["qty"] is not None and r["qty"] > 6)
    assert sorted(got.column("id").to_pylist()) == expected
    assert set(got.column("_SEQUENCE_NUMBER").to_pylist()) == {1}


def test_insert_only_merge_reads_the_same_in_pypaimon(run_cli, tmp_path):
    """MERGE INTO with only WHEN NOT MATCHED inserts (it needs no update API): one snapshot, new
    rows with fresh row ids, old rows untouched."""
    wh = tmp_path / "wh"
    p = sql(run_cli, wh, "-e", """
        CREATE TABLE t (id INT NOT NULL, v STRING) TBLPROPERTIES (
          'row-tracking.enabled' = 'true', 'data-evolution.enabled' = 'true');
        INSERT INTO t VALUES (1, 'a'), (2, 'b');
        CREATE TABLE s (id INT, v STRING);
        INSERT INTO s VALUES (2, 'B'), (3, 'C'), (4, NULL);
        MERGE INTO t USING s ON t.id = s.id
          WHEN NOT MATCHED AND s.v IS NOT NULL THEN INSERT *;""")
    assert p.returncode == 0, p.stderr
    got = rows_sorted(py_read(wh, "default.t", ["id", "v", "_ROW_ID", "_SEQUENCE_NUMBER"]), "id")
    assert got == [{"id": 1, "v": "a", "_ROW_ID": 0, "_SEQUENCE_NUMBER": 1},
                   {"id": 2, "v": "b", "_ROW_ID": 1, "_SEQUENCE_NUMBER": 1},
                   {"id": 3, "v": "C", "_ROW_ID": 2, "_SEQUENCE_NUMBER": 2}]


# ---- the command ------------------------------------------------------------------------------


def test_stops_at_first_error_with_line_and_column(run_cli, tmp_path):
    script = tmp_path / "s.sql"
    script.write_text("CREATE TABLE t (id INT);\nINSERT INTO t VALUES (1);\n"
                      "SELECT nope\n  FROM t;\nINSERT INTO t VALUES (2);\n")
    p = sql(run_cli, tmp_path / "wh", "-f", script)
    assert p.returncode == 1
    assert "line 3:8:" in p.stderr and "'nope'" in p.stderr
    # What ran before the error stays; what follows it did not run.
    p = sql(run_cli, tmp_path / "wh", "--format", "csv", "-e", "SELECT id FROM t")
    assert p.stdout.splitlines() == ["id", "1"]


def test_continue_reports_every_error(run_cli, tmp_path):
    p = sql(run_cli, tmp_path / "wh", "--continue", "-e",
            "SELECT 1 AS a; SELEC 2; SELECT x; SELECT 3 AS b;")
    assert p.returncode == 1
    assert p.stderr.count("cpaimon sql: line 1:") == 2
    assert "|  a|" in p.stdout and "|  b|" in p.stdout


def test_statement_runtime_error_names_the_statement(run_cli, tmp_path):
    p = sql(run_cli, tmp_path / "wh", "-e",
            "CREATE TABLE t (id INT NOT NULL);\n\n  INSERT INTO t VALUES (NULL);")
    assert p.returncode == 1
    assert "line 3:3:" in p.stderr
    assert "Cannot write null to non-null column(id)" in p.stderr


def test_insert_overwrite_bad_partition_value_changes_nothing(run_cli, tmp_path):
    p = sql(run_cli, tmp_path / "wh", "-e",
            "CREATE TABLE t (id INT, hr INT) PARTITIONED BY (hr); INSERT INTO t VALUES (1, 1);"
            "INSERT OVERWRITE t PARTITION (hr = 'x') VALUES (2);")
    assert p.returncode == 1
    assert "line 1:117: [CAST_INVALID_INPUT] The value 'x' of the static partition column hr" \
        in p.stderr
    p = sql(run_cli, tmp_path / "wh", "-e", "SELECT id, hr FROM t", "--format", "csv")
    assert p.stdout.splitlines() == ["id,hr", "1,1"]


def test_formats(run_cli, tmp_path):
    q = "SELECT 1 AS i, 'a,b' AS s, NULL AS n, 2.50 AS d, true AS b, X'0102' AS bin"
    p = sql(run_cli, tmp_path / "wh", "--format", "csv", "-e", q)
    assert p.stdout.splitlines() == ["i,s,n,d,b,bin", '1,"a,b",,2.50,true,AQI=']
    p = sql(run_cli, tmp_path / "wh", "--format", "json", "-e", q)
    assert json.loads(p.stdout) == {"i": 1, "s": "a,b", "n": None, "d": 2.5, "b": True,
                                    "bin": "AQI="}
    long = "x" * 30
    p = sql(run_cli, tmp_path / "wh", "-e", f"SELECT '{long}' AS s")
    assert "|" + "x" * 17 + "...|" in p.stdout  # Spark's default 20-character cells
    p = sql(run_cli, tmp_path / "wh", "--truncate", "0", "-e", f"SELECT '{long}' AS s")
    assert "|" + long + "|" in p.stdout


def test_all_rows_are_shown(run_cli, tmp_path):
    values = ", ".join(f"({i})" for i in range(50))
    p = sql(run_cli, tmp_path / "wh", "-e",
            f"CREATE TABLE t (v INT); INSERT INTO t VALUES {values}; SELECT v FROM t ORDER BY v;")
    assert p.returncode == 0, p.stderr
    assert "| 49|" in p.stdout and "only showing" not in p.stdout


def test_reads_standard_input(cpaimon_bin, tmp_path):
    p = subprocess.run([str(cpaimon_bin), "sql", "--warehouse", str(tmp_path / "wh"),
                        "--format", "csv"], input="SELECT 40 + 2 AS answer;", text=True,
                       capture_output=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines() == ["answer", "42"]


@pytest.mark.parametrize("args,message", [
    ([], "--warehouse is required"),
    (["--warehouse", "w", "--format", "xml", "-e", "SELECT 1"], "--format must be"),
    (["--warehouse", "w", "-e", "SELECT 1", "-f", "x.sql"], "not both"),
    (["--warehouse", "w", "--bogus"], "unknown option"),
    (["--warehouse"], "needs a value"),
])
def test_usage_errors(run_cli, tmp_path, args, message):
    p = run_cli("sql", *args)
    assert p.returncode == 2
    assert message in p.stderr


def test_help(run_cli):
    p = run_cli("sql", "--help")
    assert p.returncode == 0
    assert "--warehouse" in p.stdout
    assert "sql" in run_cli("--help").stdout


def test_missing_script_file(run_cli, tmp_path):
    p = sql(run_cli, tmp_path / "wh", "-f", tmp_path / "nope.sql")
    assert p.returncode == 1
    assert "cannot read" in p.stderr


def test_interactive_shell(cpaimon_bin, tmp_path):
    """A pseudo-terminal session: a statement over two lines, history file, quit."""
    pid, fd = pty.fork()
    if pid == 0:
        os.environ["HOME"] = str(tmp_path)
        os.execv(str(cpaimon_bin), [str(cpaimon_bin), "sql", "--warehouse", str(tmp_path / "wh")])
    out = b""

    def read_until(token, timeout=20):
        nonlocal out
        end = time.time() + timeout
        while token not in out and time.time() < end:
            r, _, _ = select.select([fd], [], [], 0.2)
            if r:
                try:
                    out += os.read(fd, 4096)
                except OSError:
                    break
        return token in out

    assert read_until(b"cpaimon (default)> ")
    os.write(fd, b"SELECT 6 * 7\r")
    assert read_until(b"> ")
    os.write(fd, b"  AS answer;\r")
    assert read_until(b"|    42|")
    os.write(fd, b"SELECT nope;\r")
    assert read_until(b"cannot be resolved")
    os.write(fd, b"quit\r")
    _, status = os.waitpid(pid, 0)
    os.close(fd)
    assert os.WEXITSTATUS(status) == 0
    history = tmp_path / ".cpaimon_history"
    assert history.exists() and b"answer" in history.read_bytes()


# ---- full seed scripts: the oracles read what the SQL front end changed ------------------------

from test_java_interop import java  # noqa: E402,F401  (Java Paimon 1.4.2, the reference reader)


def test_seed_001_merge_reads_the_same_in_pypaimon(run_cli, tmp_path):
    """MERGE INTO on a data-evolution table writes a partial `age` file; pypaimon's merged read
    gives the seed's rows and the same hidden columns as ours."""
    wh = tmp_path / "wh"
    p = sql(run_cli, wh, "-f", SQL_DIR / "seed_001_merge.sql")
    assert p.returncode == 0, p.stderr
    cols = ["id", "name", "age", "_ROW_ID", "_SEQUENCE_NUMBER"]
    theirs = rows_sorted(py_read(wh, "my_db.target_table", cols), "id")
    assert [(r["id"], r["name"], r["age"]) for r in theirs] == [
        (1, "Alice", 31), (2, "Bob", 26), (3, "", 28)]
    ours = sql(run_cli, wh, "--format", "json", "-e",
               "SELECT id, name, age, _ROW_ID, _SEQUENCE_NUMBER FROM my_db.target_table")
    import json as _json
    assert sorted((_json.loads(l) for l in ours.stdout.splitlines()), key=lambda r: r["id"]) == theirs


@pytest.mark.parametrize("script", ["seed_003_update", "seed_003_update_row_id", "seed_003_merge",
                                    "seed_003_delete", "seed_003_delete_row_id"])
def test_seed_003_scripts_read_the_same_in_java(run_cli, tmp_path, java, script):  # noqa: F811
    """Copy-on-write UPDATE/MERGE/DELETE keep _ROW_ID physically in rewritten files. Java reads
    it (the reference); pypaimon ignores physical row ids (DIVERGENCE, data-evolution.md §1.4) so
    only its rows are compared."""
    wh = tmp_path / "wh"
    p = sql(run_cli, wh, "-f", SQL_DIR / f"{script}.sql")
    assert p.returncode == 0, p.stderr
    import json as _json
    ours = sorted((_json.loads(l) for l in sql(run_cli, wh, "--format", "json", "-e",
                   "SELECT id, data, _ROW_ID, _SEQUENCE_NUMBER FROM t").stdout.splitlines()),
                  key=lambda r: r["id"])
    theirs = sorted(java.read(wh, "default.t", row_tracking=True, columns=["id", "data"]),
                    key=lambda r: r["id"])
    assert theirs == ours
    py_rows = rows_sorted(py_read(wh, "default.t", ["id", "data"]), "id")
    assert py_rows == [{"id": r["id"], "data": r["data"]} for r in ours]
