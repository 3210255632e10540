#!/usr/bin/env bash
# The Debian package on a clean Debian root (docs/packaging.md, "Tests"): `apt-get install ./dist/...deb`
# into a fresh `debootstrap --variant=minbase bookworm` (with man-db, as a desktop has it), then
#   gpsfence --version, a replay of the installed example, man -w, bash completion,
#   the udev rules and units where udev and systemd look,
# and `apt-get purge` leaves nothing of the package behind but the files the user made.
# Usage: scripts/test-deb-install.sh [dist/gpsfence_VERSION_ARCH.deb]   (needs root)
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/debootstrap-root.sh

deb=${1:-$(ls -t dist/gpsfence_*_"$(dpkg --print-architecture)".deb 2>/dev/null | head -1)}
[ -f "$deb" ] || { echo "no package: run make deb first" >&2; exit 1; }
version=$(basename "$deb" | cut -d_ -f2)
root=$cache_dir/deb-install
trap 'umount_root "$root"' EXIT

# The two units share one hardening: their [Service] sections differ only in ExecStart.
service_section() { sed -n '/^\[Service\]/,/^\[Install\]/p' "$1" | grep -v -e '^ExecStart=' -e '^\[Install\]' -e '^$'; }
check "gpsfence.service and gpsfence@.service have the same [Service] hardening" \
    diff <(service_section systemd/gpsfence.service) <(service_section systemd/gpsfence@.service)
check "both units reload on ExecReload" grep -q '^ExecReload=' systemd/gpsfence.service systemd/gpsfence@.service
# systemd's own judge of the units (no unknown key, valid values), where systemd-analyze exists.
# It checks that ExecStart's program exists, so that is pointed at /bin/true for the check.
units_ok() {
    local dir status out
    dir=$(mktemp -d)
    sed 's|^ExecStart=[^ ]*|ExecStart=/bin/true|' systemd/gpsfence.service >"$dir/gpsfence.service"
    sed 's|^ExecStart=[^ ]*|ExecStart=/bin/true|' systemd/gpsfence@.service >"$dir/gpsfence@ttyACM0.service"
    out=$(cd "$dir" && systemd-analyze verify --man=no ./gpsfence.service ./gpsfence@ttyACM0.service 2>&1); status=$?
    rm -rf "$dir"
    [ -z "$out" ] || echo "$out"
    [ "$status" -eq 0 ] && [ -z "$out" ]
}
if command -v systemd-analyze >/dev/null; then
    check "systemd-analyze verify accepts both units" units_ok
fi

new_root "$root"
mount_root "$root"
in_root "$root" 'export DEBIAN_FRONTEND=noninteractive; apt-get update -qq && apt-get install -y -qq man-db >/dev/null'
# The package's dependencies (and what they recommend, as apt installs it) go in first, so that the
# root before installing gpsfence and after purging it can be compared file by file. systemd would
# have made /var/lib/private (where DynamicUser services keep their state) long before.
depends=$(dpkg-deb -f "$deb" Depends | sed -e 's/([^)]*)//g' -e 's/,/ /g')
in_root "$root" "DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $depends >/dev/null && mkdir -p -m 0700 /var/lib/private"
# What the user made before installing: their service options. Purge must leave them.
echo 'GPSFENCE_ARGS="--fences /etc/gpsfence/fences.geojson"' >"$root/etc/default/gpsfence"
snapshot() { # every path outside the places apt, dpkg and man-db keep their own state
    in_root "$root" 'find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /tmp -o -path /var/cache \
        -o -path /var/lib/apt -o -path /var/lib/dpkg -o -path /var/log -o -path /etc/ld.so.cache \) -prune -o -print' | sort
}
snapshot >"$cache_dir/deb-before.txt"

cp "$deb" "$root/tmp/"
start=$(date +%s)
set +e
out=$(in_root "$root" "DEBIAN_FRONTEND=noninteractive apt-get install -y /tmp/$(basename "$deb")" 2>&1); status=$?
set -e
echo "$out" | tail -4 | sed 's/^/  apt> /'
echo "  (apt-get install took $(( $(date +%s) - start )) s)"
check "apt-get install ./$(basename "$deb") succeeds in a chroot (no udev, no systemd)" test "$status" -eq 0
check "... it depends on the libraries dpkg-shlibdeps found (libudev1, libsqlite3-0)" \
    in_root "$root" 'dpkg-query -W -f="\${Depends}" gpsfence | grep -q libudev1 && dpkg-query -W -f="\${Depends}" gpsfence | grep -q libsqlite3-0'

out=$(in_root "$root" 'gpsfence --version' 2>&1 || true)
check "gpsfence --version prints the package's version ($version)" test "$out" = "$version"

ex=/usr/share/doc/gpsfence/examples/bridge
out=$(in_root "$root" "cd /tmp && gpsfence replay $ex/capture.nmea --fences $ex/fences.geojson" 2>&1 || true)
echo "$out" | sed 's/^/  replay> /'
# 2500 m west of the bridge at 25 m/s with a one-mile (1609.344 m) approach radius and a 12 m circle:
# first warned at t = 36 s, 2500 - 900 - 12 = 1588 m ahead (captures/bridge/README.md).
check "the installed example replays: approach 1588 m ahead" grep -qE "approach +Low bridge .*\[bridge-1\] +1588 m ahead" <<<"$out"
check "... then enter" grep -qE "enter +Low bridge .*\[bridge-1\]" <<<"$out"

