#!/bin/sh
# Installs the Debian packages of scripts/system-packages.txt that this machine lacks: `apt-get
# update` then `apt-get install -y`, directly when run as root, through sudo otherwise. Nothing is
# run (and no root needed) when every package is already there.
#
#   scripts/install-deps.sh            the packages to build and test gpsfence
#   scripts/install-deps.sh deb        ... and those of the `deb` group (make deb, packaging tests)
#   scripts/install-deps.sh --list deb print the package names instead of installing them
set -eu

list_file="$(dirname "$0")/system-packages.txt"
only_list=no
if [ "${1:-}" = "--list" ]; then only_list=yes; shift; fi
groups=" $* "

# The packages of the list that the requested groups select, one per line.
selected() {
    sed -e 's/#.*//' "$list_file" | while read -r pkg group _; do
        [ -n "$pkg" ] || continue
        if [ -n "$group" ]; then
            case "$groups" in *" $group "*) ;; *) continue ;; esac
        fi
        echo "$pkg"
    done
}

if [ "$only_list" = yes ]; then
    selected
    exit 0
fi

if ! command -v dpkg-query >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
    echo "gpsfence set-up: this is not a Debian-like system (no dpkg-query/apt-get)." >&2
    echo "Install the equivalents of these Debian packages by hand, then run the command again:" >&2
    selected | sed 's/^/  /' >&2
    exit 1
fi

missing=""
for pkg in $(selected); do
    status=$(dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null || true)
    [ "$status" = installed ] || missing="$missing $pkg"
done
[ -n "$missing" ] || exit 0

if [ "$(id -u)" = 0 ]; then
    as_root=""
elif command -v sudo >/dev/null 2>&1; then
    as_root="sudo"
else
    echo "gpsfence set-up: these Debian packages are missing:$missing" >&2
    echo "Installing them needs root, and this user is not root and sudo is not installed." >&2
    echo "As root, run:  apt-get update && apt-get install -y$missing" >&2
    echo "then run this command again." >&2
    exit 1
fi

echo "gpsfence set-up: installing$missing${as_root:+ (through sudo)}" >&2
# Fresh machines often have never fetched the package lists, so update first.
$as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
$as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
