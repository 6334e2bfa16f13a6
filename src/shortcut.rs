//! The link of a shortcut file: a file whose only content is a URL, which the reader's system
//! opens in a browser when the reader opens the file.
//!
//! Three kinds, told apart by their content (the caller chooses the part by its file name,
//! `.url`, `.webloc` or `.desktop`):
//!
//! - **Windows Internet shortcut** (`.url`): an INI file whose `[InternetShortcut]` section's
//!   `URL` key is the link. Read as Windows' `GetPrivateProfileString` reads it: section and
//!   key names ASCII case-insensitive, the first section of that name and its first `URL` key,
//!   white space around the value trimmed and one pair of enclosing quotes (`"…"` or `'…'`)
//!   removed, lines beginning `;` skipped. The file is UTF-16 when it starts with a UTF-16
//!   byte order mark, else UTF-8 when its bytes are valid UTF-8, else windows-1252 (the ANSI
//!   code page of Western Windows systems).
//! - **macOS Web location** (`.webloc`): a property list, XML or binary (`bplist00`), whose top
//!   dictionary's `URL` string is the link. Read with the `plist` crate's event stream, which
//!   keeps its own stack (no recursion), and only as deep as the top dictionary.
//! - **freedesktop.org link** (`.desktop`, the Desktop Entry Specification 1.5): the
//!   `[Desktop Entry]` group's `URL` key, when its `Type` is `Link`; keys case-sensitive, as
//!   the specification has them, and the string escapes `\s`, `\n`, `\t`, `\r` and `\\` undone.
//!
//! The link's range is where its bytes are written in the file, when they are written there
//! as they read (ASCII, without escapes); otherwise, as for an escaped or UTF-16 value, the
//! range is that of the whole line (INI files) or absent (a property list).

use std::io::Cursor;
use std::ops::Range;

use encoding_rs::{Encoding, UTF_8, WINDOWS_1252};

/// The link of a shortcut file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ShortcutLink {
    /// The URL, as the file gives it (quotes and escapes removed).
    pub reference: String,
    /// Where it is written in the file: bytes, 0-based, half-open (see the module docs).
    pub range: Option<Range<usize>>,
}

/// Why a shortcut file gave no link.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub(crate) enum ShortcutError {
    /// A Windows Internet shortcut without an `[InternetShortcut]` section holding `URL`.
    #[error("the Internet shortcut has no URL in an [InternetShortcut] section")]
    NoInternetShortcutUrl,
    /// A desktop entry that is not of type `Link` or has no `URL` key.
    #[error("the desktop entry is not a link (Type=Link with a URL key)")]
    NotADesktopLink,
    /// A property list whose top dictionary has no `URL` string.
    #[error("the Web location has no URL string in its top dictionary")]
    NoWeblocUrl,
    /// A property list the `plist` crate cannot read up to its `URL`.
    #[error("the Web location is not a property list that can be read: {0}")]
    BadPropertyList(String),
}

/// The link of the shortcut file `bytes`, whichever of the three kinds its content is.
///
/// # Errors
///
/// [`ShortcutError`] when the file holds no link of its kind.
pub(crate) fn link(bytes: &[u8]) -> Result<ShortcutLink, ShortcutError> {
    if bytes.starts_with(b"bplist") || looks_like_xml(bytes) {
        return webloc(bytes);
    }
    let (text, encoding) = decode(bytes);
    if find_group(&text, "[Desktop Entry]", false).is_some() {
        return desktop(&text, encoding);
    }
    internet_shortcut(&text, encoding)
}

/// True when the file starts (after a UTF-8 byte order mark and white space) with `<`: an XML
/// property list.
fn looks_like_xml(bytes: &[u8]) -> bool {
    bytes
        .strip_prefix(b"\xef\xbb\xbf")
        .unwrap_or(bytes)
        .trim_ascii_start()
        .starts_with(b"<")
}

/// The file as text (see the module docs for the encodings), and whether the text's bytes
/// are the file's (UTF-8 without conversion), so that ranges in it are ranges in the file.
fn decode(bytes: &[u8]) -> (String, Option<&'static Encoding>) {
    if let Some((encoding, bom)) = Encoding::for_bom(bytes) {
        let body = bytes.get(bom..).unwrap_or_default();
        let (text, _) = encoding.decode_without_bom_handling(body);
        return (text.into_owned(), None);
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => (text.to_owned(), Some(UTF_8)),
        Err(_) => {
            let (text, _) = WINDOWS_1252.decode_without_bom_handling(bytes);
            (text.into_owned(), None)
        }
    }
}

/// The lines of `text` with their byte ranges (line breaks excluded).
fn lines(text: &str) -> impl Iterator<Item = (Range<usize>, &str)> {
    let mut at = 0;
    text.split_inclusive('\n').map(move |raw| {
        let start = at;
        at += raw.len();
        let line = raw.trim_end_matches(['\n', '\r']);
        (start..start + line.len(), line)
    })
}

