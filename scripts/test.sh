#!/usr/bin/env bash
# Installs what is missing (Debian packages), builds, and runs every test. `.ci/run` calls this.
set -euo pipefail
cd "$(dirname "$0")/.."
# CI may hand this script a non-blocking pipe as its output: a burst of lines faster than CI reads them then fails with
# EAGAIN, and tail (the test log's live view below) exits 1 on it, which ended a run mid-burst without a word while
# the tests went on. Our writes block instead, as into a terminal. perl-base is part of every Debian system.
perl -MFcntl -e 'for my $fd (1, 2) { open(my $h, ">&=", $fd) or next;
    my $flags = fcntl($h, F_GETFL, 0) or next; fcntl($h, F_SETFL, $flags & ~O_NONBLOCK) }'
source scripts/lib/ensure_packages.sh
source scripts/lib/pg_test_cluster.sh
# One trap for everything this script leaves behind: the test log and the PostgreSQL test cluster.
test_log=""
trap '[ -z "$test_log" ] || rm -f "$test_log"; pg_test_cluster_stop' EXIT
# set -e ends the script at a failing command without a word of its own: name the command, so no run ends unexplained.
trap 'echo "scripts/test.sh: line $LINENO: $BASH_COMMAND: status $?" >&2' ERR
ensure_packages libcurl4-openssl-dev libxml2-dev libsqlite3-dev zlib1g-dev libmicrohttpd-dev libssl-dev libxlsxwriter-dev libxgboost-dev python3 pkg-config openssl \
    chromium chromium-driver python3-selenium fonts-dejavu-core python3-aiosmtpd binutils postgresql-15 libpq-dev man-db \
    python3-jsonschema

swift build --build-tests
# A throwaway PostgreSQL 15 cluster; the tests find it through OWNERDASH_TEST_DATABASE_URL.
pg_test_cluster_start
pg_address=${OWNERDASH_TEST_DATABASE_URL#postgresql://postgres@}
echo "PostgreSQL test cluster: ${pg_address%%/*}" >&2
# The simulator's, the benchmark scripts' and the packaging's own tests (Python standard library) run first, so swift
# test's summary closes the output. The packaging's render the man pages of this build's every command.
binary="$(swift build --show-bin-path)/ownerdash"
for suite in scripts/pms_sim/tests scripts/bench/tests scripts/package/tests; do
    [ -d "$suite" ] || continue
    py_log=$(mktemp)
    if ! OWNERDASH_BINARY=$binary python3 -m unittest discover -s "$suite" >"$py_log" 2>&1; then
        cat "$py_log"; rm -f "$py_log"; exit 1
    fi
    echo "$suite: $(grep "^Ran" "$py_log"), $(tail -n 1 "$py_log")"; rm -f "$py_log"
done
# CI shows only the tail of the output, so a failure's own lines are repeated after the summary.
test_log=$(mktemp)
# swift test writes into the file, shown as it grows: through a pipe (`| tee`) the run's last lines, its summary among
# them, were lost more than once while the run passed (exit 0), where the same run into a file printed all of it.
swift test --skip-build > "$test_log" 2>&1 &
test_pid=$!
# The view is only a view: if it fails, the run still ends here and is judged from the file.
tail -f --pid="$test_pid" "$test_log" || echo "--- the live view of the test log ended early (status $?)" >&2
if ! wait "$test_pid"; then
    # Only the lines that open an issue, cut short: an expectation on a page prints the whole page after its first line.
    echo "--- failed tests and their issues, repeated from above:"
    grep -a -E '^✘|error:' "$test_log" | cut -c1-600 | tail -n 60 || true   # none found is no reason to stop here
    echo "--- the test log's last lines:"
    tail -n 15 "$test_log" | cut -c1-300
    exit 1
fi
# The run's summary once more, read from the file: the view above has still lost its last lines now and then. A run
# without one did not finish, whatever its status: a test process that exits mid-run with 0 (a library's exit()) made
# swift test pass having run a fraction of the tests.
summary=$(grep -a -E '^(✔|✘) Test run with' "$test_log" | tail -n 1 || true)   # none: said below, not a silent stop
if [ -z "$summary" ]; then
    echo "--- swift test exited 0 without its summary: the test process ended mid-run" \
         "($(grep -a -c -E '^✔ Test .* passed' "$test_log") tests had passed); its last lines:"
    tail -n 20 "$test_log" | cut -c1-300
    exit 1
fi
echo "swift test: $summary"
