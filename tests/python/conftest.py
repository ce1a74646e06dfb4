"""Shared pytest fixtures: where the built binaries are, and a scratch warehouse per test."""
import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
BUILD = pathlib.Path(os.environ.get("CPAIMON_BUILD", ROOT / "build"))
TESTDATA = ROOT.parent / "shared" / "testdata"


@pytest.fixture(scope="session")
def cpaimon_bin():
    path = BUILD / "cpaimon"
    if not path.exists():
        pytest.fail(f"{path} not built; run `make build` first")
    return path


@pytest.fixture
def run_cli(cpaimon_bin):
    """Runs the cpaimon command and returns the CompletedProcess (text mode)."""

    def run(*args, check=False):
        return subprocess.run([str(cpaimon_bin), *map(str, args)], capture_output=True,
                              text=True, check=check)

    return run
