"""What the mimebase module costs rspamd per message: the bench corpus through two rspamd daemons
of the same configuration, stock and with the module, in one run, alternating chunk by chunk
(CHUNK messages to one daemon, then the same messages to the other; even chunks stock first,
odd ones the module first), IN_FLIGHT requests at a time, as an MTA's milter connections come.

    python integrations/rspamd/tests/bench_cost.py [CORPUS_DIR [ROUNDS]]

Prints, per daemon, the CPU time per message of its normal worker (user + system, from /proc:
what rspamd itself spends, the figure that matters) and the wall time per message (each chunk's
from its first request to its last reply, divided by its messages), and what the module adds.
Run as root (as the tests do) on an idle machine; the library is ``$MIMEBASE_LIBRARY``, else
this checkout's release build installed under a temporary directory (``make -C capi install``).

rspamd's DNS checks (RBL, SURBL, SPF, DMARC, ...) get their answers from a resolver on a loopback
port that answers every query at once with NXDOMAIN, as a local caching resolver does for names
that are not listed; with no answer at all (the tests' dead port) each message would wait for
its queries' timeouts. Even so some messages wait on rspamd's own timers (SPF and others), so
requests are sent several at a time: one at a time the wall time would measure those waits
(docs/PERFORMANCE.md, "Mail filters", has the figures). Each daemon runs one normal worker.
"""

import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import rspamd_daemon  # noqa: E402

REPO = HERE.parent.parent.parent
BAD_HOSTS = ["bad-content-base.com", "phish.example.net"]
CHUNK = 200
IN_FLIGHT = 16


class NxdomainResolver:
    """A DNS server on a loopback UDP port answering every query NXDOMAIN (RFC 1035 §4.1.1:
    the query's header and question, QR set, RCODE 3)."""

    def __init__(self):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.sock.bind(("127.0.0.1", 0))
        self.address = "127.0.0.1:%d" % self.sock.getsockname()[1]
        self.answered = 0
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self):
        while True:
            try:
                query, peer = self.sock.recvfrom(4096)
            except OSError:
                return
            reply = self.reply(query)
            if reply:
                self.sock.sendto(reply, peer)
                self.answered += 1

    @staticmethod
    def reply(query):
        if len(query) < 12:
            return None
        end = 12
        while end < len(query) and query[end] != 0:
            end += 1 + query[end]
        end += 5  # the root label, QTYPE, QCLASS
        if end > len(query):
            return None
        flags = 0x8000 | (query[2] & 0x01) << 8 | 0x0080 | 3  # QR, RD copied, RA, NXDOMAIN
        header = query[0:2] + flags.to_bytes(2, "big") + b"\x00\x01" + b"\x00\x00" * 3
        return header + query[12:end]

    def close(self):
        self.sock.close()


def cpu_seconds(pid):
    """User + system CPU time of process ``pid``, in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def library(root):
    given = os.environ.get("MIMEBASE_LIBRARY")
    if given:
        return Path(given)
    subprocess.run(["make", "-s", "-C", str(REPO / "capi"), "install", f"DESTDIR={root}"], check=True)
    return Path(root) / "usr" / "local" / "lib" / "libmimebase.so.0"


def main():
    corpus = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO.parent / "shared" / "corpus" / "bench"
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    paths = sorted(p for p in corpus.rglob("*") if p.is_file())
    messages = [p.read_bytes() for p in paths]
    print(f"rspamd: {rspamd_daemon.rspamd_version()}")
    print(f"revision: {subprocess.run(['git', '-C', str(REPO), 'rev-parse', '--short', 'HEAD'], capture_output=True, text=True).stdout.strip()}")
    print(f"load average: {os.getloadavg()}")
    print(f"corpus: {corpus}, {len(messages)} messages, {sum(map(len, messages)) / 1e6:.1f} MB, {rounds} round(s)")

    root = Path(tempfile.mkdtemp(prefix="mimebase-rspamd-bench-"))
    os.chmod(root, 0o755)
    resolver = NxdomainResolver()
    lib = library(root / "install")
    hs = root / "hs"
    daemons = {}
    try:
        daemons["stock"] = rspamd_daemon.Rspamd(root / "stock", BAD_HOSTS, hs_cache=hs, dns=resolver.address, name="stock").start()
        daemons["module"] = rspamd_daemon.Rspamd(
            root / "module", BAD_HOSTS, plugin={"library": str(lib)}, hs_cache=hs, dns=resolver.address, name="module"
        ).start()
        workers = {}
        for name, daemon in daemons.items():
            [workers[name]] = daemon.worker_pids()
        with ThreadPoolExecutor(IN_FLIGHT) as pool:
            # Warm-up: the hyperscan databases compiled and loaded, the caches filled.
            for daemon in daemons.values():
                list(pool.map(daemon.scan, messages[:600]))
            time.sleep(2)
            for r in range(rounds):
                wall = {name: 0.0 for name in daemons}
                cpu_before = {name: cpu_seconds(pid) for name, pid in workers.items()}
                for k, first in enumerate(range(0, len(messages), CHUNK)):
                    chunk = messages[first : first + CHUNK]
                    order = ("stock", "module") if k % 2 == 0 else ("module", "stock")
                    for name in order:
                        start = time.perf_counter()
                        list(pool.map(daemons[name].scan, chunk))
                        wall[name] += time.perf_counter() - start
                cpu = {name: cpu_seconds(pid) - cpu_before[name] for name, pid in workers.items()}
                n = len(messages)
                print(f"round {r + 1}:")
                for name in daemons:
                    print(
                        f"  {name:6}: worker CPU {cpu[name] / n * 1e3:.3f} ms/message, "
                        f"wall {wall[name] / n * 1e3:.3f} ms/message"
                    )
                added_cpu = cpu["module"] / cpu["stock"] - 1
                added_wall = wall["module"] / wall["stock"] - 1
                print(f"  module adds: worker CPU {added_cpu * 100:+.1f}%, wall {added_wall * 100:+.1f}%")
        print(f"DNS queries answered: {resolver.answered}")
        for daemon in daemons.values():
            errors = [l for l in daemon.log_since(0) if "mimebase:" in l and "[info]" not in l]
            print(f"{daemon.name}: module log lines above info: {len(errors)}")
    finally:
        for daemon in daemons.values():
            daemon.stop()
        resolver.close()
        subprocess.run(["rm", "-rf", str(root)], check=False)


if __name__ == "__main__":
    main()
