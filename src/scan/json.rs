//! The JSON of a scan line, written straight into the output buffer: the same bytes as
//! `serde_json::to_writer` writes for [`ScanLine`], with less work per line.
//!
//! Why not serde alone: a line holds the record of every URL and entity of a message, and
//! through serde each field costs a map entry, a key serialized as a string and escaped, and
//! each string a pass through the escaper, which made the serialization a sizeable part of a
//! one-job scan (docs/PERFORMANCE.md has the figures). Here keys are written as literal bytes,
//! a string is copied as it is when it has nothing to escape (checked a word or 16 bytes at a
//! time) and given to `serde_json` otherwise, and numbers are formatted by `itoa`, as
//! `serde_json` does. The enumerations of every record (an entity's kind, a URL's resolver) are
//! written as their serialized names; the other small ones and the rare parts (diagnostics,
//! targets) go through `serde_json` itself. serde stays the definition of the format: the
//! `Serialize` impls are what [`ScanLine`] documents, and the tests compare this writer with
//! them, byte for byte, on every message of the test corpus.

use serde::Serialize;

use crate::report::{
    BaseRecord, ByteRange, EntityKind, EntityRecord, FileSource, PartId, Report, Resolution,
    ScanLine, Source, Summary, UrlRecord, UrlSource,
};

impl ScanLine<'_> {
    /// Appends the line's JSON to `out`: the same bytes as `serde_json::to_writer(out, self)`,
    /// written a good deal faster (keys as literal bytes, strings copied when they need no
    /// escaping), without a line break. This is how `mimebase scan` writes its lines.
    ///
    /// ```
    /// use mimebase::scan::{ScanLine, Source};
    ///
    /// let message = b"Content-Type: text/html\r\n\r\n<a href=\"http://example.com/\">x</a>";
    /// let report = mimebase::analyze(message, &mimebase::Options::new());
    /// let source = Source::file("x.eml", message.len() as u64);
    /// let line = ScanLine::message(&source, &report);
    /// let mut out = Vec::new();
    /// line.write_json(&mut out);
    /// assert_eq!(out, serde_json::to_vec(&line)?);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    // Kept out of its callers: inlined into the scan engine's loop, it crowds the instruction
    // cache of the code around it.
    #[inline(never)]
    pub fn write_json(&self, out: &mut Vec<u8>) {
        match self {
            ScanLine::Message { source, report } => message_line(source, report, out),
            // Writing to a `Vec` cannot fail, and a line serializes without errors.
            ScanLine::Error { .. } => {
                let _ = serde_json::to_writer(out, self);
            }
        }
    }
}

/// Appends `{"type":"message",` the source's fields, the report's fields `}`.
fn message_line(source: &Source, report: &Report, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"type\":\"message\",\"path\":");
    string(&source.path, out);
    if let Some(bytes) = &source.path_bytes {
        out.extend_from_slice(b",\"path_bytes\":[");
        for (i, &byte) in bytes.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            number(u64::from(byte), out);
        }
        out.push(b']');
    }
    if let Some(compression) = source.compression {
        out.extend_from_slice(b",\"compression\":\"");
        out.extend_from_slice(compression.as_str().as_bytes());
        out.push(b'"');
    }
    out.extend_from_slice(b",\"format\":");
    serialized(&source.format, out);
    out.extend_from_slice(b",\"offset\":");
    optional_number(source.offset, out);
    out.extend_from_slice(b",\"length\":");
    optional_number(source.length, out);
    out.extend_from_slice(b",\"message_id\":");
    optional_string(report.message_id.as_deref(), out);
    out.extend_from_slice(if report.complete {
        b",\"complete\":true"
    } else {
        b",\"complete\":false"
    });
    out.extend_from_slice(b",\"summary\":");
    summary(&report.summary, out);
    out.extend_from_slice(b",\"entities\":[");
    for (i, entity) in report.entities.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        entity_record(entity, out);
    }
    out.extend_from_slice(b"],\"urls\":[");
    for (i, url) in report.urls.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        url_record(url, out);
    }
    out.extend_from_slice(b"],\"diagnostics\":");
    serialized(&report.diagnostics, out);
    out.push(b'}');
}

