"""A local S3 server and a fault/latency proxy in front of it, for the object-storage tests and
benchmarks (tests/python/test_s3_*.py, bench/bench_s3.py).

- ``MotoServer``: moto's standalone server (pinned in requirements.txt) on 127.0.0.1 on a free
  port, started as a child process and stopped when the context ends.
- ``S3Proxy``: an HTTP/1.1 proxy on 127.0.0.1 between a client and the server. It counts requests
  and bytes by method, can add a delay to every request (a store 10 ms away), and can answer
  chosen requests itself (``fail(...)``: a 503 SlowDown, a 500, a 403, or a dropped connection)
  instead of forwarding them — the "server that answers 503s" of the fault tests.

Everything listens on loopback only and is bounded in time.
"""
import contextlib
import os
import re
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid

ACCESS_KEY = "cpaimon-test-key"
SECRET_KEY = "cpaimon-test-secret-0123456789"
REGION = "us-east-1"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class MotoServer:
    """moto's S3 in server mode, on a free loopback port.

    With ``authenticate=True`` the server verifies every request's signature and access key
    (moto's INITIAL_NO_AUTH_ACTION_COUNT): the first requests create IAM users "admin" and
    "writer" (allowed everything) and "reader" (only reads), whose keys are then in
    ``self.keys``; a request signed
    with a wrong secret gets SignatureDoesNotMatch, one with an unknown key InvalidAccessKeyId,
    and a write by "reader" AccessDenied, all as real S3 answers them.
    """

    POLICIES = {"admin": ["*"], "writer": ["*"],
                "reader": ["s3:GetObject", "s3:ListBucket", "s3:HeadObject"]}

    def __init__(self, env=None, authenticate=False):
        self.port = free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.env = dict(env or {})
        self.authenticate = authenticate
        if authenticate:
            self.env["INITIAL_NO_AUTH_ACTION_COUNT"] = str(3 * len(self.POLICIES))
        self.keys = {"admin": (ACCESS_KEY, SECRET_KEY)}
        self.proc = None

    def __enter__(self):
        env = dict(os.environ, **self.env)
        env.pop("AWS_ENDPOINT_URL", None)
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "moto.server", "-H", "127.0.0.1", "-p", str(self.port)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
        deadline = time.time() + 60
        while time.time() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("moto_server exited at start")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                    s.sendall(b"GET /moto-api/ HTTP/1.0\r\nHost: x\r\n\r\n")
                    if s.recv(12).startswith(b"HTTP/1"):
                        if self.authenticate:
                            self._make_users()
                        return self
            except OSError:
                time.sleep(0.1)
        self.__exit__(None, None, None)
        raise RuntimeError("moto_server did not start within 60 s")

    def __exit__(self, *exc):
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()

    def _make_users(self):
        import json
        import boto3
        iam = boto3.client("iam", endpoint_url=self.endpoint, aws_access_key_id="bootstrap",
                           aws_secret_access_key="bootstrap", region_name=REGION)
        for user, actions in self.POLICIES.items():  # 3 unauthenticated actions each
            iam.create_user(UserName=user)
            iam.put_user_policy(UserName=user, PolicyName="p", PolicyDocument=json.dumps(
                {"Version": "2012-10-17",
                 "Statement": [{"Effect": "Allow", "Action": actions, "Resource": "*"}]}))
            k = iam.create_access_key(UserName=user)["AccessKey"]
            self.keys[user] = (k["AccessKeyId"], k["SecretAccessKey"])

    def client(self, user="admin"):
        import boto3
        ak, sk = self.keys[user]
        return boto3.client("s3", endpoint_url=self.endpoint, aws_access_key_id=ak,
                            aws_secret_access_key=sk, region_name=REGION)

    def reset(self):
        """Forgets every bucket (moto's reset API)."""
        import urllib.request
        urllib.request.urlopen(urllib.request.Request(f"{self.endpoint}/moto-api/reset",
                                                      method="POST"), timeout=30).read()


