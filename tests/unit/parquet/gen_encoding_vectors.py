#!/usr/bin/env python3
"""Generates tests/unit/parquet/encoding_vectors.h: raw Parquet page payloads written by pyarrow,
with the values they were written from, for test_encoding_pyarrow.c. With `--read CASE.json` it
does the opposite for test_encoding_interop.c: wraps pages that cpaimon's encoders wrote in a
minimal Parquet file and prints, one JSON value per line, what pyarrow reads from it.

Each case writes one small column with pyarrow (no compression, one page; dictionary off unless
the case is about dictionaries), then walks the column chunk's pages: a minimal Thrift compact
reader below decodes each PageHeader just enough to find the page body. The bodies are emitted as
C byte arrays beside the expected values, which come from the Python data itself (never from
cpaimon), and, for levels, from the Dremel rules applied here by hand.

Run from the repository root:  .venv/bin/python tests/unit/parquet/gen_encoding_vectors.py
The output is committed; rerun only to add cases (pyarrow's version is recorded in the header).
"""
import io
import json
import os
import random
import struct
import sys
import tempfile

import pyarrow as pa
import pyarrow.parquet as pq

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "encoding_vectors.h")


# ---- a minimal Thrift compact-protocol reader (PageHeader only needs these types) ----

class Compact:
    def __init__(self, buf, pos):
        self.buf, self.pos = buf, pos

    def byte(self):
        b = self.buf[self.pos]
        self.pos += 1
        return b

    def varint(self):
        v, shift = 0, 0
        while True:
            b = self.byte()
            v |= (b & 0x7F) << shift
            shift += 7
            if not b & 0x80:
                return v

    def zigzag(self):
        v = self.varint()
        return (v >> 1) ^ -(v & 1)

    def value(self, t):
        if t in (1, 2):
            return t == 1
        if t == 3:
            return struct.unpack("b", bytes([self.byte()]))[0]
        if t in (4, 5, 6):
            return self.zigzag()
        if t == 7:
            self.pos += 8
            return struct.unpack("<d", self.buf[self.pos - 8:self.pos])[0]
        if t == 8:
            n = self.varint()
            self.pos += n
            return self.buf[self.pos - n:self.pos]
        if t in (9, 10):
            h = self.byte()
            n, et = h >> 4, h & 0x0F
            if n == 15:
                n = self.varint()
            return [self.value(et) if et not in (1, 2) else self.byte() == 1 for _ in range(n)]
        if t == 12:
            return self.struct()
        raise ValueError(f"thrift type {t} not expected in a PageHeader")

    def struct(self):
        fields, last = {}, 0
        while True:
            h = self.byte()
            if h == 0:
                return fields
            t, delta = h & 0x0F, h >> 4
            fid = last + delta if delta else self.zigzag()
            fields[fid] = self.value(t)
            last = fid


def pages_of(path):
    """(header dict, body bytes) for every page of the file's only column chunk."""
    md = pq.ParquetFile(path).metadata
    assert md.num_row_groups == 1 and md.num_columns == 1
    col = md.row_group(0).column(0)
    start = col.dictionary_page_offset if col.has_dictionary_page else col.data_page_offset
    data = open(path, "rb").read()
    end, pos, pages = start + col.total_compressed_size, start, []
    while pos < end:
        r = Compact(data, pos)
        hdr = r.struct()
        body = data[r.pos:r.pos + hdr[3]]
        pages.append((hdr, body))
        pos = r.pos + hdr[3]
    return pages


def write(table, **kw):
    fd, path = tempfile.mkstemp(suffix=".parquet")
    os.close(fd)
    opts = dict(compression="none", use_dictionary=False, data_page_size=1 << 22,
                write_statistics=False)
    opts.update(kw)
    pq.write_table(table, path, **opts)
    pages = pages_of(path)
    os.unlink(path)
    return pages


# ---- C emission ----

