#!/usr/bin/env python3
"""Writes messages that carry the bombs and traps of the file formats, one per file, into a
directory: what tests/it/files/bombs.rs checks (each ends at a limit, in bounded memory) and
scripts/bench-bombs times.

Usage: bombs.py DIRECTORY

  pdf-deflate-bomb.eml    a PDF whose page content is 512 MiB of zeros, FlateDecode (~0.5 MB)
  zip-deflate-bomb.eml    a ZIP whose one member is 512 MiB of zeros, deflated
  zip-nested.eml          ZIPs nested six deep, eight copies at each level, 64 MiB of zeros at
                          the bottom (as 42.zip is made)
  pdf-reference-loop.eml  a PDF whose page tree, action chain and parents refer to each other in
                          loops
  pdf-nested-arrays.eml   a PDF whose catalog holds 100 000 arrays nested in one another
"""

import base64
import io
import os
import sys
import zipfile
import zlib

MIB = 1 << 20


def zeros_deflated(size, wbits=15):
    """`size` zero bytes, compressed (zlib when wbits is 15, raw deflate when -15)."""
    z = zlib.compressobj(9, zlib.DEFLATED, wbits)
    chunk = bytes(16 * MIB)
    out = [z.compress(chunk) for _ in range(size // len(chunk))]
    out.append(z.flush())
    return b"".join(out)


def pdf(objects, root=1):
    """A PDF of `objects` ({number: bytes of the object's body}) with a correct xref."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    for number in sorted(objects):
        offsets[number] = len(out)
        out += b"%d 0 obj\n" % number + objects[number] + b"\nendobj\n"
    xref = len(out)
    size = max(objects) + 1
    out += b"xref\n0 %d\n0000000000 65535 f \n" % size
    for number in range(1, size):
        if number in offsets:
            out += b"%010d 00000 n \n" % offsets[number]
        else:
            out += b"0000000000 65535 f \n"
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (size, root, xref)
    return bytes(out)


def stream(dictionary, data):
    return b"<< %s /Length %d >>\nstream\n" % (dictionary, len(data)) + data + b"\nendstream"


def zip_of(members, method=zipfile.ZIP_DEFLATED):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", method) as z:
        for name, data in members:
            z.writestr(zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0)), data, method)
    return out.getvalue()


def zip_bomb_member(name, size):
    """A ZIP of one member `name` of `size` zeros, deflated, written without holding the
    zeros in memory."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        info = zipfile.ZipInfo(name, date_time=(2024, 1, 1, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        with z.open(info, "w", force_zip64=True) as member:
            chunk = bytes(16 * MIB)
            for _ in range(size // len(chunk)):
                member.write(chunk)
    return out.getvalue()


def message(path, content_type, name, data):
    encoded = base64.encodebytes(data).decode()
    text = (
        "From: bombs@example.com\nSubject: %s\nContent-Type: multipart/mixed; boundary=b\n\n"
        "--b\nContent-Type: text/plain\n\nThe file is attached.\n"
        "--b\nContent-Type: %s; name=\"%s\"\nContent-Disposition: attachment; filename=\"%s\"\n"
        "Content-Transfer-Encoding: base64\n\n%s--b--\n" % (name, content_type, name, name, encoded)
    )
    with open(path, "w") as f:
        f.write(text)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    at = lambda name: os.path.join(out, name)

    content = zeros_deflated(512 * MIB)
    message(at("pdf-deflate-bomb.eml"), "application/pdf", "bomb.pdf", pdf({
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        3: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
           b"/Annots [<< /Subtype /Link /Rect [0 0 9 9] /A << /S /URI /URI (https://before.example/) >> >>] >>",
        4: stream(b"/Filter /FlateDecode", content),
    }))

    message(at("zip-deflate-bomb.eml"), "application/zip", "bomb.zip",
            zip_bomb_member("zeros.html", 512 * MIB))

    level = zip_bomb_member("zeros.html", 64 * MIB)
    for depth in range(6):
        level = zip_of([("level%d-%d.zip" % (depth, i), level) for i in range(8)])
    message(at("zip-nested.eml"), "application/zip", "nested.zip", level)

    message(at("pdf-reference-loop.eml"), "application/pdf", "loop.pdf", pdf({
        1: b"<< /Type /Catalog /Pages 2 0 R /OpenAction 5 0 R /AA << /WC 6 0 R >> >>",
        2: b"<< /Type /Pages /Kids [3 0 R 2 0 R 4 0 R] /Count 3 /Parent 4 0 R >>",
        3: b"<< /Type /Page /Parent 2 0 R /Annots 7 0 R >>",
        4: b"<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 /Parent 2 0 R >>",
        5: b"<< /S /URI /URI (https://loop-a.example/) /Next [6 0 R 5 0 R] >>",
        6: b"<< /S /URI /URI (https://loop-b.example/) /Next 5 0 R >>",
        7: b"[<< /Subtype /Link /A 5 0 R >> 7 0 R]",
    }))

    depth = 100_000
    message(at("pdf-nested-arrays.eml"), "application/pdf", "nested.pdf", pdf({
        1: b"<< /Type /Catalog /Pages 2 0 R /Deep " + b"[" * depth + b"]" * depth
           + b" /OpenAction << /S /URI /URI (https://after-the-arrays.example/) >> >>",
        2: b"<< /Type /Pages /Kids [] /Count 0 >>",
    }))


if __name__ == "__main__":
    main()
