"""python/examples/spark_scan.py run on a local Spark (``local[2]``: two worker threads, each
task a Python worker process of its own) over the project's samples.

The binary reaches the tasks the way the example says: ``SparkContext.addFile``, and a ``PATH``
without it. The records the job writes must be those of one ``mimebase scan`` over the same
paths, each exactly once; an unreadable path among them is an ``error`` record and does not fail
the job (exit code 1 of ``scan``).

Needs ``pyspark`` (PyPI) and a Java runtime (``java`` on ``PATH``, or ``JAVA_HOME``); skipped,
saying which is missing, without them. ``.ci/run`` installs both.
"""

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import REPO, SAMPLES

EXAMPLE = REPO / "python" / "examples" / "spark_scan.py"


def missing_requirement():
    """Why the local Spark cannot run here, or None."""
    if importlib.util.find_spec("pyspark") is None:
        return "pyspark is not installed (pip install pyspark)"
    java_home = os.environ.get("JAVA_HOME")
    if shutil.which("java") is None and not (java_home and Path(java_home, "bin", "java").exists()):
        return "no Java runtime: java is not on PATH and JAVA_HOME is unset"
    return None


def test_the_spark_example_ships_the_binary_and_writes_every_record_once(cli, tmp_path):
    why = missing_requirement()
    if why is not None:
        pytest.skip(why)
    # The binary under a name of its own, in a directory that is not on PATH.
    shipped = tmp_path / "bin" / "mimebase-under-test"
    shipped.parent.mkdir()
    shutil.copy2(cli, shipped)
    paths = sorted(str(p) for p in SAMPLES.iterdir() if p.is_file())
    assert len(paths) >= 10, paths
    missing = str(tmp_path / "no-such-message.eml")
    listed = paths + [missing]
    # Two list files, so that there are several partitions and tasks.
    half = len(listed) // 2
    lists = [tmp_path / "paths-1.txt", tmp_path / "paths-2.txt"]
    lists[0].write_text("".join(p + "\n" for p in listed[:half]))
    lists[1].write_text("".join(p + "\n" for p in listed[half:]))
    out = tmp_path / "out"

    env = dict(os.environ)
    env["PATH"] = os.pathsep.join(
        d for d in env.get("PATH", "").split(os.pathsep) if d and not Path(d, "mimebase").exists()
    )
    env["PYSPARK_PYTHON"] = sys.executable
    env["PYSPARK_DRIVER_PYTHON"] = sys.executable
    env.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    done = subprocess.run(
        [sys.executable, str(EXAMPLE), "--master", "local[2]", "--mimebase", str(shipped),
         "--output", str(out), *map(str, lists)],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, f"exit {done.returncode}\n{done.stdout}\n{done.stderr[-4000:]}"

    parts = sorted(out.glob("part-*"))
    assert len(parts) >= 2, parts
    written = [json.loads(line) for part in parts for line in part.read_text().splitlines()]

    expected = subprocess.run(
        [str(cli), "scan", "--jobs", "1", "--paths-from", "-"],
        input="".join(p + "\n" for p in listed).encode(),
        capture_output=True,
    )
    assert expected.returncode == 1, expected.stderr  # the missing path
    expected = [json.loads(line) for line in expected.stdout.splitlines()]

    def key(record):
        return json.dumps(record, sort_keys=True)

    assert sorted(map(key, written)) == sorted(map(key, expected))
    errors = [r for r in written if r["type"] == "error"]
    assert [r["path"] for r in errors] == [missing]
    messages = sum(r["type"] == "message" for r in written)
    assert f"spark_scan: messages: {messages}, error records: 1;" in done.stdout
