#!/usr/bin/env bash
# Prints every kind of workbook OwnerDash writes the way an owner would, through LibreOffice, and checks the paper:
#   scripts/check_workbooks_print.sh [--data-dir DIR] [--keep DIR]
# Installs LibreOffice's Calc and poppler-utils (and the build's packages) when missing, builds ownerdash, runs the
# demo into a temporary data directory unless --data-dir names one that already holds unified.db, writes the
# workbooks (debtors, rental tracker, lease status, maintenance, expenses, query summary and delinquency), converts
# each to PDF with `soffice --headless --convert-to pdf` and reads the pages back with pdftotext. Per workbook it
# prints the pages, and checks that every page:
#   - carries the "Page N of M" footer,
#   - repeats the header row of its sheet (print titles) with every column header on it (one page wide: a column
#     that spilled to another page would be missing from the first),
#   - is landscape.
# Exits 1 when a check fails (each printed), 0 otherwise. --keep DIR keeps the workbooks and PDFs there to look at.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/ensure_packages.sh
ensure_packages libcurl4-openssl-dev libxml2-dev libsqlite3-dev zlib1g-dev libmicrohttpd-dev libssl-dev libxlsxwriter-dev libpq-dev \
    python3 pkg-config poppler-utils
ensure_libreoffice

data=""
keep=""
while [ $# -gt 0 ]; do
    case "$1" in
        --data-dir) data="$2"; shift 2 ;;
        --keep) keep="$2"; shift 2 ;;
        *) echo "usage: $0 [--data-dir DIR] [--keep DIR]" >&2; exit 1 ;;
    esac
done

source scripts/lib/demo_data.sh
books="${keep:-$work/books}"
mkdir -p "$books"

run() { "$ownerdash" "$@" --data-dir "$data" --quiet; }
# The demo's property date is 2026-11-20.
run report debtors --format xlsx --out "$books/debtors.xlsx"
run report rental-tracker --format xlsx --out "$books/rental-tracker.xlsx"
run report lease-status --start 2026-09 --months 3 --format xlsx --out "$books/lease-status.xlsx"
run report maintenance --format xlsx --out "$books/maintenance.xlsx"
run report expenses --format xlsx --out "$books/expenses.xlsx"
run query summary --format xlsx --out "$books/summary.xlsx"
run query delinquency --format xlsx --out "$books/delinquency.xlsx"

status=0
printf '%-16s %6s %6s  %s\n' workbook sheets pages checks
for file in "$books"/*.xlsx; do
    book="$(basename "$file" .xlsx)"
    soffice --headless --norestore -env:UserInstallation="file://$work/lo-profile" --convert-to pdf \
        --outdir "$books" "$file" >/dev/null 2>&1
    pdf="$books/$book.pdf"
    if [ ! -f "$pdf" ]; then
        echo "$book.xlsx: LibreOffice wrote no PDF" >&2
        status=1
        continue
    fi
    # The header row of each sheet, as OwnerDash reads it back: the first row after the heading lines (one cell
    # each) with more than one cell.
    headers="$work/$book.headers"
    "$ownerdash" sheet dump --all-sheets "$file" | python3 -c '
import csv, re, sys
sheets, found = 0, False
for row in csv.reader(sys.stdin):
    if len(row) == 1 and re.fullmatch(r"== .* ==", row[0]):
        sheets, found = sheets + 1, False
        continue
    cells = [c for c in row if c]
    if not found and len(cells) > 1:
        print("\t".join(cells)); found = True
print(sheets, file=sys.stderr)
' > "$headers" 2> "$work/$book.sheets"
    sheets=$(cat "$work/$book.sheets")
    python3 - "$book" "$pdf" "$headers" "$sheets" <<'PY' || status=1
import subprocess, sys

book, pdf, headers_file, sheets = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
info = subprocess.run(["pdfinfo", pdf], capture_output=True, text=True).stdout
pages = int(next(line.split()[-1] for line in info.splitlines() if line.startswith("Pages:")))
size = next((line for line in info.splitlines() if line.startswith("Page size:")), "")
headers = [line.rstrip("\n").split("\t") for line in open(headers_file) if line.strip()]
problems = []
try:
    width, height = (float(x) for x in size.split(":")[1].split("pts")[0].split("x"))
    if width < height:
        problems.append(f"portrait pages ({size.split(':', 1)[1].strip()})")
except (ValueError, IndexError):
    problems.append(f"no page size in pdfinfo ({size!r})")

def words(text):
    return " ".join(text.split())

for page in range(1, pages + 1):
    text = words(subprocess.run(["pdftotext", "-f", str(page), "-l", str(page), "-layout", pdf, "-"],
                                capture_output=True, text=True).stdout)
    if f"Page {page} of" not in text:
        problems.append(f"page {page}: no 'Page {page} of N' footer")
    # A page shows one sheet: one of the header rows must be whole on it.
    if headers and not any(all(words(cell) in text for cell in row) for row in headers):
        near = max(headers, key=lambda row: sum(words(cell) in text for cell in row))
        missing = [cell for cell in near if words(cell) not in text]
        problems.append(f"page {page}: header row not whole (missing {', '.join(missing[:4])})")
    if len(problems) > 6:
        problems.append("...")
        break
print(f"{book:<16} {sheets:>6} {pages:>6}  {'ok' if not problems else 'FAILED'}")
for problem in problems:
    print(f"    {book}.xlsx: {problem}", file=sys.stderr)
sys.exit(1 if problems else 0)
PY
done
exit $status
