//! URLs that name an entity of the same message (`UrlRecord::target`): every matching rule of
//! `mimebase::target` on small messages and on the samples, the JSON field through the CLI,
//! and, over the corpus, every `cid:` URL whose Content-ID exists has a target.

use mimebase::{DiagnosticKind, Options, Profile, Report, TargetMatch, UrlSource, analyze};
use pretty_assertions::assert_eq;

use crate::support::cli::{self, mimebase};
use crate::support::{corpus_messages, percent_decode, root};

/// `(reference, "part by")` of every HTML URL, `-` when it has no target.
fn html_targets(report: &Report) -> Vec<(String, String)> {
    report
        .urls
        .iter()
        .filter(|u| matches!(u.source, UrlSource::Html { .. }))
        .map(|u| {
            let target = u
                .target
                .as_ref()
                .map_or("-".to_owned(), |t| format!("{} {}", t.part, t.by));
            (u.reference.clone(), target)
        })
        .collect()
}

fn pairs(expected: &[(&str, &str)]) -> Vec<(String, String)> {
    expected
        .iter()
        .map(|(a, b)| ((*a).to_owned(), (*b).to_owned()))
        .collect()
}

fn unmatched_cids(report: &Report) -> usize {
    report
        .diagnostics
        .iter()
        .filter(|d| d.kind == DiagnosticKind::UnmatchedCid)
        .count()
}

/// A `multipart/related` message: an HTML root with `html` as its body, then one image part
/// per `(header lines)`.
fn related(html: &str, parts: &[&str]) -> Vec<u8> {
    let mut out = String::from(
        "Content-Type: multipart/related; boundary=r\n\n--r\nContent-Type: text/html\n",
    );
    out.push_str(&format!("\n{html}\n"));
    for headers in parts {
        out.push_str(&format!("--r\nContent-Type: image/png\n{headers}\n\nPNG\n"));
    }
    out.push_str("--r--\n");
    out.into_bytes()
}

#[test]
fn cid_is_percent_decoded_before_comparison() {
    let raw = related(
        r#"<img src="cid:a%20b%40c.example"><img src="cid:a b@c.example">"#,
        &["Content-ID: <a b@c.example>"],
    );
    let report = analyze(&raw, &Options::new());
    assert_eq!(
        html_targets(&report),
        pairs(&[
            ("cid:a%20b%40c.example", "2 cid"),
            ("cid:a b@c.example", "2 cid")
        ])
    );
}

#[test]
fn cid_domain_is_case_insensitive_local_part_is_not() {
    let raw = related(
        r#"<img src="cid:Logo@EXAMPLE.com"><img src="cid:logo@example.com">"#,
        &["Content-ID: <Logo@example.COM>"],
    );
    let report = analyze(&raw, &Options::new());
    assert_eq!(
        html_targets(&report),
        pairs(&[
            ("cid:Logo@EXAMPLE.com", "2 cid"),
            ("cid:logo@example.com", "-")
        ])
    );
    assert_eq!(unmatched_cids(&report), 1);
}

#[test]
fn cid_scheme_is_case_insensitive_brackets_optional_fragment_ignored() {
    let raw = related(
        r##"<img src="CID:one@x"><img src="Cid:two@x#frag">"##,
        &["Content-ID: <one@x> (first image)", "Content-ID: two@x"],
    );
    let report = analyze(&raw, &Options::new());
    assert_eq!(
        html_targets(&report),
        pairs(&[("CID:one@x", "2 cid"), ("Cid:two@x#frag", "3 cid")])
    );
    assert_eq!(unmatched_cids(&report), 0);
}

