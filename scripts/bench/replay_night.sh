#!/usr/bin/env bash
# The night after a year.sh run, replayed as often as asked, each time over a fresh copy of the run's data directory:
# the tool behind a churned night's profile (docs/contributors.md, "Where a churned night goes"). The simulator is
# started again and advanced to the day after the run's last night, which gives the same world as a year that went on
# (its churn is drawn from the seed and the day); ownerdash is the run's own (DIR/ownerdash) unless --binary, and only
# a build that ran the nights before should be measured: a new build voids every ledger mark (the sync's rules name the
# build), so its first night projects and compares every ledger whole.
#
#   scripts/bench/replay_night.sh --year DIR [--runs N] [--binary FILE] [--out DIR] [--perf] [--sql-profile]
#                                 [--without-refresh | --refresh-share] [--first-night | --paired] [--keep-data]
#                                 [--wrap 'COMMAND ...']
#     --runs N            replays the night N times (default 1)
#     --perf              records each replay with `perf record -F 250 --call-graph dwarf` (OUT/run_I_MODE/perf.data)
#     --sql-profile       each sync statement's thread CPU in OUT/run_I_MODE/ingest.err (OWNERDASH_SQL_PROFILE_MS=0)
#     --without-refresh   holds off the weekly whole ledgers (OWNERDASH_LEDGER_FULL_REFRESH_DAYS=1000)
#     --refresh-share     each run twice, with and then without them, to read what the weekly refresh costs the night
#     --first-night       replays the run's first night instead (its first day into an empty data directory): with
#                         --perf, the profile a churned night's is a share of
#     --paired            each run replays the first night too, just before the night after the year, and the share is
#                         of that replay: the two measured side by side, so that a machine faster or slower than on the
#                         year's first night (a shared VM's speed drifts by half from one day to the next) leaves the
#                         ratio alone; ends with the median of the runs' shares (not with --perf)
#     --keep-data         keeps each replay's data directory (OUT/run_I_MODE/data, a copy of the year's: some 0.9 GB
#                         after 8 nights of the 30), which is otherwise removed once the replay is measured
#     --wrap 'COMMAND ...' runs ownerdash under COMMAND (split on blanks, the replay's command line after it): `strace
#                         -f -c -o FILE` for its system calls, `perf record -e page-faults -g -o FILE --` for where it
#                         touches new memory, `gdb -batch -x FILE --args` for who calls what (not with --perf)
# Each replay's files are in OUT/run_I_MODE (I from 1, MODE `with` or `without` the weekly whole ledgers, `first`).
# Prints one line per replay: its CPU seconds (user + system, then each, and its minor page faults: a night's system
# time is a fifth to a quarter of its CPU, most of it the kernel zeroing pages and copying file writes), peak memory,
# and the share of the run's first night.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/ensure_packages.sh
source scripts/lib/bench_year.sh
ensure_packages libcurl4-openssl-dev libxml2-dev libsqlite3-dev zlib1g-dev libmicrohttpd-dev libssl-dev libxlsxwriter-dev libpq-dev python3 pkg-config time
YEAR= RUNS=1 BINARY= OUT=scripts/bench/out/replay PERF=0 PROFILE=0 MODES=with FIRST=0 PAIRED=0 KEEP=0 WRAP=()
usage() {
    echo "usage: scripts/bench/replay_night.sh --year DIR [--runs N] [--binary FILE] [--out DIR] [--perf] [--sql-profile] [--without-refresh | --refresh-share] [--first-night | --paired] [--keep-data] [--wrap 'COMMAND ...']" >&2
    exit 1
}
while [ $# -gt 0 ]; do
    case "$1" in
        --year) YEAR=$(realpath "$2"); shift 2 ;;
        --runs) RUNS=$2; shift 2 ;;
        --binary) BINARY=$(realpath "$2"); shift 2 ;;
        --out) OUT=$2; shift 2 ;;
        --perf) PERF=1; shift ;;
        --sql-profile) PROFILE=1; shift ;;
        --without-refresh) MODES=without; shift ;;
        --refresh-share) MODES="with without"; shift ;;
        --first-night) FIRST=1; shift ;;
        --paired) PAIRED=1; shift ;;
        --keep-data) KEEP=1; shift ;;
        --wrap) read -r -a WRAP <<< "$2"; shift 2 ;;
        *) usage ;;
    esac
