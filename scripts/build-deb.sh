#!/usr/bin/env bash
# Builds dist/gpsfence_VERSION_ARCH.deb (docs/packaging.md) from this checkout:
# a release build with the Swift runtime linked statically, Depends computed by dpkg-shlibdeps,
# udev rules and systemd units in their Debian places, manual pages from swift-argument-parser's
# generate-manual plugin, bash/zsh/fish completions from --generate-completion-script, the
# example fences and captures, DEP-5 copyright and the changelog; then lintian judges it.
# Run through `make deb`, which first installs what it needs (scripts/install-deps.sh deb).
#
#   scripts/build-deb.sh                 the package (ARCH=arm64: the Raspberry Pi's)
#   scripts/build-deb.sh --binary-only   only step 1, the release binary: it never touches .build,
#                                        so .ci/run builds it while the tests run there
set -euo pipefail
cd "$(dirname "$0")/.."
binary_only=no
if [ "${1:-}" = "--binary-only" ]; then binary_only=yes; fi

SWIFT=${SWIFT:-swift}
src=packaging/debian

# The version is written once, in Sources/gpsfence/Version.swift.
version=$(sed -n 's/^let gpsfenceVersion = "\(.*\)"$/\1/p' Sources/gpsfence/Version.swift)
[ -n "$version" ] || { echo "build-deb: no version in Sources/gpsfence/Version.swift" >&2; exit 1; }
changelog_version=$(sed -n '1s/^gpsfence (\([^)]*\)).*/\1/p' "$src/changelog")
if [ "$changelog_version" != "$version" ]; then
    echo "build-deb: $src/changelog's top entry is $changelog_version but the version is $version;" >&2
    echo "add a changelog entry for $version." >&2
    exit 1
fi
# ARCH=arm64 on an x86-64 machine: the cross build of scripts/arm64-sdk.sh (docs/packaging.md, "arm64").
host_arch=$(dpkg --print-architecture)
arch=${ARCH:-$host_arch}
case "$arch" in
    "$host_arch") ;;
    arm64) [ "$host_arch" = amd64 ] || { echo "build-deb: ARCH=arm64 is built on amd64 only" >&2; exit 1; } ;;
    *) echo "build-deb: ARCH=$arch: this machine builds $host_arch and arm64" >&2; exit 1 ;;
esac
# Man pages are dated by the changelog entry, not by the day of the build (reproducible).
release_date=$(date -u -d "$(sed -n 's/^ -- .*>  //p' "$src/changelog" | head -1)" +%Y-%m-%d)

# 1. The release binary, Swift runtime and Foundation linked in. It has its own build folder:
#    the plugin below builds with other flags, and SwiftPM does not notice a change of
#    --static-swift-stdlib in a shared folder (it would keep a dynamically linked binary).
#    -z now: resolve every symbol at start, so the GOT can be read-only (hardening-no-bindnow).
if [ "$arch" = "$host_arch" ]; then
    "$SWIFT" build -c release --static-swift-stdlib --product gpsfence --scratch-path .build-deb \
        -Xlinker -z -Xlinker now
    binary=.build-deb/release/gpsfence
    run_binary() { "$binary" "$@"; }
    strip=strip
else
    # The same build with sid's swiftlang for aarch64, in its own root and build folder, linked against
    # the bookworm arm64 sysroot; the binary runs here under qemu-user.
    . scripts/debootstrap-root.sh
    . scripts/arm64-sdk.sh
    arm64_binfmt
    arm64_compiler
    arm64_sdk
    trap 'umount_root "$compiler"' EXIT
    mount_compiler
    in_compiler "clang --target=aarch64-linux-gnu --sysroot=$sdk/sysroot -O2 -fPIC -c packaging/arm64/bookworm-compat.c \
            -o .build-arm64-compat.o && mkdir -p .build-arm64 && mv .build-arm64-compat.o .build-arm64/bookworm-compat.o &&
        swift build -c release --static-swift-stdlib --product gpsfence --scratch-path .build-arm64 \
            --destination $sdk/swift-sdk.json -Xlinker -z -Xlinker now -Xlinker .build-arm64/bookworm-compat.o"
    umount_root "$compiler"
    trap - EXIT
    binary=.build-arm64/aarch64-unknown-linux-gnu/release/gpsfence
    run_binary() { qemu-aarch64-static -L "$sdk/sysroot" "$binary" "$@"; }
    strip=aarch64-linux-gnu-strip
fi
built_version=$(run_binary --version)
[ "$built_version" = "$version" ] || { echo "build-deb: binary says $built_version, expected $version" >&2; exit 1; }
[ "$binary_only" = no ] || exit 0

# 2. Manual pages: the generate-manual plugin, on the debug build that `make test` already made
#    (the help text is the same in every configuration), one page per subcommand.
"$SWIFT" package plugin generate-manual --configuration debug --multi-page \
    --date "$release_date" --authors "gpsfence maintainers<gpsfence@example.org>"
man_dir=.build/plugins/GenerateManual/outputs/gpsfence

# 3. The tree of the package.
stage=.build-deb/stage
root=$stage/root
rm -rf "$stage"
mkdir -p "$root/DEBIAN"
doc=$root/usr/share/doc/gpsfence

install -D -m 0755 "$binary" "$root/usr/bin/gpsfence"
# No debug symbols in the package (lintian: unstripped-binary-or-object); the .swift5_* reflection
# sections are allocated and stay.
$strip --strip-unneeded --remove-section=.comment --remove-section=.note "$root/usr/bin/gpsfence"

