"""cpaimon's Parquet reader (src/format/parquet/reader.h) on the apache/parquet-testing corpus,
compared with pyarrow's reading of the same files: same Arrow types, same values
(spec/parquet.md §5.1). Files pyarrow cannot read are compared with DuckDB; unsupported files must
fail with NotImplementedError (EUNSUPPORTED) naming the file; every bad_data/ file fails cleanly
(the C test test_reader_corpus runs the same files under ASan).

Read from ../shared/testdata/parquet-testing (never copied into the repository).
"""
import math
import os
import pathlib
import sys

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "python"))
from cpaimon import _cpaimon  # noqa: E402

CORPUS = ROOT.parent / "shared" / "testdata" / "parquet-testing"
DATA = CORPUS / "data"
BAD = CORPUS / "bad_data"

# Files cpaimon does not read, with the reason (each must raise NotImplementedError).
UNSUPPORTED = {
    "aes256/encrypt_columns_and_footer.parquet.encrypted": "encrypted footer",
    "aes256/encrypt_columns_and_footer_ctr.parquet.encrypted": "encrypted footer",
    "aes256/encrypt_columns_and_footer_disable_aad_storage.parquet.encrypted": "encrypted footer",
    "aes256/encrypt_columns_plaintext_footer.parquet.encrypted": "encrypted columns",
    "aes256/uniform_encryption.parquet.encrypted": "encrypted footer",
}

# Files pyarrow 19 refuses although they are readable; DuckDB is the oracle for them.
PYARROW_REFUSES = {
    # snappy is fed the empty values section of a v2 page (arrow-rs issue 7388 in the README)
    "datapage_v2_empty_datapage.snappy.parquet",
    # a map key not marked REQUIRED (Presto); pyarrow: "Map keys must be annotated as required"
    "incorrect_map_schema.parquet",
    # a logical type id from the future; read by its physical type
    "unknown-logical-type.parquet",
}


def read(path, **kwargs):
    return pa.table(_cpaimon.read_parquet(str(path), **kwargs))


def corpus_files():
    return sorted(p.name for p in DATA.glob("*.parquet"))


def normalize(v):
    """Python values with NaN made comparable (NaN != NaN otherwise)."""
    if isinstance(v, float) and math.isnan(v):
        return "NaN"
    if isinstance(v, list):
        return [normalize(x) for x in v]
    if isinstance(v, tuple):
        return tuple(normalize(x) for x in v)
    if isinstance(v, dict):
        return {k: normalize(x) for k, x in v.items()}
    return v


def assert_same_values(expected: pa.Table, got: pa.Table):
    assert got.num_rows == expected.num_rows
    for name in expected.column_names:
        e, g = expected.column(name), got.column(name)
        if e.equals(g):
            continue
        # NaN never equals itself in Arrow's comparison; compare the values as Python objects.
        # Timestamps are compared as their stored integers (pyarrow's Python conversion cannot
        # represent every stored value).
        if pa.types.is_timestamp(e.type) or pa.types.is_date(e.type):
            e = e.cast(pa.int64())
            g = g.cast(pa.int64())
        assert normalize(g.to_pylist()) == normalize(e.to_pylist()), name


@pytest.mark.parametrize("name", [n for n in corpus_files() if n not in PYARROW_REFUSES])
def test_corpus_file_matches_pyarrow(name):
    path = DATA / name
    expected = pq.read_table(path)
    got = read(path)
    assert got.schema.equals(expected.schema, check_metadata=False), (got.schema, expected.schema)
    if name == "int96_from_spark.parquet":
        # Row 5 lies outside the int64-nanosecond range: both readers wrap, differently (cpaimon
        # wraps the exact value modulo 2^64, spec/parquet.md §4 P9). The microsecond reading is
        # checked against int96_from_spark.md below.
        expected, got = expected.slice(0, 5), got.slice(0, 5)
    if name == "nested_structs.rust.parquet":
        assert got.equals(expected)
        return
    assert_same_values(expected, got)
    # The same again in batches of 7 rows, which cut through pages, rows and lists.
    again = read(path, batch_size=7)
    if name == "int96_from_spark.parquet":
        again = again.slice(0, 5)
    assert_same_values(expected, again)


@pytest.mark.parametrize("name", sorted(PYARROW_REFUSES))
def test_corpus_file_matches_duckdb(name):
    path = DATA / name
    with pytest.raises(Exception):  # the reason this file is compared with DuckDB
        pq.read_table(path)
    got = read(path)
    rows = duckdb.sql(f"SELECT * FROM read_parquet('{path}')").fetchall()
    as_tuples = []
    for r in got.to_pylist():
        vals = []
        for v in r.values():
            if isinstance(v, list) and v and isinstance(v[0], tuple):  # map entries
                v = dict(v)
            vals.append(v)
        as_tuples.append(tuple(vals))
    assert as_tuples == rows


def test_int96_microseconds_documented():
    """int96_from_spark.md lists the instants as microseconds since the epoch."""
    got = read(DATA / "int96_from_spark.parquet", columns=["a"], target_types=["TIMESTAMP(6)"])
    assert got.schema.field("a").type == pa.timestamp("us")
    assert got.column("a").cast(pa.int64()).to_pylist() == [
        1704141296123456, 1704070800000000, 253402225200000000, 1735599600000000, None,
        9089380393200000000]


@pytest.mark.parametrize("name,why", sorted(UNSUPPORTED.items()))
def test_unsupported_files_fail_clearly(name, why):
    with pytest.raises(NotImplementedError) as e:
        read(DATA / name)
    assert os.path.basename(name) in str(e.value)
    assert "encrypted" in str(e.value)


@pytest.mark.parametrize("name", sorted(p.name for p in BAD.glob("*.parquet")))
def test_bad_data_fails_cleanly(name):
    path = BAD / name
    if name == "ARROW-GH-43605.parquet":
        # Reproduces a crash of old Arrow (bit width 0 dictionary indices) but is valid Parquet:
        # every index is 0. pyarrow 19 reads it; so must we, identically.
        expected = pq.read_table(path)
        got = read(path)
        assert got.equals(expected)
        return
    # Errors found at open raise ValueError/RuntimeError; those found while pyarrow pulls batches
    # come back through the C stream interface as OSError (errno EIO for ECORRUPT).
    with pytest.raises((ValueError, RuntimeError, NotImplementedError, OSError)) as e:
        read(path)
    assert name in str(e.value)
