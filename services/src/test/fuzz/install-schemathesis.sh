#!/usr/bin/env bash
# Installs Schemathesis (pinned, from PyPI) into a cached virtual environment and prints the path of
# its executable. Needs python3 with venv (Debian: python3 python3-venv); as root it installs them.
set -euo pipefail
version=4.32.5
dir="${IDIOM_CACHE:-$HOME/.cache/idiom}/schemathesis-$version"
if [ -f "$dir/.complete" ]; then
  echo "$dir/bin/schemathesis"
  exit 0
fi
if ! command -v python3 >/dev/null || ! python3 -c 'import venv, ensurepip' 2>/dev/null; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "schemathesis: installing python3 and python3-venv (Debian packages)…" >&2
    { apt-get install -y -q python3 python3-venv || { apt-get update -q && apt-get install -y -q python3 python3-venv; }; } >&2
  else
    echo "schemathesis: needs python3 with venv; install them with: sudo apt-get install python3 python3-venv" >&2
    exit 1
  fi
fi
echo "schemathesis: installing schemathesis $version from PyPI into $dir (once)…" >&2
rm -rf "$dir"
python3 -m venv "$dir"
"$dir/bin/pip" install -q --disable-pip-version-check "schemathesis==$version" >&2
"$dir/bin/schemathesis" --version >&2
touch "$dir/.complete"
echo "$dir/bin/schemathesis"
