//! The `whatwg` resolver (ada, the URL Standard's parser as Node.js ships it) against a second
//! implementation of the URL Standard, the `url` crate, over real data, so that a mistake in
//! either, or in how we call ada, shows up as a difference:
//!
//! - every URL of the corpus's messages (`../shared/corpus/messages/`) and of every 4th file
//!   of the throughput corpus (`../shared/corpus/bench/`), as `analyze` reports it with
//!   `--resolver whatwg` and the message's own bases (header URLs and HTML URLs; plain-text
//!   links are left out: their record resolves the link the client makes of the text, not
//!   the reference, and `tests/data/text-links.json` checks them);
//! - every pair of `../shared/corpus/vectors/commoncrawl-url-pairs.csv`;
//! - the inputs of `../shared/corpus/vectors/wpt/urltestdata-even.jsonl`, where the known
//!   differences show up (every class of [`KNOWN`] must occur there, so that a class the `url`
//!   crate no longer differs on is noticed).
//!
//! The `url` crate 2.5.8 does not pass all of the URL Standard's tests (27 of those 448 WPT
//! entries fail with it, ada passes all), so the two may differ. Every difference must fall in
//! one class of [`KNOWN`], which gives the reason and the upstream report; an unexplained
//! difference fails the test, and each class reports how often it occurred.
//!
//! HTML URLs whose query has a non-ASCII character are left out of the comparison (and
//! counted): their query is encoded in the part's charset, which the report does not carry;
//! the `vectors` module checks that encoding against WPT's `percent-encoding.json`, and
//! `whatwg_urls` per charset.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use mimebase::url::{Resolver, whatwg};
use mimebase::{Options, UrlSource, analyze};

use crate::support::{corpus_messages, corpus_or_skip, files_under};

/// What the `url` crate says: the serialized URL, or `None` for an error.
fn by_url_crate(base: Option<&str>, reference: &str) -> Option<String> {
    match base {
        Some(base) => url::Url::parse(base)
            .and_then(|base| base.join(reference))
            .ok()
            .map(String::from),
        None => url::Url::parse(reference).ok().map(String::from),
    }
}

