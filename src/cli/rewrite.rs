//! `mimebase rewrite`: one message, or each message of an mbox, with the relative URLs of its
//! HTML bodies made absolute, written to stdout, to `-o OUTPUT` or over the input
//! (`--in-place`), the last two by way of a temporary file and a rename (see `write`: the
//! owner, group, mode and extended attributes of a replaced file are kept, `-o` writes
//! through a file that is not regular, `--in-place` refuses one, and a signal removes the
//! temporary file).
//!
//! With `--in-place`, several inputs, directories and Maildirs are walked as `scan` walks
//! them, and each file found goes through the one-input code ([`run`]).
//!
//! # An mbox
//!
//! An input that starts with `From ` is an mbox (the rule of [`mailbox::is_mbox`], which
//! [`mailbox::open`] applies; a byte order mark before it is written back as it was), read by
//! the library's [`Mbox`] one message at a time, as stored (its mboxrd quoting kept). The output is the same mbox with each message rewritten: for
//! each message, its stored bytes are unquoted ([`mailbox::unquote`], what `inspect`,
//! `urls` and `scan` analyze), rewritten against its own bases, and quoted again
//! ([`mailbox::quote`]); the empty lines that separate messages (where there is one), and
//! one final empty line, are written back as they were (`\n` or `\r\n`), and so is each `From ` line, which
//! `rewrite` never changes. So a message that needs no rewriting comes back byte for byte,
//! and splitting the output gives each message rewritten.
//!
//! Where that could alter a byte that was not meant to change, the message is written back
//! as stored, unrewritten, with a diagnostic on stderr (as a part that cannot be re-encoded
//! is): a message with a line after its `From ` line that begins with `From ` unquoted (a
//! From field in its header block, `From : …`, which is no separator: quoting it would add a
//! `>`), or whose rewritten form would not split back the same. A message over
//! `--max-message-bytes` is copied from the input file as it is, with a diagnostic; from
//! standard input it cannot be (its bytes were not kept), and neither can a read error be
//! passed over: the mbox cannot be written whole, so `-o` and `--in-place` write nothing, the
//! output on stdout stops there, and the exit code is 1.
//!
//! # A compressed input
//!
//! A compressed input (gzip, bzip2, xz or zstd, told by its magic number, as every command
//! reads it) is rewritten decompressed: to stdout or `-o`, the output is the decompressed
//! message or mbox, rewritten. `--in-place` refuses it before anything is opened for
//! writing or locked (exit code 1): writing it back decompressed would change what the file
//! is, and compressing it again would not give back its own compression settings. A message
//! of a compressed mbox over `--max-message-bytes` cannot be copied from the file (its
//! offset is in the decompressed stream), so it ends the output as from standard input.
//!
//! # `--in-place` and other writers
//!
//! An mbox rewritten in place is locked as the mail system locks it, from before it is read
//! until after the rename ([`mailbox::lock`]: `fcntl`, `flock` and `FILE.lock`, a wait of
//! at most 10 s), and read through the locked descriptor. Just before the rename, the file
//! is checked unchanged (its path names the same inode, of the same size and modification
//! time): when it changed (a program that ignores the locks wrote to it), the rewrite starts
//! again from the file as it now is, up to [`ATTEMPTS`] times. Any other file (a message of
//! a Maildir) is not locked (one message per file, replaced by a rename), but is checked the
//! same way, and one whose path names no file any more (a Maildir message moved from `new/`
//! to `cur/`) is not written back: that would deliver it twice. Each of these ends is exit
//! code 1 with the file as it is.

use std::cell::Cell;
use std::fs::File;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[cfg(unix)]
use mimebase::mailbox::lock::LockError;
use mimebase::mailbox::{self, Found, Input, Mbox, Message, Roots, Stream, Walker};
use mimebase::scan::{Compression, ScanErrorKind, Source};
use mimebase::{DiagnosticKind, Options, Report};

use super::args::RewriteArgs;
use super::output::{Name, escape, failure_message, place};
use super::write::{self, Destination, Output, Temporary};
use super::{EXIT_INPUT_FAILED, EXIT_USAGE, usage_error, write_all, write_failed};

