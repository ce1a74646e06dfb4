"""cpaimon's Parquet reader (src/format/parquet/reader.h) on files written by pyarrow — with
pypaimon's settings and with every variation the reader profile of spec/parquet.md §2.5 names
(data page v2, no dictionary, DELTA_* and BYTE_STREAM_SPLIT encodings, legacy list names, every
codec, many row groups and pages, no statistics, integer decimals) — and by DuckDB. For all Paimon
types, nested ones included, cpaimon must read exactly what pyarrow reads (natural types), and,
given the Paimon types, exactly the Arrow table pypaimon wrote. Also: projection by name and field
id, target-type widening, absent columns as NULLs, row ranges and row groups.
"""
import datetime
import decimal
import pathlib
import random
import sys
import threading
import time

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
from cpaimon import _cpaimon  # noqa: E402


def read(path, **kwargs):
    return pa.table(_cpaimon.read_parquet(str(path), **kwargs))


# Every Paimon type with the Arrow type pypaimon gives it (types/type_arrow.h), as (column name,
# Paimon SQL type, Arrow type, value generator).
def _dec(p, s):
    def gen(rng):
        digits = rng.randint(0, 10 ** (p - s) - 1) if p > s else 0
        frac = rng.randint(0, 10 ** s - 1) if s else 0
        sign = -1 if rng.random() < 0.5 else 1
        return sign * decimal.Decimal(f"{digits}.{frac:0{s}d}" if s else str(digits))
    return gen


def _text(rng, n=12):
    return "".join(rng.choice("abcxyzé☃ 0") for _ in range(rng.randint(0, n)))


def _ts(rng):
    return datetime.datetime(1900, 1, 1) + datetime.timedelta(
        seconds=rng.randint(0, 5_000_000_000), microseconds=rng.randint(0, 999_999))