/// A known class of differences: its name (the reason), and whether a difference belongs to
/// it, given the reference, ours and the `url` crate's result.
type Class = (&'static str, fn(&str, Option<&str>, Option<&str>) -> bool);

fn is_file(url: Option<&str>) -> bool {
    url.is_some_and(|url| {
        url.get(..5)
            .is_some_and(|s| s.eq_ignore_ascii_case("file:"))
    })
}

/// `a` and `b` are the same once `encoded` is decoded to `plain` in `a`.
fn same_but(a: Option<&str>, b: Option<&str>, encoded: &str, plain: &str) -> bool {
    a.zip(b)
        .is_some_and(|(a, b)| a != b && a.replace(encoded, plain) == b)
}

const KNOWN: &[Class] = &[
    (
        "file: URLs: url 2.5.8 drops the host before a Windows drive letter, drops empty path \
         segments and keeps `|` in `file:///w|/m` (servo/rust-url#889, #1101, #1114, #1126)",
        |_, ours, theirs| is_file(ours) || is_file(theirs),
    ),
    (
        "opaque path: the URL Standard percent-encodes a space before `?` or `#` \
         (whatwg/url#844), url 2.5.8 keeps it",
        |_, ours, theirs| same_but(ours, theirs, "%20", " "),
    ),
    (
        "non-special path: the URL Standard's path percent-encode set has `^` since 2024 \
         (whatwg/url#846), url 2.5.8 does not encode it",
        |_, ours, theirs| same_but(ours, theirs, "%5E", "^"),
    ),
    (
        "ASCII host with an `xn--` label that is not valid Punycode: accepted as written since \
         the URL Standard's 2026 domain-to-ASCII change (whatwg/url#438), rejected by url 2.5.8",
        |reference, ours, theirs| {
            ours.is_some() && theirs.is_none() && reference.to_ascii_lowercase().contains("xn--")
        },
    ),
    (
        "special base: every `/` and `\\` before the host is skipped (URL Standard, special \
         authority ignore slashes state), url 2.5.8 fails with an empty host on three or more \
         (servo/rust-url#1134)",
        |reference, ours, theirs| {
            let rest = reference.trim_start_matches(['/', '\\']);
            ours.is_some() && theirs.is_none() && reference.len() - rest.len() >= 3
        },
    ),
    (
        "non-special base: a backslash is a path character (URL Standard, path state), url \
         2.5.8 reads `\\/a` as `//a`",
        |reference, _, _| reference.starts_with("\\/"),
    ),
];

/// Compares one pair, recording it in `stats`; returns the description of an unexplained
/// difference.
fn compare(
    base: Option<&str>,
    reference: &str,
    ours: Option<&str>,
    stats: &mut BTreeMap<&'static str, usize>,
) -> Option<String> {
    let theirs = by_url_crate(base, reference);
    if ours == theirs.as_deref() {
        *stats.entry("agree").or_default() += 1;
        return None;
    }
    for (reason, belongs) in KNOWN {
        if belongs(reference, ours, theirs.as_deref()) {
            *stats.entry(reason).or_default() += 1;
            return None;
        }
    }
    Some(format!(
        "{reference:?} against {base:?}: whatwg {ours:?}, url crate {theirs:?}"
    ))
}

fn has_non_ascii_query(reference: &str) -> bool {
    let before_fragment = reference.split('#').next().unwrap_or_default();
    before_fragment
        .split_once('?')
        .is_some_and(|(_, query)| !query.is_ascii())
}

/// Run on a thread with a 64 MB stack: in debug builds the HTML scan of one bench message
/// (`phishing_pot/sample-1766.eml`) needs more than a test thread's 2 MB (the release build
/// needs less than 512 KB).
#[test]
fn corpus_urls_agree_with_the_url_crate() {
    // Here, not on the thread below, which has no test's name to print.
    let Some(messages) = corpus_messages() else {
        return;
    };
    let Some(bench) = corpus_or_skip("bench") else {
        return;
    };
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(move || corpus_urls(messages, &bench))
        .unwrap()
        .join()
        .unwrap();
}

/// [`corpus_urls_agree_with_the_url_crate`] over the corpus's `messages` and every 4th file
/// below `bench`.
fn corpus_urls(messages: Vec<PathBuf>, bench: &Path) {
    let options = Options::new().with_resolver(Resolver::Whatwg);
    let mut files = messages;
    let messages = files.len();
    files.extend(files_under(bench).into_iter().step_by(4));
    assert!(files.len() > 2000, "{}", files.len());
    let mut stats = BTreeMap::new();
    let (mut failures, mut html, mut legacy_query) = (Vec::new(), 0, 0);
    for path in &files {
        let report = analyze(&std::fs::read(path).unwrap(), &options);
        for url in &report.urls {
            // A plain-text record (of a text body, or of a file's text) resolves the link a
            // mail client makes of the text (`http://` before a `www.` host, `mailto:` before
            // an address), not the reference as written, so the pair is not one the url crate
            // can be given; the link finder's table (tests/data/text-links.json) checks those
            // links.
            if url.source.is_linkified() {
                continue;
            }
            if matches!(url.source, UrlSource::Html { .. }) {
                html += 1;
                if has_non_ascii_query(&url.reference) {
                    legacy_query += 1;
                    continue;
                }
            }
            let base = url.base.url.as_deref();
            if let Some(difference) =
                compare(base, &url.reference, url.resolution.resolved(), &mut stats)
            {
                failures.push(format!("{}: {difference}", path.display()));
            }
        }
    }
    eprintln!(
        "{} files ({messages} messages, every 4th bench file): {html} HTML URLs, \
         {legacy_query} with a non-ASCII query not compared; {stats:#?}",
        files.len()
    );
    assert!(stats["agree"] > 15_000, "{stats:?}");
    assert!(
        failures.is_empty(),
        "{} unexplained differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn commoncrawl_pairs_agree_with_the_url_crate() {
    let Some(path) = corpus_or_skip("vectors/commoncrawl-url-pairs.csv") else {
        return;
    };
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("base,relative"));
    let mut stats = BTreeMap::new();
    let mut failures = Vec::new();
    let mut pairs = 0;
    for line in lines {
        // The file quotes no field (checked: no '"' in it), so a line splits at its first comma.
        assert!(!line.contains('"'), "{line}");
        let (base, reference) = line.split_once(',').unwrap();
        pairs += 1;
        let ours = whatwg::resolve(base, reference).ok();
        if let Some(difference) = compare(Some(base), reference, ours.as_deref(), &mut stats) {
            failures.push(difference);
        }
    }
    eprintln!("commoncrawl-url-pairs.csv: {pairs} pairs; {stats:#?}");
    assert!(pairs >= 1000 && stats["agree"] > pairs / 2, "{stats:?}");
    assert!(
        failures.is_empty(),
        "{} unexplained differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn wpt_inputs_differ_only_in_the_known_classes() {
    let Some(path) = corpus_or_skip("vectors/wpt/urltestdata-even.jsonl") else {
        return;
    };
    let text = std::fs::read_to_string(path).unwrap();
    let mut stats = BTreeMap::new();
    let mut failures = Vec::new();
    for line in text.lines() {
        let vector: serde_json::Value = serde_json::from_str(line).unwrap();
        let base = vector["base"].as_str();
        let reference = vector["ref"].as_str().unwrap();
        let ours = match base {
            Some(base) => whatwg::resolve(base, reference),
            None => whatwg::parse(reference),
        }
        .ok();
        if let Some(difference) = compare(base, reference, ours.as_deref(), &mut stats) {
            failures.push(difference);
        }
    }
    eprintln!("wpt/urltestdata-even.jsonl: {stats:#?}");
    for (reason, _) in KNOWN {
        assert!(
            stats.contains_key(reason),
            "class no longer occurs: {reason}"
        );
    }
    assert!(
        failures.is_empty(),
        "{} unexplained differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(stats.values().sum::<usize>(), 448);
}
