//! `mimebase rewrite`: one message, or each message of an mbox, with the relative URLs of its
//! HTML bodies made absolute, written to stdout, to `-o OUTPUT` or over the input
//! (`--in-place`), the last two by way of a temporary file and a rename (see `write`: the
//! owner, group, mode and extended attributes of a replaced file are kept, `-o` writes
//! through a file that is not regular, `--in-place` refuses one, and a signal removes the
//! temporary file).
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

use std::fs::{self, File};
use std::io::{self, Read, Seek, Write};
use std::path::Path;
use std::process::ExitCode;

use mimebase::mailbox::{self, Input, Mbox, Message, Stream};
use mimebase::scan::{ScanErrorKind, Source};
use mimebase::{DiagnosticKind, Options, Report};

use super::args::RewriteArgs;
use super::output::{escape, failure_message, place};
use super::write::{self, Destination};
use super::{EXIT_INPUT_FAILED, EXIT_USAGE, usage_error, write_all, write_failed};

/// Runs `mimebase rewrite`.
pub(crate) fn run(args: &RewriteArgs) -> ExitCode {
    let options = args.resolution.options();
    if args.in_place {
        if args.file == Path::new("-") {
            usage_error("--in-place needs a FILE: standard input cannot be replaced");
        }
        return rewrite_in_place(&args.file, args.limits.max_message_bytes, &options);
    }
    let target = match &args.output {
        None => Target::Stdout,
        Some(output) => match Destination::of(output) {
            Ok(destination) => Target::Output(destination),
            Err(error) => return output_failed(output, &error),
        },
    };
    if matches!(target, Target::Output(Destination::Replace(..)))
        && let Err(error) = write::remove_on_signal()
    {
        return output_failed(target.path().unwrap_or(&args.file), &error);
    }
    let name = args.file.display().to_string();
    let limit = args.limits.max_message_bytes;
    let stream = if args.file == Path::new("-") {
        let stdin: Box<dyn Read + Send> = Box::new(io::stdin());
        mailbox::open_stream(name, stdin, limit)
    } else {
        match open_file(&args.file, name, limit) {
            Ok(stream) => stream,
            Err(message) => return input_failed(&message.source, &message_text(message.input)),
        }
    };
    rewrite_stream(&args.file, stream, &target, &options)
}

/// `--in-place`: reads the regular file `file` (a symbolic link is followed), rewrites it,
/// and replaces it by way of a temporary file and a rename when a byte changed. A file that
/// is not regular is refused (exit code 2), as `sed -i` refuses one: a FIFO or a device
/// cannot be replaced by a file.
fn rewrite_in_place(file: &Path, limit: u64, options: &Options) -> ExitCode {
    let name = file.display().to_string();
    let (path, metadata) = match fs::canonicalize(file).and_then(|path| {
        let metadata = fs::metadata(&path)?;
        Ok((path, metadata))
    }) {
        Ok(found) => found,
        Err(error) => return input_failed(&Source::unknown(name), &error.to_string()),
    };
    if !metadata.is_file() {
        eprintln!(
            "mimebase: {}: {}: --in-place replaces only a regular file; nothing written \
             (use -o to write through it)",
            escape(&name),
            write::kind_of(&metadata)
        );
        return ExitCode::from(EXIT_USAGE);
    }
    if let Err(error) = write::remove_on_signal() {
        return output_failed(&path, &error);
    }
    let stream = match open_file(&path, name, limit) {
        Ok(stream) => stream,
        Err(message) => return input_failed(&message.source, &message_text(message.input)),
    };
    let target = Target::InPlace(Destination::Replace(path.clone(), Some(metadata)));
    rewrite_stream(&path, stream, &target, options)
}

/// Opens the file `path` (named `name`), and tells what it holds as [`mailbox::open_stream`]
/// does; a regular file larger than `limit` that is not an mbox is not read at all (as every
/// command reads a file), and an mbox streams, one message at a time.
fn open_file(
    path: &Path,
    name: String,
    limit: u64,
) -> Result<Stream<Box<dyn Read + Send>>, Message> {
    let failed = |error: io::Error| Message {
        source: Source::unknown(name.clone()),
        input: Input::Error(ScanErrorKind::Read, error.to_string()),
    };
    let file = File::open(path).map_err(failed)?;
    let metadata = file.metadata().map_err(failed)?;
    let mut reader: Box<dyn Read + Send> = Box::new(file);
    if metadata.is_file() && metadata.len() > limit {
        let mut head = Vec::with_capacity(5);
        reader
            .by_ref()
            .take(5)
            .read_to_end(&mut head)
            .map_err(failed)?;
        if head != b"From " {
            return Err(Message::too_large(
                Source::file(name, metadata.len()),
                limit,
            ));
        }
        reader = Box::new(io::Cursor::new(head).chain(reader));
    }
    Ok(mailbox::open_stream(name, reader, limit))
}

