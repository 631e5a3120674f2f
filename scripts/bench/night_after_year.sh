#!/usr/bin/env bash
# Whether a night still costs what it did once a year has accumulated (issue 36, "flat over the years"), without
# running the year again: the week after a `year.sh` run, beside an early week of the same weekdays, one build.
#
# The simulator is deterministic: started on the year's first day and advanced N days at once, it serves what its
# daily clock served on day N (checked on a 365-night year: 54 of its last night's 58 answers and a jumped
# simulator's were byte for byte the same; the other 4 were not fetched that night). So:
#   early  a fresh simulator from the year's first day; nights 1 .. E-1 ingested into a fresh data directory, then
#          nights E .. E+N-1 measured (E: the first night from the 8th on that falls on the late week's first
#          weekday, so that each property's weekly full ledger falls in both weeks alike);
#   late   a copy of the year's data directory, synced once first (a build's ledger marks are its own: another
#          build's first sync projects every ledger whole, which is no night's work), the simulator advanced to the
#          day after the year, and the N nights from there measured.
# Each night: ownerdash's CPU seconds and peak memory (GNU time), or with --callgrind its instructions
# (valgrind --tool=callgrind: the same count run after run on a VM whose speed drifts 10-30 %; 3 to 6 minutes a night
# for three properties). N: --nights (default 7, a week). The year's own directory is not changed.
#
#   scripts/bench/night_after_year.sh --year DIR [--nights N] [--binary FILE] [--callgrind] [--out DIR]
#       DIR: a `year.sh --out` directory (its data/ and nights.csv; its properties from DIR/properties, which year.sh
#       writes, or --properties "KEY ...");  FILE: the ownerdash to measure (default: this checkout's release build)
#
# Prints each night, both weeks' totals and late / early; callgrind files stay in OUT (default
# scripts/bench/out/night_after_year). Then, as year.sh does at its end, the late week's last night against a fresh
# full ingest of its day (every answer) and its unified.db against a full sync of the same raw data (every row):
# nights one day apart after years, which a `--step 7` year's end, where every ledger is pulled whole, never checks.
# Exit 2 when an answer or a table differs.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/ensure_packages.sh
source scripts/lib/bench_year.sh
ensure_packages libcurl4-openssl-dev libxml2-dev libsqlite3-dev zlib1g-dev libmicrohttpd-dev libssl-dev libxlsxwriter-dev libpq-dev python3 pkg-config binutils
YEAR= BINARY= CALLGRIND=0 OUT=scripts/bench/out/night_after_year PROPERTY_KEYS= NIGHTS=7
usage() {
    echo "usage: scripts/bench/night_after_year.sh --year DIR [--nights N] [--binary FILE] [--callgrind] [--properties \"KEY ...\"] [--out DIR]" >&2
    exit 1
}
while [ $# -gt 0 ]; do
    case "$1" in
        --year) YEAR=$(realpath "$2"); shift 2 ;;
        --nights) NIGHTS=$2; shift 2 ;;
        --binary) BINARY=$(realpath "$2"); shift 2 ;;
        --callgrind) CALLGRIND=1; shift ;;
        --properties) PROPERTY_KEYS=$2; shift 2 ;;
        --out) OUT=$2; shift 2 ;;
        *) usage ;;
    esac
done
[ -n "$YEAR" ] || usage
[ -d "$YEAR/data" ] && [ -f "$YEAR/nights.csv" ] || { echo "$YEAR is not a year.sh directory (no data/ or nights.csv)" >&2; exit 1; }
[ -n "$PROPERTY_KEYS" ] || PROPERTY_KEYS=$(cat "$YEAR/properties" 2>/dev/null || true)
[ -n "$PROPERTY_KEYS" ] || { echo "$YEAR/properties is missing: name the year's properties with --properties \"KEY ...\"" >&2; exit 1; }
[ "$CALLGRIND" -eq 0 ] || ensure_packages valgrind
rm -rf "$OUT"; mkdir -p "$OUT"
copy_bench_binary "$OUT" release "$BINARY"
SELECT=(); for key in $PROPERTY_KEYS; do SELECT+=(--property "$key"); done
# The raw databases remember which build decoded each list and each household of a whole ledger, and copy or hold
# only what this very build decoded: another build's late week first decodes whole what the year's would copy (on
# 2026-12-03 its first three nights 20.3, 16.4 and 15.3 s of CPU against 11.1-13.6 s after), which no early week pays.
build_id() { readelf -n "$1" 2>/dev/null | sed -n 's/.*Build ID: //p'; }
if [ -f "$YEAR/ownerdash" ] && [ "$(build_id "$YEAR/ownerdash")" != "$(build_id "$BIN")" ]; then
    echo "note: $BIN is not the build that ran the year ($YEAR/ownerdash): the late week's first nights decode whole what the year's build decoded (its lists and ledgers); for a week like the early one, --binary $YEAR/ownerdash" >&2
fi

# The year's first and last nights, the day after it, and the early night that falls on that day's weekday.
read -r START LAST LATE EARLY_NIGHT < <(python3 - "$YEAR/nights.csv" <<'PY'
import csv, datetime, sys
nights = list(csv.DictReader(open(sys.argv[1])))
start = datetime.date.fromisoformat(nights[0]["as_of"]); last = datetime.date.fromisoformat(nights[-1]["as_of"])
late = last + datetime.timedelta(days=1)
early = next(n for n in range(8, 15) if (start + datetime.timedelta(days=n - 1)).weekday() == late.weekday())
print(start, last, late, early)
PY
)

