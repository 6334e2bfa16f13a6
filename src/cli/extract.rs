//! `mimebase extract PATH… --dir OUT`: the files of [`mimebase::extract`] written into OUT,
//! with `OUT/index.json`; the path of the main page (see [`mimebase::Extracted::root`]: the
//! main HTML file, else the file of the message's body) on stdout (escaped as all text
//! output is). Exit code 1 when the message cannot be read (also when a file exists and
//! `--force` is not given); 2 when a file cannot be written, or when OUT (or a directory
//! above it, or a message's `OUT/OFFSET/`) is a file: the error then names that path as not
//! a directory. Every error names the path it is about.
//!
//! An mbox input (one that starts with `From `, read by [`mimebase::mailbox`] as every
//! command reads it) that holds more than one message gives each message a directory of its
//! own, `OUT/OFFSET/`, OFFSET being the byte offset of its `From ` line in the file (the
//! offset `inspect`, `urls` and `scan` name it by), and one line on stdout per message. An
//! mbox holding one message is extracted into OUT itself, as a file holding one message is. A message that cannot be read or written is named on stderr and
//! the others are still extracted (exit code 1).
//!
//! # Many inputs
//!
//! Several PATHs, or one that is a directory, are walked as `scan` walks them (Maildirs,
//! `--hidden`, `--glob`, `--iglob`), and each file found is extracted as above into a folder
//! of its own, `OUT/NAME/RELATIVE/`: NAME is the file name of the PATH given (of the directory
//! it names for `.` or `..`; `NAME~2`, `NAME~3`, … for a later PATH whose name an earlier one
//! took, so two `inbox` directories stay apart), RELATIVE the file's path below that PATH
//! (nothing for a file given), so an mbox of several messages gives
//! `OUT/NAME/RELATIVE/OFFSET/`. The names are those of the files read, never taken from a
//! message, and made of plain path segments only, so nothing is written outside OUT; they
//! are the same from one run to the next over the same files (a Maildir message renamed for
//! its flags gets a new one). One PATH that is not a directory keeps the one-input layout
//! above: a message straight into OUT. A file found below OUT itself (OUT inside a directory
//! given) is passed over: it is extracted output, and reading it would write into OUT again.
//! An input that cannot be read is named on stderr and the others are extracted (exit code
//! 1); a file that cannot be written stops the run, as for one input.
//!
//! Nothing is written outside OUT: every name is a single safe path segment (the library's
//! rules, checked again here), and each file is written to a new temporary file in OUT then
//! renamed, so that no existing file or symbolic link is written through; with `--force` the
//! rename replaces an existing file or link. Without `--force`, nothing is written when any of
//! the names exists in OUT (and a name that appears meanwhile is not replaced).
//!
//! The files of a message are all written under temporary names before any is renamed, so a
//! failure while writing (a full disk) leaves none of them. A file or directory that cannot
//! be written stops the run: everything it wrote (files, and the directories it created,
//! when empty) is removed, the file is named on stderr, and the exit code is 2; a signal
//! removes the same (see `write`).
//!
//! `index.json` is one JSON object: `root` (the main page's file name, or `null` for a
//! message without any file) and
//! `files`, one object per file in document order: `file` (its name in OUT), `part` (IMAP
//! part identifier), `content_type`, `base` (the part's effective base URL or `null`),
//! `content_location` (resolved when it could be, else as written, or `null`),
//! `rewritten_urls` (how many URLs of an HTML, SVG or CSS file were changed: pointed at other
//! files, made absolute or inert), `inert_urls` (of those, how many were made inert, by why:
//! an object of `unresolved`, `file` and `offline`, the counts of
//! [`mimebase::extract::InertUrls`]) and `csp` (true when a Content-Security-Policy was
//! inserted: a page written offline).
//!
//! Offline (the default, `--offline`), every URL that names no part and is not a `data:`,
//! `about:` or `blob:` URL is written inert, and every page carries a policy that forbids
//! network loads ([`mimebase::extract::Network::Offline`]); `--online` keeps URLs on the web.
//! Whatever is written inert is counted on stderr, by why ([`mimebase::extract::InertUrls`]),
//! one line per message that has any.

use std::collections::HashSet;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};
use std::process::ExitCode;

use mimebase::extract::{InertUrls, Network};
use mimebase::scan::Source;
use mimebase::{DiagnosticKind, Extracted, Options};

use mimebase::mailbox::{self, Found, Input, Message, Opened, Roots, Walker};

use super::args::ExtractArgs;
use super::output::{escape, failure_message, place};
use super::write::{self, Temporary};
use super::{EXIT_INPUT_FAILED, EXIT_USAGE, messages, write_failed};

