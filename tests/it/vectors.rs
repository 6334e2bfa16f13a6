//! URL-resolution vectors kept as data, each case with its source and one expected value per
//! resolver, and every known wrong result listed with its reason, so that a fix shows up as an
//! unexpected pass and a regression as a new failure:
//!
//! - `tests/data/rfc-examples.json`: the 39 examples of RFC 1808 §5 and the 42 of RFC 3986 §5.4,
//!   one expected value per resolver, run through all three.
//! - `../shared/corpus/vectors/*.jsonl` (read in place, never copied): every record run against
//!   the resolver its `spec` names; the known disagreements are listed, each with its reason and
//!   the result the resolver gives, in `tests/data/vector-xfail.json`. A listed case that passes
//!   fails the test ("unexpected pass"), and so does an unlisted case that fails.
//! - `../shared/corpus/vectors/wpt/urltestdata-even.jsonl`: the URL Standard's own test data
//!   (web-platform-tests `urltestdata.json`, even-indexed entries, with and without a base,
//!   failures included) through `whatwg` (`base: null`: the reference parsed alone); xfails in
//!   the same list, each with an upstream bug link.
//! - `../shared/corpus/vectors/wpt/percent-encoding.jsonl`: WPT `percent-encoding.json`, the
//!   query of a URL in a document of each listed encoding (HTML "encoding-parsing a URL").
//! - `../shared/corpus/vectors/commoncrawl-url-pairs.csv`: real base/relative pairs resolved by
//!   every resolver without a panic, and every `rfc3986` result compared with the `iri-string`
//!   crate's RFC 3986 resolution wherever that crate accepts both inputs.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use iri_string::types::{UriReferenceStr, UriStr};
use mimebase::url::{ResolveError, Resolver, resolve, whatwg};
use serde::Deserialize;

use crate::support::{corpus_or_skip, root};

/// The shared corpus's vector files, read from where they are; `None` when the corpus is
/// absent (the test then skips).
#[track_caller]
fn vectors() -> Option<PathBuf> {
    corpus_or_skip("vectors")
}

/// This crate's own data files.
fn data() -> PathBuf {
    root().join("tests/data")
}

/// Every JSON-lines vector file the corpus is known to hold; each must be there.
const VECTOR_FILES: [&str; 6] = [
    "cpython-test_urlparse.jsonl",
    "iri-string-resolve.jsonl",
    "perl-uri-roytest-1-3.jsonl",
    "rfc1808-sec5.jsonl",
    "spamassassin-uri.jsonl",
    "wpt-urltestdata-relative-even.jsonl",
];

const COMMONCRAWL: &str = "commoncrawl-url-pairs.csv";

fn resolver_named(name: &str) -> Resolver {
    Resolver::ALL
        .into_iter()
        .find(|resolver| resolver.name() == name)
        .unwrap_or_else(|| panic!("no resolver is named {name:?}"))
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()))
}

/// A result as the data files write it: the URL, or `None` for an error.
fn outcome(result: &Result<String, ResolveError>) -> Option<&str> {
    result.as_deref().ok()
}

fn show(value: Option<&str>) -> String {
    value.map_or_else(|| "error".to_owned(), |url| format!("{url:?}"))
}

/// A case that is expected to fail: why, and (for the corpus vectors) the result the resolver
/// is known to give instead, so that a change of a wrong result is noticed too.
struct Xfail<'a> {
    reason: &'a str,
    actual: Option<Option<&'a str>>,
}

#[derive(Debug, PartialEq, Eq)]
enum Verdict {
    Pass,
    Xfail,
    Fail(String),
}

