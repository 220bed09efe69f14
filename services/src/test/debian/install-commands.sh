#!/usr/bin/env bash
# Installs the Debian programs a test drives, each given as COMMAND=PACKAGE (chromium=chromium,
# chromedriver=chromium-driver, litmus=litmus, rclone=rclone): as root, from Debian's packages, once.
# Prints one line per command: where it is.
set -euo pipefail
need=()
for pair in "$@"; do
  command -v "${pair%%=*}" >/dev/null || need+=("${pair#*=}")
done
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "test: installing ${need[*]} (Debian packages, once)…" >&2
    { DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" \
      || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}"; }; } >&2
  else
    echo "test: needs ${need[*]}; install them with: sudo apt-get install ${need[*]}" >&2
    exit 1
  fi
fi
for pair in "$@"; do
  command -v "${pair%%=*}"
done
