"""update_by_arrow_with_row_id and update_by_predicate through the cpaimon package: the pypaimon
tests of table_update_test.py (spec/data-evolution.md §8) with their scenarios and expectations,
each result also read by pypaimon (rows, _ROW_ID, _SEQUENCE_NUMBER must agree), the error
messages of §3.2/§3.3 with the table unchanged, and the concurrency rules of §4.5."""
import threading

import pyarrow as pa
import pyarrow.compute as pc
import pytest

import cpaimon
from conftest_update import PA_SCHEMA, env, seed, update  # noqa: F401


def ages(env, ident):
    return env.same_rows(ident)["age"].to_pylist()


# ------------------------------------ update by row id ------------------------------------


def test_update_existing_column(env):
    ident = seed(env)
    update(env, ident, pa.Table.from_pydict({"_ROW_ID": [1, 0, 2, 3, 4],
                                             "age": [31, 26, 36, 39, 42]}), ["age"])
    assert ages(env, ident) == [26, 31, 36, 39, 42]


def test_update_multiple_columns(env):
    ident = seed(env)
    update(env, ident, pa.Table.from_pydict({
        "_ROW_ID": [1, 0, 2, 3, 4], "age": [31, 26, 36, 39, 42],
        "city": ["Los Angeles", "New York", "Chicago", "Phoenix", "Houston"]}), ["age", "city"])
    result = env.same_rows(ident)
    assert result["age"].to_pylist() == [26, 31, 36, 39, 42]
    assert result["city"].to_pylist() == ["New York", "Los Angeles", "Chicago", "Phoenix",
                                          "Houston"]


def test_update_preserves_other_columns(env):
    ident = seed(env)
    update(env, ident, pa.Table.from_pydict({"_ROW_ID": [1], "age": [999]}), ["age"])
    result = env.same_rows(ident)
    assert result["age"].to_pylist() == [25, 999, 35, 40, 45]
    assert result["name"].to_pylist() == ["Alice", "Bob", "Charlie", "David", "Eve"]
    assert result["city"].to_pylist() == ["NYC", "LA", "Chicago", "Houston", "Phoenix"]
    # Only the touched group reads the update's snapshot (§2.5).
    assert result["_SEQUENCE_NUMBER"].to_pylist() == [3, 3, 2, 2, 2]


@pytest.mark.parametrize("row_ids,new,expected", [
    ([0], [100], [100, 30, 35, 40, 45]),
    ([1], [31], [25, 31, 35, 40, 45]),
    ([1, 2], [200, 300], [25, 200, 300, 40, 45]),
    ([0, 2, 4], [100, 300, 500], [100, 30, 300, 40, 500]),
])
def test_partial_row_updates(env, row_ids, new, expected):
    ident = seed(env)
    update(env, ident, pa.Table.from_pydict({"_ROW_ID": row_ids, "age": new}), ["age"])
    assert ages(env, ident) == expected


def test_multiple_sequential_single_column_updates(env):
    ident = seed(env)
    update(env, ident, pa.Table.from_pydict({"_ROW_ID": [1, 0, 2, 3, 4],
                                             "age": [31, 26, 36, 41, 46]}), ["age"])
    update(env, ident, pa.Table.from_pydict({
        "_ROW_ID": [1, 0, 2, 3, 4],
        "city": ["Los Angeles", "New York", "Chicago", "Phoenix", "Houston"]}), ["city"])
    result = env.same_rows(ident)
    assert result["age"].to_pylist() == [26, 31, 36, 41, 46]
    assert result["city"].to_pylist() == ["New York", "Los Angeles", "Chicago", "Phoenix",
                                          "Houston"]


def test_sequential_partial_updates(env):
    ident = seed(env)
    for row_id, age in [(0, 100), (2, 300), (4, 500)]:
        update(env, ident, pa.Table.from_pydict({"_ROW_ID": [row_id], "age": [age]}), ["age"])
    assert ages(env, ident) == [100, 30, 300, 40, 500]


