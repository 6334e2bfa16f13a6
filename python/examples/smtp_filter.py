"""An SMTP content filter that names the links which lead to another host than the one written.

It receives a message over SMTP (aiosmtpd), analyzes it with ``mimebase.analyze``, adds
header fields naming every URL of its HTML bodies that a reader's mail client opens on another
host than the written form names, and relays the message on to the next SMTP server. The
message is not otherwise changed: ``X-Mimebase-*`` fields that arrive with it are removed (in
any letter case, with their continuation lines), the new fields go on top, as trace fields do,
and every other byte received follows them.

The case it exists for is the "baseStriker" split: ``<base href="http://evil.example/">`` in
the head and ``<a href="login">`` in the body. A scanner that looks at ``href`` values alone
sees the harmless ``login``; the reader's client opens ``http://evil.example/login``. The
filter reports it as::

    X-Mimebase-Links: 1 of 3 URLs resolved elsewhere than written
    X-Mimebase-Link: part=2; source=html:a@href; base-source=html:base;
     written="login"; leads-to="http://evil.example/login"

Which links are named
---------------------

URLs are resolved with the URL Standard (``resolver="whatwg"``), as browsers and mail clients
resolve them. A URL found in HTML is named when

- its written form names no host of its own: the result depends on the base (a relative
  reference such as ``login``, ``/x``, ``?q`` or ``#top``, a scheme-relative one such as
  ``//host/x``), so a ``<base href>``, a ``Content-Location`` or an inherited base decides where
  it leads; or
- the scheme, host or port the reader reaches is not the one the written form names when it is
  parsed alone, as an absolute URL (a same-scheme reference such as ``http:x`` is parsed against
  an ``http:`` base as a relative one, and leads to the base's host, not to ``http://x/``).

Plain-text links are not read (``text_links=False``): no base decides them, and a client
makes each the link it reads. SVG documents are, like HTML ones (``svg:`` sources): an XHTML
``<base href>`` inside one decides its links too.

What the URL Standard's parser does to an absolute URL without changing its host is not
"elsewhere": ``https://www.example.com`` becoming ``https://www.example.com/``, a host in
capitals lowercased, a default port dropped, spaces percent-encoded. A URL that could not be
resolved (no base at all, or a parse error) is not named.

The fields
----------

When a limit cut the analysis (``Report.complete`` is False: a message nested deeper, or holding
more parts or URLs, than ``mimebase`` reads), the filter adds ``X-Mimebase-Incomplete:
limits=entity_limit`` (the kinds of the limits reached): a link may then be missing from the
other fields, and a rule after the filter should treat the message as unchecked (quarantine it,
say), not as clean. The filter still relays it: refusing it would only make the sender retry a
message that will reach the same limit.

Every line of the added fields holds at most 998 bytes, the limit of RFC 5322 section 2.1.1,
and the fields are folded (section 2.2.3) before a parameter that would take the line past 78
bytes. There are at most ``MAX_LINK_FIELDS`` ``X-Mimebase-Link`` fields; each value is
printable ASCII, with ``"``, ``\\``, ``%``, controls and every character outside ASCII
percent-encoded as UTF-8, and cut after at most ``MAX_VALUE_BYTES`` bytes of that encoding
(never inside a ``%XX`` triplet), ``...`` marking the cut.

Recipients: each RCPT is proxied to the next hop before it is answered
----------------------------------------------------------------------

The filter opens its SMTP session with the next hop when the client sends MAIL, and passes
the client's MAIL, each RCPT and the (filtered) DATA on to it, answering each command with the
next hop's own reply: the model of Postfix's before-queue proxy (``smtpd_proxy_filter``). A
recipient the next hop refuses is refused to the client with the next hop's code and text, so
the sending server bounces it (5xx) or retries it (4xx), and the client's final 250 means the
next hop has taken the message for exactly the recipients it accepted. No acknowledged copy is
lost.

The alternative, accepting every RCPT and answering DATA with a 4xx when the next hop refuses
some recipients, also loses nothing, but it hurts the recipients who were accepted: the sending
server retries the whole message, so each retry either delivers their copy again or (when the
filter resets the next hop's transaction before DATA) delays it; and a recipient that is refused
for good keeps the message in the sender's queue until it expires (five days by default in
Postfix), instead of being bounced at once.

When the next hop cannot be reached, drops or closes the session (a 421 reply becomes 451), or
cannot take a parameter of the client's MAIL command, the filter answers with a temporary error
(4xx), so that the sending server keeps the message and tries again; a fault of the filter
itself at DATA is a 451 too. Each recipient's 250 and the final 250 are the next hop's, passed
on only when it gave them.

SMTP extensions
---------------

The filter offers ``8BITMIME`` (RFC 6152), ``SMTPUTF8`` (RFC 6531) and ``SIZE`` (RFC 1870), and
passes the client's ``BODY=``, ``SMTPUTF8`` and ``SIZE=`` MAIL parameters on to the next hop.
``SIZE=`` is left out when the next hop does not offer ``SIZE`` (it is only a hint), and
``BODY=7BIT`` when it does not offer ``8BITMIME``; ``BODY=8BITMIME`` or ``SMTPUTF8`` to a next
hop that does not offer it is refused with ``451 4.3.5``: the filter does not convert the
message, and a next hop without them is a configuration to fix, not a reason to bounce mail.

Running it after Postfix's queue
--------------------------------

Postfix hands each message to the filter (``content_filter``), and the filter hands it back to
a second Postfix SMTP server on another loopback port, which delivers it::

    python examples/smtp_filter.py --listen 127.0.0.1:10025 --relay 127.0.0.1:10026

``master.cf`` (Postfix's FILTER_README, "advanced content filter")::

    smtp      inet  n       -       y       -       -       smtpd
      -o content_filter=mimebase:[127.0.0.1]:10025
    mimebase  unix  -       -       n       -       10      smtp
      -o smtp_send_xforward_command=no
      -o disable_mime_output_conversion=yes
    127.0.0.1:10026 inet n  -       n       -       -       smtpd
      -o content_filter=
      -o receive_override_options=no_header_body_checks,no_milters
      -o smtpd_client_restrictions=
      -o smtpd_relay_restrictions=permit_mynetworks,reject
      -o mynetworks=127.0.0.0/8

A recipient the second server refuses is refused by the filter to Postfix's ``mimebase``
client, which bounces it to the sender (or defers it, for a 4xx), and delivers the message to
the others.
"""

