"""SpamAssassin with and without mimebase's plugin (integrations/spamassassin/), end to end, on
Debian's packages: ``spamassassin -t`` and ``spamd`` + ``spamc`` on a loopback port.

Every run reads Debian's rules (``-C /usr/share/spamassassin``) and a site configuration of its
own under a temporary directory (``--siteconfigpath``): the ``.pre`` files of Debian's
``/etc/spamassassin`` (the plugins a stock installation loads), the test's settings (nothing
learned, DNS off and pointed at a dead loopback port, ``blocklist_uri_host`` of every bad host of
tests/data/filters/, a ``uri`` rule for each link a base decides there), and for the plugin's
runs the three files of integrations/spamassassin/ installed as its README says, with
``mimebase_library`` naming the library built from capi/. User preferences are ``-p
/dev/null`` (only ever read), HOME is a temporary directory, spamd runs in the foreground with
its log on standard error into a file, and is stopped by its process id (its process group,
which it and its children alone are in) however the test ends.

What is shown, per message of tests/data/filters/ (see its README): stock SpamAssassin misses
the bad host that a base decides, except where it reads the base itself as a URL or resolves the
link itself (``STOCK_CATCHES``, measured on SpamAssassin 4.0.1, asserted so that the gap stays
visible); with the plugin every bad host reaches ``blocklist_uri_host`` (URI_HOST_IN_BLOCKLIST)
and every resolved link a ``uri`` rule. The oracles are SpamAssassin's own rules; the resolved
links the ``uri`` rules look for are the ``mimebase`` command's, since the question here is
whether SpamAssassin sees what mimebase resolves. Then the whole corpus goes through both, with
no warning or error from the plugin. Further tests: URIDNSBL queries the bad host's domain (a
DNS responder of the test's own on loopback answers), and the plugin's failures (library
missing, message too large, a user's preferences naming a library) leave mail to SpamAssassin
alone.

Needs Debian's spamassassin, spamd and spamc packages and FFI::Platypus
(libffi-platypus-perl); .ci/run installs them where it can. Skipped with the reason otherwise.
"""

import email
import email.policy
import json
import os
import pwd
import re
import shutil
import signal
import socket
import struct
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from conftest import REPO, corpus_messages, find_cli, ndjson, run_cli

SPAMASSASSIN = Path("/usr/bin/spamassassin")
SPAMD = Path("/usr/sbin/spamd")
SPAMC = Path("/usr/bin/spamc")
# Debian's rules (what `-C` names) and the directory of its stock .pre files.
RULES = Path("/usr/share/spamassassin")
STOCK_SITE = Path("/etc/spamassassin")
PLUGIN = REPO / "integrations" / "spamassassin"
MESSAGES = REPO / "tests" / "data" / "filters"
# A message's bad host: the one name of this form in its file (tests/data/filters/README.md).
BAD_HOST = re.compile(rb"bad-[a-z0-9-]+-example\.com")
TIMEOUT = 300

# The messages stock SpamAssassin 4.0.1 catches (URI_HOST_IN_BLOCKLIST fires), as measured: its
# HTML parser adds a <base href> to the URI list as a URL of its own, wherever it is
# (base-after-link, base-in-head), and resolves a link against a <base> that comes before it
# (base-in-head, scheme-relative). It reads no base header field and no inherited base.
STOCK_CATCHES = {"base-after-link", "base-in-head", "scheme-relative"}
# The messages whose resolved link itself stock SpamAssassin has in its URI list (its `uri` rule
# fires): those where the <base> comes before the link.
STOCK_RESOLVES = {"base-in-head", "scheme-relative", "clean"}

BLOCKLIST = "URI_HOST_IN_BLOCKLIST"
BASE_DECIDED = "MIMEBASE_BASE_DECIDED"
ATTACHMENT_LINK = "MIMEBASE_ATTACHMENT_LINK"
ENCRYPTED_OPENED = "MIMEBASE_ENCRYPTED_OPENED"
# The messages whose bad link is inside an attachment (tests/data/filters/files/README.md),
# with their bad hosts, which are not in their bytes.
FILE_MESSAGES = MESSAGES / "files"
FILE_HOSTS = json.loads((FILE_MESSAGES / "hosts.json").read_text())
# Those stock SpamAssassin 4.0.1 catches, as measured: none. It reads no calendar (text/calendar
# is skipped), no shortcut, no ZIP member, no office document, and no link annotation of a PDF.
STOCK_CATCHES_FILES = set()


