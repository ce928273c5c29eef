#!/usr/bin/env bash
# build-reference.sh — a Release `ramparts` of another commit, to play against this one at equal
# thinking time (`ramparts arena --engine ref=PATH`, docs/ai.md "Measuring"). The commit's files
# come from `git archive` into build-ref/<short hash>/src, so the work tree, the index and the
# list of worktrees stay as they are; it is built there (the library and the tool alone, as
# `make play` builds them, with the Release flags of `make`) and the binary is copied to
# build-ref/<short hash>/ramparts, whose path is printed last. An existing one is reused.
# Usage: scripts/build-reference.sh REF   (a commit, branch or tag; `make reference REF=...`)
set -euo pipefail
ref=${1:-}
if [ -z "$ref" ]; then
  echo "usage: make reference REF=<commit> (e.g. REF=main or REF=7f41760)" >&2
  exit 2
fi
if ! hash=$(git rev-parse --verify --quiet --short=7 "$ref^{commit}"); then
  echo "build-reference: '$ref' is not a commit of this repository" >&2
  exit 2
fi
top=$(git rev-parse --show-toplevel)
dir=$top/build-ref/$hash
if [ -x "$dir/ramparts" ]; then
  echo "$dir/ramparts"
  exit 0
fi
rm -rf "$dir/src" "$dir/build"
mkdir -p "$dir/src"
git archive --format=tar "$hash" | tar -x -C "$dir/src"
cmake -S "$dir/src" -B "$dir/build" -DCMAKE_BUILD_TYPE=Release -DRP_LIGHT_TOOL=ON >/dev/null
cmake --build "$dir/build" --target ramparts -j "${JOBS:-$(nproc 2>/dev/null || echo 2)}" >&2
cp "$dir/build/ramparts" "$dir/ramparts.tmp"
mv "$dir/ramparts.tmp" "$dir/ramparts"
echo "$dir/ramparts"
