#!/usr/bin/env bash
# unified.db in the SQL tools analysts use (issue 17): opens a unified.db with Datasette (every table and view page
# must answer 200) and with DuckDB's SQLite scanner (every column PRAGMA table_xinfo lists must be visible), both
# installed into a virtualenv of their own, never into OwnerDash. Not part of the default tests (it needs pip).
#
#   scripts/bench/sql_tools.sh [DATA_DIR]
#
# DATA_DIR holds unified.db (and metadata.json, written by every sync and ingest); default: the demo portfolio,
# made once with `ownerdash demo` into scripts/bench/out/serve_demo (the serve benchmark's, git-ignored). The
# database is opened read-only and never migrated here: give it a DATA_DIR the current ownerdash has written.
# Prints one line per tool and exits 1 when a page is not 200 or a column is missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/ensure_packages.sh
ensure_packages python3-venv

case ${1:-} in -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0;; esac
OUT=scripts/bench/out
DATA=${1:-$OUT/serve_demo}
if [ ! -s "$DATA/unified.db" ]; then
    [ $# -gt 0 ] && { echo "sql_tools.sh: $DATA/unified.db does not exist" >&2; exit 1; }
    echo "making the demo portfolio into $DATA ..." >&2
    swift build -c release --product ownerdash >&2
    "$(swift build -c release --show-bin-path)/ownerdash" demo --data-dir "$DATA" --quiet >/dev/null
fi
VENV=$OUT/sql_tools_venv
# DuckDB's SQLite scanner is an extension DuckDB downloads from its own server, which only PyPI may stand in for
# here: duckdb-ext-sqlite ships it for DuckDB 1.4.4, so DuckDB is pinned to that version.
if [ ! -x "$VENV/bin/datasette" ] || ! "$VENV/bin/python" -c "import duckdb" 2>/dev/null; then
    echo "installing datasette and duckdb into $VENV ..." >&2
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet datasette "duckdb==1.4.4" "duckdb-ext-sqlite==1.4.4.20260205"
fi
"$VENV/bin/python" -c "import datasette, duckdb; print('datasette', datasette.__version__, '/ duckdb', duckdb.__version__)"
exec "$VENV/bin/python" scripts/bench/sql_tools.py "$DATA" "$VENV/bin/datasette"
