//! The encoding of an HTML body, as the HTML Standard's
//! [encoding sniffing algorithm](https://html.spec.whatwg.org/multipage/parsing.html#encoding-sniffing-algorithm)
//! determines it for a document that has all its bytes: a byte order mark first, then the
//! transport layer's charset (for a MIME part, its `charset` parameter), then the
//! [prescan](https://html.spec.whatwg.org/multipage/parsing.html#prescan-a-byte-stream-to-determine-its-encoding)
//! of the first 1,024 bytes for a `<meta charset>` or `<meta http-equiv=content-type>`, then
//! a default: UTF-8 when the bytes are valid UTF-8, else windows-1252 (the Standard leaves the
//! default to the user agent; these are what undeclared mail most often is in).
//!
//! Ours because no library does it as the Standard says: `encoding_rs` maps labels to
//! encodings (used here) but leaves sniffing to its users, and the crates that offer a prescan
//! approximate it (a `charset` found anywhere in a tag, comments not skipped), which is the
//! kind of difference a sender can use to make a filter read a page in another encoding than
//! the reader's client. The prescan below follows the Standard's steps one by one. What it
//! leaves out: the UTF-16 XML declaration shortcut and the XML declaration's `encoding` (an
//! HTML parser applies neither to `text/html`).

// White space is the Standard's ASCII whitespace (TAB, LF, FF, CR, SPACE): `u8::is_ascii_whitespace`.
use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, X_USER_DEFINED};

/// How many bytes the prescan reads, as the Standard advises.
const PRESCAN_BYTES: usize = 1024;

/// Where the encoding of an HTML body came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Source {
    /// A byte order mark (UTF-8, UTF-16BE, UTF-16LE).
    ByteOrderMark,
    /// The MIME `charset` parameter.
    Charset,
    /// A `<meta>` in the first 1,024 bytes.
    Meta,
    /// Nothing: UTF-8 if the bytes are valid UTF-8, else windows-1252.
    Default,
}

/// The encoding of `body`, an HTML body whose transport charset (a known label's encoding)
/// is `charset`, and where it came from.
pub(crate) fn sniff(
    body: &[u8],
    charset: Option<&'static Encoding>,
) -> (&'static Encoding, Source) {
    declared(body, charset).unwrap_or_else(|| {
        let default = if std::str::from_utf8(body).is_ok() {
            UTF_8
        } else {
            WINDOWS_1252
        };
        (default, Source::Default)
    })
}

/// The steps of [`sniff`] before the default: `None` when the body declares no encoding, so
/// that a caller who wants the text of a valid UTF-8 body checks it once.
pub(crate) fn declared(
    body: &[u8],
    charset: Option<&'static Encoding>,
) -> Option<(&'static Encoding, Source)> {
    if let Some((encoding, _)) = Encoding::for_bom(body) {
        return Some((encoding, Source::ByteOrderMark));
    }
    if let Some(encoding) = charset {
        return Some((encoding, Source::Charset));
    }
    prescan(body.get(..PRESCAN_BYTES).unwrap_or(body)).map(|encoding| (encoding, Source::Meta))
}

/// The prescan: the encoding a `<meta>` in `bytes` declares, or `None` when there is none
/// before the bytes run out.
pub(crate) fn prescan(bytes: &[u8]) -> Option<&'static Encoding> {
    let mut at = 0;
    loop {
        // Every step starts at a `<`; any other byte is passed over.
        at += memchr::memchr(b'<', bytes.get(at..)?)?;
        let rest = bytes.get(at..)?;
        match rest {
            [b'<', b'!', b'-', b'-', ..] => {
                // To the `>` of the first `-->`, whose dashes may be those of `<!--`.
                let end = memchr::memmem::find(rest.get(2..)?, b"-->")?;
                at += 2 + end + 2;
            }
            [b'<', m, e, t, a, after, ..]
                if [*m, *e, *t, *a].eq_ignore_ascii_case(b"meta")
                    && (after.is_ascii_whitespace() || *after == b'/') =>
            {
                let mut position = at + 6;
                if let Some(encoding) = meta(bytes, &mut position)? {
                    return Some(encoding);
                }
                at = position;
            }
            [b'<', letter, ..] | [b'<', b'/', letter, ..] if letter.is_ascii_alphabetic() => {
                // A tag: to the white space or `>` after its name, then past its attributes.
                at += rest
                    .iter()
                    .position(|&b| b.is_ascii_whitespace() || b == b'>')?;
                while attribute(bytes, &mut at, false)?.is_some() {}
            }
            [b'<', b'!' | b'/' | b'?', ..] => {
                at += 1 + memchr::memchr(b'>', rest.get(1..)?)?;
            }
            _ => {}
        }
        at += 1;
    }
}

