"""Failures on an object store (issue 12): what the user sees, and that nothing is half done.

- Credentials and permissions, as the signature-verifying local S3 server answers them: a wrong
  secret (SignatureDoesNotMatch), an unknown key (InvalidAccessKeyId), a user allowed only to
  read (AccessDenied on write), a missing bucket (NoSuchBucket): each error names the URI, the S3
  error code and the HTTP status, never a secret, and the table is left as it was.
- Transient failures from a proxy in front of the server: 503 SlowDown, 500, dropped connections
  are retried with backoff; answers that keep failing give up after the attempts with a clear
  error; a create-if-absent whose answer was lost is recognised as the caller's own success.
- Every request kind failed in turn (the Nth GET, HEAD, PUT, POST, DELETE of a write + commit):
  the operation fails, the snapshot list is unchanged, and after the writer's abort not one new
  object and no multipart upload is left.
"""
import pyarrow as pa
import pytest

import cpaimon

DE = {"row-tracking.enabled": "true", "data-evolution.enabled": "true"}
SCHEMA = pa.schema([("id", pa.int32()), ("v", pa.string())])


def make_table(catalog, name="t", options=DE, partition_keys=None):
    catalog.create_database("db", True)
    catalog.create_table(f"db.{name}", cpaimon.Schema.from_pyarrow_schema(
        SCHEMA, partition_keys=partition_keys, options=options), True)
    return catalog.get_table(f"db.{name}")


def write_commit(table, ids, part=None):
    wb = table.new_batch_write_builder()
    w, c = wb.new_write(), wb.new_commit()
    data = {"id": pa.array(ids, pa.int32()), "v": [f"v{i}" for i in ids]}
    w.write_arrow(pa.table(data))
    msgs = w.prepare_commit()
    c.commit(msgs)
    return c.last_snapshot_id


def read_ids(table):
    rb = table.new_read_builder()
    return sorted(rb.new_read().to_arrow(rb.new_scan().plan().splits())["id"].to_pylist())


# ---- credentials, permissions, missing bucket ----

def test_wrong_secret(s3):
    make_table(s3.cpaimon())
    bad = cpaimon.CatalogFactory.create(dict(s3.catalog_options(),
                                             **{"fs.s3.accessKeySecret": "not-the-secret-42"}))
    with pytest.raises(Exception) as e:
        bad.get_table("db.t")
    msg = str(e.value)
    assert f"{s3.warehouse}/db.db/t/schema" in msg
    assert "SignatureDoesNotMatch" in msg and "HTTP 403" in msg
    assert "not-the-secret-42" not in msg and s3.server.keys["admin"][1] not in msg


def test_unknown_access_key(s3, run_cli):
    make_table(s3.cpaimon())
    r = run_cli("cat", s3.warehouse, "db.t", "--catalog", f"fs.s3.endpoint={s3.endpoint}",
                "--catalog", "fs.s3.accessKeyId=AKIANOSUCHKEY0000000", "--catalog",
                "fs.s3.accessKeySecret=some-secret-value")
    assert r.returncode == 1
    assert "InvalidAccessKeyId" in r.stderr and "HTTP 403" in r.stderr
    assert s3.warehouse in r.stderr and "some-secret-value" not in r.stderr + r.stdout


def test_read_only_user(s3):
    t = make_table(s3.cpaimon())
    write_commit(t, [1, 2])
    before = s3.keys()
    reader = cpaimon.CatalogFactory.create(s3.catalog_options("reader")).get_table("db.t")
    assert read_ids(reader) == [1, 2]
    with pytest.raises(Exception) as e:
        write_commit(reader, [3])
    msg = str(e.value)
    assert "AccessDenied" in msg and "HTTP 403" in msg and s3.warehouse in msg
    assert s3.keys() == before
    assert not s3.uploads()


def test_missing_bucket(s3):
    opts = dict(s3.catalog_options(), warehouse="s3://no-such-bucket-cpaimon/wh")
    cat = cpaimon.CatalogFactory.create(opts)
    with pytest.raises(Exception) as e:
        cat.get_table("db.t")
    assert "NoSuchBucket" in str(e.value) and "s3://no-such-bucket-cpaimon/wh" in str(e.value)
    with pytest.raises(Exception) as e:
        cat.create_database("db")
    assert "NoSuchBucket" in str(e.value)


def test_unsupported_scheme_and_bad_options(tmp_path):
    with pytest.raises(Exception) as e:
        cpaimon.CatalogFactory.create({"warehouse": "hdfs://nn:8020/wh"})
    assert "scheme 'hdfs'" in str(e.value)
    with pytest.raises(Exception) as e:
        cpaimon.CatalogFactory.create({"warehouse": "s3://b/wh", "cpaimon.fs.max-attempts": "0"})
    assert "cpaimon.fs.max-attempts" in str(e.value)
    with pytest.raises(Exception) as e:
        cpaimon.CatalogFactory.create({"warehouse": "oss://b/wh"})
    assert "fs.oss.endpoint" in str(e.value)


# ---- transient failures through the proxy ----

def fast_retries(env, **extra):
    return env.cpaimon(**{"cpaimon.fs.retry.base-delay": "5", "cpaimon.fs.retry.max-delay": "50",
                          **extra})


