"""pypaimon's module path of InternalRow and RowKind (``pypaimon.table.row.internal_row``)."""
from cpaimon.read import InternalRow, RowKind

__all__ = ["InternalRow", "RowKind"]
