# Sourced by scripts/build-deb.sh for `make deb ARCH=arm64` (docs/packaging.md, "arm64"): a cross
# build from Debian's own packages, cached outside the clone ($GPSFENCE_CROSS_DIR, or
# ~/.cache/gpsfence/cross, under $XDG_CACHE_HOME when set), so a fresh clone on the same machine
# reuses it; the compiler root is keyed by the swiftlang version, the SDK by that and its packages:
#
#   compiler/  a Debian sid amd64 root with `swiftlang` (6.2.3): the compiler, SwiftPM, clang, lld.
#              Sid, because no released Debian has a Swift new enough (bookworm none, trixie 6.0.3).
#   sdk/       a Swift SDK (swift-sdk.json) for aarch64-unknown-linux-gnu:
#     runtime/   the arm64 Swift runtime, Foundation and their .swiftmodules, from sid's swiftlang:arm64
#                (the same 6.2.3 build as the compiler: Swift modules only load in the compiler that made
#                them);
#     sysroot/   a Debian *bookworm* arm64 root with the -dev packages gpsfence links: linking against
#                bookworm's glibc and libstdc++ is what makes the binary run on Raspberry Pi OS bookworm.
#                The sid-built runtime needs four glibc 2.38 names and one libstdc++ 14 function that
#                bookworm lacks; packaging/arm64/bookworm-compat.c supplies them.
#
# Needs root (debootstrap, chroot), qemu-user-static and binfmt-support (the sysroot's apt runs under
# qemu). Everything is downloaded once; removing the cache folder starts over.

cross_dir=${GPSFENCE_CROSS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/gpsfence/cross}
swiftlang_version=6.2.3-1+b1
# What gpsfence links, as arm64 bookworm packages (the build list of scripts/system-packages.txt, the
# libcurl Foundation needs, and the C/C++ runtime the linker wants).
sysroot_packages="libc6-dev libgcc-12-dev libstdc++-12-dev libudev-dev libsqlite3-dev libmosquitto-dev zlib1g-dev libcurl4-openssl-dev dpkg-dev"
compiler=$cross_dir/compiler-$(printf '%s' "$swiftlang_version" | tr -c 'A-Za-z0-9.-' '_')
sdk=$cross_dir/sdk-$(printf '%s\n' "$swiftlang_version" "$sysroot_packages" | md5sum | cut -c1-12)

