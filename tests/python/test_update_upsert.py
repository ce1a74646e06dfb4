"""upsert_by_arrow_with_key through the cpaimon package: pypaimon's table_upsert_by_key_test.py
scenarios and expectations (spec/data-evolution.md §3.4, §8), pypaimon reading every result
identically, and the validation messages with the table unchanged."""
import pyarrow as pa
import pytest

from conftest_update import PA_SCHEMA, env  # noqa: F401

PART = pa.schema([("id", pa.int32()), ("name", pa.string()), ("age", pa.int32()),
                  ("region", pa.string())])


def rows(*cols, schema=PA_SCHEMA):
    return pa.Table.from_pydict(dict(zip(schema.names, cols)), schema=schema)


def upsert(env, ident, data, keys, update_cols=None):
    table = env.cp_table(ident)
    wb = table.new_batch_write_builder()
    tu = wb.new_update()
    if update_cols:
        tu.with_update_type(update_cols)
    msgs = tu.upsert_by_arrow_with_key(data, upsert_keys=keys)
    wb.new_commit().commit(msgs)
    return msgs


def sorted_rows(env, ident, cols):
    t = env.same_rows(ident)
    return sorted(zip(*[t[c].to_pylist() for c in cols]))


def test_all_new_rows(env):
    ident = env.create()
    upsert(env, ident, rows([1, 2, 3], ["Alice", "Bob", "Carol"], [25, 30, 35],
                            ["NYC", "LA", "Chicago"]), ["id"])
    assert sorted(env.same_rows(ident)["id"].to_pylist()) == [1, 2, 3]


def test_all_matched_rows(env):
    ident = env.create()
    env.write(ident, rows([1, 2, 3], ["Alice", "Bob", "Carol"], [25, 30, 35],
                          ["NYC", "LA", "Chicago"]))
    upsert(env, ident, rows([1, 2, 3], ["Alice2", "Bob2", "Carol2"], [26, 31, 36],
                            ["NYC2", "LA2", "Chicago2"]), ["id"])
    assert sorted_rows(env, ident, ["id", "name"]) == [(1, "Alice2"), (2, "Bob2"), (3, "Carol2")]
    # Matched rows keep their row ids (no row was appended).
    assert sorted(env.same_rows(ident)["_ROW_ID"].to_pylist()) == [0, 1, 2]


def test_mixed_update_and_append(env):
    ident = env.create()
    env.write(ident, rows([1, 2], ["Alice", "Bob"], [25, 30], ["NYC", "LA"]))
    upsert(env, ident, rows([2, 3], ["Bob_new", "Carol"], [31, 35], ["LA_new", "Chicago"]), ["id"])
    assert sorted_rows(env, ident, ["id", "name", "_ROW_ID"]) == [
        (1, "Alice", 0), (2, "Bob_new", 1), (3, "Carol", 2)]


def test_upsert_for_existing_table_duplicate_keys(env):
    ident = env.create()
    env.write(ident, rows([1], ["old_A"], [10], ["X"]))
    env.write(ident, rows([1], ["old_B"], [20], ["Y"]))
    upsert(env, ident, rows([1], ["UPDATED"], [99], ["Z"]), ["id"])
    assert sorted_rows(env, ident, ["name"]) == [("UPDATED",), ("UPDATED",)]


def test_existing_duplicate_keys_partial_update_cols(env):
    ident = env.create()
    env.write(ident, rows([1], ["old_A"], [10], ["X"]))
    env.write(ident, rows([1], ["old_B"], [20], ["Y"]))
    upsert(env, ident, rows([1], ["UPDATED"], [99], ["Z"]), ["id"], update_cols=["name"])
    assert sorted_rows(env, ident, ["id", "name", "age", "city"]) == [
        (1, "UPDATED", 10, "X"), (1, "UPDATED", 20, "Y")]


