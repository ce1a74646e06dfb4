"""Reads, as in pypaimon: ``table.new_read_builder()`` → ``new_scan().plan().splits()`` and
``new_read().to_arrow(splits)`` / ``to_pandas`` / ``to_arrow_batch_reader`` / ``to_iterator`` /
``to_duckdb``.

Time travel — ``with_snapshot(n)``, or a table from ``table.copy({'scan.snapshot-id': 'n'})``
(or ``scan.tag-name``, ``scan.timestamp-millis``, ``scan.timestamp``, ``scan.version``) —
reads snapshot n with the schema it was written with (include/cpaimon/read.h).

``with_limit``, ``with_partition_filter``, ``TableScan.with_shard`` / ``with_slice`` have
pypaimon's semantics; the planning, the division of rows among shards and the row limit are done
by the C library (include/cpaimon/read.h)."""
from enum import Enum
from typing import Iterator, List, Optional

import pyarrow as pa

from cpaimon import _cpaimon


class RowKind(Enum):
    """pypaimon's RowKind (pypaimon.table.row.row_kind). Rows of append tables are INSERT."""
    INSERT = 0
    UPDATE_BEFORE = 1
    UPDATE_AFTER = 2
    DELETE = 3


class InternalRow:
    """A row yielded by ``TableRead.to_iterator``, with the accessors of pypaimon's rows
    (OffsetRow): ``get_field(pos)`` (the value as pyarrow's ``to_pylist`` gives it; IndexError
    past the last column), ``get_row_kind()`` (always RowKind.INSERT: append tables hold
    inserted rows only), ``row_kind_byte``, ``arity`` / ``len(row)`` and ``row_tuple``. Unlike
    pypaimon's, each row is a distinct object, so rows may be kept after the iterator moves on.
    Blob and vector accessors (get_blob, get_vector) are not provided."""

    __slots__ = ("row_tuple",)

    def __init__(self, values: tuple):
        self.row_tuple = values

    @property
    def arity(self) -> int:
        return len(self.row_tuple)

    @property
    def row_kind_byte(self) -> int:
        return RowKind.INSERT.value

    def get_field(self, pos: int):
        if pos >= len(self.row_tuple):
            raise IndexError(f"Position {pos} is out of bounds for row arity {len(self.row_tuple)}")
        return self.row_tuple[pos]

    def get_row_kind(self) -> RowKind:
        return RowKind.INSERT

    def __len__(self) -> int:
        return len(self.row_tuple)

    def __eq__(self, other) -> bool:
        return isinstance(other, InternalRow) and self.row_tuple == other.row_tuple

    def __hash__(self) -> int:
        return hash(self.row_tuple)

    def __repr__(self) -> str:
        return f"InternalRow{self.row_tuple!r}"


def _check_int(value, what: str):
    if not isinstance(value, int):
        raise TypeError(f"{what} must be an integer, got {type(value).__name__}")


class Split:
    """One split of a plan. Picklable (``serialize()`` / ``Split.deserialize``): a split planned
    in one process is read in another — a Ray or process-pool worker — by a read builder of the
    same table with the same projection, filter and snapshot, without planning again."""

    def __init__(self, plan, index: int, row_count: int):
        self._plan = plan
        self.index = index
        self.row_count = row_count

    def serialize(self) -> bytes:
        return _cpaimon.plan_serialize(self._plan._handle, [self.index])

    @staticmethod
    def deserialize(data: bytes) -> "Split":
        plan = Plan(_cpaimon.plan_deserialize(data))
        if len(plan._splits) != 1:
            raise ValueError(f"serialized split holds {len(plan._splits)} splits, expected 1")
        return plan._splits[0]

    def __reduce__(self):
        return Split.deserialize, (self.serialize(),)