pub(super) fn entity_record(entity: &EntityRecord, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"part\":");
    string(entity.part.as_str(), out);
    out.extend_from_slice(match entity.kind {
        EntityKind::Message => b",\"kind\":\"message\"",
        EntityKind::BodyPart => b",\"kind\":\"body_part\"",
        EntityKind::Member => b",\"kind\":\"member\"",
    });
    out.extend_from_slice(b",\"parent\":");
    optional_string(entity.parent.as_ref().map(PartId::as_str), out);
    out.extend_from_slice(b",\"content_type\":");
    string(&entity.content_type, out);
    out.extend_from_slice(b",\"header\":");
    byte_range(&entity.header, out);
    out.extend_from_slice(b",\"body\":");
    byte_range(&entity.body, out);
    out.extend_from_slice(b",\"decoded_from\":");
    optional_string(entity.decoded_from.as_ref().map(PartId::as_str), out);
    out.extend_from_slice(b",\"header_base\":");
    base_record(&entity.header_base, out);
    out.extend_from_slice(b",\"base\":");
    base_record(&entity.base, out);
    if let Some(document) = &entity.document {
        out.extend_from_slice(b",\"document\":{\"kind\":");
        string(document.kind.as_str(), out);
        out.extend_from_slice(b",\"by\":");
        string(document.by.as_str(), out);
        out.extend_from_slice(if document.attachment {
            b",\"attachment\":true}"
        } else {
            b",\"attachment\":false}"
        });
    }
    if let Some(entity_summary) = &entity.summary {
        out.extend_from_slice(b",\"summary\":");
        summary(entity_summary, out);
    }
    if let Some(opened) = &entity.opened {
        out.extend_from_slice(b",\"opened\":");
        serialized(opened, out);
    }
    out.push(b'}');
}

pub(super) fn summary(summary: &Summary, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"subject\":");
    optional_string(summary.subject.as_deref(), out);
    out.extend_from_slice(b",\"from\":");
    optional_string(summary.from.as_deref(), out);
    out.extend_from_slice(b",\"date\":");
    optional_string(summary.date.as_deref(), out);
    out.extend_from_slice(b",\"message_id\":");
    optional_string(summary.message_id.as_deref(), out);
    out.push(b'}');
}

pub(super) fn byte_range(range: &ByteRange, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"start\":");
    number(range.start as u64, out);
    out.extend_from_slice(b",\"end\":");
    number(range.end as u64, out);
    out.push(b'}');
}

pub(super) fn base_record(base: &BaseRecord, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"url\":");
    optional_string(base.url.as_deref(), out);
    out.extend_from_slice(b",\"source\":");
    string(base.source.as_str(), out);
    if let Some(part) = &base.inherited_from {
        out.extend_from_slice(b",\"inherited_from\":");
        string(part.as_str(), out);
    }
    out.push(b'}');
}