def test_existing_duplicate_keys_partitioned(env):
    ident = env.create(pa_schema=PART, partition_keys=["region"])
    env.write(ident, rows([1, 1], ["a1", "a2"], [10, 20], ["A", "A"], schema=PART))
    env.write(ident, rows([1], ["b1"], [30], ["B"], schema=PART))
    upsert(env, ident, rows([1], ["UPDATED"], [99], ["A"], schema=PART), ["id"])
    assert sorted_rows(env, ident, ["id", "name", "region"]) == [
        (1, "UPDATED", "A"), (1, "UPDATED", "A"), (1, "b1", "B")]


def test_composite_key_upsert(env):
    ident = env.create()
    env.write(ident, rows([1, 1, 2], ["Alice", "Alice", "Bob"], [25, 30, 35],
                          ["NYC", "LA", "Chicago"]))
    upsert(env, ident, rows([1, 2], ["Alice", "Carol"], [99, 40], ["Updated", "Dallas"]),
           ["id", "name"])
    assert sorted_rows(env, ident, ["id", "name", "city"]) == [
        (1, "Alice", "Updated"), (1, "Alice", "Updated"), (2, "Bob", "Chicago"),
        (2, "Carol", "Dallas")]


def test_partitioned_table_upsert_and_same_key_in_different_partitions(env):
    ident = env.create(pa_schema=PART, partition_keys=["region"])
    env.write(ident, rows([1, 1], ["Alice_US", "Alice_EU"], [25, 30], ["US", "EU"], schema=PART))
    upsert(env, ident, rows([1, 1], ["Alice_US_v2", "Alice_EU_v2"], [26, 31], ["US", "EU"],
                            schema=PART), ["id"])
    assert sorted_rows(env, ident, ["region", "id", "name"]) == [
        ("EU", 1, "Alice_EU_v2"), ("US", 1, "Alice_US_v2")]


def test_partitioned_update_cols_with_new_rows(env):
    ident = env.create(pa_schema=PART, partition_keys=["region"])
    env.write(ident, rows([1, 2], ["Alice", "Bob"], [25, 30], ["US", "EU"], schema=PART))
    upsert(env, ident, rows([1, 3], ["Alice_v2", "Carol"], [99, 50], ["US", "US"], schema=PART),
           ["id"], update_cols=["age"])
    assert sorted_rows(env, ident, ["id", "name", "age", "region"]) == [
        (1, "Alice", 99, "US"), (2, "Bob", 30, "EU"), (3, "Carol", 50, "US")]


def test_upsert_after_truncate_partition(env):
    ident = env.create(pa_schema=PART, partition_keys=["region"])
    env.write(ident, rows([1, 2, 3], ["A", "B", "C"], [10, 20, 30], ["US"] * 3, schema=PART))
    env.write(ident, rows([4, 5], ["D", "E"], [40, 50], ["EU"] * 2, schema=PART))
    env.py_table(ident).new_batch_write_builder().new_commit().truncate_partitions(
        [{"region": "US"}])
    upsert(env, ident, rows([4], ["D_v2"], [41], ["EU"], schema=PART), ["id"])
    assert sorted_rows(env, ident, ["id", "name", "age", "region"]) == [
        (4, "D_v2", 41, "EU"), (5, "E", 50, "EU")]


def test_update_cols_partial_update(env):
    ident = env.create()
    env.write(ident, rows([1, 2], ["Alice", "Bob"], [25, 30], ["NYC", "LA"]))
    upsert(env, ident, rows([1, 2], ["_X_", "_Y_"], [99, 88], ["_X_", "_Y_"]), ["id"],
           update_cols=["age"])
    assert sorted_rows(env, ident, ["id", "name", "age", "city"]) == [
        (1, "Alice", 99, "NYC"), (2, "Bob", 88, "LA")]


def test_duplicate_keys_in_input_keeps_last(env):
    ident = env.create()
    upsert(env, ident, rows([1, 1, 1, 2], ["A1", "A2", "A3", "B"], [10, 20, 30, 40],
                            ["X1", "X2", "X3", "Y"]), ["id"])
    assert sorted_rows(env, ident, ["id", "name", "age", "city"]) == [
        (1, "A3", 30, "X3"), (2, "B", 40, "Y")]
    ident = env.create()
    env.write(ident, rows([1, 2], ["Alice", "Bob"], [25, 30], ["NYC", "LA"]))
    upsert(env, ident, rows([1, 1], ["A_first", "A_last"], [90, 91], ["X", "Y"]), ["id"])
    assert sorted_rows(env, ident, ["id", "name", "age", "city"]) == [
        (1, "A_last", 91, "Y"), (2, "Bob", 30, "LA")]


