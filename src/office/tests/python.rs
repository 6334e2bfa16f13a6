//! Documents written by Python's office libraries (python-docx, openpyxl, python-pptx,
//! odfpy), read by the room and, as an oracle, by an independent reading in Python
//! (`zipfile` and `xml.etree`): the two must find the same targets. Where Python or a
//! library is missing, the test says it is skipped and passes (it fails instead with
//! `MIMEBASE_REQUIRE_ORACLES` set, as in CI).

use std::path::Path;
use std::process::Command;

use pretty_assertions::assert_eq;

use crate::archive::Limits;
use crate::office::{OfficeKind, links};

/// The oracle: every external relationship target, every field code's first argument and
/// every `HYPERLINK("…")` formula of an OOXML package; every `xlink:href` of `text:a`,
/// `draw:a`, `form:button`, `presentation:event-listener` and every `HYPERLINK("…")` in
/// `table:formula` of an OpenDocument one. Prints them sorted, as JSON.
const ORACLE: &str = r#"
import json, re, sys, zipfile
import xml.etree.ElementTree as ET
W = '{http://schemas.openxmlformats.org/wordprocessingml/2006/main}'
S = '{http://schemas.openxmlformats.org/spreadsheetml/2006/main}'
R = '{http://schemas.openxmlformats.org/package/2006/relationships}'
XLINK = '{http://www.w3.org/1999/xlink}href'
ODF = 'urn:oasis:names:tc:opendocument:xmlns:'
CLICKABLE = {'{%stext:1.0}a' % ODF, '{%sdrawing:1.0}a' % ODF, '{%sform:1.0}button' % ODF,
             '{%spresentation:1.0}event-listener' % ODF}
CELLS = {'{%stable:1.0}table-cell' % ODF, '{%stable:1.0}covered-table-cell' % ODF}
FORMULA = re.compile(r'(?<![A-Za-z0-9_.])HYPERLINK\s*\(\s*"((?:[^"]|"")*)"', re.I)
FIELD = re.compile(r'\s*(HYPERLINK|INCLUDEPICTURE|INCLUDETEXT)\s+(?:"((?:[^"\\]|\\.)*)"|([^\s\\]\S*))', re.I)
out = []
def field(code):
    m = FIELD.match(code or '')
    if m:
        arg = m.group(2) if m.group(2) is not None else m.group(3)
        arg = re.sub(r'\\([\\"])', r'\1', arg)
        if arg:
            out.append(arg)
z = zipfile.ZipFile(sys.argv[1])
names = z.namelist()
if any(n.lower() == '[content_types].xml' for n in names):
    for n in names:
        if n.endswith('.rels'):
            for rel in ET.fromstring(z.read(n)).iter(R + 'Relationship'):
                if (rel.get('TargetMode') or '').strip() == 'External' and rel.get('Target', '').strip():
                    out.append(rel.get('Target').strip())
        elif n.endswith('.xml') and n != '[Content_Types].xml':
            fields = []
            for el in ET.fromstring(z.read(n)).iter():
                kind = el.get(W + 'fldCharType')
                if el.tag == W + 'fldChar' and kind == 'begin':
                    fields.append([])
                elif el.tag == W + 'fldChar' and kind in ('separate', 'end') and fields:
                    if fields[-1] is not None:
                        field(''.join(fields[-1]))
                    if kind == 'separate':
                        fields[-1] = None
                    else:
                        fields.pop()
                elif el.tag == W + 'instrText' and fields and fields[-1] is not None:
                    fields[-1].append(el.text or '')
                elif el.tag == W + 'fldSimple':
                    field(el.get(W + 'instr'))
                elif el.tag == S + 'f' and el.text:
                    out.extend(m.group(1).replace('""', '"') for m in FORMULA.finditer(el.text))
else:
    for n in names:
        if n.split('/')[-1] in ('content.xml', 'styles.xml'):
            for el in ET.fromstring(z.read(n)).iter():
                if el.tag in CLICKABLE and (el.get(XLINK) or '').strip():
                    out.append(el.get(XLINK).strip())
                if el.tag in CELLS and el.get('{%stable:1.0}formula' % ODF):
                    formula = el.get('{%stable:1.0}formula' % ODF)
                    out.extend(m.group(1).replace('""', '"') for m in FORMULA.finditer(formula))
