//! Hand-written OOXML and OpenDocument packages, with links in every shape the readers know,
//! and mutated packages.

use pretty_assertions::assert_eq;

use super::{package, targets, written};
use crate::archive::{self, Limits, ProblemKind};
use crate::office::{Link, MAX_LINKS, OfficeKind, kind, links};

const CONTENT_TYPES: &str =
    r#"<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>"#;
const PACKAGE_RELS: &str = r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>"#;

const DOCUMENT_RELS: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<pr:Relationships xmlns:pr="http://schemas.openxmlformats.org/package/2006/relationships">
<pr:Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>
<pr:Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="https://example.com/?a=1&amp;b=2" TargetMode="External"/>
<pr:Relationship TargetMode=" External " Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/attachedTemplate" Target=" https://template.example/t.dotm "/>
<pr:Relationship Id="rId4" Type="x" Target="internal.xml" TargetMode="Internal"/>
<Relationship Id="rId5" Type="x" Target="https://no-namespace.example/" TargetMode="External"/>
</pr:Relationships>"#;

const DOCUMENT: &str = r#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>
<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText xml:space="preserve"> HYPERLINK "https://split.</w:instrText></w:r>
<w:r><w:instrText>example/a?x=1&amp;y=2"</w:instrText></w:r><w:r><w:instrText xml:space="preserve"> \o "tip"</w:instrText></w:r>
<w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>shown</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>
<w:p><w:fldSimple w:instr=" HYPERLINK &quot;https://simple.example/&quot; \o &quot;x&quot;"><w:r><w:t>s</w:t></w:r></w:fldSimple></w:p>
<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>HYPERLINK "</w:instrText></w:r>
<w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> DOCPROPERTY site </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r>
<w:r><w:t>https://nested.example/</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r>
<w:r><w:instrText>"</w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r><w:r><w:t>nested</w:t></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>
<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>HYPERLINK \l "_Toc1"</w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>
<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>INCLUDEPICTURE "https://pixel.example/p.gif" \d</w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>
<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText>PAGE</w:instrText></w:r><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>
<w:p xmlns:v="urn:not-word"><v:fldSimple v:instr="HYPERLINK &quot;https://decoy.example/&quot;"/><w:r><w:t>HYPERLINK "https://plain-text.example/"</w:t></w:r></w:p>
</w:body></w:document>"#;

/// A DOCX package with `document` as its main part.
fn docx(document: &str) -> Vec<u8> {
    package(&[
        ("[Content_Types].xml", CONTENT_TYPES),
        ("_rels/.rels", PACKAGE_RELS),
        ("word/_rels/document.xml.rels", DOCUMENT_RELS),
        ("word/document.xml", document),
    ])
}

/// The member named `name` of the package `bytes`.
fn member(bytes: &[u8], name: &str) -> Vec<u8> {
    archive::read_member(bytes, name, &Limits::default()).unwrap()
}

#[test]
fn docx_relationships_and_fields() {
    let bytes = docx(DOCUMENT);
    let reading = links(&bytes, &[], &Limits::default());
    assert_eq!(reading.kind, Some(OfficeKind::Ooxml));
    assert_eq!(reading.problems, Vec::new());
    assert_eq!(
        targets(&reading),
        [
            "https://example.com/?a=1&b=2",
            "https://template.example/t.dotm",
            "https://split.example/a?x=1&y=2",
            "https://simple.example/",
            "https://nested.example/",
            "#_Toc1",
            "https://pixel.example/p.gif",
        ]
    );
    let places: Vec<&str> = reading.links.iter().map(|link| link.place).collect();
    assert_eq!(places[..2], ["relationship", "relationship"]);
    assert_eq!(places[2..6], ["HYPERLINK"; 4]);
    assert_eq!(places[6], "INCLUDEPICTURE");
    let rels = member(&bytes, "word/_rels/document.xml.rels");
    let document = member(&bytes, "word/document.xml");
    let texts: Vec<&str> = reading
        .links
        .iter()
        .map(|link: &Link| match link.member.as_deref() {
            Some("word/_rels/document.xml.rels") => written(&rels, link),
            Some("word/document.xml") => written(&document, link),
            other => panic!("{other:?}"),
        })
        .collect();
    assert_eq!(texts[0], "https://example.com/?a=1&amp;b=2");
    assert_eq!(texts[1], " https://template.example/t.dotm ");
    assert!(
        texts[2].starts_with("https://split.</w:instrText>"),
        "{}",
        texts[2]
    );
    assert!(texts[2].ends_with("example/a?x=1&amp;y=2"), "{}", texts[2]);
    assert_eq!(texts[3], "https://simple.example/");
    assert_eq!(texts[4], "https://nested.example/");
    assert_eq!(texts[5], "_Toc1");
    assert_eq!(texts[6], "https://pixel.example/p.gif");
}

