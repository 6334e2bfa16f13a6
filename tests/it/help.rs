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
            // An example piping into a program this machine lacks cannot be run here.
            let missing = ["jq", "less", "man"].into_iter().find(|tool| {
                line.contains(&format!("| {tool} "))
                    && !Command::new("sh")
                        .args(["-c", &format!("command -v {tool}")])
                        .stdout(Stdio::null())
                        .status()
                        .unwrap()
                        .success()
            });
            if let Some(tool) = missing {
                crate::support::skipped(&format!("no {tool} installed: {line}"));
                continue;
            }
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

/// `mimebase man` and `mimebase man rewrite` have EXIT STATUS, ENVIRONMENT and EXAMPLES
/// sections; each example of `--help` is one unfilled line of EXAMPLES (`.nf`), with the
/// text `man` shows (checked by running `man -l` when it is installed).
#[test]
fn man_pages_have_exit_status_environment_and_unwrapped_examples() {
    for (args, help_args) in [
        (&["man"][..], &["--help"][..]),
        (&["man", "rewrite"][..], &["rewrite", "--help"][..]),
    ] {
        let output = mimebase(args, b"");
        assert_eq!(output.status.code(), Some(0), "{args:?}");
        let page = stdout(&output);
        for section in [
            ".SH \"EXIT STATUS\"",
            ".SH ENVIRONMENT",
            ".SH EXAMPLES\n.nf\n",
        ] {
            assert!(page.contains(section), "{args:?}: {section}\n{page}");
        }
        assert!(!page.contains(".SH EXTRA"), "{args:?}");
        for variable in ["NO_COLOR", "CLICOLOR_FORCE", "TERM"] {
            assert!(page.contains(&format!("\\fB{variable}\\fR")), "{variable}");
        }
        for code in ["0", "1", "2"] {
            assert!(page.contains(&format!(".TP\n\\fB{code}\\fR\n")), "{code}");
        }
        let examples_section = page.split(".SH EXAMPLES\n.nf\n").nth(1).unwrap();
        let (unfilled, _) = examples_section.split_once("\n.fi\n").unwrap();
        let help = stdout(&mimebase(help_args, b""));
        let expected = examples(&help);
        assert_eq!(unfilled.lines().count(), expected.len(), "{unfilled}");
        if Command::new("man").arg("--version").output().is_err() {
            continue;
        }
        // man at a narrow width: filled text would wrap the long examples.
        let mut man = Command::new("man")
            .args(["-l", "-"])
            .env("MANWIDTH", "50")
            .env_remove("MAN_KEEP_FORMATTING")
            .env_remove("MANPAGER")
            .env_remove("PAGER")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::io::Write::write_all(&mut man.stdin.take().unwrap(), page.as_bytes()).unwrap();
        let rendered = man.wait_with_output().unwrap();
        assert!(rendered.status.success(), "{args:?}");
        let text = String::from_utf8(rendered.stdout).unwrap();
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        for example in &expected {
            assert!(
                lines.contains(&example.as_str()),
                "{args:?}: `{example}` is not a line of:\n{text}"
            );
        }
    }
}

/// The bash completion offers the command names after `mimebase man` (run in bash: the
/// completion function is called as bash calls it), and directories for `extract --dir`
/// (clap_complete's rendering of `ValueHint::DirPath`: `compopt -o plusdirs`).
#[test]
fn bash_completes_man_commands_and_extract_dir() {
    let script = stdout(&mimebase(&["completions", "bash"], b""));
    let program = format!(
        "{script}\nCOMP_WORDS=(mimebase man re); COMP_CWORD=2; COMP_LINE='mimebase man re'; \
         COMP_POINT=${{#COMP_LINE}}; _mimebase mimebase re man; echo \"${{COMPREPLY[@]}}\""
    );
    let output = Command::new("bash")
        .args(["-c", &program])
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(output.status.success());
    let offered = String::from_utf8(output.stdout).unwrap();
    let mut offered: Vec<&str> = offered.split_whitespace().collect();
    offered.sort_unstable();
    assert_eq!(offered, ["resolve", "rewrite"]);

    let extract = script
        .split("mimebase__subcmd__extract)")
        .nth(1)
        .unwrap()
        .split("\n        mimebase__")
        .next()
        .unwrap();
    let dir_case = extract.split("--dir)").nth(1).unwrap();
    let dir_case = dir_case.split(";;").next().unwrap();
    assert!(dir_case.contains("compopt -o plusdirs"), "{dir_case}");
    assert!(!dir_case.contains("compgen -f"), "{dir_case}");
}
