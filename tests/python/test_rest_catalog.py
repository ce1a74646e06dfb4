"""cpaimon's REST catalog client (issue 13) against the reference server: Java Paimon 1.4.2's own
RESTCatalogServer (tests/python/rest_support.py), with bearer and with DLF authentication.

- The seed's whole Python walkthrough with `metastore: rest` and the seed's option names, run by
  cpaimon; pypaimon 2.1 and Java's RESTCatalog then read identical rows, _ROW_ID and
  _SEQUENCE_NUMBER.
- Three clients on one server: each of cpaimon, pypaimon and Java writes or updates, and the
  other two read the same.
- The SQL shell and the CLI over REST; schema changes; drop and list.
- Failures: a wrong token or signature (401), unknown databases and tables (Paimon's messages), a
  server that is down, a commit the server rejects (no snapshot, written files cleaned up).
- 4 processes committing to one table through the server at once.
"""
import subprocess

import pyarrow as pa
import pypaimon
import pytest

import cpaimon
import rest_support
from rest_support import HIDDEN, JavaRestClient, seed_walkthrough

SEED_END = [  # the walkthrough's last frame, with the hidden columns (as pypaimon leaves it)
    (1, "Alice", 35, 0), (2, "Bob", 26, 1), (3, "Charlie", 28, 2)]


def rows(table, lib_table_fields=None):
    names = list(table.field_names) if hasattr(table, "field_names") else [
        f.name for f in table.fields]
    rb = table.new_read_builder().with_projection(names + HIDDEN)
    return rb.new_read().to_arrow(rb.new_scan().plan().splits()).sort_by("_ROW_ID").to_pylist()


def same_everywhere(server, tmp_path, ident):
    """cpaimon, pypaimon and Java read the same rows, row ids and sequence numbers."""
    opts = server.options()
    ours = rows(cpaimon.CatalogFactory.create(opts).get_table(ident))
    theirs = rows(pypaimon.CatalogFactory.create(opts).get_table(ident))
    assert ours == theirs
    with JavaRestClient(server, tmp_path / "java") as java:
        jrows = java.read(ident, row_tracking=True)
    key = [k for k in ours[0] if k not in ("embedding",)] if ours else []
    assert sorted(tuple(r[k] for k in key) for r in jrows) == \
        sorted(tuple(r[k] for k in key) for r in ours)
    return ours


@pytest.mark.parametrize("auth", ["bear", "dlf"])
def test_seed_walkthrough_on_rest(rest_server_factory, tmp_path, auth):
    server = rest_server_factory(auth=auth)
    final = seed_walkthrough(server.options(), lib="cpaimon")
    got = [(r["id"], r["name"], r["age"], r["_ROW_ID"]) for r in final.to_pylist()]
    assert got == SEED_END
    ours = same_everywhere(server, tmp_path, "my_db.target_table")
    assert [r["embedding"] is not None for r in ours] == [True, True, True]
    # the server published every snapshot; cpaimon wrote neither snapshot files nor hints
    snap_dir = server.table_path("my_db", "target_table") / "snapshot"
    assert sorted(p.name for p in snap_dir.glob("snapshot-*")) == [
        f"snapshot-{i}" for i in range(1, 5)]


def test_pypaimon_walkthrough_read_by_cpaimon_and_java(rest_server_factory, tmp_path):
    """The other way round: pypaimon runs the seed's walkthrough (append, update by row id,
    upsert, add column, shard backfill) on the server; cpaimon and Java read the same."""
    server = rest_server_factory()
    final = seed_walkthrough(server.options(), lib="pypaimon")
    ours = same_everywhere(server, tmp_path, "my_db.target_table")
    assert [(r["id"], r["_ROW_ID"], r["_SEQUENCE_NUMBER"]) for r in ours] == [
        (r["id"], r["_ROW_ID"], r["_SEQUENCE_NUMBER"]) for r in final.to_pylist()]
    assert [r["embedding"] for r in ours] == [list(e) for e in final["embedding"].to_pylist()]


