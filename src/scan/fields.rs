//! `message` lines with only some of their keys ([`Fields`]), for an index that wants, say,
//! each message's place, [`Summary`](crate::Summary) and resolved URLs, and not the rest
//! (`mimebase scan --fields`).

use std::fmt;
use std::str::FromStr;

use super::json::{
    base_record, byte_range, entity_record, file_fields, number, optional_number, optional_string,
    serialized, string, summary, url_record,
};
use crate::report::{Report, Resolution, ScanLine, Source, UrlRecord, UrlSource};
use crate::vocab::{UnknownName, vocabulary};

vocabulary! {
    /// A key of a `message` line that [`Fields`] can ask for: the line's own keys, and, as
    /// `urls.KEY`, the keys of each of its URL records (the names of `mimebase urls
    /// --fields`, where the JSON has them).
    #[non_exhaustive]
    pub enum RecordField {
        Path => "path",
            "`path`, and `path_bytes` when the path is not UTF-8.";
        Format => "format",
            "`format`: `file` or `mbox`.";
        Offset => "offset",
            "`offset`: where the message starts in its file, in bytes.";
        Length => "length",
            "`length`: the message's size in its file, in bytes.";
        MessageId => "message_id",
            "`message_id`: the root's `Message-ID` as written.";
        Complete => "complete",
            "`complete`: false when a limit cut the analysis.";
        Summary => "summary",
            "`summary`: the message's decoded `Subject`, `From`, `Date` and `Message-ID`.";
        Entities => "entities",
            "`entities`: every entity's record, whole.";
        Urls => "urls",
            "`urls`: every URL record, whole (with no `urls.KEY` asked for).";
        Diagnostics => "diagnostics",
            "`diagnostics`: every diagnostic.";
        UrlPart => "urls.part",
            "`part` of each URL record: the entity it was found in.";
        UrlSource => "urls.source",
            "`source` of each URL record, with the keys that place it: `field` and `item`, or `range` (and `srcdoc`); for a link inside a file, `member`, `range`, `object`, `page` and `linkified`, those it has.";
        UrlReference => "urls.reference",
            "`reference` of each URL record: the URL as written.";
        UrlResolved => "urls.resolved",
            "`resolved` of each URL record (null when it did not resolve).";
        UrlUnresolved => "urls.unresolved",
            "`unresolved` of each URL record that did not resolve: `no_base` or `resolver_error`.";
        UrlError => "urls.error",
            "`error` of each URL record the resolver refused: why.";
        UrlBase => "urls.base",
            "`base` of each URL record: the base it resolved against, and where that came from.";
        UrlBaseDecided => "urls.base_decided",
            "`base_decided` of each URL record: whether the base decided where it leads.";
        UrlResolver => "urls.resolver",
            "`resolver` of each URL record.";
        UrlTarget => "urls.target",
            "`target` of each URL record that names a part of the message.";
        UrlIgnored => "urls.ignored",
            "`ignored` of each URL record of a base that does not apply: why.";
        UrlText => "urls.text",
            "`text` of each link (`a` or `area` `href`): what a reader sees of it.";
        UrlTitle => "urls.title",
            "`title` of each link that has one.";
        UrlTextHostDiffers => "urls.text_host_differs",
            "`text_host_differs` of each link: its text names another host than it reaches.";
    }
}

impl FromStr for RecordField {
    type Err = UnknownName;

    /// The key whose name is `name`, exactly ([`RecordField::NAMES`]).
    fn from_str(name: &str) -> Result<Self, Self::Err> {
        RecordField::ALL
            .into_iter()
            .find(|field| field.as_str() == name)
            .ok_or_else(|| UnknownName::new("record field", name, RecordField::NAMES))
    }
}

