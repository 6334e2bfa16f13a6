//! Reading an mbox file from a byte offset on: the messages appended since an earlier reading
//! stopped there.

use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use crate::report::non_utf8_bytes;

use super::mbox::MboxInMemory;
use super::read::{display, read_error, with_path_bytes};
use super::{Mbox, Opened};

/// The messages of the mbox file at `path` from byte `offset` (0-based) to its end, each
/// [`Source`](crate::scan::Source) with its offset in the whole file, read as [`open`](super::open)
/// reads an mbox file: the rest of the file read whole when it is no larger than `limit`
/// bytes, else streamed through [`Mbox`], with no message over `limit` bytes in memory.
///
/// `offset` must be where a message starts, on its `From ` line (the end of the file gives no
/// message): the first line there starts a message whatever it holds, as the first line of a
/// file does, so a caller that recorded where a reading stopped checks that the file still
/// holds the same bytes before it (`mimebase scan --state` does) before it reads on from
/// there. A file that cannot be opened or read gives one [`ScanErrorKind::Read`] message.
///
/// [`ScanErrorKind::Read`]: crate::scan::ScanErrorKind::Read
pub fn open_at(path: &Path, offset: u64, limit: u64) -> Opened {
    let name = display(path);
    let opened = match File::open(path).and_then(|file| Ok((file.metadata()?, file))) {
        Err(error) => Opened::One(read_error(name, &error)),
        Ok((metadata, mut file)) => match file.seek(SeekFrom::Start(offset)) {
            Err(error) => Opened::One(read_error(name, &error)),
            Ok(_) => {
                let rest = metadata.len().saturating_sub(offset);
                if metadata.is_file() && rest <= limit {
                    let mut bytes = Vec::with_capacity(usize::try_from(rest).unwrap_or(0));
                    match file.take(rest).read_to_end(&mut bytes) {
                        Err(error) => Opened::One(read_error(name, &error)),
                        Ok(_) if bytes.is_empty() => Opened::Many(Box::new(std::iter::empty())),
                        Ok(_) => Opened::Many(Box::new(MboxInMemory::at(name, bytes, offset))),
                    }
                } else {
                    let messages = Mbox::new(name, file, limit).with_offset(offset);
                    Opened::Many(Box::new(messages))
                }
            }
        },
    };
    match non_utf8_bytes(path) {
        None => opened,
        Some(bytes) => with_path_bytes(opened, bytes),
    }
}
