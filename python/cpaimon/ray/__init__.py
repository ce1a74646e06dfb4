"""Ray for cpaimon tables, with pypaimon.ray's names: ``read_paimon`` (a table into a Ray
Dataset), ``write_paimon`` (a Dataset into a table, one commit), ``update_by_row_id`` (columns
of a data-evolution table updated by _ROW_ID from a Dataset, one partial-column file per file
group, one commit) and ``shard_update`` (the seed's shard backfill as one job: N tasks each run a
shard updater with a user function, one commit). Every worker runs cpaimon's C core; the driver
plans and commits. Ray is imported when a function is called (``pip install 'ray[data]'``).

Exactly once: tasks write files and return serialized commit messages; only the driver commits,
once, from the results Ray returns (one per task). A task that failed and was retried leaves the
files of its failed attempt uncommitted (orphans, removed by ``remove_orphan_files``).
``shard_update`` refuses a missing or doubled shard before committing anything.
"""
import functools
import os
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Union

import pyarrow as pa

from cpaimon.ray import _tasks

__all__ = ["read_paimon", "write_paimon", "update_by_row_id", "shard_update",
           "dataset_of_splits", "PaimonWriteResult"]


def _ray_data():
    try:
        import ray.data
    except ImportError as e:  # pragma: no cover - ray is in the test requirements
        raise ImportError("cpaimon.ray needs Ray Data: pip install 'ray[data]'") from e
    return ray.data


@dataclass
class PaimonWriteResult:
    """pypaimon.ray's result of a write: the rows written and the snapshot committed."""
    row_count: int
    snapshot_id: int


def _balanced(sizes: List[int], n: int) -> List[List[int]]:
    """Indices of `sizes` in at most `n` groups of about equal total (largest first, each to the
    lightest group; groups keep plan order inside)."""
    n = max(1, min(n, len(sizes)))
    groups: List[List[int]] = [[] for _ in range(n)]
    totals = [0] * n
    for i in sorted(range(len(sizes)), key=lambda k: -sizes[k]):
        g = min(range(n), key=lambda k: totals[k])
        groups[g].append(i)
        totals[g] += sizes[i]
    return [sorted(g) for g in groups if g]


def _table_options(snapshot_id, tag_name, dynamic_options) -> Dict[str, str]:
    if snapshot_id is not None and tag_name is not None:
        raise ValueError("snapshot_id and tag_name cannot be set at the same time")
    options = {str(k): str(v) for k, v in (dynamic_options or {}).items()}
    if snapshot_id is not None:
        options["scan.snapshot-id"] = str(snapshot_id)
    if tag_name is not None:
        options["scan.tag-name"] = str(tag_name)
    return options


def read_paimon(table_identifier: str, catalog_options: Dict[str, str], *, filter=None,
                projection: Optional[List[str]] = None, limit: Optional[int] = None,
                snapshot_id: Optional[int] = None, tag_name: Optional[str] = None,
                dynamic_options: Optional[Dict[str, str]] = None,
                ray_remote_args: Optional[Dict[str, Any]] = None,
                concurrency: Optional[int] = None, override_num_blocks: Optional[int] = None,
                **read_args) -> "ray.data.Dataset":  # noqa: F821
    """Reads a table into a Ray Dataset (pypaimon.ray.read_paimon's signature). The driver
    plans once (projection, filter, limit, time travel) and pins the snapshot it planned; read
    tasks get the splits as bytes, balanced by row count, and read them with the C reader
    straight into Arrow blocks."""
    _ray_data()
    options = _table_options(snapshot_id, tag_name, dynamic_options)
    table = _tasks.open_table(table_identifier, catalog_options, options)
    rb = _tasks.read_builder(table, projection, filter, limit)
    plan = rb.new_scan().plan()
    splits = plan.splits()
    schema = rb.read_type()
    if splits and "scan.snapshot-id" not in options and "scan.tag-name" not in options:
        options["scan.snapshot-id"] = str(plan.snapshot_id)  # every task reads this snapshot
    return dataset_of_splits(table_identifier, catalog_options, options, projection, filter, limit,
                             splits, schema, ray_remote_args=ray_remote_args,
                             concurrency=concurrency, override_num_blocks=override_num_blocks,
                             reshard=True, **read_args)


