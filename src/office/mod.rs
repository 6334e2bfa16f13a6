//! The office room: the links a reader of an office document can follow, with the part and
//! byte range each is written at. Three families are read: Office Open XML (`.docx`, `.xlsx`,
//! `.pptx` and their macro-enabled and template forms, ECMA-376), OpenDocument (`.odt`,
//! `.ods`, `.odp`, …, ODF 1.3) and RTF (version 1.9.1). The room knows nothing about mail: it
//! is handed the bytes of a file.
//!
//! # What is found
//!
//! - **Office Open XML** is a ZIP package of XML parts (ECMA-376 Part 2, Open Packaging
//!   Conventions). Every relationship part (`_rels/.rels`, `word/_rels/document.xml.rels`,
//!   `xl/worksheets/_rels/sheet1.xml.rels`, `ppt/slides/_rels/slide1.xml.rels`, … any part
//!   whose name ends `.rels`) is read, and each `Relationship` (Part 2, "Relationships")
//!   whose `TargetMode` is `External` is a link at place `relationship`: its `Target`,
//!   references decoded, at the range of the attribute's value. Hyperlinks in text, on shapes and in cells, attached
//!   templates, linked images, OLE links and frames all reach outside the package this way,
//!   whatever the relationship's type, so the type is not looked at; internal relationships
//!   name parts of the package and are not links.
//! - Word field codes (ECMA-376 Part 1 §17.16), in any XML part of the package (the main
//!   document, headers, footers, notes, comments, the glossary): complex fields, whose code is
//!   the text of the `w:instrText` runs between `w:fldChar` `begin` and `separate` (joined
//!   across runs; the result text of a field nested in a code is part of the code, as Word
//!   evaluates it), and simple fields' `w:fldSimple/@w:instr` (§17.16.19). A `HYPERLINK`
//!   field's target is its first argument; `INCLUDEPICTURE` and `INCLUDETEXT`, whose targets
//!   Word loads when it updates fields, are reported too (§17.16.5 defines the three), each
//!   at a place named by the field. How arguments, escapes and `\l` bookmarks are read is in
//!   [`field`].
//! - `HYPERLINK("…", …)` formulas (ECMA-376 Part 1 §18.17, the HYPERLINK function) in the
//!   `f` elements of any SpreadsheetML part, when their first argument is a string literal:
//!   place `HYPERLINK`.
//! - **OpenDocument** is a ZIP package too (ODF 1.3 Part 2). Its `content.xml` and
//!   `styles.xml` (headers, footers and master pages are in the latter), and those of the
//!   objects embedded in subfolders, are read for the links a reader clicks (ODF 1.3 Part 3):
//!   `xlink:href` of `text:a` (§6.1.8), of `draw:a` (a frame or shape that is a link), of
//!   `form:button` (a button that opens a URL) and of `presentation:event-listener` (an
//!   Impress object's "go to document" action), each at a place like `text:a@xlink:href`;
//!   and `HYPERLINK` formulas in `table:formula` (OpenFormula, ODF 1.3 Part 4, the HYPERLINK
//!   function). Images, sections and other objects linked from the document are loaded
//!   rather than clicked, and LibreOffice asks before it loads them; they are not reported.
//!   Parts encrypted with a password (ODF 1.3 Part 2, "Encryption": the manifest's
//!   `manifest:encryption-data`) are not decrypted: each is a [`ProblemKind::Encrypted`]
//!   problem.
//! - **RTF** is text: `{\field{\*\fldinst …}{\fldrslt …}}` groups hold field codes in
//!   Word's syntax ([`rtf`] reads them, escapes and all).
//!
//! Elements and attributes are named by namespace URI, whatever their prefixes, for both the
//! transitional and the strict (ISO/IEC 29500 Strict) namespaces of WordprocessingML and
//! SpreadsheetML. Links are in the order of the package's members, then of the text.
//!
//! # Ranges
//!
//! [`Link::range`] is 0-based, half-open, in bytes of the member [`Link::member`] as the
//! archive room decompressed it (or of the RTF file): the text the target is written as,
//! before any decoding. For an attribute, it is the whole value between its quotes. For a
//! field code, it is the argument between its quotes; when the code is split over several
//! `w:instrText` runs (or RTF groups), the range runs from the argument's first byte to its
//! last and holds the markup between them; a HYPERLINK with both a target and a `\l`
//! location keeps the target's range. A UTF-16 part's ranges are in its UTF-16 bytes.
//!
//! # Limits
//!
//! The archive room's [`Limits`] bound what is decompressed (each part is read whole into
//! memory, so `max_member_bytes` bounds the text a part's reader holds); XML is read by a
//! pull parser, which holds no tree and recurses nowhere (`quick-xml` also caps the
//! namespace bindings in scope and the nesting depth: a part past either stops there with a
//! [`ProblemKind::Broken`] problem), and RTF groups are counted on an explicit stack
//! ([`rtf::MAX_DEPTH`]). At most [`MAX_LINKS`] links are recorded for a
//! document, and a field code or formula is read up to [`MAX_CODE_BYTES`]; past either, a
//! [`ProblemKind::Limit`] problem is added.
//!
//! # Problems
//!
//! Problems are the archive room's [`Problem`]s, about the package (a broken ZIP, a
//! password that does not open it) or about a part: a part that is not well-formed XML, or
//! not UTF-8, is read up to the error, and its links before it are reported (Word and
//! LibreOffice refuse such a document, or repair it; a link they might show is reported
//! rather than missed), with a [`ProblemKind::Broken`] problem. Office documents encrypted
//! with a password are not ZIP packages but OLE compound files (ECMA-376 Part 2 does not
//! cover them, MS-OFFCRYPTO does): they are not recognized.

