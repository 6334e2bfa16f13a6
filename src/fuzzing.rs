//! Entry points into the stages of the pipeline, for the fuzz targets in `fuzz/` only: not
//! part of the API, hidden from the docs, and changed whenever a stage changes. Each
//! function runs one stage on its input and returns plain data for the targets' oracles, so
//! that a stage can be rewritten (a new HTML scanner, say) without touching the targets.

use std::ops::Range;

use crate::options::Options;
use crate::{css, headers, html, mime, svg, text};

/// One entity as the MIME splitter found it.
#[derive(Debug, Clone)]
pub struct SplitEntity {
    /// Index of the enclosing entity.
    pub parent: Option<usize>,
    /// Nesting depth: 0 for the root.
    pub depth: usize,
    /// Which bytes the ranges index: 0 the input, `n` the `n`th decoded buffer.
    pub buffer: usize,
    /// The header block, without the blank line that ends it.
    pub header: Range<usize>,
    /// The body.
    pub body: Range<usize>,
}

/// What the MIME splitter found.
#[derive(Debug, Clone)]
pub struct Split {
    /// Every entity, in document order.
    pub entities: Vec<SplitEntity>,
    /// The length of each buffer: the input's first, then each decoded buffer's.
    pub buffer_lens: Vec<usize>,
}

/// Splits `raw` into its entities (the MIME stage of `analyze`).
pub fn split(raw: &[u8], options: &Options) -> Split {
    let mut diagnostics = Vec::new();
    let walk = mime::split(raw, options, &mut diagnostics);
    let mut entities: Vec<SplitEntity> = Vec::with_capacity(walk.entities.len());
    for entity in &walk.entities {
        let depth = entity
            .parent
            .and_then(|p| entities.get(p))
            .map_or(0, |p| p.depth + 1);
        entities.push(SplitEntity {
            parent: entity.parent,
            depth,
            buffer: entity.buffer,
            header: entity.header.clone(),
            body: entity.body.clone(),
        });
    }
    let buffer_lens = std::iter::once(raw.len())
        .chain(walk.buffers.iter().map(|(_, bytes)| bytes.len()))
        .collect();
    Split {
        entities,
        buffer_lens,
    }
}

/// A header block as read.
#[derive(Debug, Clone)]
pub struct Header {
    /// The block, without the blank line that ends it.
    pub range: Range<usize>,
    /// Where the body starts.
    pub body_start: usize,
    /// Each field's name as written and its value unfolded.
    pub fields: Vec<(String, String)>,
}

/// Reads the header block at the start of `raw`, at most `max_bytes` of it, as the header of
/// a body part is read (lines that are not fields may come before its MIME fields).
pub fn header_block(raw: &[u8], max_bytes: usize) -> Header {
    // As a body part's header is read: a first line that is not a field may start it.
    let (block, every) =
        mime::header::parse_every_field(raw, mime::header::FirstLine::Lenient, max_bytes);
    Header {
        range: block.range,
        body_start: block.body_start,
        fields: every
            .into_iter()
            .map(|(name, value)| {
                let at = |range: Range<usize>| raw.get(range).unwrap_or_default();
                // The analysis unfolds only the fields it reads; the targets check them all.
                (
                    String::from_utf8_lossy(at(name)).into_owned(),
                    mime::header::unfold(at(value)),
                )
            })
            .collect(),
    }
}

/// The URL of a base field's value (`Base`, `Content-Base`, `Content-Location`).
pub fn base_value(value: &str) -> String {
    headers::base_value(value)
}

/// The URLs of an RFC 2369 list field's value.
pub fn list_urls(value: &str) -> Vec<String> {
    headers::list_urls(value)
}

/// `value` without its RFC 5322 comments.
pub fn strip_comments(value: &str) -> String {
    mime::header::strip_comments(value)
}

/// One URL the HTML scanner found.
#[derive(Debug, Clone)]
pub struct HtmlUrl {
    /// The element's local name.
    pub tag: String,
    /// The URL's bytes in the text (the whole value when it holds a character reference).
    pub range: Range<usize>,
    /// The attribute value's bytes (quotes excluded); `None` in a `<style>` element.
    pub value: Option<Range<usize>>,
    /// The URL, entity-decoded and trimmed.
    pub reference: String,
}