#[test]
fn strict_namespaces_and_any_prefix() {
    let document = r#"<x:document xmlns:x="http://purl.oclc.org/ooxml/wordprocessingml/main"><x:body>
<x:p><x:fldSimple x:instr="HYPERLINK https://strict.example/"/></x:p></x:body></x:document>"#;
    let reading = links(&docx(document), &[], &Limits::default());
    assert_eq!(
        targets(&reading),
        [
            "https://example.com/?a=1&b=2",
            "https://template.example/t.dotm",
            "https://strict.example/"
        ]
    );
}

#[test]
fn xlsx_formulas_and_hyperlinks() {
    let sheet = r#"<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>
<row r="1"><c r="A1"><f>HYPERLINK("https://cell.example/?a=1&amp;b=2","x")</f><v>x</v></c>
<c r="B1"><f t="shared" ref="B1:B9" si="0">hyperlink("https://shared.example/")</f></c>
<c r="C1"><f>HYPERLINK(A1)</f></c><c r="D1" t="str"><v>HYPERLINK("https://value.example/")</v></c></row>
</sheetData></worksheet>"#;
    let rels = r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="mailto:a@example.com" TargetMode="External"/></Relationships>"#;
    let bytes = package(&[
        ("[Content_Types].xml", CONTENT_TYPES),
        ("xl/worksheets/sheet1.xml", sheet),
        ("xl/worksheets/_rels/sheet1.xml.rels", rels),
    ]);
    let reading = links(&bytes, &[], &Limits::default());
    assert_eq!(
        targets(&reading),
        [
            "https://cell.example/?a=1&b=2",
            "https://shared.example/",
            "mailto:a@example.com"
        ]
    );
    let text = member(&bytes, "xl/worksheets/sheet1.xml");
    assert_eq!(
        written(&text, &reading.links[0]),
        "https://cell.example/?a=1&amp;b=2"
    );
}

#[test]
fn utf16_relationship_part() {
    let rels = r#"<?xml version="1.0" encoding="UTF-16"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="r" Type="t" Target="https://utf16.example/é" TargetMode="External"/></Relationships>"#;
    let utf16: Vec<u8> = [0xFF, 0xFE]
        .into_iter()
        .chain(rels.encode_utf16().flat_map(u16::to_le_bytes))
        .collect();
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    writer
        .start_file(
            "[Content_Types].xml",
            zip::write::SimpleFileOptions::default(),
        )
        .unwrap();
    std::io::Write::write_all(&mut writer, CONTENT_TYPES.as_bytes()).unwrap();
    writer
        .start_file("_rels/.rels", zip::write::SimpleFileOptions::default())
        .unwrap();
    std::io::Write::write_all(&mut writer, &utf16).unwrap();
    let bytes = writer.finish().unwrap().into_inner();
    let reading = links(&bytes, &[], &Limits::default());
    assert_eq!(targets(&reading), ["https://utf16.example/é"]);
    let raw = &utf16[reading.links[0].range.clone()];
    let units: Vec<u16> = raw
        .chunks(2)
        .map(|pair| u16::from_le_bytes([pair[0], pair[1]]))
        .collect();
    assert_eq!(
        String::from_utf16(&units).unwrap(),
        "https://utf16.example/é"
    );
}

