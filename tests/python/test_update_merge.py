"""merge_into through the cpaimon package: pypaimon's table_merge_into_test.py scenarios with
their expectations (spec/data-evolution.md §3.5, §8), pypaimon reading every result identically,
and the error messages with the table unchanged."""
import pyarrow as pa
import pytest

from conftest_update import PA_SCHEMA, env  # noqa: F401
from cpaimon.data_evolution_merge_into import (WhenMatched, WhenNotMatched, lit, source_col,
                                               target_col)


def rows(*cols):
    names = ["id", "name", "age", "city"]
    return pa.Table.from_pydict(dict(zip(names, cols)), schema=PA_SCHEMA)


def merge(env, ident, source, **kwargs):
    table = env.cp_table(ident)
    wb = table.new_batch_write_builder()
    msgs = wb.new_update().merge_into(table if source == "self" else source, **kwargs)
    wb.new_commit().commit(msgs)
    return msgs


def by_id(env, ident):
    t = env.same_rows(ident).sort_by("id")
    return {k: t[k].to_pylist() for k in ["id", "name", "age", "city"]}


def row_ids(env, ident):
    t = env.same_rows(ident)
    return dict(zip(t["id"].to_pylist(), t["_ROW_ID"].to_pylist()))


def test_when_matched_action_constructors():
    update = WhenMatched.update({"age": source_col("age")}, condition="s.age > t.age")
    delete = WhenMatched.delete(condition="s.deleted = TRUE")
    assert update.update == {"age": source_col("age")} and not update.delete
    assert update.condition == "s.age > t.age"
    assert delete.update is None and delete.delete and delete.condition == "s.deleted = TRUE"


def test_updates_and_inserts(env):
    ident = env.create()
    env.write(ident, rows([1, 2], ["Alice", "Bob"], [25, 30], ["NYC", "LA"]))
    msgs = merge(env, ident, rows([2, 3], ["Bobby", "Cindy"], [31, 22], ["LA2", "SF"]), on=["id"],
                 when_matched=[WhenMatched.update("*")],
                 when_not_matched=[WhenNotMatched(insert="*")])
    assert msgs
    assert by_id(env, ident) == {"id": [1, 2, 3], "name": ["Alice", "Bobby", "Cindy"],
                                 "age": [25, 31, 22], "city": ["NYC", "LA2", "SF"]}


def test_insert_only_on_empty_table(env):
    ident = env.create()
    assert merge(env, ident, rows([1, 2], ["Alice", "Bob"], [25, 30], ["NYC", "LA"]), on=["id"],
                 when_not_matched=[WhenNotMatched(insert="*")])
    assert by_id(env, ident) == {"id": [1, 2], "name": ["Alice", "Bob"], "age": [25, 30],
                                 "city": ["NYC", "LA"]}


def test_renamed_on_key_fills_insert_key(env):
    ident = env.create()
    env.write(ident, rows([1], ["Alice"], [25], ["NYC"]))
    source = pa.Table.from_pydict({"source_id": pa.array([1, 2], pa.int32()),
                                   "new_name": ["Alicia", "Bob"],
                                   "new_age": pa.array([26, 30], pa.int32()),
                                   "new_city": ["SF", "LA"]})
    spec = {"name": source_col("new_name"), "age": source_col("new_age"),
            "city": source_col("new_city")}
    merge(env, ident, source, on={"id": "source_id"}, when_matched=[WhenMatched.update(spec)],
          when_not_matched=[WhenNotMatched(insert=spec)])
    assert by_id(env, ident) == {"id": [1, 2], "name": ["Alicia", "Bob"], "age": [26, 30],
                                 "city": ["SF", "LA"]}


@pytest.mark.parametrize("assignment", [target_col("name"), "t.name"])
def test_ignores_target_self_assignment(env, assignment):
    ident = env.create()
    env.write(ident, rows([1], ["Alice"], [25], ["NYC"]))
    before = row_ids(env, ident)
    assert merge(env, ident, rows([1], ["Alicia"], [26], ["SF"]), on=["id"],
                 when_matched=[WhenMatched.update({"name": assignment})]) == []
    assert by_id(env, ident) == {"id": [1], "name": ["Alice"], "age": [25], "city": ["NYC"]}
    assert row_ids(env, ident) == before
    assert env.cp_table(ident).latest_snapshot_id() == 1


