"""BlobDescriptor values written to a BLOB column (issue 17; spec/maintenance-and-blob.md §5.4):
a value that is a serialized BlobDescriptor (Java's rule: version <= 2 and the "BLOBDESC" magic)
names a range of another object, whose bytes cpaimon copies into the `.blob` file, streamed;
any other value is the content itself. pypaimon 2.1 writing the same values stores the same
content, and pypaimon and Java read what cpaimon wrote identically. Descriptors are checked before
a batch is written: a bad one is refused naming the column, the row and the object, and leaves
the table and the writer as they were. 'blob-descriptor-field' columns keep the descriptors in
Parquet and read back the content they name, as pypaimon and Java do."""
import hashlib
import os
import struct

import pyarrow as pa
import pypaimon
import pytest

import cpaimon
from test_blob_write import COLS, create, files, java_read, read, write
from test_java_interop import java  # noqa: F401  (Java Paimon 1.4.2, the session fixture)


def desc(uri, offset=0, length=-1, version=2):
    u = uri.encode()
    magic = struct.pack("<Q", 0x424C4F4244455343) if version > 1 else b""
    return bytes([version]) + magic + struct.pack("<i", len(u)) + u + struct.pack("<qq", offset,
                                                                                  length)


def state(wh):
    return sorted(str(p.relative_to(wh)) for p in wh.rglob("*") if p.is_file())


@pytest.fixture
def sources(tmp_path):
    d = tmp_path / "src"
    d.mkdir()
    a, b = d / "a.jpg", d / "b.bin"
    a.write_bytes(os.urandom(70_000))
    b.write_bytes(bytes(range(256)) * 40)
    return a, b


def test_descriptor_values_are_copied(tmp_path, sources, java):  # noqa: F811
    a, b = sources
    values = [b"plain", desc(str(a)), desc(f"file://{b}", 1000, 300), None,
              desc(str(b), 10, 0), desc(str(a), version=1)]
    expected = [b"plain", a.read_bytes(), b.read_bytes()[1000:1300], None, b"",
                desc(str(a), version=1)]  # v1 has no magic: Java takes it as content
    wh = tmp_path / "wh"
    write(create(wh), list(range(6)), values)
    ours = read(cpaimon, wh)
    assert [r[2] for r in ours] == expected
    assert ours == read(pypaimon, wh) == java_read(java, wh)
    # pypaimon writing the same values stores the same content.
    twin = tmp_path / "twin"
    write(create(twin, pypaimon), list(range(6)), values)
    assert [r[2] for r in read(pypaimon, twin)] == expected


def test_descriptors_read_from_one_table_copy_into_another(tmp_path):
    """blob-as-descriptor reads of table A, written into table B, copy A's payloads out of its
    `.blob` files; a 12 MiB payload goes through in pieces."""
    src, dst = tmp_path / "a", tmp_path / "b"
    big = os.urandom(12 << 20)
    write(create(src), [0, 1, 2], [b"x" * 10, None, big])
    t = cpaimon.CatalogFactory.create({"warehouse": str(src)}).get_table("db.t")
    t = t.copy({"blob-as-descriptor": "true"})
    rb = t.new_read_builder().with_projection(["id", "pic"])
    descs = rb.new_read().to_arrow(rb.new_scan().plan().splits()).sort_by("id")["pic"].to_pylist()
    assert descs[2][:9] == desc("x")[:9] and len(descs[2]) < 200
    write(create(dst), [0, 1, 2], descs)
    got = [r[2] for r in read(cpaimon, dst)]
    assert got[:2] == [b"x" * 10, None]
    assert hashlib.sha256(got[2]).digest() == hashlib.sha256(big).digest()
    assert read(pypaimon, dst) == read(cpaimon, dst)


