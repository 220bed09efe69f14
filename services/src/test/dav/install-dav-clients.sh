#!/usr/bin/env bash
# Installs the WebDAV clients the browsers' folder is tested with: Debian's litmus (the WebDAV
# compliance suite) and rclone (as root, from Debian packages, once). Prints two lines: litmus, rclone.
set -euo pipefail
need=()
command -v litmus >/dev/null || need+=(litmus)
command -v rclone >/dev/null || need+=(rclone)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "WebDAV clients test: installing ${need[*]} (Debian packages, once)…" >&2
    { DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}" \
      || { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${need[@]}"; }; } >&2
  else
    echo "WebDAV clients test: needs ${need[*]}; install them with: sudo apt-get install ${need[*]}" >&2
    exit 1
  fi
fi
command -v litmus
command -v rclone