def skip_reason():
    for program in (SPAMASSASSIN, SPAMD, SPAMC):
        if not program.exists():
            return f"SpamAssassin end-to-end tests: {program} is missing (apt-get install spamassassin spamd spamc)"
    if not RULES.is_dir() or not STOCK_SITE.is_dir():
        return f"SpamAssassin end-to-end tests: {RULES} or {STOCK_SITE} is missing (Debian's spamassassin package)"
    probe = subprocess.run(["perl", "-MFFI::Platypus", "-e", "1"], capture_output=True)
    if probe.returncode != 0:
        return "SpamAssassin end-to-end tests: Perl's FFI::Platypus is missing (apt-get install libffi-platypus-perl)"
    return None


pytestmark = pytest.mark.skipif(skip_reason() is not None, reason=skip_reason() or "")


def free_port(kind=socket.SOCK_STREAM):
    """A loopback port nothing listens on (for UDP: the dead DNS server)."""
    with socket.socket(socket.AF_INET, kind) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def install_library(destdir: Path) -> Path:
    """The library as an administrator installs it (capi's ``make install``, under
    ``destdir``), or a copy of ``$MIMEBASE_LIBRARY`` there when that is set; its path."""
    installed = destdir / "usr" / "local" / "lib" / "libmimebase.so.0"
    given = os.environ.get("MIMEBASE_LIBRARY")
    if given:
        installed.parent.mkdir(parents=True)
        shutil.copyfile(given, installed)
    else:
        subprocess.run(["make", "-s", "-C", str(REPO / "capi"), "install", f"DESTDIR={destdir}"], check=True)
    assert installed.is_file(), f"no {installed}"
    return installed


class Message:
    """One message of tests/data/filters/: its name, path, bad host (None for the control) and
    the links a base decides in it, resolved by the ``mimebase`` command (``whatwg``)."""

    def __init__(self, path: Path, scan: dict):
        self.path = path
        self.name = path.stem
        hosts = set(BAD_HOST.findall(path.read_bytes()))
        assert len(hosts) <= 1, f"{path.name}: more than one bad host: {hosts}"
        self.bad_host = hosts.pop().decode() if hosts else None
        self.links = [
            url["resolved"]
            for url in scan["urls"]
            if url["source"].startswith("html:")
            and url["source"] != "html:base@href"
            and url["base"]["source"] != "none"
            and url.get("resolved")
        ]
        assert self.links, f"{path.name}: no link resolved against a base"
        if self.bad_host:
            # The data's premise (tests/data/filters/README.md): the link leads to the bad host.
            hosts = {urlsplit(link).hostname for link in self.links}
            assert hosts == {self.bad_host}, f"{path.name}: links lead to {hosts}, not {self.bad_host}"
        # The name of the `uri` rule that fires on each of those links.
        self.rule = "MBTEST_" + re.sub(r"[^A-Z0-9]", "_", self.name.upper())


@pytest.fixture(scope="module")
def messages():
    paths = sorted(MESSAGES.glob("*.eml"))
    assert len(paths) == 8, f"expected the 8 messages of {MESSAGES}"
    cli = find_cli()
    found = []
    for path in paths:
        (scan,) = ndjson(run_cli(cli, "scan", "--resolver", "whatwg", path))
        found.append(Message(path, scan))
    assert sum(m.bad_host is None for m in found) == 1, "one control message, without a bad host"
    return found


@pytest.fixture(scope="module")
def library(workdir):
    """The library, installed under the test's directory, where spamd (running as nobody) can
    read it whatever the checkout's permissions."""
    return install_library(workdir / "install")


def perl_literal(text: str) -> str:
    """``text`` as a Perl regular expression that matches it literally: every character other
    than a letter or digit escaped (Perl reads a backslash before one as that character)."""
    return "".join(c if c.isascii() and c.isalnum() else "\\" + c for c in text)


