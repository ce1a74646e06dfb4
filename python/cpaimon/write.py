"""Writes and commits, as in pypaimon: ``table.new_batch_write_builder()`` (one commit) or
``table.new_stream_write_builder()`` (rounds tagged with increasing commit identifiers) →
``new_write()`` / ``new_commit()``."""
import uuid
from typing import Dict, List, Optional

import pyarrow as pa

from cpaimon import _cpaimon


class CommitMessage:
    """The files one ``prepare_commit`` produced (all partitions). Serializable, so writers in
    other processes can hand their work to one committer."""

    def __init__(self, handle):
        self._handle = handle

    def serialize(self) -> bytes:
        return _cpaimon.messages_serialize(self._handle)

    @staticmethod
    def deserialize(data: bytes) -> "CommitMessage":
        return CommitMessage(_cpaimon.messages_deserialize(data))

    def is_empty(self) -> bool:
        return _cpaimon.messages_info(self._handle)[0] == 0

    def new_file_count(self) -> int:
        return _cpaimon.messages_info(self._handle)[1]

    @property
    def new_files(self) -> List["DataFileMeta"]:
        """The data files this message adds (every partition's), with pypaimon's DataFileMeta
        field names."""
        return [DataFileMeta(*f[2:]) for f in _cpaimon.messages_files(self._handle)]


class DataFileMeta:
    """What a new data file is (pypaimon's DataFileMeta fields users inspect)."""
    __slots__ = ("file_name", "file_size", "row_count", "schema_id", "min_sequence_number",
                 "max_sequence_number", "first_row_id", "write_cols")

    def __init__(self, file_name, file_size, row_count, schema_id, min_sequence_number,
                 max_sequence_number, first_row_id, write_cols):
        self.file_name = file_name
        self.file_size = file_size
        self.row_count = row_count
        self.schema_id = schema_id
        self.min_sequence_number = min_sequence_number
        self.max_sequence_number = max_sequence_number
        self.first_row_id = first_row_id
        self.write_cols = write_cols

    def __repr__(self):
        return f"DataFileMeta({self.file_name!r}, row_count={self.row_count})"


class BatchWriteBuilder:
    def __init__(self, table):
        self.table = table
        self._overwrite = None
        self.commit_user = str(uuid.uuid4())

    def overwrite(self, static_partition: Optional[dict] = None) -> "BatchWriteBuilder":
        """Makes the commit replace data instead of adding to it, as pypaimon's builder: the
        partitions written to (with ``dynamic-partition-overwrite``, the default, on a
        partitioned table) or those matching ``static_partition`` ({} or None: the whole
        table)."""
        self._overwrite = dict(static_partition or {})
        return self

    def new_write(self) -> "BatchTableWrite":
        return BatchTableWrite(self.table)

    def new_commit(self) -> "BatchTableCommit":
        commit = BatchTableCommit(self.table, self.commit_user)
        if self._overwrite is not None:
            _cpaimon.commit_set_overwrite(commit._handle, self._overwrite, 0)
        return commit

    def new_update(self):
        from cpaimon.update import TableUpdate
        return TableUpdate(self.table)


class BatchTableWrite:
    # Rows given one by one (write_row) are written in batches of this many.
    ROW_BUFFER = 8192

    def __init__(self, table):
        self.table = table
        self._write_cols = None
        self._handle = None
        self._rows = None  # write_row's buffer: one list of values per column

    def with_write_type(self, write_cols: List[str]) -> "BatchTableWrite":
        if self._handle is not None:
            raise RuntimeError("with_write_type must be called before writing")
        self._write_cols = list(write_cols)
        return self

    def _writer(self):
        if self._handle is None:
            self._handle = _cpaimon.write_new(self.table._handle, self._write_cols)
        return self._handle

    def write_arrow(self, table: pa.Table):
        self._flush_rows()
        _cpaimon.write_arrow(self._writer(), table)

    def write_arrow_batch(self, batch: pa.RecordBatch):
        self._flush_rows()
        _cpaimon.write_arrow(self._writer(), pa.Table.from_batches([batch]))

    def _row_schema(self) -> pa.Schema:
        schema = self.table.arrow_schema()
        if self._write_cols is not None:
            schema = pa.schema([schema.field(n) for n in self._write_cols])
        return schema

    def write_row(self, row):
        """One row (pypaimon's write_row): an InternalRow — a GenericRow with its fields, or
        values by position over the table's columns. Rows are written in batches, in order with
        the writer's other writes."""
        fields = getattr(row, "fields", None)
        if fields is not None:
            values = {f.name: row.get_field(i) for i, f in enumerate(fields)}
        else:
            table_fields = self.table.fields
            if len(row) != len(table_fields):
                raise ValueError("Rows without field metadata must have the same arity as the "
                                 f"table schema: {len(row)} != {len(table_fields)}.")
            values = {f.name: row.get_field(i) for i, f in enumerate(table_fields)}
        schema = self._row_schema()
        for names in (schema.names, self.table.partition_keys or []):
            missing = [n for n in names if n not in values]
            if missing:
                raise ValueError(f"write_row requires row field(s) {missing}, but row only "
                                 f"contains {list(values.keys())}.")
        if self._rows is None:
            self._rows = {n: [] for n in schema.names}
        for n, column in self._rows.items():
            column.append(values[n])
        if len(next(iter(self._rows.values()), ())) >= self.ROW_BUFFER:
            self._flush_rows()

    def _flush_rows(self):
        if not self._rows or not next(iter(self._rows.values())):
            return
        rows, self._rows = self._rows, None
        _cpaimon.write_arrow(self._writer(), pa.Table.from_pydict(rows, schema=self._row_schema()))

    def write_pandas(self, df):
        self.write_arrow(pa.Table.from_pandas(df, schema=self._row_schema(),
                                              preserve_index=False))

    def prepare_commit(self) -> List[CommitMessage]:
        self._flush_rows()
        message = CommitMessage(_cpaimon.write_prepare_commit(self._writer()))
        return [] if message.is_empty() else [message]

    def abort(self):
        self._rows = None
        if self._handle is not None:
            _cpaimon.write_abort(self._handle)

    def close(self):
        self._rows = None
        self._handle = None  # frees the writer; unprepared files are deleted


