"""ALTER TABLE changes, named as pypaimon's ``SchemaChange`` factory methods. Each is plain data
the C library applies (``paimon_catalog_alter_table``)."""
from typing import List, Optional, Union

from cpaimon.schema.data_types import DataType, type_sql


def _single(name: Union[str, List[str]], what: str) -> str:
    if isinstance(name, str):
        return name
    if len(name) != 1:
        raise NotImplementedError(f"{what} of nested column {'.'.join(name)} is not supported")
    return name[0]


class SchemaChange:
    def __init__(self, kind: str, name=None, value=None, type=None, comment=None):
        self.kind, self.name, self.value, self.type, self.comment = kind, name, value, type, comment

    def _native(self):
        return (self.kind, self.name, self.value, self.type, self.comment)

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
        if move is not None:
            raise NotImplementedError("add_column with a position (move) is not supported yet")
        return SchemaChange("add_column", _single(field_name, "add_column"), type=type_sql(data_type),
                            comment=comment)

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
