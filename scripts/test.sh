#!/usr/bin/env bash
# Install livetb with its test tools into .venv and run the whole test suite.
# This is the README's test command; .ci/run runs exactly this.
set -euo pipefail
cd "$(dirname "$0")/.."
# The browser tests drive Debian's Chromium (never a downloaded browser); the micro-cache test
# runs docs/operations.md's nginx block in Debian's nginx.
missing=""
[ -x /usr/bin/chromium ] || missing="$missing chromium"
[ -x /usr/sbin/nginx ] || missing="$missing nginx"
if [ -n "$missing" ]; then
  as_root=""
  [ "$(id -u)" -eq 0 ] || as_root="sudo"
  # shellcheck disable=SC2086 # the package names are words
  $as_root apt-get install -y -q $missing >/dev/null 2>&1 \
    || { $as_root apt-get update -q >/dev/null && $as_root apt-get install -y -q $missing >/dev/null; }
fi
python3 -m venv .venv
.venv/bin/python -m pip install --quiet --upgrade pip
.venv/bin/python -m pip install --quiet -e '.[test]'
.venv/bin/ruff check livetb tests bench
.venv/bin/ruff format --check livetb tests bench
.venv/bin/mypy
# The pages' pure modules (feed.js's model and timing, codes.js, words.js) under Node's own
# test runner: no npm package, no browser.
node --test tests/js/
# Four workers on two CPUs: many tests wait (on a browser, a server, a broadcast delay) more
# than they compute. Each browser module stays on one worker (its xdist group, tests/conftest.py).
# LIVETB_TEST_WORKERS=0 runs in one process; arguments go to pytest (`-m "not browser"`, a path).
# pytest exits 5 when no test ran; set -e makes that a failure too.
.venv/bin/python -m pytest -q -n "${LIVETB_TEST_WORKERS:-4}" --dist loadgroup "$@"