@pytest.mark.parametrize("value, error, match", [
    (lambda d: desc(str(d / "missing.jpg")), FileNotFoundError,
     r"column pic, row 1: .*missing\.jpg"),
    (lambda d: desc(str(d / "b.bin"), 10_000, 300), ValueError,
     r"column pic, row 1: BlobDescriptor range \[10000, \+300\) lies past the end of .*b\.bin "
     r"\(10240 bytes\)"),
    (lambda d: desc(str(d / "b.bin"))[:20], ValueError,
     r"column pic, row 1: Invalid BlobDescriptor data: URI length exceeds data size"),
    (lambda d: desc(str(d / "b.bin"), -5), ValueError,
     r"column pic, row 1: Invalid BlobDescriptor data: offset -5"),
    (lambda d: desc("http://127.0.0.1:1/x.jpg"), NotImplementedError, r"column pic, row 1: .*http"),
])
def test_bad_descriptor_refused_before_anything_is_written(tmp_path, sources, value, error, match):
    wh = tmp_path / "wh"
    t = create(wh)
    write(t, [0], [b"ok"])
    blobs = files(wh, ".blob")
    wb = t.new_batch_write_builder()
    w, c = wb.new_write(), wb.new_commit()
    with pytest.raises(error, match=match):
        w.write_arrow(pa.table({"id": pa.array([1, 2], pa.int32()), "v": ["a", "b"],
                                "pic": pa.array([b"fine", value(sources[0].parent)],
                                                pa.large_binary())}))
    assert files(wh, ".blob") == blobs  # (the open Parquet file holds no row either)
    # The writer is intact: a good batch after the refused one commits alone.
    w.write_arrow(pa.table({"id": pa.array([3], pa.int32()), "v": ["c"],
                            "pic": pa.array([desc(str(sources[1]), 0, 4)], pa.large_binary())}))
    c.commit(w.prepare_commit())
    w.close()
    assert [(r[0], r[2]) for r in read(cpaimon, wh)] == [(0, b"ok"), (3, bytes(range(4)))]


def test_descriptor_updates_by_row_id_and_shard(tmp_path, sources):
    """An update by row id and a shard backfill given descriptors copy the content too; a bad
    descriptor in an update is refused with nothing written."""
    a, b = sources
    wh = tmp_path / "wh"
    t = create(wh)
    write(t, [0, 1, 2], [b"a", b"b", b"c"])

    def update(rows):
        tt = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
        wb = tt.new_batch_write_builder()
        wb.new_commit().commit(wb.new_update().with_update_type(["pic"]).update_by_arrow_with_row_id(
            pa.table({"_ROW_ID": pa.array([r for r, _ in rows], pa.int64()),
                      "pic": pa.array([v for _, v in rows], pa.large_binary())})))

    update([(1, desc(str(a)))])
    assert [r[2] for r in read(cpaimon, wh)] == [b"a", a.read_bytes(), b"c"]
    before = state(wh)
    with pytest.raises(FileNotFoundError, match=r"column pic, row 1: .*nope"):
        update([(0, b"fine"), (2, desc(str(b.parent / "nope")))])
    assert state(wh) == before

    tt = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    wb = tt.new_batch_write_builder()
    upd = wb.new_update()
    upd.with_update_type(["pic"])
    s = upd.new_shard_updator(0, 1)
    s.update_by_arrow_batch(pa.RecordBatch.from_pydict({"pic": pa.array(
        [desc(str(b), 0, 8), None, b"z"], pa.large_binary())}))
    wb.new_commit().commit(s.prepare_commit())
    ours = read(cpaimon, wh)
    assert [r[2] for r in ours] == [bytes(range(8)), None, b"z"]
    assert ours == read(pypaimon, wh)


def test_descriptors_naming_objects_on_s3(tmp_path, s3):
    """A local table copies objects a descriptor names on S3 through blob-descriptor.* options
    (the store's endpoint and keys), and a table on S3 copies from its own store."""
    s3.client.put_object(Bucket=s3.bucket, Key="media/cat.jpg", Body=b"meow" * 5000)
    uri = f"s3://{s3.bucket}/media/cat.jpg"
    wh = tmp_path / "wh"
    opts = {f"blob-descriptor.{k}": v for k, v in s3.options.items()}
    write(create(wh, **opts), [0, 1], [desc(uri, 4, 8), desc(uri)])
    assert [r[2] for r in read(cpaimon, wh)] == [b"meowmeow", b"meow" * 5000]

    cat = s3.cpaimon()
    cat.create_database("db", True)
    cat.create_table("db.t", cpaimon.Schema.from_pyarrow_schema(
        pa.schema([("id", pa.int32()), ("v", pa.string()), ("pic", pa.large_binary())]),
        options={"row-tracking.enabled": "true", "data-evolution.enabled": "true"}), False)
    write(cat.get_table("db.t"), [0], [desc(uri, 0, 4)])
    rb = s3.cpaimon().get_table("db.t").new_read_builder().with_projection(["pic"])
    assert rb.new_read().to_arrow(rb.new_scan().plan().splits())["pic"].to_pylist() == [b"meow"]


def read_pics(lib, wh, **options):
    t = lib.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    if options:
        t = t.copy(options)
    rb = t.new_read_builder().with_projection(["id", "pic"])
    return rb.new_read().to_arrow(rb.new_scan().plan().splits()).sort_by("id")["pic"].to_pylist()


