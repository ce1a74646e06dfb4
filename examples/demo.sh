#!/usr/bin/env bash
# The README's main job. It grows with the project: today it shows what exists end to end; its
# goal is the seeds' walkthrough (shared/seeds) on a fresh local warehouse.
set -euo pipefail
cd "$(dirname "$0")/.."
bin=build/cpaimon
echo "== $($bin --version) =="
$bin --help
