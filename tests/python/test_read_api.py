"""pypaimon read-API parity (python/cpaimon/read.py over include/cpaimon/read.h):
``ReadBuilder.with_limit``, ``with_partition_filter``, ``TableScan.with_shard`` / ``with_slice``,
``TableRead.to_iterator`` and ``to_duckdb``, each against pypaimon 2.1.0 (the oracle) on the same
table, written once by pypaimon and once by cpaimon.

Tables: a partitioned data-evolution table whose first write was later partly updated (so some
row-id groups are read merged), a partitioned row-tracking append table without data evolution,
and a data-evolution table with deletion vectors where both libraries deleted rows. Shards are compared by the _ROW_ID sets each shard reads (and the rows' values), which
must be pypaimon's, and together must be the whole table exactly once.

Named expected differences (cpaimon keeps its documented behaviour):
- SPLIT_GRANULARITY: cpaimon plans one split per file (per row-id group on data-evolution
  tables) where pypaimon packs files into splits by size, so split counts differ; the rows read
  (and with a limit, which rows) are the same.
- ROW_KIND: pypaimon 2.1.0's rows from to_iterator report RowKind.UPDATE_BEFORE (OffsetRow's
  default kind byte, 1); cpaimon's report INSERT, what a row of an append table is.
- LIMIT_ROWS: pypaimon's to_arrow reads splits in parallel by default, and with a limit then
  returns "an arbitrary subset of the requested size" (its docstring); cpaimon returns the first
  rows in read order. The tests read pypaimon with parallelism=1, which returns those too, except
  on data-evolution tables: pypaimon 2.1.0's limited read there leaves a split of several row-id
  groups early (limit 13 on db.de reads 5 of partition a's 11 rows, then 8 of b's) even
  serially; there only the count and membership of its rows are compared.
- PYPAIMON_FILTERED_ROW_ID: pypaimon 2.1.0 reads wrong _ROW_IDs (counted from the first row
  that passed) or fails (IndexError in _assign_row_tracking when a batch filters to nothing) when
  a row filter is given on a row-tracking table without data evolution; filtered reads of db.app
  are therefore compared without _ROW_ID.
- NEGATIVE_LIMIT_TYPE: a limit that is not an int is a TypeError at with_limit in cpaimon;
  pypaimon stores anything and fails later or not at all.
"""
import duckdb
import pyarrow as pa
import pypaimon
import pypaimon.table.file_store_table
import pytest

import cpaimon

SCHEMA = pa.schema([pa.field("id", pa.int32(), nullable=False), ("pt", pa.string()),
                    ("v", pa.int64())])
DE_OPTIONS = {"row-tracking.enabled": "true", "data-evolution.enabled": "true"}
APPEND_OPTIONS = {"row-tracking.enabled": "true"}
DV_OPTIONS = dict(DE_OPTIONS, **{"deletion-vectors.enabled": "true"})
DV_DELETED = {"py": [2, 20], "cp": [1, 5, 13, 21]}  # row ids each library deletes
COLS = ["id", "pt", "v", "_ROW_ID"]
PARTS = ["a", "b", "c", "a", "b"]


class Env:
    """One warehouse opened by both libraries."""

    def __init__(self, path):
        self.cp = cpaimon.CatalogFactory.create({"warehouse": str(path)})
        self.cp.create_database("db", True)
        self.py = pypaimon.CatalogFactory.create({"warehouse": str(path)})

    def table(self, lib, ident):
        return (self.cp if lib == "cp" else self.py).get_table(ident)

    def commit(self, lib, ident, fill):
        wb = self.table(lib, ident).new_batch_write_builder()
        w, c = wb.new_write(), wb.new_commit()
        fill(wb, w, c)
        w.close()
        c.close()


def batch(first, n):
    ids = list(range(first, first + n))
    return pa.table({"id": pa.array(ids, pa.int32()), "pt": [PARTS[i % 5] for i in ids],
                     "v": pa.array([i * 10 for i in ids], pa.int64())}, schema=SCHEMA)


