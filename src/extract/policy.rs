//! The Content-Security-Policy that an offline page carries (Content Security Policy Level 3),
//! and where it goes: one element inserted into the written HTML or SVG file, every other
//! byte kept.
//!
//! # The policy
//!
//! [`POLICY`] forbids every load but those of `file:` and `data:` URLs: the files `extract`
//! wrote and the message's inline `data:` images, stylesheets, fonts, media, frames and
//! objects. `default-src 'none'` covers what the policy does not name: scripts (no script
//! runs, inline or not, and `javascript:` URLs do not), `fetch`, `ping` (`connect-src`),
//! workers, manifests, prefetches. Inline styles (`<style>`, `style` attributes) are allowed,
//! since CSS reaches the network only through `url()` and `@import`, which the other
//! directives govern. `form-action 'none'` stops a form from being sent, and `base-uri 'none'`
//! a `<base href>` that was left in place from sending relative links to the web. A policy in
//! a `<meta>` element cannot sandbox the page or stop a navigation (`<meta http-equiv=refresh>`,
//! a click on a link): those are what the inert URLs are for.
//!
//! `file:` cannot be narrowed to the output directory (a source expression names a scheme,
//! or a host, and a `file:` URL has none), so the policy lets a page load any local file;
//! it is the rewriting that leaves no URL naming a file other than those written.
//!
//! # HTML
//!
//! A policy in a `<meta http-equiv="Content-Security-Policy">` applies only when the element
//! is a child of the `<head>` element, and only to what is fetched after it is inserted (HTML
//! Standard, the `http-equiv` "Content security policy" state). So it is inserted before the
//! first token that is not a doctype, a comment, white space, or the start tag or element of
//! `<html>`, `<head>`, `<meta>` or `<title>` (none of which fetches anything): the parser is
//! then still before `<body>` ("before html", "before head", "in head" or "after head"
//! insertion mode), where a `<meta>` start tag always becomes a child of `<head>`, made if
//! need be (HTML Standard §13.2.6.4). Passing over `<meta>` and `<title>` leaves a
//! `<meta charset>` where the encoding prescan looks for it (within the first 1,024 bytes).
//!
//! # SVG and XHTML
//!
//! A standalone SVG document (and an XHTML one, read as XML) has no HTML parser to put a
//! `<meta>` into `<head>`. Blink applies a policy from an XHTML `<meta>` inside the
//! document's head, which it takes to be the first XHTML `<head>` child of the root element,
//! whatever the root (checked in Chromium; WebKit's `Document::head()` is the same rule); so
//! an XHTML `<head>` holding the `<meta>` is inserted right after the root element's start
//! tag, where it is that first `<head>` whatever follows (in an XHTML page, the page's own
//! `<head>` comes second; a `head` of another namespace is no HTML head). A `<head>` is not
//! rendered (outside `<foreignObject>`, no HTML element is in SVG), so the page looks the same.
//! Gecko looks for the head only under an `<html>` root: in Firefox an SVG file is protected
//! by its inert URLs alone. A `<?xml-stylesheet?>`
//! instruction before the root is fetched before any policy can apply; the SVG scan reports
//! it, so that its URL is inert.
//!
//! # Encodings
//!
//! The insertion point is found on the file's bytes in its own encoding, by their ASCII
//! characters: in every ASCII-compatible encoding a byte below 0x40 is that ASCII character
//! and never part of another one (the second bytes of Shift_JIS, Big5, GBK and EUC pairs are
//! 0x40 or above), and `<`, `>`, quotes, `=`, `/`, `-`, `!`, `?` and white space, the only
//! characters the search acts on, are all below 0x40. A document with a UTF-16 byte order mark
//! is read by code units. ISO-2022-JP switches to two-byte characters with an escape
//! (`ESC $ B`): the search stops at the token that holds the first escape, where the encoder
//! is still in its ASCII state. The inserted text is ASCII, written in the file's encoding.
//!
//! Why hand-written: the HTML side needs the token boundaries of a document's first few tags
//! in bytes of any encoding, which an HTML parser working on decoded text does not give;
//! the XML side is `quick-xml`'s reader.

