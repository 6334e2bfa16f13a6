//! Adversarial inputs (nothing a message holds may panic, hang or exhaust memory): each is processed within the limits and ends with a
//! diagnostic saying which limit it reached. Time and memory are measured by
//! `scripts/adversarial` on the release build, not here.

use mimebase::{DiagnosticKind, Options, Report, analyze};

use crate::support::{adversarial, kinds};

fn run(message: &[u8]) -> Report {
    analyze(message, &Options::new())
}

#[test]
fn nested_multiparts_stop_at_the_depth_limit() {
    let report = run(&adversarial::nested_multipart(100_000));
    assert_eq!(report.entities.len(), 101);
    assert_eq!(kinds(&report), [DiagnosticKind::DepthLimit]);
}

#[test]
fn nested_messages_stop_at_the_depth_limit() {
    let report = run(&adversarial::nested_rfc822(100_000));
    assert_eq!(report.entities.len(), 101);
    assert_eq!(kinds(&report), [DiagnosticKind::DepthLimit]);
    // The base set at the root is inherited all the way down.
    assert_eq!(
        report.entities[100].base.url.as_deref(),
        Some("http://outer/")
    );
}

#[test]
fn base64_message_wrapping_nested_messages() {
    let report = run(&adversarial::base64_wrapping(40_000));
    assert_eq!(report.entities.len(), 101);
    assert_eq!(kinds(&report), [DiagnosticKind::DepthLimit]);
    assert!(report.entities[1].decoded_from.is_some());
}

#[test]
fn six_layers_of_base64_messages_stop_at_the_encoded_level_limit() {
    let report = run(&adversarial::base64_layers(6));
    assert_eq!(report.entities.len(), 5);
    assert_eq!(kinds(&report), [DiagnosticKind::EncodedLevelLimit]);
}

/// A 5 MB field the analysis does not read is passed over at no cost, and the fields after it
/// are read; with a header limit below it, it is overlong: its value is not read, the fields
/// after it still are.
#[test]
fn five_megabyte_header_line() {
    let message = adversarial::long_header_line(5 << 20);
    let report = run(&message);
    assert_eq!(kinds(&report), []);
    assert!(report.complete);
    assert_eq!(report.urls[1].resolution.resolved(), Some("http://b/g"));
    let report = analyze(&message, &Options::new().with_max_header_bytes(1 << 20));
    assert_eq!(kinds(&report), [DiagnosticKind::HeaderTooLarge]);
    assert!(!report.complete);
    assert_eq!(report.urls[1].resolution.resolved(), Some("http://b/g"));
}

/// 100 000 parts of 47 bytes: fewer than 512 bytes each, so past the entity limit set by the
/// message's size.
#[test]
fn hundred_thousand_siblings_stop_at_the_entity_limit() {
    let message = adversarial::siblings(100_000);
    let limit = Options::new().entity_limit(message.len());
    assert!((10_000..100_000).contains(&limit), "{limit}");
    let report = run(&message);
    assert_eq!(report.entities.len(), limit);
    assert_eq!(kinds(&report), [DiagnosticKind::EntityLimit]);
    assert_eq!(report.urls.len(), limit - 1);
    assert!(!report.complete);
}

#[test]
fn garbage_with_nuls_and_8bit_bytes() {
    let report = run(&adversarial::garbage(1 << 20));
    assert_eq!(report.entities.len(), 1);
    assert!(!report.diagnostics.is_empty());
    for url in &report.urls {
        assert!(url.resolution.resolved().is_some() || url.resolution.unresolved().is_some());
    }
}

#[test]
fn base64_helper_round_trips_through_the_walker() {
    // The test-side encoder must agree with the decoder, or the tests above prove nothing.
    let message = adversarial::base64_layers(1);
    let report = run(&message);
    assert_eq!(report.entities.len(), 2);
    assert_eq!(report.urls[0].reference, "deep");
}

