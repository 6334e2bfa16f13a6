"""The SMTP filter of examples/smtp_filter.py end to end, on loopback addresses and ephemeral
ports: smtplib sends to the filter, the filter relays to a second aiosmtpd server (the next hop,
which can be told to refuse recipients or the message), and the test reads what arrived there.
Every network wait is bounded by a timeout. test_smtp_filter_postfix.py runs it between two
Postfix SMTP servers."""

import asyncio
import email
import email.policy
import importlib.util
import smtplib
import socket
import threading
from urllib.parse import unquote

import pytest
from aiosmtpd.smtp import SMTP

import mimebase
from conftest import PYTHON_DIR, SAMPLES

spec = importlib.util.spec_from_file_location("smtp_filter", PYTHON_DIR / "examples" / "smtp_filter.py")
smtp_filter = importlib.util.module_from_spec(spec)
spec.loader.exec_module(smtp_filter)

TIMEOUT = 20.0

BASESTRIKER = (
    b"From: Bank <security@bank.example>\r\n"
    b"To: customer@example.org\r\n"
    b"Subject: verify your account\r\n"
    b"Message-ID: <split@bank.example>\r\n"
    b"MIME-Version: 1.0\r\n"
    b'Content-Type: multipart/alternative; boundary="b"\r\n'
    b"\r\n"
    b"--b\r\n"
    b"Content-Type: text/plain\r\n"
    b"\r\n"
    b"Log in at https://bank.example/login\r\n"
    b"--b\r\n"
    b"Content-Type: text/html\r\n"
    b"\r\n"
    b'<html><head><base href="http://evil.example/"></head>\r\n'
    b'<body><a href="login">log in</a> <a href="https://bank.example/help">help</a>\r\n'
    b".a line that starts with a dot survives SMTP's dot-stuffing\r\n"
    b"</body></html>\r\n"
    b"--b--\r\n"
)

FIELDS_OF_BASESTRIKER = (
    "X-Mimebase-Links: 1 of 3 URLs resolved elsewhere than written\r\n"
    "X-Mimebase-Link: part=2; source=html:a@href; base-source=html:base;\r\n"
    ' written="login"; leads-to="http://evil.example/login"\r\n'
)


class NextHop:
    """The next hop: keeps every envelope it receives; refuses the recipients of
    ``refuse_rcpt`` with the reply given there, and answers DATA with ``data_reply``."""

    def __init__(self):
        self.envelopes = []
        self.received = threading.Event()
        self.refuse_rcpt = {}
        self.data_reply = "250 2.0.0 OK: queued"

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse_rcpt:
            return self.refuse_rcpt[address]
        envelope.rcpt_tos.append(address)
        envelope.rcpt_options.extend(rcpt_options)
        return "250 2.1.5 OK"

    async def handle_DATA(self, server, session, envelope):
        if self.data_reply.startswith("250"):
            self.envelopes.append(envelope)
        self.received.set()
        return self.data_reply


class Loop:
    """An asyncio event loop in a thread, for the servers."""

    def __init__(self):
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.servers = []

    def run(self, coroutine):
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(TIMEOUT)

    def start(self, make_server):
        server = self.run(make_server())
        self.servers.append(server)
        return server.sockets[0].getsockname()[1]

    def stop(self):
        async def close():
            for server in self.servers:
                server.close()
                await server.wait_closed()

        self.run(close())
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(TIMEOUT)
        assert not self.thread.is_alive()


def start_next_hop(loop, handler, smtputf8=True):
    async def make():
        return await loop.loop.create_server(
            lambda: SMTP(handler, hostname="next-hop", enable_SMTPUTF8=smtputf8), "127.0.0.1", 0
        )

    return loop.start(make)


@pytest.fixture
def servers():
    """(filter port, next hop) with both servers on 127.0.0.1, on an event loop in a thread."""
    loop = Loop()
    hop = NextHop()
    relay_port = start_next_hop(loop, hop)
    port = loop.start(lambda: smtp_filter.serve("127.0.0.1", 0, "127.0.0.1", relay_port, timeout=TIMEOUT))
    yield port, hop
    loop.stop()


