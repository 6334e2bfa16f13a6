//! The links of a calendar invitation: an iCalendar object (RFC 5545), the `text/calendar`
//! part that a meeting request carries and a calendar application shows with buttons and
//! links.
//!
//! Which properties hold a link a reader reaches, and how their values are read:
//!
//! | property | value | read as |
//! |---|---|---|
//! | `URL` (RFC 5545 §3.8.4.6) | URI | the reference |
//! | `ATTACH` (§3.8.1.1) | URI, unless `VALUE=BINARY` (an inline attachment, base64) | the reference |
//! | `CONFERENCE` (RFC 7986 §5.11) | URI | the reference |
//! | `X-ALT-DESC`, `STYLED-DESCRIPTION` (RFC 9073 §6.5) with `FMTTYPE=text/html` | TEXT | an HTML document (Outlook shows `X-ALT-DESC` so) |
//! | `DESCRIPTION`, `LOCATION`, `SUMMARY`, `COMMENT` (§3.8.1.5, §3.8.1.7, §3.8.1.12, §3.8.1.4); `X-ALT-DESC` and `STYLED-DESCRIPTION` of another format | TEXT | plain text, linkified as a mail client linkifies a text body |
//!
//! A content line (§3.1) is `name *(";" param) ":" value`, unfolded first: a line break
//! followed by one space or tab is removed with that character. Lines may end with CRLF, as
//! the RFC asks, or with a bare LF, which real files have and applications read. Names are
//! compared ASCII case-insensitively (§3.1); a parameter value may be quoted, and a quoted
//! value may hold `:` and `;` (§3.2). A TEXT value (§3.3.11) has its escapes undone: `\\`,
//! `\;`, `\,`, `\N` and `\n`; a backslash before any other character is kept, as Python's
//! `icalendar` and Thunderbird keep it. A URI value (§3.3.13) is taken as written.
//!
//! Every value comes with a map back to the calendar's text ([`ShownText`]), so that a link's
//! range is where its characters are written, across folds and escapes.
//!
//! Why not a crate: the iCalendar parsers on crates.io (`icalendar`, `ical`) give property
//! values without their positions in the file, which the records need, and the grammar of a
//! content line is a few lines of code.

use std::ops::Range;

use crate::text::{OffsetMap, ShownText};

/// How a property's value is read for links.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ValueKind {
    /// A URI (RFC 5545 §3.3.13): the whole value is one reference.
    Uri,
    /// TEXT (§3.3.11) that an application shows as plain text, with its URLs made links.
    Text,
    /// TEXT holding an HTML document.
    Html,
}

/// A property whose value holds links, its escapes undone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Property {
    /// The property's name in its canonical (uppercase) spelling, as the record's place.
    pub name: &'static str,
    /// How to read the value.
    pub kind: ValueKind,
    /// The value (unfolded; a TEXT value unescaped), with the map back to the calendar's
    /// text.
    pub value: ShownText,
}

/// The properties that hold links, by canonical name, and how their values are read when no
/// parameter says otherwise.
const LINKED: &[(&str, ValueKind)] = &[
    ("URL", ValueKind::Uri),
    ("ATTACH", ValueKind::Uri),
    ("CONFERENCE", ValueKind::Uri),
    ("X-ALT-DESC", ValueKind::Text),
    ("STYLED-DESCRIPTION", ValueKind::Text),
    ("DESCRIPTION", ValueKind::Text),
    ("LOCATION", ValueKind::Text),
    ("SUMMARY", ValueKind::Text),
    ("COMMENT", ValueKind::Text),
];

/// Calls `on_property` for each property of the calendar `text` that holds links (see the
/// module docs), in the order of the file.
pub(crate) fn linked_properties(text: &str, mut on_property: impl FnMut(Property)) {
    for line in content_lines(text) {
        let Some(property) = property(text, &line) else {
            continue;
        };
        on_property(property);
    }
}

/// One content line, unfolded: the bytes of the calendar's text it is made of, in order (a
/// folded line is several ranges, each without its line break and, after the first, without
/// the space or tab that marks the fold).
struct ContentLine {
    pieces: Vec<Range<usize>>,
}

impl ContentLine {
    /// The unfolded line's bytes, with the offset in the calendar's text of each.
    fn bytes<'a>(&'a self, text: &'a str) -> impl Iterator<Item = (usize, u8)> + 'a {
        self.pieces.iter().flat_map(move |piece| {
            text.as_bytes()
                .get(piece.clone())
                .unwrap_or_default()
                .iter()
                .enumerate()
                .map(move |(i, &byte)| (piece.start + i, byte))
        })
    }
}

