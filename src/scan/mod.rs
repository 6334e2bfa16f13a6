//! The records of `mimebase scan`: one NDJSON line per message found in files,
//! directories, Maildir folders and mbox files, and one per input that could not be read.
//!
//! # Wire format (NDJSON)
//!
//! One JSON object per line, UTF-8, in input order (also with `--jobs` above 1), each with a
//! `"type"` field, [`ScanLine`]:
//!
//! - `"type": "message"`: one message was analyzed. The [`Source`] fields say where it was
//!   read from, then come the [`Report`](crate::Report)'s `message_id`, `complete`, `summary`
//!   (`subject`, `from`, `date`, `message_id`: [`Summary`](crate::Summary), so that an index
//!   can show what message a line is about), `entities`, `urls` and `diagnostics`, as in
//!   `inspect --json` ([`report`](crate::report) documents them). A broken message is still a `message` line: what is wrong with it is in
//!   its `diagnostics`.
//!   [`ScanLine::write_json_fields`] writes a `message` line with only the keys asked for
//!   ([`Fields`], `mimebase scan --fields`), for an index that wants less.
//! - `"type": "error"`: an input that yields no analysis: a path that could not be read, a
//!   message over the size limit. The [`Source`] fields (as far as they are known), a `kind`
//!   ([`ScanErrorKind`]) and a `message` for people.
//!
//! The [`Source`] fields are `path`, `path_bytes` (optional), `compression` (optional:
//! `gzip`, `bzip2`, `xz` or `zstd`, for an input that was decompressed as it was read, see
//! [`Compression`]; then `offset` and `length` count bytes of
//! the decompressed stream), `format`, `offset` and `length`. `offset` and `length` are numbers whenever they are known, `offset` 0 for a file
//! that is one message; an `error` line has `null` for what is unknown (`format` and
//! `offset` are `null` only for a path of which nothing could be read). The `error` records of
//! `inspect --json` and `urls --json` are these lines, field for field (the
//! [`report`](crate::report) module states the rule for every command). `path` is a JSON string, so a path whose bytes are not UTF-8 (a file name written
//! in Latin-1 on Linux, say) has each invalid byte as U+FFFD there, and two such files
//! (`a\xff.eml`, `a\xfe.eml`) would read alike: such a line also has `path_bytes`, the path's
//! bytes as an array of integers 0-255 (`"path_bytes": [97,255,46,101,109,108]`), by which a
//! reader opens the file (in Python, `open(bytes(line["path_bytes"]), "rb")`). The field is
//! left out when the path is UTF-8, as nearly every path is, so that lines written before it
//! existed read the same.
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
//! "From_ line": envelope sender and date; RFC 4155 §2). `scan` (and every other command:
//! `inspect`, `urls`, `rewrite`, `extract`) reads a file, or standard input, as an mbox when
//! it starts with `From ` ([`mailbox::is_mbox`](crate::mailbox::is_mbox): after a UTF-8 byte
//! order mark if there is one, which is in no message, and not when that first line is a From
//! header field, `From : a@b`), and starts a new message at every line that begins with
//! `From `, whether or not an empty line comes before it (mail clients such as Netscape wrote
//! a `From ` line right after a message's last line). Two kinds of line are not separators:
//! a line that begins with `>From ` (quoted, see below), and, in the header block of the
//! message being read (up to its first empty line), a line of `From`, blanks and a colon, the
//! From header field in the obsolete syntax of RFC 5322 §4.5.2.
//!
//! A message's `offset` is the byte offset of its `From ` line in the mbox file (0-based), and
//! `length` covers that line, then every line of the message with its line ending, up to the
//! next `From ` line, **not** including one empty line (`\n` or `\r\n`) just before it. At
//! the end of the file one final empty line is likewise left out; a last message without a
//! trailing newline ends at the end of the file. So `offset..offset + length` is the stored
//! message, envelope line included, and the lengths of all messages plus the separating
//! empty lines (at most one between two messages, and possibly one at the end) add up to the
//! file's size.
//!
//! These are the boundaries Python's `mailbox.mbox` gives, except at two kinds of line: a
//! From field in a header block, where Python (as MimeKit's parser) starts a message and
//! GMime's parser does not, nor does mimebase (the space after `From` is followed by a
//! colon or a blank, where RFC 4155 §2 has an envelope address: it is a header field); and
//! a `\r\n` empty line before a `From ` line, which Python on Unix, whose line separator is
//! `\n`, keeps in the message before.
//!
//! What is given to [`analyze`](crate::analyze) is that range with the mboxrd quoting undone:
//! a line that starts with one or more `>` followed by `From ` loses one `>` (`>From ` →
//! `From `, `>>From ` → `>From `). `analyze` skips the leading `From ` line, so the entity
//! byte ranges of a message line are offsets from `offset`, in the message as unquoted: up to
//! the first unquoted line they are offsets into the mbox file too (add `offset`), after it
//! they are one byte less per unquoted line before them.
//!
//! A file that does not start so is one message (`"format": "file"`, `offset` 0, `length` the
//! file's size), and so is every file in a Maildir's `cur/` and `new/`, whatever its first
//! bytes. In an mbox that starts with a byte order mark the first message's `offset` is 3, and
//! the lengths of the messages and separators add up to the file's size less those 3 bytes.

pub mod engine;
mod fields;
mod json;

pub use crate::report::{Compression, Format, ScanErrorKind, ScanLine, Source};
pub use engine::{Batch, Records, Scanned, WAITING_PER_JOB};
pub use fields::{Fields, RecordField};
