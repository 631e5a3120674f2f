#!/usr/bin/env bash
# Benchmark: the unified data on PostgreSQL (issue 35), on the demo portfolio, against pgloader (Debian's SQLite ->
# PostgreSQL loader) moving the same unified.db.
#
#   scripts/bench/postgres.sh
#
# Makes the demo data once (ownerdash demo into scripts/bench/out/serve_demo, git-ignored, shared with serve.sh),
# builds ownerdash in release mode, installs postgresql-15 and pgloader (apt), starts a throwaway cluster
# (scripts/lib/pg_test_cluster.sh; stopped at the end), then times, one after the other:
#   - ownerdash publish of every property (one transaction and COPY per property) and pgloader of the same file;
#   - a reader's first answer (its mirror copies everything) and an answer with the mirror current, against the
#     same answer from unified.db;
#   - publishing one property again, and the next answer (the mirror copies that property alone).
# The machine is shared: run it when nothing else builds.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/ensure_packages.sh
source scripts/lib/pg_test_cluster.sh
ensure_packages postgresql-15 libpq-dev pgloader libcurl4-openssl-dev libxml2-dev libsqlite3-dev zlib1g-dev \
    libmicrohttpd-dev libssl-dev libxlsxwriter-dev
case "${1:-}" in
    -h|--help) sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 0;;
    "") ;;
    *) echo "postgres.sh: unknown option $1 (see --help)" >&2; exit 1;;
esac
OUT=scripts/bench/out
DATA="$OUT/serve_demo"
READER="$OUT/postgres_reader"
mkdir -p "$OUT"

echo "building ownerdash (release)..." >&2
swift build -c release --product ownerdash >&2
BIN=$(swift build -c release --show-bin-path)/ownerdash
if [ ! -s "$DATA/unified.db" ]; then
    echo "making the demo portfolio into $DATA ..." >&2
    "$BIN" demo --data-dir "$DATA" --quiet >/dev/null
fi
trap 'pg_test_cluster_stop; rm -rf "$READER"' EXIT
pg_test_cluster_start
ADMIN=$OWNERDASH_TEST_DATABASE_URL
psql "$ADMIN" -qc "CREATE DATABASE bench_ownerdash" -c "CREATE DATABASE bench_pgloader"
SERVER=${ADMIN%/*}/bench_ownerdash
PEER=${ADMIN%/*}/bench_pgloader
PROPERTY=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT unified_property_id FROM unified_properties ORDER BY 1 LIMIT 1').fetchone()[0])" "$DATA/unified.db")
ROWS=$(python3 -c "
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
tables = [r[0] for r in db.execute(\"SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'\")]
print(sum(db.execute(f'SELECT count(*) FROM {t}').fetchone()[0] for t in tables))" "$DATA/unified.db")

# seconds NAME COMMAND...: runs it, prints and returns its wall time.
seconds() {
    local name=$1; shift
    local start end
    start=$(date +%s.%N)
    "$@" >/dev/null
    end=$(date +%s.%N)
    local took
    took=$(python3 -c "print(f'{$end - $start:.2f}')")
    printf '%-58s %8s s\n' "$name" "$took" >&2
    echo "$took"
}

echo "unified.db: $(du -h "$DATA/unified.db" | cut -f1), $ROWS rows, $(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT count(*) FROM unified_properties').fetchone()[0])" "$DATA/unified.db") properties" >&2
rm -rf "$READER"
publish=$(seconds "ownerdash publish (every property)" "$BIN" publish --data-dir "$DATA" --database-url "$SERVER")
peer=$(seconds "pgloader (the same unified.db)" pgloader --quiet "sqlite://$PWD/$DATA/unified.db" "$PEER")
first=$(seconds "first answer from the server (the mirror copies all)" "$BIN" query summary --format json --data-dir "$READER" --database-url "$SERVER")
current=$(seconds "an answer, mirror current" "$BIN" query summary --format json --data-dir "$READER" --database-url "$SERVER")
local_answer=$(seconds "the same answer from unified.db" "$BIN" query summary --format json --data-dir "$DATA")
one=$(seconds "ownerdash publish --property $PROPERTY" "$BIN" publish --property "$PROPERTY" --data-dir "$DATA" --database-url "$SERVER")
after=$(seconds "the next answer (the mirror copies $PROPERTY)" "$BIN" query summary --format json --data-dir "$READER" --database-url "$SERVER")
python3 - "$publish" "$peer" "$first" "$current" "$local_answer" "$one" "$after" <<'EOF'
import sys
publish, peer, first, current, local, one, after = map(float, sys.argv[1:])
print(f"publish / pgloader:                    {publish / peer:.2f}x the time")
print(f"one property / every property:         {one / publish * 100:.1f} %")
print(f"refresh of one property / first copy:  {after / first * 100:.1f} %")
print(f"answer, mirror current / unified.db:   {current / local:.1f}x ({current - local:.2f} s more: connect, check, one query)")
EOF
