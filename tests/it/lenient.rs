//! Messages malformed the way real mail is (and the way a sender hides a link from a filter),
//! read as mail clients read them: every link a client shows, `analyze` finds, with every
//! resolver. The expected links of the MIME cases are in the HTML part's content as GMime
//! 3.2.13 (Debian `gir1.2-gmime-3.0`, the parser of notmuch and Balsa) gives it, checked with
//! `g_mime_parser_construct_message` and `g_mime_part_get_content`; those of the HTML cases are
//! the `href`s Chromium 156 gives for the part's HTML (`document.links`, headless); Python's
//! `email` is named where it reads otherwise.

use mimebase::{DiagnosticKind, Options, Resolver, analyze};

use crate::support::{corpus_or_skip, kinds, root};

/// Every resolved URL of `message` under each resolver.
fn resolved_urls(message: &[u8]) -> Vec<(Resolver, Vec<String>)> {
    Resolver::ALL
        .iter()
        .map(|&resolver| {
            let report = analyze(message, &Options::new().with_resolver(resolver));
            let urls = report
                .urls
                .into_iter()
                .filter_map(|u| u.resolution.into_resolved())
                .collect();
            (resolver, urls)
        })
        .collect()
}

/// `tests/data/evasions/NAME.eml` and the link a client shows in it.
const EVASIONS: &[(&str, &str)] = &[
    // A header line that lost its leading white space (as Office 365 writes long
    // `Thread-Topic` values) before `Content-Type`: Python's `email` ends the header there and
    // shows no HTML part.
    (
        "header-line-without-colon",
        "https://evasion.example/header-line",
    ),
    // An encoded word wrapped onto a line of its own, and a field name with an 8-bit byte.
    (
        "encoded-word-line-and-8bit-name",
        "https://evasion.example/dir/eight-bit-name",
    ),
    // UTF-16 with a byte order mark and no `charset` (Chromium reads it as UTF-16LE).
    ("utf-16-byte-order-mark", "https://sniff.example/utf16"),
    // A mailing list's plain-text footer after the base64 HTML body (the shape of
    // SpamAssassin's `t/data/nice/cjk/big5-base64.1`, whose 6 links this used to hide).
    ("base64-with-footer", "https://evasion.example/base64"),
    // `100% ` and a lowercase `=3d` in a quoted-printable body.
    (
        "quoted-printable-malformed-escapes",
        "https://evasion.example/qp?a=1&b=2",
    ),
    (
        "quoted-printable-malformed-escapes",
        "https://evasion.example/lower",
    ),
    // A `<base>` in MathML's `annotation-xml encoding="text/html"`, an HTML integration point
    // (Chromium 156: `https://evasion.example/integration/page`).
    (
        "base-in-annotation-xml",
        "https://evasion.example/integration/page",
    ),
    // Newlines inside a reference, which URL parsing removes (Chromium 156:
    // `http://split.example/p`).
    ("newline-in-href", "http://split.example/p"),
    // An HTML part in `x-uuencode`, which GMime and Thunderbird decode (GMime 3.2.13 gives
    // the HTML with `<a href="statement.html?id=42">`), against the message's Content-Base.
    (
        "uuencoded-html-relative",
        "https://uuencoded.example/account/statement.html?id=42",
    ),
];

#[test]
fn each_evasion_shows_its_link_with_every_resolver() {
    for (name, link) in EVASIONS {
        let path = root().join(format!("tests/data/evasions/{name}.eml"));
        let message = std::fs::read(&path).unwrap();
        for (resolver, urls) in resolved_urls(&message) {
            assert!(
                urls.iter().any(|url| url == link),
                "{name} with {resolver:?}: {link} not among {urls:?}"
            );
        }
    }
}

/// A page saved by Blink as MHTML whose `X-Snapshot-Title` encoded word spans two lines, the
/// second without leading white space (`../shared/corpus/bench/mhtml2html/portfolio.mhtml`,
/// from the mhtml2html project's tests). GMime reads the `multipart/related` with its 13
/// parts, of these types.
#[test]
fn blink_mhtml_with_a_broken_header_line_keeps_its_parts() {
    let Some(path) = corpus_or_skip("bench/mhtml2html/portfolio.mhtml") else {
        return;
    };
    let report = analyze(&std::fs::read(path).unwrap(), &Options::new());
    let types: Vec<&str> = report
        .entities
        .iter()
        .map(|e| e.content_type.as_str())
        .collect();
    assert_eq!(
        types,
        [
            "multipart/related",
            "text/html",
            "application/font-woff",
            "text/css",
            "text/css",
            "font/woff2",
            "font/woff2",
            "text/css",
            "image/png",
            "image/png",
            "image/png",
            "image/png",
            "image/png",
            "text/css"
        ]
    );
    assert!(
        report
            .urls
            .iter()
            .any(|u| u.reference == "http://msindwan.bitbucket.org/images/favicon.ico"),
        "{:?}",
        report.urls
    );
    assert_eq!(kinds(&report), [DiagnosticKind::MalformedHeader]);
    assert!(
        report.diagnostics[0].message.contains("\"lines\""),
        "{}",
        report.diagnostics[0].message
    );
}

