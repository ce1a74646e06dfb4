"""REST catalog tables on object storage through data tokens (issue 13 item 4, with issue 12's
S3 backend): Java Paimon 1.4.2's RESTCatalogServer keeps its catalog on the local S3 server
(moto, checking every signature) as the IAM user "admin" and vends another user's keys as each
table's data token; the clients hold nothing but the REST catalog's own options.

- The seed's walkthrough by cpaimon with the data on S3; pypaimon and Java's RESTCatalog (over
  its S3FileIO) read the same rows, _ROW_ID and _SEQUENCE_NUMBER, and Java's append is read back.
- A token whose user may only read: reads work, a write fails with the store's AccessDenied
  naming the object (no key or secret in the message) and leaves the table as it was.
- A token close to expiry is fetched again before each scan and commit, and the files are reached
  with it.
"""
import pyarrow as pa
import pypaimon
import pytest

import cpaimon
import s3_support
from rest_support import HIDDEN, JavaRestClient, on_s3, seed_walkthrough


@pytest.fixture
def bucket(s3_server):
    return s3_support.new_bucket(s3_server.client())


def rows(table):
    rb = table.new_read_builder().with_projection(list(table.field_names) + HIDDEN)
    return rb.new_read().to_arrow(rb.new_scan().plan().splits()).sort_by("_ROW_ID").to_pylist()


def append(table, ids):
    wb = table.new_batch_write_builder()
    w = wb.new_write()
    w.write_arrow(pa.table({"id": pa.array(ids, pa.int32())}))
    wb.new_commit().commit(w.prepare_commit())


def token_requests(server, db, table):
    return sum(1 for w in server.wire() if w["method"] == "GET"
               and w["path"].endswith(f"/databases/{db}/tables/{table}/token"))


def test_seed_walkthrough_on_s3_through_data_tokens(rest_server_factory, s3_server, bucket,
                                                    tmp_path):
    server = rest_server_factory(log=tmp_path / "wire.jsonl", **on_s3(s3_server, bucket))
    opts = server.options()
    assert not any(k.startswith(("fs.", "s3")) for k in opts)  # no storage option of its own
    final = seed_walkthrough(opts, lib="cpaimon")
    assert [(r["id"], r["name"], r["age"], r["_ROW_ID"]) for r in final.to_pylist()] == [
        (1, "Alice", 35, 0), (2, "Bob", 26, 1), (3, "Charlie", 28, 2)]
    assert token_requests(server, "my_db", "target_table") >= 1

    # Everything is on the store: the server's schema files and snapshots, cpaimon's data files
    # and manifests; nothing under the server's local directory.
    keys = s3_support.list_keys(s3_server.client(), bucket, "wh/my_db.db/target_table/")
    names = [k.split("/", 3)[3] for k in keys]
    assert sorted(n for n in names if n.startswith("snapshot/snapshot-")) == [
        f"snapshot/snapshot-{i}" for i in range(1, 5)]
    assert "schema/schema-1" in names
    assert sum(n.endswith(".parquet") for n in names) >= 4

    ident = "my_db.target_table"
    ours = rows(cpaimon.CatalogFactory.create(opts).get_table(ident))
    assert rows(pypaimon.CatalogFactory.create(opts).get_table(ident)) == ours
    with JavaRestClient(server, tmp_path / "java") as java:
        jrows = java.read(ident, row_tracking=True)
        key = ["id", "name", "age"] + HIDDEN
        assert sorted(tuple(r[k] for k in key) for r in jrows) == \
            sorted(tuple(r[k] for k in key) for r in ours)
        java.write(ident, [{"id": 4, "name": "Dora", "age": 41, "embedding": None}])
    got = rows(cpaimon.CatalogFactory.create(opts).get_table(ident))
    assert [(r["id"], r["_ROW_ID"]) for r in got] == [(1, 0), (2, 1), (3, 2), (4, 3)]


def test_read_only_token_refuses_writes_cleanly(rest_server_factory, s3_server, bucket):
    # The server (as "admin") publishes the first snapshot of a table whose token is "reader"'s.
    server = rest_server_factory(**on_s3(s3_server, bucket, token_user="reader"))
    opts = server.options()
    cat = cpaimon.CatalogFactory.create(opts)
    cat.create_database("db", True)
    cat.create_table("db.t", cpaimon.Schema.from_pyarrow_schema(
        pa.schema([("id", pa.int32())]), options={"row-tracking.enabled": "true"}), False)
    t = cat.get_table("db.t")
    before = s3_support.list_keys(s3_server.client(), bucket)
    with pytest.raises(Exception) as e:
        append(t, [1, 2])
    msg = str(e.value)
    assert "AccessDenied" in msg or "403" in msg, msg
    assert f"s3://{bucket}/wh/db.db/t/" in msg, msg
    for user in ("admin", "writer", "reader"):
        assert s3_server.keys[user][1] not in msg
    assert server.token not in msg
    assert s3_support.list_keys(s3_server.client(), bucket) == before
    assert rows(cat.get_table("db.t")) == []  # reads work with the read-only token
    assert rows(pypaimon.CatalogFactory.create(opts).get_table("db.t")) == []


def test_expiring_token_renewed_and_used(rest_server_factory, s3_server, bucket, tmp_path):
    # Tokens live 10 minutes; the client renews them inside 20 minutes of expiry, i.e. always.
    server = rest_server_factory(log=tmp_path / "wire.jsonl",
                                 **on_s3(s3_server, bucket, token_life_ms=600000))
    opts = dict(server.options(), **{"cpaimon.data-token.refresh-margin": "1200000"})
    cat = cpaimon.CatalogFactory.create(opts)
    cat.create_database("db", True)
    cat.create_table("db.t", cpaimon.Schema.from_pyarrow_schema(
        pa.schema([("id", pa.int32())]), options={"row-tracking.enabled": "true"}), False)
    t = cat.get_table("db.t")
    first = token_requests(server, "db", "t")
    append(t, [1])
    append(t, [2])
    assert [r["id"] for r in rows(t)] == [1, 2]
    assert token_requests(server, "db", "t") >= first + 3
    assert [r["id"] for r in rows(pypaimon.CatalogFactory.create(
        server.options()).get_table("db.t"))] == [1, 2]