use quick_xml::Reader;
use quick_xml::events::Event;

/// The Content-Security-Policy (Content Security Policy Level 3) that every page written
/// [offline](crate::extract::Network::Offline) carries: images, stylesheets, fonts, media,
/// frames and objects from `file:` and `data:` URLs only (the written files, the message's
/// inline data), inline styles, and nothing else: no script, no other fetch, no form sent,
/// no `<base>` applied (see the [`extract` module docs](mod@crate::extract)).
pub const POLICY: &str = "default-src 'none'; img-src file: data:; \
style-src file: data: 'unsafe-inline'; font-src file: data:; media-src file: data:; \
frame-src file: data:; object-src file: data:; form-action 'none'; base-uri 'none'";

/// How a browser reads a written page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Flavor {
    /// With the HTML parser (`.html`, `.htm`, `.shtml`).
    Html,
    /// With an XML parser (`.svg`, `.xhtml`, `.xht`).
    Xml,
}

/// Why no policy could be inserted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum NoPlace {
    /// The XML document has no root element with content (none, or an empty one such as
    /// `<svg/>`), or is not well-formed before its root's start tag ends.
    NoXmlRoot,
}

impl NoPlace {
    /// Why, in words.
    pub(crate) fn reason(self) -> &'static str {
        match self {
            NoPlace::NoXmlRoot => {
                "the XML document has no root element start tag to put it after (none, an empty root, or an error before it)"
            }
        }
    }
}

/// `bytes` (a page in its own encoding) with the policy inserted (see the
/// [module docs](self)).
///
/// # Errors
///
/// [`NoPlace`] when an XML document has no place for it.
pub(crate) fn insert(bytes: &[u8], flavor: Flavor) -> Result<Vec<u8>, NoPlace> {
    let text = Text::of(bytes);
    let (at, inserted) = match flavor {
        Flavor::Html => (html_place(text.ascii.as_bytes()), html_meta()),
        Flavor::Xml => xml_place(&text.ascii).ok_or(NoPlace::NoXmlRoot)?,
    };
    let at = text.byte_offset(at).min(bytes.len());
    let encoded = text.encode(&inserted);
    let mut out = Vec::with_capacity(bytes.len() + encoded.len());
    out.extend_from_slice(bytes.get(..at).unwrap_or(bytes));
    out.extend_from_slice(&encoded);
    out.extend_from_slice(bytes.get(at..).unwrap_or_default());
    Ok(out)
}

/// The element inserted into an HTML page.
fn html_meta() -> String {
    format!("<meta http-equiv=\"Content-Security-Policy\" content=\"{POLICY}\">")
}

/// The XHTML namespace (XHTML elements in an XML document are HTML elements).
const XHTML: &str = "http://www.w3.org/1999/xhtml";

/// The XHTML `<head>` inserted after an XML page's root start tag, holding the `<meta>`.
fn xml_head() -> String {
    format!(
        "<head xmlns=\"{XHTML}\"><meta http-equiv=\"Content-Security-Policy\" content=\"{POLICY}\"/></head>"
    )
}

/// A page's bytes seen as ASCII: one byte per character position (a byte, or a UTF-16 code
/// unit), the character itself when it is ASCII, else [`OTHER`]; after the byte order mark.
struct Text {
    ascii: String,
    /// Bytes of the byte order mark.
    bom: usize,
    /// `Some(true)` for UTF-16LE, `Some(false)` for UTF-16BE, `None` for byte encodings.
    utf16_le: Option<bool>,
}

