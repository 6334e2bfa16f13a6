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
///   includes a relative reference against a base that cannot be a base (`mailto:x`).
///
/// ```
/// use mimebase::url::whatwg::resolve;
/// assert_eq!(resolve("HTTP://A/b/c/d;p?q", "../../../g").unwrap(), "http://a/g");
/// assert!(resolve("mailto:x@y", "g").is_err());
/// ```
pub fn resolve(base: &str, reference: &str) -> Result<String, ResolveError> {
    let base = Url::parse(base).map_err(ResolveError::InvalidBase)?;
    base.join(reference)
        .map(String::from)
        .map_err(ResolveError::InvalidReference)
}
