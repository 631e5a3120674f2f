#!/usr/bin/env bash
# The package, installed on this machine (what `scripts/package.sh --test` runs after building it):
#   scripts/package/install_test.sh ownerdash_<version>_<arch>.deb
# apt-get installs it; the installed `ownerdash --version`, man pages, conffiles, user and units are checked; the
# installed binary runs `ownerdash demo` from an empty scratch directory (its registry and simulator from
# /usr/share/ownerdash, no checkout in sight) and its unified.db and dashboard are checked; a reinstall keeps an edited
# conffile and the data; `apt-get purge` must leave no user, group or file behind.
# Root only, on a machine that can lose its OwnerDash installation (CI's throwaway machine): an unprivileged run, or
# one on a machine with an ownerdash package, user or /var/lib/ownerdash, stops before touching anything.
# shellcheck disable=SC2016  # the sh -c checks expand their own $(...) and ${Status}, in the inner shell
set -euo pipefail
deb=${1:?usage: install_test.sh ownerdash_VERSION_ARCH.deb}
case $deb in /*) ;; *) deb=$PWD/$deb ;; esac
[ -f "$deb" ] || { echo "install_test.sh: no such package: $deb" >&2; exit 1; }

if [ "$(id -u)" -ne 0 ]; then
    echo "install_test.sh: SKIPPED: installing a package needs root (CI runs as root on a throwaway machine)" >&2
    exit 0
fi
if dpkg-query -W -f='${Status}' ownerdash 2>/dev/null | grep -q installed || getent passwd ownerdash >/dev/null \
    || [ -e /var/lib/ownerdash ]; then
    echo "install_test.sh: refusing: this machine already has an ownerdash package, user or /var/lib/ownerdash, which the test's purge would remove" >&2
    exit 1
fi

failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
check() { local what=$1; shift; if "$@"; then echo "ok: $what"; else fail "$what"; fi; }

export DEBIAN_FRONTEND=noninteractive
version=$(dpkg-deb -f "$deb" Version)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

# MARK: - Install
# man-db for `man -w`; installed first so the package's own install time is measured alone.
dpkg-query -W -f='${Status}' man-db 2>/dev/null | grep -q "install ok installed" || apt-get install -y -qq man-db >/dev/null
t0=$SECONDS
apt-get install -y -qq "$deb" > "$scratch/apt-install.log" 2>&1 || { cat "$scratch/apt-install.log" >&2; exit 1; }
echo "installed in $((SECONDS - t0)) s"

check "ownerdash --version prints ownerdash $version" test "$(/usr/bin/ownerdash --version)" = "ownerdash $version"
check "the binary is the package's, statically linked to the Swift runtime" \
    sh -c '! ldd /usr/bin/ownerdash | grep -q "libswift\|libFoundation"'
check "user ownerdash: system, home /var/lib/ownerdash, no login shell" \
    sh -c 'entry=$(getent passwd ownerdash) && [ "$(echo "$entry" | cut -d: -f3)" -lt 1000 ] && [ "$(echo "$entry" | cut -d: -f6)" = /var/lib/ownerdash ] && [ "$(echo "$entry" | cut -d: -f7)" = /usr/sbin/nologin ]'
check "/var/lib/ownerdash/data: ownerdash's, 0750" test "$(stat -c '%U:%G %a' /var/lib/ownerdash/data)" = "ownerdash:ownerdash 750"
check "/etc/ownerdash/ownerdash.env: root's, 0600" test "$(stat -c '%U %a' /etc/ownerdash/ownerdash.env)" = "root 600"
check "both /etc/ownerdash files are conffiles" \
    sh -c '[ "$(dpkg-query -W -f="\${Conffiles}" ownerdash | grep -c "/etc/ownerdash/\(report_definitions.json\|ownerdash.env\) ")" = 2 ]'
check "ingest unit runs the installed binary on /etc/ownerdash's registry as ownerdash" \
    sh -c 'grep -qx "ExecStart=/usr/bin/ownerdash ingest --config /etc/ownerdash/report_definitions.json --parallel 4" /lib/systemd/system/ownerdash-ingest.service && grep -qx "User=ownerdash" /lib/systemd/system/ownerdash-ingest.service && grep -qx "Environment=OWNERDASH_DATA_DIR=/var/lib/ownerdash/data" /lib/systemd/system/ownerdash-ingest.service'
check "serve unit reads /etc/ownerdash's registry (its sign-in settings)" \
    grep -qx "ExecStart=/usr/bin/ownerdash serve --config /etc/ownerdash/report_definitions.json --listen 127.0.0.1:8080" /lib/systemd/system/ownerdash-serve.service
check "man -w ownerdash-ingest finds the packaged page" test "$(man -w ownerdash-ingest)" = /usr/share/man/man1/ownerdash-ingest.1.gz
check "the manual doctor's hints name is installed (docs/operators.md)" test -s /usr/share/doc/ownerdash/docs/operators.md
# Every command `ownerdash --help` lists has its page, and man renders each without a warning.
# A listed command is one or two words (`report lease-status`), then two or more spaces and its abstract.
commands=$(/usr/bin/ownerdash --help | sed -n '/^COMMANDS:/,/^$/p' | sed -E -n 's/^  ([^ ]+( [^ ]+)?)  .*/\1/p' | tr ' ' '-')
for command in $commands; do
    [ -f "/usr/share/man/man1/ownerdash-$command.1.gz" ] || fail "no man page for ownerdash $command"
