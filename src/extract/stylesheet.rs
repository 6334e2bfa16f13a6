//! A CSS part (`text/css`) written with some of its URLs changed: every `url()`, `@import`
//! string and `image-set()` string that [`crate::css`] finds, spliced as
//! [`rewrite`](crate::rewrite()) splices HTML: only the bytes of the changed URLs differ, each
//! new URL written as CSS escapes it for where it stands, in the stylesheet's own encoding.
//!
//! The encoding is the one CSS Syntax §3.2 ("determine the fallback encoding") picks: a byte
//! order mark, else the `charset` parameter of the part's `Content-Type`, else an
//! `@charset "…";` rule at the very start (UTF-16 there meaning UTF-8), else UTF-8 (the
//! referring document's encoding, the step before UTF-8, is not known for a part of a
//! message). A stylesheet that cannot be written back faithfully is an error saying why:
//! an encoding that is not ASCII-compatible (UTF-16, ISO-2022-JP), bytes the encoding does
//! not allow, a kept byte sequence that would not come back through the encoding, or new
//! text that would not read back as the intended URLs.

use std::borrow::Cow;

use encoding_rs::{Encoding, UTF_8};

use crate::css;
use crate::rewrite::{apply, css_escape, splices_of_edits};

/// `bytes` (a stylesheet, its transfer encoding undone; `charset` the `charset` parameter of
/// its `Content-Type`) with each URL for which `new_value`
/// (given the URL with CSS escapes undone) has a value replaced by that value, and how many
/// were replaced; `None` when none is. An error says why it cannot be changed faithfully.
pub(super) fn rewrite(
    bytes: &[u8],
    charset: Option<&str>,
    new_value: &mut dyn FnMut(&str) -> Option<String>,
) -> Result<Option<(Vec<u8>, usize)>, String> {
    let encoding = encoding(bytes, charset);
    if !encoding.is_ascii_compatible() || encoding.output_encoding() != encoding {
        return Err(format!(
            "charset {} is not ASCII-compatible, so bytes cannot be spliced into it",
            encoding.name()
        ));
    }
    let (text, errors) = encoding.decode_without_bom_handling(bytes);
    if errors {
        return Err(format!(
            "the stylesheet has byte sequences {} does not allow, which could not be written back",
            encoding.name()
        ));
    }
    let found = css::urls(&text);
    let mut edits = Vec::new();
    let mut expected = Vec::with_capacity(found.len());
    for url in &found {
        match new_value(&url.reference) {
            Some(new) => {
                let quote = url
                    .range
                    .start
                    .checked_sub(1)
                    .and_then(|before| text.as_bytes().get(before))
                    .copied()
                    .filter(|b| matches!(b, b'"' | b'\''));
                edits.push((url.range.clone(), css_escape(&new, quote)));
                expected.push(Cow::Owned(new));
            }
            None => expected.push(Cow::Borrowed(url.reference.as_str())),
        }
    }
    if edits.is_empty() {
        return Ok(None);
    }
    let count = edits.len();
    let splices = splices_of_edits(encoding, bytes, &text, edits)?;
    let new = apply(bytes, &splices);
    let (new_text, _) = encoding.decode_without_bom_handling(&new);
    let read_back = css::urls(&new_text);
    let same = read_back.len() == expected.len()
        && read_back
            .iter()
            .zip(&expected)
            .all(|(url, expected)| url.reference == **expected);
    if !same {
        return Err(
            "the rewritten stylesheet would not read back the same URLs (a URL holds a character CSS cannot carry)"
                .to_owned(),
        );
    }
    Ok(Some((new, count)))
}

/// The stylesheet's encoding (CSS Syntax §3.2, see the module docs).
fn encoding(bytes: &[u8], charset: Option<&str>) -> &'static Encoding {
    if let Some((encoding, _)) = Encoding::for_bom(bytes) {
        return encoding;
    }
    if let Some(encoding) = charset.and_then(|label| Encoding::for_label(label.trim().as_bytes())) {
        return encoding;
    }
    charset_rule(bytes)
        .map(|encoding| {
            if encoding == encoding_rs::UTF_16BE || encoding == encoding_rs::UTF_16LE {
                UTF_8
            } else {
                encoding
            }
        })
        .unwrap_or(UTF_8)
}

/// The encoding an `@charset "label";` rule names, when the stylesheet's first bytes are
/// exactly that (CSS Syntax §3.2: the rule is read byte by byte, within its first 1,024
/// bytes).
fn charset_rule(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = bytes.get(..bytes.len().min(1024))?;
    let rest = head.strip_prefix(b"@charset \"")?;
    let end = memchr::memmem::find(rest, b"\";")?;
    Encoding::for_label(rest.get(..end)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn absolute(reference: &str) -> Option<String> {
        (!reference.starts_with("http")).then(|| format!("https://x.example/{reference}"))
    }

    #[test]
    fn only_the_urls_change() {
        let input = b"@import 'a.css';\n.b { background: url( b.png ) }\n\
                      @font-face { src: url(\"f.woff2\") format('woff2') }\n\
                      .c { background: url(https://y.example/c.png) }";
        let (new, count) = rewrite(input, None, &mut absolute)
            .expect("rewritten")
            .expect("changed");
        assert_eq!(count, 3);
        assert_eq!(
            String::from_utf8(new).unwrap(),
            "@import 'https://x.example/a.css';\n.b { background: url( https://x.example/b.png ) }\n\
             @font-face { src: url(\"https://x.example/f.woff2\") format('woff2') }\n\
             .c { background: url(https://y.example/c.png) }"
        );
    }

    #[test]
    fn nothing_to_change() {
        assert_eq!(rewrite(b"a { color: red }", None, &mut absolute), Ok(None));
    }

    /// The new URL is escaped for where it stands: `)` and a space inside an unquoted
    /// `url()`, the delimiting quote inside a string.
    #[test]
    fn new_urls_are_escaped() {
        let mut odd = |_: &str| Some("a b)'\".png".to_owned());
        let (new, _) = rewrite(b"x{a:url(o.png);b:url('o.png')}", None, &mut odd)
            .unwrap()
            .unwrap();
        assert_eq!(
            String::from_utf8(new).unwrap(),
            "x{a:url(a\\20 b\\29 \\27 \\22 .png);b:url('a\\20 b)\\27 \".png')}"
        );
    }

    /// windows-1252 by `@charset`: the bytes around the URL stay as they were.
    #[test]
    fn the_stylesheet_keeps_its_encoding() {
        let input = b"@charset \"windows-1252\";\n/* caf\xe9 */ a { b: url(\xe9.png) }";
        let (new, _) = rewrite(input, None, &mut absolute).unwrap().unwrap();
        assert_eq!(
            new,
            b"@charset \"windows-1252\";\n/* caf\xe9 */ a { b: url(https://x.example/\\e9 .png) }"
        );
    }

    #[test]
    fn encodings_that_cannot_be_spliced_are_refused() {
        let utf16 = b"\xff\xfea\x00{\x00b\x00:\x00u\x00r\x00l\x00(\x00x\x00)\x00}\x00";
        assert!(rewrite(utf16, None, &mut absolute).is_err());
        let invalid = b"a { b: url(x.png) } /* \xff */";
        assert!(rewrite(invalid, Some("utf-8"), &mut absolute).is_err());
    }
}