def make_table(env, lib, ident, options, update):
    env.py.create_table(ident, pypaimon.Schema.from_pyarrow_schema(
        SCHEMA, partition_keys=["pt"], options=options), False)
    for first, n in [(0, 12), (12, 7), (19, 9)]:
        env.commit(lib, ident, lambda wb, w, c: (w.write_arrow(batch(first, n)),
                                                 c.commit(w.prepare_commit())))
    if update:
        # A partial-column file over part of the first write: its groups are read merged.
        def fill(wb, w, c):
            msgs = wb.new_update().with_update_type(["v"]).update_by_arrow_with_row_id(
                pa.table({"_ROW_ID": pa.array([0, 1, 5], pa.int64()),
                          "v": pa.array([-1, -2, -3], pa.int64())}))
            c.commit(msgs)
        env.commit(lib, ident, fill)


@pytest.fixture(scope="module", params=["py", "cp"],
                ids=["written-by-pypaimon", "written-by-cpaimon"])
def env(request, tmp_path_factory):
    env = Env(tmp_path_factory.mktemp("wh"))
    make_table(env, request.param, "db.de", DE_OPTIONS, update=True)
    make_table(env, request.param, "db.app", APPEND_OPTIONS, update=False)
    make_table(env, request.param, "db.dv", DV_OPTIONS, update=False)
    for lib, ids in DV_DELETED.items():
        env.commit(lib, "db.dv", lambda wb, w, c: c.commit(wb.new_update().delete_by_row_id(ids)))
    return env


TABLES = ["db.de", "db.app"]


def read(table, projection=COLS, shard=None, slice_=None, limit=None, pfilter=None,
         rfilter=None):
    rb = table.new_read_builder().with_projection(projection)
    if limit is not None:
        rb = rb.with_limit(limit)
    if pfilter is not None:
        rb = rb.with_partition_filter(pfilter(rb.new_predicate_builder()))
    if rfilter is not None:
        rb = rb.with_filter(rfilter(rb.new_predicate_builder()))
    scan = rb.new_scan()
    if shard is not None:
        scan = scan.with_shard(*shard)
    if slice_ is not None:
        scan = scan.with_slice(*slice_)
    if limit is not None and isinstance(table, pypaimon.table.file_store_table.FileStoreTable):
        return rb.new_read().to_arrow(scan.plan().splits(), parallelism=1)  # LIMIT_ROWS
    return rb.new_read().to_arrow(scan.plan().splits())


def rows(result):
    """The rows as tuples, in read order."""
    return [tuple(r.values()) for r in result.to_pylist()]


def by_row_id(result):
    return sorted(rows(result), key=lambda r: r[-1])


def filtered_cols(ident):
    return COLS if ident == "db.de" else ["id", "pt", "v"]  # PYPAIMON_FILTERED_ROW_ID


def both(env, ident, **kwargs):
    return read(env.table("cp", ident), **kwargs), read(env.table("py", ident), **kwargs)


@pytest.mark.parametrize("ident", TABLES)
def test_whole_table_reads_as_pypaimon(env, ident):
    ours, theirs = both(env, ident)
    assert ours.num_rows == 28
    assert rows(ours) == rows(theirs)  # same order too: (partition, bucket) groups
    if ident == "db.de":
        assert {r[0]: r[2] for r in rows(ours)}[0] == -1  # the merged update is read


@pytest.mark.parametrize("ident", TABLES)
def test_shards_read_pypaimons_rows(env, ident):
    everything = by_row_id(read(env.table("cp", ident)))
    for n in [1, 2, 3, 4, 7, 30]:
        union = []
        for i in range(n):
            ours, theirs = both(env, ident, shard=(i, n))
            assert by_row_id(ours) == by_row_id(theirs), (ident, i, n)
            # pypaimon's rule: contiguous blocks, the first 28 % n one row larger.
            assert ours.num_rows == 28 // n + (1 if i < 28 % n else 0)
            union += by_row_id(ours)
        assert sorted(union, key=lambda r: r[-1]) == everything  # each row exactly once


def test_data_evolution_shard_is_a_row_id_range(env):
    ids = [r[-1] for r in by_row_id(read(env.table("cp", "db.de"), shard=(1, 3)))]
    assert ids == list(range(10, 19))  # positions 10..18 of row ids 0..27


