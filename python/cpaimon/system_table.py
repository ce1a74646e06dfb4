"""System tables, as pypaimon's ``catalog.get_table('db.t$snapshots')``: read-only views of a
table's metadata (snapshots, schemas, options, manifests, files, file_key_ranges, partitions,
buckets, table_indexes; tags, branches and consumers are empty), with Java Paimon's columns and
value text (include/cpaimon/system_table.h). Read them like any table::

    t = catalog.get_table('db.t$files')
    rb = t.new_read_builder().with_projection(['file_path', 'first_row_id'])
    rb.new_read().to_arrow(rb.new_scan().plan().splits())

The rows are produced by the C library when the scan is planned (one split holding the whole
view, as pypaimon's SystemTableScan); filters and projections are applied there too.
"""
import json
from typing import Iterator, List, Optional

import pyarrow as pa

from cpaimon import _cpaimon
from cpaimon.schema.data_types import ArrayType, AtomicType, DataField, RowType

_READ_ONLY = "System table is read-only"


def _type(node):
    """A DataField JSON type node (Java's form) as a cpaimon data type."""
    if isinstance(node, str):
        return AtomicType(node)
    kind = node["type"]
    nullable = not kind.endswith("NOT NULL")
    base = kind.split(" ")[0]
    if base == "ARRAY":
        return ArrayType(nullable, _type(node["element"]))
    if base == "ROW":
        return RowType(nullable, [DataField(f["id"], f["name"], _type(f["type"]))
                                  for f in node["fields"]])
    raise ValueError(f"unexpected system table column type {kind}")


class SystemTable:
    """A read-only view over a data table's metadata (pypaimon's SystemTable)."""

    def __init__(self, catalog, handle):
        self.catalog = catalog
        self._handle = handle
        info = _cpaimon.system_table_info(handle)
        self.name = info["name"]
        self._kind = info["kind"]
        self._primary_keys = list(info["primary_keys"])
        self.fields = [DataField(f["id"], f["name"], _type(f["type"]))
                       for f in json.loads(info["fields_json"])]
        self.partition_keys: List[str] = []
        self.options = {}

    def system_table_name(self) -> str:
        return self._kind

    def row_type(self) -> RowType:
        return RowType(False, self.fields)

    def primary_keys(self) -> List[str]:
        return list(self._primary_keys)

    def arrow_schema(self) -> pa.Schema:
        return pa.Schema._import_from_c_capsule(_cpaimon.system_table_schema(self._handle))

    def copy(self, options: dict) -> "SystemTable":
        """Time travel is not supported on system tables: they show the latest state."""
        travel = [k for k in options if k.startswith("scan.")]
        if travel:
            raise NotImplementedError(f"{travel[0]} on system table {self.name} is not "
                                      "supported: system tables show the latest state")
        return self

    def new_read_builder(self) -> "SystemReadBuilder":
        return SystemReadBuilder(self)

    def new_batch_write_builder(self):
        raise NotImplementedError(_READ_ONLY)

    def new_stream_write_builder(self):
        raise NotImplementedError(_READ_ONLY)

    def new_stream_read_builder(self):
        raise NotImplementedError(_READ_ONLY)


class SystemReadBuilder:
    """The read builder of a system table (pypaimon's SystemReadBuilder)."""

    def __init__(self, table: SystemTable):
        self.table = table
        self._projection: Optional[List[str]] = None
        self._predicate = None
        self._limit: Optional[int] = None

    def with_projection(self, projection: List[str]) -> "SystemReadBuilder":
        self._projection = list(projection) if projection is not None else None
        return self

    def with_filter(self, predicate) -> "SystemReadBuilder":
        self._predicate = predicate
        return self

    def with_limit(self, limit: int) -> "SystemReadBuilder":
        self._limit = limit
        return self

    def new_predicate_builder(self):
        from cpaimon.predicate import PredicateBuilder
        return PredicateBuilder()

    def read_type(self) -> pa.Schema:
        schema = self.table.arrow_schema()
        if not self._projection:
            return schema
        return pa.schema([schema.field(name) for name in self._projection])

    def new_scan(self) -> "SystemTableScan":
        return SystemTableScan(self)

    def new_read(self) -> "SystemTableRead":
        return SystemTableRead(self)


class SystemSplit:
    """The one split of a system table: its rows, read when the scan was planned."""

    def __init__(self, table: pa.Table):
        self._table = table
        self.row_count = table.num_rows

    def arrow_table(self) -> pa.Table:
        return self._table


class SystemPlan:
    def __init__(self, splits: List[SystemSplit]):
        self._splits = splits

    def splits(self) -> List[SystemSplit]:
        return list(self._splits)


class SystemTableScan:
    def __init__(self, builder: SystemReadBuilder):
        self._builder = builder

    def plan(self) -> SystemPlan:
        b = self._builder
        predicate = None if b._predicate is None else b._predicate._handle
        stream = _cpaimon.system_table_read(b.table._handle, b._projection or None, predicate)
        return SystemPlan([SystemSplit(pa.table(stream))])


class SystemTableRead:
    def __init__(self, builder: SystemReadBuilder):
        self._builder = builder

    def to_arrow(self, splits: List[SystemSplit]) -> pa.Table:
        if not splits:
            schema = self._builder.read_type()
            return schema.empty_table()
        table = pa.concat_tables([s.arrow_table() for s in splits])
        limit = self._builder._limit
        return table.slice(0, limit) if limit is not None else table

    def to_pandas(self, splits: List[SystemSplit]):
        return self.to_arrow(splits).to_pandas()

    def to_arrow_batch_reader(self, splits: List[SystemSplit]) -> pa.RecordBatchReader:
        table = self.to_arrow(splits)
        return pa.RecordBatchReader.from_batches(table.schema, table.to_batches())

    def to_record_batch_iterator(self, splits: List[SystemSplit]) -> Iterator[pa.RecordBatch]:
        yield from self.to_arrow(splits).to_batches()

    def to_iterator(self, splits: List[SystemSplit]) -> Iterator[dict]:
        for batch in self.to_arrow(splits).to_batches():
            yield from batch.to_pylist()