/// The fields in the order of `UrlRecord`'s `Serialize` impl.
pub(super) fn url_record(url: &UrlRecord, out: &mut Vec<u8>) {
    out.extend_from_slice(b"{\"part\":");
    string(url.part.as_str(), out);
    out.extend_from_slice(b",\"source\":\"");
    match &url.source {
        UrlSource::Header { name, field, item } => {
            out.extend_from_slice(b"header:");
            escaped_contents(name.as_str(), out);
            out.extend_from_slice(b"\",\"field\":");
            number(*field as u64, out);
            out.extend_from_slice(b",\"item\":");
            number(*item as u64, out);
        }
        UrlSource::Html {
            tag,
            attribute,
            range,
            srcdoc,
        } => {
            element_source(b"html:", tag, *attribute, range, out);
            if *srcdoc > 0 {
                out.extend_from_slice(b",\"srcdoc\":");
                number(*srcdoc as u64, out);
            }
        }
        UrlSource::Svg {
            tag,
            attribute,
            range,
        } => element_source(b"svg:", tag, *attribute, range, out),
        UrlSource::Text { range } => {
            out.extend_from_slice(b"text\",\"range\":");
            byte_range(range, out);
        }
        UrlSource::File(file) => {
            escaped_contents(file.kind.as_str(), out);
            out.push(b':');
            escaped_contents(&file.place, out);
            out.push(b'"');
            file_fields(file, out);
        }
    }
    out.extend_from_slice(b",\"reference\":");
    string(&url.reference, out);
    match &url.resolution {
        Resolution::Resolved(resolved) => {
            out.extend_from_slice(b",\"resolved\":");
            string(resolved, out);
        }
        Resolution::NoBase => {
            out.extend_from_slice(b",\"resolved\":null,\"unresolved\":\"no_base\"");
        }
        Resolution::ResolverError(error) => {
            out.extend_from_slice(
                b",\"resolved\":null,\"unresolved\":\"resolver_error\",\"error\":",
            );
            string(error, out);
        }
    }
    out.extend_from_slice(b",\"base\":");
    base_record(&url.base, out);
    out.extend_from_slice(if url.base_decided {
        b",\"base_decided\":true"
    } else {
        b",\"base_decided\":false"
    });
    out.extend_from_slice(b",\"resolver\":");
    // Its serialized name (the vocabulary's, letters and digits: nothing to escape), on every
    // record: not worth a pass through serde.
    out.push(b'"');
    out.extend_from_slice(url.resolver.as_str().as_bytes());
    out.push(b'"');
    if let Some(target) = &url.target {
        out.extend_from_slice(b",\"target\":");
        serialized(target, out);
    }
    if let Some(ignored) = &url.ignored {
        out.extend_from_slice(b",\"ignored\":");
        serialized(ignored, out);
    }
    if let Some(link) = &url.link {
        out.extend_from_slice(b",\"text\":");
        string(&link.text, out);
        if let Some(title) = &link.title {
            out.extend_from_slice(b",\"title\":");
            string(title, out);
        }
        out.extend_from_slice(if link.text_host_differs {
            b",\"text_host_differs\":true"
        } else {
            b",\"text_host_differs\":false"
        });
    }
    out.push(b'}');
}

/// The rest of the `"source"` of an HTML or SVG URL after its opening quote, `html:a@href"`,
/// and its `"range"`.
/// The fields of a file source after its `source`, each with its leading comma: `member`,
/// `range`, `object` and `page`, those that are `Some`, and `linkified` when true.
pub(super) fn file_fields(file: &FileSource, out: &mut Vec<u8>) {
    if let Some(member) = &file.member {
        out.extend_from_slice(b",\"member\":");
        string(member, out);
    }
    if let Some(range) = &file.range {
        out.extend_from_slice(b",\"range\":");
        byte_range(range, out);
    }
    if let Some(object) = file.object {
        out.extend_from_slice(b",\"object\":");
        number(u64::from(object), out);
    }
    if let Some(page) = file.page {
        out.extend_from_slice(b",\"page\":");
        number(u64::from(page), out);
    }
    if file.linkified {
        out.extend_from_slice(b",\"linkified\":true");
    }
}

pub(super) fn element_source(
    prefix: &[u8],
    tag: &str,
    attribute: Option<&str>,
    range: &ByteRange,
    out: &mut Vec<u8>,
) {
    out.extend_from_slice(prefix);
    escaped_contents(tag, out);
    if let Some(attribute) = attribute {
        out.push(b'@');
        escaped_contents(attribute, out);
    }
    out.extend_from_slice(b"\",\"range\":");
    byte_range(range, out);
}

/// `value` as `serde_json` writes it.
pub(super) fn serialized<T: Serialize + ?Sized>(value: &T, out: &mut Vec<u8>) {
    // Writing to a `Vec` cannot fail, and these types serialize without errors (no maps with
    // keys that are not strings).
    let _ = serde_json::to_writer(&mut *out, value);
}

