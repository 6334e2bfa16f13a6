//! Which parts are read for the links a reader reaches, and as what: the
//! [`Document`] of an entity.
//!
//! A reader reaches links in more than the `text/html` body: in the AMP and Apple Watch
//! alternatives that some clients render (`text/x-amp-html`, `text/watch-html`), in an HTML or
//! SVG attachment that one click opens in a browser, whatever media type the sender gave it
//! (`application/octet-stream; name="invoice.html"` is how phishing pages travel), and in
//! plain text, whose URLs every mail client turns into links. The rules are on [`Document`].

use crate::mime::{self, ContentType, Entity};
use crate::options::Options;
use crate::report::{Document, EntityKind};
use crate::vocab::{ChosenBy, DocumentKind, FieldName};

/// File name extensions a browser opens as HTML (the HTML Standard's `text/html` and
/// `application/xhtml+xml` registrations, and `.shtml`, which servers and desktops map to
/// `text/html`), lowercase, without the dot.
const HTML_EXTENSIONS: &[&str] = &["html", "htm", "shtml", "xhtml", "xht"];

/// File name extensions a browser opens as SVG (the `image/svg+xml` registration, SVG 2
/// Appendix "Media type registration"), lowercase, without the dot. `.svgz` (gzip) is left out:
/// its content is compressed, and no scan reads it.
const SVG_EXTENSIONS: &[&str] = &["svg"];

/// The file name extensions of the files a reader opens, by the kind they are read as,
/// lowercase, without the dot: those the media type registrations name (`application/pdf`,
/// RFC 8118; `text/calendar`, RFC 5545 §8.1; the Office Open XML and OpenDocument types) and
/// the shortcut files of Windows (`.url`), macOS (`.webloc`) and freedesktop.org desktops
/// (`.desktop`).
const FILE_EXTENSIONS: &[(DocumentKind, &[&str])] = &[
    (DocumentKind::Pdf, &["pdf"]),
    (DocumentKind::Calendar, &["ics", "ical", "icalendar", "ifb"]),
    (DocumentKind::Shortcut, &["url", "webloc", "desktop"]),
    (
        DocumentKind::Office,
        &[
            "docx", "docm", "dotx", "dotm", "xlsx", "xlsm", "xltx", "xltm", "xlam", "pptx", "pptm",
            "potx", "potm", "ppsx", "ppsm", "odt", "ods", "odp", "odg", "ott", "ots", "otp", "otg",
            "rtf",
        ],
    ),
    (DocumentKind::Archive, &["zip"]),
];

/// What the body of `entity` (whose ranges index `bytes`) is read as, if anything (the rules
/// are on [`Document`]); `None` for an entity whose body a reader reaches no link in.
pub(crate) fn document(entity: &Entity, bytes: &[u8], options: &Options) -> Option<Document> {
    let content_type = &entity.content_type;
    if content_type.media_type == "multipart" || content_type.media_type == "message" {
        return None;
    }
    let attachment = is_attachment(entity) || entity.kind == EntityKind::Member;
    let by_type = kind_of_media_type(content_type).filter(|kind| match kind {
        DocumentKind::Text => options.text_links(),
        kind if kind.is_file() || *kind == DocumentKind::Archive => options.file_links(),
        _ => true,
    });
    if let Some(kind @ (DocumentKind::Html | DocumentKind::Svg)) = by_type {
        return Some(Document {
            kind,
            by: ChosenBy::MediaType,
            attachment,
        });
    }
    let by_name = file_name(entity).as_deref().and_then(kind_of_file_name);
    if let Some(kind @ (DocumentKind::Html | DocumentKind::Svg)) = by_name {
        return Some(Document {
            kind,
            by: ChosenBy::FileName,
            attachment: true,
        });
    }
    if options.file_links() {
        // A file is what its content says, then what its media type says, then its name.
        let file = kind_of_content(bytes, entity)
            .map(|kind| (kind, ChosenBy::Content))
            .or_else(|| {
                by_type
                    .filter(|kind| kind.is_file() || *kind == DocumentKind::Archive)
                    .map(|kind| (kind, ChosenBy::MediaType))
            })
            .or_else(|| by_name.map(|kind| (kind, ChosenBy::FileName)));
        if let Some((kind, by)) = file {
            // What the archive reader found a ZIP file to be, when it was read as one.
            let kind = match (kind, entity.container) {
                (DocumentKind::Archive | DocumentKind::Office, Some(container)) => container,
                _ => kind,
            };
            // A file a reader opens is an attachment, whatever its disposition says.
            return Some(Document {
                kind,
                by,
                attachment: true,
            });
        }
    }
    by_type
        .filter(|kind| *kind == DocumentKind::Text)
        .map(|kind| Document {
            kind,
            by: ChosenBy::MediaType,
            attachment,
        })
}