class Emitter:
    def __init__(self):
        self.out = io.StringIO()

    def array(self, ctype, name, values, per_line=12):
        values = list(values)
        self.out.write(f"static const {ctype} {name}[{max(len(values), 1)}] = {{\n")
        for i in range(0, len(values), per_line):
            self.out.write("    " + ", ".join(values[i:i + per_line]) + ",\n")
        self.out.write("};\n")

    def bytes_(self, name, data):
        self.array("uint8_t", name, (f"0x{b:02x}" for b in data), 16)
        self.define(f"{name.upper()}_LEN", len(data))

    def define(self, name, value):
        self.out.write(f"#define {name} {value}\n")

    def page(self, prefix, hdr, body):
        """Emits the body and the header fields a test needs."""
        self.bytes_(f"{prefix}_page", body)
        if 5 in hdr:  # DataPageHeader
            self.define(f"{prefix.upper()}_NUM_VALUES", hdr[5][1])
            self.define(f"{prefix.upper()}_ENCODING", hdr[5][2])
        if 7 in hdr:  # DictionaryPageHeader
            self.define(f"{prefix.upper()}_NUM_VALUES", hdr[7][1])
            self.define(f"{prefix.upper()}_ENCODING", hdr[7][2])
        if 8 in hdr:  # DataPageHeaderV2
            v2 = hdr[8]
            self.define(f"{prefix.upper()}_NUM_VALUES", v2[1])
            self.define(f"{prefix.upper()}_NUM_NULLS", v2[2])
            self.define(f"{prefix.upper()}_ENCODING", v2[4])
            self.define(f"{prefix.upper()}_DEF_LEN", v2[5])
            self.define(f"{prefix.upper()}_REP_LEN", v2[6])


def ints(vals, bits):
    suffix = "LL" if bits == 64 else ""
    out = []
    for v in vals:
        if bits == 64 and v == -(1 << 63):
            out.append("INT64_MIN")
        elif bits == 32 and v == -(1 << 31):
            out.append("INT32_MIN")
        else:
            out.append(f"{v}{suffix}")
    return out


def binaries(em, name, vals):
    offs, data = [0], bytearray()
    for v in vals:
        data += v
        offs.append(len(data))
    em.array("int32_t", f"{name}_offsets", (str(o) for o in offs))
    em.bytes_(f"{name}_data", data)


def single_data_page(pages, version):
    data = [p for p in pages if p[0][1] in (0, 3)]
    assert len(data) == 1, f"expected one data page, got {len(pages)} pages"
    assert data[0][0][1] == (0 if version == "1.0" else 3)
    return data[0]


