//! `mimebase scan --state FILE`: what earlier runs read, so that a run emits only what is new.
//!
//! # What is recorded
//!
//! For each file read, keyed by its path as the walk found it (a root as given, joined with
//! the names below it): its identity, the device, inode, size in bytes and modification time
//! of `stat(2)`, taken before it was opened. For an mbox file also the length read, the end
//! of the last message whose record was written (0-based, exclusive), and a check of the
//! bytes before it: a SipHash-2-4 (128 bits) of the first [`WINDOW`] bytes of the file and
//! one of the [`WINDOW`] bytes that end at the length read (fewer when the length read is
//! shorter). For a Maildir message, its unique name (the file name up to the `:` of its
//! flags) under its Maildir (the directory of its `cur/` and `new/`), so that a message moved
//! from `new/` to `cur/` or renamed when its flags change is the same message.
//!
//! # What the next run reads
//!
//! - A Maildir message whose unique name is recorded: nothing (a Maildir message's content
//!   does not change; its name does).
//! - A file whose identity is unchanged: nothing, and it is not opened; an mbox file only
//!   when it was read to its end (at most its final empty line left), else it is read on
//!   from the length read (an interrupted run).
//! - A file that is not an mbox file and changed: all of it again (a new version).
//! - An mbox file that changed: its check is made again on the file as it is. When the file
//!   is at least as long as the length read, both hashes match, and what follows the length
//!   read (after one empty line, the separator) is the start of a message or nothing, the
//!   messages after the length read are read, their offsets those in the whole file.
//!   Otherwise the file was rewritten or truncated before its old length: a line on standard
//!   error says it changed, and it is read whole (every message emitted again).
//! - Any other file: all of it.
//!
//! The check reads two windows, not the file: an incremental run costs the new bytes, not
//! the archive. Mail delivery appends to an mbox; a mail client that deletes or edits a
//! message rewrites the file from that message on, which moves every byte after it, so the
//! window before the old length (and the start of the next message there) no longer match,
//! and a file replaced by another mbox differs in its first bytes. What it cannot see is an
//! edit in the middle of the file that keeps every later byte in place (a status flag
//! rewritten in place, same length): that message is not emitted again. Hashing the whole
//! length read would see it, at the price of reading every mbox whole on every run.
//!
//! # When it is written
//!
//! The state file is replaced atomically (a temporary file in its directory, synced, then
//! renamed over it) right after the output is flushed, so that it describes exactly the
//! records written: at the end of the run, every [`CHECKPOINT`] or longer during it, and
//! when a SIGINT or SIGTERM stops it. Inputs the run did not reach keep their entries until
//! a run completes; a completed run drops those of files no longer found.

use std::collections::{HashMap, HashSet};
use std::ffi::{OsStr, OsString};
use std::fs::{self, File};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mimebase::mailbox::{MBOX_HEAD_BYTES, is_mbox};
use mimebase::scan::{Compression, Format, Source};
use serde::{Deserialize, Serialize};
use siphasher::sip128::SipHasher;

/// The version written in the state file; a file of another version is refused.
const VERSION: u32 = 1;

/// How many bytes each hash of an mbox file's check covers: at the start of the file, and
/// before the length read.
pub(crate) const WINDOW: u64 = 4096;

/// The least time between two saves of the state during a run; a save that took long makes
/// the next wait ten times as long, so that saving a large state does not slow the run much.
pub(crate) const CHECKPOINT: Duration = Duration::from_secs(5);

/// What earlier runs read, and what this run has read so far.
pub(crate) struct State {
    /// The state file.
    file: PathBuf,
    /// As the state file held it when the run began.
    old: Tables,
    /// What this run found read: entries carried over from `old` for inputs passed over, and
    /// those of the records written.
    new: Tables,
    /// Inputs given to the engine, until their records are written: their identity, and for
    /// an mbox file read on, where from.
    planned: HashMap<PathBuf, Planned>,
    /// Maildir messages given to the engine, until their record is written.
    maildir_planned: HashSet<(PathBuf, OsString)>,
    /// Lines for standard error, said by the scan between two records.
    pub(crate) notices: Vec<String>,
    /// When the state was last saved, and how long that took.
    saved: (Instant, Duration),
    /// The state file's name and its directory, made absolute: the walk passes over the
    /// state file itself, should it be under a path scanned.
    own: Option<(OsString, PathBuf)>,
}

