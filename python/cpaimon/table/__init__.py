"""Tables: builders for writes and reads, as in pypaimon's ``FileStoreTable``."""
import collections
import json
from typing import Optional

import pyarrow as pa

from cpaimon import _cpaimon
from cpaimon.schema.data_types import _field_from_json


# pypaimon's / Java's time-travel options (TimeTravelUtil.SCAN_KEYS), of which one may be set.
SCAN_VERSION = "scan.version"
SCAN_SNAPSHOT_ID = "scan.snapshot-id"
SCAN_KEYS = [SCAN_VERSION, SCAN_SNAPSHOT_ID, "scan.tag-name", "scan.watermark", "scan.timestamp",
             "scan.timestamp-millis"]


class FileStoreTable:
    def __init__(self, catalog, handle):
        self.catalog = catalog
        self._handle = handle
        info = _cpaimon.table_info(handle)
        self.name = info["name"]
        self.table_path = info["path"]
        self.schema_id = info["schema_id"]
        self._schema_json = json.loads(info["schema_json"])
        self.partition_keys = info["partition_keys"]
        self.options = self._schema_json.get("options", {})
        # Time travel (copy with scan.snapshot-id, scan.tag-name, ...): read_builder_configure's
        # arguments for the snapshot reads see, and the error a scan raises when the options do
        # not name a readable snapshot (pypaimon raises it at plan).
        self._travel = {}
        self._travel_error = None

    @property
    def fields(self):
        arrow = self.arrow_schema()
        return [_field_from_json(f) for f in self._schema_json["fields"]] \
            if arrow is not None else []

    @property
    def table_schema(self):
        """The schema this table was opened with (pypaimon's FileStoreTable.table_schema)."""
        from cpaimon.schema.table_schema import TableSchema
        return TableSchema._from_json(self._schema_json)

    @property
    def field_names(self):
        """The column names, in schema order (pypaimon's FileStoreTable.field_names)."""
        return [f["name"] for f in self._schema_json["fields"]]

    @property
    def field_dict(self):
        """Column name -> DataField (pypaimon's FileStoreTable.field_dict)."""
        return {f.name: f for f in self.fields}

    def _travels(self):
        return bool(self._travel) and self._travel.get("snapshot_id", 1) > 0

    def arrow_schema(self) -> pa.Schema:
        if self._travels():
            rb = _cpaimon.read_builder_new(self._handle)
            _cpaimon.read_builder_configure(rb, **self._travel)
            return pa.Schema._import_from_c_capsule(_cpaimon.read_builder_schema(rb))
        return pa.Schema._import_from_c_capsule(_cpaimon.table_arrow_schema(self._handle))

    def copy(self, options: dict) -> "FileStoreTable":
        """A copy of this table with `options` merged over its options (a None value removes
        one), as pypaimon's and Java's ``copy``. With ``scan.snapshot-id`` (or a numeric
        ``scan.version``) its reads see that snapshot, with the schema the snapshot was written
        with: ``fields``, ``schema_id`` and ``arrow_schema()`` are that schema's, the table's
        other options stay. A snapshot that does not exist leaves the current schema and fails
        the scan (ValueError "Snapshot id 'N' doesn't exist."), as pypaimon. Writes through a
        copy are those of the table itself."""
        bucket = options.get("bucket")
        if bucket is not None and int(bucket) != int(self.options.get("bucket", "-1")):
            raise ValueError("Cannot change bucket number")
        merged = dict(self.options)
        for key, value in options.items():
            if value is None:
                merged.pop(key, None)
            else:
                merged[key] = str(value)
        table = FileStoreTable.__new__(FileStoreTable)
        table.__dict__.update(self.__dict__)
        base = FileStoreTable(self.catalog, self._handle)  # the handle's own (current) schema
        table.schema_id, table._schema_json = base.schema_id, base._schema_json
        table._travel, table._travel_error = _travel(merged, self._tag_names)
        if table._travels() and table._travel_error is None:
            rb = _cpaimon.read_builder_new(self._handle)
            try:
                _cpaimon.read_builder_configure(rb, **table._travel)
                table.schema_id, text = _cpaimon.read_builder_read_schema(rb)
                table._schema_json = json.loads(text)
            except FileNotFoundError as e:
                # As Java's tryTimeTravel: the current schema; the scan reports the failure (a
                # missing snapshot there, a missing tag or timestamp here, as Java's copy does).
                if "snapshot_id" not in table._travel:
                    raise ValueError(str(e)) from e
        table.options = merged
        return table

    def latest_snapshot_id(self) -> int:
        return _cpaimon.table_latest_snapshot_id(self._handle)

    # ---- tags and rollback (pypaimon's FileStoreTable names; Java's semantics, in C) ----
    # Like pypaimon (and Java's IllegalArgumentException), a missing or existing tag or snapshot
    # is a ValueError; I/O failures keep their OSError types.

    def _tag_names(self):
        return [t[0] for t in _cpaimon.table_list_tags(self._handle)]

    def create_tag(self, tag_name: str, snapshot_id=None, ignore_if_exists: bool = False,
                   time_retained=None) -> None:
        """Tags snapshot `snapshot_id` (None: the latest) as `tag_name`; `time_retained` is a
        duration ("1 d", "12h") or None (the table's tag.default-time-retained, if any)."""
        _value_errors(_cpaimon.table_create_tag, self._handle, tag_name,
                      _snapshot_arg(snapshot_id), _duration_ms(time_retained), ignore_if_exists)

    def replace_tag(self, tag_name: str, snapshot_id=None, time_retained=None) -> None:
        """Points the existing tag `tag_name` at `snapshot_id` (None: the latest)."""
        _value_errors(_cpaimon.table_replace_tag, self._handle, tag_name,
                      _snapshot_arg(snapshot_id), _duration_ms(time_retained))

    def delete_tag(self, tag_name: str) -> bool:
        """Deletes a tag; False when there was none."""
        return _cpaimon.table_delete_tag(self._handle, tag_name)

    def rename_tag(self, old_name: str, new_name: str) -> None:
        _value_errors(_cpaimon.table_rename_tag, self._handle, old_name, new_name)

    def list_tags(self):
        """The tag names, ordered by the snapshot they tag, then by name."""
        return self._tag_names()

    def rollback_to(self, target) -> None:
        """Rolls the table back to a snapshot id (int) or a tag (str), as Java's rollbackTo:
        later snapshots and tags are deleted and the target is the latest snapshot again (its
        nextRowId too, so row ids of the discarded snapshots are assigned again)."""
        if isinstance(target, bool) or not isinstance(target, (int, str)):
            raise ValueError("Unsupported rollback target type: {}".format(type(target)))
        _value_errors(_cpaimon.table_rollback, self._handle, target)

    def expire_snapshots(self, retain_max=None, retain_min=None, older_than_millis=None,
                         max_deletes=None) -> int:
        """Expires old snapshots as Java's ExpireSnapshots (and Spark's sys.expire_snapshots):
        arguments left None take the table's snapshot.num-retained.max / .min,
        snapshot.time-retained and snapshot.expire.limit. Returns how many snapshots were
        deleted. Commits also expire with the table's options, as Java's writers do."""
        for name, v in (("retain_max", retain_max), ("retain_min", retain_min),
                        ("max_deletes", max_deletes)):
            if v is not None and (isinstance(v, bool) or not isinstance(v, int) or v < 1):
                raise ValueError(f"{name} must be a positive integer, got {v!r}")
        return _cpaimon.table_expire_snapshots(
            self._handle, retain_max or 0, retain_min or 0, int(older_than_millis or 0),
            max_deletes or 0)[0]

    def compact(self, partition_filter=None, options: Optional[dict] = None,
                commit: bool = True) -> "CompactResult":
        """Compacts the table as Java's ``CALL sys.compact`` (docs/maintenance.md): on a
        data-evolution table every bin of row-id groups Java would pick is rewritten as one file
        with every column, keeping ``_ROW_ID`` and ``_SEQUENCE_NUMBER``, in one COMPACT snapshot.
        `partition_filter` (a predicate on partition keys) limits it to some partitions;
        `options` override target-file-size, source.split.open-file-cost and
        compaction.min.file-num. With ``commit=False`` the files are written but not committed:
        ``messages`` of the result go to a batch commit later (alone)."""
        if partition_filter is not None and not hasattr(partition_filter, "_handle"):
            raise TypeError("partition_filter must be a predicate (ReadBuilder."
                            f"new_predicate_builder()), got {type(partition_filter).__name__}")
        if options is not None and not isinstance(options, dict):
            raise TypeError(f"options must be a dict, got {type(options).__name__}")
        opts = {str(k): str(v) for k, v in (options or {}).items()}
        snap, tasks, before, after, rows, msgs = _cpaimon.table_compact(
            self._handle, None if partition_filter is None else partition_filter._handle,
            list(opts), list(opts.values()), bool(commit))
        from cpaimon.write import CommitMessage
        return CompactResult(snap or None, tasks, before, after, rows,
                             [CommitMessage(msgs)] if msgs is not None else [])

    def remove_orphan_files(self, older_than_millis=None, dry_run: bool = False):
        """Deletes the files no snapshot or tag references (Java's OrphanFilesClean; Spark's
        sys.remove_orphan_files), if modified before `older_than_millis` (None: a day ago).
        Returns OrphanFiles(deleted_file_count, deleted_file_total_bytes, paths); with
        `dry_run` nothing is deleted."""
        count, size, paths = _cpaimon.table_remove_orphan_files(
            self._handle, int(older_than_millis or 0), bool(dry_run))
        return OrphanFiles(count, size, paths)

    def rollback_to_as_latest(self, target) -> None:
        """Java's rollbackToAsLatest: a NEW snapshot holding exactly the files of snapshot
        `target` (int) or of tag `target` (str); the history stays and nextRowId never goes
        back, so row ids are never assigned twice (unlike rollback_to)."""
        if isinstance(target, bool) or not isinstance(target, (int, str)):
            raise ValueError("Unsupported rollback target type: {}".format(type(target)))
        _value_errors(_cpaimon.table_rollback_to_as_latest, self._handle, target)

    def rollback_to_timestamp(self, timestamp_millis: int) -> None:
        """Rolls back to the latest snapshot committed at or before `timestamp_millis`."""
        _value_errors(_cpaimon.table_rollback_to_timestamp, self._handle, int(timestamp_millis))

    def new_batch_write_builder(self):
        from cpaimon.write import BatchWriteBuilder
        return BatchWriteBuilder(self)

    def new_stream_write_builder(self):
        from cpaimon.write import StreamWriteBuilder
        return StreamWriteBuilder(self)

    def new_read_builder(self):
        from cpaimon.read import ReadBuilder
        return ReadBuilder(self)