import argparse
import asyncio
import re
import smtplib

try:
    from aiosmtpd.smtp import SMTP
except ModuleNotFoundError as missing:  # the module installed without the `smtp` extra
    raise SystemExit(
        f"smtp_filter.py: {missing.name} is not installed; install it with the module: "
        "pip install './python[smtp]'"
    ) from None

import mimebase

MAX_LINK_FIELDS = 20
MAX_VALUE_BYTES = 300
FOLD_AT = 78

FIELD_PREFIX = b"x-mimebase-"

# The diagnostic kinds that say a limit cut the analysis (``mimebase.Report.complete`` is then
# False): something the message holds was not read, so a link may be missing from the fields.
LIMIT_KINDS = frozenset(
    {
        "header_too_large",
        "depth_limit",
        "entity_limit",
        "decoded_size_limit",
        "encoded_level_limit",
        "html_error",
        "noscript_limit",
        "url_limit",
    }
)

# Two bases that no URL of a message can reach, with opaque paths: a reference the URL
# Standard's parser resolves to the same URL against both names its host by itself; a relative
# one fails against both, a fragment-only one differs.
PROBE_BASES = ("x-mimebase-probe-a:", "x-mimebase-probe-b:")


def written_origin(reference):
    """``(scheme, host)`` that ``reference`` names when parsed alone by the URL Standard, the
    host with its port, ``None`` for a URL without a host (``mailto:x``); or ``None`` as a whole
    when the written form needs a base to lead anywhere (relative, scheme-relative,
    fragment-only)."""
    try:
        alone = {mimebase.resolve(base, reference, resolver="whatwg") for base in PROBE_BASES}
    except ValueError:
        return None
    if len(alone) != 1:
        return None
    return origin(alone.pop())


def origin(url):
    """``(scheme, host)`` of a URL as the URL Standard serializes it (an absolute URL: the
    scheme in lowercase, the host already normalized); the host keeps its ``:port``, and is
    ``None`` when the URL has no authority."""
    scheme, _, rest = url.partition(":")
    if not rest.startswith("//"):
        return scheme, None
    authority = re.split(r"[/?#]", rest[2:], maxsplit=1)[0]
    return scheme, authority.rpartition("@")[2]


def leads_elsewhere(url):
    """Whether an HTML or SVG URL of a report leads to another scheme or host than it names as
    written, or names none and takes them from the base."""
    if not url.source.startswith(("html:", "svg:")) or url.resolved is None:
        return False
    written = written_origin(url.reference)
    return written is None or written != origin(url.resolved)


def links_elsewhere(report):
    """The HTML and SVG URLs of ``report`` that lead elsewhere than written (``leads_elsewhere``)."""
    return [url for url in report.urls if leads_elsewhere(url)]


def header_text(text, limit=MAX_VALUE_BYTES):
    """``text`` safe inside a quoted header value: printable ASCII, with ``"``, ``\\``, ``%``,
    controls and everything outside ASCII percent-encoded as UTF-8; cut after at most ``limit``
    bytes of that encoding (never inside a ``%XX`` triplet), then ``...``."""
    pieces = []
    size = 0
    for c in text:
        if " " <= c <= "~" and c not in '"\\%':
            piece = c
        else:
            piece = "".join(f"%{b:02X}" for b in c.encode("utf-8", "surrogatepass"))
        if size + len(piece) > limit:
            return "".join(pieces) + "..."
        pieces.append(piece)
        size += len(piece)
    return "".join(pieces)