def test_duplicate_keys_in_input_partitioned_keeps_last(env):
    ident = env.create(pa_schema=PART, partition_keys=["region"])
    env.write(ident, rows([1, 2], ["Alice", "Bob"], [25, 30], ["US", "EU"], schema=PART))
    upsert(env, ident, rows([1, 1, 2, 2], ["A_first", "A_last", "B_first", "B_last"],
                            [50, 51, 60, 61], ["US", "US", "EU", "EU"], schema=PART), ["id"])
    assert sorted_rows(env, ident, ["id", "region", "name", "age"]) == [
        (1, "US", "A_last", 51), (2, "EU", "B_last", 61)]


def test_null_keys_match_each_other(env):
    """pypaimon compares key tuples with Python equality: None == None."""
    ident = env.create()
    env.write(ident, rows([None, 2], ["n", "b"], [1, 2], ["x", "y"]))
    upsert(env, ident, rows([None], ["N2"], [9], ["z"]), ["id"])
    assert sorted_rows(env, ident, ["name", "age"]) == [("N2", 9), ("b", 2)]


@pytest.mark.parametrize("data,keys,message", [
    (rows([1], ["B"], [2], ["Y"]), [], "upsert_keys must not be empty."),
    (rows([1], ["B"], [2], ["Y"]), ["nonexistent"],
     "upsert_key 'nonexistent' is not in table schema fields: ['id', 'name', 'age', 'city']"),
    (pa.Table.from_pydict({"id": [1], "name": ["B"], "age": [2]}), ["city"],
     "upsert_key 'city' is not in input data columns: ['id', 'name', 'age']"),
    (rows([], [], [], []), ["id"], "Input data is empty."),
])
def test_validation(env, data, keys, message):
    ident = env.create()
    env.write(ident, rows([1], ["A"], [1], ["X"]))
    with pytest.raises(ValueError) as e:
        upsert(env, ident, data, keys)
    assert str(e.value) == message
    assert env.cp_table(ident).latest_snapshot_id() == 1


def test_partitioned_missing_partition_col_in_data_raises(env):
    ident = env.create(pa_schema=PART, partition_keys=["region"])
    with pytest.raises(ValueError) as e:
        upsert(env, ident, pa.Table.from_pydict({"id": [1], "name": ["A"], "age": [25]}), ["id"])
    assert str(e.value) == ("For partitioned tables, input data must contain all partition key "
                            "columns. Missing: ['region']")


def test_invalid_update_cols_and_non_data_evolution_table(env):
    ident = env.create()
    with pytest.raises(ValueError):
        env.cp_table(ident).new_batch_write_builder().new_update().with_update_type(["nope"])
    plain = env.create(pa_schema=pa.schema([("id", pa.int32()), ("name", pa.string())]),
                       options={})
    with pytest.raises(ValueError) as e:
        env.cp_table(plain).new_batch_write_builder().new_update().upsert_by_arrow_with_key(
            pa.table({"id": pa.array([1], pa.int32()), "name": ["a"]}), upsert_keys=["id"])
    assert str(e.value) == "upsert_by_arrow_with_key requires 'data-evolution.enabled' = 'true'."


def test_sequential_upserts_and_many_files(env):
    ident = env.create()
    env.write(ident, rows([1, 2], ["Alice", "Bob"], [25, 30], ["NYC", "LA"]))
    upsert(env, ident, rows([3], ["Carol"], [35], ["SF"]), ["id"])
    upsert(env, ident, rows([3, 1], ["Carol2", "Alice2"], [36, 26], ["SF2", "NYC2"]), ["id"])
    assert sorted_rows(env, ident, ["id", "name", "age"]) == [
        (1, "Alice2", 26), (2, "Bob", 30), (3, "Carol2", 36)]