def test_update_columns_fall_back_to_data_when_unset(env):
    ident = seed(env)
    update(env, ident, pa.Table.from_pydict({
        "_ROW_ID": [0, 1, 2, 3, 4], "id": [1, 2, 3, 4, 5], "name": ["A", "B", "C", "D", "E"],
        "age": [1, 2, 3, 4, 5], "city": ["c0", "c1", "c2", "c3", "c4"]}),
        ["id", "name", "age", "city"])
    update(env, ident, pa.Table.from_pydict({"_ROW_ID": [0, 1], "age": [99, 98]}))
    result = env.same_rows(ident)
    assert result["age"].to_pylist() == [99, 98, 3, 4, 5]
    assert result["name"].to_pylist() == ["A", "B", "C", "D", "E"]


def test_partitioned_table_update(env):
    ident = env.create(partition_keys=["city"])
    env.write(ident, pa.Table.from_pydict({
        "id": [1, 2, 3, 4, 5], "name": ["Alice", "Bob", "Charlie", "David", "Eve"],
        "age": [25, 30, 35, 40, 45], "city": ["NYC", "NYC", "LA", "LA", "Chicago"]},
        schema=PA_SCHEMA))
    update(env, ident, pa.Table.from_pydict({"_ROW_ID": [1, 0, 2, 3, 4],
                                             "age": [31, 26, 36, 41, 46]}), ["age"])
    assert ages(env, ident) == [26, 31, 36, 41, 46]


def test_update_partial_rows_across_two_files(env):
    ident = env.create()
    env.write(ident, pa.Table.from_pydict({
        "id": [1, 2, 3, 4, 5], "name": ["Alice", "Bob", "Charlie", "David", "Eve"],
        "age": [20, 25, 30, 35, 40], "city": ["NYC", "LA", "Chicago", "Houston", "Phoenix"]},
        schema=PA_SCHEMA))
    env.write(ident, pa.Table.from_pydict({
        "id": [6, 7, 8, 9, 10], "name": ["Frank", "Grace", "Henry", "Ivy", "Jack"],
        "age": [45, 50, 55, 60, 65], "city": ["Seattle", "Boston", "Denver", "Miami", "Atlanta"]},
        schema=PA_SCHEMA))
    update(env, ident, pa.Table.from_pydict({
        "_ROW_ID": [1, 3, 6, 8], "age": [100, 200, 300, 400],
        "name": ["Updated_Bob", "Updated_David", "Updated_Grace", "Updated_Ivy"]}),
        ["age", "name"])
    result = env.same_rows(ident)
    assert result["age"].to_pylist() == [20, 100, 30, 200, 40, 45, 300, 55, 400, 65]
    assert result["name"].to_pylist() == [
        "Alice", "Updated_Bob", "Charlie", "Updated_David", "Eve", "Frank", "Updated_Grace",
        "Henry", "Updated_Ivy", "Jack"]
    assert result["id"].to_pylist() == list(range(1, 11))


def test_large_table_partial_column_updates(env):
    n = 1000
    ident = env.create()
    for base in (0, n):
        env.write(ident, pa.Table.from_pydict({
            "id": list(range(base, base + n)), "name": [f"Name_{i}" for i in range(base, base + n)],
            "age": [20 + i for i in range(base, base + n)],
            "city": [f"City_{i}" for i in range(base, base + n)]}, schema=PA_SCHEMA))
    ids, names, age = list(range(2 * n)), [f"Name_{i}" for i in range(2 * n)], \
        [20 + i for i in range(2 * n)]
    update(env, ident, pa.Table.from_pydict({"_ROW_ID": [5], "id": [999]}), ["id"])
    ids[5] = 999
    update(env, ident, pa.Table.from_pydict({"_ROW_ID": [3, 15], "id": [888, 777],
                                             "name": ["Updated_Name_3", "Updated_Name_15"]}),
           ["id", "name"])
    ids[3], ids[15], names[3], names[15] = 888, 777, "Updated_Name_3", "Updated_Name_15"
    update(env, ident, pa.Table.from_pydict({"_ROW_ID": [12], "name": ["NewName_12"]}), ["name"])
    names[12] = "NewName_12"
    update(env, ident, pa.Table.from_pydict({"_ROW_ID": [0, 5, 10, 15],
                                             "age": [100, 105, 110, 115]}), ["age"])
    for r, a in [(0, 100), (5, 105), (10, 110), (15, 115)]:
        age[r] = a
    result = env.same_rows(ident)
    assert result["id"].to_pylist() == ids
    assert result["name"].to_pylist() == names
    assert result["age"].to_pylist() == age
    assert result["city"].to_pylist() == [f"City_{i}" for i in range(2 * n)]