/// Runs `mimebase rewrite`: one input (a file that is not a directory, or standard input) as
/// [`run_one`] rewrites it; with several inputs, or a directory, `--in-place` is required and
/// every file the walk finds (as `scan` walks, with `--hidden`, `--glob` and `--iglob`) is
/// rewritten in place by [`run_one`], so byte for byte as `rewrite --in-place FILE` rewrites
/// it alone (an mbox whole, locked; a Maildir message under its own name). A file that cannot
/// be read or is not written back (it changed, or went away), and one that is not a regular
/// file, is named on stderr and the next is rewritten (exit code 1 at the end); a file that
/// cannot be written (a full disk) stops the run there (exit code 2), the files rewritten
/// before it kept, as each one is complete. The paths of `--paths-from` are inputs too, so
/// they need `--in-place`; without them, no input at all is standard input.
pub(crate) fn run(args: &RewriteArgs) -> ExitCode {
    let list = args.list.list();
    if list.is_none() {
        match args.files.as_slice() {
            [] => return run_one(args, Path::new("-")),
            [file] if !std::fs::metadata(file).is_ok_and(|m| m.is_dir()) => {
                return run_one(args, file);
            }
            _ => {}
        }
    }
    if !args.in_place {
        usage_error(
            Some("rewrite"),
            "several inputs, a directory, or --paths-from are rewritten with --in-place only \
             (standard output and -o take one message)",
        );
    }
    if args.files.iter().any(|file| file == Path::new("-")) {
        usage_error(
            Some("rewrite"),
            "--in-place needs a FILE: standard input cannot be replaced",
        );
    }
    if let Err(error) = write::remove_on_signal() {
        eprintln!("mimebase: {}", escape(&error.to_string()));
        return ExitCode::from(EXIT_USAGE);
    }
    let globs = super::globs_or_exit(&args.walk.globs, "rewrite");
    if args.list.reads_stdin() {
        super::hint_when_stdin_is_a_terminal();
    }
    let walker = Walker::new(Roots::new(args.files.clone(), list))
        .with_hidden(args.walk.hidden)
        .with_globs(globs);
    let mut worst = ExitCode::SUCCESS;
    for found in walker {
        let code = match found {
            Found::File { path, .. } => match std::fs::metadata(&path) {
                Ok(metadata) if !metadata.is_file() => {
                    let source = Source::unknown("").with_path(&path);
                    input_failed(
                        &source,
                        &format!(
                            "{}: --in-place replaces only a regular file; skipped",
                            write::kind_of(&metadata)
                        ),
                    )
                }
                _ => run_one(args, &path),
            },
            Found::Error { path, error } => {
                input_failed(&Source::unknown("").with_path(&path), &error.to_string())
            }
            Found::DanglingLink { path } => {
                let source = Source::unknown("").with_path(&path);
                let name = Name::of(&source);
                eprintln!(
                    "mimebase: {}: skipped: a symbolic link to nothing",
                    name.escaped()
                );
                ExitCode::SUCCESS
            }
            // Refused above among the arguments; here, a `-` listed in --paths-from.
            Found::Stdin => usage_error(
                Some("rewrite"),
                "--in-place needs a FILE: standard input (`-`, listed in --paths-from) cannot \
                 be replaced",
            ),
        };
        if code == ExitCode::from(EXIT_USAGE) {
            return code;
        }
        if code != ExitCode::SUCCESS {
            worst = code;
        }
    }
    worst
}

/// Rewrites the one input `file` (`-`: standard input), as `mimebase rewrite FILE` does.
fn run_one(args: &RewriteArgs, file: &Path) -> ExitCode {
    let reads_stdin = file == Path::new("-");
    if args.in_place && reads_stdin {
        usage_error(
            Some("rewrite"),
            "--in-place needs a FILE: standard input cannot be replaced",
        );
    }
    if args.in_place
        && let Ok(metadata) = std::fs::metadata(file)
        && !metadata.is_file()
    {
        // As `sed -i` refuses it, but before opening it: a FIFO would wait for a writer.
        eprintln!(
            "mimebase: {}: {}: --in-place replaces only a regular file; nothing written \
             (use -o to write through it)",
            escape(&file.display().to_string()),
            write::kind_of(&metadata)
        );
        return ExitCode::from(EXIT_USAGE);
    }
    if (args.in_place || args.output.is_some())
        && let Err(error) = write::remove_on_signal()
    {
        eprintln!("mimebase: {}", escape(&error.to_string()));
        return ExitCode::from(EXIT_USAGE);
    }
    #[cfg(unix)]
    if args.in_place && std::fs::metadata(file).is_ok_and(|m| m.is_file()) {
        return in_place::run(args, file);
    }
    let name = file.display().to_string();
    if reads_stdin {
        super::hint_when_stdin_is_a_terminal();
        return rewrite_from(args, file, io::stdin(), None, None);
    }
    match File::open(file).and_then(|opened| Ok((opened.metadata()?, opened))) {
        Ok((metadata, opened)) => {
            let size = metadata.is_file().then_some(metadata.len());
            rewrite_from(args, file, opened, size, None)
        }
        Err(error) => input_failed(&Source::unknown(name), &error.to_string()),
    }
}

