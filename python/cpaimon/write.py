"""Batch writes and commits, as in pypaimon: ``table.new_batch_write_builder()`` →
``new_write()`` / ``new_commit()``."""
from typing import List, Optional

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


class BatchWriteBuilder:
    def __init__(self, table):
        self.table = table
        self._overwrite = None

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
        commit = BatchTableCommit(self.table)
        if self._overwrite is not None:
            _cpaimon.commit_set_overwrite(commit._handle, self._overwrite, 0)
        return commit

    def new_update(self):
        from cpaimon.update import TableUpdate
        return TableUpdate(self.table)


class BatchTableWrite:
    def __init__(self, table):
        self.table = table
        self._write_cols = None
        self._handle = None

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
        _cpaimon.write_arrow(self._writer(), table)

    def write_arrow_batch(self, batch: pa.RecordBatch):
        _cpaimon.write_arrow(self._writer(), pa.Table.from_batches([batch]))

    def write_pandas(self, df):
        schema = self.table.arrow_schema()
        if self._write_cols is not None:
            schema = pa.schema([schema.field(n) for n in self._write_cols])
        self.write_arrow(pa.Table.from_pandas(df, schema=schema, preserve_index=False))

    def prepare_commit(self) -> List[CommitMessage]:
        message = CommitMessage(_cpaimon.write_prepare_commit(self._writer()))
        return [] if message.is_empty() else [message]

    def abort(self):
        if self._handle is not None:
            _cpaimon.write_abort(self._handle)

    def close(self):
        self._handle = None  # frees the writer; unprepared files are deleted


class BatchTableCommit:
    def __init__(self, table):
        self.table = table
        self._handle = _cpaimon.commit_new(table._handle)
        self.last_snapshot_id = 0

    def commit(self, commit_messages: List[CommitMessage]):
        merged = _cpaimon.messages_merge([m._handle for m in commit_messages])
        self.last_snapshot_id = _cpaimon.commit_commit(self._handle, merged)

    def abort(self, commit_messages: List[CommitMessage]):
        for m in commit_messages:
            _cpaimon.commit_abort(self._handle, m._handle)

    def close(self):
        pass
