"""ALTER TABLE changes, named as pypaimon's ``SchemaChange`` factory methods. Each is plain data
the C library applies (``paimon_catalog_alter_table``)."""
from enum import Enum
from typing import List, Optional, Union

from cpaimon.schema.data_types import DataType, type_sql


def _names(name: Union[str, List[str]]) -> tuple:
    """A column as (top-level name, path): the path (Java's fieldNames) for a nested column, e.g.
    ['r', 'x'] or ['v', 'element', 'x'], else None."""
    if isinstance(name, str):
        return name, None
    names = [str(n) for n in name]
    if len(names) == 1:
        return names[0], None
    return names[0], tuple(names)


class MoveType(Enum):
    FIRST = "FIRST"
    AFTER = "AFTER"
    BEFORE = "BEFORE"
    LAST = "LAST"


class Move:
    """pypaimon's Move: where update_column_position (or add_column's move) puts a column."""

    def __init__(self, field_name: str, reference_field_name: Optional[str], type: MoveType):
        self.field_name = field_name
        self.reference_field_name = reference_field_name
        self.type = type

    @staticmethod
    def first(field_name: str) -> "Move":
        return Move(field_name, None, MoveType.FIRST)

    @staticmethod
    def after(field_name: str, reference_field_name: str) -> "Move":
        return Move(field_name, reference_field_name, MoveType.AFTER)

    @staticmethod
    def before(field_name: str, reference_field_name: str) -> "Move":
        return Move(field_name, reference_field_name, MoveType.BEFORE)

    @staticmethod
    def last(field_name: str) -> "Move":
        return Move(field_name, None, MoveType.LAST)


def _move_native(move) -> tuple:
    """cpaimon's or pypaimon's Move as an update_column_position change."""
    kind = getattr(move.type, "value", move.type)
    return ("update_column_position", move.field_name, str(kind), None, None,
            move.reference_field_name)


class SchemaChange:
    def __init__(self, kind: str, name=None, value=None, type=None, comment=None):
        self.kind, self.value, self.type, self.comment = kind, value, type, comment
        self.name, self._path = _names(name) if name is not None else (None, None)

    @property
    def field_names(self) -> List[str]:
        """pypaimon's field_names: the column's path from the top-level column down."""
        return list(self._path) if self._path else ([self.name] if self.name else [])

    def _native(self):
        return (self.kind, self.name, self.value, self.type, self.comment,
                getattr(self, "_reference", None), self._path)

    def _natives(self):
        return [self._native()]

    def __repr__(self):
        return f"SchemaChange({self._native()!r})"

    @staticmethod
    def set_option(key: str, value: str) -> "SchemaChange":
        return SchemaChange("set_option", key, str(value))

    @staticmethod
    def remove_option(key: str) -> "SchemaChange":
        return SchemaChange("remove_option", key)

    @staticmethod
    def update_comment(comment: Optional[str]) -> "SchemaChange":
        return SchemaChange("update_comment", value=comment)

    @staticmethod
    def add_column(field_name: Union[str, List[str]], data_type: DataType,
                   comment: Optional[str] = None, move=None) -> "SchemaChange":
        change = SchemaChange("add_column", field_name, type=type_sql(data_type),
                              comment=comment)
        if move is not None:
            change.value = str(getattr(move.type, "value", move.type))
            change._reference = move.reference_field_name
        return change

    @staticmethod
    def rename_column(field_name: Union[str, List[str]], new_name: str) -> "SchemaChange":
        return SchemaChange("rename_column", field_name, new_name)

    @staticmethod
    def drop_column(field_name: Union[str, List[str]]) -> "SchemaChange":
        return SchemaChange("drop_column", field_name)

    @staticmethod
    def update_column_comment(field_name: Union[str, List[str]], comment: str) -> "SchemaChange":
        return SchemaChange("update_column_comment", field_name,
                            comment=comment)

    @staticmethod
    def update_column_type(field_name: Union[str, List[str]], new_data_type: DataType,
                           keep_nullability: bool = False) -> "SchemaChange":
        """Widening changes only (integers, FLOAT -> DOUBLE, longer strings and binaries, DECIMAL
        and TIMESTAMP precision): older files are read through the widening."""
        return SchemaChange("update_column_type", field_name,
                            "keep-nullability" if keep_nullability else None,
                            type_sql(new_data_type))

    @staticmethod
    def update_column_nullability(field_name: Union[str, List[str]],
                                  new_nullability: bool) -> "SchemaChange":
        return SchemaChange("update_column_nullability", field_name,
                            "true" if new_nullability else "false")

    @staticmethod
    def update_column_position(move) -> "SchemaChange":
        kind, name, value, type_, comment, reference = _move_native(move)
        change = SchemaChange(kind, name, value, type_, comment)
        change._native = lambda: (kind, name, value, type_, comment, reference)
        return change
