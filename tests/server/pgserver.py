"""pgserver.py — a PostgreSQL server of a test's own: initdb in a temporary directory, the
server listening only on a unix socket in that directory (so no port is shared with anything
else on the machine), trust authentication for the user `ramparts`, one database `ramparts`.
As root the server runs as the unprivileged user `nobody` (PostgreSQL refuses to run as root).
Used by tests/server/test_postgres.py and `make cluster` (docs/cluster.md)."""

import glob
import os
import shutil
import subprocess
import sys
import tempfile

# The exit status ctest reports as skipped (SKIP_RETURN_CODE in CMakeLists.txt).
SKIP = 77


def find_bindir():
    """The directory of Debian's initdb/pg_ctl (newest version), or None."""
    for candidate in sorted(glob.glob("/usr/lib/postgresql/*/bin"),
                            key=lambda p: int(p.split("/")[-2]) if p.split("/")[-2].isdigit()
                            else 0, reverse=True):
        if os.access(os.path.join(candidate, "initdb"), os.X_OK):
            return candidate
    found = shutil.which("initdb")
    return os.path.dirname(found) if found else None


class PostgresServer:
    def __init__(self, port=5432):
        self.bindir = find_bindir()
        if not self.bindir:
            raise FileNotFoundError("PostgreSQL's initdb is not installed (Debian: postgresql; "
                                    "scripts/install-deps.sh installs it)")
        self.dir = tempfile.mkdtemp(prefix="ramparts-pg-")
        self.data = os.path.join(self.dir, "data")
        self.log_path = os.path.join(self.dir, "postgres.log")
        self.port = port
        self.as_user = []
        if os.geteuid() == 0:
            # initdb and postgres refuse root: everything belongs to nobody.
            os.chmod(self.dir, 0o755)
            shutil.chown(self.dir, "nobody", "nogroup")
            self.as_user = ["runuser", "-u", "nobody", "--"]

    def _run(self, *args):
        cmd = self.as_user + [os.path.join(self.bindir, args[0])] + list(args[1:])
        result = subprocess.run(cmd, capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed ({result.returncode}):\n"
                               f"{result.stdout}{result.stderr}\n{self.log()}")
        return result

    def log(self):
        try:
            with open(self.log_path) as f:
                return f.read()
        except OSError:
            return ""

    @property
    def address(self):
        """The libpq address of the database, for `ramparts serve --store`."""
        return f"postgresql://ramparts@/ramparts?host={self.dir}&port={self.port}"

    def init(self):
        self._run("initdb", "-D", self.data, "-U", "ramparts", "--auth=trust", "-E", "UTF8",
                  "--no-sync", "--no-instructions")
        self.start()
        self._run("createdb", "-h", self.dir, "-p", str(self.port), "-U", "ramparts", "ramparts")
        return self

    def start(self):
        # pg_stat_statements: the statements the nodes run, counted (make bench-cluster).
        options = (f"-k {self.dir} -p {self.port} -c listen_addresses=''"
                   " -c shared_preload_libraries=pg_stat_statements")
        self._run("pg_ctl", "-D", self.data, "-l", self.log_path, "-o", options, "-w", "start")
        return self

    def stop(self, mode="fast"):
        """fast: a clean shutdown; immediate: as if the machine lost power (no checkpoint)."""
        self._run("pg_ctl", "-D", self.data, "-m", mode, "-w", "stop")

    def query(self, sql):
        """The rows of one SQL statement through psql, as lists of column texts."""
        cmd = [os.path.join(self.bindir, "psql"), "-h", self.dir, "-p", str(self.port),
               "-U", "ramparts", "-d", "ramparts", "-AtX", "-F", "\t", "-c", sql]
        result = subprocess.run(cmd, capture_output=True, text=True)
        if result.returncode != 0:
            raise RuntimeError(f"psql failed: {result.stderr}")
        return [line.split("\t") for line in result.stdout.splitlines()]

    def destroy(self):
        try:
            self.stop("immediate")
        except RuntimeError:
            pass
        shutil.rmtree(self.dir, ignore_errors=True)


def server_or_skip():
    """A PostgreSQL server of the test's own (not started yet: init() starts it); where
    PostgreSQL is not installed, says why and exits SKIP, which ctest reports as skipped."""
    try:
        return PostgresServer()
    except FileNotFoundError as e:
        print(f"SKIP: {e}")
        sys.exit(SKIP)
