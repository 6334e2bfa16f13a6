"""Whether rspamd with the mimebase module stays healthy under load: the bench corpus through one
daemon with the module, PASSES times (16 requests in flight), its normal worker's resident memory
(VmRSS, /proc) after each pass, and the lines of its log at error level or above.

    python integrations/rspamd/tests/soak.py [CORPUS_DIR [PASSES]]

Healthy: after the last pass the worker's memory is within 10% of what it was after the first
(memory that grows pass after pass is a leak), no reply is an error, and the log has no error
from the scans (those of start-up, and the failures to resolve rspamd's own network services on
a machine without network, are not counted, as in test_rspamd.py).
The DNS checks are answered NXDOMAIN at once by a resolver of the script's own (bench_cost.py's).
Run as root; the library is ``$MIMEBASE_LIBRARY``, else this checkout's release build installed
under a temporary directory (``make -C capi install``).
"""

import os
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import rspamd_daemon  # noqa: E402
from bench_cost import IN_FLIGHT, REPO, NxdomainResolver, library  # noqa: E402

ERROR_LEVEL = re.compile(r"^\S+ \S+ \[(error|critical|crit|alert|emerg)\]")
# Lines that are not errors of the scans (as in test_rspamd.py): this machine has no network, so
# rspamd's maps, fuzzy servers and other lookups of its own fail to resolve.
DNS_FAILURE = re.compile(
    r"query timed out|cannot resolve|DNS (request|query) failed|timeout while|address resolution for"
)


def rss_kib(pid):
    """The resident memory of process ``pid``, in KiB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError(f"no VmRSS for {pid}")


def main():
    corpus = Path(sys.argv[1]) if len(sys.argv) > 1 else REPO.parent / "shared" / "corpus" / "bench"
    passes = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    paths = sorted(p for p in corpus.rglob("*") if p.is_file())
    messages = [p.read_bytes() for p in paths]
    print(f"rspamd: {rspamd_daemon.rspamd_version()}")
    print(f"corpus: {corpus}, {len(messages)} messages, {sum(map(len, messages)) / 1e6:.1f} MB, {passes} passes")
    root = Path(tempfile.mkdtemp(prefix="mimebase-rspamd-soak-"))
    os.chmod(root, 0o755)
    resolver = NxdomainResolver()
    daemon = None
    try:
        lib = library(root / "install")
        daemon = rspamd_daemon.Rspamd(
            root / "module", ["phish.example.net"], plugin={"library": str(lib)}, dns=resolver.address, name="module"
        ).start()
        [worker] = daemon.worker_pids()
        print(f"worker RSS at start: {rss_kib(worker)} KiB")
        # Errors of start-up (no Redis for Bayes, no fuzzy servers) are the stock
        # configuration's on a machine without them, not the scans'.
        offset = daemon.log_size()
        resident = []
        failed = 0
        with ThreadPoolExecutor(IN_FLIGHT) as pool:
            for n in range(passes):
                replies = list(pool.map(lambda m: daemon.scan(m, timeout=120), messages))
                failed += sum("action" not in r or "error" in r for r in replies)
                resident.append(rss_kib(worker))
                print(f"pass {n + 1}: worker RSS {resident[-1]} KiB")
        errors = [l for l in daemon.log_since(offset) if ERROR_LEVEL.match(l) and not DNS_FAILURE.search(l)]
        growth = resident[-1] / resident[0] - 1
        print(f"RSS after the last pass / after the first: {growth * 100:+.1f}%")
        print(f"replies with an error: {failed}; log lines at error level or above: {len(errors)}")
        for line in errors[:20]:
            print(f"  {line}")
        healthy = abs(growth) <= 0.10 and failed == 0 and not errors
        print("healthy" if healthy else "NOT healthy")
        return 0 if healthy else 1
    finally:
        if daemon is not None:
            daemon.stop()
        resolver.close()
        subprocess.run(["rm", "-rf", str(root)], check=False)


if __name__ == "__main__":
    sys.exit(main())
