//! Oracles for the resolver fuzz targets, so that a fuzzer finds wrong results and not only
//! crashes: each `check_*` function resolves one `(base, reference)` pair and panics when an
//! invariant of that resolver fails, so libFuzzer reports the input as a crash.
//!
//! Input format, shared by all targets: the bytes are decoded as UTF-8 (lossily, so any byte
//! string is a test case), and split at the first `'\n'` into `base` and `reference`; without a
//! `'\n'` the whole input is the base and the reference is empty. The `resolve` target first
//! takes one selector byte (`% 3`: 0 `rfc1808`, 1 `rfc3986`, 2 `whatwg`).

#![allow(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

pub mod files;
pub mod focused;

use mimebase::url::components::Components;
use mimebase::url::rfc3986::Parts;
use mimebase::url::{
    ResolveError, Resolver, has_scheme, rfc1808, rfc3986, strip_reference, whatwg,
};

/// Splits fuzz input into `(base, reference)` at the first `'\n'`.
pub fn split(data: &[u8]) -> (String, String) {
    let text = String::from_utf8_lossy(data);
    match text.split_once('\n') {
        Some((base, reference)) => (base.to_owned(), reference.to_owned()),
        None => (text.into_owned(), String::new()),
    }
}

/// Runs the oracle of `resolver` on `(base, reference)`. Every resolver reads a reference as
/// its stripped form (tabs and newlines removed, C0 controls and spaces trimmed), so the
/// result is the stripped reference's, and the oracles below reason about that one.
pub fn check(resolver: Resolver, base: &str, reference: &str) {
    assert_eq!(
        resolver.resolve(base, reference),
        resolver.resolve(base, &strip_reference(reference)),
        "{} reads {reference:?} as its stripped form",
        resolver.name()
    );
    // `base_decided`: the detailed result is the same URL, and a URL the base did not decide
    // is the same against any other base.
    let detailed = resolver.resolve_detailed(base, reference);
    assert_eq!(
        detailed.clone().map(|resolved| resolved.url),
        resolver.resolve(base, reference)
    );
    if let Ok(resolved) = &detailed
        && !resolved.base_decided
    {
        assert_eq!(
            resolver
                .resolve("x-elsewhere://other.invalid/o/p?q", reference)
                .as_deref(),
            Ok(resolved.url.as_str()),
            "{}: {reference:?} against {base:?} is not decided by the base",
            resolver.name()
        );
    }
    match resolver {
        Resolver::Rfc1808 => check_rfc1808(base, reference),
        Resolver::Rfc3986 => check_rfc3986(base, reference),
        _ => check_whatwg(base, reference),
    }
}

/// Splits `data` with [`split`] and runs the oracle of `resolver`.
pub fn run(resolver: Resolver, data: &[u8]) {
    let (base, reference) = split(data);
    check(resolver, &base, &reference);
}

/// RFC 1808 §4: a base without a scheme is refused; step 2a returns the base for an empty
/// reference; step 2b returns an absolute reference unchanged; otherwise (step 2c) the result
/// inherits the base's scheme and keeps the reference's fragment.
pub fn check_rfc1808(base: &str, reference: &str) {
    let got = rfc1808::resolve(base, reference);
    let reference = &*strip_reference(reference);
    let Some(base_scheme) = Components::parse(base).scheme else {
        assert_eq!(got, Err(ResolveError::BaseWithoutScheme), "base {base:?}");
        return;
    };
    assert!(
        has_scheme(base),
        "has_scheme disagrees with the parse of {base:?}"
    );
    let t = got.unwrap_or_else(|e| panic!("rfc1808 {base:?} {reference:?}: {e}"));
    if reference.is_empty() {
        assert_eq!(t, base, "step 2a: an empty reference gives the base");
    } else if has_scheme(reference) {
        assert_eq!(
            t, reference,
            "step 2b: an absolute reference is returned unchanged"
        );
    } else {
        let parsed = Components::parse(&t);
        assert_eq!(
            parsed.scheme,
            Some(base_scheme),
            "step 2c: {base:?} {reference:?} -> {t:?}"
        );
        assert_eq!(
            parsed.fragment,
            Components::parse(reference).fragment,
            "the reference's fragment is kept: {base:?} {reference:?} -> {t:?}"
        );
    }
}

/// True when `path` has a complete segment `.` or `..`.
pub fn has_dot_segment(path: &str) -> bool {
    path.split('/')
        .any(|segment| segment == "." || segment == "..")
}