COLUMNS = [
    ("bool_col", "BOOLEAN", pa.bool_(), lambda r: r.random() < 0.5),
    ("tiny_col", "TINYINT", pa.int8(), lambda r: r.randint(-128, 127)),
    ("small_col", "SMALLINT", pa.int16(), lambda r: r.randint(-32768, 32767)),
    ("int_col", "INT", pa.int32(), lambda r: r.randint(-2**31, 2**31 - 1)),
    ("bigint_col", "BIGINT", pa.int64(), lambda r: r.randint(-2**63, 2**63 - 1)),
    ("float_col", "FLOAT", pa.float32(), lambda r: r.uniform(-1e6, 1e6)),
    ("double_col", "DOUBLE", pa.float64(), lambda r: r.uniform(-1e300, 1e300)),
    ("dec9_col", "DECIMAL(9, 2)", pa.decimal128(9, 2), _dec(9, 2)),
    ("dec18_col", "DECIMAL(18, 4)", pa.decimal128(18, 4), _dec(18, 4)),
    ("dec38_col", "DECIMAL(38, 10)", pa.decimal128(38, 10), _dec(38, 10)),
    ("str_col", "STRING", pa.string(), _text),
    ("bin_col", "BYTES", pa.binary(), lambda r: r.randbytes(r.randint(0, 20))),
    ("blob_col", "BLOB", pa.large_binary(), lambda r: r.randbytes(r.randint(0, 40))),
    ("date_col", "DATE", pa.date32(), lambda r: datetime.date(1970, 1, 1) +
     datetime.timedelta(days=r.randint(-40000, 40000))),
    ("time_col", "TIME", pa.time32("ms"), lambda r: datetime.time(
        r.randint(0, 23), r.randint(0, 59), r.randint(0, 59), r.randint(0, 999) * 1000)),
    ("ts0_col", "TIMESTAMP(0)", pa.timestamp("s"), lambda r: _ts(r).replace(microsecond=0)),
    ("ts3_col", "TIMESTAMP(3)", pa.timestamp("ms"),
     lambda r: _ts(r).replace(microsecond=r.randint(0, 999) * 1000)),
    ("ts6_col", "TIMESTAMP(6)", pa.timestamp("us"), _ts),
    ("ts9_col", "TIMESTAMP(9)", pa.timestamp("ns"), _ts),
    ("ltz_col", "TIMESTAMP_LTZ(6)", pa.timestamp("us", tz="UTC"),
     lambda r: _ts(r).replace(tzinfo=datetime.timezone.utc)),
    ("arr_col", "ARRAY<INT>", pa.list_(pa.int32()),
     lambda r: [r.choice([None, r.randint(-9, 9)]) for _ in range(r.randint(0, 4))]),
    ("nested_arr_col", "ARRAY<ARRAY<STRING>>", pa.list_(pa.list_(pa.string())),
     lambda r: [None if r.random() < 0.2 else [_text(r, 3) for _ in range(r.randint(0, 3))]
                for _ in range(r.randint(0, 3))]),
    ("vec_col", "VECTOR<FLOAT, 3>", pa.list_(pa.float32(), 3),
     lambda r: [r.uniform(-1, 1) for _ in range(3)]),
    ("map_col", "MAP<STRING, BIGINT>", pa.map_(pa.string(), pa.int64()),
     lambda r: [(f"k{i}", r.choice([None, r.randint(0, 99)])) for i in range(r.randint(0, 3))]),
    ("row_col", "ROW<a INT, b ARRAY<ROW<c STRING, d DOUBLE>>>",
     pa.struct([("a", pa.int32()),
                ("b", pa.list_(pa.struct([("c", pa.string()), ("d", pa.float64())])))]),
     lambda r: {"a": r.choice([None, r.randint(0, 5)]),
                "b": None if r.random() < 0.2 else
                [{"c": _text(r, 4), "d": r.choice([None, r.random()])}
                 for _ in range(r.randint(0, 2))]}),
    ("map_arr_col", "MAP<INT, ARRAY<STRING>>", pa.map_(pa.int32(), pa.list_(pa.string())),
     lambda r: [(i, None if r.random() < 0.3 else [_text(r, 2)]) for i in range(r.randint(0, 2))]),
    # MULTISET: a map to the element count, INT NOT NULL (types/type_arrow.h)
    ("multiset_col", "MULTISET<STRING>",
     pa.map_(pa.string(), pa.field("value", pa.int32(), nullable=False)),
     lambda r: [(f"e{i}", r.randint(1, 3)) for i in range(r.randint(0, 3))]),
    ("variant_col", "VARIANT",
     pa.struct([pa.field("value", pa.binary(), nullable=False),
                pa.field("metadata", pa.binary(), nullable=False)]),
     lambda r: {"value": r.randbytes(r.randint(1, 6)), "metadata": b"\x01\x00\x00"}),
]


def make_table(n, seed=7, null_rate=0.15):
    rng = random.Random(seed)
    arrays = []
    for name, _, typ, gen in COLUMNS:
        # pyarrow cannot write a null fixed_size_list ("non-zero length null components"); the
        # C tests cover null VECTORs.
        rate = 0 if pa.types.is_fixed_size_list(typ) else null_rate
        values = [None if rng.random() < rate else gen(rng) for _ in range(n)]
        arrays.append(pa.array(values, type=typ))
    return pa.table(arrays, names=[c[0] for c in COLUMNS])


def paimon_types():
    return {name: sql for name, sql, _, _ in COLUMNS}


@pytest.fixture(scope="module")
def table():
    return make_table(700)


def write(tmp_path, table, name="t.parquet", **kwargs):
    path = tmp_path / name
    pq.write_table(table, path, **kwargs)
    return path


PYPAIMON = dict(compression="zstd", compression_level=1)  # pypaimon's write_parquet