def test_deletion_vectors_shards_and_limits(env):
    """Deleted rows keep their positions: shard i of 3 is still row ids [10, 19), less the
    deleted ones, as in pypaimon; the limit is not pushed down (Java: data evolution + DVs)."""
    deleted = set(DV_DELETED["py"] + DV_DELETED["cp"])
    union = []
    for i, (lo, hi) in enumerate([(0, 10), (10, 19), (19, 28)]):
        ours, theirs = both(env, "db.dv", shard=(i, 3))
        assert by_row_id(ours) == by_row_id(theirs)
        assert [r[-1] for r in by_row_id(ours)] == [x for x in range(lo, hi) if x not in deleted]
        union += by_row_id(ours)
    assert len(union) == 28 - len(deleted)
    for limit in [3, 9, 100]:
        ours, theirs = both(env, "db.dv", limit=limit)
        assert ours.num_rows == theirs.num_rows == min(limit, 28 - len(deleted))
        assert rows(ours) == rows(read(env.table("cp", "db.dv")))[:ours.num_rows]
    t = env.table("cp", "db.dv")
    assert (len(t.new_read_builder().with_limit(1).new_scan().plan().splits())
            == len(t.new_read_builder().new_scan().plan().splits()))


@pytest.mark.parametrize("ident", TABLES)
@pytest.mark.parametrize("bounds", [(0, 5), (3, 9), (11, 12), (20, 100), (28, 30)])
def test_slices_read_pypaimons_rows(env, ident, bounds):
    ours, theirs = both(env, ident, slice_=bounds)
    assert by_row_id(ours) == by_row_id(theirs)
    assert ours.num_rows == max(0, min(28, bounds[1]) - bounds[0])


@pytest.mark.parametrize("ident", TABLES)
@pytest.mark.parametrize("limit", [1, 4, 7, 13, 28, 100, 0, -3])
def test_limit_reads_pypaimons_rows(env, ident, limit):
    ours, theirs = both(env, ident, limit=limit)
    assert ours.num_rows == theirs.num_rows == max(0, min(limit, 28))
    assert rows(ours) == rows(read(env.table("cp", ident)))[:ours.num_rows]
    if ident == "db.de":  # LIMIT_ROWS: any rows of the table
        assert set(rows(theirs)) <= set(rows(read(env.table("py", ident))))
    else:
        assert rows(ours) == rows(theirs)


@pytest.mark.parametrize("ident", TABLES)
def test_limit_push_down_prunes_splits(env, ident):
    t = env.table("cp", ident)
    all_splits = t.new_read_builder().new_scan().plan().splits()
    rb = t.new_read_builder().with_limit(3)
    limited = rb.new_scan().plan().splits()
    # Java's rule: splits in plan order until their row counts reach the limit.
    count, expected = 0, 0
    for s in all_splits:
        expected += 1
        count += s.row_count
        if count >= 3:
            break
    assert len(limited) == expected < len(all_splits)
    # A filter on a data column makes counts say nothing: nothing is pruned, rows still stop.
    gt = lambda pb: pb.greater_than("id", 20)  # noqa: E731
    rb = t.new_read_builder()
    unlimited = rb.with_filter(gt(rb.new_predicate_builder())).new_scan().plan().splits()
    rb = t.new_read_builder().with_limit(3)
    rb = rb.with_filter(gt(rb.new_predicate_builder()))
    splits = rb.new_scan().plan().splits()
    assert len(splits) == len(unlimited) > 1
    assert rb.new_read().to_arrow(splits).num_rows == 3


@pytest.mark.parametrize("ident", TABLES)
def test_limit_with_filter_and_shard(env, ident):
    gt = lambda pb: pb.greater_than("id", 5)  # noqa: E731
    proj = filtered_cols(ident)
    ours, theirs = both(env, ident, limit=4, rfilter=gt, projection=proj)
    assert rows(ours) == rows(read(env.table("cp", ident), rfilter=gt, projection=proj))[:4]
    assert rows(ours) == rows(theirs) or ident == "db.de"  # LIMIT_ROWS
    ours, theirs = both(env, ident, limit=5, shard=(1, 2))
    assert ours.num_rows == theirs.num_rows == 5
    assert by_row_id(ours) == by_row_id(theirs)


