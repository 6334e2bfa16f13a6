//! URLs of whole messages with the resolver options of the URL Standard work (small messages
//! in `tests/data/urls/`):
//!
//! - absolute references are parsed by `whatwg`, with and without a base, and kept as written
//!   by `rfc1808` and `rfc3986`; a reference the URL parser rejects is unresolved with its
//!   reason;
//! - the query of an HTML URL is encoded in its part's charset (HTML "encoding-parsing a URL"),
//!   per charset, and only the query, only in `whatwg` mode, only for HTML URLs;
//! - a `<base href>` that cannot be a base falls back to the header-level base (HTML "fallback
//!   base URL"), one part per case;
//! - the acceptance examples through the `mimebase urls` command.
//!
//! Every message is also run with CRLF line endings, which must give the same URLs.

use std::path::PathBuf;

use mimebase::{BaseSource, DiagnosticKind, Options, Report, Resolver, Unresolved, analyze};

use crate::support::cli::{json_lines, mimebase, stdout};
use crate::support::{root, to_crlf};

/// The messages of these tests.
fn data() -> PathBuf {
    root().join("tests/data/urls")
}

fn message(name: &str) -> Vec<u8> {
    std::fs::read(data().join(name)).unwrap()
}

/// The report of `name` with `resolver`; checks that CRLF line endings give the same URLs.
fn report(name: &str, resolver: Resolver) -> Report {
    let options = Options::new().with_resolver(resolver);
    let lf = analyze(&message(name), &options);
    let crlf = analyze(&to_crlf(&message(name)), &options);
    let urls = |report: &Report| -> Vec<(String, Option<String>)> {
        report
            .urls
            .iter()
            .map(|url| {
                (
                    url.reference.clone(),
                    url.resolution.resolved().map(str::to_owned),
                )
            })
            .collect()
    };
    assert_eq!(urls(&lf), urls(&crlf), "{name}: LF and CRLF differ");
    lf
}

/// `(reference, resolved)` of every HTML `<a href>` of part `part`.
fn links(report: &Report, part: &str) -> Vec<(String, Option<String>)> {
    report
        .urls
        .iter()
        .filter(|url| url.part.as_str() == part && url.source.to_string() == "html:a@href")
        .map(|url| {
            (
                url.reference.clone(),
                url.resolution.resolved().map(str::to_owned),
            )
        })
        .collect()
}

fn pairs(list: &[(&str, Option<&str>)]) -> Vec<(String, Option<String>)> {
    list.iter()
        .map(|(reference, resolved)| ((*reference).to_owned(), resolved.map(str::to_owned)))
        .collect()
}

#[test]
fn absolute_references_without_a_base() {
    let whatwg = report("absolute-no-base.eml", Resolver::Whatwg);
    pretty_assertions::assert_eq!(
        links(&whatwg, "HEADER"),
        pairs(&[
            ("http://Example.COM", Some("http://example.com/")),
            ("http://exa mple/", None),
            (
                "HTTP://The00.Example.com/a/./b/../c",
                Some("http://the00.example.com/a/c")
            ),
            ("page.html", None),
        ])
    );
    let rejected = &whatwg.urls[1];
    assert_eq!(
        rejected.resolution.unresolved(),
        Some(Unresolved::ResolverError)
    );
    assert_eq!(
        rejected.resolution.error(),
        Some("the URL Standard's parser rejects the reference: invalid international domain name")
    );
    assert_eq!(
        whatwg.urls[3].resolution.unresolved(),
        Some(Unresolved::NoBase)
    );
    assert_eq!(whatwg.urls[3].resolution.error(), None);
    for resolver in [Resolver::Rfc1808, Resolver::Rfc3986] {
        pretty_assertions::assert_eq!(
            links(&report("absolute-no-base.eml", resolver), "HEADER"),
            pairs(&[
                ("http://Example.COM", Some("http://Example.COM")),
                ("http://exa mple/", Some("http://exa mple/")),
                (
                    "HTTP://The00.Example.com/a/./b/../c",
                    Some("HTTP://The00.Example.com/a/./b/../c")
                ),
                ("page.html", None),
            ]),
            "{resolver:?}"
        );
    }
}

