//! Every link a reader can reach beyond the `text/html` body: the HTML alternatives some
//! clients render (`text/x-amp-html`, `text/watch-html`), HTML and SVG files sent under another
//! media type (found by their file name), and `<iframe srcdoc>` documents; on the messages of
//! `tests/data/reach/`, written here in the shapes that real mail and phishing use.
//!
//! Chromium is the oracle of the links themselves (`python/tests/test_links_browser.py`
//! compares every one of these parts with it); these tests check what follows from the rules
//! without a browser: which parts are read and why, the base an attachment gets, where the
//! ranges of `srcdoc` URLs point, and what `rewrite` leaves alone.

use mimebase::{
    BaseSource, ChosenBy, Document, DocumentKind, Options, Report, UrlSource, analyze,
    analyze_with_html_text, rewrite,
};

use crate::support::root;

fn message(name: &str) -> Vec<u8> {
    std::fs::read(root().join("tests/data/reach").join(name)).unwrap()
}

fn document(report: &Report, part: &str) -> Option<Document> {
    report
        .entities
        .iter()
        .find(|e| e.part.as_str() == part)
        .unwrap()
        .document
}

/// (source, reference, resolved) of the part's URL records.
fn urls(report: &Report, part: &str) -> Vec<(String, String, Option<String>)> {
    report
        .urls
        .iter()
        .filter(|u| u.part.as_str() == part)
        .map(|u| {
            (
                u.source.to_string(),
                u.reference.clone(),
                u.resolution.resolved().map(str::to_owned),
            )
        })
        .collect()
}

#[test]
fn amp_and_apple_watch_alternatives_are_read_as_html() {
    let report = analyze(&message("amp-and-watch.eml"), &Options::new());
    let by_type = Some(Document {
        kind: DocumentKind::Html,
        by: ChosenBy::MediaType,
        attachment: false,
    });
    for part in ["2", "3", "4"] {
        assert_eq!(document(&report, part), by_type, "part {part}");
    }
    assert_eq!(
        document(&report, "1").map(|d| d.kind),
        Some(DocumentKind::Text)
    );
    // The same base rules as text/html: the root's Content-Base, inherited.
    let resolved = |part| {
        urls(&report, part)
            .into_iter()
            .filter(|(source, ..)| source == "html:a@href")
            .map(|(_, _, resolved)| resolved.unwrap())
            .collect::<Vec<_>>()
    };
    assert_eq!(resolved("2"), ["https://shop.example/orders/track/1234"]);
    assert_eq!(resolved("3"), ["https://shop.example/orders/watch/1234"]);
    assert_eq!(resolved("4"), ["https://shop.example/orders/status/1234"]);
}

#[test]
fn files_named_as_pages_are_read_as_attachments_opened_from_a_file() {
    let report = analyze(&message("html-attachment-by-name.eml"), &Options::new());
    let by_name = Some(Document {
        kind: DocumentKind::Html,
        by: ChosenBy::FileName,
        attachment: true,
    });
    // `Invoice-4471.html`, `Statement.HTM` (RFC 2231 continuations), `Résumé.shtml` (an RFC
    // 2047 encoded word in `name`); `report.html.exe` is not a page.
    for part in ["2", "3", "4"] {
        assert_eq!(document(&report, part), by_name, "part {part}");
    }
    assert_eq!(document(&report, "5"), None);
    assert!(urls(&report, "5").is_empty());
    let entity = |part: &str| {
        report
            .entities
            .iter()
            .find(|e| e.part.as_str() == part)
            .unwrap()
    };
    // No network base: relative references name files beside the temporary copy.
    assert_eq!(entity("2").base.source, BaseSource::Attachment);
    assert_eq!(entity("2").base.url, None);
    assert_eq!(entity("2").header_base.source, BaseSource::Inherited);
    for (source, reference, resolved) in urls(&report, "2") {
        let absolute = reference.starts_with("https://");
        assert_eq!(resolved.is_some(), absolute, "{source} {reference}");
    }
    // An absolute <base href> still applies.
    assert_eq!(entity("3").base.source, BaseSource::HtmlBase);
    assert!(urls(&report, "3").contains(&(
        "html:a@href".to_owned(),
        "open".to_owned(),
        Some("https://statements.evil.example/s/open".to_owned())
    )));
    assert!(urls(&report, "4").contains(&(
        "html:a@href".to_owned(),
        "https://cv.example/résumé".to_owned(),
        Some("https://cv.example/résumé".to_owned())
    )));
}