class Plan:
    def __init__(self, handle):
        self._handle = handle
        snapshot_id, rows = _cpaimon.plan_info(handle)
        self.snapshot_id = snapshot_id or None  # None on a table without snapshots, as pypaimon
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
        self._limit = None
        self._partition_filter = None

    def with_projection(self, projection: List[str]) -> "ReadBuilder":
        self._projection = list(projection) if projection is not None else None
        return self

    def with_filter(self, predicate) -> "ReadBuilder":
        self._predicate = predicate
        return self

    def with_limit(self, limit: Optional[int]) -> "ReadBuilder":
        """Reads return at most `limit` rows, and planning keeps splits only until their row
        counts reach it (pypaimon's push-down: not when the filter reads a non-partition
        column). As pypaimon, a limit of 0 or below reads no rows; None removes the limit."""
        if limit is not None:
            _check_int(limit, "limit")
        self._limit = limit
        return self

    def with_partition_filter(self, predicate) -> "ReadBuilder":
        """Skips partitions by `predicate` (pypaimon's with_partition_filter): its top-level AND
        conjuncts that read partition keys only are used, the others are ignored, as pypaimon
        does; an unknown column is a ValueError. Combines with with_filter, which still filters
        the rows read."""
        self._partition_filter = predicate
        return self

    def with_snapshot(self, snapshot_id: int) -> "ReadBuilder":
        """Reads snapshot `snapshot_id` with its own schema (overrides the table's
        scan.snapshot-id)."""
        self._snapshot_id = snapshot_id
        return self

    def _snapshot(self):
        """The time travel of reads as read_builder_configure arguments ({}: the latest), and
        the error planning must raise."""
        if self._snapshot_id is not None:
            return {"snapshot_id": self._snapshot_id}, None
        return self.table._travel, self.table._travel_error

    def with_batch_size(self, rows: int) -> "ReadBuilder":
        self._batch_size = rows
        return self

    def _native(self, shard=None, slice_=None):
        rb = _cpaimon.read_builder_new(self.table._handle)
        kwargs = {}
        if self._limit is not None:
            kwargs["limit"] = max(self._limit, 0)
        if shard is not None:
            kwargs["shard"] = shard
        if slice_ is not None:
            kwargs["slice"] = slice_
        if self._projection is not None:
            kwargs["projection"] = self._projection
        travel, _ = self._snapshot()
        if self._snapshot_id is not None or travel.get("snapshot_id", 1) > 0:
            kwargs.update(travel)
        if self._batch_size is not None:
            kwargs["batch_size"] = self._batch_size
        # Read options of a copy(): blob-as-descriptor (the table's own option applies otherwise).
        descriptor = self.table.options.get("blob-as-descriptor")
        if descriptor is not None:
            kwargs["blob_as_descriptor"] = 1 if str(descriptor).lower() == "true" else 0
        _cpaimon.read_builder_configure(rb, **kwargs)
        if self._predicate is not None:
            _cpaimon.read_builder_set_filter(rb, self._predicate._handle)
        if self._partition_filter is not None:
            _cpaimon.read_builder_set_partition_filter(rb, self._partition_filter._handle)
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
        self._shard = None
        self._slice = None

    def with_shard(self, idx_of_this_subtask: int, number_of_para_subtasks: int) -> "TableScan":
        """Plans only subtask `idx_of_this_subtask`'s share of the rows, out of
        `number_of_para_subtasks` (pypaimon's rows-by-position division; the shards together
        read every row once). ValueError with pypaimon's messages for a bad pair."""
        if not isinstance(number_of_para_subtasks, int) or number_of_para_subtasks <= 0:
            raise ValueError("number_of_para_subtasks must be a positive integer")
        if not isinstance(idx_of_this_subtask, int) or idx_of_this_subtask < 0:
            raise ValueError("idx_of_this_subtask must be a non-negative integer")
        if self._slice is not None:
            raise ValueError("with_shard and with_slice cannot be used simultaneously")
        shard = (int(idx_of_this_subtask), int(number_of_para_subtasks))
        # The C library checks the values (and raises pypaimon's message) now, not at plan().
        _cpaimon.read_builder_configure(_cpaimon.read_builder_new(self._builder.table._handle),
                                        shard=shard)
        self._shard = shard
        return self

    def with_slice(self, start_pos: int, end_pos: int) -> "TableScan":
        """Plans only rows at positions [start_pos, end_pos) (positions as for with_shard)."""
        if (not isinstance(start_pos, int) or not isinstance(end_pos, int) or start_pos < 0
                or start_pos >= end_pos):
            raise ValueError("start_pos must be non-negative and less than end_pos; "
                             "both must be integers")
        if self._shard is not None:
            raise ValueError("with_slice and with_shard cannot be used simultaneously")
        self._slice = (int(start_pos), int(end_pos))
        return self

    def plan(self) -> Plan:
        travel, error = self._builder._snapshot()
        if error is not None:
            raise error
        rb = self._builder._native(self._shard, self._slice)
        if "snapshot_id" in travel:
            try:
                _cpaimon.read_builder_read_schema(rb)
            except FileNotFoundError as e:  # pypaimon's message and type
                raise ValueError(f"Snapshot id '{travel['snapshot_id']}' doesn't exist.") from e
        plan = Plan(_cpaimon.read_builder_plan(rb))
        plan._rb = rb
        return plan