#[test]
fn malformed_parts_keep_the_links_before_the_error() {
    let rels = r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Target="https://before.example/" TargetMode="External"/><Relationship Target="https://after.example/" TargetMode="External"></Oops></Relationships>"#;
    let bytes = package(&[
        ("[Content_Types].xml", CONTENT_TYPES),
        ("_rels/.rels", rels),
    ]);
    let reading = links(&bytes, &[], &Limits::default());
    assert_eq!(
        targets(&reading),
        ["https://before.example/", "https://after.example/"]
    );
    assert_eq!(reading.problems.len(), 1);
    assert_eq!(reading.problems[0].kind, ProblemKind::Broken);
    assert_eq!(reading.problems[0].member.as_deref(), Some("_rels/.rels"));
    // Bytes that are not UTF-8 end the part.
    let mut bad = Vec::from(&br#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Target="https://ok.example/" TargetMode="External"/>"#[..]);
    bad.extend_from_slice(
        b"\xFF<Relationship Target=\"https://no.example/\" TargetMode=\"External\"/>",
    );
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    writer
        .start_file(
            "[Content_Types].xml",
            zip::write::SimpleFileOptions::default(),
        )
        .unwrap();
    writer
        .start_file("_rels/.rels", zip::write::SimpleFileOptions::default())
        .unwrap();
    std::io::Write::write_all(&mut writer, &bad).unwrap();
    let reading = links(
        &writer.finish().unwrap().into_inner(),
        &[],
        &Limits::default(),
    );
    assert_eq!(targets(&reading), ["https://ok.example/"]);
    assert!(
        reading.problems[0].message.starts_with("not "),
        "{:?}",
        reading.problems
    );
}

#[test]
fn truncated_package_is_read_by_its_local_headers() {
    let bytes = docx(DOCUMENT);
    let cut = &bytes[..bytes.len() - 200];
    assert_eq!(kind(cut), Some(OfficeKind::Ooxml));
    let reading = links(cut, &[], &Limits::default());
    assert_eq!(reading.kind, Some(OfficeKind::Ooxml));
    assert_eq!(reading.links.len(), 7);
    assert_eq!(reading.problems[0].kind, ProblemKind::Broken);
}

#[test]
fn deep_or_namespace_heavy_parts_stop_with_a_problem() {
    let link = r#"<r:Relationship Target="https://kept.example/" TargetMode="External"/>"#;
    let open = r#"<r:Relationships xmlns:r="http://schemas.openxmlformats.org/package/2006/relationships">"#;
    let deep = format!("{open}{link}{}", "<a>".repeat(70_000));
    let bindings: String = (0..200)
        .map(|i| format!(r#"<e xmlns:p{i}="urn:{i}">"#))
        .collect();
    let heavy = format!("{open}{link}{bindings}");
    for part in [deep, heavy] {
        let bytes = package(&[
            ("[Content_Types].xml", CONTENT_TYPES),
            ("_rels/.rels", &part),
        ]);
        let reading = links(&bytes, &[], &Limits::default());
        assert_eq!(targets(&reading), ["https://kept.example/"]);
        assert_eq!(reading.problems.len(), 1, "{:?}", reading.problems);
        assert_eq!(reading.problems[0].kind, ProblemKind::Broken);
    }
}

#[test]
fn links_past_the_limit_are_not_recorded() {
    let mut rels = String::from(
        r#"<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">"#,
    );
    for i in 0..MAX_LINKS + 5 {
        rels.push_str(&format!(
            r#"<Relationship Target="https://x.example/{i}" TargetMode="External"/>"#
        ));
    }
    rels.push_str("</Relationships>");
    let bytes = package(&[
        ("[Content_Types].xml", CONTENT_TYPES),
        ("_rels/.rels", &rels),
    ]);
    let reading = links(&bytes, &[], &Limits::default());
    assert_eq!(reading.links.len(), MAX_LINKS);
    assert_eq!(reading.problems.len(), 1);
    assert_eq!(reading.problems[0].kind, ProblemKind::Limit);
}

const ODF_CONTENT: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:t="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" xmlns:form="urn:oasis:names:tc:opendocument:xmlns:form:1.0" xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:xl="http://www.w3.org/1999/xlink" xmlns:fake="urn:fake">
<office:body><office:text>
<t:p>See <t:a xl:type="simple" xl:href="https://text.example/?a=1&amp;b=2">this</t:a>.</t:p>
<draw:a xl:href="https://frame.example/"><draw:frame/></draw:a>
<form:button form:button-type="url" xl:href="https://button.example/"/>
<presentation:event-listener xl:href="https://slide-action.example/"/>
<draw:image xl:href="https://image.example/not-clicked.png"/>
<fake:a xl:href="https://decoy.example/"/>
<t:a href="https://no-xlink.example/">x</t:a>
<table:table><table:table-row><table:table-cell table:formula="of:=HYPERLINK(&quot;https://formula.example/&quot;;&quot;go&quot;)"/></table:table-row></table:table>
</office:text></office:body></office:document-content>"#;

const ODF_STYLES: &str = r#"<office:document-styles xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"><office:master-styles><style:master-page><style:header><text:p><text:a xlink:href="https://header.example/">h</text:a></text:p></style:header></style:master-page></office:master-styles></office:document-styles>"#;

const MANIFEST: &str = r#"<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="/" manifest:media-type="application/vnd.oasis.opendocument.text"/><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/></manifest:manifest>"#;

#[test]
fn opendocument_clickable_links() {
    let bytes = package(&[
        ("mimetype", "application/vnd.oasis.opendocument.text"),
        ("content.xml", ODF_CONTENT),
        ("styles.xml", ODF_STYLES),
        ("Object 1/content.xml", ODF_STYLES),
        ("META-INF/manifest.xml", MANIFEST),
    ]);
    assert_eq!(kind(&bytes), Some(OfficeKind::OpenDocument));
    let reading = links(&bytes, &[], &Limits::default());
    assert_eq!(reading.problems, Vec::new());
    assert_eq!(
        targets(&reading),
        [
            "https://text.example/?a=1&b=2",
            "https://frame.example/",
            "https://button.example/",
            "https://slide-action.example/",
            "https://formula.example/",
            "https://header.example/",
            "https://header.example/",
        ]
    );
    let places: Vec<&str> = reading.links.iter().map(|link| link.place).collect();
    assert_eq!(
        places,
        [
            "text:a@xlink:href",
            "draw:a@xlink:href",
            "form:button@xlink:href",
            "presentation:event-listener@xlink:href",
            "HYPERLINK",
            "text:a@xlink:href",
            "text:a@xlink:href",
        ]
    );
    let content = member(&bytes, "content.xml");
    assert_eq!(
        written(&content, &reading.links[0]),
        "https://text.example/?a=1&amp;b=2"
    );
    assert_eq!(
        written(&content, &reading.links[4]),
        "https://formula.example/"
    );
    assert_eq!(
        reading.links[6].member.as_deref(),
        Some("Object 1/content.xml")
    );
}

#[test]
fn opendocument_encrypted_parts_are_problems() {
    let manifest = r#"<manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0"><manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"><manifest:encryption-data manifest:checksum-type="SHA1/1K" manifest:checksum="x"><manifest:algorithm manifest:algorithm-name="Blowfish CFB" manifest:initialisation-vector="x"/></manifest:encryption-data></manifest:file-entry></manifest:manifest>"#;
    let bytes = package(&[
        ("mimetype", "application/vnd.oasis.opendocument.text"),
        ("content.xml", "\u{1}\u{2}binary"),
        ("styles.xml", ODF_STYLES),
        ("META-INF/manifest.xml", manifest),
    ]);
    let reading = links(&bytes, &[], &Limits::default());
    assert_eq!(targets(&reading), ["https://header.example/"]);
    assert_eq!(reading.problems.len(), 1);
    assert_eq!(reading.problems[0].kind, ProblemKind::Encrypted);
    assert_eq!(reading.problems[0].member.as_deref(), Some("content.xml"));
}

#[test]
fn kinds() {
    assert_eq!(kind(&docx(DOCUMENT)), Some(OfficeKind::Ooxml));
    // Part names compare case-insensitively.
    assert_eq!(
        kind(&package(&[("[content_types].XML", CONTENT_TYPES)])),
        Some(OfficeKind::Ooxml)
    );
    assert_eq!(
        kind(&package(&[("META-INF/manifest.xml", MANIFEST)])),
        Some(OfficeKind::OpenDocument)
    );
    assert_eq!(
        kind(&package(&[(
            "mimetype",
            "application/vnd.oasis.opendocument.spreadsheet"
        )])),
        Some(OfficeKind::OpenDocument)
    );
    assert_eq!(
        kind(&package(&[("mimetype", "application/epub+zip")])),
        None
    );
    assert_eq!(kind(&package(&[("a.html", "<a href=x>")])), None);
    assert_eq!(kind(br"{\rtf1 hello}"), Some(OfficeKind::Rtf));
    assert_eq!(kind(b"PK\x03\x04garbage"), None);
    assert_eq!(kind(b"not a document"), None);
    let plain = links(&package(&[("a.xml", "<a/>")]), &[], &Limits::default());
    assert_eq!(plain.kind, None);
    assert_eq!(plain.links, Vec::new());
}

#[test]
fn zip_encrypted_package_opens_with_its_password() {
    let options =
        zip::write::SimpleFileOptions::default().with_aes_encryption(zip::AesMode::Aes256, "pw");
    let mut writer = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    for (name, text) in [
        ("[Content_Types].xml", CONTENT_TYPES),
        ("word/_rels/document.xml.rels", DOCUMENT_RELS),
    ] {
        writer.start_file(name, options).unwrap();
        std::io::Write::write_all(&mut writer, text.as_bytes()).unwrap();
    }
    let bytes = writer.finish().unwrap().into_inner();
    let reading = links(&bytes, &["pw".to_owned()], &Limits::default());
    assert_eq!(
        targets(&reading),
        [
            "https://example.com/?a=1&b=2",
            "https://template.example/t.dotm"
        ]
    );
    let closed = links(&bytes, &[], &Limits::default());
    assert_eq!(closed.links, Vec::new());
    assert_eq!(closed.problems[0].kind, ProblemKind::Encrypted);
}

/// A deterministic generator of test bytes (xorshift64*).
struct Rng(u64);

impl Rng {
    fn below(&mut self, bound: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) % bound as u64) as usize
    }
}

/// Every link of a reading lies inside its member.
#[track_caller]
fn ranges_hold(bytes: &[u8], reading: &crate::office::Reading) {
    let members = archive::read(bytes, &[], &Limits::default()).members;
    for link in &reading.links {
        let member = members
            .iter()
            .find(|m| Some(&m.name) == link.member.as_ref())
            .unwrap();
        assert!(
            link.range.start <= link.range.end && link.range.end <= member.bytes.len(),
            "{link:?}"
        );
    }
}

/// The DOCX flipped at 2000 positions, one at a time, and its main part's XML mutated and
/// zipped anew another 2000 times: no panic, and every range inside its member.
#[test]
fn mutated_docx_never_panics() {
    let original = docx(DOCUMENT);
    let mut rng = Rng(0xd0c5);
    for round in 0..2000 {
        let mut bytes = original.clone();
        let at = (round * 7919 + rng.below(7)) % bytes.len();
        bytes[at] ^= 1 << rng.below(8);
        let reading = links(&bytes, &[], &Limits::default());
        ranges_hold(&bytes, &reading);
    }
    let markup = b"<>&;\"'/=: \\{}#";
    for _ in 0..2000 {
        let mut text = DOCUMENT.as_bytes().to_vec();
        for _ in 0..=rng.below(4) {
            let at = rng.below(text.len());
            match rng.below(3) {
                0 => text[at] = markup[rng.below(markup.len())],
                1 => {
                    text.remove(at);
                }
                _ => text.insert(at, markup[rng.below(markup.len())]),
            }
        }
        let document = String::from_utf8_lossy(&text);
        let bytes = docx(&document);
        let reading = links(&bytes, &[], &Limits::default());
        ranges_hold(&bytes, &reading);
    }
}
