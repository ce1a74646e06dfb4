"""The work of cpaimon.ray's jobs as plain functions of picklable arguments, without Ray: what a
Ray task runs in a worker, and what a process pool runs in the Ray-free twin
(``cpaimon.ray.run_local``). Every task opens the table itself (catalog options + identifier),
does its share in the C core, and returns bytes (serialized commit messages); the driver commits
the results of all tasks once (``commit_results``), refusing a missing or doubled shard."""
from typing import Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import pyarrow as pa

from cpaimon.catalog import CatalogFactory


def open_table(identifier: str, catalog_options: Dict[str, str],
               table_options: Optional[Dict[str, str]] = None):
    table = CatalogFactory.create(dict(catalog_options)).get_table(identifier)
    return table.copy(dict(table_options)) if table_options else table


def read_builder(table, projection=None, predicate=None, limit=None):
    rb = table.new_read_builder()
    if projection is not None:
        rb = rb.with_projection(list(projection))
    if predicate is not None:
        rb = rb.with_filter(predicate)
    if limit is not None:
        rb = rb.with_limit(limit)
    return rb


def read_splits(identifier: str, catalog_options: Dict[str, str], table_options, projection,
                predicate, limit, splits: Sequence[bytes]) -> Iterator[pa.Table]:
    """The rows of serialized splits (Split.serialize), batch by batch, as Arrow tables."""
    from cpaimon.read import Split

    table = open_table(identifier, catalog_options, table_options)
    rb = read_builder(table, projection, predicate, limit)
    reader = rb.new_read().to_arrow_batch_reader([Split.deserialize(s) for s in splits])
    for batch in reader:
        yield pa.Table.from_batches([batch])


def shard_splits(identifier: str, catalog_options: Dict[str, str], table_options, projection,
                 predicate, shard: int, num_shards: int) -> Tuple[List[bytes], List[int]]:
    """Shard `shard` of `num_shards` of the table's rows (TableScan.with_shard), planned: its
    splits as bytes and their row counts."""
    table = open_table(identifier, catalog_options, table_options)
    rb = read_builder(table, projection, predicate)
    splits = rb.new_scan().with_shard(shard, num_shards).plan().splits()
    return [s.serialize() for s in splits], [s.row_count for s in splits]


def write_tables(identifier: str, catalog_options: Dict[str, str],
                 tables: Iterable[pa.Table]) -> List[bytes]:
    """Writes the tables' rows into new data files and returns their commit messages,
    serialized; nothing is committed here."""
    table = open_table(identifier, catalog_options)
    write = table.new_batch_write_builder().new_write()
    try:
        for t in tables:
            if t.num_rows:
                write.write_arrow(t)
        return [m.serialize() for m in write.prepare_commit()]
    finally:
        write.close()


def update_rows(identifier: str, catalog_options: Dict[str, str], update_cols: List[str],
                rows: pa.Table) -> Tuple[List[bytes], int]:
    """Updates `update_cols` of the rows `rows` names by _ROW_ID (one file group's rows: one
    partial-column file per group); returns the serialized messages and the row count."""
    table = open_table(identifier, catalog_options)
    update = table.new_batch_write_builder().new_update().with_update_type(list(update_cols))
    messages = update.update_by_arrow_with_row_id(rows.select(["_ROW_ID"] + list(update_cols)))
    return [m.serialize() for m in messages], rows.num_rows


