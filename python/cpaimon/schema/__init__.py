"""Schema classes, named as in pypaimon (``pypaimon.schema``)."""
from cpaimon.schema.data_types import (ArrayType, AtomicType, DataField, DataType, MapType,
                                       MultisetType, RowType, VectorType)
from cpaimon.schema.schema import Schema
from cpaimon.schema.schema_change import SchemaChange

__all__ = ["ArrayType", "AtomicType", "DataField", "DataType", "MapType", "MultisetType",
           "RowType", "VectorType", "Schema", "SchemaChange"]
