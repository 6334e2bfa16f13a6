//! URL resolvers: turn an embedded (relative) URL into an absolute one, given a base URL.
//!
//! This module is pure URL work and imports nothing about email, so it can be tested against
//! the RFC vectors alone. The rest of the crate decides *which* base applies
//! ([base precedence](crate#base-precedence)) and then
//! calls [`resolve`] with the [`Resolver`] the user chose (`--resolver`).
//!
//! - [`components`]: the [RFC 1808 §2.4] parser that splits a URL into `scheme`, `net_loc`,
//!   `path`, `params`, `query` and `fragment`, and the recombination of [RFC 1808 §4] step 7.
//! - [`rfc1808`]: the resolution algorithm of [RFC 1808 §4], steps 1–7.
//! - [`rfc3986`]: [RFC 3986 §5.2], strict, with `remove_dot_segments`.
//! - [`whatwg`]: the URL Standard's parser (ada), with or without a base, and HTML's
//!   "encoding-parsing a URL" for the query of a document in a legacy encoding.
//!
//! Arguments are always in the order `(base, reference)`.
//!
//! **White space around and inside a reference.** Every resolver first removes every ASCII
//! tab, LF and CR from the reference and trims the C0 controls and spaces (U+0000 to U+0020)
//! at its two ends ([`strip_reference`]), so `" ht\ntp://spl\nit.example/p "` is
//! `http://split.example/p` whatever the resolver, as a browser opens it. This is what the
//! [URL Standard's basic URL parser] does to its input before anything else ("remove any
//! leading and trailing C0 control or space", "remove all ASCII tab or newline"), what HTML
//! allows around an attribute's URL ([valid URL potentially surrounded by spaces]), and what
//! [RFC 3986 Appendix C] advises for a URI in context: "whitespace should be ignored when the
//! URI is extracted", since text is wrapped at line ends. The base is taken as it is.
//!
//! **Absolute results.** With a base that has a scheme every resolver gives an absolute URL.
//! A base without one is refused by `rfc1808` (RFC 1808 §4 step 1) and `whatwg` (the URL
//! parser), while `rfc3986` resolves against it by RFC 3986 §5.2.2 as written and returns a
//! relative reference ([`has_scheme`] tells). The rest of the crate never hands a resolver a
//! base without a scheme: a base for a MIME entity or an HTML part must be absolute.
//!
//! ```
//! # use mimebase::url::{resolve, Resolver};
//! let absolute = resolve(Resolver::Rfc1808, "http://a/b/c/d;p?q#f", "../g")?;
//! assert_eq!(absolute, "http://a/b/g");
//! # Ok::<(), mimebase::url::ResolveError>(())
//! ```
//!
//! [RFC 1808 §2.4]: https://www.rfc-editor.org/rfc/rfc1808#section-2.4
//! [RFC 1808 §4]: https://www.rfc-editor.org/rfc/rfc1808#section-4
//! [RFC 3986 §5.2]: https://www.rfc-editor.org/rfc/rfc3986#section-5.2
//! [URL Standard's basic URL parser]: https://url.spec.whatwg.org/#concept-basic-url-parser
//! [valid URL potentially surrounded by spaces]: https://html.spec.whatwg.org/multipage/urls-and-fetching.html#valid-url-potentially-surrounded-by-spaces
//! [RFC 3986 Appendix C]: https://www.rfc-editor.org/rfc/rfc3986#appendix-C

use std::borrow::Cow;

pub mod components;
pub mod rfc1808;
pub mod rfc3986;
pub mod whatwg;

pub use crate::vocab::Resolver;

impl Resolver {
    /// Resolves `reference` against `base` with this algorithm; see [`resolve`].
    ///
    /// # Errors
    ///
    /// See [`resolve`].
    pub fn resolve(self, base: &str, reference: &str) -> Result<String, ResolveError> {
        self.resolve_detailed(base, reference)
            .map(|resolved| resolved.url)
    }

    /// Resolves `reference` against `base` with this algorithm, as [`resolve`] does, and says
    /// whether the result took any part of the base ([`Resolved::base_decided`]).
    ///
    /// ```
    /// # use mimebase::url::Resolver;
    /// let base = "http://a/b/c/d;p?q";
    /// assert!(Resolver::Rfc1808.resolve_detailed(base, "g")?.base_decided);
    /// assert!(!Resolver::Rfc1808.resolve_detailed(base, "http:g")?.base_decided);
    /// // The URL Standard reads `http:g` against an `http` base as relative to it.
    /// let whatwg = Resolver::Whatwg.resolve_detailed(base, "http:g")?;
    /// assert_eq!((whatwg.url.as_str(), whatwg.base_decided), ("http://a/b/c/g", true));
    /// # Ok::<(), mimebase::url::ResolveError>(())
    /// ```
    ///
    /// # Errors
    ///
    /// See [`resolve`].
    pub fn resolve_detailed(self, base: &str, reference: &str) -> Result<Resolved, ResolveError> {
        match self {
            Resolver::Rfc1808 => rfc1808::resolve_detailed(base, reference),
            Resolver::Rfc3986 => rfc3986::resolve_detailed(base, reference),
            Resolver::Whatwg => {
                whatwg::encoding_parse_detailed(Some(base), reference, encoding_rs::UTF_8)
            }
        }
    }
}

