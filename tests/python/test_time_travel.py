"""Time travel with the snapshot's schema (include/cpaimon/read.h, docs/python.md): cpaimon's
``table.copy({'scan.snapshot-id': n})`` and ``ReadBuilder.with_snapshot(n)`` against pypaimon's
``FileStoreTable.copy`` (the oracle, which follows Java's AbstractFileStoreTable.tryTimeTravel).

One history, written once by pypaimon and once by cpaimon, on a row-tracking + data-evolution
table: ADD COLUMN, a partial-column update by _ROW_ID, RENAME COLUMN, DROP COLUMN, widening
INT -> BIGINT (pypaimon only: cpaimon's ALTER TABLE cannot change a type yet, so the cpaimon-written
history skips that step) and SET option without a later commit. For every snapshot both libraries
read the same column names, Arrow types and rows (with _ROW_ID and _SEQUENCE_NUMBER), which also
equal the rows the history wrote (EXPECTED, derived from the writes, not from either reader).

Named expected differences (cpaimon keeps its documented behaviour):
- PYPAIMON_DROPS_UNKNOWN_PROJECTION: pypaimon silently drops projected names its schema lacks;
  cpaimon raises ValueError naming the column (and the snapshot), as for any unknown column.
- UNPIN_RETURNS_TO_CURRENT_SCHEMA: ``copy({'scan.snapshot-id': None})`` of a pinned table reads
  the latest snapshot with the pinned (historical) schema in pypaimon and Java (copyInternal keeps
  the copy's schema); cpaimon returns to the table's current schema.
"""
import pyarrow as pa
import pypaimon
import pytest
from pypaimon.schema.data_types import AtomicType as PyAtomicType
from pypaimon.schema.schema_change import SchemaChange as PySchemaChange

import cpaimon
from cpaimon.data_evolution_merge_into import WhenMatched, source_col
from cpaimon.schema.data_types import AtomicType
from cpaimon.schema.schema_change import SchemaChange

HIDDEN = ["_ROW_ID", "_SEQUENCE_NUMBER"]
OPTIONS = {"row-tracking.enabled": "true", "data-evolution.enabled": "true"}
SCHEMA0 = pa.schema([pa.field("id", pa.int32(), nullable=False), ("name", pa.string()),
                     ("age", pa.int32())])

# Per snapshot: the schema id it was committed with, its columns, and its rows as
# (column values..., _ROW_ID, _SEQUENCE_NUMBER). Snapshot 3's update writes a partial file for
# the row-id group 0..1 (the first write), so both rows of that group read sequence number 3.
EXPECTED = {
    1: (0, ["id", "name", "age"], [(1, "a", 10, 0, 1), (2, "b", 20, 1, 1)]),
    2: (1, ["id", "name", "age", "city"],
        [(1, "a", 10, None, 0, 1), (2, "b", 20, None, 1, 1), (3, "c", 30, "x", 2, 2)]),
    3: (1, ["id", "name", "age", "city"],
        [(1, "a", 10, "Oslo", 0, 3), (2, "b", 20, None, 1, 3), (3, "c", 30, "x", 2, 2)]),
    4: (2, ["id", "full_name", "age", "city"],
        [(1, "a", 10, "Oslo", 0, 3), (2, "b", 20, None, 1, 3), (3, "c", 30, "x", 2, 2),
         (4, "d", 40, "y", 3, 4)]),
    5: (3, ["id", "full_name", "age"],
        [(1, "a", 10, 0, 3), (2, "b", 20, 1, 3), (3, "c", 30, 2, 2), (4, "d", 40, 3, 4),
         (5, "e", 50, 4, 5)]),
    6: (4, ["id", "full_name", "age"],
        [(1, "a", 10, 0, 3), (2, "b", 20, 1, 3), (3, "c", 30, 2, 2), (4, "d", 40, 3, 4),
         (5, "e", 50, 4, 5), (6, "f", 60, 5, 6)]),
}
AGE_TYPE = {n: pa.int64() if n == 6 else pa.int32() for n in EXPECTED}