def catalog_options(endpoint: str, keys=(ACCESS_KEY, SECRET_KEY), **extra) -> dict:
    """pypaimon's option names for an S3 endpoint with path-style addressing (pyarrow's and
    cpaimon's readers both honour them)."""
    opts = {"fs.s3.endpoint": endpoint, "fs.s3.accessKeyId": keys[0],
            "fs.s3.accessKeySecret": keys[1], "fs.s3.region": REGION,
            "fs.s3.path-style-access": "true"}
    opts.update(extra)
    return opts


def new_bucket(client, prefix="cp") -> str:
    name = f"{prefix}-{uuid.uuid4().hex[:16]}"
    client.create_bucket(Bucket=name)
    return name


def list_keys(client, bucket, prefix=""):
    keys = []
    token = None
    while True:
        kw = {"Bucket": bucket, "Prefix": prefix}
        if token:
            kw["ContinuationToken"] = token
        r = client.list_objects_v2(**kw)
        keys += [o["Key"] for o in r.get("Contents", [])]
        if not r.get("IsTruncated"):
            return keys
        token = r["NextContinuationToken"]


def pending_uploads(client, bucket):
    return client.list_multipart_uploads(Bucket=bucket).get("Uploads", [])


_ERRORS = {
    503: ("SlowDown", "Please reduce your request rate."),
    500: ("InternalError", "We encountered an internal error. Please try again."),
    403: ("AccessDenied", "Access Denied"),
}


