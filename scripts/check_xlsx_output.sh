#!/usr/bin/env bash
# Checks that LibreOffice reads OwnerDash's own .xlsx workbooks as OwnerDash's reader does:
#   scripts/check_xlsx_output.sh [--data-dir DIR]
# Installs LibreOffice (and the build's packages) when missing, builds ownerdash, runs the demo into a temporary data
# directory unless --data-dir names one that already holds unified.db, writes the lease-status and rental-tracker
# workbooks, converts every sheet with `soffice --headless --convert-to csv` and compares it, cell by cell, with
# `ownerdash sheet dump` of the same sheet. Exits 1 on any difference (each printed), 0 when every sheet matches.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/ensure_packages.sh
ensure_packages libcurl4-openssl-dev libxml2-dev libsqlite3-dev zlib1g-dev libmicrohttpd-dev libssl-dev libxlsxwriter-dev libpq-dev python3 pkg-config
ensure_libreoffice

data=""
if [ "${1:-}" = "--data-dir" ]; then data="$2"; fi

source scripts/lib/demo_data.sh

# The demo's property date is 2026-11-20: the three months up to it.
"$ownerdash" report lease-status --start 2026-09 --months 3 --format xlsx --out "$work/lease-status.xlsx" --data-dir "$data" --quiet
"$ownerdash" report rental-tracker --format xlsx --out "$work/rental-tracker.xlsx" --data-dir "$data" --quiet

status=0
for book in lease-status rental-tracker; do
    file="$work/$book.xlsx"
    # LibreOffice's CSV filter options: comma, double quote, UTF-8, ..., then "save cell contents as shown" (so dates
    # come out as their yyyy-mm-dd format shows them) and, last, the sheet: -1 writes every sheet as <name>-<sheet>.csv.
    mkdir -p "$work/lo-$book"
    soffice --headless --norestore -env:UserInstallation="file://$work/lo-profile" \
        --convert-to 'csv:Text - txt - csv (StarCalc):44,34,76,1,,0,false,true,true,false,false,-1' \
        --outdir "$work/lo-$book" "$file" >/dev/null 2>&1
    index=0
    while IFS= read -r sheet; do
        index=$((index + 1))
        ours="$work/$book-$index.ours.csv"
        "$ownerdash" sheet dump --sheet "$index" "$file" > "$ours"
        theirs="$work/lo-$book/$book-$sheet.csv"
        if [ ! -f "$theirs" ]; then
            echo "$book.xlsx sheet \"$sheet\": LibreOffice wrote no CSV for it" >&2
            status=1
            continue
        fi
        python3 - "$book.xlsx" "$sheet" "$ours" "$theirs" <<'PY' || status=1
import csv, sys

book, sheet, ours_path, theirs_path = sys.argv[1:5]

def rows(path):
    with open(path, newline="", encoding="utf-8") as f:
        out = []
        for row in csv.reader(f):
            while row and row[-1] == "":
                row.pop()
            if row:
                out.append(row)
        return out

def same(a, b):
    if a == b:
        return True
    # LibreOffice shows money as "1,400.00" and "(12.50)" and percents as "95.35%"; OwnerDash prints the value.
    def number(text):
        t = text.replace(",", "").replace("%", "").strip()
        negative = t.startswith("(") and t.endswith(")")
        t = t.strip("()")
        try:
            value = float(t)
        except ValueError:
            return None
        return -value if negative else value
    x, y = number(a), number(b)
    return x is not None and y is not None and abs(x - y) < 0.005

ours, theirs = rows(ours_path), rows(theirs_path)
problems = []
if len(ours) != len(theirs):
    problems.append(f"{len(ours)} rows from ownerdash sheet dump, {len(theirs)} from LibreOffice")
for n, (a, b) in enumerate(zip(ours, theirs), start=1):
    if len(a) != len(b) or not all(same(x, y) for x, y in zip(a, b)):
        problems.append(f"row {n}: ownerdash {a} | LibreOffice {b}")
for p in problems[:10]:
    print(f"{book} sheet \"{sheet}\": {p}", file=sys.stderr)
if problems:
    sys.exit(1)
print(f"{book} sheet \"{sheet}\": {len(ours)} rows, LibreOffice reads what OwnerDash wrote")
PY
    done < <("$ownerdash" sheet dump --all-sheets "$file" | sed -n 's/^== \(.*\) ==$/\1/p')
done
exit $status
