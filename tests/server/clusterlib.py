"""clusterlib.py — a local cluster of `ramparts serve` (docs/cluster.md): a PostgreSQL server
in a temporary directory (pgserver.py, run as `nobody` when started as root), N nodes on
free loopback ports sharing it, and HAProxy in front with the project's deploy/haproxy.cfg.
Used by the cluster tests, `make cluster` (run as a script: prints the address, Ctrl-C
stops everything) and `make bench-cluster`."""

import asyncio
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request

import websockets.exceptions

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pgserver import SKIP, PostgresServer  # noqa: E402
from rsclient import Client, Server, restartable_port  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HAPROXY_CFG = os.path.join(ROOT, "deploy", "haproxy.cfg")
MAX_NODES = 3  # deploy/haproxy.cfg names node1..node3


def wait_for(condition, what, limit=60.0):
    """Poll condition() until it holds: a bound for a hang, never a measure of speed."""
    deadline = time.monotonic() + limit
    while not condition():
        if time.monotonic() > deadline:
            raise TimeoutError(f"not within {limit} s: {what}")
        time.sleep(0.05)


def missing_component():
    """Why a cluster cannot start here (a component not installed), or None."""
    if not shutil.which("haproxy"):
        return "HAProxy is not installed (Debian: haproxy; scripts/install-deps.sh installs it)"
    try:
        PostgresServer().destroy()
    except FileNotFoundError as e:
        return str(e)
    return None


def skip_without_cluster():
    """Exit 77 (ctest: skipped) where a cluster cannot start: a component not installed."""
    why = missing_component()
    if why:
        print(f"SKIP: {why}")
        sys.exit(SKIP)


class Cluster:
    def __init__(self, binary, nodes=3, extra=(), front_port=0, lease_s=2):
        assert 1 <= nodes <= MAX_NODES
        self.binary = binary
        self.count = nodes
        self.extra = list(extra)
        self.lease_s = lease_s
        self.dir = tempfile.mkdtemp(prefix="ramparts-cluster-")
        self.pg = PostgresServer()
        self.nodes = []
        self.haproxy = None
        self.front_port = front_port or restartable_port()
        self.admin = os.path.join(self.dir, "haproxy.sock")

    # ---- starting and stopping ----

    def node_args(self, name):
        # HAProxy reaches the nodes from 127.0.0.1: they take the client's address from its
        # X-Forwarded-For (deploy/haproxy.cfg).
        return ["--rate", "100000", "--store", self.pg.address, "--node", name,
                "--lease", str(self.lease_s), "--trusted-proxy", "127.0.0.1"] + self.extra

    def start(self):
        self.pg.init()
        for i in range(self.count):
            name = f"node{i + 1}"
            workdir = os.path.join(self.dir, name)
            os.makedirs(workdir)
            # Nodes are killed and started again on their ports (restart, kill9).
            self.nodes.append(Server(self.binary, workdir=workdir,
                                     extra=self.node_args(name)).start(restartable_port()))
        self.start_haproxy()
        def all_up():
            if self.haproxy.poll() is not None:
                raise RuntimeError(f"HAProxy exited: {open(self.haproxy_log.name).read()}")
            return all(self.state(i) == "UP" for i in range(self.count))
        wait_for(all_up, "HAProxy sees every node up")
        return self

    def start_haproxy(self):
        """HAProxy with deploy/haproxy.cfg in front of the nodes' ports (running or not)."""
        env = dict(os.environ, RAMPARTS_FRONT=f"127.0.0.1:{self.front_port}",
                   RAMPARTS_HAPROXY_ADMIN=self.admin)
        for i in range(MAX_NODES):  # unused slots point at a closed port: always down
            port = self.nodes[i].port if i < self.count else restartable_port()
            env[f"RAMPARTS_NODE{i + 1}"] = f"127.0.0.1:{port}"
        self.haproxy_log = open(os.path.join(self.dir, "haproxy.log"), "a")
        self.haproxy = subprocess.Popen(["haproxy", "-db", "-f", HAPROXY_CFG], env=env,
                                        stdout=self.haproxy_log, stderr=self.haproxy_log)
        wait_for(lambda: os.path.exists(self.admin) and self.state(0) is not None,
                 "HAProxy answers on its admin socket")

    def stop(self):
        """SIGTERM to every node (their exit statuses), then HAProxy and PostgreSQL."""
        statuses = [n.stop() for n in self.nodes]
        if self.haproxy:
            self.haproxy.send_signal(signal.SIGTERM)
            try:
                self.haproxy.wait(10)
            except subprocess.TimeoutExpired:
                self.haproxy.kill()
            self.haproxy = None
        self.pg.destroy()
        return statuses

    def destroy_showing_logs(self):
        """After a failure: each node's log tail on stderr, then everything killed."""
        for n in self.nodes:
            print(f"--- {n.log_path} tail:\n{n.log()[-3000:]}", file=sys.stderr)
        self.destroy()

    def destroy(self):
        for n in self.nodes:
            if n.proc:
                n.kill9()
        if self.haproxy:
            self.haproxy.kill()
            self.haproxy.wait()
            self.haproxy = None
        self.pg.destroy()

    # ---- HAProxy's view ----

    @property
    def url(self):
        return f"http://127.0.0.1:{self.front_port}"

    @property
    def ws_url(self):
        return f"ws://127.0.0.1:{self.front_port}/ws"

    def admin_command(self, command):
        with socket.socket(socket.AF_UNIX) as s:
            s.connect(self.admin)
            s.sendall((command + "\n").encode())
            chunks = []
            while True:
                data = s.recv(65536)
                if not data:
                    break
                chunks.append(data)
        return b"".join(chunks).decode()

    def state(self, i):
        """HAProxy's word for node i: UP, DOWN, DRAIN, MAINT (from `show stat`)."""
        try:
            out = self.admin_command("show stat")
        except OSError:
            return None
        for line in out.splitlines():
            cols = line.split(",")
            if len(cols) > 17 and cols[0] == "nodes" and cols[1] == f"node{i + 1}":
                return cols[17].split(" ")[0]
        return None

    def health(self):
        """/healthz through HAProxy: which node answered."""
        import json
        with urllib.request.urlopen(self.url + "/healthz", timeout=30) as r:
            return json.loads(r.read())

    # ---- one node ----

    def kill9(self, i):
        self.nodes[i].kill9()

    def drain_and_stop(self, i):
        """HAProxy sends the node nothing new; SIGTERM: it closes its sockets with 1001 and
        exits. Returns its exit status."""
        self.admin_command(f"set server nodes/node{i + 1} state drain")
        return self.nodes[i].stop()

    def restart(self, i):
        """The node again on its own port, taken back by HAProxy once its check passes."""
        self.nodes[i].start(port=self.nodes[i].port)
        self.admin_command(f"set server nodes/node{i + 1} state ready")
        wait_for(lambda: self.state(i) == "UP", f"node{i + 1} back up")


