"""File names taken from metadata cannot reach outside the table (issue 14, item 3). Paimon
writes plain names (spec/format.md §1; Java joins them to the bucket, manifest/ or index/
directory) and full external paths only under the roots of data-file.external-paths. A manifest,
manifest list, index manifest, snapshot or serialized commit message that names '../..' or an
absolute path is refused with an error naming the file and the entry, and nothing outside the
table is read or deleted. The metadata is edited here with fastavro, as an attacker would."""
import io
import json
import shutil
import struct

import fastavro
import pyarrow as pa
import pytest

import cpaimon
from cpaimon.write import CommitMessage

from test_table_errors import make_table as make_in


def make_table(tmp_path, options=None, commits=2):
    return make_in(tmp_path / "wh", commits=commits, options=options)


def read_ids(catalog):
    rb = catalog.get_table("db.t").new_read_builder()
    return sorted(rb.new_read().to_arrow(rb.new_scan().plan().splits())["id"].to_pylist())


def avro_records(path):
    with open(path, "rb") as f:
        r = fastavro.reader(f)
        return r.writer_schema, r.codec, list(r)


def rewrite_avro(path, edit):
    schema, codec, records = avro_records(path)
    edit(records)
    buf = io.BytesIO()
    fastavro.writer(buf, fastavro.parse_schema(schema), records, codec=codec)
    path.write_bytes(buf.getvalue())


def latest_snapshot(table_dir):
    ids = [int(p.name.split("-")[1]) for p in (table_dir / "snapshot").glob("snapshot-*")]
    return json.loads((table_dir / "snapshot" / f"snapshot-{max(ids)}").read_text())


def delta_manifest(table_dir):
    snap = latest_snapshot(table_dir)
    _, _, metas = avro_records(table_dir / "manifest" / snap["deltaManifestList"])
    return table_dir / "manifest" / metas[0]["_FILE_NAME"]


@pytest.fixture
def victim(tmp_path):
    path = tmp_path / "victim"
    path.write_bytes(b"do not touch")
    return path


@pytest.mark.parametrize("bad", ["../../../../victim", "/etc/passwd", "..", "a/b"])
def test_manifest_data_file_name(tmp_path, victim, bad):
    catalog, table_dir = make_table(tmp_path)
    manifest = delta_manifest(table_dir)

    def edit(records):
        records[0]["_FILE"]["_FILE_NAME"] = bad

    rewrite_avro(manifest, edit)
    with pytest.raises(RuntimeError) as e:
        read_ids(catalog)
    assert f"record 0: data file name '{bad}' is not a plain file name" in str(e.value)
    assert manifest.name in str(e.value)
    assert victim.read_bytes() == b"do not touch"


def test_manifest_list_and_snapshot_names(tmp_path):
    catalog, table_dir = make_table(tmp_path)
    snap = latest_snapshot(table_dir)
    mlist = table_dir / "manifest" / snap["deltaManifestList"]

    def edit(records):
        records[0]["_FILE_NAME"] = "../../../../etc/passwd"

    rewrite_avro(mlist, edit)
    with pytest.raises(RuntimeError, match=r"record 0: manifest name '\.\./\.\./\.\./\.\./etc/passwd'"):
        read_ids(catalog)
    snap["deltaManifestList"] = "/etc/passwd"
    (table_dir / "snapshot" / f"snapshot-{snap['id']}").write_text(json.dumps(snap))
    with pytest.raises(RuntimeError) as e:
        read_ids(catalog)
    assert "deltaManifestList name '/etc/passwd' is not a plain file name" in str(e.value)
    assert f"snapshot-{snap['id']}" in str(e.value)


def test_index_manifest_file_name(tmp_path):
    catalog, table_dir = make_table(tmp_path, {"deletion-vectors.enabled": "true",
                                              "data-evolution.enabled": "true"})
    wb = catalog.get_table("db.t").new_batch_write_builder()
    wb.new_commit().commit(wb.new_update().delete_by_row_id([0]))
    assert read_ids(catalog) == [1]
    index_manifest = table_dir / "manifest" / latest_snapshot(table_dir)["indexManifest"]

    def edit(records):
        records[0]["_FILE_NAME"] = "../../../../victim"

    rewrite_avro(index_manifest, edit)
    with pytest.raises(RuntimeError) as e:
        read_ids(catalog)
    assert "record 0: index file name '../../../../victim' is not a plain file name" in str(e.value)


def test_external_paths_follow_java(tmp_path):
    # Java opens _EXTERNAL_PATH as it is: an absolute path elsewhere is read (here a copy of the
    # data file); one with '..' segments, which Java never writes, is refused.
    catalog, table_dir = make_table(tmp_path, commits=1)
    manifest = delta_manifest(table_dir)
    _, _, records = avro_records(manifest)
    name = records[0]["_FILE"]["_FILE_NAME"]
    elsewhere = tmp_path / "ext" / "bucket-0"
    elsewhere.mkdir(parents=True)
    shutil.move(str(table_dir / "bucket-0" / name), elsewhere / name)

    def point(path):
        def edit(recs):
            recs[0]["_FILE"]["_EXTERNAL_PATH"] = path
        return edit

    rewrite_avro(manifest, point(str(elsewhere / name)))
    assert read_ids(catalog) == [0]
    rewrite_avro(manifest, point(f"{tmp_path}/ext/../ext/bucket-0/{name}"))
    with pytest.raises(RuntimeError, match="without '.' and '..' segments"):
        read_ids(catalog)


def _sections(data):
    """The serialized commit messages' header and its two Avro sections (commit_message.c)."""
    version, n = struct.unpack_from("<II", data, 4)
    p = 12 + (16 if version == 1 else 20) * n  # version 2 added a flags word per message
    header = data[:p]
    flen = struct.unpack_from("<I", data, p)[0]
    files = data[p + 4:p + 4 + flen]
    rest = data[p + 4 + flen:]
    return header, files, rest


def test_serialized_commit_message_with_an_escaping_name(tmp_path, victim):
    catalog, table_dir = make_table(tmp_path, commits=0)
    t = catalog.get_table("db.t")
    w = t.new_batch_write_builder().new_write()
    w.write_arrow(pa.table({"id": pa.array([5], pa.int32()), "v": ["x"]}))
    msgs = w.prepare_commit()
    header, files, rest = _sections(msgs[0].serialize())
    r = fastavro.reader(io.BytesIO(files))
    schema, codec, records = r.writer_schema, r.codec, list(r)
    records[0]["_FILE"]["_FILE_NAME"] = "../../../../victim"
    buf = io.BytesIO()
    fastavro.writer(buf, fastavro.parse_schema(schema), records, codec=codec)
    bad = header + struct.pack("<I", len(buf.getvalue())) + buf.getvalue() + rest
    with pytest.raises(RuntimeError, match="data file name .../../../../victim. is not a plain file"):
        CommitMessage.deserialize(bad)
    # The genuine messages still commit, and the victim was never touched.
    t.new_batch_write_builder().new_commit().commit(msgs)
    assert read_ids(catalog) == [5]
    assert victim.read_bytes() == b"do not touch"
