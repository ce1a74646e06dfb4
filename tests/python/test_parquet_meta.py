"""Parquet footer decoding and encoding (src/format/parquet/{thrift,metadata,footer}.c) against
pyarrow and DuckDB, on files pyarrow writes here and on the parquet-testing corpus
(spec/parquet.md §2.1-2.3, §2.6, §2.9).

The C side is the test binary `test_metadata_corpus` (tests/unit/parquet/), which has two modes:
`dump <file>` prints the decoded footer as JSON, `reencode <in> <out>` rewrites a file with its
footer re-encoded by cpaimon. Expected values all come from pyarrow's (or DuckDB's) own reading.
"""
import decimal
import json
import os
import pathlib
import re
import struct
import subprocess

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("CPAIMON_BUILD", ROOT / "build"))
CORPUS = ROOT.parent / "shared" / "testdata" / "parquet-testing" / "data"

TYPES = ["BOOLEAN", "INT32", "INT64", "INT96", "FLOAT", "DOUBLE", "BYTE_ARRAY",
         "FIXED_LEN_BYTE_ARRAY"]
CODECS = ["UNCOMPRESSED", "SNAPPY", "GZIP", "LZO", "BROTLI", "LZ4", "ZSTD", "LZ4_RAW"]
ENCODINGS = {0: "PLAIN", 2: "PLAIN_DICTIONARY", 3: "RLE", 4: "BIT_PACKED",
             5: "DELTA_BINARY_PACKED", 6: "DELTA_LENGTH_BYTE_ARRAY", 7: "DELTA_BYTE_ARRAY",
             8: "RLE_DICTIONARY", 9: "BYTE_STREAM_SPLIT"}
REPETITIONS = ["required", "optional", "repeated"]
UNITS = {1: "milliseconds", 2: "microseconds", 3: "nanoseconds"}
SIMPLE_LOGICAL = {1: "String", 2: "Map", 3: "List", 4: "Enum", 6: "Date", 11: "Null",
                  12: "JSON", 13: "BSON", 14: "UUID", 15: "Float16"}


def tool():
    path = BUILD / "test_metadata_corpus"
    if not path.exists():
        pytest.fail(f"{path} not built; run `make build` first")
    return path


def dump(path):
    out = subprocess.run([str(tool()), "dump", str(path)], capture_output=True, check=True)
    return json.loads(out.stdout.decode("utf-8", "surrogateescape"))


def reencode(src, dst):
    subprocess.run([str(tool()), "reencode", str(src), str(dst)], capture_output=True, check=True)


def field(name, typ, fid, nullable=True):
    return pa.field(name, typ, nullable=nullable, metadata={b"PARQUET:field_id": str(fid).encode()})


def rich_table():
    """Every Paimon-relevant Arrow type, nested shapes, nulls, field ids on every named field."""
    n = 300
    schema = pa.schema([
        field("id", pa.int64(), 0, nullable=False),
        field("i8", pa.int8(), 1), field("i16", pa.int16(), 2), field("u32", pa.uint32(), 3),
        field("f32", pa.float32(), 4), field("f64", pa.float64(), 5), field("b", pa.bool_(), 6),
        field("s", pa.string(), 7), field("bin", pa.binary(), 8),
        field("fixed", pa.binary(4), 9),
        field("dec9", pa.decimal128(9, 2), 10), field("dec30", pa.decimal128(30, 5), 11),
        field("d", pa.date32(), 12), field("t_ms", pa.time32("ms"), 13),
        field("t_us", pa.time64("us"), 14),
        field("ts_ms", pa.timestamp("ms"), 15), field("ts_us_utc", pa.timestamp("us", "UTC"), 16),
        field("ts_ns", pa.timestamp("ns"), 17),
        field("l", pa.list_(field("element", pa.float32(), 536870911 + 18 * 1024 + 1)), 18),
        field("ll", pa.list_(pa.list_(pa.int32())), 19),
        field("m", pa.map_(pa.string(), pa.int64()), 20),
        field("st", pa.struct([field("a", pa.int32(), 22),
                               field("tags", pa.list_(pa.string()), 23)]), 21),
    ])
    rows = {
        "id": list(range(n)),
        "i8": [i % 100 - 50 if i % 7 else None for i in range(n)],
        "i16": [i * 3 - 400 for i in range(n)],
        "u32": [i * 1000003 % (2 ** 32) for i in range(n)],
        "f32": [float(i) / 3 if i % 5 else None for i in range(n)],
        "f64": [-float(i) * 1.5 for i in range(n)],
        "b": [i % 3 == 0 if i % 4 else None for i in range(n)],
        "s": [f"str-{i % 17}" if i % 6 else None for i in range(n)],
        "bin": [bytes([i % 256, 0, 255]) for i in range(n)],
        "fixed": [struct.pack(">i", i - 150) for i in range(n)],
        "dec9": [decimal.Decimal(i * 7 - 1000).scaleb(-2) for i in range(n)],
        "dec30": [None if i % 9 == 0 else decimal.Decimal(i * 123456789).scaleb(-5)
                  for i in range(n)],
        "d": [18000 + i for i in range(n)],
        "t_ms": [i * 1000 for i in range(n)],
        "t_us": [i * 1000000 for i in range(n)],
        "ts_ms": [1700000000000 + i for i in range(n)],
        "ts_us_utc": [1700000000000000 + i for i in range(n)],
        "ts_ns": [-i * 10 ** 12 for i in range(n)],
        "l": [None if i % 10 == 0 else [] if i % 10 == 1 else [float(i), None] for i in range(n)],
        "ll": [[[i, i + 1], [], None] if i % 3 else None for i in range(n)],
        "m": [[("k", i), ("z", None)] if i % 4 else None for i in range(n)],
        "st": [{"a": i, "tags": ["x"] * (i % 3)} if i % 8 else None for i in range(n)],
    }
    return pa.table(rows, schema=schema)