def test_dlf_openapi_signer(rest_server_factory):
    server = rest_server_factory(auth="dlf", security_token="sts-token-1")
    cat = cpaimon.CatalogFactory.create(server.options(**{"dlf.signing-algorithm": "openapi"}))
    cat.create_database("d", False)
    assert cat.list_databases() == ["d"]


def test_three_clients_one_server(rest_server_factory, tmp_path):
    server = rest_server_factory()
    opts = server.options()
    schema = pa.schema([("id", pa.int32()), ("v", pa.string())])
    de = {"row-tracking.enabled": "true", "data-evolution.enabled": "true"}
    cp = cpaimon.CatalogFactory.create(opts)
    cp.create_database("db", True)
    cp.create_table("db.t", cpaimon.Schema.from_pyarrow_schema(schema, options=de), False)

    def write(lib, ids):
        t = lib.CatalogFactory.create(opts).get_table("db.t")
        wb = t.new_batch_write_builder()
        w, c = wb.new_write(), wb.new_commit()
        w.write_arrow(pa.table({"id": pa.array(ids, pa.int32()), "v": [f"v{i}" for i in ids]}))
        c.commit(w.prepare_commit())

    write(cpaimon, [1, 2])
    write(pypaimon, [3])
    with JavaRestClient(server, tmp_path / "java") as java:
        java.write("db.t", [{"id": 4, "v": "v4"}])
        java.update("db.t", [{"_ROW_ID": 2, "v": "java"}], columns=["v"])
    t = cpaimon.CatalogFactory.create(opts).get_table("db.t")
    wb = t.new_batch_write_builder()
    msgs = wb.new_update().with_update_type(["v"]).update_by_arrow_with_row_id(
        pa.table({"_ROW_ID": pa.array([0], pa.int64()), "v": ["cp"]}))
    wb.new_commit().commit(msgs)
    pt = pypaimon.CatalogFactory.create(opts).get_table("db.t")
    pwb = pt.new_batch_write_builder()
    pwb.new_commit().commit(pwb.new_update().upsert_by_arrow_with_key(
        pa.table({"id": pa.array([2], pa.int32()), "v": ["py"]}), upsert_keys=["id"]))
    got = same_everywhere(server, tmp_path, "db.t")
    assert [(r["id"], r["v"], r["_ROW_ID"]) for r in got] == [
        (1, "cp", 0), (2, "py", 1), (3, "java", 2), (4, "v4", 3)]