TEST_CF = """\
# The test's settings: nothing learned, nothing asked of the network (DNS off, and its server a
# dead loopback port should anything ask anyway).
use_bayes 0
bayes_auto_learn 0
use_razor2 0
use_pyzor 0
dns_available {dns_available}
dns_server 127.0.0.1:{dns_port}
report_safe 0
add_header all Tests _TESTS(,)_
blocklist_uri_host {hosts}
"""


def make_site(root: Path, name: str, messages, library=None, extra="", dns_available="no", dns_port=None):
    """A site configuration directory under ``root``: the stock .pre files, the test's
    settings, and with ``library`` the plugin installed as its README says."""
    site = root / name
    site.mkdir()
    for pre in sorted(STOCK_SITE.glob("*.pre")):
        shutil.copyfile(pre, site / pre.name)
    rules = "".join(
        f"uri {m.rule}_{i} /^{perl_literal(link)}$/\nscore {m.rule}_{i} 0.001\n"
        for m in messages
        for i, link in enumerate(m.links)
    )
    hosts = " ".join([m.bad_host for m in messages if m.bad_host] + sorted(FILE_HOSTS.values()))
    port = dns_port if dns_port is not None else free_port(socket.SOCK_DGRAM)
    (site / "test.cf").write_text(
        TEST_CF.format(dns_available=dns_available, dns_port=port, hosts=hosts) + rules + extra
    )
    if library is not None:
        for file in ("Mimebase.pm", "mimebase.pre", "mimebase.cf"):
            shutil.copyfile(PLUGIN / file, site / file)
        (site / "local.cf").write_text(f"mimebase_library {library}\n")
    return site


@pytest.fixture(scope="module")
def workdir():
    with tempfile.TemporaryDirectory(prefix="mimebase-spamassassin-") as root:
        root = Path(root)
        # spamd's children run as nobody: what they read must be readable by all.
        root.chmod(0o755)
        (root / "home").mkdir()
        yield root


@pytest.fixture(scope="module")
def sites(workdir, messages, library):
    return {
        "stock": make_site(workdir, "stock", messages),
        "plugin": make_site(workdir, "plugin", messages, library=library),
    }


def spamassassin(site: Path, home: Path, *paths, prefs="/dev/null", debug=None, stdin=None):
    """``spamassassin -t`` on ``paths`` (or standard input); the finished process."""
    command = [str(SPAMASSASSIN), "-t", "-C", str(RULES), "--siteconfigpath", str(site), "-p", str(prefs)]
    if debug:
        command += ["-D", debug]
    command += [str(p) for p in paths]
    done = subprocess.run(
        command,
        input=stdin,
        capture_output=True,
        timeout=TIMEOUT,
        env={**os.environ, "HOME": str(home)},
    )
    assert done.returncode == 0, f"{command}: exit {done.returncode}\n{done.stderr.decode(errors='replace')}"
    return done


def hits_in(output: bytes) -> set:
    """The rules that hit, from the X-Spam-Tests field that test.cf has SpamAssassin add."""
    message = email.message_from_bytes(output, policy=email.policy.compat32)
    value = message["X-Spam-Tests"]
    assert value is not None, f"no X-Spam-Tests field in\n{output[:2000].decode(errors='replace')}"
    return {name.strip() for name in re.sub(r"\s+", "", value).split(",") if name.strip() not in ("", "none")}


def mimebase_complaints(log: str):
    """The lines of a SpamAssassin log that are the plugin's warnings or errors, or a plugin
    callback that died."""
    return [
        line
        for line in log.splitlines()
        if re.search(r"\] (warn|error): ", line) and ("mimebase" in line.lower() or "eval failed" in line)
    ]


