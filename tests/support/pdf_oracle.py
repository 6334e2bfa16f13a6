#!/usr/bin/env python3
"""Writes the PDF room's oracle corpus: about twenty PDF files and expected.json.

Usage: pdf_oracle.py DIRECTORY

Each file is one shape the room must read (links in every place, string forms, object
streams, a broken cross-reference table, an incremental update, every revision of the
standard security handler). expected.json maps each file name to the /URI values of the URI
actions pypdf reads from it, in the order of the walk below, after decrypting with the
password in the file's name ("...__pw_PASSWORD.pdf"; no such part: the empty user password).
The room reads at least those (it reads more: Launch, GoToR and SubmitForm file
specifications, actions found only by searching every object), so an end-to-end test checks
that every expected URI is among the room's links for that file.

The files are written by hand (as bytes), by pypdf, and by qpdf (object streams,
encryption). Output is deterministic: qpdf runs with --static-id and --static-aes-iv, which
qpdf documents as for testing only; revisions 5 and 6 still draw random salts, so those two
files differ from run to run, but what they hold, and expected.json, do not.

Needs Python 3 with pypdf (and cryptography, for AES), and qpdf on PATH.
"""

import io
import json
import subprocess
import sys
import tempfile
import zlib
from pathlib import Path

from pypdf import PdfReader, PdfWriter
from pypdf.annotations import Link
from pypdf.generic import ArrayObject, DictionaryObject, IndirectObject, NameObject


def stream(dictionary: bytes, data: bytes, compress: bool = False) -> bytes:
    """A stream object's body."""
    if compress:
        data = zlib.compress(data, 9)
        dictionary += b" /Filter /FlateDecode"
    return b"<< " + dictionary + b" /Length %d >>\nstream\n" % len(data) + data + b"\nendstream"


