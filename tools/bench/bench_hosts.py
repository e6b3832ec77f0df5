"""What the side-by-side benches share: where the binaries are, and the hosts a run starts and
stops (a Mooncake master on loopback with storage nodes beside it, or the hosts of
tools/cluster/cluster: network namespaces joined by a bridge)."""
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KVTIER = ROOT / "host-sample" / "bin" / "kvtier"
RAW = ROOT / "plugin-mooncake" / "target" / "native-build" / "kvtier_raw_bench"
CLUSTER = ROOT / "tools" / "cluster" / "cluster"


def log(message):
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(port, process, what, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            sys.exit(f"bench: {what} exited with status {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.1)
    sys.exit(f"bench: {what} did not listen on 127.0.0.1:{port} within {timeout} s")


def stop(process):
    if process and process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def mooncake_master():
    home = os.environ.get("MOONCAKE_HOME")
    if not home or not Path(home, "bin", "mooncake_master").exists():
        sys.exit("bench: MOONCAKE_HOME is not set to a Mooncake install; "
                 "run: eval \"$(native/mooncake/build)\"")
    return Path(home, "bin", "mooncake_master")


class Loopback:
    """A master on loopback, and a storage node beside it when the topology is remote."""
    hostname = "127.0.0.1"  # what the client advertises

    def __init__(self, logs, remote, node_segment, master_flags=()):
        self.logs, self.nodes, self.master = logs, [], None
        try:
            port, metrics = free_port(), free_port()
            self.address = f"127.0.0.1:{port}"
            self.master = subprocess.Popen(
                [str(mooncake_master()), "--rpc_address=127.0.0.1", f"--rpc_port={port}",
                 "--metrics_host=127.0.0.1", f"--metrics_port={metrics}", *master_flags],
                stdout=open(logs / "master.log", "ab"), stderr=subprocess.STDOUT)
            wait_for_port(port, self.master, "mooncake_master")
            if remote:
                self.start_node([str(RAW), "node", "--master", self.address, "--segment", str(node_segment)],
                                "node.log")
        except BaseException:
            self.close()
            raise

    def start_node(self, command, log_name):
        node = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=open(self.logs / log_name, "ab"))
        self.nodes.append(node)
        if node.stdout.readline().decode().strip() != "ready":
            sys.exit(f"bench: a storage node did not start (see {self.logs / log_name})")

    def client(self, command):
        """command, run where the measured processes run."""
        return command

    def close(self):
        # EOF ends a node cleanly, its segment unmounted; a signal only if it does not.
        for node in self.nodes:
            node.stdin.close()
        for node in self.nodes:
            try:
                node.wait(5)
            except subprocess.TimeoutExpired:
                stop(node)
        stop(self.master)


def cluster_name():
    # Unique among running processes, in a cluster name's 8 characters: a PID below 2^22 takes 5 in base 36.
    pid, digits = os.getpid(), ""
    while pid:
        pid, digit = divmod(pid, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[digit] + digits
    return "sbs" + digits


def harness(*args):
    result = subprocess.run([str(CLUSTER), *args], stdout=subprocess.PIPE, text=True)
    if result.returncode != 0:
        sys.exit(f"bench: cluster {' '.join(args)} failed with status {result.returncode}")
    return result.stdout.strip()


class Namespaced(Loopback):
    """Hosts of tools/cluster/cluster: the master on 0, storage nodes on 1 and 2, the client on 3."""
    CLIENT = 3

    def __init__(self, logs, node_segment, limit):
        self.logs, self.nodes, self.master, self.name = logs, [], None, cluster_name()
        try:
            mooncake_master()
            harness("gc")
            # Owned by this process: should it die without its finally, the next gc removes the cluster.
            harness("up", self.name, "4", str(os.getpid()))
            self.hostname = harness("addr", self.name, str(self.CLIENT))  # 198.18.0.13
            if limit:
                for host in (1, 2, 3):
                    harness("limit", self.name, str(host), limit)
            self.address = harness("master", self.name, "0")
            for host in (1, 2):
                node = [str(RAW), "node", "--master", self.address, "--segment", str(node_segment),
                        "--hostname", harness("addr", self.name, str(host))]
                self.start_node(self.on(host, node), f"node-{host}.log")
        except BaseException:
            self.close()
            raise

    def on(self, host, command):
        return [str(CLUSTER), "exec", self.name, str(host), *command]

    def client(self, command):
        return self.on(self.CLIENT, command)

    def close(self):
        super().close()
        # down kills what is left on the hosts (the master among them) and removes them.
        if subprocess.run([str(CLUSTER), "down", self.name]).returncode != 0:
            log(f"cluster down {self.name} failed: see ip netns list")