/// True when `entity` (whose ranges index `bytes`) may hold a ZIP file that is read as an
/// archive or an office document: its first bytes are a ZIP file's (`PK\x03\x04`, or
/// `PK\x05\x06` for an empty one, APPNOTE.TXT §4.3.7, §4.3.16), or its media type or file
/// name says it is an archive or an Office Open XML or OpenDocument file. Cheaper than
/// [`document`]: it decodes at most the body's first four bytes.
pub(crate) fn may_be_zip(entity: &Entity, bytes: &[u8], options: &Options) -> bool {
    let content_type = &entity.content_type;
    if !options.file_links()
        || content_type.media_type == "multipart"
        || content_type.media_type == "message"
    {
        return false;
    }
    let zip_kind = |kind: Option<DocumentKind>| {
        matches!(kind, Some(DocumentKind::Archive | DocumentKind::Office))
    };
    let prefix = mime::decoded_prefix(bytes, entity, 4);
    prefix.starts_with(b"PK\x03\x04")
        || prefix.starts_with(b"PK\x05\x06")
        || zip_kind(kind_of_media_type(content_type))
            && !matches!(
                (
                    content_type.media_type.as_str(),
                    content_type.subtype.as_str()
                ),
                ("application", "rtf" | "x-rtf") | ("text", _)
            )
        || file_name(entity)
            .as_deref()
            .is_some_and(|name| zip_kind(kind_of_file_name(name)) && !is_rtf_name(name))
}

/// True for a file name that ends `.rtf` (ASCII case-insensitively): an office document that
/// is not a ZIP file.
fn is_rtf_name(name: &str) -> bool {
    name.trim_end_matches(['.', ' '])
        .rsplit_once('.')
        .is_some_and(|(_, extension)| extension.eq_ignore_ascii_case("rtf"))
}

/// How far into a file its `%PDF-` header may be: PDF readers look for it in the first
/// 1,024 bytes (ISO 32000-1 §7.5.2 asks for it at the start; Adobe's implementation notes, and
/// pdf.js and PDFium, accept what comes before it, which senders use to hide the format).
const PDF_HEADER_WITHIN: usize = 1024;

/// How many of a body's first bytes are decoded to tell its kind by its start.
const MAGIC_BYTES: usize = 16;

/// The kind of file the first bytes of the body of `entity` (whose ranges index `bytes`) say it
/// is: a PDF (`%PDF-`), an RTF document (`{\rtf`), or a ZIP file (a local file header,
/// `PK\x03\x04`, APPNOTE.TXT §4.3.7), which is an office document or an archive.
///
/// A PDF reader also opens a file whose `%PDF-` comes later, within its first
/// [`PDF_HEADER_WITHIN`] bytes; that is looked for only in a part that is neither text nor an
/// image by its media type. A client shows a text or image part as what its type says, and
/// opens it in a PDF reader only when its name says PDF (a name the caller reads anyway), so
/// the longer search would find in them only what no reader opens, at the cost of decoding a
/// kilobyte of every text and image part of every message.
fn kind_of_content(bytes: &[u8], entity: &Entity) -> Option<DocumentKind> {
    let head = mime::decoded_prefix(bytes, entity, MAGIC_BYTES);
    if head.starts_with(b"%PDF-") {
        return Some(DocumentKind::Pdf);
    } else if head.starts_with(b"{\\rtf") {
        return Some(DocumentKind::Office);
    } else if head.starts_with(b"PK\x03\x04") {
        return Some(DocumentKind::Archive);
    }
    let media_type = entity.content_type.media_type.as_str();
    if media_type == "text" || media_type == "image" {
        return None;
    }
    let prefix = mime::decoded_prefix(bytes, entity, PDF_HEADER_WITHIN);
    memchr::memmem::find(prefix.get(..PDF_HEADER_WITHIN).unwrap_or(&prefix), b"%PDF-")
        .map(|_| DocumentKind::Pdf)
}

