#!/usr/bin/env bash
# Installs what is missing (Debian packages), builds, and runs every test. `.ci/run` calls this.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/ensure_packages.sh
ensure_packages libcurl4-openssl-dev libxml2-dev libsqlite3-dev zlib1g-dev libmicrohttpd-dev libssl-dev libxlsxwriter-dev python3 pkg-config openssl \
    chromium chromium-driver python3-selenium fonts-dejavu-core python3-aiosmtpd binutils

swift build --build-tests
# The simulator's own tests (Python standard library) run first, so swift test's summary closes the output.
if [ -d scripts/pms_sim/tests ]; then
    sim_log=$(mktemp)
    if ! python3 -m unittest discover -s scripts/pms_sim/tests >"$sim_log" 2>&1; then
        cat "$sim_log"; rm -f "$sim_log"; exit 1
    fi
    echo "simulator tests: $(tail -n 1 "$sim_log")"; rm -f "$sim_log"
fi
# CI shows only the tail of the output, so a failure's own lines are repeated after the summary.
test_log=$(mktemp)
trap 'rm -f "$test_log"' EXIT
if ! swift test --skip-build 2>&1 | tee "$test_log"; then
    echo "--- failed tests and their issues, repeated from above:"
    grep -E '✘|error:|failed' "$test_log" | grep -v '^Test Suite' | tail -n 60
    exit 1
fi