def test_sql_and_cli_on_rest(rest_server_factory, run_cli, tmp_path):
    server = rest_server_factory()
    args = server.java_catalog_args()
    r = run_cli("sql", "--warehouse", server.warehouse, *args, "--format", "csv", "-e", """
        CREATE DATABASE my_db;
        CREATE TABLE my_db.target_table (id INT NOT NULL, name STRING, age INT) TBLPROPERTIES (
          'row-tracking.enabled' = 'true', 'data-evolution.enabled' = 'true');
        INSERT INTO my_db.target_table VALUES (1, 'Alice', 30), (2, 'Bob', 25);
        CREATE TABLE my_db.source_table (id INT NOT NULL, age INT);
        INSERT INTO my_db.source_table VALUES (1, 31), (2, 26), (3, 28);
        MERGE INTO my_db.target_table AS t USING my_db.source_table AS s ON t.id = s.id
          WHEN MATCHED THEN UPDATE SET t.age = s.age
          WHEN NOT MATCHED THEN INSERT (id, name, age) VALUES (s.id, '', s.age);
        SELECT * FROM my_db.target_table ORDER BY id;
        SHOW TABLES IN my_db;
        ALTER TABLE my_db.target_table ADD COLUMNS (note STRING);
        SELECT snapshot_id, commit_kind FROM my_db.`target_table$snapshots`;""")
    assert r.returncode == 0, r.stderr
    assert 'id,name,age\n1,Alice,31\n2,Bob,26\n3,"",28\n' in r.stdout  # the seed's SQL frame
    assert "my_db,source_table,false" in r.stdout and "1,APPEND\n2,APPEND\n" in r.stdout
    pt = pypaimon.CatalogFactory.create(server.options()).get_table("my_db.target_table")
    assert [f.name for f in pt.fields] == ["id", "name", "age", "note"]
    r = run_cli("cat", server.warehouse, "my_db.target_table", *args, "--format", "csv",
                "--with-row-tracking", "--columns", "id,age")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[1:] == ["1,31,0,2", "2,26,1,2", "3,28,2,2"]
    r = run_cli("check", server.warehouse, "my_db.target_table", *args)
    assert r.returncode == 0 and "0 violation(s)" in r.stdout, r.stdout + r.stderr
    r = run_cli("table", "info", server.warehouse, "my_db.target_table", *args)
    assert r.returncode == 0 and str(server.table_path("my_db", "target_table")) in r.stdout
    r = run_cli("sql", "--warehouse", server.warehouse, *args, "-e", """
        CREATE TABLE my_db.rt (id INT, v STRING) TBLPROPERTIES ('row-tracking.enabled' = 'true');
        INSERT INTO my_db.rt VALUES (1, 'a'), (2, 'b'), (3, 'c');
        DELETE FROM my_db.rt WHERE id = 2;
        UPDATE my_db.rt SET v = 'z' WHERE id = 3;""")
    assert r.returncode == 0, r.stderr
    got = rows(cpaimon.CatalogFactory.create(server.options()).get_table("my_db.rt"))
    assert [(r["id"], r["v"], r["_ROW_ID"]) for r in got] == [(1, "a", 0), (3, "z", 2)]
    with JavaRestClient(server, tmp_path / "java") as java:
        assert sorted(java.read("my_db.rt", row_tracking=True), key=lambda r: r["id"]) == got
    # Expected difference (as in test_delete_java.py): copy-on-write moves rows with their
    # _ROW_ID / _SEQUENCE_NUMBER stored in the file; Java reads them, pypaimon 2.1 ignores those
    # columns and returns NULL. It reads the same visible rows.
    pt = pypaimon.CatalogFactory.create(server.options()).get_table("my_db.rt")
    rb = pt.new_read_builder()
    assert sorted(rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist(),
                  key=lambda r: r["id"]) == [{"id": 1, "v": "a"}, {"id": 3, "v": "z"}]


def test_compaction_through_the_server(rest_server_factory, run_cli, tmp_path):
    """Compaction commits through the server like any commit (a COMPACT snapshot the server
    publishes), for a data-evolution table and for an append table with row tracking; cpaimon,
    pypaimon and Java read the same rows, row ids and sequence numbers afterwards (pypaimon's
    NULL physical row ids aside, as in test_compact_append.py)."""
    server = rest_server_factory()
    args = server.java_catalog_args()
    de = "'row-tracking.enabled' = 'true', 'data-evolution.enabled' = 'true'"
    statements = ["CREATE DATABASE db",
                  f"CREATE TABLE db.de (id INT, v STRING, n INT) TBLPROPERTIES ({de})",
                  "CREATE TABLE db.ap (id INT, v STRING) TBLPROPERTIES ("
                  "'row-tracking.enabled' = 'true')"]
    for i in range(3):
        statements += [f"INSERT INTO db.de VALUES ({2 * i}, 'a', {i}), ({2 * i + 1}, 'b', {i})",
                       f"INSERT INTO db.ap VALUES ({2 * i}, 'a'), ({2 * i + 1}, 'b')"]
    statements += ["UPDATE db.de SET n = 10 WHERE id > 2", "DELETE FROM db.ap WHERE id = 1"]
    r = run_cli("sql", "--warehouse", server.warehouse, *args, "-e", ";".join(statements))
    assert r.returncode == 0, r.stderr
    before = {t: rows(cpaimon.CatalogFactory.create(server.options()).get_table(f"db.{t}"))
              for t in ("de", "ap")}
    r = run_cli("sql", "--warehouse", server.warehouse, *args, "--format", "csv", "-e",
                "CALL sys.compact(table => 'db.de', options => 'compaction.min.file-num=2');"
                "CALL sys.compact(table => 'db.ap', options => 'compaction.min.file-num=2');"
                "SELECT commit_kind FROM db.`de$snapshots`;"
                "SELECT file_source FROM db.`ap$files`")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-2:] == ["file_source", "COMPACT"] and "\nCOMPACT\n" in r.stdout
    de_rows = same_everywhere(server, tmp_path, "db.de")
    assert [{k: v for k, v in x.items() if k != "_SEQUENCE_NUMBER"} for x in de_rows] == \
        [{k: v for k, v in x.items() if k != "_SEQUENCE_NUMBER"} for x in before["de"]]
    ap = rows(cpaimon.CatalogFactory.create(server.options()).get_table("db.ap"))
    assert ap == before["ap"]
    with JavaRestClient(server, tmp_path / "java-ap") as java:
        assert sorted(java.read("db.ap", row_tracking=True), key=lambda x: x["_ROW_ID"]) == ap
    snap_dir = server.table_path("db", "de") / "snapshot"
    assert len(list(snap_dir.glob("snapshot-*"))) == 5  # 3 appends, the update, the compaction