VARIANTS = {
    "pypaimon": PYPAIMON,
    "snappy": dict(compression="snappy"),
    "gzip": dict(compression="gzip"),
    "lz4_raw": dict(compression="lz4"),
    "none": dict(compression="none"),
    "page_v2": dict(compression="zstd", data_page_version="2.0"),
    "page_v2_none": dict(compression="none", data_page_version="2.0"),
    "no_dictionary": dict(compression="zstd", use_dictionary=False),
    "delta": dict(compression="zstd", use_dictionary=False, column_encoding={
        "int_col": "DELTA_BINARY_PACKED", "bigint_col": "DELTA_BINARY_PACKED",
        "tiny_col": "DELTA_BINARY_PACKED", "date_col": "DELTA_BINARY_PACKED",
        "ts6_col": "DELTA_BINARY_PACKED", "str_col": "DELTA_LENGTH_BYTE_ARRAY",
        "bin_col": "DELTA_BYTE_ARRAY", "blob_col": "DELTA_LENGTH_BYTE_ARRAY",
        "dec38_col": "DELTA_BYTE_ARRAY", "bool_col": "RLE"}),
    "byte_stream_split": dict(compression="zstd", use_dictionary=False, column_encoding={
        "float_col": "BYTE_STREAM_SPLIT", "double_col": "BYTE_STREAM_SPLIT",
        "int_col": "BYTE_STREAM_SPLIT", "bigint_col": "BYTE_STREAM_SPLIT",
        "dec18_col": "BYTE_STREAM_SPLIT"}),
    "use_byte_stream_split": dict(compression="snappy",
                                  use_byte_stream_split=["float_col", "double_col", "vec_col"]),
    "legacy_lists": dict(compression="zstd", use_compliant_nested_type=False),
    "many_groups_pages": dict(compression="zstd", row_group_size=97, data_page_size=300,
                              write_batch_size=17),
    "many_pages_v2": dict(compression="zstd", data_page_size=200, write_batch_size=13,
                          data_page_version="2.0"),
    "no_statistics": dict(compression="zstd", write_statistics=False),
    "integer_decimals": dict(compression="zstd", store_decimal_as_integer=True),
    "dictionary_fallback": dict(compression="zstd", dictionary_pagesize_limit=64),
    # Java Paimon's TIMESTAMP(7..9) form (§1.1 N1); pyarrow turns every timestamp into INT96
    "int96": dict(compression="snappy", use_deprecated_int96_timestamps=True),
    # format version 1.0: converted types only, the pyarrow < 9 default (§1.1 audit note)
    "format_1_0": dict(compression="zstd", version="1.0"),
}


def assert_tables_equal(got, expected):
    assert got.schema.equals(expected.schema, check_metadata=False), (got.schema, expected.schema)
    assert got.num_rows == expected.num_rows
    for name in expected.column_names:
        assert got.column(name).equals(expected.column(name)), name


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_natural_read_matches_pyarrow(tmp_path, table, variant):
    """Without ARROW:schema pyarrow maps the Parquet schema itself (§2.10): ours must agree."""
    path = write(tmp_path, table, store_schema=False, **VARIANTS[variant])
    expected = pq.read_table(path)
    assert_tables_equal(read(path), expected)
    assert_tables_equal(read(path, batch_size=64), expected)


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_paimon_types_give_back_what_was_written(tmp_path, table, variant):
    """Read with the Paimon types, a file gives back the Arrow table pypaimon wrote."""
    path = write(tmp_path, table, **VARIANTS[variant])
    got = read(path, columns=table.column_names, target_types=paimon_types())
    assert_tables_equal(got, table)


def test_brotli_is_unsupported(tmp_path, table):
    path = write(tmp_path, table.select(["int_col"]), compression="brotli")
    with pytest.raises(NotImplementedError, match="BROTLI"):
        read(path)


def test_pypaimon_written_file(tmp_path):
    """A file written through pypaimon's own FileIO.write_parquet."""
    from pypaimon.filesystem.local_file_io import LocalFileIO
    table = make_table(300, seed=3)
    path = tmp_path / "pypaimon.parquet"
    LocalFileIO(str(tmp_path), {}).write_parquet(str(path), table)
    got = read(path, columns=table.column_names, target_types=paimon_types())
    assert_tables_equal(got, table)
    assert_tables_equal(read(path, batch_size=50, columns=table.column_names,
                             target_types=paimon_types()), table)