/// The content lines of `text`, unfolded (RFC 5545 §3.1).
fn content_lines(text: &str) -> Vec<ContentLine> {
    let bytes = text.as_bytes();
    let mut lines: Vec<ContentLine> = Vec::new();
    let mut start = 0;
    while start < bytes.len() {
        let (end, next) = match memchr::memchr(b'\n', bytes.get(start..).unwrap_or_default()) {
            Some(i) => {
                let lf = start + i;
                let end = if lf > start && bytes.get(lf - 1) == Some(&b'\r') {
                    lf - 1
                } else {
                    lf
                };
                (end, lf + 1)
            }
            None => (bytes.len(), bytes.len()),
        };
        let folded = matches!(bytes.get(start), Some(b' ' | b'\t'));
        match lines.last_mut() {
            Some(line) if folded => line.pieces.push(start + 1..end.max(start + 1)),
            _ => lines.push(ContentLine {
                pieces: std::iter::once(start..end).collect(),
            }),
        }
        start = next;
    }
    lines
}

/// The property of a content line, if it is one that holds links.
fn property(text: &str, line: &ContentLine) -> Option<Property> {
    let bytes: Vec<(usize, u8)> = line.bytes(text).collect();
    // The name: up to the first `;` or `:`.
    let name_end = bytes.iter().position(|(_, b)| matches!(b, b';' | b':'))?;
    let name: Vec<u8> = bytes.get(..name_end)?.iter().map(|(_, b)| *b).collect();
    let (canonical, default_kind) = LINKED
        .iter()
        .find(|(known, _)| known.as_bytes().eq_ignore_ascii_case(&name))?;
    // The parameters, up to the first `:` outside a quoted string (RFC 5545 §3.2).
    let mut params: Vec<(String, String)> = Vec::new();
    let mut at = name_end;
    let mut quoted = false;
    let mut current = String::new();
    let value_start = loop {
        let &(_, byte) = bytes.get(at)?;
        match byte {
            b'"' => quoted = !quoted,
            b':' if !quoted => {
                push_param(&mut params, &current);
                break at + 1;
            }
            b';' if !quoted => {
                push_param(&mut params, &current);
                current.clear();
            }
            _ => current.push(char::from(byte)),
        }
        at += 1;
    };
    let param = |wanted: &str| {
        params
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(wanted))
            .map(|(_, value)| value.as_str())
    };
    let kind = match *canonical {
        "ATTACH"
            if param("VALUE").is_some_and(|v| v.eq_ignore_ascii_case("BINARY"))
                || param("ENCODING").is_some_and(|v| v.eq_ignore_ascii_case("BASE64")) =>
        {
            return None;
        }
        "X-ALT-DESC" | "STYLED-DESCRIPTION"
            if param("FMTTYPE").is_some_and(|v| v.trim().eq_ignore_ascii_case("text/html")) =>
        {
            ValueKind::Html
        }
        _ => *default_kind,
    };
    let value = bytes.get(value_start..).unwrap_or_default();
    Some(Property {
        name: canonical,
        kind,
        value: match kind {
            ValueKind::Uri => copied(value),
            ValueKind::Text | ValueKind::Html => unescaped(value),
        },
    })
}

/// Adds the parameter `name=value` (its value's quotes removed; of a list of values, all of
/// them as written) to `params`; text without `=` is no parameter.
fn push_param(params: &mut Vec<(String, String)>, text: &str) {
    if let Some((name, value)) = text.split_once('=') {
        params.push((name.trim().to_owned(), value.replace('"', "")));
    }
}

/// The value's bytes as they are, mapped back to the calendar's text.
fn copied(value: &[(usize, u8)]) -> ShownText {
    let mut shown = Shown::default();
    for &(at, byte) in value {
        shown.copy(at, byte);
    }
    shown.finish()
}

