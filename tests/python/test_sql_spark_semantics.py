"""Spark semantics the SQL front end promised but missed (issue 14, item 12), found by running Spark
3.5 with the Paimon 1.4.2 connector on the same tables. Expected values follow Spark's rules,
cited per test (Spark is not run here); pypaimon reads the tables as the cross-check of what is
stored."""
import csv
import io

import pyarrow as pa
import pypaimon
import pytest


def sql(run_cli, wh, text):
    p = run_cli("sql", "--warehouse", wh, "--format", "csv", "-e", text)
    return p, list(csv.reader(io.StringIO(p.stdout)))


def py_rows(wh, ident, cols):
    t = pypaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table(ident)
    rb = t.new_read_builder().with_projection(cols)
    return sorted(rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist(),
                  key=lambda r: r[cols[0]])


# ---- CHAR(n): CharVarcharUtils.charTypeWriteSideCheck, readSideCharPadding, ApplyCharTypePadding

def test_char_is_padded_on_write_and_compared_with_padding(run_cli, tmp_path):
    wh = tmp_path / "wh"
    p, _ = sql(run_cli, wh, "CREATE TABLE t (id INT, c CHAR(5), v VARCHAR(5)); "
                            "INSERT INTO t VALUES (1, 'ab', 'ab'), (2, 'abcde', 'x'), (3, NULL, NULL)")
    assert p.returncode == 0, p.stderr
    # Spark pads CHAR on write; VARCHAR keeps the value.
    assert py_rows(wh, "default.t", ["id", "c", "v"]) == [
        {"id": 1, "c": "ab   ", "v": "ab"}, {"id": 2, "c": "abcde", "v": "x"},
        {"id": 3, "c": None, "v": None}]
    p, rows = sql(run_cli, wh, "SELECT id, length(c) AS n, c = 'ab' AS eq, c IN ('ab', 'q') AS i, "
                               "c < 'ab ' AS lt FROM t ORDER BY id")
    assert p.returncode == 0, p.stderr
    assert rows == [["id", "n", "eq", "i", "lt"], ["1", "5", "true", "true", "false"],
                    ["2", "5", "false", "false", "false"], ["3", "", "", "", ""]]
    p, rows = sql(run_cli, wh, "SELECT id FROM t WHERE c = 'ab'")
    assert rows == [["id"], ["1"]]


def test_char_written_unpadded_by_another_writer_reads_padded(run_cli, tmp_path):
    # pypaimon stores what it is given; Spark's read-side padding makes 'ab' and 'ab   ' the
    # same CHAR(5) value, so both rows match c = 'ab' (Spark returns 1 row for a table Spark wrote
    # padded, where cpaimon returned 0).
    wh = tmp_path / "wh"
    p, _ = sql(run_cli, wh, "CREATE TABLE t (id INT, c CHAR(5))")
    assert p.returncode == 0, p.stderr
    t = pypaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("default.t")
    wb = t.new_batch_write_builder()
    w, c = wb.new_write(), wb.new_commit()
    w.write_arrow(pa.table({"id": pa.array([1, 2, 3], pa.int32()), "c": ["ab   ", "ab", "abc"]}))
    c.commit(w.prepare_commit())
    p, rows = sql(run_cli, wh, "SELECT id, concat('[', c, ']') AS s FROM t WHERE c = 'ab' ORDER BY id")
    assert p.returncode == 0, p.stderr
    assert rows == [["id", "s"], ["1", "[ab   ]"], ["2", "[ab   ]"]]


def test_char_and_varchar_length_limits(run_cli, tmp_path):
    wh = tmp_path / "wh"
    assert sql(run_cli, wh, "CREATE TABLE t (c CHAR(3), v VARCHAR(3))")[0].returncode == 0
    for values in ["('abcd', 'x')", "('x', 'abcd')"]:
        p, _ = sql(run_cli, wh, f"INSERT INTO t VALUES {values}")
        assert p.returncode == 1
        assert "[EXCEED_LIMIT_LENGTH] Exceeds char/varchar type length limitation: 3." in p.stderr
    # Trailing spaces beyond the limit are trimmed instead (Spark's trimTrailingSpaces).
    p, _ = sql(run_cli, wh, "INSERT INTO t VALUES ('ab    ', 'cd     ')")
    assert p.returncode == 0, p.stderr
    assert py_rows(wh, "default.t", ["c", "v"]) == [{"c": "ab ", "v": "cd "}]


# ---- UPDATE of a partition column on a row-tracking table moves the row, keeping _ROW_ID ------

@pytest.mark.parametrize("dv", [False, True])
def test_update_partition_column_moves_the_row(run_cli, tmp_path, dv):
    wh = tmp_path / "wh"
    opts = "'row-tracking.enabled' = 'true'" + (", 'deletion-vectors.enabled' = 'true'" if dv else "")
    p, _ = sql(run_cli, wh, f"CREATE TABLE t (id INT, h INT, v STRING) PARTITIONED BY (h) "
                            f"TBLPROPERTIES ({opts}); "
                            "INSERT INTO t VALUES (1, 1, 'a'), (2, 1, 'b'), (3, 2, 'c'); "
                            "UPDATE t SET h = 9 WHERE id = 2; "
                            "UPDATE t SET h = 2, v = 'q' WHERE id = 1")
    assert p.returncode == 0, p.stderr
    # Snapshot 1 wrote row ids 0..2 (sequence 1); the moves are snapshots 2 and 3, and a moved
    # row keeps its _ROW_ID with the new snapshot's sequence number.
    p, rows = sql(run_cli, wh, "SELECT id, h, v, _ROW_ID, _SEQUENCE_NUMBER FROM t ORDER BY id")
    assert rows == [["id", "h", "v", "_ROW_ID", "_SEQUENCE_NUMBER"],
                    ["1", "2", "q", "0", "3"], ["2", "9", "b", "1", "2"], ["3", "2", "c", "2", "1"]]
    # pypaimon reads the same rows and partitions (pypaimon 2.1 leaves a _ROW_ID stored in the
    # file, as moved rows have it, NULL: not compared).
    assert py_rows(wh, "default.t", ["id", "h", "v"]) == [
        {"id": 1, "h": 2, "v": "q"}, {"id": 2, "h": 9, "v": "b"}, {"id": 3, "h": 2, "v": "c"}]
    p, rows = sql(run_cli, wh, "SELECT id FROM t WHERE h = 1")
    assert rows == [["id"]]
    assert sorted(x.name for x in (wh / "default.db" / "t").glob("h=*")) == ["h=1", "h=2", "h=9"]
    assert run_cli("check", wh, "default.t").returncode == 0