class Env:
    """One warehouse opened by both libraries."""

    def __init__(self, path):
        self.path = str(path)
        self.cp = cpaimon.CatalogFactory.create({"warehouse": self.path})
        self.cp.create_database("db", True)
        self.py = pypaimon.CatalogFactory.create({"warehouse": self.path})

    def table(self, lib, ident="db.t"):
        return (self.cp if lib == "cp" else self.py).get_table(ident)

    def write(self, lib, data, ident="db.t"):
        wb = self.table(lib, ident).new_batch_write_builder()
        w, c = wb.new_write(), wb.new_commit()
        w.write_arrow(data)
        c.commit(w.prepare_commit())
        w.close()
        c.close()

    def alter(self, lib, change, ident="db.t"):
        (self.cp if lib == "cp" else self.py).alter_table(ident, [change])


def make_history(env, lib):
    """The history of the module docstring, written by `lib`; returns the last snapshot id."""
    env.py.create_table("db.t", pypaimon.Schema.from_pyarrow_schema(SCHEMA0, options=OPTIONS),
                        False)
    sc, types = (SchemaChange, AtomicType) if lib == "cp" else (PySchemaChange, PyAtomicType)

    def rows(ids, names, ages, **extra):
        cols = {"id": pa.array(ids, pa.int32()), "name": names, "age": pa.array(ages, pa.int32())}
        cols.update(extra)
        return pa.table(cols)

    env.write(lib, rows([1, 2], ["a", "b"], [10, 20]).cast(SCHEMA0))
    env.alter(lib, sc.add_column("city", types("STRING")))
    env.write(lib, rows([3], ["c"], [30], city=["x"]).cast(
        SCHEMA0.append(pa.field("city", pa.string()))))
    wb = env.table(lib).new_batch_write_builder()
    msgs = wb.new_update().with_update_type(["city"]).update_by_arrow_with_row_id(
        pa.table({"_ROW_ID": pa.array([0], pa.int64()), "city": ["Oslo"]}))
    wb.new_commit().commit(msgs)
    env.alter(lib, sc.rename_column("name", "full_name"))
    env.write(lib, pa.table({"id": pa.array([4], pa.int32()), "full_name": ["d"],
                             "age": pa.array([40], pa.int32()), "city": ["y"]}).cast(
        pa.schema([pa.field("id", pa.int32(), nullable=False), ("full_name", pa.string()),
                   ("age", pa.int32()), ("city", pa.string())])))
    env.alter(lib, sc.drop_column("city"))
    five = pa.schema([pa.field("id", pa.int32(), nullable=False), ("full_name", pa.string()),
                      ("age", pa.int32())])
    env.write(lib, pa.table({"id": pa.array([5], pa.int32()), "full_name": ["e"],
                             "age": pa.array([50], pa.int32())}).cast(five))
    last = 5
    if lib == "py":
        env.alter(lib, sc.update_column_type("age", types("BIGINT")))
        env.write(lib, pa.table({"id": pa.array([6], pa.int32()), "full_name": ["f"],
                                 "age": pa.array([60], pa.int64())}).cast(
            pa.schema([five.field("id"), five.field("full_name"), ("age", pa.int64())])))
        last = 6
    env.alter(lib, sc.set_option("owner", "analytics"))
    return last


@pytest.fixture(params=["py", "cp"], ids=["written-by-pypaimon", "written-by-cpaimon"])
def history(request, tmp_path):
    env = Env(tmp_path / "wh")
    return env, make_history(env, request.param)


def read(table, projection=None, predicate=None, snapshot=None):
    rb = table.new_read_builder()
    if snapshot is not None:
        rb = rb.with_snapshot(snapshot)
    if projection is not None:
        rb = rb.with_projection(projection)
    if predicate is not None:
        rb = rb.with_filter(predicate(rb.new_predicate_builder()))
    return rb.new_read().to_arrow(rb.new_scan().plan().splits())


def columns(result):
    return [(f.name, f.type, f.nullable) for f in result.schema]


def tuples(result):
    result = result.sort_by("_ROW_ID") if "_ROW_ID" in result.column_names else result
    return [tuple(r.values()) for r in result.to_pylist()]


