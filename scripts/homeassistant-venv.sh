#!/bin/sh
# The virtualenv with the real Home Assistant that Tests/EndToEndTests/RealHomeAssistantTests.swift
# runs (docs/mqtt.md, "Tested with Home Assistant"): made once, then reused. Prints its folder.
#
# It lives outside the repository and its build folders (`make clean` and a fresh clone keep it):
# $GPSFENCE_HA_VENV, or ~/.cache/gpsfence/ha-2024.3.3 (under $XDG_CACHE_HOME when set). The package
# list is Tests/Support/homeassistant/requirements.txt (versions pinned by constraints.txt); a copy
# of both in the virtualenv says the install finished, so an interrupted or outdated one is completed by the next call (pip skips
# what is already there). The first install fetches about 100 packages from PyPI (docs/packaging.md
# has the time); later calls take a moment.
#
#   scripts/homeassistant-venv.sh          make it if needed, print its folder
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
requirements=$root/Tests/Support/homeassistant/requirements.txt
# Every package pinned (pip freeze of a working install): pip then has nothing to resolve, which
# took it 12 to 28 minutes without them (docs/packaging.md).
constraints=$root/Tests/Support/homeassistant/constraints.txt
venv=${GPSFENCE_HA_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/gpsfence/ha-2024.3.3}
stamp=$venv/gpsfence-requirements.txt

if [ -x "$venv/bin/hass" ] && cat "$requirements" "$constraints" | cmp -s - "$stamp"; then
    echo "$venv"
    exit 0
fi

# Home Assistant 2024.3 runs on Python 3.11 and 3.12 only.
python=${PYTHON:-python3}
if ! "$python" -c 'import sys; sys.exit(0 if (3, 11) <= sys.version_info[:2] <= (3, 12) else 1)'; then
    echo "homeassistant-venv: Home Assistant 2024.3.3 needs Python 3.11 or 3.12; $python is" \
        "$("$python" --version 2>&1). Set PYTHON to one." >&2
    exit 2
fi

echo "homeassistant-venv: installing Home Assistant 2024.3.3 into $venv (once)" >&2
mkdir -p "$(dirname "$venv")"
[ -x "$venv/bin/python" ] || "$python" -m venv "$venv"
rm -f "$stamp"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input -r "$requirements" -c "$constraints" >&2
cat "$requirements" "$constraints" >"$stamp"
echo "$venv"
