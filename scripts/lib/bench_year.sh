# What the year-long benchmarks (scripts/bench/year.sh, forecast.sh, night_after_year.sh) share, sourced from the
# checkout's root: the ownerdash they run, and the simulator they drive (seed 7 from a property date, its files under
# the benchmark's directory, the report catalogue it serves laid over the shipped configuration, as `ownerdash demo`
# does).
#
#   copy_bench_binary OUT CONFIG BINARY
#                                      copies BINARY (else this checkout's CONFIG build, built first) to OUT/ownerdash,
#                                      so that a rebuild during an hour-long run cannot change it half way; sets BIN.
#   start_bench_simulator OUT START    starts it in the background; sets SIM (its pid), BASE (its URL) and
#                                      CONFIG_FILE (OUT/report_definitions.json); exits 3 when it does not start.
#   bench_simulator_sources BASE       points ownerdash at the simulator at BASE (its three endpoint variables)
#   bench_simulator_credentials        exports the simulator's credentials
#   stop_bench_simulator               stops the simulator SIM names and waits for it; clears SIM
#   bench_fresh_ingest DATA DAY OUT    a fresh data directory (OUT/fresh) ingests DAY in full from the simulator (which
#                                      must be at DAY), and the answers of DATA and of it go to OUT/answers_year.txt and
#                                      OUT/answers_fresh.txt (BIN, SELECT, CONFIG_FILE as set by the caller); its CPU
#                                      and peak memory (GNU time) go to OUT/fresh.time: a first night of that day,
#                                      measured right after the benchmark's last night (`bench_paired_share`)
#   bench_time FILE                    what GNU time wrote to FILE (-f "%U %S %M", "%U %S", or "%U %S %M %R": the minor
#                                      page faults after): "CPU PEAK", CPU the user and system seconds summed (two
#                                      decimals), PEAK the peak memory in KB (0 unmeasured); nothing when FILE holds no such
#                                      line
#   bench_paired_share OUT CSV NIGHT   prints night NIGHT's CPU (CSV: the benchmark's nights.csv) as a share of that
#                                      fresh full ingest's, the two measured minutes apart on the same machine
#   bench_compare OUT DATA DAY WHAT    prints whether those answers are the same (scripts/bench/year_compare.py), then
#                                      DATA's unified.db, written night by night by change, against a full sync of the
#                                      same raw data into OUT/rebuilt (scripts/bench/unified_compare.py); WHAT names the
#                                      nights for the heading; returns 2 when an answer or a table differs
#   bench_compare_server OUT DATA DAY URL  a fresh reader's answers from the server at URL against OUT/answers_year.txt,
#                                      and the server's rows (the reader's mirror) against DATA's unified.db at every
#                                      date (scripts/bench/unified_compare.py --every-date); returns 2 when either differs
# The caller's EXIT trap stops it (set the trap first: SIM is set before anything can fail).
start_bench_simulator() {
    local out=$1 start=$2
    python3 scripts/pms_sim --port 0 --seed 7 --as-of "$start" --dir "$out/sim" --no-ledger-truth --exit-on-stdin-eof \
        > "$out/sim.out" 2> "$out/sim.err" < <(sleep 86400) &
    SIM=$!
    for _ in $(seq 300); do grep -q listening "$out/sim.out" 2>/dev/null && break; sleep 0.1; done
    BASE=$(sed -n 's/^listening on //p' "$out/sim.out")
    [ -n "$BASE" ] || { echo "the simulator did not start: $(cat "$out/sim.err")" >&2; exit 3; }
    CONFIG_FILE=$out/report_definitions.json
    python3 scripts/lib/catalogue_overlay.py report_definitions.json "$out/sim/report_catalogue.json" "$CONFIG_FILE"
}

copy_bench_binary() {
    local out=$1 config=$2 binary=$3
    if [ -n "$binary" ]; then
        cp "$binary" "$out/ownerdash"
    else
        swift build -c "$config" --product ownerdash >&2
        cp "$(swift build -c "$config" --show-bin-path)/ownerdash" "$out/ownerdash"
    fi
    BIN=$out/ownerdash
}

bench_simulator_sources() {
    local base=$1
    export OWNERDASH_REALPAGE_REPORTS_URL=$base/realpage/reports/v1
    export OWNERDASH_REALPAGE_RPX_URL=$base/realpage/rpx/partner/OwnerDash/OwnerDash.svc
    export OWNERDASH_YARDI_URL=$base/yardi/webservices
}

bench_simulator_credentials() {
    export REALPAGE_TOKEN_COMMAND="python3 scripts/pms_sim token"
    # One token up front, the command kept for a refresh (TokenSource): GNU time counts the helper a run starts (here
    # a Python start through pyenv, about 0.1 s a night), and the helper is the operator's vault, not ownerdash.
    REALPAGE_TOKEN=$(python3 scripts/pms_sim token); export REALPAGE_TOKEN
    export REALPAGE_RPX_LICENSE_KEY=sim-rpx-license-key
    export YARDI_USERNAME=simuser YARDI_PASSWORD=simpass YARDI_SERVER_NAME=sim_sql YARDI_DATABASE=sim_voyager
    export YARDI_INTERFACE_ENTITY=OwnerDash YARDI_INTERFACE_LICENSE=sim-yardi-license
}

