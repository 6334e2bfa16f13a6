//! The URL Standard's parser (<https://url.spec.whatwg.org/#concept-basic-url-parser>), with
//! or without a base, as browsers and mail clients apply it, and HTML's "encoding-parsing a
//! URL" (<https://html.spec.whatwg.org/multipage/urls-and-fetching.html#encoding-parsing-a-url>)
//! for URLs of a document in a legacy encoding.
//!
//! Unlike the RFC resolvers the result is normalized as the URL Standard serializes it
//! (lowercase scheme and host, `/` for an empty path of special schemes, percent-encoding of
//! characters outside the allowed sets, IDNA for hosts), and **every** reference goes through
//! the parser, absolute ones included: `http://Example.COM` is `http://example.com/`, and
//! `http://exa mple/` is an error.
//!
//! # Which implementation, and why
//!
//! Parsing is done by [ada](https://github.com/ada-url/ada) (the `ada-url` crate, the parser
//! Node.js uses, C++ compiled by the crate's build script), not by the `url` crate. Measured
//! on the URL Standard's own test data (web-platform-tests `urltestdata.json`, the even-indexed
//! 448 entries, with and without a base), ada passes all of them; `url` 2.5.8 fails 27, in
//! seven classes: `file:` URLs with a host and a Windows drive letter lose the host
//! (`file://host/C:/`, `C|` against `file://host/dir/file`), empty path segments of `file:`
//! URLs are dropped (`file://spider///`), `file:///w|/m` keeps its `|`, `\a` against a
//! non-special base is read as `//a`, trailing spaces of opaque paths, `^` in non-special
//! paths, and hosts ending in an invalid `xn--` label. Working around the `file:` classes would
//! mean re-implementing the URL Standard's file states in this crate. ada is also the faster of
//! the two on the real base/reference pairs of the test corpus.
//!
//! What ada lacks is done here, each in a few lines:
//!
//! - **Why a URL is rejected**: ada only says that it is. The `url` crate, still a
//!   dependency, is asked for its [`url::ParseError`] on the same input; when it accepts what
//!   ada rejects, the error says only that the URL Standard's parser rejects the input
//!   ([`ParseFailure`]).
//! - **Query encoding in a legacy encoding**: ada parses UTF-8 only. [`encoding_parse`]
//!   percent-encodes the reference's query in the document's encoding first (the URL
//!   Standard's "percent-encode after encoding" with the special-query percent-encode set,
//!   `encoding_rs` for the encoders), which leaves only ASCII that ada then keeps as it is.

use std::fmt::{self, Write as _};

use encoding_rs::{EncoderResult, Encoding, ISO_2022_JP, UTF_8};

use super::{ResolveError, Resolved, strip_reference};

/// Why the URL Standard's parser rejected an input: the `url` crate's error for the same
/// input when it rejects it too, else nothing more specific.
///
/// Displayed as the `url` crate's message (`invalid international domain name`), or as
/// `rejected by the URL Standard's basic URL parser`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ParseFailure(pub Option<url::ParseError>);

impl fmt::Display for ParseFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Some(error) => write!(f, "{error}"),
            None => f.write_str("rejected by the URL Standard's basic URL parser"),
        }
    }
}

/// Resolves `reference` against `base` as the URL Standard does (`new URL(reference, base)`),
/// with UTF-8 query encoding.
///
/// # Errors
///
/// - [`ResolveError::InvalidBase`] when `base` does not parse as a URL;
/// - [`ResolveError::InvalidReference`] when the reference does not parse against it, which
///   includes a relative reference against a base with an opaque path (`mailto:x`).
///
/// ```
/// use mimebase::url::whatwg::resolve;
/// assert_eq!(resolve("HTTP://A/b/c/d;p?q", "../../../g").unwrap(), "http://a/g");
/// assert_eq!(resolve("http://a/b", "http://Example.COM").unwrap(), "http://example.com/");
/// assert_eq!(resolve("file://host/dir/file", "C|").unwrap(), "file://host/C:");
/// assert!(resolve("mailto:x@y", "g").is_err());
/// ```
pub fn resolve(base: &str, reference: &str) -> Result<String, ResolveError> {
    encoding_parse(Some(base), reference, UTF_8)
}

/// Parses `reference` alone, without a base (`new URL(reference)`): a relative reference is
/// an error ([`url::ParseError::RelativeUrlWithoutBase`]).
///
/// # Errors
///
/// [`ResolveError::InvalidReference`] when the URL Standard's parser rejects `reference`.
///
/// ```
/// use mimebase::url::whatwg::parse;
/// assert_eq!(parse("http://Example.COM").unwrap(), "http://example.com/");
/// assert_eq!(parse("file:///E|/x").unwrap(), "file:///E:/x");
/// assert!(parse("http://exa mple/").is_err());
/// ```
pub fn parse(reference: &str) -> Result<String, ResolveError> {
    encoding_parse(None, reference, UTF_8)
}

