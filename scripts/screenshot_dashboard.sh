#!/usr/bin/env bash
# Screenshots of a dashboard page in headless Chromium, to look at it (not part of CI):
#   scripts/screenshot_dashboard.sh [FILE.html] [OUT_DIR]
# FILE.html defaults to data/dashboard.html; OUT_DIR to the file's directory. Writes
#   <name>-1280.png  the whole page at 1280 CSS px wide (desktop)
#   <name>-390.png   the whole page at 390 CSS px wide (a phone, at 2x pixel density)
# and says on stderr whether the page requested anything from outside, threw a script error, was wider than
# the screen, or failed to sort its portfolio table when the headings are clicked (exit 1 if so).
# Installs chromium (and a font) with apt-get when missing.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
source "$here/lib/ensure_packages.sh"
ensure_packages chromium fonts-dejavu-core python3

page="${1:-data/dashboard.html}"
[ -f "$page" ] || { echo "screenshot_dashboard: no such file: $page (write one with ownerdash dashboard)" >&2; exit 1; }
out="${2:-$(dirname "$page")}"
mkdir -p "$out"
name="$(basename "$page" .html)"

status=0
python3 "$here/lib/page_screenshot.py" "$page" "$out/$name-1280.png" 1280 --check-sort || status=1
python3 "$here/lib/page_screenshot.py" "$page" "$out/$name-390.png" 390 --mobile || status=1
echo "$out/$name-1280.png"
echo "$out/$name-390.png"
exit $status
