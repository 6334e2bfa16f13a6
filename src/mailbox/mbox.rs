//! Splitting an mbox into its messages: [`Mbox`] streams any reader a line at a time through
//! [`Chunks`], and [`MboxInMemory`] splits a file already read whole, at the same boundaries
//! (a unit test checks that the two agree).
//!
//! # Where a message starts
//!
//! A UTF-8 byte order mark at the start of the file is in no message (MimeKit's `MimeParser`
//! skips it; GMime's parser and Python's `mailbox.mbox` take the line it starts for no `From `
//! line and lose the first message). A message starts at the first line of the file (after
//! such a mark) and at every later line that begins with
//! `From ` (the separator line of RFC 4155 §2), whatever the line before it, with one
//! exception: in the header block of the message being read (from its `From ` line to its
//! first empty line), a line of `From`, blanks and a colon is a header field, not a
//! separator. A `>From ` line is never a separator (mboxrd quoting,
//! [`unquote`]).
//!
//! A message ends where the next one starts, less one empty line (`\n` or `\r\n`) just
//! before that `From ` line, or at the end of the file less one final empty line.
//!
//! The rule is that of the readers of three mail libraries. Python's `mailbox.mbox`, GMime's
//! `GMimeParser` and MimeKit's `MimeParser` (both in their mbox format) all start a message
//! at a `From ` line that follows a non-empty line, such as the `From - ` lines Netscape
//! wrote right after a multipart's close delimiter or a last line of base64, and at a body
//! line such as `From here on`: a reader that wanted an empty line first would join those
//! messages to the one before. The readers disagree on the header field line: Python's and
//! MimeKit's start a message there, GMime's keeps the line in the header. RFC 4155 §2 settles
//! it: a separator line is `From`, a single space, an address of some kind, a space and a
//! timestamp, and in `From : …` or `From  : …` the single space is followed by a colon or a
//! second blank, which begin no address. That line is the From field in the obsolete syntax
//! of RFC 5322 §4.5.2 (`obs-from = "From" *WSP ":" mailbox-list CRLF`), which RFC 5322 §4
//! says a receiver must accept, and reading it as a separator would cut a message inside its
//! header. After the header block (in the body, part headers included) all three readers
//! start a message at it, and so does this one.
//!
//! Python ends a message before an empty line only when that line is the platform's line
//! separator (`\n` on Unix), so on Unix it keeps a `\r\n` empty line in the message before;
//! here either ending is left out.

use std::io::{self, Read};
use std::ops::Range;

use crate::mime::BYTE_ORDER_MARK;
use crate::mime::header::{FROM_FIELD_PEEK, is_from_field};
use crate::report::{Compression, ScanErrorKind, Source};

use super::{Input, Message, unquote};

/// The messages of an mbox file held in memory, split by [`split_mbox`].
pub(super) struct MboxInMemory {
    name: String,
    bytes: Vec<u8>,
    /// The file offset of `bytes[0]`: 0, or where [`open_at`](super::open_at) began.
    base: u64,
    /// The messages not yet yielded, last first, each with whether `>From ` occurs in it
    /// (then it may have lines to [`unquote`]).
    ranges: Vec<(Range<usize>, bool)>,
}

impl MboxInMemory {
    pub(super) fn new(name: String, bytes: Vec<u8>) -> Self {
        Self::at(name, bytes, 0)
    }

    /// The messages of `bytes`, the part of a file from byte `base` on (a message's `From `
    /// line), each offset counted from the start of the file.
    pub(super) fn at(name: String, bytes: Vec<u8>, base: u64) -> Self {
        let mut ranges = split_mbox(&bytes);
        ranges.reverse();
        MboxInMemory {
            name,
            bytes,
            base,
            ranges,
        }
    }
}

impl Iterator for MboxInMemory {
    type Item = Message;