PARTITION_FILTERS = {
    "pt=b": lambda pb: pb.equal("pt", "b"),
    "pt in a,c": lambda pb: pb.or_predicates([pb.equal("pt", "a"), pb.equal("pt", "c")]),
    # As pypaimon: the conjunct on a data column is dropped, not applied to rows.
    "pt=a and id>3": lambda pb: pb.and_predicates([pb.equal("pt", "a"),
                                                   pb.greater_than("id", 3)]),
    "id=3 only": lambda pb: pb.equal("id", 3),
    "_ROW_ID only": lambda pb: pb.less_than("_ROW_ID", 3),
    "or with a data column": lambda pb: pb.or_predicates([pb.equal("pt", "a"),
                                                          pb.equal("id", 3)]),
}


@pytest.mark.parametrize("ident", TABLES)
@pytest.mark.parametrize("name", list(PARTITION_FILTERS))
def test_partition_filter_as_pypaimon(env, ident, name):
    ours, theirs = both(env, ident, pfilter=PARTITION_FILTERS[name])
    assert by_row_id(ours) == by_row_id(theirs)
    expected = {"pt=b": {"b"}, "pt in a,c": {"a", "c"}, "pt=a and id>3": {"a"}}
    parts = expected.get(name, {"a", "b", "c"})
    assert {r[1] for r in rows(ours)} == parts
    assert ours.num_rows == sum(1 for i in range(28) if PARTS[i % 5] in parts)


@pytest.mark.parametrize("ident", TABLES)
def test_partition_filter_with_row_filter_and_shard(env, ident):
    pf = PARTITION_FILTERS["pt in a,c"]
    rf = lambda pb: pb.greater_than("id", 9)  # noqa: E731
    ours, theirs = both(env, ident, pfilter=pf, rfilter=rf, projection=filtered_cols(ident))
    assert by_row_id(ours) == by_row_id(theirs)
    assert {r[1] for r in rows(ours)} == {"a", "c"} and min(r[0] for r in rows(ours)) > 9
    for i in range(3):
        ours, theirs = both(env, ident, pfilter=pf, shard=(i, 3))
        assert by_row_id(ours) == by_row_id(theirs)


def test_partition_filter_unknown_column(env):
    rb = env.table("cp", "db.de").new_read_builder()
    rb = rb.with_partition_filter(rb.new_predicate_builder().equal("nope", 1))
    with pytest.raises(ValueError, match="partition filter on table db.de: column 'nope'"):
        rb.new_scan().plan()


BAD_SHARDS = [((2, 2), "idx_of_this_subtask must be less than number_of_para_subtasks"),
              ((-1, 2), "idx_of_this_subtask must be a non-negative integer"),
              ((0, 0), "number_of_para_subtasks must be a positive integer"),
              ((0, -4), "number_of_para_subtasks must be a positive integer"),
              ((0, 2.0), "number_of_para_subtasks must be a positive integer"),
              (("0", 2), "idx_of_this_subtask must be a non-negative integer")]


@pytest.mark.parametrize("args,message", BAD_SHARDS)
def test_bad_shard_raises_as_pypaimon(env, args, message):
    for lib in ["cp", "py"]:
        scan = env.table(lib, "db.de").new_read_builder().new_scan()
        with pytest.raises(ValueError, match=message):
            scan.with_shard(*args)


@pytest.mark.parametrize("args", [(3, 3), (-1, 4), (5, 2), (0.0, 2)])
def test_bad_slice_raises_as_pypaimon(env, args):
    for lib in ["cp", "py"]:
        scan = env.table(lib, "db.app").new_read_builder().new_scan()
        with pytest.raises(ValueError, match="start_pos must be non-negative and less than"):
            scan.with_slice(*args)


def test_shard_and_slice_exclude_each_other(env):
    for lib in ["cp", "py"]:
        scan = env.table(lib, "db.app").new_read_builder().new_scan().with_shard(0, 2)
        with pytest.raises(ValueError, match="with_slice and with_shard cannot be used"):
            scan.with_slice(0, 3)
        scan = env.table(lib, "db.app").new_read_builder().new_scan().with_slice(0, 3)
        with pytest.raises(ValueError, match="with_shard and with_slice cannot be used"):
            scan.with_shard(0, 2)


def test_limit_not_an_int(env):
    with pytest.raises(TypeError, match="limit must be an integer"):
        env.table("cp", "db.de").new_read_builder().with_limit("3")


