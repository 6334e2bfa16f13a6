#!/usr/bin/env python3
"""Writes office documents and archives with known links, and what an independent reading
finds in each, for end-to-end tests of mimebase's `office` and `archive` rooms.

Usage: office_oracle.py DIR

Writes into DIR (created if need be):

  links.docx     python-docx: hyperlinks in the body and a header (external relationships),
                 a HYPERLINK field split over three runs, a simple field, an attached template
  macro.docm     the same document, declared macro-enabled
  template.docx  a document whose only link is an external attached template
  links.xlsx     openpyxl: cell hyperlinks on two sheets and a HYPERLINK formula
  links.pptx     python-pptx: a text run's hyperlink and a shape's click action
                 (left out when python-pptx is not installed)
  links.odt      odfpy: a link in the body and in a master page's header
  links.ods      odfpy: a link in a cell and a HYPERLINK formula
  links.odp      odfpy: a link in a text box of a slide
  links.rtf      hand-written in Word's shape: a field code split into groups, a datafield
  plain.zip      a ZIP with page.html (links in <a href>) and notes.txt
  zipcrypto.zip  the same members encrypted with the traditional PKWARE cipher
  aes.zip        the same members encrypted with WinZip AES-256 (left out without pyzipper)
  expected.json  {file name: sorted list of link targets}

The encrypted archives' password is `secret123`. For an archive, the targets are those of
its HTML member (`<a href>`), as a mail client's reader sees them once it is unpacked.

Every expected list comes from a reading that shares nothing with the room: `zipfile` and
`xml.etree` for packages (external relationships, field codes, HYPERLINK formulas,
`xlink:href` of the clickable OpenDocument elements), `html.parser` for HTML, a regular
expression over the field codes of the RTF file.

The output is deterministic: ZIP timestamps and document dates are fixed, and the bytes the
ciphers would draw at random come from a fixed sequence. Running the script twice gives the
same bytes.
"""

import hashlib
import html.parser
import io
import json
import os
import re
import sys
import zipfile
import zlib
import xml.etree.ElementTree as ET

PASSWORD = b"secret123"
FIXED_TIME = (1980, 1, 1, 0, 0, 0)
FIXED_DATE = "2001-01-01T00:00:00Z"

HTML = b"""<!doctype html><html><body>
<p><a href="https://archive.example/page?a=1&amp;b=2">one</a></p>
<p><a href='mailto:someone@example.com'>mail</a> <a href="/relative/path">rel</a></p>
</body></html>
"""

# --- deterministic packages -------------------------------------------------------------

DATES = re.compile(rb"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z?")


def normalize(path):
    """Rewrites the ZIP at `path` with fixed timestamps and attributes, and fixed dates in
    the document properties, members in the same order and compression."""
    with zipfile.ZipFile(path) as source:
        members = [(info, source.read(info.filename)) for info in source.infolist()]
    with zipfile.ZipFile(path, "w") as target:
        for info, data in members:
            if info.filename in ("docProps/core.xml", "meta.xml"):
                data = DATES.sub(FIXED_DATE.encode(), data)
            fixed = zipfile.ZipInfo(info.filename, date_time=FIXED_TIME)
            fixed.compress_type = info.compress_type
            fixed.external_attr = 0o644 << 16
            fixed.create_system = 0
            target.writestr(fixed, data)


# --- writers ------------------------------------------------------------------------------