class TableRead:
    def __init__(self, builder: ReadBuilder):
        self._builder = builder
        # As pypaimon's new_read(): the limit in force when the read was made.
        self._limit = None if builder._limit is None else max(builder._limit, 0)

    def _threads(self, parallelism: Optional[int]) -> int:
        """pypaimon's parallelism: the argument, else the table's read.parallelism, each >= 1;
        neither: the library's choice (-1). At most 64 threads read."""
        if parallelism is not None:
            value, source = parallelism, "parallelism"
        else:
            option = self._builder.table.options.get("read.parallelism")
            if option is None:
                return -1
            try:
                value = int(option)
            except ValueError:
                raise ValueError(f"Could not parse value '{option}' for key 'read.parallelism'.")
            source = "read.parallelism"
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"{source} must be an int")
        if value < 1:
            raise ValueError(f"{source} must be >= 1, got {value}")
        return min(value, 64)

    def _stream(self, plan, indices, limit, whole: bool = False, threads: int = -1):
        """The C stream of splits `indices` of `plan`; `whole` when every batch will be kept
        (to_arrow), which lets the C read threads run ahead without bound
        (include/cpaimon/read.h). A plan that came as bytes (Split.deserialize) is read through
        this read builder."""
        rb = plan._rb if getattr(plan, "_rb", None) is not None else self._builder._native()
        stream = _cpaimon.plan_read(rb, plan._handle, indices, limit, whole, threads)
        return pa.RecordBatchReader._import_from_c_capsule(stream.__arrow_c_stream__())

    def _reader(self, splits, whole, parallelism=None):
        threads = self._threads(parallelism)
        if not splits:
            return pa.RecordBatchReader.from_batches(self._builder.read_type(), [])
        # Splits of one plan are read as one stream; splits of several (deserialized ones, from
        # other processes) plan by plan, in the order given, under one limit.
        groups = []
        for s in splits:
            if groups and groups[-1][0] is s._plan:
                groups[-1][1].append(s.index)
            else:
                groups.append((s._plan, [s.index]))
        if len(groups) == 1:
            return self._stream(groups[0][0], groups[0][1], self._limit, whole, threads)
        first = self._stream(groups[0][0], groups[0][1], self._limit, whole, threads)

        def batches():
            left = self._limit
            for k, (plan, indices) in enumerate(groups):
                if left is not None and left <= 0:
                    return
                reader = first if k == 0 else self._stream(plan, indices, left, whole, threads)
                for b in reader:
                    if left is not None:
                        b = b.slice(0, left)
                        left -= b.num_rows
                    yield b

        return pa.RecordBatchReader.from_batches(first.schema, batches())

    def to_arrow_batch_reader(self, splits: List[Split], blob_parallelism: Optional[int] = None,
                              parallelism: Optional[int] = None) -> pa.RecordBatchReader:
        """``parallelism`` as pypaimon's; ``blob_parallelism`` is accepted (no BLOB columns yet)."""
        if blob_parallelism is not None and blob_parallelism < 1:
            raise ValueError(f"blob_parallelism must be >= 1, got {blob_parallelism}")
        return self._reader(splits, False, parallelism)

    def to_arrow(self, splits: List[Split], blob_parallelism: Optional[int] = None,
                 parallelism: Optional[int] = None) -> pa.Table:
        if blob_parallelism is not None and blob_parallelism < 1:
            raise ValueError(f"blob_parallelism must be >= 1, got {blob_parallelism}")
        return self._reader(splits, True, parallelism).read_all()

    def to_pandas(self, splits: List[Split], parallelism: Optional[int] = None):
        return self.to_arrow(splits, parallelism=parallelism).to_pandas()

    def to_iterator(self, splits: List[Split]) -> Iterator[InternalRow]:
        """The rows of `splits` one by one, as InternalRow objects (get_field(i),
        get_row_kind(), ...), streamed batch by batch; at most the limit's rows."""
        reader = self.to_arrow_batch_reader(splits)
        for batch in reader:
            columns = [column.to_pylist() for column in batch.columns]
            for values in zip(*columns):
                yield InternalRow(values)

    def to_ray(self, splits: List[Split], *, ray_remote_args=None, concurrency=None,
               override_num_blocks=None, **read_args):
        """The rows of `splits` as a Ray Dataset (pypaimon's to_ray): Ray tasks read the splits,
        shipped as bytes, with this read's projection, filter, limit and snapshot
        (cpaimon.ray)."""
        from cpaimon.ray import dataset_of_splits

        b = self._builder
        options = dict(b.table.options)
        if b._snapshot_id is not None:
            options["scan.snapshot-id"] = str(b._snapshot_id)
        return dataset_of_splits(b.table.name, b.table.catalog.options, options, b._projection,
                                 b._predicate, self._limit, splits, b.read_type(),
                                 ray_remote_args=ray_remote_args, concurrency=concurrency,
                                 override_num_blocks=override_num_blocks, **read_args)

    def to_duckdb(self, splits: List[Split], table_name: str, connection=None,
                  parallelism: Optional[int] = None):
        """Registers the rows of `splits` (an Arrow table) in DuckDB as `table_name`, on
        `connection` or a new in-memory connection, and returns the connection."""
        import duckdb

        con = connection or duckdb.connect(database=":memory:")
        con.register(table_name, self.to_arrow(splits, parallelism=parallelism))
        return con
