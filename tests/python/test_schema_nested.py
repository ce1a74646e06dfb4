"""Nested schema evolution (issue 15 item 4): add / rename / drop / update type, nullability and
comment of fields inside ROW columns — directly, inside ARRAY<ROW> (path step "element") and
inside MAP values ("value") — by field id, as Java's SchemaManager (NestedColumnModifier) does.

The same changes applied by cpaimon and by pypaimon 2.1 to twin tables give the same schema
files; files written before the changes (by cpaimon, whose Parquet files carry nested field ids,
and by pypaimon, whose files carry none) read identically with cpaimon, pypaimon and Java 1.4.2:
a renamed field keeps its values, a dropped and re-added one (a new id) is NULL in old rows.

Named differences:
- JAVA_ADDS_NOTHING_UNDER_ATOMIC: Java (and pypaimon) accept ADD COLUMN id.q when id is INT,
  consume a field id and change nothing; cpaimon refuses it ("Column id.q does not exist").
- PYPAIMON_SHORT_MESSAGES: pypaimon words ColumnNotExist/AlreadyExist shorter than Java; cpaimon
  uses Java's "Column r.x does not exist in the db.t table."
- PYPAIMON_NULLABLE_KEY: pypaimon writes a "nullable": true key into nested type JSON; Java and
  cpaimon do not (compared without it).
"""
import json

import pyarrow as pa
import pypaimon
import pytest

import cpaimon
from test_java_interop import java  # noqa: F401  (Java Paimon 1.4.2, the session fixture)

SCHEMA = pa.schema([
    ("id", pa.int32()),
    ("r", pa.struct([("x", pa.int32()), ("y", pa.string())])),
    ("v", pa.list_(pa.struct([("a", pa.int32()), ("b", pa.int32())]))),
    ("m", pa.map_(pa.string(), pa.struct([("p", pa.int32())]))),
])
ROWS = {"id": [1, 2], "r": [{"x": 10, "y": "a"}, None], "v": [[{"a": 1, "b": 2}], []],
        "m": [[("k", {"p": 5})], None]}


def classes(lib):
    import importlib
    sc = importlib.import_module(f"{lib.__name__}.schema.schema_change")
    dt = importlib.import_module(f"{lib.__name__}.schema.data_types")
    return sc.SchemaChange, dt.AtomicType


def changes(lib):
    SC, T = classes(lib)
    return [SC.add_column(["r", "z"], T("STRING"), "zc"),
            SC.rename_column(["r", "x"], "x2"),
            SC.drop_column(["r", "y"]),
            SC.update_column_type(["v", "element", "a"], T("BIGINT")),
            SC.add_column(["v", "element", "c"], T("INT")),
            SC.rename_column(["m", "value", "p"], "q"),
            SC.update_column_comment(["r", "x2"], "hello"),
            SC.update_column_nullability(["v", "element", "b"], True),
            SC.update_column_type(["v", "element", "b"], T("BIGINT"))]


def write(lib, wh, ident, data, schema):
    t = lib.CatalogFactory.create({"warehouse": wh}).get_table(ident)
    wb = t.new_batch_write_builder()
    w = wb.new_write()
    w.write_arrow(pa.table(data, schema=schema))
    wb.new_commit().commit(w.prepare_commit())


def read(lib, wh, ident):
    t = lib.CatalogFactory.create({"warehouse": wh}).get_table(ident)
    rb = t.new_read_builder()
    return sorted(rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist(),
                  key=lambda r: r["id"])


def latest_schema(wh, name):
    import pathlib
    d = pathlib.Path(wh) / "db.db" / name / "schema"
    latest = max(int(p.name.split("-")[1]) for p in d.glob("schema-*"))
    return latest, json.loads((d / f"schema-{latest}").read_text())


def without_nullable_key(o):  # PYPAIMON_NULLABLE_KEY
    if isinstance(o, dict):
        return {k: without_nullable_key(v) for k, v in o.items() if k != "nullable"}
    if isinstance(o, list):
        return [without_nullable_key(v) for v in o]
    return o