def check(messages, hits_of):
    """Each message's hits, stock and with the plugin (``hits_of(way, message)``), against what
    is expected; a table of them, and the list of what differs."""
    rows, wrong = [], []
    for m in messages:
        stock, plugin = hits_of("stock", m), hits_of("plugin", m)
        link_rules = {f"{m.rule}_{i}" for i in range(len(m.links))}
        row = {
            "message": m.name,
            "stock blocklist": BLOCKLIST in stock,
            "stock link": link_rules <= stock,
            "plugin blocklist": BLOCKLIST in plugin,
            "plugin link": link_rules <= plugin,
            "plugin base-decided": BASE_DECIDED in plugin,
        }
        rows.append(row)
        expected = {
            "stock blocklist": m.bad_host is not None and m.name in STOCK_CATCHES,
            "stock link": m.name in STOCK_RESOLVES,
            "plugin blocklist": m.bad_host is not None,
            "plugin link": True,
            "plugin base-decided": True,
        }
        for column, value in expected.items():
            if row[column] != value:
                wrong.append(f"{m.name}: {column} is {row[column]}, expected {value}")
        if BASE_DECIDED in stock:
            wrong.append(f"{m.name}: {BASE_DECIDED} hit without the plugin")
        if m.bad_host is None and (BLOCKLIST in stock or BLOCKLIST in plugin):
            wrong.append(f"{m.name}: the control message hit {BLOCKLIST}")
    columns = list(rows[0])
    table = "\n".join(
        ["  ".join(f"{c:>19}" for c in columns)]
        + ["  ".join(f"{str(r[c]):>19}" for c in columns) for r in rows]
    )
    return table, wrong


def test_spamassassin_t(messages, sites, workdir):
    """``spamassassin -t``, one process per message and configuration."""
    hits, complaints = {}, []
    for way, site in sites.items():
        for m in messages:
            done = spamassassin(site, workdir / "home", m.path, debug="mimebase" if way == "plugin" else None)
            hits[way, m.name] = hits_in(done.stdout)
            complaints += mimebase_complaints(done.stderr.decode(errors="replace"))
    table, wrong = check(messages, lambda way, m: hits[way, m.name])
    print(f"\nspamassassin -t\n{table}")
    assert not complaints, "\n".join(complaints)
    assert not wrong, "\n".join(wrong) + "\n" + table


@pytest.mark.parametrize("name", sorted(FILE_HOSTS))
def test_links_inside_files(sites, workdir, name):
    """Stock SpamAssassin misses the bad host hidden in the attachment (``STOCK_CATCHES_FILES``,
    as measured); with the plugin it reaches ``blocklist_uri_host``, and the plugin's rule of
    links inside files hits (and, for the encrypted PDF, the rule of files opened with a stated
    password)."""
    path = FILE_MESSAGES / f"{name}.eml"
    assert FILE_HOSTS[name].encode() not in path.read_bytes(), "the bad host is in the message's bytes"
    stock = hits_in(spamassassin(sites["stock"], workdir / "home", path).stdout)
    done = spamassassin(sites["plugin"], workdir / "home", path, debug="mimebase")
    plugin = hits_in(done.stdout)
    print(f"\n{name}: stock {BLOCKLIST in stock}, plugin {BLOCKLIST in plugin}")
    assert (BLOCKLIST in stock) == (name in STOCK_CATCHES_FILES), (name, sorted(stock))
    assert BLOCKLIST in plugin, (name, sorted(plugin), done.stderr.decode(errors="replace")[-3000:])
    assert ATTACHMENT_LINK in plugin, (name, sorted(plugin))
    assert (ENCRYPTED_OPENED in plugin) == (name == "pdf-encrypted"), (name, sorted(plugin))
    assert not {ATTACHMENT_LINK, ENCRYPTED_OPENED} & stock
    assert not mimebase_complaints(done.stderr.decode(errors="replace"))