pub(super) fn number(n: u64, out: &mut Vec<u8>) {
    out.extend_from_slice(itoa::Buffer::new().format(n).as_bytes());
}

pub(super) fn optional_number(n: Option<u64>, out: &mut Vec<u8>) {
    match n {
        Some(n) => number(n, out),
        None => out.extend_from_slice(b"null"),
    }
}

pub(super) fn optional_string(text: Option<&str>, out: &mut Vec<u8>) {
    match text {
        Some(text) => string(text, out),
        None => out.extend_from_slice(b"null"),
    }
}

/// `text` as a JSON string, quoted.
pub(super) fn string(text: &str, out: &mut Vec<u8>) {
    out.push(b'"');
    escaped_contents(text, out);
    out.push(b'"');
}

/// `text` escaped as inside a JSON string: as it is when no byte needs escaping
/// ([`needs_escaping`]), else by `serde_json`, whose escapes (`\n`, `\u001f`, …) are the
/// format's.
pub(super) fn escaped_contents(text: &str, out: &mut Vec<u8>) {
    if !needs_escaping(text.as_bytes()) {
        out.extend_from_slice(text.as_bytes());
        return;
    }
    let start = out.len();
    serialized(text, out);
    // Drop the quotes `serde_json` wrote around it.
    out.remove(start);
    out.pop();
}

/// True when a byte of `text` must be escaped in a JSON string: a quote, a backslash, a control
/// character below U+0020.
///
/// Most strings are short (part numbers, URLs), so what matters is the work per string, not
/// per byte: a string of 16 bytes or more is read 16 bytes at a time with no early exit (a loop
/// the compiler vectorizes), its last 16 bytes read once more instead of one at a time; a
/// shorter one as two overlapping 8-byte or 4-byte words, tested a word at a time ([`any_special`]).
fn needs_escaping(text: &[u8]) -> bool {
    let len = text.len();
    if len >= 16 {
        let whole = text.get(..len & !15).unwrap_or_default();
        let last = text
            .get(len - 16..)
            .and_then(|last| <&[u8; 16]>::try_from(last).ok())
            .is_some_and(|last| last.iter().fold(false, |any, &b| any | is_special(b)));
        whole.iter().fold(false, |any, &b| any | is_special(b)) | last
    } else if len >= 8 {
        let word = |at: usize| {
            text.get(at..at + 8)
                .and_then(|bytes| bytes.try_into().ok())
                .map_or(0, u64::from_le_bytes)
        };
        any_special(word(0)) | any_special(word(len - 8))
    } else if len >= 4 {
        let word = |at: usize| {
            text.get(at..at + 4)
                .and_then(|bytes| bytes.try_into().ok())
                .map_or(0, u32::from_le_bytes)
        };
        any_special(u64::from(word(0)) | (u64::from(word(len - 4)) << 32))
    } else {
        text.iter().fold(false, |any, &b| any | is_special(b))
    }
}

/// True for a byte that must be escaped in a JSON string.
fn is_special(byte: u8) -> bool {
    (byte < 0x20) | (byte == b'"') | (byte == b'\\')
}

/// True when one of the eight bytes of `word` must be escaped in a JSON string ([`is_special`]),
/// tested on the word as a whole: a byte below `n` (at most 0x80) is one that subtracting `n`
/// from borrows through its high bit while that bit was clear, and a byte equal to `c` is a
/// zero byte of `word ^ c…c`, that is one below 1. Borrows carry only into the bytes above a
/// byte that matched, so the answer for the word is exact.
fn any_special(word: u64) -> bool {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let below = |word: u64, n: u8| word.wrapping_sub(ONES * u64::from(n)) & !word & HIGH;
    let control = below(word, 0x20);
    let quote = below(word ^ (ONES * u64::from(b'"')), 1);
    let backslash = below(word ^ (ONES * u64::from(b'\\')), 1);
    (control | quote | backslash) != 0
}