def test_empty_and_null_edges(tmp_path):
    t = pa.table({
        "all_null": pa.array([None] * 50, pa.int32()),
        "empty_lists": pa.array([[]] * 50, pa.list_(pa.int64())),
        "null_lists": pa.array([None] * 50, pa.list_(pa.string())),
        "empty_strings": pa.array([""] * 50, pa.string()),
        "long_strings": pa.array(["x" * 100_000] * 50, pa.string()),
        "req": pa.array(range(50), pa.int64()),
    }, schema=pa.schema([pa.field("all_null", pa.int32()),
                         pa.field("empty_lists", pa.list_(pa.int64())),
                         pa.field("null_lists", pa.list_(pa.string())),
                         pa.field("empty_strings", pa.string()),
                         pa.field("long_strings", pa.string()),
                         pa.field("req", pa.int64(), nullable=False)]))
    path = write(tmp_path, t, store_schema=False)
    assert_tables_equal(read(path), pq.read_table(path))
    assert_tables_equal(read(path, batch_size=7), pq.read_table(path))
    empty = write(tmp_path, t.slice(0, 0), name="empty.parquet", store_schema=False)
    got = read(empty)
    assert got.num_rows == 0
    assert got.schema.equals(pq.read_schema(empty), check_metadata=False)


# ---- projection, field ids, targets ----------------------------------------------------------


def test_projection_by_name_and_order(tmp_path, table):
    path = write(tmp_path, table, store_schema=False, **PYPAIMON)
    got = read(path, columns=["map_col", "int_col", "row_col"])
    assert got.column_names == ["map_col", "int_col", "row_col"]
    assert_tables_equal(got, pq.read_table(path, columns=["map_col", "int_col", "row_col"]))
    with pytest.raises(FileNotFoundError, match="nope"):
        read(path, columns=["nope"])


def test_projection_by_field_id(tmp_path):
    schema = pa.schema([pa.field("a", pa.int32(), metadata={"PARQUET:field_id": "10"}),
                        pa.field("b", pa.string(), metadata={"PARQUET:field_id": "11"})])
    t = pa.table({"a": [1, 2, None], "b": ["x", None, "z"]}, schema=schema)
    path = write(tmp_path, t, store_schema=False)
    got = read(path, columns=[11, 10])
    assert got.column_names == ["b", "a"]
    assert got.column("a").to_pylist() == [1, 2, None]
    assert got.schema.field("a").metadata == {b"PARQUET:field_id": b"10"}
    got = read(path, columns=[10], target_types={10: "BIGINT"})
    assert got.schema.field(0).type == pa.int64()
    assert got.column(0).to_pylist() == [1, 2, None]
    # An id the file lacks has no name to give the column (the table layer passes one).
    with pytest.raises(ValueError, match="field id 12 .* no output name"):
        read(path, columns=[10, 12], target_types={10: "BIGINT", 12: "STRING"})