class Spamd:
    """One spamd on a loopback port, in the foreground, its log (standard error) in a file."""

    def __init__(self, root: Path, name: str, site: Path, virtual_config: Path):
        self.port = free_port()
        self.log_path = root / f"{name}.log"
        home = root / f"{name}-home"
        home.mkdir()
        nobody = pwd.getpwnam("nobody")
        os.chown(home, nobody.pw_uid, nobody.pw_gid)
        command = [
            str(SPAMD),
            # As nobody, with the preferences of each user (spamc -u) read from
            # VIRTUAL_CONFIG/USER/user_prefs, as spamd reads users' preferences: settings only.
            "-u", "nobody",
            "-x",
            f"--virtual-config-dir={virtual_config}/%u",
            "-H", str(home),
            "-C", str(RULES),
            "--siteconfigpath", str(site),
            "-i", f"127.0.0.1:{self.port}",
            "-A", "127.0.0.1",
            "-m", "2",
            "--min-children", "1",
            "--max-spare", "1",
            "-s", "stderr",
            "-D", "mimebase,config",
        ]
        with open(self.log_path, "wb") as log:
            # A session of its own: its process group is spamd and its children, nothing else.
            self.process = subprocess.Popen(
                command,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                start_new_session=True,
                env={**os.environ, "HOME": str(home)},
            )
        deadline = time.monotonic() + 120
        while True:
            if self.process.poll() is not None:
                raise AssertionError(f"spamd exited with {self.process.returncode}\n{self.log()}")
            ping = subprocess.run(
                [str(SPAMC), "-d", "127.0.0.1", "-p", str(self.port), "-K"], capture_output=True, timeout=30
            )
            if ping.returncode == 0:
                break
            if time.monotonic() > deadline:
                raise AssertionError(f"spamd did not answer within 120 s\n{self.log()}")
            time.sleep(0.5)

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def check(self, data: bytes, user="nobody") -> set:
        """The rules that hit, as spamc -y says."""
        command = [
            str(SPAMC), "-d", "127.0.0.1", "-p", str(self.port),
            "-x",  # an error is an error, not the message passed through unchecked
            "-y",
            "-s", str(64 * 1024 * 1024),
            "-t", "120",
            "-u", user,
        ]
        done = subprocess.run(command, input=data, capture_output=True, timeout=TIMEOUT)
        assert done.returncode == 0, f"spamc: exit {done.returncode}: {done.stderr!r}\n{self.log()[-5000:]}"
        return {name for name in done.stdout.decode().strip().split(",") if name}

    def stop(self):
        """Stops spamd by its process id: SIGTERM to its process group, SIGKILL if it lingers."""
        if self.process.poll() is None:
            try:
                os.killpg(self.process.pid, signal.SIGTERM)
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=30)
            except ProcessLookupError:
                pass


@pytest.fixture(scope="module")
def daemons(sites, workdir):
    """A stock spamd and one with the plugin, stopped however the tests end."""
    if os.geteuid() != 0:
        pytest.skip("spamd end-to-end tests: need root (spamd switches to nobody and reads users' preferences)")
    virtual = workdir / "users"
    (virtual / "nobody").mkdir(parents=True)
    # A user whose preferences name another library: spamd must refuse the administrator
    # setting (test_user_preferences_cannot_choose_the_library).
    (virtual / "mallory").mkdir()
    (virtual / "mallory" / "user_prefs").write_text("mimebase_library /nonexistent/libmimebase.so.0\n")
    started = {}
    try:
        for way, site in sites.items():
            started[way] = Spamd(workdir, way, site, virtual)
        yield started
    finally:
        for spamd in started.values():
            spamd.stop()


def test_spamd_spamc(messages, daemons):
    """spamd (taint mode: its #! line says -T) and spamc, one connection per message."""
    assert "-T" in SPAMD.read_text(errors="replace").splitlines()[0]
    hits = {(way, m.name): daemons[way].check(m.path.read_bytes()) for way in daemons for m in messages}
    table, wrong = check(messages, lambda way, m: hits[way, m.name])
    print(f"\nspamd + spamc\n{table}")
    complaints = mimebase_complaints(daemons["plugin"].log())
    assert not complaints, "\n".join(complaints)
    assert not wrong, "\n".join(wrong) + "\n" + table


def log_lines_after(log: str, marker: str):
    """The lines of a log after the last one containing ``marker``."""
    lines = log.splitlines()
    starts = [i for i, line in enumerate(lines) if marker in line]
    assert starts, f"no line names {marker}"
    return lines[starts[-1] + 1 :]


def warnings_of(lines):
    """The warning and error lines, without their time stamps and process ids."""
    return {re.sub(r"^.*?\[\d+\] ", "", line) for line in lines if re.search(r"\] (warn|error): ", line)}