def test_every_snapshot_reads_as_pypaimon(history):
    env, last = history
    py_base, cp_base = env.table("py"), env.table("cp")
    for n in range(1, last + 1):
        schema_id, names, rows = EXPECTED[n]
        py_t = py_base.copy({"scan.snapshot-id": str(n)})
        cp_t = cp_base.copy({"scan.snapshot-id": str(n)})
        assert py_t.table_schema.id == cp_t.schema_id == schema_id
        assert [f.name for f in cp_t.fields] == [f.name for f in py_t.fields] == names
        assert cp_t.arrow_schema().names == names
        theirs = read(py_t, names + HIDDEN)
        ours = read(cp_t, names + HIDDEN)
        assert columns(ours) == columns(theirs), n
        assert ours.schema.field("age").type == AGE_TYPE[n]
        assert tuples(ours) == tuples(theirs) == rows, n
        # with_snapshot on the table itself is the same read; so is the copy's default projection.
        assert columns(read(cp_base, names + HIDDEN, snapshot=n)) == columns(theirs)
        assert tuples(read(cp_base, names + HIDDEN, snapshot=n)) == rows
        assert read(cp_t).column_names == names
    # The latest read (no snapshot) keeps the table's own, newest schema.
    latest = EXPECTED[last]
    assert env.table("cp").schema_id == latest[0] + 1  # the SET option after the last commit
    assert tuples(read(env.table("cp"), latest[1] + HIDDEN)) == latest[2]
    assert columns(read(env.table("cp"), latest[1] + HIDDEN)) == \
        columns(read(env.table("py"), latest[1] + HIDDEN))


def test_filters_and_projections_use_the_snapshot_schema(history):
    env, _ = history
    py_t = env.table("py").copy({"scan.snapshot-id": "2"})
    cp_t = env.table("cp").copy({"scan.snapshot-id": "2"})

    def by_old_name(pb):
        return pb.greater_than("name", "a")

    assert tuples(read(cp_t, ["name", "city"] + HIDDEN, by_old_name)) == \
        tuples(read(py_t, ["name", "city"] + HIDDEN, by_old_name)) == \
        [("b", None, 1, 1), ("c", "x", 2, 2)]
    # A filter on a column the snapshot does not have is an error in both.
    with pytest.raises(ValueError, match="full_name"):
        read(py_t, predicate=lambda pb: pb.equal("full_name", "a"))
    with pytest.raises(ValueError, match=r"^filter on table db\.t at snapshot 2: column 'full_name'"):
        read(cp_t, predicate=lambda pb: pb.equal("full_name", "a"))
    # PYPAIMON_DROPS_UNKNOWN_PROJECTION: pypaimon drops names its schema lacks, cpaimon raises.
    assert read(py_t, ["id", "full_name"]).column_names == ["id"]
    with pytest.raises(ValueError, match=r"^Column full_name is not in table db\.t at snapshot 2\.$"):
        read(cp_t, ["id", "full_name"])
    with pytest.raises(ValueError, match=r"^Column name is not in table db\.t\.$"):
        read(env.table("cp"), ["name"])


def test_missing_and_bad_snapshot_ids(history):
    env, last = history
    for lib in ("py", "cp"):
        base = env.table(lib)
        for bad in (str(last + 1), "0"):
            copy = base.copy({"scan.snapshot-id": bad})  # as Java: no error until the scan
            names = [f.name for f in copy.fields]
            assert names == EXPECTED[last][1], lib
            with pytest.raises(ValueError, match=rf"^Snapshot id '{bad}' doesn't exist\.$"):
                copy.new_read_builder().new_scan().plan()
        with pytest.raises(ValueError, match="invalid literal for int"):
            base.copy({"scan.snapshot-id": "abc"}).new_read_builder().new_scan().plan()
        with pytest.raises(ValueError, match="^Cannot change bucket number$"):
            base.copy({"bucket": "4"})
    with pytest.raises(ValueError, match=rf"^Snapshot id '{last + 1}' doesn't exist\.$"):
        read(env.table("cp"), snapshot=last + 1)


