"""Shared fixtures of the rspamd end-to-end tests: the library, and daemons started once per
session (stock rspamd, and rspamd with the mimebase module), stopped at the end whatever the
tests did.

The library is ``$MIMEBASE_LIBRARY`` when set, else this checkout's, built and installed under
the session's temporary directory by ``make -C capi install`` (cargo builds it only when it
changed).
"""

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

import rspamd_daemon

TESTS = Path(__file__).resolve().parent
MESSAGES = TESTS / "messages"
REPO = TESTS.parent.parent.parent
CORPUS = REPO.parent / "shared" / "corpus"
HEADER_DIR = Path(os.environ.get("MIMEBASE_INCLUDE", REPO / "capi" / "include"))

# The local blocklist of every test daemon: each test message's bad host, and baseStriker's.
BAD_HOSTS = [
    "bad-content-base.com",
    "bad-content-location.com",
    "bad-base-header.com",
    "bad-late-base.com",
    "bad-inherited.com",
    "bad-scheme-relative.com",
    "bad-classic-base.com",
    "phish.example.net",
]
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
