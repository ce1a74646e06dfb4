"""A local REST catalog server for `make demo`: Java Paimon 1.4.2's own RESTCatalogServer (the
tests' server, tests/python/rest_support.py) on 127.0.0.1 on a free port, bearer authentication,
tables under argv[1]. Prints one JSON line of catalog options (the seed's option names, with the
URI and token of this server) and serves until its standard input closes."""
import json
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1] / "tests" / "python"))
import rest_support  # noqa: E402

with rest_support.RestServer(auth="bear", data_path=pathlib.Path(sys.argv[1]),
                             warehouse="my_catalog") as server:
    print(json.dumps(server.options()), flush=True)
    sys.stdin.read()
