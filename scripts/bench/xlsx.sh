#!/usr/bin/env bash
# Benchmark: ownerdash's xlsx reader and report loader against the Python readers a user would
# otherwise pick, on generated rent-roll-shaped workbooks of 50,000 and 500,000 rows.
#
#   scripts/bench/xlsx.sh [--no-xls | --xls-only] [ROWS ...]        (default: 50000 500000)
#
# Prints, per .xlsx file: seconds (median of REPEAT runs, default 3), rows/s and peak RSS of
#   (a) ownerdash xlsx dump > /dev/null      (b) ownerdash load into a fresh realpage_raw.db
#   (c) fastexcel  (d) python-calamine  (e) openpyxl read-only  (f) pandas.read_excel (openpyxl)
#   floor: inflating the sheet XML alone (unzip -p)
# and the ratios of (a) and (b) to the fastest peer and of (a) to the floor.
# Then the legacy .xls (BIFF8) reader: a workbook of 8 sheets x 62,500 rows (BIFF8 holds at most 65,536 rows a
# sheet), written as .xlsx and converted to .xls by LibreOffice (installed with apt-get when missing), read whole by
#   (a) ownerdash sheet dump --all-sheets    (b) python-calamine   (c) fastexcel   (d) xlrd
# with the ratio of (a) to python-calamine (target >= 1x) and peak RSS.
# The peers are installed into scripts/bench/.venv (git-ignored), never into the product.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/ensure_packages.sh
ensure_packages time unzip python3-venv libcurl4-openssl-dev libxml2-dev libsqlite3-dev zlib1g-dev libmicrohttpd-dev libssl-dev libxlsxwriter-dev libpq-dev

XLS=1
XLSX=1
case ${1:-} in
    --no-xls) XLS=0; shift;;
    --xls-only) XLSX=0; shift;;
esac
ROWS=("$@")
[ ${#ROWS[@]} -eq 0 ] && ROWS=(50000 500000)
[ "$XLSX" -eq 0 ] && ROWS=()
OUT=scripts/bench/out
mkdir -p "$OUT"

echo "building ownerdash (release)..." >&2
swift build -c release --product ownerdash >&2
BIN=$(swift build -c release --show-bin-path)/ownerdash

VENV=scripts/bench/.venv
if [ ! -x "$VENV/bin/python" ]; then
    python3 -m venv "$VENV"
fi
if ! "$VENV/bin/python" -c "import fastexcel, python_calamine, openpyxl, pandas, xlrd" 2>/dev/null; then
    echo "installing the Python peers into $VENV ..." >&2
    "$VENV/bin/pip" install -q fastexcel pyarrow python-calamine openpyxl pandas xlrd >&2
fi
PY="$VENV/bin/python"

# measure NAME CMD...: runs REPEAT times (default 3), records the median "seconds" and the largest peak KiB for NAME.
REPEAT=${REPEAT:-3}
declare -A SECS RSS
measure() {
    local name=$1; shift
    local log="$OUT/$name.time" runs=()
    local peak=0
    for ((i = 0; i < REPEAT; i++)); do
        if ! /usr/bin/time -f "%e %M" -o "$log" "$@" >/dev/null 2>"$OUT/$name.stderr"; then
            echo "  $name FAILED: $(tail -n 3 "$OUT/$name.stderr")" >&2
            SECS[$name]=nan; RSS[$name]=0; return
        fi
        local s k
        read -r s k < <(tail -n 1 "$log")
        runs+=("$s"); [ "$k" -gt "$peak" ] && peak=$k
        # A load needs a fresh data directory each time: the second would find the bytes already loaded.
        [ "$name" = load ] && rm -rf "$data"
    done
    SECS[$name]=$(printf '%s\n' "${runs[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
    RSS[$name]=$peak
}

for rows in ${ROWS[@]+"${ROWS[@]}"}; do
    file="$OUT/rent_roll_${rows}.xlsx"
    [ -f "$file" ] || { echo "generating $file ..." >&2; python3 scripts/bench/make_big_rent_roll.py "$file" "$rows"; }
    sheet_mb=$(unzip -l "$file" xl/worksheets/sheet1.xml | awk 'NR==4 {printf "%.0f", $1/1048576}')
    data="$OUT/data_$rows"
    rm -rf "$data"

    measure floor unzip -p "$file" xl/worksheets/sheet1.xml
    measure dump "$BIN" xlsx dump "$file"
    measure load "$BIN" load "$file" --data-dir "$data" --property nexus_east --as-of 2026-11-20 --quiet
    for peer in fastexcel calamine openpyxl pandas; do
        # openpyxl and pandas take minutes at 500,000 rows; they are the slow end of the table either way.
        if [ "$rows" -gt 100000 ] && [ "$peer" = pandas ] && [ -z "${BENCH_ALL:-}" ]; then SECS[$peer]=skip; RSS[$peer]=0; continue; fi
        measure "$peer" "$PY" scripts/bench/peer_readers.py "$peer" "$file"
    done

    echo
    echo "## $rows rows ($(du -m "$file" | cut -f1) MB file, $sheet_mb MB sheet XML)"
    printf "| %-34s | %8s | %12s | %9s |\n" reader seconds rows/s "peak RSS"
    printf "|%s|%s|%s|%s|\n" "------------------------------------" "----------" "--------------" "-----------"
    for name in dump load fastexcel calamine openpyxl pandas floor; do
        label=$name
        case $name in
            dump) label="(a) ownerdash xlsx dump";; load) label="(b) ownerdash load";;
            fastexcel) label="(c) fastexcel";; calamine) label="(d) python-calamine";;
            openpyxl) label="(e) openpyxl read-only";; pandas) label="(f) pandas.read_excel (openpyxl)";;
            floor) label="floor: inflate sheet XML (unzip)";;
        esac
        s=${SECS[$name]}
        if [ "$s" = skip ]; then
            printf "| %-34s | %8s | %12s | %9s |\n" "$label" "skipped" "-" "-"
        else
            awk -v l="$label" -v s="$s" -v r="$rows" -v k="${RSS[$name]}" 'BEGIN {
                printf "| %-34s | %8.2f | %12.0f | %5.0f MiB |\n", l, s, (s > 0 ? r / s : 0), k / 1024 }'
        fi
    done
    best=nan; best_name=""
    for peer in fastexcel calamine openpyxl pandas; do
        s=${SECS[$peer]}
        [[ "$s" == skip || "$s" == nan ]] && continue
        if [ "$best" = nan ] || awk -v a="$s" -v b="$best" 'BEGIN {exit !(a < b)}'; then best=$s; best_name=$peer; fi
    done
    awk -v a="${SECS[dump]}" -v b="${SECS[load]}" -v p="$best" -v n="$best_name" -v f="${SECS[floor]}" 'BEGIN {
        printf "\nfastest peer: %s (%.2f s)\n", n, p
        printf "(a) dump is %.1fx faster than the fastest peer (target >= 2x)\n", p / a
        printf "(b) load is %.2fx faster than the fastest peer (target >= 1.5x, peak under 64 MiB)\n", p / b
        printf "(a) dump takes %.1fx the inflate floor\n", a / f }'
