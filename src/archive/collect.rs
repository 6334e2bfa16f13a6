//! What both ways of walking an archive share: the limits and what is left of them, the
//! passwords and which one opened the archive, the bounded read of one member, and the members
//! and problems found.

use std::io::{self, Read};
use std::panic::{AssertUnwindSafe, catch_unwind};

use zip::result::ZipError;

use super::{Limits, Member, Opened, Problem, ProblemKind, Reading};

/// After this many encrypted members in a row that no password opened, while none opened
/// any, the rest are not tried: each try of an AES password costs a key derivation.
const MAX_CLOSED_IN_A_ROW: usize = 4;

/// A password to try on an encrypted member.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Key {
    /// The empty password.
    Empty,
    /// The caller's password at this index.
    Index(usize),
}

/// What one try to read a member gave.
#[derive(Debug)]
pub(super) enum Attempt {
    /// The member was opened and read: its bytes, or why reading stopped.
    Read(Bounded),
    /// The password did not pass the cipher's check.
    WrongPassword,
    /// The member could not be opened: the `zip` crate's reason.
    Failed(ZipError),
    /// The `zip` crate panicked.
    Panicked,
}

/// A member's bytes read through a bound.
#[derive(Debug)]
pub(super) struct Bounded {
    /// The bytes decompressed (all of them, or those before the error; none past the bound).
    pub bytes: Vec<u8>,
    /// How many bytes were decompressed, those dropped past the bound included.
    pub read: usize,
    /// How the read ended.
    pub end: End,
}

/// How a bounded read ended.
#[derive(Debug)]
pub(super) enum End {
    /// At the member's end, its checksum and authentication code verified.
    Complete,
    /// Past the bound: the member is larger.
    TooLarge,
    /// At an error: a checksum or authentication code that does not match, corrupt
    /// compressed data, a member larger than it declared, the end of the bytes.
    Failed(io::Error),
}

/// Reads `reader` to its end, or to `limit` bytes and then one more, whichever comes first:
/// the one byte more tells a member of exactly `limit` bytes from a larger one without
/// trusting any declared size. `declared` (the size the archive gives the member) only sizes
/// the first buffer, at most `limit`; past it the buffer grows by doubling, never beyond
/// `limit`, and the byte past the limit is read into a byte of its own. So a member's bytes
/// take one buffer of at most `limit` bytes whatever it claims, rather than the series of
/// doublings a growing `Vec` leaves behind (up to twice the limit, and the freed ones, which an
/// allocator may keep).
pub(super) fn read_bounded(mut reader: impl Read, declared: u64, limit: usize) -> Bounded {
    /// What one read asks for.
    const CHUNK: usize = 64 << 10;
    let first = usize::try_from(declared).unwrap_or(usize::MAX).min(limit);
    let mut bytes: Vec<u8> = Vec::with_capacity(first);
    let mut chunk = vec![0u8; CHUNK];
    let end = loop {
        let room = limit.saturating_sub(bytes.len()).clamp(1, CHUNK);
        let Some(buffer) = chunk.get_mut(..room) else {
            break End::Complete;
        };
        match reader.read(buffer) {
            Ok(0) => break End::Complete,
            Ok(n) if bytes.len() + n > limit => {
                let read = bytes.len() + n;
                return Bounded {
                    bytes: Vec::new(),
                    read,
                    end: End::TooLarge,
                };
            }
            Ok(n) => {
                if bytes.capacity() < bytes.len() + n {
                    let wanted = (bytes.capacity() * 2).max(bytes.len() + n).min(limit);
                    bytes.reserve_exact(wanted - bytes.len());
                }
                bytes.extend_from_slice(buffer.get(..n).unwrap_or_default());
            }
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => break End::Failed(error),
        }
    };
    let read = bytes.len();
    Bounded { bytes, read, end }
}

/// Runs `attempt`, turning a panic into [`Attempt::Panicked`]. The state `attempt` borrows
/// (an archive's reader) is not trusted after a panic: every later read seeks anew.
pub(super) fn guarded(attempt: impl FnOnce() -> Attempt) -> Attempt {
    catch_unwind(AssertUnwindSafe(attempt)).unwrap_or(Attempt::Panicked)
}

