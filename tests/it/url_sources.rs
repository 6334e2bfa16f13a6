//! One test per URL source (`UrlSource`), through the public `analyze`.

use mimebase::{Options, Report, UrlSource, analyze};
use pretty_assertions::assert_eq;

fn run(message: &str) -> Report {
    analyze(message.as_bytes(), &Options::new())
}

/// (source, reference, resolved) of every URL.
fn urls(report: &Report) -> Vec<(String, &str, Option<&str>)> {
    report
        .urls
        .iter()
        .map(|u| {
            (
                u.source.to_string(),
                u.reference.as_str(),
                u.resolution.resolved(),
            )
        })
        .collect()
}

fn html(body: &str) -> Report {
    run(&format!(
        "Base: http://b/d/\nContent-Type: text/html\n\n{body}"
    ))
}

/// The HTML sources only (the Base field's own record dropped).
fn html_urls(report: &Report) -> Vec<(String, &str, Option<&str>)> {
    urls(report)
        .into_iter()
        .filter(|u| u.0.starts_with("html:"))
        .collect()
}

#[test]
fn header_base_fields() {
    let report = run(
        "Content-Type: multipart/mixed; boundary=b\nBase: http://b/\n\n--b\nContent-Base: cb/\nContent-Location: cl.html\n\nx\n--b--\n",
    );
    assert_eq!(
        urls(&report),
        [
            ("header:Base".to_owned(), "http://b/", Some("http://b/")),
            (
                "header:Content-Base".to_owned(),
                "cb/",
                Some("http://b/cb/")
            ),
            (
                "header:Content-Location".to_owned(),
                "cl.html",
                Some("http://b/cl.html")
            ),
        ]
    );
}

#[test]
fn rfc2369_list_fields_and_archived_at() {
    let report = run("Base: http://l/x/\n\
         List-Archive: <arch/>\nList-Help: <help>\nList-Owner: <mailto:o@l>\nList-Post: <post>, NO\n\
         List-Subscribe: <sub>\nList-Unsubscribe: <unsub>\nArchived-At: <http://a/1>\n\nx");
    let found: Vec<_> = urls(&report).into_iter().skip(1).collect();
    assert_eq!(
        found,
        [
            (
                "header:List-Archive".to_owned(),
                "arch/",
                Some("http://l/x/arch/")
            ),
            (
                "header:List-Help".to_owned(),
                "help",
                Some("http://l/x/help")
            ),
            (
                "header:List-Owner".to_owned(),
                "mailto:o@l",
                Some("mailto:o@l")
            ),
            (
                "header:List-Post".to_owned(),
                "post",
                Some("http://l/x/post")
            ),
            (
                "header:List-Subscribe".to_owned(),
                "sub",
                Some("http://l/x/sub")
            ),
            (
                "header:List-Unsubscribe".to_owned(),
                "unsub",
                Some("http://l/x/unsub")
            ),
            (
                "header:Archived-At".to_owned(),
                "http://a/1",
                Some("http://a/1")
            ),
        ]
    );
}

#[test]
fn external_body_url_parameter() {
    let report = run(
        "Base: http://b/\nContent-Type: message/external-body; access-type=URL;\n URL=\"files/big\n .tar\"\n\nContent-Type: application/x-tar\n\n",
    );
    assert_eq!(
        urls(&report)[1],
        (
            "header:Content-Type".to_owned(),
            "files/big.tar",
            Some("http://b/files/big.tar")
        )
    );
    let other =
        run("Content-Type: message/external-body; access-type=anon-ftp; site=x; name=y\n\n");
    assert!(other.urls.is_empty());
}

#[test]
fn encoded_word_content_location() {
    let report = run("Content-Location: =?us-ascii?Q?http://x/a=5Fb/?=\n\nx");
    assert_eq!(
        report.entities[0].base.url.as_deref(),
        Some("http://x/a_b/")
    );
}

