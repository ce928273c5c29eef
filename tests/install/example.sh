#!/usr/bin/env bash
# example.sh BUILD_DIR SOURCE_DIR CC [EXTRA_CFLAGS] — `make install` as a user gets it: install
# the build into a temporary prefix (the tool's serve and mpirun helpers in libexec/ramparts,
# run from there by the installed tool), then build examples/random_game.c against it with
# `pkg-config --cflags --libs ramparts` (shared) and with the static library, run both, and
# check that the shared library has the versioned soname and exports only the public API.
set -euo pipefail
build=$1 src=$2 cc=$3 extra=${4:-}
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --install "$build" --prefix "$prefix" >/dev/null
libdir=$(dirname "$(find "$prefix" -name ramparts.pc)")/..
libdir=$(cd "$libdir" && pwd)
export PKG_CONFIG_PATH=$libdir/pkgconfig
version=$(sed -n 's/^#define RP_VERSION_STRING "\(.*\)"/\1/p' "$prefix/include/ramparts/version.h")
[ "$(pkg-config --modversion ramparts)" = "$version" ] || fail "pkg-config version is not $version"
for h in game engine ai rng export version; do
  [ -f "$prefix/include/ramparts/$h.h" ] || fail "ramparts/$h.h not installed"
done
[ -x "$prefix/bin/ramparts" ] || fail "the ramparts tool is not installed"
# The server and the MPI build of the tool are programs of their own in libexec/ramparts, found
# by the installed tool relative to itself (src/cli/helper.c).
for helper in ramparts-serve ramparts-mpi; do
  [ -x "$prefix/libexec/ramparts/$helper" ] || fail "$helper is not installed in libexec/ramparts"
done
# (the help is read whole first: grep -q stopping at its first line would leave the tool
# writing into a closed pipe, which pipefail counts as a failure once the help is long)
serve_help=$("$prefix/bin/ramparts" serve --help)
grep -q "^usage: ramparts serve" <<<"$serve_help" ||
  fail "the installed 'ramparts serve' does not run libexec/ramparts/ramparts-serve"

# Shared: what `pkg-config --libs` picks by default.
# shellcheck disable=SC2086,SC2046
"$cc" $extra "$src/examples/random_game.c" $(pkg-config --cflags --libs ramparts) \
  -o "$prefix/shared_example"
out=$(LD_LIBRARY_PATH=$libdir "$prefix/shared_example" danger-at-the-walls 7)
grep -q "^Danger at the Walls, ramparts $version, seed 7$" <<<"$out" || fail "shared: $out"
grep -q "^over after [0-9]* moves; returns" <<<"$out" || fail "shared: no result"
soname=$(readelf -d "$libdir/libramparts.so" | sed -n 's/.*SONAME.*\[\(.*\)\]/\1/p')
major=${version%%.*} minor=${version#*.}; minor=${minor%%.*}
want=libramparts.so.$major; [ "$major" = 0 ] && want=libramparts.so.0.$minor
[ "$soname" = "$want" ] || fail "soname $soname, expected $want"
readelf -d "$prefix/shared_example" | grep -q "NEEDED.*\[$want\]" || fail "example not linked to $want"

# Static: the same program from libramparts.a gives the same game.
# shellcheck disable=SC2086,SC2046
"$cc" $extra "$src/examples/random_game.c" $(pkg-config --cflags ramparts) "$libdir/libramparts.a" \
  $(pkg-config --libs-only-l libcjson) -lm -pthread -o "$prefix/static_example"
[ "$("$prefix/static_example" danger-at-the-walls 7)" = "$out" ] || fail "static and shared differ"

# Exports: every defined dynamic symbol is declared RP_EXTERN in an installed header, and the
# internals (the games' tables and the helpers a game's files share, the notation toolkit, the
# search) are hidden.
declared=$(cat "$prefix"/include/ramparts/*.h | tr -c 'A-Za-z0-9_\n' ' ' | tr ' ' '\n' | grep '^rp_' | sort -u)
count=0
while read -r sym; do
  case $sym in __*|_init|_fini|_edata|_end|__bss_start) continue ;; esac
  grep -qx "$sym" <<<"$declared" || fail "exported but not public: $sym"
  count=$((count + 1))
done < <(nm -D --defined-only "$libdir/libramparts.so" | awk '{print $3}')
[ "$count" -ge 40 ] || fail "only $count public symbols exported"
for hidden in rp_danger_at_the_walls wa_play rp__text_put rp__event rp_arena_init; do
  if nm -D --defined-only "$libdir/libramparts.so" | grep -qw "$hidden"; then
    fail "internal symbol exported: $hidden"
  fi
done
echo "install example: 1 passed, 0 failed ($count symbols exported)"
