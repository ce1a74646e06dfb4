"""Interop tests of cpaimon's Parquet writer (src/format/parquet/writer.h, spec/parquet.md §1-§4).

Random pyarrow tables of every Paimon type (Arrow types as types/type_arrow.h maps them) are written
by cpaimon._cpaimon.write_parquet with each codec and read back by pyarrow and DuckDB, which must
return the input values with the types the Parquet schema implies. The footer statistics are
compared with what pyarrow.compute finds in the same data, the file-level statistics the writer
returns likewise, row-group pruning by pyarrow datasets is checked to use them, and the field ids
of §1.3 are checked in pyarrow's schema (expected ids derived by hand from §1.3).
"""
import datetime
import decimal
import math
import random

import duckdb
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.dataset as ds
import pyarrow.parquet as pq
import pytest

try:
    import cpaimon  # noqa: F401  (loads the native module from CPAIMON_BUILD)
except ModuleNotFoundError:  # not installed (make build adds a .pth): use the source tree
    import pathlib
    import sys
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[2] / "python"))
    import cpaimon  # noqa: F401
from cpaimon import _cpaimon

CODECS = ["zstd", "snappy", "gzip", "lz4", "none"]
B = 536870911  # Java's SpecialFields.STRUCTURED_TYPE_FIELD_ID_BASE


# ---- Paimon type specs: SQL text, Arrow type, random values -------------------------------------

class Spec:
    def __init__(self, sql, typ, gen, nullable=True):
        self.sql, self.typ, self.gen, self.nullable = sql, typ, gen, nullable

    def value(self, r, null_rate=0.15):
        if self.nullable and r.random() < null_rate:
            return None
        return self.gen(r)

    def not_null(self):
        return Spec(self.sql + " NOT NULL", self.typ, self.gen, nullable=False)

    def field(self, name):
        return pa.field(name, self.typ, nullable=self.nullable)


def rand_str(r, n=12):
    alphabet = "abcxyzé中😀 \x00"
    if r.random() < 0.05:
        n = 3000
    return "".join(r.choice(alphabet) for _ in range(r.randint(0, n)))


def rand_bytes(r, n=12):
    return bytes(r.randint(0, 255) for _ in range(r.randint(0, n)))


def decimal_gen(p, s):
    def gen(r):
        u = r.randint(-(10 ** p - 1), 10 ** p - 1)
        return decimal.Decimal(f"{u}E-{s}")
    return gen


# Range of instants that every unit and datetime can hold (years 1700..2200).
T_LO, T_HI = -8_520_336_000, 7_258_118_400


def ts_gen(unit):
    mult = {"s": 1, "ms": 10 ** 3, "us": 10 ** 6, "ns": 10 ** 9}[unit]
    return lambda r: r.randint(T_LO, T_HI) * mult + r.randint(0, mult - 1)


def float32(r):
    return pa.array([r.uniform(-1e6, 1e6)], pa.float32())[0].as_py()


