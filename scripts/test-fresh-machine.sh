#!/usr/bin/env bash
# The README's set-up on a fresh machine (docs/packaging.md, "Tests"): a clean `debootstrap --variant=minbase
# bookworm` root that has Swift (the toolchain bind-mounted from /opt/swift, plus the Debian packages
# swift.org lists for Debian 12) and never fetched its package lists. There:
#   1. a user who is neither root nor has sudo runs `make demo`: it stops before building, with a
#      message that names the missing packages and the command to run as root;
#   2. root runs `make demo`: apt-get update + install, build, and the bridge replay prints the
#      approach warning and the passage under the bridge;
#   3. with sudo installed, a sudo user's set-up step (the one `make test` runs too) installs a
#      package that went missing, through sudo.
# Needs root (debootstrap, chroot, mounts) and Debian's mirror. Prints "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/debootstrap-root.sh

root=$cache_dir/fresh-machine
trap 'umount_root "$root"' EXIT

new_root "$root"
mount_root "$root" --swift

# "A machine with Swift installed": what swift.org lists for Debian 12, and make for the README's
# commands. Then forget the package lists, as on a machine that never ran `apt-get update`.
in_root "$root" 'export DEBIAN_FRONTEND=noninteractive; apt-get update -qq &&
    apt-get install -y -qq --no-install-recommends binutils gcc git libc6-dev libcurl4-openssl-dev \
      libedit2 libncurses6 libgcc-12-dev libpython3-dev libsqlite3-0 libstdc++-12-dev libxml2-dev libz3-dev \
      pkg-config tzdata unzip zlib1g-dev ca-certificates make >/dev/null &&
    rm -rf /var/lib/apt/lists/*' >"$cache_dir/fresh-prerequisites.log" 2>&1 ||
    { tail -20 "$cache_dir/fresh-prerequisites.log"; exit 1; }
check "swift runs in the clean root" in_root "$root" 'swift --version >/dev/null'

# The project as a fresh clone has it: tracked files and new ones, nothing ignored (no .build).
mkdir -p "$root/src"
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -C "$root/src" -xf -
in_root "$root" 'useradd -m pilot && cp -r /src /home/pilot/gpsfence && chown -R pilot: /home/pilot/gpsfence && cp -r /src /root/gpsfence'
as_pilot() { in_root "$root" "su pilot -s /bin/bash -c 'export PATH=\$PATH; cd /home/pilot/gpsfence && $*'"; }
installed() { in_root "$root" "[ \"\$(dpkg-query -W -f='\${db:Status-Status}' $1 2>/dev/null)\" = installed ]"; }
not_installed() { ! installed "$1"; }

# 1. Neither root nor sudo.
set +e
out=$(as_pilot 'make demo' 2>&1); status=$?
set -e
echo "$out" | sed 's/^/  pilot> /'
check "without root or sudo make demo fails" test "$status" -ne 0
check "... saying sudo is missing" grep -q "sudo is not installed" <<<"$out"
check "... naming the root command with apt-get update" grep -q "apt-get update && apt-get install -y.*libudev-dev" <<<"$out"
check "... before building anything" test ! -e "$root/home/pilot/gpsfence/.build"

# 2. Root: the README's first command.
start=$(date +%s)
set +e
out=$(in_root "$root" 'cd /root/gpsfence && make demo' 2>&1); status=$?
set -e
echo "$out" | tail -8 | sed 's/^/  root> /'
echo "  (make demo as root took $(( $(date +%s) - start )) s)"
check "make demo as root succeeds" test "$status" -eq 0
check "... installed libudev-dev" installed libudev-dev
check "... installed the test tools too (sqlite3)" installed sqlite3
# The bridge is 2500 m west of the truck at 25 m/s, the approach radius is one mile (1609.344 m),
# the fence a 12 m circle: the first fix with 2500 - 25 t - 12 <= 1609.344 is t = 36 s, 1588 m ahead.
# The demo's truck is 3.5 m tall, the bridge's clearance 3.2 m: the warning is flagged too low.
check "... prints the approach warning a mile ahead, flagged too low" \
    grep -qE "approach +Low bridge .*\[bridge-1\] +TOO LOW: clearance 3\.2 m, 1588 m ahead" <<<"$out"
check "... then the passage under the bridge" grep -qE "enter +Low bridge .*\[bridge-1\]" <<<"$out"

# 3. A sudo user (lists forgotten again, one package gone): the set-up step installs it via sudo.
in_root "$root" 'export DEBIAN_FRONTEND=noninteractive; apt-get install -y -qq sudo >/dev/null &&
    echo "pilot ALL=(ALL) NOPASSWD: ALL" >/etc/sudoers.d/pilot && chmod 0440 /etc/sudoers.d/pilot &&
    apt-get purge -y -qq sqlite3 >/dev/null && rm -rf /var/lib/apt/lists/*'
check "sqlite3 is gone before the sudo run" not_installed sqlite3
set +e
out=$(as_pilot 'sh scripts/install-deps.sh' 2>&1); status=$?
set -e
echo "$out" | tail -3 | sed 's/^/  pilot> /'
check "the set-up step as a sudo user succeeds" test "$status" -eq 0
check "... through sudo" grep -q "through sudo" <<<"$out"
check "... and installs sqlite3" installed sqlite3

umount_root "$root"
echo "fresh-machine: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