def shard_update(identifier: str, catalog_options: Dict[str, str], shard: int, num_shards: int,
                 read_cols: List[str], update_cols: List[str], fn: Callable,
                 batch_size: Optional[int] = None) -> Tuple[int, List[bytes], int]:
    """One shard of a backfill (the seed's shard update): reads the shard's rows of `read_cols`,
    computes `update_cols` with `fn` (a RecordBatch in, a RecordBatch / Table / dict of columns
    out, as many rows), writes them back; returns (shard, serialized messages, rows)."""
    table = open_table(identifier, catalog_options)
    update = (table.new_batch_write_builder().new_update().with_read_projection(list(read_cols))
              .with_update_type(list(update_cols)))
    shard_updater = update.new_shard_updator(shard, num_shards)
    rows = 0
    for batch in shard_updater.arrow_reader():
        for piece in _pieces(batch, batch_size):
            out = fn(piece)
            if isinstance(out, dict):
                out = pa.table(out)
            if out.num_rows != piece.num_rows:
                raise ValueError(f"shard {shard}: the function returned {out.num_rows} rows for "
                                 f"{piece.num_rows}")
            shard_updater.update_by_arrow_batch(out)
            rows += piece.num_rows
    return shard, [m.serialize() for m in shard_updater.prepare_commit()], rows


def _pieces(batch: pa.RecordBatch, size: Optional[int]):
    if not size or batch.num_rows <= size:
        yield batch
        return
    for start in range(0, batch.num_rows, size):
        yield batch.slice(start, size)


def commit_results(identifier: str, catalog_options: Dict[str, str], results: List[List[bytes]],
                   overwrite: bool = False) -> Optional[int]:
    """Commits the serialized messages of every task in one snapshot; returns its id (None when
    nothing was committed)."""
    from cpaimon.write import CommitMessage

    messages = [CommitMessage.deserialize(b) for r in results for b in r]
    if not messages and not overwrite:
        return None
    builder = open_table(identifier, catalog_options).new_batch_write_builder()
    if overwrite:
        builder = builder.overwrite()
    commit = builder.new_commit()
    try:
        commit.commit(messages)
    finally:
        commit.close()
    return commit.last_snapshot_id or None


def abort_results(identifier: str, catalog_options: Dict[str, str],
                  results: List[List[bytes]]) -> None:
    """Deletes the files the tasks' messages name (a job that is not committed)."""
    from cpaimon.write import CommitMessage

    messages = [CommitMessage.deserialize(b) for r in results for b in r]
    if messages:
        commit = open_table(identifier, catalog_options).new_batch_write_builder().new_commit()
        try:
            commit.abort(messages)
        finally:
            commit.close()


def commit_shards(identifier: str, catalog_options: Dict[str, str],
                  results: List[Tuple[int, List[bytes], int]], num_shards: int) -> Optional[int]:
    """Commits one result per shard 0..num_shards-1 in one snapshot. A shard that returned no
    result, or two (a task retried after it had returned), is refused by name before anything
    is committed: a backfill never commits a shard twice nor leaves one out."""
    seen: Dict[int, int] = {}
    for shard, _, _ in results:
        seen[shard] = seen.get(shard, 0) + 1
    missing = [s for s in range(num_shards) if s not in seen]
    doubled = sorted(s for s, n in seen.items() if n > 1)
    unknown = sorted(s for s in seen if not 0 <= s < num_shards)
    if missing or doubled or unknown:
        raise RuntimeError(f"backfill of {identifier}: shards {missing} returned no result, "
                           f"{doubled} returned more than one, {unknown} are not shards of "
                           f"{num_shards}; nothing was committed")
    return commit_results(identifier, catalog_options, [m for _, m, _ in results])


def group_ranges(identifier: str, catalog_options: Dict[str, str]) -> List[Tuple[int, int]]:
    """The row-id ranges [first, end) of the table's file groups (files whose row ids overlap:
    a base file with its partial-column and .blob files), sorted, from its `$files`."""
    files = CatalogFactory.create(dict(catalog_options)).get_table(f"{identifier}$files")
    rb = files.new_read_builder().with_projection(["first_row_id", "record_count"])
    rows = rb.new_read().to_arrow(rb.new_scan().plan().splits())
    spans = sorted((f, f + n) for f, n in zip(rows["first_row_id"].to_pylist(),
                                              rows["record_count"].to_pylist())
                   if f is not None and n)
    groups: List[Tuple[int, int]] = []
    for start, end in spans:
        if groups and start < groups[-1][1]:
            groups[-1] = (groups[-1][0], max(groups[-1][1], end))
        else:
            groups.append((start, end))
    return groups
