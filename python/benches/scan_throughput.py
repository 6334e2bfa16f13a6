"""Throughput of ``mimebase.scan`` against ``mimebase scan --jobs 1`` on the same work, and
whether threads analyze in parallel (the GIL released while the engine works).

    python python/benches/scan_throughput.py [--rounds 5] [--corpus ../shared/corpus/bench]
        [--read type|urls]

The CLI is the release build of this checkout (``cargo build --release``, run by the script;
``$MIMEBASE_BIN`` overrides it). The extension is the installed ``mimebase`` (``pip install
./python`` builds it in release mode).

1. Scan: per round, the CLI's ``scan --jobs 1 CORPUS`` with its output to /dev/null, then
   ``for record in mimebase.scan(CORPUS, jobs=1)`` in this process, in alternating order. Both
   read every file and analyze it; the CLI writes each record as JSON text, Python yields it as
   a ``mimebase.Record``, whose values become Python objects when they are read. The loop
   reads each record's ``type`` (``--read type``, the default), or also every URL's
   ``resolved`` (``--read urls``: the ``urls`` list of dicts is made for every record), so
   that both the cost of a scan and the cost of using its records are known. Reported:
   wall-clock and CPU time per
   round, the median throughput in MB/s, and Python's median throughput as a fraction of the
   CLI's, by wall clock and by CPU time (CPU time is the steadier measure on a busy machine).
2. GIL: the corpus's files, read into memory first, analyzed by one thread, then split between
   two threads, alternating. Two threads finish sooner than one only if ``analyze`` runs
   without the GIL; the CPU time of the process over the wall-clock time says how many cores
   were busy.

The load average is printed before and after: figures taken while other work runs on the
machine are only comparable within one run.
"""

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

import mimebase

REPO = Path(__file__).resolve().parent.parent.parent


def release_cli():
    if os.environ.get("MIMEBASE_BIN"):
        return Path(os.environ["MIMEBASE_BIN"])
    built = subprocess.run(
        ["cargo", "build", "--release", "--quiet", "--bin", "mimebase", "--message-format=json"],
        cwd=REPO, check=True, capture_output=True, text=True,
    )
    for line in built.stdout.splitlines():
        record = json.loads(line)
        if record.get("reason") == "compiler-artifact" and record.get("executable"):
            return Path(record["executable"])
    sys.exit("cargo build did not report the mimebase executable")


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def time_cli(cli, corpus):
    cpu = children_cpu()
    start = time.perf_counter()
    subprocess.run([str(cli), "scan", "--jobs", "1", str(corpus)], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start, children_cpu() - cpu, None


def time_python(corpus, read):
    cpu = time.process_time()
    start = time.perf_counter()
    count = 0
    resolved = 0
    for record in mimebase.scan(corpus, jobs=1):
        count += record["type"] == "message"
        if read == "urls":
            for url in record.get("urls", ()):
                resolved += url["resolved"] is not None
    return time.perf_counter() - start, time.process_time() - cpu, count


def analyze_all(messages):
    for message in messages:
        mimebase.analyze(message)


def time_threads(messages, threads):
    shares = [messages[i::threads] for i in range(threads)]
    workers = [threading.Thread(target=analyze_all, args=(share,)) for share in shares]
    cpu = time.process_time()
    start = time.perf_counter()
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return time.perf_counter() - start, time.process_time() - cpu


def load():
    return "load average %.2f %.2f %.2f" % os.getloadavg()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--corpus", type=Path, default=REPO.parent / "shared" / "corpus" / "bench")
    parser.add_argument("--read", choices=("type", "urls"), default="type",
                        help="what the Python loop reads of each record")
    args = parser.parse_args()

    files = sorted(p for p in args.corpus.rglob("*") if p.is_file())
    size = sum(p.stat().st_size for p in files)
    megabytes = size / 1e6
    cli = release_cli()
    print(f"corpus {args.corpus}: {len(files)} files, {megabytes:.1f} MB; CLI {cli}")
    print(f"{os.cpu_count()} CPUs; the Python loop reads {args.read}; before: {load()}")

    # Warm the page cache and both code paths once, untimed.
    time_cli(cli, args.corpus)
    time_python(args.corpus, args.read)

    results = {"cli": [], "python": []}
    for round_ in range(args.rounds):
        order = [("cli", lambda: time_cli(cli, args.corpus)), ("python", lambda: time_python(args.corpus, args.read))]
        if round_ % 2:
            order.reverse()
        for name, run in order:
            wall, cpu, _ = run()
            results[name].append((wall, cpu))
            print(f"round {round_ + 1} {name:6}: {wall:6.2f} s wall, {cpu:6.2f} s CPU, "
                  f"{megabytes / wall:6.1f} MB/s wall, {megabytes / cpu:6.1f} MB/s CPU")

    def median_rate(name, index):
        return statistics.median(megabytes / r[index] for r in results[name])

    for label, index in (("wall clock", 0), ("CPU time", 1)):
        cli_rate, python_rate = median_rate("cli", index), median_rate("python", index)
        print(f"median by {label}: CLI {cli_rate:.1f} MB/s, Python {python_rate:.1f} MB/s, "
              f"Python/CLI = {python_rate / cli_rate:.3f}")

    messages = [p.read_bytes() for p in files]
    timings = {1: [], 2: []}
    for round_ in range(args.rounds):
        for threads in ((1, 2) if round_ % 2 == 0 else (2, 1)):
            timings[threads].append(time_threads(messages, threads))
    for threads in (1, 2):
        wall = statistics.median(t[0] for t in timings[threads])
        cpu = statistics.median(t[1] for t in timings[threads])
        print(f"analyze, {threads} thread{'s' if threads > 1 else ' '}: median {wall:.2f} s wall, "
              f"{cpu:.2f} s CPU (CPU/wall {cpu / wall:.2f}), {megabytes / wall:.1f} MB/s")
    speedup = statistics.median(t[0] for t in timings[1]) / statistics.median(t[0] for t in timings[2])
    print(f"two threads vs one: {speedup:.2f}x faster by wall clock")
    print(f"after: {load()}")


if __name__ == "__main__":
    main()
