#!/bin/sh
# The virtualenv with selenium that Tests/EndToEndTests/WebPageTests.swift drives Debian's
# headless chromium with (chromium and chromium-driver: scripts/system-packages.txt, group test).
# Made once, then reused; prints its python.
#
# It lives outside the repository: $GPSFENCE_SELENIUM_VENV, or ~/.cache/gpsfence/selenium-4.51.0
# (under $XDG_CACHE_HOME when set).
set -eu

version=4.51.0
venv=${GPSFENCE_SELENIUM_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/gpsfence/selenium-$version}
if [ -x "$venv/bin/python" ] && "$venv/bin/python" -c "import selenium" 2>/dev/null; then
    echo "$venv/bin/python"
    exit 0
fi
echo "selenium-venv: installing selenium $version into $venv (once)" >&2
mkdir -p "$(dirname "$venv")"
python3 -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input "selenium==$version" >&2
echo "$venv/bin/python"
