"""The SMTP filter of examples/smtp_filter.py between two Postfix SMTP servers, as its module
docstring sets it up after Postfix's queue (``content_filter``): a client sends to Postfix on a
loopback port, Postfix hands the message to the filter, the filter hands it to a second Postfix
SMTP server (the reinjection port), which delivers it into virtual Maildirs.

Postfix runs with a configuration, queue and mailboxes of its own under a temporary directory
(``postfix -c DIR``, set up by postfix_instance.py, which the rspamd tests' Postfix shares),
listening on 127.0.0.1 only, chroot off, and is stopped at the end. Here it has two SMTP servers
and the transport to the filter. The first server accepts any recipient of the test domain; the
reinjection server refuses unknown ones, so that the refusal reaches the filter, as it does when
the next hop knows more than the first (a recipient removed in between, a milter, another
server). Postfix itself is the oracle: its virtual(8) delivery says what arrived, and its bounce
(an RFC 3464 delivery status notification, read with Python's email package) what was refused.

Needs root and Debian's postfix package (.ci/run installs it where it can); skipped with the
reason otherwise. Every wait is bounded: the whole test takes a few seconds."""

import email
import email.policy
import smtplib

import pytest

from postfix_instance import DOMAIN, free_port, running, skip_reason, wait_for
from test_smtp_filter import BASESTRIKER, FORGED, TIMEOUT, Loop, smtp_filter

SKIP = skip_reason("Postfix end-to-end test")
pytestmark = pytest.mark.skipif(SKIP is not None, reason=SKIP or "")

# The first server hands every message to the filter (content_filter) and takes unknown
# recipients of the domain; the reinjection server on the filter's next hop has no filter and
# refuses them (smtpd_reject_unlisted_recipient, on by default).
LISTENERS = """\
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
"""


@pytest.fixture
def postfix_with_filter():
    incoming, reinject = free_port(), free_port()
    loop = Loop()
    try:
        filter_port = loop.start(lambda: smtp_filter.serve("127.0.0.1", 0, "127.0.0.1", reinject, timeout=TIMEOUT))
        listeners = LISTENERS.format(incoming=incoming, reinject=reinject, filter=filter_port)
        with running(
            "mimebase-postfix-", (incoming, reinject), listeners, ("sender", "known"),
            main_cf="smtputf8_enable = yes\n", timeout=TIMEOUT,
        ) as postfix:
            yield postfix, incoming
    finally:
        loop.stop()


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
    # Postfix's log daemon may write the delivery lines after the files land: wait for them.
    wait_for(
        lambda: all(status in postfix.log() for status in ("status=sent", "status=bounced")),
        "the delivery and bounce lines in the log",
        postfix,
    )
    log = postfix.log()
    assert f"to=<{known}>" in log and "status=sent" in log
    assert f"to=<{unknown}>" in log and "status=bounced" in log