@pytest.fixture
def twins(tmp_path):
    wh = str(tmp_path / "wh")
    for lib in (cpaimon, pypaimon):
        cat = lib.CatalogFactory.create({"warehouse": wh})
        cat.create_database("db", True)
        cat.create_table(f"db.{lib.__name__}", lib.Schema.from_pyarrow_schema(SCHEMA), False)
        write(lib, wh, f"db.{lib.__name__}", ROWS, SCHEMA)
    return wh


def test_nested_changes_as_pypaimon(twins):
    wh = twins
    for lib in (cpaimon, pypaimon):
        cat = lib.CatalogFactory.create({"warehouse": wh})
        for ch in changes(lib):
            cat.alter_table(f"db.{lib.__name__}", [ch], False)
    _, mine = latest_schema(wh, "cpaimon")
    _, theirs = latest_schema(wh, "pypaimon")
    assert without_nullable_key(mine["fields"]) == without_nullable_key(theirs["fields"])
    assert mine["highestFieldId"] == theirs["highestFieldId"] == 10
    r = next(f for f in mine["fields"] if f["name"] == "r")
    assert [(f["id"], f["name"], f.get("description")) for f in r["type"]["fields"]] == [
        (2, "x2", "hello"), (9, "z", "zc")]
    expected = [{"id": 1, "r": {"x2": 10, "z": None},
                 "v": [{"a": 1, "b": 2, "c": None}], "m": [("k", {"q": 5})]},
                {"id": 2, "r": None, "v": [], "m": None}]
    for name in ("cpaimon", "pypaimon"):
        for reader in (cpaimon, pypaimon):
            assert read(reader, wh, f"db.{name}") == expected, (name, reader.__name__)


def test_nested_errors_leave_the_schema(twins):
    wh = twins
    SC, T = classes(cpaimon)
    cat = cpaimon.CatalogFactory.create({"warehouse": wh})
    before = latest_schema(wh, "cpaimon")
    bad = [(SC.add_column(["r", "x"], T("INT")), "Column r.x already exists in the db.cpaimon table."),
           (SC.rename_column(["r", "x"], "y"), "Column r.y already exists in the db.cpaimon table."),
           (SC.rename_column(["r", "nope"], "n"), "Column r.nope does not exist in the db.cpaimon table."),
           (SC.drop_column(["nope", "q"]), "Column nope does not exist in the db.cpaimon table."),
           (SC.add_column(["v", "elem", "q"], T("INT")), "Column v.elem.q does not exist"),
           (SC.add_column(["m", "key", "q"], T("INT")), "Column m.key.q does not exist"),
           # JAVA_ADDS_NOTHING_UNDER_ATOMIC
           (SC.add_column(["id", "q"], T("INT")), "Column id.q does not exist in the db.cpaimon table."),
           (SC.drop_column(["m", "value", "p"]), "Cannot drop all fields in table"),
           (SC.add_column(["r", "w"], T("INT NOT NULL")), "Column r.w cannot specify NOT NULL"),
           (SC.rename_column(["v", "element"], "w"), "names the element or value"),
           (SC.update_column_type(["r", "y"], T("INT")), "cannot be converted"),
           (SC.update_column_nullability(["r", "x"], False), "from nullable to non nullable")]
    for ch, message in bad:
        with pytest.raises(Exception) as e:
            cat.alter_table("db.cpaimon", [ch], False)
        assert message in str(e.value), (ch, str(e.value))
    # one bad change among good ones: nothing of the statement is applied
    with pytest.raises(Exception):
        cat.alter_table("db.cpaimon", [SC.add_column(["r", "ok"], T("INT")),
                                       SC.drop_column(["r", "nope"])], False)
    assert latest_schema(wh, "cpaimon") == before
    # pypaimon refuses the same ones (in its words), except the ADD under an INT column
    pcat = pypaimon.CatalogFactory.create({"warehouse": wh})
    PSC, PT = classes(pypaimon)
    with pytest.raises(Exception, match="Column nope does not exist"):  # PYPAIMON_SHORT_MESSAGES
        pcat.alter_table("db.pypaimon", [PSC.rename_column(["r", "nope"], "n")], False)
    pcat.alter_table("db.pypaimon", [PSC.add_column(["id", "q"], PT("INT"))], False)
    _, theirs = latest_schema(wh, "pypaimon")
    assert theirs["fields"][0] == {"id": 0, "name": "id", "type": "INT"}  # nothing added