def write_docx(path, template_only=False):
    import docx
    from docx.opc.constants import RELATIONSHIP_TYPE as RT
    from docx.oxml import OxmlElement
    from docx.oxml.ns import qn

    d = docx.Document()
    template = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/attachedTemplate"
    d.part._settings_part.relate_to("https://template.example/t.dotm", template, is_external=True)
    if template_only:
        d.add_paragraph("A document with an attached template.")
        d.save(path)
        return

    def hyperlink(paragraph, part, url, text):
        rid = part.relate_to(url, RT.HYPERLINK, is_external=True)
        h = OxmlElement("w:hyperlink")
        h.set(qn("r:id"), rid)
        r = OxmlElement("w:r")
        t = OxmlElement("w:t")
        t.text = text
        r.append(t)
        h.append(r)
        paragraph._p.append(h)

    def run(paragraph, child):
        r = OxmlElement("w:r")
        r.append(child)
        paragraph._p.append(r)

    def char(kind):
        c = OxmlElement("w:fldChar")
        c.set(qn("w:fldCharType"), kind)
        return c

    def instr(text):
        i = OxmlElement("w:instrText")
        i.set(qn("xml:space"), "preserve")
        i.text = text
        return i

    hyperlink(d.add_paragraph("See "), d.part, "https://example.com/docx?a=1&b=2", "this")
    p = d.add_paragraph()
    run(p, char("begin"))
    for piece in [' HYPERLINK "https://split', '.example/field?x=1&y=2"', ' \\o "tip" ']:
        run(p, instr(piece))
    run(p, char("separate"))
    t = OxmlElement("w:t")
    t.text = "field"
    run(p, t)
    run(p, char("end"))
    simple = OxmlElement("w:fldSimple")
    simple.set(qn("w:instr"), ' HYPERLINK "https://simple.example/" ')
    d.add_paragraph()._p.append(simple)
    header = d.sections[0].header
    header.is_linked_to_previous = False
    hyperlink(header.paragraphs[0], header.part, "https://header.example/", "h")
    d.save(path)


def write_docm(path, docx_path):
    """The DOCX at `docx_path`, its main part declared macro-enabled (ECMA-376 names
    `.docm` by its content type)."""
    with zipfile.ZipFile(docx_path) as source:
        members = [(info, source.read(info.filename)) for info in source.infolist()]
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as target:
        for info, data in members:
            if info.filename == "[Content_Types].xml":
                data = data.replace(
                    b"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml",
                    b"application/vnd.ms-word.document.macroEnabled.main+xml",
                )
            target.writestr(info, data)


def write_xlsx(path):
    import openpyxl

    wb = openpyxl.Workbook()
    ws = wb.active
    ws["A1"] = "site"
    ws["A1"].hyperlink = "https://cell.example/?q=1&r=2"
    ws["A2"] = "mail"
    ws["A2"].hyperlink = "mailto:someone@example.com"
    ws["B1"] = '=HYPERLINK("https://formula.example/a?b=""c""","go")'
    other = wb.create_sheet("Second")
    other["C3"] = "x"
    other["C3"].hyperlink = "https://second.example/"
    wb.save(path)


def write_pptx(path):
    from pptx import Presentation
    from pptx.util import Inches

    prs = Presentation()
    slide = prs.slides.add_slide(prs.slide_layouts[5])
    box = slide.shapes.add_textbox(Inches(1), Inches(1), Inches(4), Inches(1))
    run = box.text_frame.paragraphs[0].add_run()
    run.text = "link"
    run.hyperlink.address = "https://run.example/"
    shape = slide.shapes.add_shape(1, Inches(1), Inches(3), Inches(2), Inches(1))
    shape.click_action.hyperlink.address = "https://shape.example/?a=1&b=2"
    prs.save(path)


def write_odt(path):
    from odf.opendocument import OpenDocumentText
    from odf import style, text

    doc = OpenDocumentText()
    p = text.P(text="See ")
    p.addElement(text.A(href="https://odt.example/?a=1&b=2", text="this"))
    doc.text.addElement(p)
    layout = style.PageLayout(name="pm1")
    doc.automaticstyles.addElement(layout)
    master = style.MasterPage(name="Standard", pagelayoutname=layout)
    header = style.Header()
    hp = text.P()
    hp.addElement(text.A(href="https://header.example/odt", text="h"))
    header.addElement(hp)
    master.addElement(header)
    doc.masterstyles.addElement(master)
    doc.save(path)


def write_ods(path):
    from odf.opendocument import OpenDocumentSpreadsheet
    from odf import table, text

    doc = OpenDocumentSpreadsheet()
    t = table.Table(name="Sheet1")
    row = table.TableRow()
    cell = table.TableCell()
    p = text.P()
    p.addElement(text.A(href="https://ods.example/cell", text="c"))
    cell.addElement(p)
    row.addElement(cell)
    row.addElement(table.TableCell(formula='of:=HYPERLINK("https://ods.example/formula";"f")'))
    t.addElement(row)
    doc.spreadsheet.addElement(t)
    doc.save(path)