def test_limit_is_taken_when_the_read_is_made(env):
    """As pypaimon's new_read(): a later with_limit does not change an existing read."""
    for lib in ["cp", "py"]:
        rb = env.table(lib, "db.app").new_read_builder().with_limit(2)
        read_ = rb.new_read()
        splits = rb.new_scan().plan().splits()
        rb.with_limit(5)
        assert read_.to_arrow(splits).num_rows == 2, lib
        assert rb.new_read().to_arrow(splits).num_rows == 5, lib


@pytest.mark.parametrize("ident", TABLES)
@pytest.mark.parametrize("limit", [None, 5])
def test_to_iterator_as_pypaimon(env, ident, limit):
    got = {}
    for lib in ["cp", "py"]:
        rb = env.table(lib, ident).new_read_builder().with_projection(COLS)
        if limit is not None:
            rb = rb.with_limit(limit)
        it = rb.new_read().to_iterator(rb.new_scan().plan().splits())
        # pypaimon reuses one row object: take the values while it is current.
        got[lib] = [tuple(row.get_field(i) for i in range(len(COLS))) for row in it]
    assert len(got["cp"]) == len(got["py"]) == (28 if limit is None else limit)
    if limit is None or ident != "db.de":  # LIMIT_ROWS
        assert got["cp"] == got["py"]


def test_to_iterator_rows(env):
    rb = env.table("cp", "db.de").new_read_builder().with_projection(["id", "pt"])
    rb = rb.with_filter(rb.new_predicate_builder().equal("id", 7))
    (row,) = list(rb.new_read().to_iterator(rb.new_scan().plan().splits()))
    assert (row.get_field(0), row.get_field(1)) == (7, PARTS[7 % 5])
    assert len(row) == row.arity == 2
    assert row.get_row_kind() == cpaimon.read.RowKind.INSERT  # ROW_KIND: pypaimon says -U
    with pytest.raises(IndexError, match="out of bounds"):
        row.get_field(2)
    assert list(rb.new_read().to_iterator([])) == []


@pytest.mark.parametrize("ident", TABLES)
def test_to_duckdb_as_pypaimon(env, ident):
    query = "SELECT pt, count(*), sum(v), max(_ROW_ID) FROM t GROUP BY pt ORDER BY pt"
    results = {}
    for lib in ["cp", "py"]:
        rb = env.table(lib, ident).new_read_builder().with_projection(COLS)
        con = rb.new_read().to_duckdb(rb.new_scan().plan().splits(), "t")
        results[lib] = con.execute(query).fetchall()
    assert results["cp"] == results["py"]
    assert [r[1] for r in results["cp"]] == [sum(PARTS[i % 5] == p for i in range(28)) for p in "abc"]
    # An existing connection is used and returned.
    con = duckdb.connect()
    rb = env.table("cp", ident).new_read_builder().with_limit(3)
    assert rb.new_read().to_duckdb(rb.new_scan().plan().splits(), "x", connection=con) is con
    assert con.execute("SELECT count(*) FROM x").fetchone() == (3,)


@pytest.mark.parametrize("ident", TABLES)
def test_time_travel_copy_shards_and_limits(env, ident):
    """Shards and limits of an older snapshot (the first two writes: 19 rows)."""
    cp_t = env.table("cp", ident).copy({"scan.snapshot-id": "2"})
    py_t = env.table("py", ident).copy({"scan.snapshot-id": "2"})
    union = []
    for i in range(3):
        ours, theirs = read(cp_t, shard=(i, 3)), read(py_t, shard=(i, 3))
        assert by_row_id(ours) == by_row_id(theirs)
        union += by_row_id(ours)
    assert sorted(union, key=lambda r: r[-1]) == by_row_id(read(cp_t))
    assert len(union) == 19
    assert rows(read(cp_t, limit=6)) == rows(read(cp_t))[:6]
    assert read(py_t, limit=6).num_rows == 6
    pf = PARTITION_FILTERS["pt=b"]
    assert by_row_id(read(cp_t, pfilter=pf)) == by_row_id(read(py_t, pfilter=pf))