/// The state of one reading of an archive.
#[derive(Debug)]
pub(super) struct Collector<'p> {
    /// The caller's passwords.
    passwords: &'p [String],
    /// The limits.
    limits: Limits,
    /// The password that opened an encrypted member, if one did.
    opened: Option<Key>,
    /// True once an encrypted member was met.
    has_encrypted: bool,
    /// Encrypted members in a row that no password opened, while none opened any.
    closed_in_a_row: usize,
    /// How many bytes may still be decompressed.
    budget: usize,
    /// How many members were taken.
    taken: usize,
    /// True once a limit stopped the reading.
    stopped: bool,
    /// The members read.
    members: Vec<Member>,
    /// The problems met.
    problems: Vec<Problem>,
}

impl<'p> Collector<'p> {
    /// A reading with `passwords` within `limits`.
    pub(super) fn new(passwords: &'p [String], limits: &Limits) -> Self {
        Collector {
            passwords,
            limits: *limits,
            opened: None,
            has_encrypted: false,
            closed_in_a_row: 0,
            budget: limits.max_total_bytes,
            taken: 0,
            stopped: false,
            members: Vec::new(),
            problems: Vec::new(),
        }
    }

    /// Records a problem.
    pub(super) fn problem(&mut self, problem: Problem) {
        self.problems.push(problem);
    }

    /// True once a limit stopped the reading: no more members are to be read.
    pub(super) fn is_stopped(&self) -> bool {
        self.stopped
    }

    /// Reads the member `name` with `attempt`, which opens it with a password (`None` for an
    /// unencrypted member) and reads it through [`read_bounded`] at the bound it is given.
    /// The member, or a problem, is recorded; past the member or byte limits, reading stops.
    pub(super) fn take(
        &mut self,
        name: &str,
        is_encrypted: bool,
        attempt: &mut dyn FnMut(Option<&[u8]>, usize) -> Attempt,
    ) {
        if self.stopped {
            return;
        }
        if self.taken >= self.limits.max_members {
            self.stop(format!(
                "more than {} members: the rest are not read",
                self.limits.max_members
            ));
            return;
        }
        self.taken += 1;
        if is_encrypted {
            self.has_encrypted = true;
            self.take_encrypted(name, attempt);
        } else {
            let limit = self.bound();
            let outcome = attempt(None, limit);
            self.keep(name, outcome);
        }
    }

    /// The most bytes the next try may decompress.
    fn bound(&self) -> usize {
        self.limits.max_member_bytes.min(self.budget)
    }

    /// Stops the reading with a [`ProblemKind::Limit`] problem about the archive.
    fn stop(&mut self, message: String) {
        self.stopped = true;
        self.problems
            .push(Problem::new(ProblemKind::Limit, None, message));
    }

    /// Charges `bytes` decompressed bytes to the budget.
    fn charge(&mut self, bytes: usize) {
        self.budget = self.budget.saturating_sub(bytes);
    }

    /// Records what reading an unencrypted member (or an encrypted one with its password)
    /// gave.
    fn keep(&mut self, name: &str, outcome: Attempt) {
        match outcome {
            Attempt::Read(bounded) => {
                self.charge(bounded.read);
                match bounded.end {
                    End::Complete => self.members.push(Member {
                        name: name.to_owned(),
                        bytes: bounded.bytes,
                    }),
                    End::TooLarge => self.too_large(name),
                    End::Failed(error) => self.problems.push(Problem::new(
                        ProblemKind::Broken,
                        Some(name),
                        format!("member data cannot be read: {error}"),
                    )),
                }
            }
            Attempt::WrongPassword => self.problems.push(Problem::new(
                ProblemKind::Encrypted,
                Some(name),
                "no password opens the member",
            )),
            Attempt::Failed(error) => self.problems.push(Problem::new(
                ProblemKind::Broken,
                Some(name),
                format!("member cannot be opened: {error}"),
            )),
            Attempt::Panicked => self.problems.push(Problem::new(
                ProblemKind::Broken,
                Some(name),
                "member cannot be read: the zip reader panicked",
            )),
        }
    }

