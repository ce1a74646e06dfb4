"""Reading BLOB columns (issue 17; src/format/blob/blob_file.h, spec/maintenance-and-blob.md
§5.3, §5.6): tables pypaimon 2.1 writes with a BLOB column — values, NULLs, empty and 1 MiB
blobs, several commits, blob updates by row id (placeholders in the newer `.blob` files) — read
by cpaimon exactly as pypaimon reads them, hidden columns included; projections without the BLOB
column never open a `.blob` file; corrupt `.blob` files fail naming the file."""
import base64
import os
import shutil

import pyarrow as pa
import pypaimon
import pytest

import cpaimon
from test_java_interop import java  # noqa: F401  (Java Paimon 1.4.2, the session fixture)

COLS = ["id", "v", "pic", "_ROW_ID", "_SEQUENCE_NUMBER"]


def create(wh, extra=None):
    cat = pypaimon.CatalogFactory.create({"warehouse": str(wh)})
    cat.create_database("db", False)
    cat.create_table("db.t", pypaimon.Schema.from_pyarrow_schema(
        pa.schema([("id", pa.int32()), ("v", pa.string()), ("pic", pa.large_binary())]),
        options={"row-tracking.enabled": "true", "data-evolution.enabled": "true",
                 **(extra or {})}), False)
    return cat.get_table("db.t")


def append(t, ids, pics):
    wb = t.new_batch_write_builder()
    w, c = wb.new_write(), wb.new_commit()
    w.write_arrow(pa.table({"id": pa.array(ids, pa.int32()), "v": [f"v{i}" for i in ids],
                            "pic": pa.array(pics, pa.large_binary())}))
    c.commit(w.prepare_commit())
    w.close()
    c.close()


def update(wh, ids, pics):
    t = pypaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    wb = t.new_batch_write_builder()
    msgs = wb.new_update().with_update_type(["pic"]).update_by_arrow_with_row_id(
        pa.table({"_ROW_ID": pa.array(ids, pa.int64()), "pic": pa.array(pics, pa.large_binary())}))
    wb.new_commit().commit(msgs)


def read(lib, wh, cols=COLS, **options):
    t = lib.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    if options:
        t = t.copy(options)
    rb = t.new_read_builder().with_projection(cols)
    rows = rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist()
    return sorted((tuple(r.values()) for r in rows), key=lambda r: r[cols.index("_ROW_ID")])


def blob_files(wh):
    return sorted(p for p in (wh / "db.db" / "t").rglob("*.blob"))


def test_values_nulls_sizes_and_commits(tmp_path):
    wh = tmp_path / "wh"
    t = create(wh)
    big = os.urandom(1 << 20)
    append(t, [0, 1, 2, 3], [b"a" * 10, None, b"", big])
    append(t, [4, 5], [None, None])
    append(t, [6], [bytes(range(256)) * 40])
    want = read(pypaimon, wh)
    assert read(cpaimon, wh) == want
    assert [r[2] for r in want][:4] == [b"a" * 10, None, b"", big]
    # The BLOB column alone, with the hidden columns, and in another order.
    for cols in (["pic", "_ROW_ID"], ["_ROW_ID", "id", "pic"], ["v", "_ROW_ID"]):
        assert read(cpaimon, wh, cols) == read(pypaimon, wh, cols)


def test_updates_with_placeholders(tmp_path):
    """pypaimon's blob updates write newer `.blob` files holding placeholders for untouched rows;
    each row takes the newest real value (NULL included) as pypaimon does."""
    wh = tmp_path / "wh"
    t = create(wh)
    append(t, [0, 1, 2], [b"x0", b"x1", b"x2"])
    append(t, [3, 4, 5], [b"y3", None, b"y5"])
    update(wh, [1, 4], [b"new1", b"new4"])
    update(wh, [1, 3], [None, b"newer3"])
    assert len(blob_files(wh)) >= 4
    got = read(cpaimon, wh)
    assert got == read(pypaimon, wh)
    assert [r[2] for r in got] == [b"x0", None, b"x2", b"newer3", b"new4", b"y5"]


def test_rolling_blob_files(tmp_path):
    """blob.target-file-size small: one field rolls into several `.blob` files per normal file."""
    wh = tmp_path / "wh"
    t = create(wh, {"blob.target-file-size": "1 kb"})
    append(t, list(range(40)), [bytes([i]) * 300 for i in range(40)])
    assert len(blob_files(wh)) > 5
    assert read(cpaimon, wh) == read(pypaimon, wh)


def test_projection_without_blob_never_opens_blob_files(tmp_path):
    wh = tmp_path / "wh"
    t = create(wh)
    append(t, [0, 1], [b"p", b"q"])
    for f in blob_files(wh):
        f.write_bytes(b"not a blob file")
    assert read(cpaimon, wh, ["id", "v", "_ROW_ID"]) == [(0, "v0", 0), (1, "v1", 1)]