#[test]
fn cid_naming_nothing_is_a_broken_inline_image() {
    let raw = related(r#"<img src="cid:gone@x">"#, &["Content-ID: <here@x>"]);
    let report = analyze(&raw, &Options::new());
    assert_eq!(html_targets(&report), pairs(&[("cid:gone@x", "-")]));
    let diagnostic = report
        .diagnostics
        .iter()
        .find(|d| d.kind == DiagnosticKind::UnmatchedCid)
        .unwrap();
    assert_eq!(diagnostic.part.as_ref().unwrap().as_str(), "1");
    assert!(diagnostic.message.contains("cid:gone@x"));
}

/// Blink saves a page's subresources as `Content-Location: cid:…@mhtml.blink` without a
/// Content-ID and links them by that URL; RFC 2557 §8.2 lets a URL name a part by its
/// Content-Location whatever the scheme, and Chromium's MHTML loader finds the part so. A
/// Content-ID still comes first.
#[test]
fn cid_url_names_a_part_by_its_content_location_as_blink_saves_them() {
    let raw = related(
        r#"<link rel="stylesheet" href="cid:css-1@mhtml.blink"><img src="cid:foo@bar.net">"#,
        &[
            "Content-Location: cid:css-1@mhtml.blink",
            "Content-Location: CID:foo@bar.net",
            "Content-ID: <foo@bar.net>",
        ],
    );
    let report = analyze(&raw, &Options::new());
    assert_eq!(
        html_targets(&report),
        pairs(&[
            ("cid:css-1@mhtml.blink", "2 content-location"),
            ("cid:foo@bar.net", "4 cid"),
        ])
    );
    assert_eq!(unmatched_cids(&report), 0);
}

#[test]
fn cid_prefers_the_part_in_the_same_message() {
    // A forwarded copy repeats the Content-ID; each HTML part gets its own message's image.
    let raw = b"Content-Type: multipart/mixed; boundary=o\n\n\
--o\nContent-Type: message/rfc822\n\n\
Content-Type: multipart/related; boundary=i\n\n\
--i\nContent-Type: text/html\n\n<img src=\"cid:logo@x\">\n\
--i\nContent-Type: image/png\nContent-ID: <logo@x>\n\nold\n--i--\n\
--o\nContent-Type: text/html\n\n<img src=\"cid:logo@x\">\n\
--o\nContent-Type: image/png\nContent-ID: <logo@x>\n\nnew\n--o--\n";
    let report = analyze(raw, &Options::new());
    assert_eq!(
        html_targets(&report),
        pairs(&[("cid:logo@x", "1.2 cid"), ("cid:logo@x", "3 cid")])
    );
}

#[test]
fn mid_names_a_message_and_a_part_inside_it() {
    let raw = std::fs::read(root().join("samples/mid-reference.eml")).unwrap();
    let report = analyze(&raw, &Options::new());
    assert_eq!(
        html_targets(&report),
        pairs(&[
            ("mid:figures-2024q2@example.net", "2.HEADER mid"),
            (
                "mid:figures-2024q2@example.net/chart%40example.net",
                "2.2 mid"
            ),
            ("mid:fwd-7@example.org", "HEADER mid"),
            ("mid:older-1@example.net", "-"),
            ("cid:chart@example.net", "2.2 cid"),
        ])
    );
    // A mid: URL naming another message is ordinary, not a broken image.
    assert_eq!(unmatched_cids(&report), 0);
}

#[test]
fn mid_content_id_must_be_inside_that_message() {
    let raw = b"Message-ID: <root@x>\nContent-Type: multipart/mixed; boundary=o\n\n\
--o\nContent-Type: text/html\n\n<a href=\"mid:inner@x/img@x\">a</a><a href=\"mid:root@x/img@x\">b</a>\n\
--o\nContent-Type: image/png\nContent-ID: <img@x>\n\npng\n\
--o\nContent-Type: message/rfc822\n\nMessage-ID: <inner@x>\n\nno parts\n--o--\n";
    let report = analyze(raw, &Options::new());
    assert_eq!(
        html_targets(&report),
        pairs(&[("mid:inner@x/img@x", "-"), ("mid:root@x/img@x", "2 mid")])
    );
}

#[test]
fn content_location_ignores_scheme_and_host_case() {
    let raw = related(
        r#"<img src="HTTP://WWW.Example.COM/a.png"><img src="http://www.example.com/B.png">"#,
        &[
            "Content-Location: http://www.example.com/a.png",
            "Content-Location: http://WWW.EXAMPLE.COM/b.png",
        ],
    );
    let report = analyze(&raw, &Options::new());
    // Path case matters (RFC 3986 §6.2.2.1): B.png is not b.png.
    assert_eq!(
        html_targets(&report),
        pairs(&[
            ("HTTP://WWW.Example.COM/a.png", "2 content-location"),
            ("http://www.example.com/B.png", "-")
        ])
    );
}

#[test]
fn content_location_unifies_percent_encoding() {
    let raw = related(
        r#"<img src="http://e.example/caf%c3%a9.png"><img src="http://e.example/%7Eu.png"><img src="http://e.example/a%2fb.png"><img src="http://e.example/a/b.png">"#,
        &[
            "Content-Location: http://e.example/caf%C3%A9.png",
            "Content-Location: http://e.example/~u.png",
            "Content-Location: http://e.example/a%2Fb.png",
        ],
    );
    let report = analyze(&raw, &Options::new());
    // %2F is reserved: a%2Fb.png is one segment, a/b.png two, so they differ.
    assert_eq!(
        html_targets(&report),
        pairs(&[
            ("http://e.example/caf%c3%a9.png", "2 content-location"),
            ("http://e.example/%7Eu.png", "3 content-location"),
            ("http://e.example/a%2fb.png", "4 content-location"),
            ("http://e.example/a/b.png", "-"),
        ])
    );
}

#[test]
fn content_location_ignores_fragment_default_port_and_dot_segments() {
    let raw = related(
        r##"<img src="http://e.example:80/x/../a.png#part"><a href="http://e.example/a.png?q">q</a>"##,
        &["Content-Location: http://e.example/a.png"],
    );
    let report = analyze(&raw, &Options::new());
    assert_eq!(
        html_targets(&report),
        pairs(&[
            ("http://e.example:80/x/../a.png#part", "2 content-location"),
            ("http://e.example/a.png?q", "-")
        ])
    );
}

#[test]
fn content_location_is_compared_after_resolution() {
    // Relative references and relative Content-Locations, both resolved against the
    // aggregate's base (RFC 2557 §8.2 (c)).
    let raw = b"Content-Type: multipart/related; boundary=r\nContent-Location: http://e.example/dir/\n\n\
--r\nContent-Type: text/html\nContent-Location: page.html\n\n<img src=\"img/a.png\"><img src=\"/dir/img/a.png\"><img src=\"../img/a.png\">\n\
--r\nContent-Type: image/png\nContent-Location: http://e.example/dir/img/a.png\n\npng\n--r--\n";
    let report = analyze(raw, &Options::new());
    assert_eq!(
        html_targets(&report),
        pairs(&[
            ("img/a.png", "2 content-location"),
            ("/dir/img/a.png", "2 content-location"),
            ("../img/a.png", "-")
        ])
    );
}

#[test]
fn content_location_with_thismessage_in_the_mhtml_profile() {
    // No absolute location anywhere: with the mhtml profile both sides resolve against
    // thismessage:/ (RFC 2557 §5 (e)) and match; without it they stay unresolved.
    let raw = related(
        r#"<img src="images/a.png"><img src="images/other.png">"#,
        &["Content-Location: images/a.png"],
    );
    let mhtml = analyze(&raw, &Options::new().with_profile(Profile::Mhtml));
    assert_eq!(
        html_targets(&mhtml),
        pairs(&[
            ("images/a.png", "2 content-location"),
            ("images/other.png", "-")
        ])
    );
    let default = analyze(&raw, &Options::new());
    assert_eq!(
        html_targets(&default),
        pairs(&[("images/a.png", "-"), ("images/other.png", "-")])
    );
}

#[test]
fn content_location_reaches_enclosing_aggregates_not_nested_ones() {
    let raw = std::fs::read(root().join("samples/mhtml-saved-page.eml")).unwrap();
    let report = analyze(&raw, &Options::new());
    assert_eq!(
        html_targets(&report),
        pairs(&[
            ("cid:css-1@mhtml.blink", "2 cid"),
            ("style/site.css", "3 content-location"),
            (
                "https://SHOP.Example.COM/catalog/img/a.png",
                "4 content-location"
            ),
            (
                "HTTPS://shop.example.com:443/catalog/img/./b.png",
                "5 content-location"
            ),
            ("img/caf%c3%a9.png", "6 content-location"),
            ("img/%7Euser.png", "7 content-location"),
            ("/catalog/img/a.png#top", "4 content-location"),
            ("cid:frame-1%40mhtml.blink", "8 cid"),
            // RFC 2557 §9.6: a part of the nested aggregate is not reachable from outside.
            ("https://shop.example.com/catalog/frame/inner.png", "-"),
            ("cid:missing@mhtml.blink", "-"),
            ("https://shop.example.com/catalog/next.html", "-"),
            // Inside the nested aggregate: its own parts, then the enclosing one's.
            ("inner.png", "8.2 content-location"),
            ("../img/a.png", "4 content-location"),
            ("../index.html", "1 content-location"),
        ])
    );
    assert_eq!(unmatched_cids(&report), 1);
}

#[test]
fn content_location_needs_a_multipart_related() {
    let raw = b"Content-Type: multipart/mixed; boundary=m\n\n\
--m\nContent-Type: text/html\n\n<img src=\"http://e.example/a.png\">\n\
--m\nContent-Type: image/png\nContent-Location: http://e.example/a.png\n\npng\n--m--\n";
    let report = analyze(raw, &Options::new());
    assert_eq!(
        html_targets(&report),
        pairs(&[("http://e.example/a.png", "-")])
    );
}

#[test]
fn content_location_does_not_leave_an_encapsulated_message() {
    // The HTML inside the forwarded message does not reach the outer aggregate's parts.
    let raw = b"Content-Type: multipart/related; boundary=r\n\n\
--r\nContent-Type: message/rfc822\n\nContent-Type: text/html\n\n<img src=\"http://e.example/a.png\">\n\
--r\nContent-Type: image/png\nContent-Location: http://e.example/a.png\n\npng\n--r--\n";
    let report = analyze(raw, &Options::new());
    assert_eq!(
        html_targets(&report),
        pairs(&[("http://e.example/a.png", "-")])
    );
}

#[test]
fn base_fields_have_no_target() {
    let raw = std::fs::read(root().join("samples/mhtml-page.eml")).unwrap();
    let report = analyze(&raw, &Options::new());
    for url in &report.urls {
        if let UrlSource::Header { name, .. } = url.source {
            assert!(url.target.is_none(), "{name} {}", url.reference);
        }
    }
    assert_eq!(
        html_targets(&report),
        pairs(&[
            ("css/site.css", "2 content-location"),
            ("images/logo.png", "3 content-location"),
            ("install.html", "-"),
            ("../blog/", "-"),
        ])
    );
}

#[test]
fn html_mail_inline_images_sample() {
    let raw = std::fs::read(root().join("samples/html-mail-inline-images.eml")).unwrap();
    let report = analyze(&raw, &Options::new());
    assert_eq!(
        html_targets(&report),
        pairs(&[
            ("cid:logo.png@01DA0000.5A5A5A5A", "1.2 cid"),
            ("cid:banner@Example.COM", "1.3 cid"),
            ("cid:BANNER@example.com", "-"),
            ("cid:%3Cnot-an-id%3E", "-"),
            ("https://tracker.example.net/open.gif?u=42", "-"),
        ])
    );
    assert_eq!(unmatched_cids(&report), 2);
}

fn json_lines(args: &[&str]) -> Vec<serde_json::Value> {
    let output = mimebase(args, b"");
    assert!(output.status.success(), "{output:?}");
    cli::json_lines(&output)
}

#[test]
fn urls_json_carries_target_and_omits_it_when_none() {
    let sample = root().join("samples/html-mail-inline-images.eml");
    let lines = json_lines(&["urls", "--json", sample.to_str().unwrap()]);
    let logo = lines
        .iter()
        .find(|l| l["reference"] == "cid:logo.png@01DA0000.5A5A5A5A")
        .unwrap();
    assert_eq!(
        logo["target"],
        serde_json::json!({"part": "1.2", "by": "cid"})
    );
    let tracker = lines
        .iter()
        .find(|l| l["reference"] == "https://tracker.example.net/open.gif?u=42")
        .unwrap();
    assert!(tracker.get("target").is_none(), "{tracker}");
}

#[test]
fn inspect_and_scan_carry_target() {
    let sample = root().join("samples/mhtml-page.eml");
    let text = cli::stdout(&mimebase(&["inspect", sample.to_str().unwrap()], b""));
    assert!(
        text.contains(
            "html:img@src  images/logo.png  ->  http://www.example.com/docs/images/logo.png  (base-decided)  -> part 3 (content-location)"
        ),
        "{text}"
    );
    let lines = json_lines(&["scan", sample.to_str().unwrap()]);
    assert_eq!(lines.len(), 1);
    let targets: Vec<&serde_json::Value> = lines[0]["urls"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|u| u.get("target"))
        .collect();
    assert_eq!(
        targets,
        [
            &serde_json::json!({"part": "2", "by": "content-location"}),
            &serde_json::json!({"part": "3", "by": "content-location"})
        ]
    );
}

/// Every `Content-ID` field value of the message found by reading its lines, without the MIME
/// walk (an independent oracle; base64-encoded `message/rfc822` bodies are not looked into,
/// which can only make the oracle miss an identifier, never invent one).
fn content_ids(raw: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(raw);
    let mut ids = Vec::new();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let Some(name) = line.get(..11) else { continue };
        if !name.eq_ignore_ascii_case("content-id:") {
            continue;
        }
        let mut value = line[11..].to_owned();
        while let Some(next) = lines.peek() {
            if next.starts_with([' ', '\t']) {
                value.push_str(next);
                lines.next();
            } else {
                break;
            }
        }
        let value = value.trim();
        let id = value
            .strip_prefix('<')
            .and_then(|v| v.split_once('>'))
            .map_or(value, |(inside, _)| inside);
        ids.push(id.to_owned());
    }
    ids
}

