"""Types and schemas as data (issue 15 item 2), against pypaimon 2.1: ``to_dict`` / ``from_dict``
of every type class and of DataField, ``str()`` as pypaimon prints types, PyarrowFieldParser
both ways, and ``table.fields`` / ``field_dict`` as structured types with their field ids. The
conversions are the C library's (include/cpaimon/types.h)."""
import pyarrow as pa
import pypaimon
import pypaimon.schema.data_types as P
import pytest

import cpaimon
import cpaimon.schema.data_types as C

ARROW = pa.schema([
    pa.field("a", pa.int32(), nullable=False),
    ("s", pa.struct([("x", pa.int64()), ("y", pa.struct([("z", pa.string())]))])),
    ("l", pa.list_(pa.field("e", pa.float32(), nullable=False))),
    ("m", pa.map_(pa.string(), pa.list_(pa.int64()))),
    ("ts", pa.timestamp("ms")), ("ltz", pa.timestamp("us", tz="UTC")),
    ("d", pa.decimal128(10, 2)), ("v", pa.list_(pa.float32(), 4)), ("b", pa.binary()),
    ("fb", pa.binary(3)), ("dt", pa.date32()), ("f", pa.float64()), ("t", pa.int8()),
    ("bo", pa.bool_()),
    pa.field("c", pa.string(), metadata={b"description": b"a comment"}),
])


def java_names(value):
    """Expected difference: pypaimon 2.1 names a local-time-zone timestamp TIMESTAMP_LTZ(p);
    Java's type text, in schema files and everywhere else, is TIMESTAMP(p) WITH LOCAL TIME ZONE,
    which cpaimon follows. (Both read either.)"""
    import re
    return re.sub(r"TIMESTAMP_LTZ[(]([0-9])[)]", r"TIMESTAMP(\1) WITH LOCAL TIME ZONE", str(value))


def test_pyarrow_field_parser_matches_pypaimon():
    ours = C.PyarrowFieldParser.to_paimon_schema(ARROW)
    theirs = P.PyarrowFieldParser.to_paimon_schema(ARROW)
    assert [str(f.to_dict()) for f in ours] == [java_names(f.to_dict()) for f in theirs]
    assert [str(f.type) for f in ours] == [java_names(f.type) for f in theirs]
    assert C.PyarrowFieldParser.from_paimon_schema(ours) == \
        P.PyarrowFieldParser.from_paimon_schema(theirs)
    for field in ARROW:
        a = C.PyarrowFieldParser.to_paimon_type(field.type, field.nullable)
        b = P.PyarrowFieldParser.to_paimon_type(field.type, field.nullable)
        assert str(a.to_dict()) == java_names(b.to_dict()), field
        assert C.PyarrowFieldParser.from_paimon_type(a) == P.PyarrowFieldParser.from_paimon_type(b)
    assert C.PyarrowFieldParser.to_paimon_field(7, ARROW.field("c")).to_dict() == \
        P.PyarrowFieldParser.to_paimon_field(7, ARROW.field("c")).to_dict()
    with pytest.raises(Exception, match="uint64"):
        C.PyarrowFieldParser.to_paimon_type(pa.uint64(), True)


def test_dicts_round_trip_as_in_pypaimon():
    for field in P.PyarrowFieldParser.to_paimon_schema(ARROW):
        d = field.to_dict()
        ours = C.DataField.from_dict(d)
        assert str(ours.to_dict()) == java_names(d)  # type text normalized by the C parser
        assert ours == C.DataField.from_dict(ours.to_dict())
        t = field.type.to_dict()
        assert type(C.DataType.from_dict(t)).__name__ == type(field.type).__name__
        assert str(C.DataTypeParser.parse_data_type(t).to_dict()) == java_names(t)
    # Java's JSON form (schema files, no "nullable" keys) reads the same
    java = {"type": "ARRAY NOT NULL", "element": {"type": "MAP", "key": "STRING NOT NULL",
                                                  "value": "INT"}}
    ours = C.DataTypeParser.parse_data_type(java)
    assert ours.to_dict() == P.DataTypeParser.parse_data_type(java).to_dict()
    assert str(ours) == "ARRAY<MAP<STRING NOT NULL, INT>> NOT NULL"
    for text in ("INT", "int not null", "DECIMAL(10, 2) NOT NULL", "VARCHAR(10)", "TIMESTAMP(3)"):
        assert C.AtomicType.from_dict(text).to_dict() == P.AtomicType.from_dict(text).to_dict()
    assert isinstance(C.DataTypeParser.parse_data_type("ARRAY<ROW<a INT>>"), C.ArrayType)
    with pytest.raises(ValueError):
        C.DataTypeParser.parse_data_type("NOT_A_TYPE")
    with pytest.raises(ValueError):
        C.DataTypeParser.parse_data_type({"type": "ARRAY"})  # no element
    with pytest.raises(ValueError, match="Missing 'name'"):
        C.DataField.from_dict({"id": 1, "type": "INT"})


def test_table_fields_are_structured_with_ids(tmp_path):
    opts = {"warehouse": str(tmp_path / "wh")}
    cat = cpaimon.CatalogFactory.create(opts)
    cat.create_database("db", False)
    cat.create_table("db.t", cpaimon.Schema.from_pyarrow_schema(ARROW), False)
    ours = cat.get_table("db.t")
    theirs = pypaimon.CatalogFactory.create(opts).get_table("db.t")
    assert [f.to_dict() for f in ours.fields] == [f.to_dict() for f in theirs.fields]
    assert isinstance(ours.field_dict["s"].type, C.RowType)
    assert ours.field_dict["s"].type.fields[1].type.fields[0].name == "z"
    assert str(ours.field_dict["m"].type) == str(theirs.field_dict["m"].type)
    # a schema built from type objects reaches the C library as SQL text
    cat.create_table("db.u", cpaimon.Schema(fields=[
        C.DataField(0, "r", C.RowType(True, [C.DataField(1, "q", C.AtomicType("INT"),
                                                         "it's q")])),
        C.DataField(2, "arr", C.ArrayType(False, C.AtomicType("STRING NOT NULL")))]), False)
    u = pypaimon.CatalogFactory.create(opts).get_table("db.u")
    assert [f.to_dict() for f in u.fields] == [f.to_dict() for f in cat.get_table("db.u").fields]
    assert u.fields[0].type.fields[0].description == "it's q"