def send(port, message, recipients=("customer@example.org",), mail_options=()):
    """Sends with smtplib; the recipients it says were refused (its ``sendmail`` result)."""
    with smtplib.SMTP("127.0.0.1", port, timeout=TIMEOUT) as client:
        return client.sendmail("security@bank.example", list(recipients), message, mail_options=list(mail_options))


def received_fields(received, original):
    """The fields the filter added: what precedes the original message, which must follow
    them byte for byte."""
    assert received.endswith(original)
    return received[: len(received) - len(original)].decode("ascii")


def unfolded(fields):
    """RFC 5322 section 2.2.3 unfolding: every CRLF followed by white space removed."""
    return fields.replace("\r\n ", " ").replace("\r\n\t", "\t")


def html_message(body, header=b""):
    return (
        b"From: a@example.org\r\nTo: b@example.org\r\nSubject: links\r\n" + header
        + b"Content-Type: text/html; charset=utf-8\r\n\r\n" + body + b"\r\n"
    )


def test_basestriker_link_is_named_and_the_message_arrives_intact(servers, capsys):
    port, hop = servers
    assert send(port, BASESTRIKER) == {}
    assert hop.received.wait(TIMEOUT)
    [envelope] = hop.envelopes
    assert envelope.mail_from == "security@bank.example"
    assert envelope.rcpt_tos == ["customer@example.org"]
    added = received_fields(envelope.original_content, BASESTRIKER)
    assert added == FIELDS_OF_BASESTRIKER
    with capsys.disabled():
        print("\nfields added by the filter:\n" + added, end="")


def test_sample_with_relative_links(servers):
    port, hop = servers
    original = (SAMPLES / "basestriker.eml").read_bytes().replace(b"\n", b"\r\n")
    assert send(port, original) == {}
    assert hop.received.wait(TIMEOUT)
    added = received_fields(hop.envelopes[0].original_content, original)
    assert "X-Mimebase-Links: 2 of 3 URLs" in added
    # The longer of the two does not fit in 78 bytes with its written form: folded before leads-to.
    assert 'written="verify/login.html";\r\n leads-to="http://phish.example.net/bank.example.com/verify/login.html"' in added
    assert 'written="/logo.gif"; leads-to="http://phish.example.net/logo.gif"' in unfolded(added)


def test_message_without_such_links_is_relayed_unchanged(servers):
    port, hop = servers
    original = html_message(b'<a href="https://example.org/x">x</a>')
    assert send(port, original) == {}
    assert hop.received.wait(TIMEOUT)
    assert hop.envelopes[0].original_content == original


# --- Recipients: each RCPT answered with the next hop's reply ---------------------------------


def test_recipient_the_next_hop_refuses_is_refused_to_the_client(servers):
    """The client learns of every refusal, with the next hop's code, so that it bounces (5xx) or
    retries (4xx) that recipient; the next hop takes the message for the others. The refused
    dictionary is smtplib's ``sendmail`` result: one entry per recipient answered other than 250."""
    port, hop = servers
    hop.refuse_rcpt = {
        "unknown@example.org": "550 5.1.1 <unknown@example.org>: user unknown",
        "full@example.org": "452 4.2.2 <full@example.org>: mailbox full",
    }
    recipients = ["customer@example.org", "unknown@example.org", "full@example.org", "other@example.org"]
    refused = send(port, BASESTRIKER, recipients)
    assert refused == {
        "unknown@example.org": (550, b"5.1.1 <unknown@example.org>: user unknown"),
        "full@example.org": (452, b"4.2.2 <full@example.org>: mailbox full"),
    }
    assert hop.received.wait(TIMEOUT)
    [envelope] = hop.envelopes
    assert envelope.rcpt_tos == ["customer@example.org", "other@example.org"]
    assert received_fields(envelope.original_content, BASESTRIKER) == FIELDS_OF_BASESTRIKER


def test_every_recipient_refused_means_no_message(servers):
    port, hop = servers
    hop.refuse_rcpt = {"unknown@example.org": "550 5.1.1 user unknown"}
    with pytest.raises(smtplib.SMTPRecipientsRefused) as refused:
        send(port, BASESTRIKER, ["unknown@example.org"])
    assert refused.value.recipients == {"unknown@example.org": (550, b"5.1.1 user unknown")}
    assert hop.envelopes == []


