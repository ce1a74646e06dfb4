"""The installable package (pyproject.toml, docs/install.md), built and used as a user would.

From this checkout: an sdist (`python -m build --sdist`), a wheel built from that sdist by pip in an
isolated build environment (scikit-build-core driving CMake, its requirements taken from the
downloaded wheels in .venv/package-wheels, so the build runs offline), repaired by auditwheel so
the Debian libraries travel inside it. The wheel is installed into fresh virtual environments that
hold only pyarrow (with pandas, which the seed's walkthrough prints through, and pytest) at the
oldest and at the newest version the metadata allows (requirements-oldest.txt, -newest.txt). There,
with no repository on sys.path and no CPAIMON_BUILD: the import, seed 001's Python and SQL
walkthroughs (output identical to the repository build's), the `cpaimon` command and
`python -m cpaimon`, and the package tests that need no oracle.

Build time, platform tag and wheel size are printed (`make test-package` shows them).
"""
import os
import pathlib
import re
import subprocess
import sys
import tarfile
import time
import zipfile

import pytest

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]
WHEELS = ROOT / ".venv" / "package-wheels"
VERSION = re.search(r"project\(cpaimon VERSION ([0-9.]+)", (ROOT / "CMakeLists.txt").read_text())[1]

# tests/python files that need only cpaimon, pyarrow and pytest (no pypaimon, Java, DuckDB, S3),
# and the tests in them that need an oracle anyway.
PACKAGE_TESTS = ["test_catalog_rules.py", "test_cli.py", "test_hints_readonly.py",
                 "test_long_chains.py", "test_parquet_read_cli.py", "test_sql_golden.py",
                 "test_table_errors.py"]
NEEDS_ORACLE = "not unsupported_data_file_format"  # writes ORC/Avro files with pypaimon


def clean_env(**extra):
    """The environment of a user's shell: no developer override, nothing of the repository on
    the path."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("CPAIMON_BUILD", "PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env.update(extra)
    return env


def run(args, **kw):
    kw.setdefault("env", clean_env())
    r = subprocess.run([str(a) for a in args], capture_output=True, text=True, **kw)
    assert r.returncode == 0, f"{args}\n{r.stdout[-4000:]}\n{r.stderr[-4000:]}"
    return r


@pytest.fixture(scope="module")
def dist(tmp_path_factory):
    """The sdist and the repaired wheel, with the time each step took."""
    assert WHEELS.is_dir(), f"{WHEELS} missing: run scripts/setup.sh"
    out = tmp_path_factory.mktemp("dist")
    t0 = time.monotonic()
    run([sys.executable, "-m", "build", "--sdist", "--no-isolation", "-o", out, ROOT])
    t1 = time.monotonic()
    sdist = next(out.glob("cpaimon-*.tar.gz"))
    run([sys.executable, "-m", "pip", "wheel", "--disable-pip-version-check", "--no-cache-dir",
         "--no-deps", "--no-index", "--find-links", WHEELS, "-w", out / "raw", sdist])
    t2 = time.monotonic()
    raw = next((out / "raw").glob("cpaimon-*.whl"))
    run([pathlib.Path(sys.executable).parent / "auditwheel", "repair", "-w", out / "wheelhouse",
         raw])
    t3 = time.monotonic()
    wheel = next((out / "wheelhouse").glob("cpaimon-*.whl"))
    print(f"\npackage: sdist {sdist.name} {sdist.stat().st_size / 2**20:.1f} MiB in {t1 - t0:.1f} s;"
          f" wheel built from it in {t2 - t1:.1f} s, repaired in {t3 - t2:.1f} s: {wheel.name}"
          f" {wheel.stat().st_size / 2**20:.1f} MiB")
    return {"sdist": sdist, "raw": raw, "wheel": wheel}


def test_sdist_holds_the_sources_only(dist):
    with tarfile.open(dist["sdist"]) as tar:
        names = [n.split("/", 1)[1] for n in tar.getnames() if "/" in n]
        pkg_info = tar.extractfile(f"cpaimon-{VERSION}/PKG-INFO").read().decode()
    for needed in ("CMakeLists.txt", "pyproject.toml", "LICENSE", "src/base/http.c",
                   "include/cpaimon/catalog.h", "python/cpaimon/__init__.py",
                   "python/cpaimon/__main__.py", "python/src/module.c"):
        assert needed in names
    stray = [n for n in names if re.match(r"(build[^/]*|\.venv|\.git|tests/java/target)(/|$)", n)]
    assert not stray
    assert f"\nVersion: {VERSION}\n" in pkg_info
    assert "Requires-Dist: pyarrow<27,>=14" in pkg_info or "Requires-Dist: pyarrow>=14,<27" in pkg_info
    assert "License-Expression: Apache-2.0" in pkg_info


def test_wheel_is_portable(dist):
    """auditwheel grafted the Debian libraries in: every ELF file of the repaired wheel needs only
    the libraries of its manylinux policy or those inside the wheel."""
    wheel = dist["wheel"]
    tag = re.search(r"-(manylinux_\d+_\d+_x86_64)\.whl$", wheel.name)
    assert tag, wheel.name
    with zipfile.ZipFile(wheel) as z:
        names = z.namelist()
    assert "cpaimon/_bin/cpaimon" in names
    assert any(re.match(r"cpaimon/_cpaimon\.cpython-.*\.so$", n) for n in names)
    libs = [n for n in names if n.startswith("cpaimon.libs/")]
    for lib in ("libcurl", "libcrypto", "libzstd", "libsnappy", "liblz4", "libjansson",
                "libroaring", "libdeflate"):
        assert any(n.startswith(f"cpaimon.libs/{lib}") for n in libs), (lib, libs)
    show = run([pathlib.Path(sys.executable).parent / "auditwheel", "show", wheel]).stdout
    assert tag[1] in " ".join(show.split()), show
    # The unrepaired wheel needs the build machine's libraries: what the repair is for.
    raw_show = run([pathlib.Path(sys.executable).parent / "auditwheel", "show", dist["raw"]]).stdout
    assert "libcurl" in raw_show


@pytest.fixture(scope="module", params=["oldest", "newest"])
def venv(request, dist, tmp_path_factory):
    """A fresh virtual environment of the base interpreter with only the pinned packages of
    requirements-<param>.txt, then the wheel (pip checks its pyarrow requirement)."""
    d = tmp_path_factory.mktemp(f"venv-{request.param}")
    base = getattr(sys, "_base_executable", sys.executable)
    run([base, "-m", "venv", d])
    py = d / "bin" / "python"
    pip = [py, "-m", "pip", "install", "-q", "--disable-pip-version-check", "--no-index",
           "--find-links", WHEELS]
    run(pip + ["-r", HERE / f"requirements-{request.param}.txt"])
    run(pip + [dist["wheel"]])
    pins = dict(line.split("==") for line in (HERE / f"requirements-{request.param}.txt")
                .read_text().splitlines() if "==" in line)
    return {"dir": d, "py": py, "bin": d / "bin", "pyarrow": pins["pyarrow"],
            "cwd": tmp_path_factory.mktemp(f"work-{request.param}")}


def test_imports_from_the_installed_package(venv):
    r = run([venv["py"], "-c",
             "import cpaimon, cpaimon._cpaimon as n, pyarrow, sys;"
             "print(cpaimon.__file__); print(n.__file__); print(cpaimon.__version__);"
             "print(pyarrow.__version__); print(any('cpaimon' in p for p in sys.path))"],
            cwd=venv["cwd"])
    pkg, native, version, pa_version, repo_on_path = r.stdout.split()
    site = venv["dir"] / "lib"
    assert pathlib.Path(pkg).is_relative_to(site) and pathlib.Path(native).is_relative_to(site)
    assert version == VERSION and pa_version == venv["pyarrow"]
    assert repo_on_path == "False"


REPO_BUILD = pathlib.Path(os.environ.get("CPAIMON_BUILD", ROOT / "build"))


def repo_run(args, **kw):
    """The same program through the repository's development build (the reference output)."""
    return run(args, env=clean_env(CPAIMON_BUILD=str(REPO_BUILD)), **kw)