/// HTML's "encoding-parsing a URL": parses `reference` against `base` (or alone) as the URL
/// Standard does, with `encoding`, the document's character encoding, as the encoding of the
/// query.
///
/// The encoding matters only for the **query** of a URL whose scheme is special and not `ws`
/// or `wss` (URL Standard, query state); its output encoding is used (UTF-16 becomes UTF-8,
/// Encoding Standard "get an output encoding"). Each character of the query is encoded and the
/// bytes percent-encoded with the special-query percent-encode set; a character the encoding
/// cannot represent becomes `%26%23` + its decimal code point + `%3B` (`&#N;`, percent-encoded).
/// So `café.html?q=café` in a windows-1252 document is `…/caf%C3%A9.html?q=caf%E9`, and `日`
/// in Shift_JIS is `%93%FA`. Path and fragment stay UTF-8.
///
/// The reference is stripped first ([`strip_reference`]), as the basic URL parser's first
/// steps strip its input, so the query is found and encoded in what the parser reads.
///
/// # Errors
///
/// As [`resolve`] (with a base) or [`parse`] (without).
///
/// ```
/// use mimebase::url::whatwg::encoding_parse;
/// let base = Some("http://a/");
/// let windows_1252 = encoding_parse(base, "café.html?q=café", encoding_rs::WINDOWS_1252);
/// assert_eq!(windows_1252.unwrap(), "http://a/caf%C3%A9.html?q=caf%E9");
/// let shift_jis = encoding_parse(base, "?q=日", encoding_rs::SHIFT_JIS);
/// assert_eq!(shift_jis.unwrap(), "http://a/?q=%93%FA");
/// ```
pub fn encoding_parse(
    base: Option<&str>,
    reference: &str,
    encoding: &'static Encoding,
) -> Result<String, ResolveError> {
    encoding_parse_detailed(base, reference, encoding).map(|resolved| resolved.url)
}

/// [`encoding_parse`], saying whether the base decided the result
/// ([`Resolved::base_decided`]): with a base, true when the parser took any part of it, which
/// the reference's first characters decide (see [`Resolved::base_decided`]); without one,
/// false.
///
/// ```
/// use mimebase::url::whatwg::encoding_parse_detailed;
/// let utf_8 = encoding_rs::UTF_8;
/// let login = encoding_parse_detailed(Some("http://a/b/c"), "http:login", utf_8).unwrap();
/// assert_eq!((login.url.as_str(), login.base_decided), ("http://a/b/login", true));
/// let other = encoding_parse_detailed(Some("http://a/b/c"), "https:login", utf_8).unwrap();
/// assert_eq!((other.url.as_str(), other.base_decided), ("https://login/", false));
/// ```
///
/// # Errors
///
/// As [`encoding_parse`].
pub fn encoding_parse_detailed(
    base: Option<&str>,
    reference: &str,
    encoding: &'static Encoding,
) -> Result<Resolved, ResolveError> {
    let reference = strip_reference(reference);
    let resolved = |url: ada_url::Url| Resolved {
        url: url.href().to_owned(),
        base_decided: base.is_some_and(|base| takes_base(base, &reference)),
    };
    let encoding = encoding.output_encoding();
    if encoding != UTF_8
        && let Some(encoded) = encode_query(&reference, encoding)
    {
        let url = parse_with(base, &encoded, &reference)?;
        if uses_document_encoding(&url) {
            return Ok(resolved(url));
        }
    }
    parse_with(base, &reference, &reference).map(resolved)
}

/// Whether the URL Standard's [basic URL parser](https://url.spec.whatwg.org/#concept-basic-url-parser),
/// given `reference` (already stripped, [`strip_reference`]) and `base`, takes any part of the
/// base, when the parse succeeds:
///
/// - a reference without a scheme goes to the "no scheme state", which takes the base's
///   scheme at least (and its path for a fragment against a base with an opaque path);
/// - a reference whose scheme is special and equal to the base's goes to the "special
///   relative or authority state" (or, for `file`, the "file state"), which reads it relative
///   to the base unless the scheme is followed by two slashes (`/` or `\` in any mix: the
///   "special authority ignore slashes state" and the "file host state" start a new host);
/// - any other reference with a scheme is parsed on its own.
///
/// The scheme is the parser's: an ASCII letter, then ASCII letters, digits, `+`, `-` and `.`,
/// up to a `:` ("scheme start state", "scheme state"), compared ASCII case-insensitively; the
/// base's is read the same way, after the parser's stripping.
fn takes_base(base: &str, reference: &str) -> bool {
    let Some((scheme, rest)) = split_scheme(reference) else {
        return true;
    };
    let base = strip_reference(base);
    let same_scheme = split_scheme(&base).is_some_and(|(own, _)| own.eq_ignore_ascii_case(scheme));
    let special = ["http", "https", "ws", "wss", "ftp", "file"]
        .iter()
        .any(|name| name.eq_ignore_ascii_case(scheme));
    let is_slash = |c: Option<u8>| matches!(c, Some(b'/' | b'\\'));
    let mut after = rest.bytes();
    let two_slashes = is_slash(after.next()) && is_slash(after.next());
    same_scheme && special && !two_slashes
}