def test_a_next_hop_closing_its_session_is_a_temporary_refusal(servers):
    """A 421 would tell the client that the filter closes the session, which it does not."""
    port, hop = servers
    hop.refuse_rcpt = {"closing@example.org": "421 4.3.2 shutting down"}
    refused = send(port, BASESTRIKER, ["customer@example.org", "closing@example.org"])
    assert refused == {"closing@example.org": (451, b"4.4.2 the next hop closed the session: 4.3.2 shutting down")}


@pytest.mark.parametrize("answer", ["554 5.7.1 message refused", "452 4.3.1 insufficient system storage"])
def test_the_next_hops_answer_to_the_message_is_the_clients(servers, answer):
    port, hop = servers
    hop.data_reply = answer
    with pytest.raises(smtplib.SMTPDataError) as refused:
        send(port, BASESTRIKER)
    code, text = answer.split(" ", 1)
    assert (refused.value.smtp_code, refused.value.smtp_error) == (int(code), text.encode())


def test_several_transactions_and_a_reset_in_one_session(servers):
    port, hop = servers
    first = html_message(b'<a href="https://example.org/1">1</a>')
    second = html_message(b'<a href="https://example.org/2">2</a>')
    with smtplib.SMTP("127.0.0.1", port, timeout=TIMEOUT) as client:
        assert client.sendmail("a@example.org", ["b@example.org"], first) == {}
        assert client.mail("a@example.org")[0] == 250
        assert client.rcpt("c@example.org")[0] == 250
        assert client.rset()[0] == 250
        assert client.sendmail("a@example.org", ["d@example.org"], second) == {}
    assert [(e.rcpt_tos, e.original_content) for e in hop.envelopes] == [
        (["b@example.org"], first),
        (["d@example.org"], second),
    ]


def test_unreachable_next_hop_is_a_temporary_error(unused_port):
    """Refused at MAIL now, when the filter opens its session with the next hop (451)."""
    loop = Loop()
    try:
        port = loop.start(lambda: smtp_filter.serve("127.0.0.1", 0, "127.0.0.1", unused_port, timeout=TIMEOUT))
        with smtplib.SMTP("127.0.0.1", port, timeout=TIMEOUT) as client:
            with pytest.raises(smtplib.SMTPSenderRefused) as refused:
                client.sendmail("a@example.org", ["b@example.org"], BASESTRIKER)
        assert refused.value.smtp_code == 451
    finally:
        loop.stop()