#[test]
fn rewrite_leaves_attachments_as_they_are_and_rewrites_amp() {
    let raw = message("html-attachment-by-name.eml");
    let rewritten = rewrite(&raw, &Options::new());
    assert_eq!(rewritten.message, raw);
    assert!(rewritten.changed.is_empty());
    // An HTML part with `Content-Disposition: attachment` is an attachment too.
    let sample = std::fs::read(root().join("samples/nested-content-base.eml")).unwrap();
    let rewritten = rewrite(&sample, &Options::new());
    assert_eq!(
        rewritten
            .changed
            .iter()
            .map(|p| p.as_str())
            .collect::<Vec<_>>(),
        ["1.2"]
    );
    let raw = message("amp-and-watch.eml");
    let rewritten = rewrite(&raw, &Options::new());
    let text = String::from_utf8(rewritten.message).unwrap();
    assert!(text.contains("<a href=\"https://shop.example/orders/track/1234\">"));
    assert!(text.contains("<a href=\"https://shop.example/orders/watch/1234\">"));
    assert_eq!(
        rewritten
            .changed
            .iter()
            .map(|p| p.as_str())
            .collect::<Vec<_>>(),
        ["2", "3", "4"]
    );
}

#[test]
fn srcdoc_urls_resolve_against_their_document_and_point_into_the_part() {
    let raw = message("srcdoc.eml");
    let (report, texts) = analyze_with_html_text(&raw, &Options::new());
    let text = &texts[0].text;
    let mut depths = Vec::new();
    for url in &report.urls {
        let UrlSource::Html { range, srcdoc, .. } = &url.source else {
            continue;
        };
        depths.push((url.reference.as_str(), *srcdoc));
        // What the range holds decodes (once per srcdoc level) to text holding the reference.
        let mut at = text[range.start..range.end].to_owned();
        for _ in 0..*srcdoc {
            at = htmlize::unescape_attribute(&at).into_owned();
        }
        assert!(at.contains(&url.reference), "{at:?} {url:?}");
    }
    assert_eq!(
        depths,
        [
            ("front.html", 0),
            ("ad.html", 0),
            ("story/1", 1),
            ("img/1.jpg", 1),
            ("https://evil.example/phish/", 1),
            ("login", 1),
            ("deeper", 2),
            ("back.html", 0),
        ]
    );
    let resolved: Vec<_> = urls(&report, "HEADER")
        .into_iter()
        .filter_map(|(_, _, resolved)| resolved)
        .collect();
    // The first srcdoc document has no <base>: its parent's base, the Content-Base. The second
    // has its own, which the document inside it inherits.
    assert!(resolved.contains(&"https://paper.example/today/story/1".to_owned()));
    assert!(resolved.contains(&"https://evil.example/phish/login".to_owned()));
    assert!(resolved.contains(&"https://evil.example/phish/deeper".to_owned()));
}