/// The kind of document a media type names, if any.
fn kind_of_media_type(content_type: &ContentType) -> Option<DocumentKind> {
    let subtype = content_type.subtype.as_str();
    match (content_type.media_type.as_str(), subtype) {
        ("text", "html" | "x-amp-html" | "watch-html") | ("application", "xhtml+xml") => {
            Some(DocumentKind::Html)
        }
        ("image", "svg+xml") => Some(DocumentKind::Svg),
        ("text", "plain" | "enriched") => Some(DocumentKind::Text),
        ("application", "pdf" | "x-pdf") => Some(DocumentKind::Pdf),
        ("text", "calendar") | ("application", "ics") => Some(DocumentKind::Calendar),
        ("application", "internet-shortcut" | "x-url" | "x-mswinurl") => {
            Some(DocumentKind::Shortcut)
        }
        ("application", "rtf" | "x-rtf") | ("text", "rtf" | "richtext") => {
            Some(DocumentKind::Office)
        }
        ("application", subtype)
            if subtype.starts_with("vnd.openxmlformats-officedocument.")
                || subtype.starts_with("vnd.oasis.opendocument.")
                || subtype.starts_with("vnd.ms-word.") && subtype.ends_with(".macroenabled.12")
                || subtype.starts_with("vnd.ms-excel.")
                    && subtype.ends_with(".macroenabled.12")
                || subtype.starts_with("vnd.ms-powerpoint.")
                    && subtype.ends_with(".macroenabled.12") =>
        {
            Some(DocumentKind::Office)
        }
        ("application", "zip" | "x-zip" | "x-zip-compressed") => Some(DocumentKind::Archive),
        _ => None,
    }
}

/// The kind of document a file named `name` is opened as, by its extension (ASCII
/// case-insensitively): HTML or SVG in a browser, or one of the files a reader opens
/// ([`FILE_EXTENSIONS`]). Trailing dots and spaces are dropped first, as Windows drops them
/// when it creates the file (`invoice.html.` is saved as `invoice.html`).
fn kind_of_file_name(name: &str) -> Option<DocumentKind> {
    let name = name.trim_end_matches(['.', ' ']);
    let (_, extension) = name.rsplit_once('.')?;
    let is = |list: &[&str]| list.iter().any(|e| extension.eq_ignore_ascii_case(e));
    if is(HTML_EXTENSIONS) {
        Some(DocumentKind::Html)
    } else if is(SVG_EXTENSIONS) {
        Some(DocumentKind::Svg)
    } else {
        FILE_EXTENSIONS
            .iter()
            .find(|(_, extensions)| is(extensions))
            .map(|(kind, _)| *kind)
    }
}

/// True when the entity's first `Content-Disposition` has the disposition type `attachment`
/// (RFC 2183 §2.2, compared ASCII case-insensitively).
fn is_attachment(entity: &Entity) -> bool {
    entity
        .fields
        .iter()
        .find(|f| f.is(FieldName::ContentDisposition))
        .is_some_and(|field| {
            let value = field.value.as_str();
            let kind = value.split(';').next().unwrap_or_default();
            kind.trim().eq_ignore_ascii_case("attachment")
        })
}

/// The part's file name: the `filename` parameter of its first `Content-Disposition` (RFC 2183
/// §2.3), else the `name` parameter of its `Content-Type` (RFC 2046 §4.5.1 mentions it; mail
/// clients still write it), decoded (RFC 2231 continuations and charsets, RFC 2047 encoded
/// words) by mail-parser's field parser.
pub(crate) fn file_name(entity: &Entity) -> Option<String> {
    entity
        .fields
        .iter()
        .find(|f| f.is(FieldName::ContentDisposition))
        .and_then(|field| disposition_filename(&field.value))
        .or_else(|| entity.content_type.param("name").map(str::to_owned))
        .filter(|name| !name.is_empty())
}