/// The sentence for a message that could not be read.
fn message_text(input: Input) -> String {
    match input {
        Input::Error(kind, message) => failure_message(kind, &message).into_owned(),
        Input::Bytes(_) => String::new(),
    }
}

/// Where the rewritten output goes.
enum Target {
    /// Standard output.
    Stdout,
    /// `-o OUTPUT`.
    Output(Destination),
    /// `--in-place`: the input file, replaced only when a byte changed.
    InPlace(Destination),
}

impl Target {
    fn path(&self) -> Option<&Path> {
        match self {
            Target::Stdout => None,
            Target::Output(destination) | Target::InPlace(destination) => Some(destination.path()),
        }
    }
}

/// Rewrites what `stream` holds (read from `file`) to `target`.
fn rewrite_stream<R: Read>(
    file: &Path,
    stream: Stream<R>,
    target: &Target,
    options: &Options,
) -> ExitCode {
    match stream {
        Stream::One(message) => rewrite_one(target, message, options),
        Stream::Mbox(mbox) => rewrite_mbox(file, target, mbox.with_unquoting(false), options),
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

/// The exit after the output file could not be written: exit code 2, the file named.
fn output_failed(path: &Path, error: &io::Error) -> ExitCode {
    eprintln!(
        "mimebase: writing {}: {}",
        escape(&path.display().to_string()),
        escape(&error.to_string())
    );
    ExitCode::from(EXIT_USAGE)
}

/// A file that is one message (or standard input holding one).
fn rewrite_one(target: &Target, message: Message, options: &Options) -> ExitCode {
    let Message { source, input } = message;
    let raw = match input {
        Input::Bytes(raw) => raw,
        Input::Error(kind, message) => {
            return input_failed(&source, &failure_message(kind, &message));
        }
    };
    let rewritten = mimebase::rewrite(&raw, options);
    report_skipped(&source, &rewritten.report);
    let destination = match target {
        Target::Stdout => return write_all(&rewritten.message),
        // `--in-place` leaves a file in which nothing changed untouched.
        Target::InPlace(_) if rewritten.message == raw => return ExitCode::SUCCESS,
        Target::Output(destination) | Target::InPlace(destination) => destination,
    };
    drop(raw);
    let written = destination.open().and_then(|mut file| {
        file.out().write_all(&rewritten.message)?;
        file.commit()
    });
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => output_failed(destination.path(), &error),
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

/// An mbox (read from `file`): every message rewritten, to stdout or to a file written
/// whole.
fn rewrite_mbox<R: Read>(
    file: &Path,
    target: &Target,
    mbox: Mbox<R>,
    options: &Options,
) -> ExitCode {
    // A message over the limit is copied from the file, which must then be one that can be
    // opened again and read from an offset (not a FIFO or a device).
    let input_file =
        (file != Path::new("-") && fs::metadata(file).is_ok_and(|m| m.is_file())).then_some(file);
    let destination = match target {
        Target::Stdout => {
            let stdout = io::stdout();
            let mut out = io::BufWriter::with_capacity(256 << 10, stdout.lock());
            let done = write_mbox(mbox, input_file, options, &mut out);
            let flushed = out.flush();
            return match (done, flushed) {
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
            };
        }
        Target::Output(destination) | Target::InPlace(destination) => destination,
    };
    let path = destination.path();
    let mut output = match destination.open() {
        Ok(output) => output,
        Err(error) => return output_failed(path, &error),
    };
    match write_mbox(mbox, input_file, options, output.out()) {
        Err(Failure::Input(source, message)) => {
            // A temporary file is removed as `output` is dropped; what was written through a
            // file that is not regular cannot be taken back.
            let outcome = match destination {
                Destination::Replace(..) => "nothing written to",
                Destination::Through(_) => "the output stops before this message in",
            };
            eprintln!(
                "mimebase: {}: {}; {outcome} {}",
                place(&source),
                escape(&message),
                escape(&path.display().to_string())
            );
            ExitCode::from(EXIT_INPUT_FAILED)
        }
        Err(Failure::Output(error)) => output_failed(path, &error),
        // `--in-place` leaves a file in which nothing changed untouched.
        Ok(written) if matches!(target, Target::InPlace(_)) && !written.changed => exit(&written),
        Ok(written) => match output.commit() {
            Ok(()) => exit(&written),
            Err(error) => output_failed(path, &error),
        },
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