#[derive(Default)]
struct Tables {
    files: HashMap<PathBuf, Entry>,
    /// Maildir → unique names.
    maildirs: HashMap<PathBuf, HashSet<OsString>>,
}

/// A file's entry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Entry {
    #[serde(flatten)]
    identity: Identity,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    mbox: Option<MboxRead>,
}

/// What `stat(2)` says of a file: when all of it is unchanged, so is the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
struct Identity {
    dev: u64,
    ino: u64,
    /// Bytes.
    size: u64,
    /// Seconds since the Unix epoch, and nanoseconds.
    mtime: i64,
    mtime_nsec: i64,
}

/// How far an mbox file was read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct MboxRead {
    /// The end of the last message whose record was written, in bytes from the file's start.
    read: u64,
    /// Of the file as it was read; `None` until the state is saved (and when it could not be
    /// made: then the next run reads the file whole).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    check: Option<Check>,
}

/// The hashes of an mbox file's check (see the [module docs](self)), in hexadecimal.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
struct Check {
    /// The first `min(WINDOW, read)` bytes.
    head: String,
    /// The `min(WINDOW, read)` bytes that end at `read`.
    before: String,
}

/// An input given to the engine.
#[derive(Debug, Clone, Copy)]
struct Planned {
    identity: Identity,
    /// An mbox file read from this offset on.
    from: Option<u64>,
}

/// The state file's contents.
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Saved {
    version: u32,
    files: Vec<SavedFile>,
    maildirs: Vec<SavedMaildir>,
}

#[derive(Serialize, Deserialize)]
struct SavedFile {
    path: Name,
    #[serde(flatten)]
    entry: Entry,
}

#[derive(Serialize, Deserialize)]
struct SavedMaildir {
    path: Name,
    messages: Vec<Name>,
}

/// A path or file name: a JSON string when it is UTF-8, else an array of its bytes.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum Name {
    Text(String),
    Bytes(Vec<u8>),
}

impl Name {
    fn of(name: &OsStr) -> Name {
        match name.to_str() {
            Some(text) => Name::Text(text.to_owned()),
            None => Name::Bytes(name.as_encoded_bytes().to_vec()),
        }
    }

    fn into_os_string(self) -> OsString {
        match self {
            Name::Text(text) => OsString::from(text),
            Name::Bytes(bytes) => os_string(bytes),
        }
    }
}

#[cfg(unix)]
fn os_string(bytes: Vec<u8>) -> OsString {
    use std::os::unix::ffi::OsStringExt;
    OsString::from_vec(bytes)
}

#[cfg(not(unix))]
fn os_string(bytes: Vec<u8>) -> OsString {
    OsString::from(String::from_utf8_lossy(&bytes).into_owned())
}

impl State {
    /// The state of `file`; empty when it does not exist (a first run).
    ///
    /// # Errors
    ///
    /// A sentence naming the file, when it cannot be read or is not a state file of this
    /// version.
    pub(crate) fn load(file: &Path) -> Result<State, String> {
        let name = super::output::escape(&file.to_string_lossy()).into_owned();
        let old = match fs::read(file) {
            Err(error) if error.kind() == io::ErrorKind::NotFound => Tables::default(),
            Err(error) => return Err(format!("{name}: {error}")),
            Ok(bytes) => {
                let saved: Saved = serde_json::from_slice(&bytes).map_err(|error| {
                    format!(
                        "{name}: not a state file of `mimebase scan` ({error}); remove it to \
                         scan everything again"
                    )
                })?;
                if saved.version != VERSION {
                    return Err(format!(
                        "{name}: a state file of version {}, this mimebase reads version \
                         {VERSION}; remove it to scan everything again",
                        saved.version
                    ));
                }
                Tables::from(saved)
            }
        };
        Ok(State {
            file: file.to_path_buf(),
            old,
            new: Tables::default(),
            planned: HashMap::new(),
            maildir_planned: HashSet::new(),
            notices: Vec::new(),
            saved: (Instant::now(), Duration::ZERO),
            own: file
                .file_name()
                .zip(fs::canonicalize(directory_of(file)).ok())
                .map(|(name, directory)| (name.to_owned(), directory)),
        })
    }

