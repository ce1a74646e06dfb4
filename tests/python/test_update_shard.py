"""The shard updater through the cpaimon package: pypaimon's shard_table_updator_test.py scenarios
(spec/data-evolution.md §3.6, §8), schema evolution + backfill of an ARRAY<FLOAT> column (issue 5
item 7), shards in separate processes whose serialized messages commit together, the
too-few/too-many rows errors, and pypaimon reading every result identically."""
import subprocess
import sys
import textwrap

import pyarrow as pa
import pytest

from conftest_update import env  # noqa: F401
from cpaimon.schema.data_types import ArrayType, AtomicType
from cpaimon.schema.schema_change import SchemaChange
from cpaimon.write import CommitMessage

ABCD = pa.schema([("a", pa.int32()), ("b", pa.int32()), ("c", pa.int32()), ("d", pa.int32())])
ABC = pa.schema([("a", pa.int32()), ("b", pa.int32()), ("c", pa.int32())])
OPTS = {"row-tracking.enabled": "true", "data-evolution.enabled": "true"}


def write_abc(env, ident, start, end):
    table = env.cp_table(ident)
    wb = table.new_batch_write_builder()
    w = wb.new_write().with_write_type(["a", "b", "c"])
    w.write_arrow(pa.Table.from_pydict({"a": list(range(start, end)),
                                        "b": [i * 10 for i in range(start, end)],
                                        "c": [i * 100 for i in range(start, end)]}, schema=ABC))
    wb.new_commit().commit(w.prepare_commit())


def fill_d(upd, shard, total):
    s = upd.new_shard_updator(shard, total)
    reader = s.arrow_reader()
    for batch in iter(reader.read_next_batch, None):
        d = [c + b - a for a, b, c in zip(batch["a"].to_pylist(), batch["b"].to_pylist(),
                                          batch["c"].to_pylist())]
        s.update_by_arrow_batch(pa.RecordBatch.from_pydict({"d": d},
                                                           schema=pa.schema([("d", pa.int32())])))
    return s.prepare_commit()


def test_compute_column_d_equals_c_plus_b_minus_a(env):
    ident = env.create(pa_schema=ABCD, options=OPTS)
    write_abc(env, ident, 1, 6)
    wb = env.cp_table(ident).new_batch_write_builder()
    upd = wb.new_update()
    upd.with_read_projection(["a", "b", "c", "_ROW_ID"])
    upd.with_update_type(["d"])
    s = upd.new_shard_updator(0, 1)
    reader = s.arrow_reader()
    for batch in iter(reader.read_next_batch, None):
        assert batch["_ROW_ID"].to_pylist() == list(range(batch.num_rows))
        d = [c + b - a for a, b, c in zip(batch["a"].to_pylist(), batch["b"].to_pylist(),
                                          batch["c"].to_pylist())]
        s.update_by_arrow_batch(pa.RecordBatch.from_pydict({"d": d},
                                                           schema=pa.schema([("d", pa.int32())])))
    wb.new_commit().commit(s.prepare_commit())
    assert env.same_rows(ident)["d"].to_pylist() == [109, 218, 327, 436, 545]


def test_compute_column_many_files_ten_shards(env):
    ident = env.create(pa_schema=ABCD, options=OPTS)
    for i in range(60):  # pypaimon's test uses 1000 commits; 60 keeps CI fast, same shape
        write_abc(env, ident, 1, 6)
    wb = env.cp_table(ident).new_batch_write_builder()
    upd = wb.new_update()
    upd.with_read_projection(["a", "b", "c"])
    upd.with_update_type(["d"])
    messages = []
    for shard in range(10):
        assert upd.new_shard_updator(shard, 10).row_count() == 30
        messages += fill_d(upd, shard, 10)
    wb.new_commit().commit(messages)
    assert env.same_rows(ident)["d"].to_pylist() == [109, 218, 327, 436, 545] * 60


def test_partial_shard_update_full_read_schema_unified(env):
    ident = env.create(pa_schema=ABCD, options=OPTS)
    write_abc(env, ident, 1, 11)
    write_abc(env, ident, 10, 21)
    wb = env.cp_table(ident).new_batch_write_builder()
    upd = wb.new_update()
    upd.with_read_projection(["a", "b", "c"])
    upd.with_update_type(["d"])
    wb.new_commit().commit(fill_d(upd, 0, 2))
    d = env.same_rows(ident)["d"].to_pylist()
    assert len(d) == 21
    assert d[:10] == [(i + 1) * 100 + (i + 1) * 10 - (i + 1) for i in range(10)]
    assert d[10:] == [None] * 11
    # the second shard later: every row has d
    upd2 = env.cp_table(ident).new_batch_write_builder().new_update()
    upd2.with_read_projection(["a", "b", "c"])
    upd2.with_update_type(["d"])
    wb.new_commit().commit(fill_d(upd2, 1, 2))
    assert None not in env.same_rows(ident)["d"].to_pylist()


