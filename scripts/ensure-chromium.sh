#!/usr/bin/env bash
# Installs Debian's chromium for the end-to-end tests when it is missing (never a downloaded browser).
set -euo pipefail
if [[ -x /usr/bin/chromium ]]; then exit 0; fi
if [[ "$(id -u)" != "0" ]]; then
  echo "ensure-chromium: /usr/bin/chromium is missing; install Debian's chromium package (apt-get install chromium)." >&2
  exit 1
fi
echo "ensure-chromium: installing Debian's chromium…" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core fonts-liberation fonts-noto-color-emoji >/dev/null
