#!/usr/bin/env bash
# The README's main job (`make demo`): both seeds' walkthroughs on fresh local warehouses —
# seed 001's SQL (MERGE INTO on a data-evolution table) and Python API walkthrough, and seed 003's
# SQL (row tracking: INSERT, UPDATE, MERGE INTO, DELETE with _ROW_ID / _SEQUENCE_NUMBER) — then
# pypaimon reading what cpaimon wrote.
set -euo pipefail
cd "$(dirname "$0")/.."
cli=build/cpaimon
py=.venv/bin/python
export CPAIMON_BUILD="$PWD/build"
work=$(mktemp -d -t cpaimon-demo-XXXXXX)
trap 'rm -rf "$work"' EXIT

echo "== $($cli --version) =="
echo
echo "######## Seed 001: data evolution — SQL (cpaimon sql -f examples/seed_001.sql) ########"
$cli sql --warehouse "$work/sql001" --echo -f examples/seed_001.sql
echo
echo "######## Seed 001: data evolution — Python (examples/seed_001.py) ########"
$py examples/seed_001.py "$work/py001"
echo
echo "-- what the Python walkthrough left, with the hidden columns (cpaimon cat):"
$cli cat "$work/py001" my_db.target_table --with-row-tracking
echo "-- the files: only partial-column files were added after the first commit (cpaimon table files):"
$cli table files "$work/py001" my_db.target_table
echo
echo "######## Seed 003: row tracking — SQL (cpaimon sql -f examples/seed_003.sql) ########"
$cli sql --warehouse "$work/sql003" --echo -f examples/seed_003.sql
echo
echo "######## Interop: pypaimon reads the tables cpaimon wrote ########"
$py - "$work" <<'PY'
import sys
import pypaimon
for wh, ident in [("sql001", "my_db.target_table"), ("py001", "my_db.target_table")]:
    t = pypaimon.CatalogFactory.create({"warehouse": f"{sys.argv[1]}/{wh}"}).get_table(ident)
    rb = t.new_read_builder()
    cols = [f.name for f in t.fields] + ["_ROW_ID", "_SEQUENCE_NUMBER"]
    rb = rb.with_projection(cols)
    print(f"pypaimon reads {wh}/{ident}:")
    print(rb.new_read().to_pandas(rb.new_scan().plan().splits()).to_string(index=False))
PY
echo
echo "-- cpaimon check on every table:"
for spec in "sql001 my_db.target_table" "py001 my_db.target_table" "sql003 default.t"; do
  set -- $spec
  $cli check "$work/$1" "$2"
done