impl Text {
    fn of(bytes: &[u8]) -> Self {
        let ascii_of = |bytes: &[u8]| -> String {
            bytes
                .iter()
                .map(|&b| if b.is_ascii() { char::from(b) } else { OTHER })
                .collect()
        };
        if let Some(rest) = bytes.strip_prefix(b"\xef\xbb\xbf") {
            return Text {
                ascii: ascii_of(rest),
                bom: 3,
                utf16_le: None,
            };
        }
        let little = match bytes.get(..2) {
            Some(b"\xff\xfe") => true,
            Some(b"\xfe\xff") => false,
            _ => {
                return Text {
                    ascii: ascii_of(bytes),
                    bom: 0,
                    utf16_le: None,
                };
            }
        };
        let ascii = bytes
            .get(2..)
            .unwrap_or_default()
            .chunks_exact(2)
            .map(|pair| {
                let (low, high) = match pair {
                    [a, b] if little => (*a, *b),
                    [a, b] => (*b, *a),
                    _ => (0x80, 0),
                };
                if high == 0 && low.is_ascii() {
                    char::from(low)
                } else {
                    OTHER
                }
            })
            .collect();
        Text {
            ascii,
            bom: 2,
            utf16_le: Some(little),
        }
    }

    /// The byte offset in the page of character position `at`.
    fn byte_offset(&self, at: usize) -> usize {
        let width = if self.utf16_le.is_some() { 2 } else { 1 };
        self.bom + at * width
    }

    /// ASCII `text` in the page's encoding.
    fn encode(&self, text: &str) -> Vec<u8> {
        match self.utf16_le {
            None => text.as_bytes().to_vec(),
            Some(little) => text
                .bytes()
                .flat_map(|b| if little { [b, 0] } else { [0, b] })
                .collect(),
        }
    }
}

/// What stands for a byte or code unit that is not ASCII: a letter, which neither the HTML
/// search nor the XML reader stops at, as a non-ASCII character (text, part of a name or a
/// value) is to both.
const OTHER: char = 'x';

/// The ASCII escape that starts a shift sequence of ISO-2022-JP.
const ESC: u8 = 0x1b;

/// True for the HTML Standard's ASCII white space.
fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' ')
}

/// Where the `<meta>` goes in an HTML page (see the [module docs](self)): a character
/// position of `s`. Linear: each step moves past one token.
fn html_place(s: &[u8]) -> usize {
    let mut at = 0;
    loop {
        while s.get(at).copied().is_some_and(is_space) {
            at += 1;
        }
        let Some(end) = skippable_token(s, at) else {
            return at;
        };
        if s.get(at..end).is_none_or(|token| token.contains(&ESC)) {
            return at;
        }
        at = end;
    }
}

/// The end of the token at `at` when it is one the `<meta>` may follow (a comment, a doctype
/// or other `<!…>` or `<?…>` markup, a start tag of `html`, `head` or `meta`, or a whole
/// `title` element), complete in `s`; `None` otherwise.
fn skippable_token(s: &[u8], at: usize) -> Option<usize> {
    let rest = s.get(at..)?;
    if let Some(after) = rest.strip_prefix(b"<!--") {
        // `<!-->` and `<!--->` end at once (abrupt closing of empty comment); else the
        // comment ends at `-->` or `--!>`.
        if after.starts_with(b">") {
            return Some(at + 5);
        }
        if after.starts_with(b"->") {
            return Some(at + 6);
        }
        let close =
            memchr::memmem::find_iter(after, b"--").find_map(|i| match after.get(i + 2..) {
                Some([b'>', ..]) => Some(i + 3),
                Some([b'!', b'>', ..]) => Some(i + 4),
                _ => None,
            })?;
        return Some(at + 4 + close);
    }
    if rest.starts_with(b"<!") || rest.starts_with(b"<?") {
        // A doctype or a bogus comment: it ends at the first `>`.
        let close = memchr::memchr(b'>', rest)?;
        return Some(at + close + 1);
    }
    // A start tag: `<` and an ASCII letter.
    let name_start = at + 1;
    if !(rest.first() == Some(&b'<') && rest.get(1).is_some_and(u8::is_ascii_alphabetic)) {
        return None;
    }
    let name_end = s
        .get(name_start..)?
        .iter()
        .position(|&b| is_space(b) || b == b'/' || b == b'>')
        .map_or(s.len(), |len| name_start + len);
    let name = s.get(name_start..name_end)?;
    let is = |wanted: &[u8]| name.eq_ignore_ascii_case(wanted);
    if !(is(b"html") || is(b"head") || is(b"meta") || is(b"title")) {
        return None;
    }
    let end = tag_end(s, name_end)?;
    if !is(b"title") {
        return Some(end);
    }
    // A title is RCDATA: it ends at `</title` followed by white space, `/` or `>`.
    let mut from = end;
    loop {
        let close = from + memchr::memmem::find(s.get(from..)?, b"</")?;
        let after = close + 2 + 5;
        let is_title = s
            .get(close + 2..after)
            .is_some_and(|n| n.eq_ignore_ascii_case(b"title"));
        if is_title
            && s.get(after)
                .is_some_and(|&b| is_space(b) || b == b'/' || b == b'>')
        {
            return tag_end(s, after);
        }
        from = close + 2;
    }
}

