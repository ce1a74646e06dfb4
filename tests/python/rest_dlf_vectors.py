"""DLF request-signing test vectors from pypaimon's installed signer (pypaimon 2.1,
pypaimon/api/auth/: factory.py, dlf_provider.py, dlf_signer.py), for testing cpaimon's C client
against it on identical requests.

    .venv/bin/python tests/python/rest_dlf_vectors.py [--check]

prints one JSON document: {"pypaimon": VERSION, "vectors": [...]}. Each vector is a request as
pypaimon's HTTP client makes it, signed by the provider pypaimon builds from catalog options:

  input:   options (the catalog options: token.provider=dlf, uri, dlf.region or none,
           dlf.access-key-id/-secret, dlf.security-token, dlf.signing-algorithm), method, path
           (as sent, already percent-encoded), query (the parameters as RESTApi hands them to
           HttpClient: raw values, except the config call's warehouse, which RESTApi has
           already form-encoded once with RESTUtil.encode_string), body (the exact JSON text sent, or null), now (the fixed clock), nonce
           (the fixed x-acs-signature-nonce, openapi signers only)
  wire:    the URL pypaimon requests (uri + path + "?" + urlencode(query))
  signed:  signer (default | openapi | openapi-v4), region, the RESTAuthParameter the signer saw
           (its parameters are the query values percent-encoded once more, quote(v, safe='')),
           and the intermediate strings (canonical request / string to sign)
  headers: every header the provider returns (what is sent, on top of pypaimon's own
           User-Agent, Accept: application/json, Accept-Encoding, Connection, Content-Length)

How the run is made deterministic, without touching the signing code: the provider's clock is
fixed by replacing the ``datetime`` name inside pypaimon.api.auth.dlf_provider (merge_auth_header
calls ``datetime.now(timezone.utc)``) with a subclass whose now() returns NOW; the openapi and
openapi-v4 nonces are fixed by replacing their signers' _generate_unique_nonce with a function
returning NONCE. Everything else (option parsing, region from the URI, signer choice,
sign_headers, authorization) is pypaimon's own code path: AuthProviderFactory
.create_auth_provider(Options(options)), wrapped in RESTAuthFunction, called through
pypaimon.api.client._get_headers exactly as HttpClient.get_with_params / post / delete call it.

Signed headers (what a verifier recomputes):
  default (DLF4-HMAC-SHA256): content-md5, content-type, x-dlf-content-sha256, x-dlf-date,
      x-dlf-security-token, x-dlf-version (those present; lower-cased, sorted, trimmed), plus the
      method, the path and the sorted query (k=v, bare k when v is empty; values as in
      signed.parameters). The body only through Content-MD5. Region and date go into the
      credential scope DATE/REGION/DlfNext/aliyun_v4_request.
  openapi (HMAC-SHA1, "acs AK:SIG"): method, Accept, Content-MD5, Content-Type, Date, then every
      x-acs-* header (x-acs-signature-method, -nonce, -version, x-acs-version,
      x-acs-security-token) as "k:v\\n", then the percent-DEcoded path (unquote_plus) and
      "?k=v&..." with decoded values. Host is sent but not signed; no region.
  openapi-v4 (ACS4-HMAC-SHA256, pypaimon only; Java 1.4.2 has no such signer): host,
      content-type and every x-acs-* header (including x-acs-action, looked up from the
      method and path, and x-acs-content-sha256 = hex SHA-256 of the body), listed in
      SignedHeaders; canonical query RFC-3986-encoded.

--check also verifies the one published vector (pypaimon's dlf_signer_test
test_get_authorization, quoted in shared/spec/rest-catalog.md §3.2) and exits non-zero on a
mismatch.
"""
import argparse
import importlib.metadata
import json
import sys
import urllib.parse
from datetime import datetime, timezone

from pypaimon.api import client as rest_client
from pypaimon.api.auth import dlf_provider, dlf_signer
from pypaimon.api.auth.base import RESTAuthFunction
from pypaimon.api.auth.factory import AuthProviderFactory
from pypaimon.api.rest_util import RESTUtil
from pypaimon.api.typedef import RESTAuthParameter
from pypaimon.common.options import Options

