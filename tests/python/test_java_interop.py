"""Interop with Java Paimon 1.4.2, the reference implementation (spec/data-evolution.md, format.md,
parquet.md), through the harness tests/java (paimon-tool, one JVM for the session in batch mode):

1. cpaimon writes -> Java reads identical rows, _ROW_ID, _SEQUENCE_NUMBER and file metadata;
2. Java writes (creating the table from a Paimon schema document) -> cpaimon reads identical;
3. both commit alternately to one table (appends and data-evolution updates);
4. data evolution: cpaimon's partial-column files (update by _ROW_ID, shard backfill of an added
   column) merged by Java's reader; Java's partial-column files (its data-evolution partial write,
   what Spark's MERGE INTO uses) merged by cpaimon's.

Values are compared in the tool's JSON form (see tests/java/.../Values.java): `canon` renders
pyarrow values the same way, independently of both libraries.

Java 1.4.2 is older than the HEAD the specs describe; where they differ the tests assert the 1.4.2
behaviour and say so (search for "1.4.2 vs HEAD"). The tests fail, never skip, when Java or the jar
is missing: scripts/setup.sh installs Java and Maven and builds the jar.
"""
import base64
import datetime
import decimal
import hashlib
import json
import math
import os
import pathlib
import queue
import shutil
import subprocess
import threading

import fastavro
import pyarrow as pa
import pypaimon
import pytest

import cpaimon
from cpaimon.schema.data_types import ArrayType, AtomicType, DataField

ROOT = pathlib.Path(__file__).resolve().parents[2]
JAVA_DIR = ROOT / "tests" / "java"
JAR = JAVA_DIR / "target" / "paimon-tool.jar"
STAMP = JAVA_DIR / "target" / ".sources.sha256"
SETUP_HINT = "run scripts/setup.sh (installs openjdk-17-jdk-headless and maven, builds tests/java)"
HIDDEN = ["_ROW_ID", "_SEQUENCE_NUMBER"]
RT = {"row-tracking.enabled": "true"}
# Data-file formats both sides write (`file.format`).
FORMATS = ["parquet", "avro"]
DE = {"row-tracking.enabled": "true", "data-evolution.enabled": "true"}


# ---------------------------------------------------------------------------------------------
# The Java tool


class JavaError(Exception):
    """The tool answered a command with an error (message from Java)."""


def sources_hash():
    """The hash scripts/setup.sh stamps the jar with: sha256sum of every file under tests/java
    but target/, in byte order of './path', then sha256 of that listing."""
    paths = []
    for dirpath, dirnames, filenames in os.walk(JAVA_DIR):
        rel = pathlib.Path(dirpath).relative_to(JAVA_DIR)
        if rel.parts[:1] == ("target",):
            dirnames[:] = []
            continue
        paths += ["./" + (rel / f).as_posix() for f in filenames]
    listing = b""
    for p in sorted(paths, key=lambda s: s.encode()):
        digest = hashlib.sha256((JAVA_DIR / p).read_bytes()).hexdigest()
        listing += f"{digest}  {p}\n".encode()
    return hashlib.sha256(listing).hexdigest()


