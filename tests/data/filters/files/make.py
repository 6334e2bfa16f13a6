#!/usr/bin/env python3
"""Writes the messages of this folder: each hides its one bad link inside a file a reader opens
(README.md beside this script). Run from anywhere with pypdf, python-docx and qpdf installed:

    python3 tests/data/filters/files/make.py

The messages are committed; this script says how they were made. Its output differs from run to
run only in the encrypted PDF (qpdf draws a random salt), so it is not run by the tests.
"""

import base64
import io
import os
import subprocess
import tempfile
import zipfile

from pypdf import PdfWriter
from pypdf.annotations import Link

HERE = os.path.dirname(os.path.abspath(__file__))
FIXED = (2024, 6, 3, 9, 0, 0)


def pdf_with_link(url):
    writer = PdfWriter()
    writer.add_blank_page(612, 792)
    writer.add_annotation(page_number=0, annotation=Link(rect=(72, 600, 300, 640), url=url))
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def encrypted(pdf, password):
    with tempfile.TemporaryDirectory() as tmp:
        plain, locked = os.path.join(tmp, "in.pdf"), os.path.join(tmp, "out.pdf")
        open(plain, "wb").write(pdf)
        subprocess.run(["qpdf", "--encrypt", password, "owner-" + password, "256", "--", plain, locked], check=True)
        return open(locked, "rb").read()


def docx_with_link(url):
    import docx
    from docx.opc.constants import RELATIONSHIP_TYPE
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    document = docx.Document()
    paragraph = document.add_paragraph("Please review the shared document: ")
    rel = paragraph.part.relate_to(url, RELATIONSHIP_TYPE.HYPERLINK, is_external=True)
    link = OxmlElement("w:hyperlink")
    link.set(qn("r:id"), rel)
    run = OxmlElement("w:r")
    text = OxmlElement("w:t")
    text.text = "open the document"
    run.append(text)
    link.append(run)
    paragraph._p.append(link)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def zip_of(members):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members:
            z.writestr(zipfile.ZipInfo(name, date_time=FIXED), data, zipfile.ZIP_DEFLATED)
    return out.getvalue()


def message(name, subject, text, files):
    parts = [
        "From: Accounts <accounts@sender.example.org>",
        "To: reader@example.org",
        "Subject: " + subject,
        "Date: Mon, 3 Jun 2024 09:00:00 +0000",
        "Message-ID: <%s@sender.example.org>" % name,
        "MIME-Version: 1.0",
        'Content-Type: multipart/mixed; boundary="outer"',
        "",
        "--outer",
        "Content-Type: text/plain; charset=utf-8",
        "",
        text,
    ]
    for content_type, filename, data, disposition in files:
        parts += ["--outer", "Content-Type: %s; name=\"%s\"" % (content_type, filename)]
        if disposition:
            parts.append('Content-Disposition: attachment; filename="%s"' % filename)
        parts += ["Content-Transfer-Encoding: base64", ""]
        encoded = base64.b64encode(data).decode()
        parts += [encoded[i:i + 76] for i in range(0, len(encoded), 76)]
    parts += ["--outer--", ""]
    with open(os.path.join(HERE, name + ".eml"), "wb") as f:
        f.write("\r\n".join(parts).encode())


def main():
    message("pdf-link", "Invoice 2024-0611", "Your invoice is attached.",
            [("application/pdf", "invoice.pdf", pdf_with_link("https://bad-pdf-example.com/invoice/view"), True)])
    message("pdf-encrypted", "Documento protegido", "Segue o documento em anexo.\nSenha do PDF: 7214",
            [("application/pdf", "documento.pdf",
              encrypted(pdf_with_link("https://bad-encrypted-pdf-example.com/acesso"), "7214"), True)])
    calendar = "\r\n".join([
        "BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//mimebase tests//EN", "METHOD:REQUEST",
        "BEGIN:VEVENT", "UID:review-2024@sender.example.org", "DTSTAMP:20240603T090000Z",
        "DTSTART:20240610T140000Z", "DTEND:20240610T150000Z", "SUMMARY:Quarterly review",
        "ATTACH;FMTTYPE=application/pdf:https://bad-calendar-example.com/agenda.pdf",
        "END:VEVENT", "END:VCALENDAR", ""]).encode()
    message("calendar-attach", "Invitation: Quarterly review", "You are invited.",
            [("text/calendar; method=REQUEST; charset=utf-8", "invite.ics", calendar, False)])
    shortcut = b"[InternetShortcut]\r\nURL=https://bad-shortcut-example.com/statement\r\n"
    message("shortcut-url", "Statement", "Open the statement shortcut.",
            [("application/octet-stream", "Statement.url", shortcut, True)])
    page = b'<!doctype html><html><body><a href="https://bad-zip-example.com/login">Sign in</a></body></html>'
    message("zip-html", "Scanned documents", "The scans are in the archive.",
            [("application/zip", "scans.zip", zip_of([("scans/index.html", page)]), True)])
    message("docx-hyperlink", "Shared document", "See the attached document.",
            [("application/vnd.openxmlformats-officedocument.wordprocessingml.document", "shared.docx",
              docx_with_link("https://bad-docx-example.com/share"), True)])


if __name__ == "__main__":
    main()