WRITES = {
    # What pypaimon does (spec/parquet.md §2.2): zstd level 1, pyarrow defaults otherwise.
    "pypaimon_like": dict(compression="zstd", compression_level=1, row_group_size=120),
    "v2_pages_snappy": dict(compression="snappy", data_page_version="2.0", row_group_size=1000),
    "plain_gzip_index": dict(compression="gzip", use_dictionary=False, write_page_index=True,
                             data_page_size=512),
    "no_stats_lz4": dict(compression="lz4", write_statistics=False, store_schema=False),
    "legacy_nested": dict(use_compliant_nested_type=False, compression="none"),
    "format_1_0": dict(version="1.0", compression="brotli"),
}


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    d = tmp_path_factory.mktemp("pqmeta")
    table = rich_table()
    files = {}
    for name, kw in WRITES.items():
        p = d / f"{name}.parquet"
        pq.write_table(table, p, **kw)
        files[name] = p
    p = d / "empty.parquet"
    pq.write_table(table.slice(0, 0), p)
    files["empty"] = p
    return files


SCHEMA_LINE = re.compile(r"^\s*(required|optional|repeated) (group|[a-z0-9_]+(?:\(\d+\))?) "
                         r"field_id=(-?\d+) (\S*?)(?: \((.*)\))?(?: \{|;)$")


def printed_schema(pf):
    """(repetition, type, field_id, name) per element, parsed from pyarrow's schema printout."""
    out = []
    for line in str(pf.schema).splitlines():
        m = SCHEMA_LINE.match(line)
        if m:
            out.append((m.group(1), m.group(2), int(m.group(3)), m.group(4)))
    return out


def expected_logical(el):
    """pyarrow's LogicalType.to_json() keys for what cpaimon decoded."""
    lt = el["logical"]
    k = lt["kind"]
    if k == 0:
        return None
    if k in SIMPLE_LOGICAL:
        return {"Type": SIMPLE_LOGICAL[k]}
    if k == 5:
        return {"Type": "Decimal", "precision": lt["precision"], "scale": lt["scale"]}
    if k in (7, 8):
        return {"Type": "Time" if k == 7 else "Timestamp", "isAdjustedToUTC": lt["utc"],
                "timeUnit": UNITS[lt["unit"]]}
    if k == 10:
        return {"Type": "Int", "bitWidth": lt["bit_width"], "isSigned": lt["signed"]}
    raise AssertionError(f"unexpected logical kind {k}")


def raw_value(hexstr, physical, type_length):
    b = bytes.fromhex(hexstr)
    fmt = {"INT32": "<i", "INT64": "<q", "FLOAT": "<f", "DOUBLE": "<d"}.get(physical)
    if fmt:
        return struct.unpack(fmt, b)[0]
    if physical == "BOOLEAN":
        return bool(b[0])
    return b