def test_array_element_type_itself(tmp_path):
    """A path that ends at an ARRAY's element ("v", "element") names the element type: its type
    and nullability change; older files are read through the widening."""
    wh = str(tmp_path / "wh")
    schema = pa.schema([("id", pa.int32()), ("v", pa.list_(pa.int32()))])
    for lib in (cpaimon, pypaimon):
        cat = lib.CatalogFactory.create({"warehouse": wh})
        cat.create_database("db", True)
        cat.create_table(f"db.{lib.__name__}", lib.Schema.from_pyarrow_schema(schema), False)
        write(lib, wh, f"db.{lib.__name__}", {"id": [1], "v": [[1, None, 3]]}, schema)
        SC, T = classes(lib)
        cat.alter_table(f"db.{lib.__name__}",
                        [SC.update_column_type(["v", "element"], T("BIGINT"))], False)
    _, mine = latest_schema(wh, "cpaimon")
    _, theirs = latest_schema(wh, "pypaimon")
    assert without_nullable_key(mine["fields"]) == without_nullable_key(theirs["fields"])
    assert mine["fields"][1]["type"] == {"type": "ARRAY", "element": "BIGINT"}
    t = cpaimon.CatalogFactory.create({"warehouse": wh}).get_table("db.cpaimon")
    rb = t.new_read_builder()
    got = rb.new_read().to_arrow(rb.new_scan().plan().splits())
    assert got.schema.field("v").type == pa.list_(pa.int64())
    assert got.to_pylist() == [{"id": 1, "v": [1, None, 3]}]


@pytest.mark.parametrize("writer", [cpaimon, pypaimon], ids=["cpaimon-files", "pypaimon-files"])
def test_old_files_read_by_field_id_everywhere(tmp_path, java, writer):  # noqa: F811
    """Rename r.x -> x2, drop r.y and add a new r.y: old rows keep x2's values and have NULL in
    the new y, for files with nested Parquet field ids (cpaimon's) and without (pypaimon's), read
    by cpaimon, pypaimon and Java."""
    wh = str(tmp_path / "wh")
    schema = pa.schema([("id", pa.int32()), ("r", pa.struct([("x", pa.int32()), ("y", pa.string())]))])
    cat = writer.CatalogFactory.create({"warehouse": wh})
    cat.create_database("db", True)
    cat.create_table("db.t", writer.Schema.from_pyarrow_schema(schema), False)
    write(writer, wh, "db.t", {"id": [1], "r": [{"x": 10, "y": "a"}]}, schema)
    SC, T = classes(cpaimon)
    cpaimon.CatalogFactory.create({"warehouse": wh}).alter_table(
        "db.t", [SC.rename_column(["r", "x"], "x2"), SC.drop_column(["r", "y"]),
                 SC.add_column(["r", "y"], T("STRING"))], False)
    s2 = pa.schema([("id", pa.int32()), ("r", pa.struct([("x2", pa.int32()), ("y", pa.string())]))])
    write(cpaimon, wh, "db.t", {"id": [2], "r": [{"x2": 20, "y": "new"}]}, s2)
    expected = [{"id": 1, "r": {"x2": 10, "y": None}}, {"id": 2, "r": {"x2": 20, "y": "new"}}]
    assert read(cpaimon, wh, "db.t") == expected
    assert read(pypaimon, wh, "db.t") == expected
    assert sorted(java.read(wh, "db.t"), key=lambda r: r["id"]) == expected


