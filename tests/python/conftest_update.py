"""Helpers of the data-evolution update tests (tests/python/test_update*.py): one warehouse opened
by both cpaimon and pypaimon (the oracle), tables shaped like pypaimon's DataEvolutionTestBase,
writes/commits through either library, and reads of either library (with _ROW_ID and
_SEQUENCE_NUMBER) for comparison."""
import pyarrow as pa
import pypaimon
import pytest

import cpaimon
from cpaimon.schema.data_types import AtomicType, DataField

PA_SCHEMA = pa.schema([("id", pa.int32()), ("name", pa.string()), ("age", pa.int32()),
                       ("city", pa.string())])
DE_OPTIONS = {"row-tracking.enabled": "true", "data-evolution.enabled": "true"}
HIDDEN = ["_ROW_ID", "_SEQUENCE_NUMBER"]


class Env:
    """A warehouse with a cpaimon catalog and a pypaimon catalog on the same directory (or
    object-store location, reached with `options`)."""

    def __init__(self, path, options=None):
        self.path = str(path)
        opts = dict(options or {}, warehouse=self.path)
        self.cp = cpaimon.CatalogFactory.create(opts)
        self.cp.create_database("db", True)
        self.py = pypaimon.CatalogFactory.create(opts)
        self._n = 0

    def create(self, pa_schema=PA_SCHEMA, partition_keys=None, options=None, name=None):
        self._n += 1
        ident = f"db.{name or 't%d' % self._n}"
        opts = dict(DE_OPTIONS if options is None else options)
        schema = pypaimon.Schema.from_pyarrow_schema(pa_schema, partition_keys=partition_keys,
                                                     options=opts)
        self.py.create_table(ident, schema, False)
        return ident

    def cp_table(self, ident):
        return self.cp.get_table(ident)

    def py_table(self, ident):
        return self.py.get_table(ident)

    def write(self, ident, data, lib="cp"):
        table = self.cp_table(ident) if lib == "cp" else self.py_table(ident)
        wb = table.new_batch_write_builder()
        w, c = wb.new_write(), wb.new_commit()
        w.write_arrow(data)
        c.commit(w.prepare_commit())
        w.close()
        c.close()

    def commit(self, ident, messages, lib="cp"):
        table = self.cp_table(ident) if lib == "cp" else self.py_table(ident)
        c = table.new_batch_write_builder().new_commit()
        c.commit(messages)
        c.close()

    def read(self, ident, lib="cp", hidden=True, sort="_ROW_ID"):
        table = self.cp_table(ident) if lib == "cp" else self.py_table(ident)
        names = table.arrow_schema().names if lib == "cp" else list(table.field_names)
        rb = table.new_read_builder().with_projection(names + (HIDDEN if hidden else []))
        result = rb.new_read().to_arrow(rb.new_scan().plan().splits())
        return result.sort_by(sort) if sort and sort in result.column_names else result

    def same_rows(self, ident):
        """cpaimon and pypaimon read identical rows, row ids and sequence numbers."""
        ours, theirs = self.read(ident, "cp"), self.read(ident, "py")
        assert ours.to_pylist() == theirs.to_pylist()
        return ours


@pytest.fixture
def env(tmp_path):
    return Env(tmp_path / "warehouse")


def seed(env, partition_keys=None, options=None, lib="cp"):
    """pypaimon's _create_seeded_table: rows 0-1 in one file, 2-4 in another."""
    ident = env.create(partition_keys=partition_keys, options=options)
    env.write(ident, pa.Table.from_pydict({"id": [1, 2], "name": ["Alice", "Bob"], "age": [25, 30],
                                           "city": ["NYC", "LA"]}, schema=PA_SCHEMA), lib)
    env.write(ident, pa.Table.from_pydict({
        "id": [3, 4, 5], "name": ["Charlie", "David", "Eve"], "age": [35, 40, 45],
        "city": ["Chicago", "Houston", "Phoenix"]}, schema=PA_SCHEMA), lib)
    return ident


def update(env, ident, data, cols=None, lib="cp"):
    """update_by_arrow_with_row_id + commit with either library; returns the messages."""
    table = env.cp_table(ident) if lib == "cp" else env.py_table(ident)
    wb = table.new_batch_write_builder()
    tu = wb.new_update()
    if cols:
        tu.with_update_type(cols)
    msgs = tu.update_by_arrow_with_row_id(data)
    c = wb.new_commit()
    c.commit(msgs)
    c.close()
    return msgs


__all__ = ["Env", "env", "seed", "update", "PA_SCHEMA", "DE_OPTIONS", "AtomicType", "DataField"]
