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
    """The native command the package runs: $CPAIMON_BUILD's (default <repo>/build) in the
    repository, the installed package's own where it is installed (tests/package)."""
    from cpaimon.__main__ import executable
    try:
        return executable()
    except FileNotFoundError as e:
        pytest.fail(f"{e}; run `make build` first")


@pytest.fixture
def run_cli(cpaimon_bin):
    """Runs the cpaimon command and returns the CompletedProcess (text mode)."""

    def run(*args, check=False):
        return subprocess.run([str(cpaimon_bin), *map(str, args)], capture_output=True,
                              text=True, check=check)

    return run


# ---- object storage: a local S3 server (moto) that verifies every signature ----

class S3Env:
    """One fresh bucket on the session's S3 server, with the catalog options to reach it."""

    def __init__(self, server, bucket, endpoint=None):
        import s3_support
        self.server = server
        self.endpoint = endpoint or server.endpoint
        self.bucket = bucket
        self.client = server.client()
        self.warehouse = f"s3://{bucket}/wh"
        self.options = s3_support.catalog_options(self.endpoint, server.keys["admin"])

    def catalog_options(self, user="admin", **extra):
        import s3_support
        opts = s3_support.catalog_options(self.endpoint, self.server.keys[user], **extra)
        opts["warehouse"] = self.warehouse
        return opts

    def cli_args(self, user="admin", **extra):
        args = []
        for k, v in self.catalog_options(user, **extra).items():
            if k != "warehouse":
                args += ["--catalog", f"{k}={v}"]
        return args

    def cpaimon(self, **extra):
        import cpaimon
        return cpaimon.CatalogFactory.create(self.catalog_options(**extra))

    def pypaimon(self, **extra):
        import pypaimon
        return pypaimon.CatalogFactory.create(self.catalog_options(**extra))

    def keys(self, prefix=""):
        import s3_support
        return s3_support.list_keys(self.client, self.bucket, prefix)

    def uploads(self):
        import s3_support
        return s3_support.pending_uploads(self.client, self.bucket)


@pytest.fixture(scope="session")
def s3_server():
    import s3_support
    with s3_support.MotoServer(authenticate=True) as server:
        yield server


@pytest.fixture
def s3(s3_server):
    import s3_support
    return S3Env(s3_server, s3_support.new_bucket(s3_server.client()))


@pytest.fixture
def s3_proxy(s3_server):
    """A fault-injecting proxy in front of the S3 server, and a bucket reached through it."""
    import s3_support
    with s3_support.S3Proxy(s3_server.port) as proxy:
        env = S3Env(s3_server, s3_support.new_bucket(s3_server.client()), proxy.endpoint)
        env.proxy = proxy
        yield env


# ---- REST catalog: Java Paimon 1.4.2's reference server (tests/java rest-server) ----
# The server keeps databases and table metadata in memory; tests sharing a session server use
# their own database names (rest_db). See tests/python/rest_support.py.

@pytest.fixture(scope="session")
def rest_server(tmp_path_factory):
    """One bearer-auth server for the session (data under a session temp directory)."""
    import rest_support
    with rest_support.RestServer(auth="bear",
                                 data_path=tmp_path_factory.mktemp("rest") / "data") as server:
        yield server


@pytest.fixture(scope="session")
def rest_server_dlf(tmp_path_factory):
    """One DLF-auth server for the session (default and openapi signers verified)."""
    import rest_support
    with rest_support.RestServer(auth="dlf",
                                 data_path=tmp_path_factory.mktemp("rest-dlf") / "data") as server:
        yield server


@pytest.fixture
def rest_db(request):
    """A database name no other test uses (for tests on a shared session server)."""
    import re
    return "t_" + re.sub(r"[^0-9a-zA-Z_]", "_", request.node.name)[:60].lower()


@pytest.fixture
def rest_server_factory(tmp_path):
    """start(**RestServer args) -> a started server of this test; all stopped at teardown."""
    import rest_support
    servers = []

    def start(auth="bear", name=None, **kwargs):
        kwargs.setdefault("data_path", tmp_path / (name or f"rest{len(servers)}") / "data")
        server = rest_support.RestServer(auth=auth, **kwargs)
        servers.append(server)
        return server.start()

    yield start
    for server in servers:
        server.stop()
