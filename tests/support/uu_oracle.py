#!/usr/bin/python3
"""Oracles for the uuencode transfer encodings: Python's reference encoder, and GMime's decoder.

Usage: uu_oracle.py [--gmime] < PAYLOADS

Reads one JSON string per line (a payload, text), and writes one JSON object per line:

    {"clean": BODY, "stripped": BODY, "gmime": {"clean": TEXT, "stripped": TEXT} or null}

`clean` is the payload as a uuencoded file (`begin 644 page.html`, the data lines that
`binascii.b2a_uu` writes for each 45 bytes, with `` ` `` for zero, a zero-length line, `end`);
`stripped` is the same encoded with spaces for zero, each line's trailing spaces then removed,
as a gateway that strips trailing white space leaves it. With `--gmime`, each body is also
decoded by GMime 3 (`g_mime_part_get_content` of a `text/html` part with
`Content-Transfer-Encoding: x-uuencode`), through its Python bindings (Debian:
`gir1.2-gmime-3.0` and `python3-gi`); the test asks for it only where GMime can be imported.
"""

import binascii
import json
import sys


def encode(payload, backtick):
    lines = [binascii.b2a_uu(payload[i : i + 45], backtick=backtick) for i in range(0, len(payload), 45)]
    zero = b"`\n" if backtick else b" \n"
    return b"begin 644 page.html\n" + b"".join(lines) + zero + b"end\n"


def gmime_decoder():
    import gi

    gi.require_version("GMime", "3.0")
    from gi.repository import GMime

    GMime.init()

    def decode(body):
        message = (
            b"Content-Type: text/html\nContent-Transfer-Encoding: x-uuencode\n\n" + body
        )
        parser = GMime.Parser.new_with_stream(GMime.StreamMem.new_with_buffer(message))
        part = parser.construct_message(None).get_mime_part()
        stream = GMime.StreamMem.new()
        part.get_content().write_to_stream(stream)
        stream.flush()
        return bytes(stream.get_byte_array()).decode("utf-8", "replace")

    return decode


def main(use_gmime):
    decode = gmime_decoder() if use_gmime else None
    for line in sys.stdin:
        payload = json.loads(line).encode("utf-8")
        clean = encode(payload, True)
        stripped = b"\n".join(l.rstrip(b" ") for l in encode(payload, False).split(b"\n"))
        bodies = {"clean": clean, "stripped": stripped}
        gmime = {name: decode(body) for name, body in bodies.items()} if decode else None
        out = {name: body.decode("ascii") for name, body in bodies.items()}
        out["gmime"] = gmime
        print(json.dumps(out))


if __name__ == "__main__":
    main("--gmime" in sys.argv[1:])