ATOMIC = {
    "bool": Spec("BOOLEAN", pa.bool_(), lambda r: r.random() < 0.5),
    "i8": Spec("TINYINT", pa.int8(), lambda r: r.randint(-128, 127)),
    "i16": Spec("SMALLINT", pa.int16(), lambda r: r.randint(-32768, 32767)),
    "i32": Spec("INT", pa.int32(), lambda r: r.randint(-2 ** 31, 2 ** 31 - 1)),
    "i64": Spec("BIGINT", pa.int64(), lambda r: r.randint(-2 ** 63, 2 ** 63 - 1)),
    "f32": Spec("FLOAT", pa.float32(), float32),
    "f64": Spec("DOUBLE", pa.float64(), lambda r: r.uniform(-1e300, 1e300)),
    "d9": Spec("DECIMAL(9, 2)", pa.decimal128(9, 2), decimal_gen(9, 2)),
    "d18": Spec("DECIMAL(18, 4)", pa.decimal128(18, 4), decimal_gen(18, 4)),
    "d20": Spec("DECIMAL(20, 0)", pa.decimal128(20, 0), decimal_gen(20, 0)),
    "d38": Spec("DECIMAL(38, 10)", pa.decimal128(38, 10), decimal_gen(38, 10)),
    "str": Spec("STRING", pa.string(), rand_str),
    "vc": Spec("VARCHAR(10)", pa.string(), lambda r: rand_str(r, 10)[:10]),
    "ch": Spec("CHAR(3)", pa.string(), lambda r: "".join(r.choice("ab") for _ in range(3))),
    "bin": Spec("BYTES", pa.binary(), rand_bytes),
    "vb": Spec("VARBINARY(5)", pa.binary(), lambda r: rand_bytes(r, 5)),
    "b4": Spec("BINARY(4)", pa.binary(), lambda r: bytes(r.randint(0, 255) for _ in range(4))),
    "date": Spec("DATE", pa.date32(), lambda r: r.randint(-700000, 2900000)),
    "time": Spec("TIME", pa.time32("ms"), lambda r: r.randint(0, 86_399_999)),
    "ts0": Spec("TIMESTAMP(0)", pa.timestamp("s"), ts_gen("s")),
    "ts3": Spec("TIMESTAMP(3)", pa.timestamp("ms"), ts_gen("ms")),
    "ts6": Spec("TIMESTAMP(6)", pa.timestamp("us"), ts_gen("us")),
    "ts9": Spec("TIMESTAMP(9)", pa.timestamp("ns"), ts_gen("ns")),
    "ltz3": Spec("TIMESTAMP_LTZ(3)", pa.timestamp("ms", tz="UTC"), ts_gen("ms")),
    "ltz6": Spec("TIMESTAMP_LTZ(6)", pa.timestamp("us", tz="UTC"), ts_gen("us")),
    "ltz9": Spec("TIMESTAMP_LTZ(9)", pa.timestamp("ns", tz="UTC"), ts_gen("ns")),
    "blob": Spec("BLOB", pa.large_binary(), rand_bytes),
}


def array_of(elem):
    return Spec(f"ARRAY<{elem.sql}>", pa.list_(elem.field("item")),
                lambda r: [elem.value(r) for _ in range(r.randint(0, 4))])


def vector_of(elem, n):
    return Spec(f"VECTOR<{elem.sql}, {n}>", pa.list_(elem.field("item"), n),
                lambda r: [elem.value(r) for _ in range(n)])


def map_of(key, value, multiset=False):
    def gen(r):
        keys = {key.gen(r) for _ in range(r.randint(0, 4))}
        return [(k, value.value(r)) for k in sorted(keys, key=repr)]
    sql = f"MULTISET<{key.sql}>" if multiset else f"MAP<{key.sql}, {value.sql}>"
    return Spec(sql, pa.map_(key.typ, value.field("value")), gen)


def row_of(**fields):
    sql = "ROW<" + ", ".join(f"{n} {s.sql}" for n, s in fields.items()) + ">"
    typ = pa.struct([s.field(n) for n, s in fields.items()])
    return Spec(sql, typ, lambda r: {n: s.value(r) for n, s in fields.items()})


VARIANT = Spec("VARIANT", pa.struct([pa.field("value", pa.binary(), nullable=False),
                                     pa.field("metadata", pa.binary(), nullable=False)]),
               lambda r: {"value": rand_bytes(r), "metadata": rand_bytes(r, 3)})
COUNT = Spec("INT", pa.int32(), lambda r: r.randint(1, 5), nullable=False)

NESTED = {
    "arr": array_of(ATOMIC["i32"]),
    "arr_nn": array_of(ATOMIC["str"].not_null()),
    "arr2": array_of(array_of(ATOMIC["str"])),
    "arr_misc": array_of(row_of(b=ATOMIC["bool"], d=ATOMIC["d38"], t=ATOMIC["ts0"],
                                bl=ATOMIC["blob"], e=ATOMIC["d9"].not_null())),
    "map": map_of(ATOMIC["str"], ATOMIC["i32"]),
    "map_deep": map_of(ATOMIC["i32"], array_of(row_of(x=ATOMIC["i32"],
                                                       y=ATOMIC["str"].not_null()))),
    "mset": map_of(ATOMIC["str"], COUNT, multiset=True),
    "row": row_of(a=ATOMIC["i32"], b=row_of(c=array_of(ATOMIC["f64"]), d=ATOMIC["d38"])),
    "variant": VARIANT,
    "vec": vector_of(ATOMIC["f32"], 3),
    "id_nn": ATOMIC["i64"].not_null(),
}


