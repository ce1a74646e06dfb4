"""What CREATE refuses, as Java Paimon does (issue 14, items 8 and 9). The expected messages are
Java's, from apache/paimon: CatalogUtils.checkNotSystemTable / checkNotBranch /
checkNotSystemDatabase (Catalog.ProcessSystemDatabaseException), Identifier.splitObjectName, and
SchemaValidation.validateOnlyContainPrimitiveType with PRIMARY_KEY_UNSUPPORTED_LOGICAL_TYPES.
Each refusal leaves the warehouse as it was."""
import pytest

import cpaimon
from cpaimon import Schema
from cpaimon.schema.data_types import AtomicType, DataField, MapType


def sql(run_cli, wh, text):
    return run_cli("sql", "--warehouse", wh, "-e", text)


@pytest.mark.parametrize("name, message", [
    ("t$snapshots",
     "Cannot 'createTable' for system table 'default.t$snapshots', please use data table."),
    ("t$files", "Cannot 'createTable' for system table 'default.t$files', please use data table."),
    ("t$", "Cannot 'createTable' for system table 'default.t$', please use data table."),
    ("t$branch_dev", "Cannot 'createTable' for branch table 'default.t$branch_dev', please "
                     "modify the table with the default branch."),
    ("t$a$b", "System table can only contain one '$' separator, but this is: t$a$b"),
    ("a$b$c$d", "Invalid object name: a$b$c$d"),
])
def test_create_table_refuses_names_paimon_reads_as_system_or_branch_tables(
        run_cli, tmp_path, name, message):
    wh = tmp_path / "wh"
    assert sql(run_cli, wh, "CREATE TABLE t (a INT)").returncode == 0
    p = sql(run_cli, wh, f"CREATE TABLE `{name}` (a INT)")
    assert p.returncode == 1
    assert message in p.stderr
    assert sorted(x.name for x in (wh / "default.db").iterdir()) == ["t"]
    # t's own system table still answers.
    p = run_cli("cat", wh, "default.t$snapshots", "--format", "csv")
    assert p.returncode == 0, p.stderr


def test_system_database_and_dotted_database_names(run_cli, tmp_path):
    wh = tmp_path / "wh"
    p = sql(run_cli, wh, "CREATE DATABASE sys")
    assert p.returncode == 1 and "Can't do operation on system database." in p.stderr
    p = sql(run_cli, wh, "CREATE TABLE sys.t (a INT)")
    assert p.returncode == 1
    assert "Cannot 'createTable' for system table 'sys.t', please use data table." in p.stderr
    # A '.' in a database name: every textual name is '<database>.<table>' split at the first '.'
    # (Java Identifier.fromString, pypaimon Identifier.from_string), so x.db.t names table db.t
    # of database x, and the tables of a database `x.db` could never be named.
    p = sql(run_cli, wh, "CREATE DATABASE `x.db`")
    assert p.returncode == 1
    assert "Database name 'x.db' contains '.'" in p.stderr
    assert not (wh / "x.db.db").exists()
    catalog = cpaimon.CatalogFactory.create({"warehouse": str(tmp_path / "py")})
    with pytest.raises(ValueError, match="contains '.'"):
        catalog.create_database("a.b", False)


def test_table_name_with_a_dot_is_addressable(run_cli, tmp_path):
    # A '.' in a table name is fine: the first '.' of default.a.b separates the database.
    wh = tmp_path / "wh"
    p = sql(run_cli, wh, "CREATE TABLE `a.b` (x INT); INSERT INTO `a.b` VALUES (7);")
    assert p.returncode == 0, p.stderr
    p = run_cli("cat", wh, "default.a.b", "--format", "csv")
    assert p.returncode == 0 and p.stdout.split() == ["x", "7"]


@pytest.mark.parametrize("type_sql, java", [
    ("MAP<STRING, INT>", "MapType"),
    ("ARRAY<INT>", "ArrayType"),
    ("STRUCT<x: INT>", "RowType"),
])
def test_non_scalar_partition_columns_are_refused_at_create(run_cli, tmp_path, type_sql, java):
    wh = tmp_path / "wh"
    p = sql(run_cli, wh, f"CREATE TABLE t (a INT, m {type_sql}) PARTITIONED BY (m)")
    assert p.returncode == 1
    assert f"The type {java} in partition field m is unsupported" in p.stderr
    assert not (wh / "default.db" / "t").exists()


def test_python_map_partition_column_is_refused(tmp_path):
    catalog = cpaimon.CatalogFactory.create({"warehouse": str(tmp_path)})
    catalog.create_database("db", False)
    schema = Schema(fields=[DataField(0, "a", AtomicType("INT")),
                            DataField(1, "m", MapType(True, AtomicType("STRING"),
                                                      AtomicType("INT")))],
                    partition_keys=["m"])
    with pytest.raises(Exception, match="The type MapType in partition field m is unsupported"):
        catalog.create_table("db.t", schema, False)
    assert not (tmp_path / "db.db" / "t").exists()