    fn next(&mut self) -> Option<Message> {
        let (range, quoted) = self.ranges.pop()?;
        let offset = self.base.saturating_add(range.start as u64);
        let source = Source::mbox(self.name.clone(), offset, range.len() as u64);
        let mut message = if self.ranges.is_empty() && range.start == 0 {
            // The only message: the file's own buffer, no copy.
            let mut bytes = std::mem::take(&mut self.bytes);
            bytes.truncate(range.end);
            bytes
        } else {
            self.bytes.get(range).unwrap_or_default().to_vec()
        };
        if quoted {
            unquote(&mut message);
        }
        Some(Message {
            source,
            input: Input::Bytes(message),
        })
    }
}

/// The byte ranges of the messages of an mbox file (that starts with `From `, after a byte
/// order mark if any), at the boundaries of the [module docs](self), the same as [`Mbox`] finds
/// as it streams. With each range, whether `>From ` occurs in it: one search for `From ` finds
/// both.
fn split_mbox(bytes: &[u8]) -> Vec<(Range<usize>, bool)> {
    let mut ranges = Vec::new();
    let mut start = if bytes.starts_with(BYTE_ORDER_MARK) {
        BYTE_ORDER_MARK.len()
    } else {
        0
    };
    let mut quoted = false;
    // The first empty line at or after some earlier `start` (the file's length if none), so
    // the end of the header block of the message at `start` while it is not before `start`.
    let mut empty_line = None;
    for from in memchr::memmem::find_iter(bytes, b"From ") {
        let Some(at) = from.checked_sub(1) else {
            continue;
        };
        match bytes.get(at) {
            Some(b'>') => quoted = true,
            // `\nFrom ` at `at`: a `From ` line at `from`.
            Some(b'\n') => {
                if is_from_field(bytes.get(from..).unwrap_or_default()) {
                    let header_end = match empty_line {
                        Some(line) if line >= start => line,
                        _ => first_empty_line(bytes, start),
                    };
                    empty_line = Some(header_end);
                    if from < header_end {
                        continue;
                    }
                }
                let before = bytes.get(..from).unwrap_or_default();
                let end = from.saturating_sub(empty_line_before(before));
                ranges.push((start..end, quoted));
                start = from;
                quoted = false;
            }
            _ => {}
        }
    }
    let rest = bytes.get(start..).unwrap_or_default();
    ranges.push((start..bytes.len() - empty_line_before(rest), quoted));
    ranges
}

/// The length of the empty line (`\n` or `\r\n`) that ends `bytes`, 0 if its last line is
/// not empty or does not end.
fn empty_line_before(bytes: &[u8]) -> usize {
    if bytes.ends_with(b"\n\r\n") {
        2
    } else if bytes.ends_with(b"\n\n") {
        1
    } else {
        0
    }
}

/// The offset of the first empty line (`\n` or `\r\n`) after the line at `start` of
/// `bytes`, or the length of `bytes` if there is none.
fn first_empty_line(bytes: &[u8], start: usize) -> usize {
    let rest = bytes.get(start..).unwrap_or_default();
    let lf = memchr::memmem::find(rest, b"\n\n").map_or(rest.len(), |at| at + 1);
    // A `\r\n` empty line before that one, if any, is within the first `lf + 2` bytes.
    let before_lf = rest.get(..lf.saturating_add(2)).unwrap_or(rest);
    let crlf = memchr::memmem::find(before_lf, b"\n\r\n").map_or(rest.len(), |at| at + 1);
    start + lf.min(crlf)
}

/// The messages of an mbox file, read a line at a time from any reader (a file, a pipe,
/// standard input), each with its offset and length in the stream: the boundaries and the
/// mboxrd unquoting are those the [`scan`](crate::scan) module documents. At most one
/// message, and none over the limit, is held in memory, plus a 64 KiB read buffer.
///
/// A read error ends the iteration with one [`ScanErrorKind::Read`] message at the offset
/// where the message being read started (its `length` unknown).
pub struct Mbox<R> {
    name: String,
    reader: Chunks<R>,
    limit: u64,
    /// The file offset of the next unread byte.
    position: u64,
    done: bool,
    unquoting: bool,
    /// The stream started with a byte order mark, skipped.
    byte_order_mark: bool,
    /// How the stream was compressed: its offsets count decompressed bytes.
    compression: Option<Compression>,
}