def main():
    rnd = random.Random(20240611)
    em = Emitter()
    w = em.out.write
    w("/* Generated by tests/unit/parquet/gen_encoding_vectors.py with pyarrow "
      f"{pa.__version__}: raw page\n * payloads written by pyarrow and the values they were "
      "written from. Do not edit. */\n")
    w("#ifndef CP_TEST_ENCODING_VECTORS_H\n#define CP_TEST_ENCODING_VECTORS_H\n")
    w("#include <stdint.h>\n\n")

    # DELTA_BINARY_PACKED, required INT32 and INT64 (v1: the body is the values alone).
    n = 600
    i32 = [rnd.randint(-(1 << 31), (1 << 31) - 1) if i % 7 == 0 else rnd.randint(-50, 50) + i
           for i in range(n)]
    i32[3], i32[4] = -(1 << 31), (1 << 31) - 1
    t = pa.table({"x": pa.array(i32, pa.int32())},
                 schema=pa.schema([pa.field("x", pa.int32(), nullable=False)]))
    em.page("v_dbp32", *single_data_page(write(t, column_encoding={"x": "DELTA_BINARY_PACKED"}),
                                         "1.0"))
    em.array("int32_t", "v_dbp32_values", ints(i32, 32))
    i64 = [rnd.choice([-(1 << 63), (1 << 63) - 1, rnd.randint(-(1 << 63), (1 << 63) - 1),
                       1700000000000000 + i]) for i in range(n)]
    t = pa.table({"x": pa.array(i64, pa.int64())},
                 schema=pa.schema([pa.field("x", pa.int64(), nullable=False)]))
    em.page("v_dbp64", *single_data_page(write(t, column_encoding={"x": "DELTA_BINARY_PACKED"}),
                                         "1.0"))
    em.array("int64_t", "v_dbp64_values", ints(i64, 64))

    # Optional INT64 with nulls, v1 and v2: definition levels before the DELTA values.
    opt = [None if rnd.random() < 0.2 else rnd.randint(-1000, 1000) * 1000 for _ in range(300)]
    t = pa.table({"x": pa.array(opt, pa.int64())})
    for ver, tag in (("1.0", "v1"), ("2.0", "v2")):
        pages = write(t, column_encoding={"x": "DELTA_BINARY_PACKED"}, data_page_version=ver)
        em.page(f"v_opt64_{tag}", *single_data_page(pages, ver))
    em.array("uint8_t", "v_opt64_valid", ("0" if v is None else "1" for v in opt), 32)
    em.array("int64_t", "v_opt64_values", ints([v for v in opt if v is not None], 64))
    em.define("V_OPT64_ROWS", len(opt))

    # Byte arrays: DELTA_LENGTH_BYTE_ARRAY and DELTA_BYTE_ARRAY (shared prefixes), required.
    words = ["", "a", "apple", "applesauce", "application", "banana", "band", "bandana",
             "\u00e9t\u00e9", "z" * 40]
    strs = [rnd.choice(words) + str(rnd.randint(0, 20)) * rnd.randint(0, 2) for _ in range(200)]
    sch = pa.schema([pa.field("s", pa.string(), nullable=False)])
    t = pa.table({"s": pa.array(strs)}, schema=sch)
    for enc, tag in (("DELTA_LENGTH_BYTE_ARRAY", "dlba"), ("DELTA_BYTE_ARRAY", "dba")):
        em.page(f"v_{tag}", *single_data_page(write(t, column_encoding={"s": enc}), "1.0"))
    binaries(em, "v_strs", [s.encode() for s in strs])
    em.define("V_STRS_COUNT", len(strs))

    # FIXED_LEN_BYTE_ARRAY(5) through DELTA_BYTE_ARRAY.
    fl = [bytes([65 + rnd.randint(0, 2) for _ in range(5)]) for _ in range(200)]
    sch = pa.schema([pa.field("f", pa.binary(5), nullable=False)])
    t = pa.table({"f": pa.array(fl, pa.binary(5))}, schema=sch)
    em.page("v_flba_dba", *single_data_page(write(t, column_encoding={"f": "DELTA_BYTE_ARRAY"}),
                                            "1.0"))
    em.bytes_("v_flba_values", b"".join(fl))
    em.define("V_FLBA_COUNT", len(fl))

    # BYTE_STREAM_SPLIT for FLOAT, DOUBLE, INT32, INT64, FLBA(3); expected as raw LE bytes.
    n = 200
    cases = [
        ("float", pa.float32(), [rnd.uniform(-1e6, 1e6) for _ in range(n)], "<f"),
        ("double", pa.float64(), [rnd.uniform(-1e300, 1e300) for _ in range(n)], "<d"),
        ("int32", pa.int32(), [rnd.randint(-(1 << 31), (1 << 31) - 1) for _ in range(n)], "<i"),
        ("int64", pa.int64(), [rnd.randint(-(1 << 63), (1 << 63) - 1) for _ in range(n)], "<q"),
    ]
    for tag, typ, vals, fmt in cases:
        t = pa.table({"x": pa.array(vals, typ)},
                     schema=pa.schema([pa.field("x", typ, nullable=False)]))
        em.page(f"v_bss_{tag}", *single_data_page(write(t, column_encoding={
            "x": "BYTE_STREAM_SPLIT"}), "1.0"))
        em.bytes_(f"v_bss_{tag}_values", b"".join(struct.pack(fmt, v) for v in vals))
    fl3 = [bytes(rnd.randint(0, 255) for _ in range(3)) for _ in range(n)]
    t = pa.table({"x": pa.array(fl3, pa.binary(3))},
                 schema=pa.schema([pa.field("x", pa.binary(3), nullable=False)]))
    em.page("v_bss_flba3", *single_data_page(write(t, column_encoding={
        "x": "BYTE_STREAM_SPLIT"}), "1.0"))
    em.bytes_("v_bss_flba3_values", b"".join(fl3))

    # RLE booleans in a v2 page of an optional column (levels raw, values length-prefixed).
    bools = [None if rnd.random() < 0.1 else (rnd.random() < 0.3 or 100 <= i < 160)
             for i in range(700)]
    t = pa.table({"b": pa.array(bools, pa.bool_())})
    em.page("v_rlebool", *single_data_page(write(t, column_encoding={"b": "RLE"},
                                                 data_page_version="2.0"), "2.0"))
    em.array("uint8_t", "v_rlebool_valid", ("0" if v is None else "1" for v in bools), 32)
    em.array("uint8_t", "v_rlebool_values", ("1" if v else "0" for v in bools if v is not None),
             32)
    em.define("V_RLEBOOL_ROWS", len(bools))

    # Dictionary encoding: PLAIN dictionary page + RLE_DICTIONARY data page.
    dstr = [rnd.choice(words) for _ in range(400)]
    sch = pa.schema([pa.field("s", pa.string(), nullable=False)])
    pages = write(pa.table({"s": pa.array(dstr)}, schema=sch), use_dictionary=True)
    assert len(pages) == 2 and pages[0][0][1] == 2
    em.page("v_dict_str_dict", *pages[0])
    em.page("v_dict_str_data", *pages[1])
    binaries(em, "v_dict_strs", [s.encode() for s in dstr])
    em.define("V_DICT_STRS_COUNT", len(dstr))
    di64 = [rnd.choice([5, -7, 1 << 40, -(1 << 63)]) for _ in range(400)]
    sch = pa.schema([pa.field("x", pa.int64(), nullable=False)])
    pages = write(pa.table({"x": pa.array(di64)}, schema=sch), use_dictionary=True)
    em.page("v_dict_i64_dict", *pages[0])
    em.page("v_dict_i64_data", *pages[1])
    em.array("int64_t", "v_dict_i64_values", ints(di64, 64))

    # PLAIN for every physical type, required (BOOLEAN, INT32, INT64, INT96, FLOAT, DOUBLE,
    # BYTE_ARRAY, FLBA(7)).
    n = 100
    pb = [rnd.random() < 0.5 for _ in range(n)]
    pf = [struct.unpack("<f", struct.pack("<f", rnd.uniform(-5, 5)))[0] for _ in range(n)]
    pbin = [bytes(rnd.randint(0, 255) for _ in range(rnd.randint(0, 9))) for _ in range(n)]
    pfl = [bytes(rnd.randint(0, 255) for _ in range(7)) for _ in range(n)]
    pts = [rnd.randint(-(1 << 40), 1 << 40) * 1000 for _ in range(n)]  # ns since epoch
    plain = [
        ("bool", pa.array(pb, pa.bool_())),
        ("float", pa.array(pf, pa.float32())),
        ("binary", pa.array(pbin, pa.binary())),
        ("flba", pa.array(pfl, pa.binary(7))),
        ("int96", pa.array(pts, pa.timestamp("ns"))),
    ]
    for tag, arr in plain:
        t = pa.table({"x": arr}, schema=pa.schema([pa.field("x", arr.type, nullable=False)]))
        pages = write(t, use_deprecated_int96_timestamps=(tag == "int96"))
        em.page(f"v_plain_{tag}", *single_data_page(pages, "1.0"))
    em.array("uint8_t", "v_plain_bool_values", ("1" if v else "0" for v in pb), 32)
    em.bytes_("v_plain_float_values", b"".join(struct.pack("<f", v) for v in pf))
    binaries(em, "v_plain_bins", pbin)
    em.bytes_("v_plain_flba_values", b"".join(pfl))
    # INT96: nanoseconds of the day (int64 LE) then the Julian day (int32 LE), §4 P9. pyarrow
    # divides truncating toward zero, like Java Paimon: instants before 1970 get a negative
    # nanoseconds-of-day (checked on pyarrow 19 by writing -5 s: day 2440588, nanos -5e9).
    i96 = bytearray()
    for ns in pts:
        day = abs(ns) // (86400 * 10**9) * (1 if ns >= 0 else -1)
        i96 += struct.pack("<qi", ns - day * 86400 * 10**9, day + 2440588)
    em.bytes_("v_plain_int96_values", bytes(i96))
    em.define("V_PLAIN_COUNT", n)

    # Levels of an optional list<optional int32> (spec/parquet.md §3.2 shape), v1 page.
    rows = []
    for _ in range(300):
        k = rnd.random()
        if k < 0.1:
            rows.append(None)
        elif k < 0.2:
            rows.append([])
        else:
            rows.append([None if rnd.random() < 0.2 else rnd.randint(0, 99)
                         for _ in range(rnd.randint(1, 4))])
    t = pa.table({"l": pa.array(rows, pa.list_(pa.int32()))})
    em.page("v_list", *single_data_page(write(t), "1.0"))
    rep, dfn, vals = [], [], []
    for row in rows:  # §3.1: def 0 null list, 1 empty, 2 null element, 3 value
        if row is None:
            rep.append(0), dfn.append(0)
        elif not row:
            rep.append(0), dfn.append(1)
        else:
            for j, v in enumerate(row):
                rep.append(0 if j == 0 else 1)
                dfn.append(2 if v is None else 3)
                if v is not None:
                    vals.append(v)
    em.array("int16_t", "v_list_rep", (str(x) for x in rep), 32)
    em.array("int16_t", "v_list_def", (str(x) for x in dfn), 32)
    em.array("int32_t", "v_list_values", (str(x) for x in vals))
    em.define("V_LIST_LEVELS", len(rep))

    w("\n#endif\n")
    open(OUT, "w").write(em.out.getvalue())
    print(f"wrote {OUT}", file=sys.stderr)


