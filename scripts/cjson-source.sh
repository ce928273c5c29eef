#!/usr/bin/env bash
# cjson-source.sh — puts the source of Debian's cJSON (the package `cjson`, the same version as
# the installed libcjson-dev, Debian's patches applied) into DIR, for the WebAssembly build
# (Debian ships cJSON for the host only). apt fetches it from the deb-src archive through a
# private configuration under DIR (the machine's apt setup is left alone) and checks it
# against Debian's signed index; dpkg-source unpacks it and applies the patches.
# Usage: bash scripts/cjson-source.sh DIR   (DIR/cjson/cJSON.c exists afterwards)
set -euo pipefail
if [ $# -ne 1 ]; then
  echo "usage: bash scripts/cjson-source.sh DIR" >&2
  exit 2
fi
dir=$(mkdir -p "$1" && cd "$1" && pwd)
if [ -f "$dir/cjson/cJSON.c" ]; then
  exit 0
fi
version=$(dpkg-query -W -f='${Version}' libcjson-dev 2>/dev/null || true)
if [ -z "$version" ]; then
  echo "error: libcjson-dev is not installed (bash scripts/install-deps.sh)" >&2
  exit 1
fi
apt_dir="$dir/apt"
mkdir -p "$apt_dir/lists/partial" "$apt_dir/cache/archives/partial"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
cat >"$apt_dir/sources.list" <<EOF
deb-src [signed-by=$keyring] http://deb.debian.org/debian $codename main
deb-src [signed-by=$keyring] http://deb.debian.org/debian $codename-updates main
deb-src [signed-by=$keyring] http://deb.debian.org/debian-security $codename-security main
EOF
apt_opts=(-o "Dir::Etc::SourceList=$apt_dir/sources.list" -o "Dir::Etc::SourceParts=$apt_dir/none"
          -o "Dir::State::Lists=$apt_dir/lists" -o "Dir::Cache=$apt_dir/cache"
          -o "APT::Sandbox::User=root" -o "Debug::NoLocking=1" -q)
echo "Fetching Debian's cjson $version source (deb-src) for the WebAssembly build" >&2
apt-get "${apt_opts[@]}" update >/dev/null
(cd "$apt_dir" && apt-get "${apt_opts[@]}" source --download-only "cjson=$version" >/dev/null)
rm -rf "$dir/cjson.tmp"
dpkg-source --no-check -x "$apt_dir"/cjson_*.dsc "$dir/cjson.tmp" >/dev/null
mv "$dir/cjson.tmp" "$dir/cjson"
rm -rf "$apt_dir" "$dir"/cjson_*