def test_nested_changes_through_the_rest_server(rest_server, rest_db):
    """Nested changes go to the REST server as fieldNames arrays (Java's RESTCatalogServer
    applies them with its SchemaManager): the schema it keeps is the one cpaimon applies."""
    SC, T = classes(cpaimon)
    cat = cpaimon.CatalogFactory.create(rest_server.options())
    cat.create_database(rest_db, True)
    cat.create_table(f"{rest_db}.n", cpaimon.Schema.from_pyarrow_schema(SCHEMA), False)
    cat.alter_table(f"{rest_db}.n", changes(cpaimon), False)
    t = pypaimon.CatalogFactory.create(rest_server.options()).get_table(f"{rest_db}.n")
    by_name = {f.name: f for f in t.fields}
    assert [(f.id, f.name) for f in by_name["r"].type.fields] == [(2, "x2"), (9, "z")]
    assert [(f.id, f.name, str(f.type)) for f in by_name["v"].type.element.fields] == [
        (5, "a", "BIGINT"), (6, "b", "BIGINT"), (10, "c", "INT")]
    with pytest.raises(Exception, match="r.nope"):
        cat.alter_table(f"{rest_db}.n", [SC.drop_column(["r", "nope"])], False)


# ---- nested projection: with_projection(['r.x']) ---------------------------------------------

PSCHEMA = pa.schema([("id", pa.int32()),
                     ("r", pa.struct([("x", pa.int32()),
                                      ("y", pa.struct([("u", pa.string()), ("w", pa.int64())]))])),
                     ("s", pa.string())])
PROWS = {"id": [1, 2, 3], "r": [{"x": 10, "y": {"u": "a", "w": 5}}, None, {"x": None, "y": None}],
         "s": ["p", "q", "r"]}


@pytest.fixture(params=[{}, {"row-tracking.enabled": "true", "data-evolution.enabled": "true"}],
                ids=["append", "data-evolution"])
def ptwins(tmp_path, request):
    wh = str(tmp_path / "wh")
    for lib in (cpaimon, pypaimon):
        cat = lib.CatalogFactory.create({"warehouse": wh})
        cat.create_database("db", True)
        cat.create_table(f"db.{lib.__name__}",
                         lib.Schema.from_pyarrow_schema(PSCHEMA, options=request.param), False)
        write(lib, wh, f"db.{lib.__name__}", PROWS, PSCHEMA)
    return wh, request.param


def project(lib, wh, name, columns, filt=None):
    t = lib.CatalogFactory.create({"warehouse": wh}).get_table(f"db.{name}")
    rb = t.new_read_builder().with_projection(columns)
    if filt:
        rb = rb.with_filter(filt(rb.new_predicate_builder()))
    got = rb.new_read().to_arrow(rb.new_scan().plan().splits())
    return got.sort_by("id") if "id" in columns else got  # one file: write order otherwise


@pytest.mark.parametrize("columns", [["r.x"], ["r.y.u", "id"], ["id", "r.x", "r.y.w"], ["r.y"],
                                     ["r", "r.x", "s"], ["id", "r.y.w", "r.y.u", "r.x"],
                                     ["id", "r.y", "r.y.w"], ["r.y.w", "id", "r.y"]])