def make_table(specs, n, seed, batch=97):
    """A table of n random rows as several record batches (so the writer gets many writes)."""
    r = random.Random(seed)
    names = list(specs)
    schema = pa.schema([specs[k].field(k) for k in names])
    cols = {k: [specs[k].value(r) for _ in range(n)] for k in names}
    full = pa.table({k: pa.array(cols[k], type=specs[k].typ) for k in names}, schema=schema)
    return pa.Table.from_batches(full.to_batches(max_chunksize=batch), schema=schema)


def row_sql(specs):
    return "ROW<" + ", ".join(f"{k} {s.sql}" for k, s in specs.items()) + ">"


def read_type(t):
    """The Arrow type pyarrow reads back for an input type (no ARROW:schema in our files)."""
    if pa.types.is_timestamp(t) and t.unit == "s":
        return pa.timestamp("ms", tz=t.tz)
    if pa.types.is_large_binary(t):
        return pa.binary()
    if pa.types.is_fixed_size_list(t) or pa.types.is_list(t):
        f = t.value_field
        return pa.list_(pa.field("element", read_type(f.type), f.nullable))
    if pa.types.is_map(t):
        return pa.map_(read_type(t.key_type), pa.field("value", read_type(t.item_type),
                                                        t.item_field.nullable))
    if pa.types.is_struct(t):
        return pa.struct([pa.field(f.name, read_type(f.type), f.nullable) for f in t])
    return t


def same(a, b):
    """Value equality with NaN == NaN, recursively."""
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b


def assert_same_values(expected, got, label):
    for name in expected.column_names:
        e, g = expected.column(name).to_pylist(), got.column(name).to_pylist()
        assert len(e) == len(g), (label, name)
        for i, (x, y) in enumerate(zip(e, g)):
            assert same(x, y), f"{label}: column {name} row {i}: {x!r} != {y!r}"


def duckdb_table(path):
    con = duckdb.connect()
    try:
        res = con.sql(f"SELECT * FROM read_parquet('{path}')").arrow()
        return res.read_all() if hasattr(res, "read_all") else res
    finally:
        con.close()


# ---- round trips --------------------------------------------------------------------------------

@pytest.mark.parametrize("codec", CODECS)
def test_all_types_roundtrip(tmp_path, codec):
    specs = {**ATOMIC, **NESTED}
    table = make_table(specs, 600, seed=CODECS.index(codec))
    path = tmp_path / f"all_{codec}.parquet"
    res = _cpaimon.write_parquet(str(path), table, row_sql(specs), codec=codec,
                                 page_row_limit=64, row_group_rows=250)
    assert res["num_rows"] == 600
    assert res["num_row_groups"] == 3
    assert res["file_size"] == path.stat().st_size

    meta = pq.ParquetFile(path).metadata
    # Codec enum names as DuckDB prints them (pyarrow calls LZ4_RAW "LZ4"): lz4 is LZ4_RAW (§2.3).
    want_codec = {"zstd": "ZSTD", "snappy": "SNAPPY", "gzip": "GZIP", "lz4": "LZ4_RAW",
                  "none": "UNCOMPRESSED"}[codec]
    con = duckdb.connect()
    codecs = con.sql(f"SELECT DISTINCT compression FROM parquet_metadata('{path}')").fetchall()
    con.close()
    assert codecs == [(want_codec,)]
    assert meta.created_by.startswith("cpaimon version ")

    back = pq.read_table(path)
    for name in table.column_names:
        want = read_type(table.schema.field(name).type)
        assert back.schema.field(name).type == want, name
        assert back.schema.field(name).nullable == table.schema.field(name).nullable, name
    assert_same_values(table, back, "pyarrow")
    assert_same_values(table, duckdb_table(path), "duckdb")


def test_streamed_batches_and_defaults(tmp_path):
    """A RecordBatchReader fed from Python (the writer runs without the GIL) and default options."""
    specs = {"id": ATOMIC["i64"].not_null(), "s": ATOMIC["str"], "m": NESTED["map"]}
    table = make_table(specs, 3000, seed=7, batch=500)

    def batches():
        yield from table.to_batches()

    reader = pa.RecordBatchReader.from_batches(table.schema, batches())
    path = tmp_path / "stream.parquet"
    res = _cpaimon.write_parquet(path, reader, row_sql(specs))
    assert res["num_rows"] == 3000 and res["num_row_groups"] == 1
    assert_same_values(table, pq.read_table(path), "pyarrow")
    col = pq.ParquetFile(path).metadata.row_group(0).column(0)
    assert col.compression == "ZSTD"


