//! Tabs, newlines and C0 controls in and around a reference: every resolver removes ASCII
//! tab, LF and CR and trims the C0 controls and spaces at both ends before it resolves (the
//! URL Standard's [basic URL parser]; RFC 3986 [Appendix C]), for HTML and header URLs alike,
//! while the URL record keeps the reference as written.
//!
//! The expected URLs are Chromium's: Chromium 156.0.8078.79 (Debian 12 package `chromium`),
//! headless, read each reference as the `href` of an `<a>` in a document with
//! `<base href="http://base.example/dir/page">` (as an `<iframe srcdoc>` and with `DOMParser`,
//! which agreed), and reported the `href` property, the URL it would open
//! (`scripts/chromium-base-uri` does this). Every reference below resolves to the same URL
//! with all three resolvers, so one expected value serves them all. Chromium is not needed
//! to run this test.
//!
//! [basic URL parser]: https://url.spec.whatwg.org/#concept-basic-url-parser
//! [Appendix C]: https://www.rfc-editor.org/rfc/rfc3986#appendix-C

use mimebase::url::{Resolver, has_scheme, strip_reference};
use mimebase::{Options, UrlSource, analyze, rewrite};
use pretty_assertions::assert_eq;

const BASE: &str = "http://base.example/dir/page";

/// (reference, Chromium's URL for it against [`BASE`]).
const CHROMIUM: &[(&str, &str)] = &[
    ("ht\ntp://spl\nit.example/p", "http://split.example/p"),
    (" \t g\r\n ", "http://base.example/dir/g"),
    ("\u{1} ../x\u{1f} ", "http://base.example/x"),
    (
        "a\tb/c\nd?q\r=1#f\tg",
        "http://base.example/dir/ab/cd?q=1#fg",
    ),
    ("\u{b}/abs\u{b}", "http://base.example/abs"),
    ("//other.example/\tp", "http://other.example/p"),
    ("?\tq", "http://base.example/dir/page?q"),
    ("\n", "http://base.example/dir/page"),
    ("\u{1f}#top\u{1}", "http://base.example/dir/page#top"),
    ("\u{8}mailto:a@b.example\u{8}", "mailto:a@b.example"),
];

/// References written with character references in an HTML attribute (decoded before
/// resolution), and Chromium's URL for each against [`BASE`].
const CHROMIUM_DECODED: &[(&str, &str)] = &[
    ("g&#9;h&#10;i&#13;j", "http://base.example/dir/ghij"),
    ("ht&#x9;tp://ref.example/", "http://ref.example/"),
];

#[test]
fn every_resolver_strips_the_reference_first() {
    for resolver in Resolver::ALL {
        for (reference, chromium) in CHROMIUM {
            assert_eq!(
                resolver.resolve(BASE, reference).as_deref(),
                Ok(*chromium),
                "{} {reference:?}",
                resolver.name()
            );
            // A NUL is a C0 control too (the HTML tokenizer would have replaced it).
            let padded = format!("\u{0}{reference}\u{0}");
            assert_eq!(
                resolver.resolve(BASE, &padded).as_deref(),
                Ok(*chromium),
                "{} {padded:?}",
                resolver.name()
            );
        }
    }
}

/// A `text/html` message with `header` and one `<a href>` for each of `references`.
fn message(header: &str, references: &[&str]) -> String {
    let links: String = references
        .iter()
        .map(|reference| format!("<a href=\"{reference}\">x</a>\n"))
        .collect();
    format!("{header}Content-Type: text/html\n\n<p>{links}</p>\n")
}

/// (reference, resolved) of every HTML URL of the message.
fn html_urls(message: &str, resolver: Resolver) -> Vec<(String, Option<String>)> {
    analyze(message.as_bytes(), &Options::new().with_resolver(resolver))
        .urls
        .into_iter()
        .filter(|u| matches!(u.source, UrlSource::Html { .. }))
        .map(|u| (u.reference, u.resolution.into_resolved()))
        .collect()
}

/// The reference an HTML attribute value gives the record: the value trimmed of ASCII white
/// space (HTML "valid URL potentially surrounded by spaces"), and nothing else changed.
fn as_recorded(value: &str) -> String {
    value
        .trim_matches(|c: char| c.is_ascii_whitespace())
        .to_owned()
}

