//! The pass over the raw bytes before lopdf reads them: it takes object streams (ISO 32000-1
//! §7.5.7) away from lopdf, and counts what bounds lopdf's work.
//!
//! lopdf parses an object stream by parsing, for every entry of its index, the object that
//! starts at the entry's offset, up to wherever that object ends, and keeps a copy per
//! entry. The index is the file's to write: thousands of entries may name the offset of one
//! large object, so that a stream of a few hundred kilobytes costs gigabytes and minutes.
//! No decompression limit stops it, because nothing is decompressed beyond the stream
//! itself. lopdf reads object streams on three paths (the load of a plain file, the load of
//! an encrypted file, and the resolution of a stream's indirect `/Length`), and the last two
//! do not look at the stream's `/Type`.
//!
//! So before lopdf sees the file, every name whose value is `ObjStm` or `First` becomes a
//! name of the same length that lopdf does not know ([`OBJSTM_MARKER`], [`FIRST_MARKER`]):
//! lopdf then leaves every object stream as a plain stream, since it finds neither the type
//! nor the `/First` entry it needs, and [`objstm`](super::objstm) expands them with bounds.
//! Names are never encrypted (ISO 32000-1 §7.6.1), and the dictionary of a stream is never
//! inside an object stream (§7.5.7), so the names of every object stream are in the raw bytes.
//!
//! The replacement keeps every offset: the marker is the name's first characters followed by
//! NUL bytes, which PDF reads as white space (§7.2.2, Table 1). The rename cannot tell a
//! name from the same bytes inside a literal string of an unencrypted file (a URI ending in
//! `/First`), so [`restore_markers`] undoes it in the strings the room reads.

use std::borrow::Cow;

/// What becomes of a name `/ObjStm`: the name `/ObjSt` and a NUL.
pub(crate) const OBJSTM_MARKER: &[u8] = b"ObjSt";

/// What becomes of a name `/First`: the name `/Firs` and a NUL.
pub(crate) const FIRST_MARKER: &[u8] = b"Firs";

/// The raw bytes as lopdf gets them, and counts taken from them.
pub(crate) struct Prepared {
    /// The file, with the names of [`OBJSTM_MARKER`] and [`FIRST_MARKER`] renamed; as long as
    /// the input.
    pub bytes: Vec<u8>,
    /// How many names were renamed: when none were, no string needs [`restore_markers`].
    pub renamed: usize,
    /// How many names `/ObjStm` the file holds: its object streams, which lopdf may still
    /// decompress (see [`stream_limit`]).
    pub object_streams: usize,
    /// How many names `/Prev` and `/XRefStm` the file holds: each may lead lopdf to one
    /// more cross-reference section, which may be a stream.
    pub sections: usize,
    /// How many `obj` keywords the file holds (not counting `endobj`): an upper bound on the
    /// indirect objects lopdf can load outside object streams, since each starts with one
    /// (ISO 32000-1 §7.3.10).
    pub objects: usize,
}

/// Whether `byte` ends a name: white space or a delimiter (ISO 32000-1 §7.2.2, Tables 1 and
/// 2), as lopdf's name parser reads them.
fn ends_name(byte: u8) -> bool {
    matches!(
        byte,
        b' ' | b'\t'
            | b'\n'
            | b'\r'
            | b'\0'
            | b'\x0C'
            | b'('
            | b')'
            | b'<'
            | b'>'
            | b'['
            | b']'
            | b'{'
            | b'}'
            | b'/'
            | b'%'
    )
}

/// The value of an ASCII hexadecimal digit.
fn hex_value(byte: u8) -> Option<u8> {
    char::from(byte)
        .to_digit(16)
        .and_then(|v| u8::try_from(v).ok())
}

/// The name whose solidus is at `slash`: its raw end (exclusive) and its value with `#xx`
/// escapes decoded (ISO 32000-1 §7.3.5). The value is cut off past 8 bytes, which is all
/// the comparison needs. A `#` not followed by two hexadecimal digits ends the name, as
/// lopdf reads it.
fn name_at(bytes: &[u8], slash: usize) -> (usize, Vec<u8>) {
    let mut value = Vec::new();
    let mut at = slash + 1;
    while let Some(&byte) = bytes.get(at) {
        if ends_name(byte) {
            break;
        }
        if byte == b'#' {
            let high = bytes.get(at + 1).copied().and_then(hex_value);
            let low = bytes.get(at + 2).copied().and_then(hex_value);
            match (high, low) {
                (Some(high), Some(low)) => {
                    if value.len() <= 8 {
                        value.push(high << 4 | low);
                    }
                    at += 3;
                }
                _ => break,
            }
        } else {
            if value.len() <= 8 {
                value.push(byte);
            }
            at += 1;
        }
    }
    (at, value)
}