/// Judges one resolution: `got` against `expected`, taking a listed xfail into account.
fn judge(got: Option<&str>, expected: Option<&str>, xfail: Option<&Xfail<'_>>) -> Verdict {
    match xfail {
        None if got == expected => Verdict::Pass,
        None => Verdict::Fail(format!("got {}, expected {}", show(got), show(expected))),
        Some(xfail) if got == expected => Verdict::Fail(format!(
            "unexpected pass: got the expected {} although listed as xfail ({})",
            show(got),
            xfail.reason
        )),
        Some(Xfail {
            reason,
            actual: Some(actual),
        }) if got != *actual => Verdict::Fail(format!(
            "xfail result changed: got {}, the xfail list says {} ({reason}); expected {}",
            show(got),
            show(*actual),
            show(expected)
        )),
        Some(_) => Verdict::Xfail,
    }
}

// ---------------------------------------------------------------------------------------------
// tests/data/rfc-examples.json
// ---------------------------------------------------------------------------------------------

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RfcExamples {
    about: String,
    cases: Vec<RfcCase>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RfcCase {
    base: String,
    #[serde(rename = "ref")]
    reference: String,
    expected: BTreeMap<String, Option<String>>,
    source: String,
    #[serde(default)]
    note: Option<String>,
    #[serde(default)]
    xfail: BTreeMap<String, String>,
}

const RFC1808_BASE: &str = "http://a/b/c/d;p?q#f";
const RFC3986_BASE: &str = "http://a/b/c/d;p?q";

fn rfc_examples() -> RfcExamples {
    let path = data().join("rfc-examples.json");
    let examples: RfcExamples = serde_json::from_str(&read(&path)).unwrap();
    assert!(!examples.about.is_empty());
    let names: BTreeSet<&str> = Resolver::ALL.iter().map(|r| r.name()).collect();
    for case in &examples.cases {
        let keys: BTreeSet<&str> = case.expected.keys().map(String::as_str).collect();
        assert_eq!(keys, names, "one expected value per resolver: {case:?}");
        for (name, reason) in &case.xfail {
            assert!(
                names.contains(name.as_str()),
                "xfail for {name:?}: {case:?}"
            );
            assert!(
                !reason.trim().is_empty(),
                "xfail without a reason: {case:?}"
            );
        }
        assert!(case.note.as_deref() != Some(""), "empty note: {case:?}");
    }
    examples
}

/// The cases whose source starts with `source_prefix`, in the file's (the RFC's) order.
fn cases_from<'a>(examples: &'a RfcExamples, source_prefix: &str) -> Vec<&'a RfcCase> {
    examples
        .cases
        .iter()
        .filter(|case| case.source.starts_with(source_prefix))
        .collect()
}

#[test]
fn rfc_examples_are_complete() {
    let examples = rfc_examples();
    let rfc1808 = cases_from(&examples, "RFC 1808 ");
    let rfc3986 = cases_from(&examples, "RFC 3986 ");
    assert_eq!(rfc1808.len() + rfc3986.len(), examples.cases.len());
    let count = |source: &str| examples.cases.iter().filter(|c| c.source == source).count();
    assert_eq!(count("RFC 1808 §5.1"), 24);
    assert_eq!(count("RFC 1808 §5.2"), 15);
    assert_eq!(count("RFC 3986 §5.4.1"), 23);
    assert_eq!(count("RFC 3986 §5.4.2"), 19, "http:g counted once");
    assert!(rfc1808.iter().all(|case| case.base == RFC1808_BASE));
    assert!(rfc3986.iter().all(|case| case.base == RFC3986_BASE));
    // No reference twice within one RFC.
    for cases in [&rfc1808, &rfc3986] {
        let refs: BTreeSet<&str> = cases.iter().map(|c| c.reference.as_str()).collect();
        assert_eq!(refs.len(), cases.len());
    }
}