#[test]
fn html_urls_resolve_as_chromium_and_keep_the_reference_as_written() {
    let header = format!("Content-Base: {BASE}\n");
    let all: Vec<(&str, &str)> = CHROMIUM.iter().chain(CHROMIUM_DECODED).copied().collect();
    let references: Vec<&str> = all.iter().map(|(reference, _)| *reference).collect();
    let message = message(&header, &references);
    for resolver in Resolver::ALL {
        let expected: Vec<(String, Option<String>)> = all
            .iter()
            .map(|(written, chromium)| {
                let decoded = written
                    .replace("&#9;", "\t")
                    .replace("&#10;", "\n")
                    .replace("&#13;", "\r")
                    .replace("&#x9;", "\t");
                (as_recorded(&decoded), Some((*chromium).to_owned()))
            })
            .collect();
        assert_eq!(
            html_urls(&message, resolver),
            expected,
            "{}",
            resolver.name()
        );
    }
}

#[test]
fn without_a_base_an_absolute_reference_is_reported_stripped() {
    let references = [
        "ht\ntp://spl\nit.example/p",
        "\u{8}mailto:a@b.example\u{8}",
        "a\tb",
    ];
    let message = message("", &references);
    for resolver in Resolver::ALL {
        assert_eq!(
            html_urls(&message, resolver),
            [
                // Chromium: absolute, whatever the document's URL.
                (
                    references[0].to_owned(),
                    Some("http://split.example/p".to_owned())
                ),
                (
                    references[1].to_owned(),
                    Some("mailto:a@b.example".to_owned())
                ),
                // Relative, and no base: unresolved.
                (references[2].to_owned(), None),
            ],
            "{}",
            resolver.name()
        );
    }
}

/// Header URLs are stripped the same way. Their white space is already gone (RFC 1808 §3.1,
/// RFC 2369), so what is left to strip are other C0 controls. Chromium's URLs for the same
/// references against `http://loc.example/a/b`, as above.
#[test]
fn header_urls_are_stripped_too() {
    let message = "Content-Location: \u{1}http://loc.example/a/b\u{1f}\n\
                   List-Archive: <\u{2}arch\u{2}>\n\
                   Archived-At: <\u{1b}http://arch.example/m\u{1b}>\n\
                   Content-Type: text/plain\n\nbody\n";
    for resolver in Resolver::ALL {
        let report = analyze(message.as_bytes(), &Options::new().with_resolver(resolver));
        assert_eq!(
            report.entities[0].base.url.as_deref(),
            Some("http://loc.example/a/b")
        );
        let urls: Vec<(&str, Option<&str>)> = report
            .urls
            .iter()
            .map(|u| (u.reference.as_str(), u.resolution.resolved()))
            .collect();
        assert_eq!(
            urls,
            [
                (
                    "\u{1}http://loc.example/a/b\u{1f}",
                    Some("http://loc.example/a/b")
                ),
                ("\u{2}arch\u{2}", Some("http://loc.example/a/arch")),
                (
                    "\u{1b}http://arch.example/m\u{1b}",
                    Some("http://arch.example/m")
                ),
            ],
            "{}",
            resolver.name()
        );
    }
}

/// `rewrite` reads a reference as the resolvers do: one that is absolute or same-document
/// once stripped is kept as written, every other one becomes Chromium's URL in place of the
/// whole value (white space around it, which HTML allows, stays).
#[test]
fn rewrite_writes_the_stripped_resolution() {
    let header = format!("Content-Base: {BASE}\n");
    let all: Vec<(&str, &str)> = CHROMIUM.iter().chain(CHROMIUM_DECODED).copied().collect();
    let references: Vec<&str> = all.iter().map(|(reference, _)| *reference).collect();
    let message = message(&header, &references);
    let rewritten = rewrite(message.as_bytes(), &Options::new());
    let after = html_urls(
        &String::from_utf8(rewritten.message).unwrap(),
        Resolver::Rfc1808,
    );
    let before = html_urls(&message, Resolver::Rfc1808);
    let kept = |reference: &str| {
        let stripped = strip_reference(reference);
        stripped.is_empty() || stripped.starts_with('#') || has_scheme(&stripped)
    };
    let expected: Vec<(String, Option<String>)> = before
        .iter()
        .zip(&all)
        .map(|((reference, resolved), (_, chromium))| {
            assert_eq!(resolved.as_deref(), Some(*chromium));
            if kept(reference) {
                (reference.clone(), resolved.clone())
            } else {
                ((*chromium).to_owned(), resolved.clone())
            }
        })
        .collect();
    assert_eq!(after, expected);
    assert_eq!(rewritten.rewritten_urls, 7);
}
