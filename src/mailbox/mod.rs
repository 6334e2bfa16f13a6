//! Reading messages out of files, directory trees, Maildirs and mbox files, as `mimebase scan`
//! does, for a program that indexes mail without the command line.
//!
//! ```no_run
//! use mimebase::mailbox::{Input, Messages, Roots, Walker};
//!
//! let roots = Roots::new(vec!["archive/".into(), "inbox.mbox".into()], None);
//! // No message larger than 64 MiB is read into memory.
//! for message in Messages::new(Walker::new(roots), 64 << 20) {
//!     match message.input {
//!         Input::Bytes(bytes) => {
//!             let report = mimebase::analyze(&bytes, &mimebase::Options::new());
//!             println!("{} at byte {:?}: {} URLs", message.source.path,
//!                 message.source.offset, report.urls.len());
//!         }
//!         Input::Error(kind, why) => eprintln!("{}: {kind:?}: {why}", message.source.path),
//!     }
//! }
//! ```
//!
//! The pieces, in the order data flows:
//!
//! - [`Roots`]: the paths to read (given, then read from a list of paths).
//! - [`Walker`]: every file under them, depth first, in byte order of names; a Maildir
//!   (`cur/` and `new/`, never `tmp/`, then its Maildir++ subfolders) in the order of
//!   the Maildir specification's delivery states; with [`Globs`], only the files that
//!   ripgrep-style include and exclude patterns admit (`--glob`, `--iglob`).
//! - [`open`]: a found path becomes one [`Message`], or, for an mbox file, an iterator of them.
//! - [`Messages`]: the two above chained, every message of every file in order.
//! - [`Mbox`]: the messages of an mbox stream, read one line at a time from any [`Read`].
//! - [`open_at`]: the messages of an mbox file from a byte offset on (where an earlier
//!   reading stopped), as `mimebase scan --state` reads what was appended since.
//! - [`open_stream`]: any reader (standard input, a pipe) told apart as [`open`] does: one
//!   message read up to the limit, or an [`Mbox`]; [`is_mbox`] is the rule.
//! - [`unquote`] and [`quote`]: the mboxrd quoting undone, and redone (to write an mbox
//!   back, as `mimebase rewrite` does).
//! - [`lock`] (Unix): an mbox locked as the mail system locks it (`fcntl`, `flock` and
//!   `FILE.lock`), and checked unchanged before it is replaced.
//!
//! Every message comes with its [`Source`] (path, format, 0-based byte offset and length in
//! bytes, as `scan` writes them; the [`scan`](crate::scan) module documents the mbox
//! boundaries and the mboxrd unquoting), and either its bytes, ready for
//! [`analyze`](crate::analyze), or the reason there are none ([`ScanErrorKind`]: `Read` for
//! an I/O error, `TooLarge` for a message over the size limit). Nothing here returns `Err`
//! or panics: a failure is a [`Message`] that stands in the place of what could not be read,
//! and the iteration goes on with the next path.
//!
//! Everything is lazy, so that memory follows the messages in flight and not the corpus:
//! a directory's listing is held only until its entries have been walked, a path list is read
//! a path at a time, and an mbox file a line at a time, each message read into memory only up
//! to the size limit.
//!
//! The directory walk and the mbox split are written here rather than taken from a crate:
//! `walkdir` neither knows Maildir's `cur/`/`new/`/`tmp/` rules nor yields entries lazily in
//! byte order with symbolic links followed to files only, and the mbox crates found either
//! read a whole file into memory, give no byte offsets, or do not undo mboxrd quoting.
//!
//! [`Read`]: std::io::Read

mod compressed;
#[cfg(unix)]
pub mod lock;
mod mbox;
mod mboxrd;
mod read;
mod tail;
mod walk;

pub use compressed::{DECODER_MEMORY, Decoded};
pub use mbox::Mbox;
pub use mboxrd::{quote, quoted_len, unquote};
pub use read::{MBOX_HEAD_BYTES, Messages, Opened, Stream, is_mbox, open, open_stream};
pub use tail::open_at;
pub use walk::{Found, GlobError, Globs, Roots, Walker, kind_of};

use crate::report::{ScanErrorKind, Source};

/// One message to analyze, or the failure that stands in its place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// Where it was found: path, format, offset and length in the file.
    pub source: Source,
    /// What to analyze.
    pub input: Input,
}

/// The bytes of a [`Message`], or why there are none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// One message, as [`analyze`](crate::analyze) takes it: for an mbox message, its `From `
    /// line and the lines after it with the mboxrd quoting undone.
    Bytes(Vec<u8>),
    /// Nothing to analyze: the kind of failure and a sentence for people (the operating
    /// system's error message, or the size and the limit).
    Error(ScanErrorKind, String),
}

impl Message {
    fn error(source: Source, kind: ScanErrorKind, message: String) -> Self {
        Message {
            source,
            input: Input::Error(kind, message),
        }
    }

    /// A message over the limit of `limit` bytes, with [`ScanErrorKind::TooLarge`] and a
    /// sentence that gives its length and the limit; `source.length` is `None` for a stream
    /// that was not read past the limit. For a reader that checks a file's size before it
    /// reads it, as [`open`] does.
    pub fn too_large(source: Source, limit: u64) -> Self {
        let message = match source.length {
            Some(length) => {
                format!("the message has {length} bytes, more than the size limit of {limit} bytes")
            }
            None => format!(
                "the message has more than {limit} bytes, the size limit; the rest was not read"
            ),
        };
        Message::error(source, ScanErrorKind::TooLarge, message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn too_large_says_the_size_and_the_limit_in_bytes() {
        let counted = Message::too_large(Source::file("big.eml", 3000), 2048);
        let Input::Error(ScanErrorKind::TooLarge, why) = counted.input else {
            unreachable!("{counted:?}")
        };
        assert_eq!(
            why,
            "the message has 3000 bytes, more than the size limit of 2048 bytes"
        );
        let mut source = Source::file("-", 0);
        source.length = None;
        let streamed = Message::too_large(source, 2048);
        let Input::Error(ScanErrorKind::TooLarge, why) = streamed.input else {
            unreachable!("{streamed:?}")
        };
        assert_eq!(
            why,
            "the message has more than 2048 bytes, the size limit; the rest was not read"
        );
    }
}
