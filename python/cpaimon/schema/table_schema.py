"""TableSchema at pypaimon's module path (``pypaimon.schema.table_schema``): a table's schema file
as the C core read it (schema/schema-N JSON, spec/format.md), with pypaimon's attribute names."""
from typing import Dict, List, Optional

from cpaimon.schema.data_types import DataField, _field_from_json


class TableSchema:
    PAIMON_07_VERSION = 1
    PAIMON_08_VERSION = 2
    CURRENT_VERSION = 3

    def __init__(self, version: int, id: int, fields: List[DataField], highest_field_id: int,
                 partition_keys: List[str], primary_keys: List[str], options: Dict[str, str],
                 comment: Optional[str] = None, time_millis: int = 0):
        self.version = version
        self.id = id
        self.fields = fields
        self.highest_field_id = highest_field_id
        self.partition_keys = partition_keys
        self.primary_keys = primary_keys
        self.options = options
        self.comment = comment
        self.time_millis = time_millis

    @classmethod
    def _from_json(cls, node: dict) -> "TableSchema":
        return cls(node.get("version", cls.CURRENT_VERSION), node.get("id", 0),
                   [_field_from_json(f) for f in node.get("fields", [])],
                   node.get("highestFieldId", 0), list(node.get("partitionKeys", [])),
                   list(node.get("primaryKeys", [])), dict(node.get("options", {})),
                   node.get("comment"), node.get("timeMillis", 0))

    def __eq__(self, other) -> bool:
        return isinstance(other, TableSchema) and vars(self) == vars(other)

    def __repr__(self) -> str:
        return (f"TableSchema(id={self.id}, fields={self.fields}, "
                f"partition_keys={self.partition_keys}, primary_keys={self.primary_keys}, "
                f"options={self.options}, comment={self.comment!r})")