def test_corpus_spamd(daemons):
    """The whole corpus through both spamd: the plugin analyzes every message and complains
    about none, and brings no warning or error that stock SpamAssassin does not have."""
    paths = corpus_messages()
    marker = f"corpus-start-{os.getpid()}-{time.time_ns()}@mimebase.test"
    for spamd in daemons.values():
        # Where the corpus starts in both logs: spamd's result line of a message of the test's
        # own names its Message-ID.
        spamd.check(f"Message-ID: <{marker}>\nSubject: start\n\nstart\n".encode())
    for path in paths:
        data = path.read_bytes()
        for spamd in daemons.values():
            spamd.check(data)
    plugin = log_lines_after(daemons["plugin"].log(), marker)
    stock = log_lines_after(daemons["stock"].log(), marker)
    analyzed = [line for line in plugin if re.search(r"dbg: mimebase: \d+ URLs added", line)]
    skipped = [line for line in plugin if "dbg: mimebase: " in line and "not analyzed" in line]
    assert not skipped, "\n".join(skipped)
    assert len(analyzed) == len(paths), f"{len(analyzed)} of {len(paths)} messages analyzed"
    assert not mimebase_complaints("\n".join(plugin)), "\n".join(mimebase_complaints("\n".join(plugin)))
    extra = warnings_of(plugin) - warnings_of(stock)
    assert not extra, "warnings with the plugin only:\n" + "\n".join(sorted(extra))
    print(f"\ncorpus through spamd: {len(paths)} messages, each analyzed; warnings in both: {sorted(warnings_of(stock))}")


def test_corpus_spamassassin_t(sites, workdir):
    """The whole corpus through ``spamassassin -t``, one process per configuration, as above."""
    paths = corpus_messages()
    stock = spamassassin(sites["stock"], workdir / "home", *paths)
    plugin = spamassassin(sites["plugin"], workdir / "home", *paths, debug="mimebase")
    log = plugin.stderr.decode(errors="replace")
    analyzed = re.findall(r"dbg: mimebase: \d+ URLs added", log)
    assert len(analyzed) == len(paths), f"{len(analyzed)} of {len(paths)} messages analyzed"
    assert not mimebase_complaints(log), "\n".join(mimebase_complaints(log))
    extra = warnings_of(log.splitlines()) - warnings_of(stock.stderr.decode(errors="replace").splitlines())
    assert not extra, "warnings with the plugin only:\n" + "\n".join(sorted(extra))


def test_user_preferences_cannot_choose_the_library(messages, daemons):
    """A user's preferences read by spamd cannot name a library for spamd to load: the setting
    is refused, and the site's library analyzes the user's mail."""
    content_base = next(m for m in messages if m.name == "content-base")
    hits = daemons["plugin"].check(content_base.path.read_bytes(), user="mallory")
    assert BASE_DECIDED in hits and BLOCKLIST in hits, hits
    log = daemons["plugin"].log()
    assert "not parsing, administrator setting: mimebase_library /nonexistent/libmimebase.so.0" in log
    assert "/nonexistent/libmimebase.so.0" not in "\n".join(mimebase_complaints(log))


def test_missing_library_leaves_mail_to_spamassassin(messages, workdir):
    """A library that cannot be loaded: one warning, and the message is checked as without the
    plugin."""
    content_base = next(m for m in messages if m.name == "content-base")
    site = make_site(workdir, "missing-library", messages, library=workdir / "nonexistent" / "libmimebase.so.0")
    done = spamassassin(site, workdir / "home", content_base.path, debug="mimebase")
    hits = hits_in(done.stdout)
    assert BLOCKLIST not in hits and BASE_DECIDED not in hits, hits
    log = done.stderr.decode(errors="replace")
    warnings = [line for line in log.splitlines() if "warn: mimebase: cannot load libmimebase" in line]
    assert len(warnings) == 1, log
    assert "dbg: mimebase: libmimebase is not loaded, message not analyzed" in log


