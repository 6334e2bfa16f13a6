//! Reading an archive whose central directory is lost by walking its local file headers
//! (APPNOTE.TXT §4.3.7) from the start, as a streaming unzip does.

use std::io::Cursor;

use zip::ZipReadOptions;
use zip::read::read_zipfile_from_stream_with_options;
use zip::result::ZipError;

use super::collect::{Attempt, Collector, guarded, read_bounded};
use super::{Problem, ProblemKind, names};

/// What a local header says of its member.
enum Header {
    /// A member: its decoded name (`None` for a directory) and whether it is encrypted.
    Member(Option<String>, bool),
    /// The central directory, or the end of central directory record: no member follows.
    End,
}

/// Reads the members that `wanted` accepts into `collector`, from the local header at the
/// cursor's position to the first one that cannot be read.
pub(super) fn read(
    mut cursor: Cursor<&[u8]>,
    collector: &mut Collector<'_>,
    wanted: &mut dyn FnMut(&str) -> bool,
) {
    while !collector.is_stopped() {
        let start = cursor.position();
        let header = match header(&mut cursor) {
            Ok(Header::End) => break,
            Ok(header) => header,
            Err(reason) => {
                // The end of the bytes after the last member is where a truncated archive
                // ends: no problem beyond the missing directory.
                if start < u64::try_from(cursor.get_ref().len()).unwrap_or(u64::MAX) {
                    collector.problem(Problem::new(
                        ProblemKind::Broken,
                        None,
                        format!("local header at byte {start} cannot be read: {reason}"),
                    ));
                }
                break;
            }
        };
        let next = cursor.position();
        if next <= start {
            break;
        }
        if let Header::Member(Some(name), is_encrypted) = header
            && wanted(&name)
        {
            collector.take(&name, is_encrypted, &mut |password, limit| {
                cursor.set_position(start);
                guarded(|| open_and_read(&mut cursor, password, limit))
            });
        }
        cursor.set_position(next);
    }
}

/// Reads the local header at the cursor and moves past its member's data, neither decrypting
/// nor decompressing it.
fn header(cursor: &mut Cursor<&[u8]>) -> Result<Header, String> {
    let attempt = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let options = ZipReadOptions::new().ignore_encryption_flag(true);
        match read_zipfile_from_stream_with_options(cursor, options) {
            // Dropping the file moves the cursor past its data, read raw.
            Ok(Some(file)) => Ok(Header::Member(
                (!file.is_dir()).then(|| names::decode(file.name_raw(), file.flags().as_u16())),
                file.encrypted(),
            )),
            Ok(None) => Ok(Header::End),
            Err(error) => Err(error.to_string()),
        }
    }));
    attempt.unwrap_or_else(|_| Err("the zip reader panicked".to_owned()))
}

/// Opens the member whose local header is at the cursor with `password` (`None` when it is
/// not encrypted) and reads at most `limit` bytes of it (one more to tell a larger member).
fn open_and_read(cursor: &mut Cursor<&[u8]>, password: Option<&[u8]>, limit: usize) -> Attempt {
    let options = ZipReadOptions::new().password(password);
    match read_zipfile_from_stream_with_options(cursor, options) {
        Ok(Some(file)) => {
            let declared = file.size();
            Attempt::Read(read_bounded(file, declared, limit))
        }
        Ok(None) => Attempt::Failed(ZipError::FileNotFound),
        Err(ZipError::InvalidPassword) => Attempt::WrongPassword,
        Err(error) => Attempt::Failed(error),
    }
}