def test_503_slowdown_is_retried(s3_proxy):
    env, proxy = s3_proxy, s3_proxy.proxy
    t = make_table(fast_retries(env))
    proxy.fail("PUT", r"\.parquet", 503, times=2)
    proxy.fail("PUT", r"/snapshot/snapshot-1$", 503, times=2)
    proxy.fail("GET", r"/manifest/", 500, times=2)
    proxy.fail("GET", r"\.parquet", 0, times=2)  # connections dropped
    write_commit(t, [1, 2, 3])
    assert read_ids(t) == [1, 2, 3]
    assert all(r["times"] == 0 for r in proxy.rules), proxy.rules
    # pypaimon agrees about the committed table
    rb = env.pypaimon().get_table("db.t").new_read_builder()
    assert sorted(rb.new_read().to_arrow(rb.new_scan().plan().splits())["id"].to_pylist()) == \
        [1, 2, 3]


def test_retries_are_bounded(s3_proxy):
    env, proxy = s3_proxy, s3_proxy.proxy
    t = make_table(fast_retries(env, **{"cpaimon.fs.max-attempts": "4"}))
    write_commit(t, [1])
    before = env.keys()
    proxy.fail("PUT", r"/snapshot/snapshot-2$", 503, times=100)
    proxy.reset_counters()
    wb = t.new_batch_write_builder()
    w, c = wb.new_write(), wb.new_commit()
    w.write_arrow(pa.table({"id": pa.array([2], pa.int32()), "v": ["x"]}))
    msgs = w.prepare_commit()
    with pytest.raises(Exception) as e:
        c.commit(msgs)
    msg = str(e.value)
    assert "failed after 4 attempts" in msg and "SlowDown" in msg and "HTTP 503" in msg
    assert f"{env.warehouse}/db.db/t/snapshot/snapshot-2" in msg
    assert sum(1 for m, p in proxy.log if m == "PUT" and p.endswith("snapshot-2")) == 4
    c.abort(msgs)
    proxy.clear()
    assert env.keys() == before
    assert read_ids(t) == [1]


def test_lost_answer_to_a_publish_is_our_own_success(s3_proxy):
    """The snapshot PUT reaches the store but its answer is lost: the retry gets 412, the
    client reads the object back, finds its own bytes, and reports success (one commit, not a
    failure nor a duplicate)."""
    env, proxy = s3_proxy, s3_proxy.proxy
    t = make_table(fast_retries(env))
    proxy.fail("PUT", r"/snapshot/snapshot-1$", -1, times=1)
    sid = write_commit(t, [1, 2])
    assert sid == 1
    assert read_ids(t) == [1, 2]
    puts = [p for m, p in proxy.log if m == "PUT" and p.endswith("/snapshot/snapshot-1")]
    assert len(puts) == 2
    snaps = [k for k in env.keys("wh/db.db/t/snapshot/") if "/snapshot-" in k]
    assert snaps == ["wh/db.db/t/snapshot/snapshot-1"]


def test_store_ignoring_conditional_put_is_refused(s3_proxy):
    """A store that answers 200 to a second create-if-absent would let two commits both win:
    the probe finds out and the commit is refused before anything is published."""
    env, proxy = s3_proxy, s3_proxy.proxy
    cat = fast_retries(env)
    cat.create_database("db", True)
    # the probe's second conditional PUT is answered 200 by the "store"
    proxy.fail("PUT", r"cpaimon-conditional-put-probe", 200, times=1, skip=1)
    with pytest.raises(Exception) as e:
        cat.create_table("db.t", cpaimon.Schema.from_pyarrow_schema(SCHEMA), False)
    assert "ignores 'If-None-Match: *'" in str(e.value)
    assert not [k for k in env.keys() if "/schema/schema-" in k]


@pytest.mark.parametrize("method", ["PUT", "POST", "GET", "HEAD", "DELETE"])
def test_every_request_failed_in_turn(s3_proxy, method):
    """The Nth request of one kind fails for good (403) during a write + commit of two
    partitions, for every N that the operation makes: the operation fails (or, when the failed
    request was one the write does not depend on, succeeds), the table's snapshots are as before
    or have exactly one more, and after abort nothing the failed attempt wrote is left."""
    env, proxy = s3_proxy, s3_proxy.proxy
    t = make_table(fast_retries(env), partition_keys=["v"], options=dict(
        DE, **{"cpaimon.fs.part-size": "5m"}))
    write_commit(t, [0])
    # count the requests of this kind one clean write + commit makes
    proxy.reset_counters()
    write_commit(t, [1, 2])
    total = proxy.requests.get(method, 0)
    expected = [0, 1, 2]
    for n in range(1, total + 2):
        before_keys = set(env.keys())
        before_ids = read_ids(t)
        proxy.clear()
        proxy.fail(method, r".", 403, times=1, skip=n - 1)
        wb = t.new_batch_write_builder()
        w, c = wb.new_write(), wb.new_commit()
        ids = [10 * n, 10 * n + 1]
        msgs = None
        try:
            w.write_arrow(pa.table({"id": pa.array(ids, pa.int32()), "v": ["a", "b"]}))
            msgs = w.prepare_commit()
            c.commit(msgs)
            ok = True
        except Exception as e:
            ok = False
            assert "AccessDenied" in str(e) or "HTTP 403" in str(e), str(e)
            if msgs is not None:
                c.abort(msgs)
            else:
                w.close()
        proxy.clear()
        if ok:
            expected += ids
        assert read_ids(t) == sorted(expected), (method, n)
        if not ok:
            assert read_ids(t) == before_ids
            after = set(env.keys())
            assert after - before_keys == set(), (method, n, after - before_keys)
        assert not env.uploads()
