"""Postfix hands each message to rspamd through rspamd's proxy worker in milter mode
(``smtpd_milters``), as a site runs rspamd in front of its mailboxes: the baseStriker message and
every message of tests/data/filters/ with a bad host are refused at the end of DATA with rspamd's
reject reply, the clean one is delivered. The same Postfix has a second SMTP server whose milter
is stock rspamd: there only baseStriker and the messages stock rspamd catches
(``STOCK_CATCHES``) are refused, the others are delivered (the gap the module closes).

Postfix runs with a configuration, queue and mailboxes of its own under a temporary directory
(``postfix -c DIR``), listening on 127.0.0.1 only, chroot off, as
python/tests/test_smtp_filter_postfix.py runs it, and is stopped at the end. Postfix is the
oracle of what happened: the SMTP reply to the client, its virtual(8) deliveries, its log.

Needs root and Debian's postfix package (.ci/run installs it where it can); skipped with the
reason otherwise.
"""

import grp
import os
import pty
import pwd
import re
import select
import shutil
import smtplib
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from conftest import FILTER_MESSAGES, REPO, SKIP, STOCK_CATCHES, record

POSTFIX = Path("/usr/sbin/postfix")
DOMAIN = "example.test"
TIMEOUT = 60.0
# The proxy worker's reject reply: reject_message in Debian's /etc/rspamd/worker-proxy.inc,
# which the tests' configuration keeps.
REJECT_REPLY = b"5.7.1 Spam message rejected"


def skip_reason():
    if SKIP is not None:
        return SKIP
    if os.geteuid() != 0:
        return "Postfix milter test: needs root (Postfix's master runs as root)"
    if not POSTFIX.exists():
        return f"Postfix milter test: {POSTFIX} is missing (apt-get install postfix)"
    for name, lookup in (("postfix", pwd.getpwnam), ("postdrop", grp.getgrnam)):
        try:
            lookup(name)
        except KeyError:
            return f"Postfix milter test: no {name!r} user or group (the postfix package makes them)"
    return None


pytestmark = pytest.mark.skipif(skip_reason() is not None, reason=skip_reason() or "")

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
# rspamd's proxy worker speaks milter protocol 6. A milter that fails or does not answer
# makes Postfix defer the message, so that a broken rspamd cannot pass for a delivery here.
milter_protocol = 6
milter_default_action = tempfail
milter_mail_macros = i {{mail_addr}} {{client_addr}} {{client_name}} {{auth_authen}}
"""

# One SMTP server per rspamd: the one with the mimebase module, and stock rspamd.
MASTER_CF = """\
127.0.0.1:{with_module} inet n - n - - smtpd
  -o smtpd_milters=inet:127.0.0.1:{module_milter}
127.0.0.1:{stock} inet n - n - - smtpd
  -o smtpd_milters=inet:127.0.0.1:{stock_milter}
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


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def accepting(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1.0):
            return True
    except OSError:
        return False


