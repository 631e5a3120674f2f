#!/usr/bin/env bash
# The delinquency forecast's rolling backtest on the simulator's year (issue 38): the portfolio of
# scripts/bench/year.sh (seed 7, property date 2026-11-20, all 30 properties), its clock advanced N days with churn
# (scripts/pms_sim/clock.py: each day's move-ins and move-outs, the month's rent on the 1st, "late" households paying
# on the 6th to 15th, "behind" ones paying everything they owe on the 8th to 17th or, three months in ten, nothing),
# one `ownerdash ingest` of the last day, then `ownerdash forecast backtest` twice: over every month end, and over
# the month ends of the clock alone (`--from`: the months the start-up world's habits did not write).
#
#   scripts/bench/forecast.sh [--days N] [--release] [--out DIR] [--binary FILE]
#                                   (default: 365 days, debug build, scripts/bench/out/forecast; --binary: that
#                                    ownerdash instead of this checkout's build)
#
# Why one ingest and not one a night as year.sh does: the backtest reads only the ledgers as the PMS shows them on
# the last day, the clock draws every day's churn from the seed and the day alone (advancing 365 days at once is the
# same world as 365 advances of one), and year.sh shows a year of nightly ingests answers exactly what a fresh full
# ingest of its last day does. So the year takes minutes instead of hours (6 on 2 cores, debug build). Prints the
# two backtests' figures as markdown tables and keeps their JSON in DIR. The clock's first month end (2026-11-30) is
# predicted once its next has come: 41 days at least, each later month end a month more (the ledgers already hold
# the 24 months before the clock to train on).
set -euo pipefail
# bash reads a script while it runs it: the run goes on from a copy, so an edit to forecast.sh cannot derail it.
if [ -z "${FORECAST_SH_ORIGINAL:-}" ]; then
    copy=$(mktemp /tmp/forecast.sh.XXXXXX)
    cp "$0" "$copy"
    FORECAST_SH_ORIGINAL="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")" exec bash "$copy" "$@"
fi
rm -f "$0"
cd "$(dirname "$FORECAST_SH_ORIGINAL")/../.."
source scripts/lib/ensure_packages.sh
source scripts/lib/bench_year.sh
ensure_packages libcurl4-openssl-dev libxml2-dev libsqlite3-dev zlib1g-dev libmicrohttpd-dev libssl-dev libxlsxwriter-dev \
    libpq-dev libxgboost-dev python3 pkg-config
DAYS=365 CONFIG=debug OUT=scripts/bench/out/forecast BINARY=
while [ $# -gt 0 ]; do
    case "$1" in
        --days) DAYS=$2; shift 2 ;;
        --release) CONFIG=release; shift ;;
        --out) OUT=$2; shift 2 ;;
        --binary) BINARY=$(realpath "$2"); shift 2 ;;
        -h|--help) sed -n '2,19p' "$FORECAST_SH_ORIGINAL" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "usage: scripts/bench/forecast.sh [--days N] [--release] [--out DIR] [--binary FILE]" >&2; exit 1 ;;
    esac
done
case "$DAYS" in ''|*[!0-9]*) echo "forecast.sh: --days must be a whole number of days, not \"$DAYS\"" >&2; exit 1 ;; esac
rm -rf "$OUT"; mkdir -p "$OUT"
copy_bench_binary "$OUT" "$CONFIG" "$BINARY"
START=2026-11-20

SIM=
trap stop_bench_simulator EXIT
start_bench_simulator "$OUT" "$START"
bench_simulator_sources "$BASE"
bench_simulator_credentials

started=$(date +%s)
echo "advancing the simulator's clock $DAYS day(s) from $START ..." >&2
curl -sf -X POST "$BASE/_sim/advance?days=$DAYS" > "$OUT/advance.json"
LAST=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['as_of'])" "$OUT/advance.json")
echo "ingesting the portfolio on $LAST ..." >&2
# Exit 2 (some items failed: the simulator serves a report as a PDF now and then) still synced every property it
# could; the backtest names any property without a ledger.
code=0
OWNERDASH_CLOCK="${LAST}T02:30:00Z" "$BIN" ingest --as-of "$LAST" --config "$CONFIG_FILE" --data-dir "$OUT/data" --quiet \
    > "$OUT/ingest.out" 2> "$OUT/ingest.err" || code=$?
[ "$code" -le 2 ] || { echo "the ingest failed (exit $code): $(tail -n 3 "$OUT/ingest.err")" >&2; exit 3; }
sed -n 's/^synced /ingest: synced /p' "$OUT/ingest.out" >&2
stop_bench_simulator

# The first month end the clock wrote: its month's postings after START are the clock's (the days before it are the
# start-up world's), and its outcome, the next month end, is the clock's entirely.
CLOCK_FROM=$(python3 -c "
import datetime as d, sys
t = d.date.fromisoformat(sys.argv[1])
n = d.date(t.year + (t.month == 12), t.month % 12 + 1, 1)
print(n - d.timedelta(days=1))" "$START")
for scope in all clock; do
    from=(); [ "$scope" = all ] || from=(--from "$CLOCK_FROM")
    "$BIN" forecast backtest "${from[@]}" --format json --data-dir "$OUT/data" > "$OUT/backtest_$scope.json" 2> "$OUT/backtest_$scope.err" \
        || { echo "forecast backtest ${from[*]} failed: $(tail -n 3 "$OUT/backtest_$scope.err")" >&2; exit 3; }
done
echo "done in $(( $(date +%s) - started )) s (advance, ingest and two backtests)" >&2

python3 - "$OUT" "$START" "$LAST" "$CLOCK_FROM" <<'PY'
import json, sys
out, start, last, clock_from = sys.argv[1:]
for scope, title in (("all", "every month end of the ledgers"), ("clock", "the month ends from %s on (the clock's)" % clock_from)):
    answer = json.load(open("%s/backtest_%s.json" % (out, scope)))
    months = answer["months"]
    print()
    print("## Backtest on the simulator's year (seed 7, %s advanced to %s): %s" % (start, last, title))
    print()
    print("%d month ends predicted, %s to %s; %s household forecasts, %s behind at the next month end; forecast_passes: %s"
          % (len(months), months[0]["month_end"], months[-1]["month_end"], f'{sum(m["households"] for m in months):,}',
             f'{sum(m["behind_next_month"] for m in months):,}', str(answer["parameters"]["forecast_passes"]).lower()))
    print()
    print("| model | ROC AUC | Brier | top 10 % catch of next month's over-30 dollars |")
    print("|---|---|---|---|")
    for row in answer["rows"]:
        print("| %s | %.4f | %.4f | %.2f %% |" % (row["model"], row["roc_auc"], row["brier"], row["top_10pct_dollars_pct"]))
PY
