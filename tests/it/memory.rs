//! Memory bounded by the message: the per-message limit on URL records
//! (`Options::with_max_urls`) and what still works past it.

use mimebase::{BaseSource, DiagnosticKind, Options, analyze, rewrite};
use pretty_assertions::assert_eq;

/// A multipart message: an HTML part with `links` relative links and a `<base href>` after
/// them, then a second HTML part with one link, and a `List-Help` header on the root.
fn message(links: usize) -> Vec<u8> {
    let mut html = String::new();
    for n in 0..links {
        html.push_str(&format!("<a href=\"p{n}.html\">x</a>\n"));
    }
    html.push_str("<base href=\"http://late.example/base/\">\n");
    format!(
        "List-Help: <http://list.example/help>\n\
         Content-Base: http://example.com/dir/\n\
         Content-Type: multipart/mixed; boundary=b\n\n\
         --b\nContent-Type: text/html\n\n{html}\n\
         --b\nContent-Type: text/html\nContent-Location: second.html\n\n<a href=\"s.html\">s</a>\n\
         --b--\n"
    )
    .into_bytes()
}

#[test]
fn the_default_limit_is_documented_and_far_above_real_mail() {
    assert_eq!(Options::new().max_urls(), 100_000);
}

#[test]
fn under_the_limit_nothing_is_left_out() {
    let raw = message(10);
    let report = analyze(&raw, &Options::new().with_max_urls(15));
    // List-Help, Content-Base, 10 links, <base href>, Content-Location, s.html.
    assert_eq!(report.urls.len(), 15);
    assert!(
        report
            .diagnostics
            .iter()
            .all(|d| d.kind != DiagnosticKind::UrlLimit)
    );
}

#[test]
fn past_the_limit_urls_stop_and_everything_else_goes_on() {
    let raw = message(10);
    let full = analyze(&raw, &Options::new());
    let report = analyze(&raw, &Options::new().with_max_urls(5));
    // The first five records, in the order of the full report.
    assert_eq!(report.urls, full.urls[..5]);
    // Every entity and its bases are still there, the late <base href> included.
    assert_eq!(report.entities, full.entities);
    let first_html = &report.entities[1];
    assert_eq!(first_html.base.source, BaseSource::HtmlBase);
    assert_eq!(
        first_html.base.url.as_deref(),
        Some("http://late.example/base/")
    );
    // One diagnostic per entity that lost URLs, with how many.
    let limits: Vec<(&str, &str)> = report
        .diagnostics
        .iter()
        .filter(|d| d.kind == DiagnosticKind::UrlLimit)
        .map(|d| (d.part.as_ref().unwrap().as_str(), d.message.as_str()))
        .collect();
    assert_eq!(
        limits,
        [
            (
                "1",
                "8 URLs of the body are not recorded: the message has more than 5 URLs (--max-urls raises the limit)"
            ),
            (
                "2",
                "1 URL of the header is not recorded: the message has more than 5 URLs (--max-urls raises the limit)"
            ),
            (
                "2",
                "1 URL of the body is not recorded: the message has more than 5 URLs (--max-urls raises the limit)"
            ),
        ]
    );
}

#[test]
fn a_limit_of_zero_records_no_url_but_still_every_base() {
    let raw = message(3);
    let full = analyze(&raw, &Options::new());
    let report = analyze(&raw, &Options::new().with_max_urls(0));
    assert!(report.urls.is_empty());
    assert_eq!(report.entities, full.entities);
}

#[test]
fn rewrite_leaves_a_part_cut_off_by_the_limit_unchanged() {
    let raw = message(10);
    // Without the limit both HTML parts change.
    let full = rewrite(&raw, &Options::new());
    assert_eq!(full.changed.len(), 2);
    // With it, the first part lost URLs and the second all of its own: neither is touched,
    // and each says why.
    let rewritten = rewrite(&raw, &Options::new().with_max_urls(5));
    assert_eq!(rewritten.message, raw);
    assert!(rewritten.changed.is_empty());
    let skipped: Vec<&str> = rewritten
        .report
        .diagnostics
        .iter()
        .filter(|d| d.kind == DiagnosticKind::RewriteSkipped)
        .map(|d| d.part.as_ref().unwrap().as_str())
        .collect();
    assert_eq!(skipped, ["1", "2"]);
    // A limit that cuts only into the second part: the first is rewritten, the second is
    // left byte for byte.
    let rewritten = rewrite(&raw, &Options::new().with_max_urls(13));
    assert_eq!(
        rewritten
            .changed
            .iter()
            .map(|p| p.as_str())
            .collect::<Vec<_>>(),
        ["1"]
    );
    let text = String::from_utf8(rewritten.message).unwrap();
    assert!(text.contains("<a href=\"http://late.example/base/p9.html\">"));
    assert!(text.ends_with("Content-Location: second.html\n\n<a href=\"s.html\">s</a>\n--b--\n"));
}