def test_catalog_operations(rest_server):
    cat = cpaimon.CatalogFactory.create(rest_server.options())
    cat.create_database("ops_a", True)
    with pytest.raises(Exception, match="Database ops_a already exists"):
        cat.create_database("ops_a", False)
    schema = cpaimon.Schema.from_pyarrow_schema(pa.schema([("x", pa.int32())]))
    cat.create_table("ops_a.t1", schema, False)
    cat.create_table("ops_a.t1", schema, True)
    with pytest.raises(Exception, match="Table ops_a.t1 already exists"):
        cat.create_table("ops_a.t1", schema, False)
    cat.create_table("ops_a.t2", schema, False)
    assert cat.list_tables("ops_a") == ["t1", "t2"]
    with pytest.raises(Exception, match="Database ops_a is not empty"):
        cat.drop_database("ops_a")
    cat.drop_table("ops_a.t2")
    assert cat.list_tables("ops_a") == ["t1"]
    with pytest.raises(Exception, match="Table ops_a.t2 does not exist"):
        cat.get_table("ops_a.t2")
    with pytest.raises(Exception, match="Database nope does not exist"):
        cat.list_tables("nope")
    cat.drop_database("ops_a", cascade=True)
    assert "ops_a" not in cat.list_databases()


def test_database_properties(rest_server, rest_db, tmp_path):
    """Databases keep their properties on the server: create with properties, get (with Java's
    location and audit fields, exactly as pypaimon shows them), alter (set and remove in one
    request; pypaimon's PropertyChange objects work). A file-system catalog keeps none and
    refuses location and alter, with Java's messages."""
    from pypaimon.catalog.rest.property_change import PropertyChange as PyChange
    from cpaimon.catalog import PropertyChange
    cat = cpaimon.CatalogFactory.create(rest_server.options())
    py = pypaimon.CatalogFactory.create(rest_server.options())
    cat.create_database(rest_db, False, {"k1": "v1", "k2": "v2", "comment": "c"})
    db = cat.get_database(rest_db)
    assert db.name == rest_db and db.comment == "c"
    assert {k: db.options[k] for k in ("k1", "k2")} == {"k1": "v1", "k2": "v2"}
    assert {"location", "owner", "createdAt", "createdBy", "updatedAt", "updatedBy"} <= set(
        db.options)
    assert db.options == py.get_database(rest_db).options
    cat.alter_database(rest_db, [PropertyChange.set_property("k1", "new"),
                                 PropertyChange.remove_property("k2"),
                                 PyChange.set_property("k3", "v3")])
    opts = py.get_database(rest_db).options
    assert opts["k1"] == "new" and "k2" not in opts and opts["k3"] == "v3"
    assert cat.get_database(rest_db).options == opts
    with pytest.raises(FileNotFoundError, match="Database nope_db does not exist"):
        cat.get_database("nope_db")
    with pytest.raises(FileNotFoundError, match="Database nope_db does not exist"):
        cat.alter_database("nope_db", [PropertyChange.set_property("a", "b")])
    cat.alter_database("nope_db", [PropertyChange.set_property("a", "b")],
                       ignore_if_not_exists=True)

    fs = cpaimon.CatalogFactory.create({"warehouse": str(tmp_path / "wh")})
    with pytest.raises(ValueError, match="Cannot specify location for a database when using "
                                         "fileSystem catalog."):
        fs.create_database("d", False, {"location": "/elsewhere"})
    assert fs.list_databases() == []
    fs.create_database("d", False, {"k": "v"})  # discarded, as Java does
    assert fs.get_database("d").options == {}
    with pytest.raises(NotImplementedError, match="Alter database is not supported."):
        fs.alter_database("d", [PropertyChange.set_property("k", "v")])


