"""`cmake --install` gives a usable library: headers, libcpaimon (shared and static), a
relocatable cpaimon.pc; the C example (examples/c/scan_table.c) builds against it with
pkg-config and reads a table written through the Python package."""
import os
import pathlib
import subprocess

import pyarrow as pa

import cpaimon
from conftest import BUILD, ROOT


def test_install_and_embed(tmp_path):
    prefix = tmp_path / "prefix"
    subprocess.run(["cmake", "--install", str(BUILD), "--prefix", str(prefix)], check=True,
                   capture_output=True)
    pc_dir = next(prefix.glob("lib*/**/pkgconfig"))
    env = dict(os.environ, PKG_CONFIG_PATH=str(pc_dir))
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "cpaimon"], env=env, check=True,
                           capture_output=True, text=True).stdout.split()
    assert any(f.startswith("-I") and pathlib.Path(f[2:]).resolve() == (prefix / "include").resolve()
               for f in flags)
    exe = tmp_path / "scan_table"
    libdir = pathlib.Path(next(f[2:] for f in flags if f.startswith("-L")))
    subprocess.run(["cc", str(ROOT / "examples/c/scan_table.c"), *flags,
                    f"-Wl,-rpath,{libdir}", "-o", str(exe)], check=True)

    warehouse = tmp_path / "wh"
    catalog = cpaimon.CatalogFactory.create({"warehouse": str(warehouse)})
    catalog.create_database("db", True)
    schema = pa.schema([pa.field("id", pa.int32(), nullable=False), ("v", pa.string())])
    catalog.create_table("db.t", cpaimon.Schema.from_pyarrow_schema(
        schema, options={"row-tracking.enabled": "true"}))
    t = catalog.get_table("db.t")
    wb = t.new_batch_write_builder()
    w, c = wb.new_write(), wb.new_commit()
    w.write_arrow(pa.table({"id": pa.array([1, 2, 3], pa.int32()), "v": ["a", "b", "c"]}))
    c.commit(w.prepare_commit())
    out = subprocess.run([str(exe), str(warehouse), "db.t"], check=True, capture_output=True,
                         text=True).stdout
    assert "columns: id v _ROW_ID _SEQUENCE_NUMBER" in out
    assert "total 3 rows in snapshot 1" in out
    bad = subprocess.run([str(exe), str(warehouse), "db.nope"], capture_output=True, text=True)
    assert bad.returncode == 1 and "Table db.nope does not exist." in bad.stderr
