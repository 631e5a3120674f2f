#!/usr/bin/env bash
# Benchmark: `ownerdash serve` against the seed system's stack (FastAPI + uvicorn + sqlite3) and Datasette, on the
# demo portfolio, with wrk at 64 connections (issue 16 targets: >= 5x FastAPI's requests/s, p99 < 20 ms for one
# property, memory flat over the run).
#
#   scripts/bench/serve.sh [--duration SECONDS] [--connections N] [--threads N] [--only-ownerdash] [--replicas N]
#
# Makes the demo data once (ownerdash demo into scripts/bench/out/serve_demo, git-ignored), builds ownerdash in
# release mode, installs wrk (apt) and FastAPI, uvicorn and Datasette into scripts/bench/out/serve_venv (pip), then
# runs each stack in turn on 127.0.0.1 and prints requests/s and p99 per endpoint, and ownerdash's resident memory
# every 10 s of both its runs. ownerdash serves with --no-sign-in (the same for the others: none has sign-in), with
# its default threads (one per core) unless --threads; FastAPI under uvicorn with 4 workers. Datasette answers the occupancy table's latest row (its nearest
# equivalent of one property's summary). The machine is shared: run it when nothing else builds.
#
# --replicas N: then N `ownerdash serve --database-url` replicas on one PostgreSQL 15 server (a throwaway cluster,
# scripts/lib/pg_test_cluster.sh; the demo published to it with `ownerdash publish`), each with its own data
# directory and mirror, each driven by its own wrk with CONNECTIONS / N connections at the same time (the stand-in
# for a proxy spreading the load); their requests/s summed, the worst p99, against the one replica on unified.db.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/ensure_packages.sh
ensure_packages wrk python3-venv libcurl4-openssl-dev libxml2-dev libsqlite3-dev zlib1g-dev libmicrohttpd-dev libssl-dev libxlsxwriter-dev libpq-dev

DURATION=60
CONNECTIONS=64
ONLY_OWNERDASH=0
REPLICAS=0
THREADS=()
while [ $# -gt 0 ]; do
    case $1 in
        --duration) DURATION=$2; shift 2;;
        --connections) CONNECTIONS=$2; shift 2;;
        --threads) THREADS=(--threads "$2"); shift 2;;
        --only-ownerdash) ONLY_OWNERDASH=1; shift;;
        --replicas) REPLICAS=$2; shift 2;;
        -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0;;
        *) echo "serve.sh: unknown option $1 (see --help)" >&2; exit 1;;
    esac
done
[[ $REPLICAS =~ ^[0-9]+$ ]] || { echo "serve.sh: --replicas must be a number" >&2; exit 1; }
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

# replicas_run NAME PATH: one wrk per replica at once (CONNECTIONS / REPLICAS each); prints their summed
# requests/s and worst p99, and leaves the sum in $OUT/serve_last_rps.
replicas_run() {
    local k reports=()
    for k in $(seq "$REPLICAS"); do
        wrk -t1 -c"$((CONNECTIONS / REPLICAS))" -d"${DURATION}s" --latency "http://127.0.0.1:$((PORT + 10 + k))$2" > "$OUT/replica_$k.wrk" &
        reports+=($!)
    done
    for k in "${reports[@]}"; do wait "$k"; done
    cat "$OUT"/replica_*.wrk | awk -v name="$1" '
        /Requests\/sec/ { rps += $2 }
        $1 == "99%" { v = $2; if (v ~ /us$/) { sub(/us/, "", v); v /= 1000 } else if (v ~ /ms$/) sub(/ms/, "", v); else if (v ~ /s$/) { sub(/s/, "", v); v *= 1000 }
                      if (v + 0 > p99) p99 = v + 0 }
        /Non-2xx/ { bad += $4 }
        END { printf "%-44s %12.2f req/s   p99 %8s ms%s\n", name, rps, p99, bad ? "   (non-2xx: " bad ")" : ""; print rps > "/dev/stderr" }' \
        2> "$OUT/serve_last_rps"
}

if [ "$REPLICAS" -gt 0 ]; then
    ensure_packages postgresql-15
    source scripts/lib/pg_test_cluster.sh
    REPLICA_PIDS=()
    trap 'kill "${REPLICA_PIDS[@]}" 2>/dev/null || true; pg_test_cluster_stop; rm -rf "$OUT"/replica_*' EXIT
    pg_test_cluster_start
    SERVER=$OWNERDASH_TEST_DATABASE_URL
    echo "publishing the demo to PostgreSQL for $REPLICAS replicas ..." >&2
    "$BIN" publish --data-dir "$DATA" --database-url "$SERVER" --quiet >/dev/null
    for k in $(seq "$REPLICAS"); do
        mkdir -p "$OUT/replica_$k"
        "$BIN" serve --no-sign-in --listen "127.0.0.1:$((PORT + 10 + k))" "${THREADS[@]}" --data-dir "$OUT/replica_$k" \
            --database-url "$SERVER" --quiet &
        REPLICA_PIDS+=($!)
    done
    # The first answer copies the server's data into each replica's mirror.
    for k in $(seq "$REPLICAS"); do
        wait_for "http://127.0.0.1:$((PORT + 10 + k))/healthz"
        curl -fs "http://127.0.0.1:$((PORT + 10 + k))/api/v2/portfolio/summary" >/dev/null
    done
    replicas_run "$REPLICAS replicas on PostgreSQL /properties/$PROPERTY/summary" "/api/v2/properties/$PROPERTY/summary"
    PG_ONE=$(cat "$OUT/serve_last_rps")
    replicas_run "$REPLICAS replicas on PostgreSQL /portfolio/summary" "/api/v2/portfolio/summary"
    PG_ALL=$(cat "$OUT/serve_last_rps")
    kill "${REPLICA_PIDS[@]}" 2>/dev/null || true
    wait "${REPLICA_PIDS[@]}" 2>/dev/null || true
    pg_test_cluster_stop
    rm -rf "$OUT"/replica_*
    python3 - "$PG_ONE" "$OD_ONE" "$PG_ALL" "$OD_ALL" "$REPLICAS" <<'PY'
import sys
pg1, od1, pgp, odp = map(float, sys.argv[1:5])
print(f"ratio {sys.argv[5]} replicas on PostgreSQL / 1 on unified.db: one property {pg1 / od1:.2f}x, portfolio {pgp / odp:.2f}x"
      " (one machine's cores shared by every replica and wrk)")
PY
fi
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
