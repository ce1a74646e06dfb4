"""`cpaimon check` looks inside the live data files (issue 14, item 4): a data file garbled in
place (its size unchanged) used to give "0 violation(s)" while reads failed. Now every live
Parquet file is opened — footer, row count and the columns of its schema against its
DataFileMeta — and `--deep` decodes every page; deletion-vector files must parse. The damage is
done here by hand, as a disk or a careless tool would."""
import io
import json

import fastavro
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import cpaimon

SCHEMA = pa.schema([pa.field("id", pa.int32(), nullable=False), ("v", pa.string())])


def make_table(tmp_path, rows=2000, options=None):
    wh = tmp_path / "wh"
    catalog = cpaimon.CatalogFactory.create({"warehouse": str(wh)})
    catalog.create_database("db", True)
    opts = {"row-tracking.enabled": "true", "data-evolution.enabled": "true"}
    opts.update(options or {})
    catalog.create_table("db.t", cpaimon.Schema.from_pyarrow_schema(SCHEMA, options=opts))
    t = catalog.get_table("db.t")
    wb = t.new_batch_write_builder()
    w, c = wb.new_write(), wb.new_commit()
    w.write_arrow(pa.table({"id": pa.array(range(rows), pa.int32()),
                            "v": [f"value-{i:06d}" for i in range(rows)]}))
    c.commit(w.prepare_commit())
    data_file = next((wh / "db.db" / "t" / "bucket-0").glob("*.parquet"))
    return catalog, wh, wh / "db.db" / "t", data_file


def check(run_cli, wh, *flags):
    p = run_cli("check", wh, "db.t", *flags)
    return p.returncode, p.stdout, p.stderr


def test_clean_table_passes_deep_check(run_cli, tmp_path):
    _, wh, _, _ = make_table(tmp_path)
    rc, out, err = check(run_cli, wh, "--deep")
    assert rc == 0, out + err
    assert "0 violation(s)" in out and "(1 opened, 1 decoded)" in out


def test_garbled_data_pages_are_found_by_deep(run_cli, tmp_path):
    catalog, wh, _, data_file = make_table(tmp_path)
    data = bytearray(data_file.read_bytes())
    meta_start = len(data) - 8 - int.from_bytes(data[-8:-4], "little")
    # Garble the column data between the magic and the footer; the size stays the same.
    for i in range(64, min(meta_start - 64, 64 + 2048)):
        data[i] ^= 0x5A
    data_file.write_bytes(bytes(data))
    rc, out, _ = check(run_cli, wh)
    assert rc == 0  # the footer is intact: only decoding the pages shows the damage
    rc, out, _ = check(run_cli, wh, "--deep")
    assert rc == 1
    assert f"data file {data_file} does not decode" in out


def test_garbled_footer_is_found_without_deep(run_cli, tmp_path):
    _, wh, _, data_file = make_table(tmp_path)
    data = bytearray(data_file.read_bytes())
    meta_start = len(data) - 8 - int.from_bytes(data[-8:-4], "little")
    for i in range(meta_start, meta_start + 32):
        data[i] ^= 0xFF
    data_file.write_bytes(bytes(data))
    rc, out, _ = check(run_cli, wh)
    assert rc == 1
    assert f"data file {data_file} does not open" in out


def _rewrite_manifest(table_dir, edit):
    snap = json.loads((table_dir / "snapshot" / "snapshot-1").read_text())
    with open(table_dir / "manifest" / snap["deltaManifestList"], "rb") as f:
        name = list(fastavro.reader(f))[0]["_FILE_NAME"]
    path = table_dir / "manifest" / name
    with open(path, "rb") as f:
        r = fastavro.reader(f)
        schema, codec, records = r.writer_schema, r.codec, list(r)
    edit(records[0]["_FILE"])
    buf = io.BytesIO()
    fastavro.writer(buf, fastavro.parse_schema(schema), records, codec=codec)
    path.write_bytes(buf.getvalue())


def test_row_count_and_columns_must_match_the_file_meta(run_cli, tmp_path):
    _, wh, table_dir, data_file = make_table(tmp_path, rows=10)
    # A file of the recorded size whose row count differs: the footer says 10, the meta 11.
    _rewrite_manifest(table_dir, lambda f: f.update(_ROW_COUNT=11))
    rc, out, _ = check(run_cli, wh)
    assert rc == 1
    assert f"data file {data_file} holds 10 rows, its manifest entry says 11" in out

    # A file without the schema's column v (and one where v has a type STRING does not read).
    for table, needle in [
        (pa.table({"id": pa.array(range(10), pa.int32()), "w": ["x"] * 10}),
         f"data file {data_file} lacks column v of its schema 0"),
        (pa.table({"id": pa.array(range(10), pa.int32()), "v": pa.array(range(10), pa.int64())}),
         f"data file {data_file} does not open"),
    ]:
        pq.write_table(table, data_file)
        size = data_file.stat().st_size
        _rewrite_manifest(table_dir, lambda f: f.update(_ROW_COUNT=10, _FILE_SIZE=size))
        rc, out, _ = check(run_cli, wh)
        assert rc == 1
        assert needle in out


def test_garbled_deletion_vector_file(run_cli, tmp_path):
    catalog, wh, table_dir, _ = make_table(tmp_path, rows=10,
                                           options={"deletion-vectors.enabled": "true"})
    wb = catalog.get_table("db.t").new_batch_write_builder()
    wb.new_commit().commit(wb.new_update().delete_by_row_id([3]))
    assert check(run_cli, wh, "--deep")[0] == 0
    index_file = next((table_dir / "index").iterdir())
    data = bytearray(index_file.read_bytes())
    for i in range(1, len(data)):
        data[i] ^= 0x33
    index_file.write_bytes(bytes(data))
    rc, out, _ = check(run_cli, wh)
    assert rc == 1
    assert f"index file {index_file.name}: deletion vector of" in out and "unreadable" in out