/// A reference resolved against a base: the absolute URL, and whether the base decided it.
///
/// The base **decided** the URL when the resolver took any part of the base to make it:
///
/// - `rfc1808` ([RFC 1808 §4] steps 2a and 2c) and `rfc3986` ([RFC 3986 §5.2.2]): when the
///   reference has no scheme. An empty reference, a fragment (`#s`), a query, a path (`g`,
///   `/g`, `../g`) and a scheme-relative reference (`//g`, which takes the base's scheme) are
///   decided by the base; a reference with a scheme is taken as it is (`http:g` stays
///   `http:g`), and so is not.
/// - `whatwg` (the [URL Standard's basic URL parser]): the same, and also a reference whose
///   scheme is the base's and is special (`http`, `https`, `ws`, `wss`, `ftp`, `file`) when
///   what follows its `:` does not begin with two slashes (`/` or `\`): the parser then
///   reads it relative to the base ("special relative or authority state", "relative state",
///   "file state"), so `http:login` against `http://a/b/c` is `http://a/b/login`, and
///   `http:/x` takes the base's host. `http://x`, `http:\\x` and `https:x` against an `http`
///   base take nothing from it.
///
/// The answer comes from the same reading of the reference that the resolver makes (the
/// scheme and the characters after it); it is not found by resolving again.
///
/// [RFC 1808 §4]: https://www.rfc-editor.org/rfc/rfc1808#section-4
/// [RFC 3986 §5.2.2]: https://www.rfc-editor.org/rfc/rfc3986#section-5.2.2
/// [URL Standard's basic URL parser]: https://url.spec.whatwg.org/#concept-basic-url-parser
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The absolute URL, as [`resolve`] returns it.
    pub url: String,
    /// True when the resolver took any part of the base to make [`url`](Self::url).
    pub base_decided: bool,
}

/// Resolves `reference` against `base` with `resolver`, returning the absolute URL as a string.
///
/// The reference is first stripped ([`strip_reference`]: ASCII tab, LF and CR removed,
/// leading and trailing C0 controls and spaces trimmed); the base is taken as it is. No
/// percent-encoding is changed by the RFC resolvers; callers unwrap `<URL:…>` before calling.
///
/// Every resolver is total over arbitrary strings: it returns a URL or an error, never panics,
/// and takes time linear (RFC resolvers) or near-linear (WHATWG) in the input's length.
///
/// # Errors
///
/// - [`ResolveError::BaseWithoutScheme`] (`rfc1808`) when `base` has no scheme and so cannot
///   serve as a base (`rfc3986` then resolves by RFC 3986 §5.2.2 as written, and the result is
///   a relative reference: see [`rfc3986::resolve`]);
/// - [`ResolveError::InvalidBase`], [`ResolveError::InvalidReference`] (`whatwg`) when the URL
///   Standard's parser rejects the base, or the reference against that base.
pub fn resolve(resolver: Resolver, base: &str, reference: &str) -> Result<String, ResolveError> {
    resolver.resolve(base, reference)
}

/// True when `reference` begins with a scheme name followed by `':'`, that is when it is an
/// absolute URL ([RFC 1808 §2.4.2]).
///
/// A scheme name is one or more of `A–Z a–z 0–9 + . -`; the colon must directly follow them.
/// So `mailto:x`, `http:g` and `http:` have a scheme; `:x`, `g`, `./a:b` and `g#s:t` do not.
///
/// [RFC 1808 §2.4.2]: https://www.rfc-editor.org/rfc/rfc1808#section-2.4.2
pub fn has_scheme(reference: &str) -> bool {
    components::split_scheme(reference).is_some()
}