mod field;
mod mapped;
mod odf;
mod ooxml;
pub(crate) mod rtf;
#[cfg(test)]
mod tests;
mod xml;

use std::ops::Range;

use crate::archive::{self, Limits, Problem, ProblemKind};

/// How many links are recorded for one document: more than any real document holds, few
/// enough that a crafted one costs little.
pub(crate) const MAX_LINKS: usize = 10_000;

/// How many bytes of one field code or formula are read: the target comes first, and Word's
/// own codes are short.
pub(crate) const MAX_CODE_BYTES: usize = 64 << 10;

/// The families of office documents.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum OfficeKind {
    /// Office Open XML (ECMA-376): a ZIP package with a `[Content_Types].xml` part.
    Ooxml,
    /// OpenDocument (ODF 1.3): a ZIP package whose `mimetype` member names an
    /// `application/vnd.oasis.opendocument.*` type, or with a `META-INF/manifest.xml`.
    OpenDocument,
    /// Rich Text Format: text starting `{\rtf`.
    Rtf,
}

/// A link an office document holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Link {
    /// Where it was found: `relationship`, a field's name (`HYPERLINK`, `INCLUDEPICTURE`,
    /// `INCLUDETEXT`, also for spreadsheet formulas), or an OpenDocument element and
    /// attribute (`text:a@xlink:href`, `draw:a@xlink:href`, `form:button@xlink:href`,
    /// `presentation:event-listener@xlink:href`, with those conventional prefixes).
    pub place: &'static str,
    /// The link as the application follows it: references and escapes decoded, leading and
    /// trailing white space removed; not resolved against anything.
    pub target: String,
    /// The package member it is written in, by its name in the archive; `None` for RTF.
    pub member: Option<String>,
    /// The bytes of that member (or of the RTF file) the target is written at, 0-based,
    /// half-open (see the [module docs](self)).
    pub range: Range<usize>,
}

/// What [`links`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reading {
    /// The family of the document; `None` when the bytes are none of them (nothing else is
    /// then reported, but the problems of a ZIP file that could not be read).
    pub kind: Option<OfficeKind>,
    /// The links, in the order of the members, then of the text.
    pub links: Vec<Link>,
    /// What could not be read.
    pub problems: Vec<Problem>,
}

/// True when `bytes` start `{\rtf`, as every RTF file does (RTF 1.9.1: "an RTF file … begins
/// with the control word `\rtfN`").
pub(crate) fn is_rtf(bytes: &[u8]) -> bool {
    bytes.starts_with(b"{\\rtf")
}

/// The family of the document `bytes`: RTF by its first bytes, a ZIP package by its members
/// (see [`OfficeKind`]); `None` for anything else. For a package, only the central directory
/// and a `mimetype` member are read.
pub(crate) fn kind(bytes: &[u8]) -> Option<OfficeKind> {
    if is_rtf(bytes) {
        return Some(OfficeKind::Rtf);
    }
    if !archive::is_zip(bytes) {
        return None;
    }
    package_kind(bytes).0
}

/// The limits of the look at a package that finds its kind: the `mimetype` member alone,
/// which holds a media type.
const KIND_LIMITS: Limits = Limits {
    max_members: 1,
    max_member_bytes: 256,
    max_total_bytes: 256,
};

