"""Paimon data types as plain Python values, with pypaimon's class names and constructors.

They only carry what the user wrote: each renders itself as Paimon SQL type text (``str(t)``),
which the C library parses and validates. No type logic lives here.
"""
from typing import List, Optional


class DataType:
    def __init__(self, nullable: bool = True):
        self.nullable = nullable

    def _suffix(self) -> str:
        return "" if self.nullable else " NOT NULL"

    def __eq__(self, other):
        return type(self) is type(other) and str(self) == str(other)

    def __hash__(self):
        return hash(str(self))

    def __repr__(self):
        return f"{type(self).__name__}({str(self)!r})"


class AtomicType(DataType):
    """An atomic type such as ``'INT NOT NULL'``, ``'STRING'`` or ``'DECIMAL(10, 2)'``."""

    def __init__(self, type: str, nullable: bool = True):
        text = type.strip()
        if text.upper().endswith(" NOT NULL"):
            text, nullable = text[: -len(" NOT NULL")].rstrip(), False
        super().__init__(nullable)
        self.type = text

    def __str__(self):
        return self.type + self._suffix()


class ArrayType(DataType):
    def __init__(self, nullable: bool, element_type: DataType):
        super().__init__(nullable)
        self.element = element_type

    def __str__(self):
        return f"ARRAY<{self.element}>{self._suffix()}"


class MultisetType(DataType):
    def __init__(self, nullable: bool, element_type: DataType):
        super().__init__(nullable)
        self.element = element_type

    def __str__(self):
        return f"MULTISET<{self.element}>{self._suffix()}"


class VectorType(DataType):
    def __init__(self, nullable: bool, element_type: DataType, length: int):
        super().__init__(nullable)
        self.element = element_type
        self.length = length

    def __str__(self):
        return f"VECTOR<{self.element}, {self.length}>{self._suffix()}"


class MapType(DataType):
    def __init__(self, nullable: bool, key_type: DataType, value_type: DataType):
        super().__init__(nullable)
        self.key = key_type
        self.value = value_type

    def __str__(self):
        return f"MAP<{self.key}, {self.value}>{self._suffix()}"


def _quote(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


class DataField:
    """A column: id, name, type, and optional description and default value."""

    def __init__(self, id: int, name: str, type: DataType, description: Optional[str] = None,
                 default_value: Optional[str] = None):
        self.id = id
        self.name = name
        self.type = type
        self.description = description
        self.default_value = default_value

    def __eq__(self, other):
        return (isinstance(other, DataField) and self.id == other.id and self.name == other.name
                and self.type == other.type and self.description == other.description)

    def __hash__(self):
        return hash((self.id, self.name, str(self.type)))

    def __repr__(self):
        return f"DataField({self.id}, {self.name!r}, {self.type!r})"


class RowType(DataType):
    def __init__(self, nullable: bool, fields: List[DataField]):
        super().__init__(nullable)
        self.fields = list(fields or [])

    def __str__(self):
        inner = ", ".join(f"{_quote(f.name)} {f.type}" for f in self.fields)
        return f"ROW<{inner}>{self._suffix()}"
