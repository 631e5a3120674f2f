#!/usr/bin/env bash
# Builds the Debian package of ownerdash (docs/operators.md, "Install from the package"):
#   scripts/package.sh [--version V] [--out DIR] [--scratch-path DIR] [--test]
# writes DIR/ownerdash_<version>_<arch>.deb (default DIR: the repository's root; default version: `ownerdash
# --version` of the build). --test then installs it on this machine with apt-get, runs the demo from it and purges
# it (scripts/package/install_test.sh; root, a few minutes).
#
# --scratch-path: SwiftPM's build directory (default .build). This static release build and scripts/run.sh's dynamic
# one rebuild everything when they alternate in one directory; a separate one (.build-package) keeps both.
#
# Only Debian's own tools: dpkg-deb, dpkg-shlibdeps (dpkg-dev). The Swift runtime is not a Debian package, so the
# binary is linked with --static-swift-stdlib: 66 MB stripped (a 17 MB .deb), against a 28 MB binary plus 76 MB of
# runtime .so files to ship beside it under an rpath; the C libraries stay Debian's, found by dpkg-shlibdeps.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
umask 022

version=""
out=$root
scratch=$root/.build
run_test=0
while [ $# -gt 0 ]; do
    case $1 in
        --version) version=${2:?--version needs a value}; shift 2 ;;
        --out) out=${2:?--out needs a directory}; shift 2 ;;
        --scratch-path) scratch=${2:?--scratch-path needs a directory}; shift 2 ;;
        --test) run_test=1; shift ;;
        -h|--help) awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"; exit 0 ;;
        *) echo "package.sh: unknown argument $1 (see --help)" >&2; exit 1 ;;
    esac
