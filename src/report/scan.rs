//! The records of a batch scan ([`ScanLine`]): one per message found in files, directory
//! trees, Maildir folders and mbox files, and one per input that could not be read. The
//! [`scan`](crate::scan) module documents the NDJSON they are written as.

use std::borrow::Cow;
use std::path::Path;

use serde::{Deserialize, Serialize};

use super::Report;

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

/// How a file was compressed, told by the magic number it starts with (not by its name):
/// [`Source::compression`]. The readers of [`mailbox`](crate::mailbox) decompress such a file
/// (or standard input) as they read it, one layer deep, and read what it holds as they read
/// any input: one message, or an mbox.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum Compression {
    /// `gzip` (RFC 1952; starts with `1f 8b`), every member of a file of several, as `zcat`
    /// reads it.
    Gzip,
    /// `bzip2` (starts with `BZh`), every stream of a file of several, as `bzcat` reads it.
    Bzip2,
    /// `xz` (starts with `fd 37 7a 58 5a 00`), every stream of a file of several, as `xzcat`
    /// reads it.
    Xz,
    /// `zstd` (RFC 8878; starts with `28 b5 2f fd`), every frame, skippable frames skipped,
    /// as `zstdcat` reads it.
    Zstd,
}

impl Compression {
    /// Every compression, in the order [`sniff`](Self::sniff) tries them.
    const ALL: [(Compression, &'static [u8]); 4] = [
        (Compression::Gzip, b"\x1f\x8b"),
        (Compression::Bzip2, b"BZh"),
        (Compression::Xz, b"\xfd7zXZ\x00"),
        (Compression::Zstd, b"\x28\xb5\x2f\xfd"),
    ];

    /// The compression whose magic number `head` (the first bytes of a file, at least 6 of
    /// them unless the file is shorter) starts with; `None` for anything else. No message
    /// starts with one of these: each has a byte that is not printable ASCII, except `BZh`,
    /// which is no header field either (it has no colon).
    ///
    /// ```
    /// use mimebase::scan::Compression;
    ///
    /// assert_eq!(Compression::sniff(b"\x1f\x8b\x08\x00"), Some(Compression::Gzip));
    /// assert_eq!(Compression::sniff(b"From a@b Sat Jan  3 01:05:34 1996\n"), None);
    /// ```
    pub fn sniff(head: &[u8]) -> Option<Compression> {
        // The first byte alone rules out every message (a header field name, `From `), so
        // that a plain file costs one comparison.
        if !matches!(head.first(), Some(0x1f | b'B' | 0xfd | 0x28)) {
            return None;
        }
        Compression::ALL
            .into_iter()
            .find(|(_, magic)| head.starts_with(magic))
            .map(|(compression, _)| compression)
    }

    /// Its name in records: `gzip`, `bzip2`, `xz`, `zstd`.
    pub fn as_str(self) -> &'static str {
        match self {
            Compression::Gzip => "gzip",
            Compression::Bzip2 => "bzip2",
            Compression::Xz => "xz",
            Compression::Zstd => "zstd",
        }
    }
}

/// Where a message (or a failure) was found. Its fields are written at the top level of a
/// [`ScanLine`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// The file's path: as given (to [`Roots`](crate::mailbox::Roots), as `mimebase scan`
    /// gives those of its command line), or that of a directory joined with the names found
    /// below it; `-` for standard input. Bytes that are not UTF-8 are written as U+FFFD (so
    /// two such paths may read alike here: [`path_bytes`](Self::path_bytes) tells them apart).
    pub path: String,
    /// The path's bytes as the operating system gives them, when they are not UTF-8 (a file
    /// name in Latin-1, say); `None` (left out of the JSON) when `path` is the path exactly.
    /// Written as a JSON array of byte values (integers 0-255), e.g. `"path_bytes":
    /// [97,255,46,101,109,108]` for the name `a\xff.eml`, whose `path` is `"a\u{fffd}.eml"`:
    /// a reader opens the file by these bytes, not by `path`. Always `None` on systems whose
    /// paths are not bytes (Windows).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path_bytes: Option<Vec<u8>>,
    /// How the file (or standard input) was compressed, when it was: then `offset` and
    /// `length` count bytes of the decompressed stream, not of the file. `None` (left out of
    /// the JSON, so that the records of plain files are as they always were) for a file read
    /// as it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub compression: Option<Compression>,
    /// How the message was stored; `None` when the path could not be read far enough to tell.
    pub format: Option<Format>,
    /// The message's first byte in the file (in its decompressed stream when it was
    /// [`compression`](Self::compression)), 0-based: 0 for [`Format::File`], the `From ` line
    /// for [`Format::Mbox`]; `None` when unknown.
    pub offset: Option<u64>,
    /// The message's size in bytes, in the file or its decompressed stream (for mbox: before
    /// `>From ` unquoting); `None` when unknown.
    pub length: Option<u64>,
}