def write_odp(path):
    from odf.opendocument import OpenDocumentPresentation
    from odf import draw, style, text

    doc = OpenDocumentPresentation()
    layout = style.PageLayout(name="pl")
    doc.automaticstyles.addElement(layout)
    master = style.MasterPage(name="Default", pagelayoutname=layout)
    doc.masterstyles.addElement(master)
    page = draw.Page(masterpagename=master)
    frame = draw.Frame(width="10cm", height="2cm", x="1cm", y="1cm")
    box = draw.TextBox()
    p = text.P()
    p.addElement(text.A(href="https://odp.example/slide", text="slide link"))
    box.addElement(p)
    frame.addElement(box)
    page.addElement(frame)
    doc.presentation.addElement(page)
    doc.save(path)


RTF = (
    r"{\rtf1\ansi\ansicpg1252\deff0{\fonttbl{\f0 Times New Roman;}}" "\r\n"
    r"{\pard See {\field{\*\fldinst {\rtlch\fcs1 \af0 \ltrch\fcs0 \insrsid1 "
    r' HYPERLINK "https://rtf.example/path?a=1&b=2" }{\rtlch\fcs1 \af0 {\*\datafield '
    r"00d0c9ea79f9bace118c8200aa004ba90b0200000003000000}}}{\fldrslt {\ul here}}}\par}"
    "\r\n"
    r"{\pard {\field{\*\fldinst HYPERLINK \\l "
    r'"_Toc1"}{\fldrslt inside}} and {\field{\*\fldinst {HYPERLINK "mailto:rtf@example.com"}}'
    r"{\fldrslt mail}}\par}}"
    "\r\n"
)


def write_rtf(path):
    with open(path, "wb") as f:
        f.write(RTF.encode("ascii"))


def zip_crypto(members):
    """A ZIP of `members` (name, bytes), deflated and encrypted with the traditional PKWARE
    cipher (APPNOTE.TXT section 6.1), with header bytes from a fixed sequence."""
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0xEDB88320 if c & 1 else c >> 1
        table.append(c)

    def crc_byte(crc, b):
        return (crc >> 8) ^ table[(crc ^ b) & 0xFF]

    out = io.BytesIO()
    central = []
    for name, data in members:
        k = [0x12345678, 0x23456789, 0x34567890]

        def feed(b):
            k[0] = crc_byte(k[0], b)
            k[1] = ((k[1] + (k[0] & 0xFF)) * 134775813 + 1) & 0xFFFFFFFF
            k[2] = crc_byte(k[2], k[1] >> 24)

        def encrypt(b):
            t = (k[2] | 2) & 0xFFFF
            c = b ^ (((t * (t ^ 1)) >> 8) & 0xFF)
            feed(b)
            return c

        for b in PASSWORD:
            feed(b)
        crc = zlib.crc32(data)
        compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
        compressed = compressor.compress(data) + compressor.flush()
        header = hashlib.sha256(name.encode()).digest()[:11] + bytes([crc >> 24])
        body = bytes(encrypt(b) for b in header + compressed)
        offset = out.tell()
        name_bytes = name.encode()
        fields = (20, 1, 8, 0, 0x21, crc, len(body), len(data), len(name_bytes), 0)
        out.write(b"PK\x03\x04" + b"".join(v.to_bytes(s, "little") for v, s in zip(fields, (2, 2, 2, 2, 2, 4, 4, 4, 2, 2))))
        out.write(name_bytes + body)
        central.append((name_bytes, crc, len(body), len(data), offset))
    start = out.tell()
    for name_bytes, crc, csize, usize, offset in central:
        fields = (20, 20, 1, 8, 0, 0x21, crc, csize, usize, len(name_bytes), 0, 0, 0, 0, 0, offset)
        sizes = (2, 2, 2, 2, 2, 2, 4, 4, 4, 2, 2, 2, 2, 2, 4, 4)
        out.write(b"PK\x01\x02" + b"".join(v.to_bytes(s, "little") for v, s in zip(fields, sizes)) + name_bytes)
    size = out.tell() - start
    count = len(central)
    out.write(b"PK\x05\x06" + (0).to_bytes(4, "little") + count.to_bytes(2, "little") * 2
              + size.to_bytes(4, "little") + start.to_bytes(4, "little") + (0).to_bytes(2, "little"))
    return out.getvalue()


