"""Reads, as in pypaimon: ``table.new_read_builder()`` → ``new_scan().plan().splits()`` and
``new_read().to_arrow(splits)`` / ``to_pandas`` / ``to_arrow_batch_reader``.

Time travel — ``with_snapshot(n)``, or a table from ``table.copy({'scan.snapshot-id': 'n'})`` —
reads snapshot n with the schema it was written with (include/cpaimon/read.h)."""
from typing import List, Optional

import pyarrow as pa

from cpaimon import _cpaimon


class Split:
    def __init__(self, plan, index: int, row_count: int):
        self._plan = plan
        self.index = index
        self.row_count = row_count


class Plan:
    def __init__(self, handle):
        self._handle = handle
        self.snapshot_id, rows = _cpaimon.plan_info(handle)
        self._splits = [Split(self, i, n) for i, n in enumerate(rows)]

    def splits(self) -> List[Split]:
        return list(self._splits)


class ReadBuilder:
    def __init__(self, table):
        self.table = table
        self._projection = None
        self._predicate = None
        self._snapshot_id = None
        self._batch_size = None

    def with_projection(self, projection: List[str]) -> "ReadBuilder":
        self._projection = list(projection) if projection is not None else None
        return self

    def with_filter(self, predicate) -> "ReadBuilder":
        self._predicate = predicate
        return self

    def with_snapshot(self, snapshot_id: int) -> "ReadBuilder":
        """Reads snapshot `snapshot_id` with its own schema (overrides the table's
        scan.snapshot-id)."""
        self._snapshot_id = snapshot_id
        return self

    def _snapshot(self):
        """The snapshot reads see (None: the latest), and the error planning must raise."""
        if self._snapshot_id is not None:
            return self._snapshot_id, None
        return self.table._travel_snapshot, self.table._travel_error

    def with_batch_size(self, rows: int) -> "ReadBuilder":
        self._batch_size = rows
        return self

    def _native(self):
        rb = _cpaimon.read_builder_new(self.table._handle)
        kwargs = {}
        if self._projection is not None:
            kwargs["projection"] = self._projection
        snapshot, _ = self._snapshot()
        if snapshot is not None and (self._snapshot_id is not None or snapshot > 0):
            kwargs["snapshot_id"] = snapshot
        if self._batch_size is not None:
            kwargs["batch_size"] = self._batch_size
        _cpaimon.read_builder_configure(rb, **kwargs)
        if self._predicate is not None:
            _cpaimon.read_builder_set_filter(rb, self._predicate._handle)
        return rb

    def new_predicate_builder(self):
        from cpaimon.predicate import PredicateBuilder
        return PredicateBuilder()

    def new_scan(self) -> "TableScan":
        return TableScan(self)

    def new_read(self) -> "TableRead":
        return TableRead(self)

    def read_type(self) -> pa.Schema:
        return pa.Schema._import_from_c_capsule(_cpaimon.read_builder_schema(self._native()))


class TableScan:
    def __init__(self, builder: ReadBuilder):
        self._builder = builder

    def plan(self) -> Plan:
        snapshot, error = self._builder._snapshot()
        if error is not None:
            raise error
        rb = self._builder._native()
        if snapshot is not None:
            try:
                _cpaimon.read_builder_read_schema(rb)
            except FileNotFoundError as e:  # pypaimon's message and type
                raise ValueError(f"Snapshot id '{snapshot}' doesn't exist.") from e
        plan = Plan(_cpaimon.read_builder_plan(rb))
        plan._rb = rb
        return plan


class TableRead:
    def __init__(self, builder: ReadBuilder):
        self._builder = builder

    def _stream(self, splits: Optional[List[Split]]):
        if not splits:
            return None
        plan = splits[0]._plan
        if any(s._plan is not plan for s in splits):
            raise ValueError("splits must come from one plan")
        return _cpaimon.plan_read(plan._rb, plan._handle, [s.index for s in splits])

    def to_arrow_batch_reader(self, splits: List[Split]) -> pa.RecordBatchReader:
        stream = self._stream(splits)
        if stream is None:
            return pa.RecordBatchReader.from_batches(self._builder.read_type(), [])
        return pa.RecordBatchReader._import_from_c_capsule(stream.__arrow_c_stream__())

    def to_arrow(self, splits: List[Split]) -> pa.Table:
        return self.to_arrow_batch_reader(splits).read_all()

    def to_pandas(self, splits: List[Split]):
        return self.to_arrow(splits).to_pandas()