impl<R: Read> Mbox<R> {
    /// The messages of `reader`, positioned at the start of an mbox file (on its first `From `
    /// line, or on a UTF-8 byte order mark before it, which is skipped: see
    /// [`byte_order_mark`](Self::byte_order_mark)), each [`Source`] with `name` as its
    /// path; a message over `limit` bytes is counted, not kept, and becomes a
    /// [`ScanErrorKind::TooLarge`] message.
    pub fn new(name: String, reader: R, limit: u64) -> Self {
        Mbox {
            name,
            reader: Chunks::new(reader),
            limit,
            position: 0,
            done: false,
            unquoting: true,
            byte_order_mark: false,
            compression: None,
        }
    }

    /// The [`Source::compression`] of every message: how the stream the reader decompresses
    /// was compressed.
    pub(super) fn with_compression(mut self, compression: Option<Compression>) -> Self {
        self.compression = compression;
        self
    }

    /// How the input was compressed (as [`open_stream`](super::open_stream) tells it), when
    /// it was: then offsets count bytes of the decompressed stream, and a message cannot be
    /// copied from the file by its offset. `None` for a plain input.
    pub fn compression(&self) -> Option<Compression> {
        self.compression
    }

    /// The UTF-8 byte order mark the stream started with, which is in no message (the first
    /// message's offset is then 3, and a copy of the mbox starts with these 3 bytes); `None`
    /// when there was none. Known once the first message has been read.
    pub fn byte_order_mark(&self) -> Option<&'static [u8]> {
        self.byte_order_mark.then_some(BYTE_ORDER_MARK)
    }

    /// With `false`, each message is yielded as stored in the file, its mboxrd quoting kept
    /// (to be written back to an mbox, as `mimebase rewrite` does: it undoes the quoting with
    /// [`unquote`], rewrites the message, and redoes the quoting with [`quote`](super::quote)).
    ///
    /// ### Default
    ///
    /// `true`: `>From ` lines lose their first `>`, as [`unquote`] does, so that each
    /// message is ready for [`analyze`](crate::analyze).
    pub fn with_unquoting(mut self, unquoting: bool) -> Self {
        self.unquoting = unquoting;
        self
    }

    /// Counts the stream's bytes from `offset` on: `reader` starts at byte `offset` of its
    /// file, on a message's `From ` line (where an earlier reading stopped), so that each
    /// message's offset is that in the file, and no byte order mark is looked for.
    ///
    /// ### Default
    ///
    /// 0: the stream is the whole file.
    pub fn with_offset(mut self, offset: u64) -> Self {
        self.position = offset;
        self
    }

    /// The number of bytes of the stream read so far (consumed, not merely buffered). At the
    /// end of the iteration, the length of the whole stream: the bytes after the last message
    /// (one final empty line, `\n` or `\r\n`, or none) are those past its `offset + length`.
    pub fn position(&self) -> u64 {
        self.position
    }

    /// The message that starts here, on its `From ` line; `None` at the end of the file.
    fn read_message(&mut self) -> io::Result<Option<Message>> {
        if self.position == 0
            && self
                .reader
                .head_at_least(BYTE_ORDER_MARK.len())?
                .starts_with(BYTE_ORDER_MARK)
        {
            self.reader.consume(BYTE_ORDER_MARK.len());
            self.position = BYTE_ORDER_MARK.len() as u64;
            self.byte_order_mark = true;
        }
        let start = self.position;
        if self.reader.head()?.is_empty() {
            return Ok(None);
        }
        // `None` once the message is over the limit: its bytes are counted, not kept.
        let mut message = Some(Vec::new());
        let mut length = 0;
        self.copy_line(&mut message, &mut length, false)?;
        // An empty line just read: the separator if a `From ` line follows, else content.
        let mut empty_line: Option<&'static [u8]> = None;
        // No empty line read yet: the lines are the message's header block.
        let mut in_header = true;
        loop {
            let head = self.reader.head()?;
            if head.is_empty() {
                break;
            }
            let this_empty: Option<&'static [u8]> = if head.starts_with(b"\n") {
                Some(b"\n")
            } else if head.starts_with(b"\r\n") {
                Some(b"\r\n")
            } else {
                None
            };
            if head.starts_with(b"From ")
                && !(in_header && is_from_field(self.reader.head_at_least(FROM_FIELD_PEEK)?))
            {
                break;
            }
            if let Some(previous) = empty_line.take() {
                self.keep(&mut message, &mut length, previous);
            }
            match this_empty {
                Some(line) => {
                    self.reader.consume(line.len());
                    self.position += line.len() as u64;
                    empty_line = Some(line);
                    in_header = false;
                }
                None => self.copy_line(&mut message, &mut length, self.unquoting)?,
            }
        }
        let mut source = Source::mbox(self.name.clone(), start, length);
        source.compression = self.compression;
        Ok(Some(match message {
            Some(message) => Message {
                source,
                input: Input::Bytes(message),
            },
            None => Message::too_large(source, self.limit),
        }))
    }

    /// Adds `bytes` to the message, or drops the message once it is over the limit.
    fn keep(&self, message: &mut Option<Vec<u8>>, length: &mut u64, bytes: &[u8]) {
        *length += bytes.len() as u64;
        if *length > self.limit {
            *message = None;
        } else if let Some(message) = message {
            append(message, bytes, self.limit);
        }
    }

    /// Reads one line (up to and including `\n`, or to the end of the file) into the message;
    /// with `unquote`, a line `>…>From ` loses its first `>` (mboxrd).
    fn copy_line(
        &mut self,
        message: &mut Option<Vec<u8>>,
        length: &mut u64,
        unquote: bool,
    ) -> io::Result<()> {
        let line_start = message.as_ref().map(Vec::len);
        loop {
            let data = self.reader.data();
            if data.is_empty() {
                if self.reader.fill()? {
                    continue;
                }
                break;
            }
            let (taken, complete) = match memchr::memchr(b'\n', data) {
                Some(end) => (end + 1, true),
                None => (data.len(), false),
            };
            *length += taken as u64;
            if *length > self.limit {
                *message = None;
            } else if let (Some(message), Some(line)) = (message.as_mut(), data.get(..taken)) {
                append(message, line, self.limit);
            }
            self.reader.consume(taken);
            self.position += taken as u64;
            if complete {
                break;
            }
        }
        if let (true, Some(message), Some(start)) = (unquote, message.as_mut(), line_start) {
            let line = message.get(start..).unwrap_or_default();
            let quotes = line.iter().take_while(|&&b| b == b'>').count();
            if quotes > 0 && line.get(quotes..).is_some_and(|l| l.starts_with(b"From ")) {
                message.remove(start);
            }
        }
        Ok(())
    }
}