NOW = datetime(2026, 1, 18, 12, 34, 56, tzinfo=timezone.utc)
NONCE = "00000000-0000-4000-8000-000000000000" + "1768739696000" + "1"
AK, SK, STS = "LTAI-cpaimon-test-ak", "cpaimon-test-secret-0123456789", "cpaimon-sts-token"
URI = "http://127.0.0.1:8080"  # a local server: no region in the host, so dlf.region is given


def base_options(signing=None, sts=True, region="cn-hangzhou", uri=URI):
    o = {"metastore": "rest", "uri": uri, "warehouse": "my_catalog", "token.provider": "dlf",
         "dlf.access-key-id": AK, "dlf.access-key-secret": SK}
    if region is not None:
        o["dlf.region"] = region
    if sts:
        o["dlf.security-token"] = STS
    if signing is not None:
        o["dlf.signing-algorithm"] = signing
    return o


# (name, method, path, query, body): the paths and bodies are what pypaimon sends for these
# calls (bodies as JSON.to_json writes them: json.dumps with ", " and ": ").
REQUESTS = [
    ("get-config", "GET", "/v1/config", {"warehouse": "my_catalog"}, None),
    # RESTApi pre-encodes the warehouse (RESTUtil.encode_string, form encoding) before
    # HttpClient encodes the query again: "my catalog" arrives as warehouse=my%2Bcatalog.
    ("get-config-escaped-warehouse", "GET", "/v1/config",
     {"warehouse": RESTUtil.encode_string("my catalog")}, None),
    ("create-database", "POST", "/v1/paimon/databases", None,
     '{"name": "my_db", "options": null}'),
    ("list-tables-paged", "GET", "/v1/paimon/databases/my_db/tables",
     {"maxResults": "100", "pageToken": "db/t1", "tableNamePattern": "tar%"}, None),
    # A value with a space: signed as quote(v) = "t%201" by pypaimon; Java's signers (and so
    # Java 1.4.2's test server) re-encode with URLEncoder = "t+1" and do not agree.
    ("list-tables-space", "GET", "/v1/paimon/databases/my_db/tables", {"pageToken": "t 1"},
     None),
    ("get-branch-snapshot", "GET", "/v1/paimon/databases/my_db/tables/t%24branch_b1/snapshot",
     None, None),
    ("commit", "POST", "/v1/paimon/databases/my_db/tables/target_table/commit", None,
     '{"tableId": "5f1c8a36-3b8e-4c55-9d0e-0b8d8f0f0a01", "snapshot": {"version": 3, "id": 1,'
     ' "schemaId": 0, "baseManifestList": "manifest-list-a-0", "deltaManifestList":'
     ' "manifest-list-a-1", "totalRecordCount": 2, "deltaRecordCount": 2, "commitUser": "u",'
     ' "commitIdentifier": 9223372036854775807, "commitKind": "APPEND", "timeMillis":'
     ' 1768739696000, "nextRowId": 2}, "statistics": [{"spec": {}, "recordCount": 2,'
     ' "fileSizeInBytes": 700, "fileCount": 1, "lastFileCreationTime": 1768739696000,'
     ' "totalBuckets": -1}], "baseSnapshotUuid": null}'),
    ("drop-table", "DELETE", "/v1/paimon/databases/my_db/tables/target_table", None, None),
    ("unicode-body", "POST", "/v1/paimon/databases", None,
     '{"name": "数据库", "options": {"comment": "café"}}'),
]

CASES = [
    # (signing option, security token?, region option, uri)
    ("default", True, "cn-hangzhou", URI),
    ("default", False, "cn-hangzhou", URI),
    ("openapi", True, "cn-hangzhou", URI),
    ("openapi", False, "cn-hangzhou", URI),
    ("openapi-v4", True, "cn-hangzhou", URI),
    # No dlf.region: taken from the URI; no dlf.signing-algorithm: "dlfnext" in the host
    # selects openapi, any other host the default signer.
    (None, False, None, "https://cn-beijing-vpc.dlf.aliyuncs.com"),
    (None, False, None, "https://dlfnext.cn-shanghai.aliyuncs.com"),
]


class _FixedClock(datetime):
    @classmethod
    def now(cls, tz=None):
        return NOW if tz is not None else NOW.replace(tzinfo=None)