#[test]
fn every_measured_input_but_the_long_header_ends_with_a_diagnostic() {
    // The list scripts/adversarial measures is the list tested here.
    let inputs = adversarial::all();
    assert_eq!(inputs.len(), 7);
    for (name, message) in inputs {
        // A long field the analysis does not read reaches no limit: it is read past.
        let expected = name != "header-line-5mb";
        assert_eq!(!run(&message).diagnostics.is_empty(), expected, "{name}");
    }
}

/// Runs `analyze` on a thread with the 2 MiB stack a spawned thread gets by default.
fn run_on_small_stack(message: Vec<u8>) -> Report {
    run_on_stack(2 << 20, message)
}

fn run_on_stack(bytes: usize, message: Vec<u8>) -> Report {
    std::thread::Builder::new()
        .stack_size(bytes)
        .spawn(move || run(&message))
        .unwrap()
        .join()
        .unwrap()
}

fn html_message(body: &str) -> Vec<u8> {
    format!("Content-Type: text/html\r\nContent-Base: http://example.com/\r\n\r\n{body}")
        .into_bytes()
}

fn attributes(count: usize, each: impl Fn(usize) -> String) -> String {
    (0..count).map(each).collect::<Vec<_>>().join(" ")
}

#[test]
fn a_tag_with_too_many_double_quoted_values_is_not_scanned_and_says_so() {
    // The HTML tokenizer's stack grows by a frame per double-quoted value in one tag: 300,000
    // of them (3.5 MB) overflowed an 8 MiB stack and aborted the process.
    let many = attributes(300_000, |i| format!("x{i}=\"y\""));
    let report = run_on_small_stack(html_message(&format!(
        "<a href=\"before.html\">a</a><a {many}>b</a><a href=\"after.html\">c</a>"
    )));
    assert_eq!(kinds(&report), [DiagnosticKind::HtmlError]);
    assert!(report.diagnostics[0].message.contains("not scanned"));
    assert!(
        report
            .urls
            .iter()
            .all(|url| url.source.to_string().starts_with("header:"))
    );
    assert_eq!(
        report.entities[0].base.url.as_deref(),
        Some("http://example.com/")
    );
}

#[test]
fn a_tag_at_the_bound_of_double_quoted_values_is_scanned() {
    // 1,000 double-quoted values take about 300 KB of stack in a release build, and about 40
    // times that in an unoptimized one, which this test may be: hence its 64 MiB stack.
    let many = attributes(999, |i| format!("x{i}=\"y\""));
    let report = run_on_stack(
        64 << 20,
        html_message(&format!("<a {many} href=\"in.html\">b</a>")),
    );
    assert_eq!(kinds(&report), []);
    let resolved: Vec<_> = report
        .urls
        .iter()
        .filter_map(|u| u.resolution.resolved())
        .collect();
    assert!(
        resolved.contains(&"http://example.com/in.html"),
        "{resolved:?}"
    );
}

#[test]
fn other_long_tags_and_many_tags_are_scanned_on_a_small_stack() {
    for many in [
        attributes(300_000, |i| format!("x{i}='y'")),
        attributes(300_000, |i| format!("x{i}=y")),
        attributes(300_000, |i| format!("x{i}")),
    ] {
        let report = run_on_small_stack(html_message(&format!("<a {many} href=\"in.html\">b</a>")));
        let resolved: Vec<_> = report
            .urls
            .iter()
            .filter_map(|u| u.resolution.resolved())
            .collect();
        assert!(resolved.contains(&"http://example.com/in.html"));
    }
    // 100,000 links and the Content-Base field: one more than the default limit on URL
    // records, so the last link is counted but not recorded.
    let tags = "<a href=\"x.html\">x</a>".repeat(100_000);
    let report = run_on_small_stack(html_message(&tags));
    assert_eq!(report.urls.len(), 100_000);
    let limits: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| d.kind == DiagnosticKind::UrlLimit)
        .map(|d| d.message.as_str())
        .collect();
    assert_eq!(
        limits,
        [
            "1 URL of the body is not recorded: the message has more than 100000 URLs (--max-urls raises the limit)"
        ]
    );
}
