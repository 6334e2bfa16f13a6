"""An rspamd daemon of its own for the tests and the cost measurement: Debian's rspamd with its
stock configuration (``/etc/rspamd``) and a local configuration directory under a temporary
directory, as an administrator's ``/etc/rspamd/local.d``, ``override.d`` and ``plugins.d`` would
hold it (``--var LOCAL_CONFDIR``), with its state there too (``DBDIR``, ``RUNDIR``).

The daemon runs in the foreground (``-f``), logs to the console (captured in ``console.log``,
each line with its severity), listens on loopback ports only (the normal worker, and the proxy
worker with ``milter = yes`` for the MTA; the controller is off), and sends its DNS queries to a
loopback UDP port where nothing listens, unless told otherwise. It is stopped by its process id:
SIGTERM, then SIGKILL of its process group (it is a session leader) when it does not exit.

Two local multimaps score 20 (above the stock reject threshold, 15): ``BAD_HOST`` every URL
whose host is in the list the caller gives (the local blocklist a site keeps of phishing hosts),
``BAD_URL`` every URL that is in the other list, whole.
"""

import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

RSPAMD = Path("/usr/bin/rspamd")
STOCK_CONFIG = Path("/etc/rspamd/rspamd.conf")
PLUGIN = Path(__file__).resolve().parent.parent / "mimebase.lua"
RSPAMD_USER = "_rspamd"  # Debian's rspamd package makes it
BAD_HOST_SYMBOL = "BAD_HOST"
BAD_URL_SYMBOL = "BAD_URL"
BAD_HOST_SCORE = 20.0
# What an MTA tells rspamd of an inbound client (the client's name, as the MTA looked it up, so
# that rspamd does not look it up itself: a reverse lookup against the dead resolver would make
# the result depend on timing).
INBOUND = {"IP": "192.0.2.25", "Hostname": "mx.sender.example.com", "Helo": "mx.sender.example.com"}
START_SECONDS = 180.0  # a first start compiles hyperscan databases (cached afterwards)


def skip_reason():
    """Why the daemon cannot run here, or None."""
    if not RSPAMD.exists():
        return f"rspamd end-to-end tests: {RSPAMD} is missing (apt-get install --no-install-recommends rspamd)"
    if not STOCK_CONFIG.exists():
        return f"rspamd end-to-end tests: {STOCK_CONFIG} is missing (the rspamd package's configuration)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam(RSPAMD_USER)
        except KeyError:
            return f"rspamd end-to-end tests: no {RSPAMD_USER!r} user to run rspamd as (the rspamd package makes it)"
    return None


def free_port(kind=socket.SOCK_STREAM):
    """A loopback port nothing listens on now (TCP, or UDP with ``socket.SOCK_DGRAM``)."""
    with socket.socket(socket.AF_INET, kind) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def rspamd_version():
    done = subprocess.run([str(RSPAMD), "--version"], capture_output=True, text=True, timeout=30)
    return done.stdout.strip()