#[test]
fn corpus_every_cid_with_an_existing_content_id_has_a_target() {
    let Some(messages) = corpus_messages() else {
        return;
    };
    let mut by_kind = std::collections::BTreeMap::<String, usize>::new();
    let (mut cids, mut cids_checked, mut cids_without) = (0, 0, 0);
    for path in messages {
        let raw = std::fs::read(&path).unwrap();
        let ids = content_ids(&raw);
        let report = analyze(&raw, &Options::new());
        for url in &report.urls {
            if let Some(target) = &url.target {
                *by_kind.entry(target.by.to_string()).or_default() += 1;
                assert!(
                    report.entities.iter().any(|e| e.part == target.part),
                    "{}: {} names no entity",
                    path.display(),
                    url.reference
                );
            }
            let Some(rest) = url
                .reference
                .get(..4)
                .filter(|s| s.eq_ignore_ascii_case("cid:"))
                .map(|_| &url.reference[4..])
            else {
                continue;
            };
            cids += 1;
            let decoded = percent_decode(rest);
            if ids.contains(&decoded) {
                cids_checked += 1;
                let target = url.target.as_ref().unwrap_or_else(|| {
                    panic!("{}: {} has no target", path.display(), url.reference)
                });
                assert_eq!(target.by, TargetMatch::Cid);
            }
            if url.target.is_none() {
                cids_without += 1;
            }
        }
    }
    eprintln!(
        "corpus targets by kind: {by_kind:?}; cid: URLs {cids}, with an existing Content-ID \
         {cids_checked}, without a target {cids_without}"
    );
    assert!(cids_checked > 0);
    // The corpus has inline images named by cid: (Outlook and Apple Mail messages) and MHTML
    // files whose frames and images are named by Content-Location.
    assert!(by_kind.get("cid").copied().unwrap_or(0) > 0);
    assert!(by_kind.get("content-location").copied().unwrap_or(0) > 0);
}

#[test]
fn target_reads_back_from_json() {
    let raw = std::fs::read(root().join("samples/mhtml-saved-page.eml")).unwrap();
    let report = analyze(&raw, &Options::new());
    let json = serde_json::to_string(&report).unwrap();
    let back: Report = serde_json::from_str(&json).unwrap();
    assert_eq!(back, report);
    assert_eq!(back.urls.iter().filter(|u| u.target.is_some()).count(), 11);
}
