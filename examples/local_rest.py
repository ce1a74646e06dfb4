"""A local REST catalog for `make demo`, its tables on a local object store: Java Paimon 1.4.2's
own RESTCatalogServer (the tests' server, tests/python/rest_support.py) on 127.0.0.1 on a free
port with bearer authentication, keeping its catalog in s3://rest-catalog/warehouse on a local
S3 server (moto, verifying every signature) and vending each table's storage credentials as a
data token. Prints one JSON line of catalog options (the seed's option names, with this server's
URI and token: no storage credential) and serves until its standard input closes."""
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests" / "python"))
import rest_support  # noqa: E402
import s3_support  # noqa: E402

with s3_support.MotoServer(authenticate=True) as s3:
    s3.client().create_bucket(Bucket="rest-catalog")
    with rest_support.RestServer(auth="bear", warehouse="my_catalog",
                                 **rest_support.on_s3(s3, "rest-catalog", "warehouse")) as server:
        print(json.dumps(server.options()), flush=True)
        sys.stdin.read()