/// Rewrites what `reader` reads (a regular file of `size` bytes, when it is one); with a
/// `guard`, the file checked before it is replaced. A regular file larger than
/// `--max-message-bytes` that is not an mbox is not read (as every command reads a file);
/// an mbox streams, one message at a time.
fn rewrite_from<R: Read>(
    args: &RewriteArgs,
    file: &Path,
    mut reader: R,
    size: Option<u64>,
    guard: Option<&Guard<'_>>,
) -> ExitCode {
    let name = file.display().to_string();
    let limit = args.limits.max_message_bytes;
    if let Some(size) = size.filter(|&size| size > limit) {
        let mut head = Vec::with_capacity(mailbox::MBOX_HEAD_BYTES);
        let most = mailbox::MBOX_HEAD_BYTES as u64;
        if let Err(error) = reader.by_ref().take(most).read_to_end(&mut head) {
            return input_failed(&Source::unknown(name), &error.to_string());
        }
        // A compressed file's size is not that of what it holds: it streams.
        if !mailbox::is_mbox(&head) && Compression::sniff(&head).is_none() {
            let Message { source, input } = Message::too_large(Source::file(name, size), limit);
            let Input::Error(kind, message) = input else {
                return ExitCode::from(EXIT_INPUT_FAILED);
            };
            return input_failed(&source, &failure_message(kind, &message));
        }
        return rewrite_stream(args, file, io::Cursor::new(head).chain(reader), guard);
    }
    rewrite_stream(args, file, reader, guard)
}

/// Rewrites what `reader` reads from its start, as [`rewrite_from`] does.
fn rewrite_stream<R: Read>(
    args: &RewriteArgs,
    file: &Path,
    reader: R,
    guard: Option<&Guard<'_>>,
) -> ExitCode {
    let options = args
        .resolution
        .options()
        .with_max_message_bytes(args.limits.bytes());
    let name = file.display().to_string();
    let limit = args.limits.max_message_bytes;
    match mailbox::open_stream(name, reader, limit) {
        Stream::One(message) => rewrite_one(args, file, message, &options, guard),
        Stream::Mbox(mbox) => rewrite_mbox(args, file, mbox.with_unquoting(false), &options, guard),
    }
}

/// Without Unix there is no locking, and nothing checks a file before it is replaced.
#[cfg(not(unix))]
#[derive(Debug, thiserror::Error)]
enum LockError {
    #[error("the file changed since it was read")]
    Changed,
    #[error("the file is gone since it was read")]
    Gone,
}

/// How many times `--in-place` reads and rewrites a file that changed meanwhile before it
/// gives up: a program that ignores the locks and keeps writing should not keep mimebase
/// busy for ever.
pub(crate) const ATTEMPTS: u32 = 3;

/// The file an `--in-place` rewrite read, checked just before the rename.
pub(crate) struct Guard<'a> {
    /// The open (and, for an mbox, locked) file, read again for a message over the limit.
    file: &'a File,
    /// The check: `Ok` when the file is as it was read.
    check: &'a dyn Fn() -> Result<(), LockError>,
    /// The check found the file changed: the caller reads and rewrites it again.
    changed: Cell<bool>,
}

impl Guard<'_> {
    /// The check before the rename, as an I/O error that [`output_failed`] tells apart.
    fn check(&self) -> io::Result<()> {
        (self.check)().map_err(|error| {
            self.changed.set(matches!(error, LockError::Changed));
            io::Error::other(error)
        })
    }
}

