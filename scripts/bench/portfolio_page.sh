#!/usr/bin/env bash
# Benchmark: the served dashboard's pages on a data directory, by size and server time.
#
#   scripts/bench/portfolio_page.sh DATA_DIR [OWNERDASH_BINARY] [--times N]
#
# Starts `ownerdash serve --no-sign-in` on loopback over DATA_DIR (its unified.db read-only, nothing written), asks
# each page N times (default 5) with curl and prints, per page, its size in bytes and the time to its first byte:
# the first request (the portfolio table read from unified.db), then the median and the fastest of the rest (the
# table kept for the run). On loopback the first byte leaves once the page is built, so that time is the server's.
# The pages: / (the portfolio page), /?page=5, /?sort=occupancy&order=desc, /?q=0042, /property/<first key>,
# /data-dates. The binary defaults to the release build (swift build -c release). Use a copy of a unified.db written
# by an older build: a newer binary refuses it until `ownerdash sync` migrates it.
set -euo pipefail
cd "$(dirname "$0")/../.."

[ $# -ge 1 ] || { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 1; }
DATA=$1; shift
BIN=""
TIMES=5
while [ $# -gt 0 ]; do
    case $1 in
        --times) TIMES=$2; shift 2;;
        *) BIN=$1; shift;;
    esac
done
BIN=${BIN:-$(swift build -c release --show-bin-path)/ownerdash}
[ -s "$DATA/unified.db" ] || { echo "portfolio_page.sh: no $DATA/unified.db" >&2; exit 1; }
[[ $TIMES =~ ^[0-9]+$ && $TIMES -ge 2 ]] || { echo "portfolio_page.sh: --times must be 2 or more" >&2; exit 1; }
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
KEY=$(python3 -c "import sqlite3, sys; print(sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True).execute('SELECT min(unified_property_id) FROM unified_properties').fetchone()[0])" "$DATA/unified.db")

"$BIN" serve --no-sign-in --listen "127.0.0.1:$PORT" --data-dir "$DATA" --quiet &
SERVE=$!
trap 'kill $SERVE 2>/dev/null || true' EXIT
for _ in $(seq 1 100); do curl -fs "http://127.0.0.1:$PORT/healthz" >/dev/null 2>&1 && break; sleep 0.1; done

printf '%-32s %10s %10s %10s %10s\n' page bytes "first ms" "median ms" "best ms"
for page in "/" "/?page=5" "/?sort=occupancy&order=desc" "/?q=0042" "/property/$KEY" "/data-dates"; do
    times=()
    bytes=0
    for i in $(seq 1 "$TIMES"); do
        read -r code size ttfb < <(curl -s -o /dev/null -w '%{http_code} %{size_download} %{time_starttransfer}\n' "http://127.0.0.1:$PORT$page")
        [ "$code" = 200 ] || { echo "portfolio_page.sh: $page answered $code" >&2; exit 1; }
        bytes=$size
        times+=("$(awk -v t="$ttfb" 'BEGIN { printf "%.1f", t * 1000 }')")
    done
    rest=$(printf '%s\n' "${times[@]:1}" | sort -n)
    median=$(awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }' <<<"$rest")
    best=$(head -1 <<<"$rest")
    printf '%-32s %10s %10s %10s %10s\n' "$page" "$bytes" "${times[0]}" "$median" "$best"
done
