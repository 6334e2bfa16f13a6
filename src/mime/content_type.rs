//! `Content-Type` values (RFC 2045 §5.1) read as mail clients read them.
//!
//! A valid value is `type "/" subtype`, each a token (printable ASCII but space and the
//! tspecials), then nothing or `;` and the parameters, comments and white space allowed
//! between (RFC 5322 §3.2.2). The type and subtype are read here; the parameters go through
//! mail-parser's field parser (RFC 2231 continuations and charsets are its job).
//!
//! A value that is not valid is read in one of two ways:
//!
//! - a valid `type/subtype` followed by something other than `;` (`text/html charset=utf-8`,
//!   `multipart/mixed boundary=x`, a `;` lost; `image/png/x`) is that type: GMime's
//!   `g_mime_content_type_parse` reads the longest tokens around the `/` and skips what
//!   follows up to the first `;`, and MimeKit's `ContentType.TryParse` keeps the type it read
//!   when the `;` is missing (it takes a `/` into the subtype, though: `image/png/x`); Thunderbird's libmime cuts the type at `;` or white space. The
//!   parameters are those after the first `;` that follows (none when there is no `;`), as
//!   GMime reads them and as Thunderbird's parameter parser (`nsMIMEHeaderParamImpl`, which
//!   skips to the first `;` before it looks for a name) finds them; MimeKit reads none there.
//!   So `multipart/mixed boundary=x` is a multipart without a boundary, which no client
//!   splits into parts, and `multipart/mixed junk; boundary=x` is split at `--x`.
//! - anything else (no `/`, an empty or non-token type or subtype: `text`, `/html`,
//!   `"text/html"`, `te xt/html`) is `text/plain`, as RFC 2045 §5.2 recommends ("default to
//!   plain US-ASCII text") and Python's `email` does. GMime and MimeKit read such a value as
//!   `application/octet-stream` instead, a type no client shows inline.

use mail_parser::HeaderValue;
use mail_parser::parsers::MessageStream;

use super::ContentType;

/// How a `Content-Type` value was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Parsed {
    /// A valid value (RFC 2045 §5.1).
    Valid(ContentType),
    /// A valid `type/subtype` followed by something other than `;`: read as that type, with
    /// the parameters after the first `;` that follows. With it, what stands between the
    /// type and that `;` (or the end), trimmed.
    Junk(ContentType, String),
    /// Neither: the value gives no media type.
    Invalid,
}

/// Reads a `Content-Type` value (unfolded): see the [module docs](self).
pub(crate) fn parse(value: &str) -> Parsed {
    let bytes = value.as_bytes();
    let Some((media_type, subtype, after)) = leading_essence(bytes) else {
        return Parsed::Invalid;
    };
    let rest = bytes.get(after..).unwrap_or_default();
    let semicolon = memchr::memchr(b';', rest);
    let params = semicolon
        .and_then(|at| rest.get(at + 1..))
        .map(parameters)
        .unwrap_or_default();
    let content_type = ContentType {
        media_type: String::from_utf8_lossy(media_type).to_ascii_lowercase(),
        subtype: String::from_utf8_lossy(subtype).to_ascii_lowercase(),
        params,
    };
    if semicolon == Some(0) || rest.is_empty() {
        return Parsed::Valid(content_type);
    }
    let junk = rest
        .get(..semicolon.unwrap_or(rest.len()))
        .unwrap_or_default();
    Parsed::Junk(
        content_type,
        String::from_utf8_lossy(junk.trim_ascii()).into_owned(),
    )
}

/// The parameters of a `Content-Type` value, given what follows its first `;`, as
/// mail-parser's field parser reads them: names lowercase, values decoded (RFC 2231
/// continuations joined, charsets converted).
fn parameters(after_semicolon: &[u8]) -> Vec<(String, String)> {
    let mut input = b"x/y;".to_vec();
    input.extend_from_slice(after_semicolon);
    input.push(b'\n');
    let HeaderValue::ContentType(parsed) = MessageStream::new(&input).parse_content_type() else {
        return Vec::new();
    };
    parsed
        .attributes()
        .unwrap_or_default()
        .iter()
        .map(|a| (a.name.to_ascii_lowercase(), a.value.to_string()))
        .collect()
}

/// RFC 2045 §5.1: a token is printable ASCII but space and the tspecials `()<>@,;:\"/[]?=`.
fn is_token_byte(byte: u8) -> bool {
    matches!(byte, b'!' | b'#'..=b'\'' | b'*' | b'+' | b'-' | b'.' | b'0'..=b'9'
        | b'A'..=b'Z' | b'^'..=b'~')
}

