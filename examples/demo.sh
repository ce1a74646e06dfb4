#!/usr/bin/env bash
# The README's main job (`make demo`): both seeds' walkthroughs —
# - seed 001's Python API walkthrough as written (`metastore: rest`), against a local REST catalog
#   server started here: Java Paimon's own RESTCatalogServer on 127.0.0.1, bearer token, its
#   tables on a second local S3 server, reached with the storage credentials the catalog vends
#   for each table (data tokens);
# - seed 001's SQL (MERGE INTO on a data-evolution table) on an object store: s3://demo/... on a
#   local S3 server started here (moto, verifying every signature);
# - seed 003's SQL (row tracking: INSERT, UPDATE, MERGE INTO, DELETE with _ROW_ID and
#   _SEQUENCE_NUMBER) on a local directory;
# then pypaimon reading what cpaimon wrote, and `cpaimon check` on every table. Both servers
# listen on loopback only and are stopped at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
cli=build/cpaimon
py=.venv/bin/python
export CPAIMON_BUILD="$PWD/build"
work=$(mktemp -d -t cpaimon-demo-XXXXXX)
# The local servers: each prints its catalog options as one JSON line, and stops when its standard
# input (a FIFO this script holds open) closes.
start_server() {  # NAME COMMAND... -> the server's options JSON in $NAME.opts
  local name=$1; shift
  mkfifo "$work/$name.in"
  "$@" <"$work/$name.in" >"$work/$name.opts" &
  eval "${name}_pid=$!"
  eval "exec {${name}_in}>\"\$work/\$name.in\""
}
wait_options() {  # NAME -> prints the options line once the server is ready
  for _ in $(seq 1200); do
    [ -s "$work/$1.opts" ] && { head -1 "$work/$1.opts"; return; }
    sleep 0.1
  done
  echo "demo: the $1 server did not start" >&2; exit 1
}
stop_servers() {
  exec {s3_in}>&- {rest_in}>&-
  wait "$s3_pid" "$rest_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap stop_servers EXIT
start_server s3 "$py" examples/local_s3.py
start_server rest "$py" examples/local_rest.py
s3_opts=$(wait_options s3)
rest_opts=$(wait_options rest)
as_args() {  # catalog options JSON -> --catalog K=V arguments (the warehouse aside)
  "$py" -c 'import json,sys; [print(f"--catalog\n{k}={v}") for k, v in json.loads(sys.argv[1]).items() if k != "warehouse"]' "$1"
}
mapfile -t s3_args < <(as_args "$s3_opts")
mapfile -t rest_args < <(as_args "$rest_opts")
sql001=s3://demo/sql001

echo "== $($cli --version) =="
echo
echo "######## Seed 001: data evolution — SQL (cpaimon sql -f examples/seed_001.sql), warehouse $sql001 on local S3 ########"
$cli sql --warehouse "$sql001" "${s3_args[@]}" --echo -f examples/seed_001.sql
echo
echo "######## Seed 001: data evolution — Python (examples/seed_001.py) on the REST catalog, data on local S3 through data tokens ########"
echo "-- catalog options: $("$py" -c 'import json,sys; o=json.loads(sys.argv[1]); o["token"]="***"; print(o)' "$rest_opts")"
$py examples/seed_001.py "$rest_opts"
echo
echo "-- what the Python walkthrough left, with the hidden columns (cpaimon cat):"
$cli cat my_catalog my_db.target_table --with-row-tracking "${rest_args[@]}"
echo "-- the files: only partial-column files were added after the first commit (cpaimon table files):"
$cli table files my_catalog my_db.target_table "${rest_args[@]}"
echo
echo "######## Seed 003: row tracking — SQL (cpaimon sql -f examples/seed_003.sql) ########"
$cli sql --warehouse "$work/sql003" --echo -f examples/seed_003.sql
echo
echo "######## Interop: pypaimon reads the tables cpaimon wrote ########"
$py - "$s3_opts" "$sql001" "$rest_opts" <<'PY'
import json, sys
import pypaimon
s3 = dict(json.loads(sys.argv[1]), warehouse=sys.argv[2])
rest = json.loads(sys.argv[3])
for opts, ident in [(s3, "my_db.target_table"), (rest, "my_db.target_table")]:
    t = pypaimon.CatalogFactory.create(opts).get_table(ident)
    rb = t.new_read_builder()
    cols = [f.name for f in t.fields] + ["_ROW_ID", "_SEQUENCE_NUMBER"]
    rb = rb.with_projection(cols)
    where = "REST catalog" if opts.get("metastore") == "rest" else opts["warehouse"]
    print(f"pypaimon reads {ident} ({where}):")
    print(rb.new_read().to_pandas(rb.new_scan().plan().splits()).to_string(index=False))
PY
echo
echo "-- cpaimon check on every table:"
$cli check "$sql001" my_db.target_table "${s3_args[@]}"
$cli check my_catalog my_db.target_table "${rest_args[@]}"
$cli check "$work/sql003" default.t