class Rspamd:
    """One rspamd under ``root``. ``plugin``: a dict of the ``mimebase`` block's options
    (``library``, ``resolver``, ``max_size``, ...), or None for stock rspamd without the
    plugin. ``lua_scripts``: Lua files rspamd runs while it reads its configuration, before the
    plugins (a top-level ``lua = "..."`` line each). ``hs_cache``: a directory shared between daemons, so that the hyperscan databases
    are compiled once. ``dns``: the ``host:port`` rspamd's resolver uses (default: a loopback UDP
    port where nothing listens)."""

    def __init__(
        self, root, bad_hosts, bad_urls=(), plugin=None, hs_cache=None, dns=None, name="rspamd", lua_scripts=()
    ):
        self.root = Path(root)
        self.name = name
        self.plugin = plugin
        self.conf = self.root / "local"
        self.state = self.root / "state"
        self.hs_cache = Path(hs_cache) if hs_cache else self.state / "hs"
        self.log_path = self.root / "console.log"
        self.port = free_port()
        self.milter_port = free_port()
        self.dns = dns or f"127.0.0.1:{free_port(socket.SOCK_DGRAM)}"
        self.process = None
        self._log_file = None
        self.lua_scripts = list(lua_scripts)
        self._write_config(bad_hosts, bad_urls)

    def _write_config(self, bad_hosts, bad_urls):
        for d in ("override.d", "local.d", "plugins.d"):
            (self.conf / d).mkdir(parents=True, exist_ok=True)
        for d in ("db", "run", "log"):
            (self.state / d).mkdir(parents=True, exist_ok=True)
        self.hs_cache.mkdir(parents=True, exist_ok=True)
        write = lambda rel, text: (self.conf / rel).write_text(text)
        write("override.d/logging.inc", 'type = "console";\nlevel = "info";\nseverity = true;\ncolor = false;\n')
        write(
            "override.d/options.inc",
            f'dns {{ nameserver = ["{self.dns}"]; timeout = 0.1s; retransmits = 1; }}\n'
            f'hs_cache_dir = "{self.hs_cache}";\n',
        )
        write("override.d/worker-normal.inc", f'bind_socket = "127.0.0.1:{self.port}";\ncount = 1;\n')
        write("override.d/worker-controller.inc", "enabled = false;\n")
        write(
            "override.d/worker-proxy.inc",
            f'bind_socket = "127.0.0.1:{self.milter_port}";\n'
            "milter = yes;\ncount = 1;\ntimeout = 120s;\n"
            f'upstream "local" {{ default = yes; hosts = "127.0.0.1:{self.port}"; }}\n',
        )
        (self.conf / "bad-hosts.map").write_text("".join(f"{host}\n" for host in bad_hosts))
        (self.conf / "bad-urls.map").write_text("".join(f"{url}\n" for url in bad_urls))
        write(
            "local.d/multimap.conf",
            f'{BAD_HOST_SYMBOL} {{\n  type = "url";\n  map = "{self.conf / "bad-hosts.map"}";\n'
            f'  score = {BAD_HOST_SCORE};\n  description = "Link to a host on the local blocklist";\n}}\n'
            f'{BAD_URL_SYMBOL} {{\n  type = "url";\n  filter = "full";\n  map = "{self.conf / "bad-urls.map"}";\n'
            f'  score = {BAD_HOST_SCORE};\n  description = "Link on the local blocklist";\n}}\n',
        )
        if self.plugin is not None:
            # As the README tells an administrator: the module in plugins.d, the block that
            # enables it in rspamd.conf.local (including local.d/mimebase.conf), the options in
            # local.d/mimebase.conf.
            shutil.copy(PLUGIN, self.conf / "plugins.d" / "mimebase.lua")
            enable = (PLUGIN.parent / "rspamd.conf.local").read_text()
            scripts = "".join(f"lua = {json.dumps(str(path))};\n" for path in self.lua_scripts)
            (self.conf / "rspamd.conf.local").write_text(scripts + enable)
            lines = []
            for key, value in self.plugin.items():
                lines.append(f"{key} = {json.dumps(value)};\n")
            write("local.d/mimebase.conf", "".join(lines))
        # Readable by rspamd's own user, its state writable by it.
        os.chmod(self.root, 0o755)
        if os.geteuid() == 0:
            user = pwd.getpwnam(RSPAMD_USER)
            for path in [self.state, self.hs_cache, *self.state.rglob("*")]:
                os.chown(path, user.pw_uid, user.pw_gid)

    def command(self):
        cmd = [str(RSPAMD), "-f", "-c", str(STOCK_CONFIG)]
        if os.geteuid() == 0:
            cmd += ["-u", RSPAMD_USER, "-g", RSPAMD_USER]
        for var, value in (
            ("LOCAL_CONFDIR", self.conf),
            ("DBDIR", self.state / "db"),
            ("RUNDIR", self.state / "run"),
            ("LOGDIR", self.state / "log"),
        ):
            cmd += ["--var", f"{var}={value}"]
        return cmd

    def start(self):
        self._log_file = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            self.command(), stdout=self._log_file, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"{self.name}: rspamd exited with {self.process.returncode}\n{self.log_tail()}")
            if self.ping():
                return self
            time.sleep(0.2)
        raise AssertionError(f"{self.name}: rspamd did not answer /ping within {START_SECONDS} s\n{self.log_tail()}")

    def ping(self):
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/ping", timeout=2) as reply:
                return reply.status == 200
        except (OSError, urllib.error.URLError):
            return False

    def stop(self):
        """Stops the daemon by its process id: SIGTERM, then SIGKILL of its process group."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=20)
        # Workers left behind by a main process that died on its own.
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process = None
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None

    def worker_pids(self):
        """Process ids of the daemon's normal workers (children of the main process)."""
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
                cmdline = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            if ppid == self.process.pid and b"normal process" in cmdline:
                found.append(int(entry.name))
        return found

    def scan(self, message: bytes, timeout=60.0, headers=None):
        """rspamd's reply to ``POST /checkv2`` of ``message``, parsed. Sent as an MTA sends
        inbound mail: from a client outside the site (TEST-NET-1, RFC 5737), not authenticated; without one rspamd takes the message for the site's own outbound mail
        (a loopback client) and its DKIM signing module looks for the sender domain's key."""
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}/checkv2",
            data=message,
            method="POST",
            headers={**INBOUND, **(headers or {})},
        )
        with urllib.request.urlopen(request, timeout=timeout) as reply:
            return json.loads(reply.read())

    def log_size(self):
        return self.log_path.stat().st_size if self.log_path.exists() else 0

    def log_since(self, offset):
        """The console log's lines written after byte ``offset``."""
        with open(self.log_path, "rb") as log:
            log.seek(offset)
            return log.read().decode(errors="replace").splitlines()

    def log_tail(self, lines=60):
        if not self.log_path.exists():
            return "(no log)"
        return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])


def symbol_options(reply, symbol):
    """The options of ``symbol`` in an rspamd reply, or None when it did not fire."""
    found = reply.get("symbols", {}).get(symbol)
    if found is None:
        return None
    return found.get("options", [])
