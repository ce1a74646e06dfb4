"""TLS trust roots (src/base/http.c): the libcurl inside a wheel knows only the CA bundle path of
the machine it was built on, so cpaimon takes the roots from SSL_CERT_FILE / SSL_CERT_DIR /
CURL_CA_BUNDLE when they are set (and otherwise looks where the common distributions keep their
bundle). A local HTTPS REST endpoint with a self-signed certificate is trusted exactly when one of
those variables names it; each case runs in its own process (the roots are chosen once)."""
import http.server
import json
import os
import ssl
import subprocess
import sys
import threading

import pytest

CLIENT = """
import sys, cpaimon
c = cpaimon.CatalogFactory.create({"metastore": "rest", "uri": sys.argv[1], "warehouse": "w",
                                  "token.provider": "bear", "token": "tls-secret-token"})
print(c.list_databases())
"""


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = {"defaults": {}, "overrides": {}} if self.path.startswith("/v1/config") else \
            {"databases": ["tls_db"]}
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def https(tmp_path_factory):
    d = tmp_path_factory.mktemp("tls")
    cert, key = d / "cert.pem", d / "key.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key,
                    "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1"], check=True, capture_output=True)
    certs = d / "certs"
    certs.mkdir()
    (certs / "local.pem").write_bytes(cert.read_bytes())
    subprocess.run(["openssl", "rehash", certs], check=True, capture_output=True)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    ctx.load_cert_chain(cert, key)
    server.socket = ctx.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield {"uri": f"https://127.0.0.1:{server.server_address[1]}", "cert": cert, "dir": certs}
    server.shutdown()
    server.server_close()


def client(https, **env):
    base = {k: v for k, v in os.environ.items()
            if k not in ("SSL_CERT_FILE", "SSL_CERT_DIR", "CURL_CA_BUNDLE")}
    return subprocess.run([sys.executable, "-c", CLIENT, https["uri"]], capture_output=True,
                          text=True, env=dict(base, **{k: str(v) for k, v in env.items()}),
                          timeout=60)


@pytest.mark.parametrize("var", ["SSL_CERT_FILE", "CURL_CA_BUNDLE", "SSL_CERT_DIR"])
def test_roots_from_the_environment(https, var):
    r = client(https, **{var: https["dir"] if var == "SSL_CERT_DIR" else https["cert"]})
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "['tls_db']"


def test_untrusted_certificate_is_refused(https, tmp_path):
    for env in ({}, {"SSL_CERT_FILE": tmp_path / "missing.pem"}):
        r = client(https, **env)
        assert r.returncode != 0
        assert "certificate" in r.stderr.lower() or "ca cert" in r.stderr.lower(), r.stderr
        assert https["uri"] in r.stderr and "tls-secret-token" not in r.stderr
