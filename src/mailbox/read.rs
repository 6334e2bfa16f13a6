//! Reading what the walk found: a file or a stream becomes one message, read up to the size
//! limit, or the messages of an mbox; a Maildir message renamed since it was listed is found
//! again by its unique name.

use std::fs::{self, File};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use crate::mime::BYTE_ORDER_MARK;
use crate::mime::header::{FROM_FIELD_PEEK, is_from_field};
use crate::report::{Compression, ScanErrorKind, Source, non_utf8_bytes};

use super::compressed::{Decoded, Failed};
use super::mbox::MboxInMemory;
use super::{Found, Input, Mbox, Message, Walker};

/// The path as written in records and on stderr.
pub(super) fn display(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// What a found path holds.
pub enum Opened {
    /// One message (a file, standard input), or the failure that stands for the path.
    One(Message),
    /// An mbox file: its messages, read or split as they are asked for.
    Many(Box<dyn Iterator<Item = Message> + Send>),
}

/// How many bytes of the start of a file [`is_mbox`] reads at most: a byte order mark, and a
/// line of `From`, up to 998 blanks and a colon.
pub const MBOX_HEAD_BYTES: usize = BYTE_ORDER_MARK.len() + FROM_FIELD_PEEK;

/// Whether a file or stream that starts with `head` (its first [`MBOX_HEAD_BYTES`] bytes, or
/// all of it when it is shorter) is an mbox file: it starts with `From ` (RFC 4155 §2), after a
/// UTF-8 byte order mark if there is one (in no message: MimeKit's parser skips it, where
/// GMime's and Python's mbox readers miss the first message), and that first line is not a
/// From header field in the obsolete syntax (`From : a@b`, blanks before the colon, RFC 5322
/// §4.5.2), which starts a message file, not an mbox.
///
/// ```
/// use mimebase::mailbox::is_mbox;
///
/// assert!(is_mbox(b"From a@b Sat Jan  3 01:05:34 1996\nSubject: x\n"));
/// assert!(is_mbox(b"\xef\xbb\xbfFrom -\nSubject: x\n"));
/// assert!(!is_mbox(b"From : a@b\nSubject: x\n"));
/// assert!(!is_mbox(b"From: a@b\n"));
/// ```
pub fn is_mbox(head: &[u8]) -> bool {
    let head = head.strip_prefix(BYTE_ORDER_MARK).unwrap_or(head);
    head.starts_with(b"From ") && !is_from_field(head)
}

/// Opens what the walker found, reading no message larger than `limit` bytes into memory.
///
/// A regular file no larger than the limit is read whole, with one `read`, and an mbox file
/// among them split in memory; a larger one, or standard input, streams through [`Mbox`],
/// which holds one message at a time and none over the limit. A file is an mbox file when it
/// starts as one ([`is_mbox`]) and was not found in a Maildir.
///
/// A file or standard input that starts with the magic number of gzip, bzip2, xz or zstd
/// ([`Compression::sniff`]) is decompressed as it is read and always streams (its size says
/// nothing of what it holds); what it holds is one message or an mbox by the same rule, each
/// message bounded by `limit` in decompressed bytes, and each [`Source`] has its
/// [`compression`](Source::compression), its offset and length counted in the decompressed
/// stream. A decoder's error is a [`ScanErrorKind::Read`] message, as any read error.
///
/// A Maildir message renamed since the walker listed it (moved from `new/` to `cur/`, or its
/// flags changed) is found again by its unique name, and its [`Source`] gives the path it
/// was read from. A path that cannot be opened or read gives one [`Message`] with
/// [`ScanErrorKind::Read`]
/// (its [`Source`] knowing only the path); a message over `limit` bytes gives one with
/// [`ScanErrorKind::TooLarge`] and its length (counted, not kept), and the rest of an mbox
/// file is still read.
pub fn open(found: Found, limit: u64) -> Opened {
    match found {
        Found::Error { path, error } => {
            let mut message = read_error(display(&path), &error);
            message.source.path_bytes = non_utf8_bytes(&path);
            Opened::One(message)
        }
        Found::DanglingLink { .. } => Opened::Many(Box::new(std::iter::empty())),
        Found::Stdin => stream("-".to_owned(), Box::new(io::stdin()), None, false, limit),
        Found::File { path, in_maildir } => {
            let (path, opened) = match File::open(&path) {
                Err(error) if in_maildir && error.kind() == io::ErrorKind::NotFound => {
                    match relocated(&path) {
                        Some(moved) => {
                            let opened = File::open(&moved);
                            (moved, opened)
                        }
                        None => (path, Err(error)),
                    }
                }
                opened => (path, opened),
            };
            let name = display(&path);
            let opened = match opened.and_then(|file| Ok((file.metadata()?, file))) {
                Err(error) => Opened::One(read_error(name, &error)),
                Ok((metadata, file)) if metadata.is_file() && metadata.len() <= limit => {
                    read_whole(name, file, metadata.len(), in_maildir, limit)
                }
                Ok((metadata, file)) => {
                    let size = metadata.is_file().then_some(metadata.len());
                    stream(name, Box::new(file), size, in_maildir, limit)
                }
            };
            match non_utf8_bytes(&path) {
                None => opened,
                Some(bytes) => with_path_bytes(opened, bytes),
            }
        }
    }
}

/// `opened` with `bytes` as the [`Source::path_bytes`] of each of its messages: those of a
/// path that is not UTF-8, which `path` alone does not name.
pub(super) fn with_path_bytes(opened: Opened, bytes: Vec<u8>) -> Opened {
    match opened {
        Opened::One(mut message) => {
            message.source.path_bytes = Some(bytes);
            Opened::One(message)
        }
        Opened::Many(messages) => Opened::Many(Box::new(messages.map(move |mut message| {
            message.source.path_bytes = Some(bytes.clone());
            message
        }))),
    }
}

/// Where a Maildir message listed at `path` (in `cur/` or `new/`) is now, when it is no longer
/// there: a mail client delivers to `new/`, moves a message to `cur/` once seen, and renames
/// it there whenever its flags change, and any of that may happen between the listing and
/// the opening. The message keeps its unique name, the file name up to the `:` that starts
/// the info (`1700000000.M1P2.host:2,S`), so it is looked for in the Maildir's `cur/` then
/// `new/` under a name that is the unique name alone or followed by `:`. `None` when it is in
/// neither (it was deleted).
fn relocated(path: &Path) -> Option<PathBuf> {
    let name = path.file_name()?.as_encoded_bytes();
    let unique = name.split(|&b| b == b':').next()?;
    let maildir = path.parent()?.parent()?;
    ["cur", "new"].into_iter().find_map(|folder| {
        fs::read_dir(maildir.join(folder))
            .ok()?
            .filter_map(Result::ok)
            .find(|entry| {
                let candidate = entry.file_name();
                let candidate = candidate.as_encoded_bytes();
                candidate
                    .strip_prefix(unique)
                    .is_some_and(|info| info.is_empty() || info.starts_with(b":"))
            })
            .map(|entry| entry.path())
    })
}

/// A regular file of `size` bytes, no more than the limit, read as long as it was when its
/// size was taken: `size` bytes, or fewer if it has shrunk since. Stopping at `size` saves the
/// second `read` that would only find the end (one system call per file of a batch). A file
/// that claims to be empty (those of `/proc` do) is read to its end, up to the limit.
fn read_whole(name: String, file: File, size: u64, in_maildir: bool, limit: u64) -> Opened {
    let most = if size == 0 {
        limit.saturating_add(1)
    } else {
        size
    };
    let mut bytes = Vec::with_capacity(usize::try_from(size).unwrap_or(0));
    if let Err(error) = file.take(most).read_to_end(&mut bytes) {
        return Opened::One(read_error(name, &error));
    }
    if bytes.len() as u64 > limit {
        // A file that claimed to be empty held more.
        let source = Source::file(name, bytes.len() as u64);
        return Opened::One(Message::too_large(source, limit));
    }
    if Compression::sniff(&bytes).is_some() {
        return stream(
            name,
            Box::new(io::Cursor::new(bytes)),
            None,
            in_maildir,
            limit,
        );
    }
    if !in_maildir && is_mbox(bytes.get(..MBOX_HEAD_BYTES).unwrap_or(&bytes)) {
        return Opened::Many(Box::new(MboxInMemory::new(name, bytes)));
    }
    Opened::One(Message {
        source: Source::file(name, bytes.len() as u64),
        input: Input::Bytes(bytes),
    })
}

/// Standard input, a file that is not regular or larger than the limit, or a compressed
/// file: an mbox file streams (`size`: its length when known beforehand); anything else is
/// read up to the limit.
fn stream(
    name: String,
    reader: Box<dyn Read + Send>,
    size: Option<u64>,
    in_maildir: bool,
    limit: u64,
) -> Opened {
    let mut reader = match Decoded::open(reader) {
        Ok(reader) => reader,
        Err(failed) => return Opened::One(failed_message(name, failed)),
    };
    let compression = reader.compression();
    if !in_maildir && is_mbox(reader.head()) {
        let mbox = Mbox::new(name, reader, limit).with_compression(compression);
        return Opened::Many(Box::new(mbox));
    }
    // A compressed file's size is not that of its message.
    if let Some(size) = size.filter(|&size| size > limit && compression.is_none()) {
        return Opened::One(Message::too_large(Source::file(name, size), limit));
    }
    let head = reader.take_head();
    let mut message = read_one(name, head, &mut reader, limit);
    message.source.compression = compression;
    Opened::One(message)
}

/// One message: `head` (its first bytes, already read) and the rest of `reader`, read up to
/// one byte past `limit`; over the limit, a [`ScanErrorKind::TooLarge`] message without a
/// length, the rest not read (it may never end: `/dev/zero`).
fn read_one(name: String, head: Vec<u8>, reader: &mut dyn Read, limit: u64) -> Message {
    let mut message = head;
    if let Err(error) = read_up_to(reader, &mut message, limit.saturating_add(1)) {
        return read_error(name, &error);
    }
    let length = message.len() as u64;
    if length > limit {
        drop(message);
        let mut source = Source::file(name, 0);
        source.length = None;
        return Message::too_large(source, limit);
    }
    Message {
        source: Source::file(name, length),
        input: Input::Bytes(message),
    }
}

/// Appends what `reader` holds to `bytes`, until its end or until `bytes` holds `most` bytes.
///
/// Once the input passes 1 MiB, the buffer is reserved at once for `most` bytes (when the
/// system grants that much address space): address space, of which the operating system
/// makes memory only of the pages written. Growing by doubling instead copies the bytes at
/// each step and leaves the old buffers to the allocator, so that resident memory would be a
/// multiple of what was read.
fn read_up_to(reader: &mut dyn Read, bytes: &mut Vec<u8>, most: u64) -> io::Result<()> {
    let most = usize::try_from(most).unwrap_or(usize::MAX);
    let small = most.min(1 << 20);
    reader
        .take(small.saturating_sub(bytes.len()) as u64)
        .read_to_end(bytes)?;
    if bytes.len() < small {
        // The end of the input.
        return Ok(());
    }
    let rest = most - bytes.len();
    // A limit larger than the address space the system grants (1000 GiB, say) cannot be
    // reserved: the buffer then grows as the input comes, by doubling.
    let _ = bytes.try_reserve_exact(rest);
    reader.take(rest as u64).read_to_end(bytes)?;
    Ok(())
}

/// What a stream holds, as [`open_stream`] tells it.
pub enum Stream<R: Read> {
    /// One message, or the failure that stands in its place (a read error, or a message over
    /// the limit, not read past it).
    One(Message),
    /// An mbox: its messages, read as they are asked for (the first bytes, read to tell the
    /// format, come first again), decompressed when the stream is compressed.
    Mbox(Mbox<Decoded<R>>),
}

/// Reads the start of `reader` (standard input, a file, a pipe), named `name` in each
/// [`Source`], and tells what it holds by the rule of [`open`]: an mbox when it starts as one
/// ([`is_mbox`], read from its first [`MBOX_HEAD_BYTES`] bytes), else one message, read here up
/// to `limit` bytes (a longer one is
/// [`ScanErrorKind::TooLarge`], with no length, and the rest is not read). A compressed
/// stream is decompressed first, as [`open`] does. [`open`] reads
/// standard input this way; a caller that needs the [`Mbox`] itself (to set
/// [`Mbox::with_unquoting`], or to read [`Mbox::position`]) calls this.
pub fn open_stream<R: Read>(name: String, reader: R, limit: u64) -> Stream<R> {
    let mut reader = match Decoded::open(reader) {
        Ok(reader) => reader,
        Err(failed) => return Stream::One(failed_message(name, failed)),
    };
    let compression = reader.compression();
    if is_mbox(reader.head()) {
        return Stream::Mbox(Mbox::new(name, reader, limit).with_compression(compression));
    }
    let head = reader.take_head();
    let mut message = read_one(name, head, &mut reader, limit);
    message.source.compression = compression;
    Stream::One(message)
}

/// The message that stands for an input whose first bytes could not be read (or
/// decompressed).
fn failed_message(name: String, failed: Failed) -> Message {
    let mut message = read_error(name, &failed.error);
    message.source.compression = failed.compression;
    message
}

pub(super) fn read_error(name: String, error: &io::Error) -> Message {
    Message::error(
        Source::unknown(name),
        ScanErrorKind::Read,
        error.to_string(),
    )
}

/// Every message of every file the walker finds, in order: each [`Found`] [`open`]ed, an mbox
/// file's messages one after another, as `mimebase scan --jobs 1` analyzes them.
pub struct Messages {
    walker: Walker,
    limit: u64,
    /// The rest of the mbox file being read.
    mbox: Option<Box<dyn Iterator<Item = Message> + Send>>,
}

impl Messages {
    /// `limit`: the largest message, in bytes, that is read into memory; a larger one is a
    /// [`ScanErrorKind::TooLarge`] message.
    pub fn new(walker: Walker, limit: u64) -> Self {
        Messages {
            walker,
            limit,
            mbox: None,
        }
    }
}

impl Iterator for Messages {
    type Item = Message;

    fn next(&mut self) -> Option<Message> {
        loop {
            if let Some(mbox) = &mut self.mbox {
                match mbox.next() {
                    Some(job) => return Some(job),
                    None => self.mbox = None,
                }
            }
            match open(self.walker.next()?, self.limit) {
                Opened::One(job) => return Some(job),
                Opened::Many(messages) => self.mbox = Some(messages),
            }
        }
    }
}
