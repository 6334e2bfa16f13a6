//! `base_decided` and `urls --base-decided` over the throughput corpus: the records that the
//! option prints are exactly those of `urls --json` whose `base_decided` is true, and that field
//! agrees, record by record, with a check that does not look at how the resolver read the
//! reference: resolved against a base that shares nothing with the real one (another scheme
//! and host), a reference gives another URL exactly when the base decided it.

use mimebase::Resolver;
use serde_json::Value;

use crate::support::cli::{json_lines, mimebase};
use crate::support::corpus_or_skip;

/// Whether the base decided where `url` (a JSON URL record) leads, by substitution: it is
/// resolved, against a base, and the same reference against an unrelated base gives another
/// URL (or none).
fn decided_by_substitution(url: &Value) -> bool {
    let (Some(resolved), Some(_)) = (url["resolved"].as_str(), url["base"]["url"].as_str()) else {
        return false;
    };
    let resolver: Resolver = url["resolver"].as_str().unwrap().parse().unwrap();
    let reference = url["reference"].as_str().unwrap();
    let elsewhere = resolver.resolve("x-elsewhere://other.invalid/o/p?q", reference);
    elsewhere.ok().as_deref() != Some(resolved)
}

#[test]
fn urls_base_decided_lists_the_records_a_base_decided_on_the_bench_corpus() {
    let Some(bench) = corpus_or_skip("bench") else {
        return;
    };
    let bench = bench.to_str().unwrap();
    for resolver in ["rfc1808", "whatwg"] {
        let all = json_lines(&mimebase(
            &["urls", "--json", "--resolver", resolver, bench],
            b"",
        ));
        let decided = json_lines(&mimebase(
            &[
                "urls",
                "--json",
                "--base-decided",
                "--resolver",
                resolver,
                bench,
            ],
            b"",
        ));
        let urls: Vec<&Value> = all.iter().filter(|r| r["type"] == "url").collect();
        assert!(
            urls.len() > 10_000,
            "{resolver}: only {} URL records",
            urls.len()
        );
        let expected: Vec<&Value> = urls
            .iter()
            .copied()
            .filter(|r| r["base_decided"] == Value::Bool(true))
            .collect();
        let printed: Vec<&Value> = decided.iter().filter(|r| r["type"] == "url").collect();
        assert_eq!(printed, expected, "{resolver}");
        for url in &urls {
            assert_eq!(
                url["base_decided"],
                Value::Bool(decided_by_substitution(url)),
                "{resolver}: {url}"
            );
        }
        eprintln!(
            "{resolver}: {} of {} URL records of the bench corpus were decided by a base",
            printed.len(),
            urls.len()
        );
        assert!(!printed.is_empty(), "{resolver}: no base-decided URL");
    }
}