class StreamWriteBuilder:
    """pypaimon's stream write builder: a writer whose ``prepare_commit(commit_identifier)`` may
    be called round after round, and a reusable committer whose ``commit(messages,
    commit_identifier)`` publishes each round once. Every snapshot carries the builder's
    ``commit_user`` and the round's identifier; a round this user already committed (a retried
    worker) is skipped, as Java's filterAndCommit does, so nothing is written twice."""

    def __init__(self, table):
        self.table = table
        self.commit_user = str(uuid.uuid4())

    def with_commit_user(self, commit_user: str) -> "StreamWriteBuilder":
        """Resume a stream's identity (Java's withCommitUser)."""
        self.commit_user = str(commit_user)
        return self

    _with_commit_user = with_commit_user  # pypaimon's spelling

    def new_write(self) -> "StreamTableWrite":
        return StreamTableWrite(self.table)

    def new_commit(self) -> "StreamTableCommit":
        return StreamTableCommit(self.table, self.commit_user)

    def new_update(self):
        """Updates whose messages a StreamTableCommit commits as a round (pypaimon's
        StreamTableUpdate)."""
        from cpaimon.update import TableUpdate
        return TableUpdate(self.table)


class StreamTableWrite(BatchTableWrite):
    def prepare_commit(self, commit_identifier: int = None) -> List[CommitMessage]:
        """What was written since the last call; the identifier is the commit's to check."""
        return super().prepare_commit()


class BatchTableCommit:
    def __init__(self, table, commit_user: Optional[str] = None):
        self.table = table
        self._handle = _cpaimon.commit_new(table._handle)
        if commit_user is not None:
            _cpaimon.commit_user(self._handle, commit_user)
        self.last_snapshot_id = 0

    @property
    def commit_user(self) -> str:
        return _cpaimon.commit_user(self._handle)

    def _properties(self, snapshot_properties: Optional[Dict[str, str]]):
        """The snapshot properties of this commit call only (pypaimon's snapshot_properties)."""
        props = snapshot_properties or {}
        if not isinstance(props, dict):
            raise TypeError("snapshot_properties must be a dict")
        _cpaimon.commit_properties(self._handle, [str(k) for k in props],
                                   [str(v) for v in props.values()])

    def commit(self, commit_messages: List[CommitMessage],
               snapshot_properties: Optional[Dict[str, str]] = None):
        """Commits the messages in one snapshot, with `snapshot_properties` in its
        "properties" (as pypaimon and Java)."""
        merged = _cpaimon.messages_merge([m._handle for m in commit_messages])
        self._properties(snapshot_properties)
        self.last_snapshot_id = _cpaimon.commit_commit(self._handle, merged)

    def abort(self, commit_messages: List[CommitMessage]):
        for m in commit_messages:
            _cpaimon.commit_abort(self._handle, m._handle)

    def truncate_table(self) -> None:
        """Drops every row in one OVERWRITE snapshot."""
        self.last_snapshot_id = _cpaimon.commit_truncate(self._handle, None)

    def truncate_partitions(self, partitions: List[Dict[str, str]]) -> None:
        """Drops the partitions given as {key: value} specs (a spec may name some keys) in one
        OVERWRITE snapshot; None or partition.default-name is the NULL value."""
        self.last_snapshot_id = _cpaimon.commit_truncate(self._handle, list(partitions))

    def close(self):
        pass


class StreamTableCommit(BatchTableCommit):
    """Reusable: one ``commit`` per round, each with a larger ``commit_identifier``."""

    def commit(self, commit_messages: List[CommitMessage], commit_identifier: int,
               snapshot_properties: Optional[Dict[str, str]] = None) -> bool:
        """Publishes the round; False when nothing was committed (the round was committed before
        by this commit user, or the messages hold no change)."""
        if isinstance(commit_identifier, bool) or not isinstance(commit_identifier, int):
            raise TypeError("commit_identifier must be an int")
        merged = _cpaimon.messages_merge([m._handle for m in commit_messages])
        self._properties(snapshot_properties)
        committed, self.last_snapshot_id = _cpaimon.commit_identified(
            self._handle, merged, commit_identifier)
        return committed

    def latest_committed_identifier(self) -> Optional[int]:
        """The newest round this commit user committed (None: none yet), where a restarted
        stream resumes."""
        return _cpaimon.commit_latest_identifier(self._handle)