#[cfg(test)]
mod tests {
    use super::{is_special, needs_escaping};
    use crate::analyze::analyze;
    use crate::options::Options;
    use crate::scan::{ScanLine, Source};
    use crate::url::Resolver;

    /// Every optional field and every kind of string escape, compared with serde's bytes.
    #[test]
    fn writes_what_serde_writes() {
        let message = "Content-Base: http://b.example/d\u{e9}j\u{e0}/\r\n\
            Content-Location: overridden.html\r\n\
            Subject: =?utf-8?q?a_=22quoted=22_tab=09?=\r\nFrom: x@y\r\n\
            Content-Type: multipart/related; boundary=x\r\n\r\n\
            --x\r\nContent-Type: text/html; charset=utf-8\r\n\r\n\
            <base href=\"http://h.example/\"><base href=\"http://second.example/\">\
            <a href=\"q&quot;uote\\back&#9;tab&#1;one\">a</a><img src=\"cid:pic@x\">\
            <a href=\"http://exa mple/\">bad</a><my-element style=\"background:url(&quot;s.png)\">\r\n\
            --x\r\nContent-Type: image/png\r\nContent-ID: <pic@x>\r\n\r\nPNG\r\n\
            --x\r\nContent-Type: message/rfc822\r\n\r\nDate: today\r\n\r\nhi\r\n--x\r\n";
        for resolver in Resolver::ALL {
            let report = analyze(message.as_bytes(), &Options::new().with_resolver(resolver));
            assert!(report.urls.iter().any(|url| url.target.is_some()));
            assert_eq!(
                report
                    .urls
                    .iter()
                    .filter(|url| url.ignored.is_some())
                    .count(),
                2
            );
            assert!(report.summary.subject.as_deref().unwrap().contains('"'));
            assert!(
                report
                    .entities
                    .iter()
                    .any(|entity| entity.summary.is_some())
            );
            assert!(!report.diagnostics.is_empty());
            if resolver == Resolver::Whatwg {
                assert!(
                    report
                        .urls
                        .iter()
                        .any(|url| url.resolution.error().is_some())
                );
            }
            for source in [
                Source::file("dir/\"odd\"\\name\n.eml", 1),
                Source::mbox("box", 10, 20),
                Source::unknown("x"),
                Source {
                    path_bytes: Some(b"a\xff\x00/\xfe\"".to_vec()),
                    ..Source::file("a\u{fffd}\u{0}/\u{fffd}\"", 7)
                },
                Source {
                    compression: Some(crate::scan::Compression::Zstd),
                    ..Source::mbox("box.zst", 10, 20)
                },
            ] {
                let line = ScanLine::message(&source, &report);
                let mut written = Vec::new();
                line.write_json(&mut written);
                assert_eq!(
                    String::from_utf8(written.clone()).unwrap(),
                    serde_json::to_string(&line).unwrap()
                );
                // And it reads back to the same line, `path_bytes` included.
                let read: ScanLine<'static> = serde_json::from_slice(&written).unwrap();
                assert_eq!(read, line);
            }
        }
    }

    /// The word-at-a-time test agrees with the byte-at-a-time definition for every length up
    /// to 48 bytes, every byte value at every position, over plain and 8-bit backgrounds.
    #[test]
    fn needs_escaping_agrees_with_every_byte() {
        for background in [b'a', 0x7f, 0x80, 0xff, b'!', b'#', b'[', b']', b' '] {
            for len in 0..=48 {
                let mut text = vec![background; len];
                assert!(!needs_escaping(&text), "{len} x {background:#x}");
                for at in 0..len {
                    for byte in 0..=255u8 {
                        text[at] = byte;
                        assert_eq!(
                            needs_escaping(&text),
                            is_special(byte),
                            "{byte:#x} at {at} of {len} in {background:#x}"
                        );
                    }
                    text[at] = background;
                }
            }
        }
    }
}
