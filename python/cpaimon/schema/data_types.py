"""Paimon data types as plain Python values, with pypaimon's class names, constructors,
``to_dict`` / ``from_dict`` forms and ``str()`` text (pypaimon.schema.data_types).

The values only carry what they were built from. Parsing and validating type text, the JSON form
of schema files and the Arrow mapping are done by the C library (include/cpaimon/types.h): a
type string goes to C and comes back as its JSON form, which is then held here as objects; a
type reaches C as SQL text (``_sql()``).
"""
import json
from typing import Any, Dict, List, Optional, Union

_NN = " NOT NULL"


def _split_null(text: str):
    """'ARRAY NOT NULL' -> ('ARRAY', False)."""
    text = text.strip()
    if text.upper().endswith(_NN):
        return text[: -len(_NN)].rstrip(), False
    return text, True


class DataType:
    def __init__(self, nullable: bool = True):
        self.nullable = nullable

    def _suffix(self) -> str:
        return "" if self.nullable else _NN

    def to_dict(self):
        raise NotImplementedError

    @classmethod
    def from_dict(cls, data) -> "DataType":
        return DataTypeParser.parse_data_type(data)

    def _sql(self) -> str:
        """The type as Paimon SQL text, as the C library reads it."""
        raise NotImplementedError

    def __eq__(self, other):
        return type(self) is type(other) and self.to_dict() == other.to_dict()

    def __hash__(self):
        return hash(json.dumps(self.to_dict(), sort_keys=True))

    def __repr__(self):
        return f"{type(self).__name__}({str(self)!r})"


class AtomicType(DataType):
    """An atomic type such as ``'INT NOT NULL'``, ``'STRING'`` or ``'DECIMAL(10, 2)'``."""

    def __init__(self, type: str, nullable: bool = True):
        text, text_nullable = _split_null(type)
        super().__init__(nullable and text_nullable)
        self.type = text

    def to_dict(self) -> str:
        return self.type + self._suffix()

    def _sql(self) -> str:
        return self.type + self._suffix()

    def __str__(self):
        return self.type + self._suffix()


class ArrayType(DataType):
    def __init__(self, nullable: bool, element_type: DataType):
        super().__init__(nullable)
        self.element = element_type

    def to_dict(self) -> Dict[str, Any]:
        return {"type": "ARRAY" + self._suffix(), "element": self.element.to_dict(),
                "nullable": self.nullable}

    def _sql(self) -> str:
        return f"ARRAY<{self.element._sql()}>{self._suffix()}"

    def __str__(self):
        return f"ARRAY<{self.element}>{self._suffix()}"


class MultisetType(DataType):
    def __init__(self, nullable: bool, element_type: DataType):
        super().__init__(nullable)
        self.element = element_type

    def to_dict(self) -> Dict[str, Any]:
        return {"type": "MULTISET" + self._suffix(), "element": self.element.to_dict(),
                "nullable": self.nullable}

    def _sql(self) -> str:
        return f"MULTISET<{self.element._sql()}>{self._suffix()}"

    def __str__(self):
        return f"MULTISET<{self.element}>{self._suffix()}"


class VectorType(DataType):
    def __init__(self, nullable: bool, element_type: DataType, length: int):
        super().__init__(nullable)
        self.element = element_type
        self.length = length

    def to_dict(self) -> Dict[str, Any]:
        return {"type": "VECTOR" + self._suffix(), "element": self.element.to_dict(),
                "length": self.length, "nullable": self.nullable}

    def _sql(self) -> str:
        return f"VECTOR<{self.element._sql()}, {self.length}>{self._suffix()}"

    def __str__(self):
        return f"VECTOR<{self.element}, {self.length}>{self._suffix()}"


class MapType(DataType):
    def __init__(self, nullable: bool, key_type: DataType, value_type: DataType):
        super().__init__(nullable)
        self.key = key_type
        self.value = value_type

    def to_dict(self) -> Dict[str, Any]:
        return {"type": "MAP" + self._suffix(), "key": self.key.to_dict(),
                "value": self.value.to_dict(), "nullable": self.nullable}

    def _sql(self) -> str:
        return f"MAP<{self.key._sql()}, {self.value._sql()}>{self._suffix()}"

    def __str__(self):
        return f"MAP<{self.key}, {self.value}>{self._suffix()}"


