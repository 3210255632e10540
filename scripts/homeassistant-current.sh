#!/bin/sh
# The current Home Assistant that Tests/EndToEndTests/RealHomeAssistantTests.swift runs beside the
# oldest supported one (docs/mqtt.md, "Tested with Home Assistant"): made once, then reused.
#
# It needs a newer Python (>= 3.14.2) than Debian stable has, so it lives in a Debian testing
# (forky) root: `debootstrap --variant=minbase forky` with python3 and what pip needs, and a virtualenv
# at /opt/homeassistant in it with Tests/Support/homeassistant/current/requirements.txt from PyPI.
# Home Assistant runs there under chroot, in a mount namespace of its own (unshare) that holds its
# /proc, /dev, /sys and the config folder: the kernel unmounts them when it exits, however it exits,
# and nothing is ever mounted in the host's namespace, so a root is deleted safely with rm.
#
# Stable bookworm's debootstrap has no script for forky; sid's package has, and is only shell
# scripts (architecture all). Its .deb is fetched with apt-get download through a temporary apt
# configuration (a sid source, lists in the cache) and unpacked beside the root, never installed:
# the host's packages stay as they are. Debootstrap is not on PyPI, so there is no other ordinary
# client to get it with.
#
# The root is $GPSFENCE_HA_CURRENT_ROOT, or ~/.cache/gpsfence/ha-current-KEY (under
# $XDG_CACHE_HOME when set), KEY a hash of its inputs (the suite, its Debian packages and the
# requirements): a changed list makes a new root (docs/packaging.md has the time) and deletes the
# older ones. A root is made in a .tmp folder and renamed when complete, so an interrupted one is
# never used.
#
#   scripts/homeassistant-current.sh                  make it if needed, print the root's folder
#   scripts/homeassistant-current.sh --cached         print the root's folder if made, else exit 3
#   scripts/homeassistant-current.sh hass CONFIG ARG...  run hass in the root on the folder CONFIG
set -eu

here=$(cd "$(dirname "$0")" && pwd)
requirements=$here/../Tests/Support/homeassistant/current/requirements.txt
cache=${XDG_CACHE_HOME:-$HOME/.cache}/gpsfence
suite=forky
# gcc, g++ and python3-dev: a few of Home Assistant's pinned packages have no wheel for the newest
# Python yet, and pip builds them (small C and C++ extensions). tzdata: Home Assistant's time
# zones; libturbojpeg0: its camera component logs an error at start without it.
packages=python3,python3-venv,python3-dev,gcc,g++,libc6-dev,ca-certificates,tzdata,libturbojpeg0
key=$( (echo "$suite $packages"; cat "$requirements") | sha256sum | cut -c1-12)
rootfs=${GPSFENCE_HA_CURRENT_ROOT:-$cache/ha-current-$key}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
venv=/opt/homeassistant

say() { echo "homeassistant-current: $*" >&2; }

# in_root ROOT COMMAND...: COMMAND in ROOT as root, with /proc, /dev, /sys mounted in a namespace
# that ends with it, and a clean environment.
in_root() {
    dir=$1
    shift
    unshare --mount --propagation private /bin/sh -c '
        dir=$1; shift
        mount -t proc proc "$dir/proc"
        mount --rbind /dev "$dir/dev"
        mount --rbind /sys "$dir/sys"
        exec chroot "$dir" /usr/bin/env -i HOME=/root LANG=C.UTF-8 \
            PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin "$@"' sh "$dir" "$@"
}

case "${1:-}" in
--cached)
    [ -x "$rootfs$venv/bin/hass" ] || exit 3
    echo "$rootfs"
    exit 0
    ;;
