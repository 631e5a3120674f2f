#!/usr/bin/env bash
# Installs what is missing (Debian packages), builds ownerdash, and runs the demo:
#   scripts/run.sh [--data-dir DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/lib/ensure_packages.sh
ensure_packages libcurl4-openssl-dev libxml2-dev libsqlite3-dev zlib1g-dev libmicrohttpd-dev libssl-dev libxlsxwriter-dev libpq-dev libxgboost-dev python3 pkg-config
swift build -c release --product ownerdash >&2
exec "$(swift build -c release --show-bin-path)/ownerdash" demo "$@"
