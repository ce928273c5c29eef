#!/usr/bin/env bash
# install-deps.sh — installs the Debian packages the build needs, only those missing, so
# `make` and `make test` work on a fresh machine. Uses apt-get as root or through sudo.
set -euo pipefail
packages=(gcc make cmake pkg-config libcmocka-dev libcjson-dev libwebsockets-dev libsqlite3-dev
          libsodium-dev python3 python3-websockets openssl)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "Installing build dependencies: ${missing[*]}" >&2
if [ "$(id -u)" -eq 0 ]; then sudo=""; elif command -v sudo >/dev/null; then sudo="sudo"; else
  echo "error: need root or sudo to install: ${missing[*]}" >&2; exit 1; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