def _quote(name: str) -> str:
    return "`" + name.replace("`", "``") + "`"


def _sql_string(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


class DataField:
    """A column: id, name, type, and optional description and default value."""
    FIELD_ID = "id"
    FIELD_NAME = "name"
    FIELD_TYPE = "type"
    FIELD_DESCRIPTION = "description"
    FIELD_DEFAULT_VALUE = "defaultValue"

    def __init__(self, id: int, name: str, type: DataType, description: Optional[str] = None,
                 default_value: Optional[str] = None):
        self.id = id
        self.name = name
        self.type = type
        self.description = description
        self.default_value = default_value

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "DataField":
        return DataTypeParser.parse_data_field(data)

    def to_dict(self) -> Dict[str, Any]:
        out = {self.FIELD_ID: self.id, self.FIELD_NAME: self.name,
               self.FIELD_TYPE: self.type.to_dict() if self.type is not None else None}
        if self.description is not None:
            out[self.FIELD_DESCRIPTION] = self.description
        if self.default_value is not None:
            out[self.FIELD_DEFAULT_VALUE] = self.default_value
        return out

    def __eq__(self, other):
        return (isinstance(other, DataField) and self.id == other.id and self.name == other.name
                and self.type == other.type and self.description == other.description
                and self.default_value == other.default_value)

    def __hash__(self):
        return hash((self.id, self.name, self.type, self.description, self.default_value))

    def __repr__(self):
        return f"DataField({self.id}, {self.name!r}, {self.type!r})"


class RowType(DataType):
    def __init__(self, nullable: bool, fields: List[DataField]):
        super().__init__(nullable)
        self.fields = list(fields or [])

    def to_dict(self) -> Dict[str, Any]:
        return {"type": "ROW" + self._suffix(), "fields": [f.to_dict() for f in self.fields],
                "nullable": self.nullable}

    def _sql(self) -> str:
        inner = ", ".join(
            f"{_quote(f.name)} {f.type._sql()}"
            + (f" COMMENT {_sql_string(f.description)}" if f.description else "")
            for f in self.fields)
        return f"ROW<{inner}>{self._suffix()}"

    def __str__(self):
        inner = ", ".join(f"{f.name}: {f.type}" + (f" COMMENT {f.description}"
                                                    if f.description else "")
                          for f in self.fields)
        return f"ROW<{inner}>{self._suffix()}"

    def get_field_index(self, field_name: str) -> int:
        for i, f in enumerate(self.fields):
            if f.name == field_name:
                return i
        raise ValueError(f"Field {field_name} not found in {self}")


def type_sql(data_type) -> str:
    """SQL text of a type object: cpaimon's own, or pypaimon's (its str() is that text)."""
    sql = getattr(data_type, "_sql", None)
    return sql() if sql is not None else str(data_type)


def _native():
    from cpaimon import _cpaimon
    return _cpaimon


def _from_json(node, path="type") -> DataType:
    """A type in its JSON form (a schema file's, or pypaimon's to_dict with "nullable") as
    objects; the structure only, the C library has checked it."""
    if isinstance(node, str):
        return AtomicType(node)
    if not isinstance(node, dict) or not isinstance(node.get("type"), str):
        raise ValueError(f"Cannot parse data type: {node!r}")
    kind, nullable = _split_null(node["type"])
    if node.get("nullable") is False:
        nullable = False
    kind = kind.upper()
    if kind == "ARRAY":
        return ArrayType(nullable, _from_json(node["element"]))
    if kind == "MULTISET":
        return MultisetType(nullable, _from_json(node["element"]))
    if kind == "VECTOR":
        return VectorType(nullable, _from_json(node["element"]), int(node["length"]))
    if kind == "MAP":
        return MapType(nullable, _from_json(node["key"]), _from_json(node["value"]))
    if kind == "ROW":
        return RowType(nullable, [_field_from_json(f) for f in node.get("fields", [])])
    return AtomicType(node["type"])


def _field_from_json(node) -> DataField:
    return DataField(int(node["id"]), node["name"], _from_json(node["type"]),
                     node.get("description"), node.get("defaultValue"))


def _checked(node):
    """Validates a JSON-form type with the C reader (pypaimon's extra "nullable" keys are
    dropped for it) and returns it unchanged."""
    def strip(n):
        if isinstance(n, dict):
            return {k: strip(v) for k, v in n.items() if k != "nullable"}
        if isinstance(n, list):
            return [strip(v) for v in n]
        return n
    _native().type_json_to_sql(json.dumps(strip(node)))
    return node


class DataTypeParser:
    """pypaimon's DataTypeParser: types from SQL text or from their JSON / dict form."""

    @staticmethod
    def parse_data_type(json_data: Union[Dict[str, Any], str], field_id=None) -> DataType:
        if isinstance(json_data, str):
            return _from_json(json.loads(_native().type_sql_to_json(json_data)))
        if isinstance(json_data, dict):
            if "type" not in json_data:
                raise ValueError(f"Missing 'type' field in JSON: {json_data}")
            return _from_json(_checked(json_data))
        raise ValueError(f"Cannot parse data type: {json_data}")

    @staticmethod
    def parse_atomic_type_sql_string(type_string: str) -> DataType:
        return DataTypeParser.parse_data_type(type_string)

    @staticmethod
    def parse_data_field(json_data: Dict[str, Any], field_id=None) -> DataField:
        for key in (DataField.FIELD_NAME, DataField.FIELD_TYPE):
            if key not in json_data:
                raise ValueError(f"Missing '{key}' field in JSON")
        if json_data.get(DataField.FIELD_ID) is None:
            if field_id is None:
                raise ValueError("Field ID is required when not provided in JSON")
            fid = field_id.increment_and_get()
        else:
            fid = int(json_data[DataField.FIELD_ID])
        return DataField(fid, json_data[DataField.FIELD_NAME],
                         DataTypeParser.parse_data_type(json_data[DataField.FIELD_TYPE]),
                         json_data.get(DataField.FIELD_DESCRIPTION),
                         json_data.get(DataField.FIELD_DEFAULT_VALUE))


class PyarrowFieldParser:
    """pypaimon's Arrow ⇄ Paimon mapping, done by the C library (the mapping cpaimon reads and
    writes with)."""

    @staticmethod
    def from_paimon_type(data_type: DataType):
        import pyarrow as pa
        return pa.Field._import_from_c_capsule(
            _native().type_to_arrow(data_type._sql(), "f")).type

    @staticmethod
    def from_paimon_field(data_field: DataField):
        import pyarrow as pa
        metadata = ({b"description": data_field.description.encode("utf-8")}
                    if data_field.description else {})
        return pa.field(data_field.name, PyarrowFieldParser.from_paimon_type(data_field.type),
                        nullable=data_field.type.nullable, metadata=metadata)

    @staticmethod
    def from_paimon_schema(data_fields: List[DataField]):
        import pyarrow as pa
        return pa.schema([PyarrowFieldParser.from_paimon_field(f) for f in data_fields])

    @staticmethod
    def to_paimon_type(pa_type, nullable: bool) -> DataType:
        import pyarrow as pa
        return _from_json(json.loads(_native().type_from_arrow(
            pa.field("f", pa_type, nullable=nullable))))

    @staticmethod
    def to_paimon_field(field_idx: int, pa_field) -> DataField:
        desc = (pa_field.metadata or {}).get(b"description")
        return DataField(field_idx, pa_field.name,
                         PyarrowFieldParser.to_paimon_type(pa_field.type, pa_field.nullable),
                         desc.decode("utf-8") if desc is not None else None)

    @staticmethod
    def to_paimon_schema(pa_schema) -> List[DataField]:
        return [_field_from_json(f) for f in json.loads(
            _native().arrow_schema_to_fields_json(pa_schema))]
