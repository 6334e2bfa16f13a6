"""The SMTP filter of examples/smtp_filter.py between two Postfix SMTP servers, as its module
docstring sets it up after Postfix's queue (``content_filter``): a client sends to Postfix on a
loopback port, Postfix hands the message to the filter, the filter hands it to a second Postfix
SMTP server (the reinjection port), which delivers it into virtual Maildirs.

Postfix runs with a configuration, queue and mailboxes of its own under a temporary directory
(``postfix -c DIR``), listening on 127.0.0.1 only, chroot off, and is stopped at the end. The
first server accepts any recipient of the test domain; the reinjection server refuses unknown
ones, so that the refusal reaches the filter, as it does when the next hop knows more than the
first (a recipient removed in between, a milter, another server). Postfix itself is the oracle:
its virtual(8) delivery says what arrived, and its bounce (an RFC 3464 delivery status
notification, read with Python's email package) what was refused.

Needs root and Debian's postfix package (.ci/run installs it where it can); skipped with the
reason otherwise. Every wait is bounded: the whole test takes a few seconds."""

import email
import email.policy
import grp
import os
import pty
import pwd
import select
import shutil
import smtplib
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

from test_smtp_filter import BASESTRIKER, FORGED, TIMEOUT, Loop, smtp_filter

POSTFIX = Path("/usr/sbin/postfix")
DOMAIN = "example.test"


def skip_reason():
    if os.geteuid() != 0:
        return "Postfix end-to-end test: needs root (Postfix's master runs as root)"
    if not POSTFIX.exists():
        return f"Postfix end-to-end test: {POSTFIX} is missing (apt-get install postfix)"
    for name, lookup in (("postfix", pwd.getpwnam), ("postdrop", grp.getgrnam)):
        try:
            lookup(name)
        except KeyError:
            return f"Postfix end-to-end test: no {name!r} user or group (the postfix package makes them)"
    return None


pytestmark = pytest.mark.skipif(skip_reason() is not None, reason=skip_reason() or "")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


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
smtputf8_enable = yes
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

