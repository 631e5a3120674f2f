#!/usr/bin/env bash
# Benchmark: `ownerdash serve` against the seed system's stack (FastAPI + uvicorn + sqlite3) and Datasette, on the
# demo portfolio, with wrk at 64 connections (issue 16 targets: >= 5x FastAPI's requests/s, p99 < 20 ms for one
# property, memory flat over the run).
#
#   scripts/bench/serve.sh [--duration SECONDS] [--connections N] [--threads N] [--only-ownerdash]
#
# Makes the demo data once (ownerdash demo into scripts/bench/out/serve_demo, git-ignored), builds ownerdash in
# release mode, installs wrk (apt) and FastAPI, uvicorn and Datasette into scripts/bench/out/serve_venv (pip), then
# runs each stack in turn on 127.0.0.1 and prints requests/s and p99 per endpoint, and ownerdash's resident memory
# every 10 s of both its runs. ownerdash serves with --no-sign-in (the same for the others: none has sign-in), with
# its default threads (one per core) unless --threads; FastAPI under uvicorn with 4 workers. Datasette answers the occupancy table's latest row (its nearest
# equivalent of one property's summary). The machine is shared: run it when nothing else builds.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/ensure_packages.sh
ensure_packages wrk python3-venv libcurl4-openssl-dev libxml2-dev libsqlite3-dev zlib1g-dev libmicrohttpd-dev libssl-dev libxlsxwriter-dev libpq-dev

DURATION=60
CONNECTIONS=64
ONLY_OWNERDASH=0
THREADS=()
while [ $# -gt 0 ]; do
    case $1 in
        --duration) DURATION=$2; shift 2;;
        --connections) CONNECTIONS=$2; shift 2;;
        --threads) THREADS=(--threads "$2"); shift 2;;
        --only-ownerdash) ONLY_OWNERDASH=1; shift;;
        -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0;;
        *) echo "serve.sh: unknown option $1 (see --help)" >&2; exit 1;;
    esac
done
OUT=scripts/bench/out
DATA="$OUT/serve_demo"
PORT=18080

echo "building ownerdash (release)..." >&2
swift build -c release --product ownerdash >&2
BIN=$(swift build -c release --show-bin-path)/ownerdash
if [ ! -s "$DATA/unified.db" ]; then
    echo "making the demo portfolio into $DATA ..." >&2
    "$BIN" demo --data-dir "$DATA" --quiet >/dev/null
fi
PROPERTY=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT unified_property_id FROM unified_occupancy_metrics ORDER BY 1 LIMIT 1').fetchone()[0])" "$DATA/unified.db")

wait_for() { for _ in $(seq 1 100); do curl -fs "$1" >/dev/null 2>&1 && return 0; sleep 0.1; done; echo "serve.sh: $1 never answered" >&2; return 1; }

# run_wrk NAME URL: one wrk run; prints "NAME  requests/s  p99 ms".
run_wrk() {
    local report
    report=$(wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency "$2")
    local rps p99
    rps=$(awk '/Requests\/sec/ {print $2}' <<<"$report")
    p99=$(awk '$1 == "99%" {v=$2; if (v ~ /us$/) {sub(/us/,"",v); v=v/1000} else if (v ~ /ms$/) {sub(/ms/,"",v)} else if (v ~ /s$/) {sub(/s/,"",v); v=v*1000}; print v}' <<<"$report")
    local non2xx
    non2xx=$(awk '/Non-2xx/ {print $4}' <<<"$report")
    printf '%-44s %12s req/s   p99 %8s ms%s\n' "$1" "$rps" "$p99" "${non2xx:+   (non-2xx: $non2xx)}"
    echo "$rps" > "$OUT/serve_last_rps"
}

rss() { awk '/VmRSS/ {print $2}' "/proc/$1/status"; }

echo "ownerdash serve on $DATA, property $PROPERTY, $CONNECTIONS connections, ${DURATION}s each, $(nproc) cores" >&2
"$BIN" serve --no-sign-in --listen "127.0.0.1:$PORT" "${THREADS[@]}" --data-dir "$DATA" --quiet &
SERVE=$!
trap 'kill $SERVE 2>/dev/null || true' EXIT
wait_for "http://127.0.0.1:$PORT/healthz"
echo "  ownerdash RSS before: $(rss $SERVE) kB"
( for _ in $(seq 1 $((2 * DURATION / 10 + 1))); do sleep 10; echo "  ownerdash RSS $(rss $SERVE) kB"; done ) &
SAMPLER=$!
run_wrk "ownerdash  /properties/$PROPERTY/summary" "http://127.0.0.1:$PORT/api/v2/properties/$PROPERTY/summary"
OD_ONE=$(cat "$OUT/serve_last_rps")
run_wrk "ownerdash  /portfolio/summary" "http://127.0.0.1:$PORT/api/v2/portfolio/summary"
OD_ALL=$(cat "$OUT/serve_last_rps")
kill $SAMPLER 2>/dev/null || true
echo "  ownerdash RSS after: $(rss $SERVE) kB"
kill $SERVE; wait $SERVE 2>/dev/null || true
[ "$ONLY_OWNERDASH" = 1 ] && exit 0

VENV="$OUT/serve_venv"
if [ ! -x "$VENV/bin/uvicorn" ]; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install -q fastapi uvicorn datasette >&2
fi
UNIFIED_DB="$PWD/$DATA/unified.db" "$VENV/bin/uvicorn" --app-dir scripts/bench serve_fastapi:app --port $((PORT + 1)) --workers 4 --log-level warning &
FASTAPI=$!
trap 'kill $FASTAPI 2>/dev/null || true' EXIT
wait_for "http://127.0.0.1:$((PORT + 1))/api/v2/portfolio/summary"
run_wrk "fastapi    /properties/$PROPERTY/summary" "http://127.0.0.1:$((PORT + 1))/api/v2/properties/$PROPERTY/summary"
FA_ONE=$(cat "$OUT/serve_last_rps")
run_wrk "fastapi    /portfolio/summary" "http://127.0.0.1:$((PORT + 1))/api/v2/portfolio/summary"
FA_ALL=$(cat "$OUT/serve_last_rps")
kill $FASTAPI; wait $FASTAPI 2>/dev/null || true

"$VENV/bin/datasette" serve "$DATA/unified.db" --port $((PORT + 2)) --setting num_sql_threads 4 >/dev/null 2>&1 &
DATASETTE=$!
trap 'kill $DATASETTE 2>/dev/null || true' EXIT
wait_for "http://127.0.0.1:$((PORT + 2))/-/versions.json"
run_wrk "datasette  occupancy latest row of $PROPERTY" "http://127.0.0.1:$((PORT + 2))/unified/unified_occupancy_metrics.json?unified_property_id=$PROPERTY&_sort_desc=as_of_date&_size=1"
kill $DATASETTE; wait $DATASETTE 2>/dev/null || true

python3 - "$OD_ONE" "$FA_ONE" "$OD_ALL" "$FA_ALL" <<'PY'
import sys
od1, fa1, odp, fap = map(float, sys.argv[1:])
print(f"ratio ownerdash / fastapi: one property {od1 / fa1:.1f}x, portfolio {odp / fap:.1f}x (target >= 5x)")
PY