/// A streamed record is complete when it is handed over: a URL naming a later part, by its
/// `Content-Location` or its `Content-ID`, already carries its target, and the entities come
/// back without the URLs.
#[test]
fn streamed_records_name_later_parts() {
    let raw = b"Content-Type: multipart/related; boundary=r\n\n\
--r\nContent-Type: text/html\nContent-Location: http://example.com/page.html\n\n\
<img src=\"logo.png\"><img src=\"cid:pic@x\">\n\
--r\nContent-Type: image/png\nContent-Location: http://example.com/logo.png\n\nPNG\n\
--r\nContent-Type: image/png\nContent-ID: <pic@x>\n\nPNG\n--r--\n";
    let mut targets = Vec::new();
    let report = mimebase::analyze_streaming(raw, &Options::new(), |url| {
        if url.part.as_str() == "1" && !url.source.to_string().starts_with("header:") {
            let target = url.target.as_ref().unwrap();
            targets.push((
                url.reference.clone(),
                target.part.to_string(),
                target.by.as_str(),
            ));
        }
    });
    assert_eq!(
        targets,
        [
            ("logo.png".to_owned(), "2".to_owned(), "content-location"),
            ("cid:pic@x".to_owned(), "3".to_owned(), "cid"),
        ]
    );
    assert!(report.urls.is_empty());
    assert_eq!(report.entities.len(), 4);
}

/// What one record holds of its own: records of an entity share its part identifier and
/// base (no copy of either per URL), and the element and attribute names are static.
#[test]
fn records_of_an_entity_share_part_and_base() {
    use std::borrow::Cow;

    let raw = message(3);
    let report = analyze(&raw, &Options::new());
    let html: Vec<_> = report
        .urls
        .iter()
        .filter(|u| u.part.as_str() == "1" && matches!(u.source, mimebase::UrlSource::Html { .. }))
        .collect();
    assert_eq!(html.len(), 4);
    for url in &html[1..] {
        assert_eq!(url.part.as_str().as_ptr(), html[0].part.as_str().as_ptr());
    }
    // The three links share the content base; the <base href> resolves against the
    // header-level base.
    assert!(std::sync::Arc::ptr_eq(&html[0].base, &html[1].base));
    assert!(std::sync::Arc::ptr_eq(&html[0].base, &html[2].base));
    assert!(!std::sync::Arc::ptr_eq(&html[0].base, &html[3].base));
    for url in &html {
        let mimebase::UrlSource::Html { tag, .. } = &url.source else {
            unreachable!()
        };
        assert!(matches!(tag, Cow::Borrowed(_)), "{tag}");
    }
    // 184 bytes on a 64-bit target (256 before the names and the base were shared).
    assert!(std::mem::size_of::<mimebase::UrlRecord>() <= 184);
}

#[test]
fn extract_leaves_a_part_that_lost_urls_unchanged_and_says_so() {
    // The cid: link to the image is the third URL of the page; with a limit of 2 it is not
    // recorded, and no recorded URL of the page names another part.
    let html = "<a href=\"a.html\">a</a><a href=\"b.html\">b</a><img src=\"cid:img1@x\">";
    let raw = format!(
        "Content-Type: multipart/related; boundary=b\n\n\
         --b\nContent-Type: text/html\n\n{html}\n\
         --b\nContent-Type: image/gif\nContent-ID: <img1@x>\n\nGIF89a\n\
         --b--\n"
    );
    let all = mimebase::extract(raw.as_bytes(), &Options::new());
    let page = all
        .files
        .iter()
        .find(|f| f.content_type == "text/html")
        .unwrap();
    // The cid: link points at the image's file; the two links, relative without a base,
    // are made inert (they would reach files beside the page).
    assert_eq!(page.rewritten_urls, 3);
    assert!(
        String::from_utf8_lossy(&page.bytes).contains("<img src=\"part-2.gif\">"),
        "the cid: link points at the image's file"
    );

    let cut = mimebase::extract::extract_with(
        raw.as_bytes(),
        &Options::new().with_max_urls(2),
        mimebase::extract::Network::Online,
    );
    let page = cut
        .files
        .iter()
        .find(|f| f.content_type == "text/html")
        .unwrap();
    assert_eq!(page.rewritten_urls, 0);
    assert_eq!(page.bytes, html.as_bytes());
    // Offline, its URLs are as they were too, and the policy is inserted all the same.
    let offline = mimebase::extract(raw.as_bytes(), &Options::new().with_max_urls(2));
    let page = offline
        .files
        .iter()
        .find(|f| f.content_type == "text/html")
        .unwrap();
    assert_eq!(page.rewritten_urls, 0);
    assert_eq!(
        String::from_utf8_lossy(&page.bytes),
        format!(
            "<meta http-equiv=\"Content-Security-Policy\" content=\"{}\">{html}",
            mimebase::extract::POLICY
        )
    );
    assert!(page.csp);
    let kinds: Vec<_> = cut
        .report
        .diagnostics
        .iter()
        .filter(|d| d.part.as_ref().map(|p| p.as_str()) == Some("1"))
        .map(|d| d.kind)
        .collect();
    assert_eq!(
        kinds,
        [DiagnosticKind::UrlLimit, DiagnosticKind::RewriteSkipped]
    );
}
