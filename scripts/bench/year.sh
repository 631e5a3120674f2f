#!/usr/bin/env bash
# A scripted year of nightly runs (issue 18, "Prove it"): the simulator's property date advances one day per night
# with churn (move-ins, move-outs, payments, a late posting every night, a reversal every 7th day, a correction to
# a 4-month-old charge every 30th: scripts/pms_sim/clock.py), `ownerdash ingest` runs each night on a simulated
# clock (OWNERDASH_CLOCK: run ids and prune count simulated nights), `ownerdash prune` after it (14 days, 12 months,
# no wall-clock grace), one night in the middle fails (every source unreachable). Then a fresh data directory
# ingests the last day in full and every answer is compared.
#
#   scripts/bench/year.sh [--days N] [--properties K] [--step D] [--release] [--out DIR] [--binary FILE] [--resume]
#                         [--postgres]
#                                               (default: 365 nights, 30 properties, debug build, scripts/bench/out/year;
#                                                --binary: that ownerdash instead of this checkout's build, to compare two;
#                                                --step D: the simulator advances D days between nights, default 1:
#                                                `--days 53 --step 7` accumulates a year's history in 53 nights, for
#                                                scripts/bench/night_after_year.sh to measure the week after it)
#   touch DIR/stop                              ends the year after the night under way; the comparison still runs
#   --resume                                    goes on with the year in --out DIR after its last night (a year stopped
#                                               with DIR/stop, or cut short): the same binary (DIR/ownerdash, unless
#                                               --binary), properties and data; the simulator starts again from the
#                                               first day and is advanced to the last night's, which gives the same
#                                               world (its churn is drawn from the seed and the day). Give the --days
#                                               and --step of the first run.
#   --postgres                                  each night's ingest and prune also publish to a throwaway PostgreSQL 15 cluster
#                                               (`--database-url`, scripts/lib/pg_test_cluster.sh; not with --resume):
#                                               at the end a reader's answers from the server are compared with the
#                                               year's own, and the server's rows (the reader's mirror) with unified.db,
#                                               every table both hold at every date (unified_compare.py --every-date);
#                                               two nights after the failed one the server refuses every write to
#                                               unified_properties (a trigger), so that night syncs on the host and
#                                               fails every publication, and the nights after it must bring the server
#                                               up to date
#
# K properties: the first K of the registry, Yardi ones interleaved (K=3: kalaco, yp_riverwalk, 7_east).
# Prints: disk of the landing zone and the databases after each 30 nights; the first night's time and the average of
# the others, as wall time (which includes the simulator building every report it serves) and as ownerdash's own CPU
# seconds and peak memory (GNU time), the simulator's CPU seconds during the ingest, the nightly prune's CPU seconds,
# and over 60 nights or more those of the last 30 nights against nights 2-31; whether every `query` of the
# last day (summary, occupancy, exposure, pricing, delinquency, funnel, activity), `report debtors`, `rental-tracker`,
# `lease-status`, `maintenance`, `expenses` and a fresh `audit run` give the same answers as the fresh full ingest
# (run ids and timestamps left out; scripts/bench/year_compare.py: history the nightly kept is shown, not a difference).
# Then the year's unified.db, written night by night by change, against a full sync of the same raw data into a
# fresh unified.db, row for row (scripts/bench/unified_compare.py).
# Exit 2 when an answer or a table differs.
set -euo pipefail
# bash reads a script while it runs it: the hour-long run runs from a copy, so an edit to year.sh cannot derail it.
if [ -z "${YEAR_SH_ORIGINAL:-}" ]; then
    copy=$(mktemp /tmp/year.sh.XXXXXX)
    cp "$0" "$copy"
    YEAR_SH_ORIGINAL="$(cd "$(dirname "$0")" && pwd)/$(basename "$0")" exec bash "$copy" "$@"
