//! The README's first command and the output it shows must agree with the real binary.

use crate::support::cli::{mimebase, stdout};
use crate::support::root;

#[test]
fn readme_sample_output_is_current() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
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
    let output = mimebase(&["inspect", "samples/forwarded-message.eml"], b"");
    assert!(output.status.success());
    pretty_assertions::assert_eq!(stdout(&output).trim_end(), shown);
}