    /// Records a member past a limit: its own, or the total, which stops the reading.
    fn too_large(&mut self, name: &str) {
        if self.budget == 0 {
            self.problems.push(Problem::new(
                ProblemKind::Limit,
                Some(name),
                "member not read: the total size limit is reached",
            ));
            self.stop(format!(
                "more than {} bytes decompressed: the rest is not read",
                self.limits.max_total_bytes
            ));
        } else {
            self.problems.push(Problem::new(
                ProblemKind::Limit,
                Some(name),
                format!(
                    "member larger than {} bytes: not read",
                    self.limits.max_member_bytes
                ),
            ));
        }
    }

    /// The passwords to try, in order: the one that opened an earlier member, then the empty
    /// one, then the caller's.
    fn candidates(&self) -> Vec<Key> {
        let all = std::iter::once(Key::Empty).chain((0..self.passwords.len()).map(Key::Index));
        self.opened
            .into_iter()
            .chain(all.filter(|key| Some(*key) != self.opened))
            .collect()
    }

    /// The bytes of the password `key`.
    fn password(&self, key: Key) -> &'p [u8] {
        match key {
            Key::Empty => b"",
            Key::Index(index) => self
                .passwords
                .get(index)
                .map_or(&b""[..], |password| password.as_bytes()),
        }
    }

    /// Reads an encrypted member, trying each candidate password until one opens it and its
    /// data verifies.
    fn take_encrypted(
        &mut self,
        name: &str,
        attempt: &mut dyn FnMut(Option<&[u8]>, usize) -> Attempt,
    ) {
        if self.opened.is_none() && self.closed_in_a_row >= MAX_CLOSED_IN_A_ROW {
            self.problems.push(Problem::new(
                ProblemKind::Encrypted,
                Some(name),
                "member not tried: no password opened the members before it",
            ));
            return;
        }
        // Set when a password passed the cipher's check but the data it decrypted did not
        // verify: then no password opens the member, but not for want of trying.
        let mut unverified: Option<io::Error> = None;
        for key in self.candidates() {
            if self.budget == 0 {
                self.stop(format!(
                    "more than {} bytes decompressed: the rest is not read",
                    self.limits.max_total_bytes
                ));
                return;
            }
            let limit = self.bound();
            match attempt(Some(self.password(key)), limit) {
                Attempt::WrongPassword => {}
                Attempt::Read(Bounded {
                    read,
                    end: End::Failed(error),
                    ..
                }) => {
                    // A wrong password that passed ZipCrypto's one-byte check decrypts to
                    // garbage, which fails the CRC-32 or the decompression: try the next.
                    self.charge(read);
                    unverified = Some(error);
                }
                Attempt::Read(bounded) => {
                    self.opened.get_or_insert(key);
                    self.closed_in_a_row = 0;
                    self.keep(name, Attempt::Read(bounded));
                    return;
                }
                other @ (Attempt::Failed(_) | Attempt::Panicked) => {
                    // Not a matter of password: the member cannot be opened at all.
                    self.keep(name, other);
                    return;
                }
            }
        }
        if self.opened.is_none() {
            self.closed_in_a_row += 1;
        }
        match unverified {
            Some(error) => self.problems.push(Problem::new(
                ProblemKind::Encrypted,
                Some(name),
                format!(
                    "no password opens the member (one passed the password check, but the \
                     data it decrypted did not verify: {error})"
                ),
            )),
            None => self.keep(name, Attempt::WrongPassword),
        }
    }

    /// The reading's result.
    pub(super) fn finish(self) -> Reading {
        let opened = match (self.opened, self.has_encrypted) {
            (Some(Key::Empty), _) => Opened::EmptyPassword,
            (Some(Key::Index(index)), _) => Opened::Password(index),
            (None, true) => Opened::Closed,
            (None, false) => Opened::NotEncrypted,
        };
        Reading {
            opened,
            members: self.members,
            problems: self.problems,
        }
    }
}