/// Runs `mimebase extract`.
pub(crate) fn run(args: &ExtractArgs) -> ExitCode {
    let options = args
        .resolution
        .options()
        .with_max_message_bytes(args.limits.bytes());
    let network = if args.online {
        Network::Online
    } else {
        Network::Offline
    };
    if let Err(error) = write::remove_on_signal() {
        eprintln!("mimebase: {}", escape(&error.to_string()));
        return ExitCode::from(EXIT_USAGE);
    }
    let limit = args.limits.max_message_bytes;
    let run = Run {
        args,
        options: &options,
        network,
    };
    let mut failed = false;
    let list = args.list.list();
    let stdin_only = [PathBuf::from("-")];
    let files = match args.files.as_slice() {
        [] if list.is_none() => &stdin_only[..],
        files => files,
    };
    if let [file] = files
        && list.is_none()
        && !fs::metadata(file).is_ok_and(|m| m.is_dir())
    {
        if file == Path::new("-") {
            super::hint_when_stdin_is_a_terminal();
        }
        match run.messages(messages(file, limit), &args.dir) {
            Ok(file_failed) => failed = file_failed,
            Err(code) => return code,
        }
    } else {
        if files.iter().any(|file| file == Path::new("-")) {
            super::usage_error(
                Some("extract"),
                "standard input (-) is extracted alone, not with other inputs",
            );
        }
        if args.list.reads_stdin() {
            super::hint_when_stdin_is_a_terminal();
        }
        let globs = super::globs_or_exit(&args.walk.globs, "extract");
        let mut claimed = HashSet::new();
        // OUT as the file system names it, once it exists: the files below it are what this
        // run (or an earlier one) wrote, not mail, and reading them would write into OUT
        // again, deeper at each level.
        let mut own: Option<PathBuf> = None;
        for root in Roots::new(files.to_vec(), list) {
            let root = match root {
                Ok(root) => root,
                // The list could not be read: named, and the end of the roots.
                Err(found) => {
                    if let Found::Error { path, error } = found {
                        say_failed(&path, &error);
                    }
                    failed = true;
                    continue;
                }
            };
            if root == Path::new("-") {
                // Listed in --paths-from: standard input goes alone (see above).
                eprintln!(
                    "mimebase: extract: `-` listed in --paths-from: standard input (-) is \
                     extracted alone, not with other inputs; skipped"
                );
                failed = true;
                continue;
            }
            let top = unique(&mut claimed, label(&root));
            let walker = Walker::new(Roots::new(vec![root.clone()], None))
                .with_hidden(args.walk.hidden)
                .with_globs(globs.clone());
            for found in walker {
                let (path, in_maildir) = match found {
                    Found::File { path, in_maildir } => (path, in_maildir),
                    Found::Error { path, error } => {
                        say_failed(&path, &error);
                        failed = true;
                        continue;
                    }
                    Found::DanglingLink { path } => {
                        let source = Source::unknown("").with_path(&path);
                        eprintln!(
                            "mimebase: {}: skipped: a symbolic link to nothing",
                            place(&source)
                        );
                        continue;
                    }
                    // Refused above: `-` is not walked with other inputs.
                    Found::Stdin => continue,
                };
                if own.is_none() {
                    own = fs::canonicalize(&args.dir).ok();
                }
                if let Some(own) = &own
                    && fs::canonicalize(&path).is_ok_and(|real| real.starts_with(own))
                {
                    continue;
                }
                let dir = folder(&args.dir, &top, &root, &path);
                let messages = match mailbox::open(Found::File { path, in_maildir }, limit) {
                    Opened::One(message) => Box::new(std::iter::once(message)),
                    Opened::Many(messages) => messages,
                };
                match run.messages(messages, &dir) {
                    Ok(file_failed) => failed |= file_failed,
                    Err(code) => return code,
                }
            }
        }
    }
    write::keep_all();
    if failed {
        ExitCode::from(EXIT_INPUT_FAILED)
    } else {
        ExitCode::SUCCESS
    }
}

/// Names on stderr a path that could not be read, and why.
fn say_failed(path: &Path, error: &io::Error) {
    let source = Source::unknown("").with_path(path);
    eprintln!(
        "mimebase: {}: {}",
        place(&source),
        escape(&error.to_string())
    );
}

/// What every message of a run is extracted with.
struct Run<'a> {
    args: &'a ExtractArgs,
    options: &'a Options,
    network: Network,
}