#[test]
fn rewritten_srcdoc_documents_read_back_absolute() {
    let raw = message("srcdoc.eml");
    let options = Options::new();
    let before = analyze(&raw, &options);
    let rewritten = rewrite(&raw, &options);
    assert_eq!(rewritten.changed.len(), 1);
    let after = analyze(&rewritten.message, &options);
    let resolved = |report: &Report| {
        report
            .urls
            .iter()
            .map(|u| u.resolution.resolved().map(str::to_owned))
            .collect::<Vec<_>>()
    };
    assert_eq!(resolved(&before), resolved(&after));
    for url in &after.urls {
        assert_eq!(
            Some(url.reference.as_str()),
            url.resolution.resolved(),
            "{url:?}"
        );
    }
    // Outside the srcdoc values and the other URL values, every byte is the input's.
    let text = String::from_utf8(rewritten.message).unwrap();
    assert!(text.contains("<iframe srcdoc='<base href=\"https://evil.example/phish/\">"));
}

/// The links of `plain-text.eml`, as Thunderbird's message view makes them: a URL split by a
/// quoted-printable soft line break is whole once decoded; `www.` hosts get `http://`,
/// addresses `mailto:`; `<URL:…>` is delimited (RFC 1738); trailing `.` and `)` are not part of
/// a link; bare domains, `ftp.` hosts, times and relative paths are no links. A `format=flowed`
/// soft break (with `delsp=yes`) joins a URL, and `text/enriched` commands are not text.
#[test]
fn plain_text_links_as_a_mail_client_makes_them() {
    let raw = message("plain-text.eml");
    let report = analyze(&raw, &Options::new());
    let text = |part| {
        urls(&report, part)
            .into_iter()
            .map(|(source, reference, resolved)| {
                assert_eq!(source, "text");
                (reference, resolved.unwrap())
            })
            .collect::<Vec<_>>()
    };
    let owned = |pairs: &[(&str, &str)]| {
        pairs
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect::<Vec<_>>()
    };
    let confirm = "https://account.service.example/confirm?user=12345&token=abcdef0123456789";
    assert_eq!(
        text("1"),
        owned(&[
            (confirm, confirm),
            (
                "www.service.example/help",
                "http://www.service.example/help"
            ),
            ("help@service.example", "mailto:help@service.example"),
            (
                "<URL:http://old.service.example/faq>",
                "http://old.service.example/faq"
            ),
        ])
    );
    let statement = "https://statements.service.example/2026/november/statement.pdf";
    assert_eq!(text("2"), owned(&[(statement, statement)]));
    let update = "https://update.service.example/now";
    assert_eq!(text("3"), owned(&[(update, update)]));
    // No base: plain text has none, whatever the message's Content-Base.
    assert!(
        report
            .urls
            .iter()
            .filter(|u| u.source.is_text())
            .all(|u| { u.base.source == BaseSource::None && u.base.url.is_none() })
    );
    // The ranges index each part's decoded body: exactly the link's text, or for the flowed
    // part the text across the soft break (its space and line break, which `delsp=yes` drops).
    let entity = |part: &str| {
        report
            .entities
            .iter()
            .find(|e| e.part.as_str() == part)
            .unwrap()
    };
    let body = |part: &str| raw[entity(part).body.start..entity(part).body.end].to_vec();
    // The part's quoted-printable holds soft line breaks and `=3D` only (RFC 2045 §6.7).
    let decoded = String::from_utf8(body("1"))
        .unwrap()
        .replace("=\n", "")
        .replace("=3D", "=");
    for url in report.urls.iter().filter(|u| u.part.as_str() == "1") {
        let range = url.source.range().unwrap();
        assert_eq!(&decoded[range.start..range.end], url.reference);
    }
    let flowed = String::from_utf8(body("2")).unwrap();
    let url = report.urls.iter().find(|u| u.part.as_str() == "2").unwrap();
    let range = url.source.range().unwrap();
    assert_eq!(
        flowed[range.start..range.end].replace(" \n", ""),
        url.reference
    );
    // Leaving the text links out leaves the rest as it was.
    let without = analyze(&raw, &Options::new().with_text_links(false));
    assert!(without.urls.iter().all(|u| !u.source.is_text()));
    assert_eq!(
        without.urls.len(),
        report.urls.iter().filter(|u| !u.source.is_text()).count()
    );
}