# ---- --read: wrap cpaimon-encoded pages in a file and let pyarrow read it ----

class CompactWriter:
    """Thrift compact protocol, just the parts FileMetaData and PageHeader need."""

    def __init__(self):
        self.out, self.last = bytearray(), [0]

    def varint(self, v):
        while v >= 0x80:
            self.out.append((v & 0x7F) | 0x80)
            v >>= 7
        self.out.append(v)

    def field(self, fid, t):
        delta = fid - self.last[-1]
        if 0 < delta <= 15:
            self.out.append(delta << 4 | t)
        else:
            self.out.append(t)
            self.varint((fid << 1) ^ (fid >> 63))
        self.last[-1] = fid

    def i32(self, fid, v, t=5):
        self.field(fid, t)
        self.varint((v << 1) ^ (v >> 63))

    def i64(self, fid, v):
        self.i32(fid, v, 6)

    def boolean(self, fid, v):
        self.field(fid, 1 if v else 2)

    def binary(self, fid, b):
        self.field(fid, 8)
        self.varint(len(b))
        self.out += b

    def begin(self, fid=None):
        if fid is not None:
            self.field(fid, 12)
        self.last.append(0)

    def end(self):
        self.out.append(0)
        self.last.pop()

    def list_header(self, fid, elem_type, n):
        self.field(fid, 9)
        self.out.append(n << 4 | elem_type if n < 15 else 0xF0 | elem_type)
        if n >= 15:
            self.varint(n)

    def list_begin_struct(self):
        self.last.append(0)


