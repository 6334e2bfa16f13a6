"""Postfix hands each message to rspamd through rspamd's proxy worker in milter mode
(``smtpd_milters``), as a site runs rspamd in front of its mailboxes: the baseStriker message and
every message of tests/data/filters/ with a bad host are refused at the end of DATA with rspamd's
reject reply, the clean one is delivered. The same Postfix has a second SMTP server whose milter
is stock rspamd: there only baseStriker and the messages stock rspamd catches
(``STOCK_CATCHES``) are refused, the others are delivered (the gap the module closes).

Postfix runs with a configuration, queue and mailboxes of its own under a temporary directory
(``postfix -c DIR``), listening on 127.0.0.1 only, chroot off, set up by
python/tests/postfix_instance.py as for python/tests/test_smtp_filter_postfix.py, and is stopped
at the end. Postfix is the oracle of what happened: the SMTP reply to the client, its virtual(8)
deliveries, its log.

Needs root and Debian's postfix package (.ci/run installs it where it can); skipped with the
reason otherwise.
"""

import re
import smtplib

import pytest

from conftest import FILTER_MESSAGES, REPO, SKIP, STOCK_CATCHES, record

# python/tests/, which conftest.py puts on sys.path.
from postfix_instance import DOMAIN, free_port, running, wait_for
from postfix_instance import skip_reason as postfix_skip_reason

TIMEOUT = 60.0
# The proxy worker's reject reply: reject_message in Debian's /etc/rspamd/worker-proxy.inc,
# which the tests' configuration keeps.
REJECT_REPLY = b"5.7.1 Spam message rejected"


def skip_reason():
    if SKIP is not None:
        return SKIP
    return postfix_skip_reason("Postfix milter test")


pytestmark = pytest.mark.skipif(skip_reason() is not None, reason=skip_reason() or "")

# rspamd's proxy worker speaks milter protocol 6. A milter that fails or does not answer
# makes Postfix defer the message, so that a broken rspamd cannot pass for a delivery here.
MAIN_CF = """\
milter_protocol = 6
milter_default_action = tempfail
milter_mail_macros = i {mail_addr} {client_addr} {client_name} {auth_authen}
"""

# One SMTP server per rspamd: the one with the mimebase module, and stock rspamd.
LISTENERS = """\
127.0.0.1:{with_module} inet n - n - - smtpd
  -o smtpd_milters=inet:127.0.0.1:{module_milter}
127.0.0.1:{stock} inet n - n - - smtpd
  -o smtpd_milters=inet:127.0.0.1:{stock_milter}
"""


@pytest.fixture
def postfix(stock, with_plugin):
    ports = {"with_module": free_port(), "stock": free_port()}
    milters = {"module_milter": with_plugin.milter_port, "stock_milter": stock.milter_port}
    with running(
        "mimebase-postfix-milter-", tuple(ports.values()), LISTENERS.format(**ports, **milters),
        ("with-module", "stock", "sender"), main_cf=MAIN_CF, timeout=TIMEOUT,
    ) as server:
        yield server, ports


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

    # A delivery's file lands in the Maildir before Postfix's log daemon writes its
    # "status=sent" line: wait for the log to have them all, then count exactly.
    sent = sum(map(len, expected_deliveries.values()))
    refused = 2 + 2 * len(FILTER_MESSAGES) - sent
    wait_for(lambda: server.log().count("status=sent") >= sent, f"{sent} status=sent lines in the log", server)
    log = server.log()
    for line in log.splitlines():
        if "milter-reject" in line or "status=sent" in line:
            print(line)
    assert log.count("milter-reject: END-OF-MESSAGE") == refused, log
    assert log.count("status=sent") == sent, log
