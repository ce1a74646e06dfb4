"""The benchmark cases (docs/benchmarks.md, "What is measured").

A case is one operation done by cpaimon and by the reference on the same data: two worker specs
(worker.py), what the figures are compared against (the issue's targets) and how to describe the
data. `prepare` hooks produce inputs that depend on the cpaimon build (files cpaimon wrote, which
the reference then reads too), so they are made fresh in every run and never cached.
"""
import dataclasses
import pathlib
from typing import Callable, Dict, List, Optional

import common
import datagen

PROJECTED_WIDE = ["c00_int64", "c19_long_string"]
TABLE_NAME = "bench.t"
HIDDEN = ["_ROW_ID", "_SEQUENCE_NUMBER"]


@dataclasses.dataclass
class Case:
    id: str
    suite: str
    operation: str
    data: str                       # rows, in-memory size and file size, for the report
    cp: dict                        # worker spec for cpaimon
    ref: dict                       # worker spec for the reference
    ref_name: str                   # "pyarrow" or "pypaimon"
    arrow_bytes: int                # uncompressed size of the data moved, for MB/s
    speed_target: Optional[float] = None   # reference time / cpaimon time must be >= this
    rss_target: Optional[float] = None     # cpaimon RSS / reference RSS must be <= this
    rss_limit: Optional[int] = None        # cpaimon's RSS growth must stay under this (bytes)
    expected_digest: Optional[dict] = None  # what both sides must produce, when known
    digest_columns: Optional[List[str]] = None
    prepare: Optional[Callable[[], None]] = None
    note: str = ""


def _data_label(rows, arrow_bytes, file_bytes=None):
    s = f"{common.fmt_rows(rows)} rows, {common.fmt_bytes(arrow_bytes)} Arrow"
    if file_bytes:
        s += f", {common.fmt_bytes(file_bytes)} file"
    return s


def parquet_cases(manifest, work: pathlib.Path, prepare_cp_file) -> List[Case]:
    """Write and read per type and codec, then the 1-of-20-column projections."""
    cases = []
    sets = manifest["sets"]
    for name, spec in datagen.PARQUET_SETS.items():
        s = sets[name]
        row_type = f"ROW<{name} {spec['sql']}>"
        for codec in datagen.CODECS:
            ref_file = s["ref"][codec]
            cp_file = str(work / f"cp_{name}_{codec}.parquet")
            write = {"op": "pq_write", "input": s["path"], "codec": codec, "row_type": row_type}
            cases.append(Case(
                id=f"parquet.write.{name}.{codec}", suite="parquet",
                operation=f"write {name}, {codec}",
                data=_data_label(s["rows"], s["arrow_bytes"]),
                cp=dict(write, side="cpaimon", out=str(work / f"w_cp_{name}_{codec}.parquet")),
                ref=dict(write, side="pyarrow", out=str(work / f"w_pa_{name}_{codec}.parquet")),
                ref_name="pyarrow", arrow_bytes=s["arrow_bytes"], speed_target=1.0,
                expected_digest=s["digest"], note=spec["note"]))
            read = {"op": "pq_read", "mode": "table", "columns": None,
                    "warmup_path": s["head"]}
            cases.append(Case(
                id=f"parquet.read.{name}.{codec}", suite="parquet",
                operation=f"read {name}, {codec} (pyarrow-written file)",
                data=_data_label(s["rows"], s["arrow_bytes"], ref_file["file_bytes"]),
                cp=dict(read, side="cpaimon", path=ref_file["path"]),
                ref=dict(read, side="pyarrow", path=ref_file["path"]),
                ref_name="pyarrow", arrow_bytes=s["arrow_bytes"], speed_target=1.0,
                expected_digest=s["digest"], note=spec["note"]))
            cases.append(Case(
                id=f"parquet.read_cpfile.{name}.{codec}", suite="parquet",
                operation=f"read {name}, {codec} (cpaimon-written file)",
                data=_data_label(s["rows"], s["arrow_bytes"]),
                cp=dict(read, side="cpaimon", path=cp_file),
                ref=dict(read, side="pyarrow", path=cp_file),
                ref_name="pyarrow", arrow_bytes=s["arrow_bytes"], speed_target=1.0,
                expected_digest=s["digest"], note=spec["note"],
                prepare=prepare_cp_file(s["path"], cp_file, codec, row_type)))
    wide = sets["wide"]
    cp_wide = str(work / "cp_wide_zstd.parquet")
    for col in PROJECTED_WIDE:
        col_bytes = wide["column_bytes"][col]
        for who, path, prep in (("pyarrow", wide["path"], None),
                                ("cpaimon", cp_wide,
                                 prepare_cp_file(None, cp_wide, "zstd", wide["row_type"]))):
            read = {"op": "pq_read", "mode": "stream", "columns": [col], "path": path,
                    "batch_size": 65536, "warmup_path": wide["head"]}
            cases.append(Case(
                id=f"parquet.project.{col}.{who}file", suite="parquet",
                operation=f"stream 1 of 20 columns ({col}), {who}-written file",
                data=_data_label(wide["rows"], wide["arrow_bytes"], wide["file_bytes"])
                + f" (20 columns; this one {common.fmt_bytes(col_bytes)} Arrow)",
                cp=dict(read, side="cpaimon"), ref=dict(read, side="pyarrow"),
                ref_name="pyarrow", arrow_bytes=col_bytes, speed_target=1.0,
                rss_limit=64 << 20, expected_digest={col: wide["digest"][col]},
                digest_columns=[col], prepare=prep))
    return cases