/// What the HTML scanner found.
#[derive(Debug, Clone)]
pub struct HtmlScan {
    /// Every URL, in document order.
    pub urls: Vec<HtmlUrl>,
    /// Index in `urls` of the `<base href>` that counts.
    pub base: Option<usize>,
    /// The `crossorigin` and `integrity` attributes of elements with URLs: where the name
    /// lies, and the span of the starts of the element's URLs.
    pub fetch_attributes: Vec<(Range<usize>, Range<usize>)>,
}

/// Scans an HTML document, already decoded to UTF-8; the URLs of its own document (those of
/// `<iframe srcdoc>` documents are [`srcdoc_scan`]'s).
pub fn html_scan(text: &str) -> HtmlScan {
    let scan = html::scan(text, usize::MAX);
    let own: Vec<_> = scan.urls.iter().filter(|url| url.document == 0).collect();
    HtmlScan {
        base: scan
            .base
            .and_then(|base| scan.urls.get(base))
            .and_then(|base| own.iter().position(|url| std::ptr::eq(*url, base))),
        urls: own
            .iter()
            .map(|url| HtmlUrl {
                tag: url.tag.to_string(),
                range: url.range.start..url.range.end,
                value: url.value.map(|v| v.start..v.end),
                reference: url.reference(text).to_owned(),
            })
            .collect(),
        fetch_attributes: scan
            .fetch_attributes
            .into_iter()
            .map(|attribute| (attribute.name, attribute.urls))
            .collect(),
    }
}

/// One URL of an `<iframe srcdoc>` document.
#[derive(Debug, Clone)]
pub struct SrcdocUrl {
    /// Where it lies in the scanned text (see `UrlSource::Html`'s `range`).
    pub range: Range<usize>,
    /// How many `srcdoc` documents deep it is (1 or more).
    pub depth: usize,
    /// The URL, entity-decoded and trimmed.
    pub reference: String,
}

/// The URLs of the `<iframe srcdoc>` documents of an HTML document, in document order, and
/// the raw value range (in the text) of each `srcdoc` attribute of the document itself.
pub fn srcdoc_scan(text: &str) -> (Vec<SrcdocUrl>, Vec<Range<usize>>) {
    let scan = html::scan(text, usize::MAX);
    let urls = scan
        .urls
        .iter()
        .filter(|url| url.document > 0)
        .map(|url| {
            let range = scan.part_range(url);
            SrcdocUrl {
                range: range.start..range.end,
                depth: url
                    .document
                    .checked_sub(1)
                    .and_then(|i| scan.srcdocs.get(i))
                    .map_or(0, |s| s.depth),
                reference: url.reference(text).to_owned(),
            }
        })
        .collect();
    let values = scan
        .srcdocs
        .iter()
        .filter(|srcdoc| srcdoc.parent == 0)
        .map(|srcdoc| srcdoc.value.start..srcdoc.value.end)
        .collect();
    (urls, values)
}

/// Every CSS `url()` of a style sheet: its range in `css` and its value.
pub fn css_urls(css: &str) -> Vec<(Range<usize>, String)> {
    css::urls(css)
        .into_iter()
        .map(|url| (url.range, url.reference))
        .collect()
}

/// One link the plain-text finder found.
#[derive(Debug, Clone)]
pub struct TextLink {
    /// The link text's bytes in the text.
    pub range: Range<usize>,
    /// The URL it opens.
    pub href: String,
    /// `absolute`, `www` or `email`.
    pub kind: &'static str,
    /// `none`, `rfc1738` (`<URL:…>`), `angle` (`<…>`) or `quotes` (`"…"`).
    pub delimiter: &'static str,
}

/// Every link Thunderbird's rules make of `text`, and whether every candidate was checked.
pub fn text_links(text: &str) -> (Vec<TextLink>, bool) {
    let mut links = Vec::new();
    let completeness = text::find_links(text, |link| {
        links.push(TextLink {
            range: link.range,
            href: link.href,
            kind: match link.kind {
                text::LinkKind::Absolute => "absolute",
                text::LinkKind::Www => "www",
                text::LinkKind::Email => "email",
            },
            delimiter: match link.delimiter {
                text::Delimiter::None => "none",
                text::Delimiter::Rfc1738 => "rfc1738",
                text::Delimiter::AngleBrackets => "angle",
                text::Delimiter::Quotes => "quotes",
            },
        });
    });
    (links, completeness == text::Completeness::Complete)
}