def test_descriptor_field_stores_references(tmp_path, sources, java):  # noqa: F811
    """'blob-descriptor-field': the column holds the descriptors themselves in the Parquet file (no
    `.blob` file, nothing copied); reads return the content they name, or the descriptors with
    blob-as-descriptor — cpaimon, pypaimon and Java alike, whichever wrote the table. A value that is not
    a descriptor is refused with pypaimon's message; an update by row id and a compaction keep the
    column in Parquet."""
    a, b = sources
    values = [desc(str(a), 100, 50), None, desc(f"file://{b}")]
    content = [a.read_bytes()[100:150], None, b.read_bytes()]
    for writer in (cpaimon, pypaimon):
        wh = tmp_path / writer.__name__
        write(create(wh, writer, **{"blob-descriptor-field": "pic"}), [0, 1, 2], values)
        assert files(wh, ".blob") == []
        for lib in (cpaimon, pypaimon):
            assert read_pics(lib, wh) == content, (writer, lib)
            assert read_pics(lib, wh, **{"blob-as-descriptor": "true"}) == values, (writer, lib)
        assert [r[2] for r in java_read(java, wh)] == content  # Java 1.4.2 resolves them too

    wh = tmp_path / "cpaimon"
    t = cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t")
    w = t.new_batch_write_builder().new_write()
    with pytest.raises(ValueError, match=r"blob-descriptor-field requires blob field value to be "
                                         r"a serialized BlobDescriptor\. \(column pic, row 0: "):
        w.write_arrow(pa.table({"id": pa.array([9], pa.int32()), "v": ["x"],
                                "pic": pa.array([b"raw bytes"], pa.large_binary())}))
    w.close()
    wb = t.new_batch_write_builder()
    wb.new_commit().commit(wb.new_update().with_update_type(["pic"]).update_by_arrow_with_row_id(
        pa.table({"_ROW_ID": pa.array([1], pa.int64()),
                  "pic": pa.array([desc(str(b), 0, 3)], pa.large_binary())})))
    assert files(wh, ".blob") == []
    content[1] = bytes(range(3))
    assert read_pics(cpaimon, wh) == content == read_pics(pypaimon, wh)
    cpaimon.CatalogFactory.create({"warehouse": str(wh)}).get_table("db.t").compact(
        options={"compaction.min.file-num": "2"})
    assert read_pics(cpaimon, wh) == content == read_pics(pypaimon, wh)
    # A descriptor whose object went away: the read fails naming column and object.
    b.unlink()
    with pytest.raises(OSError, match=r"table db\.t: column pic, row 2: .*b\.bin"):
        read_pics(cpaimon, wh)


def test_blob_descriptor_class_as_pypaimon():
    """cpaimon.table.row.blob.BlobDescriptor (pypaimon's module path; bytes made by the C core)
    serializes byte for byte as pypaimon's and the hand-made desc(), parses pypaimon's, detects
    descriptors as Java does, and refuses bad bytes with pypaimon's messages."""
    from cpaimon.table.row.blob import BlobDescriptor as Ours
    from pypaimon.table.row.blob import BlobDescriptor as Theirs
    for uri, offset, length in [("/a/b.jpg", 5, 10), ("s3://bucket/k ü.png", 0, -1)]:
        ours = Ours(uri, offset, length)
        assert ours.serialize() == Theirs(uri, offset, length).serialize() == desc(uri, offset,
                                                                                  length)
        back = Ours.deserialize(Theirs(uri, offset, length).serialize())
        assert (back.uri, back.offset, back.length, back.version) == (uri, offset, length, 2)
        assert back == ours and Ours.is_blob_descriptor(ours.serialize())
    v1 = Ours.deserialize(desc("/x", 1, 2, version=1))
    assert (v1.uri, v1.offset, v1.length, v1.version) == ("/x", 1, 2, 1)
    assert not Ours.is_blob_descriptor(desc("/x", 1, 2, version=1))  # no magic: content
    assert not Ours.is_blob_descriptor(b"plain bytes")
    for bad in [b"\x03" + bytes(30), desc("/x")[:20], b"\x02CSEDBOLX" + bytes(20)]:
        with pytest.raises(ValueError) as ours_error:
            Ours.deserialize(bad)
        with pytest.raises(ValueError) as theirs_error:
            Theirs.deserialize(bad)
        assert str(ours_error.value).split(":")[0] == str(theirs_error.value).split(":")[0]
    with pytest.raises(ValueError, match="an offset >= 0"):
        Ours("/x", -1, 0).serialize()