@pytest.mark.parametrize("parallelism", [1, 2, 3, 100])
def test_parallelism_reads_the_same_rows(env, parallelism):
    """pypaimon's parallelism= on to_arrow / to_pandas / to_arrow_batch_reader / to_duckdb: the
    same rows in the same order whatever the number of read threads (capped at 64)."""
    t = env.table("cp", "db.app")
    rb = t.new_read_builder()
    splits = rb.new_scan().plan().splits()
    assert len(splits) >= 2
    base = rb.new_read().to_arrow(splits, parallelism=1)
    assert rb.new_read().to_arrow(splits, parallelism=parallelism).equals(base)
    assert rb.new_read().to_pandas(splits, parallelism=parallelism).equals(base.to_pandas())
    assert pa.Table.from_batches(list(rb.new_read().to_arrow_batch_reader(
        splits, parallelism=parallelism)), base.schema).equals(base)
    con = rb.new_read().to_duckdb(splits, "t", parallelism=parallelism)
    assert con.execute("SELECT count(*) FROM t").fetchone()[0] == base.num_rows


@pytest.mark.parametrize("lib", ["cpaimon", "pypaimon"])
def test_parallelism_validated_as_pypaimon(env, lib):
    t = env.table("cp" if lib == "cpaimon" else "py", "db.app")
    rb = t.new_read_builder()
    splits = rb.new_scan().plan().splits()
    with pytest.raises(ValueError, match="parallelism must be >= 1, got 0"):
        rb.new_read().to_arrow(splits, parallelism=0)
    with pytest.raises(ValueError, match="parallelism must be >= 1, got 0"):
        rb.new_read().to_arrow([], parallelism=0)
    bad = t.copy({"read.parallelism": "0"}).new_read_builder()
    with pytest.raises(ValueError, match="read.parallelism must be >= 1, got 0"):
        bad.new_read().to_arrow(bad.new_scan().plan().splits())
    good = t.copy({"read.parallelism": "2"}).new_read_builder()
    assert good.new_read().to_arrow(good.new_scan().plan().splits()).num_rows == \
        rb.new_read().to_arrow(splits).num_rows


def test_plan_snapshot_id_none_on_an_empty_table(tmp_path):
    for lib in (cpaimon, pypaimon):
        opts = {"warehouse": str(tmp_path / lib.__name__)}
        cat = lib.CatalogFactory.create(opts)
        cat.create_database("d", False)
        cat.create_table("d.t", lib.Schema.from_pyarrow_schema(pa.schema([("x", pa.int32())])),
                         False)
        assert cat.get_table("d.t").new_read_builder().new_scan().plan().snapshot_id is None


def test_table_schema_as_pypaimon(tmp_path):
    """FileStoreTable.table_schema (cpaimon.schema.table_schema.TableSchema at pypaimon's path):
    the same version, id, fields, highest field id, keys, options, comment and time as pypaimon's,
    before and after a schema change."""
    from cpaimon.schema.data_types import AtomicType
    from cpaimon.schema.schema_change import SchemaChange
    wh = str(tmp_path / "wh")
    cat = cpaimon.CatalogFactory.create({"warehouse": wh})
    cat.create_database("db", False)
    cat.create_table("db.t", cpaimon.Schema.from_pyarrow_schema(
        pa.schema([("id", pa.int32()), ("dt", pa.string())]), partition_keys=["dt"],
        options={"row-tracking.enabled": "true"}, comment="the table"), False)

    def same():
        ours = cpaimon.CatalogFactory.create({"warehouse": wh}).get_table("db.t").table_schema
        theirs = pypaimon.CatalogFactory.create({"warehouse": wh}).get_table("db.t").table_schema
        for k in ("version", "id", "highest_field_id", "partition_keys", "primary_keys",
                  "options", "comment", "time_millis"):
            assert getattr(ours, k) == getattr(theirs, k), k
        assert [(f.id, f.name, str(f.type), f.description) for f in ours.fields] == \
            [(f.id, f.name, str(f.type), f.description) for f in theirs.fields]
        return ours

    assert same().id == 0
    cat.alter_table("db.t", [SchemaChange.add_column("v", AtomicType("BIGINT"), comment="c")])
    after = same()
    assert after.id == 1 and [f.name for f in after.fields] == ["id", "dt", "v"]