/// A text as a reader sees it, with the map back to the body it was made from.
#[derive(Debug, Clone)]
pub struct Shown {
    /// What the reader sees.
    pub text: String,
    /// The map's pieces in order: bytes of `text`, the bytes of the body they stand for, and
    /// whether they are those bytes unchanged.
    pub pieces: Vec<(Range<usize>, Range<usize>, bool)>,
    map: text::OffsetMap,
}

impl Shown {
    fn new(shown: text::ShownText) -> Shown {
        Shown {
            pieces: shown.map.pieces().collect(),
            text: shown.text,
            map: shown.map,
        }
    }

    /// The body bytes behind the shown bytes `range`.
    pub fn source_range(&self, range: Range<usize>) -> Range<usize> {
        self.map.source_range(range)
    }
}

/// A `format=flowed` body joined (RFC 3676); `delete_space` is `delsp=yes`.
pub fn unflow(body: &str, delete_space: bool) -> Shown {
    Shown::new(text::flowed::unflow(body, delete_space))
}

/// The visible text of a `text/enriched` body (RFC 1896).
pub fn enriched_text(body: &str) -> Shown {
    Shown::new(text::enriched::visible_text(body))
}

/// What the uuencode decoder gave for a body.
#[derive(Debug, Clone)]
pub struct Uudecoded {
    /// The decoded bytes.
    pub bytes: Vec<u8>,
    /// No `begin` line: nothing was decoded.
    pub no_begin: bool,
    /// No `end` line after the `begin` line.
    pub no_end: bool,
    /// Data lines of another length than their length character gives.
    pub bad_lines: usize,
    /// Bytes other than white space after the `end` line.
    pub after_end: usize,
}

/// Decodes an `x-uuencode` body (the transfer decoding of `analyze`).
pub fn uudecode(body: &[u8]) -> Uudecoded {
    let (bytes, repairs) = mime::transfer::uudecode(body);
    Uudecoded {
        bytes,
        no_begin: repairs.no_begin,
        no_end: repairs.no_end,
        bad_lines: repairs.bad_lines,
        after_end: repairs.after_end,
    }
}

/// What the SVG scanner found.
#[derive(Debug, Clone)]
pub struct SvgScan {
    /// Every URL, sorted by range start; `tag` is the element's local name (or
    /// `xml-stylesheet`).
    pub urls: Vec<SvgUrl>,
    /// Index in `urls` of the XHTML `<base href>` that counts.
    pub base: Option<usize>,
    /// The raw values whose URLs are not at exact ranges: each range, and true when it is an
    /// entity reference rather than a value with references.
    pub inexact_values: Vec<(Range<usize>, bool)>,
    /// Where reading stopped before the end (a well-formedness error or a limit).
    pub stopped_at: Option<usize>,
}

/// One URL the SVG scanner found.
#[derive(Debug, Clone)]
pub struct SvgUrl {
    /// The element's local name.
    pub tag: String,
    /// The attribute (`xlink:href` for XLink's `href`); `None` for a `<style>` element.
    pub attribute: Option<&'static str>,
    /// The URL's bytes in the text (see the SVG scan's docs for when they are exact).
    pub range: Range<usize>,
    /// The raw value's bytes; `None` in a `<style>` element whose URLs are at exact ranges.
    pub value: Option<Range<usize>>,
    /// The URL, decoded and trimmed.
    pub reference: String,
}

/// Scans an SVG document, already decoded to UTF-8.
pub fn svg_scan(text: &str) -> SvgScan {
    let scanned = svg::scan(text, usize::MAX);
    SvgScan {
        urls: scanned
            .scan
            .urls
            .iter()
            .map(|url| SvgUrl {
                tag: url.tag.to_string(),
                attribute: url.attribute,
                range: url.range.start..url.range.end,
                value: url.value.map(|v| v.start..v.end),
                reference: url.reference(text).to_owned(),
            })
            .collect(),
        base: scanned.scan.base,
        inexact_values: scanned
            .values
            .iter()
            .map(|value| {
                (
                    value.range.start..value.range.end,
                    value.text == svg::ValueText::Entity,
                )
            })
            .collect(),
        stopped_at: scanned.stop.map(|stop| stop.at),
    }
}

/// The bytes `extract` writes offline for the page `page` (in its own encoding): the policy
/// inserted, read as HTML or (`xml`) as XML; `None` when an XML page has no place for it.
pub fn policy_insert(page: &[u8], xml: bool) -> Option<Vec<u8>> {
    use crate::extract::policy::{Flavor, insert};
    insert(page, if xml { Flavor::Xml } else { Flavor::Html }).ok()
}

