//! Adversarial inputs (nothing a message holds may panic, hang or exhaust memory): each is processed within the limits and ends with a
//! diagnostic saying which limit it reached. Time and memory are measured by
//! `scripts/adversarial` on the release build, not here.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

#[path = "support/adversarial.rs"]
mod adversarial;

use mimebase::{DiagnosticKind, Options, Report, analyze};

fn kinds(report: &Report) -> Vec<DiagnosticKind> {
    report.diagnostics.iter().map(|d| d.kind).collect()
}

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

#[test]
fn five_megabyte_header_line() {
    let report = run(&adversarial::long_header_line(5 << 20));
    assert_eq!(kinds(&report), [DiagnosticKind::HeaderTooLarge]);
    assert_eq!(report.entities.len(), 1);
}

#[test]
fn hundred_thousand_siblings_stop_at_the_entity_limit() {
    let report = run(&adversarial::siblings(100_000));
    assert_eq!(report.entities.len(), 10_000);
    assert_eq!(kinds(&report), [DiagnosticKind::EntityLimit]);
    assert_eq!(report.urls.len(), 9_999);
}

#[test]
fn garbage_with_nuls_and_8bit_bytes() {
    let report = run(&adversarial::garbage(1 << 20));
    assert_eq!(report.entities.len(), 1);
    assert!(!report.diagnostics.is_empty());
    for url in &report.urls {
        assert!(url.resolved.is_some() || url.unresolved.is_some());
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
fn every_measured_input_ends_with_a_diagnostic() {
    // The list scripts/adversarial measures is the list tested here.
    let inputs = adversarial::all();
    assert_eq!(inputs.len(), 7);
    for (name, message) in inputs {
        assert!(!run(&message).diagnostics.is_empty(), "{name}");
    }
}