@pytest.mark.parametrize("damage", ["version", "truncated", "index", "lengths"])
def test_corrupt_blob_file_is_named(tmp_path, damage):
    wh = tmp_path / "wh"
    t = create(wh)
    append(t, [0, 1, 2], [b"aa", None, b"bbbb"])
    (f,) = blob_files(wh)
    data = bytearray(f.read_bytes())
    if damage == "version":
        data[-1] = 7
    elif damage == "truncated":
        data = data[:-3]
    elif damage == "index":
        data[-5:-1] = (len(data)).to_bytes(4, "little")
    else:
        data = data[:8] + data[9:]  # one payload byte fewer: the lengths no longer add up
    f.write_bytes(bytes(data))
    with pytest.raises(Exception) as e:
        read(cpaimon, wh)
    assert f.name in str(e.value)
    assert "blob" in str(e.value).lower()


def test_sql_and_cli(tmp_path, run_cli):
    """SQL reads BLOB values as bytes: length() counts them (1 MiB of random bytes is not
    text), filters and substring work on them; the CLI prints them."""
    wh = tmp_path / "wh"
    t = create(wh)
    big = os.urandom(1 << 20)
    append(t, [0, 1, 2], [b"abc", None, big])
    r = run_cli("sql", "--warehouse", wh, "--format", "csv", "-e",
                "SELECT id, length(pic), substring(pic, 1, 2) FROM db.t "
                "WHERE length(pic) > 1 ORDER BY id")
    assert r.returncode == 0, r.stderr
    first2 = base64.b64encode(big[:2]).decode()  # CSV writes binary as base64, as Spark's
    assert r.stdout.splitlines()[1:] == ["0,3,YWI=", f"2,{1 << 20},{first2}"]
    r = run_cli("cat", wh, "db.t", "--columns", "id,pic")
    assert r.returncode == 0 and "[61 62 63]" in r.stdout, r.stderr


def test_blob_as_descriptor(tmp_path):
    """blob-as-descriptor: each value as pypaimon returns it — a BlobDescriptor (version 2,
    "BLOBDESC", the `.blob` file's path, offset, length) — whose range holds the content."""
    wh = tmp_path / "wh"
    t = create(wh)
    append(t, [0, 1, 2], [b"hello", None, b""])
    update(wh, [0], [b"newer"])
    cols = ["id", "pic", "_ROW_ID"]
    got = read(cpaimon, wh, cols, **{"blob-as-descriptor": "true"})
    assert got == read(pypaimon, wh, cols, **{"blob-as-descriptor": "true"})
    content = {r[0]: r[1] for r in read(cpaimon, wh, cols)}
    for i, desc, _ in got:
        if desc is None:
            assert content[i] is None
            continue
        assert desc[0] == 2 and desc[1:9] == b"CSEDBOLB"
        n = int.from_bytes(desc[9:13], "little")
        path = desc[13:13 + n].decode()
        off, length = (int.from_bytes(desc[13 + n + k:21 + n + k], "little") for k in (0, 8))
        with open(path, "rb") as f:
            f.seek(off)
            assert f.read(length) == content[i]
    assert read(cpaimon, wh, cols, **{"blob-as-descriptor": "false"}) == read(cpaimon, wh, cols)


def test_filters_with_blobs(tmp_path):
    """A filter on other columns or on _ROW_ID returns the right blobs, whichever rows a batch
    holds (only the surviving rows' payloads are read); the unfiltered read is pypaimon's."""
    wh = tmp_path / "wh"
    t = create(wh)
    append(t, list(range(50)), [bytes([i]) * (i + 1) if i % 7 else None for i in range(50)])
    append(t, list(range(50, 60)), [bytes([i]) * 3 for i in range(50, 60)])
    everything = read(cpaimon, wh)
    assert everything == read(pypaimon, wh)
    tt = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    pb = tt.new_read_builder().new_predicate_builder()
    for pred, keep in ((pb.is_in("_ROW_ID", [3, 17, 49, 55]), lambda r: r[3] in (3, 17, 49, 55)),
                       (pb.greater_or_equal("id", 45), lambda r: r[0] >= 45),
                       (pb.is_null("v"), lambda r: False)):
        rb = tt.new_read_builder().with_projection(COLS).with_filter(pred)
        got = sorted(tuple(r.values()) for r in
                     rb.new_read().to_arrow(rb.new_scan().plan().splits()).to_pylist())
        assert got == [r for r in everything if keep(r)]


