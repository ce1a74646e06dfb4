"""Seed inputs for three fuzz harnesses (scripts/fuzz.sh):

    .venv/bin/python tests/fuzz/meta/make_seeds.py fuzz_meta_files OUT_DIR
    .venv/bin/python tests/fuzz/meta/make_seeds.py fuzz_commit_messages OUT_DIR
    .venv/bin/python tests/fuzz/meta/make_seeds.py fuzz_plan_bytes OUT_DIR

fuzz_meta_files: real metadata of a small partitioned table written by pypaimon, each file
prefixed with the harness's mode byte: 0 snapshot, 1 schema, 2 hint, 3 manifest, 4 manifest list,
5 index manifest, 6 BinaryRow (after one byte that shifts the field types).
fuzz_commit_messages: commit messages serialized by cpaimon's Python binding.
fuzz_plan_bytes: splits serialized by cpaimon's Python binding (data-evolution groups, a slice
and a deletion vector among them).
"""
import pathlib
import sys
import tempfile


def meta_seeds(out: pathlib.Path) -> int:
    import fastavro
    import pyarrow as pa
    import pypaimon

    out.mkdir(parents=True, exist_ok=True)
    n = 0

    def seed(mode: int, data: bytes, extra: bytes = b""):
        nonlocal n
        (out / f"seed-{mode}-{n}").write_bytes(bytes([mode]) + extra + data)
        n += 1

    with tempfile.TemporaryDirectory() as wh:
        cat = pypaimon.CatalogFactory.create({"warehouse": wh})
        cat.create_database("db", True)
        schema = pa.schema([("p", pa.string()), ("id", pa.int64()), ("x", pa.float64()),
                            ("s", pa.string()), ("d", pa.date32())])
        cat.create_table("db.t", pypaimon.Schema.from_pyarrow_schema(
            schema, partition_keys=["p"],
            options={"row-tracking.enabled": "true", "data-evolution.enabled": "true"}), False)
        table = cat.get_table("db.t")
        for i in range(2):
            wb = table.new_batch_write_builder()
            w, c = wb.new_write(), wb.new_commit()
            w.write_arrow(pa.table({"p": ["a", "b", "a"], "id": [i, i + 1, i + 2],
                                    "x": [0.5, None, -1.0], "s": ["u", "vv", None],
                                    "d": pa.array([1, 2, 3], pa.int32()).cast(pa.date32())},
                                   schema=schema))
            c.commit(w.prepare_commit())
            w.close()
            c.close()
        root = pathlib.Path(wh) / "db.db" / "t"
        for f in sorted((root / "snapshot").glob("snapshot-*")):
            seed(0, f.read_bytes())
        for f in sorted((root / "snapshot").glob("[A-Z]*")):
            seed(2, f.read_bytes())
        for f in sorted((root / "schema").glob("schema-*")):
            seed(1, f.read_bytes())
        for f in sorted((root / "manifest").glob("manifest-*")):
            mode = 4 if f.name.startswith("manifest-list-") else 3
            seed(mode, f.read_bytes())
            if mode == 3:
                with open(f, "rb") as fh:
                    for rec in fastavro.reader(fh):
                        seed(6, rec["_PARTITION"], b"\x07")  # shift: field 0 is STRING
                        stats = rec["_FILE"]["_VALUE_STATS"]
                        for key in ("_MIN_VALUES", "_MAX_VALUES"):
                            seed(6, stats[key], b"\x07")

    return 0


def _cpaimon_table(wh: str, options: dict):
    """A table db.t (p STRING partition key, id BIGINT) in a cpaimon catalog at `wh`."""
    import pyarrow as pa
    import cpaimon

    cat = cpaimon.CatalogFactory.create({"warehouse": wh})
    cat.create_database("db", True)
    cat.create_table("db.t", cpaimon.Schema.from_pyarrow_schema(
        pa.schema([("p", pa.string()), ("id", pa.int64())]), partition_keys=["p"],
        options=options), False)
    return cat.get_table("db.t")


def commit_seeds(out: pathlib.Path) -> int:
    import pyarrow as pa

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as wh:
        w = _cpaimon_table(wh, {"row-tracking.enabled": "true"}).new_batch_write_builder() \
            .new_write()
        w.write_arrow(pa.table({"p": ["a", "b"], "id": [1, 2]}))
        for i, m in enumerate(w.prepare_commit()):
            (out / f"seed-{i}").write_bytes(m.serialize())
        w.close()
    return 0


def plan_seeds(out: pathlib.Path) -> int:
    import pyarrow as pa

    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as wh:
        t = _cpaimon_table(wh, {"row-tracking.enabled": "true", "data-evolution.enabled": "true",
                                "deletion-vectors.enabled": "true"})
        for i in range(2):
            wb = t.new_batch_write_builder()
            w = wb.new_write()
            w.write_arrow(pa.table({"p": ["a", "b", "a"], "id": [i, i + 1, i + 2]}))
            wb.new_commit().commit(w.prepare_commit())
        wb = t.new_batch_write_builder()
        wb.new_commit().commit(wb.new_update().delete_by_row_id([1]))
        n = 0
        for scan in (t.new_read_builder().new_scan(),
                     t.new_read_builder().new_scan().with_slice(1, 5)):
            for s in scan.plan().splits():
                (out / f"seed-{n}").write_bytes(s.serialize())
                n += 1
    return 0


if __name__ == "__main__":
    make = {"fuzz_meta_files": meta_seeds, "fuzz_commit_messages": commit_seeds,
            "fuzz_plan_bytes": plan_seeds}[sys.argv[1]]
    sys.exit(make(pathlib.Path(sys.argv[2])))