/// One property of a calendar that holds links, as the calendar reader gives it.
#[derive(Debug, Clone)]
pub struct CalendarProperty {
    /// Its canonical name.
    pub name: &'static str,
    /// Its value, unfolded (a TEXT value unescaped).
    pub value: String,
    /// Where each byte of the value came from: `(shown, source, copied)` pieces.
    pub pieces: Vec<(Range<usize>, Range<usize>, bool)>,
}

/// The properties of the calendar `text` that hold links.
pub fn calendar_properties(text: &str) -> Vec<CalendarProperty> {
    let mut found = Vec::new();
    crate::calendar::linked_properties(text, |property| {
        found.push(CalendarProperty {
            name: property.name,
            pieces: property.value.map.pieces().collect(),
            value: property.value.text,
        });
    });
    found
}

/// The link of the shortcut file `bytes` and its range in the file, or why there is none.
pub fn shortcut_link(bytes: &[u8]) -> Result<(String, Option<Range<usize>>), String> {
    crate::shortcut::link(bytes)
        .map(|link| (link.reference, link.range))
        .map_err(|error| error.to_string())
}

/// What the archive reader found in `bytes`: how it was opened (`None`: not encrypted or not
/// opened; `Some(i)`: by password `i`, the empty password being `usize::MAX`), each member's
/// name and length, and the number of problems.
pub fn archive_members(
    bytes: &[u8],
    passwords: &[String],
    max_member_bytes: usize,
    max_total_bytes: usize,
    max_members: usize,
) -> (Option<usize>, Vec<(String, usize)>, usize) {
    let limits = crate::archive::Limits {
        max_members,
        max_member_bytes,
        max_total_bytes,
    };
    let reading = crate::archive::read(bytes, passwords, &limits);
    let opened = match reading.opened {
        crate::archive::Opened::Password(i) => Some(i),
        crate::archive::Opened::EmptyPassword => Some(usize::MAX),
        crate::archive::Opened::NotEncrypted | crate::archive::Opened::Closed => None,
    };
    (
        opened,
        reading
            .members
            .into_iter()
            .map(|m| (m.name, m.bytes.len()))
            .collect(),
        reading.problems.len(),
    )
}

/// One link of an office document: its place, target, member and range.
pub type OfficeLink = (&'static str, String, Option<String>, Range<usize>);

/// The links of the office document `bytes` (Office Open XML, OpenDocument, RTF).
pub fn office_links(bytes: &[u8], max_bytes: usize) -> Vec<OfficeLink> {
    let limits = crate::archive::Limits {
        max_members: 1_000,
        max_member_bytes: max_bytes,
        max_total_bytes: max_bytes,
    };
    crate::office::links(bytes, &[], &limits)
        .links
        .into_iter()
        .map(|link| (link.place, link.target, link.member, link.range))
        .collect()
}

/// The passwords the text states, at most `max`.
pub fn stated_passwords(text: &str, max: usize) -> Vec<String> {
    crate::password::stated(text, max)
}

/// What the PDF reader found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdfRead {
    /// How it was opened: `None` when not encrypted or closed; `Some(i)` by password `i`, the
    /// empty password being `usize::MAX`.
    pub opened: Option<usize>,
    /// Each link's target and page.
    pub links: Vec<(String, Option<u32>)>,
    /// The bytes of page text kept.
    pub text_bytes: usize,
    /// The number of problems.
    pub problems: usize,
}

/// Reads the PDF file `bytes` within the limits given (and 10 000 objects).
pub fn pdf_read(
    bytes: &[u8],
    passwords: &[String],
    max_decompressed_bytes: usize,
    max_text_bytes: usize,
    max_links: usize,
) -> PdfRead {
    let limits = crate::pdf::Limits {
        max_decompressed_bytes,
        max_objects: 10_000,
        max_text_bytes,
        max_links,
    };
    let reading = crate::pdf::read(bytes, passwords, &limits);
    let opened = match reading.opened {
        crate::pdf::Opened::Password(i) => Some(i),
        crate::pdf::Opened::EmptyPassword => Some(usize::MAX),
        crate::pdf::Opened::NotEncrypted | crate::pdf::Opened::Closed => None,
    };
    PdfRead {
        opened,
        links: reading
            .links
            .into_iter()
            .map(|link| (link.target, link.page))
            .collect(),
        text_bytes: reading.pages.iter().map(|page| page.text.len()).sum(),
        problems: reading.problems.len(),
    }
}