/// Every (element, attribute) pair that holds a URL is reported.
#[test]
fn every_listed_url_attribute() {
    let pairs = [
        ("a", "href"),
        ("area", "href"),
        ("link", "href"),
        ("img", "src"),
        ("script", "src"),
        ("iframe", "src"),
        ("frame", "src"),
        ("embed", "src"),
        ("input", "src"),
        ("source", "src"),
        ("track", "src"),
        ("audio", "src"),
        ("video", "src"),
        ("form", "action"),
        ("button", "formaction"),
        ("input", "formaction"),
        ("blockquote", "cite"),
        ("q", "cite"),
        ("del", "cite"),
        ("ins", "cite"),
        ("body", "background"),
        ("table", "background"),
        ("td", "background"),
        ("th", "background"),
        ("img", "longdesc"),
        ("img", "usemap"),
        ("object", "data"),
        ("object", "codebase"),
        ("video", "poster"),
        ("html", "manifest"),
        ("head", "profile"),
    ];
    for (tag, attribute) in pairs {
        let report = html(&format!("<{tag} {attribute}=\"u\">"));
        assert_eq!(
            html_urls(&report),
            [(format!("html:{tag}@{attribute}"), "u", Some("http://b/d/u"))],
            "<{tag} {attribute}>"
        );
    }
    // Not URL attributes.
    assert!(html_urls(&html("<p title=\"u\"><a name=\"u\"><img alt=\"u\">")).is_empty());
}

#[test]
fn srcset_each_candidate() {
    let report =
        html(r#"<img srcset="a.png 1x, /b.png 2x"><picture><source srcset="c.webp"></picture>"#);
    assert_eq!(
        html_urls(&report),
        [
            (
                "html:img@srcset".to_owned(),
                "a.png",
                Some("http://b/d/a.png")
            ),
            (
                "html:img@srcset".to_owned(),
                "/b.png",
                Some("http://b/b.png")
            ),
            (
                "html:source@srcset".to_owned(),
                "c.webp",
                Some("http://b/d/c.webp")
            ),
        ]
    );
}

#[test]
fn meta_refresh() {
    let report = html(r#"<meta http-equiv="refresh" content="0; URL='next.html'">"#);
    assert_eq!(
        html_urls(&report),
        [(
            "html:meta@content".to_owned(),
            "next.html",
            Some("http://b/d/next.html")
        )]
    );
}

#[test]
fn css_in_style_attribute_and_style_element() {
    let report = html(
        r#"<style>@media screen { body { background: url(bg.png) } }</style><td style="background-image:url('c.gif')">"#,
    );
    assert_eq!(
        html_urls(&report),
        [
            ("html:style".to_owned(), "bg.png", Some("http://b/d/bg.png")),
            (
                "html:td@style".to_owned(),
                "c.gif",
                Some("http://b/d/c.gif")
            ),
        ]
    );
}

#[test]
fn noscript_links_count() {
    let report = html(r#"<noscript><a href="hidden">x</a><img src="pixel.gif"></noscript>"#);
    assert_eq!(
        html_urls(&report),
        [
            (
                "html:a@href".to_owned(),
                "hidden",
                Some("http://b/d/hidden")
            ),
            (
                "html:img@src".to_owned(),
                "pixel.gif",
                Some("http://b/d/pixel.gif")
            ),
        ]
    );
}

#[test]
fn base_only_first_in_html_namespace_outside_template() {
    let report = html(
        r#"<template><base href="http://t/"></template><svg><base href="http://s/"/></svg><a href="g"></a><base href="http://real/">"#,
    );
    assert_eq!(report.entities[0].base.url.as_deref(), Some("http://real/"));
}

#[test]
fn duplicate_attribute_first_counts() {
    assert_eq!(html_urls(&html(r#"<a href="one" href="two">"#))[0].1, "one");
}

#[test]
fn entity_decoded_values_and_ranges_in_the_decoded_body() {
    // base64 body: the range indexes the decoded HTML, not the raw message.
    let decoded = r#"<a href=" x?a=1&amp;b=2 ">"#;
    let encoded = "PGEgaHJlZj0iIHg/YT0xJmFtcDtiPTIgIj4=";
    let report = run(&format!(
        "Base: http://b/\nContent-Type: text/html\nContent-Transfer-Encoding: base64\n\n{encoded}\n"
    ));
    let url = report.urls.last().unwrap();
    assert_eq!(url.reference, "x?a=1&b=2");
    let UrlSource::Html { range, .. } = &url.source else {
        panic!("{url:?}")
    };
    assert_eq!(&decoded[range.start..range.end], " x?a=1&amp;b=2 ");
    let plain = html(r#"<img src="  p.png ">"#);
    let UrlSource::Html { range, .. } = &plain.urls[1].source else {
        panic!()
    };
    assert_eq!((range.start, range.end), (12, 17));
}

#[test]
fn quoted_printable_and_charset_decoding() {
    let report = run(
        "Base: http://b/\nContent-Type: text/html; charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\n<a href=3D\"caf=E9.html\">\n",
    );
    assert_eq!(report.urls[1].reference, "café.html");
}