@pytest.fixture
def unused_port():
    """A loopback port with nothing listening (bound, then released)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


# --- SMTP extensions -------------------------------------------------------------------------


def test_8bitmime_and_smtputf8_are_offered_and_passed_on(servers):
    port, hop = servers
    original = (
        "From: Jürgen <jürgen@bücher.example>\r\nTo: b@example.org\r\nSubject: Grüße\r\n"
        "Content-Type: text/plain; charset=utf-8\r\nContent-Transfer-Encoding: 8bit\r\n\r\nGrüße\r\n"
    ).encode()
    with smtplib.SMTP("127.0.0.1", port, timeout=TIMEOUT) as client:
        client.ehlo()
        assert client.has_extn("8bitmime") and client.has_extn("smtputf8")
        refused = client.sendmail("jürgen@bücher.example", ["b@example.org"], original, ["BODY=8BITMIME", "SMTPUTF8"])
    assert refused == {}
    [envelope] = hop.envelopes
    assert envelope.mail_from == "jürgen@bücher.example"
    assert "BODY=8BITMIME" in envelope.mail_options and "SMTPUTF8" in envelope.mail_options
    assert envelope.smtp_utf8
    assert envelope.original_content == original


def test_smtputf8_to_a_next_hop_without_it_is_a_temporary_error():
    loop = Loop()
    try:
        relay_port = start_next_hop(loop, NextHop(), smtputf8=False)
        port = loop.start(lambda: smtp_filter.serve("127.0.0.1", 0, "127.0.0.1", relay_port, timeout=TIMEOUT))
        with smtplib.SMTP("127.0.0.1", port, timeout=TIMEOUT) as client:
            with pytest.raises(smtplib.SMTPSenderRefused) as refused:
                client.sendmail("jürgen@bücher.example", ["b@example.org"], BASESTRIKER, ["SMTPUTF8"])
        assert (refused.value.smtp_code, refused.value.smtp_error) == (451, b"4.3.5 the next hop does not offer SMTPUTF8")
    finally:
        loop.stop()


# --- Sender-supplied X-Mimebase-* fields -----------------------------------------------------

FORGED = (
    b"X-Mimebase-Links: 0 of 3 URLs resolved elsewhere than written\r\n"
    b"x-mimebase-link: part=2; source=html:a@href; base-source=none;\r\n"
    b'\twritten="https://bank.example/"; leads-to="https://bank.example/"\r\n'
    b"X-MIMEBASE-VERDICT : clean\r\n"
)


def test_sender_supplied_fields_are_removed(servers):
    """Any case, folded, with white space before the colon (RFC 5322 section 4.5's obsolete
    syntax); fields of the same prefix in an enclosed message, and the text in the body, stay.
    Python's email package (the oracle for the header) sees only the filter's own fields."""
    port, hop = servers
    kept_header = b"From: Bank <security@bank.example>\r\nX-Mimebase: not ours, no dash\r\n"
    rest = BASESTRIKER.split(b"\r\n", 1)[1]
    rest = rest.replace(b"Log in at", b"X-Mimebase-Links: in the body\r\nLog in at")
    sent = kept_header + FORGED + rest
    assert send(port, sent) == {}
    [envelope] = hop.envelopes
    expected = kept_header + rest
    assert received_fields(envelope.original_content, expected) == FIELDS_OF_BASESTRIKER
    parsed = email.message_from_bytes(envelope.original_content, policy=email.policy.default)
    assert [(k, str(v)) for k, v in parsed.items() if k.lower().startswith("x-mimebase")] == [
        ("X-Mimebase-Links", "1 of 3 URLs resolved elsewhere than written"),
        (
            "X-Mimebase-Link",
            'part=2; source=html:a@href; base-source=html:base; written="login"; leads-to="http://evil.example/login"',
        ),
        ("X-Mimebase", "not ours, no dash"),
    ]


def test_sender_supplied_fields_are_removed_when_nothing_is_added():
    original = html_message(b'<a href="https://example.org/x">x</a>')
    head, body = original.split(b"\r\n\r\n", 1)
    assert smtp_filter.filtered(head + b"\r\n" + FORGED + b"\r\n" + body) == original
    lf = original.replace(b"\r\n", b"\n")
    head, body = lf.split(b"\n\n", 1)
    assert smtp_filter.filtered(FORGED.replace(b"\r\n", b"\n") + head + b"\n\n" + body) == lf


def test_enclosed_message_keeps_its_fields():
    enclosed = b"X-Mimebase-Links: 9 of 9\r\nSubject: inner\r\n\r\ninner body\r\n"
    message = b"Subject: outer\r\nContent-Type: message/rfc822\r\n\r\n" + enclosed
    assert smtp_filter.without_own_fields(message) == message
    assert smtp_filter.without_own_fields(b"X-Mimebase-Links: 1\r\n") == b""


# --- Which links are named -------------------------------------------------------------------

# (href, the URL Chromium's <a>.href gives under <base href="http://evil.example/dir/">,
#  whether the filter names it). The second column was checked with Chromium 156 (headless,
# reading every anchor's .href); mimebase's whatwg resolver must agree with it.
LINKS = [
    ("login", "http://evil.example/dir/login", True),
    ("/x", "http://evil.example/x", True),
    ("?q", "http://evil.example/dir/?q", True),
    ("#top", "http://evil.example/dir/#top", True),
    ("", "http://evil.example/dir/", True),
    ("//other.example/x", "http://other.example/x", True),
    ("http:x", "http://evil.example/dir/x", True),  # written alone: http://x/
    ("https:bank.example", "https://bank.example/", False),
    ("https://bank.example/help", "https://bank.example/help", False),
    ("HTTPS://Bank.Example:443", "https://bank.example/", False),
    ("https://www.example.com", "https://www.example.com/", False),
    ("http://example.org/a b", "http://example.org/a%20b", False),
    ("mailto:x@example.org?subject=a b", "mailto:x@example.org?subject=a%20b", False),
    ("http://0x7f.1/", "http://127.0.0.1/", False),
    ("http:/\\other.example/x", "http://other.example/x", False),
    ("http://evil.example:8080/", "http://evil.example:8080/", False),
    ("http://user@bank.example/", "http://user@bank.example/", False),
    ("javascript:void(0)", "javascript:void(0)", False),
]


@pytest.mark.parametrize("href, chromium, named", LINKS, ids=[repr(link[0]) for link in LINKS])
def test_named_only_when_the_base_or_another_host_decides(href, chromium, named):
    message = html_message(b'<base href="http://evil.example/dir/"><a href="' + href.encode() + b'">x</a>')
    report = mimebase.analyze(message, resolver="whatwg")
    [url] = [u for u in report.urls if u.source == "html:a@href"]
    assert url.resolved == chromium
    assert smtp_filter.leads_elsewhere(url) is named


def test_no_field_when_every_link_is_absolute_and_keeps_its_host(servers):
    """The normalizations of the URL Standard's parser alone (a trailing slash, case, a default
    port, spaces encoded) add nothing: the message is relayed as received."""
    port, hop = servers
    anchors = b"".join(b'<a href="' + href.encode() + b'">x</a>' for href, _, named in LINKS if not named)
    original = html_message(anchors)
    assert send(port, original) == {}
    assert hop.envelopes[0].original_content == original


# --- Line lengths ----------------------------------------------------------------------------


def header_lines(fields):
    assert fields.endswith(b"\r\n")
    return fields[:-2].split(b"\r\n")


@pytest.mark.parametrize("chars", ["é", "€", "😀", "a\x01", "%"])
def test_every_added_line_holds_at_most_998_bytes(chars):
    """A 400-character href of 2-, 3- and 4-byte UTF-8 characters (and of controls and
    percent signs, 3 bytes each once encoded), under a base, and a scheme-relative one to another host: every
    line of the added fields holds at most 998 bytes (RFC 5322 section 2.1.1), counted in
    bytes. Python's email package (the oracle) reads the fields back, and each value is a prefix
    of the URL, percent-decoded, then "..."."""
    long = chars * (400 // len(chars))
    body = (
        b'<base href="https://evil.example/"><a href="' + long.encode() + b'">x</a>'
        b'<a href="//other.example/' + long.encode() + b'">y</a>'
    )
    message = html_message(body)
    added = smtp_filter.added_fields(mimebase.analyze(message, resolver="whatwg"))
    lines = header_lines(added)
    assert max(len(line) for line in lines) <= 998
    assert all(line.isascii() for line in lines)
    assert max(len(line) for line in lines) > 78  # long values cannot fold further; they are cut
    parsed = email.message_from_bytes(added + b"\r\n", policy=email.policy.default)
    values = [str(v) for v in parsed.get_all("X-Mimebase-Link")]
    assert len(values) == 2
    for value, written in zip(values, [long, "//other.example/" + long]):
        shown = value.split('written="', 1)[1].split('"', 1)[0]
        assert shown.endswith("...")
        assert written.startswith(unquote(shown[:-3], errors="strict"))
        assert len(shown) <= smtp_filter.MAX_VALUE_BYTES + 3


def test_header_values_stay_ascii_and_short():
    long = "https://example.org/" + "é" * 1000
    text = smtp_filter.header_text(long)
    assert text.isascii()
    assert len(text.encode()) <= smtp_filter.MAX_VALUE_BYTES + len("...")
    assert text == "https://example.org/" + "%C3%A9" * 46 + "..."  # 20 + 46 x 6 = 296 <= 300 < 302
    assert smtp_filter.header_text('a"b\\c%') == "a%22b%5Cc%25"
    assert smtp_filter.header_text("x" * 300) == "x" * 300
    assert smtp_filter.header_text("x" * 301) == "x" * 300 + "..."


def test_an_incomplete_analysis_is_said_in_a_field():
    """Past the URL limit a link may be missing from the fields: the filter says so."""
    links = b"".join(b'<a href="https://x.example/%d">x</a>' % i for i in range(3))
    message = b"Content-Type: text/html\r\n\r\n" + links + b"\r\n"
    report = mimebase.analyze(message, resolver="whatwg", max_urls=1)
    assert not report.complete
    assert smtp_filter.added_fields(report) == b"X-Mimebase-Incomplete: limits=url_limit\r\n"
    assert smtp_filter.added_fields(mimebase.analyze(message, resolver="whatwg")) == b""