print(json.dumps(sorted(out)))
"#;

/// Writes a DOCX: a hyperlink in the body and in the header (external relationships), a
/// query string with `&`, a HYPERLINK field split over three runs, a simple field, an
/// attached template.
const DOCX: &str = r#"
import sys, docx
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.oxml import OxmlElement
from docx.oxml.ns import qn
d = docx.Document()
def hyperlink(paragraph, part, url, text):
    rid = part.relate_to(url, RT.HYPERLINK, is_external=True)
    h = OxmlElement('w:hyperlink'); h.set(qn('r:id'), rid)
    r = OxmlElement('w:r'); t = OxmlElement('w:t'); t.text = text; r.append(t); h.append(r)
    paragraph._p.append(h)
hyperlink(d.add_paragraph('See '), d.part, 'https://example.com/docx?a=1&b=2', 'this')
p = d.add_paragraph()
def run(p, child):
    r = OxmlElement('w:r'); r.append(child); p._p.append(r)
def char(kind):
    c = OxmlElement('w:fldChar'); c.set(qn('w:fldCharType'), kind); return c
def instr(text):
    i = OxmlElement('w:instrText'); i.set(qn('xml:space'), 'preserve'); i.text = text; return i
run(p, char('begin'))
for piece in [' HYPERLINK "https://split', '.example/field?x=1&y=2"', ' \\o "tip" ']:
    run(p, instr(piece))
run(p, char('separate'))
t = OxmlElement('w:t'); t.text = 'field'; run(p, t)
run(p, char('end'))
s = OxmlElement('w:fldSimple'); s.set(qn('w:instr'), ' HYPERLINK "https://simple.example/" ')
d.add_paragraph()._p.append(s)
header = d.sections[0].header
header.is_linked_to_previous = False
hyperlink(header.paragraphs[0], header.part, 'https://header.example/', 'h')
TEMPLATE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/attachedTemplate'
d.part._settings_part.relate_to('https://template.example/t.dotm', TEMPLATE, is_external=True)
d.save(sys.argv[1])
"#;

/// Writes an XLSX: cell hyperlinks and a HYPERLINK formula.
const XLSX: &str = r#"
import sys, openpyxl
wb = openpyxl.Workbook()
ws = wb.active
ws['A1'] = 'site'; ws['A1'].hyperlink = 'https://cell.example/?q=1&r=2'
ws['A2'] = 'mail'; ws['A2'].hyperlink = 'mailto:someone@example.com'
ws['B1'] = '=HYPERLINK("https://formula.example/a?b=""c""","go")'
other = wb.create_sheet('Second')
other['C3'] = 'x'; other['C3'].hyperlink = 'https://second.example/'
wb.save(sys.argv[1])
"#;

/// Writes a PPTX: a text run's hyperlink and a shape's click action.
const PPTX: &str = r#"
import sys
from pptx import Presentation
from pptx.util import Inches
prs = Presentation()
slide = prs.slides.add_slide(prs.slide_layouts[5])
box = slide.shapes.add_textbox(Inches(1), Inches(1), Inches(4), Inches(1))
run = box.text_frame.paragraphs[0].add_run(); run.text = 'link'
run.hyperlink.address = 'https://run.example/'
shape = slide.shapes.add_shape(1, Inches(1), Inches(3), Inches(2), Inches(1))
shape.click_action.hyperlink.address = 'https://shape.example/?a=1&b=2'
prs.save(sys.argv[1])
"#;

/// Writes an ODT: links in the body and in a master page's header.
const ODT: &str = r#"
import sys
from odf.opendocument import OpenDocumentText
from odf import text, style
doc = OpenDocumentText()
p = text.P(text='See ')
p.addElement(text.A(href='https://odt.example/?a=1&b=2', text='this'))
doc.text.addElement(p)
layout = style.PageLayout(name='pm1')
doc.automaticstyles.addElement(layout)
master = style.MasterPage(name='Standard', pagelayoutname=layout)
header = style.Header()
hp = text.P()
hp.addElement(text.A(href='https://header.example/odt', text='h'))
header.addElement(hp)
master.addElement(header)
doc.masterstyles.addElement(master)
doc.save(sys.argv[1])
"#;

