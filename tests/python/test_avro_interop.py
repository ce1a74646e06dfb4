"""Interop of `cpaimon avro` (src/format/avro, src/cli/avro.c) with fastavro and pypaimon.

(a) files fastavro writes (nested records, unions, arrays, maps, bytes, enums, fixed, logical
    types, every codec) print the same records through `cpaimon avro cat` as fastavro reads;
(b) `cpaimon avro rewrite` with every codec produces files fastavro reads back identically;
(c) real manifests and manifest lists pypaimon writes print the same as fastavro reads them.

fastavro is the oracle. It turns logical types into Python objects (datetime, Decimal...), while
cpaimon prints the underlying value, so fastavro reads with a reader schema that is the writer
schema minus its logicalType attributes; everything else is compared as is.
"""
import copy
import io
import json
import math
import struct

import fastavro
import pyarrow as pa
import pytest

CODECS = ["null", "deflate", "snappy", "zstandard"]

NESTED_SCHEMA = {
    "type": "record",
    "name": "Outer",
    "namespace": "org.example",
    "fields": [
        {"name": "id", "type": "long"},
        {"name": "small", "type": "int"},
        {"name": "flag", "type": "boolean"},
        {"name": "ratio", "type": "float"},
        {"name": "score", "type": "double"},
        {"name": "name", "type": ["null", "string"], "default": None},
        {"name": "payload", "type": "bytes"},
        {"name": "maybe_bytes", "type": ["null", "bytes"], "default": None},
        {"name": "tags", "type": {"type": "array", "items": "string"}},
        {"name": "counts", "type": ["null", {"type": "array", "items": ["null", "long"]}],
         "default": None},
        {"name": "attrs", "type": {"type": "map", "values": ["null", "double"]}},
        {"name": "color", "type": {"type": "enum", "name": "Color",
                                   "symbols": ["RED", "GREEN", "BLUE"]}},
        {"name": "digest", "type": {"type": "fixed", "name": "Digest", "size": 4}},
        {"name": "created", "type": ["null", {"type": "long", "logicalType": "timestamp-millis"}],
         "default": None},
        {"name": "day", "type": {"type": "int", "logicalType": "date"}},
        {"name": "amount", "type": {"type": "bytes", "logicalType": "decimal", "precision": 10,
                                    "scale": 2}},
        {"name": "inner", "type": {"type": "record", "name": "Inner", "fields": [
            {"name": "a", "type": "string"},
            {"name": "b", "type": {"type": "record", "name": "Deep", "namespace": "other",
                                   "fields": [{"name": "c", "type": ["null", "int"]}]}},
        ]}},
        {"name": "inners", "type": {"type": "array", "items": "Inner"}},
        {"name": "either", "type": ["null", "long", "string", "Inner"]},
    ],
}


