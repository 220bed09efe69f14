#!/usr/bin/env bash
# Installs what the console's browser test drives: Debian's chromium and its chromedriver (as root,
# from Debian packages, once). Prints two lines: the chromium executable and the chromedriver.
set -euo pipefail
need=()
command -v chromium >/dev/null || need+=(chromium)
command -v chromedriver >/dev/null || need+=(chromium-driver)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "browser test: installing ${need[*]} (Debian packages, once)…" >&2
    { DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" \
      || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}"; }; } >&2
  else
    echo "browser test: needs ${need[*]}; install them with: sudo apt-get install ${need[*]}" >&2
    exit 1
  fi
fi
command -v chromium
command -v chromedriver