SIM=
trap stop_bench_simulator EXIT
bench_simulator_credentials
simulator() {   # simulator DIR: a fresh simulator from START, its endpoints exported
    stop_bench_simulator
    mkdir -p "$1"
    start_bench_simulator "$1" "$START"
    bench_simulator_sources "$BASE"
}
advance() {   # advance DAYS: the simulator's new date
    curl -sf -X POST "$BASE/_sim/advance?days=$1" | python3 -c "import json,sys; print(json.load(sys.stdin)['as_of'])"
}
ingest() {    # ingest DATA DAY [NAME]: one night, measured into OUT/NAME.measure when named
    local data=$1 day=$2 name=${3:-} code=0
    if [ -z "$name" ]; then
        OWNERDASH_CLOCK="${day}T02:30:00Z" "$BIN" ingest "${SELECT[@]}" --as-of "$day" --config "$CONFIG_FILE" \
            --data-dir "$data" --quiet > /dev/null 2>&1 || code=$?
    elif [ "$CALLGRIND" -eq 1 ]; then
        OWNERDASH_CLOCK="${day}T02:30:00Z" valgrind --tool=callgrind --callgrind-out-file="$OUT/$name.callgrind" \
            "$BIN" ingest "${SELECT[@]}" --as-of "$day" --config "$CONFIG_FILE" --data-dir "$data" --quiet \
            > "$OUT/$name.out" 2> "$OUT/$name.err" || code=$?
        sed -n 's/.*Collected : \([0-9]*\).*/\1 0/p' "$OUT/$name.err" > "$OUT/$name.measure"
    else
        OWNERDASH_CLOCK="${day}T02:30:00Z" /usr/bin/time -f "%U %S %M" -o "$OUT/$name.time" \
            "$BIN" ingest "${SELECT[@]}" --as-of "$day" --config "$CONFIG_FILE" --data-dir "$data" --quiet \
            > "$OUT/$name.out" 2> "$OUT/$name.err" || code=$?
        awk '/^[0-9.]+ [0-9.]+ [0-9]+$/ { printf "%.2f %d\n", $1 + $2, $3 }' "$OUT/$name.time" > "$OUT/$name.measure"
    fi
    # Exit 2: an item failed (the simulator serves a report as a PDF now and then); the night still synced.
    [ "$code" -le 2 ] || { echo "the ingest of $day failed (exit $code)" >&2; exit 3; }
    echo "$day" > "$OUT/${name:-unmeasured}.day"
}

echo "early: nights 1-$((EARLY_NIGHT - 1)) from $START into a fresh directory, then $NIGHTS measured ..." >&2
simulator "$OUT/early"
day=$START
for night in $(seq 1 $((EARLY_NIGHT + NIGHTS - 1))); do
    [ "$night" -eq 1 ] || day=$(advance 1)
    if [ "$night" -lt "$EARLY_NIGHT" ]; then ingest "$OUT/early/data" "$day"; else ingest "$OUT/early/data" "$day" "early-$night"; fi
done

echo "late: the year's data after $LAST, synced once by this build, then the $NIGHTS nights from $LATE measured ..." >&2
simulator "$OUT/late"
cp -a "$YEAR/data" "$OUT/late/data"
rm -f "$OUT/late/data/ingest.lock"
"$BIN" sync --config "$CONFIG_FILE" --data-dir "$OUT/late/data" --quiet > /dev/null 2>&1 || true
day=$(advance "$(python3 -c "import datetime as d, sys; print((d.date.fromisoformat(sys.argv[2]) - d.date.fromisoformat(sys.argv[1])).days)" "$START" "$LATE")")
[ "$day" = "$LATE" ] || { echo "the simulator reached $day, not $LATE" >&2; exit 3; }
for night in $(seq 1 "$NIGHTS"); do
    [ "$night" -eq 1 ] || day=$(advance 1)
    ingest "$OUT/late/data" "$day" "late-$night"
done
# Nights after years, one a day: what a stride year's end (every ledger pulled whole) cannot check.
echo "late: a fresh full ingest of $day to compare ..." >&2
OWNERDASH_CLOCK="${day}T02:30:00Z" bench_fresh_ingest "$OUT/late/data" "$day" "$OUT/late"
stop_bench_simulator

echo "## $NIGHTS night(s) after a year of $(($(wc -l < "$YEAR/nights.csv") - 1)) nights ($PROPERTY_KEYS), $( [ "$CALLGRIND" -eq 1 ] && echo "instructions" || echo "CPU seconds, peak memory")"
python3 - "$OUT" "$EARLY_NIGHT" "$NIGHTS" "$CALLGRIND" <<'PY'
import sys
out, first, nights, callgrind = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
def show(value, peak=None):
    return f"{value / 1e6:,.0f} M instructions" if callgrind else f"{value:.2f} s CPU" + (f", peak {peak // 1024} MB" if peak else "")
def week(side, numbers):
    total = 0.0
    for n in numbers:
        value, peak = open(f"{out}/{side}-{n}.measure").read().split()
        day = open(f"{out}/{side}-{n}.day").read().strip()
        print(f"  {side} night {n} ({day}): {show(float(value), int(peak))}")
        total += float(value)
    return total
early = week("early", range(first, first + nights))
late = week("late", range(1, nights + 1))
print(f"early nights {first}-{first + nights - 1}: {show(early)}; the {nights} after the year: {show(late)}")
print(f"late / early: {late / early:.3f}")
PY
bench_compare "$OUT/late" "$OUT/late/data" "$day" "$NIGHTS nights after the year"