done
echo "ok: a man page for each of the $(echo "$commands" | wc -w) commands"
warnings=$(for page in /usr/share/man/man1/ownerdash*.1.gz; do LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l "$page" 2>&1 >/dev/null | sed "s|^|$page: |"; done)
check "man renders every page without a warning" test -z "$warnings"
[ -z "$warnings" ] || echo "$warnings" | head -20 >&2
if command -v systemd-analyze >/dev/null; then
    check "systemd-analyze verify accepts the units" \
        systemd-analyze verify /lib/systemd/system/ownerdash-ingest.service /lib/systemd/system/ownerdash-ingest.timer /lib/systemd/system/ownerdash-serve.service
fi

# MARK: - The demo, from the package
# An empty directory, a bare environment (no OWNERDASH_*, no PATH beyond the system's: python3 is Debian's).
t0=$SECONDS
status=0
(cd "$scratch" && env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME="$scratch" LANG=C.UTF-8 /usr/bin/ownerdash demo \
    > demo.out 2> demo.err) || status=$?
echo "demo from the package: exit $status in $((SECONDS - t0)) s"
check "ownerdash demo exits 0" test "$status" = 0
[ "$status" = 0 ] || tail -n 30 "$scratch/demo.err" >&2
check "demo ran the packaged registry and simulator" test -f "$scratch/data/simulator/truth.json"
check "demo wrote data/dashboard.html" grep -q "Nexus East" "$scratch/data/dashboard.html"
# unified.db holds every property of the packaged registry, each with units.
check "unified.db holds the registry's 30 properties, each with units" python3 - "$scratch/data/unified.db" <<'EOF'
import json, sqlite3, sys
registry = {p["key"] for p in json.load(open("/usr/share/ownerdash/report_definitions.json"))["properties"]}
db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
synced = {key for (key,) in db.execute("SELECT unified_property_id FROM unified_properties")}
with_units = {key for (key,) in db.execute("SELECT DISTINCT unified_property_id FROM unified_units")}
print("registry %d, synced %d, with units %d" % (len(registry), len(synced), len(with_units)))
sys.exit(0 if len(registry) == 30 and registry == synced == with_units else 1)
EOF
check "demo printed the portfolio summary and the dashboard's path" \
    sh -c "grep -q '^Portfolio as of 2026-11-20:' '$scratch/demo.out' && grep -Eq '^portfolio +2026-11-20 ' '$scratch/demo.out' && grep -Eq '^dashboard +(.*/)?data/dashboard\.html\$' '$scratch/demo.out'"
[ "$failures" = 0 ] || { echo "--- the demo's stdout, last lines:" >&2; tail -n 8 "$scratch/demo.out" >&2; }

# MARK: - Reinstall (an upgrade to the same version): an operator's edits and the data stay
echo "# edited by install_test.sh" >> /etc/ownerdash/ownerdash.env
touch /var/lib/ownerdash/data/kept
apt-get install -y -qq --reinstall "$deb" > "$scratch/apt-reinstall.log" 2>&1 || { cat "$scratch/apt-reinstall.log" >&2; exit 1; }
check "reinstall keeps the edited env file" grep -q "edited by install_test.sh" /etc/ownerdash/ownerdash.env
check "reinstall keeps the data" test -f /var/lib/ownerdash/data/kept

# MARK: - Purge
files=$(dpkg-query -L ownerdash)
t0=$SECONDS
apt-get purge -y -qq ownerdash > "$scratch/apt-purge.log" 2>&1 || { cat "$scratch/apt-purge.log" >&2; exit 1; }
echo "purged in $((SECONDS - t0)) s"
check "purge: the package is gone" sh -c '! dpkg-query -W -f="\${Status}" ownerdash 2>/dev/null | grep -q installed'
check "purge: no user ownerdash" sh -c '! getent passwd ownerdash'
check "purge: no group ownerdash" sh -c '! getent group ownerdash'
left=$(for path in $files /var/lib/ownerdash /etc/ownerdash /usr/share/ownerdash /usr/share/doc/ownerdash; do
    # The shared directories a package's list names (/usr, /usr/share/man/man1, ...) stay, as they should.
    if [ -d "$path" ] && [ "$path" != /var/lib/ownerdash ] && ! [[ $path =~ ownerdash ]]; then continue; fi
    if [ -e "$path" ]; then echo "$path"; fi
done)
check "purge: no file or directory of the package left" test -z "$left"
[ -z "$left" ] || echo "$left" | head -20 >&2

if [ "$failures" -gt 0 ]; then
    echo "install_test.sh: $failures check(s) failed" >&2
    exit 1
fi
echo "install_test.sh: the package installs, runs the demo and purges cleanly"
