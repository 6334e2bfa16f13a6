//! The records of `mimebase scan`: one NDJSON line per message found in files,
//! directories, Maildir folders and mbox files, and one per input that could not be read.
//!
//! # Wire format (NDJSON)
//!
//! One JSON object per line, UTF-8, in input order (also with `--jobs` above 1), each with a
//! `"type"` field, [`ScanLine`]:
//!
//! - `"type": "message"`: one message was analyzed. The [`Source`] fields say where it was
//!   read from, then come the [`Report`]'s `message_id`, `entities`, `urls` and `diagnostics`,
//!   as in `inspect --json` ([`report`](crate::report) documents them). A broken message is
//!   still a `message` line: what is wrong with it is in its `diagnostics`.
//! - `"type": "error"`: an input that yields no analysis: a path that could not be read, a
//!   message over the size limit. The [`Source`] fields (as far as they are known), a `kind`
//!   ([`ScanErrorKind`]) and a `message` for people.
//!
//! The [`Source`] fields are `path`, `format`, `offset` and `length`:
//!
//! ```
//! use mimebase::scan::{Format, ScanErrorKind, ScanLine, Source};
//!
//! // The second message of an mbox file: its `From ` line starts at byte 120.
//! let raw = b"From a@b Sat Jan  3 01:05:34 1996\nBase: http://b/dir/\n\n>From here\n";
//! let report = mimebase::analyze(raw, &mimebase::Options::new());
//! let source = Source::mbox("inbox.mbox", 120, 70);
//! let line = serde_json::to_value(ScanLine::message(&source, &report))?;
//! assert_eq!(line["type"], "message");
//! assert_eq!(line["path"], "inbox.mbox");
//! assert_eq!(line["format"], "mbox");
//! assert_eq!((line["offset"].as_u64(), line["length"].as_u64()), (Some(120), Some(70)));
//! assert_eq!(line["entities"][0]["base"]["url"], "http://b/dir/");
//!
//! let missing = Source::unknown("nowhere/1.eml");
//! let line = ScanLine::error(
//!     &missing,
//!     ScanErrorKind::Read,
//!     "No such file or directory (os error 2)",
//! );
//! assert_eq!(
//!     serde_json::to_value(line)?,
//!     serde_json::json!({
//!         "type": "error", "path": "nowhere/1.eml", "format": null, "offset": null,
//!         "length": null, "kind": "read", "message": "No such file or directory (os error 2)"
//!     })
//! );
//! # Ok::<(), serde_json::Error>(())
//! ```
//!
//! # Offsets in mbox files
//!
//! An mbox file holds messages one after another, each starting with a `From ` line (the
//! "From_ line": envelope sender and date). `scan` (and every other command: `inspect`,
//! `urls`, `rewrite`, `extract`) reads a file, or standard input, as an mbox when its first
//! five bytes are `From `, and starts a new message at every line that begins with `From ` and
//! follows an empty line (`\n` or `\r\n`), as the mboxo and mboxrd formats write them; a
//! `From ` line after a non-empty line is part of the message.
//!
//! A message's `offset` is the byte offset of its `From ` line in the mbox file (0-based), and
//! `length` covers that line, then every line of the message with its line ending, up to and
//! **not** including the empty line that separates it from the next `From ` line. At the end
//! of the file one final empty line is likewise left out; a last message without a trailing
//! newline ends at the end of the file. (These are the boundaries Python's `mailbox.mbox`
//! gives.) So `offset..offset + length` is the stored message, envelope line included, and
//! the lengths of all messages plus one separator line between each two (and possibly one at
//! the end) add up to the file's size.
//!
//! What is given to [`analyze`](crate::analyze) is that range with the mboxrd quoting undone:
//! a line that starts with one or more `>` followed by `From ` loses one `>` (`>From ` →
//! `From `, `>>From ` → `>From `). `analyze` skips the leading `From ` line, so the entity
//! byte ranges of a message line are offsets from `offset`, in the message as unquoted: up to
//! the first unquoted line they are offsets into the mbox file too (add `offset`), after it
//! they are one byte less per unquoted line before them.
//!
//! A file that does not start with `From ` is one message (`"format": "file"`, `offset` 0,
//! `length` the file's size), and so is every file in a Maildir's `cur/` and `new/`, whatever
//! its first bytes.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use crate::report::Report;

pub mod engine;

pub use engine::{Batch, Records, Scanned, WAITING_PER_JOB};

/// How a message was stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Format {
    /// `file`: the whole file is the message (an `.eml` file, a Maildir message).
    File,
    /// `mbox`: one message of an mbox file (see the [module docs](crate::scan) for its range).
    Mbox,
}

/// Where a message (or a failure) was found. Its fields are written at the top level of a
/// [`ScanLine`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// The file's path: as given on the command line or in `--paths-from`, or that of a
    /// directory joined with the names found below it; `-` for standard input. Bytes that are
    /// not UTF-8 are written as U+FFFD.
    pub path: String,
    /// How the message was stored; `None` when the path could not be read far enough to tell.
    pub format: Option<Format>,
    /// The message's first byte in the file, 0-based: 0 for [`Format::File`], the `From ` line
    /// for [`Format::Mbox`]; `None` when unknown.
    pub offset: Option<u64>,
    /// The message's size in bytes, in the file (for mbox: before `>From ` unquoting); `None`
    /// when unknown.
    pub length: Option<u64>,
}