def build(objects, trailer: bytes = b"", xref: bool = True) -> bytes:
    """A PDF file of (number, body) objects with a correct cross-reference table, or with
    none and a startxref that points nowhere (xref=False)."""
    out = bytearray(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    for number, body in objects:
        offsets[number] = len(out)
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    size = max(offsets) + 1
    start = len(out)
    if xref:
        out += b"xref\n0 1\n0000000000 65535 f \n"
        for number in sorted(offsets):
            out += b"%d 1\n%010d 00000 n \n" % (number, offsets[number])
    else:
        start = 999999
    out += b"trailer\n<< /Size %d /Root 1 0 R %s >>\nstartxref\n%d\n%%%%EOF\n" % (
        size,
        trailer,
        start,
    )
    return bytes(out)


def append_update(base: bytes, objects) -> bytes:
    """base with objects appended as an incremental update."""
    prev = int(base[base.rindex(b"startxref") + 9 :].split()[0])
    out = bytearray(base)
    offsets = {}
    for number, body in objects:
        offsets[number] = len(out)
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    start = len(out)
    out += b"xref\n"
    for number in sorted(offsets):
        out += b"%d 1\n%010d 00000 n \n" % (number, offsets[number])
    out += b"trailer\n<< /Size 64 /Root 1 0 R /Prev %d >>\nstartxref\n%d\n%%%%EOF\n" % (
        prev,
        start,
    )
    return bytes(out)


def one_page(catalog: bytes = b"", page: bytes = b"", text: bytes = b"Hello", extra=()) -> list:
    """A catalog (1), page tree (2), page (3), content (4), font (5), and extra objects."""
    content = b"BT /F1 12 Tf 72 712 Td (" + text + b") Tj ET"
    return [
        (1, b"<< /Type /Catalog /Pages 2 0 R " + catalog + b" >>"),
        (2, b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>"),
        (
            3,
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            b"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R " + page + b" >>",
        ),
        (4, stream(b"", content)),
        (5, b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"),
        *extra,
    ]


def link(number: int, action: bytes, extra: bytes = b""):
    """Annotation object `number` whose /A is `action`."""
    return (number, b"<< /Type /Annot /Subtype /Link /Rect [0 0 100 20] /A " + action + b" " + extra + b" >>")


def qpdf(data: bytes, *arguments: str) -> bytes:
    """data run through qpdf with arguments (exit code 3, warnings, is success)."""
    with tempfile.TemporaryDirectory() as directory:
        source = Path(directory, "in.pdf")
        target = Path(directory, "out.pdf")
        source.write_bytes(data)
        result = subprocess.run(
            ["qpdf", "--static-id", "--static-aes-iv", *arguments, str(source), str(target)],
            capture_output=True,
        )
        if result.returncode not in (0, 3):
            raise SystemExit(f"qpdf {arguments} failed: {result.stderr.decode()}")
        return target.read_bytes()


def encrypt(data: bytes, user: str, owner: str, *key: str, object_streams: bool = False) -> bytes:
    """data encrypted by qpdf."""
    arguments = ["--allow-weak-crypto"]
    if object_streams:
        arguments.append("--object-streams=generate")
    return qpdf(data, *arguments, "--encrypt", user, owner, *key, "--")


def pypdf_made() -> bytes:
    """A file written by pypdf, with a link annotation."""
    writer = PdfWriter()
    writer.add_blank_page(612, 792)
    writer.add_annotation(0, Link(rect=(50, 50, 200, 80), url="https://pypdf.example/made-by-pypdf"))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def files() -> dict:
    """The corpus: file name to bytes."""
    uri = lambda target: b"<< /S /URI /URI (" + target + b") >>"
    annotated = lambda action, *extra, **kw: build(
        one_page(page=b"/Annots [6 0 R]", extra=[link(6, action), *extra]), **kw
    )
    plain_for_crypt = annotated(uri(b"https://crypt.example/secret"))
    corpus = {
        "uri-inline.pdf": annotated(uri(b"https://example.com/inline")),
        "uri-indirect.pdf": annotated(b"7 0 R", (7, uri(b"https://example.com/indirect"))),
        "next-chain.pdf": annotated(
            b"<< /S /URI /URI (https://a.example/) /Next [7 0 R << /S /JavaScript /JS (1) "
            b"/Next << /S /URI /URI (https://c.example/) >> >>] >>",
            (7, b"<< /S /URI /URI (https://b.example/) /Next 7 0 R >>"),
        ),
        "open-action-and-aa.pdf": build(
            one_page(
                catalog=b"/OpenAction << /S /URI /URI (https://open.example/) >> "
                b"/AA << /WC << /S /URI /URI (https://will-close.example/) >> >>",
                page=b"/AA << /O << /S /URI /URI (https://page-open.example/) >> >>",
            )
        ),
        "annotation-aa.pdf": build(
            one_page(
                page=b"/Annots [6 0 R]",
                extra=[
                    (
                        6,
                        b"<< /Subtype /Widget /Rect [0 0 1 1] "
                        b"/AA << /E << /S /URI /URI (https://enter.example/) >> >> >>",
                    )
                ],
            )
        ),
        "launch-gotor-submit.pdf": annotated(
            b"<< /S /Launch /F (https://launch.example/x.exe) /Next [<< /S /GoToR /F << /FS /URL "
            b"/F (https://remote.example/doc.pdf) >> /D [0 /Fit] >> << /S /SubmitForm /F << /FS /URL "
            b"/F (https://submit.example/form) >> >> << /S /URI /URI (https://after.example/) >>] >>"
        ),
        "base-relative.pdf": build(
            one_page(
                catalog=b"/URI << /Base (http://base.example/dir/) >>",
                page=b"/Annots [6 0 R]",
                extra=[link(6, uri(b"page.html"))],
            )
        ),
        "literal-escapes.pdf": annotated(uri(b"https://example.com/p\\(1\\)\\\\x\\150\\\ny?a=\\(b\\)")),
        "hex-string.pdf": annotated(
            b"<< /S /URI /URI <68747470733a2f2f6865782E6578616D706C652F 7> >>"
        ),
        "utf16be.pdf": annotated(
            b"<< /S /URI /URI <FEFF0068007400740070003A002F002F00E9002E006500780061006D0070006C0065002F> >>"
        ),
        "pdfdoc-encoding.pdf": annotated(uri(b"http://x.example/\\200\\240\\351")),
        "outline.pdf": build(
            one_page(
                catalog=b"/Outlines 10 0 R",
                extra=[
                    (10, b"<< /Type /Outlines /First 11 0 R /Last 11 0 R >>"),
                    (11, b"<< /Title (x) /Parent 10 0 R /A << /S /URI /URI (https://bookmark.example/) >> >>"),
                ],
            )
        ),
        "form-field.pdf": build(
            one_page(
                catalog=b"/AcroForm << /Fields [6 0 R] >>",
                extra=[
                    (6, b"<< /FT /Btn /T (go) /Kids [7 0 R] >>"),
                    (
                        7,
                        b"<< /Subtype /Widget /Parent 6 0 R /P 3 0 R /Rect [0 0 1 1] "
                        b"/A << /S /URI /URI (https://field.example/) >> >>",
                    ),
                ],
            )
        ),
        "no-xref.pdf": annotated(uri(b"https://scan.example/"), xref=False),
        "incremental-update.pdf": append_update(
            annotated(uri(b"https://old.example/")),
            [link(6, uri(b"https://new.example/"))],
        ),
        "pypdf-made.pdf": pypdf_made(),
        "object-streams.pdf": qpdf(
            annotated(b"7 0 R", (7, uri(b"https://objstm.example/First"))),
            "--object-streams=generate",
        ),
        "enc-rc4-40-owner-only.pdf": encrypt(plain_for_crypt, "", "owner", "40"),
        "enc-rc4-128__pw_secret123.pdf": encrypt(plain_for_crypt, "secret123", "owner", "128", "--use-aes=n"),
        "enc-aes-128__pw_secret123.pdf": encrypt(plain_for_crypt, "secret123", "owner", "128", "--use-aes=y"),
        "enc-aes-256-r5-owner-only.pdf": encrypt(plain_for_crypt, "", "owner", "256", "--force-R5"),
        "enc-aes-256-r6__pw_secret123.pdf": encrypt(plain_for_crypt, "secret123", "owner", "256"),
        "enc-aes-256-objstm__pw_secret123.pdf": encrypt(
            plain_for_crypt, "secret123", "owner", "256", object_streams=True
        ),
    }
    return corpus


def uris(reader: PdfReader) -> list:
    """The /URI of every URI action pypdf reaches: the catalog's /OpenAction and /AA; each
    page's annotations' /A and /AA, and the page's /AA; the AcroForm fields' /A and /AA
    (through /Kids); the outline items' /A; each action's /Next chain."""
    found = []
    seen = set()

    def key(obj):
        return (obj.idnum, obj.generation) if isinstance(obj, IndirectObject) else id(obj)

    def action(obj):
        stack = [obj]
        while stack:
            item = stack.pop()
            if item is None:
                continue
            if key(item) in seen:
                continue
            seen.add(key(item))
            item = item.get_object()
            if isinstance(item, ArrayObject):
                stack.extend(reversed(list(item)))
                continue
            if not isinstance(item, DictionaryObject):
                continue
            if item.get("/S") == "/URI" and "/URI" in item:
                value = item["/URI"]
                found.append(value.decode("latin-1") if isinstance(value, bytes) else str(value))
            if "/Next" in item:
                stack.append(item.get("/Next"))

    def additional(obj):
        if obj is None:
            return
        obj = obj.get_object()
        if isinstance(obj, DictionaryObject):
            for value in obj.values():
                action(value)

    root = reader.trailer["/Root"].get_object()
    open_action = root.get("/OpenAction")
    if open_action is not None and isinstance(open_action.get_object(), DictionaryObject):
        action(open_action)
    additional(root.get("/AA"))
    for page in reader.pages:
        for annotation in page.get("/Annots") or []:
            annotation = annotation.get_object()
            action(annotation.get("/A"))
            additional(annotation.get("/AA"))
        additional(page.get("/AA"))
    form = root.get("/AcroForm")
    fields = list(form.get_object().get("/Fields") or []) if form is not None else []
    visited = set()
    while fields:
        field = fields.pop(0)
        if key(field) in visited:
            continue
        visited.add(key(field))
        field = field.get_object()
        action(field.get("/A"))
        additional(field.get("/AA"))
        fields.extend(field.get("/Kids") or [])
    outlines = root.get("/Outlines")
    items = [outlines.get_object().get("/First")] if outlines is not None else []
    while items:
        item = items.pop()
        if item is None or key(item) in visited:
            continue
        visited.add(key(item))
        item = item.get_object()
        action(item.get("/A"))
        items.extend([item.get("/Next"), item.get("/First")])
    return found


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    directory = Path(sys.argv[1])
    directory.mkdir(parents=True, exist_ok=True)
    expected = {}
    for name, data in files().items():
        (directory / name).write_bytes(data)
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted:
            password = name.split("__pw_", 1)[1][: -len(".pdf")] if "__pw_" in name else ""
            reader.decrypt(password)
        expected[name] = uris(reader)
    (directory / "expected.json").write_text(json.dumps(expected, indent=2, sort_keys=True, ensure_ascii=False) + "\n")
    print(f"wrote {len(expected)} files and expected.json to {directory}")


if __name__ == "__main__":
    main()
