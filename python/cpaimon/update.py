"""Data-evolution updates, as pypaimon's ``TableUpdate`` (``write_builder.new_update()``):
update by ``_ROW_ID``, by predicate, upsert by key, ``merge_into`` and the shard updater
(spec/data-evolution.md §3). Every operation runs in C (include/cpaimon/update.h); Python only
shapes arguments into Arrow arrays, and evaluates user callables (``update_by_predicate``'s
callable assignments), which receive each matched row-id group as an Arrow table.

The merge_into API mirrors ``pypaimon.table.data_evolution_merge_into``: ``WhenMatched``,
``WhenNotMatched``, ``source_col``, ``target_col``, ``lit``.
"""
from dataclasses import dataclass
from typing import Any, List, Mapping, Optional, Sequence, Union

import pyarrow as pa

from cpaimon import _cpaimon
from cpaimon.write import CommitMessage

ROW_ID = "_ROW_ID"


def _messages(handle) -> List[CommitMessage]:
    message = CommitMessage(handle)
    return [] if message.is_empty() else [message]


def _to_table(data) -> pa.Table:
    if isinstance(data, pa.Table):
        return data
    if isinstance(data, pa.RecordBatch):
        return pa.Table.from_batches([data])
    try:
        import pandas as pd
        if isinstance(data, pd.DataFrame):
            return pa.Table.from_pandas(data, preserve_index=False)
    except ImportError:  # pragma: no cover
        pass
    raise TypeError(f"expected a pyarrow.Table or RecordBatch, got {type(data).__name__}")


def _cast(column, target: pa.DataType):
    """column.cast(target); a MAP column may also come as lists of (key, value) pairs, which
    pyarrow does not cast (pypaimon takes them): those are rebuilt as the map."""
    try:
        return column.cast(target)
    except pa.ArrowNotImplementedError:
        if not pa.types.is_map(target):
            raise
        rows = [None if v is None else [tuple(pair) if isinstance(pair, list) else pair
                                        for pair in v] for v in column.to_pylist()]
        return pa.chunked_array([pa.array(rows, type=target)], type=target)


def _one_batch(table: pa.Table) -> pa.RecordBatch:
    """The table as one record batch (what the C API takes)."""
    table = table.combine_chunks()
    batches = table.to_batches()
    if not batches:
        return pa.RecordBatch.from_arrays(
            [pa.array([], type=f.type) for f in table.schema], schema=table.schema)
    return batches[0]


def _as_array(value) -> pa.Array:
    return value.combine_chunks() if isinstance(value, pa.ChunkedArray) else value