def test_source_assignment_same_name_is_modified(env):
    ident = env.create()
    env.write(ident, rows([1], ["Alice"], [25], ["NYC"]))
    assert merge(env, ident, rows([1], ["Alicia"], [26], ["SF"]), on=["id"],
                 when_matched=[WhenMatched.update({"name": source_col("name")})])
    assert by_id(env, ident)["name"] == ["Alicia"]
    assert by_id(env, ident)["age"] == [25]


def test_preserves_row_ids_for_matched_rows(env):
    ident = env.create()
    env.write(ident, rows([1, 2], ["Alice", "Bob"], [25, 30], ["NYC", "LA"]))
    before = row_ids(env, ident)
    merge(env, ident, rows([2, 3], ["Bobby", "Cindy"], [31, 22], ["LA2", "SF"]), on=["id"],
          when_matched=[WhenMatched.update("*")], when_not_matched=[WhenNotMatched(insert="*")])
    after = row_ids(env, ident)
    assert after[1] == before[1] and after[2] == before[2]
    assert after[3] > max(before.values())


def test_second_round_updates_first_round_insert(env):
    ident = env.create()
    env.write(ident, rows([1], ["Alice"], [25], ["NYC"]))
    merge(env, ident, rows([2], ["Bob"], [30], ["LA"]), on=["id"],
          when_not_matched=[WhenNotMatched(insert="*")])
    ids_after_insert = row_ids(env, ident)
    merge(env, ident, rows([2], ["Bobby"], [31], ["LA2"]), on=["id"],
          when_matched=[WhenMatched.update("*")])
    assert by_id(env, ident) == {"id": [1, 2], "name": ["Alice", "Bobby"], "age": [25, 31],
                                 "city": ["NYC", "LA2"]}
    assert row_ids(env, ident) == ids_after_insert


def test_condition_clauses(env):
    ident = env.create()
    env.write(ident, rows([1, 2], ["old_1", "old_2"], [10, 40], ["NYC", "LA"]))
    assert merge(env, ident, rows([1, 2, 3], ["new_1", "new_2", "new_3"], [15, 35, 50],
                                  ["SF", "SEA", "DAL"]), on=["id"],
                 when_matched=[WhenMatched.update({"age": lit(99)}, condition="s.age > t.age"),
                               WhenMatched.update({"name": lit("kept")})],
                 when_not_matched=[WhenNotMatched(insert="*", condition="s.age > 45")])
    assert by_id(env, ident) == {"id": [1, 2, 3], "name": ["old_1", "kept", "new_3"],
                                 "age": [99, 40, 50], "city": ["NYC", "LA", "DAL"]}


def test_duplicate_source_match_rejected(env):
    ident = env.create()
    env.write(ident, rows([1], ["Alice"], [25], ["NYC"]))
    with pytest.raises(ValueError, match="multiple source rows"):
        merge(env, ident, rows([1, 1], ["A1", "A2"], [26, 27], ["SF", "LA"]), on=["id"],
              when_matched=[WhenMatched.update({"age": "s.age"})])
    assert env.cp_table(ident).latest_snapshot_id() == 1


def test_self_merge_by_row_id(env):
    ident = env.create()
    env.write(ident, rows([1, 2], ["Alice", "Bob"], [25, 30], ["NYC", "LA"]))
    assert merge(env, ident, "self", on=["_ROW_ID"],
                 when_matched=[WhenMatched.update({"name": lit("updated")})])
    assert by_id(env, ident)["name"] == ["updated", "updated"]


def test_self_merge_rejects_not_matched(env):
    ident = env.create()
    env.write(ident, rows([1], ["Alice"], [25], ["NYC"]))
    with pytest.raises(ValueError) as e:
        merge(env, ident, "self", on=["_ROW_ID"], when_matched=[WhenMatched.update("*")],
              when_not_matched=[WhenNotMatched(insert="*")])
    assert str(e.value) == ("Self-merge (source == target with ON _ROW_ID) does not support WHEN "
                            "NOT MATCHED clauses.")