/// Writes an ODS: a link in a cell's text and a HYPERLINK formula.
const ODS: &str = r#"
import sys
from odf.opendocument import OpenDocumentSpreadsheet
from odf import table, text
doc = OpenDocumentSpreadsheet()
t = table.Table(name='Sheet1')
row = table.TableRow()
cell = table.TableCell()
p = text.P(); p.addElement(text.A(href='https://ods.example/cell', text='c')); cell.addElement(p)
row.addElement(cell)
row.addElement(table.TableCell(formula='of:=HYPERLINK("https://ods.example/formula";"f")'))
t.addElement(row)
doc.spreadsheet.addElement(t)
doc.save(sys.argv[1])
"#;

/// Runs `script` with `args` in Python; `None` (and a line saying the test is skipped, see
/// [`crate::testing::skip_missing`]) when Python or a module the script imports is missing.
fn python(test: &str, script: &str, args: &[&Path]) -> Option<String> {
    let output = match Command::new("python3")
        .arg("-c")
        .arg(script)
        .args(args)
        .output()
    {
        Ok(output) => output,
        Err(_) => {
            crate::testing::skip_missing(test, "python3");
            return None;
        }
    };
    let stderr = String::from_utf8_lossy(&output.stderr);
    if !output.status.success() {
        if let Some(missing) = stderr.lines().find(|l| l.contains("ModuleNotFoundError")) {
            crate::testing::skip_missing(test, missing);
            return None;
        }
        panic!("{test}: python failed: {stderr}");
    }
    Some(String::from_utf8(output.stdout).unwrap())
}

/// Writes a document with `writer`, reads it with the room and with the oracle, and checks
/// that both find `expected` (sorted) and that the room finds the family `kind`.
fn check(test: &str, writer: &str, file: &str, kind: OfficeKind, expected: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(file);
    if python(test, writer, &[&path]).is_none() {
        return;
    }
    let Some(oracle) = python(test, ORACLE, &[&path]) else {
        return;
    };
    let bytes = std::fs::read(&path).unwrap();
    let reading = links(&bytes, &[], &Limits::default());
    assert_eq!(reading.kind, Some(kind));
    assert_eq!(reading.problems, Vec::new());
    let mut ours: Vec<&str> = reading
        .links
        .iter()
        .map(|link| link.target.as_str())
        .collect();
    ours.sort_unstable();
    let theirs: Vec<String> = serde_json::from_str(&oracle).unwrap();
    assert_eq!(ours, theirs, "room and oracle differ");
    assert_eq!(ours, expected, "the writer's links");
}

#[test]
fn python_docx() {
    check(
        "python_docx",
        DOCX,
        "t.docx",
        OfficeKind::Ooxml,
        &[
            "https://example.com/docx?a=1&b=2",
            "https://header.example/",
            "https://simple.example/",
            "https://split.example/field?x=1&y=2",
            "https://template.example/t.dotm",
        ],
    );
}

#[test]
fn openpyxl_xlsx() {
    check(
        "openpyxl_xlsx",
        XLSX,
        "t.xlsx",
        OfficeKind::Ooxml,
        &[
            "https://cell.example/?q=1&r=2",
            "https://formula.example/a?b=\"c\"",
            "https://second.example/",
            "mailto:someone@example.com",
        ],
    );
}

#[test]
fn python_pptx() {
    check(
        "python_pptx",
        PPTX,
        "t.pptx",
        OfficeKind::Ooxml,
        &["https://run.example/", "https://shape.example/?a=1&b=2"],
    );
}

#[test]
fn odfpy_odt() {
    check(
        "odfpy_odt",
        ODT,
        "t.odt",
        OfficeKind::OpenDocument,
        &["https://header.example/odt", "https://odt.example/?a=1&b=2"],
    );
}

#[test]
fn odfpy_ods() {
    check(
        "odfpy_ods",
        ODS,
        "t.ods",
        OfficeKind::OpenDocument,
        &["https://ods.example/cell", "https://ods.example/formula"],
    );
}
