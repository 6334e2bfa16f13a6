"""Shared fixtures: where the repository, the corpus and the `mimebase` command are.

The corpus is ``../shared/corpus/`` relative to the repository root, as for the Rust tests; every
test reaches it through shared_corpus.py, which skips the test when it is absent (naming the
path: ``pytest -rs``) and fails it under ``MIMEBASE_REQUIRE_CORPUS``, as CI sets.
The command is the one ``cargo build`` makes from this checkout (``$MIMEBASE_BIN`` overrides
it), so that the Python package and the CLI compared with it run the same engine.
"""

import json
import os
import subprocess
from pathlib import Path

import pytest

from shared_corpus import corpus_cases, corpus_or_skip  # noqa: F401 (for the tests)

PYTHON_DIR = Path(__file__).resolve().parent.parent
REPO = PYTHON_DIR.parent
SAMPLES = REPO / "samples"
GOLDEN = REPO / "tests" / "data" / "golden"


def corpus_messages():
    """Every message file under corpus/messages/, sorted (FEATURES.jsonl is not a message); the
    calling test is skipped when the corpus is absent."""
    root = corpus_or_skip("messages")
    found = sorted(p for p in root.rglob("*") if p.is_file() and p.name != "FEATURES.jsonl")
    assert len(found) >= 70, f"expected the corpus's 75 messages under {root}, found {len(found)}"
    return found


def bench_messages():
    """Every file under corpus/bench/, sorted; the calling test is skipped when the corpus is
    absent."""
    root = corpus_or_skip("bench")
    found = sorted(p for p in root.rglob("*") if p.is_file())
    assert len(found) >= 1000, f"expected the bench corpus under {root}"
    return found


def samples():
    found = sorted(SAMPLES.glob("*.eml"))
    assert found, f"no samples/*.eml under {SAMPLES}"
    return found


def to_crlf(data: bytes) -> bytes:
    """Every LF not already preceded by CR becomes CRLF (as tests/support/mod.rs does for the golden tests)."""
    return data.replace(b"\r\n", b"\n").replace(b"\n", b"\r\n")


def find_cli() -> Path:
    """``$MIMEBASE_BIN``, else the binary ``cargo build`` makes (built now if needed)."""
    given = os.environ.get("MIMEBASE_BIN")
    if given:
        return Path(given)
    built = subprocess.run(
        ["cargo", "build", "--quiet", "--bin", "mimebase", "--message-format=json"],
        cwd=REPO,
        check=True,
        capture_output=True,
        text=True,
    )
    for line in built.stdout.splitlines():
        record = json.loads(line)
        if record.get("reason") == "compiler-artifact" and record.get("executable"):
            return Path(record["executable"])
    raise RuntimeError("cargo build did not report the mimebase executable")


@pytest.fixture(scope="session")
def cli() -> Path:
    return find_cli()


def run_cli(cli: Path, *args, stdin: bytes = b"") -> bytes:
    """Runs the command; its stdout. Exit codes other than 0 fail the test."""
    done = subprocess.run([str(cli), *map(str, args)], input=stdin, capture_output=True)
    assert done.returncode == 0, f"mimebase {args}: exit {done.returncode}: {done.stderr!r}"
    return done.stdout


def ndjson(data: bytes):
    return [json.loads(line) for line in data.splitlines()]