#[cfg(unix)]
mod in_place {
    use std::io::{Seek as _, SeekFrom};

    use mimebase::mailbox::lock::{Locker, OpenedFile};

    use super::*;

    /// `--in-place` on a regular file: an mbox locked, any file checked unchanged before the
    /// rename, and read and rewritten again when it changed.
    pub(super) fn run(args: &RewriteArgs, file: &Path) -> ExitCode {
        let source = Source::unknown(file.display().to_string());
        // The file a symbolic link names is the one replaced, and the one locked.
        let path = match std::fs::canonicalize(file) {
            Ok(path) => path,
            Err(error) => return input_failed(&source, &error.to_string()),
        };
        let mut head = Vec::with_capacity(mailbox::MBOX_HEAD_BYTES);
        let most = mailbox::MBOX_HEAD_BYTES as u64;
        if let Err(error) = File::open(&path).and_then(|f| f.take(most).read_to_end(&mut head)) {
            return input_failed(&source, &error.to_string());
        }
        if let Some(compression) = Compression::sniff(&head) {
            // Writing it back decompressed would change what the file is; compressing it
            // again would not give back the file's own compression settings.
            return input_failed(
                &source,
                &format!(
                    "the file is {}-compressed: --in-place cannot replace it; nothing written \
                     (use -o, which writes the rewritten messages decompressed)",
                    compression.as_str()
                ),
            );
        }
        if mailbox::is_mbox(&head) {
            let mut locked = match Locker::new().lock(&path) {
                Ok(locked) => locked,
                Err(error) => {
                    return input_failed(&source, &format!("{error}; the file is left as it was"));
                }
            };
            // Removed by a signal too; forgotten (dropped: declared after `locked`) before
            // `locked` removes it, so that a signal then cannot remove another's.
            let _dotlock = write::Registration::dotlock_of(&path);
            for _ in 0..ATTEMPTS {
                let mut reader = locked.file();
                if let Err(error) = reader.seek(SeekFrom::Start(0)) {
                    return input_failed(&source, &error.to_string());
                }
                let check = || locked.check_unchanged();
                let guard = Guard {
                    file: locked.file(),
                    check: &check,
                    changed: Cell::new(false),
                };
                let size = guard.file.metadata().ok().map(|m| m.len());
                let code = rewrite_from(args, file, reader, size, Some(&guard));
                if !guard.changed.get() {
                    return code;
                }
                if let Err(error) = locked.refresh() {
                    return input_failed(&source, &error.to_string());
                }
            }
            gave_up(&source)
        } else {
            for _ in 0..ATTEMPTS {
                let opened = match OpenedFile::open(&path) {
                    Ok(opened) => opened,
                    Err(error) => return input_failed(&source, &error.to_string()),
                };
                let check = || opened.check_unchanged();
                let guard = Guard {
                    file: opened.file(),
                    check: &check,
                    changed: Cell::new(false),
                };
                let size = guard.file.metadata().ok().map(|m| m.len());
                let code = rewrite_from(args, file, opened.file(), size, Some(&guard));
                if !guard.changed.get() {
                    return code;
                }
            }
            gave_up(&source)
        }
    }

    fn gave_up(source: &Source) -> ExitCode {
        input_failed(
            source,
            &format!(
                "the file changed while it was rewritten, {ATTEMPTS} times; it is left as it is"
            ),
        )
    }
}

/// Names the input (or the message of an mbox) on stderr with `message`; exit code 1.
fn input_failed(source: &Source, message: &str) -> ExitCode {
    eprintln!("mimebase: {}: {}", place(source), escape(message));
    ExitCode::from(EXIT_INPUT_FAILED)
}

/// Names each part that was left unchanged on stderr.
fn report_skipped(source: &Source, report: &Report) {
    for diagnostic in &report.diagnostics {
        if diagnostic.kind == DiagnosticKind::RewriteSkipped {
            let part = diagnostic.part.as_ref().map_or("", |p| p.as_str());
            eprintln!(
                "mimebase: {}: part {}: {}",
                place(source),
                escape(part),
                escape(&diagnostic.message)
            );
        }
    }
}