/// The table was transcribed by hand from the RFC texts; the corpus's extractions from other
/// projects' test suites (RFC 1808 §5 from Perl URI, RFC 3986 §5.4 from iri-string and
/// SpamAssassin) must say the same for the RFC each case comes from.
#[test]
fn rfc_examples_agree_with_the_corpus_extractions() {
    let Some(dir) = vectors() else {
        return;
    };
    let examples = rfc_examples();
    let table = |prefix: &str, resolver: &str| -> BTreeMap<String, Option<String>> {
        cases_from(&examples, prefix)
            .into_iter()
            .map(|c| (c.reference.clone(), c.expected[resolver].clone()))
            .collect()
    };
    let from_file = |file: &str, base: &str| -> BTreeMap<String, Option<String>> {
        read_vectors(&dir, file)
            .into_iter()
            .filter(|v| v.base == base)
            .map(|v| (v.reference, v.expected))
            .collect()
    };
    let rfc1808 = table("RFC 1808 ", "rfc1808");
    pretty_assertions::assert_eq!(rfc1808, from_file("rfc1808-sec5.jsonl", RFC1808_BASE));
    let rfc3986 = table("RFC 3986 ", "rfc3986");
    pretty_assertions::assert_eq!(rfc3986, from_file("iri-string-resolve.jsonl", RFC3986_BASE));
    // SpamAssassin resolves `http:g` as RFC 3986 §5.4.2 allows "for backward compatibility".
    let mut lenient = rfc3986.clone();
    lenient.insert("http:g".to_owned(), Some("http://a/b/c/g".to_owned()));
    pretty_assertions::assert_eq!(lenient, from_file("spamassassin-uri.jsonl", RFC3986_BASE));
    assert_eq!(rfc3986.len(), 42);
}

#[test]
fn rfc_examples_through_every_resolver() {
    let examples = rfc_examples();
    let mut failures = Vec::new();
    let mut passed: BTreeMap<&str, usize> = BTreeMap::new();
    let mut xfailed: BTreeMap<&str, usize> = BTreeMap::new();
    for case in &examples.cases {
        for resolver in Resolver::ALL {
            let name = resolver.name();
            let got = resolve(resolver, &case.base, &case.reference);
            let xfail = case.xfail.get(name).map(|reason| Xfail {
                reason,
                actual: None,
            });
            let expected = case.expected[name].as_deref();
            match judge(outcome(&got), expected, xfail.as_ref()) {
                Verdict::Pass => *passed.entry(name).or_default() += 1,
                Verdict::Xfail => *xfailed.entry(name).or_default() += 1,
                Verdict::Fail(why) => failures.push(format!(
                    "{} {name}: {:?} against {:?}: {why}",
                    case.source, case.reference, case.base
                )),
            }
        }
    }
    for resolver in Resolver::ALL {
        let name = resolver.name();
        eprintln!(
            "rfc-examples.json [{name}]: {} passed, {} xfail",
            passed.get(name).copied().unwrap_or(0),
            xfailed.get(name).copied().unwrap_or(0)
        );
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------
// ../shared/corpus/vectors/*.jsonl
// ---------------------------------------------------------------------------------------------

/// One record of a corpus vector file (MANIFEST.md: `{"base","ref","expected","spec","source",
/// ...}`); the fields this test does not use are ignored.
#[derive(Debug, Deserialize)]
struct Vector {
    base: String,
    #[serde(rename = "ref")]
    reference: String,
    expected: Option<String>,
    spec: String,
    source: String,
    #[serde(default)]
    expected_rfc1808: Option<String>,
    #[serde(default)]
    failure: bool,
}

fn read_vectors(dir: &Path, file: &str) -> Vec<Vector> {
    let path = dir.join(file);
    assert!(path.is_file(), "missing vector file {}", path.display());
    read(&path)
        .lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(i, line)| {
            serde_json::from_str(line).unwrap_or_else(|error| panic!("{file}:{}: {error}", i + 1))
        })
        .collect()
}

/// The resolver that a vector's `spec` targets. RFC 2396 is checked against RFC 3986, which
/// obsoletes it; where the two differ the xfail list says so.
fn target(spec: &str) -> Resolver {
    match spec {
        "rfc1808" => Resolver::Rfc1808,
        "rfc2396" | "rfc3986" => Resolver::Rfc3986,
        "whatwg" => Resolver::Whatwg,
        other => panic!("unknown spec {other:?}"),
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct XfailList {
    about: String,
    cases: Vec<XfailEntry>,
}

/// One known disagreement: the vector `(file, base, ref)` checked with `resolver` gives
/// `actual` (`null`: an error) instead of the file's expected value, for `reason`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct XfailEntry {
    file: String,
    base: Option<String>,
    #[serde(rename = "ref")]
    reference: String,
    resolver: String,
    actual: Option<String>,
    reason: String,
    /// The upstream bug, required for `whatwg` entries.
    #[serde(default)]
    bug: Option<String>,
}

type XfailKey = (String, Option<String>, String, String);

fn xfail_list() -> BTreeMap<XfailKey, XfailEntry> {
    let path = data().join("vector-xfail.json");
    let list: XfailList = serde_json::from_str(&read(&path)).unwrap();
    assert!(!list.about.is_empty());
    let mut map = BTreeMap::new();
    for entry in list.cases {
        resolver_named(&entry.resolver);
        assert!(!entry.reason.trim().is_empty(), "no reason: {entry:?}");
        if entry.resolver == "whatwg" {
            let bug = entry.bug.as_deref().unwrap_or_default();
            assert!(
                bug.starts_with("https://"),
                "no upstream bug link: {entry:?}"
            );
        }
        let key = (
            entry.file.clone(),
            entry.base.clone(),
            entry.reference.clone(),
            entry.resolver.clone(),
        );
        let duplicate = format!("listed twice: {entry:?}");
        assert!(map.insert(key, entry).is_none(), "{duplicate}");
    }
    map
}

/// Every `*.jsonl` file in `dir`, the vectors directory, sorted; the known ones must all be
/// there.
fn vector_files(dir: &Path) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.ends_with(".jsonl"))
        .collect();
    files.sort();
    for known in VECTOR_FILES {
        assert!(
            files.iter().any(|file| file == known),
            "missing vector file {known} in {}",
            dir.display()
        );
    }
    files
}

