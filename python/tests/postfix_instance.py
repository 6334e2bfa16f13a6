"""A Postfix instance of a test's own, for the end-to-end tests that put Postfix in front of a
filter: python/tests/test_smtp_filter_postfix.py (a ``content_filter`` to the SMTP filter) and
integrations/rspamd/tests/test_postfix_milter.py (``smtpd_milters`` to rspamd's proxy worker).
Each test gives its own SMTP servers (master.cf listeners), its own main.cf settings and its
mailboxes; what is here is the rest, which both share.

Postfix runs with a configuration, queue and mailboxes of its own under a temporary directory
(``postfix -c DIR``), listening on 127.0.0.1 only, chroot off, and is stopped at the end
whatever the test did (``postfix stop``, which signals the master by the process id in its pid
file under the queue directory; ``postfix abort`` when that fails). Delivery is virtual(8), into
Maildirs under the same directory, owned by ``nobody``. Every wait is bounded.

Only the standard library: the rspamd tests import this module from their own pytest run, where
python/tests' conftest.py is not loaded.
"""

import contextlib
import grp
import os
import pty
import pwd
import select
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

POSTFIX = Path("/usr/sbin/postfix")
DOMAIN = "example.test"


def skip_reason(test):
    """Why ``test`` (its name, which starts the reason) cannot run Postfix here; None when it
    can."""
    if os.geteuid() != 0:
        return f"{test}: needs root (Postfix's master runs as root)"
    if not POSTFIX.exists():
        return f"{test}: {POSTFIX} is missing (apt-get install postfix)"
    for name, lookup in (("postfix", pwd.getpwnam), ("postdrop", grp.getgrnam)):
        try:
            lookup(name)
        except KeyError:
            return f"{test}: no {name!r} user or group (the postfix package makes them)"
    return None


def free_port():
    """A TCP port of 127.0.0.1 that was free a moment ago."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def accepting(port):
    """Whether something accepts TCP connections on 127.0.0.1 ``port``."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1.0):
            return True
    except OSError:
        return False


MAIN_CF = """\
compatibility_level = 3.6
queue_directory = {root}/queue
data_directory = {root}/data
mail_owner = postfix
setgid_group = postdrop
maillog_file = {root}/maillog
maillog_file_prefixes = {root}
myhostname = postfix.{domain}
mydomain = {domain}
mydestination =
inet_interfaces = loopback-only
inet_protocols = ipv4
mynetworks = 127.0.0.0/8
smtpd_peername_lookup = no
smtp_dns_support_level = disabled
alias_maps =
alias_database =
biff = no
delay_warning_time = 0
virtual_mailbox_domains = {domain}
virtual_mailbox_base = {root}/vmail
virtual_mailbox_maps = texthash:{conf}/vmailbox
virtual_uid_maps = static:{uid}
virtual_gid_maps = static:{gid}
"""

# Postfix's own services, after the test's listeners; chroot off for every one.
SERVICES = """\
pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
proxymap  unix  -       -       n       -       -       proxymap
smtp      unix  -       -       n       -       -       smtp
relay     unix  -       -       n       -       -       smtp
showq     unix  n       -       n       -       -       showq
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
local     unix  -       n       n       -       -       local
virtual   unix  -       n       n       -       -       virtual
anvil     unix  -       -       n       -       1       anvil
scache    unix  -       -       n       -       1       scache
postlog   unix-dgram n  -       n       -       1       postlogd
"""


class Postfix:
    """One Postfix instance under ``root``: ``conf`` its configuration directory. ``listeners``
    are the test's own master.cf entries (its SMTP servers, any transport of its own), put
    before Postfix's services; ``main_cf`` its own main.cf settings, after the shared ones;
    ``users`` the mailboxes of ``DOMAIN`` (one Maildir each, named after the user).
    ``timeout`` bounds every ``postfix`` command, in seconds."""

    def __init__(self, root, listeners, users, main_cf="", timeout=60.0):
        self.root = root
        self.timeout = timeout
        self.conf = root / "conf"
        self.conf.mkdir()
        (root / "queue").mkdir()  # Postfix makes what is inside (postfix-files: post-install)
        vmail = root / "vmail"
        vmail.mkdir()
        nobody = pwd.getpwnam("nobody")
        os.chown(vmail, nobody.pw_uid, nobody.pw_gid)
        (self.conf / "main.cf").write_text(
            MAIN_CF.format(root=root, conf=self.conf, domain=DOMAIN, uid=nobody.pw_uid, gid=nobody.pw_gid)
            + main_cf
        )
        (self.conf / "master.cf").write_text(listeners + SERVICES)
        (self.conf / "vmailbox").write_text("".join(f"{user}@{DOMAIN} {user}/\n" for user in users))

    def command(self, *args, check=True):
        """Runs ``postfix -c CONF ARGS``; its exit code. Postfix writes its errors to standard
        error only when that is a terminal (else to the log, which may not be open yet), so it
        gets one."""
        primary, secondary = pty.openpty()
        try:
            done = subprocess.run(
                [str(POSTFIX), "-c", str(self.conf), *args], stdout=secondary, stderr=secondary, timeout=self.timeout
            )
            said = b""
            while select.select([primary], [], [], 0)[0]:
                try:
                    chunk = os.read(primary, 65536)
                except OSError:
                    break
                if not chunk:
                    break
                said += chunk
        finally:
            os.close(primary)
            os.close(secondary)
        if check and done.returncode != 0:
            raise AssertionError(
                f"postfix {' '.join(args)}: exit {done.returncode}\n{said.decode(errors='replace')}\n{self.log()}"
            )
        return done.returncode

    def log(self):
        path = self.root / "maillog"
        return path.read_text(errors="replace") if path.exists() else "(no maillog)"

    def maildir(self, user):
        """The files of ``user``'s Maildir ``new/``."""
        new = self.root / "vmail" / user / "new"
        return sorted(new.iterdir()) if new.exists() else []

    def queued(self):
        """The queue files Postfix still holds (incoming, active, deferred, hold, maildrop)."""
        queue = self.root / "queue"
        return [p for d in ("incoming", "active", "deferred", "hold", "maildrop") for p in (queue / d).rglob("*") if p.is_file()]


def wait_for(condition, what, postfix, seconds=30.0):
    """``condition()``'s first true value, polled every 0.1 s for at most ``seconds``; else an
    AssertionError naming ``what``, with Postfix's log."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"waited {seconds} s for {what}\n--- Postfix's log ---\n{postfix.log()}")


@contextlib.contextmanager
def running(prefix, ports, listeners, users, main_cf="", timeout=60.0):
    """A started ``Postfix`` (the arguments after ``ports`` are its own) under a new temporary
    directory named with ``prefix``, once its SMTP servers accept on every one of ``ports``;
    stopped and its directory removed on the way out, whatever happened inside."""
    root = Path(tempfile.mkdtemp(prefix=prefix))
    os.chmod(root, 0o755)  # Postfix's daemons (user postfix, nobody for delivery) go through it
    postfix = None
    try:
        postfix = Postfix(root, listeners, users, main_cf, timeout)
        postfix.command("start")
        wait_for(lambda: all(accepting(port) for port in ports), "Postfix's SMTP servers", postfix, 15.0)
        yield postfix
    finally:
        if postfix is not None and postfix.command("stop", check=False) != 0:
            postfix.command("abort", check=False)
        shutil.rmtree(root, ignore_errors=True)
