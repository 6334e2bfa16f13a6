"""A command that reads standard input says so on stderr when that input is a terminal, and
only then: run with a pseudo-terminal as standard input (Python's ``pty``), ended with the
terminal's end-of-file character, and with a pipe."""

import os
import pty
import subprocess
import sys
import termios
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
from conftest import find_cli  # noqa: E402

HINT = b"mimebase: reading a message from standard input"

COMMANDS = [
    ["inspect"],
    ["urls", "-"],
    ["scan", "-"],
    ["rewrite"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c))
def test_a_terminal_on_standard_input_gets_a_hint(command):
    cli = find_cli()
    leader, follower = pty.openpty()
    try:
        process = subprocess.Popen(
            [str(cli), *command], stdin=follower, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        os.close(follower)
        follower = None
        # The terminal's end-of-file character at the start of a line: the command reads an
        # empty message and ends.
        eof = termios.tcgetattr(leader)[6][termios.VEOF]
        os.write(leader, eof)
        _, stderr = process.communicate(timeout=30)
    finally:
        os.close(leader)
        if follower is not None:
            os.close(follower)
    assert stderr.startswith(HINT), stderr


@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c))
def test_a_pipe_on_standard_input_gets_no_hint(command):
    done = subprocess.run([str(find_cli()), *command], input=b"", capture_output=True, timeout=30)
    assert HINT not in done.stderr, done.stderr