/// Where the output goes: stdout, or the file `-o` or `--in-place` names.
fn target(args: &RewriteArgs, file: &Path) -> Result<Option<PathBuf>, io::Error> {
    if args.in_place {
        // Follow a symbolic link, so that the file it names is replaced, not the link.
        std::fs::canonicalize(file).map(Some).map_err(|error| {
            if error.kind() == io::ErrorKind::NotFound {
                // Read, then moved (a Maildir message from `new/` to `cur/`): not recreated.
                io::Error::other(format!("{}; not written back", LockError::Gone))
            } else {
                error
            }
        })
    } else {
        Ok(args.output.clone())
    }
}

/// The exit after the output file could not be written, or (exit code 1) was not written
/// because the file it would replace changed or went away since it was read.
fn output_failed(path: &Path, error: &io::Error) -> ExitCode {
    match error.get_ref().and_then(|e| e.downcast_ref::<LockError>()) {
        // Read and rewritten again, or reported, by the caller.
        Some(LockError::Changed) => return ExitCode::from(EXIT_INPUT_FAILED),
        Some(LockError::Gone) => {
            eprintln!(
                "mimebase: {}: {}; not written back",
                escape(&path.display().to_string()),
                escape(&error.to_string())
            );
            return ExitCode::from(EXIT_INPUT_FAILED);
        }
        _ => {}
    }
    eprintln!(
        "mimebase: writing {}: {}",
        escape(&path.display().to_string()),
        escape(&error.to_string())
    );
    ExitCode::from(EXIT_USAGE)
}

/// A file that is one message (or standard input holding one).
fn rewrite_one(
    args: &RewriteArgs,
    file: &Path,
    message: Message,
    options: &Options,
    guard: Option<&Guard<'_>>,
) -> ExitCode {
    let Message { source, input } = message;
    let raw = match input {
        Input::Bytes(raw) => raw,
        Input::Error(kind, message) => {
            return input_failed(&source, &failure_message(kind, &message));
        }
    };
    let rewritten = mimebase::rewrite(&raw, options);
    report_skipped(&source, &rewritten.report);
    if args.in_place && rewritten.message == raw {
        return ExitCode::SUCCESS;
    }
    drop(raw);
    let path = match target(args, file) {
        Ok(None) => return write_all(&rewritten.message),
        Ok(Some(path)) => path,
        Err(error) => return input_failed(&source, &error.to_string()),
    };
    let written = open_output(args, &path).and_then(|mut output| {
        output.out().write_all(&rewritten.message)?;
        output.commit(|| checked(guard))
    });
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => output_failed(&path, &error),
    }
}

/// Opens the output file `path`: for `--in-place`, a temporary file that keeps the owner,
/// group, mode and extended attributes of the file it replaces; for `-o`, what
/// [`Destination::of`] tells (a new or replacing temporary file, or a file that is not
/// regular, written through).
fn open_output(args: &RewriteArgs, path: &Path) -> io::Result<Output> {
    if args.in_place {
        let metadata = std::fs::metadata(path)?;
        Temporary::new(path, Some(&metadata), 256 << 10).map(Output::Temporary)
    } else {
        Destination::of(path)?.open()
    }
}

/// The check before the rename, when there is a `guard`.
fn checked(guard: Option<&Guard<'_>>) -> io::Result<()> {
    guard.map_or(Ok(()), Guard::check)
}

/// Why an mbox could not be written back whole.
enum Failure {
    /// Reading the input, or a message that cannot be written back: named on stderr.
    Input(Source, String),
    /// Writing the output.
    Output(io::Error),
}

impl From<io::Error> for Failure {
    fn from(error: io::Error) -> Self {
        Failure::Output(error)
    }
}

