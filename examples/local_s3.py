"""A local S3 server for `make demo`: moto (the tests' server, verifying every signature) on
127.0.0.1 on a free port, with a bucket "demo". Prints one JSON line of catalog options (endpoint,
credentials) and serves until its standard input closes."""
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests" / "python"))
import s3_support  # noqa: E402

with s3_support.MotoServer(authenticate=True) as server:
    server.client().create_bucket(Bucket="demo")
    print(json.dumps(s3_support.catalog_options(server.endpoint, server.keys["admin"])),
          flush=True)
    sys.stdin.read()
