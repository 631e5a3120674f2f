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