OrphanFiles = collections.namedtuple("OrphanFiles",
                                     ["deleted_file_count", "deleted_file_total_bytes", "paths"])

# What a compaction did: the COMPACT snapshot (None when nothing was compacted or it was not
# committed), bins rewritten, data files replaced and written, rows rewritten, and (commit=False)
# the messages to commit.
CompactResult = collections.namedtuple(
    "CompactResult", ["snapshot_id", "tasks", "files_before", "files_after", "rows", "messages"])


def _value_errors(fn, *args):
    try:
        return fn(*args)
    except (FileExistsError, FileNotFoundError) as e:
        raise ValueError(str(e)) from e


def _snapshot_arg(snapshot_id):
    if snapshot_id is None:
        return 0
    if isinstance(snapshot_id, bool) or not isinstance(snapshot_id, int) or snapshot_id <= 0:
        raise ValueError(f"Snapshot with id {snapshot_id} doesn't exist.")
    return snapshot_id


def _duration_ms(value):
    """A retention as milliseconds (-1: none): a duration string as Paimon's options take it, a
    datetime.timedelta, or None."""
    if value is None:
        return -1
    if hasattr(value, "total_seconds"):
        return int(value.total_seconds() * 1000)
    return _cpaimon.parse_duration(str(value))


def _timestamp_ms(text: str) -> int:
    """scan.timestamp: a local date-time ("2026-01-31 12:00:00[.fff]"), as Java parses it in the
    default time zone."""
    import datetime
    return int(datetime.datetime.fromisoformat(text.strip()).timestamp() * 1000)


