"""Java Paimon 1.4.2's reference REST catalog server, and Java's RESTCatalog as a client, for the
REST catalog tests (tests/python/test_rest_*.py).

- ``RestServer``: ``org.apache.paimon.rest.RESTCatalogServer`` (paimon-core's tests jar) started
  by ``paimon-tool rest-server`` (tests/java, RestServer.java) on 127.0.0.1 on a free port, with
  bearer or DLF authentication. A context manager: the server is stopped when the block ends,
  also when it fails::

      with RestServer(auth="bear", data_path=tmp / "data", warehouse="wh") as server:
          catalog = pypaimon.CatalogFactory.create(server.options())

  ``server.uri`` (``http://127.0.0.1:PORT``), ``server.warehouse`` (the catalog name clients
  send), ``server.prefix``, ``server.data_path`` (tables at ``DATA/DB.db/TABLE``),
  ``server.options(**extra)`` (pypaimon/cpaimon catalog options, ``metastore: rest``),
  ``server.java_catalog_args()`` (the same for paimon-tool's ``--catalog``), and with
  ``log=True`` ``server.wire()``: every exchange the server served, in order.
- ``JavaRestClient``: paimon-tool in batch mode (one JVM), its table commands pointed at a REST
  server through ``--catalog`` (Java's RESTCatalog).

The server keeps databases and table metadata in memory (a restart forgets them) and the table
files under ``data_path``. It answers one request at a time. Nothing listens beyond loopback, and
every wait is bounded.
"""
import hashlib
import json
import os
import pathlib
import queue
import shutil
import subprocess
import tempfile
import threading

ROOT = pathlib.Path(__file__).resolve().parents[2]
JAVA_DIR = ROOT / "tests" / "java"
JAR = JAVA_DIR / "target" / "paimon-tool.jar"
STAMP = JAVA_DIR / "target" / ".sources.sha256"
SETUP_HINT = "run scripts/setup.sh (installs openjdk-17-jdk-headless and maven, builds tests/java)"

TOKEN = "cpaimon-rest-token-0123456789"
ACCESS_KEY_ID = "cpaimon-ak"
ACCESS_KEY_SECRET = "cpaimon-sk-0123456789"
REGION = "cn-hangzhou"


class RestServerError(RuntimeError):
    """The server did not start (the message carries its stderr)."""


def sources_hash():
    """The hash scripts/setup.sh stamps the jar with (see test_java_interop.sources_hash)."""
    paths = []
    for dirpath, dirnames, filenames in os.walk(JAVA_DIR):
        rel = pathlib.Path(dirpath).relative_to(JAVA_DIR)
        if rel.parts[:1] == ("target",):
            dirnames[:] = []
            continue
        paths += ["./" + (rel / f).as_posix() for f in filenames]
    listing = b""
    for p in sorted(paths, key=lambda s: s.encode()):
        digest = hashlib.sha256((JAVA_DIR / p).read_bytes()).hexdigest()
        listing += f"{digest}  {p}\n".encode()
    return hashlib.sha256(listing).hexdigest()


def check_jar():
    """Raises RestServerError unless java is on PATH and the jar matches tests/java's sources."""
    if shutil.which("java") is None:
        raise RestServerError(f"`java` is not on PATH: {SETUP_HINT}")
    if not JAR.exists():
        raise RestServerError(f"{JAR} is missing: {SETUP_HINT}")
    if not STAMP.exists() or STAMP.read_text().strip() != sources_hash():
        raise RestServerError(f"{JAR} is older than the sources in tests/java: {SETUP_HINT}")


