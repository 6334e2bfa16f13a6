//! Compressed inputs: a file or stream that starts with the magic number of gzip, bzip2, xz
//! or zstd ([`Compression::sniff`]) is read through the decoder, and what comes out is read
//! as any input is (one message, or an mbox by the rule of [`is_mbox`](super::is_mbox)).
//!
//! The format is told by the first bytes, which the readers read anyway (the head that tells
//! an mbox from a message, or the whole of a small file), never by the file's name: a plain
//! file costs one comparison of its first byte. Only one layer is undone (a gzip file inside
//! a gzip file is read as one message of compressed bytes), and every member, stream or
//! frame of a file that holds several is read, one after another, as `zcat`, `bzcat`,
//! `xzcat` and `zstdcat` read them.
//!
//! The decompressed size is unknown beforehand (a few kilobytes of gzip can stand for
//! gigabytes), so a compressed input always streams, and the size limit bounds each message
//! of the decompressed stream as it bounds the messages of a plain one. The decoders' own
//! memory is bounded too: gzip needs a 32 KiB window, bzip2 under 4 MiB, and xz and zstd
//! are refused a dictionary or window over 128 MiB ([`DECODER_MEMORY`]), the most `xz -9`
//! and zstd's default decoding limit ask for.
//!
//! A decoder's error (a truncated or corrupt stream, a wrong checksum) is an I/O error
//! that names the format and how many bytes had been decompressed before it; what was
//! decompressed before it is read as usual.
//!
//! The decoders: flate2 (on miniz_oxide) for gzip, bzip2 (on libbz2-rs-sys, a Rust port of
//! libbzip2) and lzma-rust2 for xz, all Rust; for zstd, the reference C library through the
//! `zstd` crate, which reads concatenated and skippable frames and checks each frame's
//! checksum, where the Rust decoder (ruzstd) leaves those to its caller.

use std::io::{self, Read};

use crate::report::Compression;

use super::MBOX_HEAD_BYTES;

/// The most memory, in bytes, an xz dictionary or a zstd window may ask for (128 MiB): what
/// `xz -9` needs (a 64 MiB dictionary) and zstd's own default limit for decoding
/// (`ZSTD_WINDOWLOG_LIMIT_DEFAULT`, a window of 2^27 bytes). A stream that asks for more is
/// a read error.
pub const DECODER_MEMORY: u64 = 128 << 20;

/// The bytes of an input as the readers of this module see them: as read, or decompressed
/// when the input starts with a compression's magic number. Its first bytes (at most
/// [`MBOX_HEAD_BYTES`], read to tell what it holds) come first again.
///
/// It is the reader of the [`Mbox`](super::Mbox) that [`open_stream`](super::open_stream)
/// returns; it has no constructor of its own.
pub struct Decoded<R: Read> {
    /// The bytes read ahead (decompressed, when the input is compressed), given first.
    head: io::Cursor<Vec<u8>>,
    /// What comes after them.
    rest: Rest<R>,
    /// How the input was compressed; `None` for a plain one.
    compression: Option<Compression>,
}

enum Rest<R: Read> {
    /// A plain input: the rest of the reader.
    Plain(R),
    /// The input has ended: a terminal's end-of-file ends one read only, and a second read
    /// would wait for another.
    Ended,
    /// A compressed input: the rest of what the decoder gives.
    Compressed {
        compression: Compression,
        decoder: Box<Decoder<Tail<R>>>,
        /// The number of bytes decompressed so far, the head included.
        out: u64,
    },
}