def test_database_properties_in_sql(rest_server, rest_db, run_cli):
    r = run_cli("sql", "--warehouse", rest_server.warehouse, *rest_server.java_catalog_args(),
                "-e", f"""CREATE DATABASE {rest_db} COMMENT 'c' WITH DBPROPERTIES ('a' = '1');
                ALTER DATABASE {rest_db} SET DBPROPERTIES ('b' = '2', 'a' = '3');
                CREATE TABLE {rest_db}.t (x INT);
                ALTER TABLE {rest_db}.t RENAME TO u;
                SHOW TABLES IN {rest_db}""")
    assert r.returncode == 0, r.stderr
    opts = pypaimon.CatalogFactory.create(rest_server.options()).get_database(rest_db).options
    assert (opts["comment"], opts["a"], opts["b"]) == ("c", "3", "2")
    assert pypaimon.CatalogFactory.create(rest_server.options()).list_tables(rest_db) == ["u"]


def test_rename_table(rest_server, rest_db):
    """POST tables/rename, with Paimon's messages for what the server refuses. Expected
    difference, the reference server's: RESTCatalogServer.renameTableHandle (1.4.2) moves the
    table's directory but keeps serving the old path for the new name, so the renamed table
    cannot be read there: cpaimon says its files are missing, pypaimon reads it as empty. Real
    servers keep a table's location when it is renamed."""
    cat = cpaimon.CatalogFactory.create(rest_server.options())
    cat.create_database(rest_db, True)
    schema = cpaimon.Schema.from_pyarrow_schema(pa.schema([("x", pa.int32())]))
    cat.create_table(f"{rest_db}.t", schema, False)
    cat.create_table(f"{rest_db}.taken", schema, False)
    cat.rename_table(f"{rest_db}.t", f"{rest_db}.u")
    assert cat.list_tables(rest_db) == ["taken", "u"]
    with pytest.raises(FileNotFoundError, match=f"Table {rest_db}.t does not exist"):
        cat.get_table(f"{rest_db}.t")
    with pytest.raises(FileExistsError, match=f"Table {rest_db}.taken already exists"):
        cat.rename_table(f"{rest_db}.u", f"{rest_db}.taken")
    with pytest.raises(FileNotFoundError, match=f"Table {rest_db}.nope does not exist"):
        cat.rename_table(f"{rest_db}.nope", f"{rest_db}.x")
    cat.rename_table(f"{rest_db}.nope", f"{rest_db}.x", ignore_if_not_exists=True)
    assert cat.list_tables(rest_db) == ["taken", "u"]
    assert (rest_server.table_path(rest_db, "u") / "schema" / "schema-0").exists()
    with pytest.raises(FileNotFoundError, match=r"schema 0 of table .*/t does not exist"):
        cat.get_table(f"{rest_db}.u")