def write_aes(path, members):
    import pyzipper
    import pyzipper.zipfile_aes as aes

    class Fixed:
        def __init__(self):
            self.counter = 0

        def read(self, n):
            self.counter += 1
            return hashlib.sha256(b"salt%d" % self.counter).digest()[:n]

    fixed = Fixed()
    saved = aes.Random

    class FixedRandom:
        @staticmethod
        def new():
            return fixed

    aes.Random = FixedRandom
    try:
        with pyzipper.AESZipFile(path, "w", compression=pyzipper.ZIP_DEFLATED,
                                 encryption=pyzipper.WZ_AES) as z:
            z.setpassword(PASSWORD)
            for name, data in members:
                info = z.zipinfo_cls(name, date_time=FIXED_TIME)
                info.compress_type = pyzipper.ZIP_DEFLATED
                z.writestr(info, data)
    finally:
        aes.Random = saved


# --- the independent reading ------------------------------------------------------------

W = "{http://schemas.openxmlformats.org/wordprocessingml/2006/main}"
S = "{http://schemas.openxmlformats.org/spreadsheetml/2006/main}"
R = "{http://schemas.openxmlformats.org/package/2006/relationships}"
XLINK = "{http://www.w3.org/1999/xlink}href"
ODF = "urn:oasis:names:tc:opendocument:xmlns:"
CLICKABLE = {"{%stext:1.0}a" % ODF, "{%sdrawing:1.0}a" % ODF, "{%sform:1.0}button" % ODF,
             "{%spresentation:1.0}event-listener" % ODF}
CELLS = {"{%stable:1.0}table-cell" % ODF, "{%stable:1.0}covered-table-cell" % ODF}
FORMULA = re.compile(r'(?<![A-Za-z0-9_.])HYPERLINK\s*\(\s*"((?:[^"]|"")*)"', re.I)
FIELD = re.compile(r'\s*(HYPERLINK|INCLUDEPICTURE|INCLUDETEXT)\s+(?:"((?:[^"\\]|\\.)*)"|([^\s\\]\S*))', re.I)
BOOKMARK = re.compile(r'\s*HYPERLINK\s+\\l\s+"([^"]*)"', re.I)


def field_target(code):
    m = FIELD.match(code or "")
    if m:
        arg = m.group(2) if m.group(2) is not None else m.group(3)
        return re.sub(r'\\([\\"])', r"\1", arg) or None
    m = BOOKMARK.match(code or "")
    return "#" + m.group(1) if m else None


def package_targets(path):
    out = []
    z = zipfile.ZipFile(path)
    names = z.namelist()
    if any(n.lower() == "[content_types].xml" for n in names):
        for n in names:
            if n.endswith(".rels"):
                for rel in ET.fromstring(z.read(n)).iter(R + "Relationship"):
                    target = (rel.get("Target") or "").strip()
                    if (rel.get("TargetMode") or "").strip() == "External" and target:
                        out.append(target)
            elif n.endswith(".xml") and n.lower() != "[content_types].xml":
                fields = []
                for el in ET.fromstring(z.read(n)).iter():
                    kind = el.get(W + "fldCharType")
                    if el.tag == W + "fldChar" and kind == "begin":
                        fields.append([])
                    elif el.tag == W + "fldChar" and kind in ("separate", "end") and fields:
                        if fields[-1] is not None:
                            target = field_target("".join(fields[-1]))
                            if target:
                                out.append(target)
                        if kind == "separate":
                            fields[-1] = None
                        else:
                            fields.pop()
                    elif el.tag == W + "instrText" and fields and fields[-1] is not None:
                        fields[-1].append(el.text or "")
                    elif el.tag == W + "fldSimple":
                        target = field_target(el.get(W + "instr"))
                        if target:
                            out.append(target)
                    elif el.tag == S + "f" and el.text:
                        out.extend(m.group(1).replace('""', '"') for m in FORMULA.finditer(el.text))
    else:
        for n in names:
            if n.split("/")[-1] in ("content.xml", "styles.xml"):
                for el in ET.fromstring(z.read(n)).iter():
                    href = (el.get(XLINK) or "").strip()
                    if el.tag in CLICKABLE and href:
                        out.append(href)
                    formula = el.get("{%stable:1.0}formula" % ODF)
                    if el.tag in CELLS and formula:
                        out.extend(m.group(1).replace('""', '"') for m in FORMULA.finditer(formula))
    return sorted(out)


