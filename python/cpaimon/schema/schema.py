"""``Schema``: what create_table takes, as in pypaimon."""
from typing import Dict, List, Optional

from cpaimon.schema.data_types import DataField, PyarrowFieldParser, type_sql


class Schema:
    def __init__(self, fields: Optional[List[DataField]] = None,
                 partition_keys: Optional[List[str]] = None,
                 primary_keys: Optional[List[str]] = None,
                 options: Optional[Dict] = None, comment: Optional[str] = None):
        self.fields = list(fields or [])
        self.partition_keys = list(partition_keys or [])
        self.primary_keys = list(primary_keys or [])
        self.options = dict(options or {})
        self.comment = comment

    @staticmethod
    def from_pyarrow_schema(pa_schema, partition_keys: Optional[List[str]] = None,
                            primary_keys: Optional[List[str]] = None,
                            options: Optional[Dict] = None,
                            comment: Optional[str] = None) -> "Schema":
        """Maps an Arrow schema to Paimon columns (the mapping is done by the C library)."""
        return Schema(PyarrowFieldParser.to_paimon_schema(pa_schema), partition_keys,
                      primary_keys, options, comment)

    def _native_fields(self):
        return [(f.id, f.name, type_sql(f.type), f.description) for f in self.fields]