/// The attributes of a `<meta>` from `position` (just past `<meta` and the byte after it) to
/// its `>`: `Some(Some(encoding))` when they declare one, `Some(None)` when they do not
/// (`position` is then at the `>`), `None` when the bytes run out.
fn meta(bytes: &[u8], position: &mut usize) -> Option<Option<&'static Encoding>> {
    let mut seen: Vec<Vec<u8>> = Vec::new();
    let mut got_pragma = false;
    let mut need_pragma = None;
    let mut charset = None;
    while let Some((name, value)) = attribute(bytes, position, true)? {
        if seen.contains(&name) {
            continue;
        }
        match name.as_slice() {
            b"http-equiv" => got_pragma |= value == b"content-type",
            b"content" => {
                if charset.is_none()
                    && let Some(encoding) = from_content(&value)
                {
                    charset = Some(encoding);
                    need_pragma = Some(true);
                }
            }
            b"charset" => {
                charset = Encoding::for_label(&value);
                need_pragma = Some(false);
            }
            _ => {}
        }
        seen.push(name);
    }
    let declared = match need_pragma {
        None => None,
        Some(true) if !got_pragma => None,
        _ => charset,
    };
    Some(declared.map(|encoding| {
        if encoding == UTF_16BE || encoding == UTF_16LE {
            UTF_8
        } else if encoding == X_USER_DEFINED {
            WINDOWS_1252
        } else {
            encoding
        }
    }))
}

/// The Standard's "get an attribute" from `position`: `Some(Some((name, value)))` with both
/// lowercased (ASCII), `Some(None)` at the `>` that ends the tag, `None` when the bytes run
/// out. Without `collect` the name and value are passed over, not kept (both empty).
fn attribute(
    bytes: &[u8],
    position: &mut usize,
    collect: bool,
) -> Option<Option<(Vec<u8>, Vec<u8>)>> {
    let byte = |at: usize| bytes.get(at).copied();
    while byte(*position)?.is_ascii_whitespace() || byte(*position)? == b'/' {
        *position += 1;
    }
    if byte(*position)? == b'>' {
        return Some(None);
    }
    let mut name = Vec::new();
    let mut value = Vec::new();
    // The name, up to `=` (once the name has a byte), white space, `/` or `>`.
    let start = *position;
    loop {
        match byte(*position)? {
            b'=' if *position > start => {
                *position += 1;
                break;
            }
            b if b.is_ascii_whitespace() => {
                while byte(*position)?.is_ascii_whitespace() {
                    *position += 1;
                }
                if byte(*position)? != b'=' {
                    return Some(Some((name, value)));
                }
                *position += 1;
                break;
            }
            b'/' | b'>' => return Some(Some((name, value))),
            b if collect => name.push(b.to_ascii_lowercase()),
            _ => {}
        }
        *position += 1;
    }
    while byte(*position)?.is_ascii_whitespace() {
        *position += 1;
    }
    match byte(*position)? {
        quote @ (b'"' | b'\'') => loop {
            *position += 1;
            match byte(*position)? {
                b if b == quote => {
                    *position += 1;
                    return Some(Some((name, value)));
                }
                b if collect => value.push(b.to_ascii_lowercase()),
                _ => {}
            }
        },
        b'>' => return Some(Some((name, value))),
        b => {
            if collect {
                value.push(b.to_ascii_lowercase());
            }
            *position += 1;
        }
    }
    loop {
        match byte(*position)? {
            b if b.is_ascii_whitespace() || b == b'>' => return Some(Some((name, value))),
            b if collect => value.push(b.to_ascii_lowercase()),
            _ => {}
        }
        *position += 1;
    }
}