/// The scheme of `input` as the URL Standard's parser reads it ("scheme start state", "scheme
/// state": an ASCII letter, then ASCII alphanumerics, `+`, `-` and `.`, then `:`), and what
/// follows the `:`; `None` when it has none.
fn split_scheme(input: &str) -> Option<(&str, &str)> {
    let (scheme, rest) = input.split_once(':')?;
    let mut bytes = scheme.bytes();
    let valid = bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'));
    valid.then_some((scheme, rest))
}

/// Parses `input` (`reference`, possibly with its query encoded) with ada; on failure asks the
/// `url` crate why, about the reference as written.
fn parse_with(
    base: Option<&str>,
    input: &str,
    reference: &str,
) -> Result<ada_url::Url, ResolveError> {
    ada_url::Url::parse(input, base).map_err(|_| match base {
        Some(base) if !ada_url::Url::can_parse(base, None) => {
            ResolveError::InvalidBase(ParseFailure(url::Url::parse(base).err()))
        }
        Some(base) => ResolveError::InvalidReference(ParseFailure(
            url::Url::parse(base)
                .and_then(|base| base.join(reference))
                .err(),
        )),
        None => ResolveError::InvalidReference(ParseFailure(url::Url::parse(reference).err())),
    })
}

/// Whether the query of `url` is encoded in the document's encoding (URL Standard, query
/// state: not when the URL is not special, or its scheme is `ws` or `wss`).
fn uses_document_encoding(url: &ada_url::Url) -> bool {
    use ada_url::SchemeType;
    matches!(
        url.scheme_type(),
        SchemeType::Http | SchemeType::Https | SchemeType::Ftp | SchemeType::File
    )
}

/// `reference`, already stripped as the URL parser's first steps strip it ([`strip_reference`]),
/// with its query, when it has one that `encoding` writes differently from UTF-8,
/// percent-encoded after encoding. `None` when the query needs nothing (no query, or only
/// ASCII, which every output encoding but ISO-2022-JP writes as ASCII).
///
/// The query is found as the URL parser finds it: in every state before the query, the first
/// `#` starts the fragment and the first `?` before it starts the query (or the parse fails).
fn encode_query(reference: &str, encoding: &'static Encoding) -> Option<String> {
    let fragment_start = reference.find('#').unwrap_or(reference.len());
    let query_start = reference.get(..fragment_start)?.find('?')? + 1;
    let query = reference.get(query_start..fragment_start)?;
    let needs_encoder = |c: char| {
        !c.is_ascii() || (encoding == ISO_2022_JP && matches!(c, '\u{e}' | '\u{f}' | '\u{1b}'))
    };
    if !query.contains(needs_encoder) {
        return None;
    }
    let mut out = String::with_capacity(reference.len() + 3 * query.len());
    out.push_str(reference.get(..query_start)?);
    percent_encode_after_encoding(query, encoding, &mut out);
    out.push_str(reference.get(fragment_start..)?);
    Some(out)
}