/// The byte offset where the group (section) `header` starts (its header line included), the
/// first such line; names compared ASCII case-insensitively unless `exact`.
fn find_group(text: &str, header: &str, exact: bool) -> Option<usize> {
    lines(text)
        .find(|(_, line)| {
            let line = line.trim();
            if exact {
                line == header
            } else {
                line.eq_ignore_ascii_case(header)
            }
        })
        .map(|(range, _)| range.start)
}

/// The `(key, value)` lines of the group whose header starts at `start`, up to the next
/// group, with each value's byte range in `text` (before trimming quotes).
fn group_entries(text: &str, start: usize) -> Vec<(String, Range<usize>)> {
    let rest = text.get(start..).unwrap_or_default();
    let mut entries = Vec::new();
    for (index, (range, line)) in lines(rest).enumerate() {
        if index > 0 && line.trim_start().starts_with('[') {
            break;
        }
        if index == 0 || line.trim_start().starts_with([';', '#']) {
            continue;
        }
        let Some((key, value)) = line.split_once('=') else {
            continue;
        };
        let value_start = start + range.start + key.len() + 1;
        let leading = value.len() - value.trim_start().len();
        let value_range = value_start + leading..value_start + value.trim_end().len();
        entries.push((key.trim().to_owned(), value_range));
    }
    entries
}

/// A Windows Internet shortcut's URL.
fn internet_shortcut(
    text: &str,
    encoding: Option<&'static Encoding>,
) -> Result<ShortcutLink, ShortcutError> {
    let start = find_group(text, "[InternetShortcut]", false)
        .ok_or(ShortcutError::NoInternetShortcutUrl)?;
    let (_, mut range) = group_entries(text, start)
        .into_iter()
        .find(|(key, _)| key.eq_ignore_ascii_case("URL"))
        .ok_or(ShortcutError::NoInternetShortcutUrl)?;
    let value = text.get(range.clone()).unwrap_or_default();
    // `GetPrivateProfileString` drops one pair of enclosing quotes.
    let unquoted = ['"', '\'']
        .iter()
        .find_map(|&q| value.strip_prefix(q).and_then(|v| v.strip_suffix(q)));
    if let Some(inner) = unquoted {
        range = range.start + 1..range.end - 1;
        return Ok(ShortcutLink {
            reference: inner.to_owned(),
            range: encoding.map(|_| range),
        });
    }
    Ok(ShortcutLink {
        reference: value.to_owned(),
        range: encoding.map(|_| range),
    })
}

/// A desktop entry's URL, when its type is `Link`.
fn desktop(text: &str, encoding: Option<&'static Encoding>) -> Result<ShortcutLink, ShortcutError> {
    let start = find_group(text, "[Desktop Entry]", true).ok_or(ShortcutError::NotADesktopLink)?;
    let entries = group_entries(text, start);
    let value = |wanted: &str| {
        entries
            .iter()
            .find(|(key, _)| key == wanted)
            .map(|(_, range)| range.clone())
    };
    let is_link = value("Type").is_some_and(|range| text.get(range) == Some("Link"));
    let range = value("URL")
        .filter(|_| is_link)
        .ok_or(ShortcutError::NotADesktopLink)?;
    let written = text.get(range.clone()).unwrap_or_default();
    let reference = unescape_desktop(written);
    let exact = encoding.is_some() && reference == written;
    Ok(ShortcutLink {
        reference,
        range: Some(range).filter(|_| exact || encoding.is_some()),
    })
}

/// A desktop entry string value with its escapes undone (Desktop Entry Specification,
/// "Possible value types"): `\s` space, `\n` line feed, `\t` tab, `\r` carriage return, `\\`
/// backslash; another backslash is kept.
fn unescape_desktop(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let replacement = match chars.peek() {
            Some('s') => ' ',
            Some('n') => '\n',
            Some('t') => '\t',
            Some('r') => '\r',
            Some('\\') => '\\',
            _ => {
                out.push('\\');
                continue;
            }
        };
        chars.next();
        out.push(replacement);
    }
    out
}

/// How many property list events are read at most: a Web location's top dictionary has a
/// handful of keys, and anything deeper than it is skipped, not kept.
const MAX_PLIST_EVENTS: usize = 10_000;

/// A Web location's URL: the `URL` string of the top dictionary of a property list.
fn webloc(bytes: &[u8]) -> Result<ShortcutLink, ShortcutError> {
    let reference = std::panic::catch_unwind(|| plist_url(bytes)).unwrap_or_else(|_| {
        Err(ShortcutError::BadPropertyList(
            "the property list reader failed".to_owned(),
        ))
    })?;
    let range = memchr::memmem::find(bytes, reference.as_bytes())
        .filter(|_| !reference.is_empty())
        .map(|at| at..at + reference.len());
    Ok(ShortcutLink { reference, range })
}