def test_sliced_input_and_long_lists(tmp_path):
    """Arrow offsets everywhere (a sliced table), and rows with tens of thousands of entries: a row
    never spans pages (§3.4), whatever the page limits."""
    specs = {k: NESTED[k] for k in ["arr", "arr2", "map_deep", "row", "vec", "variant"]}
    specs.update({k: ATOMIC[k] for k in ["bool", "str", "d38", "ts9"]})
    table = make_table(specs, 800, seed=21).slice(123, 500)
    path = tmp_path / "sliced.parquet"
    _cpaimon.write_parquet(path, table, row_sql(specs), page_row_limit=50)
    assert_same_values(table, pq.read_table(path), "pyarrow")
    assert_same_values(table, duckdb_table(path), "duckdb")

    r = random.Random(4)
    big = pa.table({"l": pa.array([[r.randint(0, 9) for _ in range(r.choice([0, 1, 40000]))]
                                   if r.random() > 0.1 else None for _ in range(60)],
                                  pa.list_(pa.int16()))})
    path = tmp_path / "long.parquet"
    res = _cpaimon.write_parquet(path, big, "ROW<l ARRAY<SMALLINT>>", page_size=4096,
                                 page_row_limit=7)
    assert res["num_rows"] == 60
    assert_same_values(big, pq.read_table(path), "pyarrow")
    assert_same_values(big, duckdb_table(path), "duckdb")


def test_empty_table(tmp_path):
    table = pa.table({"a": pa.array([], pa.int32())})
    path = tmp_path / "empty.parquet"
    res = _cpaimon.write_parquet(path, table, "ROW<a INT>")
    assert res["num_rows"] == 0 and res["num_row_groups"] == 0
    assert res["columns"][0]["min"] is None
    back = pq.read_table(path)
    assert back.num_rows == 0 and back.schema.field("a").type == pa.int32()
    assert duckdb_table(path).num_rows == 0


# ---- statistics ---------------------------------------------------------------------------------

STAT_COLUMNS = ["bool", "i8", "i16", "i32", "i64", "f32", "f64", "d9", "d18", "d20", "d38", "str",
                "ch", "bin", "date", "time", "ts0", "ts3", "ts6", "ltz3", "ltz6"]


def expected_minmax(arr):
    if arr.null_count == len(arr):
        return None, None
    mm = pc.min_max(arr)
    return mm["min"].as_py(), mm["max"].as_py()


def test_footer_statistics(tmp_path):
    specs = {k: ATOMIC[k] for k in STAT_COLUMNS}
    table = make_table(specs, 900, seed=11)
    path = tmp_path / "stats.parquet"
    _cpaimon.write_parquet(path, table, row_sql(specs), row_group_rows=300)
    meta = pq.ParquetFile(path).metadata
    assert meta.num_row_groups == 3
    for g in range(3):
        part = table.slice(g * 300, 300)
        for c, name in enumerate(table.column_names):
            st = meta.row_group(g).column(c).statistics
            arr = part.column(name).combine_chunks()
            assert st.null_count == arr.null_count, (g, name)
            lo, hi = expected_minmax(arr)
            if name == "str" and lo is not None and \
                    len(lo.encode()) + len(hi.encode()) >= 4096:
                assert not st.has_min_max  # dropped, as parquet-java does (§2.9)
                continue
            assert st.has_min_max, (g, name)
            if name in ("d9", "d18"):
                # pyarrow cannot convert INT32/INT64 decimal bounds; compare the unscaled values.
                scale = table.schema.field(name).type.scale
                assert (st.min_raw, st.max_raw) == (int(lo.scaleb(scale)), int(hi.scaleb(scale)))
                continue
            assert (st.min, st.max) == (lo, hi), (g, name)