/// An mbox: every message rewritten, to stdout or to a file written whole.
fn rewrite_mbox<R: Read>(
    args: &RewriteArgs,
    file: &Path,
    mbox: Mbox<R>,
    options: &Options,
    guard: Option<&Guard<'_>>,
) -> ExitCode {
    let name = file.display().to_string();
    let path = match target(args, file) {
        Ok(path) => path,
        Err(error) => return input_failed(&Source::unknown(name), &error.to_string()),
    };
    // A message over the limit is copied from the file, which must then be one that can be
    // read from an offset (not a FIFO or a device, nor a compressed file, whose offsets are
    // in the decompressed stream): the guarded file itself (a locked file must not be opened
    // and closed again: that would release its `fcntl` lock), or the file opened again.
    let reopened = match guard {
        Some(_) => None,
        None => (file != Path::new("-")
            && mbox.compression().is_none()
            && std::fs::metadata(file).is_ok_and(|m| m.is_file()))
        .then(|| File::open(file).ok())
        .flatten(),
    };
    let input_file = guard.map(|g| g.file).or(reopened.as_ref());
    match path {
        None => {
            let stdout = io::stdout();
            let mut out = io::BufWriter::with_capacity(256 << 10, stdout.lock());
            let done = write_mbox(mbox, input_file, options, &mut out);
            let flushed = out.flush();
            match (done, flushed) {
                (Err(Failure::Input(source, message)), _) => {
                    eprintln!(
                        "mimebase: {}: {}; the output stops before this message",
                        place(&source),
                        escape(&message)
                    );
                    ExitCode::from(EXIT_INPUT_FAILED)
                }
                (Err(Failure::Output(error)), _) | (Ok(_), Err(error)) => write_failed(&error),
                (Ok(written), Ok(())) => exit(&written),
            }
        }
        Some(path) => {
            let mut output = match open_output(args, &path) {
                Ok(output) => output,
                Err(error) => return output_failed(&path, &error),
            };
            match write_mbox(mbox, input_file, options, output.out()) {
                Err(Failure::Input(source, message)) => {
                    eprintln!(
                        "mimebase: {}: {}; nothing written to {}",
                        place(&source),
                        escape(&message),
                        escape(&path.display().to_string())
                    );
                    ExitCode::from(EXIT_INPUT_FAILED)
                }
                Err(Failure::Output(error)) => output_failed(&path, &error),
                // `--in-place` leaves a file in which nothing changed untouched.
                Ok(written) if args.in_place && !written.changed => exit(&written),
                Ok(written) => match output.commit(|| checked(guard)) {
                    Ok(()) => exit(&written),
                    Err(error) => output_failed(&path, &error),
                },
            }
        }
    }
}

/// The exit code of an mbox written whole: 1 when a message was not analyzed.
fn exit(written: &Written) -> ExitCode {
    if written.too_large {
        ExitCode::from(EXIT_INPUT_FAILED)
    } else {
        ExitCode::SUCCESS
    }
}

/// The separator or final line of `length` bytes that [`Mbox`] leaves between or after
/// messages: an empty line.
fn empty_line(length: u64, at: &Source) -> Result<&'static [u8], Failure> {
    match length {
        0 => Ok(b""),
        1 => Ok(b"\n"),
        2 => Ok(b"\r\n"),
        _ => Err(Failure::Input(
            at.clone(),
            format!(
                "{length} bytes between two messages, where the mbox reader leaves one empty line (a bug: please report it)"
            ),
        )),
    }
}

/// What writing an mbox back did.
#[derive(Default)]
struct Written {
    /// Some byte changed.
    changed: bool,
    /// Some message was over the limit, copied as it was without being analyzed (exit
    /// code 1, as for every command).
    too_large: bool,
}

/// Writes every message of `mbox`, rewritten, to `out`.
fn write_mbox<R: Read>(
    mut mbox: Mbox<R>,
    input_file: Option<&File>,
    options: &Options,
    out: &mut dyn Write,
) -> Result<Written, Failure> {
    let mut written = Written::default();
    // Where the previous message ended in the file.
    let mut end = 0;
    let mut last = None;
    while let Some(Message { source, input }) = mbox.next() {
        if last.is_none()
            && let Some(mark) = mbox.byte_order_mark()
        {
            // A byte order mark before the first `From ` line, in no message, kept.
            out.write_all(mark)?;
            end = mark.len() as u64;
        }
        let (Some(offset), Some(length)) = (source.offset, source.length) else {
            let message = match input {
                Input::Error(_, message) => message,
                Input::Bytes(_) => "no offset".to_owned(),
            };
            return Err(Failure::Input(source, message));
        };
        out.write_all(empty_line(offset.saturating_sub(end), &source)?)?;
        match input {
            Input::Bytes(stored) => {
                written.changed |= write_message(&source, stored, options, out)?;
            }
            Input::Error(ScanErrorKind::TooLarge, message) => {
                let message = failure_message(ScanErrorKind::TooLarge, &message);
                let Some(file) = input_file else {
                    return Err(Failure::Input(
                        source,
                        format!(
                            "{message}: its bytes were not kept, and cannot be read again from \
                             a stream, so the mbox cannot be written back whole"
                        ),
                    ));
                };
                copy_stored(file, offset, length, out).map_err(|error| match error {
                    Failure::Input(_, why) => Failure::Input(source.clone(), why),
                    output => output,
                })?;
                eprintln!(
                    "mimebase: {}: {}; written back as it was",
                    place(&source),
                    escape(&message)
                );
                written.too_large = true;
            }
            Input::Error(_, message) => return Err(Failure::Input(source, message)),
        }
        end = offset + length;
        last = Some(source);
    }
    if let Some(last) = last {
        out.write_all(empty_line(mbox.position().saturating_sub(end), &last)?)?;
    }
    Ok(written)
}