hass)
    # The config folder is bound at /config in the root; exec all the way down, so the caller's
    # pid is Home Assistant's own and its SIGTERM reaches it.
    [ $# -ge 2 ] || { say "usage: $0 hass CONFIG [ARG...]"; exit 2; }
    config=$(cd "$2" && pwd)
    shift 2
    [ -x "$rootfs$venv/bin/hass" ] || { say "no root at $rootfs: run $0 first"; exit 3; }
    exec unshare --mount --propagation private /bin/sh -c '
        dir=$1 config=$2 venv=$3; shift 3
        mount -t proc proc "$dir/proc"
        mount --rbind /dev "$dir/dev"
        mount --rbind /sys "$dir/sys"
        mount --bind "$config" "$dir/config"
        exec chroot "$dir" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TZ=UTC \
            PATH="$venv/bin:/usr/sbin:/usr/bin:/sbin:/bin" "$venv/bin/hass" -c /config "$@"' \
        sh "$rootfs" "$config" "$venv" "$@"
    ;;
"") ;;
*)
    say "usage: $0 [--cached | hass CONFIG [ARG...]]"
    exit 2
    ;;
esac

if [ -x "$rootfs$venv/bin/hass" ]; then
    echo "$rootfs"
    exit 0
fi

start=$(date +%s)
say "making the $suite root with Home Assistant in $rootfs (once)"
mkdir -p "$cache"

# sid's debootstrap, unpacked (kept in the cache: it is the same for every root).
tools=$cache/debootstrap-sid
if [ ! -x "$tools/usr/sbin/debootstrap" ] || [ ! -f "$tools/usr/share/debootstrap/scripts/$suite" ]; then
    apt=$(mktemp -d)
    mkdir -p "$apt/lists/partial" "$apt/archives/partial" "$apt/sources.list.d"
    echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror sid main" >"$apt/sources.list"
    set -- -o Dir::Etc::sourcelist="$apt/sources.list" -o Dir::Etc::sourceparts="$apt/sources.list.d" \
        -o Dir::State::lists="$apt/lists" -o Dir::Cache::archives="$apt/archives" \
        -o Dir::Cache::pkgcache="" -o Dir::Cache::srcpkgcache="" \
        -o Acquire::Languages=none -o Acquire::Check-Valid-Until=false -o APT::Sandbox::User=root
    apt-get "$@" -qq update >&2
    (cd "$apt" && apt-get "$@" -qq download debootstrap >&2)
    rm -rf "$tools"
    dpkg-deb -x "$apt"/debootstrap_*.deb "$tools"
    rm -rf "$apt"
fi

fresh=$rootfs.tmp
rm -rf --one-file-system "$fresh"
DEBOOTSTRAP_DIR=$tools/usr/share/debootstrap "$tools/usr/sbin/debootstrap" --variant=minbase \
    --include="$packages" "$suite" "$fresh" "$mirror" >"$cache/debootstrap-$suite.log" 2>&1 ||
    { tail -20 "$cache/debootstrap-$suite.log" >&2; exit 1; }
# A testing suite's Release may be older than its Valid-Until when the mirror is a snapshot.
echo 'Acquire::Check-Valid-Until "false";' >"$fresh/etc/apt/apt.conf.d/99gpsfence"
cp /etc/resolv.conf "$fresh/etc/resolv.conf"
# The certificate authorities this machine added to its own (a proxy's, a company's): pip in the
# root then reaches PyPI wherever the host's pip does.
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
    cp /usr/local/share/ca-certificates/*.crt "$fresh/usr/local/share/ca-certificates/"
    in_root "$fresh" update-ca-certificates >/dev/null 2>&1
fi
mkdir -p "$fresh/config"

if ! in_root "$fresh" python3 -c 'import sys; sys.exit(0 if sys.version_info[:3] >= (3, 14, 2) else 1)'; then
    say "$suite's python3 is $(in_root "$fresh" python3 --version 2>&1); Home Assistant wants >= 3.14.2"
    exit 2
fi
in_root "$fresh" python3 -m venv "$venv"
cp "$requirements" "$fresh/requirements.txt"
in_root "$fresh" "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input \
    -r /requirements.txt >&2

mv "$fresh" "$rootfs"
# Done: the older roots in the cache go (nothing is mounted in them outside a running hass's own
# namespace); a root placed elsewhere leaves the cache alone.
if [ -z "${GPSFENCE_HA_CURRENT_ROOT:-}" ]; then
    for old in "$cache"/ha-current-*; do
        [ "$old" = "$rootfs" ] || case "$old" in *.tmp) ;; *) rm -rf --one-file-system "$old" ;; esac
    done
fi
say "made in $(($(date +%s) - start)) s"
echo "$rootfs"