def test_returned_statistics(tmp_path):
    specs = {**{k: ATOMIC[k] for k in STAT_COLUMNS + ["ts9", "ltz9", "blob"]},
             "arr": NESTED["arr"], "row": NESTED["row"]}
    table = make_table(specs, 700, seed=5)
    res = _cpaimon.write_parquet(tmp_path / "ret.parquet", table, row_sql(specs),
                                 row_group_rows=200)
    for col, name in zip(res["columns"], table.column_names):
        arr = table.column(name).combine_chunks()
        assert col["name"] == name
        assert col["null_count"] == arr.null_count, name
        if name in ("blob", "arr", "row"):
            assert col["min"] is None and col["max"] is None, name  # no min/max (writer.h)
            continue
        lo, hi = expected_minmax(arr)
        if name in ("ts9", "ltz9"):
            ints = arr.cast(pa.int64())
            mm = pc.min_max(ints)
            for got, v in ((col["min_raw"], mm["min"].as_py()), (col["max_raw"], mm["max"].as_py())):
                assert got == (v // 10 ** 6, v % 10 ** 6), name
            continue
        if name in ("str", "ch"):
            # Byte-wise unsigned order (Paimon compares UTF-8 bytes).
            vals = [v for v in arr.to_pylist() if v is not None]
            lo, hi = min(vals, key=str.encode), max(vals, key=str.encode)
        assert (col["min"], col["max"]) == (lo, hi), name


def test_float_statistics(tmp_path):
    table = pa.table({"f": pa.array([math.nan, 0.0, -0.0, 2.5, None], pa.float32()),
                      "g": pa.array([math.nan, math.nan, None, None, None], pa.float64()),
                      "z": pa.array([0.0, -0.0, 0.0, None, 0.0], pa.float64())})
    path = tmp_path / "floats.parquet"
    res = _cpaimon.write_parquet(path, table, "ROW<f FLOAT, g DOUBLE, z DOUBLE>")
    rg = pq.ParquetFile(path).metadata.row_group(0)
    f, g, z = (rg.column(i).statistics for i in range(3))
    # Java Paimon's order (parquet-java's in-memory statistics, stats_write.h): NaN above every
    # number, -0.0 below +0.0 -- so Java and Spark reading the footer never skip a NaN row.
    assert (f.min, f.null_count) == (0.0, 1) and math.isnan(f.max)
    assert math.copysign(1, f.min) == -1  # -0.0 is the smallest value
    assert g.has_min_max and math.isnan(g.min) and math.isnan(g.max) and g.null_count == 3
    assert math.copysign(1, z.min) == -1 and math.copysign(1, z.max) == 1
    cols = res["columns"]
    assert math.copysign(1, cols[0]["min"]) == -1 and math.isnan(cols[0]["max"])
    assert math.isnan(cols[1]["min"]) and cols[1]["null_count"] == 3
    # DuckDB and pyarrow filters agree with the bounds: no row is lost.
    assert pq.read_table(path, filters=[("f", "<=", 0.0)]).num_rows == 2


def test_row_group_pruning(tmp_path):
    n = 3000
    table = pa.table({"a": pa.array(range(n), pa.int64()),
                      "s": pa.array([f"k{i:05d}" for i in range(n)]),
                      "d": pa.array([decimal.Decimal(i - 1500) / 100 for i in range(n)],
                                    pa.decimal128(20, 2)),
                      "t": pa.array([i * 1000 for i in range(n)], pa.timestamp("us"))})
    path = tmp_path / "prune.parquet"
    _cpaimon.write_parquet(path, table, "ROW<a BIGINT, s STRING, d DECIMAL(20, 2), "
                           "t TIMESTAMP(6)>", row_group_rows=1000)
    frag = next(iter(ds.dataset(path, format="parquet").get_fragments()))
    cases = [(pc.field("a") >= 2500, [2]), (pc.field("s") < "k00500", [0]),
             (pc.field("d") < decimal.Decimal("-10.00"), [0]),
             (pc.field("t") == pa.scalar(1_500_000, pa.timestamp("us")), [1]),
             ((pc.field("a") > 10) & (pc.field("a") < 20), [0])]
    for expr, groups in cases:
        kept = frag.split_by_row_group(filter=expr)
        assert [f.row_groups[0].id for f in kept] == groups, str(expr)
    assert pq.read_table(path, filters=[("a", ">=", 2500)]).num_rows == 500
    # The same bounds drive DuckDB's zone maps; the answer must not change.
    con = duckdb.connect()
    rows = con.sql(f"SELECT count(*) FROM read_parquet('{path}') WHERE s >= 'k02990'").fetchall()
    con.close()
    assert rows == [(10,)]


# ---- schema: field ids, names, annotations -----------------------------------------------------

def field_id(field):
    return int(field.metadata[b"PARQUET:field_id"])


def test_field_ids(tmp_path):
    table = pa.table({
        "id": pa.array([1], pa.int64()),
        "m": pa.array([[(7, [{"x": 1, "y": "a"}])]],
                      pa.map_(pa.int32(), pa.list_(pa.struct([pa.field("x", pa.int32()),
                                                              pa.field("y", pa.string(), False)])))),
        "v": pa.array([{"value": b"1", "metadata": b"2"}], VARIANT.typ),
        "l": pa.array([[[1]]], pa.list_(pa.list_(pa.int32()))),
    })
    path = tmp_path / "ids.parquet"
    # Ids in the order the fields appear: id, m, x, y, v, l.
    _cpaimon.write_parquet(path, table, "ROW<id BIGINT, m MAP<INT, ARRAY<ROW<x INT, "
                           "y STRING NOT NULL>>>, v VARIANT, l ARRAY<ARRAY<INT>>>",
                           field_ids=[0, 3, 10, 11, 4, 20])
    s = pq.read_schema(path)
    assert [field_id(f) for f in s] == [0, 3, 4, 20]
    m = s.field("m").type
    # Hand-derived from §1.3: key B - 3*1024 - 1, value B + 3*1024 + 1, element B + 3*1024 + 2.
    assert field_id(m.key_field) == B - 3 * 1024 - 1 == 536867838
    assert field_id(m.item_field) == B + 3 * 1024 + 1 == 536873984
    elem = m.item_type.value_field
    assert field_id(elem) == B + 3 * 1024 + 2
    assert [field_id(f) for f in elem.type] == [10, 11]
    assert [field_id(f) for f in s.field("v").type] == [0, 1]
    inner = s.field("l").type.value_field
    assert field_id(inner) == B + 20 * 1024 + 1
    assert field_id(inner.type.value_field) == B + 20 * 1024 + 2
    # Java's shape: root name, map group annotation on key_value, list names.
    ps = pq.ParquetFile(path).schema
    assert ps.to_arrow_schema().names == ["id", "m", "v", "l"]
    text = str(ps)
    assert "group field_id=-1 paimon_schema" in text
    assert "repeated group field_id=-1 key_value" in text
    assert "required binary field_id=536867838 key" not in text  # key is INT here
    assert "required int32 field_id=536867838 key" in text
    assert "optional float" not in text


def test_default_field_ids_follow_type_order(tmp_path):
    table = pa.table({"a": [1], "r": [{"x": 1, "y": 2}], "b": [2]})
    path = tmp_path / "ids2.parquet"
    _cpaimon.write_parquet(path, table, "ROW<a BIGINT, r ROW<x BIGINT, y BIGINT>, b BIGINT>")
    s = pq.read_schema(path)
    assert [field_id(f) for f in s] == [0, 1, 4]
    assert [field_id(f) for f in s.field("r").type] == [2, 3]


def test_annotations_match_java_mapping(tmp_path):
    """Physical and logical types of §1.1 as pyarrow reports them."""
    specs = {k: ATOMIC[k] for k in ["i8", "d9", "d18", "d38", "b4", "time", "ts0", "ts9", "ltz6"]}
    table = make_table(specs, 10, seed=1)
    path = tmp_path / "ann.parquet"
    _cpaimon.write_parquet(path, table, row_sql(specs))
    cols = {c.name: c for c in pq.ParquetFile(path).schema}
    assert cols["i8"].physical_type == "INT32" and cols["i8"].converted_type == "INT_8"
    assert cols["d9"].physical_type == "INT32" and cols["d9"].converted_type == "DECIMAL"
    assert cols["d18"].physical_type == "INT64"
    assert cols["d38"].physical_type == "FIXED_LEN_BYTE_ARRAY" and cols["d38"].length == 16
    assert cols["b4"].physical_type == "BYTE_ARRAY" and cols["b4"].logical_type.type == "NONE"
    assert cols["time"].converted_type == "TIME_MILLIS"
    assert "nanoseconds" in str(cols["ts9"].logical_type)
    assert "isAdjustedToUTC=true" in str(cols["ltz6"].logical_type)
    # pyarrow derives converted types from the logical type; DuckDB shows the ones in the file
    # (MILLIS/MICROS timestamps keep theirs even when not UTC-adjusted, §4 P11; NANOS has none).
    con = duckdb.connect()
    raw = dict(con.sql(f"SELECT name, converted_type FROM parquet_schema('{path}')").fetchall())
    con.close()
    assert raw["ts0"] == "TIMESTAMP_MILLIS" and raw["ltz6"] == "TIMESTAMP_MICROS"
    assert raw["ts9"] is None and raw["i8"] == "INT_8" and raw["time"] == "TIME_MILLIS"


# ---- encodings ----------------------------------------------------------------------------------

def test_dictionary_and_fallback(tmp_path):
    n = 20000
    r = random.Random(3)
    table = pa.table({
        "low": pa.array([f"v{r.randint(0, 9)}" for _ in range(n)]),
        "unique": pa.array(range(n), pa.int64()),
        "grow": pa.array([f"g{i % 50 if i < 5000 else i:06d}" for i in range(n)]),
        "flag": pa.array([i % 3 == 0 for i in range(n)]),
    })
    path = tmp_path / "dict.parquet"
    _cpaimon.write_parquet(path, table, "ROW<low STRING, unique BIGINT, grow STRING, flag BOOLEAN>",
                           page_row_limit=1000, dictionary_page_limit=4096)
    rg = pq.ParquetFile(path).metadata.row_group(0)
    low, unique, grow, flag = (rg.column(i) for i in range(4))
    assert low.has_dictionary_page and set(low.encodings) == {"PLAIN", "RLE", "RLE_DICTIONARY"}
    assert not unique.has_dictionary_page and set(unique.encodings) == {"PLAIN", "RLE"}
    assert grow.has_dictionary_page and "RLE_DICTIONARY" in grow.encodings \
        and "PLAIN" in grow.encodings
    assert not flag.has_dictionary_page  # never for BOOLEAN
    assert_same_values(table, pq.read_table(path), "pyarrow")
    assert_same_values(table, duckdb_table(path), "duckdb")
    off = _cpaimon.write_parquet(tmp_path / "nodict.parquet", table,
                                 "ROW<low STRING, unique BIGINT, grow STRING, flag BOOLEAN>",
                                 dictionary=False)
    assert off["num_rows"] == n
    assert not pq.ParquetFile(tmp_path / "nodict.parquet").metadata.row_group(0).column(0) \
        .has_dictionary_page


def test_many_pages_and_row_groups(tmp_path):
    specs = {"id": ATOMIC["i64"].not_null(), "s": ATOMIC["str"], "arr2": NESTED["arr2"]}
    table = make_table(specs, 5000, seed=9, batch=333)
    path = tmp_path / "pages.parquet"
    res = _cpaimon.write_parquet(path, table, row_sql(specs), page_size=2048,
                                 row_group_size=64 * 1024, codec="snappy")
    assert res["num_row_groups"] > 2
    f = pq.ParquetFile(path)
    assert sum(f.metadata.row_group(g).num_rows for g in range(f.num_row_groups)) == 5000
    assert_same_values(table, pq.read_table(path), "pyarrow")
    assert_same_values(table, duckdb_table(path), "duckdb")
    for g in range(f.num_row_groups):
        assert f.read_row_group(g).num_rows == f.metadata.row_group(g).num_rows


# ---- errors -------------------------------------------------------------------------------------

def test_null_in_not_null_column(tmp_path):
    table = pa.table({"a": pa.array([1, None], pa.int32())})
    with pytest.raises(ValueError, match=r"Cannot write null to non-null column\(a\)"):
        _cpaimon.write_parquet(tmp_path / "nn.parquet", table, "ROW<a INT NOT NULL>")
    nested = pa.table({"s": pa.array([{"x": None}], pa.struct([pa.field("x", pa.int32())]))})
    with pytest.raises(ValueError, match=r"column\(s\.x\)"):
        _cpaimon.write_parquet(tmp_path / "nn2.parquet", nested, "ROW<s ROW<x INT NOT NULL>>")
    assert not (tmp_path / "nn.parquet").exists()  # the partial file was removed


def test_type_mismatch(tmp_path):
    table = pa.table({"a": pa.array([1], pa.int64())})
    with pytest.raises(ValueError, match=r"column 'a': Arrow type int64 does not match Paimon "
                                         r"type INT"):
        _cpaimon.write_parquet(tmp_path / "mm.parquet", table, "ROW<a INT>")
    with pytest.raises(ValueError, match="columns"):
        _cpaimon.write_parquet(tmp_path / "mm.parquet", table, "ROW<a BIGINT, b INT>")


def test_bad_arguments(tmp_path):
    table = pa.table({"a": pa.array([1], pa.int64())})
    with pytest.raises(ValueError, match="brotli"):
        _cpaimon.write_parquet(tmp_path / "x.parquet", table, "ROW<a BIGINT>", codec="brotli")
    with pytest.raises(ValueError, match="2 field ids given; the type has 1 columns, 1 fields"):
        _cpaimon.write_parquet(tmp_path / "x.parquet", table, "ROW<a BIGINT>", field_ids=[1, 2])
    with pytest.raises(ValueError, match="ROW"):
        _cpaimon.write_parquet(tmp_path / "x.parquet", table, "BIGINT")
    with pytest.raises(TypeError):
        _cpaimon.write_parquet(tmp_path / "x.parquet", [1, 2], "ROW<a BIGINT>")
    with pytest.raises(ValueError, match="must be positive"):
        _cpaimon.write_parquet(tmp_path / "x.parquet", table, "ROW<a BIGINT>", page_size=0)
    # refused before a file is made
    assert not (tmp_path / "x.parquet").exists()
    # a batch that does not match the row type: the partial file is removed
    with pytest.raises(ValueError):
        _cpaimon.write_parquet(tmp_path / "x.parquet", table, "ROW<a STRING>")
    assert not (tmp_path / "x.parquet").exists()
    res = _cpaimon.write_parquet(tmp_path / "x.parquet", table, "ROW<a BIGINT>",
                                 created_by="tool version 1.2.3 (build abc)")
    assert res["num_rows"] == 1
    assert pq.ParquetFile(tmp_path / "x.parquet").metadata.created_by == \
        "tool version 1.2.3 (build abc)"


# ---- object storage: the same API on s3:// (include/cpaimon/parquet.h) ---------------------------

def test_write_and_read_on_s3(s3, tmp_path):
    """write_parquet / read_parquet on an s3:// URI with file-system options: the object is what
    the same call writes locally (byte for byte), pyarrow reads it from the store, a read-only
    user can read it but not write, and errors name the URI but never the secret key."""
    import s3_support
    table = pa.table({"id": pa.array([3, 1, None, 2], pa.int64()),
                      "s": pa.array(["c", "a", None, "b"])})
    row = "ROW<id BIGINT, s STRING>"
    uri = f"s3://{s3.bucket}/dir/f.parquet"
    res = _cpaimon.write_parquet(uri, table, row, created_by="t", options=s3.options)
    local = _cpaimon.write_parquet(tmp_path / "f.parquet", table, row, created_by="t")
    assert res == local
    body = s3.client.get_object(Bucket=s3.bucket, Key="dir/f.parquet")["Body"].read()
    assert body == (tmp_path / "f.parquet").read_bytes()
    got = pa.table(_cpaimon.read_parquet(uri, columns=["s", "id"], options=s3.options))
    assert got.to_pydict() == {"s": ["c", "a", None, "b"], "id": [3, 1, None, 2]}
    reader = s3_support.catalog_options(s3.endpoint, s3.server.keys["reader"])
    assert pa.table(_cpaimon.read_parquet(uri, options=reader)).num_rows == 4
    with pytest.raises(Exception) as e:
        _cpaimon.write_parquet(f"s3://{s3.bucket}/dir/g.parquet", table, row, options=reader)
    assert f"s3://{s3.bucket}/dir/g.parquet" in str(e.value)
    assert s3.server.keys["reader"][1] not in str(e.value)
    assert "dir/g.parquet" not in s3.keys("dir/")
    with pytest.raises(FileNotFoundError, match="missing.parquet"):
        _cpaimon.read_parquet(f"s3://{s3.bucket}/missing.parquet", options=s3.options)
    with pytest.raises(TypeError, match="options must be str: str"):
        _cpaimon.read_parquet(uri, options={"fs.s3.endpoint": 1})


def test_binding_includes_only_public_headers():
    """python/src may include only include/cpaimon/*.h (and its own module.h, system headers):
    what the Python package does, an engine embedding libcpaimon can do too."""
    import pathlib
    import re
    root = pathlib.Path(__file__).resolve().parents[2]
    bad = []
    for f in sorted((root / "python" / "src").glob("*.[ch]")):
        for line in f.read_text().splitlines():
            m = re.match(r'\s*#\s*include\s*"([^"]+)"', line)
            if m and not (m.group(1).startswith("cpaimon/") or m.group(1) == "module.h"):
                bad.append(f"{f.name}: {m.group(1)}")
    assert bad == []