class TableUpdate:
    """``write_builder.new_update()``."""

    def __init__(self, table):
        self.table = table
        self.update_cols: Optional[List[str]] = None
        self.projection: Optional[List[str]] = None

    # ---- configuration ----

    def with_update_type(self, update_cols: List[str]) -> "TableUpdate":
        cols = list(dict.fromkeys(update_cols))
        # the C updater checks the names ("Column x is not in table schema.")
        _cpaimon.update_new(self.table._handle, cols, None, -1)
        self.update_cols = None if len(cols) == len(self._field_names()) else cols
        return self

    def with_read_projection(self, projection: List[str]) -> "TableUpdate":
        self.projection = list(projection) if projection is not None else None
        return self

    def new_predicate_builder(self):
        from cpaimon.predicate import PredicateBuilder
        return PredicateBuilder()

    def _field_names(self) -> List[str]:
        return self.table.arrow_schema().names

    def _native(self, update_cols=None, snapshot_id: int = -1):
        cols = self.update_cols if update_cols is None else update_cols
        return _cpaimon.update_new(self.table._handle, cols, self.projection, snapshot_id)

    def _cast_to_table(self, table: pa.Table) -> pa.Table:
        """Input columns named like table columns take the table's Arrow types (pypaimon casts
        them the same way); _ROW_ID becomes int64."""
        schema = self.table.arrow_schema()
        columns, fields = [], []
        for field, column in zip(table.schema, table.columns):
            if field.name == ROW_ID:
                target = pa.int64()
            elif field.name in schema.names:
                target = schema.field(field.name).type
            else:
                target = field.type
            if column.type != target:
                column = _cast(column, target)
            columns.append(column)
            fields.append(pa.field(field.name, target))
        return pa.Table.from_arrays(columns, schema=pa.schema(fields))

    # ---- update by row id (§3.2) ----

    def update_by_arrow_with_row_id(self, table) -> List[CommitMessage]:
        table = self._cast_to_table(_to_table(table))
        return _messages(_cpaimon.update_by_row_id(self._native(), _one_batch(table)))

    # ---- update by predicate (§3.3) ----

    def update_by_predicate(self, predicate, assignments: Mapping[str, Any],
                            read_columns: Optional[Sequence[str]] = None) -> List[CommitMessage]:
        assignments = dict(assignments)
        has_callable = any(callable(v) for v in assignments.values())
        has_array = any(isinstance(v, (pa.Array, pa.ChunkedArray)) for v in assignments.values())
        read_columns = list(dict.fromkeys(read_columns or ()))
        native = self._native(update_cols=list(assignments) or None)
        _cpaimon.update_check_assignments(native, list(assignments))
        if read_columns and not has_callable:
            raise ValueError("read_columns requires a callable assignment.")
        if has_callable and has_array:
            raise ValueError(
                "Callable assignments cannot be combined with Arrow array assignments.")
        if has_callable and not read_columns:
            raise ValueError("Callable assignments require read_columns.")
        handle = predicate._handle if predicate is not None else None
        schema = self.table.arrow_schema()
        if has_callable:
            return self._update_by_callables(native, handle, assignments, read_columns, schema)
        items = []
        for column, value in assignments.items():
            target = schema.field(column).type
            if isinstance(value, (pa.Array, pa.ChunkedArray)):
                array = _as_array(value)
                items.append((column, array if array.type == target else array.cast(target), False))
            else:
                if isinstance(value, pa.Scalar):
                    value = value.as_py()
                items.append((column, pa.array([value], type=target), True))
        return _messages(_cpaimon.update_by_predicate(native, handle, items))

    def _update_by_callables(self, native, handle, assignments, read_columns, schema):
        stream = _cpaimon.update_scan_matches(native, handle, read_columns)
        reader = pa.RecordBatchReader._import_from_c_capsule(stream.__arrow_c_stream__())
        handles = []
        for batch in reader:  # one row-id group at a time
            matched = pa.Table.from_batches([batch])
            arrays, fields = [matched[ROW_ID]], [pa.field(ROW_ID, pa.int64())]
            for column, fn in assignments.items():
                value = fn(matched)
                if not isinstance(value, (pa.Array, pa.ChunkedArray)):
                    raise ValueError(f"Callable assignment for {column} must return a "
                                     "pyarrow.Array or pyarrow.ChunkedArray.")
                if len(value) != matched.num_rows:
                    raise ValueError("Assignment array length must match matched row count: "
                                     f"{len(value)} != {matched.num_rows}.")
                target = schema.field(column).type
                value = _as_array(value)
                arrays.append(value if value.type == target else value.cast(target))
                fields.append(pa.field(column, target))
            update = pa.Table.from_arrays(arrays, schema=pa.schema(fields))
            handles.append(_cpaimon.update_by_row_id(native, _one_batch(update)))
        if not handles:
            return []
        return _messages(_cpaimon.messages_merge(handles))

    # ---- upsert by key (§3.4) ----

    def upsert_by_arrow_with_key(self, table, upsert_keys: List[str]) -> List[CommitMessage]:
        table = self._cast_to_table(_to_table(table))
        return _messages(_cpaimon.update_upsert(self._native(), _one_batch(table),
                                                list(upsert_keys)))

    # ---- deletes (§3.7, include/cpaimon/delete.h) ----

    def delete_by_row_id(self, row_ids: Sequence[int]) -> List[CommitMessage]:
        return _messages(_cpaimon.table_delete_by_row_ids(self.table._handle, list(row_ids)))

    def delete_by_predicate(self, predicate) -> List[CommitMessage]:
        handle = predicate._handle if predicate is not None else None
        return _messages(_cpaimon.table_delete_by_predicate(self.table._handle, handle))

    # ---- merge into (§3.5) ----

    def merge_into(self, source: Any, *, on, when_matched: Sequence["WhenMatched"] = (),
                   when_not_matched: Sequence["WhenNotMatched"] = ()) -> List[CommitMessage]:
        if isinstance(on, Mapping):
            target_on, source_on = list(on.keys()), list(on.values())
        else:
            target_on = source_on = list(on)
        schema = self.table.arrow_schema()
        self_merge = _same_table(source, self.table) and target_on == [ROW_ID] \
            and source_on == [ROW_ID]
        if self_merge:
            batch = None
        else:
            if hasattr(source, "new_read_builder"):
                rb = source.new_read_builder()
                source = rb.new_read().to_arrow(rb.new_scan().plan().splits())
            batch = _one_batch(_to_table(source))
        matched = [_clause(c, schema, insert=False) for c in when_matched]
        not_matched = [_clause(c, schema, insert=True) for c in when_not_matched]
        return _messages(_cpaimon.update_merge_into(self._native(), batch, target_on, source_on,
                                                    matched, not_matched))

    # ---- shard updater (§3.6) ----

    def new_shard_updator(self, shard_num: int, total_shard_count: int) -> "ShardTableUpdator":
        return ShardTableUpdator(self, shard_num, total_shard_count)