def rtf_targets(path):
    """The targets of the field codes of an RTF file: each `\\fldinst` group's text, nested
    destinations (`{\\*...}`) removed, control words and braces dropped."""
    data = open(path, "rb").read().decode("latin-1")
    out = []
    for start in [m.end() for m in re.finditer(r"\\fldinst", data)]:
        depth, i, code = 1, start, []
        while i < len(data) and depth > 0:
            if data.startswith("{\\*", i):
                skip = 1
                i += 1
                while i < len(data) and skip:
                    skip += {"{": 1, "}": -1}.get(data[i], 0)
                    i += 1
                continue
            c = data[i]
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
            elif data.startswith("\\\\", i):
                code.append("\\")
                i += 1
            elif c == "\\":
                m = re.match(r"\\[a-z]+-?\d* ?", data[i:])
                i += len(m.group(0)) if m else 2
                continue
            elif c not in "\r\n":
                code.append(c)
            i += 1
        target = field_target("".join(code))
        if target:
            out.append(target)
    return sorted(out)


class Anchors(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.hrefs = []

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self.hrefs.extend(value for name, value in attrs if name == "href" and value)


def html_targets(data):
    parser = Anchors()
    parser.feed(data.decode("utf-8"))
    return sorted(parser.hrefs)


def archive_targets(path):
    """The targets of the HTML members of an archive, decrypted with the password."""
    out = []
    try:
        import pyzipper
        z = pyzipper.AESZipFile(path)
    except ImportError:
        z = zipfile.ZipFile(path)
    z.setpassword(PASSWORD)
    for name in z.namelist():
        if name.endswith(".html"):
            out.extend(html_targets(z.read(name)))
    return sorted(out)


# --- main ---------------------------------------------------------------------------------

def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    expected = {}

    def path(name):
        return os.path.join(out, name)

    def package(name, writer, *args):
        try:
            writer(path(name), *args)
        except ImportError as error:
            print("left out %s: %s" % (name, error), file=sys.stderr)
            return
        normalize(path(name))
        expected[name] = package_targets(path(name))

    package("links.docx", write_docx)
    if "links.docx" in expected:
        package("macro.docm", write_docm, path("links.docx"))
    package("template.docx", write_docx, True)
    package("links.xlsx", write_xlsx)
    package("links.pptx", write_pptx)
    package("links.odt", write_odt)
    package("links.ods", write_ods)
    package("links.odp", write_odp)

    write_rtf(path("links.rtf"))
    expected["links.rtf"] = rtf_targets(path("links.rtf"))

    members = [("page.html", HTML), ("notes.txt", b"no links here\n")]
    with zipfile.ZipFile(path("plain.zip"), "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members:
            z.writestr(zipfile.ZipInfo(name, date_time=FIXED_TIME), data, zipfile.ZIP_DEFLATED)
    expected["plain.zip"] = archive_targets(path("plain.zip"))
    with open(path("zipcrypto.zip"), "wb") as f:
        f.write(zip_crypto(members))
    expected["zipcrypto.zip"] = archive_targets(path("zipcrypto.zip"))
    try:
        write_aes(path("aes.zip"), members)
        expected["aes.zip"] = archive_targets(path("aes.zip"))
    except ImportError as error:
        print("left out aes.zip: %s" % error, file=sys.stderr)

    with open(path("expected.json"), "w") as f:
        json.dump(expected, f, indent=2, sort_keys=True)
        f.write("\n")


if __name__ == "__main__":
    main()