/// RFC 3986 §5.2: a base without a scheme gives a target with the reference's scheme or none
/// (§5.2.2 as written), and without one a first path segment with a `:` (§4.2); otherwise
/// the target keeps the
/// reference's scheme when it has one (strict) and the reference's fragment, has no dot
/// segment unless its path is the base's (§5.2.2: an empty reference path takes the base path
/// as it is), resolving the target against itself is the identity, and resolving the empty
/// reference against the target gives the target without its fragment (§5.1).
pub fn check_rfc3986(base: &str, reference: &str) {
    let got = rfc3986::resolve(base, reference);
    let reference = &*strip_reference(reference);
    let b = Parts::parse(base);
    let Some(base_scheme) = b.scheme else {
        let t = got.unwrap_or_else(|e| panic!("rfc3986 {base:?} {reference:?}: {e}"));
        let tp = Parts::parse(&t);
        assert_eq!(
            tp.scheme,
            Parts::parse(reference).scheme,
            "base {base:?} -> {t:?}"
        );
        if tp.scheme.is_none() && tp.authority.is_none() && !tp.path.starts_with('/') {
            let first = tp.path.split('/').next().unwrap_or_default();
            assert!(!first.contains(':'), "base {base:?} -> {t:?}");
        }
        return;
    };
    let t = got.unwrap_or_else(|e| panic!("rfc3986 {base:?} {reference:?}: {e}"));
    let r = Parts::parse(reference);
    let tp = Parts::parse(&t);
    let ctx = format!("rfc3986 base {base:?} reference {reference:?} -> {t:?}");

    assert_eq!(
        tp.scheme,
        Some(r.scheme.unwrap_or(base_scheme)),
        "scheme: {ctx}"
    );
    assert_eq!(tp.fragment, r.fragment, "fragment: {ctx}");

    let (authority, query) = if r.scheme.is_some() || r.authority.is_some() {
        (r.authority, r.query)
    } else if r.path.is_empty() {
        (b.authority, r.query.or(b.query))
    } else {
        (b.authority, r.query)
    };
    if authority.is_none() && tp.authority.is_some() {
        // Known gap (RFC 3986 §3.3): without an authority a path cannot begin with "//", yet
        // §5.2.4 can produce one (base `x:/a`, reference `..//g`), and §5.3 writes it out as
        // `x://g`, which re-parses with the authority `g`. Documented in
        // tests/it/differential.rs; only this shape is allowed.
        assert!(
            t.starts_with(&format!("{}://", tp.scheme.unwrap_or(""))),
            "{ctx}"
        );
    } else {
        assert_eq!(tp.authority, authority, "authority: {ctx}");
        assert_eq!(tp.query, query, "query: {ctx}");
    }

    let without_fragment = t.split_once('#').map_or(t.as_str(), |(before, _)| before);
    assert_eq!(
        rfc3986::resolve(&t, "").as_deref(),
        Ok(without_fragment),
        "empty reference against the target: {ctx}"
    );

    let path_is_the_base_path = r.scheme.is_none() && r.authority.is_none() && r.path.is_empty();
    if path_is_the_base_path {
        assert_eq!(tp.path, b.path, "path: {ctx}");
    } else {
        assert!(!has_dot_segment(tp.path), "dot segment in the path: {ctx}");
        // A target holding the base's tabs or newlines is read stripped as a reference.
        if strip_reference(&t) == t {
            assert_eq!(
                rfc3986::resolve(base, &t).as_deref(),
                Ok(t.as_str()),
                "the target as a reference resolves to itself: {ctx}"
            );
        }
    }
}

/// Schemes the URL Standard calls special.
fn is_special(scheme: &str) -> bool {
    matches!(scheme, "http" | "https" | "ws" | "wss" | "ftp" | "file")
}

/// The URL Standard (`whatwg`, ada underneath): a base ada rejects gives `InvalidBase`; an `Ok`
/// result is ASCII and re-parses to itself (alone, and as `whatwg::parse` gives it); resolving
/// the empty reference against it, when that works, drops only its fragment; an absolute
/// reference whose scheme is not the base's special scheme does not depend on the base; and
/// HTML's encoding-parsing in windows-1252 or Shift_JIS succeeds exactly when UTF-8 does and
/// changes nothing but the query, and not even that when the reference's query is ASCII.
pub fn check_whatwg(base: &str, reference: &str) {
    let got = whatwg::resolve(base, reference);
    let Ok(base_url) = ada_url::Url::parse(base, None) else {
        assert!(
            matches!(got, Err(ResolveError::InvalidBase(_))),
            "base {base:?}: {got:?}"
        );
        return;
    };
    if let Ok(absolute) = ada_url::Url::parse(reference, None) {
        let scheme = absolute.protocol().trim_end_matches(':');
        if !(is_special(scheme) && absolute.protocol() == base_url.protocol()) {
            assert_eq!(
                got.as_deref(),
                Ok(absolute.href()),
                "absolute reference: base {base:?} reference {reference:?}"
            );
        }
    }
    for encoding in [encoding_rs::WINDOWS_1252, encoding_rs::SHIFT_JIS] {
        let encoded = whatwg::encoding_parse(Some(base), reference, encoding);
        let ctx = format!(
            "{} base {base:?} reference {reference:?}: {encoded:?} vs {got:?}",
            encoding.name()
        );
        match (&got, &encoded) {
            (Ok(utf8), Ok(encoded)) => {
                let (a, b) = (
                    ada_url::Url::parse(utf8.as_str(), None).expect("a result parses"),
                    ada_url::Url::parse(encoded.as_str(), None).expect("a result parses"),
                );
                assert_eq!(a.protocol(), b.protocol(), "{ctx}");
                assert_eq!(a.host(), b.host(), "{ctx}");
                assert_eq!(a.pathname(), b.pathname(), "{ctx}");
                assert_eq!(a.hash(), b.hash(), "{ctx}");
                let query = reference.split('#').next().and_then(|r| r.split_once('?'));
                if query.is_none_or(|(_, query)| query.is_ascii()) {
                    assert_eq!(utf8, encoded, "{ctx}");
                }
            }
            (Err(_), Err(_)) => {}
            _ => panic!("one encoding parses, the other does not: {ctx}"),
        }
    }
    let Ok(t) = got else { return };
    let ctx = format!("whatwg base {base:?} reference {reference:?} -> {t:?}");
    assert!(t.is_ascii(), "{ctx}");
    let reparsed = ada_url::Url::parse(t.as_str(), None)
        .unwrap_or_else(|e| panic!("result does not re-parse ({e}): {ctx}"));
    assert_eq!(reparsed.href(), t, "re-serialization: {ctx}");
    assert_eq!(whatwg::parse(&t).as_deref(), Ok(t.as_str()), "{ctx}");
    if let Ok(again) = whatwg::resolve(&t, "") {
        let without_fragment = t.split_once('#').map_or(t.as_str(), |(before, _)| before);
        assert_eq!(
            again, without_fragment,
            "empty reference against the result: {ctx}"
        );
    }
}

