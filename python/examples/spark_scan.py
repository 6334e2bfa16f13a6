"""Scan mail on a Spark cluster with the ``mimebase`` command, shipped to the workers by Spark.

The input is one or more text files that list the paths of the messages to scan, one path per
line (files, directories, Maildirs and mbox files, as ``mimebase scan`` takes them); the paths
must be readable where the tasks run (a shared file system, or a FUSE mount of HDFS). Each
partition of that list is given to one ``mimebase scan --jobs 1 --paths-from -`` process on the
worker that runs the task; its NDJSON records become the rows of the result, written as JSON
lines under ``--output`` (Spark's ``saveAsTextFile``: one ``part-NNNNN`` file per partition).

The command reaches the workers through Spark itself, not through their ``PATH``:
``SparkContext.addFile`` copies the binary named by ``--mimebase`` to every executor (as
``spark-submit --files`` does), and each task runs the copy ``SparkFiles.get`` names. Build it
for the workers' platform (``cargo build --release``: a binary that needs nothing but the C
library).

Exit codes: ``mimebase scan`` exits 1 when some inputs could not be read; those are ``error``
records in the output already (path, kind, message), so 1 is not a failed task. Any other
non-zero code (2: a usage error, or output that could not be written) fails the task, and Spark
retries it or stops the job.

Run it, for example on a local Spark with two worker threads::

    find /srv/mail -name '*.eml' > paths.txt
    python python/examples/spark_scan.py --master 'local[2]' \\
        --mimebase target/release/mimebase --output links/ paths.txt

or hand it to ``spark-submit`` (without ``--master``, which ``spark-submit`` then sets).
"""

import argparse
import json
import os
import shutil
import stat
import subprocess
import sys
import threading
from typing import Iterable, Iterator

from pyspark import SparkConf, SparkContext, SparkFiles


def scan_partition(binary_name: str, paths: Iterable[str]) -> Iterator[str]:
    """The NDJSON lines of ``mimebase scan`` over ``paths``, run on the worker from the copy of
    the binary that Spark shipped there (``binary_name``: its file name)."""
    binary = SparkFiles.get(binary_name)
    mode = os.stat(binary).st_mode
    if not mode & stat.S_IXUSR:  # a copy made without the executable bits
        os.chmod(binary, mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    process = subprocess.Popen(
        [binary, "scan", "--jobs", "1", "--paths-from", "-"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )

    def feed() -> None:
        # Written from a thread, so that the process's output, read below, never fills up
        # while its input is still being written.
        assert process.stdin is not None
        try:
            with process.stdin:
                for path in paths:
                    process.stdin.write(os.fsencode(path) + b"\n")
        except BrokenPipeError:
            pass  # the process ended early: its exit code says why

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    assert process.stdout is not None
    for line in process.stdout:
        yield line.decode("utf-8").rstrip("\n")
    writer.join()
    code = process.wait()
    if code not in (0, 1):
        raise RuntimeError(f"mimebase scan exited with code {code}")


def main(argv: list) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("lists", nargs="+", help="files listing one path to scan per line")
    parser.add_argument(
        "--mimebase",
        default=shutil.which("mimebase"),
        help="the mimebase binary to ship to the workers (default: the one on PATH)",
    )
    parser.add_argument("--output", required=True, help="directory for the JSON lines")
    parser.add_argument("--master", help="Spark master URL (spark-submit sets it otherwise)")
    args = parser.parse_args(argv)
    if args.mimebase is None:
        parser.error("no mimebase binary on PATH: give --mimebase")

    conf = SparkConf().setAppName("mimebase scan")
    if args.master:
        conf.setMaster(args.master)
    sc = SparkContext(conf=conf)
    try:
        sc.addFile(os.path.abspath(args.mimebase))
        binary_name = os.path.basename(args.mimebase)
        paths = sc.textFile(",".join(args.lists)).filter(lambda path: path != "")
        records = paths.mapPartitions(lambda part: scan_partition(binary_name, part)).cache()
        records.saveAsTextFile(args.output)
        kinds = records.map(lambda line: json.loads(line)["type"]).countByValue()
        messages, errors = kinds.get("message", 0), kinds.get("error", 0)
        print(f"spark_scan: messages: {messages}, error records: {errors}; written to {args.output}")
    finally:
        sc.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