class S3Proxy:
    """HTTP proxy with counters, latency and injected failures (see the module doc).

    ``fail(method, path_regex, status, times, skip=0)``: the matching requests after the first
    `skip` are answered with `status` `times` times, then forwarded again. Status 0 closes the
    connection without an answer; -1 forwards the request (the store applies it) and then closes
    the connection before the answer reaches the client — the ambiguous failure.
    """

    def __init__(self, upstream_port: int, latency_s: float = 0.0, cache_objects=False):
        self.upstream = ("127.0.0.1", upstream_port)
        self.latency = latency_s
        # moto answers a ranged GET by reading the whole object (its cost grows with the object,
        # not with the range); with `cache_objects` the proxy fetches an object once and answers
        # ranges from memory, so clients see a real store's cost: latency plus the bytes asked
        # for. For benchmarks against an unauthenticated server only (the range it drops from the
        # upstream request was signed). Writes to a key drop it from the cache.
        self.cache_objects = cache_objects
        self.cache = {}  # path -> (fd of an unlinked file in /dev/shm, size, etag, modified)
        self._cache_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
        self.port = free_port()
        self.endpoint = f"http://127.0.0.1:{self.port}"
        self.lock = threading.Lock()
        self.rules = []
        self.requests = {}
        self.bytes_out = 0  # response bytes sent to the client (what it downloaded)
        self.bytes_in = 0   # request bytes from the client (what it uploaded)
        self.log = []
        self.ranges = []  # (method, path, Range header or None, time) of every request
        self._sock = None
        self._threads = []
        self._stop = False

    # ---- control ----
    def fail(self, method, path_regex, status, times=1, skip=0):
        with self.lock:
            self.rules.append({"method": method, "re": re.compile(path_regex), "status": status,
                               "times": times, "skip": skip})

    def clear(self):
        with self.lock:
            self.rules.clear()

    def reset_counters(self):
        with self.lock:
            self.requests = {}
            self.bytes_out = self.bytes_in = 0
            self.log = []
            self.ranges = []

    def total_requests(self):
        with self.lock:
            return sum(self.requests.values())

    # ---- server ----
    def __enter__(self):
        self._sock = socket.socket()
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.bind(("127.0.0.1", self.port))
        self._sock.listen(128)
        self._sock.settimeout(0.2)
        t = threading.Thread(target=self._accept, daemon=True)
        t.start()
        self._threads.append(t)
        return self

    def __exit__(self, *exc):
        self._stop = True
        for t in self._threads:
            t.join(timeout=5)
        self._sock.close()
        with self.lock:
            for e in self.cache.values():
                os.close(e[0])
            self.cache.clear()

    def _accept(self):
        while not self._stop:
            try:
                c, _ = self._sock.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            t = threading.Thread(target=self._serve, args=(c,), daemon=True)
            t.start()

    def _match(self, method, path):
        with self.lock:
            for r in self.rules:
                if r["times"] > 0 and r["method"] in (method, "*") and r["re"].search(path):
                    if r["skip"] > 0:
                        r["skip"] -= 1
                        return None
                    r["times"] -= 1
                    return r["status"]
        return None

    @staticmethod
    def _read_head(f):
        lines = []
        while True:
            line = f.readline(65537)
            if not line:
                return None
            if line in (b"\r\n", b"\n"):
                return lines
            lines.append(line)

    @staticmethod
    def _read_body(f, headers):
        te = headers.get("transfer-encoding", "").lower()
        if te == "chunked":
            out = b""
            while True:
                size_line = f.readline()
                size = int(size_line.split(b";")[0], 16)
                chunk = f.read(size + 2)
                out += size_line + chunk
                if size == 0:
                    # trailers end with an empty line; the 0-size chunk's CRLF was read above
                    return out
        n = int(headers.get("content-length", "0") or 0)
        return f.read(n) if n else b""

    def _cached_range(self, path, head, headers):
        """The answer to a ranged GET from the cache (filled by one whole GET upstream)."""
        with self.lock:
            entry = self.cache.get(path)
        if entry is None:
            whole = [h for h in head if not h.lower().startswith((b"range:", b"connection:"))]
            whole.append(b"Connection: close\r\n")
            with socket.create_connection(self.upstream, timeout=120) as up:
                up.sendall(b"".join(whole) + b"\r\n")
                uf = up.makefile("rb")
                rh_lines = self._read_head(uf)
                if rh_lines is None:
                    return None
                rh = {}
                for h in rh_lines[1:]:
                    k, _, v = h.decode("latin-1").partition(":")
                    rh[k.strip().lower()] = v.strip()
                body = self._read_body(uf, rh) if "content-length" in rh else uf.read()
            if int(rh_lines[0].split()[1]) != 200:
                return b"".join(rh_lines) + b"\r\n" + body
            # kept in a file in shared memory, sent with sendfile(2): the proxy then costs the
            # benchmark almost nothing per byte
            fd, name = tempfile.mkstemp(dir=self._cache_dir)
            os.write(fd, body)
            entry = (fd, len(body), rh.get("etag", ""), rh.get("last-modified", ""))
            with self.lock:
                old = self.cache.get(path)
                self.cache[path] = entry
            os.unlink(name)
            if old:
                os.close(old[0])
        fd, total, etag, modified = entry
        spec = headers["range"].split("=", 1)[1]
        a, _, b = spec.partition("-")
        if a == "":
            first, last = max(0, total - int(b)), total - 1
        else:
            first, last = int(a), min(int(b), total - 1) if b else total - 1
        if total == 0 or first > last:
            return (b"HTTP/1.1 416 Requested Range Not Satisfiable\r\nContent-Length: 0\r\n\r\n")
        n = last + 1 - first
        return (f"HTTP/1.1 206 Partial Content\r\nContent-Length: {n}\r\n"
                f"Content-Range: bytes {first}-{last}/{total}\r\nAccept-Ranges: bytes\r\n"
                f"ETag: {etag}\r\nLast-Modified: {modified}\r\n"
                f"Content-Type: binary/octet-stream\r\n\r\n").encode(), (fd, first, n)

    def _serve(self, client):
        client.settimeout(120)
        cf = client.makefile("rb")
        upstream = None
        uf = None
        try:
            while not self._stop:
                head = self._read_head(cf)
                if not head:
                    return
                request_line = head[0].decode("latin-1")
                method, path = request_line.split(" ")[:2]
                headers = {}
                for h in head[1:]:
                    k, _, v = h.decode("latin-1").partition(":")
                    headers[k.strip().lower()] = v.strip()
                if headers.get("expect", "").lower() == "100-continue":
                    # the client waits for this before it sends the body; the server is not
                    # asked again (the header is dropped below)
                    client.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
                    head = [h for h in head if not h.lower().startswith(b"expect:")]
                body = self._read_body(cf, headers)
                if self.latency:
                    time.sleep(self.latency)
                with self.lock:
                    self.requests[method] = self.requests.get(method, 0) + 1
                    self.bytes_in += sum(len(h) for h in head) + len(body)
                    self.log.append((method, path))
                    self.ranges.append((method, path, headers.get("range"), time.monotonic()))
                if self.cache_objects:
                    if method in ("PUT", "POST", "DELETE"):
                        with self.lock:
                            if "?delete" in path:
                                gone = list(self.cache.values())
                                self.cache.clear()
                            else:
                                e = self.cache.pop(path.split("?")[0], None)
                                gone = [e] if e else []
                        for e in gone:
                            os.close(e[0])
                    elif method == "GET" and "range" in headers and "?" not in path:
                        out = self._cached_range(path, head, headers)
                        if out is not None:
                            head_bytes, part = out if isinstance(out, tuple) else (out, None)
                            with self.lock:
                                self.bytes_out += len(head_bytes) + (part[2] if part else 0)
                            client.sendall(head_bytes)
                            if part:
                                fd, off, n = part
                                # socket.sendfile waits out a full socket buffer (the socket
                                # has a timeout, so os.sendfile alone could fail with EAGAIN)
                                with os.fdopen(os.dup(fd), "rb") as f:
                                    client.sendfile(f, off, n)
                            continue
                status = self._match(method, path)
                drop_answer = status == -1
                if drop_answer:
                    status = None
                if status is not None:
                    if status == 0:
                        return  # drop the connection without an answer
                    code, msg = _ERRORS.get(status, ("Error", "injected"))
                    xml = (f'<?xml version="1.0" encoding="UTF-8"?><Error><Code>{code}</Code>'
                           f"<Message>{msg}</Message><RequestId>proxy</RequestId></Error>").encode()
                    resp = (f"HTTP/1.1 {status} {code}\r\nContent-Type: application/xml\r\n"
                            f"Content-Length: {len(xml)}\r\n\r\n").encode()
                    client.sendall(resp + (b"" if method == "HEAD" else xml))
                    continue
                if upstream is None:
                    upstream = socket.create_connection(self.upstream, timeout=120)
                    uf = upstream.makefile("rb")
                upstream.sendall(b"".join(head) + b"\r\n" + body)
                resp_head = self._read_head(uf)
                if resp_head is None:
                    return
                rh = {}
                for h in resp_head[1:]:
                    k, _, v = h.decode("latin-1").partition(":")
                    rh[k.strip().lower()] = v.strip()
                status_code = int(resp_head[0].split()[1])
                close_after = rh.get("connection", "").lower() == "close"
                if method == "HEAD" or status_code in (204, 304) or 100 <= status_code < 200:
                    resp_body = b""
                elif "content-length" not in rh and "transfer-encoding" not in rh:
                    resp_body = uf.read()  # delimited by the end of the connection
                    close_after = True
                else:
                    resp_body = self._read_body(uf, rh)
                out = b"".join(resp_head) + b"\r\n" + resp_body
                if drop_answer:
                    return
                with self.lock:
                    self.bytes_out += len(out)
                client.sendall(out)
                if close_after:
                    upstream.close()
                    upstream = uf = None
        except (OSError, ValueError):
            return
        finally:
            with contextlib.suppress(OSError):
                client.close()
            if upstream:
                with contextlib.suppress(OSError):
                    upstream.close()