class JavaTool:
    """paimon-tool in batch mode: one request line (JSON array of arguments), one answer line."""

    TIMEOUT = 180

    def __init__(self, tmp_dir):
        self.tmp = pathlib.Path(tmp_dir)
        self.n = 0
        self.proc = subprocess.Popen(["java", "-jar", str(JAR), "serve"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     encoding="utf-8")
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        self.stderr = []
        threading.Thread(target=lambda: self.stderr.extend(self.proc.stderr), daemon=True).start()

    def _pump(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def __call__(self, *args):
        self.proc.stdin.write(json.dumps([str(a) for a in args]) + "\n")
        self.proc.stdin.flush()
        try:
            line = self.lines.get(timeout=self.TIMEOUT)
        except queue.Empty:
            pytest.fail(f"paimon-tool did not answer {args} in {self.TIMEOUT}s")
        if line is None:
            pytest.fail(f"paimon-tool exited ({self.proc.poll()}): {''.join(self.stderr)[-2000:]}")
        answer = json.loads(line)
        if not answer["ok"]:
            raise JavaError(answer["error"])
        return answer["out"]

    def _jsonl(self, rows):
        self.n += 1
        path = self.tmp / f"rows-{self.n}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        return path

    def read(self, wh, ident, row_tracking=False, snapshot=None, columns=None):
        args = ["read", wh, ident]
        if row_tracking:
            args.append("--with-row-tracking")
        if snapshot is not None:
            args += ["--snapshot", snapshot]
        if columns:
            args += ["--columns", ",".join(columns)]
        return [nan_to_str(json.loads(line)) for line in self(*args).splitlines()]

    def write(self, wh, ident, rows, schema=None, options=None):
        args = ["write", wh, ident, "--json", self._jsonl(rows)]
        if schema is not None:
            args += ["--schema", json.dumps(schema)]
        for k, v in (options or {}).items():
            args += ["--option", f"{k}={v}"]
        return json.loads(self(*args))

    def update(self, wh, ident, rows, columns=None, base_snapshot=None):
        args = ["update-by-row-id", wh, ident, "--json", self._jsonl(rows)]
        if columns:
            args += ["--columns", ",".join(columns)]
        if base_snapshot is not None:
            args += ["--base-snapshot", base_snapshot]
        return json.loads(self(*args))

    def files(self, wh, ident, snapshot=None):
        args = ["files", wh, ident] + (["--snapshot", snapshot] if snapshot is not None else [])
        return [json.loads(line) for line in self(*args).splitlines()]

    def snapshot(self, wh, ident):
        return json.loads(self("snapshot", wh, ident))

    def close(self):
        self.proc.stdin.close()
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture(scope="session")
def java(tmp_path_factory):
    if shutil.which("java") is None:
        pytest.fail(f"`java` is not on PATH: {SETUP_HINT}")
    if not JAR.exists():
        pytest.fail(f"{JAR} is missing: {SETUP_HINT}")
    if not STAMP.exists() or STAMP.read_text().strip() != sources_hash():
        pytest.fail(f"{JAR} is older than the sources in tests/java: {SETUP_HINT}")
    tool = JavaTool(tmp_path_factory.mktemp("java"))
    yield tool
    tool.close()


# ---------------------------------------------------------------------------------------------
# Values in the tool's JSON form


def ts_text(v, unit):
    frac = f"{v.microsecond * 1000 + getattr(v, 'nanosecond', 0):09d}" if unit == "ns" \
        else f"{v.microsecond:06d}"
    return (f"{v.year:04d}-{v.month:02d}-{v.day:02d}T{v.hour:02d}:{v.minute:02d}:{v.second:02d}"
            f".{frac}")


def canon(v, t):
    """A pyarrow value (to_pylist form) of type t, rendered as paimon-tool renders it."""
    if v is None:
        return None
    if pa.types.is_floating(t):
        return "NaN" if math.isnan(v) else v
    if pa.types.is_decimal(t):
        return format(v, "f")
    if pa.types.is_binary(t) or pa.types.is_fixed_size_binary(t):
        return base64.b64encode(v).decode()
    if pa.types.is_date(t):
        return v.isoformat()
    if pa.types.is_time(t):
        return f"{v.hour:02d}:{v.minute:02d}:{v.second:02d}.{v.microsecond // 1000:03d}"
    if pa.types.is_timestamp(t):
        if t.tz is not None:
            return ts_text(v.astimezone(datetime.timezone.utc).replace(tzinfo=None), t.unit) + "Z"
        return ts_text(v, t.unit)
    if pa.types.is_map(t):
        return [[canon(k, t.key_type), canon(x, t.item_type)] for k, x in v]
    if pa.types.is_list(t):
        return [canon(x, t.value_type) for x in v]
    if pa.types.is_struct(t):
        return {f.name: canon(v[f.name], f.type) for f in t}
    return v


def canon_rows(table):
    types = {f.name: f.type for f in table.schema}
    return [{k: canon(v, types[k]) for k, v in row.items()} for row in table.to_pylist()]


def nan_to_str(o):
    if isinstance(o, float) and math.isnan(o):
        return "NaN"
    if isinstance(o, list):
        return [nan_to_str(x) for x in o]
    if isinstance(o, dict):
        return {k: nan_to_str(x) for k, x in o.items()}
    return o


def by(rows, key="id"):
    return sorted(rows, key=lambda r: r[key])


# Expected difference JAVA_AVRO_MAP_ORDER: Java 1.4.2 reads an Avro map (FieldReaderFactory's
# map reader) into a hash map, so the entries of a MAP column read from Avro data files come back
# in hash order, whoever wrote them; cpaimon and pypaimon keep the written order. Rows read by
# Java from Avro files are compared with their map entries sorted.
def java_avro_rows(rows, fmt, column="m"):
    if fmt != "avro":
        return rows
    return [{**r, column: sorted(r[column])} if r.get(column) is not None else r for r in rows]


def py_read_canon(wh, ident, hidden=False, snapshot=None):
    """pypaimon 2.1's rows (hidden columns too), rendered as paimon-tool renders them."""
    table = pypaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table(ident)
    if snapshot is not None:
        table = table.copy({"scan.snapshot-id": str(snapshot)})
    names = [f.name for f in table.fields] + (HIDDEN if hidden else [])
    rb = table.new_read_builder().with_projection(names)
    return canon_rows(rb.new_read().to_arrow(rb.new_scan().plan().splits()))


# Expected difference JAVA_1_4_2_AVRO_ROW_TRACKING_READ: on row-tracking tables without data
# evolution, Java 1.4.2 cannot read _ROW_ID and _SEQUENCE_NUMBER from Avro data files (its own as
# much as cpaimon's): ArrayIndexOutOfBoundsException, the Avro reader being handed row-tracking
# columns the files do not store. For such tables the hidden columns are checked against pypaimon.
def java_hidden_read(java, wh, ident, fmt, snapshot=None):
    if fmt != "avro":
        return java.read(wh, ident, row_tracking=True, snapshot=snapshot)
    with pytest.raises(JavaError, match="ArrayIndexOutOfBoundsException"):
        java.read(wh, ident, row_tracking=True, snapshot=snapshot)
    return py_read_canon(wh, ident, hidden=True, snapshot=snapshot)


# ---------------------------------------------------------------------------------------------
# Tables: every type cpaimon supports, with the Paimon schema document Java creates them from


def _field(fid, name, ptype):
    return {"id": fid, "name": name, "type": ptype}


ALL_TYPES = pa.schema([
    pa.field("id", pa.int32(), nullable=False), ("b", pa.bool_()), ("i8", pa.int8()),
    ("i16", pa.int16()), ("i64", pa.int64()), ("f32", pa.float32()), ("f64", pa.float64()),
    ("dec", pa.decimal128(10, 2)), ("bigdec", pa.decimal128(30, 5)), ("s", pa.string()),
    ("bin", pa.binary()), ("d", pa.date32()), ("t", pa.time32("ms")), ("ts", pa.timestamp("us")),
    ("ts_ms", pa.timestamp("ms")), ("ltz", pa.timestamp("us", tz="UTC")),
    ("arr", pa.list_(pa.float32())), ("m", pa.map_(pa.string(), pa.int32())),
    ("st", pa.struct([("x", pa.int32()), ("y", pa.string())])), ("dt", pa.string()),
])

# The same columns in Paimon's schema-file form, written from the Paimon type names (not from
# cpaimon's mapping): Java creates its tables from this.
ALL_TYPES_PAIMON = [
    _field(0, "id", "INT NOT NULL"), _field(1, "b", "BOOLEAN"), _field(2, "i8", "TINYINT"),
    _field(3, "i16", "SMALLINT"), _field(4, "i64", "BIGINT"), _field(5, "f32", "FLOAT"),
    _field(6, "f64", "DOUBLE"), _field(7, "dec", "DECIMAL(10, 2)"),
    _field(8, "bigdec", "DECIMAL(30, 5)"), _field(9, "s", "STRING"), _field(10, "bin", "BYTES"),
    _field(11, "d", "DATE"), _field(12, "t", "TIME(3)"), _field(13, "ts", "TIMESTAMP(6)"),
    _field(14, "ts_ms", "TIMESTAMP(3)"), _field(15, "ltz", "TIMESTAMP(6) WITH LOCAL TIME ZONE"),
    _field(16, "arr", {"type": "ARRAY", "element": "FLOAT"}),
    _field(17, "m", {"type": "MAP", "key": "STRING NOT NULL", "value": "INT"}),
    _field(18, "st", {"type": "ROW",
                      "fields": [_field(19, "x", "INT"), _field(20, "y", "STRING")]}),
    _field(21, "dt", "STRING"),
]

UTC = datetime.timezone.utc


def all_types_rows(start, n):
    """Ordinary rows (every fifth all NULL but the keys) and, at start 0, rows of edge values."""
    rows = []
    for i in range(start, start + n):
        null = i % 5 == 4
        rows.append({
            "id": i, "b": None if null else i % 2 == 0, "i8": None if null else (i % 100) - 50,
            "i16": None if null else i * 7 - 300, "i64": None if null else i * 1_000_000_007,
            "f32": None if null else i / 4, "f64": None if null else i * 1.5 - 10.1,
            "dec": None if null else decimal.Decimal(f"{i}.{i % 100:02d}"),
            "bigdec": None if null else decimal.Decimal(f"-{i}123456789.12345"),
            "s": None if null else f"string-{i}" * (i % 3),
            "bin": None if null else bytes([i % 256, 0, 255]),
            "d": None if null else datetime.date(2020, 1, 1) + datetime.timedelta(days=i * 37),
            "t": None if null else datetime.time(i % 24, 2, 3, (i % 1000) * 1000),
            "ts": None if null else datetime.datetime(2024, 5, 14, 1, 2, 3, i * 11),
            "ts_ms": None if null else datetime.datetime(1969, 12, 31, 23, 59, 59, 123000),
            "ltz": None if null else datetime.datetime(2001, 2, 3, 4, 5, 6, i, tzinfo=UTC),
            "arr": None if null else [float(i), None, 0.5][: i % 4],
            "m": None if null else {f"k{j}": j for j in range(i % 3)},
            "st": None if null else {"x": i, "y": None if i % 2 else "y"},
            "dt": "p" + str(i % 2),
        })
    if start == 0:
        rows += EDGE_ROWS
    return pa.Table.from_pylist(rows, schema=ALL_TYPES)


EDGE_ROWS = [
    {"id": 1000, "b": False, "i8": -128, "i16": -32768, "i64": -2**63, "f32": float("inf"),
     "f64": float("nan"), "dec": decimal.Decimal("-99999999.99"),
     "bigdec": decimal.Decimal("-9999999999999999999999999.99999"), "s": "",
     "bin": b"", "d": datetime.date(1, 1, 1), "t": datetime.time(0, 0, 0),
     "ts": datetime.datetime(1969, 12, 31, 23, 59, 59, 999999),
     "ts_ms": datetime.datetime(1900, 1, 1, 0, 0, 0, 1000),
     "ltz": datetime.datetime(1970, 1, 1, 0, 0, 0, 1, tzinfo=UTC), "arr": [], "m": {},
     "st": {"x": None, "y": None}, "dt": "p0"},
    {"id": 1001, "b": True, "i8": 127, "i16": 32767, "i64": 2**63 - 1,
     "f32": -1.401298464324817e-45,
     "f64": -0.0, "dec": decimal.Decimal("0.01"), "bigdec": decimal.Decimal("0.00001"),
     "s": "h\u00e9llo \u2713 \U0001d11e \"q\" \\ \t\n", "bin": bytes(range(256)),
     "d": datetime.date(9999, 12, 31), "t": datetime.time(23, 59, 59, 999000),
     "ts": datetime.datetime(9999, 12, 31, 23, 59, 59, 999999),
     "ts_ms": datetime.datetime(2262, 4, 11, 23, 47, 16, 854000),
     "ltz": datetime.datetime(1960, 6, 1, 12, 0, 0, 500000, tzinfo=UTC), "arr": [None],
     "m": {"only": None}, "st": None, "dt": "p1"},
    {"id": 1002, "b": None, "i8": 0, "i16": 0, "i64": 0, "f32": float("-inf"), "f64": 5e-324,
     "dec": decimal.Decimal("99999999.99"), "bigdec": decimal.Decimal("99999999999999999999999.5"),
     "s": "x" * 5000, "bin": b"\x00", "d": datetime.date(1970, 1, 1), "t": None,
     "ts": datetime.datetime(1970, 1, 1), "ts_ms": None, "ltz": None, "arr": [float("inf")],
     "m": None, "st": {"x": -1, "y": ""}, "dt": "p0"},
]


def cp_catalog(wh):
    return cpaimon.CatalogFactory.create({"warehouse": str(wh)})


def cp_create(wh, name, schema, partition_keys=None, options=None):
    cat = cp_catalog(wh)
    cat.create_database("db", True)
    cat.create_table(f"db.{name}", cpaimon.Schema.from_pyarrow_schema(
        schema, partition_keys=partition_keys, options=dict(options or {})), False)
    return cat.get_table(f"db.{name}")


def cp_write(table, data):
    wb = table.new_batch_write_builder()
    w, c = wb.new_write(), wb.new_commit()
    w.write_arrow(data)
    c.commit(w.prepare_commit())
    w.close()
    c.close()


def cp_read(wh, ident, hidden=False, snapshot=None):
    table = cp_catalog(wh).get_table(ident)
    if snapshot is not None:
        # Time travel reads with the snapshot's own schema, as Java does.
        table = table.copy({"scan.snapshot-id": str(snapshot)})
    names = table.arrow_schema().names + (HIDDEN if hidden else [])
    rb = table.new_read_builder().with_projection(names)
    return canon_rows(rb.new_read().to_arrow(rb.new_scan().plan().splits()))


def cp_update(wh, ident, data, cols=None):
    table = cp_catalog(wh).get_table(ident)
    wb = table.new_batch_write_builder()
    upd = wb.new_update()
    if cols:
        upd.with_update_type(cols)
    c = wb.new_commit()
    c.commit(upd.update_by_arrow_with_row_id(data))
    c.close()


def schema_doc(fields, partition_keys=()):
    return {"fields": fields, "partitionKeys": list(partition_keys)}


def manifest_files(table_dir):
    """Live data files of the latest snapshot straight from the Avro manifests (fastavro): the
    third, independent view of the metadata Java's `files` reports."""
    table_dir = pathlib.Path(table_dir)
    latest = max(int(p.name.split("-")[1]) for p in (table_dir / "snapshot").glob("snapshot-*"))
    snap = json.loads((table_dir / "snapshot" / f"snapshot-{latest}").read_text())
    live = {}
    for key in ("baseManifestList", "deltaManifestList"):
        with open(table_dir / "manifest" / snap[key], "rb") as f:
            metas = list(fastavro.reader(f))
        for meta in metas:
            with open(table_dir / "manifest" / meta["_FILE_NAME"], "rb") as f:
                for e in fastavro.reader(f):
                    k = (e["_PARTITION"], e["_BUCKET"], e["_FILE"]["_FILE_NAME"])
                    if e["_KIND"] == 0:
                        live[k] = e["_FILE"]
                    else:
                        live.pop(k, None)
    return sorted(({"file_name": f["_FILE_NAME"], "first_row_id": f["_FIRST_ROW_ID"],
                    "row_count": f["_ROW_COUNT"], "write_cols": f.get("_WRITE_COLS"),
                    "min_sequence_number": f["_MIN_SEQUENCE_NUMBER"],
                    "max_sequence_number": f["_MAX_SEQUENCE_NUMBER"],
                    "schema_id": f["_SCHEMA_ID"],
                    "file_source": {0: "APPEND", 1: "COMPACT"}.get(f.get("_FILE_SOURCE"))}
                   for f in live.values()), key=lambda f: f["file_name"])


def java_files_view(files):
    keys = ("file_name", "first_row_id", "row_count", "write_cols", "min_sequence_number",
            "max_sequence_number", "schema_id", "file_source")
    return sorted(({k: f[k] for k in keys} for f in files), key=lambda f: f["file_name"])


def meta(files):
    """(first_row_id, row_count, write_cols, min seq, max seq) of each file, sorted by repr."""
    return sorted(((f["first_row_id"], f["row_count"], f["write_cols"], f["min_sequence_number"],
                    f["max_sequence_number"]) for f in files), key=repr)


# ---------------------------------------------------------------------------------------------
# 1. cpaimon writes, Java reads


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("partitioned", [False, True])
@pytest.mark.parametrize("row_tracking", [False, True])
def test_cpaimon_writes_java_reads(java, tmp_path, partitioned, row_tracking, fmt):
    wh = str(tmp_path)
    table = cp_create(wh, "t", ALL_TYPES, ["dt"] if partitioned else None,
                      {**(RT if row_tracking else {}), "file.format": fmt})
    batches = [all_types_rows(0, 7), all_types_rows(10, 11), all_types_rows(30, 1)]
    for b in batches:
        cp_write(table, b)
    expected = by(canon_rows(pa.concat_tables(batches)))
    assert java_avro_rows(by(java.read(wh, "db.t")), fmt) == java_avro_rows(expected, fmt)
    assert by(cp_read(wh, "db.t")) == expected
    # Time travel: Java sees the first two commits only at snapshot 2.
    assert java_avro_rows(by(java.read(wh, "db.t", snapshot=2)), fmt) == java_avro_rows(
        by(canon_rows(pa.concat_tables(batches[:2]))), fmt)

    files = java.files(wh, "db.t")
    assert java_files_view(files) == manifest_files(tmp_path / "db.db/t")
    assert all(f["file_name"].endswith("." + fmt) for f in files)
    assert sum(f["row_count"] for f in files) == len(expected)
    assert {f["file_source"] for f in files} == {"APPEND"}
    assert all(f["write_cols"] is None and f["schema_id"] == 0 for f in files)
    if partitioned:
        assert {f["partition"]["dt"] for f in files} == {"p0", "p1"}
    if not row_tracking:
        with pytest.raises(JavaError, match="row-tracking.enabled"):
            java.read(wh, "db.t", row_tracking=True)
        return

    theirs = by(java_hidden_read(java, wh, "db.t", fmt))
    ours = by(cp_read(wh, "db.t", hidden=True))
    assert theirs == ours
    assert sorted(r["_ROW_ID"] for r in theirs) == list(range(len(expected)))
    # Rows of commit k (snapshot k) carry sequence number k (§1.2 case 1).
    first_ids = {r["id"]: n + 1 for n, b in enumerate(batches) for r in b.to_pylist()}
    assert all(r["_SEQUENCE_NUMBER"] == first_ids[r["id"]] for r in theirs)
    # Each file covers a contiguous row-id range starting at its first_row_id, in commit order.
    ranges = sorted((f["first_row_id"], f["row_count"], f["min_sequence_number"]) for f in files)
    assert [r[0] for r in ranges] == [sum(x[1] for x in ranges[:i]) for i in range(len(ranges))]
    assert [r[2] for r in ranges] == sorted(r[2] for r in ranges)
    assert all(f["min_sequence_number"] == f["max_sequence_number"] for f in files)
    assert java.snapshot(wh, "db.t")["nextRowId"] == len(expected)


# ---------------------------------------------------------------------------------------------
# 2. Java writes, cpaimon reads


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("partitioned", [False, True])
@pytest.mark.parametrize("row_tracking", [False, True])
def test_java_writes_cpaimon_reads(java, tmp_path, partitioned, row_tracking, fmt):
    wh = str(tmp_path)
    doc = schema_doc(ALL_TYPES_PAIMON, ["dt"] if partitioned else [])
    batches = [all_types_rows(0, 6), all_types_rows(20, 9), all_types_rows(40, 2)]
    for b in batches:
        java.write(wh, "db.t", canon_rows(b), schema=doc,
                   options={**(RT if row_tracking else {}), "file.format": fmt})
    assert all(f["file_name"].endswith("." + fmt) for f in java.files(wh, "db.t"))
    expected = by(canon_rows(pa.concat_tables(batches)))
    assert java_avro_rows(by(java.read(wh, "db.t")), fmt) == java_avro_rows(expected, fmt)

    table = cp_catalog(wh).get_table("db.t")
    got_schema = table.arrow_schema()
    assert got_schema.names == ALL_TYPES.names
    for name in ALL_TYPES.names:  # TIME(3) ↔ time32[ms] etc.: the Paimon names map as expected
        assert got_schema.field(name).type == ALL_TYPES.field(name).type, name
    assert by(cp_read(wh, "db.t")) == expected
    assert by(cp_read(wh, "db.t", snapshot=1)) == by(canon_rows(batches[0]))

    snap = java.snapshot(wh, "db.t")
    # 1.4.2 vs HEAD: HEAD Java snapshots also carry "uuid", "writerVersion" and "operation"
    # (Snapshot.java); 1.4.2 writes none of them, and cpaimon must not need them.
    assert not {"uuid", "writerVersion", "operation"} & set(snap)
    # Java writes nextRowId in every snapshot, 0 when row tracking is off (§1.3).
    assert snap["nextRowId"] == (len(expected) if row_tracking else 0)
    table_dir = tmp_path / "db.db/t"
    with open(table_dir / "manifest" / snap["deltaManifestList"], "rb") as f:
        manifest = list(fastavro.reader(f))[0]["_FILE_NAME"]
    with open(table_dir / "manifest" / manifest, "rb") as f:
        file_type = fastavro.reader(f).writer_schema["fields"][5]["type"]
    file_fields = [x["name"] for x in file_type["fields"]]
    # 1.4.2 vs HEAD: 1.4.2's DataFileMeta has 20 fields; HEAD (and cpaimon) add
    # _WRITE_COLS_SEQUENCES as the 21st (format.md §4.4). cpaimon reads both.
    assert len(file_fields) == 20 and file_fields[-1] == "_WRITE_COLS"
    if row_tracking:
        ours = by(cp_read(wh, "db.t", hidden=True))
        assert ours == by(java_hidden_read(java, wh, "db.t", fmt))
        assert sorted(r["_ROW_ID"] for r in ours) == list(range(len(expected)))
        assert {r["_SEQUENCE_NUMBER"] for r in ours} == {1, 2, 3}


def test_timestamp_nanos(java, tmp_path):
    """TIMESTAMP(9) / TIMESTAMP_LTZ(9) (parquet.md note N1): Java writes INT96, cpaimon writes
    INT64 NANOS; each reads its own and cpaimon reads Java's."""
    wh = str(tmp_path)
    schema = pa.schema([pa.field("id", pa.int32(), nullable=False), ("ns", pa.timestamp("ns")),
                        ("ltz_ns", pa.timestamp("ns", tz="UTC"))])
    values = [pa.scalar(v, pa.timestamp("ns")).as_py()
              for v in (1_700_000_000_123_456_789, -1, 0)]
    data = pa.table({"id": pa.array([0, 1, 2], pa.int32()),
                     "ns": pa.array(values, pa.timestamp("ns")),
                     "ltz_ns": pa.array(values, pa.timestamp("ns", tz="UTC"))})
    rows = by(canon_rows(data))
    assert rows[0]["ns"] == "2023-11-14T22:13:20.123456789"
    assert rows[1]["ns"] == "1969-12-31T23:59:59.999999999"
    doc = schema_doc([_field(0, "id", "INT NOT NULL"), _field(1, "ns", "TIMESTAMP(9)"),
                      _field(2, "ltz_ns", "TIMESTAMP(9) WITH LOCAL TIME ZONE")])
    java.write(wh, "db.j", rows, schema=doc)
    assert by(java.read(wh, "db.j")) == rows
    assert by(cp_read(wh, "db.j")) == rows

    cp_write(cp_create(wh, "c", schema), data)
    assert by(cp_read(wh, "db.c")) == rows
    # 1.4.2 vs HEAD: Java 1.4.2's Parquet reader takes an INT64 TIMESTAMP(7..9) value as epoch
    # *milliseconds* whatever the unit annotation (LongTimestampUpdater in
    # ParquetVectorUpdaterFactory), and fails on an INT64 TIMESTAMP_LTZ(7..9) column (its
    # LongUpdater writes into a timestamp vector); HEAD converts by the annotated unit and reads
    # these files exactly. Pin 1.4.2.
    with pytest.raises(JavaError, match="HeapTimestampVector cannot be cast"):
        java.read(wh, "db.c")
    theirs = by(java.read(wh, "db.c", columns=["id", "ns"]))
    epoch = datetime.datetime(1970, 1, 1)
    for got, want in zip(theirs, (1_700_000_000_123_456_789, -1, 0)):
        if abs(want) < 10**14:
            assert got["ns"] == ts_text(epoch + datetime.timedelta(milliseconds=want), "ns")
        else:  # out of datetime's range: at least not the true value
            assert got["ns"] != rows[got["id"]]["ns"]


def test_char_varchar_binary_types(java, tmp_path):
    """Length-bounded types created by each side read identically by the other."""
    wh = str(tmp_path)
    fields = [_field(0, "id", "INT NOT NULL"), _field(1, "c", "CHAR(3)"),
              _field(2, "v", "VARCHAR(5)"),
              _field(3, "bn", "BINARY(2)"), _field(4, "vb", "VARBINARY(4)"),
              _field(5, "ltz3", "TIMESTAMP(3) WITH LOCAL TIME ZONE"),
              _field(6, "ts0", "TIMESTAMP(0)"),
              _field(7, "a", {"type": "ARRAY NOT NULL", "element": "INT NOT NULL"})]
    rows = [{"id": 0, "c": "abc", "v": "xy", "bn": "AAE=", "vb": "/w==",
             "ltz3": "2020-02-29T12:34:56.789000Z", "ts0": "1999-12-31T23:59:59.000000",
             "a": [1, 2]},
            {"id": 1, "c": None, "v": "", "bn": None, "vb": "", "ltz3": None, "ts0": None, "a": []}]
    java.write(wh, "db.j", rows, schema=schema_doc(fields))
    assert by(cp_read(wh, "db.j")) == rows
    cat = cp_catalog(wh)
    cat.create_table("db.c", cpaimon.Schema(
        [DataField(f["id"], f["name"], AtomicType(f["type"])) for f in fields[:7]]
        + [DataField(7, "a", ArrayType(False, AtomicType("INT NOT NULL")))]), False)
    cp_write(cat.get_table("db.c"), cat.get_table("db.j").new_read_builder().new_read().to_arrow(
        cat.get_table("db.j").new_read_builder().new_scan().plan().splits()))
    assert by(java.read(wh, "db.c")) == rows
    assert json.loads(java("schema", wh, "db.c"))["fields"] == fields


# ---------------------------------------------------------------------------------------------
# 3. Both commit alternately to one table


ALT_SCHEMA = pa.schema([pa.field("id", pa.int32(), nullable=False), ("v", pa.string()),
                        ("n", pa.int64()), ("dt", pa.string())])


def test_alternating_commits(java, tmp_path):
    """Appends and data-evolution updates alternate between cpaimon and Java on one partitioned
    table; after every commit both read the same rows, _ROW_ID and _SEQUENCE_NUMBER."""
    wh = str(tmp_path)
    cp_create(wh, "t", ALT_SCHEMA, ["dt"], DE)

    def same():
        ours = by(cp_read(wh, "db.t", hidden=True))
        assert ours == by(java.read(wh, "db.t", row_tracking=True))
        return ours

    for round_ in range(6):
        data = [{"id": round_ * 10 + i, "v": f"r{round_}", "n": i, "dt": f"p{i % 2}"}
                for i in range(3)]
        if round_ % 2 == 0:
            cp_write(cp_catalog(wh).get_table("db.t"),
                     pa.Table.from_pylist(data, schema=ALT_SCHEMA))
        else:
            java.write(wh, "db.t", data)
        rows = same()
    assert len(rows) == 18
    # Round k is snapshot k+1 and takes the next 3 row ids (the order across its two partitions
    # is implementation-defined, §1.3).
    for r in rows:
        k = r["id"] // 10
        assert r["_SEQUENCE_NUMBER"] == k + 1 and 3 * k <= r["_ROW_ID"] < 3 * k + 3
    assert java.snapshot(wh, "db.t")["nextRowId"] == 18
    rid = {r["id"]: r["_ROW_ID"] for r in rows}

    cp_update(wh, "db.t", pa.table({"_ROW_ID": pa.array([rid[0], rid[11]], pa.int64()),
                                    "n": pa.array([100, 111], pa.int64())}), ["n"])
    same()
    java.update(wh, "db.t", [{"_ROW_ID": rid[0], "n": 200}, {"_ROW_ID": rid[21], "v": "java"}])
    same()
    cp_update(wh, "db.t", pa.table({"_ROW_ID": pa.array([rid[21]], pa.int64()),
                                    "v": ["cp"]}), ["v"])
    java.write(wh, "db.t", [{"id": 60, "v": "late", "n": None, "dt": "p0"}])
    rows = {r["id"]: r for r in same()}
    assert (rows[0]["n"], rows[0]["_SEQUENCE_NUMBER"]) == (200, 8)
    assert (rows[11]["n"], rows[11]["_SEQUENCE_NUMBER"]) == (111, 7)
    assert (rows[21]["v"], rows[21]["n"], rows[21]["_SEQUENCE_NUMBER"]) == ("cp", 1, 9)
    assert (rows[60]["_ROW_ID"], rows[60]["_SEQUENCE_NUMBER"]) == (18, 10)
    assert rows[1]["v"] == "r0" and rows[1]["n"] == 1


# ---------------------------------------------------------------------------------------------
# 4. Data evolution: partial-column files of each side merged by the other


DE_SCHEMA = pa.schema([pa.field("id", pa.int32(), nullable=False), ("name", pa.string()),
                       ("age", pa.int32()), ("city", pa.string()), ("dt", pa.string())])
DE_FIELDS = [_field(0, "id", "INT NOT NULL"), _field(1, "name", "STRING"), _field(2, "age", "INT"),
             _field(3, "city", "STRING"), _field(4, "dt", "STRING")]
SEED = [[{"id": 1, "name": "Alice", "age": 25, "city": "NYC", "dt": "a"},
         {"id": 2, "name": "Bob", "age": 30, "city": "LA", "dt": "a"}],
        [{"id": 3, "name": "Charlie", "age": 35, "city": "Chicago", "dt": "b"},
         {"id": 4, "name": "David", "age": 40, "city": "Houston", "dt": "b"},
         {"id": 5, "name": "Eve", "age": 45, "city": "Phoenix", "dt": "b"}]]

# After: seed (snapshots 1, 2: groups [0,1] and [2,4]); age of row ids 1 and 4 (snapshot 3, both
# groups); name and city of row id 0 (snapshot 4, group [0,1]); ADD COLUMN emb; emb of row ids
# 2-4 (snapshot 5, group [2,4]). Every row of a group reads the sequence number of the group's
# newest file (§2.5).
DE_EXPECTED = [
    {"id": 1, "name": "Ann", "age": 25, "city": "Boston", "dt": "a", "emb": None,
     "_ROW_ID": 0, "_SEQUENCE_NUMBER": 4},
    {"id": 2, "name": "Bob", "age": 31, "city": "LA", "dt": "a", "emb": None,
     "_ROW_ID": 1, "_SEQUENCE_NUMBER": 4},
    {"id": 3, "name": "Charlie", "age": 35, "city": "Chicago", "dt": "b", "emb": [3.0, 0.5],
     "_ROW_ID": 2, "_SEQUENCE_NUMBER": 5},
    {"id": 4, "name": "David", "age": 40, "city": "Houston", "dt": "b", "emb": [4.0, 0.5],
     "_ROW_ID": 3, "_SEQUENCE_NUMBER": 5},
    {"id": 5, "name": "Eve", "age": 46, "city": "Phoenix", "dt": "b", "emb": [5.0, 0.5],
     "_ROW_ID": 4, "_SEQUENCE_NUMBER": 5},
]


def assert_same_snapshot_read(java_rows, cp_rows):
    """Reads of snapshot 3, taken before ADD COLUMN emb: Java and cpaimon both read a snapshot
    with the schema it was written with, so emb is absent from both."""
    assert all("emb" not in r for r in java_rows + cp_rows)
    assert by(java_rows) == by(cp_rows)


def drop_dt(rows, partitioned):
    return rows if partitioned else [{k: v for k, v in r.items() if k != "dt"} for r in rows]


def add_emb_column(wh):
    from cpaimon.schema.schema_change import SchemaChange
    cp_catalog(wh).alter_table("db.t", [SchemaChange.add_column(
        "emb", ArrayType(True, AtomicType("FLOAT")))])


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("partitioned", [False, True])
def test_cpaimon_partial_files_java_reads(java, tmp_path, partitioned, fmt):
    wh = str(tmp_path)
    schema = DE_SCHEMA if partitioned else DE_SCHEMA.remove(4)
    table = cp_create(wh, "t", schema, ["dt"] if partitioned else None, {**DE, "file.format": fmt})
    for rows in SEED:
        cp_write(table, pa.Table.from_pylist(drop_dt(rows, partitioned), schema=schema))
    cp_update(wh, "db.t", pa.table({"_ROW_ID": pa.array([4, 1], pa.int64()),
                                    "age": pa.array([46, 31], pa.int32())}), ["age"])
    cp_update(wh, "db.t", pa.table({"_ROW_ID": pa.array([0], pa.int64()), "city": ["Boston"],
                                    "name": ["Ann"]}), ["city", "name"])
    add_emb_column(wh)
    # Backfill the added column with the shard updater (shard 1 of 2 = the second group).
    t = cp_catalog(wh).get_table("db.t")
    wb = t.new_batch_write_builder()
    upd = wb.new_update().with_read_projection(["id"]).with_update_type(["emb"])
    shard = upd.new_shard_updator(1, 2)
    for batch in shard.arrow_reader():
        shard.update_by_arrow_batch(pa.RecordBatch.from_pydict(
            {"emb": [[float(i), 0.5] for i in batch.column("id").to_pylist()]},
            schema=pa.schema([("emb", pa.list_(pa.float32()))])))
    c = wb.new_commit()
    c.commit(shard.prepare_commit())
    c.close()

    expected = drop_dt(DE_EXPECTED, partitioned)
    assert by(java.read(wh, "db.t", row_tracking=True)) == expected
    assert by(cp_read(wh, "db.t", hidden=True)) == expected
    # A projection that leaves out the columns of the newest files still merges the group.
    assert by(java.read(wh, "db.t", columns=["age", "id"])) == [
        {"age": r["age"], "id": r["id"]} for r in expected]
    # Time travel to before the name/city update.
    at3 = by(java.read(wh, "db.t", row_tracking=True, snapshot=3))
    assert [(r["name"], r["age"], r["_SEQUENCE_NUMBER"]) for r in at3] == [
        ("Alice", 25, 3), ("Bob", 31, 3), ("Charlie", 35, 3), ("David", 40, 3), ("Eve", 46, 3)]
    assert_same_snapshot_read(at3, cp_read(wh, "db.t", hidden=True, snapshot=3))

    files = java.files(wh, "db.t")
    assert java_files_view(files) == manifest_files(tmp_path / "db.db/t")
    assert all(f["file_name"].endswith("." + fmt) for f in files)
    # cpaimon lists update columns in the caller's order, like pypaimon (§2.1).
    assert meta(files) == sorted([
        (0, 2, None, 1, 1),
        (0, 2, ["age"], 3, 3),
        (0, 2, ["city", "name"], 4, 4),
        (2, 3, None, 2, 2),
        (2, 3, ["age"], 3, 3),
        (2, 3, ["emb"], 5, 5),
    ], key=repr)
    emb_file = next(f for f in files if f["write_cols"] == ["emb"])
    assert emb_file["schema_id"] == 1
    if partitioned:
        assert {f["first_row_id"]: f["partition"]["dt"] for f in files} == {0: "a", 2: "b"}


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("partitioned", [False, True])
def test_java_partial_files_cpaimon_reads(java, tmp_path, partitioned, run_cli, fmt):
    wh = str(tmp_path)
    fields = DE_FIELDS if partitioned else DE_FIELDS[:4]
    doc = schema_doc(fields, ["dt"] if partitioned else [])
    for rows in SEED:
        java.write(wh, "db.t", drop_dt(rows, partitioned), schema=doc,
                   options={**DE, "file.format": fmt})
    assert java.update(wh, "db.t", [{"_ROW_ID": 4, "age": 46}, {"_ROW_ID": 1, "age": 31}]) == {
        "rows": 2, "files": 2, "write_cols": ["age"]}
    # Java (like Spark) lists the written columns in table order, whatever the input order.
    assert java.update(wh, "db.t", [{"_ROW_ID": 0, "city": "Boston", "name": "Ann"}])[
        "write_cols"] == ["name", "city"]
    add_emb_column(wh)  # cpaimon changes the schema; Java writes the new column
    # 1.4.2 vs HEAD: reading only columns that no file of a group holds yet, Java 1.4.2's
    # DataEvolutionFileStoreScan drops every file of the group and returns no rows; HEAD keeps one
    # file per group (pruneByReadType) and returns the rows with NULLs, as cpaimon does.
    assert java.read(wh, "db.t", columns=["emb"]) == []
    rb = cp_catalog(wh).get_table("db.t").new_read_builder().with_projection(["emb"])
    assert rb.new_read().to_arrow(rb.new_scan().plan().splits())["emb"].to_pylist() == [None] * 5
    java.update(wh, "db.t", [{"_ROW_ID": i, "emb": [float(i + 1), 0.5]} for i in (2, 3, 4)])

    expected = drop_dt(DE_EXPECTED, partitioned)
    assert by(cp_read(wh, "db.t", hidden=True)) == expected
    assert by(java.read(wh, "db.t", row_tracking=True)) == expected
    # The cpaimon command merges Java's files the same way.
    cat = run_cli("cat", wh, "db.t", "--with-row-tracking", "--columns", "id,name,age",
                  "--format", "json", check=True)
    cols = ["id", "name", "age"] + HIDDEN
    assert by([json.loads(line) for line in cat.stdout.splitlines()]) == [
        {k: r[k] for k in cols} for r in expected]
    at3 = by(java.read(wh, "db.t", row_tracking=True, snapshot=3))
    assert_same_snapshot_read(at3, cp_read(wh, "db.t", hidden=True, snapshot=3))
    assert [r["age"] for r in at3] == [25, 31, 35, 40, 46]

    files = java.files(wh, "db.t")
    assert java_files_view(files) == manifest_files(tmp_path / "db.db/t")
    assert meta(files) == sorted([
        (0, 2, None, 1, 1),
        (0, 2, ["age"], 3, 3),
        (0, 2, ["name", "city"], 4, 4),
        (2, 3, None, 2, 2),
        (2, 3, ["age"], 3, 3),
        (2, 3, ["emb"], 5, 5),
    ], key=repr)
    # cpaimon keeps updating the table Java evolved: its update lands on top of Java's files.
    cp_update(wh, "db.t", pa.table({"_ROW_ID": pa.array([3], pa.int64()),
                                    "emb": pa.array([[9.0]], pa.list_(pa.float32()))}), ["emb"])
    final = by(java.read(wh, "db.t", row_tracking=True))
    assert final == by(cp_read(wh, "db.t", hidden=True))
    assert [(r["emb"], r["_SEQUENCE_NUMBER"]) for r in final[2:]] == [
        ([3.0, 0.5], 6), ([9.0], 6), ([5.0, 0.5], 6)]


def test_update_conflicts_across_implementations(java, tmp_path):
    """Each side's commit-time conflict check sees the other's update files (§4): a concurrent
    update of the same column of the same row-id group conflicts, one of another column does not."""
    wh = str(tmp_path)
    for rows in SEED:
        java.write(wh, "db.t", drop_dt(rows, False), schema=schema_doc(DE_FIELDS[:4]), options=DE)

    def cp_stage(col, value):  # planned now, committed later
        wb = cp_catalog(wh).get_table("db.t").new_batch_write_builder()
        upd = wb.new_update().with_update_type([col])
        return wb, upd.update_by_arrow_with_row_id(
            pa.table({"_ROW_ID": pa.array([0], pa.int64()), col: [value]}))

    wb, msgs = cp_stage("name", "cp-name")
    java.update(wh, "db.t", [{"_ROW_ID": 1, "name": "java-name"}])  # snapshot 3, same group
    with pytest.raises(cpaimon.CommitConflictError, match="updating the same file"):
        wb.new_commit().commit(msgs)
    wb, msgs = cp_stage("city", "cp-city")
    java.update(wh, "db.t", [{"_ROW_ID": 1, "age": 99}])  # snapshot 4, another column
    wb.new_commit().commit(msgs)  # snapshot 5

    # Java planning on snapshot 4 conflicts with cpaimon's city update of group [0, 1] at 5 ...
    same_file = "updating the same file"
    with pytest.raises(JavaError, match=same_file):
        java.update(wh, "db.t", [{"_ROW_ID": 0, "city": "java-city"}], base_snapshot=4)
    # ... and, 1.4.2 vs HEAD, also on a column cpaimon did not touch: 1.4.2's
    # checkForRowIdFromSnapshot fails on any newer file overlapping the range, HEAD (and cpaimon,
    # above) only when the files share a column (§4.5).
    with pytest.raises(JavaError, match=same_file):
        java.update(wh, "db.t", [{"_ROW_ID": 0, "age": 1}], base_snapshot=4)
    # Another group does not conflict.
    java.update(wh, "db.t", [{"_ROW_ID": 2, "city": "x"}], base_snapshot=4)
    rows = by(java.read(wh, "db.t", row_tracking=True))
    assert rows == by(cp_read(wh, "db.t", hidden=True))
    assert [(r["name"], r["age"], r["city"], r["_SEQUENCE_NUMBER"]) for r in rows] == [
        ("Alice", 25, "cp-city", 5), ("java-name", 99, "LA", 5), ("Charlie", 35, "x", 6),
        ("David", 40, "Houston", 6), ("Eve", 45, "Phoenix", 6)]
    assert java.snapshot(wh, "db.t")["id"] == 6


def test_deletion_vectors_on_data_evolution_tables(java, tmp_path):
    """1.4.2 vs HEAD: HEAD Java supports deletion vectors on data-evolution tables (§2.6, what
    cpaimon implements); 1.4.2's SchemaValidation rejects the combination, so Java 1.4.2 can
    neither create nor open such a table."""
    wh = str(tmp_path)
    options = dict(DE, **{"deletion-vectors.enabled": "true"})
    schema = pa.schema([pa.field("id", pa.int32(), nullable=False), ("v", pa.string())])
    table = cp_create(wh, "dv", schema, None, options)
    cp_write(table, pa.table({"id": pa.array([1, 2, 3], pa.int32()), "v": ["a", "b", "c"]}))
    wb = table.new_batch_write_builder()
    wb.new_commit().commit(wb.new_update().delete_by_row_id([1]))
    rows = by(cp_read(wh, "db.dv", hidden=True))
    assert [(r["id"], r["_ROW_ID"]) for r in rows] == [(1, 0), (3, 2)]
    message = "Data evolution config must disabled with deletion-vectors.enabled"
    with pytest.raises(JavaError, match=message):
        java.read(wh, "db.dv")
    with pytest.raises(JavaError, match=message):
        java.write(wh, "db.j", [], schema=schema_doc(DE_FIELDS[:2]), options=options)


# ---------------------------------------------------------------------------------------------
# The harness itself fails loudly


def test_tool_reports_bad_input(java, tmp_path):
    wh = str(tmp_path)
    doc = schema_doc(DE_FIELDS[:4])
    java.write(wh, "db.t", [{"id": 1, "name": "a", "age": 1, "city": "c"}], schema=doc, options=DE)
    with pytest.raises(JavaError,
                       match=r"Row ID 7 does not belong to any valid range \[\[0, 0\]\]"):
        java.update(wh, "db.t", [{"_ROW_ID": 7, "age": 2}])
    with pytest.raises(JavaError, match="duplicate _ROW_ID values"):
        java.update(wh, "db.t", [{"_ROW_ID": 0, "age": 2}, {"_ROW_ID": 0, "age": 3}])
    with pytest.raises(JavaError, match=r"column nope is not in db.t"):
        java.update(wh, "db.t", [{"_ROW_ID": 0, "nope": 2}])
    with pytest.raises(JavaError, match=r"row 1: column id is NOT NULL but got null"):
        java.write(wh, "db.t", [{"id": None}])
    with pytest.raises(JavaError, match=r"row 1: column age \(INT\): cannot convert \"x\""):
        java.write(wh, "db.t", [{"id": 2, "age": "x"}])
    with pytest.raises(JavaError, match="does not exist and no --schema"):
        java.write(wh, "db.other", [{"id": 1}])
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"id": 1}\n{"id": \n')
    with pytest.raises(JavaError, match=r"bad.jsonl line 2: malformed JSON"):
        java("write", wh, "db.t", "--json", bad)
    with pytest.raises(JavaError, match="option --bogus is not known to 'read'"):
        java("read", wh, "db.t", "--bogus", "1")
    java.write(wh, "db.plain", [{"id": 1}], schema=doc)
    with pytest.raises(JavaError, match="requires 'data-evolution.enabled'"):
        java.update(wh, "db.plain", [{"_ROW_ID": 0, "age": 2}])
    # None of the failures committed anything.
    assert java.snapshot(wh, "db.t")["id"] == 1
    assert java.read(wh, "db.t") == [{"id": 1, "name": "a", "age": 1, "city": "c"}]