/// The keys of a `message` line to write ([`ScanLine::write_json_fields`]): a set of
/// [`RecordField`]s. Asking for a `urls.KEY` writes `urls` with only those keys in each URL
/// record.
///
/// The keys written are those of the full line ([`ScanLine::write_json`]), with the same
/// values, in the same order (the line's, not the order they were asked in); a key not asked
/// for is left out, and so is one the full line leaves out (`target` of a URL that names no
/// part). `type` is always written. [`ScanLine::Error`] lines are always written whole: a
/// failure is rare, and an index needs to know of it. A line with fewer keys is no longer a
/// [`ScanLine`] that serde reads back (the keys it requires are missing): read it as plain
/// JSON.
///
/// ```
/// use mimebase::scan::{Fields, RecordField, ScanLine, Source};
///
/// let message = b"Subject: hi\r\nContent-Type: text/html\r\n\r\n<a href=\"http://example.com/\">x</a>";
/// let report = mimebase::analyze(message, &mimebase::Options::new());
/// let fields: Fields = "path,summary,urls.resolved".parse()?;
/// let mut out = Vec::new();
/// ScanLine::message(&Source::file("x.eml", 74), &report).write_json_fields(fields, &mut out);
/// assert_eq!(
///     String::from_utf8(out)?,
///     r#"{"type":"message","path":"x.eml","summary":{"subject":"hi","from":null,"date":null,"message_id":null},"urls":[{"resolved":"http://example.com/"}]}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct Fields {
    /// Bit `i` for `RecordField::ALL[i]`.
    bits: u32,
}

// One bit per field.
const _: () = assert!(RecordField::ALL.len() <= 32);

/// The bits of the `urls.KEY` fields.
const URL_KEYS: u32 = !((1 << RecordField::UrlPart as u32) - 1);

impl Fields {
    /// No key but `type`.
    pub fn new() -> Self {
        Fields::default()
    }

    /// These fields and `field`.
    #[must_use]
    pub fn with(self, field: RecordField) -> Self {
        Fields {
            bits: self.bits | 1 << field as u32,
        }
    }

    /// True when `field` is asked for.
    pub fn contains(self, field: RecordField) -> bool {
        self.bits & 1 << field as u32 != 0
    }

    /// True when some `urls.KEY` is asked for.
    fn has_url_keys(self) -> bool {
        self.bits & URL_KEYS != 0
    }
}

impl FromIterator<RecordField> for Fields {
    fn from_iter<I: IntoIterator<Item = RecordField>>(fields: I) -> Self {
        fields.into_iter().fold(Fields::new(), Fields::with)
    }
}

impl FromStr for Fields {
    type Err = UnknownName;

    /// A comma-separated list of [`RecordField::NAMES`] (`path,summary,urls.resolved`).
    fn from_str(list: &str) -> Result<Self, Self::Err> {
        list.split(',').map(RecordField::from_str).collect()
    }
}

impl ScanLine<'_> {
    /// Appends the line's JSON to `out` with only the keys in `fields` (and `type`): for a
    /// `message` line, the bytes [`ScanLine::write_json`] writes, less the keys not asked for
    /// (see [`Fields`]); an `error` line whole. Without a line break. This is how
    /// `mimebase scan --fields` writes its lines.
    pub fn write_json_fields(&self, fields: Fields, out: &mut Vec<u8>) {
        match self {
            ScanLine::Message { source, report } => message_line(source, report, fields, out),
            _ => self.write_json(out),
        }
    }
}

/// Appends `{"type":"message"`, the keys asked for, `}`.
fn message_line(source: &Source, report: &Report, fields: Fields, out: &mut Vec<u8>) {
    let has = |field| fields.contains(field);
    out.extend_from_slice(b"{\"type\":\"message\"");
    if has(RecordField::Path) {
        out.extend_from_slice(b",\"path\":");
        string(&source.path, out);
        if let Some(bytes) = &source.path_bytes {
            out.extend_from_slice(b",\"path_bytes\":");
            serialized(bytes, out);
        }
    }
    if has(RecordField::Format) {
        out.extend_from_slice(b",\"format\":");
        serialized(&source.format, out);
    }
    if has(RecordField::Offset) {
        out.extend_from_slice(b",\"offset\":");
        optional_number(source.offset, out);
    }
    if has(RecordField::Length) {
        out.extend_from_slice(b",\"length\":");
        optional_number(source.length, out);
    }
    if has(RecordField::MessageId) {
        out.extend_from_slice(b",\"message_id\":");
        optional_string(report.message_id.as_deref(), out);
    }
    if has(RecordField::Complete) {
        out.extend_from_slice(if report.complete {
            b",\"complete\":true"
        } else {
            b",\"complete\":false"
        });
    }
    if has(RecordField::Summary) {
        out.extend_from_slice(b",\"summary\":");
        summary(&report.summary, out);
    }
    if has(RecordField::Entities) {
        out.extend_from_slice(b",\"entities\":[");
        for (i, entity) in report.entities.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            entity_record(entity, out);
        }
        out.push(b']');
    }
    if fields.has_url_keys() {
        out.extend_from_slice(b",\"urls\":[");
        for (i, url) in report.urls.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            url_keys(url, fields, out);
        }
        out.push(b']');
    } else if has(RecordField::Urls) {
        out.extend_from_slice(b",\"urls\":[");
        for (i, url) in report.urls.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            url_record(url, out);
        }
        out.push(b']');
    }
    if has(RecordField::Diagnostics) {
        out.extend_from_slice(b",\"diagnostics\":");
        serialized(&report.diagnostics, out);
    }
    out.push(b'}');
}

