"""pypaimon's PredicateBuilder (issue 15 item 3): the constructor over a table's fields (an unknown
column refused with pypaimon's message) and every predicate it has, ``like`` included, evaluated
by the C library; each filter reads exactly the rows pypaimon reads from the same table."""
import pyarrow as pa
import pypaimon
import pytest

import cpaimon
from cpaimon.predicate import PredicateBuilder

NAMES = ["apple", "banana", "cherry", "a_b", "a%b", "Apple", None, "", "abc", "xbcx"]


@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    opts = {"warehouse": str(tmp_path_factory.mktemp("pred") / "wh")}
    cat = cpaimon.CatalogFactory.create(opts)
    cat.create_database("db", False)
    cat.create_table("db.t", cpaimon.Schema.from_pyarrow_schema(
        pa.schema([("id", pa.int32()), ("s", pa.string()), ("x", pa.float64())])), False)
    t = cat.get_table("db.t")
    for lo in (0, 5):  # two files: statistics pruning meets both outcomes
        wb = t.new_batch_write_builder()
        w = wb.new_write()
        ids = list(range(lo, lo + 5))
        w.write_arrow(pa.table({"id": pa.array(ids, pa.int32()), "s": NAMES[lo:lo + 5],
                                "x": [i * 1.5 if i != 3 else None for i in ids]}))
        wb.new_commit().commit(w.prepare_commit())
    return t, pypaimon.CatalogFactory.create(opts).get_table("db.t")


def ids(table, build):
    rb = table.new_read_builder()
    rb = rb.with_filter(build(rb.new_predicate_builder()))
    return sorted(rb.new_read().to_arrow(rb.new_scan().plan().splits())["id"].to_pylist())


CASES = {
    "like_prefix": lambda b: b.like("s", "a%"),
    "like_one": lambda b: b.like("s", "a_b"),
    "like_escaped_underscore": lambda b: b.like("s", "a\\_b"),
    "like_escaped_percent": lambda b: b.like("s", "a\\%b"),
    "like_inner": lambda b: b.like("s", "%bc%"),
    "like_exact": lambda b: b.like("s", "cherry"),
    "like_all": lambda b: b.like("s", "%"),
    "like_empty": lambda b: b.like("s", ""),
    "startswith": lambda b: b.startswith("s", "a"),
    "endswith": lambda b: b.endswith("s", "e"),
    "contains": lambda b: b.contains("s", "an"),
    "between": lambda b: b.between("x", 2.0, 9.0),
    "not_between": lambda b: b.not_between("x", 2.0, 9.0),
    "is_in": lambda b: b.is_in("s", ["apple", "abc", "zzz"]),
    "is_not_in": lambda b: b.is_not_in("id", [1, 2]),
    "is_null": lambda b: b.is_null("x"),
    "is_not_null": lambda b: b.is_not_null("s"),
    "and_or": lambda b: b.or_predicates([b.and_predicates([b.greater_than("id", 2),
                                                           b.less_or_equal("id", 6)]),
                                         b.equal("s", "xbcx")]),
    "not_equal": lambda b: b.not_equal("s", "banana"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_reads_pypaimons_rows(tables, name):
    ours, theirs = tables
    assert ids(ours, CASES[name]) == ids(theirs, CASES[name])


def test_like_matches_sql_semantics(tables):
    ours, _ = tables
    assert ids(ours, lambda b: b.like("s", "a\\_b")) == [3]
    assert ids(ours, lambda b: b.like("s", "a_b")) == [3, 4]
    with pytest.raises(ValueError, match="escape"):
        ids(ours, lambda b: b.like("s", "a\\b"))


def test_constructor_over_fields(tables):
    ours, theirs = tables
    b = PredicateBuilder(ours.fields)
    assert b.field_names == ["id", "s", "x"]
    rb = ours.new_read_builder().with_filter(b.greater_than("id", 7))
    assert sorted(rb.new_read().to_arrow(rb.new_scan().plan().splits())["id"].to_pylist()) == [
        8, 9]
    with pytest.raises(ValueError, match=r"The field nope is not in field list \['id', 's', "
                                         r"'x'\]."):
        b.equal("nope", 1)
    from pypaimon.common.predicate_builder import PredicateBuilder as PyBuilder
    with pytest.raises(ValueError, match=r"The field nope is not in field list"):
        PyBuilder(theirs.fields).equal("nope", 1)
