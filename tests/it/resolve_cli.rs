//! `mimebase resolve`, spawned as a user would run it: the RFC examples of
//! `tests/data/rfc-examples.json` come out line for line, and a reference that cannot be
//! resolved gives an empty line, a diagnostic and exit code 1 without stopping the others.

use std::process::Output;

use pretty_assertions::assert_eq;
use serde_json::Value;

use crate::support::cli::{mimebase, stderr, stdout};
use crate::support::root;

fn stdout_lines(output: &Output) -> Vec<String> {
    let stdout = stdout(output);
    assert!(stdout.ends_with('\n'), "{stdout:?}");
    stdout.lines().map(str::to_owned).collect()
}

/// `(base, [(ref, expected)])` of the cases whose source starts with `source_prefix`, with the
/// expected values of `resolver`, in the file's (the RFC's) order.
fn rfc_cases(source_prefix: &str, resolver: &str) -> (String, Vec<(String, String)>) {
    let path = root().join("tests/data/rfc-examples.json");
    let data: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let cases: Vec<&Value> = data["cases"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|case| case["source"].as_str().unwrap().starts_with(source_prefix))
        .collect();
    let base = cases[0]["base"].as_str().unwrap().to_owned();
    let pairs = cases
        .iter()
        .map(|case| {
            assert_eq!(case["base"].as_str().unwrap(), base);
            let expected = case["expected"][resolver].as_str().unwrap_or_else(|| {
                panic!("no {resolver} result for {case}: the CLI test needs one")
            });
            (
                case["ref"].as_str().unwrap().to_owned(),
                expected.to_owned(),
            )
        })
        .collect();
    (base, pairs)
}

/// Runs `mimebase resolve [--resolver R] BASE -- REF...` and compares its lines with the
/// table's.
#[track_caller]
fn check_table(source_prefix: &str, resolver: Option<&str>, count: usize) {
    let name = resolver.unwrap_or("rfc1808");
    let (base, pairs) = rfc_cases(source_prefix, name);
    assert_eq!(pairs.len(), count, "{source_prefix} cases");
    let mut args = vec!["resolve"];
    if let Some(resolver) = resolver {
        args.extend(["--resolver", resolver]);
    }
    args.extend([base.as_str(), "--"]);
    args.extend(pairs.iter().map(|(reference, _)| reference.as_str()));
    let output = mimebase(&args, b"");
    assert_eq!(stderr(&output), "");
    assert_eq!(output.status.code(), Some(0));
    let expected: Vec<String> = pairs.iter().map(|(_, url)| url.clone()).collect();
    assert_eq!(stdout_lines(&output), expected);
}

/// The default resolver prints RFC 1808 §5's 39 results.
#[test]
fn rfc1808_section_5_examples_by_default() {
    check_table("RFC 1808 ", None, 39);
    check_table("RFC 1808 ", Some("rfc1808"), 39);
}

/// ... and `--resolver rfc3986` prints RFC 3986 §5.4's 42 (strict `http:g`).
#[test]
fn rfc3986_section_5_4_examples() {
    check_table("RFC 3986 ", Some("rfc3986"), 42);
}

#[test]
fn every_table_through_every_resolver() {
    for resolver in ["rfc1808", "rfc3986", "whatwg"] {
        check_table("RFC 1808 ", Some(resolver), 39);
        check_table("RFC 3986 ", Some(resolver), 42);
    }
}

#[test]
fn unresolvable_reference_prints_an_empty_line_and_exits_2_after_all() {
    // `mailto:x` cannot be a base for a relative reference in the URL Standard; the absolute
    // reference after it is still resolved and printed.
    let output = mimebase(
        &[
            "resolve",
            "--resolver",
            "whatwg",
            "mailto:x",
            "g",
            "mailto:y",
        ],
        b"",
    );
    assert_eq!(stdout_lines(&output), vec!["", "mailto:y"]);
    let diagnostics = stderr(&output);
    assert_eq!(diagnostics.lines().count(), 1, "{diagnostics}");
    assert!(diagnostics.starts_with("mimebase: "), "{diagnostics}");
    assert_eq!(output.status.code(), Some(1));

    // A base without a scheme cannot serve RFC 1808 (§4 step 1) or the URL Standard.
    for resolver in ["rfc1808", "whatwg"] {
        let output = mimebase(
            &["resolve", "--resolver", resolver, "a/b", "--", "c", ""],
            b"",
        );
        assert_eq!(stdout_lines(&output), vec!["", ""], "{resolver}");
        let diagnostics = stderr(&output);
        assert_eq!(diagnostics.lines().count(), 2, "{diagnostics}");
        assert!(
            diagnostics
                .lines()
                .all(|line| line.starts_with("mimebase: ")),
            "{diagnostics}"
        );
        assert_eq!(output.status.code(), Some(1), "{resolver}");
    }
}

/// RFC 3986 §5.2.2 as written needs no scheme in the base: the targets are relative, and a
/// note on stderr says so for each; the exit status stays 0.
#[test]
fn rfc3986_resolves_against_a_base_without_a_scheme() {
    let output = mimebase(
        &[
            "resolve",
            "--resolver",
            "rfc3986",
            "/foo/bar",
            "--",
            "baz",
            "",
        ],
        b"",
    );
    assert_eq!(stdout_lines(&output), vec!["/foo/baz", "/foo/bar"]);
    let output = mimebase(
        &["resolve", "--resolver", "rfc3986", "/foo?bar", "?y", "g:h"],
        b"",
    );
    assert_eq!(stdout_lines(&output), vec!["/foo?y", "g:h"]);
    let notes = stderr(&output);
    assert_eq!(notes.lines().count(), 1, "{notes}");
    assert!(
        notes.starts_with("mimebase: ") && notes.contains("relative"),
        "{notes}"
    );
    assert_eq!(output.status.code(), Some(0));
}

#[test]
fn empty_reference_prints_the_base() {
    // RFC 1808 §4 step 2a: the whole base, fragment included.
    let output = mimebase(&["resolve", "http://a/b/c/d;p?q#f", ""], b"");
    assert_eq!(stdout_lines(&output), vec!["http://a/b/c/d;p?q#f"]);
    assert_eq!(output.status.code(), Some(0));
    // RFC 3986 §5.1 and the URL Standard drop the base's fragment.
    for resolver in ["rfc3986", "whatwg"] {
        let output = mimebase(
            &[
                "resolve",
                "--resolver",
                resolver,
                "http://a/b/c/d;p?q#f",
                "",
            ],
            b"",
        );
        assert_eq!(
            stdout_lines(&output),
            vec!["http://a/b/c/d;p?q"],
            "{resolver}"
        );
        assert_eq!(output.status.code(), Some(0));
    }
}

#[test]
fn references_that_look_like_options_after_the_separator() {
    let output = mimebase(&["resolve", "http://a/b/c/d;p?q#f", "--", "-g", "--x"], b"");
    assert_eq!(stderr(&output), "");
    assert_eq!(
        stdout_lines(&output),
        vec!["http://a/b/c/-g", "http://a/b/c/--x"]
    );
}