/// Counts `keyword` in `bytes`, leaving out the occurrences right after `end` (so that
/// `stream` does not count `endstream`).
fn count_keyword(bytes: &[u8], keyword: &[u8]) -> usize {
    memchr::memmem::find_iter(bytes, keyword)
        .filter(|&at| at < 3 || bytes.get(at - 3..at).is_none_or(|before| before != b"end"))
        .count()
}

/// Renames the names `/ObjStm` and `/First` of `input` (see the [module docs](self)) and
/// counts its streams and objects.
pub(crate) fn prepare(input: &[u8]) -> Prepared {
    let mut bytes = input.to_vec();
    let mut renamed = 0usize;
    let mut object_streams = 0usize;
    let mut sections = 0usize;
    for slash in memchr::memchr_iter(b'/', input) {
        let (end, value) = name_at(input, slash);
        let marker = match value.as_slice() {
            b"ObjStm" => {
                object_streams += 1;
                OBJSTM_MARKER
            }
            b"First" => FIRST_MARKER,
            b"Prev" | b"XRefStm" => {
                sections += 1;
                continue;
            }
            _ => continue,
        };
        let Some(raw) = bytes.get_mut(slash + 1..end) else {
            continue;
        };
        // The raw name is at least as long as its value, which is longer than the marker.
        for (index, byte) in raw.iter_mut().enumerate() {
            *byte = marker.get(index).copied().unwrap_or(b'\0');
        }
        renamed += 1;
    }
    Prepared {
        object_streams,
        sections,
        objects: count_keyword(input, b"obj"),
        bytes,
        renamed,
    }
}

/// How many cross-reference streams lopdf may try beyond those the file names: the
/// candidates it decodes when it rebuilds the table (`MAX_TRAILER_CANDIDATES`).
const REBUILD_CANDIDATES: usize = 16;

/// The bound on each stream lopdf decompresses while it loads the prepared file, so that
/// one load stays within `max_decompressed_bytes` for a file whose object streams say so.
///
/// After [`prepare`], lopdf decompresses while loading only cross-reference streams (the
/// one `startxref` names, one per `/Prev` and `/XRefStm`, each possibly twice when it
/// corrects an offset, and up to [`REBUILD_CANDIDATES`] when it rebuilds the table) and the
/// streams the cross-reference table names as object streams: each once when the file is
/// encrypted, and once more when a stream's indirect `/Length` lies in one. lopdf reads those
/// whatever their `/Type`, so a file can name streams that do not say they are object
/// streams; each then costs up to this bound, which only a total budget inside lopdf could
/// close.
pub(crate) fn stream_limit(prepared: &Prepared, max_decompressed_bytes: usize) -> usize {
    let decodes = 2usize
        .saturating_mul(prepared.sections.saturating_add(1))
        .saturating_add(REBUILD_CANDIDATES)
        .saturating_add(prepared.object_streams.saturating_mul(2));
    (max_decompressed_bytes / decodes).max(1)
}

/// `bytes` of a string lopdf read from the raw file, with the renames of [`prepare`] undone:
/// `/ObjSt` + NUL is `/ObjStm` again, `/Firs` + NUL is `/First`. A name written with `#`
/// escapes inside a literal string (`/F#69rst`) is not restored; nor is a NUL that a string
/// really held after `/Firs`, which the restoration takes for a renamed `t`.
pub(crate) fn restore_markers(bytes: &[u8]) -> Cow<'_, [u8]> {
    const PAIRS: [(&[u8], &[u8]); 2] = [(b"/ObjSt\0", b"/ObjStm"), (b"/Firs\0", b"/First")];
    if !PAIRS
        .iter()
        .any(|(renamed, _)| memchr::memmem::find(bytes, renamed).is_some())
    {
        return Cow::Borrowed(bytes);
    }
    let mut out = bytes.to_vec();
    for (renamed, original) in PAIRS {
        let positions: Vec<usize> = memchr::memmem::find_iter(&out, renamed).collect();
        for at in positions {
            if let Some(slot) = out.get_mut(at..at + original.len()) {
                slot.copy_from_slice(original);
            }
        }
    }
    Cow::Owned(out)
}