    /// Whether the walk's `path` is to be read, and how: `None` to pass over it (nothing
    /// new), `Some(None)` to read it whole, `Some(Some(offset))` to read an mbox file on from
    /// `offset`.
    pub(crate) fn plan(&mut self, path: &Path, in_maildir: bool) -> Option<Option<u64>> {
        if in_maildir {
            let Some((maildir, unique)) = maildir_key(path) else {
                return Some(None);
            };
            if self
                .old
                .maildirs
                .get(&maildir)
                .is_some_and(|names| names.contains(&unique))
            {
                self.new.maildirs.entry(maildir).or_default().insert(unique);
                return None;
            }
            self.maildir_planned.insert((maildir, unique));
            return Some(None);
        }
        if self.is_own(path) {
            return None;
        }
        // A file that cannot be stat'ed is read all the same: its error is its record.
        let Ok(metadata) = fs::metadata(path) else {
            return Some(None);
        };
        let identity = Identity::of(&metadata);
        let old = self.old.files.get(path);
        let from = match old {
            // An mbox that cannot be read on from an offset: known by its identity once a run
            // read all of it (see `save`); a run stopped in it leaves its length read, and it
            // is read whole again.
            // Only an mbox's entry asks (opening the file to look at its first bytes), so that
            // an unchanged message file is still passed over unopened.
            Some(old) if old.mbox.is_some() && !seekable(path) => None,
            None => None,
            Some(old) => match &old.mbox {
                None if old.identity == identity => {
                    self.new.files.insert(path.to_path_buf(), old.clone());
                    return None;
                }
                None => None,
                Some(mbox) => {
                    let done = identity.size.saturating_sub(mbox.read) <= 2;
                    let from = if old.identity == identity && done {
                        Some(identity.size)
                    } else {
                        read_on(path, mbox, identity.size)
                    };
                    match from {
                        Some(from) => {
                            // Carried with the new identity: the length read stays, so a
                            // run stopped before the end reads on from it.
                            let entry = Entry {
                                identity,
                                mbox: Some(mbox.clone()),
                            };
                            self.new.files.insert(path.to_path_buf(), entry);
                            if from >= identity.size {
                                return None;
                            }
                            Some(from)
                        }
                        None => {
                            self.notices.push(format!(
                                "mimebase: {}: changed since the last scan (rewritten or \
                                 truncated before byte {}): read whole",
                                super::output::escape(&path.to_string_lossy()),
                                mbox.read
                            ));
                            None
                        }
                    }
                }
            },
        };
        self.planned
            .insert(path.to_path_buf(), Planned { identity, from });
        Some(from)
    }

    /// Whether `path` is the state file (its name is compared first: a directory is made
    /// absolute only for a file of that name).
    fn is_own(&self, path: &Path) -> bool {
        self.own.as_ref().is_some_and(|(name, directory)| {
            path.file_name() == Some(name.as_os_str())
                && fs::canonicalize(directory_of(path)).is_ok_and(|d| &d == directory)
        })
    }

    /// Where the mbox file `path`, planned by [`State::plan`], is read on from, if it is.
    pub(crate) fn read_from(&self, path: &Path) -> Option<u64> {
        self.planned.get(path).and_then(|planned| planned.from)
    }