#[test]
fn absolute_references_with_a_base() {
    let whatwg = report("absolute-with-base.eml", Resolver::Whatwg);
    pretty_assertions::assert_eq!(
        links(&whatwg, "HEADER"),
        pairs(&[
            ("http://Example.COM", Some("http://example.com/")),
            ("http://exa mple/", None),
            (
                "HTTP://The00.Example.com/a/./b/../c",
                Some("http://the00.example.com/a/c")
            ),
            ("page.html", Some("http://base.example/dir/page.html")),
        ])
    );
    assert!(
        whatwg.urls[2]
            .resolution
            .error()
            .unwrap()
            .contains("rejects")
    );
    // RFC 3986 §5.2.2 removes dot segments from an absolute reference too; RFC 1808 §4 step
    // 2b returns it as it is. Neither changes case.
    for (resolver, dots) in [
        (Resolver::Rfc1808, "HTTP://The00.Example.com/a/./b/../c"),
        (Resolver::Rfc3986, "HTTP://The00.Example.com/a/c"),
    ] {
        pretty_assertions::assert_eq!(
            links(&report("absolute-with-base.eml", resolver), "HEADER"),
            pairs(&[
                ("http://Example.COM", Some("http://Example.COM")),
                ("http://exa mple/", Some("http://exa mple/")),
                ("HTTP://The00.Example.com/a/./b/../c", Some(dots)),
                ("page.html", Some("http://base.example/dir/page.html")),
            ]),
            "{resolver:?}"
        );
    }
}

/// One HTML part per charset, each with `{c}.html?q={c}#{c}`, `ws://ws.example/?q={c}` and
/// `foo://h/?q={c}` written in that charset. The expected bytes are the character's code in
/// each charset's published table.
#[test]
fn query_encoding_per_charset() {
    let report = report("query-encoding.eml", Resolver::Whatwg);
    let cases = [
        ("1", "windows-1252", "%C3%A9", "%E9"),
        ("2", "Shift_JIS", "%E6%97%A5", "%93%FA"),
        ("3", "EUC-JP", "%E6%97%A5", "%C6%FC"),
        ("4", "ISO-2022-JP", "%E6%97%A5", "%1B$BF|%1B(B"),
        ("5", "EUC-KR", "%ED%95%9C", "%C7%D1"),
        ("6", "Big5", "%E4%B8%AD", "%A4%A4"),
        ("7", "gb18030", "%E4%B8%AD", "%D6%D0"),
        ("8", "GBK", "%E4%B8%AD", "%D6%D0"),
        ("9", "ISO-8859-2", "%C5%82", "%B3"),
        ("10", "KOI8-R", "%D0%B6", "%D6"),
        ("11", "UTF-8", "%C3%A9", "%C3%A9"),
    ];
    for (part, charset, utf8, in_charset) in cases {
        let got: Vec<Option<String>> = links(&report, part).into_iter().map(|l| l.1).collect();
        let want = [
            format!("http://example.com/dir/{utf8}.html?q={in_charset}#{utf8}"),
            format!("ws://ws.example/?q={utf8}"),
            format!("foo://h/?q={utf8}"),
        ];
        let want: Vec<Option<String>> = want.into_iter().map(Some).collect();
        pretty_assertions::assert_eq!(got, want, "{charset}");
    }
    // UTF-16: the output encoding is UTF-8.
    assert_eq!(
        links(&report, "12")[0].1.as_deref(),
        Some("http://example.com/dir/%C3%A9.html?q=%C3%A9")
    );
    // `café.html?q=café` in 8-bit windows-1252: the query keeps the document's encoding.
    assert_eq!(
        links(&report, "13")[0].1.as_deref(),
        Some("http://example.com/dir/caf%C3%A9.html?q=caf%E9")
    );
    // Header URLs are not in a document: UTF-8.
    let unsubscribe = report
        .urls
        .iter()
        .find(|url| url.source.to_string() == "header:List-Unsubscribe")
        .unwrap();
    assert_eq!(
        unsubscribe.resolution.resolved(),
        Some("http://example.com/u?who=caf%C3%A9")
    );
    // Only whatwg encodes: the RFC resolvers leave the reference's characters as they are.
    let rfc3986 = report_rfc3986();
    assert_eq!(
        links(&rfc3986, "13")[0].1.as_deref(),
        Some("http://example.com/dir/café.html?q=café")
    );
}

