#!/usr/bin/env bash
# Builds every libFuzzer harness (tests/fuzz/<layer>/fuzz_*.c) with clang, ASan and UBSan, and
# runs each for FUZZ_SECONDS (default 5: the smoke run `make test` does) starting from seed inputs.
# Longer runs: FUZZ_SECONDS=3600 scripts/fuzz.sh [harness...]. New inputs go to a scratch corpus in
# build-fuzz/corpus/<harness>; crashes are written to build-fuzz/crashes/ and fail the run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
seconds=${FUZZ_SECONDS:-5}
testdata="$root/../shared/testdata"

CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=Debug -DCPAIMON_FUZZ=ON -DCPAIMON_SANITIZE=ON \
  -DCPAIMON_TESTS=OFF -DCPAIMON_PYTHON=OFF >/dev/null
cmake --build build-fuzz -j "$(nproc)" >/dev/null

# Seeds per harness: small real inputs of the format each one parses.
seed_dir() {
  local name=$1 dir=build-fuzz/corpus/$1
  mkdir -p "$dir"
  case "$name" in
    fuzz_reader|fuzz_metadata|fuzz_encoding)
      [ -d "$testdata/parquet-testing" ] &&
        find "$testdata/parquet-testing" -name '*.parquet' -size -64k -exec cp -n {} "$dir" \; ;;
    fuzz_blob_file)
      # The spec's worked example (rows "hi", NULL, ""), and an empty file of no rows.
      printf '\xcf\x11\x4e\x58hi\x12\0\0\0\0\0\0\0\xdf\xb7\x35\x3b\xcf\x11\x4e\x58\x10\0\0\0\0\0\0\0\x53\x7f\xdf\x03\x24\x25\x22\x03\0\0\0\x01' >"$dir/example"
      printf '\0\0\0\0\x01' >"$dir/empty" ;;
    fuzz_blob_descriptor)
      # A v2 descriptor of "s3://b/k" (offset 7, length -1) and a v1 one of "/x" (offset 0, 4).
      printf '\x02CSEDBOLB\x08\0\0\0s3://b/k\x07\0\0\0\0\0\0\0\xff\xff\xff\xff\xff\xff\xff\xff' >"$dir/v2"
      printf '\x01\x02\0\0\0/x\0\0\0\0\0\0\0\0\x04\0\0\0\0\0\0\0' >"$dir/v1" ;;
    fuzz_avro_container)
      cp -n tests/unit/avro/*.avro "$dir" 2>/dev/null || true ;;
    fuzz_avro_data)
      # Small data files of the harness's row type, uncompressed and deflated, several blocks.
      [ -x .venv/bin/python ] &&
        .venv/bin/python tests/fuzz/avro/make_data_seed.py "$dir/plain.avro" &&
        .venv/bin/python tests/fuzz/avro/make_data_seed.py "$dir/deflate.avro" deflate ||
        printf 'Obj\x01\0' >"$dir/hand" ;;
    fuzz_sql_parse)
      cp -n tests/sql/*.sql "$dir" 2>/dev/null || true ;;
    fuzz_type_parse)
      printf 'ARRAY<MAP<STRING, ROW<a INT, b DECIMAL(10, 2)>>>' >"$dir/nested" ;;
    fuzz_meta_files|fuzz_commit_messages|fuzz_plan_bytes)
      # Real metadata of a small table, written through the project's venv (pypaimon, fastavro,
      # the cpaimon binding); a hand-made seed when that is not available.
      [ -x .venv/bin/python ] &&
        .venv/bin/python tests/fuzz/meta/make_seeds.py "$name" "$dir" >/dev/null 2>&1 ||
        printf '\0{"version":3,"id":1}' >"$dir/hand" ;;
    fuzz_s3_xml)
      printf '\0<ListBucketResult><IsTruncated>true</IsTruncated><Contents><Key>wh/db.db/t/</Key><Size>0</Size></Contents><CommonPrefixes><Prefix>wh/db.db/u/</Prefix></CommonPrefixes><NextContinuationToken>x</NextContinuationToken></ListBucketResult>' >"$dir/list"
      printf '\2<Error><Code>NoSuchKey</Code><Message>m</Message><RequestId>r</RequestId></Error>' >"$dir/error" ;;
    fuzz_rest_json)
      printf '\0{"defaults":{"prefix":"paimon"},"overrides":{"a":"b"}}' >"$dir/config"
      printf '\2{"id":"u","name":"t","path":"/d/db.db/t","isExternal":false,"schemaId":0}' >"$dir/table"
      printf '\4{"partitions":[{"spec":{"dt":"a"},"recordCount":7,"fileSizeInBytes":9,"fileCount":3,"lastFileCreationTime":5,"done":false}],"nextPageToken":null}' >"$dir/partitions"
      printf '\5{"name":"d","location":"/tmp","options":{"k":"v"},"owner":"o","createdAt":1}' >"$dir/database"
      printf '\6{"token":{"fs.s3.accessKeyId":"k"},"expiresAtMillis":1}' >"$dir/token" ;;
    fuzz_tag_file)
      printf '\0{"version":3,"id":2,"schemaId":0,"baseManifestList":"b","deltaManifestList":"d","commitUser":"u","commitIdentifier":1,"commitKind":"APPEND","timeMillis":5,"totalRecordCount":3,"deltaRecordCount":3,"nextRowId":3,"tagCreateTime":[2026,12,2,5,9,37,147062473],"tagTimeRetained":3600.000000000}' >"$dir/tag"
      printf '\00112 h' >"$dir/hours"
      printf '\001500ms' >"$dir/millis" ;;
    fuzz_expr_text)
      printf '2024-05-14 01:02:03.456' >"$dir/ts" ;;
    fuzz_sql_chains)
      # place, operator, length, expression: a + ... in SELECT, OR in WHERE, UNION ALL branches.
      printf '\000\000\377a' >"$dir/sum"
      printf '\001\007\377a = 1' >"$dir/or"
      printf '\001\006\100a IS NOT NULL' >"$dir/and"
      printf '\002\000\077a + 1' >"$dir/union"
      printf '\000\005\020s' >"$dir/concat" ;;
  esac
  echo "$dir"
}

mkdir -p build-fuzz/crashes build-fuzz/logs
status=0
for bin in build-fuzz/fuzz_*; do
  [ -f "$bin" ] && [ -x "$bin" ] || continue
  name=$(basename "$bin")
  if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then continue; fi
  corpus=$(seed_dir "$name")
  echo "== $name (${seconds}s) =="
  if ! "$bin" -max_total_time="$seconds" -max_len=65536 -rss_limit_mb=2048 -timeout=10 \
       -artifact_prefix=build-fuzz/crashes/"$name"- -print_final_stats=0 "$corpus" \
       >"build-fuzz/logs/$name.log" 2>&1; then
    echo "FAIL $name: see build-fuzz/logs/$name.log"; tail -30 "build-fuzz/logs/$name.log"; status=1
  else
    grep -Eo "^#[0-9]+" "build-fuzz/logs/$name.log" | tail -1 | sed 's/#/  runs: /' || true
  fi
done
exit $status