def test_nested_projection_as_pypaimon(ptwins, columns):
    """Fields nested in ROW columns come out flattened, named as Java's Projection names them
    (r_x, r_y_u), NULL where a ROW above them is NULL — the same as pypaimon's, from either
    table (on data-evolution tables, where pypaimon has no nested projection, the same values as
    its whole rows hold)."""
    wh, options = ptwins
    for name in ("cpaimon", "pypaimon"):
        mine = project(cpaimon, wh, name, columns)
        if not options:
            theirs = project(pypaimon, wh, name, columns)
            assert mine.schema == theirs.schema, (name, mine.schema, theirs.schema)
            assert mine.to_pylist() == theirs.to_pylist()
            continue
        # pypaimon 2.1 refuses nested projection on data-evolution tables: pick the fields out
        # of its whole-row read instead
        whole = project(pypaimon, wh, name, ["id", "r", "s"]).to_pylist()

        def pick(row, path):
            v = row
            for part in path.split("."):
                v = None if v is None else v[part]
            return v
        assert mine.to_pylist() == [{n: pick(row, c) for n, c in zip(mine.schema.names, columns)}
                                    for row in whole]
    got = project(cpaimon, wh, "cpaimon", ["id", "r.x", "r.y.w"])
    assert got.to_pylist() == [{"id": 1, "r_x": 10, "r_y_w": 5}, {"id": 2, "r_x": None, "r_y_w": None},
                               {"id": 3, "r_x": None, "r_y_w": None}]


def test_nested_projection_with_filter_hidden_columns_and_duplicates(ptwins):
    wh, options = ptwins
    got = project(cpaimon, wh, "cpaimon", ["r.x", "id"], lambda p: p.greater_than("id", 1))
    assert got.to_pylist() == [{"r_x": None, "id": 2}, {"r_x": None, "id": 3}]
    got = project(cpaimon, wh, "cpaimon", ["r.x", "s"], lambda p: p.equal("id", 1))
    assert got.to_pylist() == [{"r_x": 10, "s": "p"}]
    # the same field twice: Java's "_$0" suffix (PYPAIMON_DUPLICATE_SUFFIX: pypaimon writes
    # "r_x__0"); a top-level column projected twice reads once
    t = cpaimon.CatalogFactory.create({"warehouse": wh}).get_table("db.cpaimon")
    rb = t.new_read_builder().with_projection(["r.x", "r.x", "id", "id"])
    got = rb.new_read().to_arrow(rb.new_scan().plan().splits()).sort_by("id")
    assert got.schema.names == ["r_x", "r_x_$0", "id", "id_$1"]
    assert got.column(0).to_pylist() == got.column(1).to_pylist() == [10, None, None]
    if options:
        rb = t.new_read_builder().with_projection(["r.y.u", "_ROW_ID"])
        got = rb.new_read().to_arrow(rb.new_scan().plan().splits()).sort_by("_ROW_ID")
        assert got.to_pylist() == [{"r_y_u": "a", "_ROW_ID": 0}, {"r_y_u": None, "_ROW_ID": 1},
                                   {"r_y_u": None, "_ROW_ID": 2}]


def test_nested_projection_errors_and_evolution(ptwins):
    """An unknown path is an error naming it (PYPAIMON_DROPS_UNKNOWN_PATHS: pypaimon silently
    returns no column); a path through a non-ROW column too. After a nested rename the new name
    reads the old files' values."""
    wh, _ = ptwins
    t = cpaimon.CatalogFactory.create({"warehouse": wh}).get_table("db.cpaimon")
    for bad in (["r.nope"], ["id.x"], ["r.y.u.v"], ["nope.x"]):
        with pytest.raises(ValueError, match=f"Column {bad[0]} is not in table db.cpaimon"):
            rb = t.new_read_builder().with_projection(bad)
            rb.new_read().to_arrow(rb.new_scan().plan().splits())
    SC, T = classes(cpaimon)
    cat = cpaimon.CatalogFactory.create({"warehouse": wh})
    cat.alter_table("db.cpaimon", [SC.rename_column(["r", "y", "u"], "u2")], False)
    got = project(cpaimon, wh, "cpaimon", ["id", "r.y.u2"])
    assert got.to_pylist() == [{"id": 1, "r_y_u2": "a"}, {"id": 2, "r_y_u2": None},
                               {"id": 3, "r_y_u2": None}]
    with pytest.raises(ValueError, match="r.y.u is not"):
        rb = cat.get_table("db.cpaimon").new_read_builder().with_projection(["r.y.u"])
        rb.new_read().to_arrow(rb.new_scan().plan().splits())