/// The oracle of the `analyze` target: the whole pipeline on any bytes. Beyond not
/// panicking: every entity's ranges are ordered and, for entities of the raw message, inside
/// it; parents come before their children; every URL record names an entity and is either
/// resolved or says why not. Then `rewrite`: the output re-parses into the same
/// entity tree with the same multiset of resolved URLs, and rewriting it again changes nothing.
pub fn check_analyze(data: &[u8]) {
    use mimebase::{Options, analyze, rewrite};
    let options = Options::new().with_retrieval_url("http://fuzz.example/m/1");
    let report = analyze(data, &options);
    assert_eq!(
        report.entities.first().map(|e| e.part.as_str()),
        Some("HEADER")
    );
    for (index, entity) in report.entities.iter().enumerate() {
        assert!(entity.header.start <= entity.header.end, "{entity:?}");
        assert!(entity.header.end <= entity.body.start, "{entity:?}");
        assert!(entity.body.start <= entity.body.end, "{entity:?}");
        if entity.decoded_from.is_none() {
            assert!(entity.body.end <= data.len(), "{entity:?}");
        }
        if let Some(parent) = &entity.parent {
            assert!(
                report.entities[..index].iter().any(|e| &e.part == parent),
                "parent of {} comes after it",
                entity.part
            );
        }
    }
    for url in &report.urls {
        assert!(
            report.entities.iter().any(|e| e.part == url.part),
            "{url:?}"
        );
        assert_ne!(
            url.resolution.resolved().is_some(),
            url.resolution.unresolved().is_some(),
            "{url:?}"
        );
        if let mimebase::UrlSource::Html { range, .. } = &url.source {
            assert!(range.start <= range.end, "{url:?}");
        }
        assert!(
            !url.base_decided || url.resolution.resolved().is_some(),
            "{url:?}"
        );
        if let Some(link) = &url.link {
            let source = url.source.to_string();
            assert!(
                source == "html:a@href" || source == "html:area@href",
                "{url:?}"
            );
            // Collapsed and cut: single spaces between words, none at the ends.
            for text in std::iter::once(&link.text).chain(&link.title) {
                assert!(
                    text.chars().count() <= mimebase::LinkText::MAX_CHARS,
                    "{url:?}"
                );
                assert!(!text.starts_with(' ') && !text.ends_with(' '), "{url:?}");
                assert!(!text.contains("  "), "{url:?}");
                assert!(!text.contains(['\t', '\n', '\r', '\u{c}']), "{url:?}");
            }
            assert!(
                !link.text_host_differs || url.resolution.resolved().is_some(),
                "{url:?}"
            );
        }
    }
    let rewritten = rewrite(data, &options);
    let after = analyze(&rewritten.message, &options);
    let tree = |r: &mimebase::Report| -> Vec<(String, String)> {
        r.entities
            .iter()
            .map(|e| (e.part.to_string(), e.content_type.clone()))
            .collect()
    };
    assert_eq!(
        tree(&after),
        tree(&report),
        "rewrite changed the entity tree"
    );
    let resolved = |r: &mimebase::Report| {
        let mut urls: Vec<String> = r
            .urls
            .iter()
            .filter_map(|u| u.resolution.resolved().map(str::to_owned))
            .collect();
        urls.sort();
        urls
    };
    assert_eq!(
        resolved(&after),
        resolved(&report),
        "rewrite changed the resolved URLs"
    );
    assert_eq!(
        rewrite(&rewritten.message, &options).message,
        rewritten.message,
        "rewrite is not idempotent"
    );
}