def folded(name, parameters):
    """A header field ``name: p1; p2; ...`` folded (RFC 5322 section 2.2.3) before a parameter
    that would take its line past ``FOLD_AT`` bytes; lines joined with ``\\n``."""
    lines = [f"{name}:"]
    for i, parameter in enumerate(parameters):
        piece = f" {parameter}" + (";" if i < len(parameters) - 1 else "")
        if len(lines[-1]) + len(piece) > FOLD_AT and lines[-1] != f"{name}:":
            lines.append(piece)
        else:
            lines[-1] += piece
    return "\n".join(lines)


def added_fields(report, newline=b"\r\n"):
    """The header fields the filter adds for ``report``, as bytes, each line ending in
    ``newline`` and at most 998 bytes long without it; empty when the analysis is complete and
    every link leads where it is written."""
    fields = []
    if not report.complete:
        limits = sorted({d.kind for d in report.diagnostics if d.kind in LIMIT_KINDS})
        fields.append(folded("X-Mimebase-Incomplete", [f"limits={header_text(','.join(limits))}"]))
    links = links_elsewhere(report)
    if links:
        count = len(report.urls)
        fields.append(
            f"X-Mimebase-Links: {len(links)} of {count} URL{'s' if count != 1 else ''} "
            "resolved elsewhere than written"
        )
    for url in links[:MAX_LINK_FIELDS]:
        fields.append(
            folded(
                "X-Mimebase-Link",
                [
                    f"part={header_text(url.part)}",
                    f"source={header_text(url.source)}",
                    f"base-source={header_text(url.base_source)}",
                    f'written="{header_text(url.reference)}"',
                    f'leads-to="{header_text(url.resolved)}"',
                ],
            )
        )
    if not fields:
        return b""
    text = "\n".join(fields) + "\n"
    return text.encode("ascii").replace(b"\n", newline)


def without_own_fields(message):
    """``message`` without the ``X-Mimebase-*`` fields of its header (any letter case, a field
    name followed by optional white space and ``:``, RFC 5322 section 4.5), each with its
    continuation lines; every other byte kept. Only the message's own header is read: the
    header ends at the first empty line (RFC 5322 section 2.1)."""
    kept = []
    dropping = False
    lines = message.splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line in (b"\r\n", b"\n", b"\r"):
            kept.extend(lines[i:])
            break
        if line[:1] in (b" ", b"\t"):
            if not dropping:
                kept.append(line)
            continue
        name, colon, _ = line.partition(b":")
        dropping = bool(colon) and name.rstrip(b" \t").lower().startswith(FIELD_PREFIX)
        if not dropping:
            kept.append(line)
    return b"".join(kept)


def filtered(message):
    """The message without the ``X-Mimebase-*`` fields it came with, and with the filter's
    fields on top."""
    message = without_own_fields(message)
    report = mimebase.analyze(message, resolver="whatwg", text_links=False)
    return added_fields(report, line_ending(message)) + message


def line_ending(message):
    """The message's line ending, from its first line: LF, or CRLF (SMTP's) by default."""
    first = message.find(b"\n")
    return b"\n" if first == 0 or (first > 0 and message[first - 1 : first] != b"\r") else b"\r\n"


