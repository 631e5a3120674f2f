#!/usr/bin/env bash
# The workbook writer, two implementations side by side: WorkbookWriteBench (Bench/) built at a baseline revision and
# at the working tree, each run alternately RUNS times on a debtors-shaped workbook of ROWS rows; prints each run and
# the medians (seconds, bytes, peak RSS) and the ratio.
#
#   scripts/bench/xlsx_write.sh [--baseline REV] [--rows N] [--runs N]
#
# The default baseline, fe47e8c, is the last revision whose XLSXWriter was OwnerDash's own XML writer; the working
# tree's writes through libxlsxwriter.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/ensure_packages.sh
ensure_packages zlib1g-dev libxml2-dev libxlsxwriter-dev libpq-dev pkg-config git

baseline=fe47e8c rows=200000 runs=3
while [ $# -gt 0 ]; do
    case "$1" in
        --baseline) baseline="$2"; shift 2 ;;
        --rows) rows="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        *) echo "usage: scripts/bench/xlsx_write.sh [--baseline REV] [--rows N] [--runs N]" >&2; exit 2 ;;
    esac
done

out=scripts/bench/out/xlsx_write
mkdir -p "$out"
tree="$out/baseline-src"
rm -rf "$tree"
git worktree remove --force "$tree" 2>/dev/null || true
git worktree add --detach -q "$tree" "$baseline"
trap 'git worktree remove --force "$tree" 2>/dev/null || true' EXIT

build() { (cd "$1" && OWNERDASH_BENCH=1 swift build -c release --build-path "$2" --product WorkbookWriteBench >&2); }
build "$tree" "$PWD/$out/build-baseline"
build . "$PWD/$out/build-current"

median() { sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }'; }
field() { python3 -c 'import json,sys; print(json.loads(sys.stdin.read())[sys.argv[1]])' "$1"; }
: > "$out/baseline.jsonl"; : > "$out/current.jsonl"
for run in $(seq "$runs"); do
    "$out/build-baseline/release/WorkbookWriteBench" "$out/baseline.xlsx" "$rows" | tee -a "$out/baseline.jsonl"
    "$out/build-current/release/WorkbookWriteBench" "$out/current.xlsx" "$rows" | tee -a "$out/current.jsonl"
done
for which in baseline current; do
    seconds=$(while read -r line; do echo "$line" | field seconds; done < "$out/$which.jsonl" | median)
    rss=$(while read -r line; do echo "$line" | field peak_rss_mb; done < "$out/$which.jsonl" | median)
    bytes=$(head -1 "$out/$which.jsonl" | field bytes)
    echo "$which: median ${seconds} s, ${bytes} bytes, peak RSS ${rss} MB ($rows rows, $runs runs)"
    eval "${which}_seconds=$seconds"
done
python3 -c "import sys; print(f'ratio: the working tree writes {float(sys.argv[1]) / float(sys.argv[2]):.2f}x as fast as the baseline')" \
    "$baseline_seconds" "$current_seconds"