/// The `URL` string of the top dictionary, read event by event.
fn plist_url(bytes: &[u8]) -> Result<String, ShortcutError> {
    use plist::stream::{Event, Reader};
    let mut depth = 0usize;
    // At depth 1 (inside the top dictionary), keys and values alternate.
    let mut expecting_key = true;
    let mut is_url = false;
    for (count, event) in Reader::new(Cursor::new(bytes)).enumerate() {
        if count >= MAX_PLIST_EVENTS {
            break;
        }
        let event = event.map_err(|error| ShortcutError::BadPropertyList(error.to_string()))?;
        match event {
            Event::StartDictionary(_) | Event::StartArray(_) => {
                if depth == 0 && !matches!(event, Event::StartDictionary(_)) {
                    return Err(ShortcutError::NoWeblocUrl);
                }
                if depth == 1 {
                    // A collection as a value of the top dictionary.
                    expecting_key = true;
                    is_url = false;
                }
                depth += 1;
            }
            Event::EndCollection => {
                depth = depth.saturating_sub(1);
                if depth <= 1 {
                    expecting_key = true;
                }
                if depth == 0 {
                    break;
                }
            }
            Event::String(text) if depth == 1 => {
                if expecting_key {
                    is_url = text == "URL";
                    expecting_key = false;
                } else if is_url {
                    return Ok(text.into_owned());
                } else {
                    expecting_key = true;
                }
            }
            _ if depth == 1 => {
                expecting_key = !expecting_key;
                is_url = false;
            }
            _ => {}
        }
    }
    Err(ShortcutError::NoWeblocUrl)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(bytes: &[u8]) -> (String, Option<String>) {
        let link = link(bytes).unwrap();
        let written = link
            .range
            .map(|r| String::from_utf8_lossy(&bytes[r]).into_owned());
        (link.reference, written)
    }

    #[test]
    fn windows_internet_shortcut() {
        let file = b"[{000214A0-0000-0000-C000-000000000046}]\r\nProp3=19,11\r\n[InternetShortcut]\r\nIDList=\r\nurl = https://login.example.com/a?b=1 \r\nIconIndex=1\r\n";
        assert_eq!(
            url(file),
            (
                "https://login.example.com/a?b=1".to_owned(),
                Some("https://login.example.com/a?b=1".to_owned())
            )
        );
        let quoted = b"[internetshortcut]\nURL=\"http://q.example/\"\n";
        assert_eq!(url(quoted).0, "http://q.example/");
        assert_eq!(url(quoted).1.as_deref(), Some("http://q.example/"));
        // Only the first URL of the section, and not one of another section.
        let two = b"[Other]\nURL=http://no.example/\n[InternetShortcut]\nURL=http://yes.example/\nURL=http://second.example/\n";
        assert_eq!(url(two).0, "http://yes.example/");
        assert_eq!(
            link(b"[Other]\nURL=http://no.example/\n"),
            Err(ShortcutError::NoInternetShortcutUrl)
        );
    }

    #[test]
    fn utf16_internet_shortcut_has_no_range() {
        let text = "[InternetShortcut]\r\nURL=http://u.example/é\r\n";
        let mut bytes = vec![0xff, 0xfe];
        for unit in text.encode_utf16() {
            bytes.extend(unit.to_le_bytes());
        }
        assert_eq!(url(&bytes), ("http://u.example/é".to_owned(), None));
    }

    #[test]
    fn desktop_link() {
        let file = b"[Desktop Entry]\nName=Invoice\nType=Link\nURL=https://d.example/x\\sy\nIcon=text-html\n";
        assert_eq!(url(file).0, "https://d.example/x y");
        let app = b"[Desktop Entry]\nType=Application\nExec=xdg-open https://d.example/\nURL=https://d.example/\n";
        assert_eq!(link(app), Err(ShortcutError::NotADesktopLink));
    }

    #[test]
    fn xml_and_binary_weblocs() {
        let xml = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n<dict>\n\t<key>Nested</key>\n\t<dict><key>URL</key><string>http://inner.example/</string></dict>\n\t<key>URL</key>\n\t<string>https://w.example/a&amp;b</string>\n</dict>\n</plist>\n";
        assert_eq!(url(xml), ("https://w.example/a&b".to_owned(), None));
        let mut binary = Vec::new();
        let mut dict = plist::Dictionary::new();
        dict.insert("URL".to_owned(), "https://bin.example/p".into());
        plist::Value::Dictionary(dict)
            .to_writer_binary(&mut binary)
            .unwrap();
        assert_eq!(
            url(&binary),
            (
                "https://bin.example/p".to_owned(),
                Some("https://bin.example/p".to_owned())
            )
        );
        assert!(matches!(
            link(b"bplist00garbage"),
            Err(ShortcutError::BadPropertyList(_))
        ));
    }

    #[test]
    fn deeply_nested_property_list_ends() {
        let mut xml = String::from("<plist><dict><key>A</key>");
        for _ in 0..50_000 {
            xml.push_str("<array>");
        }
        xml.push_str("</plist>");
        let result = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || link(xml.as_bytes()))
            .unwrap()
            .join()
            .unwrap();
        assert!(result.is_err());
    }
}