def reply(code, text):
    """An SMTP reply line: ``code`` and ``text`` (``bytes`` or ``str``, possibly several lines
    of a multi-line reply) on one line of printable ASCII."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    text = " ".join(text.split())
    text = "".join(c if " " <= c <= "~" else "?" for c in text)
    if not 200 <= code <= 599:
        return f"451 4.4.0 the next hop answered an unreadable reply: {code} {text}"
    if code == 421:
        # The next hop closes its session; this one stays open, and what follows gets 451.
        return f"451 4.4.2 the next hop closed the session: {text}".rstrip()
    return f"{code} {text}".rstrip()


class NextHop:
    """One SMTP session with the next hop, for one mail transaction; blocking (``smtplib``),
    each call made in a worker thread."""

    def __init__(self, host, port, timeout, local_hostname):
        self.smtp = smtplib.SMTP(host, port, timeout=timeout, local_hostname=local_hostname)
        self.smtp.ehlo_or_helo_if_needed()

    def mail(self, sender, mail_options):
        """Sends MAIL with the client's parameters that the next hop can take; ``(code, text)``
        of its reply, or a 451 of our own when it lacks an extension the message needs."""
        options = []
        for option in mail_options:
            keyword, _, value = option.partition("=")
            keyword = keyword.upper()
            if keyword == "SIZE" and not self.smtp.has_extn("size"):
                continue
            if keyword == "BODY" and not self.smtp.has_extn("8bitmime"):
                if value.upper() == "7BIT":
                    continue
                return 451, "4.3.5 the next hop does not offer 8BITMIME"
            if keyword == "SMTPUTF8" and not self.smtp.has_extn("smtputf8"):
                return 451, "4.3.5 the next hop does not offer SMTPUTF8"
            options.append(option)
        return self.smtp.mail(sender, options)

    def close(self):
        """QUIT, or only close the socket when the session is already broken."""
        try:
            self.smtp.quit()
        except (OSError, smtplib.SMTPException):
            self.smtp.close()


class FilterSMTP(SMTP):
    """aiosmtpd's server, holding the session with the next hop of the transaction under way
    (``next_hop``), which it closes when the client goes away."""

    next_hop = None

    def connection_lost(self, error):
        super().connection_lost(error)
        if self.next_hop is not None:
            self.next_hop.smtp.close()
            self.next_hop = None


class LinkFilter:
    """The aiosmtpd handler: MAIL, each RCPT and the filtered DATA passed on to
    ``relay_host:relay_port``, each answered with the next hop's reply."""

    def __init__(self, relay_host, relay_port, timeout=60.0, hostname="mimebase-filter"):
        self.relay_host = relay_host
        self.relay_port = relay_port
        self.timeout = timeout
        self.hostname = hostname

    def unreachable(self, error):
        return reply(451, f"4.4.0 relay to {self.relay_host}:{self.relay_port} failed: {error}")

    async def end_transaction(self, server):
        hop, server.next_hop = server.next_hop, None
        if hop is not None:
            await asyncio.to_thread(hop.close)

    async def handle_MAIL(self, server, session, envelope, address, mail_options):
        await self.end_transaction(server)
        try:
            hop = await asyncio.to_thread(NextHop, self.relay_host, self.relay_port, self.timeout, self.hostname)
        except (OSError, smtplib.SMTPException) as error:
            return self.unreachable(error)
        try:
            code, text = await asyncio.to_thread(hop.mail, address, mail_options)
        except (OSError, smtplib.SMTPException) as error:
            code, text = 451, f"4.4.0 relay to {self.relay_host}:{self.relay_port} failed: {error}"
        except UnicodeError:
            code, text = 553, "5.6.7 a non-ASCII address needs SMTPUTF8"
        if 200 <= code < 300:
            server.next_hop = hop
            envelope.mail_from = address
            envelope.mail_options.extend(mail_options)
        else:
            await asyncio.to_thread(hop.close)
        return reply(code, text)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        hop = server.next_hop
        if hop is None:
            return "503 5.5.1 need MAIL command"
        try:
            code, text = await asyncio.to_thread(hop.smtp.rcpt, address, rcpt_options)
        except (OSError, smtplib.SMTPException) as error:
            return self.unreachable(error)
        except UnicodeError:
            return "553 5.6.7 a non-ASCII address needs SMTPUTF8"
        if 200 <= code < 300:
            envelope.rcpt_tos.append(address)
            envelope.rcpt_options.extend(rcpt_options)
        return reply(code, text)

    async def handle_DATA(self, server, session, envelope):
        hop, server.next_hop = server.next_hop, None
        if hop is None:
            return "503 5.5.1 need MAIL command"
        try:
            # The engine releases the GIL, so analyzing in a worker thread leaves the event loop free.
            message = await asyncio.to_thread(filtered, envelope.original_content)
            code, text = await asyncio.to_thread(hop.smtp.data, message)
        except smtplib.SMTPDataError as refused:
            # The next hop refused the DATA command itself (not 354).
            code, text = refused.smtp_code, refused.smtp_error
        except (OSError, smtplib.SMTPException) as error:
            return self.unreachable(error)
        except Exception as error:
            # A fault of the filter itself: the message stays with the sender, and the next
            # hop's transaction is abandoned with the session.
            return reply(451, f"4.3.0 filter error: {type(error).__name__}")
        finally:
            await asyncio.to_thread(hop.close)
        return reply(code, text)

    async def handle_RSET(self, server, session, envelope):
        await self.end_transaction(server)
        return "250 2.0.0 OK"


async def serve(listen_host, listen_port, relay_host, relay_port, timeout=60.0):
    """Starts the filter on ``listen_host:listen_port`` (0: a free port) and returns the
    ``asyncio`` server; ``server.sockets[0].getsockname()`` says where it listens."""
    handler = LinkFilter(relay_host, relay_port, timeout=timeout)
    loop = asyncio.get_running_loop()
    return await loop.create_server(
        lambda: FilterSMTP(handler, hostname="mimebase-filter", enable_SMTPUTF8=True),
        host=listen_host,
        port=listen_port,
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