/// The Standard's "algorithm for extracting a character encoding from a meta element", on a
/// `content` value (already lowercased): the encoding after `charset=`, if any.
fn from_content(content: &[u8]) -> Option<&'static Encoding> {
    let mut at = 0;
    loop {
        at += memchr::memmem::find(content.get(at..)?, b"charset")? + 7;
        let after = content.get(at..)?;
        let spaces = after.iter().take_while(|b| b.is_ascii_whitespace()).count();
        if after.get(spaces) != Some(&b'=') {
            continue;
        }
        let value = after.get(spaces + 1..)?;
        let value = value.get(value.iter().take_while(|b| b.is_ascii_whitespace()).count()..)?;
        return match value.first()? {
            &quote @ (b'"' | b'\'') => {
                let inner = value.get(1..)?;
                let end = memchr::memchr(quote, inner)?;
                Encoding::for_label(inner.get(..end)?)
            }
            _ => {
                let end = value
                    .iter()
                    .position(|&b| b.is_ascii_whitespace() || b == b';')
                    .unwrap_or(value.len());
                Encoding::for_label(value.get(..end)?)
            }
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{ISO_8859_2, SHIFT_JIS, UTF_16LE, WINDOWS_1251};

    #[test]
    fn meta_charset_and_pragma() {
        assert_eq!(prescan(b"<meta charset=shift_jis>"), Some(SHIFT_JIS));
        assert_eq!(prescan(b"<META CHARSET='Shift_JIS'>"), Some(SHIFT_JIS));
        assert_eq!(
            prescan(b"<meta/charset=\"windows-1251\">"),
            Some(WINDOWS_1251)
        );
        assert_eq!(
            prescan(b"<meta http-equiv=Content-Type content=\"text/html; charset=iso-8859-2\">"),
            Some(ISO_8859_2)
        );
        // `content` without the pragma declares nothing.
        assert_eq!(
            prescan(b"<meta content=\"text/html; charset=iso-8859-2\">x"),
            None
        );
        // The pragma after `content` counts too.
        assert_eq!(
            prescan(b"<meta content='charset = \"koi8-r\"' http-equiv=content-type>"),
            Some(encoding_rs::KOI8_R)
        );
        // UTF-16 declared in a `<meta>` is UTF-8 (the bytes were read as ASCII to find it).
        assert_eq!(prescan(b"<meta charset=utf-16le>"), Some(UTF_8));
        assert_eq!(
            prescan(b"<meta charset=x-user-defined>"),
            Some(WINDOWS_1252)
        );
        // An unknown label: the prescan goes on to the next `<meta>`.
        assert_eq!(
            prescan(b"<meta charset=nonsense><meta charset=shift_jis>"),
            Some(SHIFT_JIS)
        );
        // The first of a repeated attribute counts.
        assert_eq!(
            prescan(b"<meta charset=shift_jis charset=windows-1251>"),
            Some(SHIFT_JIS)
        );
    }

    #[test]
    fn what_the_prescan_passes_over() {
        assert_eq!(prescan(b"<!-- <meta charset=shift_jis> --><p>"), None);
        // `<!-->` and `<!--->` are whole comments: the dashes of `-->` may be those of `<!--`.
        assert_eq!(prescan(b"<!--><meta charset=shift_jis>"), Some(SHIFT_JIS));
        assert_eq!(
            prescan(b"<!---><meta charset=shift_jis>-->"),
            Some(SHIFT_JIS)
        );
        assert_eq!(
            prescan(b"<!-- x --><meta charset=shift_jis>"),
            Some(SHIFT_JIS)
        );
        // Inside another tag's attribute value.
        assert_eq!(prescan(b"<p title='<meta charset=shift_jis>'>"), None);
        assert_eq!(prescan(b"<p data-charset=shift_jis>"), None);
        assert_eq!(prescan(b"<metax charset=shift_jis>"), None);
        // `<!doctype>`, `<?…>` and end tags are skipped to their `>`.
        assert_eq!(
            prescan(b"<!doctype html><?x?></p><meta charset=shift_jis>"),
            Some(SHIFT_JIS)
        );
        // Running out of bytes ends it.
        assert_eq!(prescan(b"<meta charset=shift_jis"), None);
    }

    #[test]
    fn sniffing_order() {
        let bom = b"\xff\xfe<\0m\0";
        assert_eq!(
            sniff(bom, Some(SHIFT_JIS)),
            (UTF_16LE, Source::ByteOrderMark)
        );
        let page = b"<meta charset=shift_jis>\x93\xfa";
        assert_eq!(
            sniff(page, Some(WINDOWS_1251)),
            (WINDOWS_1251, Source::Charset)
        );
        assert_eq!(sniff(page, None), (SHIFT_JIS, Source::Meta));
        assert_eq!(sniff("<p>é".as_bytes(), None), (UTF_8, Source::Default));
        assert_eq!(sniff(b"<p>\xe9", None), (WINDOWS_1252, Source::Default));
        // Only the first 1,024 bytes are prescanned.
        let mut late = vec![b' '; 1024];
        late.extend(b"<meta charset=shift_jis>");
        assert_eq!(sniff(&late, None), (UTF_8, Source::Default));
    }
}