    /// A record was written: what it read is recorded. An error record records nothing (the
    /// input is tried again by the next run), but a message of an mbox file over the size
    /// limit is passed like any other (else every run would read the rest of the file again).
    pub(crate) fn written(&mut self, source: &Source, error: bool) {
        let path = match &source.path_bytes {
            Some(bytes) => PathBuf::from(os_string(bytes.clone())),
            None => PathBuf::from(&source.path),
        };
        match source.format {
            Some(Format::Mbox) => {
                let (Some(offset), Some(length)) = (source.offset, source.length) else {
                    return;
                };
                let Some(planned) = self.planned.get(&path) else {
                    return;
                };
                let read = offset.saturating_add(length);
                let mbox = Some(MboxRead { read, check: None });
                let identity = planned.identity;
                self.new.files.insert(path, Entry { identity, mbox });
            }
            Some(Format::File) if !error => {
                if let Some(key) = maildir_key(&path)
                    && self.maildir_planned.remove(&key)
                {
                    let (maildir, unique) = key;
                    self.new.maildirs.entry(maildir).or_default().insert(unique);
                } else if let Some(planned) = self.planned.remove(&path) {
                    let entry = Entry {
                        identity: planned.identity,
                        mbox: None,
                    };
                    self.new.files.insert(path, entry);
                }
            }
            _ => {}
        }
    }

    /// Whether a checkpoint is due (see [`CHECKPOINT`]).
    pub(crate) fn checkpoint_due(&self) -> bool {
        let (at, took) = self.saved;
        at.elapsed() >= CHECKPOINT.max(took.saturating_mul(10))
    }

    /// Replaces the state file with what is read: with `complete` (the run ended), what this
    /// run found alone; else that and the entries of the inputs not reached yet. The output
    /// must be flushed first.
    ///
    /// # Errors
    ///
    /// A sentence naming the state file.
    pub(crate) fn save(&mut self, complete: bool) -> Result<(), String> {
        let started = Instant::now();
        for (path, entry) in &mut self.new.files {
            let Some(mbox) = &mut entry.mbox else {
                continue;
            };
            if !seekable(path) {
                if complete {
                    // Read to its end: its identity says all (see `plan`).
                    entry.mbox = None;
                }
            } else if mbox.check.is_none() {
                mbox.check = check(path, mbox.read).ok();
            }
        }
        let mut files: Vec<SavedFile> = self
            .new
            .files
            .iter()
            .chain(
                self.old
                    .files
                    .iter()
                    .filter(|(path, _)| !complete && !self.new.files.contains_key(*path)),
            )
            .map(|(path, entry)| SavedFile {
                path: Name::of(path.as_os_str()),
                entry: entry.clone(),
            })
            .collect();
        files.sort_by(|a, b| name_bytes(&a.path).cmp(name_bytes(&b.path)));
        let mut maildirs: HashMap<&PathBuf, HashSet<&OsString>> = HashMap::new();
        let tables: &[&Tables] = if complete {
            &[&self.new]
        } else {
            &[&self.new, &self.old]
        };
        for table in tables {
            for (maildir, names) in &table.maildirs {
                maildirs.entry(maildir).or_default().extend(names);
            }
        }
        let mut maildirs: Vec<SavedMaildir> = maildirs
            .into_iter()
            .map(|(maildir, names)| {
                let mut messages: Vec<Name> = names.into_iter().map(|n| Name::of(n)).collect();
                messages.sort_by(|a, b| name_bytes(a).cmp(name_bytes(b)));
                SavedMaildir {
                    path: Name::of(maildir.as_os_str()),
                    messages,
                }
            })
            .collect();
        maildirs.sort_by(|a, b| name_bytes(&a.path).cmp(name_bytes(&b.path)));
        let saved = Saved {
            version: VERSION,
            files,
            maildirs,
        };
        replace(&self.file, &saved).map_err(|error| {
            format!(
                "writing the state {}: {error}",
                super::output::escape(&self.file.to_string_lossy())
            )
        })?;
        self.saved = (Instant::now(), started.elapsed());
        Ok(())
    }
}