impl<R: Read> Iterator for Mbox<R> {
    type Item = Message;

    fn next(&mut self) -> Option<Message> {
        if self.done {
            return None;
        }
        let start = self.position;
        match self.read_message() {
            Ok(Some(job)) => Some(job),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(error) => {
                self.done = true;
                let mut source = Source::mbox(self.name.clone(), start, 0);
                source.length = None;
                source.compression = self.compression;
                Some(Message::error(
                    source,
                    ScanErrorKind::Read,
                    error.to_string(),
                ))
            }
        }
    }
}

/// Appends `bytes` to a message that is kept while it is no longer than `limit` bytes.
///
/// Once the message passes 1 MiB, its buffer is reserved at once for `limit` bytes (when the
/// system grants that much address space), as a single message read from a stream is:
/// growing by doubling would hold the old buffer and the new one, twice the size, at each
/// step, and leave the old ones to the allocator, so that a message just under the limit (or
/// one over it, dropped only once it passes the limit) would cost a multiple of the limit in
/// resident memory.
fn append(message: &mut Vec<u8>, bytes: &[u8], limit: u64) {
    let needed = message.len().saturating_add(bytes.len());
    if needed > message.capacity() && needed > 1 << 20 {
        let most = usize::try_from(limit).unwrap_or(usize::MAX);
        let _ = message.try_reserve_exact(most.saturating_sub(message.len()));
    }
    message.extend_from_slice(bytes);
}