stop_bench_simulator() {
    [ -z "$SIM" ] || { kill "$SIM" 2>/dev/null && wait "$SIM" 2>/dev/null; } || true
    SIM=
}

bench_fresh_ingest() {
    local data=$1 day=$2 out=$3
    /usr/bin/time -f "%U %S %M" -o "$out/fresh.time" \
        "$BIN" ingest "${SELECT[@]}" --as-of "$day" --config "$CONFIG_FILE" --data-dir "$out/fresh" --quiet \
        > "$out/fresh.out" 2> "$out/fresh.err" || true
    bench_answers "$data" "$day" | bench_blank > "$out/answers_year.txt"
    bench_answers "$out/fresh" "$day" | bench_blank > "$out/answers_fresh.txt"
}

bench_time() {
    # The last such line: a command that fails has GNU time write "Command exited with non-zero status N" before it.
    awk '/^[0-9.]+ [0-9.]+( [0-9]+)?( [0-9]+)?$/ { cpu = $1 + $2; peak = $3 + 0; seen = 1 }
         END { if (seen) printf "%.2f %d\n", cpu, peak }' "$1"
}

bench_paired_share() {
    local out=$1 csv=$2 night=$3 fresh
    read -r fresh _ < <(bench_time "$out/fresh.time") || return 0
    awk -F, -v night="$night" -v fresh="$fresh" '$1 == night {
        printf "night %s against a full ingest of its day measured right after it (a first night of that day, the pair on one machine state): %.2f s against %.2f s of ownerdash CPU, %.1f%%\n", night, $7, fresh, 100 * $7 / fresh }' "$csv"
}

bench_answers() {   # bench_answers DIR DAY: the answers of one data directory, each command's exit status after it
    local dir=$1 day=$2 command start
    start=$(python3 -c "import datetime as d,sys; t=d.date.fromisoformat(sys.argv[1]); m=t.year*12+t.month-1-5; print('%04d-%02d' % (m // 12, m % 12 + 1))" "$day")
    for command in "query summary" "query occupancy" "query exposure" "query pricing" "query delinquency" "query funnel" \
                   "query activity" "report debtors" "report rental-tracker" "report lease-status --start $start --months 6" \
                   "report maintenance" "report expenses"; do
        echo "== $command"
        # shellcheck disable=SC2086
        "$BIN" $command --format json --data-dir "$dir" 2>/dev/null && echo "exit 0" || echo "exit $?"
    done
    echo "== audit run, then audit show"
    "$BIN" audit run --as-of "$day" --months 6 --data-dir "$dir" >/dev/null 2>&1 && echo "exit 0" || echo "exit $?"
    "$BIN" audit show --format json --data-dir "$dir" 2>/dev/null && echo "exit 0" || echo "exit $?"
}

bench_blank() {   # run ids and timestamps differ between any two runs
    sed -E 's/[0-9]{8}T[0-9]{6}Z-[0-9a-f]{4}/RUN/g; s/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z/TIME/g'
}

bench_compare_server() {   # bench_compare_server OUT DATA DAY URL: what a year published to the server at URL, read by a fresh reader
    local out=$1 data=$2 day=$3 url=$4 status=0
    rm -rf "$out/reader"
    mkdir -p "$out/reader"
    OWNERDASH_DATABASE_URL=$url bench_answers "$out/reader" "$day" | bench_blank > "$out/answers_server.txt"
    echo "answers on $day read from the PostgreSQL server against the year's own from unified.db:"
    if cmp -s "$out/answers_year.txt" "$out/answers_server.txt"; then
        echo "  identical ($(wc -c < "$out/answers_server.txt") bytes)"
    else
        echo "  DIFFER (diff $out/answers_year.txt $out/answers_server.txt):"
        diff "$out/answers_year.txt" "$out/answers_server.txt" | head -n 20 | cut -c1-300
        status=2
    fi
    echo "the server's rows (the reader's mirror) against the year's unified.db, every table both hold, every date:"
    python3 scripts/bench/unified_compare.py --every-date "$data/unified.db" "$out/reader/postgres-mirror/unified.db" || status=2
    return $status
}

bench_compare() {
    local out=$1 data=$2 day=$3 what=$4 status=0 raw
    # Identical, but for history the nightly directory kept beyond the window a fresh ingest sees (year_compare.py).
    echo "answers on $day against a fresh full ingest ($(wc -c < "$out/answers_fresh.txt") bytes; diff $out/answers_year.txt $out/answers_fresh.txt):"
    python3 scripts/bench/year_compare.py "$out/answers_year.txt" "$out/answers_fresh.txt" || status=$?
    rm -rf "$out/rebuilt"
    mkdir -p "$out/rebuilt"
    for raw in realpage_raw.db yardi_raw.db; do
        [ -f "$data/$raw" ] && python3 -c "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute('VACUUM INTO ?', (sys.argv[2],))" \
            "$data/$raw" "$out/rebuilt/$raw"
    done
    "$BIN" sync "${SELECT[@]}" --config "$CONFIG_FILE" --data-dir "$out/rebuilt" --quiet > "$out/rebuilt.out" 2> "$out/rebuilt.err" || true
    echo "unified.db after the $what against a full sync of the same raw data (scripts/bench/unified_compare.py):"
    python3 scripts/bench/unified_compare.py "$data/unified.db" "$out/rebuilt/unified.db" || status=2
    return $status
}