def test_update_with_large_file(env):
    """One file per group whatever target-file-size says; first_row_id 0, row_count N."""
    n = 5000
    schema = pa.schema([("id", pa.int64()), ("name", pa.string())])
    ident = env.create(pa_schema=schema, options={**{"target-file-size": "10mb"},
                                                 "row-tracking.enabled": "true",
                                                 "data-evolution.enabled": "true"})
    env.write(ident, pa.table({"id": list(range(n)), "name": ["x" * 200] * n}, schema=schema))
    env.cp.alter_table(ident, [cpaimon_set_option("target-file-size", "10kb")])
    msgs = update(env, ident, pa.table({"_ROW_ID": pa.array(list(range(n)), pa.int64()),
                                        "name": ["y" * 200] * n}), ["name"])
    assert sum(m.new_file_count() for m in msgs) == 1
    files = env.py_table(ident).new_read_builder().new_scan().plan().splits()[0].files
    update_file = [f for f in files if f.write_cols == ["name"]]
    assert len(update_file) == 1
    assert update_file[0].first_row_id == 0 and update_file[0].row_count == n
    assert env.same_rows(ident)["name"].to_pylist() == ["y" * 200] * n


def cpaimon_set_option(key, value):
    from cpaimon.schema.schema_change import SchemaChange
    return SchemaChange.set_option(key, value)


# ---- validation (§3.2 messages; nothing written, no snapshot) ----


def _update_raises(env, ident, data, cols, message):
    before = env.cp_table(ident).latest_snapshot_id()
    tu = env.cp_table(ident).new_batch_write_builder().new_update()
    with pytest.raises(ValueError) as e:
        if cols:
            tu.with_update_type(cols)
        tu.update_by_arrow_with_row_id(data)
    assert message in str(e.value)
    assert env.cp_table(ident).latest_snapshot_id() == before
    return str(e.value)


def test_update_errors(env):
    ident = seed(env)
    _update_raises(env, ident, pa.Table.from_pydict({"_ROW_ID": [0, 1]}), None,
                   "column_names cannot be empty")
    _update_raises(env, ident, pa.Table.from_pydict({"_ROW_ID": [0], "nonexistent_column": [1]}),
                   ["nonexistent_column"], "Column nonexistent_column is not in table schema.")
    _update_raises(env, ident, pa.Table.from_pydict({"_ROW_ID": [0], "nope": [1]}), None,
                   "Column nope not found in table schema")
    _update_raises(env, ident, pa.Table.from_pydict({"age": [26, 27]}), ["age"],
                   "Input data must contain _ROW_ID column")
    _update_raises(env, ident, pa.Table.from_pydict({"_ROW_ID": [0, 0, 1], "age": [1, 2, 3]}),
                   ["age"], "Input data contains duplicate _ROW_ID values")
    msg = _update_raises(env, ident, pa.Table.from_pydict({"_ROW_ID": [0, 10], "age": [26, 1]}),
                         ["age"], "does not belong to any valid range")
    assert msg == "Row ID 10 does not belong to any valid range ['[0, 4]']"
    _update_raises(env, ident, pa.Table.from_pydict({"_ROW_ID": [-1, 0], "age": [1, 26]}), ["age"],
                   "Row ID -1 does not belong to any valid range")
    assert ages(env, ident) == [25, 30, 35, 40, 45]


def test_update_with_no_rows_is_noop(env):
    ident = seed(env)
    tu = env.cp_table(ident).new_batch_write_builder().new_update().with_update_type(["age"])
    assert tu.update_by_arrow_with_row_id(pa.table({"_ROW_ID": pa.array([], pa.int64()),
                                                    "age": pa.array([], pa.int32())})) == []


def test_update_deleted_row_id_raises(env):
    """Ids of a dropped partition fall into a hole of the valid ranges."""
    schema = pa.schema([("id", pa.int32()), ("name", pa.string()), ("age", pa.int32()),
                        ("region", pa.string())])
    ident = env.create(pa_schema=schema, partition_keys=["region"])
    env.write(ident, pa.table({"id": pa.array([1, 2, 3], pa.int32()), "name": ["A", "B", "C"],
                               "age": pa.array([10, 20, 30], pa.int32()),
                               "region": ["US"] * 3}, schema=schema))
    env.write(ident, pa.table({"id": pa.array([4, 5], pa.int32()), "name": ["D", "E"],
                               "age": pa.array([40, 50], pa.int32()), "region": ["EU"] * 2},
                              schema=schema))
    env.py_table(ident).new_batch_write_builder().new_commit().truncate_partitions(
        [{"region": "US"}])
    msg = _update_raises(env, ident, pa.Table.from_pydict({"_ROW_ID": [0], "age": [99]}), ["age"],
                         "does not belong to any valid range")
    assert msg == "Row ID 0 does not belong to any valid range ['[3, 4]']"


