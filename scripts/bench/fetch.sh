#!/usr/bin/env bash
# Benchmark: fetch + load the whole simulated portfolio at parallelism 1 and 8, with the
# simulator answering every request after 50 ms (so waiting on the network dominates, as it
# does against the real services).
#
#   scripts/bench/fetch.sh [LATENCY_MS]      (default 50)
#
# Prints, per parallelism: wall seconds of fetch and of load --run, requests served (counted by
# the simulator), requests/s and bytes/s landed; then the fetch speed-up of 8 over 1 (target >= 5x).
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/ensure_packages.sh
ensure_packages libcurl4-openssl-dev libxml2-dev libsqlite3-dev zlib1g-dev libmicrohttpd-dev libssl-dev libxlsxwriter-dev libpq-dev python3 bc curl
LATENCY=${1:-50}
OUT=scripts/bench/out/fetch
mkdir -p "$OUT"

echo "building ownerdash (release)..." >&2
swift build -c release --product ownerdash >&2
BIN=$(swift build -c release --show-bin-path)/ownerdash

python3 scripts/pms_sim --port 0 --seed 7 --dir "$OUT/sim" --latency-ms "$LATENCY" --exit-on-stdin-eof \
    > "$OUT/sim.out" 2> "$OUT/sim.err" < <(sleep 3600) &
SIM=$!
trap 'kill $SIM 2>/dev/null || true' EXIT
for _ in $(seq 100); do grep -q listening "$OUT/sim.out" 2>/dev/null && break; sleep 0.1; done
BASE=$(sed -n 's/^listening on //p' "$OUT/sim.out")
[ -n "$BASE" ] || { echo "the simulator did not start: $(cat "$OUT/sim.err")" >&2; exit 3; }
AS_OF=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['as_of'])" "$OUT/sim/truth.json")
# The simulator's report ids and stand-in keys (report_catalogue.json beside its truth) over the registry, as
# `ownerdash demo` lays them: the shipped registry carries only keys seen on RealPage.
CONFIG=$OUT/sim/report_definitions.json
python3 scripts/lib/catalogue_overlay.py report_definitions.json "$OUT/sim/report_catalogue.json" "$CONFIG"

# The environment the simulator's README lists for pointing ownerdash at it.
export OWNERDASH_REALPAGE_REPORTS_URL=$BASE/realpage/reports/v1
export OWNERDASH_REALPAGE_RPX_URL=$BASE/realpage/rpx/partner/OwnerDash/OwnerDash.svc
export OWNERDASH_YARDI_URL=$BASE/yardi/webservices
export REALPAGE_TOKEN_COMMAND="python3 scripts/pms_sim token"
export REALPAGE_RPX_LICENSE_KEY=sim-rpx-license-key
export YARDI_USERNAME=simuser YARDI_PASSWORD=simpass YARDI_SERVER_NAME=sim_sql YARDI_DATABASE=sim_voyager
export YARDI_INTERFACE_ENTITY=OwnerDash YARDI_INTERFACE_LICENSE=sim-yardi-license

requests() { curl -s "$BASE/_sim/stats" | python3 -c "import json,sys; print(json.load(sys.stdin)['requests'])"; }

declare -A FETCH LOAD REQ BYTES
for parallel in 1 8; do
    data="$OUT/data_p$parallel"
    rm -rf "$data"
    before=$(requests)
    start=$(date +%s.%N)
    "$BIN" fetch --as-of "$AS_OF" --parallel "$parallel" --data-dir "$data" --config "$CONFIG" --quiet > "$OUT/fetch_p$parallel.out" || true
    FETCH[$parallel]=$(echo "$(date +%s.%N) - $start" | bc)
    REQ[$parallel]=$(( $(requests) - before ))
    run=$(sed -n 's/^run //p' "$OUT/fetch_p$parallel.out")
    BYTES[$parallel]=$(du -sb "$data/landing/$run" | cut -f1)
    start=$(date +%s.%N)
    "$BIN" load --run "$run" --data-dir "$data" --config "$CONFIG" --quiet > /dev/null || true
    LOAD[$parallel]=$(echo "$(date +%s.%N) - $start" | bc)
done

echo
echo "## fetch + load of the simulated portfolio ($LATENCY ms per request)"
printf "| %-11s | %13s | %13s | %8s | %10s | %10s |\n" parallelism "fetch seconds" "load seconds" requests "requests/s" "MB/s"
printf "|%s|%s|%s|%s|%s|%s|\n" "-------------" "---------------" "---------------" "----------" "------------" "------------"
for parallel in 1 8; do
    awk -v p="$parallel" -v f="${FETCH[$parallel]}" -v l="${LOAD[$parallel]}" -v r="${REQ[$parallel]}" -v b="${BYTES[$parallel]}" \
        'BEGIN { printf "| %-11s | %13.2f | %13.2f | %8d | %10.1f | %10.2f |\n", p, f, l, r, r / f, b / f / 1048576 }'
done
awk -v a="${FETCH[1]}" -v b="${FETCH[8]}" 'BEGIN { printf "\nparallelism 8 fetches %.1fx faster than 1 (target >= 5x)\n", a / b }'