def page_header(pg, body_len):
    w = CompactWriter()
    w.begin()
    kind = pg["kind"]
    w.i32(1, {"v1": 0, "dict": 2, "v2": 3}[kind])
    w.i32(2, body_len)
    w.i32(3, body_len)
    if kind == "v1":
        w.begin(5)
        w.i32(1, pg["num_values"])
        w.i32(2, pg["encoding"])
        w.i32(3, 3)
        w.i32(4, 3)
        w.end()
    elif kind == "dict":
        w.begin(7)
        w.i32(1, pg["num_values"])
        w.i32(2, 0)
        w.end()
    else:
        w.begin(8)
        for fid, key in enumerate(("num_values", "num_nulls", "num_rows", "encoding", "def_len",
                                   "rep_len"), 1):
            w.i32(fid, pg[key])
        w.boolean(7, False)
        w.end()
    w.end()
    return bytes(w.out)


def schema_elements(w, case):
    """Root, then either one leaf or an optional LIST group around an optional element."""
    leaf = case["leaf"]
    elems = [dict(name="schema", num_children=1)]
    if case.get("list"):
        elems += [dict(name="l", repetition=1, num_children=1, converted=3),
                  dict(name="list", repetition=2, num_children=1),
                  dict(name="element", repetition=1, type=leaf["type"])]
    else:
        elems.append(dict(name="x", repetition=leaf["repetition"], type=leaf["type"],
                          converted=leaf.get("converted")))
    w.list_header(2, 12, len(elems))
    for e in elems:
        w.list_begin_struct()
        if "type" in e:
            w.i32(1, e["type"])
        if "repetition" in e:
            w.i32(3, e["repetition"])
        w.binary(4, e["name"].encode())
        if "num_children" in e:
            w.i32(5, e["num_children"])
        if e.get("converted") is not None:
            w.i32(6, e["converted"])
        w.end()
    return ["l", "list", "element"] if case.get("list") else ["x"]