def test_streamed_batches_are_bounded_by_blob_bytes(tmp_path):
    """A stream's batches hold at most 4 MiB of BLOB payloads (a single larger blob is a batch of
    its own), so a consumer's memory does not grow with the number of blobs. With a filter the
    rows a batch keeps are estimated from the earlier batches, so a batch may hold up to 16 times
    that. The rows are those of one to_arrow, and across a blob update whose newer file holds
    placeholders."""
    wh = tmp_path / "wh"
    t = create(wh)
    sizes = [300_000] * 40 + [5_000_000] + [10] * 3000 + [1_000_000] * 9
    append(t, list(range(len(sizes))), [bytes([i % 251]) * n for i, n in enumerate(sizes)])
    update(wh, [2, 41, 3001], [b"new", None, b"x" * 2_000_000])
    everything = read(cpaimon, wh)
    assert everything == read(pypaimon, wh)
    tt = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    pb = tt.new_read_builder().new_predicate_builder()
    for pred, keep in ((None, lambda r: True),
                       (pb.is_in("_ROW_ID", [0, 39, 40, 41, 1500, 3050]),
                        lambda r: r[3] in (0, 39, 40, 41, 1500, 3050)),
                       (pb.greater_or_equal("id", 3030), lambda r: r[0] >= 3030)):
        rb = tt.new_read_builder().with_projection(COLS)
        if pred is not None:
            rb = rb.with_filter(pred)
        got, batches = [], 0
        for b in rb.new_read().to_arrow_batch_reader(rb.new_scan().plan().splits()):
            payload = sum(len(v) for v in b.column("pic").to_pylist() if v is not None)
            bound = (4 << 20) * (1 if pred is None else 16)
            assert payload <= bound or b.num_rows == 1, (b.num_rows, payload)
            got += [tuple(r.values()) for r in b.to_pylist()]
            batches += 1
        assert sorted(got) == [r for r in everything if keep(r)]
        if pred is None:  # 12 MB of 300 KB blobs alone take three batches
            assert batches > 5, batches


JAVA_1_4_2_NO_BLOB_ARRAYS = "Read type of a blob format does not contain any blob field"


def test_array_of_blob_read_map_of_blob_refused(tmp_path, java):  # noqa: F811
    """pypaimon 2.1 writes ARRAY<BLOB> and MAP<K, BLOB> columns into `.blob` files, one payload
    per row in encodings of their own. cpaimon reads ARRAY<BLOB> exactly as pypaimon does (NULL
    and empty arrays, NULL elements, several commits); MAP<K, BLOB> is refused naming the column
    and its file (cpaimon used to hand out a malformed Arrow array) while the other columns read;
    and a cpaimon write of either is refused before anything is written. JAVA_1_4_2_NO_BLOB_ARRAYS:
    Java 1.4.2 reads no table with such a column, so pypaimon is the oracle here."""
    wh = tmp_path / "wh"
    schema = pa.schema([("id", pa.int32()), ("pics", pa.list_(pa.large_binary())),
                        ("m", pa.map_(pa.string(), pa.large_binary()))])
    cat = pypaimon.CatalogFactory.create({"warehouse": str(wh)})
    cat.create_database("db", False)
    cat.create_table("db.t", pypaimon.Schema.from_pyarrow_schema(schema, options={
        "row-tracking.enabled": "true", "data-evolution.enabled": "true"}), False)
    big = os.urandom(200_000)
    batches = [
        pa.table({"id": pa.array([1, 2, 3], pa.int32()),
                  "pics": pa.array([[b"a", None, b""], None, []], pa.list_(pa.large_binary())),
                  "m": pa.array([[("k", b"v")], None, []], pa.map_(pa.string(), pa.large_binary()))}),
        pa.table({"id": pa.array([4, 5], pa.int32()),
                  "pics": pa.array([[big, b"x" * 300], [None]], pa.list_(pa.large_binary())),
                  "m": pa.array([None, None], pa.map_(pa.string(), pa.large_binary()))})]
    for data in batches:
        t = cat.get_table("db.t")
        wb = t.new_batch_write_builder()
        w = wb.new_write()
        w.write_arrow(data)
        wb.new_commit().commit(w.prepare_commit())
    cols = ["id", "pics", "_ROW_ID"]
    ours = read(cpaimon, wh, cols=cols)
    assert ours == read(pypaimon, wh, cols=cols)
    assert [r[1] for r in ours] == [[b"a", None, b""], None, [], [big, b"x" * 300], [None]]
    with pytest.raises(Exception, match=JAVA_1_4_2_NO_BLOB_ARRAYS):
        java.read(wh, "db.t", row_tracking=True)
    ct = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    rb = ct.new_read_builder().with_projection(["id", "m"])
    with pytest.raises(Exception, match=r"reading column m \(MAP\) from blob file "
                                        r"data-.*\.blob is not supported yet"):
        rb.new_read().to_arrow(rb.new_scan().plan().splits())
    with pytest.raises(Exception, match=r"blob-as-descriptor reads of ARRAY<BLOB> column pics"):
        read(cpaimon, wh, cols=cols, **{"blob-as-descriptor": "true"})
    before = sorted(p.name for p in wh.rglob("*") if p.is_file())
    for col, kind in (("pics", "ARRAY"), ("m", "MAP")):
        wb = ct.new_batch_write_builder()
        w = wb.new_write().with_write_type(["id", col])
        with pytest.raises(NotImplementedError, match=rf"writing column {col} \({kind} of BLOB\) "
                                                      r"is not supported yet"):
            w.write_arrow(batches[0].select(["id", col]))
        w.close()
    assert sorted(p.name for p in wh.rglob("*") if p.is_file()) == before