def same_value(a, b):
    return a == b or (isinstance(a, float) and isinstance(b, float) and a != a and b != b)


def ipc_bytes(table):
    sink = pa.BufferOutputStream()
    with pa.ipc.new_stream(sink, table.schema) as w:
        w.write_table(table)
    return sink.getvalue().to_pybytes()


def same_table(a, b):
    """Table equality where NaN equals NaN (pa.Table.equals says it does not): both tables come
    from the same pages through the same reader, so their Arrow buffers are identical."""
    return a.equals(b) or ipc_bytes(a) == ipc_bytes(b)


def stats_key(st):
    """What pyarrow reads from a chunk's Statistics, comparable with NaN bounds (by repr)."""
    return (st.has_min_max, st.has_null_count, st.null_count if st.has_null_count else None,
            st.has_distinct_count, repr(st.min_raw) if st.has_min_max else None,
            repr(st.max_raw) if st.has_min_max else None)


def kv_dict(pairs):
    if not pairs:
        return None
    return {bytes(k, "utf-8", "surrogateescape"): b"" if v is None else bytes.fromhex(v)
            for k, v in pairs}


def check_schema(got, pf, md):
    printed = printed_schema(pf)
    assert len(printed) == len(got["schema"])
    for i, (el, (rep, typ, fid, name)) in enumerate(zip(got["schema"], printed)):
        assert el["name"] == name
        assert (el["field_id"] if el["field_id"] is not None else -1) == fid
        if i:
            assert REPETITIONS[el["repetition"]] == rep
        if typ == "group":
            assert el["type"] is None and el["num_children"] is not None
        else:
            printed_type = {"binary": "byte_array"}.get(re.sub(r"\(\d+\)", "", typ))
            assert TYPES[el["type"]].lower() == (printed_type or re.sub(r"\(\d+\)", "", typ))
    leaves = [el for el in got["schema"] if el["leaf"] >= 0]
    assert len(leaves) == md.num_columns
    for i, el in enumerate(leaves):
        col = md.schema.column(i)
        assert el["leaf"] == i
        assert el["path"] == col.path
        assert TYPES[el["type"]] == col.physical_type
        assert el["max_def"] == col.max_definition_level
        assert el["max_rep"] == col.max_repetition_level
        if col.physical_type == "FIXED_LEN_BYTE_ARRAY":
            assert el["type_length"] == col.length
        want = expected_logical(el)
        have = json.loads(col.logical_type.to_json())
        if want is None:
            assert have["Type"] == "None" or el["converted_type"] is not None
        else:
            assert {k: have.get(k) for k in want} == want
        if want and want["Type"] == "Decimal":
            assert (el["precision"], el["scale"]) == (col.precision, col.scale)


def check_column(c, cc, order):
    assert c["file_offset"] == cc.file_offset
    assert TYPES[c["type"]] == cc.physical_type
    assert ".".join(c["path"]) == cc.path_in_schema
    # pyarrow calls LZ4_RAW (7) "LZ4" and has no name for Hadoop-framed LZ4 (5).
    codec = {"LZ4_RAW": "LZ4", "LZ4": "UNKNOWN"}.get(CODECS[c["codec"]], CODECS[c["codec"]])
    assert codec == cc.compression
    assert tuple(ENCODINGS[e] for e in c["encodings"]) == cc.encodings
    assert c["num_values"] == cc.num_values
    assert c["total_compressed_size"] == cc.total_compressed_size
    assert c["total_uncompressed_size"] == cc.total_uncompressed_size
    assert c["data_page_offset"] == cc.data_page_offset
    assert c["dictionary_page_offset"] == (cc.dictionary_page_offset if cc.has_dictionary_page
                                           else None)
    assert (c["offset_index_offset"] is not None) == cc.has_offset_index
    assert (c["column_index_offset"] is not None) == cc.has_column_index
    assert kv_dict(c["kv"]) == (cc.metadata or None)
    st = cc.statistics
    if st is None:
        return
    assert c["stats"] is not None
    assert st.has_null_count == (c["stats"]["null_count"] is not None)
    if st.has_null_count:
        assert c["stats"]["null_count"] == st.null_count
    if st.has_min_max:
        s = c["stats"]
        use_new = order == 1 and s["min_value"] is not None
        lo, hi = (s["min_value"], s["max_value"]) if use_new else (s["min"], s["max"])
        tl = len(bytes.fromhex(lo))
        assert same_value(raw_value(lo, cc.physical_type, tl), st.min_raw)
        assert same_value(raw_value(hi, cc.physical_type, tl), st.max_raw)


