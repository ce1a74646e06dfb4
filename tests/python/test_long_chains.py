"""Long left-associative chains (issue 14, item 1): statements and predicates a hostile but fair
user writes — thousands of `+` terms, a WHERE with thousands of ORs, thousands of UNION ALLs, and
predicates joined two at a time in Python — used to overflow the stack (SIGSEGV, taking the
Python process with it). They now run: chains are walked with loops, and what stays recursive
(nesting in parentheses) has a limit with a message. Expected values are derived by hand."""
import csv
import io

import pyarrow as pa
import pytest

from cpaimon import CatalogFactory, Schema
from cpaimon.predicate import PredicateBuilder
from cpaimon.schema.data_types import AtomicType, DataField


def run_sql(run_cli, tmp_path, text):
    script = tmp_path / "q.sql"
    script.write_text(text)
    p = run_cli("sql", "--warehouse", tmp_path / "wh", "--format", "csv", "-f", script)
    return p, list(csv.reader(io.StringIO(p.stdout)))


def test_sum_of_many_terms(run_cli, tmp_path):
    n = 20000
    p, rows = run_sql(run_cli, tmp_path, "SELECT " + " + ".join(["1"] * n) + " AS s;\n")
    assert p.returncode == 0, p.stderr
    assert rows == [["s"], [str(n)]]


def test_mixed_arithmetic_and_comparison_chain(run_cli, tmp_path):
    # 1 - 1 + 1 - 1 ... (10000 terms, alternating): the running total is 1, 0, 1, 0, ... ending
    # at 0; then `= 0 = true` compares the comparison's result with TRUE.
    terms = " ".join(("-" if i % 2 else "+") + " 1" for i in range(1, 10000))
    p, rows = run_sql(run_cli, tmp_path, f"SELECT 1 {terms} AS a, (1 {terms}) = 0 = true AS b;\n")
    assert p.returncode == 0, p.stderr
    assert rows == [["a", "b"], ["0", "true"]]


def test_where_with_thousands_of_ors(run_cli, tmp_path):
    n = 5000
    cond = " OR ".join(f"id = {3 * i}" for i in range(n))
    text = ("CREATE TABLE t (id INT, name STRING);\n"
            "INSERT INTO t VALUES (0, 'a'), (4, 'b'), (9, 'c'), (14997, 'd'), (15000, 'e');\n"
            f"SELECT name FROM t WHERE {cond} ORDER BY id;\n")
    p, rows = run_sql(run_cli, tmp_path, text)
    assert p.returncode == 0, p.stderr
    # multiples of 3 below 15000
    assert rows[-4:] == [["name"], ["a"], ["c"], ["d"]]


def test_where_with_thousands_of_ands(run_cli, tmp_path):
    cond = " AND ".join(f"id <> {i}" for i in range(1, 5001))
    text = ("CREATE TABLE t (id INT);\nINSERT INTO t VALUES (0), (17), (5001);\n"
            f"SELECT id FROM t WHERE {cond} ORDER BY id;\n")
    p, rows = run_sql(run_cli, tmp_path, text)
    assert p.returncode == 0, p.stderr
    assert rows[-3:] == [["id"], ["0"], ["5001"]]


def test_ten_thousand_union_alls(run_cli, tmp_path):
    n = 10000
    text = " UNION ALL ".join(f"SELECT {i} AS v" for i in range(n)) + ";\n"
    p, rows = run_sql(run_cli, tmp_path, text)
    assert p.returncode == 0, p.stderr
    assert rows[0] == ["v"]
    assert [int(r[0]) for r in rows[1:]] == list(range(n))


def test_set_operation_chain_keeps_left_to_right_meaning(run_cli, tmp_path):
    # ((((1 ∪all 1) ∪all 2) ∪ 2) ∪all 3) except 1: the UNION (distinct) leaves {1, 2}, the UNION
    # ALL adds 3, EXCEPT removes 1. The third branch is BIGINT and the widening is kept.
    text = ("SELECT 1 AS v UNION ALL SELECT 1 UNION ALL SELECT CAST(2 AS BIGINT) UNION SELECT 2 "
            "UNION ALL SELECT 3 EXCEPT SELECT 1;\n")
    p, rows = run_sql(run_cli, tmp_path, text)
    assert p.returncode == 0, p.stderr
    assert sorted(rows[1:]) == [["2"], ["3"]]


def test_deep_parentheses_are_refused_with_a_message(run_cli, tmp_path):
    text = "SELECT " + "(" * 5000 + "1" + ")" * 5000 + ";\n"
    p, _ = run_sql(run_cli, tmp_path, text)
    assert p.returncode != 0
    assert "nested too deeply" in p.stderr


def _table(tmp_path):
    catalog = CatalogFactory.create({"warehouse": str(tmp_path / "pywh")})
    catalog.create_database("db", True)
    catalog.create_table("db.t", Schema(
        fields=[DataField(0, "id", AtomicType("INT")), DataField(1, "name", AtomicType("STRING"))],
        options={"row-tracking.enabled": "true", "data-evolution.enabled": "true"}), True)
    table = catalog.get_table("db.t")
    wb = table.new_batch_write_builder()
    write, commit = wb.new_write(), wb.new_commit()
    write.write_arrow(pa.table({"id": pa.array(range(10), pa.int32()),
                                "name": [str(i) for i in range(10)]}))
    commit.commit(write.prepare_commit())
    return table


def _ids(table, predicate):
    rb = table.new_read_builder().with_filter(predicate).with_projection(["id"])
    return sorted(rb.new_read().to_arrow(rb.new_scan().plan().splits())["id"].to_pylist())


@pytest.mark.parametrize("left_to_right", [True, False])
def test_python_predicates_joined_pairwise(tmp_path, left_to_right):
    table = _table(tmp_path)
    pb = PredicateBuilder()
    p = pb.equal("id", 100)
    for i in range(5000):
        q = pb.equal("id", 2 * (i % 1000) + 1)  # odd ids 1 .. 1999
        p = pb.or_predicates([p, q] if left_to_right else [q, p])
    assert _ids(table, p) == [1, 3, 5, 7, 9]
    a = pb.is_not_null("id")
    for i in range(5000):
        a = pb.and_predicates([a, pb.not_equal("id", i % 7)])
    assert _ids(table, a) == [7, 8, 9]


def test_python_alternating_and_or(tmp_path):
    table = _table(tmp_path)
    pb = PredicateBuilder()
    p = pb.equal("id", 0)
    for i in range(1, 5000):
        if i % 2:
            p = pb.or_predicates([p, pb.equal("id", i // 2 + 1)])
        else:
            p = pb.and_predicates([p, pb.less_than("id", 5)])
    # The last AND (i = 4998) keeps ids < 5; the last OR (i = 4999) adds id 2500.
    assert _ids(table, p) == [0, 1, 2, 3, 4]


def test_python_right_nesting_beyond_the_limit_is_an_error(tmp_path):
    pb = PredicateBuilder()
    p = pb.equal("id", 0)
    for i in range(1000):
        inner = pb.or_predicates([pb.equal("id", 1), p])
        p = pb.and_predicates([pb.is_not_null("id"), inner])
    with pytest.raises(ValueError, match="nested too deeply"):
        repr(p)
