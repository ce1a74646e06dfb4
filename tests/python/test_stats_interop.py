"""Value statistics of data files, cpaimon vs Java Paimon 1.4.2 (issue: Spark SQL conformance,
item 1): for the same rows both write the same min / max / null counts into the manifest (read back
by Java's `$files` system table) and the same FLOAT/DOUBLE bounds into the Parquet footer, so that
readers pruning with them (Java, Spark, cpaimon) keep the same rows.

The case that made Spark return wrong rows on cpaimon's tables: a DOUBLE column holding NaN.
Java's order (Double.compare) puts NaN above every number, so its max is NaN; cpaimon used to leave
the NaN out (max 1.0), and Java then pruned the file for `d > 2`, which Spark's semantics say the
NaN row satisfies.
"""
import glob
import json
import math
import re

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import cpaimon

from test_java_interop import (ALL_TYPES, ALL_TYPES_PAIMON, FORMATS, all_types_rows, canon_rows,
                               cp_create, cp_write, java, schema_doc)  # noqa: F401 (fixture)

STATS = ["min_value_stats", "max_value_stats", "null_value_counts"]
NAN = float("nan")

# One file each: the FLOAT/DOUBLE edge cases of Java's order.
FLOAT_CASES = {
    "nan_first": [NAN, 1.0],
    "nan_last": [1.0, NAN],
    "nan_and_neg_zero": [NAN, -0.0, -1.0],
    "both_zeros": [0.0, -0.0],
    "neg_zero_only": [-0.0, -0.0],
    "pos_zero_only": [0.0],
    "all_nan": [NAN, NAN],
    "nan_and_null": [None, NAN, 2.0],
    "all_null": [None],
    "infinities": [float("inf"), float("-inf"), 5.0],
    "neg_zero_max": [-3.0, -0.0],
}


def java_json(v):
    """A float as paimon-tool's JSON input takes it: -0.0 and NaN as strings (JSON numbers go
    through BigDecimal there, which has no negative zero)."""
    if v is None:
        return None
    if math.isnan(v):
        return "NaN"
    if v == 0 and math.copysign(1, v) < 0:
        return "-0.0"
    return v


def files_stats(java, wh, ident):
    out = java("read", wh, ident + "$files", "--columns", ",".join(["file_path"] + STATS))
    rows = [json.loads(line) for line in out.splitlines()]
    # `$files` renders BYTES bounds with Java's byte[] toString (an identity hash): not comparable.
    return [{k: re.sub(r"\[B@[0-9a-f]+", "[B", r[k]) for k in STATS} for r in rows]


def footer_bounds(path, column):
    """(min, max) of each row group's statistics for `column`, as pyarrow decodes them (NaN as a
    string so that lists compare)."""
    f = pq.ParquetFile(path)
    idx = f.schema_arrow.get_field_index(column)
    out = []
    for g in range(f.metadata.num_row_groups):
        st = f.metadata.row_group(g).column(idx).statistics
        if st is None or not st.has_min_max:
            out.append(None)
            continue
        out.append(tuple("NaN" if math.isnan(x) else (x, math.copysign(1, x)) for x in
                         (st.min, st.max)))
    return out


def float_schema(ptype):
    return schema_doc([{"id": 0, "name": "id", "type": "INT"}, {"id": 1, "name": "v", "type": ptype}])


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("ptype,atype", [("DOUBLE", pa.float64()), ("FLOAT", pa.float32())])
def test_float_stats_as_java(java, tmp_path, fmt, ptype, atype):
    wh = str(tmp_path)
    for name, values in FLOAT_CASES.items():
        ident = f"db.{name}"
        ids = list(range(1, len(values) + 1))
        java.write(wh, ident + "_java", [{"id": i, "v": java_json(v)} for i, v in zip(ids, values)],
                   schema=float_schema(ptype), options={"file.format": fmt})
        table = cp_create(wh, f"{name}", pa.schema([("id", pa.int32()), ("v", atype)]),
                          options={"file.format": fmt})
        cp_write(table, pa.table({"id": pa.array(ids, pa.int32()), "v": pa.array(values, atype)}))
        theirs, ours = files_stats(java, wh, ident + "_java"), files_stats(java, wh, ident)
        assert ours == theirs, name
        if fmt == "parquet":
            (j,) = glob.glob(f"{wh}/db.db/{name}_java/bucket-0/*.parquet")
            (c,) = glob.glob(f"{wh}/db.db/{name}/bucket-0/*.parquet")
            assert footer_bounds(c, "v") == footer_bounds(j, "v"), name