/// The kind of the ZIP package `bytes`, and the problems of reading its directory.
fn package_kind(bytes: &[u8]) -> (Option<OfficeKind>, Vec<Problem>) {
    let mut has_content_types = false;
    let mut has_manifest = false;
    let reading = archive::read_with(bytes, &[], &KIND_LIMITS, &mut |name| {
        // Part names compare as ASCII case-insensitive strings (ECMA-376 Part 2, rule M1.12).
        has_content_types |= name.eq_ignore_ascii_case("[Content_Types].xml");
        has_manifest |= name == "META-INF/manifest.xml";
        name == "mimetype"
    });
    let is_odf_type = reading.members.iter().any(|member| {
        member
            .bytes
            .starts_with(b"application/vnd.oasis.opendocument.")
    });
    let kind = if has_content_types {
        Some(OfficeKind::Ooxml)
    } else if is_odf_type || has_manifest {
        Some(OfficeKind::OpenDocument)
    } else {
        None
    };
    (kind, reading.problems)
}

/// The links of the office document `bytes`, of whichever family [`kind`] finds, reading a
/// package with `passwords` (for a ZIP package encrypted as a ZIP file) within `limits`.
/// Total: malformed input gives problems, never a panic.
pub(crate) fn links(bytes: &[u8], passwords: &[String], limits: &Limits) -> Reading {
    let mut sink = Sink::default();
    if is_rtf(bytes) {
        rtf::links(bytes, &mut sink);
        return sink.finish(Some(OfficeKind::Rtf));
    }
    if !archive::is_zip(bytes) {
        return sink.finish(None);
    }
    let (kind, problems) = package_kind(bytes);
    let Some(kind) = kind else {
        sink.problems = problems;
        return sink.finish(None);
    };
    let wanted: fn(&str) -> bool = match kind {
        OfficeKind::Ooxml => ooxml::is_wanted,
        _ => odf::is_wanted,
    };
    let reading = archive::read_with(bytes, passwords, limits, &mut |name| wanted(name));
    sink.problems = reading.problems;
    match kind {
        OfficeKind::Ooxml => ooxml::links(&reading.members, &mut sink),
        _ => odf::links(&reading.members, &mut sink),
    }
    sink.finish(Some(kind))
}

/// Where the readers of the formats put what they find.
#[derive(Debug, Default)]
pub(crate) struct Sink {
    /// The links found.
    links: Vec<Link>,
    /// The problems met.
    problems: Vec<Problem>,
    /// True once [`MAX_LINKS`] links were recorded and one more was found.
    is_full: bool,
}

impl Sink {
    /// Records a link; past [`MAX_LINKS`], records a problem once instead.
    fn add(
        &mut self,
        place: &'static str,
        target: &str,
        member: Option<&str>,
        range: Range<usize>,
    ) {
        if self.links.len() >= MAX_LINKS {
            if !self.is_full {
                self.is_full = true;
                self.problems.push(Problem::new(
                    ProblemKind::Limit,
                    member,
                    format!("more than {MAX_LINKS} links: the rest are not reported"),
                ));
            }
            return;
        }
        self.links.push(Link {
            place,
            target: target.to_owned(),
            member: member.map(str::to_owned),
            range,
        });
    }

    /// True once no more links are recorded: the readers stop.
    fn is_full(&self) -> bool {
        self.is_full
    }

    /// Records a problem.
    fn problem(&mut self, kind: ProblemKind, member: Option<&str>, message: String) {
        self.problems.push(Problem::new(kind, member, message));
    }

    /// The reading of a document of `kind`.
    fn finish(self, kind: Option<OfficeKind>) -> Reading {
        Reading {
            kind,
            links: self.links,
            problems: self.problems,
        }
    }
}

/// Reads the XML part `member` with `scan`, which is given the part's text and a way to map
/// ranges of it back to the part's bytes; a part that is not UTF-8 or UTF-16, or not
/// well-formed, is read up to the error and a [`ProblemKind::Broken`] problem says where.
fn read_xml_part(
    member: &archive::Member,
    sink: &mut Sink,
    scan: impl FnOnce(&xml::Document<'_>, &mut Sink) -> Result<(), xml::NotWellFormed>,
) {
    let (document, invalid) = xml::decode(&member.bytes);
    let first = sink.links.len();
    let result = scan(&document, sink);
    // Fields are reported where their codes end, nested ones first: put the part's links in
    // the order of their text.
    if let Some(part) = sink.links.get_mut(first..) {
        part.sort_by_key(|link| link.range.start);
    }
    if let Err(error) = result {
        let at = document.part_range(error.at..error.at).start;
        sink.problem(
            ProblemKind::Broken,
            Some(&member.name),
            format!(
                "not well-formed xml at byte {at}, read up to it: {}",
                error.reason
            ),
        );
    } else if let Some(at) = invalid {
        sink.problem(
            ProblemKind::Broken,
            Some(&member.name),
            format!("not utf-8 at byte {at}, read up to it"),
        );
    }
}
