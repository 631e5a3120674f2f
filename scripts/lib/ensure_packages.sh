# shellcheck shell=bash
# ensure_packages PKG...: installs the Debian packages that are not installed yet (apt-get, as root or via sudo).
ensure_packages() {
    local missing=()
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "installing: ${missing[*]}" >&2
    local sudo=""
    [ "$(id -u)" -ne 0 ] && sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# ensure_libreoffice: installs LibreOffice's headless Calc (`soffice`) when missing; the package name differs between
# Debian releases.
ensure_libreoffice() {
    command -v soffice >/dev/null 2>&1 && return 0
    if apt-cache show libreoffice-calc-nogui >/dev/null 2>&1; then
        ensure_packages libreoffice-calc-nogui
    else
        ensure_packages libreoffice-calc
    fi
}
