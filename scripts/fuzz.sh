#!/usr/bin/env bash
# Coverage-guided fuzzing (libFuzzer, in process, AddressSanitizer on) of the file readers, the report parsers,
# the SOAP decoders and `ownerdash serve`'s request handling. Not part of `swift test`: the targets exist only when OWNERDASH_FUZZ=1 (Package.swift).
#
#   scripts/fuzz.sh TARGET [--seconds N] [--max-len BYTES]   TARGET: spreadsheet | reports | soap | http | all
#
# Builds the target (release, sanitizers) into .build-fuzz, makes a seed corpus from Tests/Fixtures (and
# Tests/Fixtures/real-onesite when it is there, and any directories listed in OWNERDASH_FUZZ_SEEDS, colon-
# separated; http: the requests scripts/fuzz/http_seeds.py writes), runs it for N seconds (default 60) with the format's dictionary (scripts/fuzz/*.dict), and prints
# executions, coverage and findings per target. Inputs that crash go to fuzz-findings/<target>/; the grown
# corpus is kept in .build-fuzz/corpus/<target>/ so the next run starts from it.
# Exit status: 0 when no target found anything, 1 when one did, 2 on a usage or build error.
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=lib/ensure_packages.sh
source scripts/lib/ensure_packages.sh

usage() { echo "usage: scripts/fuzz.sh spreadsheet|reports|soap|http|all [--seconds N] [--max-len BYTES]" >&2; exit 2; }
[ $# -ge 1 ] || usage
target="$1"; shift
seconds=60
max_len=""
while [ $# -gt 0 ]; do
    case "$1" in
        --seconds) [ $# -ge 2 ] || usage; seconds="$2"; shift 2 ;;
        --max-len) [ $# -ge 2 ] || usage; max_len="$2"; shift 2 ;;
        *) usage ;;
    esac
done
case "$target" in
    all) targets=(spreadsheet reports soap http) ;;
    spreadsheet|reports|soap|http) targets=("$target") ;;
    *) usage ;;
esac

ensure_packages zlib1g-dev libxml2-dev libsqlite3-dev libcurl4-openssl-dev libmicrohttpd-dev libssl-dev libxlsxwriter-dev libpq-dev

product() {
    case "$1" in
        spreadsheet) echo FuzzSpreadsheet ;;
        reports) echo FuzzReports ;;
        soap) echo FuzzSOAP ;;
        http) echo FuzzHTTP ;;
    esac
}

build_path=.build-fuzz
# -sanitize=fuzzer alone adds no coverage instrumentation with this toolchain, hence -sanitize-coverage;
# SwiftPM renames an executable's main, so each target defines <Target>_main and calls LLVMFuzzerRunDriver.
build() {
    OWNERDASH_FUZZ=1 swift build -c release --build-path "$build_path" --product "$1" \
        -Xswiftc -sanitize=fuzzer -Xswiftc -sanitize=address \
        -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
        -Xswiftc -parse-as-library >&2
}