done
[ -n "$YEAR" ] || usage
[ "$PERF" = 0 ] || [ ${#WRAP[@]} = 0 ] || { echo "replay_night.sh: --wrap runs ownerdash under another command: not with --perf" >&2; exit 1; }
[ "$PAIRED" = 0 ] || { [ "$FIRST" = 0 ] && [ "$PERF" = 0 ]; } ||
    { echo "replay_night.sh: --paired replays both nights and times them: not with --first-night or --perf" >&2; exit 1; }
[ -s "$YEAR/nights.csv" ] && [ -s "$YEAR/properties" ] && [ -d "$YEAR/data" ] ||
    { echo "replay_night.sh: $YEAR holds no year.sh run (nights.csv, properties, data)" >&2; exit 1; }
BIN=${BINARY:-$YEAR/ownerdash}
[ -x "$BIN" ] || { echo "replay_night.sh: no ownerdash at $BIN" >&2; exit 1; }
[ "$PERF" = 0 ] || ensure_packages linux-perf
IFS=, read -r LAST_NIGHT LAST_DAY _ < <(tail -n 1 "$YEAR/nights.csv")
# The run's first night (its day, where the simulator starts, and its CPU, what each replay is a share of).
IFS=, read -r _ START _ _ _ _ FIRST_CPU _ < <(sed -n 2p "$YEAR/nights.csv")
DAY=$(date -u -d "$LAST_DAY + 1 day" +%F)
[ "$FIRST" = 0 ] || { DAY=$START; LAST_NIGHT=0; }
ADVANCE=$(( ($(date -u -d "$DAY" +%s) - $(date -u -d "$START" +%s)) / 86400 ))
read -r -a KEYS < "$YEAR/properties"
SELECT=(); for k in "${KEYS[@]}"; do SELECT+=(--property "$k"); done
rm -rf "$OUT"; mkdir -p "$OUT"
SIM=
trap 'stop_bench_simulator' EXIT
bench_simulator_credentials
echo "replay: night $((LAST_NIGHT + 1)) ($DAY) of $YEAR, ${#KEYS[@]} properties, $RUNS run(s) ($MODES the weekly whole ledgers)" >&2
# replay RUN MODE FIRST: one replay into OUT/run_RUN_MODE (FIRST 1: the run's first day into an empty data directory);
# sets CPU to its CPU seconds (empty under --perf).
replay() {
    local run=$1 mode=$2 first=$3 dir=$OUT/run_${1}_$2 day=$DAY code=0 peak
    mkdir -p "$dir"
    if [ "$first" = 1 ]; then mkdir -p "$dir/data"; day=$START; else cp -a "$YEAR/data" "$dir/data"; fi
    # A fresh world each replay: an answer already served would otherwise be the same bytes, landed already.
    start_bench_simulator "$dir" "$START"
    bench_simulator_sources "$BASE"
    [ "$first" = 1 ] || curl -s -X POST "$BASE/_sim/advance?days=$ADVANCE" > "$dir/advance.json"
    local env=(OWNERDASH_CLOCK="${day}T02:30:00Z")
    [ "$mode" != without ] || env+=(OWNERDASH_LEDGER_FULL_REFRESH_DAYS=1000)
    [ "$PROFILE" = 0 ] || env+=(OWNERDASH_SQL_PROFILE_MS=0)
    local command=("$BIN" ingest "${SELECT[@]}" --as-of "$day" --config "$CONFIG_FILE" --data-dir "$dir/data" --verbose)
    CPU=
    if [ "$PERF" = 1 ]; then
        env "${env[@]}" perf record -F 250 --call-graph dwarf -o "$dir/perf.data" -- "${command[@]}" \
            > "$dir/ingest.out" 2> "$dir/ingest.err" || code=$?
        echo "run $run, $mode the weekly whole ledgers: exit $code, profile in $dir/perf.data"
    else
        env "${env[@]}" /usr/bin/time -f "%U %S %M %R" -o "$dir/time" "${WRAP[@]}" "${command[@]}" \
            > "$dir/ingest.out" 2> "$dir/ingest.err" || code=$?
        read -r CPU peak < <(bench_time "$dir/time")
        # user s, system s and minor page faults, from the same line (the last: a failed command's comes after a note)
        local split
        split=$(awk '/^[0-9.]+ [0-9.]+ [0-9]+ [0-9]+$/ { s = sprintf("user %.2f s + system %.2f s, %d minor faults", $1, $2, $4) }
                     END { print s }' "$dir/time")
        if [ "$mode" = first ]; then
            printf 'run %s, the first night: exit %s, %s s of CPU (%s), peak %d MB\n' "$run" "$code" "$CPU" "$split" $((peak / 1024))
        else
            awk -v c="$CPU" -v p="$peak" -v f="$FIRST_CPU" -v r="$run" -v m="$mode" -v x="$code" -v w="$WHOSE" -v s="$split" 'BEGIN {
                printf "run %s, %s the weekly whole ledgers: exit %s, %.2f s of CPU (%s; %.1f %% of %s %.2f s), peak %d MB\n",
                       r, m, x, c, s, 100 * c / f, w, f, p / 1024 }'
        fi
    fi
    stop_bench_simulator
    [ "$KEEP" = 1 ] || rm -rf "$dir/data"
}
WHOSE="the first night's"
SHARES=()
for run in $(seq "$RUNS"); do
    if [ "$PAIRED" = 1 ]; then
        replay "$run" first 1
        FIRST_CPU=$CPU WHOSE="this run's first night,"
    fi
    for mode in $MODES; do
        replay "$run" "$mode" "$FIRST"
        [ "$PAIRED" = 0 ] || SHARES+=("$(awk -v c="$CPU" -v f="$FIRST_CPU" 'BEGIN { printf "%.1f", 100 * c / f }') $mode")
    done
done
if [ "$PAIRED" = 1 ]; then
    for mode in $MODES; do
        printf '%s\n' "${SHARES[@]}" | awk -v m="$mode" '$2 == m { print $1 }' | sort -n | awk -v m="$mode" -v n="$RUNS" '
            { v[NR] = $1 } END { median = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
                printf "paired, %s the weekly whole ledgers: the median of %d run(s) %.1f %% of the first night (%.1f-%.1f %%)\n",
                       m, n, median, v[1], v[NR] }'
    done
fi