#[test]
fn corpus_vectors_against_their_resolvers() {
    let Some(dir) = vectors() else {
        return;
    };
    let xfails = xfail_list();
    let mut used: BTreeSet<&XfailKey> = wpt_urltestdata(&dir, &xfails).into_iter().collect();
    let mut failures = Vec::new();
    for file in vector_files(&dir) {
        let vectors = read_vectors(&dir, &file);
        assert!(!vectors.is_empty(), "{file} is empty");
        let (mut passed, mut xfailed, mut checks) = (0, 0, 0);
        let mut reasons: BTreeMap<&str, usize> = BTreeMap::new();
        for vector in &vectors {
            assert!(!vector.source.is_empty(), "{file}: no source: {vector:?}");
            if vector.failure {
                assert_eq!(vector.expected, None, "{file}: failure with a result");
            }
            // The check the file is for, and RFC 1808's column where the file has one.
            let mut to_check = vec![(target(&vector.spec), vector.expected.as_deref())];
            if let Some(rfc1808) = &vector.expected_rfc1808 {
                to_check.push((Resolver::Rfc1808, Some(rfc1808.as_str())));
            }
            for (resolver, expected) in to_check {
                checks += 1;
                let key = (
                    file.clone(),
                    Some(vector.base.clone()),
                    vector.reference.clone(),
                    resolver.name().to_owned(),
                );
                let entry = xfails.get_key_value(&key);
                if let Some((key, _)) = entry {
                    used.insert(key);
                }
                let xfail = entry.map(|(_, entry)| Xfail {
                    reason: &entry.reason,
                    actual: Some(entry.actual.as_deref()),
                });
                let got = resolve(resolver, &vector.base, &vector.reference);
                match judge(outcome(&got), expected, xfail.as_ref()) {
                    Verdict::Pass => passed += 1,
                    Verdict::Xfail => {
                        xfailed += 1;
                        *reasons.entry(entry.unwrap().1.reason.as_str()).or_default() += 1;
                    }
                    Verdict::Fail(why) => failures.push(format!(
                        "{file} [{}, spec {}]: {:?} against {:?}: {why}",
                        resolver.name(),
                        vector.spec,
                        vector.reference,
                        vector.base
                    )),
                }
            }
        }
        eprintln!(
            "{file}: {passed} passed, {xfailed} xfail ({} records, {checks} checks)",
            vectors.len()
        );
        for (reason, count) in reasons {
            eprintln!("    {count} x {reason}");
        }
    }
    for (key, entry) in &xfails {
        if !used.contains(key) {
            failures.push(format!("xfail entry matches no vector: {entry:?}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------
// ../shared/corpus/vectors/wpt/
// ---------------------------------------------------------------------------------------------

const WPT_URLTESTDATA: &str = "wpt/urltestdata-even.jsonl";

/// One record of `wpt/urltestdata-even.jsonl`: `base` null means "no base".
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct WptVector {
    base: Option<String>,
    #[serde(rename = "ref")]
    reference: String,
    expected: Option<String>,
    spec: String,
    source: String,
    index: usize,
    #[serde(default)]
    failure: bool,
}

/// Runs `wpt/urltestdata-even.jsonl` of `dir` through `whatwg` (with the base, or parsing the reference
/// alone), judging each case with the xfail list; panics on a failure. Returns the xfail
/// entries it used, so that the caller can report the unused ones.
fn wpt_urltestdata<'a>(
    dir: &Path,
    xfails: &'a BTreeMap<XfailKey, XfailEntry>,
) -> Vec<&'a XfailKey> {
    let path = dir.join(WPT_URLTESTDATA);
    let vectors: Vec<WptVector> = read(&path)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(vectors.len(), 448, "{WPT_URLTESTDATA}");
    let (mut passed, mut xfailed, mut failures, mut used) = (0, 0, Vec::new(), Vec::new());
    let mut with_base = [0, 0];
    for vector in &vectors {
        assert_eq!(vector.spec, "whatwg");
        assert!(
            !vector.source.is_empty() && vector.index % 2 == 0,
            "{vector:?}"
        );
        assert_eq!(vector.failure, vector.expected.is_none(), "{vector:?}");
        with_base[usize::from(vector.base.is_some())] += 1;
        let got = match &vector.base {
            Some(base) => whatwg::resolve(base, &vector.reference),
            None => whatwg::parse(&vector.reference),
        };
        let key = (
            WPT_URLTESTDATA.to_owned(),
            vector.base.clone(),
            vector.reference.clone(),
            "whatwg".to_owned(),
        );
        let entry = xfails.get_key_value(&key);
        used.extend(entry.map(|(key, _)| key));
        let xfail = entry.map(|(_, entry)| Xfail {
            reason: &entry.reason,
            actual: Some(entry.actual.as_deref()),
        });
        match judge(outcome(&got), vector.expected.as_deref(), xfail.as_ref()) {
            Verdict::Pass => passed += 1,
            Verdict::Xfail => xfailed += 1,
            Verdict::Fail(why) => failures.push(format!(
                "{WPT_URLTESTDATA} #{}: {:?} against {:?}: {why}",
                vector.index, vector.reference, vector.base
            )),
        }
    }
    eprintln!(
        "{WPT_URLTESTDATA}: {passed} passed, {xfailed} xfail ({} with a base, {} without)",
        with_base[1], with_base[0]
    );
    assert!(with_base[0] > 100 && with_base[1] > 100);
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    used
}

/// One record of `wpt/percent-encoding.jsonl`: an input and, per encoding label, the
/// percent-encoded bytes a document in that encoding gives for it in a URL's query.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PercentEncodingVector {
    input: String,
    output: BTreeMap<String, String>,
    source: String,
    index: usize,
}

/// WPT's `percent-encoding.window.js` puts each input in the query and in the fragment of
/// `https://doesnotmatter.invalid/?{input}#{input}` and parses it in a document of each
/// encoding: the query is the listed output, the fragment is always the UTF-8 one.
#[test]
fn wpt_percent_encoding_in_every_listed_encoding() {
    let Some(dir) = vectors() else {
        return;
    };
    let path = dir.join("wpt/percent-encoding.jsonl");
    let vectors: Vec<PercentEncodingVector> = read(&path)
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(vectors.len(), 7);
    let (mut checks, mut failures) = (0, Vec::new());
    let mut encodings = BTreeSet::new();
    for vector in &vectors {
        assert!(!vector.source.is_empty(), "{vector:?}");
        let utf8 = &vector.output["utf-8"];
        for (label, expected) in &vector.output {
            let encoding = encoding_rs::Encoding::for_label(label.as_bytes())
                .unwrap_or_else(|| panic!("unknown label {label:?}"));
            encodings.insert(encoding.name());
            let reference = format!("https://doesnotmatter.invalid/?{0}#{0}", vector.input);
            let want = format!("https://doesnotmatter.invalid/?{expected}#{utf8}");
            for base in [None, Some("http://a/b")] {
                checks += 1;
                match whatwg::encoding_parse(base, &reference, encoding) {
                    Ok(got) if got == want => {}
                    got => failures.push(format!(
                        "#{} {:?} in {label}: got {got:?}, expected {want:?}",
                        vector.index, vector.input
                    )),
                }
            }
        }
    }
    eprintln!(
        "wpt/percent-encoding.jsonl: {} passed, 0 xfail ({} inputs, {} encodings)",
        checks - failures.len(),
        vectors.len(),
        encodings.len()
    );
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

// ---------------------------------------------------------------------------------------------
// ../shared/corpus/vectors/commoncrawl-url-pairs.csv
// ---------------------------------------------------------------------------------------------

/// Parses CSV as RFC 4180 writes it: fields separated by `,`, records by CRLF or LF; a field
/// in double quotes may hold `,`, line breaks and `""` for one `"`.
fn parse_csv(text: &str) -> Vec<Vec<String>> {
    let mut records = Vec::new();
    let mut record = Vec::new();
    let mut field = String::new();
    let mut chars = text.chars().peekable();
    let mut quoted = false;
    // Whether the current record has anything yet, so that a final line break adds no record.
    let mut started = false;
    while let Some(c) = chars.next() {
        if quoted {
            match c {
                '"' if chars.peek() == Some(&'"') => {
                    chars.next();
                    field.push('"');
                }
                '"' => quoted = false,
                _ => field.push(c),
            }
            continue;
        }
        match c {
            '"' if field.is_empty() => {
                quoted = true;
                started = true;
            }
            ',' => {
                record.push(std::mem::take(&mut field));
                started = true;
            }
            '\r' if chars.peek() == Some(&'\n') => {}
            '\n' => {
                record.push(std::mem::take(&mut field));
                records.push(std::mem::take(&mut record));
                started = false;
            }
            _ => {
                field.push(c);
                started = true;
            }
        }
    }
    assert!(!quoted, "unterminated quoted field");
    if started {
        record.push(field);
        records.push(record);
    }
    records
}

#[test]
fn csv_reader_follows_rfc_4180() {
    let text = "base,relative\r\n\"http://a/b,c\",\"say \"\"hi\"\"\"\nx,\"line\nbreak\"\n,\n";
    assert_eq!(
        parse_csv(text),
        vec![
            vec!["base", "relative"],
            vec!["http://a/b,c", "say \"hi\""],
            vec!["x", "line\nbreak"],
            vec!["", ""],
        ]
    );
    assert_eq!(parse_csv("a,b"), vec![vec!["a", "b"]]);
    assert!(parse_csv("").is_empty());
}

/// Whether a path segment of `url` is a `.` or `..` written with percent-encoding (`%2E`):
/// iri-string removes those as dot-segments (RFC 3986 §6.2.2.2 normalization), RFC 3986 §5.2.4
/// and this crate only remove the literal ones.
fn has_encoded_dot_segment(url: &str) -> bool {
    let path_end = url.find(['?', '#']).unwrap_or(url.len());
    url[..path_end].split('/').any(|segment| {
        let lower = segment.to_ascii_lowercase();
        lower.contains("%2e") && lower.replace("%2e", ".").trim_matches('.').is_empty()
    })
}

#[test]
fn commoncrawl_pairs_through_every_resolver_and_the_oracle() {
    let Some(dir) = vectors() else {
        return;
    };
    let path = dir.join(COMMONCRAWL);
    assert!(path.is_file(), "missing {}", path.display());
    let records = parse_csv(&read(&path));
    assert_eq!(records[0], vec!["base", "relative"], "header");
    let pairs = &records[1..];
    assert!(pairs.len() >= 1000, "only {} pairs", pairs.len());

    let mut failures = Vec::new();
    let mut resolved: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let (mut compared, mut agreed, mut encoded_dots) = (0, 0, 0);
    let (mut invalid_base, mut invalid_reference, mut unrepresentable) = (0, 0, 0);
    for (line, record) in pairs.iter().enumerate() {
        let line = line + 2;
        assert_eq!(record.len(), 2, "line {line}: {record:?}");
        let (base, reference) = (record[0].as_str(), record[1].as_str());
        let mut rfc3986 = None;
        for resolver in Resolver::ALL {
            let result = std::panic::catch_unwind(|| resolve(resolver, base, reference));
            let Ok(result) = result else {
                failures.push(format!(
                    "line {line}: {} panicked on {reference:?} against {base:?}",
                    resolver.name()
                ));
                continue;
            };
            let counts = resolved.entry(resolver.name()).or_default();
            if result.is_ok() {
                counts.0 += 1;
            } else {
                counts.1 += 1;
            }
            if resolver == Resolver::Rfc3986 {
                rfc3986 = Some(result);
            }
        }

        // The differential oracle, where it accepts both inputs. Its base must be an
        // absolute-URI, so the base's fragment is dropped first, as RFC 3986 §5.1 does.
        let Ok(oracle_base) = UriStr::new(base) else {
            invalid_base += 1;
            continue;
        };
        let Ok(oracle_reference) = UriReferenceStr::new(reference) else {
            invalid_reference += 1;
            continue;
        };
        let target = oracle_reference.resolve_against(oracle_base.to_absolute());
        if target.ensure_rfc3986_normalizable().is_err() {
            // iri-string then serializes as the URL Standard does (`scheme:/.//x`).
            unrepresentable += 1;
            continue;
        }
        let expected = target.to_string();
        compared += 1;
        let got = rfc3986
            .as_ref()
            .map(|result| outcome(result).map(str::to_owned));
        match got {
            Some(Some(got)) if got == expected => agreed += 1,
            Some(Some(got))
                if has_encoded_dot_segment(base) || has_encoded_dot_segment(reference) =>
            {
                encoded_dots += 1;
                eprintln!(
                    "    line {line}: known difference (%2E dot-segment): {reference:?} against \
                     {base:?}: mimebase {got:?}, iri-string {expected:?}"
                );
            }
            Some(got) => failures.push(format!(
                "line {line}: rfc3986 disagrees with iri-string on {reference:?} against \
                 {base:?}: mimebase {}, iri-string {expected:?}",
                show(got.as_deref())
            )),
            None => {} // panicked, already listed
        }
    }
    for (name, (ok, err)) in &resolved {
        eprintln!("{COMMONCRAWL} [{name}]: {ok} resolved, {err} errors, no panic");
    }
    eprintln!(
        "{COMMONCRAWL} [rfc3986 vs iri-string]: {compared} compared ({agreed} agree, \
         {encoded_dots} differ on %2E dot-segments), {} skipped because iri-string rejects an \
         input ({invalid_base} bases, {invalid_reference} references), {unrepresentable} \
         skipped as not representable without WHATWG serialization",
        invalid_base + invalid_reference
    );
    assert_eq!(
        compared + invalid_base + invalid_reference + unrepresentable,
        pairs.len()
    );
    assert!(compared > pairs.len() / 2, "too few compared: {compared}");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