/// The URL record's keys asked for, as `{…}`, in the record's order.
fn url_keys(url: &UrlRecord, fields: Fields, out: &mut Vec<u8>) {
    let has = |field| fields.contains(field);
    // The separator before each key but the first.
    let mut first = true;
    let mut key = |name: &[u8], out: &mut Vec<u8>| {
        out.extend_from_slice(if first { b"{\"" } else { b",\"" });
        first = false;
        out.extend_from_slice(name);
        out.extend_from_slice(b"\":");
    };
    if has(RecordField::UrlPart) {
        key(b"part", out);
        string(url.part.as_str(), out);
    }
    if has(RecordField::UrlSource) {
        key(b"source", out);
        string(&url.source.to_string(), out);
        match &url.source {
            UrlSource::Header { field, item, .. } => {
                out.extend_from_slice(b",\"field\":");
                number(*field as u64, out);
                out.extend_from_slice(b",\"item\":");
                number(*item as u64, out);
            }
            UrlSource::Html { range, srcdoc, .. } => {
                out.extend_from_slice(b",\"range\":");
                byte_range(range, out);
                if *srcdoc > 0 {
                    out.extend_from_slice(b",\"srcdoc\":");
                    number(*srcdoc as u64, out);
                }
            }
            UrlSource::Svg { range, .. } | UrlSource::Text { range } => {
                out.extend_from_slice(b",\"range\":");
                byte_range(range, out);
            }
            UrlSource::File(file) => file_fields(file, out),
        }
    }
    if has(RecordField::UrlReference) {
        key(b"reference", out);
        string(&url.reference, out);
    }
    if has(RecordField::UrlResolved) {
        key(b"resolved", out);
        optional_string(url.resolution.resolved(), out);
    }
    if has(RecordField::UrlUnresolved) {
        match &url.resolution {
            Resolution::Resolved(_) => {}
            Resolution::NoBase => {
                key(b"unresolved", out);
                out.extend_from_slice(b"\"no_base\"");
            }
            Resolution::ResolverError(_) => {
                key(b"unresolved", out);
                out.extend_from_slice(b"\"resolver_error\"");
            }
        }
    }
    if has(RecordField::UrlError)
        && let Some(error) = url.resolution.error()
    {
        key(b"error", out);
        string(error, out);
    }
    if has(RecordField::UrlBase) {
        key(b"base", out);
        base_record(&url.base, out);
    }
    if has(RecordField::UrlBaseDecided) {
        key(b"base_decided", out);
        out.extend_from_slice(if url.base_decided { b"true" } else { b"false" });
    }
    if has(RecordField::UrlResolver) {
        key(b"resolver", out);
        string(url.resolver.as_str(), out);
    }
    if has(RecordField::UrlTarget)
        && let Some(target) = &url.target
    {
        key(b"target", out);
        serialized(target, out);
    }
    if has(RecordField::UrlIgnored)
        && let Some(ignored) = &url.ignored
    {
        key(b"ignored", out);
        serialized(ignored, out);
    }
    if let Some(link) = &url.link {
        if has(RecordField::UrlText) {
            key(b"text", out);
            string(&link.text, out);
        }
        if has(RecordField::UrlTitle)
            && let Some(title) = &link.title
        {
            key(b"title", out);
            string(title, out);
        }
        if has(RecordField::UrlTextHostDiffers) {
            key(b"text_host_differs", out);
            out.extend_from_slice(if link.text_host_differs {
                b"true"
            } else {
                b"false"
            });
        }
    }
    if first {
        out.push(b'{');
    }
    out.push(b'}');
}