# A plain chroot has no /proc, and the static Swift runtime reads the command line from
# /proc/self/cmdline: the binary must refuse to run (exit 1, saying why) rather than see no
# arguments and print the help with exit 0 (docs/packaging.md).
umount "$root/proc"
set +e
out=$(in_root "$root" "cd /tmp && gpsfence replay $ex/capture.nmea --fences $ex/fences.geojson" 2>&1); status=$?
set -e
mount -t proc proc "$root/proc"
echo "$out" | sed 's/^/  no-proc> /'
check "without /proc, gpsfence replay fails with exit status 1 (was: the help, 0)" test "$status" -eq 1
check "... and says the command line could not be read, and why" grep -q "cannot read the command line (/proc/self/cmdline): is /proc mounted" <<<"$out"

check "man -w gpsfence finds the page" test "$(in_root "$root" 'man -w gpsfence')" = /usr/share/man/man1/gpsfence.1.gz
check "man -w gpsfence.replay finds the subcommand's page" test "$(in_root "$root" 'man -w gpsfence.replay')" = /usr/share/man/man1/gpsfence.replay.1.gz
check "the page renders and documents --fences" in_root "$root" 'MANWIDTH=80 man gpsfence.replay 2>/dev/null | grep -q -- "--fences"'
out=$(in_root "$root" '. /usr/share/bash-completion/completions/gpsfence; COMP_WORDS=(gpsfence re); COMP_CWORD=1; COMP_LINE="gpsfence re"; COMP_POINT=11; _gpsfence gpsfence re gpsfence 2>/dev/null; echo "${COMPREPLY[*]}"')
check "bash completion completes 're' to replay and record" grep -qw replay <<<"$out"
check "... (record)" grep -qw record <<<"$out"
check "zsh completion in vendor-completions" test -s "$root/usr/share/zsh/vendor-completions/_gpsfence"
check "fish completion in vendor_completions.d" test -s "$root/usr/share/fish/vendor_completions.d/gpsfence.fish"

check "udev rules where udev looks (/usr/lib/udev/rules.d)" cmp -s udev/60-gpsfence.rules "$root/usr/lib/udev/rules.d/60-gpsfence.rules"
check "gpsfence.service where systemd looks (/usr/lib/systemd/system)" cmp -s systemd/gpsfence.service "$root/usr/lib/systemd/system/gpsfence.service"
check "gpsfence@.service (started by the udev rule) there too" cmp -s systemd/gpsfence@.service "$root/usr/lib/systemd/system/gpsfence@.service"
check "the units' ExecStart is the installed binary" bash -c "grep -h '^ExecStart=' '$root'/usr/lib/systemd/system/gpsfence*.service | cut -d' ' -f1 | sort -u | grep -qx 'ExecStart=/usr/bin/gpsfence' && test -x '$root/usr/bin/gpsfence'"
check "the udev rule wants the unit that is installed" grep -q 'SYSTEMD_WANTS}+="gpsfence@%k.service"' "$root/usr/lib/udev/rules.d/60-gpsfence.rules"
check "copyright is DEP-5" grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' "$root/usr/share/doc/gpsfence/copyright"

# The state the service would have made (DynamicUser keeps it in /var/lib/private).
in_root "$root" 'mkdir -p /var/lib/private/gpsfence && echo state >/var/lib/private/gpsfence/state.sqlite && ln -s private/gpsfence /var/lib/gpsfence'
files=$(in_root "$root" 'dpkg -L gpsfence' | while read -r f; do [ -d "$root$f" ] || echo "$f"; done)
set +e
out=$(in_root "$root" 'DEBIAN_FRONTEND=noninteractive apt-get purge -y gpsfence' 2>&1); status=$?
set -e
check "apt-get purge gpsfence succeeds" test "$status" -eq 0
check "... dpkg forgets it" bash -c "! chroot '$root' dpkg-query -W -f='\${db:Status-Status}' gpsfence 2>/dev/null | grep -q installed"
left=$(for f in $files; do [ -e "$root$f" ] && echo "$f"; done; true)
check "... no file of the package is left ($(wc -w <<<"$files") files)" test -z "$left"
check "... nor the service's state" test ! -e "$root/var/lib/private/gpsfence" -a ! -L "$root/var/lib/gpsfence"
check "... /etc/default/gpsfence, the user's, stays" test -f "$root/etc/default/gpsfence"
snapshot >"$cache_dir/deb-after.txt"
extra=$(comm -13 "$cache_dir/deb-before.txt" "$cache_dir/deb-after.txt")
[ -z "$extra" ] || echo "$extra" | sed 's/^/  left> /'
check "after purge the root holds exactly the files it held before the install" test -z "$extra"

umount_root "$root"
echo "deb-install: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