impl Run<'_> {
    /// Extracts the messages of one input file into `out`: one message into `out` itself, and
    /// each message of an mbox holding several into `out/OFFSET/`. `Ok(true)` when a message
    /// could not be read or its files were refused (named on stderr; the others extracted);
    /// `Err` with the exit code when the run stops (a file that could not be written).
    fn messages(
        &self,
        messages: Box<dyn Iterator<Item = Message> + Send>,
        out: &Path,
    ) -> Result<bool, ExitCode> {
        let mut messages = messages.peekable();
        let mut failed = false;
        let mut several = false;
        while let Some(Message { source, input }) = messages.next() {
            // Known once the second message of an mbox is read: each message then has a
            // directory of its own, named by its offset.
            several |= messages.peek().is_some();
            let dir = match source.offset {
                Some(offset) if several => out.join(offset.to_string()),
                _ => out.to_path_buf(),
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
            let extracted = mimebase::extract::extract_with(&raw, self.options, self.network);
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
            if let Some(note) = inert_note(&extracted) {
                eprintln!("mimebase: {label}: {note}");
            }
            match write(&dir, &extracted, self.args.force) {
                Ok(()) => {}
                Err(Failure::Refused(error)) => {
                    eprintln!(
                        "mimebase: {}: {}",
                        escape(&dir.display().to_string()),
                        escape(&error.to_string())
                    );
                    failed = true;
                    continue;
                }
                Err(Failure::Write(path, error)) => {
                    let removed = removed_note(write::remove_all());
                    eprintln!(
                        "mimebase: writing {}: {}{removed}",
                        escape(&path.display().to_string()),
                        escape(&error.to_string())
                    );
                    return Err(ExitCode::from(EXIT_USAGE));
                }
                Err(Failure::NotADirectory(path)) => {
                    let removed = removed_note(write::remove_all());
                    eprintln!(
                        "mimebase: {}: not a directory (a file of that name exists){removed}",
                        escape(&path.display().to_string()),
                    );
                    return Err(ExitCode::from(EXIT_USAGE));
                }
            }
            if let Some(root) = &extracted.root {
                let stdout = io::stdout();
                let mut out = stdout.lock();
                let line = escape(&dir.join(root).display().to_string()).into_owned();
                if let Err(error) = writeln!(out, "{line}").and_then(|()| out.flush()) {
                    write::keep_all();
                    return Err(write_failed(&error));
                }
            }
        }
        Ok(failed)
    }
}

/// The name a path given to `extract` (with several inputs, or a directory) gives its folder
/// in OUT: its file name, or for a path that has none (`.`, `..`, `/`), that of the directory
/// it names, or `root`.
fn label(root: &Path) -> OsString {
    root.file_name()
        .map(OsString::from)
        .or_else(|| {
            fs::canonicalize(root)
                .ok()
                .and_then(|path| path.file_name().map(OsString::from))
        })
        .unwrap_or_else(|| OsString::from("root"))
}

/// `label`, or when an earlier path given took it, `label~2`, `label~3`, … (the first not
/// taken): two paths with the same file name (`a/inbox`, `b/inbox`) get folders of their own.
fn unique(claimed: &mut HashSet<OsString>, label: OsString) -> OsString {
    if claimed.insert(label.clone()) {
        return label;
    }
    // Among claimed.len() + 1 suffixes one is free: each path given claims one name.
    let tries = claimed.len() as u64 + 2;
    for n in 2..=tries {
        let mut candidate = label.clone();
        candidate.push(format!("~{n}"));
        if claimed.insert(candidate.clone()) {
            return candidate;
        }
    }
    label
}

/// The folder of the messages of the file `path`, found under the path given `root`:
/// `out/top/RELATIVE`, RELATIVE being its path below `root` (nothing for `root` itself). Only
/// the names the walk found go into it, so no `..` or root can lead out of `out`.
fn folder(out: &Path, top: &OsStr, root: &Path, path: &Path) -> PathBuf {
    let relative = path.strip_prefix(root).unwrap_or(Path::new(""));
    let mut folder = out.join(top);
    for component in relative.components() {
        if let Component::Normal(name) = component {
            folder.push(name);
        }
    }
    folder
}

/// How many URLs the files of `extracted` have inert, by why, when any: a page that shows
/// less than the message is never silent about it.
fn inert_note(extracted: &Extracted) -> Option<String> {
    let mut inert = InertUrls::default();
    for file in &extracted.files {
        inert.unresolved += file.inert_urls.unresolved;
        inert.file += file.inert_urls.file;
        inert.offline += file.inert_urls.offline;
    }
    let total = inert.total();
    if total == 0 {
        return None;
    }
    let kinds: Vec<String> = [
        (
            inert.unresolved,
            "relative, naming no part, with no base to resolve against",
        ),
        (inert.file, "file: URLs"),
        (inert.offline, "kept from the network (--online keeps them)"),
    ]
    .into_iter()
    .filter(|(count, _)| *count > 0)
    .map(|(count, why)| format!("{count} {why}"))
    .collect();
    let urls = if total == 1 { "URL" } else { "URLs" };
    Some(format!("{total} {urls} made inert: {}", kinds.join("; ")))
}