fi
cd "$(dirname "$YEAR_SH_ORIGINAL")/../.."
source scripts/lib/ensure_packages.sh
source scripts/lib/bench_year.sh
ensure_packages libcurl4-openssl-dev libxml2-dev libsqlite3-dev zlib1g-dev libmicrohttpd-dev libssl-dev libxlsxwriter-dev libpq-dev python3 pkg-config
DAYS=365 PROPERTIES=30 CONFIG=debug OUT=scripts/bench/out/year BINARY= STEP=1 RESUME=0 POSTGRES=0
while [ $# -gt 0 ]; do
    case "$1" in
        --days) DAYS=$2; shift 2 ;;
        --properties) PROPERTIES=$2; shift 2 ;;
        --step) STEP=$2; shift 2 ;;
        --release) CONFIG=release; shift ;;
        --out) OUT=$2; shift 2 ;;
        --binary) BINARY=$(realpath "$2"); shift 2 ;;
        --resume) RESUME=1; shift ;;
        --postgres) POSTGRES=1; shift ;;
        *) echo "usage: scripts/bench/year.sh [--days N] [--properties K] [--step D] [--release] [--out DIR] [--binary FILE] [--resume] [--postgres]" >&2; exit 1 ;;
    esac
done
START=2026-11-20
FIRST=1   # the first night this run makes
if [ "$RESUME" = 1 ]; then
    [ -s "$OUT/nights.csv" ] && [ -s "$OUT/properties" ] && [ -x "$OUT/ownerdash" ] && [ -d "$OUT/data" ] ||
        { echo "year.sh --resume: $OUT holds no year run (nights.csv, properties, ownerdash, data)" >&2; exit 1; }
    rm -f "$OUT/stop"
    if [ -n "$BINARY" ]; then cp "$BINARY" "$OUT/ownerdash"; fi
    BIN=$OUT/ownerdash
    IFS=, read -r LAST_NIGHT LAST_DAY _ < <(tail -n 1 "$OUT/nights.csv")
    [ "$LAST_NIGHT" -lt "$DAYS" ] || { echo "year.sh --resume: $OUT already ran $LAST_NIGHT of $DAYS nights" >&2; exit 1; }
    FIRST=$((LAST_NIGHT + 1))
else
    rm -rf "$OUT"; mkdir -p "$OUT"
    copy_bench_binary "$OUT" "$CONFIG" "$BINARY"
fi
FAIL_NIGHT=$(( (DAYS + 1) / 2 )); [ "$DAYS" -ge 3 ] || FAIL_NIGHT=0   # a failed night needs nights around it

SIM=
PUBLISH=() UNPUBLISHED_NIGHT=0   # --postgres: where each night publishes, and the night it cannot
trap 'stop_bench_simulator; [ "$POSTGRES" = 0 ] || pg_test_cluster_stop; rm -f "$0"' EXIT
start_bench_simulator "$OUT" "$START"
if [ "$POSTGRES" = 1 ]; then
    [ "$RESUME" = 0 ] || { echo "year.sh: --postgres starts a new server; it cannot go on with a year (--resume)" >&2; exit 1; }
    ensure_packages postgresql-15
    source scripts/lib/pg_test_cluster.sh
    pg_test_cluster_start
    PUBLISH=(--database-url "$OWNERDASH_TEST_DATABASE_URL")
    UNPUBLISHED_NIGHT=$((FAIL_NIGHT + 2)); [ "$FAIL_NIGHT" -gt 0 ] && [ "$UNPUBLISHED_NIGHT" -lt "$DAYS" ] || UNPUBLISHED_NIGHT=0
    echo "year: publishing to $OWNERDASH_TEST_DATABASE_URL; night $UNPUBLISHED_NIGHT every publication fails (0: none)" >&2
fi
refuse_publications() {   # refuse_publications on|off: the server refuses (or takes again) every property's publication
    if [ "$1" = on ]; then
        psql "$OWNERDASH_TEST_DATABASE_URL" -q \
            -c "CREATE FUNCTION year_refuse() RETURNS trigger LANGUAGE plpgsql AS \$\$ BEGIN RAISE EXCEPTION 'year.sh: this night refuses publications'; END \$\$" \
            -c "CREATE TRIGGER year_refuse BEFORE INSERT OR UPDATE OR DELETE ON unified_properties FOR EACH STATEMENT EXECUTE FUNCTION year_refuse()"
    else
        psql "$OWNERDASH_TEST_DATABASE_URL" -q -c "DROP TRIGGER year_refuse ON unified_properties" -c "DROP FUNCTION year_refuse()"
    fi
}