def test_partitions_listed(rest_server_factory):
    """GET .../partitions: for a `metastore.partitioned-table` table the server keeps partitions
    from the statistics of each commit (cpaimon's here, appends and an update by row id) and they
    must equal what the files hold ($partitions); for other tables it answers 501 and the client
    sums the files itself, as Java and pypaimon do. pypaimon reads the same either way."""
    server = rest_server_factory(log=True)
    rest_db = "db"
    opts = server.options()
    cat = cpaimon.CatalogFactory.create(opts)
    cat.create_database(rest_db, True)
    schema = pa.schema([("id", pa.int32()), ("dt", pa.string())])
    de = {"row-tracking.enabled": "true", "data-evolution.enabled": "true"}
    for name, extra in [("tracked", {"metastore.partitioned-table": "true"}), ("plain", {})]:
        ident = f"{rest_db}.{name}"
        cat.create_table(ident, cpaimon.Schema.from_pyarrow_schema(
            schema, partition_keys=["dt"], options=dict(de, **extra)), False)
        t = cat.get_table(ident)
        for ids, dt in [([1, 2], "a"), ([3], "b"), ([4, 5, 6], "a")]:
            wb = t.new_batch_write_builder()
            w = wb.new_write()
            w.write_arrow(pa.table({"id": pa.array(ids, pa.int32()), "dt": [dt] * len(ids)}))
            wb.new_commit().commit(w.prepare_commit())
        wb = t.new_batch_write_builder()
        wb.new_commit().commit(wb.new_update().with_update_type(["id"]).update_by_arrow_with_row_id(
            pa.table({"_ROW_ID": pa.array([0, 2], pa.int64()), "id": pa.array([10, 30], pa.int32())})))
        ours = sorted((p.spec["dt"], p.record_count, p.file_size_in_bytes, p.file_count)
                      for p in cat.list_partitions(ident))
        rb = cat.get_table(f"{ident}$partitions").new_read_builder()
        files = sorted((r["partition"][3:], r["record_count"], r["file_size_in_bytes"],
                        r["file_count"])
                       for r in rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist())
        assert ours == files and [p[0] for p in ours] == ["a", "b"], name
        py = pypaimon.CatalogFactory.create(opts).list_partitions_paged(ident).elements
        assert sorted((p.spec["dt"], p.record_count, p.file_size_in_bytes, p.file_count)
                      for p in py) == ours, name
    served = {w["path"].split("/")[-2]: w["status"] for w in server.wire()
              if w["method"] == "GET" and w["path"].endswith("/partitions")}
    assert served == {"tracked": 200, "plain": 501}
    with pytest.raises(FileNotFoundError, match=f"Table {rest_db}.nope does not exist"):
        cat.list_partitions(f"{rest_db}.nope")


def test_listings_follow_every_page(rest_server_factory):
    """The reference server answers 100 names (and 100 partitions) a page with a nextPageToken;
    cpaimon follows every page for databases, tables and partitions."""
    server = rest_server_factory(log=True)
    opts = server.options()
    cat = cpaimon.CatalogFactory.create(opts)
    dbs = [f"d{i:03d}" for i in range(103)]
    for d in dbs:
        cat.create_database(d, False)
    schema = cpaimon.Schema.from_pyarrow_schema(pa.schema([("x", pa.int32())]))
    tables = [f"t{i:03d}" for i in range(205)]
    for t in tables:
        cat.create_table(f"d000.{t}", schema, False)

    def pages(suffix):
        return [w for w in server.wire() if w["method"] == "GET"
                and w["path"].split("?")[0].endswith(suffix)]
    assert cat.list_databases() == dbs
    assert cat.list_tables("d000") == tables
    assert len(pages("/databases")) == 2 and len(pages("/databases/d000/tables")) == 3
    assert pypaimon.CatalogFactory.create(opts).list_tables("d000") == tables
    cat.create_table("d001.p", cpaimon.Schema.from_pyarrow_schema(
        pa.schema([("x", pa.int32()), ("k", pa.int32())]), partition_keys=["k"],
        options={"metastore.partitioned-table": "true"}), False)
    t = cat.get_table("d001.p")
    wb = t.new_batch_write_builder()
    w = wb.new_write()
    w.write_arrow(pa.table({"x": pa.array(range(130), pa.int32()),
                            "k": pa.array(range(130), pa.int32())}))
    wb.new_commit().commit(w.prepare_commit())
    assert sorted(int(p.spec["k"]) for p in cat.list_partitions("d001.p")) == list(range(130))
    assert len(pages("/tables/p/partitions")) == 2


