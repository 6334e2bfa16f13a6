//! What `--help` and `mimebase man` show: the examples run as written when pasted into a
//! shell, the man pages' sections, and the completions for `man` and `extract --dir`.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};

use crate::support::cli::{MIMEBASE, mimebase, stdout};
use crate::support::{root, workdir};

/// The command names listed under "Commands:" in `mimebase --help` (without `help`).
fn command_names() -> Vec<String> {
    let help = stdout(&mimebase(&["--help"], b""));
    let commands = help.split("Commands:\n").nth(1).unwrap();
    let names: Vec<String> = commands
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .filter(|line| !line.starts_with("   "))
        .map(|line| line.split_whitespace().next().unwrap().to_owned())
        .filter(|name| name != "help")
        .collect();
    assert!(names.len() >= 8, "{names:?}");
    names
}

/// The lines under "Examples:" of `help`, up to the first empty line, without their indent.
fn examples(help: &str) -> Vec<String> {
    let Some(section) = help.split("\nExamples:\n").nth(1) else {
        return Vec::new();
    };
    section
        .lines()
        .take_while(|line| !line.trim().is_empty())
        .map(|line| line.trim().to_owned())
        .collect()
}

/// A directory with the files the examples name: `message.eml`, `a.eml`, `b.eml`,
/// `archive.mbox`, `paths.txt`, and a `HOME` holding a Maildir and the directories the
/// completion scripts are written into.
fn example_dir(name: &str) -> std::path::PathBuf {
    let dir = workdir(name);
    let message = fs::read(root().join("samples/html-mail-inline-images.eml")).unwrap();
    for file in ["message.eml", "a.eml", "b.eml"] {
        fs::write(dir.join(file), &message).unwrap();
    }
    let mut mbox = Vec::new();
    for _ in 0..2 {
        mbox.extend_from_slice(b"From sender@example.com Thu Jan  1 00:00:00 2026\n");
        mbox.extend_from_slice(&message);
        mbox.extend_from_slice(b"\n");
    }
    fs::write(dir.join("archive.mbox"), mbox).unwrap();
    fs::write(dir.join("paths.txt"), "message.eml\na.eml\n").unwrap();
    let home = dir.join("home");
    for sub in ["Maildir/cur", "Maildir/new", "Maildir/tmp"] {
        fs::create_dir_all(home.join(sub)).unwrap();
    }
    fs::write(home.join("Maildir/cur/1.host:2,S"), &message).unwrap();
    for sub in [
        ".local/share/bash-completion/completions",
        ".zfunc",
        ".config/fish/completions",
    ] {
        fs::create_dir_all(home.join(sub)).unwrap();
    }
    dir
}

/// Every example of every command's `--help`, and of `mimebase --help`, pasted into `sh -c`
/// in a directory holding the files it names, with this `mimebase` first on `PATH`, exits 0
/// (the `scan` example that may exit 1 says so itself with `|| test $? -eq 1`). Standard input
/// is empty: an example that wrongly waits on it (an unquoted `;`) runs what follows the `;`
/// as a command of its own, which fails.
#[test]
fn every_help_example_runs_as_pasted() {
    let bin_dir = Path::new(MIMEBASE).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut helps = vec![("mimebase".to_owned(), stdout(&mimebase(&["--help"], b"")))];
    for name in command_names() {
        let help = stdout(&mimebase(&[&name, "--help"], b""));
        helps.push((name, help));
    }
    let mut ran = 0;
    for (index, (name, help)) in helps.iter().enumerate() {
        let lines = examples(help);
        assert!(!lines.is_empty(), "{name} --help has no examples:\n{help}");
        for (number, line) in lines.iter().enumerate() {
            assert!(line.contains("mimebase "), "{name}: {line}");
            let dir = example_dir(&format!("{index}-{number}"));
            let output = Command::new("sh")
                .args(["-c", line])
                .current_dir(&dir)
                .env("PATH", &path)
                .env("HOME", dir.join("home"))
                .env_remove("NO_COLOR")
                .env_remove("CLICOLOR_FORCE")
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .output()
                .unwrap();
            assert_eq!(
                output.status.code(),
                Some(0),
                "{name} --help example `{line}`: {}",
                String::from_utf8_lossy(&output.stderr)
            );
            ran += 1;
        }
    }
    assert!(ran >= 20, "{ran}");
}

/// The `resolve` example that once had an unquoted `;`: pasted, it prints the results of
/// RFC 1808 §5.1's examples (the expected values are the RFC's own).
#[test]
fn the_resolve_example_prints_the_rfc_1808_results() {
    let help = stdout(&mimebase(&["resolve", "--help"], b""));
    let line = examples(&help)
        .into_iter()
        .find(|line| line.contains("d;p?q"))
        .unwrap();
    let bin_dir = Path::new(MIMEBASE).parent().unwrap();
    let output = Command::new("sh")
        .args(["-c", &line])
        .env("PATH", format!("{}:/usr/bin:/bin", bin_dir.display()))
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        "http://a/b/c/g\nhttp://a/b/g\nhttp://g\n"
    );
}
