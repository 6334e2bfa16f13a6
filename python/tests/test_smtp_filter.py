"""The SMTP filter of examples/smtp_filter.py end to end, on loopback addresses and ephemeral
ports: smtplib sends to the filter, the filter relays to a second aiosmtpd server, and the test
reads what arrived there. Every network wait is bounded by a timeout."""

import asyncio
import importlib.util
import smtplib
import threading

import pytest
from aiosmtpd.smtp import SMTP

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


class Sink:
    """The next hop: keeps every envelope it receives."""

    def __init__(self):
        self.envelopes = []
        self.received = threading.Event()

    async def handle_DATA(self, server, session, envelope):
        self.envelopes.append(envelope)
        self.received.set()
        return "250 OK"


@pytest.fixture
def servers():
    """(filter port, sink) with both servers on 127.0.0.1, on an event loop in a thread."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    sink = Sink()

    async def start():
        relay = await loop.create_server(lambda: SMTP(sink, hostname="sink"), "127.0.0.1", 0)
        relay_port = relay.sockets[0].getsockname()[1]
        filter_server = await smtp_filter.serve("127.0.0.1", 0, "127.0.0.1", relay_port)
        return relay, filter_server

    relay, filter_server = asyncio.run_coroutine_threadsafe(start(), loop).result(TIMEOUT)
    yield filter_server.sockets[0].getsockname()[1], sink

    async def stop():
        for server in (filter_server, relay):
            server.close()
            await server.wait_closed()

    asyncio.run_coroutine_threadsafe(stop(), loop).result(TIMEOUT)
    loop.call_soon_threadsafe(loop.stop)
    thread.join(TIMEOUT)
    assert not thread.is_alive()


def send(port, message):
    with smtplib.SMTP("127.0.0.1", port, timeout=TIMEOUT) as client:
        refused = client.sendmail("security@bank.example", ["customer@example.org"], message)
    assert refused == {}


def received_fields(received, original):
    """The fields the filter added: what precedes the original message, which must follow
    them byte for byte."""
    assert received.endswith(original)
    return received[: len(received) - len(original)].decode("ascii")


def test_basestriker_link_is_named_and_the_message_arrives_intact(servers, capsys):
    port, sink = servers
    send(port, BASESTRIKER)
    assert sink.received.wait(TIMEOUT)
    [envelope] = sink.envelopes
    assert envelope.mail_from == "security@bank.example"
    assert envelope.rcpt_tos == ["customer@example.org"]
    added = received_fields(envelope.original_content, BASESTRIKER)
    assert added == (
        "X-Mimebase-Links: 1 of 3 URLs resolved elsewhere than written\r\n"
        "X-Mimebase-Link: part=2; source=html:a@href; base-source=html:base;\r\n"
        ' written="login"; leads-to="http://evil.example/login"\r\n'
    )
    with capsys.disabled():
        print("\nfields added by the filter:\n" + added, end="")


def test_sample_with_relative_links(servers):
    port, sink = servers
    original = (SAMPLES / "basestriker.eml").read_bytes().replace(b"\n", b"\r\n")
    send(port, original)
    assert sink.received.wait(TIMEOUT)
    added = received_fields(sink.envelopes[0].original_content, original)
    assert "X-Mimebase-Links: 2 of 3 URLs" in added
    assert 'written="verify/login.html"; leads-to="http://phish.example.net/bank.example.com/verify/login.html"' in added
    assert 'written="/logo.gif"; leads-to="http://phish.example.net/logo.gif"' in added


def test_message_without_such_links_is_relayed_unchanged(servers):
    port, sink = servers
    original = (
        b"From: a@example.org\r\nTo: b@example.org\r\nSubject: plain\r\nContent-Type: text/html\r\n\r\n"
        b'<a href="https://example.org/x">x</a>\r\n'
    )
    send(port, original)
    assert sink.received.wait(TIMEOUT)
    assert sink.envelopes[0].original_content == original


def test_relay_failure_is_a_temporary_error(unused_port):
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, daemon=True)
    thread.start()
    try:
        server = asyncio.run_coroutine_threadsafe(
            smtp_filter.serve("127.0.0.1", 0, "127.0.0.1", unused_port), loop
        ).result(TIMEOUT)
        port = server.sockets[0].getsockname()[1]
        with smtplib.SMTP("127.0.0.1", port, timeout=TIMEOUT) as client:
            with pytest.raises(smtplib.SMTPDataError) as refused:
                client.sendmail("a@example.org", ["b@example.org"], BASESTRIKER)
        assert refused.value.smtp_code == 451
        server.close()
    finally:
        loop.call_soon_threadsafe(loop.stop)
        thread.join(TIMEOUT)


@pytest.fixture
def unused_port():
    """A loopback port with nothing listening (bound, then released)."""
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_header_values_stay_ascii_and_short():
    long = "https://example.org/" + "é" * 1000
    assert smtp_filter.header_text(long).isascii()
    assert len(smtp_filter.header_text(long)) < smtp_filter.MAX_URL_CHARS * 7
    assert smtp_filter.header_text('a"b\\c%') == "a%22b%5Cc%25"