impl From<Saved> for Tables {
    fn from(saved: Saved) -> Tables {
        let files = saved
            .files
            .into_iter()
            .map(|file| (PathBuf::from(file.path.into_os_string()), file.entry))
            .collect();
        let maildirs = saved
            .maildirs
            .into_iter()
            .map(|maildir| {
                let names = maildir.messages.into_iter().map(Name::into_os_string);
                (
                    PathBuf::from(maildir.path.into_os_string()),
                    names.collect(),
                )
            })
            .collect();
        Tables { files, maildirs }
    }
}

fn name_bytes(name: &Name) -> &[u8] {
    match name {
        Name::Text(text) => text.as_bytes(),
        Name::Bytes(bytes) => bytes,
    }
}

impl Identity {
    #[cfg(unix)]
    fn of(metadata: &fs::Metadata) -> Identity {
        use std::os::unix::fs::MetadataExt;
        Identity {
            dev: metadata.dev(),
            ino: metadata.ino(),
            size: metadata.len(),
            mtime: metadata.mtime(),
            mtime_nsec: metadata.mtime_nsec(),
        }
    }

    #[cfg(not(unix))]
    fn of(metadata: &fs::Metadata) -> Identity {
        let mtime = metadata
            .modified()
            .ok()
            .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            .unwrap_or_default();
        Identity {
            dev: 0,
            ino: 0,
            size: metadata.len(),
            mtime: i64::try_from(mtime.as_secs()).unwrap_or(i64::MAX),
            mtime_nsec: i64::from(mtime.subsec_nanos()),
        }
    }
}

/// Whether a file can be read on from an offset: not one read through a decoder (a gzip,
/// bzip2, xz or zstd mbox, told by its first bytes as the reading tells it), since the offsets
/// of its records are those of the decoded bytes. Such a file is known by its identity alone
/// once a run has read all of it, and any change, or a run stopped inside it, reads it whole
/// again. A file that cannot be opened is taken as plain: reading it gives its error record.
fn seekable(path: &Path) -> bool {
    let mut head = Vec::with_capacity(8);
    match File::open(path).and_then(|file| file.take(8).read_to_end(&mut head)) {
        Ok(_) => Compression::sniff(&head).is_none(),
        Err(_) => true,
    }
}

/// The Maildir and unique name of a Maildir message at `path` (in its `cur/` or `new/`).
fn maildir_key(path: &Path) -> Option<(PathBuf, OsString)> {
    let name = path.file_name()?.as_encoded_bytes();
    let unique = name.split(|&b| b == b':').next()?;
    let maildir = path.parent()?.parent()?;
    Some((maildir.to_path_buf(), os_string(unique.to_vec())))
}

/// Where an mbox file that changed since it was read up to `mbox.read` is read on from: after
/// one empty line at `mbox.read`, when the check still holds and a message (or nothing)
/// starts there; `None` when it was rewritten or truncated before (see the
/// [module docs](self)).
fn read_on(path: &Path, mbox: &MboxRead, size: u64) -> Option<u64> {
    let recorded = mbox.check.as_ref()?;
    if size < mbox.read {
        return None;
    }
    let now = check(path, mbox.read).ok()?;
    if &now != recorded {
        return None;
    }
    let mut file = File::open(path).ok()?;
    file.seek(SeekFrom::Start(mbox.read)).ok()?;
    let mut next = Vec::with_capacity(MBOX_HEAD_BYTES + 2);
    file.take(MBOX_HEAD_BYTES as u64 + 2)
        .read_to_end(&mut next)
        .ok()?;
    let separator = if next.starts_with(b"\r\n") {
        2
    } else {
        usize::from(next.starts_with(b"\n"))
    };
    let rest = next.get(separator..).unwrap_or_default();
    (rest.is_empty() || is_mbox(rest)).then_some(mbox.read + separator as u64)
}

