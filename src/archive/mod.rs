//! The archive room: the members of a ZIP file (PKWARE's APPNOTE.TXT, version 6.3.10), their
//! names and bytes, read within limits, with the passwords the caller knows for encrypted
//! ones. It knows nothing about mail: its callers hand it the bytes of an attachment, or of an
//! office document (which is a ZIP package), and decide what to do with the members, nested
//! archives included.
//!
//! # What is read
//!
//! The central directory (APPNOTE.TXT §4.3.12, found through the end of central directory
//! record, §4.3.16, and its ZIP64 forms, §4.3.14–15) lists the members, as every unzip tool
//! and mail client reads it; the `zip` crate parses it and decompresses each member (stored,
//! deflate, deflate64, bzip2: §4.4.5 methods 0, 8, 9, 12). Directories (names ending `/`) are
//! skipped. A member in another method (LZMA, zstd, PPMd, XZ, the legacy ones) is a
//! [`ProblemKind::Broken`] problem and the others are read.
//!
//! When no central directory can be read (a truncated download, a mangled attachment), the
//! local file headers (§4.3.7) are walked from the start of the file instead, as a streaming
//! unzip does: every member up to the first one that cannot be read (a damaged header, a
//! member whose sizes follow its data in a data descriptor, §4.3.9, since without the central
//! directory its end cannot be found, or the end of the bytes) is returned, and a
//! [`ProblemKind::Broken`] problem says the directory was missing. Members that only the local
//! headers name, in an archive whose central directory is read, are not looked for.
//!
//! Names are decoded as APPNOTE.TXT says: UTF-8 when the language encoding flag is set, code
//! page 437 otherwise ([`Member::name`]). Of the members with the same stored name, the
//! `zip` crate keeps the last entry (in the place of the first), and a
//! [`ProblemKind::Broken`] problem says so: readers disagree on which one they show.
//!
//! # Limits
//!
//! Nothing a ZIP file declares is trusted: a member's bytes are decompressed through
//! [`Read::take`](std::io::Read::take) at one byte past what may still be read, so a
//! deflate bomb that declares a small size stops as soon as it passes its limit, having cost
//! no more than [`Limits::max_member_bytes`]. [`Limits::max_total_bytes`] bounds every byte
//! decompressed, those of members dropped for a limit and those of tries with a wrong password
//! included, so that an archive of many bombs costs no more than one. A member past a limit is
//! dropped with a [`ProblemKind::Limit`] problem and the next is read; past
//! [`Limits::max_members`] or the total, reading stops.
//!
//! One level is read: a member that is itself an archive (a nested ZIP, 42.zip's layers, a
//! ZIP quine that holds itself) is returned as bytes, and its caller decides whether and how
//! deep to read on, each level within its own limits.
//!
//! # Encryption
//!
//! A member may be encrypted with the traditional PKWARE cipher ("ZipCrypto", §6.1) or with
//! WinZip's AES (AE-1 and AE-2, in the 0x9901 extra field). An encrypted member is tried with
//! the empty password, then with each of the caller's passwords in order (the password that
//! opened an earlier member goes first); [`Reading::opened`] says which one opened the
//! archive. A password is taken only once the member's data verifies:
//!
//! - ZipCrypto checks a password against one byte of its 12-byte encryption header (§6.1.6),
//!   so one wrong password in 256 passes. Such a member is then read to its end, where the
//!   `zip` crate compares the CRC-32 of the decrypted, decompressed bytes with the one stored
//!   (§4.4.7); a wrong password gives garbage that fails that check (or the decompression),
//!   and the next password is tried.
//! - AES checks a password against a 2-byte verifier derived with the key; the data is then
//!   authenticated by its HMAC-SHA1 code at its end (and by its CRC-32 for AE-1).
//!
//! A member past its size limit is not read to its end, so a password that passed the check
//! is taken unverified for it. When no password opens a member, it is a
//! [`ProblemKind::Encrypted`] problem; once a few encrypted members in a row open with none,
//! the rest are not tried (each AES try costs a key derivation, and an archive whose first
//! members no password opens is in practice locked with one the caller does not have).
//!
//! # Panics
//!
//! Every call into the `zip` crate runs inside [`std::panic::catch_unwind`]: the crate is
//! careful, but it holds `debug_assert!`s and arithmetic on values from the file, and a panic
//! on hostile bytes must become a [`ProblemKind::Broken`] problem, not the end of the caller.
//! (With `panic = "abort"` nothing can be caught; the tests run the room over mutated
//! archives to keep that path cold.)
//!
//! # Why the `zip` crate
//!
//! It is the maintained ZIP reader for Rust: it parses ZIP64 and the Info-ZIP Unicode Path
//! field (§4.6.9), checks CRC-32s, decrypts both ciphers, and hands each member over as a
//! [`Read`](std::io::Read), which is what bounding a decompression needs; its central
//! directory parser refuses to allocate for more entries than the directory can hold. The
//! features used are pure Rust (flate2 on miniz_oxide, deflate64, bzip2 on libbz2-rs-sys,
//! RustCrypto's AES, HMAC and PBKDF2).

mod central;
mod collect;
mod names;
mod stream;
#[cfg(test)]
mod tests;

use std::io::Cursor;

