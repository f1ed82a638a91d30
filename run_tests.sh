#!/usr/bin/env bash
# Sets up .venv with the test requirements and runs the test suite.
#   ./run_tests.sh            the whole suite (CI's command: .ci/run)
#   ./run_tests.sh --quick    the quick loop: every test not marked slow (pytest -m "not slow"),
#                             which still touches every module; README "Quick start" gives both durations
# Other arguments go to pytest (e.g. ./run_tests.sh --quick -x tests/test_spans.py).
# The tests run in one process per core (pytest-xdist); TEST_WORKERS=0 runs them in this process
# (for a debugger, or to read one test's output in order).
set -euo pipefail
cd "$(dirname "$0")"
./setup.sh requirements-dev.txt
if [ "${1:-}" = "--quick" ]; then
    shift
    exec .venv/bin/python -m pytest -q -n "${TEST_WORKERS:-auto}" -m "not slow" "$@"
fi
exec .venv/bin/python -m pytest -q -n "${TEST_WORKERS:-auto}" "$@"