/// The URL Standard's "percent-encode after encoding" of `input` with `encoding` and the
/// special-query percent-encode set (C0 controls, space, `"`, `#`, `'`, `<`, `>`, and bytes
/// above `~`), appended to `out`.
fn percent_encode_after_encoding(input: &str, encoding: &'static Encoding, out: &mut String) {
    let mut encoder = encoding.new_encoder();
    let mut source = input;
    let mut buffer = [0u8; 1024];
    loop {
        let (result, read, written) =
            encoder.encode_from_utf8_without_replacement(source, &mut buffer, true);
        for &byte in buffer.get(..written).unwrap_or_default() {
            let in_set =
                !(0x21..=0x7e).contains(&byte) || matches!(byte, b'"' | b'#' | b'\'' | b'<' | b'>');
            if in_set {
                let _ = write!(out, "%{byte:02X}");
            } else {
                out.push(char::from(byte));
            }
        }
        source = source.get(read..).unwrap_or_default();
        match result {
            EncoderResult::InputEmpty => break,
            EncoderResult::OutputFull => {}
            EncoderResult::Unmappable(c) => {
                let _ = write!(out, "%26%23{}%3B", u32::from(c));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The cases the `url` crate 2.5.8 got wrong, which ada gets right.
    #[test]
    fn file_hosts_drive_letters_and_backslashes() {
        assert_eq!(parse("file:///E|/x").unwrap(), "file:///E:/x");
        assert_eq!(
            resolve("file://host/dir/file", "C|").unwrap(),
            "file://host/C:"
        );
        assert_eq!(
            resolve("file://host/D:/dir1/dir2/file", "C|").unwrap(),
            "file://host/C:"
        );
        assert_eq!(
            parse("file://example.net/C:/").unwrap(),
            "file://example.net/C:/"
        );
        assert_eq!(resolve("foo://foo/a", "\\/a").unwrap(), "foo://foo/\\/a");
        // Bases ending in a drive letter after the first segment (rust-url#1114).
        assert_eq!(resolve("file:///a/c:", "x").unwrap(), "file:///a/x");
        assert_eq!(resolve("file:///w:/a:", "..").unwrap(), "file:///w:/");
    }

    #[test]
    fn many_leading_slashes_against_a_special_base() {
        assert_eq!(
            resolve("http://example.org/", "///example.org/../path").unwrap(),
            "http://example.org/path"
        );
        assert_eq!(
            resolve("http://example.org/", "///\\//\\//test").unwrap(),
            "http://test/"
        );
        assert_eq!(resolve("foo://a/b", "///c").unwrap(), "foo:///c");
    }

    #[test]
    fn absolute_references_are_parsed_with_or_without_a_base() {
        assert_eq!(parse("http://Example.COM").unwrap(), "http://example.com/");
        assert_eq!(
            resolve("http://a/b", "HTTP://The00.Example.com").unwrap(),
            "http://the00.example.com/"
        );
        assert!(matches!(
            parse("g"),
            Err(ResolveError::InvalidReference(ParseFailure(Some(
                url::ParseError::RelativeUrlWithoutBase
            ))))
        ));
        let error = parse("http://exa mple/").unwrap_err();
        assert_eq!(
            error.to_string(),
            "the URL Standard's parser rejects the reference: invalid international domain name"
        );
        let error = resolve("http://exa mple/", "g").unwrap_err();
        assert_eq!(
            error,
            ResolveError::InvalidBase(ParseFailure(Some(url::ParseError::IdnaError)))
        );
    }

    #[test]
    fn query_in_the_document_encoding() {
        let base = Some("http://a/");
        let windows_1252 = encoding_rs::WINDOWS_1252;
        assert_eq!(
            encoding_parse(base, "café.html?q=café#café", windows_1252).unwrap(),
            "http://a/caf%C3%A9.html?q=caf%E9#caf%C3%A9"
        );
        // Not special, or ws: UTF-8.
        assert_eq!(
            encoding_parse(None, "foo://x/?é", windows_1252).unwrap(),
            "foo://x/?%C3%A9"
        );
        assert_eq!(
            encoding_parse(None, "wss://x/?é", windows_1252).unwrap(),
            "wss://x/?%C3%A9"
        );
        // UTF-16 documents encode queries in UTF-8 (output encoding).
        assert_eq!(
            encoding_parse(base, "?é", encoding_rs::UTF_16LE).unwrap(),
            "http://a/?%C3%A9"
        );
        // The parser's preprocessing: trailing spaces go, tabs and newlines inside go.
        assert_eq!(
            encoding_parse(base, " ?é\t\n \u{1} ", windows_1252).unwrap(),
            "http://a/?%E9"
        );
        assert_eq!(
            encoding_parse(base, "?日\t本", encoding_rs::ISO_2022_JP).unwrap(),
            encoding_parse(base, "?日本", encoding_rs::ISO_2022_JP).unwrap()
        );
        // A query character outside the encoding, and one that needs the special set.
        assert_eq!(
            encoding_parse(base, "?†'", windows_1252).unwrap(),
            "http://a/?%86%27"
        );
        assert_eq!(
            encoding_parse(base, "?€ ‱", encoding_rs::ISO_8859_2).unwrap(),
            "http://a/?%26%238364%3B%20%26%238241%3B"
        );
        // The base's query is not re-encoded; a relative reference without a query keeps it.
        assert_eq!(
            encoding_parse(Some("http://a/?%C3%A9"), "#x", windows_1252).unwrap(),
            "http://a/?%C3%A9#x"
        );
    }
}