/// A read buffer that, unlike `BufReader`, can be asked for the first bytes of the next line
/// even when they straddle two reads.
struct Chunks<R> {
    inner: R,
    buffer: Box<[u8]>,
    start: usize,
    end: usize,
    at_end: bool,
}

impl<R: Read> Chunks<R> {
    fn new(inner: R) -> Self {
        Chunks {
            inner,
            buffer: vec![0; 64 << 10].into_boxed_slice(),
            start: 0,
            end: 0,
            at_end: false,
        }
    }

    /// The bytes read and not yet consumed.
    fn data(&self) -> &[u8] {
        self.buffer.get(self.start..self.end).unwrap_or_default()
    }

    fn consume(&mut self, count: usize) {
        self.start = (self.start + count).min(self.end);
    }

    /// Reads more input after the unconsumed bytes; false at the end of the input.
    fn fill(&mut self) -> io::Result<bool> {
        if self.at_end {
            return Ok(false);
        }
        if self.start > 0 {
            self.buffer.copy_within(self.start..self.end, 0);
            self.end -= self.start;
            self.start = 0;
        }
        loop {
            let Some(free) = self.buffer.get_mut(self.end..).filter(|f| !f.is_empty()) else {
                return Ok(true);
            };
            match self.inner.read(free) {
                Ok(0) => {
                    self.at_end = true;
                    return Ok(false);
                }
                Ok(read) => {
                    self.end += read;
                    return Ok(true);
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
                Err(error) => return Err(error),
            }
        }
    }

    /// The unconsumed bytes, at least five of them unless a line ends sooner or the input
    /// does; empty at the end of the input.
    fn head(&mut self) -> io::Result<&[u8]> {
        self.head_at_least(5)
    }

    /// The unconsumed bytes, at least `count` of them (fewer than the buffer's size) unless
    /// a line ends sooner or the input does.
    fn head_at_least(&mut self, count: usize) -> io::Result<&[u8]> {
        while self.data().len() < count && !self.data().contains(&b'\n') && self.fill()? {}
        Ok(self.data())
    }
}

#[cfg(test)]
mod tests {

    use super::*;

    /// (offset, length, analyzed bytes or the error kind) of each message of `mbox`, read
    /// through a reader that returns `chunk` bytes at a time.
    fn split(
        mbox: &[u8],
        limit: u64,
        chunk: usize,
    ) -> Vec<(u64, u64, Result<Vec<u8>, ScanErrorKind>)> {
        struct Trickle<'a>(&'a [u8], usize);
        impl Read for Trickle<'_> {
            fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
                let n = self.0.len().min(self.1).min(out.len());
                out[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        Mbox::new("m".to_owned(), Trickle(mbox, chunk), limit)
            .map(|job| {
                let input = match job.input {
                    Input::Bytes(bytes) => Ok(bytes),
                    Input::Error(kind, _) => Err(kind),
                };
                (
                    job.source.offset.unwrap(),
                    job.source.length.unwrap(),
                    input,
                )
            })
            .collect()
    }

