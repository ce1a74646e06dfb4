#!/usr/bin/env bash
# The README's main job (`make demo`): the seeds' walkthrough on a fresh local warehouse, as far as
# cpaimon implements it today (see examples/demo.py).
set -euo pipefail
cd "$(dirname "$0")/.."
echo "== $(build/cpaimon --version) =="
CPAIMON_BUILD="$PWD/build" .venv/bin/python examples/demo.py