class Postfix:
    def __init__(self, root, ports, milters):
        self.root = root
        self.conf = root / "conf"
        self.conf.mkdir()
        (root / "queue").mkdir()
        vmail = root / "vmail"
        vmail.mkdir()
        nobody = pwd.getpwnam("nobody")
        os.chown(vmail, nobody.pw_uid, nobody.pw_gid)
        (self.conf / "main.cf").write_text(
            MAIN_CF.format(root=root, conf=self.conf, domain=DOMAIN, uid=nobody.pw_uid, gid=nobody.pw_gid)
        )
        (self.conf / "master.cf").write_text(MASTER_CF.format(**ports, **milters))
        users = ("with-module", "stock", "sender")
        (self.conf / "vmailbox").write_text("".join(f"{u}@{DOMAIN} {u}/\n" for u in users))

    def command(self, *args, check=True):
        """``postfix -c CONF ARGS``; its exit code. Postfix writes its errors to standard error
        only when that is a terminal, so it gets one."""
        primary, secondary = pty.openpty()
        try:
            done = subprocess.run(
                [str(POSTFIX), "-c", str(self.conf), *args], stdout=secondary, stderr=secondary, timeout=TIMEOUT
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
            raise AssertionError(f"postfix {' '.join(args)}: exit {done.returncode}\n{said.decode(errors='replace')}")
        return done.returncode

    def log(self):
        path = self.root / "maillog"
        return path.read_text(errors="replace") if path.exists() else "(no maillog)"

    def maildir(self, user):
        new = self.root / "vmail" / user / "new"
        return sorted(new.iterdir()) if new.exists() else []


def wait_for(condition, what, postfix, seconds=30.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"waited {seconds} s for {what}\n--- Postfix's log ---\n{postfix.log()}")


@pytest.fixture
def postfix(stock, with_plugin):
    ports = {"with_module": free_port(), "stock": free_port()}
    milters = {"module_milter": with_plugin.milter_port, "stock_milter": stock.milter_port}
    root = Path(tempfile.mkdtemp(prefix="mimebase-postfix-milter-"))
    os.chmod(root, 0o755)  # Postfix's daemons (user postfix, nobody for delivery) go through it
    server = None
    try:
        server = Postfix(root, ports, milters)
        server.command("start")
        wait_for(lambda: all(accepting(p) for p in ports.values()), "Postfix's SMTP servers", server, 15.0)
        yield server, ports
    finally:
        if server is not None and server.command("stop", check=False) != 0:
            server.command("abort", check=False)
        shutil.rmtree(root, ignore_errors=True)


def send(port, recipient, message):
    """Sends ``message``; None when Postfix took it, else its (code, reply) to DATA."""
    with smtplib.SMTP("127.0.0.1", port, timeout=TIMEOUT) as client:
        try:
            client.sendmail(f"sender@{DOMAIN}", [recipient], message)
        except smtplib.SMTPDataError as refused:
            return refused.smtp_code, refused.smtp_error
    return None


def message_id(message: bytes) -> bytes:
    """The Message-ID of the message's own header (not of a message/rfc822 part in it)."""
    header = re.split(rb"\r?\n\r?\n", message, maxsplit=1)[0]
    [found] = re.findall(rb"^Message-ID: (<[^>]+>)", header, flags=re.M | re.I)
    return found


def delivered_ids(server, user):
    return sorted(message_id(path.read_bytes()) for path in server.maildir(user))


def test_postfix_through_rspamd_milter(postfix):
    server, ports = postfix
    basestriker = (REPO / "samples" / "basestriker.eml").read_bytes()
    mailboxes = {"with module": f"with-module@{DOMAIN}", "stock": f"stock@{DOMAIN}"}
    smtp_ports = {"with module": ports["with_module"], "stock": ports["stock"]}

    # baseStriker (a <base> in <head>) is refused through both.
    for way in mailboxes:
        assert send(smtp_ports[way], mailboxes[way], basestriker) == (554, REJECT_REPLY), way

    # Each shared message through both: refused with rspamd's reject reply where rspamd catches
    # its bad host (with the module: every one; stock: STOCK_CATCHES), taken for delivery
    # otherwise.
    wrong, expected_deliveries = [], {way: [] for way in mailboxes}
    for message in FILTER_MESSAGES:
        for way, column in (("with module", "postfix module"), ("stock", "postfix stock")):
            reply = send(smtp_ports[way], mailboxes[way], message.data)
            record(message, column, reply is not None)
            refuse = message.bad_host is not None and (way == "with module" or message.name in STOCK_CATCHES)
            if refuse:
                if reply != (554, REJECT_REPLY):
                    wrong.append(f"{way}: {message.name}: {reply or 'taken'}, expected rspamd's reject reply")
            else:
                expected_deliveries[way].append(message_id(message.data))
                if reply is not None:
                    wrong.append(f"{way}: {message.name}: refused with {reply}, expected delivery")
    assert wrong == [], "\n".join(wrong)

    for way, user in (("with module", "with-module"), ("stock", "stock")):
        expected = sorted(expected_deliveries[way])
        wait_for(lambda: len(server.maildir(user)) >= len(expected), f"{way}: {len(expected)} deliveries", server)
        assert delivered_ids(server, user) == expected, way

    log = server.log()
    for line in log.splitlines():
        if "milter-reject" in line or "status=sent" in line:
            print(line)
    sent = sum(map(len, expected_deliveries.values()))
    refused = 2 + 2 * len(FILTER_MESSAGES) - sent
    assert log.count("milter-reject: END-OF-MESSAGE") == refused, log
    assert log.count("status=sent") == sent, log