# ---- concurrency (§4.5) ----


def _concurrent(env, ident, specs, retries):
    errors, order, lock = [], [], threading.Lock()

    def worker(i, spec):
        for _ in range(retries):
            try:
                update(env, ident, pa.Table.from_pydict({"_ROW_ID": spec[0], "age": spec[1]}),
                       ["age"])
                with lock:
                    order.append(i)
                return
            except cpaimon.CommitConflictError as e:
                if "multiple 'MERGE INTO' operations have encountered conflicts" not in str(e):
                    errors.append(str(e))
                    return
        errors.append(f"thread {i} did not succeed")

    threads = [threading.Thread(target=worker, args=(i, s)) for i, s in enumerate(specs)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert errors == []
    assert sorted(order) == list(range(len(specs)))
    return order


def test_concurrent_updates_disjoint_rows(env):
    ident = seed(env)
    _concurrent(env, ident, [([0, 1], [100, 200]), ([2, 3], [300, 400]), ([4], [500])], 20)
    assert ages(env, ident) == [100, 200, 300, 400, 500]


def test_concurrent_updates_overlapping_rows_last_writer_wins(env):
    ident = seed(env)
    specs = [([0, 1, 2], [101, 201, 301]), ([0, 1, 2], [102, 202, 302]),
             ([0, 1, 2], [103, 203, 303])]
    order = _concurrent(env, ident, specs, 30)
    assert ages(env, ident) == specs[order[-1]][1] + [40, 45]


def test_concurrent_same_group_same_column_conflicts(env):
    """Two updaters read snapshot 2; the second commit of the same column of the same group fails
    with Paimon's message and leaves the table as the first commit made it."""
    ident = seed(env)
    tu1 = env.cp_table(ident).new_batch_write_builder().new_update().with_update_type(["age"])
    tu2 = env.cp_table(ident).new_batch_write_builder().new_update().with_update_type(["age"])
    m1 = tu1.update_by_arrow_with_row_id(pa.table({"_ROW_ID": [0], "age": [1]}))
    m2 = tu2.update_by_arrow_with_row_id(pa.table({"_ROW_ID": [1], "age": [2]}))
    m3 = env.cp_table(ident).new_batch_write_builder().new_update().with_update_type(
        ["city"]).update_by_arrow_with_row_id(pa.table({"_ROW_ID": [1], "city": ["X"]}))
    env.commit(ident, m1)
    with pytest.raises(cpaimon.CommitConflictError) as e:
        env.commit(ident, m2)
    assert str(e.value) == (
        "For Data Evolution table, multiple 'MERGE INTO' operations have encountered conflicts, "
        "updating the same file, which can render some updates ineffective.")
    env.commit(ident, m3)  # another column of the same group does not conflict
    result = env.same_rows(ident)
    assert result["age"].to_pylist() == [1, 30, 35, 40, 45]
    assert result["city"].to_pylist() == ["NYC", "X", "Chicago", "Houston", "Phoenix"]
    assert env.cp_table(ident).latest_snapshot_id() == 4


# ------------------------------------ update by predicate ------------------------------------


def _by_predicate(env, ident, make_pred, assignments, read_columns=None):
    table = env.cp_table(ident)
    wb = table.new_batch_write_builder()
    tu = wb.new_update()
    pred = make_pred(tu.new_predicate_builder()) if make_pred else None
    msgs = tu.update_by_predicate(pred, assignments, read_columns)
    wb.new_commit().commit(msgs)
    return msgs


def test_update_by_predicate(env):
    ident = seed(env)
    _by_predicate(env, ident, lambda pb: pb.greater_or_equal("age", 35),
                  {"age": 99, "city": "Updated"})
    result = env.same_rows(ident)
    assert result["age"].to_pylist() == [25, 30, 99, 99, 99]
    assert result["city"].to_pylist() == ["NYC", "LA", "Updated", "Updated", "Updated"]
    assert result["name"].to_pylist() == ["Alice", "Bob", "Charlie", "David", "Eve"]


def test_update_by_predicate_no_match_is_noop(env):
    ident = seed(env)
    assert _by_predicate(env, ident, lambda pb: pb.greater_than("age", 100), {"age": 1}) == []
    assert ages(env, ident) == [25, 30, 35, 40, 45]
    assert env.cp_table(ident).latest_snapshot_id() == 2


def test_update_by_predicate_accepts_array_chunked_and_scalar_values(env):
    ident = seed(env)
    _by_predicate(env, ident, lambda pb: pb.greater_or_equal("age", 35), {
        "age": pa.array([101, 102, 103], type=pa.int64()),
        "city": pa.chunked_array([pa.array(["Chicago_v2"]),
                                  pa.array(["Houston_v2", "Phoenix_v2"])]),
        "name": pa.scalar("patched")})
    rows = {r["id"]: (r["name"], r["age"], r["city"]) for r in env.same_rows(ident).to_pylist()}
    assert rows == {1: ("Alice", 25, "NYC"), 2: ("Bob", 30, "LA"),
                    3: ("patched", 101, "Chicago_v2"), 4: ("patched", 102, "Houston_v2"),
                    5: ("patched", 103, "Phoenix_v2")}


def test_update_by_predicate_accepts_callable_assignments(env):
    ident = seed(env)
    seen = []

    def increment_age(rows):
        seen.append(rows.column_names)
        return pc.add(rows["age"], 1)

    _by_predicate(env, ident, lambda pb: pb.greater_or_equal("age", 35),
                  {"age": increment_age, "city": lambda rows: pc.utf8_upper(rows["city"])},
                  read_columns=["age", "city"])
    assert seen == [["age", "city", "_ROW_ID"]]
    result = env.same_rows(ident)
    assert result["age"].to_pylist() == [25, 30, 36, 41, 46]
    assert result["city"].to_pylist() == ["NYC", "LA", "CHICAGO", "HOUSTON", "PHOENIX"]


def test_update_by_predicate_updates_all_rows_when_predicate_is_none(env):
    ident = seed(env)
    _by_predicate(env, ident, None, {"age": pa.scalar(7, type=pa.int64()), "city": None,
                                     "name": "UPDATED"})
    result = env.same_rows(ident)
    assert result["age"].to_pylist() == [7] * 5
    assert result["city"].to_pylist() == [None] * 5
    assert result["name"].to_pylist() == ["UPDATED"] * 5


def test_update_by_predicate_streams_callable_by_file_group(env):
    ident = seed(env)
    sizes = []

    def inc(rows):
        sizes.append(rows.num_rows)
        return pc.add(rows["age"], 1)

    _by_predicate(env, ident, None, {"age": inc}, read_columns=["age"])
    assert sizes == [2, 3]
    assert ages(env, ident) == [26, 31, 36, 41, 46]


def test_no_match_does_not_invoke_callable(env):
    ident = seed(env)

    def unexpected(rows):
        raise AssertionError("no rows matched")

    assert _by_predicate(env, ident, lambda pb: pb.greater_than("age", 100), {"age": unexpected},
                         read_columns=["age"]) == []


@pytest.mark.parametrize("assignments,read_columns,message", [
    ({}, None, "assignments must not be empty."),
    ({"unknown": 1}, None, "Column unknown is not in table schema."),
    ({"age": lambda rows: rows["age"]}, None, "Callable assignments require read_columns."),
    ({"age": 26}, ["age"], "read_columns requires a callable assignment."),
    ({"age": lambda rows: rows["age"], "city": pa.array(["A"] * 5)}, ["age"],
     "Callable assignments cannot be combined with Arrow array assignments."),
    ({"age": lambda rows: [1, 2]}, ["age"], "must return a pyarrow.Array"),
    ({"age": pa.array([1, 2], type=pa.int32())}, None,
     "Assignment array length must match matched row count: 2 != 3."),
    ({"age": lambda rows: rows["age"]}, ["nope"], "Read column nope is not in table schema."),
])
def test_update_by_predicate_errors(env, assignments, read_columns, message):
    ident = seed(env)
    with pytest.raises(ValueError) as e:
        _by_predicate(env, ident, lambda pb: pb.greater_or_equal("age", 35), assignments,
                      read_columns)
    assert message in str(e.value)
    assert ages(env, ident) == [25, 30, 35, 40, 45]
    assert env.cp_table(ident).latest_snapshot_id() == 2


def test_update_by_predicate_rejects_uncastable_assignment(env):
    ident = seed(env)
    with pytest.raises((pa.ArrowInvalid, pa.ArrowTypeError, ValueError)):
        _by_predicate(env, ident, lambda pb: pb.equal("id", 1), {"age": "not-an-int"})
    assert ages(env, ident) == [25, 30, 35, 40, 45]


def test_update_by_predicate_rejects_partition_column(env):
    ident = seed(env, partition_keys=["city"])
    with pytest.raises(ValueError) as e:
        _by_predicate(env, ident, None, {"city": "X"})
    assert str(e.value) == "update_by_predicate does not support updating partition column 'city'."


def test_update_by_predicate_requires_data_evolution(env):
    ident = env.create(options={"row-tracking.enabled": "true"})
    with pytest.raises(ValueError) as e:
        _by_predicate(env, ident, None, {"age": 1})
    assert str(e.value) == "update_by_predicate requires 'data-evolution.enabled' = 'true'."


def test_callable_predicate_update_allows_concurrent_read_column_update(env):
    ident = seed(env)
    table = env.cp_table(ident)
    pb = table.new_read_builder().new_predicate_builder()
    wb = table.new_batch_write_builder()
    messages = wb.new_update().update_by_predicate(
        pb.equal("id", 1), {"name": lambda rows: pa.array(["age-%d" % v for v in
                                                           rows["age"].to_pylist()])},
        read_columns=["age"])
    update(env, ident, pa.table({"_ROW_ID": pa.array([0], pa.int64()),
                                 "age": pa.array([100], pa.int32())}), ["age"])
    wb.new_commit().commit(messages)
    result = env.same_rows(ident)
    assert result["age"][0].as_py() == 100
    assert result["name"][0].as_py() == "age-25"


def test_callable_predicate_update_conflicts_with_concurrent_update(env):
    ident = seed(env)
    table = env.cp_table(ident)
    pb = table.new_read_builder().new_predicate_builder()
    wb = table.new_batch_write_builder()

    def increment_age(rows):
        assert rows["age"].to_pylist() == [25]
        update(env, ident, pa.table({"_ROW_ID": pa.array([0], pa.int64()),
                                     "age": pa.array([100], pa.int32())}), ["age"])
        return pc.add(rows["age"], 1)

    messages = wb.new_update().update_by_predicate(pb.equal("id", 1), {"age": increment_age},
                                                   read_columns=["age"])
    with pytest.raises(cpaimon.CommitConflictError, match="multiple 'MERGE INTO'"):
        wb.new_commit().commit(messages)
    assert ages(env, ident) == [100, 30, 35, 40, 45]


# ---- deletes: TableUpdate delegates to the deletion-vector delete (include/cpaimon/delete.h) ----


def test_delete_by_row_id_and_predicate(env):
    from cpaimon import _cpaimon
    if not hasattr(_cpaimon, "table_delete_by_row_ids"):
        pytest.skip("the deletes of include/cpaimon/delete.h are not built")
    dv = {"row-tracking.enabled": "true", "data-evolution.enabled": "true",
          "deletion-vectors.enabled": "true"}
    ident = seed(env, options=dv)
    table = env.cp_table(ident)
    wb = table.new_batch_write_builder()
    wb.new_commit().commit(wb.new_update().delete_by_row_id([1, 3]))
    pb = table.new_read_builder().new_predicate_builder()
    wb.new_commit().commit(wb.new_update().delete_by_predicate(pb.equal("name", "Eve")))
    result = env.same_rows(ident)
    assert result["id"].to_pylist() == [1, 3]
    assert result["_ROW_ID"].to_pylist() == [0, 2]
    # an update after deletes copies the deleted rows (they stay deleted)
    update(env, ident, pa.table({"_ROW_ID": [0, 2], "age": [1, 2]}), ["age"])
    assert env.same_rows(ident)["age"].to_pylist() == [1, 2]
    plain = seed(env)
    with pytest.raises(ValueError) as e:
        env.cp_table(plain).new_batch_write_builder().new_update().delete_by_row_id([0])
    assert "delete requires 'deletion-vectors.enabled' = 'true'." in str(e.value)