def _travel(options: dict, tag_names):
    """(read_builder_configure arguments, error to raise when planning or None) for the
    time-travel options, resolved as Java's TimeTravelUtil: scan.version is a tag when one has
    that name, else a snapshot id when numeric; one of SCAN_KEYS at most."""
    options = dict(options)
    version = options.pop(SCAN_VERSION, None)
    if version is not None:
        if version in tag_names():
            options["scan.tag-name"] = version
        elif version.startswith("watermark-"):
            return {}, NotImplementedError(f"{SCAN_VERSION} '{version}': time travel to a "
                                           "watermark is not supported")
        elif version.isdigit():
            options[SCAN_SNAPSHOT_ID] = version
        else:
            return {}, ValueError(f"Cannot find a time travel version for {version}")
    keys = [k for k in SCAN_KEYS if k in options]
    if not keys:
        return {}, None
    if len(keys) > 1:
        return {}, ValueError(f"Only one of the following parameters may be set: {SCAN_KEYS}")
    key, value = keys[0], options[keys[0]]
    try:
        if key == "scan.tag-name":
            return {"tag": value}, None
        if key == "scan.timestamp-millis":
            return {"timestamp": int(value)}, None
        if key == "scan.timestamp":
            return {"timestamp": _timestamp_ms(value)}, None
        if key == "scan.watermark":
            return {}, NotImplementedError("time travel by scan.watermark is not supported")
        snapshot = int(value)
    except ValueError as e:
        return {}, e
    if snapshot <= 0:
        return {"snapshot_id": snapshot}, ValueError(f"Snapshot id '{snapshot}' doesn't exist.")
    return {"snapshot_id": snapshot}, None