impl Source {
    /// A whole file holding one message of `length` bytes.
    pub fn file(path: impl Into<String>, length: u64) -> Self {
        Source {
            path: path.into(),
            format: Some(Format::File),
            offset: Some(0),
            length: Some(length),
        }
    }

    /// The message at `offset..offset + length` of an mbox file.
    pub fn mbox(path: impl Into<String>, offset: u64, length: u64) -> Self {
        Source {
            path: path.into(),
            format: Some(Format::Mbox),
            offset: Some(offset),
            length: Some(length),
        }
    }

    /// A path of which nothing could be read.
    pub fn unknown(path: impl Into<String>) -> Self {
        Source {
            path: path.into(),
            format: None,
            offset: None,
            length: None,
        }
    }
}

/// Why an input yields an `error` line instead of a `message` line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ScanErrorKind {
    /// `read`: the path could not be opened, listed or read (missing, permissions, an I/O
    /// error in the middle of an mbox file).
    Read,
    /// `too_large`: the message is larger than the size limit (`--max-message-bytes`); it was
    /// not held in memory. `length` gives its size in bytes when it was known or counted (a
    /// regular file, whose size is known before it is read; a message of an mbox file, whose
    /// bytes are counted up to the next message), and is `null` for one message read from
    /// a stream (standard input, a FIFO, a device), which is not read past the limit since it
    /// may never end (`/dev/zero`).
    TooLarge,
    /// `internal`: analyzing the message failed inside mimebase (a bug: please report it with
    /// the message).
    Internal,
}

/// One line of `mimebase scan` (see the [module docs](crate::scan)). The [`Source`] and, for
/// a message, the [`Report`] are written at the top level of the line, after `"type"`.
///
/// Written from borrowed parts ([`ScanLine::message`], [`ScanLine::error`]) and read back as
/// `ScanLine<'static>`, which owns them: a Rust program reads `scan` output into the same
/// types that wrote it.
///
/// ```
/// use mimebase::scan::{ScanLine, Source};
///
/// let line = r#"{"type":"error","path":"gone.eml","format":null,"offset":null,"length":null,"kind":"read","message":"No such file or directory (os error 2)"}"#;
/// let read: ScanLine<'static> = serde_json::from_str(line)?;
/// let ScanLine::Error { source, .. } = &read else { unreachable!() };
/// assert_eq!(**source, Source::unknown("gone.eml"));
/// assert_eq!(serde_json::to_string(&read)?, line);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum ScanLine<'a> {
    /// `"type": "message"`: the source, then the report's fields.
    Message {
        /// Where the message was read from.
        #[serde(flatten)]
        source: Cow<'a, Source>,
        /// What [`analyze`](crate::analyze) found.
        #[serde(flatten)]
        report: Cow<'a, Report>,
    },
    /// `"type": "error"`: the source, `kind` and `message`.
    Error {
        /// What could not be read, as far as it is known.
        #[serde(flatten)]
        source: Cow<'a, Source>,
        /// What went wrong.
        kind: ScanErrorKind,
        /// A sentence for people, e.g. the operating system's error message.
        message: Cow<'a, str>,
    },
}

impl<'a> ScanLine<'a> {
    /// The line of an analyzed message, borrowing its parts.
    pub fn message(source: &'a Source, report: &'a Report) -> Self {
        ScanLine::Message {
            source: Cow::Borrowed(source),
            report: Cow::Borrowed(report),
        }
    }

    /// Appends the line's JSON to `out`: the same bytes as `serde_json::to_writer(out, self)`,
    /// written a good deal faster (keys as literal bytes, strings copied when they need no
    /// escaping), without a line break. This is how `mimebase scan` writes its lines.
    ///
    /// ```
    /// use mimebase::scan::{ScanLine, Source};
    ///
    /// let message = b"Content-Type: text/html\r\n\r\n<a href=\"http://example.com/\">x</a>";
    /// let report = mimebase::analyze(message, &mimebase::Options::new());
    /// let source = Source::file("x.eml", message.len() as u64);
    /// let line = ScanLine::message(&source, &report);
    /// let mut out = Vec::new();
    /// line.write_json(&mut out);
    /// assert_eq!(out, serde_json::to_vec(&line)?);
    /// # Ok::<(), serde_json::Error>(())
    /// ```
    pub fn write_json(&self, out: &mut Vec<u8>) {
        match self {
            ScanLine::Message { source, report } => crate::json::message_line(source, report, out),
            // Writing to a `Vec` cannot fail, and a line serializes without errors.
            ScanLine::Error { .. } => {
                let _ = serde_json::to_writer(out, self);
            }
        }
    }

    /// The line of an input that yields no analysis, borrowing its parts.
    pub fn error(source: &'a Source, kind: ScanErrorKind, message: &'a str) -> Self {
        ScanLine::Error {
            source: Cow::Borrowed(source),
            kind,
            message: Cow::Borrowed(message),
        }
    }
}
