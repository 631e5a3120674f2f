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
#
#   scripts/bench/postgres.sh --against OTHER_BINARY [--rounds N]
#
# then also alternates a reader's first answer between this build and OTHER_BINARY (an earlier release build of
# ownerdash) N times (3), each into a fresh reader directory: each run's CPU (user + system) and wall time, the
# medians' ratio, and whether the two builds' answers are byte for byte the same.
# The machine is shared: run it when nothing else builds.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/ensure_packages.sh
source scripts/lib/pg_test_cluster.sh
ensure_packages postgresql-15 libpq-dev pgloader libcurl4-openssl-dev libxml2-dev libsqlite3-dev zlib1g-dev \
    libmicrohttpd-dev libssl-dev libxlsxwriter-dev
AGAINST="" ROUNDS=3
while [ $# -gt 0 ]; do
    case "$1" in
        -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0;;
        --against) AGAINST=${2:?--against needs a binary}; shift 2;;
        --rounds) ROUNDS=${2:?--rounds needs a number}; shift 2;;
        *) echo "postgres.sh: unknown option $1 (see --help)" >&2; exit 1;;
    esac
done
if [ -n "$AGAINST" ] && [ ! -x "$AGAINST" ]; then
    echo "postgres.sh: --against $AGAINST is not an executable" >&2; exit 1
fi
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
[ -n "$AGAINST" ] || exit 0
# A reader's first copy, this build against the other, alternated; CPU from wait4, as run_timed.py takes it.
python3 - "$BIN" "$AGAINST" "$ROUNDS" "$SERVER" "$READER" <<'EOF'
import filecmp, os, shutil, statistics, subprocess, sys, time
this, other, rounds, server, reader = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
runs = {"this build": [], "the other": []}
suffix = {"this build": "this", "the other": "other"}
for _ in range(rounds):
    for name, binary in (("this build", this), ("the other", other)):
        shutil.rmtree(reader, ignore_errors=True)
        with open(f"{reader}.{suffix[name]}.json", "wb") as answer:
            start = time.perf_counter()
            child = subprocess.Popen([binary, "query", "summary", "--format", "json", "--data-dir", reader,
                                      "--database-url", server], stdout=answer)
            _, status, usage = os.wait4(child.pid, 0)
            wall = time.perf_counter() - start
        if os.waitstatus_to_exitcode(status) != 0:
            sys.exit(f"postgres.sh: {binary} query summary failed (exit {os.waitstatus_to_exitcode(status)})")
        cpu = usage.ru_utime + usage.ru_stime
        runs[name].append((cpu, wall))
        print(f"a reader's first answer, {name:10} {cpu:6.2f} s CPU {wall:6.2f} s wall")
cpu = {name: statistics.median(c for c, _ in values) for name, values in runs.items()}
wall = {name: statistics.median(w for _, w in values) for name, values in runs.items()}
print(f"this build / the other (medians):      {cpu['this build'] / cpu['the other']:.2f}x the CPU, "
      f"{wall['this build'] / wall['the other']:.2f}x the wall time")
same = filecmp.cmp(f"{reader}.this.json", f"{reader}.other.json", shallow=False)
print("the answers:                           " + ("identical" if same else "DIFFER"))
for name in suffix.values():
    os.remove(f"{reader}.{name}.json")
sys.exit(0 if same else 2)
EOF