/// A TEXT value with its escapes undone (RFC 5545 §3.3.11), mapped back to the calendar's
/// text: each escape stands for its two bytes.
fn unescaped(value: &[(usize, u8)]) -> ShownText {
    let mut shown = Shown::default();
    let mut i = 0;
    while let Some(&(at, byte)) = value.get(i) {
        let escape = match (byte, value.get(i + 1)) {
            (b'\\', Some(&(end, next @ (b'\\' | b';' | b',')))) => Some((next, end)),
            (b'\\', Some(&(end, b'n' | b'N'))) => Some((b'\n', end)),
            _ => None,
        };
        match escape {
            Some((replacement, end)) => {
                shown.replace(replacement, at..end + 1);
                i += 2;
            }
            None => {
                shown.copy(at, byte);
                i += 1;
            }
        }
    }
    shown.finish()
}

/// A value being made, byte by byte: bytes rather than a `String`, since a fold may split a
/// UTF-8 sequence (RFC 5545 §3.1 asks readers to restore it), so that the pieces are valid
/// UTF-8 only once joined.
#[derive(Default)]
struct Shown {
    bytes: Vec<u8>,
    map: OffsetMap,
}

impl Shown {
    /// Appends the calendar's byte at offset `at`.
    fn copy(&mut self, at: usize, byte: u8) {
        self.bytes.push(byte);
        self.map.copy(at, 1);
    }

    /// Appends `byte`, standing for the calendar's bytes `source`.
    fn replace(&mut self, byte: u8, source: Range<usize>) {
        self.bytes.push(byte);
        self.map.replace(1, source);
    }

    /// The value. The calendar's text is UTF-8 and only ASCII bytes are dropped or replaced,
    /// so the bytes are UTF-8; were they not, the value is read with U+FFFD for what is not,
    /// and the map, which then no longer fits, is left empty.
    fn finish(self) -> ShownText {
        match String::from_utf8(self.bytes) {
            Ok(text) => ShownText {
                text,
                map: self.map,
            },
            Err(error) => ShownText {
                text: String::from_utf8_lossy(error.as_bytes()).into_owned(),
                map: OffsetMap::default(),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn properties(text: &str) -> Vec<(&'static str, ValueKind, String)> {
        let mut found = Vec::new();
        linked_properties(text, |p| found.push((p.name, p.kind, p.value.text)));
        found
    }

    #[test]
    fn links_by_property() {
        let text = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:Call\r\nurl;VALUE=URI:https://a.example/x\r\nATTACH;FMTTYPE=application/pdf:https://b.example/doc.pdf\r\nATTACH;ENCODING=BASE64;VALUE=BINARY:AAAA\r\nDTSTART:20261201T100000Z\r\nX-ALT-DESC;FMTTYPE=text/html:<a href=\"https://c.example/\">c</a>\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
        assert_eq!(
            properties(text),
            [
                ("SUMMARY", ValueKind::Text, "Call".to_owned()),
                ("URL", ValueKind::Uri, "https://a.example/x".to_owned()),
                (
                    "ATTACH",
                    ValueKind::Uri,
                    "https://b.example/doc.pdf".to_owned()
                ),
                (
                    "X-ALT-DESC",
                    ValueKind::Html,
                    "<a href=\"https://c.example/\">c</a>".to_owned()
                ),
            ]
        );
    }

    #[test]
    fn unfolding_and_unescaping_keep_the_map() {
        // A fold inside the URL, escapes before it, LF line ends.
        let text =
            "DESCRIPTION:Join\\, please\\n see https://meet.exa\n mple/r?a=1\\;b\nEND:VEVENT\n";
        let mut found = Vec::new();
        linked_properties(text, |p| found.push(p));
        let [description] = found.as_slice() else {
            panic!("{found:?}");
        };
        assert_eq!(
            description.value.text,
            "Join, please\n see https://meet.example/r?a=1;b"
        );
        let url = description.value.text.find("https").unwrap();
        let end = description.value.text.len() - 2; // before `;b`
        let range = description.value.map.source_range(url..end);
        assert_eq!(&text[range], "https://meet.exa\n mple/r?a=1");
    }

    #[test]
    fn quoted_parameters_may_hold_colons() {
        let text = "X-ALT-DESC;X-NOTE=\"a:b;c\";FMTTYPE=\"text/html\":<p>x</p>\n";
        assert_eq!(
            properties(text),
            [("X-ALT-DESC", ValueKind::Html, "<p>x</p>".to_owned())]
        );
    }

    #[test]
    fn other_backslashes_are_kept_and_lines_without_colon_skipped() {
        let text = "COMMENT:C:\\temp\\x\nLOCATION\nLOCATION;X=1\n";
        assert_eq!(
            properties(text),
            [("COMMENT", ValueKind::Text, "C:\\temp\\x".to_owned())]
        );
    }
}