/// One decoder per format, each reading every member, stream or frame in turn.
// The xz reader is large; the decoder is boxed where it is held, once per input.
#[allow(clippy::large_enum_variant)]
enum Decoder<R: Read> {
    Gzip(flate2::read::MultiGzDecoder<R>),
    Bzip2(bzip2::read::MultiBzDecoder<R>),
    Xz(lzma_rust2::XzReader<R>),
    Zstd(zstd::stream::read::Decoder<'static, io::BufReader<R>>),
}

impl<R: Read> Decoder<R> {
    fn new(compression: Compression, reader: R) -> io::Result<Self> {
        Ok(match compression {
            Compression::Gzip => Decoder::Gzip(flate2::read::MultiGzDecoder::new(reader)),
            Compression::Bzip2 => Decoder::Bzip2(bzip2::read::MultiBzDecoder::new(reader)),
            Compression::Xz => {
                let kib = u32::try_from(DECODER_MEMORY >> 10).unwrap_or(u32::MAX);
                Decoder::Xz(lzma_rust2::XzReader::new_mem_limit(reader, true, kib))
            }
            Compression::Zstd => {
                let mut decoder = zstd::stream::read::Decoder::new(reader)?;
                decoder.window_log_max(DECODER_MEMORY.trailing_zeros())?;
                Decoder::Zstd(decoder)
            }
        })
    }

    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Decoder::Gzip(decoder) => decoder.read(buf),
            Decoder::Bzip2(decoder) => decoder.read(buf),
            Decoder::Xz(decoder) => decoder.read(buf),
            Decoder::Zstd(decoder) => decoder.read(buf),
        }
    }
}

/// The compressed input: its first bytes, read to sniff the format, then the rest of the
/// reader, unless it had ended.
struct Tail<R> {
    head: io::Cursor<Vec<u8>>,
    reader: Option<R>,
}

impl<R: Read> Read for Tail<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.head.position() < self.head.get_ref().len() as u64 {
            return self.head.read(buf);
        }
        match &mut self.reader {
            Some(reader) => reader.read(buf),
            None => Ok(0),
        }
    }
}

/// An input that could not be read as far as its first bytes, and how it was compressed if
/// that was known by then.
pub(super) struct Failed {
    pub(super) error: io::Error,
    pub(super) compression: Option<Compression>,
}

impl<R: Read> Decoded<R> {
    /// Reads the first [`MBOX_HEAD_BYTES`] bytes of `reader` (fewer if it ends sooner) and,
    /// when they start with a compression's magic number, as many of the decompressed stream.
    pub(super) fn open(mut reader: R) -> Result<Self, Failed> {
        let mut head = Vec::with_capacity(MBOX_HEAD_BYTES);
        if let Err(error) = reader
            .by_ref()
            .take(MBOX_HEAD_BYTES as u64)
            .read_to_end(&mut head)
        {
            let compression = Compression::sniff(&head);
            return Err(Failed { error, compression });
        }
        // Fewer bytes than asked for: the input ended, and is not read again.
        let ended = head.len() < MBOX_HEAD_BYTES;
        let Some(compression) = Compression::sniff(&head) else {
            return Ok(Decoded {
                head: io::Cursor::new(head),
                rest: if ended {
                    Rest::Ended
                } else {
                    Rest::Plain(reader)
                },
                compression: None,
            });
        };
        let failed = |error| Failed {
            error,
            compression: Some(compression),
        };
        let tail = Tail {
            head: io::Cursor::new(head),
            reader: (!ended).then_some(reader),
        };
        let decoder = Decoder::new(compression, tail).map_err(failed)?;
        let mut decoded = Decoded {
            head: io::Cursor::new(Vec::new()),
            rest: Rest::Compressed {
                compression,
                decoder: Box::new(decoder),
                out: 0,
            },
            compression: Some(compression),
        };
        let mut head = Vec::with_capacity(MBOX_HEAD_BYTES);
        decoded
            .by_ref()
            .take(MBOX_HEAD_BYTES as u64)
            .read_to_end(&mut head)
            .map_err(failed)?;
        if head.len() < MBOX_HEAD_BYTES {
            // The decompressed stream has ended: the decoder and its buffers can go.
            decoded.rest = Rest::Ended;
        }
        decoded.head = io::Cursor::new(head);
        Ok(decoded)
    }

    /// How the input was compressed, `None` for a plain one.
    pub(super) fn compression(&self) -> Option<Compression> {
        self.compression
    }

    /// The bytes read ahead and not yet given: at the start, the first [`MBOX_HEAD_BYTES`]
    /// bytes of the (decompressed) input, or all of it when it is shorter.
    pub(super) fn head(&self) -> &[u8] {
        let position = usize::try_from(self.head.position()).unwrap_or(usize::MAX);
        self.head.get_ref().get(position..).unwrap_or_default()
    }

