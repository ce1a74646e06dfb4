#!/usr/bin/env bash
# Installs everything cpaimon needs on a fresh Debian machine, and nothing twice.
#
# - Debian packages (compilers, codecs, jansson, CRoaring, line editing, clang for fuzzing) via
#   apt-get, only those that are missing.
# - A Python virtual environment in .venv with the pinned packages of requirements.txt (pytest and
#   the oracle packages: pypaimon, pyarrow, duckdb, fastavro). Reinstalled only when
#   requirements.txt changes.
#
# Idempotent: a second run with everything present takes well under a second.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

debs=(
  build-essential cmake pkg-config
  libzstd-dev libsnappy-dev liblz4-dev zlib1g-dev
  libjansson-dev libroaring-dev libedit-dev
  clang clang-format libclang-rt-14-dev
  python3 python3-venv python3-dev
)

missing=()
for p in "${debs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing Debian packages: ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# The venv is built from whichever python3 is first on PATH (Debian's, or a pyenv one); the C
# extension is compiled against the same interpreter.
py=${PYTHON:-python3}
stamp=.venv/.requirements.sha256
want=$(sha256sum requirements.txt | cut -d' ' -f1)
if [ ! -x .venv/bin/python ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "setup: creating .venv with requirements.txt"
  [ -x .venv/bin/python ] || "$py" -m venv .venv
  .venv/bin/python -m pip install -q --disable-pip-version-check -r requirements.txt
  echo "$want" >"$stamp"
fi
