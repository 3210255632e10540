# Sourced by the tests that need a clean Debian root (scripts/test-fresh-machine.sh,
# scripts/test-deb-install.sh): `debootstrap --variant=minbase bookworm`, then chroot into it.
#
# The pristine root is cached as a tarball outside the clone ($GPSFENCE_DEBOOTSTRAP_CACHE, or
# ~/.cache/gpsfence/debootstrap, under $XDG_CACHE_HOME when set), so a fresh clone on the same machine
# reuses it, and unpacked anew for every test, so no test ever sees what another one changed; the
# cache is keyed by suite, architecture and mirror, and rebuilt after 7 days. Downloaded .debs are
# kept in its apt-archives/ (apt checks each against the signed lists, so a stale or damaged file is
# never installed).

cache_dir=${GPSFENCE_DEBOOTSTRAP_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/gpsfence/debootstrap}
suite=${GPSFENCE_ROOT_SUITE:-bookworm}
# Another architecture's root (arm64 on this x86-64 machine) runs under qemu-user through binfmt_misc
# (qemu-user-static, binfmt-support); scripts/test-deb-arm64.sh sets it.
root_arch=${GPSFENCE_ROOT_ARCH:-$(dpkg --print-architecture)}

# The tests' assertions: `check NAME COMMAND...` runs one and counts it in $passed or $failed.
passed=0 failed=0
check() {
    local name=$1; shift
    if "$@"; then passed=$((passed + 1)); echo "ok   $name"
    else failed=$((failed + 1)); echo "FAIL $name"; fi
}

# The mirror apt already uses on this machine (the same one the chroot's apt will use).
debian_mirror() {
    local uri
    uri=$(grep -hoE '^(deb|URIs:)[[:space:]]+(\[[^]]*\][[:space:]]+)?https?://[^[:space:]]+' \
            /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources 2>/dev/null |
          grep -oE 'https?://[^[:space:]]+' | grep -v security | grep -E '/debian/?$' | head -1 || true)
    echo "${DEBIAN_MIRROR:-${uri:-http://deb.debian.org/debian}}"
}

# new_root DIR: a clean minbase root at DIR (DIR must not exist or be an old root of ours).
new_root() {
    local dir=$1 mirror tarball stamp
    mirror=$(debian_mirror)
    tarball=$cache_dir/$suite-minbase-$root_arch.tar
    stamp=$tarball.mirror
    mkdir -p "$cache_dir/apt-archives/partial"
    if [ ! -f "$tarball" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$mirror" ] ||
       [ -n "$(find "$tarball" -mtime +7)" ]; then
        local fresh=$cache_dir/debootstrap-$suite-$root_arch.tmp log=$cache_dir/debootstrap-$suite-$root_arch.log
        remove_root "$fresh"
        echo "debootstrap --variant=minbase --arch $root_arch $suite from $mirror" >&2
        debootstrap --variant=minbase --arch "$root_arch" --cache-dir="$cache_dir/apt-archives" "$suite" "$fresh" "$mirror" >"$log" 2>&1 ||
            { tail -20 "$log" >&2; return 1; }
        # Security updates too, as a real machine has them (sid, the compiler's root, has none).
        if [ "$suite" != sid ]; then
            echo "deb $mirror $suite-updates main" >>"$fresh/etc/apt/sources.list"
            case "$mirror" in */debian|*/debian/)
                echo "deb ${mirror%/debian*}/debian-security $suite-security main" >>"$fresh/etc/apt/sources.list" ;;
            esac
        fi
        tar -C "$fresh" --numeric-owner -cf "$tarball.tmp" . || return 1
        remove_root "$fresh"
        mv "$tarball.tmp" "$tarball"
        echo "$mirror" >"$stamp"
    fi
    remove_root "$dir"
    mkdir -p "$dir"
    tar -C "$dir" --numeric-owner -xpf "$tarball" || return 1
    cp /etc/resolv.conf "$dir/etc/resolv.conf"
}

# mount_root DIR: /proc, /sys, /dev and the apt cache; with --swift also /opt/swift (read-only)
# and the local mirror of Swift packages with the git setting that points at it.
mount_root() {
    local dir=$1
    mount -t proc proc "$dir/proc"
    mount --bind /sys "$dir/sys"
    mount --bind /dev "$dir/dev"
    mount --bind /dev/pts "$dir/dev/pts"
    mount --bind "$cache_dir/apt-archives" "$dir/var/cache/apt/archives"
    if [ "${2:-}" = --swift ]; then
        mkdir -p "$dir/opt/swift"
        mount --bind /opt/swift "$dir/opt/swift"
        mount -o remount,bind,ro "$dir/opt/swift"
        if [ -d /opt/swift-packages ]; then
            mkdir -p "$dir/opt/swift-packages"
            mount --bind /opt/swift-packages "$dir/opt/swift-packages"
            mount -o remount,bind,ro "$dir/opt/swift-packages"
            git config --system --get-regexp '^url\.' | while read -r key value; do
                git config --file "$dir/etc/gitconfig" --add "$key" "$value"
            done
            git config --file "$dir/etc/gitconfig" --add safe.directory '*'
        fi
    fi
}

# mounts_under DIR: every mount point at or under DIR (its path compared as text, not as a pattern:
# a folder name such as a version may hold `+` or `.`). A point mounted twice is listed twice.
mounts_under() {
    local dir
    dir=$(realpath -m "$1")
    findmnt -rn -o TARGET | awk -v dir="$dir" '$0 == dir || index($0, dir "/") == 1'
}

# umount_root DIR: everything mounted under DIR, deepest first.
umount_root() {
    local target
    mounts_under "$1" | sort -r | while read -r target; do
        umount "$target" 2>/dev/null || umount -l "$target"
    done
}

# remove_root DIR: deletes DIR, but never while anything (/opt/swift, /dev...) is mounted in it.
remove_root() {
    local dir=$1
    [ -e "$dir" ] || return 0
    umount_root "$dir"
    if [ -n "$(mounts_under "$dir")" ]; then
        echo "refusing to delete $dir: something is still mounted in it" >&2
        return 1
    fi
    rm -rf --one-file-system "$dir"
}

# in_root DIR COMMAND: runs a shell command in the root as root, with a clean environment.
in_root() {
    local dir=$1; shift
    chroot "$dir" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
        PATH=/opt/swift/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        /bin/bash -c "$*"
}