/// The position after the `>` that ends a tag whose name ends at `at`, reading its
/// attributes as the HTML tokenizer does (a quoted value may hold `>`); `None` when the text
/// ends first.
fn tag_end(s: &[u8], mut at: usize) -> Option<usize> {
    loop {
        // Before attribute name (and the self-closing solidus, which a `>` then ends).
        while s.get(at).is_some_and(|&b| is_space(b) || b == b'/') {
            at += 1;
        }
        if *s.get(at)? == b'>' {
            return Some(at + 1);
        }
        // Attribute name: its first character may be `=`.
        at += 1;
        while s
            .get(at)
            .is_some_and(|&b| !(is_space(b) || b == b'/' || b == b'>' || b == b'='))
        {
            at += 1;
        }
        while s.get(at).copied().is_some_and(is_space) {
            at += 1;
        }
        if s.get(at) != Some(&b'=') {
            continue;
        }
        at += 1;
        while s.get(at).copied().is_some_and(is_space) {
            at += 1;
        }
        match *s.get(at)? {
            quote @ (b'"' | b'\'') => {
                at += 1 + memchr::memchr(quote, s.get(at + 1..)?)? + 1;
            }
            b'>' => return Some(at + 1),
            _ => {
                while s.get(at).is_some_and(|&b| !(is_space(b) || b == b'>')) {
                    at += 1;
                }
            }
        }
    }
}