done
case $out in /*) ;; *) out=$PWD/$out ;; esac

source scripts/lib/ensure_packages.sh
ensure_packages libcurl4-openssl-dev libxml2-dev libsqlite3-dev zlib1g-dev libmicrohttpd-dev libssl-dev libxlsxwriter-dev libxgboost-dev \
    libpq-dev python3 pkg-config dpkg-dev binutils

started=$SECONDS
swift build -c release --product ownerdash --static-swift-stdlib --scratch-path "$scratch" >&2
binary=$(swift build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/ownerdash
built=$SECONDS
[ -n "$version" ] || version=$("$binary" --version | awk '{print $2}')
if ! [[ $version =~ ^[0-9][A-Za-z0-9.+~-]*$ ]]; then
    echo "package.sh: \"$version\" is not a Debian version" >&2; exit 1
fi
arch=$(dpkg --print-architecture)

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
stage=$work/ownerdash
share=$stage/usr/share/ownerdash

# MARK: - Files

install -D -m 0755 "$binary" "$stage/usr/bin/ownerdash"
# What dh_strip does: no symbol table or .comment; the GNU build id (a note section of its own) stays, since
# OwnerDash's build identity is read from it.
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$stage/usr/bin/ownerdash"

# The demo: the simulator and the modules of scripts/lib it imports (reports.py: onesite_reports, which uses
# xlsx_writer; forms.py: report_forms, which uses biff8_writer), beside the example registry, which is where
# `ownerdash demo` looks first (DemoFiles in DemoSimulator.swift).
install -d "$share/scripts/pms_sim" "$share/scripts/lib"
install -m 0644 scripts/pms_sim/*.py "$share/scripts/pms_sim/"
install -m 0644 scripts/lib/{onesite_reports,xlsx_writer,report_forms,biff8_writer}.py "$share/scripts/lib/"
install -m 0644 report_definitions.json "$share/report_definitions.json"
# Every module those files import is in the package or Python's standard library: imported from the stage, isolated
# from the checkout and the environment (-I), writing no byte-code into it (-B).
(cd "$work" && python3 -I -B -c '
import sys
sys.path[:0] = [sys.argv[1] + "/scripts", sys.argv[1] + "/scripts/lib"]
import pms_sim.cli, pms_sim.server, report_forms' "$share") || {
    echo "package.sh: the packaged simulator does not import from the package alone (a module of scripts/ missing above?)" >&2
    exit 1
}

# Configuration: the example registry and the env file of the systemd units, conffiles (dpkg keeps an operator's
# edits over upgrades). The env file holds secrets: root-only, as systemd reads it as root.
install -D -m 0644 report_definitions.json "$stage/etc/ownerdash/report_definitions.json"
sed -e 's|^#   sudo install -D -m 0600 scripts/systemd/ownerdash.env.example /etc/ownerdash/ownerdash.env$|#   installed by the ownerdash package (root, 0600); dpkg keeps your edits over upgrades.|' \
    scripts/systemd/ownerdash.env.example > "$work/ownerdash.env"
install -D -m 0600 "$work/ownerdash.env" "$stage/etc/ownerdash/ownerdash.env"

# The systemd units, at the package's paths: binary /usr/bin, registry /etc/ownerdash, working directory the
# ownerdash user's home. scripts/systemd/ has them for a hand install under /opt/ownerdash, where serve finds the
# registry (its sign-in settings) in its working directory; here it is named.
install -d "$stage/lib/systemd/system"
for unit in ownerdash-ingest.service ownerdash-ingest.timer ownerdash-serve.service; do
    command=${unit#ownerdash-}; command=${command%%.*}
    sed -e 's|/opt/ownerdash/bin/ownerdash|/usr/bin/ownerdash|g' \
        -e 's|/opt/ownerdash/report_definitions.json|/etc/ownerdash/report_definitions.json|g' \
        -e 's|/usr/bin/ownerdash serve |/usr/bin/ownerdash serve --config /etc/ownerdash/report_definitions.json |g' \
        -e 's|^WorkingDirectory=/opt/ownerdash$|WorkingDirectory=/var/lib/ownerdash|' \
        -e "s|^Documentation=file:///opt/ownerdash/README.md\$|Documentation=man:ownerdash-$command(1)|" \
        -e 's|install both as scripts/systemd/README.md says|installed by the ownerdash package (docs/operators.md, "Install from the package")|' \
        -e 's|Install as scripts/systemd/README.md says, then:|Installed by the ownerdash package; then:|' \
        -e 's|the layout of scripts/systemd/README.md: binary and registry under /opt/ownerdash|the Debian package'"'"'s layout: binary /usr/bin/ownerdash, registry /etc/ownerdash|' \
        -e 's|the layout of scripts/systemd/README.md: binary under /opt/ownerdash|the Debian package'"'"'s layout: binary /usr/bin/ownerdash|' \
        "scripts/systemd/$unit" > "$stage/lib/systemd/system/$unit"
    chmod 0644 "$stage/lib/systemd/system/$unit"
done
# A unit still naming the hand-install layout (its comments reworded since the rules above were written) is a
# packaging error, not a unit that half works.
if grep -n '/opt/ownerdash\|scripts/systemd/README' "$stage"/lib/systemd/system/*; then
    echo "package.sh: the lines above still name the hand-install layout; extend the sed rules of the units" >&2
    exit 1
fi

# Man pages from the binary's own --help (scripts/package/manpages.py), dated by the commit rather than the day of
# the build.
date=$(git log -1 --format=%cs 2>/dev/null || date -u +%F)
python3 -B scripts/package/manpages.py "$stage/usr/bin/ownerdash" "$work/man" --date "$date" >&2
install -d "$stage/usr/share/man/man1"
for page in "$work"/man/*.1; do
    gzip -9n -c "$page" > "$stage/usr/share/man/man1/$(basename "$page").gz"
done
chmod 0644 "$stage"/usr/share/man/man1/*.gz

# Bash completion, generated from the same command table (`ownerdash completion bash`); bash-completion loads it
# on demand from here.
install -d "$stage/usr/share/bash-completion/completions"
"$stage/usr/bin/ownerdash" completion bash > "$stage/usr/share/bash-completion/completions/ownerdash"
chmod 0644 "$stage/usr/share/bash-completion/completions/ownerdash"

doc=$stage/usr/share/doc/ownerdash
install -d "$doc"
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
maintainer="OwnerDash maintainers <maintainers@users.noreply.b-seed-5ab0cc57.example>"
{
    echo "ownerdash ($version) unstable; urgency=medium"
    echo
    echo "  * Built by scripts/package.sh from commit $commit (history: git log)."
    echo
    echo " -- $maintainer  $(date -u -R -d "@$(git log -1 --format=%ct 2>/dev/null || date +%s)")"
} | gzip -9n > "$doc/changelog.gz"
years=$(git log --format=%cd --date=format:%Y 2>/dev/null | sort -u | sed -n '1p;$p' | paste -sd- | sed 's/^\([0-9]*\)-\1$/\1/')
[ -n "$years" ] || years=$(date -u +%Y)
cat > "$doc/copyright" <<EOF
Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: ownerdash
Comment: Built from the OwnerDash repository, commit $commit. The repository
 carries no licence file; this package does not assume one.

Files: *
Copyright: $years OwnerDash maintainers
License: none
 No licence to copy, modify or redistribute OwnerDash is stated.
EOF
chmod 0644 "$doc/changelog.gz" "$doc/copyright"
# The manual, at the paths doctor's and the errors' hints name (docs/operators.md, ...), below the package's doc directory.
install -m 0644 README.md "$doc/README.md"
install -d "$doc/docs/images"
install -m 0644 docs/*.md "$doc/docs/"
install -m 0644 docs/images/* "$doc/docs/images/"
# The one lintian finding kept on purpose: the env file holds the vendors' secrets.
install -D -m 0644 /dev/stdin "$stage/usr/share/lintian/overrides/ownerdash" <<'EOF'
# Secrets (RealPage token command, Yardi password): root-only, systemd reads it as root.
ownerdash: non-standard-file-perm 0600 != 0644 [etc/ownerdash/ownerdash.env]
EOF

# MARK: - Control

install -d -m 0755 "$stage/DEBIAN"
install -m 0755 scripts/package/postinst scripts/package/prerm scripts/package/postrm "$stage/DEBIAN/"
printf '%s\n' /etc/ownerdash/report_definitions.json /etc/ownerdash/ownerdash.env > "$stage/DEBIAN/conffiles"
chmod 0644 "$stage/DEBIAN/conffiles"

# The shared libraries the binary links, as Debian packages with the versions its symbols need (dpkg-shlibdeps reads
# the libraries' symbols files). It wants a source package's debian/control to stand in.
mkdir -p "$work/src/debian"
printf 'Source: ownerdash\n\nPackage: ownerdash\nArchitecture: any\n' > "$work/src/debian/control"
shlibs=$(cd "$work/src" && dpkg-shlibdeps -O "$stage/usr/bin/ownerdash" | sed -n 's/^shlibs:Depends=//p')
[ -n "$shlibs" ] || { echo "package.sh: dpkg-shlibdeps found no libraries for ownerdash" >&2; exit 1; }
# The delinquency forecast runs on Debian's libxgboost0 (libxgboost0's shlibs file names it): a binary that does not
# link it has lost the forecast, and a package without it in Depends would install and fail on first use.
case "$shlibs" in
    *libxgboost0*) ;;
    *) echo "package.sh: ownerdash does not depend on libxgboost0 (dpkg-shlibdeps: $shlibs)" >&2; exit 1 ;;
esac

installed_size=$(du -sk --exclude=DEBIAN "$stage" | cut -f1)
cat > "$stage/DEBIAN/control" <<EOF
Package: ownerdash
Version: $version
Architecture: $arch
Maintainer: $maintainer
Installed-Size: $installed_size
Depends: $shlibs, adduser, python3
Section: misc
Priority: optional
Description: RealPage and Yardi data for multifamily owners, in SQLite
 OwnerDash downloads a property management company's RealPage OneSite reports
 and Yardi Voyager SOAP data, keeps every downloaded byte, loads them into raw
 SQLite databases and syncs both systems into one unified database, which
 answers occupancy, exposure, pricing, delinquency, leasing and ledger
 questions, in tables, CSV, JSON, workbooks and a dashboard.
 .
 The package installs the ownerdash command, its man pages, systemd units for
 the nightly ingest and the dashboard server (not enabled), an example
 registry in /etc/ownerdash, and the PMS simulator that "ownerdash demo"
 runs (python3).
EOF
(cd "$stage" && find . -path ./DEBIAN -prune -o -type f -printf '%P\0' | sort -z | xargs -0 md5sum) > "$stage/DEBIAN/md5sums"
chmod 0644 "$stage/DEBIAN/md5sums"

mkdir -p "$out"
deb=$out/ownerdash_${version}_${arch}.deb
dpkg-deb --build --root-owner-group -Zxz "$stage" "$deb" >&2
echo "package.sh: $deb ($(du -h "$deb" | cut -f1); release build $((built - started)) s, packaging $((SECONDS - built)) s)" >&2
# Lintian when it is installed (apt-get install lintian); its findings are printed, not fatal: it is a review aid.
if command -v lintian >/dev/null; then
    lintian "$deb" 2>&1 | grep -v "running with root privileges is not recommended" >&2 || true
fi

if [ "$run_test" = 1 ]; then
    bash scripts/package/install_test.sh "$deb"
fi