# Seeds: every fixture of the formats the target reads, up to max_len bytes (a longer one would be cut, and a
# cut zip or OLE2 file teaches the fuzzer nothing).
seed() {
    local name="$1" seeds="$build_path/seeds/$1"
    rm -rf "$seeds"; mkdir -p "$seeds"
    local dirs=()
    case "$name" in
        spreadsheet|reports)
            dirs=(Tests/Fixtures/xlsx Tests/Fixtures/xls Tests/Fixtures/reports Tests/Fixtures/fuzz Tests/Fixtures/real-onesite)
            if [ -n "${OWNERDASH_FUZZ_SEEDS:-}" ]; then IFS=: read -r -a extra <<<"$OWNERDASH_FUZZ_SEEDS"; dirs+=("${extra[@]}"); fi
            for dir in "${dirs[@]}"; do
                [ -d "$dir" ] || continue
                find "$dir" -type f \( -name '*.xls' -o -name '*.xlsx' -o -name '*.html' -o -name '*.htm' -o -name '*.csv' -o -name '*.doc' \) \
                    -size -"$((target_max_len + 1))"c -print0 | while IFS= read -r -d '' file; do
                    cp "$file" "$seeds/$(sha256sum "$file" | cut -c1-16)-$(basename "$file")"
                done
            done
            ;;
        soap)
            # The first byte picks the decoder (Fuzz/FuzzSOAP/main.swift lists them in this order).
            local decoders=(rpx_getbuildings rpx_getleaseinfo rpx_getrentableitems rpx_getresidentledger
                rpx_getresidentlistinfo rpx_getscheduledcharges rpx_getsitelist rpx_unitlist yardi_available_units
                yardi_get_invoice_register yardi_get_property_configurations yardi_get_resident_lease_charges
                yardi_get_resident_transactions yardi_get_residents_by_status yardi_get_service_request_search
                yardi_get_unit_information yardi_guest_activity)
            local index
            for file in Tests/Fixtures/soap/*; do
                local base; base="$(basename "$file")"
                for index in "${!decoders[@]}"; do
                    local prefix="${decoders[$index]}"
                    # A response fixture seeds its own decoder; a fault or error fixture seeds every decoder.
                    if [[ "$base" == "$prefix"* ]] || [[ "$base" == *fault* || "$base" == *error* || "$base" == *invalid* || "$base" == *empty* || "$base" == *negative* || "$base" == *login* ]]; then
                        { printf "\\x$(printf %02x "$index")"; cat "$file"; } >"$seeds/$index-$base"
                    fi
                done
            done
            ;;
        http)
            # Raw requests; most carry a session cookie signed with the target's own key (see the script).
            python3 scripts/fuzz/http_seeds.py "$seeds" >&2
            ;;
    esac
    echo "$seeds"
}

status=0
summary=()
for name in "${targets[@]}"; do
    binary="$(product "$name")"
    # A request is small: 16 KiB covers the 8 KiB header limit (431) and a body past its declared length; larger
    # bodies are refused by Content-Length before they are read. Files up to 256 KiB for the readers.
    target_max_len="${max_len:-$([ "$name" = http ] && echo 16384 || echo 262144)}"
    echo "== $name: building $binary" >&2
    build "$binary" || { echo "fuzz.sh: building $binary failed" >&2; exit 2; }
    seeds="$(seed "$name")"
    corpus="$build_path/corpus/$name"
    findings="fuzz-findings/$name"
    mkdir -p "$corpus" "$findings"
    log="$build_path/logs/$name-$(date -u +%Y%m%dT%H%M%SZ).log"
    mkdir -p "$(dirname "$log")"
    echo "== $name: $seconds s on $(find "$seeds" -type f | wc -l) seeds + $(find "$corpus" -type f | wc -l) corpus inputs, log $log" >&2
    set +e
    ASAN_OPTIONS=detect_leaks=0:allocator_may_return_null=1 SWIFT_BACKTRACE=enable=no \
        "$build_path/release/$binary" "$corpus" "$seeds" \
        -dict="scripts/fuzz/$name.dict" -max_len="$target_max_len" -max_total_time="$seconds" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$findings/" >"$log" 2>&1
    code=$?
    set -e
    execs="$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)"
    last="$(grep -E '^#[0-9]+' "$log" | tail -1)"
    # A run stopped by a finding prints no final stats: its last status line counts the executions.
    [ -n "$execs" ] || execs="$(grep -oE '^#[0-9]+' <<<"$last" | tr -d '#' || true)"
    cov="$(grep -o 'cov: [0-9]*' <<<"$last" | grep -o '[0-9]*' || true)"
    ft="$(grep -o 'ft: [0-9]*' <<<"$last" | grep -o '[0-9]*' || true)"
    found="$(grep -oE "(Test unit|artifact) written to [^ ]*" "$log" | awk '{print $NF}' | tr '\n' ' ' || true)"
    if [ $code -ne 0 ] || [ -n "$found" ]; then
        status=1
        echo "== $name: FINDING (exit $code): ${found:-see $log}" >&2
        grep -E "ERROR: |SUMMARY: |Fatal error|Illegal instruction|deadly signal" "$log" | head -5 >&2 || true
    fi
    summary+=("$(printf '%-12s executions %-10s cov %-6s ft %-7s findings %s' "$name" "${execs:-?}" "${cov:-?}" "${ft:-?}" "${found:-none}")")
done
echo "== summary (${seconds} s per target)"
printf '%s\n' "${summary[@]}"
exit $status