/// The type and subtype tokens at the start of `value`, with comments and white space
/// (CFWS, RFC 5322 §3.2.2) allowed before each and around the `/`, and the offset just after
/// the subtype and the CFWS that follows it; `None` when the value does not start so. Each
/// token is as long as it can be (GMime's `g_mime_parse_content_type`).
fn leading_essence(value: &[u8]) -> Option<(&[u8], &[u8], usize)> {
    let token = |at: usize| {
        let length = value
            .get(at..)
            .unwrap_or_default()
            .iter()
            .take_while(|&&b| is_token_byte(b))
            .count();
        value.get(at..at + length).filter(|t| !t.is_empty())
    };
    let type_start = skip_cfws(value, 0);
    let media_type = token(type_start)?;
    let slash = skip_cfws(value, type_start + media_type.len());
    if value.get(slash) != Some(&b'/') {
        return None;
    }
    let subtype_start = skip_cfws(value, slash + 1);
    let subtype = token(subtype_start)?;
    Some((
        media_type,
        subtype,
        skip_cfws(value, subtype_start + subtype.len()),
    ))
}

/// `at` moved past white space and comments (nested; a backslash quotes the next byte; an
/// unclosed comment runs to the end).
fn skip_cfws(value: &[u8], mut at: usize) -> usize {
    let mut depth = 0usize;
    while let Some(&byte) = value.get(at) {
        match byte {
            b'(' => depth += 1,
            b')' if depth > 0 => depth -= 1,
            b'\\' if depth > 0 => at += 1,
            b' ' | b'\t' | b'\r' | b'\n' => {}
            _ if depth > 0 => {}
            _ => return at,
        }
        at += 1;
    }
    value.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(value: &str) -> (String, Vec<(String, String)>, Option<String>) {
        match parse(value) {
            Parsed::Valid(ct) => (ct.essence(), ct.params, None),
            Parsed::Junk(ct, junk) => (ct.essence(), ct.params, Some(junk)),
            Parsed::Invalid => ("-".to_owned(), Vec::new(), None),
        }
    }

    fn params(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
        pairs
            .iter()
            .map(|(n, v)| ((*n).to_owned(), (*v).to_owned()))
            .collect()
    }

    /// The type and parameters GMime 3.2.13 gives for each value (`g_mime_content_type_parse`,
    /// and the part's type through `g_mime_parser_construct_message`), where it gives one;
    /// `-` where GMime has `application/octet-stream` and we `text/plain`.
    /// A value, the type we read, the parameters, and the junk, if any.
    type Case<'a> = (&'a str, &'a str, &'a [(&'a str, &'a str)], Option<&'a str>);

    #[test]
    fn junk_after_the_type_as_gmime_reads_it() {
        let cases: &[Case<'_>] = &[
            (
                "text/html charset=utf-8",
                "text/html",
                &[],
                Some("charset=utf-8"),
            ),
            (
                "text/html\tcharset=utf-8",
                "text/html",
                &[],
                Some("charset=utf-8"),
            ),
            (
                "multipart/mixed boundary=x",
                "multipart/mixed",
                &[],
                Some("boundary=x"),
            ),
            (
                "multipart/mixed boundary=\"x\"",
                "multipart/mixed",
                &[],
                Some("boundary=\"x\""),
            ),
            (
                "text/html junk; charset=x",
                "text/html",
                &[("charset", "x")],
                Some("junk"),
            ),
            (
                "multipart/mixed boundary=x; a=b",
                "multipart/mixed",
                &[("a", "b")],
                Some("boundary=x"),
            ),
            ("image/com/x", "image/com", &[], Some("/x")),
            (
                "text/html, charset=utf-8",
                "text/html",
                &[],
                Some(", charset=utf-8"),
            ),
            ("text/html=x", "text/html", &[], Some("=x")),
            ("text/ht<ml", "text/ht", &[], Some("<ml")),
            ("text/html(c)junk", "text/html", &[], Some("junk")),
            ("TEXT/Html (c) junk", "text/html", &[], Some("junk")),
            ("text /html x", "text/html", &[], Some("x")),
            (
                "text/html;charset=a",
                "text/html",
                &[("charset", "a")],
                None,
            ),
            ("text / html", "text/html", &[], None),
            (
                "text/html (a comment); charset=utf-8",
                "text/html",
                &[("charset", "utf-8")],
                None,
            ),
            ("text", "-", &[], None),
            ("text/", "-", &[], None),
            ("/html", "-", &[], None),
            ("te xt/html", "-", &[], None),
            ("\"text/html\"", "-", &[], None),
            ("", "-", &[], None),
            ("tex\u{e9}/html", "-", &[], None),
        ];
        for (value, essence, expected_params, junk) in cases {
            let expected = (
                (*essence).to_owned(),
                params(expected_params),
                junk.map(str::to_owned),
            );
            assert_eq!(read(value), expected, "{value:?}");
        }
    }

    #[test]
    fn comments_and_white_space_around_the_tokens() {
        assert_eq!(skip_cfws(b" (a (b) \\) c) x", 0), 14);
        assert_eq!(skip_cfws(b"(unclosed", 0), 9);
        assert_eq!(
            leading_essence(b" text (c) / (d) html ;"),
            Some((&b"text"[..], &b"html"[..], 21))
        );
    }
}