impl Source {
    /// A whole file holding one message of `length` bytes.
    pub fn file(path: impl Into<String>, length: u64) -> Self {
        Source {
            path: path.into(),
            path_bytes: None,
            compression: None,
            format: Some(Format::File),
            offset: Some(0),
            length: Some(length),
        }
    }

    /// The message at `offset..offset + length` of an mbox file.
    pub fn mbox(path: impl Into<String>, offset: u64, length: u64) -> Self {
        Source {
            path: path.into(),
            path_bytes: None,
            compression: None,
            format: Some(Format::Mbox),
            offset: Some(offset),
            length: Some(length),
        }
    }

    /// `self` named by the file system path `path`: its [`path`](Self::path) written as UTF-8
    /// (lossily), and its [`path_bytes`](Self::path_bytes) when that lost some of its bytes.
    ///
    /// ```
    /// # #[cfg(unix)] {
    /// use std::os::unix::ffi::OsStrExt;
    /// use mimebase::scan::Source;
    ///
    /// let name = std::path::Path::new(std::ffi::OsStr::from_bytes(b"a\xff.eml"));
    /// let source = Source::file("", 10).with_path(name);
    /// assert_eq!(source.path, "a\u{fffd}.eml");
    /// assert_eq!(source.path_bytes.as_deref(), Some(&b"a\xff.eml"[..]));
    /// assert_eq!(Source::file("", 10).with_path("b.eml".as_ref()).path_bytes, None);
    /// # }
    /// ```
    pub fn with_path(mut self, path: &Path) -> Self {
        self.path = path.to_string_lossy().into_owned();
        self.path_bytes = non_utf8_bytes(path);
        self
    }

    /// A path of which nothing could be read.
    pub fn unknown(path: impl Into<String>) -> Self {
        Source {
            path: path.into(),
            path_bytes: None,
            compression: None,
            format: None,
            offset: None,
            length: None,
        }
    }
}

/// The bytes of `path` when they are not UTF-8 (see [`Source::path_bytes`]).
pub(crate) fn non_utf8_bytes(path: &Path) -> Option<Vec<u8>> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        let bytes = path.as_os_str().as_bytes();
        std::str::from_utf8(bytes).is_err().then(|| bytes.to_vec())
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        None
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
    /// `too_large`: the message is larger than the size limit (the `limit` of the
    /// [`mailbox`](crate::mailbox) readers, which `mimebase` sets with `--max-message-bytes`);
    /// it was not held in memory. `length` gives its size in bytes when it was known or
    /// counted (a regular file, whose size is known before it is read; a message of an mbox
    /// file, whose bytes are counted up to the next message), and is `null` for one message
    /// read from a stream (standard input, a FIFO, a device), which is not read past the limit
    /// since it may never end (`/dev/zero`).
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

    /// The line of an input that yields no analysis, borrowing its parts.
    pub fn error(source: &'a Source, kind: ScanErrorKind, message: &'a str) -> Self {
        ScanLine::Error {
            source: Cow::Borrowed(source),
            kind,
            message: Cow::Borrowed(message),
        }
    }
}