def test_command_and_python_m(venv):
    for cmd in ([venv["bin"] / "cpaimon", "--version"], [venv["py"], "-m", "cpaimon", "--version"]):
        assert run(cmd, cwd=venv["cwd"]).stdout.strip() == f"cpaimon {VERSION}"
    script = ("CREATE DATABASE db; CREATE TABLE db.t (id INT, s STRING) TBLPROPERTIES "
              "('row-tracking.enabled' = 'true', 'data-evolution.enabled' = 'true');"
              "INSERT INTO db.t VALUES (1, 'a'), (2, 'b'); UPDATE db.t SET s = 'B' WHERE id = 2;"
              "SELECT id, s, _ROW_ID, _SEQUENCE_NUMBER FROM db.t ORDER BY id")
    wh = venv["cwd"] / "sql-wh"
    got = run([venv["bin"] / "cpaimon", "sql", "--warehouse", wh, "-e", script],
              cwd=venv["cwd"]).stdout
    want = repo_run([REPO_BUILD / "cpaimon", "sql", "--warehouse", venv["cwd"] / "sql-repo", "-e",
                     script]).stdout
    assert got == want and "|  2|  B|      1|" in got, got
    # An error exits non-zero with the message, as from the repository build.
    bad = subprocess.run([venv["bin"] / "cpaimon", "sql", "--warehouse", wh, "-e",
                          "SELECT nope FROM db.t"], capture_output=True, text=True,
                         env=clean_env(), cwd=venv["cwd"])
    assert bad.returncode == 1 and "nope" in bad.stderr


def test_seed_001_walkthroughs(venv, tmp_path):
    got = run([venv["py"], ROOT / "examples" / "seed_001.py", tmp_path / "wh-installed"],
              cwd=venv["cwd"]).stdout
    want = repo_run([sys.executable, ROOT / "examples" / "seed_001.py", tmp_path / "wh-repo"]).stdout
    assert got == want
    assert "Charlie   28  [0.0, 0.0, 0.0, 0.0]" in got
    sql = [venv["bin"] / "cpaimon", "sql", "--echo", "-f", ROOT / "examples" / "seed_001.sql"]
    got = run(sql + ["--warehouse", tmp_path / "sql-installed"], cwd=venv["cwd"]).stdout
    want = repo_run([REPO_BUILD / "cpaimon", *sql[1:], "--warehouse", tmp_path / "sql-repo"])
    assert got == want.stdout and "_ROW_ID" in got


def test_package_tests_without_oracle(venv, tmp_path):
    r = subprocess.run([venv["py"], "-m", "pytest", "-q", "-p", "no:cacheprovider",
                        f"--basetemp={tmp_path / 'inner'}", "-k", NEEDS_ORACLE,
                        *[ROOT / "tests" / "python" / f for f in PACKAGE_TESTS]],
                       capture_output=True, text=True, env=clean_env(), cwd=venv["cwd"])
    summary = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else r.stderr
    assert r.returncode == 0, r.stdout[-6000:] + r.stderr[-2000:]
    passed = int(re.search(r"(\d+) passed", summary)[1])
    assert passed >= 60, summary
    print(f"\npackage tests in the {venv['pyarrow']} environment: {summary}")