def test_copy_options(history):
    env, last = history
    py_base, cp_base = env.table("py"), env.table("cp")
    # copy({}) and other options leave the table as it is.
    for copy in (cp_base.copy({}), cp_base.copy({"foo": "bar"})):
        assert copy.schema_id == cp_base.schema_id
        assert tuples(read(copy, EXPECTED[last][1] + HIDDEN)) == EXPECTED[last][2]
    assert cp_base.copy({"foo": "bar"}).options["foo"] == "bar"
    assert py_base.copy({"foo": "bar"}).options.options.to_map()["foo"] == "bar"
    assert cp_base.copy({"foo": "bar"}).options["owner"] == "analytics"
    # The snapshot's schema comes with the table's current options, as in Java.
    pinned = cp_base.copy({"scan.snapshot-id": "1"})
    assert pinned.options["owner"] == "analytics"
    assert pinned.options["scan.snapshot-id"] == "1"
    assert py_base.copy({"scan.snapshot-id": "1"}).table_schema.options["owner"] == "analytics"
    # A copy of a pinned table stays pinned; scan.version <digits> is scan.snapshot-id.
    assert pinned.copy({}).schema_id == py_base.copy({"scan.snapshot-id": "1"}).copy(
        {}).table_schema.id == 0
    assert cp_base.copy({"scan.version": "4"}).schema_id == \
        py_base.copy({"scan.version": "4"}).table_schema.id == 2
    assert tuples(read(cp_base.copy({"scan.version": "2"}), ["id"] + HIDDEN)) == \
        [r[:1] + r[-2:] for r in EXPECTED[2][2]]
    # with_snapshot overrides the copy's snapshot, with that snapshot's schema.
    assert read(pinned, snapshot=4).column_names == EXPECTED[4][1]
    # UNPIN_RETURNS_TO_CURRENT_SCHEMA (see the module docstring).
    unpinned = pinned.copy({"scan.snapshot-id": None})
    assert py_base.copy({"scan.snapshot-id": "1"}).copy(
        {"scan.snapshot-id": None}).table_schema.id == 0
    assert unpinned.schema_id == cp_base.schema_id
    assert tuples(read(unpinned, EXPECTED[last][1] + HIDDEN)) == EXPECTED[last][2]


def test_unresolvable_time_travel_options(tmp_path):
    """A missing tag or a moment before every snapshot fails at copy, as Java's copy
    (TimeTravelUtil) does; a watermark (unsupported) and conflicting options fail the scan.
    Tags and timestamps that resolve: tests/python/test_tags_rollback.py."""
    env = Env(tmp_path / "wh")
    make_history(env, "cp")
    base = env.table("cp")
    for options, message in [({"scan.tag-name": "t1"}, "Tag 't1' doesn't exist."),
                             ({"scan.timestamp-millis": "1"}, "no snapshot earlier than or equal"),
                             ({"scan.timestamp": "1970-01-01 00:00:00"}, "no snapshot earlier")]:
        with pytest.raises(ValueError, match=message):
            base.copy(options)
    for options, error in [({"scan.watermark": "5"}, NotImplementedError),
                           ({"scan.version": "tag-x"}, ValueError),
                           ({"scan.snapshot-id": "1", "scan.tag-name": "t"}, ValueError)]:
        copy = base.copy(options)
        with pytest.raises(error):
            copy.new_read_builder().new_scan().plan()
    with pytest.raises(ValueError, match="^Only one of the following parameters may be set"):
        base.copy({"scan.snapshot-id": "1", "scan.timestamp": "x"}).new_read_builder() \
            .new_scan().plan()


def test_cli_and_sql_time_travel(tmp_path, run_cli):
    env = Env(tmp_path / "wh")
    make_history(env, "cp")
    out = run_cli("cat", env.path, "db.t", "--snapshot", "1", "--format", "csv",
                  "--with-row-tracking")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["id,name,age,_ROW_ID,_SEQUENCE_NUMBER", "1,a,10,0,1",
                                       "2,b,20,1,1"]
    out = run_cli("cat", env.path, "db.t", "--snapshot", "4", "--columns", "city,full_name",
                  "--format", "csv")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["city,full_name", "Oslo,a", ",b", "x,c", "y,d"]
    out = run_cli("cat", env.path, "db.t", "--snapshot", "1", "--columns", "full_name")
    assert out.returncode != 0
    assert "Column full_name is not in table db.t at snapshot 1." in out.stderr
    out = run_cli("sql", "--warehouse", env.path, "--format", "csv", "-e",
                  "SELECT name, city FROM db.t VERSION AS OF 3 ORDER BY name")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["name,city", "a,Oslo", "b,", "c,x"]