def test_target_widening(tmp_path):
    t = pa.table({
        "i": pa.array([1, None, -7], pa.int32()),
        "t8": pa.array([1, -2, None], pa.int8()),
        "f": pa.array([1.5, None, -0.25], pa.float32()),
        "d": pa.array([decimal.Decimal("1.23"), None, decimal.Decimal("-4.56")],
                      pa.decimal128(5, 2)),
        "ts": pa.array([1_000_123, None, -1], pa.timestamp("ms")),
        "tsn": pa.array([1_999_999_999, None, -1], pa.timestamp("ns")),
        "fixed": pa.array([b"abcd", None, b"wxyz"], pa.binary(4)),
    })
    for kwargs in ({}, {"store_decimal_as_integer": True}):
        path = write(tmp_path, t, store_schema=False, **kwargs)
        got = read(path, columns=list(t.column_names), target_types={
            "i": "BIGINT", "t8": "INT", "f": "DOUBLE", "d": "DECIMAL(20, 4)",
            "ts": "TIMESTAMP(9)", "tsn": "TIMESTAMP(6)", "fixed": "BYTES"})
        assert got.schema.types == [pa.int64(), pa.int32(), pa.float64(), pa.decimal128(20, 4),
                                    pa.timestamp("ns"), pa.timestamp("us"), pa.binary()]
        assert got.column("i").to_pylist() == [1, None, -7]
        assert got.column("t8").to_pylist() == [1, -2, None]
        assert got.column("f").to_pylist() == [1.5, None, -0.25]
        assert got.column("d").to_pylist() == [decimal.Decimal("1.2300"), None,
                                               decimal.Decimal("-4.5600")]
        assert got.column("ts").cast(pa.int64()).to_pylist() == [1_000_123_000_000, None,
                                                                 -1_000_000]
        # nanoseconds to microseconds round towards negative infinity, as Java does
        assert got.column("tsn").cast(pa.int64()).to_pylist() == [1_999_999, None, -1]
        assert got.column("fixed").to_pylist() == [b"abcd", None, b"wxyz"]


def test_impossible_conversion_names_column_and_types(tmp_path):
    path = write(tmp_path, pa.table({"s": ["a"], "big": pa.array([1], pa.int64())}))
    with pytest.raises(NotImplementedError) as e:
        read(path, columns=["s"], target_types=["INT"])
    assert "'s'" in str(e.value) and "BYTE_ARRAY" in str(e.value) and "INT" in str(e.value)
    with pytest.raises(NotImplementedError, match="'big'"):
        read(path, columns=["big"], target_types=["INT"])  # narrowing is refused


def test_absent_columns_read_as_nulls(tmp_path):
    path = write(tmp_path, pa.table({"a": [1, 2, 3]}))
    got = read(path, columns=["a", "added", "nested"],
               target_types=[None, "STRING", "ROW<x INT, y ARRAY<DOUBLE>>"])
    assert got.column("added").to_pylist() == [None] * 3
    assert got.column("nested").to_pylist() == [None] * 3
    assert got.schema.field("nested").type == pa.struct(
        [("x", pa.int32()), ("y", pa.list_(pa.float64()))])


def test_nested_field_added_later(tmp_path):
    """A ROW read with a field the file's struct lacks gets NULLs in that field."""
    t = pa.table({"r": pa.array([{"a": 1}, None, {"a": 3}], pa.struct([("a", pa.int32())]))})
    path = write(tmp_path, t)
    got = read(path, columns=["r"], target_types=["ROW<a BIGINT, b STRING>"])
    assert got.column("r").to_pylist() == [{"a": 1, "b": None}, None, {"a": 3, "b": None}]


# ---- row groups and row ranges ---------------------------------------------------------------


@pytest.mark.parametrize("variant", ["many_groups_pages", "many_pages_v2"])
def test_row_ranges(tmp_path, table, variant):
    path = write(tmp_path, table, store_schema=False, **VARIANTS[variant])
    expected = pq.read_table(path)
    rng = random.Random(11)
    for _ in range(8):
        cuts = sorted(rng.sample(range(table.num_rows + 50), 8))
        ranges = [(cuts[i], cuts[i + 1]) for i in range(0, 8, 2)]
        got = read(path, row_ranges=ranges, batch_size=rng.choice([5, 64, 1000]))
        parts = [expected.slice(s, max(0, min(e, table.num_rows) - s)) for s, e in ranges
                 if s < table.num_rows]
        assert_tables_equal(got, pa.concat_tables(parts))
    with pytest.raises(ValueError, match="row range"):
        read(path, row_ranges=[(10, 20), (5, 8)])