/// The `filename` parameter of a `Content-Disposition` value (RFC 2183 §2.3, RFC 2231
/// continuations and charsets), through mail-parser's field parser.
pub(crate) fn disposition_filename(value: &str) -> Option<String> {
    let mut input = value.as_bytes().to_vec();
    input.push(b'\n');
    let mail_parser::HeaderValue::ContentType(parsed) =
        mail_parser::parsers::MessageStream::new(&input).parse_content_type()
    else {
        return None;
    };
    parsed
        .attributes()
        .unwrap_or_default()
        .iter()
        .find(|a| a.name.eq_ignore_ascii_case("filename"))
        .map(|a| a.value.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn document_of(header: &str) -> Option<Document> {
        let raw = format!("{header}\n\nbody");
        let mut diagnostics = Vec::new();
        let walk = crate::mime::split(raw.as_bytes(), &Options::new(), &mut diagnostics);
        document(&walk.entities[0], raw.as_bytes(), &Options::new())
    }

    fn doc(kind: DocumentKind, by: ChosenBy, attachment: bool) -> Option<Document> {
        Some(Document {
            kind,
            by,
            attachment,
        })
    }

    #[test]
    fn by_media_type() {
        use ChosenBy::MediaType;
        use DocumentKind::*;
        for (header, expected) in [
            ("Content-Type: text/html", doc(Html, MediaType, false)),
            ("Content-Type: TEXT/X-AMP-HTML", doc(Html, MediaType, false)),
            ("Content-Type: text/watch-html", doc(Html, MediaType, false)),
            (
                "Content-Type: application/xhtml+xml",
                doc(Html, MediaType, false),
            ),
            ("Content-Type: image/svg+xml", doc(Svg, MediaType, false)),
            ("Content-Type: text/plain", doc(Text, MediaType, false)),
            ("Subject: no Content-Type", doc(Text, MediaType, false)),
            ("Content-Type: text/enriched", doc(Text, MediaType, false)),
            ("Content-Type: text/csv", None),
            ("Content-Type: image/png", None),
            ("Content-Type: application/octet-stream", None),
            ("Content-Type: message/rfc822", None),
            (
                "Content-Type: text/html\nContent-Disposition: ATTACHMENT; filename=a.html",
                doc(Html, MediaType, true),
            ),
            (
                "Content-Type: text/plain\nContent-Disposition: inline",
                doc(Text, MediaType, false),
            ),
        ] {
            assert_eq!(document_of(header), expected, "{header}");
        }
    }

    #[test]
    fn by_file_name() {
        use ChosenBy::*;
        use DocumentKind::*;
        for (header, expected) in [
            (
                "Content-Type: application/octet-stream; name=\"invoice.html\"",
                doc(Html, FileName, true),
            ),
            (
                "Content-Type: application/octet-stream\nContent-Disposition: attachment; filename=\"Scan.HTM\"",
                doc(Html, FileName, true),
            ),
            (
                "Content-Type: application/pdf\nContent-Disposition: inline; filename=\"a.shtml. . \"",
                doc(Html, FileName, true),
            ),
            (
                "Content-Type: image/png; name=\"logo.svg\"",
                doc(Svg, FileName, true),
            ),
            (
                "Content-Type: text/plain; name=\"page.xhtml\"",
                doc(Html, FileName, true),
            ),
            // RFC 2231 continuations and RFC 2047 encoded words.
            (
                "Content-Type: application/octet-stream\nContent-Disposition: attachment; filename*0=\"in\"; filename*1=\"voice.xht\"",
                doc(Html, FileName, true),
            ),
            (
                "Content-Type: application/octet-stream; name=\"=?utf-8?q?r=C3=A9sum=C3=A9.html?=\"",
                doc(Html, FileName, true),
            ),
            // The media type wins when it names a document.
            (
                "Content-Type: text/html; name=\"drawing.svg\"",
                doc(Html, MediaType, false),
            ),
            (
                "Content-Type: image/svg+xml; name=\"page.html\"",
                doc(Svg, MediaType, false),
            ),
            // Names that a browser does not open as a document.
            (
                "Content-Type: application/octet-stream; name=\"a.html.exe\"",
                None,
            ),
            (
                "Content-Type: application/octet-stream; name=\"html\"",
                None,
            ),
            (
                "Content-Type: application/octet-stream; name=\"a.svgz\"",
                None,
            ),
            (
                "Content-Type: multipart/mixed; boundary=b; name=\"a.html\"",
                None,
            ),
        ] {
            assert_eq!(document_of(header), expected, "{header}");
        }
    }

    #[test]
    fn text_is_left_out_when_asked() {
        let raw = b"Content-Type: text/plain\n\nwww.example.com";
        let options = Options::new().with_text_links(false);
        let walk = crate::mime::split(raw, &options, &mut Vec::new());
        assert_eq!(document(&walk.entities[0], raw, &options), None);
    }
}