def test_rejects_nested_and_partition_keys(env):
    ident = env.create()
    env.write(ident, rows([1], ["Alice"], [25], ["NYC"]))
    with pytest.raises(ValueError, match="unknown target column"):
        merge(env, ident, rows([1], ["A"], [1], ["X"]), on=["id"],
              when_matched=[WhenMatched.update({"name.first": lit("A")})])
    part = env.create(partition_keys=["city"])
    env.write(part, rows([1], ["Alice"], [25], ["NYC"]))
    with pytest.raises(ValueError) as e:
        merge(env, part, rows([1], ["Alice"], [26], ["SF"]), on=["id"],
              when_matched=[WhenMatched.update({"city": source_col("city")})])
    assert str(e.value) == ("merge_into does not support updating partition columns ['city']; "
                            "cross-partition row movement is not implemented.")


def test_requires_data_evolution_and_dv_for_delete(env):
    plain = env.create(options={"row-tracking.enabled": "true"})
    with pytest.raises(ValueError) as e:
        merge(env, plain, rows([1], ["a"], [1], ["x"]), on=["id"],
              when_matched=[WhenMatched.update("*")])
    assert str(e.value) == "merge_into requires 'data-evolution.enabled' = 'true' on target table."
    ident = env.create()
    with pytest.raises(ValueError) as e:
        merge(env, ident, rows([1], ["a"], [1], ["x"]), on=["id"],
              when_matched=[WhenMatched.delete()])
    assert str(e.value) == ("merge_into DELETE requires 'deletion-vectors.enabled' = 'true' on "
                            "target table.")


def test_delete_matched_rows(env):
    ident = env.create(options={"row-tracking.enabled": "true", "data-evolution.enabled": "true",
                                "deletion-vectors.enabled": "true"})
    env.write(ident, rows([1, 2, 3], ["Alice", "Bob", "Charlie"], [25, 30, 35],
                          ["NYC", "LA", "Chicago"]))
    merge(env, ident, rows([2, 3], ["ignored"] * 2, [99, 99], ["ignored"] * 2), on=["id"],
          when_matched=[WhenMatched.delete()])
    assert by_id(env, ident) == {"id": [1], "name": ["Alice"], "age": [25], "city": ["NYC"]}


def test_condition_errors(env):
    ident = env.create()
    env.write(ident, rows([1], ["Alice"], [25], ["NYC"]))
    src = rows([1], ["A"], [1], ["X"])
    with pytest.raises(ValueError) as e:
        merge(env, ident, src, on=["id"], when_not_matched=[
            WhenNotMatched(insert="*", condition="t.age > 1")])
    assert str(e.value) == ("WhenNotMatched condition must not reference target columns (t.*), "
                            "but found: ['age']")
    with pytest.raises(ValueError) as e:
        merge(env, ident, src, on=["id"], when_matched=[
            WhenMatched.update("*", condition="s.nope = 1")])
    assert str(e.value) == "condition references unknown source column 'nope'"
    with pytest.raises(ValueError) as e:
        merge(env, ident, src, on=["id"], when_matched=[
            WhenMatched.update("*", condition="s.age >"), WhenMatched.update("*")])
    assert "unexpected end" in str(e.value)
    with pytest.raises(ValueError) as e:
        merge(env, ident, src, on=["id"], when_matched=[WhenMatched.update("*"),
                                                        WhenMatched.update("*")])
    assert str(e.value).startswith("Only the last when_matched clause may omit its condition.")
    assert env.cp_table(ident).latest_snapshot_id() == 1


def test_module_level_merge_into_under_pypaimons_module_path(env):
    """pypaimon code that imports ``pypaimon.table.data_evolution_merge_into`` and calls its
    module-level ``merge_into`` (with the commit_user / commit_identifier pypaimon requires) runs
    with only the package name changed."""
    from cpaimon.table import data_evolution_merge_into as m

    ident = env.create()
    env.write(ident, rows([1, 2], ["Alice", "Bob"], [25, 30], ["NYC", "LA"]))
    table = env.cp_table(ident)
    msgs = m.merge_into(table, rows([2, 3], ["Bobby", "Cindy"], [31, 22], ["LA2", "SF"]),
                        on=["id"], when_matched=[m.WhenMatched.update({"age": m.lit(40)})],
                        when_not_matched=[m.WhenNotMatched(insert="*")],
                        commit_user="u", commit_identifier=7)
    table.new_batch_write_builder().new_commit().commit(msgs)
    assert by_id(env, ident) == {"id": [1, 2, 3], "name": ["Alice", "Bob", "Cindy"],
                                 "age": [25, 40, 22], "city": ["NYC", "LA", "SF"]}