def make_record(i):
    """A varied record: nulls, empty and non-empty collections, odd bytes and characters."""
    import datetime
    import decimal

    return {
        "id": i * 7919 - 5000,
        "small": (-1) ** i * i,
        "flag": i % 2 == 0,
        "ratio": [0.1, -2.5, float("inf"), 3.4028234663852886e38, float("nan")][i % 5],
        "score": [1e-300, -0.0, 123456.789, float("-inf"), 2.0 / 3][i % 5],
        "name": None if i % 4 == 0 else f"näme-{i} \"quoted\" \\ tab\t\n",
        "payload": bytes([(i * 37 + k) % 256 for k in range(i % 9)]),
        "maybe_bytes": None if i % 3 else b"\x00\x7f\x80\xff",
        "tags": [f"t{k}" for k in range(i % 3)],
        "counts": None if i % 5 == 0 else [None if k % 2 else k - 3 for k in range(i % 4)],
        "attrs": {f"k{k}": (None if k == 1 else k / 4) for k in range(i % 3)},
        "color": ["RED", "GREEN", "BLUE"][i % 3],
        "digest": struct.pack(">I", i * 2654435761 % 2**32),
        "created": None if i % 6 == 1 else datetime.datetime(
            2024, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(milliseconds=i * 1001),
        "day": datetime.date(2000, 1, 1) + datetime.timedelta(days=i),
        "amount": decimal.Decimal(i * 101 - 50) / 100,
        "inner": {"a": "x" * (i % 4), "b": {"c": None if i % 2 else i}},
        "inners": [{"a": str(k), "b": {"c": k}} for k in range(i % 2)],
        "either": [None, i, f"s{i}", {"a": "u", "b": {"c": None}}][i % 4],
    }


def strip_logical_types(schema):
    """The same schema without logicalType attributes (so fastavro returns raw values)."""
    if isinstance(schema, dict):
        return {k: strip_logical_types(v) for k, v in schema.items() if k != "logicalType"}
    if isinstance(schema, list):
        return [strip_logical_types(s) for s in schema]
    return schema


def fastavro_records(path):
    """fastavro's reading of every record, with logical types left as their raw values: fastavro
    decompresses each block, then decodes its datums with the logical-type-free schema."""
    records = []
    with open(path, "rb") as f:
        for block in fastavro.block_reader(f):
            raw = fastavro.parse_schema(strip_logical_types(block.writer_schema))
            for _ in range(block.num_records):
                records.append(fastavro.schemaless_reader(block.bytes_, raw, None))
            assert block.bytes_.read() == b""
    return records


def same_float(ours, theirs):
    if math.isnan(theirs):
        return isinstance(ours, float) and math.isnan(ours)
    if ours == theirs:
        return True
    # A float field: cpaimon prints the shortest decimal that reads back as the same float32.
    as_f32 = struct.unpack("<f", struct.pack("<f", ours))[0] if abs(ours) < 3.5e38 else ours
    return as_f32 == theirs


def assert_same(ours, theirs, path="record"):
    """ours: parsed `cpaimon avro cat` JSON; theirs: fastavro's record."""
    if isinstance(theirs, bytes):
        assert ours == theirs.decode("latin-1"), path
    elif isinstance(theirs, bool):
        assert ours is theirs, path
    elif isinstance(theirs, float):
        assert isinstance(ours, (int, float)) and same_float(float(ours), theirs), \
            f"{path}: {ours!r} != {theirs!r}"
    elif isinstance(theirs, dict):
        assert isinstance(ours, dict) and list(ours) == list(theirs), path
        for k in theirs:
            assert_same(ours[k], theirs[k], f"{path}.{k}")
    elif isinstance(theirs, list):
        assert isinstance(ours, list) and len(ours) == len(theirs), path
        for k, (a, b) in enumerate(zip(ours, theirs)):
            assert_same(a, b, f"{path}[{k}]")
    else:
        assert ours == theirs and type(ours) is type(theirs), f"{path}: {ours!r} != {theirs!r}"


def cat(run_cli, path):
    r = run_cli("avro", "cat", path, "--format", "json")
    assert r.returncode == 0, r.stderr
    return [json.loads(line) for line in r.stdout.splitlines()]


def assert_cat_matches_fastavro(run_cli, path):
    ours = cat(run_cli, path)
    theirs = fastavro_records(path)
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        assert_same(a, b)
    return ours


def write_fastavro(path, schema, records, codec, sync_interval=16000, metadata=None):
    with open(path, "wb") as f:
        fastavro.writer(f, fastavro.parse_schema(copy.deepcopy(schema)), records, codec=codec,
                        sync_interval=sync_interval, metadata=metadata)


def block_count(path):
    with open(path, "rb") as f:
        return sum(1 for _ in fastavro.block_reader(f))


# ---- (a) fastavro → cpaimon ----

@pytest.mark.parametrize("codec", CODECS)
def test_cat_reads_fastavro_files(run_cli, tmp_path, codec):
    path = tmp_path / f"nested-{codec}.avro"
    write_fastavro(path, NESTED_SCHEMA, [make_record(i) for i in range(300)], codec,
                   sync_interval=2000)
    assert block_count(path) > 5
    ours = assert_cat_matches_fastavro(run_cli, path)
    assert len(ours) == 300
    # Spot checks against the record generator itself, independent of fastavro's reading.
    assert ours[3]["payload"] == bytes([(3 * 37 + k) % 256 for k in range(3)]).decode("latin-1")
    assert ours[1]["either"] == 1 and ours[2]["either"] == "s2"
    assert ours[7]["created"] is None and ours[8]["created"] == 1704067200000 + 8 * 1001
    assert ours[4]["ratio"] != ours[4]["ratio"]  # NaN


def test_cat_empty_file_and_schema_command(run_cli, tmp_path):
    path = tmp_path / "empty.avro"
    write_fastavro(path, NESTED_SCHEMA, [], "zstandard", metadata={"user.key": "v"})
    r = run_cli("avro", "cat", path)
    assert r.returncode == 0 and r.stdout == ""
    r = run_cli("avro", "schema", path)
    assert r.returncode == 0
    with open(path, "rb") as f:
        header_schema = fastavro.reader(f).metadata["avro.schema"]
    assert r.stdout == header_schema + "\n"
    # The normalized form is the same schema to fastavro.
    r = run_cli("avro", "schema", "--normalized", path)
    assert r.returncode == 0
    assert fastavro.parse_schema(json.loads(r.stdout)) == fastavro.parse_schema(
        json.loads(header_schema))


def test_cat_recursive_schema(run_cli, tmp_path):
    schema = {"type": "record", "name": "Node", "fields": [
        {"name": "v", "type": "int"}, {"name": "next", "type": ["null", "Node"]}]}
    records = [{"v": 1, "next": {"v": 2, "next": {"v": 3, "next": None}}}, {"v": 9, "next": None}]
    path = tmp_path / "list.avro"
    write_fastavro(path, schema, records, "deflate")
    assert cat(run_cli, path) == records


# ---- (b) cpaimon rewrite → fastavro ----

@pytest.mark.parametrize("codec", CODECS)
def test_rewrite_is_read_back_by_fastavro(run_cli, tmp_path, codec):
    src = tmp_path / "src.avro"
    records = [make_record(i) for i in range(200)]
    write_fastavro(src, NESTED_SCHEMA, records, "zstandard", metadata={"paimon.test": "kept"})
    out = tmp_path / f"out-{codec}.avro"
    r = run_cli("avro", "rewrite", src, out, "--codec", codec, "--sync-interval", "3000")
    assert r.returncode == 0, r.stderr
    with open(out, "rb") as f:
        reader = fastavro.reader(f)
        assert reader.codec == codec
        assert reader.metadata["paimon.test"] == "kept"
        assert fastavro.parse_schema(reader.writer_schema) == fastavro.parse_schema(
            copy.deepcopy(NESTED_SCHEMA))
    assert block_count(out) > 3
    theirs_src = fastavro_records(src)
    theirs_out = fastavro_records(out)
    assert len(theirs_out) == len(theirs_src) == 200
    for a, b in zip(theirs_out, theirs_src):
        # NaN != NaN, so compare through the same lenient comparison, both sides fastavro's.
        assert_same(json.loads(json.dumps(a, default=lambda x: x.decode("latin-1"))), b)
    # Logical types survive: fastavro decodes them from the rewritten file too.
    with open(out, "rb") as f:
        first = next(iter(fastavro.reader(f)))
    assert first["amount"] == records[0]["amount"] and first["day"] == records[0]["day"]


def test_rewrite_levels_and_default_interval(run_cli, tmp_path):
    src = tmp_path / "src.avro"
    write_fastavro(src, NESTED_SCHEMA, [make_record(i) for i in range(50)], "null")
    for codec, level in [("zstandard", "19"), ("deflate", "9")]:
        out = tmp_path / f"lvl-{codec}.avro"
        r = run_cli("avro", "rewrite", src, out, "--codec", codec, "--level", level)
        assert r.returncode == 0, r.stderr
        assert block_count(out) == 1
        assert len(fastavro_records(out)) == 50


# ---- (c) pypaimon manifests → cpaimon ----

@pytest.fixture
def pypaimon_table(tmp_path):
    from pypaimon import CatalogFactory, Schema

    catalog = CatalogFactory.create({"warehouse": str(tmp_path / "wh")})
    catalog.create_database("db", False)
    pa_schema = pa.schema([("dt", pa.string()), ("id", pa.int64()), ("name", pa.string())])
    schema = Schema.from_pyarrow_schema(pa_schema, partition_keys=["dt"], options={
        "row-tracking.enabled": "true", "data-evolution.enabled": "true"})
    catalog.create_table("db.t", schema, False)
    table = catalog.get_table("db.t")
    for batch in range(2):
        builder = table.new_batch_write_builder()
        write, commit = builder.new_write(), builder.new_commit()
        rows = [{"dt": f"2024-0{batch + 1}-0{k % 2 + 1}", "id": batch * 10 + k,
                 "name": None if k == 2 else f"n{k}"} for k in range(4)]
        write.write_arrow(pa.Table.from_pylist(rows, schema=pa_schema))
        commit.commit(write.prepare_commit())
        write.close()
        commit.close()
    return tmp_path / "wh" / "db.db" / "t"


def test_cat_reads_pypaimon_manifests(run_cli, pypaimon_table):
    files = sorted((pypaimon_table / "manifest").iterdir())
    manifests = [f for f in files if f.name.startswith("manifest-") and "list" not in f.name]
    lists = [f for f in files if f.name.startswith("manifest-list-")]
    assert manifests and lists
    entries = []
    for f in files:
        recs = assert_cat_matches_fastavro(run_cli, f)
        if f in manifests:
            entries += recs
    # Independent facts about what was written: 2 commits x 2 partitions, 4 rows each commit.
    assert len(entries) == 4
    assert all(e["_VERSION"] == 2 and e["_KIND"] == 0 for e in entries)
    assert sum(e["_FILE"]["_ROW_COUNT"] for e in entries) == 8
    assert sorted(e["_FILE"]["_FIRST_ROW_ID"] for e in entries) == [0, 2, 4, 6]
    for f in files:
        assert run_cli("avro", "schema", f).returncode == 0


def test_rewrite_pypaimon_manifest_is_still_read_by_pypaimon_reader_code(run_cli, pypaimon_table,
                                                                         tmp_path):
    manifest = next(f for f in sorted((pypaimon_table / "manifest").iterdir())
                    if "list" not in f.name)
    out = tmp_path / "rewritten"
    r = run_cli("avro", "rewrite", manifest, out, "--codec", "zstandard")
    assert r.returncode == 0, r.stderr
    with open(manifest, "rb") as a, open(out, "rb") as b:
        assert list(fastavro.reader(a)) == list(fastavro.reader(b))


# ---- errors ----

def test_errors_name_file_and_offset(run_cli, tmp_path):
    path = tmp_path / "broken.avro"
    write_fastavro(path, NESTED_SCHEMA, [make_record(i) for i in range(20)], "null")
    data = bytearray(path.read_bytes())
    data[-5] ^= 0xFF  # inside the trailing sync marker
    path.write_bytes(bytes(data))
    r = run_cli("avro", "cat", path)
    assert r.returncode == 1
    assert str(path) in r.stderr and "block 0 at offset" in r.stderr
    assert "sync marker mismatch" in r.stderr

    trunc = tmp_path / "trunc.avro"
    trunc.write_bytes(bytes(data[: len(data) // 2]))
    r = run_cli("avro", "cat", trunc)
    assert r.returncode == 1 and "block 0 at offset" in r.stderr

    notavro = tmp_path / "not.avro"
    notavro.write_bytes(b"PAR1 not avro")
    r = run_cli("avro", "cat", notavro)
    assert r.returncode == 1 and "bad magic" in r.stderr

    r = run_cli("avro", "cat", tmp_path / "missing.avro")
    assert r.returncode == 1 and "missing.avro" in r.stderr


def test_usage(run_cli, tmp_path):
    for args in (["avro", "--help"], ["avro", "cat", "--help"], ["avro", "schema", "--help"],
                 ["avro", "rewrite", "--help"]):
        r = run_cli(*args)
        assert r.returncode == 0 and "usage: cpaimon avro" in r.stdout
    for args in (["avro"], ["avro", "frob"], ["avro", "cat"], ["avro", "cat", "x", "--format",
                 "csv"], ["avro", "rewrite", "a", "b"], ["avro", "rewrite", "a", "b", "--codec",
                 "lzma"], ["avro", "schema", "a", "b"]):
        r = run_cli(*args)
        assert r.returncode == 2, args
        assert "usage:" in r.stderr
