"""Tables: builders for writes and reads, as in pypaimon's ``FileStoreTable``."""
import json

import pyarrow as pa

from cpaimon import _cpaimon
from cpaimon.schema.data_types import AtomicType, DataField


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

    @property
    def fields(self):
        arrow = self.arrow_schema()
        return [DataField(f["id"], f["name"], AtomicType(_type_text(f["type"])))
                for f in self._schema_json["fields"]] if arrow is not None else []

    def arrow_schema(self) -> pa.Schema:
        return pa.Schema._import_from_c_capsule(_cpaimon.table_arrow_schema(self._handle))

    def latest_snapshot_id(self) -> int:
        return _cpaimon.table_latest_snapshot_id(self._handle)

    def new_batch_write_builder(self):
        from cpaimon.write import BatchWriteBuilder
        return BatchWriteBuilder(self)

    def new_read_builder(self):
        from cpaimon.read import ReadBuilder
        return ReadBuilder(self)


def _type_text(node) -> str:
    """Schema-file JSON of a type back to SQL text (for DataField display)."""
    if isinstance(node, str):
        return node
    kind = node["type"]
    nn = " NOT NULL" if kind.endswith("NOT NULL") else ""
    base = kind.split(" ")[0]
    if base == "ARRAY" or base == "MULTISET":
        return f"{base}<{_type_text(node['element'])}>{nn}"
    if base == "MAP":
        return f"MAP<{_type_text(node['key'])}, {_type_text(node['value'])}>{nn}"
    if base == "ROW":
        inner = ", ".join(f"`{f['name']}` {_type_text(f['type'])}" for f in node["fields"])
        return f"ROW<{inner}>{nn}"
    if base == "VECTOR":
        return f"VECTOR<{_type_text(node['element'])}, {node['length']}>{nn}"
    return kind
