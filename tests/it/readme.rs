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

/// The README's table of commands agrees with clap's help: the same commands, and for each
/// the same positional arguments and required options as its `Usage:` line, in order
/// (`PATH...` for `[PATH]...`, `--dir OUT` for `--dir <OUT>`).
#[test]
fn readme_command_table_matches_the_help() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    // `[PATH]...` reads `PATH...`, `<BASE>` reads `BASE`.
    let words = |text: &str| -> Vec<String> {
        text.split_whitespace()
            .map(|w| {
                w.chars()
                    .filter(|c| !matches!(c, '[' | ']' | '<' | '>'))
                    .collect()
            })
            .collect()
    };
    let rows: Vec<Vec<String>> = readme
        .lines()
        .filter_map(|line| line.strip_prefix("| `mimebase "))
        .map(|rest| words(&format!("mimebase {}", rest.split('`').next().unwrap())))
        .collect();
    let help = stdout(&mimebase(&["--help"], b""));
    // A command's line starts with two spaces and its name; its description's other lines
    // are indented further.
    let mut commands: Vec<&str> = help
        .split("Commands:\n")
        .nth(1)
        .unwrap()
        .lines()
        .take_while(|line| line.starts_with("  "))
        .filter(|line| !line.starts_with("   "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != "help")
        .collect();
    commands.sort_unstable();
    let mut listed: Vec<&str> = rows.iter().map(|row| row[1].as_str()).collect();
    listed.sort_unstable();
    assert_eq!(listed, commands, "the README's commands and the help's");
    // An option and its value are one item (`--dir OUT`); options may stand anywhere, the
    // positional arguments in the order of the usage line.
    let items = |words: &[String]| -> (Vec<String>, Vec<String>) {
        let (mut options, mut positional) = (Vec::new(), Vec::new());
        let mut words = words.iter().filter(|w| *w != "OPTIONS").peekable();
        while let Some(word) = words.next() {
            if word.starts_with("--") {
                let value = words.next_if(|next| !next.starts_with("--"));
                options.push(format!("{word} {}", value.map_or("", |v| v.as_str())));
            } else {
                positional.push(word.clone());
            }
        }
        options.sort_unstable();
        (options, positional)
    };
    for row in &rows {
        let help = stdout(&mimebase(&[row[1].as_str(), "--help"], b""));
        let usage = help
            .lines()
            .find_map(|line| line.strip_prefix("Usage: "))
            .unwrap();
        assert_eq!(
            items(row),
            items(&words(usage)),
            "README row {row:?} against `Usage: {usage}`"
        );
    }
}