class ShardTableUpdator:
    """``TableUpdate.new_shard_updator``: read the shard's rows, compute, write them back in the
    same order, ``prepare_commit``. Shards may run in different processes."""

    def __init__(self, update: TableUpdate, shard_num: int, total_shard_count: int):
        self._update = update
        self._native_update = update._native()
        self._handle = _cpaimon.shard_new(self._native_update, shard_num, total_shard_count)
        self._reader = None
        self._schema = update.table.arrow_schema()

    def row_count(self) -> int:
        return _cpaimon.shard_row_count(self._handle)

    def arrow_reader(self) -> pa.RecordBatchReader:
        stream = _cpaimon.shard_read(self._handle)
        return pa.RecordBatchReader._import_from_c_capsule(stream.__arrow_c_stream__())

    def read_next_batch(self) -> Optional[pa.RecordBatch]:
        if self._reader is None:
            self._reader = self.arrow_reader()
        try:
            return self._reader.read_next_batch()
        except StopIteration:
            return None

    def update_by_arrow_batch(self, data) -> None:
        table = self._update._cast_to_table(_to_table(data))
        _cpaimon.shard_write(self._handle, _one_batch(table))

    def prepare_commit(self) -> List[CommitMessage]:
        return _messages(_cpaimon.shard_prepare_commit(self._handle))


# ------------------------------------ merge into ------------------------------------


@dataclass(frozen=True)
class SourceColumnRef:
    column: str


@dataclass(frozen=True)
class TargetColumnRef:
    column: str


@dataclass(frozen=True)
class LiteralValue:
    value: Any


def source_col(name: str) -> SourceColumnRef:
    return SourceColumnRef(name)


def target_col(name: str) -> TargetColumnRef:
    return TargetColumnRef(name)


def lit(value: Any) -> LiteralValue:
    return LiteralValue(value)


SetSpec = Union[str, Mapping[str, Any]]


class WhenMatched:
    def __init__(self, action: str, *, update: Optional[SetSpec] = None,
                 condition: Optional[str] = None):
        if action not in ("update", "delete"):
            raise ValueError("WhenMatched action must be 'update' or 'delete'.")
        if action == "update" and update is None:
            raise ValueError("WhenMatched.update requires an update spec.")
        if action == "delete" and update is not None:
            raise ValueError("WhenMatched.delete must not specify update.")
        self.update = update
        self.condition = condition
        self.delete = action == "delete"

    @classmethod
    def update(cls, update: SetSpec = "*", condition: Optional[str] = None) -> "WhenMatched":
        return cls("update", update=update, condition=condition)

    @classmethod
    def delete(cls, condition: Optional[str] = None) -> "WhenMatched":
        return cls("delete", condition=condition)


@dataclass
class WhenNotMatched:
    insert: SetSpec
    condition: Optional[str] = None


def _set_items(spec: SetSpec, schema: pa.Schema, insert: bool):
    """A SET spec as (column, kind, ref, literal array) tuples for the C API."""
    if spec == "*":
        return True, []
    if not isinstance(spec, Mapping):
        raise TypeError(f"SET spec must be '*' or a mapping, got {type(spec).__name__}")
    items = []
    for key, value in spec.items():
        if callable(value) and not isinstance(value, type):
            raise TypeError("SET values must be source_col(), target_col(), lit(), or literals; "
                            "callables are only supported for self-merge")
        if isinstance(value, SourceColumnRef):
            items.append((key, "source", value.column, None))
        elif isinstance(value, TargetColumnRef):
            items.append((key, "target", value.column, None))
        elif isinstance(value, str) and value.startswith("s."):
            items.append((key, "source", value[2:], None))
        elif isinstance(value, str) and value.startswith("t."):
            items.append((key, "target", value[2:], None))
        else:
            literal = value.value if isinstance(value, LiteralValue) else value
            if isinstance(literal, pa.Scalar):
                literal = literal.as_py()
            target = schema.field(key).type if key in schema.names else None
            items.append((key, "literal", None, pa.array([literal], type=target)))
    return False, items


def _clause(clause, schema: pa.Schema, insert: bool):
    if insert:
        all_cols, items = _set_items(clause.insert, schema, True)
        return ("insert", clause.condition, all_cols, items)
    if clause.delete:
        return ("delete", clause.condition, False, [])
    all_cols, items = _set_items(clause.update, schema, False)
    return ("update", clause.condition, all_cols, items)


def _same_table(source, table) -> bool:
    if source is table:
        return True
    return getattr(source, "table_path", None) is not None and \
        getattr(source, "table_path", None) == getattr(table, "table_path", None)


def merge_into(target_table, source: Any, *, on, when_matched: Sequence[WhenMatched] = (),
               when_not_matched: Sequence[WhenNotMatched] = (), commit_user: Any = None,
               commit_identifier: Any = None) -> List[CommitMessage]:
    """pypaimon's module-level ``merge_into``: the commit messages of MERGE INTO
    ``target_table``. ``commit_user`` and ``commit_identifier`` are accepted for pypaimon's
    signature; the committer that commits the messages supplies both in cpaimon."""
    return TableUpdate(target_table).merge_into(source, on=on, when_matched=when_matched,
                                                 when_not_matched=when_not_matched)


__all__ = [
    "TableUpdate", "ShardTableUpdator", "merge_into", "WhenMatched", "WhenNotMatched",
    "source_col", "target_col", "lit",
]