    #[test]
    fn splits_at_every_from_line_and_unquotes() {
        let first = b"From a\nSubject: 1\nFrom : field\n\nbody\n>From quoted\n>>From twice\n";
        let unseparated = b"From x\nSubject: after a non-empty line\n";
        let second = b"From b\r\nSubject: 2\r\n\r\n\r\n";
        let third = b"From c\nSubject: 3\n\nno newline";
        let mbox = [&first[..], unseparated, b"\n", second, b"\r\n", third].concat();
        for chunk in [1, 2, 3, 5, 7, 4096] {
            let messages = split(&mbox, 1 << 20, chunk);
            assert_eq!(messages.len(), 4, "chunk {chunk}");
            assert_eq!((messages[0].0, messages[0].1), (0, first.len() as u64));
            assert_eq!(
                messages[0].2.as_deref().unwrap(),
                b"From a\nSubject: 1\nFrom : field\n\nbody\nFrom quoted\n>From twice\n"
            );
            let offset = first.len() as u64;
            assert_eq!(
                messages[1],
                (offset, unseparated.len() as u64, Ok(unseparated.to_vec()))
            );
            // Of the three empty lines after `Subject: 2`, the last is the separator.
            let offset = offset + unseparated.len() as u64 + 1;
            assert_eq!(
                messages[2],
                (offset, second.len() as u64, Ok(second.to_vec()))
            );
            let offset = offset + second.len() as u64 + 2;
            assert_eq!(
                messages[3],
                (offset, third.len() as u64, Ok(third.to_vec()))
            );
            assert_eq!(offset + third.len() as u64, mbox.len() as u64);
        }
    }

    /// The offsets of the messages of `mbox`, streamed `chunk` bytes at a time, after
    /// checking that the split in memory gives the same messages.
    fn starts(mbox: &[u8], chunk: usize) -> Vec<u64> {
        let streamed = split(mbox, 1 << 20, chunk);
        assert_eq!(split_in_memory(mbox), streamed);
        streamed.iter().map(|m| m.0).collect()
    }

    #[test]
    fn a_from_field_is_a_separator_only_after_the_header_block() {
        // In the header block: a field (`From`, blanks, a colon), else a separator.
        for field in ["From : x", "From  : x", "From \t:x", "From :"] {
            let mbox = format!("From a\nTo: b\n{field}\nSubject: s\n\nbody\n");
            assert_eq!(starts(mbox.as_bytes(), 3), [0], "{field:?}");
            let crlf = mbox.replace('\n', "\r\n");
            assert_eq!(starts(crlf.as_bytes(), 3), [0], "{field:?}");
        }
        for line in ["From here on", "From x : y", "From  ", "From  x:"] {
            let mbox = format!("From a\nTo: b\n{line}\nSubject: s\n\nbody\n");
            assert_eq!(starts(mbox.as_bytes(), 3), [0, 13], "{line:?}");
        }
        // After the header block, in the body or right after the empty line: a separator.
        let mbox = b"From a\nTo: b\n\nFrom : x\nSubject: 2\n\nbody\nFrom  : y\n";
        assert_eq!(starts(mbox, 3), [0, 14, 40]);
        // The header block is that of the message being read, not of the one before.
        let mbox = b"From a\nTo: b\n\nbody\nFrom b\nFrom : x\n\nFrom : y\n";
        assert_eq!(starts(mbox, 2), [0, 19, 36]);
        // A field with many blanks before its colon, up to the 998 of a line.
        for (blanks, separator) in [(998, false), (999, true)] {
            let line = format!("From{}:", " ".repeat(blanks));
            let mbox = format!("From a\n{line}\n\nbody\n");
            let expected: &[u64] = if separator { &[0, 7] } else { &[0] };
            for chunk in [1, 7, 4096] {
                assert_eq!(starts(mbox.as_bytes(), chunk), expected, "{blanks}");
            }
        }
    }

    /// What [`MboxInMemory`] yields, in the shape of [`split`].
    fn split_in_memory(mbox: &[u8]) -> Vec<(u64, u64, Result<Vec<u8>, ScanErrorKind>)> {
        MboxInMemory::new("m".to_owned(), mbox.to_vec())
            .map(|job| {
                let Input::Bytes(bytes) = job.input else {
                    panic!("no error in memory")
                };
                (
                    job.source.offset.unwrap(),
                    job.source.length.unwrap(),
                    Ok(bytes),
                )
            })
            .collect()
    }

