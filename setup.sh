#!/usr/bin/env bash
# Creates .venv (Python >= 3.9) with the pinned requirements; idempotent.
set -euo pipefail
cd "$(dirname "$0")"
PYTHON="${PYTHON:-python3}"
REQUIREMENTS="${1:-requirements.txt}"
if [ ! -x .venv/bin/python ]; then
  "$PYTHON" -m venv .venv
fi
.venv/bin/python -m pip install --quiet --disable-pip-version-check -r "$REQUIREMENTS"
