"""Shared fixtures: where the repository, the corpus and the `mimebase` command are.

The corpus is ``../shared/corpus/`` relative to the repository root, as for the Rust tests.
The command is the one ``cargo build`` makes from this checkout (``$MIMEBASE_BIN`` overrides
it), so that the Python package and the CLI compared with it run the same engine.
"""

import json
import os
import subprocess
from pathlib import Path

import pytest

PYTHON_DIR = Path(__file__).resolve().parent.parent
REPO = PYTHON_DIR.parent
CORPUS = REPO.parent / "shared" / "corpus"
SAMPLES = REPO / "samples"
GOLDEN = REPO / "tests" / "data" / "golden"


def corpus_messages():
    """Every message file under corpus/messages/, sorted (FEATURES.jsonl is not a message)."""
    root = CORPUS / "messages"
    found = sorted(p for p in root.rglob("*") if p.is_file() and p.name != "FEATURES.jsonl")
    assert len(found) >= 70, f"expected the corpus's 75 messages under {root}, found {len(found)}"
    return found


def bench_messages():
    """Every file under corpus/bench/, sorted."""
    found = sorted(p for p in (CORPUS / "bench").rglob("*") if p.is_file())
    assert len(found) >= 1000, f"expected the bench corpus under {CORPUS / 'bench'}"
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