# binfmt_misc must be mounted for the arm64 roots' programs to run under qemu.
arm64_binfmt() {
    [ -e /proc/sys/fs/binfmt_misc/status ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
    [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || update-binfmts --enable qemu-aarch64
    [ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] ||
        { echo "arm64: qemu-aarch64 is not registered with binfmt_misc (qemu-user-static, binfmt-support)" >&2; return 1; }
}

# The compiler root: a sid amd64 debootstrap (cached tarball, scripts/debootstrap-root.sh) with swiftlang
# installed, kept as a directory (it is the tool, not a test subject). Sid's Release file is signed
# with an expiry date that a mirror snapshot may have passed; apt is told not to mind.
arm64_compiler() {
    [ -x "$compiler/usr/libexec/swift/bin/swift" ] && [ -f "$compiler/arm64/swiftlang_${swiftlang_version}_arm64.deb" ] && return 0
    (suite=sid root_arch=amd64; new_root "$compiler") || return 1
    echo 'Acquire::Check-Valid-Until "false";' >"$compiler/etc/apt/apt.conf.d/99gpsfence-snapshot"
    mount_root "$compiler"
    in_root "$compiler" "export DEBIAN_FRONTEND=noninteractive; dpkg --add-architecture arm64 && apt-get update -qq &&
        apt-get install -y -qq --no-install-recommends swiftlang=$swiftlang_version swiftlang-dev libc6-dev git ca-certificates >/dev/null &&
        mkdir -p /arm64 && cd /arm64 && apt-get download swiftlang:arm64=$swiftlang_version"
    local status=$?
    umount_root "$compiler"
    return $status
}

# The SDK: runtime from swiftlang:arm64, sysroot from a bookworm arm64 root, and swift-sdk.json.
arm64_sdk() {
    [ -f "$sdk/swift-sdk.json" ] && return 0
    local runtime=$sdk/runtime lib
    rm -rf "$sdk" && mkdir -p "$runtime"
    lib=./usr/libexec/swift/lib
    dpkg-deb --fsys-tarfile "$compiler/arm64/swiftlang_${swiftlang_version}_arm64.deb" | tar -C "$runtime" -x --wildcards \
        "$lib/swift_static/*" "$lib/swift/linux/*" "$lib/swift/shims/*" "$lib/swift/clang" \
        "$lib/swift/_foundation_unicode/*" "$lib/swift/CoreFoundation/*" "$lib/swift/_FoundationCShims/*" \
        "$lib/swift/dispatch/*" "$lib/swift/os/*" "$lib/swift/Block/*" './usr/share/doc/swiftlang/*' || return 1
    # clang's own headers (lib/swift/clang points there) are the same for every target.
    cp -a "$compiler/usr/libexec/swift/lib/clang" "$runtime/usr/libexec/swift/lib/"

    (root_arch=arm64; new_root "$sdk/sysroot") || return 1
    mount_root "$sdk/sysroot"
    in_root "$sdk/sysroot" "export DEBIAN_FRONTEND=noninteractive; apt-get update -qq &&
        apt-get install -y -qq --no-install-recommends $sysroot_packages >/dev/null"
    local status=$?
    umount_root "$sdk/sysroot"
    [ $status -eq 0 ] || return $status
    # Absolute symbolic links of the sysroot (libm.so -> /lib/...) would point into the build machine.
    find "$sdk/sysroot" -xdev -type l -lname '/*' | while read -r link; do
        ln -sfnr "$sdk/sysroot$(readlink "$link")" "$link"
    done

    # With -sdk the Swift driver links the runtime from the sysroot's usr/lib/swift_static (swiftrt.o,
    # static-stdlib-args.lnk), as in a swift.org SDK bundle: point it at the runtime.
    ln -sfnr "$runtime/usr/libexec/swift/lib/swift_static" "$sdk/sysroot/usr/lib/swift_static"
    ln -sfnr "$runtime/usr/libexec/swift/lib/swift" "$sdk/sysroot/usr/lib/swift"
    arm64_toolset
    cat >"$sdk/swift-sdk.json" <<'JSON'
{
  "schemaVersion": "4.0",
  "targetTriples": {
    "aarch64-unknown-linux-gnu": {
      "sdkRootPath": "sysroot",
      "swiftResourcesPath": "runtime/usr/libexec/swift/lib/swift",
      "swiftStaticResourcesPath": "runtime/usr/libexec/swift/lib/swift_static",
      "toolsetPaths": ["toolset.json"]
    }
  }
}
JSON
}

# SwiftPM hands the SDK's sysroot to clang only (-Xcc --sysroot); swiftc needs it as -sdk too, or
# it looks for glibc's headers (module SwiftGlibc) in the compiler root's /usr/include.
arm64_toolset() {
    cat >"$sdk/toolset.json" <<JSON
{ "schemaVersion": "1.0", "swiftCompiler": { "extraCLIOptions": ["-use-ld=lld", "-sdk", "$sdk/sysroot"] } }
JSON
}

# The compiler root with this checkout at the same path as outside (so that every path means the
# same on both sides), the local mirror of Swift packages and git's setting that points at it.
mount_compiler() {
    # A run that was killed (a CI step stopped, a timeout) leaves its mounts behind, among them a
    # bind of a checkout that may since be gone: clear them first, or the bind below fails.
    umount_root "$compiler"
    mount_root "$compiler"
    mkdir -p "$compiler$PWD" "$compiler$sdk" "$compiler/opt/swift-packages"
    mount --bind "$PWD" "$compiler$PWD"
    # The SDK sits in the cache beside the compiler root, not in the checkout: the same path inside.
    mount --bind "$sdk" "$compiler$sdk"
    if [ -d /opt/swift-packages ]; then
        mount --bind /opt/swift-packages "$compiler/opt/swift-packages"
        mount -o remount,bind,ro "$compiler/opt/swift-packages"
    fi
    rm -f "$compiler/etc/gitconfig"
    git config --system --get-regexp '^url\.' | while read -r key value; do
        git config --file "$compiler/etc/gitconfig" --add "$key" "$value"
    done
    git config --file "$compiler/etc/gitconfig" --add safe.directory '*'
}

# in_compiler COMMAND: a shell command in the compiler root, in this checkout, with sid's swift.
in_compiler() {
    chroot "$compiler" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
        PATH=/usr/local/bin:/usr/bin:/bin:/usr/libexec/swift/bin /bin/bash -c "cd '$PWD' && $*"
}