def test_column_type_position_nullability_through_the_server(rest_server, rest_db):
    """update_column_type / _position / _nullability go to the server as pypaimon sends them
    (updateColumnType with keepNullability, updateColumnPosition with its move,
    updateColumnNullability); the schema it writes is the one pypaimon reads."""
    from cpaimon.schema.data_types import AtomicType
    from cpaimon.schema.schema_change import Move, SchemaChange
    cat = cpaimon.CatalogFactory.create(rest_server.options())
    cat.create_database(rest_db, True)
    cat.create_table(f"{rest_db}.t", cpaimon.Schema.from_pyarrow_schema(pa.schema([
        ("a", pa.int32()), ("b", pa.float32()), pa.field("c", pa.string(), nullable=False)])),
        False)
    cat.alter_table(f"{rest_db}.t", [SchemaChange.update_column_type("a", AtomicType("BIGINT")),
                                    SchemaChange.update_column_position(Move.after("a", "c")),
                                    SchemaChange.update_column_nullability("c", True)])
    t = pypaimon.CatalogFactory.create(rest_server.options()).get_table(f"{rest_db}.t")
    assert [(f.name, str(f.type)) for f in t.fields] == [
        ("b", "FLOAT"), ("c", "STRING"), ("a", "BIGINT")]


def test_schema_change_rejected_with_paimon_message(rest_server):
    cat = cpaimon.CatalogFactory.create(rest_server.options())
    cat.create_database("sc", True)
    cat.create_table("sc.t", cpaimon.Schema.from_pyarrow_schema(
        pa.schema([("x", pa.int32())]), options={"row-tracking.enabled": "true"}), False)
    t = cat.get_table("sc.t")
    wb = t.new_batch_write_builder()
    w = wb.new_write()
    w.write_arrow(pa.table({"x": pa.array([1], pa.int32())}))
    wb.new_commit().commit(w.prepare_commit())
    from cpaimon.schema.schema_change import SchemaChange
    with pytest.raises(Exception) as e:  # refused here, before the server sees it
        cat.alter_table("sc.t", [SchemaChange.set_option("row-tracking.enabled", "false")])
    assert "row-tracking.enabled" in str(e.value)
    assert cat.get_table("sc.t").options["row-tracking.enabled"] == "true"


def test_wrong_credentials(rest_server_factory):
    server = rest_server_factory()
    with pytest.raises(Exception) as e:
        cpaimon.CatalogFactory.create(server.options(token="not-the-token-xyz"))
    msg = str(e.value)
    assert "HTTP 401" in msg and "not authorized" in msg and server.uri in msg
    assert "not-the-token-xyz" not in msg and rest_support.TOKEN not in msg
    dlf = rest_server_factory(auth="dlf", name="dlf")
    with pytest.raises(Exception) as e:
        cpaimon.CatalogFactory.create(dlf.options(**{"dlf.access-key-secret": "wrong-secret-1"}))
    assert "HTTP 401" in str(e.value) and "wrong-secret-1" not in str(e.value)
    with pytest.raises(Exception, match="token.provider"):
        cpaimon.CatalogFactory.create({"metastore": "rest", "uri": server.uri,
                                       "warehouse": server.warehouse})


def test_server_down(rest_server_factory):
    server = rest_server_factory()
    uri = server.uri
    server.stop()
    with pytest.raises(Exception) as e:
        cpaimon.CatalogFactory.create(server.options())
    assert uri in str(e.value) and "REST catalog" in str(e.value)