bench_simulator_credentials

advanced_to() {   # the property date an /_sim/advance answer (a file) reached
    python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['as_of'])" "$1"
}
if [ "$RESUME" = 1 ]; then
    read -r -a KEYS < "$OUT/properties"
    # The world of the last night, then the next night's: the churn of every day between, as the nights applied it.
    echo "year: resuming after night $LAST_NIGHT ($LAST_DAY); advancing the simulator to it ..." >&2
    curl -s -X POST "$BASE/_sim/advance?days=$(( (LAST_NIGHT - 1) * STEP ))" > "$OUT/advance_resume.json"
    reached=$(advanced_to "$OUT/advance_resume.json")
    [ "$reached" = "$LAST_DAY" ] || { echo "year.sh --resume: the simulator reached $reached, not $LAST_DAY (another --step?)" >&2; exit 1; }
    curl -s -X POST "$BASE/_sim/advance?days=$STEP" > "$OUT/advance_$LAST_NIGHT.json"
else
mapfile -t KEYS < <(python3 - "$PROPERTIES" <<'EOF'
import json, sys
props = json.load(open("report_definitions.json"))["properties"]
rp = [p["key"] for p in props if p["pms"] == "realpage"]
ya = [p["key"] for p in props if p["pms"] == "yardi"]
out = []
while len(out) < int(sys.argv[1]) and (rp or ya):
    for side in (rp, ya, rp):
        if side and len(out) < int(sys.argv[1]):
            out.append(side.pop(0))
print("\n".join(out))
EOF
)
echo "${KEYS[*]}" > "$OUT/properties"   # for scripts/bench/night_after_year.sh and --resume
fi
SELECT=(); for k in "${KEYS[@]}"; do SELECT+=(--property "$k"); done
DATA=$OUT/data
bytes() { du -sb "$@" 2>/dev/null | awk '{ s += $1 } END { print s + 0 }'; }
databases() { bytes "$DATA"/*.db "$DATA"/*.db-wal; }

echo "year: $DAYS night(s) of ${#KEYS[@]} propert(ies) from $START (${KEYS[*]}), night $FAIL_NIGHT fails (0: none)" >&2
[ "$RESUME" = 1 ] ||
    printf "night,as_of,exit,seconds,landing_bytes,database_bytes,cpu_seconds,peak_kb,sim_cpu_seconds,prune_cpu_seconds\n" > "$OUT/nights.csv"
sim_cpu() {   # the simulator's CPU seconds so far (utime + stime of its process, in clock ticks)
    awk -v hz="$(getconf CLK_TCK)" '{ sub(/^.*\) /, ""); printf "%.2f", ($12 + $13) / hz }' "/proc/$SIM/stat"
}
day=$START
[ "$RESUME" = 1 ] && day=$(advanced_to "$OUT/advance_$LAST_NIGHT.json")
for night in $(seq "$FIRST" "$DAYS"); do
    export OWNERDASH_CLOCK="${day}T02:30:00Z"
    # The failed night: a port nothing listens on.
    if [ "$night" -eq "$FAIL_NIGHT" ]; then bench_simulator_sources http://127.0.0.1:9; else bench_simulator_sources "$BASE"; fi
    [ "$night" -ne "$UNPUBLISHED_NIGHT" ] || refuse_publications on
    start=$(date +%s.%N)
    sim_before=$(sim_cpu)
    code=0
    /usr/bin/time -f "%U %S %M" -o "$OUT/time_$night" \
        "$BIN" ingest "${SELECT[@]}" --as-of "$day" --config "$CONFIG_FILE" --data-dir "$DATA" "${PUBLISH[@]}" --quiet \
        > "$OUT/ingest_$night.out" 2> "$OUT/ingest_$night.err" || code=$?
    seconds=$(echo "$(date +%s.%N) - $start" | bc)
    [ "$night" -ne "$UNPUBLISHED_NIGHT" ] || refuse_publications off
    read -r cpu peak < <(bench_time "$OUT/time_$night")
    # The night's prune, timed too: it is part of an operator's night (it once grew by a month every month).
    /usr/bin/time -f "%U %S" -o "$OUT/prune_time_$night" \
        "$BIN" prune --keep-days 14 --keep-monthly 12 --grace-hours 0 --data-dir "$DATA" "${PUBLISH[@]}" > "$OUT/prune_$night.out" 2>&1 || true
    read -r prune_cpu _ < <(bench_time "$OUT/prune_time_$night")
    printf "%d,%s,%d,%.2f,%d,%d,%.2f,%d,%.2f,%.2f\n" "$night" "$day" "$code" "$seconds" "$(bytes "$DATA/landing")" "$(databases)" \
        "$cpu" "$peak" "$(echo "$(sim_cpu) - $sim_before" | bc)" "$prune_cpu" >> "$OUT/nights.csv"
    echo "night $night ($day): exit $code, ${seconds}s" >&2
    if [ "$night" -eq 1 ]; then
        # The issue's "unchanged property": the same day ingested again, nothing changed at the source since.
        start=$(date +%s.%N)
        /usr/bin/time -f "%U %S %M" -o "$OUT/time_unchanged" \
            "$BIN" ingest "${SELECT[@]}" --as-of "$day" --config "$CONFIG_FILE" --data-dir "$DATA" "${PUBLISH[@]}" --quiet \
            > "$OUT/ingest_unchanged.out" 2> "$OUT/ingest_unchanged.err" || true
        seconds=$(echo "$(date +%s.%N) - $start" | bc)
        read -r cpu _ < <(bench_time "$OUT/time_unchanged")
        printf "%.2f,%.2f\n" "$seconds" "$cpu" > "$OUT/unchanged.csv"
    fi
    [ "$night" -lt "$DAYS" ] || break
    if [ -e "$OUT/stop" ]; then echo "stopped after night $night ($OUT/stop)" >&2; break; fi
    curl -s -X POST "$BASE/_sim/advance?days=$STEP" > "$OUT/advance_$night.json"
    day=$(advanced_to "$OUT/advance_$night.json")
done
LAST=$day
NIGHTS=$night   # fewer than DAYS when the year was stopped
[ "$FAIL_NIGHT" -le "$NIGHTS" ] || FAIL_NIGHT=0   # stopped before its failed night

# A fresh data directory ingests the last day in full: every answer must be the same (compared at the end).
bench_simulator_sources "$BASE"
FRESH=$OUT/fresh
bench_fresh_ingest "$DATA" "$LAST" "$OUT"

echo
echo "## A year of nightly ingests: $NIGHTS night(s), ${#KEYS[@]} propert(ies), prune on, night $FAIL_NIGHT failed"
echo
echo "| after night | as of | landing | databases |"
echo "|---|---|---|---|"
awk -F, -v days="$NIGHTS" 'NR > 1 && (($1 % 30) == 0 || $1 == 1 || $1 == days) {
    printf "| %d | %s | %.1f MB | %.1f MB |\n", $1, $2, $5 / 1048576, $6 / 1048576 }' "$OUT/nights.csv"
awk -F, -v fail="$FAIL_NIGHT" 'NR == 2 { first = $4; cpu = $7; peak = $8; sim = $9 }
    NR > 2 && $1 != fail && $1 != fail + 1 { sum += $4; cpusum += $7; simsum += $9; n++; if ($8 > top) top = $8 }
    END { if (n > 0) {
              printf "\nfirst night %.1f s wall, %.1f s ownerdash CPU; the others (but the failed night and the one after it) %.1f s wall (%.0f%% of the first), %.2f s CPU (%.1f%% of the first) on average\n", first, cpu, sum / n, 100 * sum / n / first, cpusum / n, 100 * cpusum / n / cpu
              printf "peak memory of ownerdash: %.0f MB the first night, %.0f MB at most after it\n", peak / 1024, top / 1024
              printf "the simulator building what a night fetches: %.1f s CPU the first night, %.1f s on average after it\n", sim, simsum / n }
          else printf "\nfirst night %.1f s\n", first }' "$OUT/nights.csv"
# Flat over the year (issue 36): churned nights and the prune by 30-night stretch, the last 30 against nights 2-31.
python3 - "$OUT/nights.csv" "$FAIL_NIGHT" <<'PY'
import csv, sys
rows = [r for r in csv.DictReader(open(sys.argv[1])) if r["night"] != "1"]
fail = int(sys.argv[2])
rows = [r for r in rows if int(r["night"]) not in (fail, fail + 1)]
def mean(rs, key):
    return sum(float(r[key]) for r in rs) / len(rs)
if len(rows) >= 60:
    early, late = rows[:30], rows[-30:]
    for key, what in (("cpu_seconds", "churned nights' ownerdash CPU"), ("sim_cpu_seconds", "the simulator's CPU"),
                      ("prune_cpu_seconds", "the nightly prune's CPU")):
        if key not in rows[0]:
            continue   # a nights.csv from before the prune was timed
        a, b = mean(early, key), mean(late, key)
        print("%s: %.2f s over nights %s-%s, %.2f s over the last 30 (%s-%s): %+.1f %%" % (
            what, a, early[0]["night"], early[-1]["night"], b, late[0]["night"], late[-1]["night"],
            100 * (b - a) / a if a else 0))
PY
awk -F, 'NR == FNR { wall = $1; cpu = $2; next } FNR == 2 {
    printf "an unchanged night (the first day ingested again, nothing changed at the source): %.1f s wall (%.0f%% of the first), %.2f s CPU (%.1f%% of the first)\n", wall, 100 * wall / $4, cpu, 100 * cpu / $7 }' \
    "$OUT/unchanged.csv" "$OUT/nights.csv"
# The ratio above divides by a first night measured hours earlier, and this VM's speed drifts: the last night against
# the fresh full ingest of its day, timed minutes after it (scripts/bench/replay_night.sh --paired measures pairs too);
# not with --postgres, where each night also publishes and the fresh ingest does not, nor when the last night is the
# failed one or the one after it (two nights' change).
LAST_MEASURED=$(tail -n 1 "$OUT/nights.csv" | cut -d, -f1)
[ ${#PUBLISH[@]} -gt 0 ] || [ "$LAST_MEASURED" -eq "$FAIL_NIGHT" ] || [ "$LAST_MEASURED" -eq $((FAIL_NIGHT + 1)) ] ||
    bench_paired_share "$OUT" "$OUT/nights.csv" "$LAST_MEASURED"
python3 - "$DATA" <<'PY'
import sqlite3, sys
total = unchanged = 0
for name, key in (("realpage_raw.db", "report_type"), ("yardi_raw.db", "operation")):
    try:
        db = sqlite3.connect("file:%s/%s?mode=ro" % (sys.argv[1], name), uri=True)
        rows = db.execute("SELECT count(*), count(stored_as_of) FROM loaded_artifacts l WHERE as_of_date = "
                          "(SELECT max(as_of_date) FROM loaded_artifacts)").fetchone()
    except sqlite3.Error:
        continue
    total += rows[0]; unchanged += rows[1]
print("last night: %d of %d snapshots recorded unchanged (not stored again)" % (unchanged, total))
PY
printf "fresh full ingest of the last day: landing %.1f MB, databases %.1f MB\n" \
    "$(echo "$(bytes "$FRESH/landing") / 1048576" | bc -l)" "$(echo "$(bytes "$FRESH"/*.db "$FRESH"/*.db-wal) / 1048576" | bc -l)"
status=0
bench_compare "$OUT" "$DATA" "$LAST" "$NIGHTS nights" || status=$?
[ "$POSTGRES" = 0 ] || bench_compare_server "$OUT" "$DATA" "$LAST" "${PUBLISH[1]}" || status=2
exit $status