/// `reference` as every resolver reads it: every ASCII tab, LF and CR removed, and the C0
/// controls and spaces (U+0000 to U+0020) at its start and end trimmed, as the
/// [URL Standard's basic URL parser](https://url.spec.whatwg.org/#concept-basic-url-parser)
/// does to its input first; [RFC 3986 Appendix C](https://www.rfc-editor.org/rfc/rfc3986#appendix-C)
/// likewise says that white space around and inside a URI in context is not part of it.
///
/// Borrows (no allocation) when nothing inside the trimmed reference needs removing, which
/// is the common case; allocates the stripped copy otherwise.
///
/// ```
/// # use mimebase::url::strip_reference;
/// assert_eq!(strip_reference("ht\ntp://spl\nit.example/p"), "http://split.example/p");
/// assert_eq!(strip_reference(" \u{1}/a b\t \u{0}"), "/a b");
/// assert!(matches!(strip_reference(" /a "), std::borrow::Cow::Borrowed("/a")));
/// ```
pub fn strip_reference(reference: &str) -> Cow<'_, str> {
    // Only ASCII bytes are removed, so every cut is on a character boundary.
    let trimmed = reference.trim_matches(|c: char| c <= ' ');
    let bytes = trimmed.as_bytes();
    if memchr::memchr3(b'\t', b'\n', b'\r', bytes).is_none() {
        return Cow::Borrowed(trimmed);
    }
    let mut stripped = String::with_capacity(trimmed.len());
    let mut from = 0;
    for at in memchr::memchr3_iter(b'\t', b'\n', b'\r', bytes) {
        stripped.push_str(trimmed.get(from..at).unwrap_or_default());
        from = at + 1;
    }
    stripped.push_str(trimmed.get(from..).unwrap_or_default());
    Cow::Owned(stripped)
}

/// Why a reference could not be resolved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ResolveError {
    /// the base URL has no scheme, so it cannot serve as a base (`rfc1808`: RFC 1808 §4 step 1
    /// wants an absolute base)
    #[error("base URL has no scheme")]
    BaseWithoutScheme,
    /// the URL Standard's parser rejects the base URL
    #[error("the URL Standard's parser rejects the base URL: {0}")]
    InvalidBase(whatwg::ParseFailure),
    /// the URL Standard's parser rejects the reference, against the base when there is one
    /// (including a relative reference against a base with an opaque path, such as
    /// `mailto:x`, and a relative reference without a base)
    #[error("the URL Standard's parser rejects the reference: {0}")]
    InvalidReference(whatwg::ParseFailure),
}

#[cfg(test)]
mod tests {

    use super::*;

    #[test]
    fn resolver_name_is_its_serialized_form() {
        let json = serde_json::to_string(&Resolver::Rfc1808).unwrap();
        assert_eq!(json, format!("\"{}\"", Resolver::Rfc1808.name()));
        assert_eq!(json, "\"rfc1808\"");
        let back: Resolver = serde_json::from_str("\"rfc1808\"").unwrap();
        assert_eq!(back, Resolver::Rfc1808);
        assert_eq!(Resolver::default(), Resolver::Rfc1808);
    }

    #[test]
    fn resolve_dispatches_to_the_chosen_algorithm() {
        assert_eq!(
            resolve(Resolver::Rfc1808, "http://a/b/c/d;p?q#f", ";x"),
            Ok("http://a/b/c/d;x".to_owned())
        );
        assert_eq!(
            Resolver::Rfc1808.resolve("no-scheme/b", "g"),
            Err(ResolveError::BaseWithoutScheme)
        );
        assert_eq!(
            ResolveError::BaseWithoutScheme.to_string(),
            "base URL has no scheme"
        );
    }