# The first server hands every message to the filter (content_filter) and takes unknown
# recipients of the domain; the reinjection server on the filter's next hop has no filter and
# refuses them (smtpd_reject_unlisted_recipient, on by default). chroot off for every service.
MASTER_CF = """\
127.0.0.1:{incoming} inet n - n - - smtpd
  -o content_filter=mimebase:[127.0.0.1]:{filter}
  -o smtpd_reject_unlisted_recipient=no
127.0.0.1:{reinject} inet n - n - - smtpd
  -o content_filter=
  -o receive_override_options=no_header_body_checks,no_milters
  -o smtpd_client_restrictions=
  -o smtpd_relay_restrictions=permit_mynetworks,reject
  -o mynetworks=127.0.0.0/8
mimebase  unix  -       -       n       -       2       smtp
  -o smtp_send_xforward_command=no
  -o disable_mime_output_conversion=yes
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
    """One Postfix instance under ``root``: ``conf`` its configuration directory."""

    def __init__(self, root, incoming, reinject, filter_port):
        self.root = root
        self.conf = root / "conf"
        self.conf.mkdir()
        (root / "queue").mkdir()  # Postfix makes what is inside (postfix-files: post-install)
        vmail = root / "vmail"
        vmail.mkdir()
        nobody = pwd.getpwnam("nobody")
        os.chown(vmail, nobody.pw_uid, nobody.pw_gid)
        (self.conf / "main.cf").write_text(
            MAIN_CF.format(root=root, conf=self.conf, domain=DOMAIN, uid=nobody.pw_uid, gid=nobody.pw_gid)
        )
        (self.conf / "master.cf").write_text(
            MASTER_CF.format(incoming=incoming, reinject=reinject, filter=filter_port)
        )
        (self.conf / "vmailbox").write_text(f"sender@{DOMAIN} sender/\nknown@{DOMAIN} known/\n")

    def command(self, *args, check=True):
        """Runs ``postfix -c CONF ARGS``; its exit code. Postfix writes its errors to standard
        error only when that is a terminal (else to the log, which may not be open yet), so it
        gets one."""
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
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"waited {seconds} s for {what}\n--- Postfix's log ---\n{postfix.log()}")


def accepting(port):
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1.0):
            return True
    except OSError:
        return False


@pytest.fixture
def postfix_with_filter():
    incoming, reinject = free_port(), free_port()
    loop = Loop()
    root = Path(tempfile.mkdtemp(prefix="mimebase-postfix-"))
    os.chmod(root, 0o755)  # Postfix's daemons (user postfix, nobody for delivery) go through it
    postfix = None
    try:
        filter_port = loop.start(lambda: smtp_filter.serve("127.0.0.1", 0, "127.0.0.1", reinject, timeout=TIMEOUT))
        postfix = Postfix(root, incoming, reinject, filter_port)
        postfix.command("start")
        wait_for(lambda: accepting(incoming) and accepting(reinject), "Postfix's SMTP servers", postfix, 15.0)
        yield postfix, incoming
    finally:
        if postfix is not None and postfix.command("stop", check=False) != 0:
            postfix.command("abort", check=False)
        loop.stop()
        shutil.rmtree(root, ignore_errors=True)


def test_postfix_content_filter_delivers_and_bounces(postfix_with_filter):
    postfix, port = postfix_with_filter
    sender, known, unknown = (f"{user}@{DOMAIN}" for user in ("sender", "known", "unknown"))
    head, body = BASESTRIKER.split(b"\r\n\r\n", 1)
    message = (
        head.replace(b"Subject: verify your account", "Subject: Grüße, verify your account".encode())
        + b"\r\n" + FORGED + b"\r\n"
        + body.replace(b"Log in at", "Grüße: log in at".encode())
    )
    with smtplib.SMTP("127.0.0.1", port, timeout=TIMEOUT) as client:
        # The first server takes both: the refusal comes from the reinjection server, later.
        refused = client.sendmail(sender, [known, unknown], message, ["BODY=8BITMIME", "SMTPUTF8"])
    assert refused == {}

    [delivered] = wait_for(lambda: postfix.maildir("known"), "delivery to known@", postfix)
    [bounce] = wait_for(lambda: postfix.maildir("sender"), "the bounce to sender@", postfix)
    wait_for(lambda: not postfix.queued(), "an empty queue", postfix, 10.0)
    assert postfix.maildir("unknown") == []

    # Delivered: the filter's fields on top, the sender's own gone, 8-bit text as sent (not
    # converted to quoted-printable, which Postfix does for a next hop without 8BITMIME).
    data = delivered.read_bytes().replace(b"\n", b"\r\n")
    parsed = email.message_from_bytes(data, policy=email.policy.default)
    assert parsed["Delivered-To"] == known
    assert [(k, str(v)) for k, v in parsed.items() if k.lower().startswith("x-mimebase")] == [
        ("X-Mimebase-Links", "1 of 3 URLs resolved elsewhere than written"),
        (
            "X-Mimebase-Link",
            'part=2; source=html:a@href; base-source=html:base; written="login"; leads-to="http://evil.example/login"',
        ),
    ]
    assert b"\r\nSubject: " + "Grüße, verify your account".encode() + b"\r\n" in data
    assert data.endswith(body.replace(b"Log in at", "Grüße: log in at".encode()))
    assert all(len(line) <= 998 for line in data.split(b"\r\n"))

    # Bounced: Postfix's delivery status notification names the refused recipient with the
    # reinjection server's reply, which reached Postfix through the filter.
    report = email.message_from_bytes(bounce.read_bytes(), policy=email.policy.default)
    assert report.get_content_type() == "multipart/report"
    assert report["To"] == sender
    # An SMTPUTF8 message: the status is message/global-delivery-status (RFC 6533 section 3).
    [status] = [part for part in report.walk() if part.get_content_type() == "message/global-delivery-status"]
    text = " ".join(status.as_bytes().decode().split())  # unfolded
    assert f"Final-Recipient: rfc822; {unknown}" in text
    assert "Action: failed Status: 5.1.1" in text
    assert (
        f"Diagnostic-Code: smtp; 550 5.1.1 <{unknown}>: Recipient address rejected:"
        " User unknown in virtual mailbox table" in text
    )
    assert text.count("Final-Recipient:") == 1
    log = postfix.log()
    assert f"to=<{known}>" in log and "status=sent" in log
    assert f"to=<{unknown}>" in log and "status=bounced" in log