/// Copies `length` bytes at `offset` of `file` (a message over the limit) to `out`, without
/// moving the file's position (from which the mbox is being read).
fn copy_stored(file: &File, offset: u64, length: u64, out: &mut dyn Write) -> Result<(), Failure> {
    let input = |error: io::Error| Failure::Input(Source::unknown(""), error.to_string());
    let mut buffer = vec![0; 64 << 10];
    let mut copied: u64 = 0;
    loop {
        let want =
            usize::try_from(length.saturating_sub(copied).min(buffer.len() as u64)).unwrap_or(0);
        let Some(chunk) = buffer.get_mut(..want) else {
            break;
        };
        if chunk.is_empty() {
            break;
        }
        let read = match read_at(file, chunk, offset + copied) {
            Ok(0) => break,
            Ok(read) => read,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
            Err(error) => return Err(input(error)),
        };
        out.write_all(buffer.get(..read).unwrap_or_default())?;
        copied += read as u64;
    }
    if copied != length {
        return Err(input(io::Error::other(
            "the file changed while it was read",
        )));
    }
    Ok(())
}

/// Reads at `offset` of `file` without moving its position.
#[cfg(unix)]
fn read_at(file: &File, buffer: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::unix::fs::FileExt::read_at(file, buffer, offset)
}

/// Reads at `offset` of `file` without moving its position.
#[cfg(windows)]
fn read_at(file: &File, buffer: &mut [u8], offset: u64) -> io::Result<usize> {
    std::os::windows::fs::FileExt::seek_read(file, buffer, offset)
}

/// One stored message of an mbox: unquoted, rewritten, quoted again, or written back as
/// stored where that would change a byte it should not. True when it changed.
fn write_message(
    source: &Source,
    stored: Vec<u8>,
    options: &Options,
    out: &mut dyn Write,
) -> Result<bool, Failure> {
    let mut message = stored.clone();
    mailbox::unquote(&mut message);
    let rewritten = mimebase::rewrite(&message, options);
    report_skipped(source, &rewritten.report);
    if rewritten.message == message {
        out.write_all(&stored)?;
        return Ok(false);
    }
    let why = if mailbox::quoted_len(&message) != stored.len() {
        Some(
            "a line of the message begins with `From ` unquoted, which writing the mbox back \
             would quote",
        )
    } else {
        not_splitting_back(&message, &rewritten.message)
    };
    if let Some(why) = why {
        eprintln!("mimebase: {}: left as it was: {why}", place(source));
        out.write_all(&stored)?;
        return Ok(false);
    }
    drop((stored, message));
    mailbox::quote(&rewritten.message, out)?;
    Ok(true)
}

/// Why the rewritten `after` of the message `before` would not come back as one message
/// when the mbox is split again, if it would not: it must keep the `From ` line (the
/// envelope; `rewrite` never changes it) and end in a line break when the message did (a
/// message that is not the last one ends with one before the empty line that separates it).
/// Every later `From ` line is quoted, so none can start a message.
fn not_splitting_back(before: &[u8], after: &[u8]) -> Option<&'static str> {
    let first_line = before
        .iter()
        .position(|&b| b == b'\n')
        .map_or(before, |end| before.get(..=end).unwrap_or_default());
    if !after.starts_with(first_line) {
        return Some("the rewritten message would not keep its `From ` line");
    }
    if before.ends_with(b"\n") != after.ends_with(b"\n") {
        return Some("the rewritten message would not end as it did");
    }
    None
}
