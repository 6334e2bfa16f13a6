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
        match self {
            Resolver::Rfc1808 => rfc1808::resolve(base, reference),
            Resolver::Rfc3986 => rfc3986::resolve(base, reference),
            Resolver::Whatwg => whatwg::resolve(base, reference),
        }
    }
}

/// Resolves `reference` against `base` with `resolver`, returning the absolute URL as a string.
///
/// Both inputs are taken as they are: no whitespace is trimmed and no percent-encoding is
/// changed; callers trim (HTML attribute URLs lose their leading and trailing ASCII white
/// space, as the HTML Standard's "valid URL potentially surrounded by spaces" allows) and
/// unwrap `<URL:…>` before calling.
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