/// A file name that is one plain path segment (no root, no `..`, no separator).
fn is_single_segment(name: &str) -> bool {
    let mut components = Path::new(name).components();
    matches!(
        (components.next(), components.next()),
        (Some(Component::Normal(segment)), None) if segment == name
    )
}

/// Why a message's files were not written.
enum Failure {
    /// Refused before anything was written (a name that exists, a bad name): exit code 1,
    /// and the next message is still extracted.
    Refused(io::Error),
    /// A file or directory could not be written: what the run wrote is removed and the run
    /// stops, exit code 2.
    Write(PathBuf, io::Error),
    /// OUT, or a directory above it, or a message's directory in it, exists and is not a
    /// directory: handled as [`Failure::Write`], and said so, naming that path.
    NotADirectory(PathBuf),
}

/// The end of the message for a run stopped by a failed write: what became of the files and
/// directories it had written, when it had written any.
fn removed_note(any: bool) -> &'static str {
    if any {
        "; removed what this run had written"
    } else {
        ""
    }
}

/// Creates `dir` and the missing directories above it, each registered as written by this
/// run (so that a failure or a signal removes it when it is left empty).
fn create_dirs(dir: &Path) -> Result<(), Failure> {
    let mut missing = Vec::new();
    let mut next = Some(dir);
    while let Some(path) = next.filter(|p| !p.as_os_str().is_empty()) {
        if fs::symlink_metadata(path).is_ok() {
            // `is_dir` follows a symbolic link: a link to a directory is written into.
            if !path.is_dir() {
                return Err(Failure::NotADirectory(path.to_path_buf()));
            }
            break;
        }
        missing.push(path);
        next = path.parent();
    }
    for path in missing.into_iter().rev() {
        match write::create_dir(path) {
            Ok(()) => {}
            // Made meanwhile by another process: not this run's to remove.
            Err(error) if error.kind() == io::ErrorKind::AlreadyExists && path.is_dir() => {}
            Err(error) => return Err(Failure::Write(path.to_path_buf(), error)),
        }
    }
    Ok(())
}

/// Writes the files and `index.json` into `dir`: each to a temporary name in `dir`, and once
/// all are written, each renamed to its name, so that no file of the message is ever seen
/// half-written and a failure while writing (a full disk) leaves none of them.
fn write(dir: &Path, extracted: &Extracted, force: bool) -> Result<(), Failure> {
    let index = index_json(extracted).map_err(Failure::Refused)?;
    let mut files: Vec<(&str, &[u8])> = extracted
        .files
        .iter()
        .map(|f| (f.name.as_str(), f.bytes.as_slice()))
        .collect();
    files.push(("index.json", &index));
    if let Some((bad, _)) = files.iter().find(|(n, _)| !is_single_segment(n)) {
        return Err(Failure::Refused(io::Error::other(format!(
            "refusing the file name \"{bad}\": not one path segment"
        ))));
    }
    create_dirs(dir)?;
    let mut existing = Vec::new();
    for (name, _) in &files {
        if let Ok(metadata) = fs::symlink_metadata(dir.join(name)) {
            if metadata.is_dir() {
                return Err(Failure::Refused(io::Error::other(format!(
                    "{name} is a directory; not replaced"
                ))));
            }
            existing.push(*name);
        }
    }
    if !existing.is_empty() && !force {
        return Err(Failure::Refused(io::Error::new(
            io::ErrorKind::AlreadyExists,
            format!(
                "{} already exist(s) in the directory; nothing written (use --force to replace)",
                existing.join(", ")
            ),
        )));
    }
    let mut written = Vec::with_capacity(files.len());
    for (name, bytes) in &files {
        let path = dir.join(name);
        // Unbuffered: the bytes are written with one call, and closed at once.
        let file = Temporary::new(&path, None, 0).and_then(|mut file| {
            file.out().write_all(bytes)?;
            file.close()
        });
        match file {
            Ok(file) => written.push((path, file)),
            // The temporary files written so far are removed as `written` is dropped.
            Err(error) => return Err(Failure::Write(path, error)),
        }
    }
    for (path, file) in written {
        // With --force, a file or symbolic link of that name is replaced (a link is not
        // written through); without it, one made since the check above is not.
        let renamed = if force {
            file.commit_replacing()
        } else {
            file.commit_new()
        };
        if let Err(error) = renamed {
            return Err(Failure::Write(path, error));
        }
    }
    Ok(())
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
                "inert_urls": {
                    "unresolved": f.inert_urls.unresolved,
                    "file": f.inert_urls.file,
                    "offline": f.inert_urls.offline,
                },
                "csp": f.csp,
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
