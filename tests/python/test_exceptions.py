"""pypaimon's exceptions and module paths (issue 15 item 8): the same failure raises the same
class name in cpaimon as in pypaimon 2.1 (catalog exceptions at
cpaimon.catalog.catalog_exception, RuntimeError for a schema change naming a column that is or
is not there), and each catalog exception is still the built-in error cpaimon raised before."""
import importlib

import pyarrow as pa
import pypaimon
import pytest

import cpaimon

SCHEMA = pa.schema([("x", pa.int32()), ("y", pa.int32())])


def scenarios(lib):
    sc = importlib.import_module(f"{lib.__name__}.schema.schema_change").SchemaChange
    at = importlib.import_module(f"{lib.__name__}.schema.data_types").AtomicType
    schema = lib.Schema.from_pyarrow_schema(SCHEMA)
    return {
        "get missing table": lambda c: c.get_table("d.nope"),
        "create existing table": lambda c: c.create_table("d.t", schema, False),
        "create existing database": lambda c: c.create_database("d", False),
        "list tables of missing database": lambda c: c.list_tables("nodb"),
        "drop missing table": lambda c: c.drop_table("d.nope"),
        "drop missing database": lambda c: c.drop_database("nodb"),
        "create table in missing database": lambda c: c.create_table("nodb.t", schema, False),
        "alter missing table": lambda c: c.alter_table("d.nope", [sc.set_option("k", "v")]),
        "rename onto existing column": lambda c: c.alter_table("d.t", [sc.rename_column("x",
                                                                                        "y")]),
        "add existing column": lambda c: c.alter_table("d.t", [sc.add_column("x", at("INT"))]),
        "drop missing column": lambda c: c.alter_table("d.t", [sc.drop_column("zz")]),
    }


def raised(lib, tmp_path):
    cat = lib.CatalogFactory.create({"warehouse": str(tmp_path / lib.__name__)})
    cat.create_database("d", False)
    cat.create_table("d.t", lib.Schema.from_pyarrow_schema(SCHEMA), False)
    out = {}
    for name, f in scenarios(lib).items():
        with pytest.raises(Exception) as e:
            f(cat)
        out[name] = e.value
    return out


def test_same_exception_classes_as_pypaimon(tmp_path):
    ours, theirs = raised(cpaimon, tmp_path), raised(pypaimon, tmp_path)
    assert {k: type(v).__name__ for k, v in ours.items()} == \
        {k: type(v).__name__ for k, v in theirs.items()}
    from cpaimon.catalog import catalog_exception as ce
    assert isinstance(ours["get missing table"], ce.TableNotExistException)
    assert isinstance(ours["get missing table"], ce.CatalogException)
    assert isinstance(ours["get missing table"], FileNotFoundError)  # as before
    assert isinstance(ours["create existing table"], FileExistsError)
    assert ours["get missing table"].identifier == "d.nope"
    assert ours["drop missing database"].database == "nodb"
    assert str(ours["rename onto existing column"]).startswith("Failed to alter table d.t: "
                                                               "Column y already exists")


@pytest.mark.parametrize("path, name", [
    ("catalog.catalog_exception", "TableNotExistException"),
    ("catalog.rest.property_change", "PropertyChange"),
    ("common.predicate_builder", "PredicateBuilder"),
    ("schema.data_types", "PyarrowFieldParser"),
    ("schema.data_types", "DataTypeParser"),
    ("schema.schema_change", "SchemaChange"),
    ("schema.schema_change", "Move"),
    ("schema.schema", "Schema"),
    ("catalog.database", "Database"),
    ("api.api_response", "Partition"),
    ("api.api_response", "PagedList"),
])
def test_pypaimon_module_paths(path, name):
    assert hasattr(importlib.import_module(f"pypaimon.{path}"), name)
    assert hasattr(importlib.import_module(f"cpaimon.{path}"), name)
