//! The URL Standard's resolution (<https://url.spec.whatwg.org/#concept-basic-url-parser>
//! with a base), as browsers and mail clients apply it: the `url` crate's [`Url::join`].
//!
//! Unlike the RFC resolvers the result is normalized as the URL Standard serializes it
//! (lowercase scheme and host, `/` for an empty path of special schemes, percent-encoding of
//! characters outside the allowed sets, IDNA for hosts).

use url::Url;

use super::ResolveError;

/// Resolves `reference` against `base` as the URL Standard does (`new URL(reference, base)`).
///
/// # Errors
///
/// - [`ResolveError::InvalidBase`] when `base` does not parse as a URL;
/// - [`ResolveError::InvalidReference`] when the reference does not parse against it, which
///   includes a relative reference against a base that cannot be a base (`mailto:x`);
/// - [`ResolveError::UnsupportedBase`] for a `file:` base whose last path segment is a Windows
///   drive letter after the first segment, which the `url` crate mishandles (see below).
///
/// ```
/// use mimebase::url::whatwg::resolve;
/// assert_eq!(resolve("HTTP://A/b/c/d;p?q", "../../../g").unwrap(), "http://a/g");
/// assert!(resolve("mailto:x@y", "g").is_err());
/// ```
pub fn resolve(base: &str, reference: &str) -> Result<String, ResolveError> {
    let base = Url::parse(base).map_err(ResolveError::InvalidBase)?;
    if is_drive_letter_file_base(&base) {
        return Err(ResolveError::UnsupportedBase);
    }
    match base.join(reference) {
        Ok(url) => Ok(url.into()),
        Err(url::ParseError::EmptyHost) => match collapse_leading_slashes(&base, reference) {
            Some(collapsed) => base
                .join(&collapsed)
                .map(String::from)
                .map_err(ResolveError::InvalidReference),
            None => Err(ResolveError::InvalidReference(url::ParseError::EmptyHost)),
        },
        Err(error) => Err(ResolveError::InvalidReference(error)),
    }
}

/// True for the bases the `url` crate (2.5.8) mishandles: a `file:` URL whose last path
/// segment is a Windows drive letter (`c:`) in another position than the first
/// (`file:///w:/a:`). Its path popping refuses to remove that segment, so joining `x` gives
/// `file:///w:/a:x` where the URL Standard gives `file:///w:/x`, and joining `..` fails a
/// debug assertion (servo/rust-url#1114). Such a base is refused rather than answered wrongly
/// or with a panic.
fn is_drive_letter_file_base(base: &Url) -> bool {
    let mut segments = base.path().split('/').skip(1);
    let first = segments.next();
    let last = segments.last();
    base.scheme() == "file"
        && first.is_some()
        && last.is_some_and(|last| {
            let bytes = last.as_bytes();
            bytes.len() == 2
                && bytes.first().is_some_and(u8::is_ascii_alphabetic)
                && bytes.get(1) == Some(&b':')
        })
}

/// Works around a deviation of the `url` crate (2.5.8) from the URL Standard.
///
/// The standard: against a special base, a reference starting with `/` or `\` enters the
/// "relative slash state", a second one the "special authority ignore slashes state", which
/// skips **every** further `/` and `\` before the host: `///evil.example/x` against
/// `http://a/` is `http://evil.example/x` in browsers. The crate fails there with
/// `EmptyHost`, which would hide such a link from a filter. For that case this returns the
/// reference with its leading run of slashes written as `//`, which the crate parses as the
/// standard does. `file:` is excluded: its host rules differ.
fn collapse_leading_slashes(base: &Url, reference: &str) -> Option<String> {
    const SPECIAL: [&str; 5] = ["http", "https", "ws", "wss", "ftp"];
    if !SPECIAL.contains(&base.scheme()) {
        return None;
    }
    // The standard's preprocessing: C0 controls and spaces trimmed, tabs and newlines removed.
    let cleaned: String = reference
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    let rest = cleaned.trim_start_matches(['/', '\\']);
    (cleaned.len() - rest.len() >= 3).then(|| format!("//{rest}"))
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

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
        assert_eq!(
            resolve("https://a/b", " ///evil.example/x").unwrap(),
            "https://evil.example/x"
        );
        // Two slashes never reached the workaround; a non-special base keeps its own rules.
        assert_eq!(resolve("http://a/b", "//c/d").unwrap(), "http://c/d");
        assert_eq!(resolve("foo://a/b", "///c").unwrap(), "foo:///c");
    }

    #[test]
    fn drive_letter_file_bases_are_refused_not_mishandled() {
        for base in ["file:///w:/a:", "file:/2/x/C:", "file:///a/c:"] {
            for reference in ["..", "x", ""] {
                assert_eq!(
                    resolve(base, reference),
                    Err(ResolveError::UnsupportedBase),
                    "{base} {reference}"
                );
            }
        }
        // A drive letter as the first segment is fine.
        assert_eq!(resolve("file:///c:/a/b", "x").unwrap(), "file:///c:/a/x");
        assert_eq!(resolve("file:///c:", "x").unwrap(), "file:///c:/x");
    }
}
