//! The integration tests: one binary, one module per subject, and the helpers they share in
//! `tests/support/`.
//!
//! `cargo test --test it` runs them all; a module or a test is chosen by name, as with any
//! test filter: `cargo test --test it golden`, `cargo test --test it scan::quiet`.
//!
//! The modules that run the `mimebase` binary need the `cli` feature (the binary requires
//! it), so they are left out of `cargo test --no-default-features`, which runs the others
//! against the library alone.

// Test code may unwrap, index and panic: a failure is the verdict. Cargo.toml's `[lints]`
// denies these for every target, and clippy.toml exempts only `#[test]` functions and
// `#[cfg(test)]` modules, not the helpers of an integration test.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

#[path = "../support/mod.rs"]
mod support;

mod adversarial;
#[cfg(feature = "cli")]
mod base_decided;
mod base_precedence;
#[cfg(feature = "cli")]
mod cli;
#[cfg(feature = "cli")]
mod compressed;
#[cfg(feature = "cli")]
mod corpus;
mod differential;
#[cfg(feature = "cli")]
mod extract;
#[cfg(feature = "cli")]
mod extract_thismessage;
mod files;
#[cfg(feature = "cli")]
mod golden;
#[cfg(feature = "cli")]
mod help;
mod html_base_namespace;
#[cfg(feature = "cli")]
mod html_report;
mod html_urls;
mod ignored_bases;
mod layout;
mod lenient;
mod limits;
mod mail_parser_diff;
mod mailbox;
#[cfg(feature = "cli")]
mod many_inputs;
#[cfg(feature = "cli")]
mod mbox_cli;
#[cfg(all(feature = "cli", unix))]
mod mbox_lock;
mod memory;
#[cfg(all(feature = "cli", unix))]
mod path_bytes;
mod properties;
mod reach;
#[cfg(feature = "cli")]
mod readme;
#[cfg(feature = "cli")]
mod resolve_cli;
mod rewrite;
#[cfg(feature = "cli")]
mod safe_writes;
#[cfg(feature = "cli")]
mod scan;
mod scan_fields;
#[cfg(all(feature = "cli", unix))]
mod scan_state;
mod structures;
#[cfg(feature = "cli")]
mod targets;
mod tree_differential;
mod url_sources;
mod url_space;
mod uuencode;
mod vectors;
mod whatwg_differential;
#[cfg(feature = "cli")]
mod whatwg_urls;
