# Sourced by the scripts that check what OwnerDash writes against the demo's data: builds ownerdash (debug) and,
# unless $data names a data directory that already holds unified.db, runs the demo into one under a temporary
# directory. Sets $ownerdash (the binary), $work (a temporary directory removed at exit) and $data.
swift build --product ownerdash >&2
ownerdash="$(swift build --show-bin-path)/ownerdash"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
if [ -z "${data:-}" ] || [ ! -f "$data/unified.db" ]; then
    data="${data:-$work/data}"
    echo "running the demo into $data" >&2
    "$ownerdash" demo --data-dir "$data" --quiet >/dev/null
fi