def check_dump_against_pyarrow(path):
    got = dump(path)
    pf = pq.ParquetFile(path)
    md = pf.metadata
    assert got["num_rows"] == md.num_rows
    assert len(got["row_groups"]) == md.num_row_groups
    assert (got["created_by"] or "") == md.created_by
    assert got["version"] == {"1.0": 1}.get(md.format_version, 2)
    assert kv_dict(got["kv"]) == md.metadata
    check_schema(got, pf, md)
    orders = got["column_orders"] or [0] * md.num_columns
    for g, rg in enumerate(got["row_groups"]):
        prg = md.row_group(g)
        assert rg["num_rows"] == prg.num_rows
        assert rg["total_byte_size"] == prg.total_byte_size
        assert len(rg["columns"]) == prg.num_columns
        for i, c in enumerate(rg["columns"]):
            check_column(c, prg.column(i), orders[i])
    return got


@pytest.mark.parametrize("name", list(WRITES) + ["empty"])
def test_dump_matches_pyarrow_written(written, name):
    got = check_dump_against_pyarrow(written[name])
    # Field ids that pyarrow wrote from Arrow field metadata (spec/parquet.md §1.3).
    ids = {el["path"]: el["field_id"] for el in got["schema"]}
    assert ids["id"] == 0 and ids["st"] == 21 and ids["st.a"] == 22
    if name != "legacy_nested":
        assert ids["l.list.element"] == 536870911 + 18 * 1024 + 1
    assert got["column_orders"] == [1] * pq.ParquetFile(written[name]).metadata.num_columns


CORPUS_FILES = sorted(p.name for p in CORPUS.glob("*.parquet")
                      if p.name not in ("unknown-logical-type.parquet",
                                        "incorrect_map_schema.parquet"))


@pytest.mark.parametrize("name", CORPUS_FILES)
def test_dump_matches_pyarrow_corpus(name):
    check_dump_against_pyarrow(CORPUS / name)


def duck_rows(path):
    return duckdb.sql(f"select * from read_parquet('{path}')").fetchall()


def check_reencoded(src, dst):
    reencode(src, dst)
    assert same_table(pq.read_table(dst), pq.read_table(src))
    a, b = pq.ParquetFile(src).metadata, pq.ParquetFile(dst).metadata
    assert (a.num_rows, a.num_row_groups, a.created_by) == (b.num_rows, b.num_row_groups,
                                                            b.created_by)
    assert a.schema.equals(b.schema)
    for g in range(a.num_row_groups):
        for i in range(a.num_columns):
            ca, cb = a.row_group(g).column(i), b.row_group(g).column(i)
            assert (ca.statistics is None) == (cb.statistics is None)
            if ca.statistics is not None:
                assert stats_key(ca.statistics) == stats_key(cb.statistics)
    # And our decoder reads its own footer the same way pyarrow does.
    check_dump_against_pyarrow(dst)


@pytest.mark.parametrize("name", list(WRITES) + ["empty"])
def test_reencoded_written_files_read_by_pyarrow_and_duckdb(written, name, tmp_path):
    out = tmp_path / "re.parquet"
    check_reencoded(written[name], out)
    assert duck_rows(out) == duck_rows(written[name])
    meta = "select row_group_id, column_id, stats_min_value, stats_max_value, stats_null_count, " \
           "total_compressed_size, data_page_offset from parquet_metadata('{}') order by 1, 2"
    assert duckdb.sql(meta.format(out)).fetchall() == duckdb.sql(meta.format(written[name])).fetchall()


@pytest.mark.parametrize("name", [n for n in CORPUS_FILES if not n.startswith(("nation.", "large"))])
def test_reencoded_corpus_files_read_by_pyarrow(name, tmp_path):
    src = CORPUS / name
    try:
        pq.read_table(src)
    except Exception:  # noqa: BLE001 - files pyarrow itself cannot read prove nothing here
        pytest.skip("pyarrow cannot read the original")
    check_reencoded(src, tmp_path / "re.parquet")