/// RFC 2045 §5.2: an invalid Content-Type is read as text/plain; but a valid `type/subtype`
/// followed by something other than `;` (a `;` lost) is that type, as GMime reads it (the
/// type GMime 3.2.13 gives each value, `g_mime_parser_construct_message`, is the expected
/// one; for the values read as text/plain GMime has application/octet-stream, a type no client
/// shows inline). Parameters come only after a `;`: `multipart/mixed boundary=x` has no
/// boundary, and neither GMime nor we split it.
#[test]
fn content_type_junk_and_invalid_values() {
    let message = |value: &str| {
        format!(
            "Content-Type: {value}\n\n--x\nContent-Type: text/html\n\n<a href=\"http://x/\">\n--x--\n"
        )
    };
    for value in ["text", "/html", "text/", "te xt/html", "\"text/html\""] {
        let report = analyze(message(value).as_bytes(), &Options::new());
        assert_eq!(report.entities.len(), 1, "{value}");
        assert_eq!(report.entities[0].content_type, "text/plain", "{value}");
        assert_eq!(kinds(&report), [DiagnosticKind::BadContentType], "{value}");
    }
    for (value, essence, more) in [
        ("image/com/x", "image/com", &[][..]),
        ("text/html charset=utf-8", "text/html", &[]),
        (
            "multipart/mixed boundary=x",
            "multipart/mixed",
            &[DiagnosticKind::MissingBoundary][..],
        ),
    ] {
        let report = analyze(message(value).as_bytes(), &Options::new());
        assert_eq!(report.entities.len(), 1, "{value}");
        assert_eq!(report.entities[0].content_type, essence, "{value}");
        let expected: Vec<_> = [DiagnosticKind::JunkAfterMediaType]
            .into_iter()
            .chain(more.iter().copied())
            .collect();
        assert_eq!(kinds(&report), expected, "{value}");
    }
    // The parameters after the junk's `;` are read: the body is split at `--x`.
    let report = analyze(
        message("multipart/mixed junk; boundary=x").as_bytes(),
        &Options::new(),
    );
    let types: Vec<_> = report.entities.iter().map(|e| &e.content_type).collect();
    assert_eq!(types, ["multipart/mixed", "text/html"]);
    assert_eq!(kinds(&report), [DiagnosticKind::JunkAfterMediaType]);
    let references: Vec<_> = report.urls.iter().map(|u| u.reference.as_str()).collect();
    assert_eq!(references, ["http://x/"]);
    for value in [
        "text/html",
        "TEXT/HTML; charset=utf-8",
        "text/html (a comment); charset=utf-8",
        "text / html",
        "text/html;",
    ] {
        let message = format!("Content-Type: {value}\n\n<a href=\"http://x/\">\n");
        let report = analyze(message.as_bytes(), &Options::new());
        assert_eq!(report.entities[0].content_type, "text/html", "{value}");
        assert_eq!(kinds(&report), [], "{value}");
    }
}

/// HTML encoding sniffing (HTML Standard): a byte order mark, then the MIME `charset`, then a
/// `<meta>` in the first 1,024 bytes, then UTF-8 or windows-1252. Each message's HTML part has
/// no `charset`; the expected URLs are the `href`s Chromium 156 gives for the same bytes
/// opened as a file (no transport charset), read from `document.links` with
/// `chromium --headless --dump-dom`, as the `whatwg` resolver gives them (the query encoded in
/// the document's encoding).
#[test]
fn html_encoding_is_sniffed_as_chromium_sniffs_it() {
    let cases = [
        ("utf-16-byte-order-mark", "https://sniff.example/utf16"),
        ("meta-charset", "https://sniff.example/%D0%9F%D1%80?q=%CF"),
        ("meta-http-equiv", "https://sniff.example/%D0%9F"),
        ("meta-charset-in-comment", "https://sniff.example/%C3%8F"),
    ];
    for (name, chromium) in cases {
        let path = root().join(format!("tests/data/evasions/{name}.eml"));
        let report = analyze(
            &std::fs::read(&path).unwrap(),
            &Options::new().with_resolver(Resolver::Whatwg),
        );
        let urls: Vec<_> = report
            .urls
            .iter()
            .filter_map(|u| u.resolution.resolved())
            .collect();
        assert_eq!(urls, [chromium], "{name}");
    }
}

/// 2.5 MB of header fields before the `Content-Type`: read whole (the header limit is the
/// message limit), at no cost for the fields the analysis does not read.
#[test]
fn megabytes_of_header_fields_do_not_hide_the_content_type() {
    let mut message = Vec::new();
    for i in 0..50_000 {
        message.extend(format!("X-Filler-{i:05}: {}\n", "y".repeat(34)).bytes());
    }
    assert!(message.len() > 2_500_000);
    message.extend(b"Content-Type: text/html\n\n<a href=\"http://x.example/\">x</a>\n");
    let report = analyze(&message, &Options::new());
    assert_eq!(report.entities[0].content_type, "text/html");
    assert!(report.complete);
    assert_eq!(kinds(&report), []);
    for (resolver, urls) in resolved_urls(&message) {
        assert_eq!(urls, ["http://x.example/"], "{resolver:?}");
    }
}

#[test]
fn an_empty_message_says_it_is_empty() {
    let report = analyze(b"", &Options::new());
    assert_eq!(kinds(&report), vec![DiagnosticKind::NoHeader]);
    assert_eq!(
        report.diagnostics[0].message,
        "the message is empty (0 bytes)"
    );
    // An empty encapsulated message is said to be empty too; a message with a header and an
    // empty body is not.
    let outer = b"Content-Type: message/rfc822\r\n\r\n";
    let report = analyze(outer, &Options::new());
    assert_eq!(kinds(&report), vec![DiagnosticKind::NoHeader]);
    let report = analyze(b"Subject: x\r\n\r\n", &Options::new());
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
}