def test_row_groups(tmp_path, table):
    path = write(tmp_path, table, store_schema=False, row_group_size=200)
    pf = pq.ParquetFile(path)
    assert pf.num_row_groups == 4
    got = read(path, row_groups=[3, 1])
    assert_tables_equal(got, pa.concat_tables([pf.read_row_group(3), pf.read_row_group(1)]))
    got = read(path, row_groups=[1, 2], row_ranges=[(150, 250), (390, 410)])
    # rows 200-249 of row group 1, then 390-409 across the end of group 1 into group 2
    assert_tables_equal(got, pa.concat_tables([pf.read().slice(200, 50), pf.read().slice(390, 20)]))
    with pytest.raises(ValueError, match="row group 9"):
        read(path, row_groups=[9])


# ---- other writers ---------------------------------------------------------------------------


def test_duckdb_written_files(tmp_path):
    path = tmp_path / "duck.parquet"
    duckdb.sql(f"""
        COPY (SELECT i::INTEGER AS i, (i * 1000000007)::BIGINT AS big,
                     CASE WHEN i % 5 = 0 THEN NULL ELSE 'name ' || i END AS s,
                     (i / 7)::DOUBLE AS d, (i * 1.25)::DECIMAL(18, 3) AS dec,
                     (i * 1.5)::DECIMAL(30, 2) AS wide,
                     DATE '2020-01-01' + i::INTEGER AS day,
                     TIMESTAMP '2021-06-01 12:00:00' + INTERVAL (i) SECOND AS ts,
                     [i, i + 1, NULL] AS l, {{'a': i, 'b': 'x' || i}} AS st,
                     MAP {{'k': i}} AS m, i % 2 = 0 AS flag
              FROM range(3000) t(i))
        TO '{path}' (FORMAT PARQUET, ROW_GROUP_SIZE 1000)""")
    expected = pq.read_table(path)
    assert_tables_equal(read(path), expected)
    assert_tables_equal(read(path, batch_size=333, row_ranges=[(10, 20), (990, 2010)]),
                        pa.concat_tables([expected.slice(10, 10), expected.slice(990, 1020)]))


def test_gil_released_while_reading(tmp_path):
    """Decoding runs without the GIL: a Python thread keeps running during a long read."""
    n = 400_000
    t = pa.table({"x": pa.array(range(n), pa.int64()), "s": [f"v{i}" for i in range(n)]})
    path = write(tmp_path, t, compression="gzip")
    ticks = []
    done = threading.Event()

    def reader():
        for _ in range(3):
            pa.RecordBatchReader.from_stream(_cpaimon.read_parquet(str(path))).read_all()
        done.set()

    th = threading.Thread(target=reader)
    start = time.perf_counter()
    th.start()
    while not done.is_set():
        ticks.append(time.perf_counter())
    th.join()
    elapsed = time.perf_counter() - start
    # With the GIL held through decoding this thread would be starved for whole batches.
    assert len(ticks) > 1000, (len(ticks), elapsed)


def test_python_arguments(tmp_path):
    path = write(tmp_path, pa.table({"a": [1, 2], "b": ["x", "y"]}))
    # any iterable of names, including a generator consumed once
    got = read(path, columns=(name for name in ["b", "a"]), target_types={"a": "BIGINT"})
    assert got.column_names == ["b", "a"] and got.schema.field("a").type == pa.int64()
    with pytest.raises(ValueError, match="target_types needs columns"):
        read(path, target_types={"a": "BIGINT"})
    with pytest.raises(ValueError, match="batch_size"):
        read(path, batch_size=0)
    with pytest.raises(ValueError, match="out of range"):
        read(path, columns=[2**40])
    with pytest.raises(TypeError):
        read(path, columns=[1.5])
    with pytest.raises(ValueError):  # not a Paimon type
        read(path, columns=["a"], target_types=["WHATEVER(1)"])
    with pytest.raises(FileNotFoundError):
        read(tmp_path / "missing.parquet")
    stream = _cpaimon.read_parquet(str(path))
    pa.table(stream)
    with pytest.raises(RuntimeError, match="consumed"):
        pa.table(stream)