done

[ "$XLS" -eq 1 ] || exit 0

# ------------------------------------------------------------------------------------------------ legacy .xls
ensure_libreoffice
SHEETS=8
PER_SHEET=62500
xls="$OUT/rent_roll_${SHEETS}x${PER_SHEET}.xls"
if [ ! -f "$xls" ]; then
    echo "generating $xls (LibreOffice converts the .xlsx; a few minutes) ..." >&2
    python3 scripts/bench/make_big_rent_roll.py "$OUT/rent_roll_${SHEETS}x${PER_SHEET}.xlsx" "$PER_SHEET" --sheets "$SHEETS"
    soffice --headless --norestore --convert-to xls --outdir "$OUT" "$OUT/rent_roll_${SHEETS}x${PER_SHEET}.xlsx" >&2
fi
total=$((SHEETS * PER_SHEET))
measure xls_dump "$BIN" sheet dump "$xls" --all-sheets
for peer in calamine fastexcel xlrd; do
    measure "xls_$peer" "$PY" scripts/bench/peer_readers.py "$peer" "$xls" --all-sheets
done
echo
echo "## .xls: $SHEETS sheets x $PER_SHEET rows ($(du -m "$xls" | cut -f1) MB BIFF8 file, written by LibreOffice)"
printf "| %-40s | %8s | %12s | %9s |\n" reader seconds rows/s "peak RSS"
printf "|%s|%s|%s|%s|\n" "------------------------------------------" "----------" "--------------" "-----------"
for name in xls_dump xls_calamine xls_fastexcel xls_xlrd; do
    case $name in
        xls_dump) label="(a) ownerdash sheet dump --all-sheets";; xls_calamine) label="(b) python-calamine";;
        xls_fastexcel) label="(c) fastexcel";; xls_xlrd) label="(d) xlrd";;
    esac
    awk -v l="$label" -v s="${SECS[$name]}" -v r="$total" -v k="${RSS[$name]}" 'BEGIN {
        printf "| %-40s | %8.2f | %12.0f | %5.0f MiB |\n", l, s, (s > 0 ? r / s : 0), k / 1024 }'
done
awk -v a="${SECS[xls_dump]}" -v p="${SECS[xls_calamine]}" 'BEGIN {
    printf "\n(a) sheet dump is %.2fx as fast as python-calamine (target >= 1x)\n", p / a }'