fn report_rfc3986() -> Report {
    report("query-encoding.eml", Resolver::Rfc3986)
}

/// Parts 1–6 of `base-fallback.eml`, under `Content-Location:
/// http://example.com/dir/page.html`, each `<base href=…>` then `<a href="x.html">`.
#[test]
fn base_href_that_cannot_be_a_base_falls_back_to_the_header_level_base() {
    let fallback = Some("http://example.com/dir/x.html");
    // (part, case, link with whatwg, link with rfc1808, diagnostic with rfc1808 too)
    let cases = [
        ("1", "javascript:", fallback, fallback, true),
        ("2", "JavaScript: (case)", fallback, fallback, true),
        ("3", "data:", fallback, fallback, true),
        // Valid for the RFC resolvers (it has a scheme), rejected by the URL parser.
        (
            "4",
            "invalid host",
            fallback,
            Some("http://exa mple/x.html"),
            false,
        ),
        (
            "5",
            "relative, invalid host",
            fallback,
            Some("http://exa mple/dir/x.html"),
            false,
        ),
        (
            "6",
            "usable",
            Some("http://example.com/other/x.html"),
            Some("http://example.com/other/x.html"),
            false,
        ),
    ];
    let whatwg = report("base-fallback.eml", Resolver::Whatwg);
    let rfc1808 = report("base-fallback.eml", Resolver::Rfc1808);
    for (part, case, with_whatwg, with_rfc1808, diagnosed_by_rfc1808) in cases {
        for (report, want, diagnosed) in [
            (&whatwg, with_whatwg, part != "6"),
            (&rfc1808, with_rfc1808, diagnosed_by_rfc1808),
        ] {
            let resolver = report.urls[0].resolver;
            assert_eq!(
                links(report, part)[0].1.as_deref(),
                want,
                "{case} {resolver:?}"
            );
            let entity = report
                .entities
                .iter()
                .find(|e| e.part.as_str() == part)
                .unwrap();
            let source = if want == fallback {
                BaseSource::Inherited
            } else {
                BaseSource::HtmlBase
            };
            assert_eq!(entity.base.source, source, "{case} {resolver:?}");
            let diagnostic = report.diagnostics.iter().find(|d| {
                d.part.as_ref().is_some_and(|p| p.as_str() == part)
                    && d.kind == DiagnosticKind::UnusableHtmlBase
            });
            assert_eq!(diagnostic.is_some(), diagnosed, "{case} {resolver:?}");
            if let Some(diagnostic) = diagnostic {
                assert!(
                    diagnostic
                        .message
                        .contains("the header-level base is used instead"),
                    "{diagnostic:?}"
                );
            }
        }
    }
}

#[test]
fn unusable_base_href_without_a_header_level_base() {
    let report = report("base-fallback-no-header-base.eml", Resolver::Whatwg);
    pretty_assertions::assert_eq!(
        links(&report, "HEADER"),
        pairs(&[
            ("x.html", None),
            ("http://Abs.Example/", Some("http://abs.example/")),
        ])
    );
    assert_eq!(report.entities[0].base.source, BaseSource::None);
    assert_eq!(
        report.urls[1].resolution.unresolved(),
        Some(Unresolved::NoBase)
    );
    assert!(
        report
            .diagnostics
            .iter()
            .any(|d| d.kind == DiagnosticKind::UnusableHtmlBase)
    );
}