# ---- the updaters read their base snapshot in the table's current schema -----------------------
#
# They need src/table/update_predicate.c, update_merge.c and delete.c to call
# cp_read_builder_pin_snapshot instead of paimon_read_builder_set_snapshot (outside this change's
# files; see the report). Until then they fail; strict, so the markers go with that change.
UPDATERS_PINNED = pytest.mark.xfail(
    strict=True, raises=ValueError,
    reason="needs cp_read_builder_pin_snapshot in update_predicate.c / update_merge.c / delete.c")


def added_column_table(tmp_path):
    """A table whose latest snapshot predates ADD COLUMN c (no commit since)."""
    env = Env(tmp_path / "wh")
    env.py.create_table("db.u", pypaimon.Schema.from_pyarrow_schema(
        pa.schema([("id", pa.int32()), ("name", pa.string())]),
        options={**OPTIONS, "deletion-vectors.enabled": "true"}), False)
    env.write("cp", pa.table({"id": pa.array([1, 2], pa.int32()), "name": ["a", "b"]}), "db.u")
    env.alter("cp", SchemaChange.add_column("c", AtomicType("STRING")), "db.u")
    return env, env.table("cp", "db.u")


def commit(table, msgs):
    c = table.new_batch_write_builder().new_commit()
    c.commit(msgs)
    c.close()


@UPDATERS_PINNED
def test_update_by_predicate_after_add_column(tmp_path):
    env, t = added_column_table(tmp_path)
    u = t.new_batch_write_builder().new_update()
    commit(t, u.update_by_predicate(u.new_predicate_builder().is_null("c"), {"c": "v"}))
    assert read(env.table("cp", "db.u"), ["id", "c"]).to_pylist() == [
        {"id": 1, "c": "v"}, {"id": 2, "c": "v"}]


@UPDATERS_PINNED
def test_delete_by_predicate_after_add_column(tmp_path):
    env, t = added_column_table(tmp_path)
    u = t.new_batch_write_builder().new_update()
    commit(t, u.delete_by_predicate(u.new_predicate_builder().is_null("c")))
    assert read(env.table("cp", "db.u"), ["id"]).num_rows == 0


@UPDATERS_PINNED
def test_merge_into_after_add_column(tmp_path):
    env, t = added_column_table(tmp_path)
    u = t.new_batch_write_builder().new_update()
    commit(t, u.merge_into(pa.table({"id": pa.array([2], pa.int32()), "c": ["m"]}), on=["id"],
                           when_matched=[WhenMatched.update({"c": source_col("c")})]))
    assert read(env.table("cp", "db.u"), ["id", "c"]).to_pylist() == [
        {"id": 1, "c": None}, {"id": 2, "c": "m"}]


def test_sql_dml_after_add_column(tmp_path, run_cli):
    """SQL UPDATE / DELETE read the latest snapshot without pinning it: unaffected today."""
    wh = str(tmp_path / "wh")
    out = run_cli("sql", "--warehouse", wh, "--format", "csv", "-e",
                  "CREATE TABLE t (id INT, name STRING) TBLPROPERTIES ('row-tracking.enabled'="
                  "'true', 'data-evolution.enabled'='true', 'deletion-vectors.enabled'='true');"
                  "INSERT INTO t VALUES (1, 'a'), (2, 'b');"
                  "ALTER TABLE t ADD COLUMN c STRING;"
                  "UPDATE t SET c = 'v' WHERE c IS NULL AND id = 1;"
                  "ALTER TABLE t ADD COLUMN d STRING;"
                  "DELETE FROM t WHERE d IS NULL AND id = 2;"
                  "SELECT id, c FROM t;"
                  "SELECT id, name FROM t VERSION AS OF 1 ORDER BY id")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["id,c", "1,v", "id,name", "1,a", "2,b"]

