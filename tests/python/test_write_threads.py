"""cpaimon.write.compress-threads (src/table/table.c cp_table_writer_options): data files are
compressed on extra threads by default on machines with two or more CPUs, and the files are the
same byte for byte whatever the thread count; pypaimon reads them. Bad values are refused with
the option named, and the table is not created."""
import pyarrow as pa
import pypaimon
import pytest

import cpaimon

SCHEMA = pa.schema([pa.field("id", pa.int64(), nullable=False), ("s", pa.string()),
                    ("v", pa.list_(pa.float32()))])


def data(n):
    return pa.table({"id": list(range(n)), "s": [f"row {i} " * (i % 7) for i in range(n)],
                     "v": [[float(i), i / 3.0] for i in range(n)]}, schema=SCHEMA)


def write_table(cat, root, name, options):
    cat.create_table(f"db.{name}", cpaimon.Schema.from_pyarrow_schema(SCHEMA, options=options),
                     False)
    t = cat.get_table(f"db.{name}")
    wb = t.new_batch_write_builder()
    w = wb.new_write()
    for start in range(0, 300_000, 100_000):  # several pages and batches per column
        w.write_arrow(data(300_000).slice(start, 100_000))
    wb.new_commit().commit(w.prepare_commit())
    return sorted((root / f"db.db/{name}/bucket-0").glob("*.parquet"))


@pytest.fixture
def cat(tmp_path):
    c = cpaimon.CatalogFactory.create({"warehouse": str(tmp_path)})
    c.create_database("db", True)
    return c


def test_files_identical_whatever_the_thread_count(cat, tmp_path):
    files = {n: write_table(cat, tmp_path, f"t{n}", {"cpaimon.write.compress-threads": str(n)})
             for n in (0, 1, 3)}
    files["auto"] = write_table(cat, tmp_path, "tauto", {})
    blobs = {k: [f.read_bytes() for f in v] for k, v in files.items()}
    assert len(blobs[0]) == 1 and len(blobs[0][0]) > 1_000_000
    assert blobs[1] == blobs[0] and blobs[3] == blobs[0] and blobs["auto"] == blobs[0]
    py = pypaimon.CatalogFactory.create({"warehouse": str(tmp_path)}).get_table("db.t3")
    rb = py.new_read_builder()
    got = rb.new_read().to_arrow(rb.new_scan().plan().splits()).sort_by("id")
    assert got.equals(data(300_000))


@pytest.mark.parametrize("value", ["65", "-2", "two"])
def test_bad_values_are_refused(cat, tmp_path, value):
    with pytest.raises(ValueError, match="cpaimon.write.compress-threads"):
        cat.create_table("db.bad", cpaimon.Schema.from_pyarrow_schema(
            SCHEMA, options={"cpaimon.write.compress-threads": value}), False)
    assert not (tmp_path / "db.db/bad").exists()


def test_one_threaded_file_at_a_time(cat):
    """A write spread over many partitions keeps a file open per partition; only one of them gets
    a compression thread (threads of this process counted in /proc/self/task while they are
    open), and the data is still read back whole."""
    import os
    schema = pa.schema([pa.field("id", pa.int64(), nullable=False), ("p", pa.string())])
    cat.create_table("db.parts", cpaimon.Schema.from_pyarrow_schema(
        schema, partition_keys=["p"], options={"cpaimon.write.compress-threads": "1"}), False)
    t = cat.get_table("db.parts")
    rows = pa.table({"id": list(range(5000)), "p": [f"p{i % 50}" for i in range(5000)]},
                    schema=schema)
    wb = t.new_batch_write_builder()
    w = wb.new_write()
    before = len(os.listdir("/proc/self/task"))
    w.write_arrow(rows)  # 50 files open until prepare_commit
    during = len(os.listdir("/proc/self/task"))
    wb.new_commit().commit(w.prepare_commit())
    assert during - before <= 1, (before, during)
    rb = t.new_read_builder()
    assert rb.new_read().to_arrow(rb.new_scan().plan().splits()).num_rows == 5000