/// Where the policy goes in an XML page, and what is inserted there (see the
/// [module docs](self)): an XHTML `<head>` holding it, after the root's start tag; `None`
/// when there is no root start tag (no root, an empty one, an error before it).
fn xml_place(s: &str) -> Option<(usize, String)> {
    let mut reader = Reader::from_str(s);
    // Each event consumes at least one byte, so the loop ends.
    loop {
        match reader.read_event() {
            Ok(Event::Decl(_) | Event::PI(_) | Event::Comment(_) | Event::DocType(_)) => {}
            Ok(Event::Text(text)) if text.bytes().all(is_space) => {}
            Ok(Event::Start(_)) => {
                let end = usize::try_from(reader.buffer_position()).ok()?;
                return Some((end, xml_head()));
            }
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn place(html: &str) -> &str {
        &html[html_place(html.as_bytes())..]
    }

    /// The `<meta>` goes after the doctype, comments, `<html>`, `<head>`, `<meta>` and
    /// `<title>`, before anything else.
    #[test]
    fn html_places() {
        assert_eq!(place("<p>x"), "<p>x");
        assert_eq!(place("text"), "text");
        assert_eq!(place(",html><p>"), ",html><p>");
        assert_eq!(place(" xmeta>"), "xmeta>");
        assert_eq!(place(""), "");
        assert_eq!(
            place("<!DOCTYPE html>\n<!-- c -- > --!>\n<HTML lang=en>\n<Head>\n<link href=a.css>"),
            "<link href=a.css>"
        );
        assert_eq!(
            place("<head><meta charset=\"utf-8\"/><title>a </titled> <b></TITLE >\n<style>"),
            "<style>"
        );
        // A quoted `>` does not end a tag; an unclosed tag or comment is not passed over.
        assert_eq!(
            place("<html data-x='a>b' data-y=\"c>d\" z=e/f><base href=x>"),
            "<base href=x>"
        );
        assert_eq!(place("<!--->x"), "x");
        assert_eq!(
            place("<!-- never closed <img src=x>"),
            "<!-- never closed <img src=x>"
        );
        assert_eq!(place("<meta content='x"), "<meta content='x");
        assert_eq!(place("<?xml version=\"1.0\"?><body>"), "<body>");
        assert_eq!(place("<headx><meta>"), "<headx><meta>");
        assert_eq!(place("</head><img>"), "</head><img>");
        // ISO-2022-JP: not past a token that holds an escape.
        assert_eq!(
            place("<title>\x1b$B$\"\x1b(B</title><img>"),
            "<title>\x1b$B$\"\x1b(B</title><img>"
        );
    }

    #[test]
    fn html_insertion_keeps_every_other_byte() {
        let page = b"\xef\xbb\xbf<!doctype html><title>caf\xe9</title><img src=x>";
        let new = insert(page, Flavor::Html).unwrap();
        let meta = html_meta();
        let at = b"\xef\xbb\xbf<!doctype html><title>caf\xe9</title>".len();
        assert_eq!(&new[..at], &page[..at]);
        assert_eq!(&new[at..at + meta.len()], meta.as_bytes());
        assert_eq!(&new[at + meta.len()..], &page[at..]);
    }

    #[test]
    fn utf16_pages_are_read_and_written_by_code_units() {
        let utf16 = |s: &str, little: bool| -> Vec<u8> {
            let mut out = if little {
                vec![0xff, 0xfe]
            } else {
                vec![0xfe, 0xff]
            };
            for unit in s.encode_utf16() {
                out.extend(if little {
                    unit.to_le_bytes()
                } else {
                    unit.to_be_bytes()
                });
            }
            out
        };
        for little in [true, false] {
            let page = utf16("<html><title>é</title><p>x", little);
            let new = insert(&page, Flavor::Html).unwrap();
            let expected = utf16(
                &format!("<html><title>é</title>{}<p>x", html_meta()),
                little,
            );
            assert_eq!(new, expected);
        }
    }

    #[test]
    fn xml_places() {
        let svg = "<?xml version=\"1.0\"?>\n<!DOCTYPE svg [<!ENTITY e \"a>b\">]>\n<!-- c -->\n\
                   <svg xmlns=\"http://www.w3.org/2000/svg\" a=\"x>y\">\n<image href=\"i.png\"/></svg>";
        let (at, inserted) = xml_place(svg).unwrap();
        assert_eq!(&svg[at..], "\n<image href=\"i.png\"/></svg>");
        assert_eq!(inserted, xml_head());
        // An XHTML page's own `<head>` comes second: Blink takes the first.
        let xhtml = "<html xmlns=\"http://www.w3.org/1999/xhtml\">\n <head>\n<title>t</title>";
        let (at, _) = xml_place(xhtml).unwrap();
        assert_eq!(&xhtml[at..], "\n <head>\n<title>t</title>");
        // An SVG `<head>` first (not an XHTML one) does not take the policy's place.
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\"><head/>";
        assert_eq!(&svg[xml_place(svg).unwrap().0..], "<head/>");
        assert_eq!(
            xml_place("<svg xmlns=\"http://www.w3.org/2000/svg\"/>"),
            None
        );
        assert_eq!(xml_place("no root"), None);
        assert_eq!(xml_place(""), None);
        // Text or an error after the root's start tag: after the start tag.
        let (at, _) = xml_place("<svg>x").unwrap();
        assert_eq!(at, 5);
        let (at, _) = xml_place("<svg><a b=>").unwrap();
        assert_eq!(at, 5);
    }
}