def dataset_of_splits(table_identifier, catalog_options, table_options, projection, predicate,
                      limit, splits, schema, *, ray_remote_args=None, concurrency=None,
                      override_num_blocks=None, reshard=False, **read_args):
    """A Ray Dataset of planned splits (read_paimon, TableRead.to_ray): tasks get the splits as
    bytes, balanced by row count, and read them through a read builder of `table_options`.
    `reshard`: the splits are a whole table's, which may instead be planned again as shards when
    there are fewer of them than tasks."""
    ray_data = _ray_data()
    if override_num_blocks is not None and override_num_blocks < 1:
        raise ValueError(f"override_num_blocks must be at least 1, got {override_num_blocks}")
    if not splits:
        return ray_data.from_arrow(schema.empty_table())
    if override_num_blocks is None:
        # Ray's default asks for at least 200 blocks and splits every task's output to get them;
        # cpaimon's tasks read ~1M rows each, and at least two per CPU when there are rows.
        import math
        import ray
        rows = sum(s.row_count for s in splits)
        cpus = int(ray.cluster_resources().get("CPU", 1)) if ray.is_initialized() else \
            (os.cpu_count() or 1)
        blocks = max(math.ceil(rows / _MIN_TASK_ROWS), min(2 * cpus, math.ceil(rows / 65536)))
        override_num_blocks = max(1, min(200, blocks))
    source = _datasource_class()(
        table_identifier, dict(catalog_options), dict(table_options), projection, predicate,
        limit, [s.serialize() for s in splits], [s.row_count for s in splits], schema, reshard)
    return ray_data.read_datasource(source, ray_remote_args=ray_remote_args,
                                    concurrency=concurrency,
                                    override_num_blocks=override_num_blocks, **read_args)


_DATASOURCE = None


