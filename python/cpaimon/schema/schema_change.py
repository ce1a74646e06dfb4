"""ALTER TABLE changes, named as pypaimon's ``SchemaChange`` factory methods. Each is plain data
the C library applies (``paimon_catalog_alter_table``)."""
from enum import Enum
from typing import List, Optional, Union

from cpaimon.schema.data_types import DataType, type_sql


def _single(name: Union[str, List[str]], what: str) -> str:
    if isinstance(name, str):
        return name
    if len(name) != 1:
        raise NotImplementedError(f"{what} of nested column {'.'.join(name)} is not supported")
    return name[0]


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
    def __init__(self, kind: str, name=None, value=None, type=None, comment=None, then=None):
        self.kind, self.name, self.value, self.type, self.comment = kind, name, value, type, comment
        self._then = then  # a change applied right after this one (add_column's move)

    def _native(self):
        return (self.kind, self.name, self.value, self.type, self.comment)

    def _natives(self):
        return [self._native()] + ([self._then] if self._then else [])

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
        return SchemaChange("add_column", _single(field_name, "add_column"), type=type_sql(data_type),
                            comment=comment, then=_move_native(move) if move else None)

    @staticmethod
    def rename_column(field_name: Union[str, List[str]], new_name: str) -> "SchemaChange":
        return SchemaChange("rename_column", _single(field_name, "rename_column"), new_name)

    @staticmethod
    def drop_column(field_name: Union[str, List[str]]) -> "SchemaChange":
        return SchemaChange("drop_column", _single(field_name, "drop_column"))

    @staticmethod
    def update_column_comment(field_name: Union[str, List[str]], comment: str) -> "SchemaChange":
        return SchemaChange("update_column_comment", _single(field_name, "update_column_comment"),
                            comment=comment)

    @staticmethod
    def update_column_type(field_name: Union[str, List[str]], new_data_type: DataType,
                           keep_nullability: bool = False) -> "SchemaChange":
        """Widening changes only (integers, FLOAT -> DOUBLE, longer strings and binaries, DECIMAL
        and TIMESTAMP precision): older files are read through the widening."""
        return SchemaChange("update_column_type", _single(field_name, "update_column_type"),
                            "keep-nullability" if keep_nullability else None,
                            type_sql(new_data_type))

    @staticmethod
    def update_column_nullability(field_name: Union[str, List[str]],
                                  new_nullability: bool) -> "SchemaChange":
        return SchemaChange("update_column_nullability",
                            _single(field_name, "update_column_nullability"),
                            "true" if new_nullability else "false")

    @staticmethod
    def update_column_position(move) -> "SchemaChange":
        kind, name, value, type_, comment, reference = _move_native(move)
        change = SchemaChange(kind, name, value, type_, comment)
        change._native = lambda: (kind, name, value, type_, comment, reference)
        return change