# ---- random nested schemas -------------------------------------------------------------------


def _random_type(rng, depth):
    leaves = [pa.int32(), pa.int64(), pa.string(), pa.float64(), pa.bool_(), pa.binary(),
              pa.decimal128(7, 3), pa.date32()]
    if depth >= 3 or rng.random() < 0.3:
        return rng.choice(leaves)
    kind = rng.choice(["list", "struct", "map", "large"])
    if kind == "list":
        return pa.list_(pa.field("element", _random_type(rng, depth + 1),
                                 nullable=rng.random() < 0.7))
    if kind == "map":
        return pa.map_(rng.choice([pa.string(), pa.int32()]), _random_type(rng, depth + 1))
    n = rng.randint(1, 3)
    return pa.struct([pa.field(f"f{i}", _random_type(rng, depth + 1), nullable=rng.random() < 0.8)
                      for i in range(n)])


def _random_value(rng, typ, nullable=True):
    if nullable and rng.random() < 0.15:
        return None
    if pa.types.is_list(typ):
        f = typ.value_field
        return [_random_value(rng, f.type, f.nullable) for _ in range(rng.randint(0, 4))]
    if pa.types.is_map(typ):
        keys = list({_random_value(rng, typ.key_type, False) for _ in range(rng.randint(0, 3))})
        return [(k, _random_value(rng, typ.item_type)) for k in keys]
    if pa.types.is_struct(typ):
        return {f.name: _random_value(rng, f.type, f.nullable) for f in typ}
    if typ == pa.int32():
        return rng.randint(-1000, 1000)
    if typ == pa.int64():
        return rng.randint(-2**62, 2**62)
    if typ == pa.string():
        return _text(rng, 5)
    if typ == pa.float64():
        return rng.random()
    if typ == pa.bool_():
        return rng.random() < 0.5
    if typ == pa.binary():
        return rng.randbytes(rng.randint(0, 5))
    if pa.types.is_decimal(typ):
        return decimal.Decimal(rng.randint(-10**6, 10**6)).scaleb(-3)
    return datetime.date(2000, 1, 1) + datetime.timedelta(days=rng.randint(0, 9000))


@pytest.mark.parametrize("seed", range(12))
def test_random_nested_schemas(tmp_path, seed):
    rng = random.Random(seed)
    fields = [pa.field(f"c{i}", _random_type(rng, 0), nullable=rng.random() < 0.8)
              for i in range(rng.randint(1, 4))]
    n = rng.randint(1, 400)
    cols = [pa.array([_random_value(rng, f.type, f.nullable) for _ in range(n)], f.type)
            for f in fields]
    t = pa.Table.from_arrays(cols, schema=pa.schema(fields))
    opts = dict(store_schema=False, compression=rng.choice(["zstd", "snappy", "none"]),
                data_page_version=rng.choice(["1.0", "2.0"]),
                use_dictionary=rng.random() < 0.5, data_page_size=rng.choice([64, 512, 1 << 20]),
                write_batch_size=rng.choice([7, 64, 1024]),
                row_group_size=rng.choice([50, 1000]))
    path = write(tmp_path, t, **opts)
    expected = pq.read_table(path)
    assert_tables_equal(read(path, batch_size=rng.choice([1, 3, 64, 1000])), expected)
    cuts = sorted(rng.sample(range(n + 3), min(4, n + 3)))
    ranges = [(cuts[i], cuts[i + 1]) for i in range(0, len(cuts) - 1, 2)]
    parts = [expected.slice(s, max(0, min(e, n) - s)) for s, e in ranges if s < n]
    got = read(path, row_ranges=ranges, batch_size=rng.choice([2, 50]))
    if parts:
        assert_tables_equal(got, pa.concat_tables(parts))
    else:
        assert got.num_rows == 0