install -D -m 0644 udev/60-gpsfence.rules "$root/usr/lib/udev/rules.d/60-gpsfence.rules"
install -D -m 0644 systemd/gpsfence.service "$root/usr/lib/systemd/system/gpsfence.service"
install -D -m 0644 systemd/gpsfence@.service "$root/usr/lib/systemd/system/gpsfence@.service"

mkdir -p "$root/usr/share/man/man1"
# Two touches to the generated mdoc, both for man-db and lintian:
# - blank lines of the help text become .Pp (a paragraph break; groff warns "Empty input line");
# - a subcommand's page is named `.Nm "gpsfence check"`, which lexgrog cannot read, so apropos and
#   whatis would not list it (lintian bad-whatis-entry): the NAME section says gpsfence.check (and
#   gpsfence.fences.add for `gpsfence fences add`), the page's file name, and the SYNOPSIS and EXAMPLES still show the command as it is typed.
for page in "$man_dir"/*.1; do
    sub=$(sed -n 's/^\.Nm "gpsfence \([a-z -]*\)"$/\1/p' "$page" | head -1)
    if [ -n "$sub" ]; then
        # `gpsfence fences add` is gpsfence.fences.add, the name of its page.
        rename=(-e "s/^\.Nm \"gpsfence $sub\"\$/.Nm gpsfence.${sub// /.}/" -e "s/^\.Nm\$/.Nm \"gpsfence $sub\"/")
    else
        rename=()
    fi
    sed -e 's/^[[:space:]]*$/.Pp/' "${rename[@]}" "$page" | gzip -9n > "$root/usr/share/man/man1/$(basename "$page").gz"
done
# The plugin writes a page for the implicit `help` subcommand too; it says nothing the root page does not.
rm -f "$root/usr/share/man/man1/gpsfence.help.1.gz"

# A completion file is sourced, not run: no #! line (lintian bash-completion-with-hashbang).
run_binary --generate-completion-script bash | sed '1{/^#!/d}' | install -D -m 0644 /dev/stdin "$root/usr/share/bash-completion/completions/gpsfence"
run_binary --generate-completion-script zsh  | install -D -m 0644 /dev/stdin "$root/usr/share/zsh/vendor-completions/_gpsfence"
run_binary --generate-completion-script fish | install -D -m 0644 /dev/stdin "$root/usr/share/fish/vendor_completions.d/gpsfence.fish"

# Examples: the scenario captures with their fences (the bridge one is the README's demo) and a
# /etc/default/gpsfence to start the service from. Left uncompressed so that they replay as they are.
mkdir -p "$doc/examples"
for scenario in captures/*/; do
    name=$(basename "$scenario")
    [ -f "$scenario/capture.nmea" ] || continue
    mkdir -p "$doc/examples/$name"
    install -m 0644 "$scenario"/* "$doc/examples/$name/"
done
cat > "$doc/examples/default-gpsfence" <<'DEFAULT'
# Copy to /etc/default/gpsfence (the services start only once it exists) and edit:
# the options given to `gpsfence run` by gpsfence.service and gpsfence@.service (man gpsfence.run).
GPSFENCE_ARGS="--fences /etc/gpsfence/fences.geojson --json"
DEFAULT
chmod 0644 "$doc/examples/default-gpsfence"
install -m 0644 "$src/copyright" "$doc/copyright"
# A native package's changelog is changelog.gz (Debian policy 12.7).
gzip -9n < "$src/changelog" > "$doc/changelog.gz"

install -m 0755 "$src/postinst" "$src/postrm" "$root/DEBIAN/"

# 4. Depends from the libraries the binary really links (dpkg-shlibdeps reads their symbols files).
mkdir -p "$stage/debian"
printf 'Source: gpsfence\n\nPackage: gpsfence\nArchitecture: any\n' > "$stage/debian/control"
if [ "$arch" = "$host_arch" ]; then
    depends=$(cd "$stage" && dpkg-shlibdeps -O "root/usr/bin/gpsfence" | sed -n 's/^shlibs:Depends=//p')
else
    # Against the arm64 libraries and their symbols files: dpkg-shlibdeps inside the sysroot (under qemu).
    rm -rf "$sdk/sysroot/tmp/stage" && cp -a "$stage" "$sdk/sysroot/tmp/stage"
    depends=$(chroot "$sdk/sysroot" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
        /bin/sh -c 'cd /tmp/stage && dpkg-shlibdeps -O root/usr/bin/gpsfence' | sed -n 's/^shlibs:Depends=//p')
    rm -rf "$sdk/sysroot/tmp/stage"
fi
[ -n "$depends" ] || { echo "build-deb: dpkg-shlibdeps found no dependencies" >&2; exit 1; }

installed_size=$(du -sk --exclude=DEBIAN "$root" | cut -f1)
sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@INSTALLED_SIZE@/$installed_size/" \
    -e "s/@DEPENDS@/$depends/" "$src/control.in" > "$root/DEBIAN/control"
(cd "$root" && find usr -type f -print0 | sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
find "$root" -type d -exec chmod 0755 {} +

mkdir -p dist
deb=dist/gpsfence_${version}_${arch}.deb
SOURCE_DATE_EPOCH=$(date -u -d "$release_date" +%s) dpkg-deb --root-owner-group -Zxz --build "$root" "$deb"
echo "built $deb"
dpkg-deb --info "$deb" | sed -n '/Package:/,$p'

# 5. lintian: errors fail the build; every tag it shows (info included) is listed, with the reason
#    it is accepted, in docs/packaging.md.
lintian --fail-on error --display-info "$deb"