DROPPED = (websockets.exceptions.WebSocketException, OSError)


class Reconnecting:
    """One person's connection (through HAProxy, or to one node) that comes back with its
    token whenever it drops, as a client does: every connection it had is kept in `clients`
    (for the checker), `reconnects` counts the returns. connected(welcome) is what a subclass
    does on each connection (open its game again, say)."""

    def __init__(self, front, label):
        self.front = front
        self.label = label
        self.clients = []
        self.token = None
        self.user = None
        self.reconnects = 0

    @property
    def client(self):
        return self.clients[-1]

    async def connect(self):
        c = Client(self.front, f"{self.label}-{len(self.clients)}")
        await c.connect()
        self.clients.append(c)
        reply = await c.hello(self.token)
        if reply["t"] != "welcome":
            raise RuntimeError(f"{self.label}: {reply}")
        self.token = c.token
        self.user = reply["user"]
        await self.connected(reply)
        return self

    async def connected(self, welcome):
        pass

    async def reconnect(self):
        self.reconnects += 1
        try:
            await self.client.close()
        except DROPPED:
            pass
        for _ in range(600):  # HAProxy has no node up for a moment: a bound for a hang
            try:
                await self.connect()
                return
            except DROPPED:
                await asyncio.sleep(0.1)
        raise RuntimeError(f"{self.label} cannot reconnect")

    async def call(self, step):
        """step(client), again on a new connection whenever the connection drops. A reply that
        does not come (rsclient's TimeoutError, an OSError too) is a failure, not a drop: a
        node that stays behind must fail the test with what it waited for, not have it
        reconnect and wait again."""
        for _ in range(50):
            try:
                return await step(self.client)
            except TimeoutError:
                raise
            except DROPPED:
                await self.reconnect()
        raise RuntimeError(f"{self.label}: the connection keeps dropping")


async def run_test(args, scenario, limit_s, nodes=3, extra=()):
    """A cluster test's main: skipped (77) without PostgreSQL or HAProxy; the cluster
    started, scenario(checks, cluster) run within limit_s, every node stopped with SIGTERM
    (each must exit 0); on any failure the nodes' logs are shown and everything killed."""
    skip_without_cluster()
    from rsclient import Checks
    checks = Checks()
    cluster = Cluster(args.ramparts, nodes=nodes, extra=extra)
    try:
        cluster.start()
        await asyncio.wait_for(scenario(checks, cluster), limit_s)
        # In a thread: the clients still connected answer the nodes' closing handshakes here.
        statuses = await asyncio.to_thread(cluster.stop)
        checks.eq(statuses, [0] * nodes, "every node exits 0 on SIGTERM")
    except BaseException:
        cluster.destroy_showing_logs()
        raise
    checks.finish()


class Front:
    """What rsclient.Client needs of a server: the address to connect to."""

    def __init__(self, cluster):
        self.cluster = cluster

    @property
    def ws_url(self):
        return self.cluster.ws_url


def main():
    """`make cluster`: PostgreSQL, three nodes and HAProxy until Ctrl-C."""
    import argparse
    p = argparse.ArgumentParser(description=main.__doc__)
    p.add_argument("--ramparts", required=True)
    p.add_argument("--port", type=int, default=8080)
    p.add_argument("--nodes", type=int, default=3)
    args = p.parse_args()
    why = missing_component()
    if why:
        print(f"cannot start a cluster: {why}", file=sys.stderr)
        return 1
    cluster = Cluster(args.ramparts, nodes=args.nodes, front_port=args.port)
    stop = []
    signal.signal(signal.SIGINT, lambda *_: stop.append(1))
    signal.signal(signal.SIGTERM, lambda *_: stop.append(1))
    try:
        cluster.start()
        print(f"cluster of {args.nodes} nodes on PostgreSQL ({cluster.pg.address}) behind "
              f"HAProxy: open {cluster.url}/", flush=True)
        for i, n in enumerate(cluster.nodes):
            print(f"  node{i + 1}: {n.url}/ (log {n.log_path})", flush=True)
        print("Ctrl-C stops it all.", flush=True)
        while not stop:
            time.sleep(0.2)
        print("stopping", flush=True)
        statuses = cluster.stop()
        return 0 if all(s == 0 for s in statuses) else 1
    except BaseException:
        cluster.destroy()
        raise


if __name__ == "__main__":
    sys.exit(main())