use collect::Collector;

/// How much of an archive is read.
///
/// ### Default
///
/// 10,000 members, 16 MiB per member, 64 MiB in all.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Limits {
    /// How many members (directories and members the caller does not want excluded) are
    /// read; past it, reading stops.
    pub max_members: usize,
    /// How many bytes one member may decompress to; a larger one is dropped.
    pub max_member_bytes: usize,
    /// How many bytes may be decompressed in all, for members kept or dropped and for tries
    /// with a wrong password; past it, reading stops.
    pub max_total_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_members: 10_000,
            max_member_bytes: 16 << 20,
            max_total_bytes: 64 << 20,
        }
    }
}

/// Which password opened an archive's encrypted members.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Opened {
    /// No member that was read is encrypted.
    NotEncrypted,
    /// The empty password opened them (some tools encrypt with it).
    EmptyPassword,
    /// The caller's password at this index (0-based) opened them.
    Password(usize),
    /// Encrypted members were found and no password opened any of them.
    Closed,
}

/// What kind of trouble a [`Problem`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ProblemKind {
    /// The bytes are not a well-formed archive (or document) there: a damaged directory or
    /// header, a checksum that does not match, an unsupported compression method.
    Broken,
    /// A limit was reached: the member (or the rest of the archive) was not read.
    Limit,
    /// An encrypted member that no password opened.
    Encrypted,
}

/// Something that kept part of an archive from being read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub(crate) struct Problem {
    /// What kind of trouble.
    pub kind: ProblemKind,
    /// The member it concerns, by its decoded name; `None` for the archive as a whole.
    pub member: Option<String>,
    /// What happened, lowercase, without a trailing period; where the `zip` crate gave a
    /// reason, it follows a colon as the crate wrote it.
    pub message: String,
}

impl Problem {
    /// A problem of `kind` about `member` (or the whole archive).
    pub(crate) fn new(kind: ProblemKind, member: Option<&str>, message: impl Into<String>) -> Self {
        Problem {
            kind,
            member: member.map(str::to_owned),
            message: message.into(),
        }
    }
}

/// A member of an archive that was read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Member {
    /// Its name as stored (a path with `/` separators, never sanitized: it may be absolute or
    /// hold `..`), decoded as UTF-8 when the language encoding flag is set, as code page 437
    /// otherwise (APPNOTE.TXT §4.4.4 bit 11, Appendix D).
    pub name: String,
    /// Its bytes, decrypted and decompressed, CRC-32 checked.
    pub bytes: Vec<u8>,
}

/// What [`read`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Reading {
    /// Which password opened the encrypted members.
    pub opened: Opened,
    /// The members read, in central directory order (in local header order when the file
    /// was walked without its directory).
    pub members: Vec<Member>,
    /// What could not be read, in the order it was met.
    pub problems: Vec<Problem>,
}

/// True when `bytes` start as a ZIP file does: a local file header's signature
/// `PK\x03\x04` (APPNOTE.TXT §4.3.7), or, for an archive with no member, the end of central
/// directory signature `PK\x05\x06` (§4.3.16). Archives behind a prefix (self-extracting
/// programs) are not recognized: a mail reader's unzip does not open them either.
pub(crate) fn is_zip(bytes: &[u8]) -> bool {
    bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06")
}

/// Reads every member of the archive `bytes`, trying `passwords` (the caller bounds the list)
/// on encrypted ones, within `limits`. Total: malformed input gives problems, never a panic.
pub(crate) fn read(bytes: &[u8], passwords: &[String], limits: &Limits) -> Reading {
    read_with(bytes, passwords, limits, &mut |_| true)
}

/// Reads the members of the archive `bytes` whose decoded names `wanted` accepts, as [`read`]
/// does. `wanted` is called once with the name of each member that is not a directory, in
/// order, before it is decompressed; the members it refuses cost nothing and count toward no
/// limit.
pub(crate) fn read_with(
    bytes: &[u8],
    passwords: &[String],
    limits: &Limits,
    wanted: &mut dyn FnMut(&str) -> bool,
) -> Reading {
    let mut collector = Collector::new(passwords, limits);
    if let Err(problem) = central::read(bytes, &mut collector, wanted) {
        collector.problem(problem);
        stream::read(Cursor::new(bytes), &mut collector, wanted);
    }
    collector.finish()
}

/// Reads the one member of the archive `bytes` whose decoded name is `name` (the first, if
/// several have it), unencrypted or opened by the empty password, within `limits`.
///
/// # Errors
///
/// The first [`Problem`] met: a broken archive, no member of that name
/// ([`ProblemKind::Broken`]), a member past the limits, an encrypted one.
#[cfg(test)]
pub(crate) fn read_member(bytes: &[u8], name: &str, limits: &Limits) -> Result<Vec<u8>, Problem> {
    let mut found = false;
    let mut reading = read_with(bytes, &[], limits, &mut |candidate| {
        let is_it = !found && candidate == name;
        found |= is_it;
        is_it
    });
    match reading.members.pop() {
        Some(member) => Ok(member.bytes),
        None => Err(reading.problems.into_iter().next().unwrap_or_else(|| {
            Problem::new(ProblemKind::Broken, Some(name), "no member of that name")
        })),
    }
}