    #[test]
    fn in_memory_and_streaming_split_alike() {
        let lines: [&[u8]; 11] = [
            b"From x\n",
            b"\n",
            b"\r\n",
            b">From q\n",
            b">>From q\n",
            b"text\n",
            b"text\r\n",
            b"From y",
            b">",
            b"From : f\n",
            b"From \t",
        ];
        // Every mbox of up to four of these pieces after a `From ` line.
        let mut count = 0;
        let mut stack = vec![(b"From a\n".to_vec(), 0)];
        while let Some((mbox, pieces)) = stack.pop() {
            let streamed = split(&mbox, 1 << 20, 3);
            assert_eq!(
                split_in_memory(&mbox),
                streamed,
                "{:?}",
                String::from_utf8_lossy(&mbox)
            );
            let total: u64 = streamed.iter().map(|m| m.1).sum();
            assert!(total <= mbox.len() as u64);
            count += 1;
            if pieces < 4 {
                for line in lines {
                    stack.push(([&mbox[..], line].concat(), pieces + 1));
                }
            }
        }
        assert_eq!(count, 1 + 11 + 121 + 1331 + 14641);
    }

    #[test]
    fn stored_messages_keep_their_quoting_and_position_ends_at_the_end() {
        let mbox = b"From a\n>From q\n\nFrom b\r\nx\r\n\r\n";
        let mut stream = Mbox::new("m".to_owned(), &mbox[..], 1 << 20).with_unquoting(false);
        let first = stream.next().unwrap();
        assert_eq!(first.input, Input::Bytes(b"From a\n>From q\n".to_vec()));
        let second = stream.next().unwrap();
        assert_eq!(second.input, Input::Bytes(b"From b\r\nx\r\n".to_vec()));
        assert!(stream.next().is_none());
        assert_eq!(stream.position(), mbox.len() as u64);
        assert_eq!(second.source.offset, Some(16));
    }

    /// A byte order mark before the first `From ` line is in no message, read whole or
    /// streamed a byte at a time; one later in the file is content.
    #[test]
    fn a_byte_order_mark_at_the_start_is_in_no_message() {
        let mbox = b"\xef\xbb\xbfFrom a\nx: 1\n\nbody\n\nFrom b\n\n\xef\xbb\xbfFrom c\n";
        for chunk in [1, 2, 3, 4096] {
            assert_eq!(starts(mbox, chunk), [3, 22]);
            let messages = split(mbox, 1 << 20, chunk);
            assert_eq!(messages[0].2.as_deref().unwrap(), b"From a\nx: 1\n\nbody\n");
            assert_eq!(messages[1].1, mbox.len() as u64 - 22);
        }
        let mut stream = Mbox::new("m".to_owned(), &mbox[..], 1 << 20);
        assert_eq!(stream.byte_order_mark(), None);
        stream.next();
        assert_eq!(stream.byte_order_mark(), Some(BYTE_ORDER_MARK));
        assert!(
            Mbox::new("m".to_owned(), &b"From a\n"[..], 1 << 20)
                .map(|m| m.source.offset)
                .eq([Some(0)])
        );
    }

    #[test]
    fn final_empty_line_is_left_out() {
        let messages = split(b"From a\n\nx\n\n", 1 << 20, 3);
        assert_eq!(messages.len(), 1);
        assert_eq!((messages[0].0, messages[0].1), (0, 10));
    }

    #[test]
    fn message_over_the_limit_is_an_error_and_the_next_one_is_read() {
        let messages = split(b"From a\n\n0123456789\n\nFrom b\n\nok\n", 12, 4);
        assert_eq!(messages.len(), 2);
        assert_eq!(messages[0], (0, 19, Err(ScanErrorKind::TooLarge)));
        assert_eq!(messages[1], (20, 11, Ok(b"From b\n\nok\n".to_vec())));
    }
}