def test_rejected_commit_leaves_no_snapshot(rest_server_factory):
    """The table is dropped and created again under the handle's feet: the server refuses the
    commit (another table id), nothing is published, and abort removes the written files."""
    server = rest_server_factory()
    opts = server.options()
    cat = cpaimon.CatalogFactory.create(opts)
    cat.create_database("db", True)
    schema = cpaimon.Schema.from_pyarrow_schema(pa.schema([("x", pa.int32())]),
                                                options={"row-tracking.enabled": "true"})
    cat.create_table("db.t", schema, False)
    t = cat.get_table("db.t")
    wb = t.new_batch_write_builder()
    w, c = wb.new_write(), wb.new_commit()
    w.write_arrow(pa.table({"x": pa.array([1], pa.int32())}))
    msgs = w.prepare_commit()
    cat.drop_table("db.t")
    cat.create_table("db.t", schema, False)
    with pytest.raises(Exception) as e:
        c.commit(msgs)
    assert "db.t" in str(e.value)
    c.abort(msgs)
    table_dir = server.table_path("db", "t")
    assert not list(table_dir.glob("snapshot/snapshot-*"))
    assert not list(table_dir.rglob("*.parquet")) and not list(table_dir.glob("manifest/*"))
    fresh = cpaimon.CatalogFactory.create(opts).get_table("db.t")
    assert fresh.latest_snapshot_id() == 0


def test_concurrent_commits_through_rest(rest_server_factory, run_cli):
    """4 processes commit appends, updates and deletes through the server at once: the server
    refuses all but one commit per snapshot id and the losers retry, so no acknowledged commit is
    lost or doubled and row ids stay unique."""
    from test_concurrency import make_table, run_writers, verify
    server = rest_server_factory()
    opts = {k: v for k, v in server.options().items() if k != "warehouse"}
    options = {"row-tracking.enabled": "true", "deletion-vectors.enabled": "true"}
    seed = make_table(server.warehouse, options, opts)
    logs = run_writers(server.warehouse, 4, 8, opts)
    done, _ = verify(server.warehouse, seed, logs, run_cli, None, opts)
    assert {op for _, _, op, _ in done} == {"append", "update", "delete"}


def test_secrets_stay_out_of_show(rest_server, run_cli):
    r = run_cli("sql", "--warehouse", rest_server.warehouse, *rest_server.java_catalog_args(),
                "-e", "SHOW DATABASES")
    assert r.returncode == 0
    assert rest_support.TOKEN not in r.stdout + r.stderr
    assert subprocess.run(["true"]).returncode == 0


def test_data_tokens_fetched_and_renewed(rest_server_factory):
    """With data-token.enabled pushed by the server's configuration, the table's files are
    reached with the token it vends (GET .../token once per loaded table), and a token inside the
    renewal margin (here forced by a cpaimon.data-token.refresh-margin longer than its life) is
    fetched again before the next operation. The test server's token expires 4000 s ahead and its
    credentials are dummies a local path ignores."""
    server = rest_server_factory(log=True, defaults={"data-token.enabled": "true"})
    opts = server.options()
    cat = cpaimon.CatalogFactory.create(opts)
    cat.create_database("db", True)
    cat.create_table("db.t", cpaimon.Schema.from_pyarrow_schema(
        pa.schema([("x", pa.int32())]), options={"row-tracking.enabled": "true"}), False)

    def tokens():
        return sum(1 for w in server.wire() if w["path"].endswith("/db/tables/t/token"))

    def append(table, v):
        wb = table.new_batch_write_builder()
        w = wb.new_write()
        w.write_arrow(pa.table({"x": pa.array([v], pa.int32())}))
        wb.new_commit().commit(w.prepare_commit())

    t = cat.get_table("db.t")
    assert tokens() == 1
    append(t, 1)
    append(t, 2)
    assert tokens() == 1  # valid for more than the margin: not fetched again
    eager = cpaimon.CatalogFactory.create(dict(opts, **{
        "cpaimon.data-token.refresh-margin": "4100000"})).get_table("db.t")
    before = tokens()
    append(eager, 3)
    rb = eager.new_read_builder()
    assert sorted(rb.new_read().to_arrow(rb.new_scan().plan().splits())["x"].to_pylist()) == \
        [1, 2, 3]
    assert tokens() >= before + 2  # renewed before the commit and before the scan
    assert pypaimon.CatalogFactory.create(opts).get_table("db.t").new_read_builder() is not None