def table_cases(manifest, work: pathlib.Path, prepare_scan_table) -> List[Case]:
    s = manifest["sets"]["table"]
    names = [f.name for f in datagen.TABLE_SCHEMA]
    per_col = s["arrow_bytes"] / len(names)
    label = _data_label(s["rows"], s["arrow_bytes"]) + f" ({len(names)} columns)"
    write = {"op": "tbl_write", "input": s["path"], "table": TABLE_NAME,
             "chunk_rows": datagen.CHUNK_ROWS, "single_threaded": False}
    cases = [Case(
        id="table.write", suite="table",
        operation="append write (write_arrow per 1 Mi rows, one commit)", data=label,
        cp=dict(write, side="cpaimon", warehouse=str(work / "wh_write_cp")),
        ref=dict(write, side="pypaimon", warehouse=str(work / "wh_write_py")),
        ref_name="pypaimon", arrow_bytes=s["arrow_bytes"], speed_target=3.0, rss_target=0.5,
        expected_digest=s["digest"])]
    scan_wh, warmup_wh = str(work / "wh_scan"), str(work / "wh_scan_warmup")
    prep = prepare_scan_table(s["path"], scan_wh, warmup_wh)
    # Hidden-column digests are not known from the input; both sides must agree on them.
    scans = [("scan.full", "full scan, batch by batch", None, s["arrow_bytes"], "stream"),
             ("scan.hidden", "full scan with _ROW_ID, _SEQUENCE_NUMBER, batch by batch",
              names + HIDDEN, s["arrow_bytes"] + 16 * s["rows"], "stream"),
             ("scan.project1", "projection of 1 column (price), batch by batch", ["price"],
              int(per_col), "stream"),
             ("scan.to_arrow", "full scan into one Table (to_arrow)", None, s["arrow_bytes"],
              "to_arrow")]
    for cid, op, projection, nbytes, mode in scans:
        # A scan into one Table holds the whole result on both sides, so its RSS says nothing
        # about the reader: no RSS target there.
        rss_target = None if mode == "to_arrow" else 0.5
        scan = {"op": "tbl_scan", "warehouse": scan_wh, "table": TABLE_NAME,
                "projection": projection, "mode": mode, "warmup_warehouse": warmup_wh,
                "single_threaded": False}
        expected = s["digest"] if projection is None else {
            c: s["digest"][c] for c in projection if c in s["digest"]}
        cases.append(Case(
            id=f"table.{cid}", suite="table", operation=op, data=label,
            cp=dict(scan, side="cpaimon"), ref=dict(scan, side="pypaimon"),
            ref_name="pypaimon", arrow_bytes=nbytes, speed_target=2.0, rss_target=rss_target,
            expected_digest=expected, prepare=prep,
            note="table written by pypaimon; both sides read the same files"))
    return cases


def scale_for(quick: bool, factor: float = 1.0) -> Dict:
    """Rows per data set: the full sizes the issues ask for, /16 for --quick, times `factor`."""
    div = 16 if quick else 1

    def rows(n):
        return max(1000, int(n / div * factor))
    return {"parquet": {k: rows(v["rows"]) for k, v in datagen.PARQUET_SETS.items()},
            "wide": rows(datagen.WIDE_ROWS),
            "table": rows(datagen.TABLE_ROWS)}


def stub_manifest(scale) -> Dict:
    """A manifest with the shape generate() returns and no data, for listing cases."""
    sets = {name: {"path": "", "rows": scale["parquet"][name], "arrow_bytes": 0, "digest": {},
                   "head": "", "ref": {c: {"path": "", "file_bytes": 0} for c in datagen.CODECS}}
            for name in datagen.PARQUET_SETS}
    sets["wide"] = {"path": "", "rows": scale["wide"], "arrow_bytes": 0, "file_bytes": 0,
                    "head": "", "row_type": "", "digest": {c: [] for c in PROJECTED_WIDE},
                    "column_bytes": {c: 0 for c in PROJECTED_WIDE}}
    sets["table"] = {"path": "", "rows": scale["table"], "arrow_bytes": 0,
                     "digest": {f.name: [] for f in datagen.TABLE_SCHEMA}}
    return {"sets": sets}
