#!/usr/bin/env bash
# The README's main job (`make demo`): both seeds' walkthroughs on fresh warehouses — seed 001's
# SQL (MERGE INTO on a data-evolution table) and its Python API walkthrough on a local S3 server
# (s3://demo/..., moto started here on 127.0.0.1 and stopped at the end), and seed 003's SQL (row
# tracking: INSERT, UPDATE, MERGE INTO, DELETE with _ROW_ID / _SEQUENCE_NUMBER) — then pypaimon
# reading what cpaimon wrote.
set -euo pipefail
cd "$(dirname "$0")/.."
cli=build/cpaimon
py=.venv/bin/python
export CPAIMON_BUILD="$PWD/build"
work=$(mktemp -d -t cpaimon-demo-XXXXXX)
# The local S3 server: its options arrive as one JSON line; closing its stdin stops it.
coproc S3 { exec "$py" examples/local_s3.py; }
trap 'exec {S3[1]}>&-; wait "$S3_PID" 2>/dev/null; rm -rf "$work"' EXIT
read -r s3_opts <&"${S3[0]}"
s3_args=()
while IFS='=' read -r k v; do s3_args+=(--catalog "$k=$v"); done < <(
  "$py" -c 'import json,sys; [print(f"{k}={v}") for k, v in json.loads(sys.argv[1]).items()]' "$s3_opts")
py001=s3://demo/py001

echo "== $($cli --version) =="
echo
echo "######## Seed 001: data evolution — SQL (cpaimon sql -f examples/seed_001.sql) ########"
$cli sql --warehouse "$work/sql001" --echo -f examples/seed_001.sql
echo
echo "######## Seed 001: data evolution — Python (examples/seed_001.py), warehouse $py001 on local S3 ########"
$py examples/seed_001.py "$("$py" -c 'import json,sys; print(json.dumps(dict(json.loads(sys.argv[1]), warehouse=sys.argv[2])))' "$s3_opts" "$py001")"
echo
echo "-- what the Python walkthrough left, with the hidden columns (cpaimon cat):"
$cli cat "$py001" my_db.target_table --with-row-tracking "${s3_args[@]}"
echo "-- the files: only partial-column files were added after the first commit (cpaimon table files):"
$cli table files "$py001" my_db.target_table "${s3_args[@]}"
echo
echo "######## Seed 003: row tracking — SQL (cpaimon sql -f examples/seed_003.sql) ########"
$cli sql --warehouse "$work/sql003" --echo -f examples/seed_003.sql
echo
echo "######## Interop: pypaimon reads the tables cpaimon wrote ########"
$py - "$work" "$s3_opts" "$py001" <<'PY'
import json, sys
import pypaimon
s3 = dict(json.loads(sys.argv[2]), warehouse=sys.argv[3])
for wh, ident in [("sql001", "my_db.target_table"), ("py001", "my_db.target_table")]:
    opts = s3 if wh == "py001" else {"warehouse": f"{sys.argv[1]}/{wh}"}
    t = pypaimon.CatalogFactory.create(opts).get_table(ident)
    rb = t.new_read_builder()
    cols = [f.name for f in t.fields] + ["_ROW_ID", "_SEQUENCE_NUMBER"]
    rb = rb.with_projection(cols)
    print(f"pypaimon reads {opts['warehouse']}/{ident}:")
    print(rb.new_read().to_pandas(rb.new_scan().plan().splits()).to_string(index=False))
PY
echo
echo "-- cpaimon check on every table:"
$cli check "$work/sql001" my_db.target_table
$cli check "$py001" my_db.target_table "${s3_args[@]}"
$cli check "$work/sql003" default.t
