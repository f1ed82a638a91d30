#!/usr/bin/env bash
# Sets up .venv with the test requirements and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")"
./setup.sh requirements-dev.txt
exec .venv/bin/python -m pytest -q "$@"
