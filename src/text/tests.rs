//! The table of Thunderbird's plain-text links (`tests/data/text-links.json`), and the
//! pieces put together: flowed and enriched bodies through [`find_links`] and back.

use std::ops::Range;

use serde::Deserialize;

use super::{Completeness, Delimiter, LinkKind, TextLink, enriched, find_links, flowed};

#[derive(Deserialize)]
struct Table {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    rule: String,
    input: String,
    links: Vec<Expected>,
    #[serde(default)]
    source: Option<String>,
}

#[derive(Deserialize)]
struct Expected {
    at: usize,
    text: String,
    href: String,
    kind: String,
    delimiter: String,
}

fn kind_name(kind: LinkKind) -> &'static str {
    match kind {
        LinkKind::Absolute => "absolute",
        LinkKind::Www => "www",
        LinkKind::Email => "email",
    }
}

fn delimiter_name(delimiter: Delimiter) -> &'static str {
    match delimiter {
        Delimiter::None => "none",
        Delimiter::Rfc1738 => "rfc1738",
        Delimiter::AngleBrackets => "angle",
        Delimiter::Quotes => "quotes",
    }
}

fn links(text: &str) -> Vec<TextLink> {
    let mut found = Vec::new();
    assert_eq!(
        find_links(text, |link| found.push(link)),
        Completeness::Complete
    );
    found
}

/// `(range, href, kind, delimiter)` of each link, for comparing.
type Row = (Range<usize>, String, &'static str, &'static str);

#[test]
fn thunderbird_table() {
    let table: Table =
        serde_json::from_str(include_str!("../../tests/data/text-links.json")).unwrap();
    assert!(
        table.cases.len() >= 60,
        "the table has {} cases",
        table.cases.len()
    );
    let mut failures = Vec::new();
    for case in &table.cases {
        let expected: Vec<Row> = case
            .links
            .iter()
            .map(|e| {
                let range = e.at..e.at + e.text.len();
                assert_eq!(
                    case.input.get(range.clone()),
                    Some(e.text.as_str()),
                    "bad case data"
                );
                let kind = ["absolute", "www", "email"]
                    .into_iter()
                    .find(|k| *k == e.kind)
                    .unwrap();
                let delimiter = ["none", "rfc1738", "angle", "quotes"]
                    .into_iter()
                    .find(|d| *d == e.delimiter)
                    .unwrap();
                (range, e.href.clone(), kind, delimiter)
            })
            .collect();
        // Every case also as a quoted line and as the middle line of three, where it must
        // give the same links, moved.
        for (prefix, suffix) in [("", ""), ("> ", ""), ("first line\r\n", "\r\nlast line")] {
            let input = format!("{prefix}{}{suffix}", case.input);
            let shift = prefix.len();
            let actual: Vec<Row> = links(&input)
                .into_iter()
                .map(|l| {
                    (
                        l.range.start - shift..l.range.end - shift,
                        l.href,
                        kind_name(l.kind),
                        delimiter_name(l.delimiter),
                    )
                })
                .collect();
            if actual != expected {
                failures.push(format!(
                    "{:?} ({}{})\n  expected {expected:?}\n  actual   {actual:?}",
                    input,
                    case.rule,
                    case.source
                        .as_deref()
                        .map(|s| format!("; from {s}"))
                        .unwrap_or_default()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_url_split_by_a_flowed_soft_break_is_one_link_in_the_body() {
    // RFC 3676 with delsp=yes: the sender broke the URL and marked the break with a space.
    let body = "Read https://example.com/a/very/long/ \r\npath/page.html today.\r\n";
    let shown = flowed::unflow(body, true);
    let found = links(&shown.text);
    assert_eq!(found.len(), 1);
    assert_eq!(
        found[0].href,
        "https://example.com/a/very/long/path/page.html"
    );
    let source = shown.map.source_range(found[0].range.clone());
    assert_eq!(
        &body[source],
        "https://example.com/a/very/long/ \r\npath/page.html"
    );
}

#[test]
fn a_quoted_flowed_paragraph_is_one_line() {
    let body = "> see www.example.com/a/ \r\n> b/c now\r\n";
    let shown = flowed::unflow(body, true);
    assert_eq!(shown.text, "> see www.example.com/a/b/c now\r\n");
    let found = links(&shown.text);
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].href, "http://www.example.com/a/b/c");
    let source = shown.map.source_range(found[0].range.clone());
    assert_eq!(&body[source], "www.example.com/a/ \r\n> b/c");
}

#[test]
fn links_in_enriched_text_are_found_in_what_is_shown() {
    let body =
        "<bold>Go to</bold> <italic>https://example.com/x</italic>\r\nor <<mail> joe@example.com";
    let shown = enriched::visible_text(body);
    assert_eq!(
        shown.text,
        "Go to https://example.com/x or <mail> joe@example.com"
    );
    let found = links(&shown.text);
    let in_body: Vec<&str> = found
        .iter()
        .map(|l| &body[shown.map.source_range(l.range.clone())])
        .collect();
    assert_eq!(in_body, ["https://example.com/x", "joe@example.com"]);
}

#[test]
fn pathological_lines_stay_linear_and_report_their_limit() {
    // Every colon starts a candidate that runs to the end of the line; Gecko's searches are
    // quadratic here. The scheme is not linked, so nothing is built.
    let line = "a:".repeat(200_000);
    assert!(links(&line).is_empty());
    // Linked scheme, but no candidate parses: each is built and parsed, until the budget.
    let line = "http:x(".repeat(100_000);
    let mut count = 0;
    let completeness = find_links(&line, |_| count += 1);
    assert_eq!(count, 0);
    assert_eq!(completeness, Completeness::WorkLimitReached);
    // Many italic openers and no closing slash: each looks ahead for one.
    let line = " /a".repeat(200_000) + " http://example.com/x";
    assert_eq!(links(&line).len(), 1);
    // With one at the end, the openers within 2000 code units of it open a phrase.
    let line = " /a".repeat(200_000) + " http://example.com/";
    assert!(links(&line).is_empty());
}

#[test]
fn a_mailto_url_with_a_host_must_parse() {
    // `mailto://` makes the URL parser read a host and port, and a port that is no number
    // fails (a case the fuzz target found): the colon gives no link. The `@` then finds the
    // same text as an address, and `mailto:mailto://…` does parse.
    let found = links("see mailto://joe@example.com:joe now");
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].kind, LinkKind::Email);
    assert_eq!(found[0].href, "mailto:mailto://joe@example.com:joe");
    let found = links("see mailto://joe@example.com now");
    assert_eq!(found[0].kind, LinkKind::Absolute);
}