    /// `base_decided` over the three resolvers: each case is (base, reference, expected for
    /// rfc1808, rfc3986, whatwg). The RFC 1808 §5 examples (§5.1 normal, §5.2 abnormal, all 39
    /// against the RFC's base) come first, then the cases where the resolvers part ways.
    #[test]
    fn base_decided_is_whether_the_resolver_took_the_base() {
        const BASE: &str = "http://a/b/c/d;p?q#f";
        const RELATIVE: [bool; 3] = [true, true, true];
        const ABSOLUTE: [bool; 3] = [false, false, false];
        let rfc_1808_section_5 = [
            // §5.1 normal examples.
            ("g:h", ABSOLUTE),
            ("g", RELATIVE),
            ("./g", RELATIVE),
            ("g/", RELATIVE),
            ("/g", RELATIVE),
            ("//g", RELATIVE),
            ("?y", RELATIVE),
            ("g?y", RELATIVE),
            ("g?y/./x", RELATIVE),
            ("#s", RELATIVE),
            ("g#s", RELATIVE),
            ("g#s/./x", RELATIVE),
            ("g?y#s", RELATIVE),
            (";x", RELATIVE),
            ("g;x", RELATIVE),
            ("g;x?y#s", RELATIVE),
            (".", RELATIVE),
            ("./", RELATIVE),
            ("..", RELATIVE),
            ("../", RELATIVE),
            ("../g", RELATIVE),
            ("../..", RELATIVE),
            ("../../", RELATIVE),
            ("../../g", RELATIVE),
            // §5.2 abnormal examples.
            ("", RELATIVE),
            ("../../../g", RELATIVE),
            ("../../../../g", RELATIVE),
            ("/./g", RELATIVE),
            ("/../g", RELATIVE),
            ("g.", RELATIVE),
            (".g", RELATIVE),
            ("g..", RELATIVE),
            ("..g", RELATIVE),
            ("./../g", RELATIVE),
            ("./g/.", RELATIVE),
            ("g/./h", RELATIVE),
            ("g/../h", RELATIVE),
            // The RFC resolvers take these as they are; the URL Standard reads a special
            // scheme equal to the base's, without `//`, relative to the base.
            ("http:g", [false, false, true]),
            ("http:", [false, false, true]),
        ];
        assert_eq!(rfc_1808_section_5.len(), 39);
        let mut cases: Vec<(&str, &str, [bool; 3])> = rfc_1808_section_5
            .iter()
            .map(|&(reference, expected)| (BASE, reference, expected))
            .collect();
        cases.extend([
            (BASE, "HTTP:g", [false, false, true]),
            (BASE, "http:/g", [false, false, true]),
            (BASE, "http:\\g", [false, false, true]),
            (BASE, "http://g", ABSOLUTE),
            (BASE, "http:\\\\g", ABSOLUTE),
            (BASE, "http:/\\g", ABSOLUTE),
            (BASE, "https:g", ABSOLUTE),
            (BASE, "mailto:joe@example.com", ABSOLUTE),
            (BASE, " \t//evil.example/x\n", RELATIVE),
            (BASE, "1http:g", [false, false, true]),
            ("https://a/b", "https:g", [false, false, true]),
            ("ftp://a/b", "ftp:g", [false, false, true]),
            ("file:///dir/file", "file:g", [false, false, true]),
            ("file://host/dir/file", "file:/g", [false, false, true]),
            ("file:///dir/file", "file://host/g", ABSOLUTE),
            ("foo://a/b", "foo:g", ABSOLUTE),
            ("mailto:joe@example.com", "#s", RELATIVE),
        ]);
        let resolvers = [Resolver::Rfc1808, Resolver::Rfc3986, Resolver::Whatwg];
        for (base, reference, expected) in cases {
            for (resolver, expected) in resolvers.into_iter().zip(expected) {
                let resolved = resolver
                    .resolve_detailed(base, reference)
                    .unwrap_or_else(|e| panic!("{resolver}: {reference:?} against {base:?}: {e}"));
                assert_eq!(
                    resolved.base_decided, expected,
                    "{resolver}: {reference:?} against {base:?} gives {:?}",
                    resolved.url
                );
                assert_eq!(Ok(resolved.url), resolver.resolve(base, reference));
                // An independent check: the same reference against a base that shares
                // nothing with this one gives another URL exactly when the base decided.
                let elsewhere = resolver.resolve("x-elsewhere://other.invalid/o/p?q", reference);
                assert_eq!(
                    elsewhere.as_ref() != resolver.resolve(base, reference).as_ref(),
                    expected,
                    "{resolver}: {reference:?} against {base:?} and elsewhere: {elsewhere:?}"
                );
            }
        }
    }

    #[test]
    fn strip_reference_removes_what_the_url_parser_removes() {
        for (written, read) in [
            ("ht\ntp://spl\nit.example/p", "http://split.example/p"),
            ("\t a\r\nb c \u{0}", "ab c"),
            ("\u{1f}\u{1}#f\u{7}", "#f"),
            ("a\u{b}\u{c}b", "a\u{b}\u{c}b"),
            (" \t\n\r\u{0}\u{20}", ""),
            ("\u{7f}a\u{a0}", "\u{7f}a\u{a0}"),
            ("é\tè", "éè"),
        ] {
            assert_eq!(strip_reference(written), read, "{written:?}");
        }
        // Nothing inside to remove: the trimmed reference is borrowed, not copied.
        for written in ["", "g", " /a b ", "\u{0}x\u{1}", "http://a/b?c#d"] {
            assert!(
                matches!(strip_reference(written), Cow::Borrowed(_)),
                "{written:?}"
            );
        }
        assert!(matches!(strip_reference("a\tb"), Cow::Owned(_)));
    }

    #[test]
    fn has_scheme_follows_section_2_4_2() {
        for absolute in ["g:h", "http:g", "http:", "mailto:a@b", "a+b.c-d:x", "A1:"] {
            assert!(has_scheme(absolute), "{absolute:?}");
        }
        for relative in [
            "", "g", ":x", "./a:b", "/a:b", "g#s:t", "g?y:z", "a_b:c", "é:x",
        ] {
            assert!(!has_scheme(relative), "{relative:?}");
        }
    }
}
