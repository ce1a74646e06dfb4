"""Tables: builders for writes and reads, as in pypaimon's ``FileStoreTable``."""
import json

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
        # Time travel (copy with scan.snapshot-id): the snapshot reads see, and the error a scan
        # raises when the options do not name a readable snapshot (pypaimon raises it at plan).
        self._travel_snapshot = None
        self._travel_error = None

    @property
    def fields(self):
        arrow = self.arrow_schema()
        return [_field_from_json(f) for f in self._schema_json["fields"]] \
            if arrow is not None else []

    @property
    def field_names(self):
        """The column names, in schema order (pypaimon's FileStoreTable.field_names)."""
        return [f["name"] for f in self._schema_json["fields"]]

    @property
    def field_dict(self):
        """Column name -> DataField (pypaimon's FileStoreTable.field_dict)."""
        return {f.name: f for f in self.fields}

    def arrow_schema(self) -> pa.Schema:
        if self._travel_snapshot is not None and self._travel_snapshot > 0:
            rb = _cpaimon.read_builder_new(self._handle)
            _cpaimon.read_builder_configure(rb, snapshot_id=self._travel_snapshot)
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
        table._travel_snapshot, table._travel_error = _travel_snapshot(merged)
        if table._travel_snapshot is not None and table._travel_snapshot > 0:
            rb = _cpaimon.read_builder_new(self._handle)
            try:
                _cpaimon.read_builder_configure(rb, snapshot_id=table._travel_snapshot)
                table.schema_id, text = _cpaimon.read_builder_read_schema(rb)
                table._schema_json = json.loads(text)
            except FileNotFoundError:
                pass  # as Java's tryTimeTravel: the current schema; the scan reports it
        table.options = merged
        return table

    def latest_snapshot_id(self) -> int:
        return _cpaimon.table_latest_snapshot_id(self._handle)

    def new_batch_write_builder(self):
        from cpaimon.write import BatchWriteBuilder
        return BatchWriteBuilder(self)

    def new_stream_write_builder(self):
        from cpaimon.write import StreamWriteBuilder
        return StreamWriteBuilder(self)

    def new_read_builder(self):
        from cpaimon.read import ReadBuilder
        return ReadBuilder(self)


def _travel_snapshot(options: dict):
    """(snapshot id or None, error to raise when planning or None) for the time-travel options,
    resolved as Java's TimeTravelUtil: a numeric scan.version is a snapshot id and replaces
    scan.snapshot-id; tags, watermarks and timestamps are not supported by cpaimon."""
    options = dict(options)
    version = options.pop(SCAN_VERSION, None)
    if version is not None:
        if version.isdigit():
            options[SCAN_SNAPSHOT_ID] = version
        elif version.startswith("watermark-"):
            return None, NotImplementedError(f"{SCAN_VERSION} '{version}': time travel to a "
                                             "watermark is not supported; give a snapshot id")
        else:
            return None, ValueError(f"Cannot find a time travel version for {version}")
    keys = [k for k in SCAN_KEYS if k in options]
    if not keys:
        return None, None
    if len(keys) > 1:
        return None, ValueError(f"Only one of the following parameters may be set: {SCAN_KEYS}")
    if keys[0] != SCAN_SNAPSHOT_ID:
        return None, NotImplementedError(f"time travel by {keys[0]} is not supported; "
                                         f"use {SCAN_SNAPSHOT_ID}")
    try:
        snapshot = int(options[SCAN_SNAPSHOT_ID])
    except ValueError as e:
        return None, e
    if snapshot <= 0:
        return snapshot, ValueError(f"Snapshot id '{snapshot}' doesn't exist.")
    return snapshot, None