def test_message_over_the_limit_is_left_to_spamassassin(messages, library, workdir):
    """A message larger than mimebase_max_size: a debug line, no warning, no URL added."""
    content_base = next(m for m in messages if m.name == "content-base")
    size = len(content_base.path.read_bytes())
    site = make_site(workdir, "too-large", messages, library=library, extra=f"mimebase_max_size {size - 1}\n")
    done = spamassassin(site, workdir / "home", content_base.path, debug="mimebase")
    hits = hits_in(done.stdout)
    assert BLOCKLIST not in hits and BASE_DECIDED not in hits, hits
    log = done.stderr.decode(errors="replace")
    assert f"is over mimebase_max_size ({size - 1}), not analyzed" in log, log
    assert not mimebase_complaints(log), log
    # And one byte more is enough.
    site = make_site(workdir, "large-enough", messages, library=library, extra=f"mimebase_max_size {size}\n")
    assert BASE_DECIDED in hits_in(spamassassin(site, workdir / "home", content_base.path).stdout)


class DnsResponder:
    """A DNS server on a loopback UDP port that says 127.0.0.2 for an A query of any name under
    ``zone`` and NXDOMAIN for every other question, and records the names it was asked."""

    def __init__(self, zone: str):
        self.zone = zone.lower().rstrip(".")
        self.asked = []
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.socket.bind(("127.0.0.1", 0))
        self.socket.settimeout(0.2)
        self.port = self.socket.getsockname()[1]
        self.running = True
        self.thread = threading.Thread(target=self.serve, daemon=True)
        self.thread.start()

    def serve(self):
        while self.running:
            try:
                query, peer = self.socket.recvfrom(4096)
            except socket.timeout:
                continue
            answer = self.answer(query)
            if answer:
                self.socket.sendto(answer, peer)

    def answer(self, query: bytes):
        """The reply to one query (RFC 1035 §4.1), or None for what is not a query."""
        if len(query) < 12:
            return None
        ident, flags, qdcount = struct.unpack("!HHH", query[:6])
        if flags & 0x8000 or qdcount != 1:
            return None
        labels, at = [], 12
        while at < len(query) and query[at] != 0:
            length = query[at]
            labels.append(query[at + 1 : at + 1 + length].decode("ascii", "replace"))
            at += 1 + length
        question_end = at + 5
        if question_end > len(query):
            return None
        qtype = struct.unpack("!H", query[at + 1 : at + 3])[0]
        name = ".".join(labels).lower()
        self.asked.append((name, qtype))
        question = query[12:question_end]
        listed = qtype == 1 and name.endswith("." + self.zone)
        header = struct.pack("!HHHHHH", ident, 0x8180 if listed else 0x8183, 1, 1 if listed else 0, 0, 0)
        record = struct.pack("!HHHIH", 0xC00C, 1, 1, 60, 4) + bytes([127, 0, 0, 2]) if listed else b""
        return header + question + record

    def stop(self):
        self.running = False
        self.thread.join(timeout=5)
        self.socket.close()


def test_uridnsbl_looks_up_the_resolved_host(messages, library, workdir):
    """URIDNSBL sees the plugin's URLs: with DNS on (a responder of the test's own on
    loopback), a `urirhssub` rule on a test zone asks for the bad host's domain and fires
    with the plugin; stock SpamAssassin never asks for it."""
    content_base = next(m for m in messages if m.name == "content-base")
    zone = "uribl.mimebase-test.com"
    rule = f"""
urirhssub MBTEST_URIBL {zone}. A 127.0.0.2
body MBTEST_URIBL eval:check_uridnsbl('MBTEST_URIBL')
tflags MBTEST_URIBL net domains_only
score MBTEST_URIBL 0.001
"""
    results = {}
    for way in ("stock", "plugin"):
        responder = DnsResponder(zone)
        try:
            site = make_site(
                workdir,
                f"uridnsbl-{way}",
                messages,
                library=library if way == "plugin" else None,
                extra=rule,
                dns_available="yes",
                dns_port=responder.port,
            )
            hits = hits_in(spamassassin(site, workdir / "home", content_base.path).stdout)
        finally:
            responder.stop()
        asked = {name for name, _ in responder.asked if name.endswith("." + zone)}
        results[way] = ("MBTEST_URIBL" in hits, f"{content_base.bad_host}.{zone}" in asked)
    assert results == {"stock": (False, False), "plugin": (True, True)}, results
