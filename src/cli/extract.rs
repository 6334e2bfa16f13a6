//! `mimebase extract MESSAGE --dir OUT`: the files of [`mimebase::extract`] written into OUT,
//! with `OUT/index.json`; the path of the main HTML page on stdout (escaped as all text
//! output is). Exit code 1 when the message cannot be read or a file cannot be written
//! (also when one exists and `--force` is not given).
//!
//! An mbox input (its first five bytes `From `, read by [`mimebase::mailbox`] as every
//! command reads it) that holds more than one message gives each message a directory of its
//! own, `OUT/OFFSET/`, OFFSET being the byte offset of its `From ` line in the file (the
//! offset `inspect`, `urls` and `scan` name it by), and one line on stdout per message with
//! a main HTML page. An mbox holding one message is extracted into OUT itself, as a file
//! holding one message is. A message that cannot be read or written is named on stderr and
//! the others are still extracted (exit code 1).
//!
//! Nothing is written outside OUT: every name is a single safe path segment (the library's
//! rules, checked again here), files are created with `create_new` so that no existing file
//! or symbolic link is written through, and with `--force` an existing entry is removed
//! before the new file is created. Without `--force`, nothing is written when any of the
//! names exists in OUT.
//!
//! `index.json` is one JSON object: `root` (the main HTML page's file name, or `null`) and
//! `files`, one object per file in document order: `file` (its name in OUT), `part` (IMAP
//! part identifier), `content_type`, `base` (the part's effective base URL or `null`),
//! `content_location` (resolved when it could be, else as written, or `null`) and
//! `rewritten_urls` (how many URLs were pointed at other files).

use std::fs::{self, OpenOptions};
use std::io::{self, Write};
use std::path::{Component, Path};
use std::process::ExitCode;

use mimebase::{DiagnosticKind, Extracted};

use mimebase::mailbox::{Input, Message};

use super::args::ExtractArgs;
use super::output::{escape, failure_message, place};
use super::{EXIT_INPUT_FAILED, messages, write_failed};

/// Runs `mimebase extract`.
pub(crate) fn run(args: &ExtractArgs) -> ExitCode {
    let options = args.resolution.options();
    let mut messages = messages(&args.file, args.limits.max_message_bytes).peekable();
    let mut failed = false;
    let mut several = false;
    while let Some(Message { source, input }) = messages.next() {
        // Known once the second message of an mbox is read: each message then has a
        // directory of its own, named by its offset.
        several |= messages.peek().is_some();
        let dir = match source.offset {
            Some(offset) if several => args.dir.join(offset.to_string()),
            _ => args.dir.clone(),
        };
        let label = if several {
            place(&source)
        } else {
            escape(&source.path).into_owned()
        };
        let raw = match input {
            Input::Bytes(raw) => raw,
            Input::Error(kind, message) => {
                let message = failure_message(kind, &message);
                eprintln!("mimebase: {label}: {}", escape(&message));
                failed = true;
                continue;
            }
        };
        let extracted = mimebase::extract(&raw, &options);
        drop(raw);
        for diagnostic in &extracted.report.diagnostics {
            if matches!(
                diagnostic.kind,
                DiagnosticKind::RewriteSkipped | DiagnosticKind::UnmatchedCid
            ) {
                let part = diagnostic.part.as_ref().map_or("", |p| p.as_str());
                eprintln!(
                    "mimebase: {label}: part {part}: {}",
                    escape(&diagnostic.message)
                );
            }
        }
        if let Err(error) = write(&dir, &extracted, args.force) {
            eprintln!(
                "mimebase: {}: {}",
                escape(&dir.display().to_string()),
                escape(&error.to_string())
            );
            failed = true;
            continue;
        }
        if let Some(root) = &extracted.root {
            let stdout = io::stdout();
            let mut out = stdout.lock();
            let line = escape(&dir.join(root).display().to_string()).into_owned();
            if let Err(error) = writeln!(out, "{line}").and_then(|()| out.flush()) {
                return write_failed(&error);
            }
        }
    }
    if failed {
        ExitCode::from(EXIT_INPUT_FAILED)
    } else {
        ExitCode::SUCCESS
    }
}

/// A file name that is one plain path segment (no root, no `..`, no separator).
fn is_single_segment(name: &str) -> bool {
    let mut components = Path::new(name).components();
    matches!(
        (components.next(), components.next()),
        (Some(Component::Normal(segment)), None) if segment == name
    )
}

/// Writes the files and `index.json` into `dir`.
fn write(dir: &Path, extracted: &Extracted, force: bool) -> io::Result<()> {
    let index = index_json(extracted)?;
    let mut names: Vec<&str> = extracted.files.iter().map(|f| f.name.as_str()).collect();
    names.push("index.json");
    if let Some(bad) = names.iter().find(|n| !is_single_segment(n)) {
        return Err(io::Error::other(format!(
            "refusing the file name {bad:?}: not one path segment"
        )));
    }
    fs::create_dir_all(dir)?;
    let existing: Vec<&str> = names
        .iter()
        .copied()
        .filter(|n| fs::symlink_metadata(dir.join(n)).is_ok())
        .collect();
    if !existing.is_empty() && !force {
        return Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!(
                "{} already exist(s) in the directory; nothing written (use --force to replace)",
                existing.join(", ")
            ),
        ));
    }
    for file in &extracted.files {
        create(dir, &file.name, &file.bytes, force)?;
    }
    create(dir, "index.json", &index, force)
}

/// Creates `dir/name` anew with `bytes`; with `force`, an existing file or link of that name
/// is removed first (a directory is not).
fn create(dir: &Path, name: &str, bytes: &[u8], force: bool) -> io::Result<()> {
    let path = dir.join(name);
    if force && let Ok(metadata) = fs::symlink_metadata(&path) {
        if metadata.is_dir() {
            return Err(io::Error::other(format!(
                "{name} is a directory; not replaced"
            )));
        }
        fs::remove_file(&path)?;
    }
    let mut file = OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&path)?;
    file.write_all(bytes)?;
    file.flush()
}

fn index_json(extracted: &Extracted) -> io::Result<Vec<u8>> {
    let files: Vec<serde_json::Value> = extracted
        .files
        .iter()
        .map(|f| {
            serde_json::json!({
                "file": f.name,
                "part": f.part,
                "content_type": f.content_type,
                "base": f.base,
                "content_location": f.content_location,
                "rewritten_urls": f.rewritten_urls,
            })
        })
        .collect();
    let mut out = serde_json::to_vec_pretty(&serde_json::json!({
        "root": extracted.root,
        "files": files,
    }))
    .map_err(io::Error::other)?;
    out.push(b'\n');
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_segments() {
        assert!(is_single_segment("a.png"));
        for name in ["", ".", "..", "/a", "a/b", "../a", "a/"] {
            assert!(!is_single_segment(name), "{name:?}");
        }
    }
}
