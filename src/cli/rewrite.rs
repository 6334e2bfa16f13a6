//! `mimebase rewrite`: one message, or each message of an mbox, with the relative URLs of its
//! HTML bodies made absolute, written to stdout, to `-o OUTPUT` or over the input
//! (`--in-place`), the last two by way of a temporary file and a rename.
//!
//! # An mbox
//!
//! An input whose first five bytes are `From ` is an mbox (the rule of
//! [`mailbox::open`]), read by the library's [`Mbox`] one message at a time, as stored
//! (its mboxrd quoting kept). The output is the same mbox with each message rewritten: for
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

use std::fs::File;
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use mimebase::mailbox::{self, Input, Mbox, Message, Stream};
use mimebase::scan::{ScanErrorKind, Source};
use mimebase::{DiagnosticKind, Options, Report};

use super::args::RewriteArgs;
use super::output::{escape, failure_message, place};
use super::{EXIT_INPUT_FAILED, EXIT_USAGE, usage_error, write_all, write_failed};

/// Runs `mimebase rewrite`.
pub(crate) fn run(args: &RewriteArgs) -> ExitCode {
    let reads_stdin = args.file == Path::new("-");
    if args.in_place && reads_stdin {
        usage_error("--in-place needs a FILE: standard input cannot be replaced");
    }
    let options = args.resolution.options();
    let name = args.file.display().to_string();
    let limit = args.limits.max_message_bytes;
    let reader: Box<dyn Read + Send> = if reads_stdin {
        Box::new(io::stdin())
    } else {
        match File::open(&args.file) {
            Ok(file) => Box::new(file),
            Err(error) => return input_failed(&Source::unknown(name), &error.to_string()),
        }
    };
    match mailbox::open_stream(name, reader, limit) {
        Stream::One(message) => rewrite_one(args, message, &options),
        Stream::Mbox(mbox) => rewrite_mbox(args, mbox.with_unquoting(false), &options),
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
fn target(args: &RewriteArgs) -> Result<Option<PathBuf>, io::Error> {
    if args.in_place {
        // Follow a symbolic link, so that the file it names is replaced, not the link.
        std::fs::canonicalize(&args.file).map(Some)
    } else {
        Ok(args.output.clone())
    }
}

/// The exit after the output file could not be written.
fn output_failed(path: &Path, error: &io::Error) -> ExitCode {
    eprintln!(
        "mimebase: writing {}: {}",
        escape(&path.display().to_string()),
        escape(&error.to_string())
    );
    ExitCode::from(EXIT_USAGE)
}

/// A file that is one message (or standard input holding one).
fn rewrite_one(args: &RewriteArgs, message: Message, options: &Options) -> ExitCode {
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
    let path = match target(args) {
        Ok(None) => return write_all(&rewritten.message),
        Ok(Some(path)) => path,
        Err(error) => return input_failed(&source, &error.to_string()),
    };
    let written = Replacement::new(&path, args.in_place).and_then(|mut file| {
        file.out().write_all(&rewritten.message)?;
        file.commit()
    });
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => output_failed(&path, &error),
    }
}

/// A file written whole or not at all: a temporary file beside the target, flushed to the
/// disk, then renamed over it, so that a reader of the target sees the old file or the whole
/// new one, never a part. With `keep_permissions` (`--in-place`), the new file gets the
/// permissions of the file it replaces; otherwise those of a newly created file (`0666` less
/// the umask).
struct Replacement {
    path: PathBuf,
    file: io::BufWriter<tempfile::NamedTempFile>,
}

impl Replacement {
    fn new(path: &Path, keep_permissions: bool) -> io::Result<Self> {
        let directory = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let mut builder = tempfile::Builder::new();
        builder.prefix(".mimebase-").suffix(".tmp");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt as _;
            builder.permissions(std::fs::Permissions::from_mode(0o666));
        }
        let file = builder.tempfile_in(&directory)?;
        if keep_permissions {
            let permissions = std::fs::metadata(path)?.permissions();
            file.as_file().set_permissions(permissions)?;
        }
        Ok(Replacement {
            path: path.to_path_buf(),
            file: io::BufWriter::with_capacity(256 << 10, file),
        })
    }

    fn out(&mut self) -> &mut dyn Write {
        &mut self.file
    }

    /// Flushes the file to the disk and renames it over the target. Dropping a
    /// `Replacement` without this removes the temporary file and leaves the target as it was.
    fn commit(self) -> io::Result<()> {
        let file = self
            .file
            .into_inner()
            .map_err(io::IntoInnerError::into_error)?;
        file.as_file().sync_all()?;
        file.persist(&self.path).map_err(|error| error.error)?;
        Ok(())
    }
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
fn rewrite_mbox<R: Read>(args: &RewriteArgs, mbox: Mbox<R>, options: &Options) -> ExitCode {
    let name = args.file.display().to_string();
    let path = match target(args) {
        Ok(path) => path,
        Err(error) => return input_failed(&Source::unknown(name), &error.to_string()),
    };
    // A message over the limit is copied from the file, which must then be one that can be
    // opened again and read from an offset (not a FIFO or a device).
    let input_file = (args.file != Path::new("-")
        && std::fs::metadata(&args.file).is_ok_and(|m| m.is_file()))
    .then_some(args.file.as_path());
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
            let mut file = match Replacement::new(&path, args.in_place) {
                Ok(file) => file,
                Err(error) => return output_failed(&path, &error),
            };
            match write_mbox(mbox, input_file, options, file.out()) {
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
                Ok(written) => match file.commit() {
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
    input_file: Option<&Path>,
    options: &Options,
    out: &mut dyn Write,
) -> Result<Written, Failure> {
    let mut written = Written::default();
    // Where the previous message ended in the file.
    let mut end = 0;
    let mut last = None;
    for Message { source, input } in mbox.by_ref() {
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

/// Copies `length` bytes at `offset` of `file` (a message over the limit) to `out`.
fn copy_stored(file: &Path, offset: u64, length: u64, out: &mut dyn Write) -> Result<(), Failure> {
    let input = |error: io::Error| Failure::Input(Source::unknown(""), error.to_string());
    let mut reader = File::open(file).map_err(input)?;
    reader.seek(io::SeekFrom::Start(offset)).map_err(input)?;
    let mut reader = reader.take(length);
    let mut buffer = vec![0; 64 << 10];
    let mut copied = 0;
    loop {
        let read = match reader.read(&mut buffer) {
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
