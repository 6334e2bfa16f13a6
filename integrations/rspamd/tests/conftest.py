"""Shared fixtures of the rspamd end-to-end tests: the library, and daemons started once per
session (stock rspamd, and rspamd with the mimebase module), stopped at the end whatever the
tests did.

The library is ``$MIMEBASE_LIBRARY`` when set, else this checkout's, built and installed under
the session's temporary directory by ``make -C capi install`` (cargo builds it only when it
changed).

The messages are the mail filters' shared ones, tests/data/filters/ (its README.md): each has one
bad host, the only name in it of the form ``bad-...-example.com``, read from the file here and put
on every daemon's local blocklist. messages/ beside this file holds the few that only the rspamd
tests need (rspamd's image flag). The session ends with a table of what each daemon did with each
shared message's bad host, so that CI's log shows the gap the module closes.
"""

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import rspamd_daemon

TESTS = Path(__file__).resolve().parent
# The rspamd tests' own messages (the image flag).
MESSAGES = TESTS / "messages"
REPO = TESTS.parent.parent.parent
# test_postfix_milter.py runs Postfix as python/tests/test_smtp_filter_postfix.py does, with the
# module both share, python/tests/postfix_instance.py: one set-up of Postfix for both tests, kept
# beside the first one. This pytest run is not python/tests' (its conftest.py is not loaded), so
# that directory goes on the module search path here. Appended, not prepended, so that a name
# both directories have (conftest) still means this directory's module.
sys.path.append(str(REPO / "python" / "tests"))
# The test corpus, ../shared/corpus, through python/tests' gate: a test that needs it is skipped
# when it is absent, or fails under MIMEBASE_REQUIRE_CORPUS.
from shared_corpus import corpus_or_skip  # noqa: E402,F401 (for the tests)

# The messages every filter's end-to-end tests share.
FILTERS = REPO / "tests" / "data" / "filters"
HEADER_DIR = Path(os.environ.get("MIMEBASE_INCLUDE", REPO / "capi" / "include"))
# A message's bad host: the one name of this form in its file (tests/data/filters/README.md).
BAD_HOST = re.compile(rb"bad-[a-z0-9-]+-example\.com")

# The shared messages stock rspamd 3.4 catches (BAD_HOST fires on the bad host), as measured on
# Debian's package: only the classic <base href> in <head>, against which its HTML parser
# resolves the links after it. It reads no base header field (Content-Base, Content-Location,
# Base) and no base inherited into a message/rfc822 part, ignores a <base> after the link, and
# resolves a scheme-relative //host against the <base>'s host instead of taking the scheme only.
STOCK_CATCHES = {"base-in-head"}


class FilterMessage:
    """One message of tests/data/filters/: its name (the file's stem), bytes and bad host (None
    for the control, clean.eml)."""

    def __init__(self, path: Path):
        self.path = path
        self.name = path.stem
        self.data = path.read_bytes()
        hosts = set(BAD_HOST.findall(self.data))
        assert len(hosts) <= 1, f"{path}: more than one bad host: {hosts}"
        self.bad_host = hosts.pop().decode() if hosts else None

    def __repr__(self):
        return self.name


def filter_messages():
    found = [FilterMessage(path) for path in sorted(FILTERS.glob("*.eml"))]
    assert len(found) == 8, f"expected the 8 messages of {FILTERS}, found {len(found)}"
    assert [m.name for m in found if m.bad_host is None] == ["clean"], "one control message, clean.eml"
    unknown = STOCK_CATCHES - {m.name for m in found}
    assert not unknown, f"STOCK_CATCHES names no message of {FILTERS}: {unknown}"
    return found


FILTER_MESSAGES = filter_messages()


class FileMessage:
    """One message of tests/data/filters/files/: its bad link is inside an attachment, so its
    bad host is not in its bytes; files/hosts.json names it."""

    def __init__(self, path: Path, bad_host: str):
        self.path = path
        self.name = path.stem
        self.data = path.read_bytes()
        self.bad_host = bad_host
        assert bad_host.encode() not in self.data, f"{path}: the bad host is in the message's bytes"

    def __repr__(self):
        return self.name


def file_messages():
    hosts = json.loads((FILTERS / "files" / "hosts.json").read_text())
    found = [FileMessage(path, hosts[path.stem]) for path in sorted((FILTERS / "files").glob("*.eml"))]
    assert sorted(m.name for m in found) == sorted(hosts), "one message per host of files/hosts.json"
    return found


FILE_MESSAGES = file_messages()

# The file messages stock rspamd 3.4 catches, as measured on Debian's package: none. Its PDF
# reader finds the plain PDF's /URI, but flags it `content`, which multimap's URL maps do not
# read; it opens no encrypted PDF, reads no calendar ATTACH, no shortcut, no ZIP member, no
# office document.
STOCK_CATCHES_FILES = set()

