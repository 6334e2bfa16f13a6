"""An SMTP content filter that names the links whose written form differs from where they lead.

It receives a message over SMTP (aiosmtpd), analyzes it with ``mimebase.analyze``, adds
header fields naming every URL of its HTML bodies that a reader's mail client opens somewhere
else than it is written, and relays the message on to the next SMTP server. Nothing of the
message is changed: the new fields go on top, as trace fields do, and every byte received
follows them.

The case it exists for is the "baseStriker" split: ``<base href="http://evil.example/">`` in
the head and ``<a href="login">`` in the body. A scanner that looks at ``href`` values alone
sees the harmless ``login``; the reader's client opens ``http://evil.example/login``. The
filter reports it as::

    X-Mimebase-Links: 1 of 2 URLs resolved elsewhere than written
    X-Mimebase-Link: part=2; source=html:a@href; base-source=html:base;
     written="login"; leads-to="http://evil.example/login"

URLs are resolved with the URL Standard (``resolver="whatwg"``), as browsers and mail clients
resolve them. Every URL found in HTML whose resolved form is not its written form is named: a
relative reference, and also a scheme-relative (``//host/x``) or same-scheme (``http:x``)
one. Header fields stay within the 998-byte line limit of RFC 5322 section 2.1.1: at most
``MAX_LINK_FIELDS`` fields, each URL cut at ``MAX_URL_CHARS`` characters, characters outside
printable ASCII percent-encoded as UTF-8.

Run it in front of a mail server (Postfix ``content_filter``, or any MTA that hands mail to
an SMTP hop)::

    python examples/smtp_filter.py --listen 127.0.0.1:10025 --relay 127.0.0.1:10026

A message the relay refuses or cannot take is refused with a temporary error (451), so that
the sending server keeps it and tries again.
"""

import argparse
import asyncio
import smtplib

from aiosmtpd.smtp import SMTP

import mimebase

MAX_LINK_FIELDS = 20
MAX_URL_CHARS = 300


def links_elsewhere(report):
    """The HTML URLs of ``report`` that resolve to something else than their written form."""
    return [
        url
        for url in report.urls
        if url.source.startswith("html:") and url.resolved is not None and url.resolved != url.reference
    ]


def header_text(text, limit=MAX_URL_CHARS):
    """``text`` safe inside a quoted header value: at most ``limit`` characters (then ``...``),
    printable ASCII, with ``"``, ``\\`` and everything else percent-encoded as UTF-8."""
    cut = text[:limit]
    safe = "".join(
        c if " " <= c <= "~" and c not in '"\\%' else "".join(f"%{b:02X}" for b in c.encode("utf-8", "surrogatepass"))
        for c in cut
    )
    return safe + ("..." if len(text) > limit else "")


def added_fields(report, newline=b"\r\n"):
    """The header fields the filter adds for ``report``, as bytes, each line ending in
    ``newline``; empty when every link leads where it is written."""
    links = links_elsewhere(report)
    if not links:
        return b""
    lines = [f"X-Mimebase-Links: {len(links)} of {len(report.urls)} URL{'s' if len(report.urls) != 1 else ''}"
             " resolved elsewhere than written"]
    for url in links[:MAX_LINK_FIELDS]:
        lines.append(
            f"X-Mimebase-Link: part={url.part}; source={url.source}; base-source={url.base_source};"
            f'\n written="{header_text(url.reference)}"; leads-to="{header_text(url.resolved)}"'
        )
    text = "\n".join(lines) + "\n"
    return text.encode("ascii").replace(b"\n", newline)


def filtered(message):
    """The message with the filter's fields on top (``message`` itself when there are none)."""
    report = mimebase.analyze(message, resolver="whatwg")
    return added_fields(report, line_ending(message)) + message


def line_ending(message):
    """The message's line ending, from its first line: LF, or CRLF (SMTP's) by default."""
    first = message.find(b"\n")
    return b"\n" if first == 0 or (first > 0 and message[first - 1 : first] != b"\r") else b"\r\n"


class LinkFilter:
    """The aiosmtpd handler: filter, then relay to ``relay_host:relay_port``."""

    def __init__(self, relay_host, relay_port, timeout=60.0):
        self.relay_host = relay_host
        self.relay_port = relay_port
        self.timeout = timeout

    async def handle_DATA(self, server, session, envelope):
        # The engine releases the GIL, so analyzing in a worker thread leaves the event loop free.
        message = await asyncio.to_thread(filtered, envelope.original_content)
        try:
            await asyncio.to_thread(self.relay, envelope.mail_from, envelope.rcpt_tos, message)
        except (OSError, smtplib.SMTPException) as error:
            return f"451 4.4.0 relay to {self.relay_host}:{self.relay_port} failed: {error}"
        return "250 2.0.0 OK: filtered and relayed"

    def relay(self, mail_from, rcpt_tos, message):
        with smtplib.SMTP(self.relay_host, self.relay_port, timeout=self.timeout) as relay:
            relay.sendmail(mail_from, rcpt_tos, message)


async def serve(listen_host, listen_port, relay_host, relay_port):
    """Starts the filter on ``listen_host:listen_port`` (0: a free port) and returns the
    ``asyncio`` server; ``server.sockets[0].getsockname()`` says where it listens."""
    handler = LinkFilter(relay_host, relay_port)
    loop = asyncio.get_running_loop()
    return await loop.create_server(
        lambda: SMTP(handler, hostname="mimebase-filter"), host=listen_host, port=listen_port
    )


def host_port(text):
    host, _, port = text.rpartition(":")
    return host, int(port)


async def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--listen", type=host_port, default=("127.0.0.1", 10025), metavar="HOST:PORT")
    parser.add_argument("--relay", type=host_port, required=True, metavar="HOST:PORT")
    args = parser.parse_args()
    server = await serve(*args.listen, *args.relay)
    print(f"mimebase filter on {args.listen[0]}:{args.listen[1]}, relaying to {args.relay[0]}:{args.relay[1]}")
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
