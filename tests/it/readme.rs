//! The README's first command and the output it shows must agree with the real binary.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::process::Command;

#[test]
fn readme_sample_output_is_current() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let command = "cargo run --release -- inspect samples/forwarded-message.eml";
    assert!(
        readme.contains(command),
        "the README's first command changed"
    );
    let shown = readme
        .split("```text\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```").next())
        .expect("a ```text block with the sample's output");
    let output = Command::new(env!("CARGO_BIN_EXE_mimebase"))
        .args(["inspect", "samples/forwarded-message.eml"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(output.status.success());
    pretty_assertions::assert_eq!(String::from_utf8(output.stdout).unwrap().trim_end(), shown);
}