# The local blocklist of every test daemon: each shared message's bad host, and baseStriker's.
BAD_HOSTS = (
    [m.bad_host for m in FILTER_MESSAGES if m.bad_host]
    + [m.bad_host for m in FILE_MESSAGES]
    + ["phish.example.net"]
)
# Whole URLs on the local blocklist (the multimap BAD_URL): the image of the image tests.
BAD_URLS = ["http://bad-image.com/spring/banner.gif"]

SKIP = rspamd_daemon.skip_reason()
pytestmark = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")


def install_library(destdir):
    """``$MIMEBASE_LIBRARY`` when set; else this checkout's libmimebase, built (release) and
    installed as the README tells an administrator (``make -C capi install``), under
    ``destdir``: its ``/usr/local/lib/libmimebase.so.0``."""
    given = os.environ.get("MIMEBASE_LIBRARY")
    if given:
        path = Path(given)
        assert path.is_file(), f"MIMEBASE_LIBRARY={given} is not a file"
        return path
    subprocess.run(["make", "-s", "-C", str(REPO / "capi"), "install", f"DESTDIR={destdir}"], check=True)
    path = Path(destdir) / "usr" / "local" / "lib" / "libmimebase.so.0"
    assert path.is_file(), f"make install made no {path}"
    return path


@pytest.fixture(scope="session")
def library(session_dir):
    if SKIP is not None:
        pytest.skip(SKIP)
    return install_library(session_dir / "install")


@pytest.fixture(scope="session")
def session_dir():
    root = Path(tempfile.mkdtemp(prefix="mimebase-rspamd-"))
    os.chmod(root, 0o755)
    try:
        yield root
    finally:
        shutil.rmtree(root, ignore_errors=True)


@pytest.fixture(scope="session")
def hs_cache(session_dir):
    """One hyperscan cache for every daemon of the session: the first start compiles it."""
    path = session_dir / "hs-cache"
    path.mkdir()
    return path


class Daemons:
    """Starts daemons on demand under the session directory and stops them all at the end."""

    def __init__(self, root, hs_cache):
        self.root = root
        self.hs_cache = hs_cache
        self.running = []

    def start(self, name, plugin=None, lua_scripts=()):
        daemon = rspamd_daemon.Rspamd(
            self.root / name, BAD_HOSTS, BAD_URLS, plugin=plugin, hs_cache=self.hs_cache, name=name,
            lua_scripts=lua_scripts,
        )
        self.running.append(daemon)
        return daemon.start()

    def stop_all(self):
        for daemon in self.running:
            daemon.stop()


@pytest.fixture(scope="session")
def daemons(session_dir, hs_cache):
    if SKIP is not None:
        pytest.skip(SKIP)
    started = Daemons(session_dir, hs_cache)
    try:
        yield started
    finally:
        started.stop_all()


@pytest.fixture(scope="session")
def stock(daemons):
    """Debian's rspamd with its stock configuration and the local blocklist, no mimebase."""
    return daemons.start("stock")


@pytest.fixture(scope="session")
def with_plugin(daemons, library, stock):
    """The same, with the mimebase module enabled as the README says (started after ``stock``,
    which fills the hyperscan cache)."""
    return daemons.start("plugin", plugin={"library": str(library)})


# What the tests saw of each shared message's bad host, for the table at the end of the session:
# {message name: {column: True or False}}, filled by the tests as they go (before they assert).
RESULTS = {}
COLUMNS = [
    ("stock", "stock rspamd"),
    ("module", "with module"),
    ("postfix stock", "Postfix+stock"),
    ("postfix module", "Postfix+module"),
]


def record(message, column, caught):
    """Notes whether ``column``'s daemon caught the bad host of ``message`` (for the control:
    flagged it, or Postfix refused it)."""
    RESULTS.setdefault(message.name, {})[column] = bool(caught)


def pytest_terminal_summary(terminalreporter):
    if not RESULTS:
        return
    write = terminalreporter.write_line
    terminalreporter.write_sep("-", "rspamd: the bad host of each message of tests/data/filters/ and files/")
    write("yes: the local blocklist's symbol (BAD_HOST) fired on the message's bad host (on clean, the")
    write("control: fired at all); for Postfix: the message was refused with rspamd's reject reply.")
    write("-: not run.")
    names = [m.name for m in FILTER_MESSAGES] + [m.name for m in FILE_MESSAGES]
    width = max(map(len, names))
    header = f"{'message':<{width}}  " + "  ".join(title for _, title in COLUMNS)
    write(header)
    for name in names:
        row = RESULTS.get(name, {})
        cells = []
        for key, title in COLUMNS:
            value = row.get(key)
            cells.append(f"{'-' if value is None else 'yes' if value else 'no':<{len(title)}}")
        write(f"{name:<{width}}  " + "  ".join(cells).rstrip())