    /// The bytes read ahead, taken out (the reader then gives what comes after them).
    pub(super) fn take_head(&mut self) -> Vec<u8> {
        let mut head = std::mem::take(self.head.get_mut());
        let position = usize::try_from(self.head.position()).unwrap_or(usize::MAX);
        head.drain(..position.min(head.len()));
        self.head.set_position(0);
        head
    }
}

impl<R: Read> Read for Decoded<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.head.position() < self.head.get_ref().len() as u64 {
            return self.head.read(buf);
        }
        match &mut self.rest {
            Rest::Plain(reader) => reader.read(buf),
            Rest::Ended => Ok(0),
            Rest::Compressed {
                compression,
                decoder,
                out,
            } => match decoder.read(buf) {
                Ok(read) => {
                    *out += read as u64;
                    Ok(read)
                }
                Err(error) if error.kind() == io::ErrorKind::Interrupted => Err(error),
                Err(error) => Err(io::Error::new(
                    error.kind(),
                    format!(
                        "{} decompression failed after {out} decompressed bytes: {error}",
                        compression.as_str()
                    ),
                )),
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use std::io::Write as _;

    use super::*;
    use crate::mailbox::{Input, Message, Stream, open_stream};

    fn gzip(data: &[u8]) -> Vec<u8> {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), Default::default());
        encoder.write_all(data).unwrap();
        encoder.finish().unwrap()
    }

    fn one(stream: &[u8], limit: u64) -> Message {
        match open_stream("f".to_owned(), stream, limit) {
            Stream::One(message) => message,
            Stream::Mbox(_) => panic!("an mbox"),
        }
    }

    #[test]
    fn short_and_empty_streams_are_one_message_each() {
        for data in [
            &b""[..],
            b"Subject: x\n\nshort",
            &b"x".repeat(MBOX_HEAD_BYTES),
        ] {
            let message = one(&gzip(data), 1 << 20);
            assert_eq!(message.input, Input::Bytes(data.to_vec()));
            assert_eq!(message.source.compression, Some(Compression::Gzip));
            assert_eq!(message.source.length, Some(data.len() as u64));
        }
    }

    #[test]
    fn one_layer_is_undone() {
        let inner = gzip(b"Subject: x\n\n");
        let message = one(&gzip(&inner), 1 << 20);
        assert_eq!(message.input, Input::Bytes(inner));
    }

    #[test]
    fn a_broken_header_is_a_read_error_that_names_the_format() {
        let message = one(b"\x1f\x8bnot gzip at all", 1 << 20);
        let Input::Error(kind, why) = &message.input else {
            panic!("{message:?}")
        };
        assert_eq!(*kind, crate::report::ScanErrorKind::Read);
        assert!(
            why.starts_with("gzip decompression failed after 0 decompressed bytes: "),
            "{why}"
        );
        assert_eq!(message.source.compression, Some(Compression::Gzip));
        assert_eq!(message.source.format, None);
    }

    #[test]
    fn the_limit_counts_decompressed_bytes() {
        let data = b"x".repeat(5000);
        let compressed = gzip(&data);
        assert!(compressed.len() < 100);
        let message = one(&compressed, 4999);
        assert!(matches!(
            message.input,
            Input::Error(crate::report::ScanErrorKind::TooLarge, _)
        ));
        assert_eq!(message.source.length, None);
        assert_eq!(one(&compressed, 5000).input, Input::Bytes(data));
    }

    #[test]
    fn take_head_gives_what_is_left_of_it() {
        let mut decoded = Decoded::open(&b"abcdef"[..]).ok().unwrap();
        let mut first = [0; 2];
        decoded.read_exact(&mut first).unwrap();
        assert_eq!(decoded.head(), b"cdef");
        assert_eq!(decoded.take_head(), b"cdef");
        assert_eq!(decoded.head(), b"");
        let mut rest = Vec::new();
        decoded.read_to_end(&mut rest).unwrap();
        assert!(rest.is_empty());
    }
}
