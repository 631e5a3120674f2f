#!/usr/bin/env bash
# The fetch's check of the SOAP answers of a year.sh run's last night, two ways side by side (Bench/SOAPCheckBench):
# over each whole answer, and framed by the records its payload lists (what the fetch does since 2026-12-01: libxml2
# parses what lies around the records, the records are held to their frame). Prints each pass and the medians.
#
#   scripts/bench/soap_check.sh --year DIR [--runs N]      (default 5 runs)
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/lib/ensure_packages.sh
ensure_packages libxml2-dev libsqlite3-dev zlib1g-dev libpq-dev pkg-config python3

year= runs=5
while [ $# -gt 0 ]; do
    case "$1" in
        --year) year="$2"; shift 2 ;;
        --runs) runs="$2"; shift 2 ;;
        *) echo "usage: scripts/bench/soap_check.sh --year DIR [--runs N]" >&2; exit 2 ;;
    esac
done
[ -d "$year/data/landing" ] || { echo "soap_check.sh: $year holds no year.sh run (data/landing)" >&2; exit 1; }

out=scripts/bench/out/soap_check
rm -rf "$out/answers"; mkdir -p "$out/answers"
# The last run's SOAP answers, inflated from the landing zone's objects as the fetch staged them.
python3 - "$year/data/landing" "$out/answers" <<'PY'
import json, os, sys, zlib
landing, answers = sys.argv[1:3]
runs = sorted(d for d in os.listdir(landing) if os.path.exists(os.path.join(landing, d, "manifest.json")))
manifest = json.load(open(os.path.join(landing, runs[-1], "manifest.json")))
count = 0
for entry in manifest["artifacts"]:
    if not entry.get("operation") or not entry.get("object") or entry.get("error"):
        continue
    data = open(os.path.join(landing, entry["object"]), "rb").read()
    if entry["object"].endswith(".z"):
        data = zlib.decompress(data, -15)  # raw DEFLATE, no zlib header (ZipKit's DeflatedFile)
    count += 1
    with open(os.path.join(answers, "%s.%s.%d.xml" % (entry["operation"], entry["property"], count)), "wb") as f:
        f.write(data)
print("soap_check.sh: %d answers of %s" % (count, runs[-1]), file=sys.stderr)
PY
OWNERDASH_BENCH=1 swift build -c release --build-path "$PWD/$out/build" --product SOAPCheckBench >&2
"$out/build/release/SOAPCheckBench" "$out/answers" "$runs" | tee "$out/passes.jsonl"
python3 - "$out/passes.jsonl" <<'PY'
import json, statistics, sys
passes = [json.loads(line) for line in open(sys.argv[1])]
median = {way: statistics.median(p["cpu_seconds"] for p in passes if p["way"] == way) for way in ("whole", "framed")}
megabytes = passes[0]["bytes"] / 1e6
print("%d answers, %.1f MB: whole %.3f s, framed %.3f s of CPU (medians): %.2fx"
      % (passes[0]["answers"], megabytes, median["whole"], median["framed"], median["framed"] / median["whole"]))
PY