class RestServer:
    """Java Paimon's RESTCatalogServer in a child process (see the module docstring).

    auth="bear": clients send ``Authorization: Bearer <token>``.
    auth="dlf": clients sign with DLF (``token.provider: dlf``) using ``access_key_id`` /
    ``access_key_secret`` (and ``security_token`` when given) for ``region``; the server checks
    signatures of the default signer (DLF4-HMAC-SHA256) and of the ``openapi`` one.
    ``defaults`` / ``overrides`` go into the config response (``prefix`` is always a default).
    ``data_path`` may be an object-store URL (``s3://bucket/wh``): the server keeps its catalog
    there, reached with the file-system options ``store`` (never sent to clients).
    ``data_token``: what ``GET .../token`` vends for every table, valid ``data_token_life_ms``
    from each request (give ``defaults={"data-token.enabled": "true"}`` to make clients use it).
    """

    START_TIMEOUT = 60
    STOP_TIMEOUT = 15

    def __init__(self, auth="bear", data_path=None, warehouse="cpaimon_rest", prefix="paimon",
                 token=TOKEN, access_key_id=ACCESS_KEY_ID, access_key_secret=ACCESS_KEY_SECRET,
                 security_token=None, region=REGION, port=0, log=False, defaults=None,
                 overrides=None, store=None, data_token=None, data_token_life_ms=None):
        if auth not in ("bear", "dlf"):
            raise ValueError(f"auth must be 'bear' or 'dlf', not {auth!r}")
        self.auth = auth
        self._own_dir = None
        if data_path is None:
            self._own_dir = tempfile.mkdtemp(prefix="cpaimon-rest-")
            data_path = pathlib.Path(self._own_dir) / "data"
        self.data_path = (str(data_path) if "://" in str(data_path)
                          else pathlib.Path(data_path))
        self.warehouse = warehouse
        self.prefix = prefix
        self.token = token
        self.access_key_id = access_key_id
        self.access_key_secret = access_key_secret
        self.security_token = security_token
        self.region = region
        self.port = port
        self.defaults = dict(defaults or {})
        self.overrides = dict(overrides or {})
        self.store = dict(store or {})
        self.data_token = dict(data_token or {})
        self.data_token_life_ms = data_token_life_ms
        # log: False, True (a file beside the data directory) or a path.
        self.log_path = None
        if log is True:
            if isinstance(self.data_path, str):
                raise ValueError("log=True needs a local data_path; give the log's path")
            self.log_path = self.data_path.parent / f"{self.data_path.name}-wire.jsonl"
        elif log:
            self.log_path = pathlib.Path(log)
        self.proc = None
        self.uri = None
        self.ready = None
        self.stderr = []

    # ---- life cycle ----

    def command(self):
        args = ["java", "-jar", str(JAR), "rest-server", "--data", str(self.data_path),
                "--warehouse", self.warehouse, "--prefix", self.prefix, "--port", str(self.port)]
        if self.auth == "bear":
            args += ["--token", self.token]
        else:
            args += ["--dlf-access-key-id", self.access_key_id,
                     "--dlf-access-key-secret", self.access_key_secret,
                     "--dlf-region", self.region]
            if self.security_token is not None:
                args += ["--dlf-security-token", self.security_token]
        for k, v in self.defaults.items():
            args += ["--default", f"{k}={v}"]
        for k, v in self.overrides.items():
            args += ["--override", f"{k}={v}"]
        for k, v in self.store.items():
            args += ["--store", f"{k}={v}"]
        for k, v in self.data_token.items():
            args += ["--data-token", f"{k}={v}"]
        if self.data_token_life_ms is not None:
            args += ["--data-token-life-ms", str(self.data_token_life_ms)]
        if self.log_path is not None:
            args += ["--log", str(self.log_path)]
        return args

    def start(self):
        check_jar()
        self.proc = subprocess.Popen(self.command(), stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     encoding="utf-8")
        lines = queue.Queue()

        def pump():
            for line in self.proc.stdout:
                lines.put(line)
            lines.put(None)

        threading.Thread(target=pump, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.extend(self.proc.stderr),
                         daemon=True).start()
        try:
            line = lines.get(timeout=self.START_TIMEOUT)
        except queue.Empty:
            self.stop()
            raise RestServerError(f"rest-server printed no ready line in {self.START_TIMEOUT}s:"
                                  f" {self.stderr_text()}")
        if line is None:
            self.stop()
            raise RestServerError(f"rest-server exited ({self.proc.returncode}) at start:"
                                  f" {self.stderr_text()}")
        self.ready = json.loads(line)
        self.uri = self.ready["uri"]
        self.port = self.ready["port"]
        return self

    def stop(self):
        """Closes the server's stdin (its signal to stop), then terminates, then kills."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            try:
                self.proc.wait(timeout=self.STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.proc.terminate()
                try:
                    self.proc.wait(timeout=self.STOP_TIMEOUT)
                except subprocess.TimeoutExpired:
                    self.proc.kill()
                    self.proc.wait()
        if self._own_dir is not None:
            shutil.rmtree(self._own_dir, ignore_errors=True)
            self._own_dir = None

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()

    def stderr_text(self, tail=4000):
        return "".join(self.stderr)[-tail:]

    # ---- what clients need ----

    def options(self, **extra):
        """pypaimon (and cpaimon) catalog options for this server; ``extra`` wins."""
        opts = {"metastore": "rest", "uri": self.uri, "warehouse": self.warehouse}
        if self.auth == "bear":
            opts.update({"token.provider": "bear", "token": self.token})
        else:
            opts.update({"token.provider": "dlf", "dlf.region": self.region,
                         "dlf.access-key-id": self.access_key_id,
                         "dlf.access-key-secret": self.access_key_secret})
            if self.security_token is not None:
                opts["dlf.security-token"] = self.security_token
        opts.update({k: v for k, v in extra.items()})
        return opts

    def java_catalog_args(self, **extra):
        """The same options as paimon-tool arguments (``--catalog K=V``...), warehouse aside."""
        args = []
        for k, v in self.options(**extra).items():
            if k != "warehouse":
                args += ["--catalog", f"{k}={v}"]
        return args

    def table_path(self, database, table):
        if isinstance(self.data_path, str):
            return f"{self.data_path.rstrip('/')}/{database}.db/{table}"
        return self.data_path / f"{database}.db" / table

    def wire(self):
        """Every exchange served so far (needs log=True): dicts with seq, method, path (with the
        query), headers (secrets masked), body, status, response_headers, response_body."""
        if self.log_path is None:
            raise ValueError("this server was started without log=True")
        if not self.log_path.exists():
            return []
        return [json.loads(line) for line in self.log_path.read_text(encoding="utf-8").splitlines()
                if line.strip()]


def on_s3(moto, bucket, path="wh", token_user="writer", token_life_ms=None):
    """RestServer arguments for a catalog whose tables live on the local S3 server ``moto``
    (s3_support.MotoServer) at s3://BUCKET/PATH: the server writes schema files and snapshots
    there as the IAM user "admin"; clients get the keys of ``token_user`` as the data token of
    every table (the names pypaimon and cpaimon read, and those of Java's S3FileIO) and are told
    to use it (``data-token.enabled``). Clients need no storage option of their own. The bearer
    token is the bucket's own: pypaimon caches data tokens per process by bearer token and table
    name, so servers sharing a token would be handed each other's storage credentials."""
    import s3_support
    ak, sk = moto.keys["admin"]
    tak, tsk = moto.keys[token_user]
    java = {"s3.endpoint": moto.endpoint, "s3.path.style.access": "true"}
    token = dict(s3_support.catalog_options(moto.endpoint, (tak, tsk)), **java)
    token.update({"s3.access-key": tak, "s3.secret-key": tsk})
    return {"data_path": f"s3://{bucket}/{path}", "token": f"cpaimon-rest-token-{bucket}",
            "store": dict(java, **{"s3.access-key": ak, "s3.secret-key": sk}),
            "data_token": token, "data_token_life_ms": token_life_ms,
            "defaults": {"data-token.enabled": "true"}}


class JavaError(Exception):
    """paimon-tool answered a command with an error (message from Java)."""


class JavaRestClient:
    """paimon-tool in batch mode with every table command pointed at ``server`` (Java's
    RESTCatalog). Rows are in the tool's JSON form (tests/java/.../Values.java)."""

    TIMEOUT = 180

    def __init__(self, server, tmp_dir):
        check_jar()
        self.server = server
        self.tmp = pathlib.Path(tmp_dir)
        self.tmp.mkdir(parents=True, exist_ok=True)
        self.n = 0
        self.proc = subprocess.Popen(["java", "-jar", str(JAR), "serve"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     encoding="utf-8")
        self.lines = queue.Queue()
        self.stderr = []
        threading.Thread(target=self._pump, daemon=True).start()
        threading.Thread(target=lambda: self.stderr.extend(self.proc.stderr),
                         daemon=True).start()

    def _pump(self):
        for line in self.proc.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def __call__(self, command, ident, *args, **catalog_extra):
        argv = [command, self.server.warehouse, ident, *map(str, args),
                *self.server.java_catalog_args(**catalog_extra)]
        self.proc.stdin.write(json.dumps(argv) + "\n")
        self.proc.stdin.flush()
        try:
            line = self.lines.get(timeout=self.TIMEOUT)
        except queue.Empty:
            raise JavaError(f"paimon-tool did not answer {command} {ident} in {self.TIMEOUT}s")
        if line is None:
            raise JavaError(f"paimon-tool exited ({self.proc.poll()}):"
                            f" {''.join(self.stderr)[-2000:]}")
        answer = json.loads(line)
        if not answer["ok"]:
            raise JavaError(answer["error"])
        return answer["out"]

    def _jsonl(self, rows):
        self.n += 1
        path = self.tmp / f"rest-rows-{self.n}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
        return path

    def read(self, ident, row_tracking=False, snapshot=None, columns=None):
        args = []
        if row_tracking:
            args.append("--with-row-tracking")
        if snapshot is not None:
            args += ["--snapshot", snapshot]
        if columns:
            args += ["--columns", ",".join(columns)]
        return [json.loads(line) for line in self("read", ident, *args).splitlines()]

    def write(self, ident, rows, schema=None, options=None):
        args = ["--json", self._jsonl(rows)]
        if schema is not None:
            args += ["--schema", json.dumps(schema)]
        for k, v in (options or {}).items():
            args += ["--option", f"{k}={v}"]
        return json.loads(self("write", ident, *args))

    def update(self, ident, rows, columns=None):
        args = ["--json", self._jsonl(rows)]
        if columns:
            args += ["--columns", ",".join(columns)]
        return json.loads(self("update-by-row-id", ident, *args))

    def schema(self, ident):
        return json.loads(self("schema", ident))

    def snapshot(self, ident):
        return json.loads(self("snapshot", ident))

    def close(self):
        if self.proc.poll() is None:
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


# ---- the seed's Python walkthrough, as a library call ----

HIDDEN = ["_ROW_ID", "_SEQUENCE_NUMBER"]
SEED_STEPS = ["connect", "create_database", "create_table", "get_table", "write", "read",
              "update_by_row_id", "read_after_update", "upsert_by_key", "read_after_upsert",
              "alter_add_column", "get_table_again", "shard_update", "read_after_shard_update",
              "read_row_tracking"]


def read_all(table, hidden=True):
    """Every row of ``table`` (pypaimon API), with _ROW_ID and _SEQUENCE_NUMBER, by _ROW_ID."""
    names = list(table.field_names)
    rb = table.new_read_builder().with_projection(names + (HIDDEN if hidden else []))
    result = rb.new_read().to_arrow(rb.new_scan().plan().splits())
    return result.sort_by("_ROW_ID") if hidden else result


def seed_walkthrough(options, lib="pypaimon", step=lambda name: None):
    """Runs shared/seeds/001's Python walkthrough ("Data evolution and row tracking") against
    the catalog ``options`` with library ``lib`` ("pypaimon", or "cpaimon" once it speaks REST),
    checking every frame the seed prints. ``step(name)`` is called before each step (names in
    SEED_STEPS), e.g. to cut a wire transcript into steps. Returns the final table read with
    _ROW_ID and _SEQUENCE_NUMBER, as a pyarrow Table sorted by _ROW_ID."""
    import importlib

    import pyarrow as pa
    mod = importlib.import_module(lib)
    data_types = importlib.import_module(f"{lib}.schema.data_types")
    schema_change = importlib.import_module(f"{lib}.schema.schema_change")
    AtomicType, ArrayType, DataField = (data_types.AtomicType, data_types.ArrayType,
                                        data_types.DataField)

    step("connect")
    catalog = mod.CatalogFactory.create(options)
    step("create_database")
    catalog.create_database("my_db", True)

    step("create_table")
    schema = mod.Schema(
        fields=[
            DataField(0, 'id', AtomicType('INT NOT NULL')),
            DataField(1, 'name', AtomicType('STRING')),
            DataField(2, 'age', AtomicType('INT')),
        ],
        options={
            'row-tracking.enabled': 'true',
            'data-evolution.enabled': 'true',
        },
    )
    catalog.create_table('my_db.target_table', schema, True)
    step("get_table")
    table = catalog.get_table('my_db.target_table')

    step("write")
    write_builder = table.new_batch_write_builder()
    write = write_builder.new_write()
    commit = write_builder.new_commit()
    init_data = pa.RecordBatch.from_pydict({
        'id': [1, 2],
        'name': ['Alice', 'Bob'],
        'age': [30, 25],
    }, schema=pa.schema([
        ('id', pa.int32()),
        ('name', pa.string()),
        ('age', pa.int32()),
    ]))
    write.write_arrow_batch(init_data)
    cmts = write.prepare_commit()
    commit.commit(cmts)
    commit.close()

    step("read")
    read_builder = table.new_read_builder()
    scanner = read_builder.new_scan()
    reader = read_builder.new_read()
    df = reader.to_arrow(scanner.plan().splits()).to_pandas()
    assert df.to_dict("list") == {"id": [1, 2], "name": ["Alice", "Bob"], "age": [30, 25]}

    step("update_by_row_id")
    write_builder = table.new_batch_write_builder()
    table_update = write_builder.new_update().with_update_type(['age'])
    table_commit = write_builder.new_commit()
    update_data = pa.Table.from_pydict({
        '_ROW_ID': [0, 1],
        'age': [31, 26],
    }, schema=pa.schema([
        ('_ROW_ID', pa.int64()),
        ('age', pa.int32()),
    ]))
    cmts = table_update.update_by_arrow_with_row_id(update_data)
    table_commit.commit(cmts)
    table_commit.close()

    step("read_after_update")
    reader = table.new_read_builder()
    df = reader.new_read().to_pandas(reader.new_scan().plan().splits())
    assert df.to_dict("list") == {"id": [1, 2], "name": ["Alice", "Bob"], "age": [31, 26]}

    step("upsert_by_key")
    write_builder = table.new_batch_write_builder()
    table_update = write_builder.new_update()
    table_commit = write_builder.new_commit()
    upsert_data = pa.Table.from_pydict({
        'id': [1, 3],
        'name': ['Alice', 'Charlie'],
        'age': [35, 28],
    }, schema=pa.schema([
        ('id', pa.int32()),
        ('name', pa.string()),
        ('age', pa.int32()),
    ]))
    cmts = table_update.upsert_by_arrow_with_key(upsert_data, upsert_keys=['id'])
    table_commit.commit(cmts)
    table_commit.close()

    step("read_after_upsert")
    reader = table.new_read_builder()
    df = reader.new_read().to_pandas(reader.new_scan().plan().splits())
    assert df.to_dict("list") == {"id": [1, 2, 3], "name": ["Alice", "Bob", "Charlie"],
                                  "age": [35, 26, 28]}

    step("alter_add_column")
    catalog.alter_table('my_db.target_table', [
        schema_change.SchemaChange.add_column('embedding', ArrayType(True, AtomicType('FLOAT')))
    ])
    step("get_table_again")
    table = catalog.get_table('my_db.target_table')

    step("shard_update")
    write_builder = table.new_batch_write_builder()
    update = write_builder.new_update()
    update.with_read_projection(['name'])
    update.with_update_type(['embedding'])
    upd = update.new_shard_updator(shard_num=0, total_shard_count=1)
    reader = upd.arrow_reader()
    for batch in reader:
        names = batch.column('name').to_pylist()
        embeddings = [[float(i) * 0.1] * 4 for i in range(len(names))]
        upd.update_by_arrow_batch(
            pa.RecordBatch.from_pydict(
                {'embedding': embeddings},
                schema=pa.schema([('embedding', pa.list_(pa.float32()))])
            )
        )
    commit_messages = upd.prepare_commit()
    commit = write_builder.new_commit()
    commit.commit(commit_messages)
    commit.close()

    step("read_after_shard_update")
    reader = table.new_read_builder()
    df = reader.new_read().to_pandas(reader.new_scan().plan().splits())
    assert df[["id", "name", "age"]].to_dict("list") == {
        "id": [1, 2, 3], "name": ["Alice", "Bob", "Charlie"], "age": [35, 26, 28]}
    # The shard reads the row-id groups [0, 1] and [2] as two batches, so i restarts.
    f32 = [float(pa.scalar(x * 0.1, pa.float32()).as_py()) for x in range(2)]
    assert [list(v) for v in df["embedding"]] == [[f32[0]] * 4, [f32[1]] * 4, [f32[0]] * 4]

    step("read_row_tracking")
    return read_all(table)