/// The acceptance examples: `mimebase urls --resolver whatwg` on a message without a base.
#[test]
fn cli_urls_whatwg_without_a_base() {
    let path = data().join("absolute-no-base.eml");
    let path = path.to_str().unwrap();
    let output = mimebase(&["urls", "--resolver", "whatwg", path], b"");
    assert_eq!(output.status.code(), Some(0));
    let stdout = stdout(&output);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines[0], "http://example.com/\thttp://Example.COM");
    assert_eq!(
        lines[1], "\thttp://exa mple/",
        "the resolved column is empty"
    );

    let output = mimebase(&["urls", "--json", "--resolver", "whatwg", path], b"");
    assert_eq!(output.status.code(), Some(0));
    let records = json_lines(&output);
    let example = &records[0];
    assert_eq!(example["reference"], "http://Example.COM");
    assert_eq!(example["resolved"], "http://example.com/");
    assert_eq!(example["resolver"], "whatwg");
    let rejected = &records[1];
    assert_eq!(rejected["reference"], "http://exa mple/");
    assert_eq!(rejected["resolved"], serde_json::Value::Null);
    assert_eq!(rejected["unresolved"], "resolver_error");
    assert_eq!(
        rejected["error"],
        "the URL Standard's parser rejects the reference: invalid international domain name"
    );
    assert_eq!(records[3]["unresolved"], "no_base");
    assert!(records[3].get("error").is_none());
}

/// `rfc3986` resolves against a base without a scheme (RFC 3986 §5.2.2 as written), but a
/// base for an entity or an HTML part must still be absolute: a relative `Content-Location`
/// or `<base href>` with nothing to resolve it against is not used, whatever the resolver.
#[test]
fn bases_of_entities_and_html_parts_stay_absolute_with_rfc3986() {
    let message = b"Content-Location: /foo/bar\r\nContent-Type: text/html\r\n\r\n\
                    <base href=\"/dir/\"><a href=\"baz\">x</a>";
    for resolver in Resolver::ALL {
        let report = analyze(message, &Options::new().with_resolver(resolver));
        assert_eq!(
            report.entities[0].header_base.source,
            BaseSource::None,
            "{resolver:?}"
        );
        assert_eq!(
            report.entities[0].base.source,
            BaseSource::None,
            "{resolver:?}"
        );
        let link = report.urls.iter().find(|u| u.reference == "baz").unwrap();
        assert_eq!(link.resolution.resolved(), None, "{resolver:?}");
        assert_eq!(
            link.resolution.unresolved(),
            Some(Unresolved::NoBase),
            "{resolver:?}"
        );
        let kinds: Vec<DiagnosticKind> = report.diagnostics.iter().map(|d| d.kind).collect();
        assert!(
            kinds.contains(&DiagnosticKind::UnusableBaseHeader),
            "{kinds:?}"
        );
        assert!(
            kinds.contains(&DiagnosticKind::UnusableHtmlBase),
            "{kinds:?}"
        );
    }
    // The resolver alone gives the relative target.
    assert_eq!(
        Resolver::Rfc3986.resolve("/foo/bar", "baz").unwrap(),
        "/foo/baz"
    );
}

/// The `error` field reads back from JSON (the report types deserialize).
#[test]
fn url_records_with_an_error_read_back() {
    let report = report("absolute-no-base.eml", Resolver::Whatwg);
    let rejected = &report.urls[1];
    assert!(rejected.resolution.error().is_some());
    for record in &report.urls {
        let json = serde_json::to_string(record).unwrap();
        let back: mimebase::UrlRecord = serde_json::from_str(&json).unwrap();
        assert_eq!(&back, record, "{json}");
    }
}
