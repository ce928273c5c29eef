#!/usr/bin/env bash
# light.sh — the tool starts light (issue 24): `ramparts` itself links neither the server's
# libraries (libwebsockets, libuv, SQLite, libsodium, OpenSSL) nor Open MPI, which only
# ramparts-serve and ramparts-mpi link; `ramparts serve` and a `ramparts` started by mpirun run
# those programs, and say clearly which one is missing when it is.
RAMPARTS=$1
. "$(dirname "$0")/lib.bash"

heavy='libwebsockets|libuv|libsqlite3|libsodium|libssl|libcrypto|libmpi|libopen-|libpmix|libevent|libhwloc'
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p'; }

light=$(needed "$RAMPARTS")
expect_match "readelf lists what ramparts links" "$light" "libc\.so"
if grep -Eq "$heavy" <<<"$light"; then
  fail "ramparts links a heavy library: $(grep -E "$heavy" <<<"$light" | tr '\n' ' ')"
else pass; fi
# The checks above see a heavy library when there is one: the helpers do link theirs.
dir=$(dirname "$RAMPARTS")
expect_match "ramparts-serve links libwebsockets" "$(needed "$dir/ramparts-serve")" "libwebsockets"
expect_match "ramparts-serve links SQLite" "$(needed "$dir/ramparts-serve")" "libsqlite3"
expect_match "ramparts-mpi links Open MPI" "$(needed "$dir/ramparts-mpi")" "libmpi"

# `ramparts serve` is ramparts-serve: its help and its usage errors, exit codes kept.
out=$("$RAMPARTS" serve --help)
expect_match "ramparts serve --help runs the server's help" "$out" "^usage: ramparts serve"
expect_status "ramparts serve --help exits 0" 0 "$RAMPARTS" serve --help
expect_status "a bad serve option exits 2" 2 "$RAMPARTS" serve --grace
out=$("$RAMPARTS" serve --nonsense 1 2>&1)
expect_match "a bad serve option is named" "$out" "ramparts serve: .*--nonsense"
for bad in -1 10001 soon; do
  out=$("$RAMPARTS" serve --ai-hard-ms "$bad" 2>&1)
  expect_status "serve --ai-hard-ms $bad exits 2" 2 "$RAMPARTS" serve --ai-hard-ms "$bad"
  expect_match "serve --ai-hard-ms $bad is named with its range" "$out" "--ai-hard-ms.*$bad"
done
# A value that were taken would start a server: `timeout` ends it, and the check fails.
for bad in 0 3601 2.5 soon; do
  out=$(timeout 60 "$RAMPARTS" serve --listen 127.0.0.1:0 --keepalive "$bad" 2>&1)
  expect_match "serve --keepalive $bad is refused, named with its range" "$out" \
    "--keepalive $bad: expected a whole number from 1 to 3600"
  expect_status "serve --keepalive $bad exits 2" 2 timeout 60 "$RAMPARTS" serve \
    --listen 127.0.0.1:0 --keepalive "$bad"
done
out=$(RAMPARTS_KEEPALIVE=0 timeout 60 "$RAMPARTS" serve --listen 127.0.0.1:0 2>&1)
expect_match "RAMPARTS_KEEPALIVE=0 is refused the same way" "$out" "--keepalive 0: expected"
# --sync takes full or normal (docs/server.md); normal is refused on PostgreSQL, which always
# syncs its commits.
out=$(timeout 60 "$RAMPARTS" serve --listen 127.0.0.1:0 --sync sometimes 2>&1)
expect_match "serve --sync sometimes is refused, naming the choices" "$out" \
  "--sync sometimes: expected full or normal"
expect_status "serve --sync sometimes exits 2" 2 timeout 60 "$RAMPARTS" serve \
  --listen 127.0.0.1:0 --sync sometimes
out=$(timeout 60 "$RAMPARTS" serve --listen 127.0.0.1:0 --sync normal \
  --store "postgresql:///x?host=/nonexistent-dir" 2>&1)
expect_match "serve --sync normal on PostgreSQL is refused" "$out" \
  "--sync normal is for the SQLite store"

# A copy of the tool alone, without its helpers: serve and mpirun fail with exit 1 and say
# what is missing; every other command still works.
alone=$(mktemp -d)
trap 'rm -rf "$alone"' EXIT
cp "$RAMPARTS" "$alone/ramparts"
out=$("$alone/ramparts" serve --help 2>&1)
expect_status "serve without ramparts-serve exits 1" 1 "$alone/ramparts" serve --help
expect_match "serve without ramparts-serve says so" "$out" \
  "serve needs the program ramparts-serve, which is not installed \(looked in $alone/"
expect_status "under mpirun without ramparts-mpi: exit 1" 1 env OMPI_COMM_WORLD_SIZE=1 \
  "$alone/ramparts" list
out=$(env OMPI_COMM_WORLD_SIZE=1 "$alone/ramparts" list 2>&1)
expect_match "under mpirun without ramparts-mpi: says so" "$out" "mpirun needs the program ramparts-mpi"
expect_eq "list works without the helpers" "$("$alone/ramparts" list)" "$("$RAMPARTS" list)"
finish