def test_read_projection(env):
    ident = env.create(pa_schema=ABC, options=OPTS)
    write_abc(env, ident, 1, 4)
    upd = env.cp_table(ident).new_batch_write_builder().new_update()
    upd.with_read_projection(["a", "b", "c"])
    upd.with_update_type(["a"])
    batch = upd.new_shard_updator(0, 1).arrow_reader().read_next_batch()
    assert set(batch.schema.names) == {"a", "b", "c"}


def test_more_shards_than_groups(env):
    ident = env.create(pa_schema=ABCD, options=OPTS)
    write_abc(env, ident, 1, 4)
    upd = env.cp_table(ident).new_batch_write_builder().new_update()
    upd.with_read_projection(["a"])
    upd.with_update_type(["d"])
    s = upd.new_shard_updator(3, 4)
    assert s.row_count() == 0
    assert s.arrow_reader().read_all().num_rows == 0
    assert s.prepare_commit() == []


def test_wrong_row_counts(env):
    ident = env.create(pa_schema=ABCD, options=OPTS)
    write_abc(env, ident, 1, 4)
    upd = env.cp_table(ident).new_batch_write_builder().new_update()
    upd.with_update_type(["d"])
    d = pa.schema([("d", pa.int32())])
    s = upd.new_shard_updator(0, 1)
    with pytest.raises(ValueError) as e:
        s.update_by_arrow_batch(pa.RecordBatch.from_pydict({"d": [1, 2, 3, 4]}, schema=d))
    assert str(e.value) == ("No more row ranges to write. Ensure you write exactly the same number "
                            "of rows as read from this shard.")
    s = upd.new_shard_updator(0, 1)
    s.update_by_arrow_batch(pa.RecordBatch.from_pydict({"d": [1, 2]}, schema=d))
    with pytest.raises(ValueError) as e:
        s.prepare_commit()
    assert "row range [0, 2] received 2 of its 3 rows" in str(e.value)
    assert env.cp_table(ident).latest_snapshot_id() == 1


def test_add_array_column_and_backfill_by_two_processes(env, tmp_path):
    """The seed's shard update: ADD COLUMN embedding ARRAY<FLOAT>, old rows read NULL, two shards
    computed in two processes, their serialized messages committed together."""
    ident = env.create(pa_schema=ABC, options=OPTS)
    write_abc(env, ident, 0, 5)
    write_abc(env, ident, 5, 9)
    env.cp.alter_table(ident, [SchemaChange.add_column("embedding",
                                                       ArrayType(True, AtomicType("FLOAT")))])
    assert env.same_rows(ident)["embedding"].to_pylist() == [None] * 9
    script = textwrap.dedent(f"""
        import sys
        import pyarrow as pa
        import cpaimon
        cat = cpaimon.CatalogFactory.create({{"warehouse": {env.path!r}}})
        upd = cat.get_table({ident!r}).new_batch_write_builder().new_update()
        upd.with_read_projection(["a"])
        upd.with_update_type(["embedding"])
        s = upd.new_shard_updator(int(sys.argv[1]), 2)
        for batch in s.arrow_reader():
            emb = [[float(a), float(a) / 2] for a in batch["a"].to_pylist()]
            s.update_by_arrow_batch(pa.RecordBatch.from_pydict(
                {{"embedding": emb}}, schema=pa.schema([("embedding", pa.list_(pa.float32()))])))
        msgs = s.prepare_commit()
        sys.stdout.buffer.write(msgs[0].serialize() if msgs else b"")
    """)
    procs = [subprocess.run([sys.executable, "-c", script, str(i)], capture_output=True,
                            check=True) for i in range(2)]
    messages = [CommitMessage.deserialize(p.stdout) for p in procs]
    env.commit(ident, messages)
    result = env.same_rows(ident)
    assert result["embedding"].to_pylist() == [[float(a), a / 2] for a in range(9)]
    assert result["a"].to_pylist() == list(range(9))
