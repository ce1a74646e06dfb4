"""pypaimon's GenericRow (``pypaimon.table.row.generic_row``): values with their fields and a
row kind, as ``BatchTableWrite.write_row`` takes them."""
from typing import Any, List

from cpaimon.read import InternalRow, RowKind


class GenericRow(InternalRow):
    def __init__(self, values: List[Any], fields: List[Any], row_kind: RowKind = RowKind.INSERT):
        super().__init__(tuple(values))
        self.values = values
        self.fields = fields
        self.row_kind = row_kind

    def to_dict(self):
        return {self.fields[i].name: self.values[i] for i in range(len(self.fields))}

    def get_field(self, pos: int) -> Any:
        if pos >= len(self.values):
            raise IndexError(f"Position {pos} is out of bounds for row arity {len(self.values)}")
        return self.values[pos]

    def get_row_kind(self) -> RowKind:
        return self.row_kind

    def __len__(self) -> int:
        return len(self.values)

    def __repr__(self):
        return f"GenericRow({self.values!r}, row_kind={self.row_kind.name})"
