"""Records the REST wire protocol of the seed walkthrough (and a few other flows) against Java
Paimon 1.4.2's reference REST catalog server, and writes it, cleaned, to
tests/java/rest_flows.json (summarised in tests/java/REST_FLOWS.md).

    .venv/bin/python tests/python/rest_capture.py [OUT.json]

Every exchange is what the server received and answered (rest-server --log): method, path,
query, request headers (secrets masked: bearer token, DLF signature, security token), JSON body,
status, response headers and JSON body, in the order served, tagged with the walkthrough step
that sent it. Run-dependent values are replaced by stable placeholders so that two runs give the
same file: UUIDs by <uuid-N> (the same UUID gets the same N within a flow), the data directory
by <DATA>, the port by <PORT>, epoch milliseconds by <millis>, signing dates and nonces by
<date> / <nonce>, file sizes by <size>.

Flows: pypaimon's walkthrough with bearer auth; its first requests with DLF (default and openapi
signers, to show the headers); Java's RESTCatalog writing, updating and reading; error answers.
"""
import json
import pathlib
import re
import sys
import tempfile
import urllib.error
import urllib.request

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import pyarrow as pa  # noqa: E402
import pypaimon  # noqa: E402

import rest_support  # noqa: E402

OUT = rest_support.ROOT / "tests" / "java" / "rest_flows.json"
UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
SIZE_KEYS = {"fileSizeInBytes", "baseManifestListSize", "deltaManifestListSize",
             "changelogManifestListSize", "indexManifestSize"}
MILLIS_KEYS = {"timeMillis", "lastFileCreationTime", "expiresAtMillis", "createdAt",
               "updatedAt"}


class Cleaner:
    def __init__(self, server):
        self.server = server
        self.uuids = {}

    def text(self, s):
        if s is None:
            return None
        s = s.replace(str(self.server.data_path), "<DATA>")
        s = s.replace(f"127.0.0.1:{self.server.port}", "127.0.0.1:<PORT>")

        def uuid(m):
            return self.uuids.setdefault(m.group(0), f"<uuid-{len(self.uuids) + 1}>")

        s = UUID.sub(uuid, s)
        return s

    def value(self, v, key=None):
        if isinstance(v, dict):
            return {k: self.value(x, k) for k, x in v.items()}
        if isinstance(v, list):
            return [self.value(x) for x in v]
        if key in SIZE_KEYS and isinstance(v, int):
            return "<size>"
        if key in MILLIS_KEYS and isinstance(v, int) and v > 10 ** 12:
            return "<millis>"
        if key in ("akId", "akSecret") and isinstance(v, str):
            return re.sub(r"\d{13}$", "<millis>", v)
        if isinstance(v, str):
            return self.text(v)
        return v

    def body(self, s):
        if not s:
            return s if s is None else ""
        try:
            return self.value(json.loads(s))
        except ValueError:
            return self.text(s)

    def headers(self, h):
        out = {}
        for k, v in h.items():
            lk = k.lower()
            if lk in ("x-dlf-date", "date", "x-acs-date"):
                v = "<date>"
            elif lk == "x-acs-signature-nonce":
                v = "<nonce>"
            elif lk == "authorization":
                v = re.sub(r"/\d{8}/", "/<yyyymmdd>/", v)
            elif lk == "content-md5":
                v = "<md5 of the body>"
            elif lk == "x-acs-content-sha256" and not v.startswith("e3b0c442"):
                v = "<sha256 of the body>"
            elif lk == "user-agent":
                v = re.sub(r"python-requests/[\d.]+", "python-requests/<v>", v)
                v = re.sub(r"okhttp/[\d.]+|Apache-HttpClient/[\d.]+[^ ]*", "<client>", v)
            out[k] = self.text(v)
        return out

    def exchange(self, e, step):
        path, _, query = e["path"].partition("?")
        return {
            "step": step, "method": e["method"], "path": self.text(path),
            "query": self.text(query) or None, "headers": self.headers(e["headers"]),
            "body": self.body(e["body"]), "status": e["status"],
            "response_headers": {k: v for k, v in e["response_headers"].items()
                                 if k.lower() != "content-length"},
            "response_body": self.body(e["response_body"]),
        }


def flow(server, name, description, run):
    """Runs run(step) and returns the flow: the exchanges it caused, tagged by step."""
    marks = []
    start = len(server.wire())
    run(lambda s: marks.append((s, len(server.wire()))))
    cleaner = Cleaner(server)
    exchanges = []
    for e in server.wire()[start:]:
        step = None
        for s, at in marks:
            if at < e["seq"]:
                step = s
        exchanges.append(cleaner.exchange(e, step))
    return {"name": name, "description": description, "exchanges": exchanges}