def _row_width(schema: pa.Schema) -> int:
    """A guess of the Arrow bytes a row takes: fixed widths as they are, 32 for a string or
    binary value, 64 for a list or map, the sum of the fields for a struct."""
    def width(t: pa.DataType) -> int:
        if pa.types.is_struct(t):
            return sum(width(f.type) for f in t)
        if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_map(t) \
                or pa.types.is_fixed_size_list(t):
            return 64
        try:
            return max(1, t.bit_width // 8)
        except ValueError:
            return 32
    return max(1, sum(width(f.type) for f in schema))

# Rows a read task reads at the least, unless override_num_blocks asks for more tasks: Ray's
# default parallelism (up to 200 tasks) would cut a 10M-row table into tasks whose start-up
# costs more than their reading.
_MIN_TASK_ROWS = 1 << 20


def _datasource_class():
    global _DATASOURCE
    if _DATASOURCE is not None:
        return _DATASOURCE
    from ray.data.block import BlockMetadata
    from ray.data.datasource import Datasource, ReadTask

    class CpaimonDatasource(Datasource):
        def __init__(self, identifier, catalog_options, table_options, projection, predicate,
                     limit, splits, rows, schema, reshard=False):
            super().__init__()
            self._args = (identifier, catalog_options, table_options, projection, predicate,
                          limit)
            self._splits, self._rows, self._schema = splits, rows, schema
            self._reshard = reshard

        def get_name(self) -> str:
            return "CpaimonTable"

        def estimate_inmemory_data_size(self) -> Optional[int]:
            # Ray sizes its parallelism (and its block splitting) from this.
            return sum(self._rows) * _row_width(self._schema)

        def get_read_tasks(self, parallelism: int, per_task_row_limit=None, data_context=None):
            tasks = []
            args = self._args
            splits, sizes = self._splits, self._rows
            # Fewer splits than tasks (a few large files): plan shards of the table's rows
            # instead (TableScan.with_shard), each task reading its part of the same files.
            if self._reshard and args[5] is None and len(splits) < parallelism:
                splits, sizes, groups = [], [], []
                for i in range(parallelism):
                    shard, rows = _tasks.shard_splits(*args[:5], i, parallelism)
                    groups.append(list(range(len(splits), len(splits) + len(shard))))
                    splits += shard
                    sizes += rows
            else:
                groups = _balanced(sizes, parallelism)
            for group in groups:
                if not group:
                    continue
                chunk = [splits[i] for i in group]
                rows = sum(sizes[i] for i in group)
                exact = args[4] is None and args[5] is None  # no filter, no limit
                meta = BlockMetadata(num_rows=rows if exact else None, size_bytes=None,
                                     input_files=None, exec_stats=None)

                def read(chunk=chunk):
                    yield from _tasks.read_splits(*args, chunk)

                tasks.append(ReadTask(read, meta, schema=self._schema,
                                      per_task_row_limit=per_task_row_limit))
            return tasks

    _DATASOURCE = CpaimonDatasource
    return _DATASOURCE


def write_paimon(dataset, table_identifier: str, catalog_options: Dict[str, str], *,
                 overwrite: bool = False, concurrency: Optional[int] = None,
                 ray_remote_args: Optional[Dict[str, Any]] = None
                 ) -> Optional[PaimonWriteResult]:
    """Writes a Ray Dataset into a table (pypaimon.ray.write_paimon's signature): each write
    task writes data files with the C writer and returns its commit messages; the driver commits
    them once (``overwrite``: as INSERT OVERWRITE). Returns the rows and snapshot committed, or
    None when nothing was."""
    _ray_data()
    _tasks.open_table(table_identifier, catalog_options)  # fail before any task: no such table
    sink = _datasink_class()(table_identifier, dict(catalog_options), overwrite)
    kwargs = {}
    if concurrency is not None:
        kwargs["concurrency"] = concurrency
    if ray_remote_args:
        kwargs["ray_remote_args"] = ray_remote_args
    dataset.write_datasink(sink, **kwargs)
    return sink.result


_DATASINK = None


def _datasink_class():
    global _DATASINK
    if _DATASINK is not None:
        return _DATASINK
    from ray.data.block import BlockAccessor
    from ray.data.datasource import Datasink

    class CpaimonDatasink(Datasink):
        def __init__(self, identifier, catalog_options, overwrite):
            self._identifier, self._options, self._overwrite = identifier, catalog_options, overwrite
            self.result = None

        def write(self, blocks, ctx):
            tables = (BlockAccessor.for_block(b).to_arrow() for b in blocks)
            counted = []

            def count(ts):
                for t in ts:
                    counted.append(t.num_rows)
                    yield t

            messages = _tasks.write_tables(self._identifier, self._options, count(tables))
            return {"messages": messages, "rows": sum(counted)}

        def on_write_complete(self, write_result):
            returns = [r for r in write_result.write_returns if r is not None]
            snap = _tasks.commit_results(self._identifier, self._options,
                                         [r["messages"] for r in returns], self._overwrite)
            if snap is not None:
                self.result = PaimonWriteResult(sum(r["rows"] for r in returns), snap)

    _DATASINK = CpaimonDatasink
    return _DATASINK


def _as_dataset(source):
    ray_data = _ray_data()
    if isinstance(source, pa.Table):
        return ray_data.from_arrow(source)
    if hasattr(source, "to_arrow_refs") or hasattr(source, "map_batches"):
        return source
    try:
        import pandas
        if isinstance(source, pandas.DataFrame):
            return ray_data.from_pandas(source)
    except ImportError:  # pragma: no cover
        pass
    raise TypeError("source must be a ray.data.Dataset, pyarrow.Table or pandas.DataFrame, got "
                    f"{type(source).__name__}")


def _check_update(table, target: str, update_cols: List[str]):
    if not update_cols:
        raise ValueError("update_cols must be non-empty.")
    options = table.options
    if str(options.get("data-evolution.enabled", "false")).lower() != "true":
        raise ValueError(
            f"update_by_row_id requires 'data-evolution.enabled'='true' on '{target}'.")
    if str(options.get("row-tracking.enabled", "false")).lower() != "true":
        raise ValueError(f"update_by_row_id requires 'row-tracking.enabled'='true' on '{target}'.")
    for col in update_cols:
        if col not in table.field_names:
            raise ValueError(f"update column {col!r} is not in target '{target}'.")
        if col in (table.partition_keys or []):
            raise ValueError(f"update_by_row_id cannot update partition column {col!r}; "
                             "cross-partition row movement is not supported.")


def _update_group(target, catalog_options, update_cols, group: pa.Table) -> pa.Table:
    """One file group's update (a task of update_by_row_id); the group of foreign row ids (-1)
    reports its first id instead, for the driver to refuse."""
    if group["__group"][0].as_py() < 0:
        return pa.table({"messages": pa.array([[]], pa.list_(pa.binary())), "rows": [0],
                         "foreign": [group["_ROW_ID"][0].as_py()]})
    messages, rows = _tasks.update_rows(target, catalog_options, update_cols,
                                        group.drop(["__group"]))
    return pa.table({"messages": pa.array([messages], pa.list_(pa.binary())), "rows": [rows],
                     "foreign": pa.array([None], pa.int64())})


def update_by_row_id(target: str, source, catalog_options: Dict[str, str], *,
                     update_cols: List[str], num_partitions: Optional[int] = None,
                     ray_remote_args: Optional[Dict[str, Any]] = None,
                     executor=None) -> Dict[str, int]:
    """Updates `update_cols` of a data-evolution table by _ROW_ID (pypaimon.ray's signature):
    `source` (a Ray Dataset, Arrow table or pandas DataFrame) carries _ROW_ID and the new values.
    Rows are grouped by the file group owning their row id (planned once in the driver), each
    group updated by one task (one partial-column file per group), all committed once. A row id
    outside the table is a ValueError naming it; nothing is committed then. With `executor` (a
    concurrent.futures executor) the groups run there instead of on Ray, and `source` must be an
    Arrow table. Returns {"num_updated": rows}."""
    update_cols = list(dict.fromkeys(update_cols))
    table = _tasks.open_table(target, catalog_options)
    _check_update(table, target, update_cols)
    ranges = _tasks.group_ranges(target, catalog_options)
    starts = pa.array([s for s, _ in ranges], pa.int64())
    ends = pa.array([e for _, e in ranges], pa.int64())
    schema = table.arrow_schema()
    cast = pa.schema([pa.field("_ROW_ID", pa.int64())] + [schema.field(c) for c in update_cols])

    def assign(batch: pa.Table) -> pa.Table:
        """Tags each row with its group's index; a row id of no group with -1."""
        import numpy as np
        batch = batch.select(cast.names).cast(cast)
        ids = batch["_ROW_ID"].to_numpy(zero_copy_only=False)
        g = np.searchsorted(starts.to_numpy(), ids, side="right") - 1
        bad = (g < 0) | (ids >= ends.to_numpy()[np.maximum(g, 0)])
        return batch.append_column("__group", pa.array(np.where(bad, -1, g), pa.int64()))

    run = functools.partial(_update_group, target, dict(catalog_options), update_cols)

    if executor is not None:
        if not isinstance(source, pa.Table):
            raise TypeError("with an executor, source must be a pyarrow.Table")
        tagged = assign(source)
        import pyarrow.compute as pc
        futures = [executor.submit(run, tagged.filter(pc.equal(tagged["__group"], g)))
                   for g in sorted(set(tagged["__group"].to_pylist()))]
        rows = [r for f in futures for r in f.result().to_pylist()]
    else:
        ds = _as_dataset(source).map_batches(assign, batch_format="pyarrow")
        # A sort-based shuffle for the grouping: Ray's hash shuffle reserves CPUs for its
        # aggregators and waits forever on a cluster that has none left (one CPU).
        from ray.data.context import ShuffleStrategy
        ds.context.shuffle_strategy = ShuffleStrategy.SORT_SHUFFLE_PULL_BASED

        kwargs = {"batch_format": "pyarrow"}
        if ray_remote_args:
            kwargs.update(ray_remote_args)
        grouped = ds.groupby("__group", num_partitions=num_partitions) if num_partitions \
            else ds.groupby("__group")
        rows = grouped.map_groups(run, **kwargs).take_all()
    results = [(list(r["messages"]), r["rows"]) for r in rows]
    foreign = [r["foreign"] for r in rows if r["foreign"] is not None]
    if foreign:
        _tasks.abort_results(target, catalog_options, [m for m, _ in results])
        raise ValueError(f"_ROW_ID {foreign[0]} is not a row of '{target}'; nothing was updated")
    _tasks.commit_results(target, catalog_options, [m for m, _ in results])
    return {"num_updated": sum(n for _, n in results)}


def shard_update(target: str, catalog_options: Dict[str, str], fn: Callable, *,
                 read_cols: List[str], update_cols: List[str], num_shards: int,
                 batch_size: Optional[int] = None,
                 ray_remote_args: Optional[Dict[str, Any]] = None, executor=None
                 ) -> Dict[str, Union[int, Optional[int]]]:
    """The seed's shard backfill as one job: `num_shards` tasks each run
    ``new_shard_updator(i, num_shards)`` over `read_cols`, call ``fn(batch)`` on batches of at
    most `batch_size` rows (a RecordBatch in; a RecordBatch, Table or dict of `update_cols`
    out, as many rows) and write the result; the driver then commits every shard once, in one
    snapshot. On Ray the shards are a Dataset of `num_shards` rows (Ray's progress bars show
    them; ``ray_remote_args`` such as num_gpus or max_retries go to each task); with `executor`
    (a concurrent.futures executor) they run there. Returns {"rows": n, "snapshot_id": id}."""
    if num_shards < 1:
        raise ValueError(f"num_shards must be at least 1, got {num_shards}")
    opts = dict(catalog_options)
    args = (list(read_cols), list(update_cols), fn, batch_size)
    if executor is not None:
        futures = [executor.submit(_tasks.shard_update, target, opts, i, num_shards, *args)
                   for i in range(num_shards)]
        results = [f.result() for f in futures]
    else:
        ray_data = _ray_data()

        def run(batch: Dict[str, Any]) -> Dict[str, Any]:
            out = [_tasks.shard_update(target, opts, int(i), num_shards, *args)
                   for i in batch["id"]]
            return {"shard": [r[0] for r in out], "messages": [r[1] for r in out],
                    "rows": [r[2] for r in out]}

        kwargs = {"batch_size": 1}
        if ray_remote_args:
            kwargs.update(ray_remote_args)
        shards = ray_data.range(num_shards, override_num_blocks=num_shards)
        rows = shards.map_batches(run, **kwargs).take_all()
        results = [(int(r["shard"]), list(r["messages"]), int(r["rows"])) for r in rows]
    snap = _tasks.commit_shards(target, opts, results, num_shards)
    return {"rows": sum(r[2] for r in results), "snapshot_id": snap}
