#!/usr/bin/env bash
# Installs a pinned PyPI package (Schemathesis, pyzotero: the real clients the tests run) into a cached
# virtual environment of its own and prints that environment's folder.
#   install-pypi.sh NAME VERSION
# Needs python3 with venv (Debian: python3 python3-venv); as root it installs them.
set -euo pipefail
name="$1"; version="$2"
dir="${IDIOM_CACHE:-$HOME/.cache/idiom}/$name-$version"
if [ -f "$dir/.complete" ]; then
  echo "$dir"
  exit 0
fi
if ! command -v python3 >/dev/null || ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "$name: installing python3 and python3-venv (Debian packages)…" >&2
    { apt-get install -y -q python3 python3-venv || { apt-get update -q && apt-get install -y -q python3 python3-venv; }; } >&2
  else
    echo "$name: needs python3 with venv; install them with: sudo apt-get install python3 python3-venv" >&2
    exit 1
  fi
fi
echo "$name: installing $name $version from PyPI into $dir (once)…" >&2
rm -rf "$dir"
python3 -m venv "$dir"
"$dir/bin/pip" install -q --disable-pip-version-check "$name==$version" >&2
touch "$dir/.complete"
echo "$dir"
