"""`cpaimon parquet schema|meta|cat` (src/cli/parquet.c) on files pyarrow writes: the schema tree,
footer details with decoded statistics, rows as a Spark show() table or JSON lines; --help on each
command, usage errors exit 2, failures exit 1 with the message on stderr."""
import decimal
import json
import pathlib

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

CORPUS = pathlib.Path(__file__).resolve().parents[2].parent / "shared" / "testdata" / \
    "parquet-testing" / "data"


@pytest.fixture
def small(tmp_path):
    schema = pa.schema([
        pa.field("id", pa.int32(), nullable=False, metadata={"PARQUET:field_id": "1"}),
        pa.field("name", pa.string(), metadata={"PARQUET:field_id": "2"}),
        pa.field("tags", pa.list_(pa.int64()), metadata={"PARQUET:field_id": "3"}),
        pa.field("price", pa.decimal128(9, 2)),
        pa.field("at", pa.timestamp("ms")),
    ])
    t = pa.table({"id": [1, 2, 3],
                  "name": ["apple", None, "cherry"],
                  "tags": [[1, 2], [], None],
                  "price": [decimal.Decimal("1.50"), None, decimal.Decimal("-20.25")],
                  "at": pa.array([0, 86_400_123, None], pa.timestamp("ms"))}, schema=schema)
    path = tmp_path / "small.parquet"
    pq.write_table(t, path, compression="zstd", store_schema=False)
    return path


def test_help_and_usage(run_cli):
    r = run_cli("parquet", "--help")
    assert r.returncode == 0 and "schema FILE" in r.stdout and "cat FILE" in r.stdout
    assert run_cli("parquet").returncode == 2
    assert run_cli("parquet", "frobnicate").returncode == 2
    for cmd in ("schema", "meta", "cat"):
        r = run_cli("parquet", cmd, "--help")
        assert r.returncode == 0 and f"cpaimon parquet {cmd}" in r.stdout
        assert run_cli("parquet", cmd).returncode == 2
    assert run_cli("parquet", "cat", "x.parquet", "--format", "xml").returncode == 2
    assert run_cli("parquet", "cat", "x.parquet", "--limit", "-3").returncode == 2
    assert run_cli("parquet", "schema", "a.parquet", "b.parquet").returncode == 2


def test_errors_exit_1(run_cli, tmp_path):
    r = run_cli("parquet", "schema", tmp_path / "missing.parquet")
    assert r.returncode == 1 and "missing.parquet" in r.stderr and r.stdout == ""
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"PAR1 this is not a parquet file PAR2")
    r = run_cli("parquet", "cat", bad)
    assert r.returncode == 1 and "bad.parquet" in r.stderr
    r = run_cli("parquet", "cat", CORPUS / "aes256" / "uniform_encryption.parquet.encrypted")
    assert r.returncode == 1 and "encrypted" in r.stderr


def test_schema(run_cli, small):
    r = run_cli("parquet", "schema", small)
    assert r.returncode == 0, r.stderr
    assert r.stdout == (
        "message schema {\n"
        "  required int32 id = 1;\n"
        "  optional binary name (STRING) = 2;\n"
        "  optional group tags (LIST) = 3 {\n"
        "    repeated group list {\n"
        "      optional int64 element;\n"
        "    }\n"
        "  }\n"
        "  optional fixed_len_byte_array(4) price (DECIMAL(9,2));\n"
        "  optional int64 at (TIMESTAMP(MILLIS,false));\n"
        "}\n")


def test_meta(run_cli, small):
    r = run_cli("parquet", "meta", small)
    assert r.returncode == 0, r.stderr
    out = r.stdout
    md = pq.ParquetFile(small).metadata
    assert f"num_rows: 3\nnum_row_groups: 1\nnum_columns: 5\n" in out
    assert f"created_by: {md.created_by}\n" in out
    assert "row group 0: num_rows=3" in out
    col = md.row_group(0).column(0)
    assert (f"codec=ZSTD num_values=3 encodings=[{','.join(col.encodings)}]") in out
    assert f"compressed={col.total_compressed_size} uncompressed=" \
           f"{col.total_uncompressed_size} data_page_offset={col.data_page_offset}" in out
    # statistics decoded by type, as pyarrow reports them
    assert "statistics: null_count=0 min=1 max=3" in out
    assert 'statistics: null_count=1 min="apple" max="cherry"' in out
    assert "statistics: null_count=1 min=-20.25 max=1.50" in out
    assert "min=1970-01-01 00:00:00 max=1970-01-02 00:00:00.123" in out


def test_cat_table(run_cli, small):
    r = run_cli("parquet", "cat", small)  # Spark's show(): cells cut at 20 characters
    assert r.returncode == 0, r.stderr
    assert r.stdout == (
        "+---+------+------+------+--------------------+\n"
        "| id|  name|  tags| price|                  at|\n"
        "+---+------+------+------+--------------------+\n"
        "|  1| apple|[1, 2]|  1.50| 1970-01-01 00:00:00|\n"
        "|  2|  NULL|    []|  NULL|1970-01-02 00:00:...|\n"
        "|  3|cherry|  NULL|-20.25|                NULL|\n"
        "+---+------+------+------+--------------------+\n")
    r = run_cli("parquet", "cat", small, "--truncate", "0", "--columns", "at")
    assert r.stdout == ("+-----------------------+\n|at                     |\n"
                        "+-----------------------+\n|1970-01-01 00:00:00    |\n"
                        "|1970-01-02 00:00:00.123|\n|NULL                   |\n"
                        "+-----------------------+\n")
    r = run_cli("parquet", "cat", small, "--columns", "name,id", "--limit", "1")
    assert r.returncode == 0, r.stderr
    assert r.stdout == ("+-----+---+\n| name| id|\n+-----+---+\n|apple|  1|\n+-----+---+\n"
                        "only showing top 1 row\n")
    r = run_cli("parquet", "cat", small, "--columns", "nope")
    assert r.returncode == 1 and "'nope'" in r.stderr


def test_cat_json(run_cli, small, tmp_path):
    r = run_cli("parquet", "cat", small, "--format", "json")
    assert r.returncode == 0, r.stderr
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert rows == [
        {"id": 1, "name": "apple", "tags": [1, 2], "price": 1.5, "at": "1970-01-01 00:00:00"},
        {"id": 2, "name": None, "tags": [], "price": None, "at": "1970-01-02 00:00:00.123"},
        {"id": 3, "name": "cherry", "tags": None, "price": -20.25, "at": None}]
    r = run_cli("parquet", "cat", small, "--format", "json", "--limit", "2", "--columns", "id")
    assert r.stdout == '{"id":1}\n{"id":2}\n'
    # a bigger file streams batch by batch
    big = tmp_path / "big.parquet"
    pq.write_table(pa.table({"x": pa.array(range(200_000), pa.int64())}), big, row_group_size=50_000)
    r = run_cli("parquet", "cat", big, "--format", "json")
    lines = r.stdout.splitlines()
    assert len(lines) == 200_000 and lines[-1] == '{"x":199999}'


def test_cat_corpus_nested(run_cli):
    r = run_cli("parquet", "cat", CORPUS / "nested_maps.snappy.parquet", "--format", "json",
                "--limit", "2")
    assert r.returncode == 0, r.stderr
    assert r.stdout == ('{"a":{"a":{"1":true,"2":false}},"b":1,"c":1.0}\n'
                        '{"a":{"b":{"1":true}},"b":1,"c":1.0}\n')