def raw(server, method, path, body=None, token=None):
    req = urllib.request.Request(server.uri + path, method=method,
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={"Authorization": f"Bearer {token or server.token}"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status
    except urllib.error.HTTPError as e:
        return e.code


def get_json(server, path):
    req = urllib.request.Request(server.uri + path,
                                 headers={"Authorization": f"Bearer {server.token}"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def main(out=OUT):
    flows = []
    tmp = pathlib.Path(tempfile.mkdtemp(prefix="cpaimon-rest-capture-"))

    with rest_support.RestServer(auth="bear", data_path=tmp / "bear" / "data", log=True) as s:
        flows.append(flow(s, "pypaimon-seed-walkthrough-bearer",
                          "shared/seeds/001's Python walkthrough, pypaimon 2.1.0, "
                          "token.provider=bear",
                          lambda step: rest_support.seed_walkthrough(s.options(), step=step)))

        def java_flow(step):
            doc = {"fields": [{"id": 0, "name": "id", "type": "INT NOT NULL"},
                              {"id": 1, "name": "v", "type": "STRING"}]}
            with rest_support.JavaRestClient(s, tmp / "java") as java:
                step("java_write_create")
                java.write("jdb.t", [{"id": 1, "v": "a"}, {"id": 2, "v": "b"}], schema=doc,
                           options={"row-tracking.enabled": "true",
                                    "data-evolution.enabled": "true"})
                step("java_update_by_row_id")
                java.update("jdb.t", [{"_ROW_ID": 1, "v": "B"}], columns=["v"])
                step("java_read_row_tracking")
                java.read("jdb.t", row_tracking=True)
        flows.append(flow(s, "java-restcatalog-bearer",
                          "Java Paimon 1.4.2's RESTCatalog (paimon-tool write / update-by-row-id"
                          " / read --with-row-tracking --catalog metastore=rest ...)", java_flow))

        def errors(step):
            step("connect")
            catalog = pypaimon.CatalogFactory.create(s.options())
            step("bad_token")
            raw(s, "GET", "/v1/paimon/databases", token="wrong")
            step("missing_database")
            try:
                catalog.get_database("nodb")
            except Exception:
                pass
            step("missing_table")
            try:
                catalog.get_table("my_db.nope")
            except Exception:
                pass
            step("database_exists")
            try:
                catalog.create_database("my_db", False)
            except Exception:
                pass
            step("table_exists")
            schema = pypaimon.Schema.from_pyarrow_schema(pa.schema([("id", pa.int32())]))
            try:
                catalog.create_table("my_db.target_table", schema, False)
            except Exception:
                pass
            step("column_exists")
            from pypaimon.schema.data_types import AtomicType
            from pypaimon.schema.schema_change import SchemaChange
            try:
                catalog.alter_table("my_db.target_table",
                                    [SchemaChange.add_column("age", AtomicType("INT"))])
            except Exception:
                pass
            step("commit_existing_snapshot_id")
            t = "/v1/paimon/databases/my_db/tables/target_table"
            latest = get_json(s, t + "/snapshot")["snapshot"]["snapshot"]
            tid = get_json(s, t)["id"]
            raw(s, "POST", t + "/commit", {"tableId": tid, "snapshot": latest, "statistics": [],
                                           "baseSnapshotUuid": None})
            step("wrong_warehouse")
            raw(s, "GET", "/v1/config?warehouse=other")
        flows.append(flow(s, "errors-bearer", "Error answers (pypaimon, and raw requests)",
                          errors))

    with rest_support.RestServer(auth="dlf", data_path=tmp / "dlf" / "data",
                                 security_token="sts-token", log=True) as s:
        def dlf(step):
            step("default_signer")
            catalog = pypaimon.CatalogFactory.create(s.options())
            catalog.create_database("my_db", True)
            step("openapi_signer")
            catalog = pypaimon.CatalogFactory.create(
                s.options(**{"dlf.signing-algorithm": "openapi"}))
            catalog.create_database("my_db2", True)
            step("openapi_v4_signer_rejected")
            try:
                pypaimon.CatalogFactory.create(
                    s.options(**{"dlf.signing-algorithm": "openapi-v4"}))
            except Exception:
                pass
        flows.append(flow(s, "pypaimon-dlf-headers",
                          "token.provider=dlf with dlf.security-token: the headers of each signer",
                          dlf))

    doc = {
        "generated_by": "tests/python/rest_capture.py",
        "server": "org.apache.paimon.rest.RESTCatalogServer (paimon-core 1.4.2 tests jar),"
                  " via tests/java rest-server",
        "pypaimon": pypaimon.__version__ if hasattr(pypaimon, "__version__") else "2.1.0",
        "flows": flows,
    }
    pathlib.Path(out).write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {out}: " + ", ".join(f"{f['name']} ({len(f['exchanges'])})" for f in flows))


if __name__ == "__main__":
    main(*sys.argv[1:])