@pytest.mark.parametrize("fmt", FORMATS)
def test_java_prunes_nothing_spark_selects(java, run_cli, tmp_path, fmt):
    """The issue's table: rows (1, NaN), (2, 1.0D) written by cpaimon. Java's scan with `d > 2`
    must keep the file (and the row group), as it does on the same table written by Java."""
    wh = str(tmp_path)
    for writer in ("java", "cpaimon"):
        ident = f"db.nan_c_{writer}"
        if writer == "java":
            java.write(wh, ident, [{"id": 1, "d": "NaN"}, {"id": 2, "d": 1.0}],
                       schema=schema_doc([{"id": 0, "name": "id", "type": "INT"},
                                          {"id": 1, "name": "d", "type": "DOUBLE"}]),
                       options={"file.format": fmt})
        else:
            table = cp_create(wh, "nan_c_cpaimon", pa.schema([("id", pa.int32()),
                                                             ("d", pa.float64())]),
                              options={"file.format": fmt})
            cp_write(table, pa.table({"id": pa.array([1, 2], pa.int32()), "d": [NAN, 1.0]}))
        kept = [json.loads(line)["id"] for line in
                java("read", wh, ident, "--filter", "d,gt,2.0").splitlines()]
        assert 1 in kept, writer
        # ... and a file without NaN is still pruned: the bounds are real bounds.
        assert java("read", wh, ident, "--filter", "d,lt,0.5").strip() == "", writer
        # cpaimon, pruning and filtering with Spark's semantics, answers as Spark on either table.
        table = cpaimon.CatalogFactory.create({"warehouse": wh}).get_table(ident)
        for cond, want in (("d > 2", [1]), ("d < 5", [2]), ("d = 1.0", [2]), ("d >= 1.0", [1, 2])):
            p = run_cli("sql", "--warehouse", wh, "--format", "csv", "-e",
                        f"SELECT id FROM {ident} WHERE {cond} ORDER BY id")
            assert p.returncode == 0, p.stderr
            assert [int(x) for x in p.stdout.split()[1:]] == want, (writer, cond)
        pb = table.new_read_builder().new_predicate_builder()
        rb = table.new_read_builder().with_filter(pb.greater_than("d", 2.0))
        assert rb.new_read().to_arrow(rb.new_scan().plan().splits())["id"].to_pylist() == [1]


def parsed(stats):
    return {k: dict(kv.split("=", 1) for kv in v.strip("{}").split(", ")) for k, v in
            stats.items()}


def test_every_type_stats_as_java(java, tmp_path):
    """Every column type of the interop suite, edge values included (NaN, -0.0, infinities,
    extreme integers, decimals, dates and timestamps): the same Parquet data-file stats for the same
    rows, file by file (one commit, one file each). Avro files: test_avro_data_files.py."""
    wh = str(tmp_path)
    batches = [all_types_rows(0, 7), all_types_rows(10, 11), all_types_rows(30, 1)]
    for k, batch in enumerate(batches):
        rows = [{**r, "f32": java_json(r["f32"]) if isinstance(r["f32"], float) else r["f32"],
                 "f64": java_json(r["f64"]) if isinstance(r["f64"], float) else r["f64"]}
                for r in canon_rows(batch)]
        java.write(wh, f"db.j{k}", rows, schema=schema_doc(ALL_TYPES_PAIMON))
        cp_write(cp_create(wh, f"c{k}", ALL_TYPES), batch)
        (ours,), (theirs,) = files_stats(java, wh, f"db.c{k}"), files_stats(java, wh, f"db.j{k}")
        ours, theirs = parsed(ours), parsed(theirs)
        # Expected difference JAVA_1_4_2_NO_BINARY_STATS: Java 1.4.2's Parquet stats extractor has
        # no case for BYTES/VARBINARY (HEAD's has), so it records no bounds; cpaimon does, as HEAD.
        for side, want in ((theirs, "null"), (ours, "[B")):
            assert side["min_value_stats"].pop("bin") == side["max_value_stats"].pop("bin") == want
        # Expected difference JAVA_PARQUET_NESTED_NULL_COUNTS: Java (1.4.2 and HEAD) looks a field's
        # Parquet statistics up by its name, which only a primitive column's chunk has (an ARRAY's
        # leaf is `arr.list.element`), so ARRAY/MAP/ROW columns get no null count and no bounds;
        # cpaimon counts the rows where the column is NULL, as Java itself does in Avro files.
        expected_nulls = {c: str(sum(r[c] is None for r in batch.to_pylist()))
                          for c in ("arr", "m", "st")}
        assert {c: ours["null_value_counts"].pop(c) for c in expected_nulls} == expected_nulls
        assert {c: theirs["null_value_counts"].pop(c) for c in expected_nulls} == dict.fromkeys(
            expected_nulls, "null")
        assert ours == theirs, k