def _install_fixed_clock_and_nonce():
    dlf_provider.datetime = _FixedClock
    dlf_signer.DLFOpenApiSigner._generate_unique_nonce = lambda self: NONCE
    dlf_signer.DLFOpenApiV4Signer._generate_unique_nonce = staticmethod(lambda: NONCE)


def _intermediates(provider, param, headers):
    """The canonical strings of the signer, from pypaimon's own helpers (for debugging a
    mismatch; the vectors' contract is the headers)."""
    s = provider.signer
    out = {}
    if isinstance(s, dlf_signer.DLFDefaultSigner):
        canonical = s._get_canonical_request(param, headers)
        date_time = headers["x-dlf-date"]
        out["canonical_request"] = canonical
        out["string_to_sign"] = "\n".join([
            s.SIGNATURE_ALGORITHM, date_time,
            f"{date_time[:8]}/{s.region}/{s.PRODUCT}/{s.REQUEST_TYPE}",
            s._sha256_hex(canonical)])
    elif isinstance(s, dlf_signer.DLFOpenApiV4Signer):
        out["note"] = "see SignedHeaders in Authorization; x-acs-action added by the signer"
    elif isinstance(s, dlf_signer.DLFOpenApiSigner):
        out["string_to_sign"] = s._build_string_to_sign(
            param, headers, s._build_canonicalized_headers(headers),
            s._build_canonicalized_resource(param))
    return out


def vector(case, request):
    signing, sts, region, uri = case
    name, method, path, query, body = request
    options = base_options(signing, sts, region, uri)
    provider = AuthProviderFactory.create_auth_provider(Options(dict(options)))
    auth = RESTAuthFunction({}, provider)
    # HttpClient: GET with params -> data None; plain GET/DELETE -> data ""; POST -> the body.
    data = body if method == "POST" else (None if query else "")
    headers = rest_client._get_headers(path, method, query or {}, data, auth)
    param = RESTAuthParameter(method=method, path=path, data=data, parameters=dict(query or {}))
    wire = uri.rstrip("/") + path + ("?" + urllib.parse.urlencode(query) if query else "")
    return {
        "name": f"{name}/{provider.signer.identifier()}{'' if sts else '/no-sts'}"
                + ("" if region else "/region-from-uri"),
        "input": {"options": options, "method": method, "path": path, "query": query,
                  "body": body, "now": NOW.strftime("%Y-%m-%dT%H:%M:%SZ"),
                  "nonce": NONCE if "openapi" in provider.signer.identifier() else None},
        "wire": {"url": wire},
        "signed": {"signer": provider.signer.identifier(), "region": provider.region,
                   "host": provider.extract_host(uri), "parameters": param.parameters,
                   "data": data, **_intermediates(provider, param, headers)},
        "headers": headers,
    }


def published_vector_ok():
    """pypaimon's dlf_signer_test.test_get_authorization (spec §3.2)."""
    signer = dlf_signer.DLFDefaultSigner("cn-hangzhou")
    token = dlf_provider.DLFToken("access-key-id", "access-key-secret", "securityToken")
    body = '{"name":"database","options":{"a":"b"}}'
    now = datetime(2023, 12, 3, 12, 12, 12, tzinfo=timezone.utc)
    sign = signer.sign_headers(body, now, "securityToken", "host")
    param = RESTAuthParameter(method="POST", path="/v1/paimon/databases", data=body,
                              parameters={"k1": "v1", "k2": "v2"})
    auth = signer.authorization(param, token, "host", sign)
    return (sign["Content-MD5"] == "zlW/6hSKXQKL2z6i931tsg==" and auth.endswith(
        "Signature=c72caf1d40b55b1905d891ee3e3de48a2f8bebefa7e39e4f277acc93c269c5e3"))


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--check", action="store_true", help="also check the published vector")
    args = ap.parse_args(argv)
    _install_fixed_clock_and_nonce()
    vectors = [vector(c, r) for c in CASES for r in REQUESTS]
    doc = {"pypaimon": importlib.metadata.version("pypaimon"), "now": vectors[0]["input"]["now"],
           "nonce": NONCE, "vectors": vectors}
    if args.check:
        doc["published_vector_ok"] = published_vector_ok()
    json.dump(doc, sys.stdout, indent=1, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0 if not args.check or doc["published_vector_ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