def build_file(case, bodies):
    data = bytearray(b"PAR1")
    chunk_start, dict_offset, data_offset, num_values, encodings = len(data), None, None, 0, {3}
    for pg, body in zip(case["pages"], bodies):
        if pg["kind"] == "dict":
            dict_offset = len(data)
            encodings.add(0)
        else:
            data_offset = len(data) if data_offset is None else data_offset
            num_values += pg["num_values"]
            encodings.add(pg["encoding"])
        data += page_header(pg, len(body)) + body
    chunk_size = len(data) - chunk_start
    w = CompactWriter()
    w.begin()
    w.i32(1, 1)
    path = schema_elements(w, case)
    w.i64(3, case["rows"])
    w.list_header(4, 12, 1)
    w.list_begin_struct()  # RowGroup
    w.list_header(1, 12, 1)
    w.list_begin_struct()  # ColumnChunk
    w.i64(2, 0)
    w.begin(3)  # ColumnMetaData
    w.i32(1, case["leaf"]["type"])
    w.list_header(2, 5, len(encodings))
    for e in sorted(encodings):
        w.varint((e << 1) ^ (e >> 63))
    w.list_header(3, 8, len(path))
    for name in path:
        w.varint(len(name))
        w.out += name.encode()
    w.i32(4, 0)
    w.i64(5, num_values)
    w.i64(6, chunk_size)
    w.i64(7, chunk_size)
    w.i64(9, data_offset)
    if dict_offset is not None:
        w.i64(11, dict_offset)
    w.end()  # ColumnMetaData
    w.end()  # ColumnChunk
    w.i64(2, chunk_size)
    w.i64(3, case["rows"])
    w.end()  # RowGroup
    w.end()  # FileMetaData
    data += w.out + struct.pack("<I", len(w.out)) + b"PAR1"
    return bytes(data)


def read_case(desc_path):
    case = json.load(open(desc_path))
    blob = open(case["file"], "rb").read()
    bodies = [blob[pg["offset"]:pg["offset"] + pg["length"]] for pg in case["pages"]]
    path = case["file"] + ".parquet"
    open(path, "wb").write(build_file(case, bodies))
    for v in pq.read_table(path).column(0).to_pylist():
        print(json.dumps(v, separators=(",", ":")))
    os.unlink(path)


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "--read":
        read_case(sys.argv[2])
    else:
        main()
