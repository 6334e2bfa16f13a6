//! Which parts are read for the links a reader reaches, and as what: the
//! [`Document`] of an entity.
//!
//! A reader reaches links in more than the `text/html` body: in the AMP and Apple Watch
//! alternatives that some clients render (`text/x-amp-html`, `text/watch-html`), in an HTML or
//! SVG attachment that one click opens in a browser, whatever media type the sender gave it
//! (`application/octet-stream; name="invoice.html"` is how phishing pages travel), and in
//! plain text, whose URLs every mail client turns into links. The rules are on [`Document`].

use crate::mime::{ContentType, Entity};
use crate::options::Options;
use crate::report::Document;
use crate::vocab::{ChosenBy, DocumentKind, FieldName};

/// File name extensions a browser opens as HTML (the HTML Standard's `text/html` and
/// `application/xhtml+xml` registrations, and `.shtml`, which servers and desktops map to
/// `text/html`), lowercase, without the dot.
const HTML_EXTENSIONS: &[&str] = &["html", "htm", "shtml", "xhtml", "xht"];

/// File name extensions a browser opens as SVG (the `image/svg+xml` registration, SVG 2
/// Appendix "Media type registration"), lowercase, without the dot. `.svgz` (gzip) is left out:
/// its content is compressed, and no scan reads it.
const SVG_EXTENSIONS: &[&str] = &["svg"];

/// What the body of `entity` is read as, if anything (the rules are on [`Document`]); `None`
/// for an entity whose body a reader reaches no link in.
pub(crate) fn document(entity: &Entity, options: &Options) -> Option<Document> {
    let content_type = &entity.content_type;
    if content_type.media_type == "multipart" || content_type.media_type == "message" {
        return None;
    }
    let attachment = is_attachment(entity);
    let by_type = kind_of_media_type(content_type)
        .filter(|kind| *kind != DocumentKind::Text || options.text_links());
    if let Some(kind @ (DocumentKind::Html | DocumentKind::Svg)) = by_type {
        return Some(Document {
            kind,
            by: ChosenBy::MediaType,
            attachment,
        });
    }
    if let Some(kind) = file_name(entity).as_deref().and_then(kind_of_file_name) {
        return Some(Document {
            kind,
            by: ChosenBy::FileName,
            attachment: true,
        });
    }
    by_type.map(|kind| Document {
        kind,
        by: ChosenBy::MediaType,
        attachment,
    })
}

/// The kind of document a media type names, if any.
fn kind_of_media_type(content_type: &ContentType) -> Option<DocumentKind> {
    match (
        content_type.media_type.as_str(),
        content_type.subtype.as_str(),
    ) {
        ("text", "html" | "x-amp-html" | "watch-html") | ("application", "xhtml+xml") => {
            Some(DocumentKind::Html)
        }
        ("image", "svg+xml") => Some(DocumentKind::Svg),
        ("text", "plain" | "enriched") => Some(DocumentKind::Text),
        _ => None,
    }
}

/// The kind of document a browser opens a file named `name` as, by its extension (ASCII
/// case-insensitively), if HTML or SVG. Trailing dots and spaces are dropped first, as
/// Windows drops them when it creates the file (`invoice.html.` is saved as `invoice.html`).
fn kind_of_file_name(name: &str) -> Option<DocumentKind> {
    let name = name.trim_end_matches(['.', ' ']);
    let (_, extension) = name.rsplit_once('.')?;
    let is = |list: &[&str]| list.iter().any(|e| extension.eq_ignore_ascii_case(e));
    if is(HTML_EXTENSIONS) {
        Some(DocumentKind::Html)
    } else if is(SVG_EXTENSIONS) {
        Some(DocumentKind::Svg)
    } else {
        None
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
        document(&walk.entities[0], &Options::new())
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
        assert_eq!(document(&walk.entities[0], &options), None);
    }
}