def test_update_partition_column_of_data_evolution_table_is_refused_as_spark(run_cli, tmp_path):
    wh = tmp_path / "wh"
    p, _ = sql(run_cli, wh, "CREATE TABLE t (id INT, h INT) PARTITIONED BY (h) TBLPROPERTIES "
                            "('row-tracking.enabled' = 'true', 'data-evolution.enabled' = 'true'); "
                            "INSERT INTO t VALUES (1, 1); UPDATE t SET h = 2")
    assert p.returncode == 1
    assert "Update to partition columns is not supported for data evolution tables." in p.stderr


# ---- MERGE INTO with db.t.col and catalog.db.t.col ----------------------------------------------

def test_merge_into_with_qualified_names(run_cli, tmp_path):
    wh = tmp_path / "wh"
    setup = ("CREATE DATABASE db; "
             "CREATE TABLE db.t (id INT, data STRING) TBLPROPERTIES "
             "('row-tracking.enabled' = 'true', 'data-evolution.enabled' = 'true'); "
             "CREATE TABLE db.s (id INT, data STRING); "
             "INSERT INTO db.t VALUES (1, 'a'), (2, 'b'); INSERT INTO db.s VALUES (1, 'x'), (3, 'y')")
    assert sql(run_cli, wh, setup)[0].returncode == 0
    p, _ = sql(run_cli, wh, "MERGE INTO db.t USING db.s ON db.t.id = db.s.id "
                            "WHEN MATCHED THEN UPDATE SET db.t.data = db.s.data")
    assert p.returncode == 0, p.stderr
    p, _ = sql(run_cli, wh, "MERGE INTO paimon.db.t USING db.s ON paimon.db.t.id = db.s.id "
                            "WHEN MATCHED THEN UPDATE SET paimon.db.t.data = "
                            "concat(spark_catalog.db.s.data, '!') "
                            "WHEN NOT MATCHED THEN INSERT (id, data) VALUES (db.s.id, db.s.data)")
    assert p.returncode == 0, p.stderr
    assert py_rows(wh, "db.t", ["id", "data"]) == [
        {"id": 1, "data": "x!"}, {"id": 2, "data": "b"}, {"id": 3, "data": "y"}]
    # With an alias the table's own name no longer qualifies its columns (Spark's resolution).
    p, _ = sql(run_cli, wh, "MERGE INTO db.t AS tt USING db.s ON db.t.id = db.s.id "
                            "WHEN MATCHED THEN UPDATE SET data = db.s.data")
    assert p.returncode == 1 and "'db.t.id' cannot be resolved" in p.stderr


# ---- size() and array() outside VALUES -----------------------------------------------------------

def test_size_and_array(run_cli, tmp_path):
    wh = tmp_path / "wh"
    p, _ = sql(run_cli, wh, "CREATE TABLE t (id INT, tags ARRAY<STRING>, m MAP<STRING, INT>) "
                            "TBLPROPERTIES ('row-tracking.enabled' = 'true'); "
                            "INSERT INTO t VALUES (1, array('a', 'b'), map('k', 1)), "
                            "(2, array(), NULL), (3, NULL, map('x', 1, 'y', 2))")
    assert p.returncode == 0, p.stderr
    # size of NULL is -1 (spark.sql.legacy.sizeOfNull, true by default); array(1, 2.5) is
    # array<decimal(11,1)>; array('x', id) is array<string>.
    p, rows = sql(run_cli, wh, "SELECT id, size(tags) AS a, cardinality(m) AS b, "
                               "size(array(1, 2, 3)) AS c, array(id, 2.5) AS d, array('x', id) AS e "
                               "FROM t ORDER BY id")
    assert p.returncode == 0, p.stderr
    assert rows == [["id", "a", "b", "c", "d", "e"],
                    ["1", "2", "1", "3", "[1.0, 2.5]", "[x, 1]"],
                    ["2", "0", "-1", "3", "[2.0, 2.5]", "[x, 2]"],
                    ["3", "-1", "2", "3", "[3.0, 2.5]", "[x, 3]"]]
    p, rows = sql(run_cli, wh, "SELECT id FROM t WHERE size(tags) = 2")
    assert rows == [["id"], ["1"]]
    p, _ = sql(run_cli, wh, "UPDATE t SET tags = array('z', concat('q', CAST(id AS STRING))) "
                            "WHERE id = 3")
    assert p.returncode == 0, p.stderr
    assert py_rows(wh, "default.t", ["id", "tags"])[2] == {"id": 3, "tags": ["z", "q3"]}
    p, _ = sql(run_cli, wh, "SELECT size(id) FROM t")
    assert p.returncode == 1 and "SIZE needs an ARRAY or a MAP" in p.stderr