/// The check of the first `read` bytes of the file at `path`.
fn check(path: &Path, read: u64) -> io::Result<Check> {
    let mut file = File::open(path)?;
    let span = read.min(WINDOW);
    let head = hash(&mut file, 0, span)?;
    let before = hash(&mut file, read - span, span)?;
    Ok(Check { head, before })
}

/// The SipHash-2-4 (128 bits, keys 0) of `length` bytes at `offset`, in hexadecimal; an
/// error when the file holds fewer.
fn hash(file: &mut File, offset: u64, length: u64) -> io::Result<String> {
    file.seek(SeekFrom::Start(offset))?;
    let mut bytes = Vec::with_capacity(usize::try_from(length).unwrap_or(0));
    file.take(length).read_to_end(&mut bytes)?;
    if bytes.len() as u64 != length {
        return Err(io::ErrorKind::UnexpectedEof.into());
    }
    Ok(format!("{:032x}", SipHasher::new().hash(&bytes).as_u128()))
}

/// The directory of `file` (`.` for a bare name).
fn directory_of(file: &Path) -> &Path {
    match file.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// Writes `saved` to a temporary file beside `file`, syncs it, and renames it over `file`:
/// a reader (or a run after a crash) finds the old state or the new one, never a part.
fn replace(file: &Path, saved: &Saved) -> io::Result<()> {
    let mut temporary = tempfile::Builder::new()
        .prefix(".mimebase-state-")
        .tempfile_in(directory_of(file))?;
    {
        let mut writer = io::BufWriter::new(temporary.as_file_mut());
        serde_json::to_writer_pretty(&mut writer, saved)?;
        writer.write_all(b"\n")?;
        writer.flush()?;
    }
    temporary.as_file().sync_all()?;
    temporary.persist(file).map_err(|error| error.error)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An mbox with CRLF line ends, read up to the end of its first message, then appended to:
    /// reading on skips the CRLF empty line and lands on the next `From ` line; bytes that do
    /// not start a message there, or a changed byte before, make it changed.
    #[test]
    fn reading_on_skips_one_empty_line_and_wants_a_message_after_it() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("box.mbox");
        let first = b"From a\r\nSubject: 1\r\n\r\nbody\r\n";
        fs::write(&path, [&first[..], b"\r\n"].concat()).unwrap();
        let read = first.len() as u64;
        let mbox = MboxRead {
            read,
            check: Some(check(&path, read).unwrap()),
        };
        let size = |path: &Path| fs::metadata(path).unwrap().len();
        // Nothing after the separator yet.
        assert_eq!(read_on(&path, &mbox, size(&path)), Some(read + 2));
        fs::write(&path, [&first[..], b"\r\nFrom b\r\n\r\nx\r\n"].concat()).unwrap();
        assert_eq!(read_on(&path, &mbox, size(&path)), Some(read + 2));
        // The last message written on, not a new one.
        fs::write(&path, [&first[..], b"more\r\n"].concat()).unwrap();
        assert_eq!(read_on(&path, &mbox, size(&path)), None);
        // A From header field is no separator.
        fs::write(&path, [&first[..], b"\r\nFrom : x\r\n"].concat()).unwrap();
        assert_eq!(read_on(&path, &mbox, size(&path)), None);
        // A byte before the length read changed.
        fs::write(
            &path,
            [&b"From A"[..], &first[6..], b"\r\nFrom b\r\n"].concat(),
        )
        .unwrap();
        assert_eq!(read_on(&path, &mbox, size(&path)), None);
    }

    #[test]
    fn a_maildir_message_is_known_by_its_unique_name_in_its_maildir() {
        let key = |path: &str| maildir_key(Path::new(path));
        let unique = Some((PathBuf::from("M"), OsString::from("17.M1P2.host")));
        assert_eq!(key("M/cur/17.M1P2.host:2,S"), unique);
        assert_eq!(key("M/new/17.M1P2.host"), unique);
        assert_eq!(key("M/cur/17.M1P2.host:2,RS"), unique);
        assert_ne!(key("N/cur/17.M1P2.host:2,S"), unique);
    }
}
