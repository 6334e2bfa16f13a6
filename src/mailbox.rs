//! Reading messages out of files, directory trees, Maildirs and mbox files, as `mimebase scan`
//! does, for a program that indexes mail without the command line.
//!
//! ```no_run
//! use mimebase::mailbox::{Input, Messages, Roots, Walker};
//!
//! let roots = Roots::new(vec!["archive/".into(), "inbox.mbox".into()], None);
//! // No message larger than 64 MiB is read into memory.
//! for message in Messages::new(Walker::new(roots), 64 << 20) {
//!     match message.input {
//!         Input::Bytes(bytes) => {
//!             let report = mimebase::analyze(&bytes, &mimebase::Options::new());
//!             println!("{} at byte {:?}: {} URLs", message.source.path,
//!                 message.source.offset, report.urls.len());
//!         }
//!         Input::Error(kind, why) => eprintln!("{}: {kind:?}: {why}", message.source.path),
//!     }
//! }
//! ```
//!
//! The pieces, in the order data flows:
//!
//! - [`Roots`]: the paths to read (given, then read from a list of paths).
//! - [`Walker`]: every file under them, depth first, in byte order of names; a Maildir
//!   (`cur/` and `new/`, never `tmp/`, then its Maildir++ subfolders) in the order of
//!   the Maildir specification's delivery states.
//! - [`open`]: a found path becomes one [`Message`], or, for an mbox file, an iterator of them.
//! - [`Messages`]: the two above chained, every message of every file in order.
//! - [`Mbox`]: the messages of an mbox stream, read one line at a time from any [`Read`].
//! - [`open_stream`]: any reader (standard input, a pipe) told apart as [`open`] does: one
//!   message read up to the limit, or an [`Mbox`].
//! - [`unquote`] and [`quote`]: the mboxrd quoting undone, and redone (to write an mbox
//!   back, as `mimebase rewrite` does).
//!
//! Every message comes with its [`Source`] (path, format, 0-based byte offset and length in
//! bytes, as `scan` writes them; the [`scan`](crate::scan) module documents the mbox
//! boundaries and the mboxrd unquoting), and either its bytes, ready for
//! [`analyze`](crate::analyze), or the reason there are none ([`ScanErrorKind`]: `Read` for
//! an I/O error, `TooLarge` for a message over the size limit). Nothing here returns `Err`
//! or panics: a failure is a [`Message`] that stands in the place of what could not be read,
//! and the iteration goes on with the next path.
//!
//! Everything is lazy, so that memory follows the messages in flight and not the corpus:
//! a directory's listing is held only until its entries have been walked, a path list is read
//! a path at a time, and an mbox file a line at a time, each message read into memory only up
//! to the size limit.
//!
//! The directory walk and the mbox split are written here rather than taken from a crate:
//! `walkdir` neither knows Maildir's `cur/`/`new/`/`tmp/` rules nor yields entries lazily in
//! byte order with symbolic links followed to files only, and the mbox crates found either
//! read a whole file into memory, give no byte offsets, or do not undo mboxrd quoting.

use std::fs::{self, File, FileType};
use std::io::{self, BufRead, Read};
use std::ops::Range;
use std::path::{Path, PathBuf};

use crate::scan::{ScanErrorKind, Source};

/// One message to analyze, or the failure that stands in its place.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// Where it was found: path, format, offset and length in the file.
    pub source: Source,
    /// What to analyze.
    pub input: Input,
}

/// The bytes of a [`Message`], or why there are none.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// One message, as [`analyze`](crate::analyze) takes it: for an mbox message, its `From `
    /// line and the lines after it with the mboxrd quoting undone.
    Bytes(Vec<u8>),
    /// Nothing to analyze: the kind of failure and a sentence for people (the operating
    /// system's error message, or the size and the limit).
    Error(ScanErrorKind, String),
}

impl Message {
    fn error(source: Source, kind: ScanErrorKind, message: String) -> Self {
        Message {
            source,
            input: Input::Error(kind, message),
        }
    }

    /// A message over the limit; `source.length` is `None` for a stream that was not read
    /// past the limit.
    fn too_large(source: Source, limit: u64) -> Self {
        let message = match source.length {
            Some(length) => format!(
                "the message has {length} bytes, more than the limit of {limit} (--max-message-bytes)"
            ),
            None => format!(
                "the message has more than {limit} bytes, the limit (--max-message-bytes); the rest was not read"
            ),
        };
        Message::error(source, ScanErrorKind::TooLarge, message)
    }
}

/// The path as written in records and on stderr.
fn display(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// The paths to read: those given, then those read from a list of paths (`scan
/// --paths-from`). Yields `Err(Found::Error)` for a list that cannot be opened or read (or
/// holds a "path" of more than 64 KiB: not a list of paths), and then ends.
pub struct Roots {
    arguments: std::vec::IntoIter<PathBuf>,
    list: Option<PathList>,
}

impl Roots {
    /// `arguments`, then the paths of `list` (its name, `-` for standard input), separated by
    /// `separator` (`b'\n'`, where a `\r` before it is dropped too, or NUL); empty entries
    /// are skipped. The list is opened here and read as the paths are asked for.
    pub fn new(arguments: Vec<PathBuf>, list: Option<(&Path, u8)>) -> Self {
        Roots {
            arguments: arguments.into_iter(),
            list: list.map(|(name, separator)| PathList::open(name, separator)),
        }
    }
}

impl Iterator for Roots {
    type Item = Result<PathBuf, Found>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(path) = self.arguments.next() {
            return Some(Ok(path));
        }
        let list = self.list.as_mut()?;
        let next = list.next();
        if !matches!(next, Some(Ok(_))) {
            self.list = None;
        }
        next
    }
}

/// The longest path a `--paths-from` list may hold; a longer "path" is a broken list.
const MAX_LISTED_PATH: usize = 64 << 10;

/// A `--paths-from` list, read one path at a time.
struct PathList {
    name: PathBuf,
    reader: Result<Box<dyn BufRead + Send>, Option<io::Error>>,
    separator: u8,
    buffer: Vec<u8>,
}

impl PathList {
    fn open(name: &Path, separator: u8) -> Self {
        let reader: Result<Box<dyn BufRead + Send>, _> = if name == Path::new("-") {
            Ok(Box::new(io::BufReader::new(io::stdin())))
        } else {
            File::open(name)
                .map(|file| Box::new(io::BufReader::new(file)) as Box<dyn BufRead + Send>)
                .map_err(Some)
        };
        PathList {
            name: name.to_path_buf(),
            reader,
            separator,
            buffer: Vec::new(),
        }
    }

    fn failure(&self, error: io::Error) -> Found {
        Found::Error {
            path: self.name.clone(),
            error,
        }
    }

    /// The next path; `None` at the end of the list; an error ends the list.
    fn next(&mut self) -> Option<Result<PathBuf, Found>> {
        let reader = match &mut self.reader {
            Ok(reader) => reader,
            Err(error) => return error.take().map(|error| Err(self.failure(error))),
        };
        loop {
            self.buffer.clear();
            let read = reader
                .by_ref()
                .take(MAX_LISTED_PATH as u64 + 1)
                .read_until(self.separator, &mut self.buffer);
            match read {
                Err(error) => return Some(Err(self.failure(error))),
                Ok(0) => return None,
                Ok(_) => {}
            }
            if self.buffer.last() == Some(&self.separator) {
                self.buffer.pop();
                if self.separator == b'\n' && self.buffer.last() == Some(&b'\r') {
                    self.buffer.pop();
                }
            } else if self.buffer.len() > MAX_LISTED_PATH {
                let error = io::Error::other(format!(
                    "a path of more than {MAX_LISTED_PATH} bytes: is this a list of paths?"
                ));
                return Some(Err(self.failure(error)));
            }
            if !self.buffer.is_empty() {
                return Some(Ok(path_from_bytes(&self.buffer)));
            }
        }
    }
}

#[cfg(unix)]
fn path_from_bytes(bytes: &[u8]) -> PathBuf {
    use std::os::unix::ffi::OsStrExt;
    PathBuf::from(std::ffi::OsStr::from_bytes(bytes))
}

#[cfg(not(unix))]
fn path_from_bytes(bytes: &[u8]) -> PathBuf {
    PathBuf::from(String::from_utf8_lossy(bytes).into_owned())
}

/// What walking the roots finds; [`open`] reads it.
#[derive(Debug)]
pub enum Found {
    /// A file to read: one message, or an mbox file (told by its first bytes) unless it is
    /// a Maildir message.
    File {
        /// The file: a root, or a root joined with the names below it.
        path: PathBuf,
        /// Found in a Maildir's `cur/` or `new/`: one message, whatever its first bytes.
        in_maildir: bool,
    },
    /// `-`: standard input, read as a file.
    Stdin,
    /// A symbolic link found in a directory whose target does not exist: nothing to read,
    /// and not a failure ([`open`] gives no message for it), since a link left behind by a
    /// deleted file is common in mail archives. A root that is a dangling link is an
    /// [`Error`](Found::Error).
    DanglingLink {
        /// The link.
        path: PathBuf,
    },
    /// A path that could not be walked (a missing root, a directory that cannot be listed).
    Error {
        /// The path that failed.
        path: PathBuf,
        /// The operating system's error.
        error: io::Error,
    },
}

/// What is left to walk, innermost last.
enum Pending {
    /// A path named by the user: followed, whatever it is.
    Named(PathBuf),
    /// An entry of a directory, with its type as listed (a symbolic link not followed).
    Entry(PathBuf, FileType),
    /// A Maildir's `cur/` or `new/`, not yet listed.
    MaildirMessages(PathBuf),
    /// A file of a Maildir's `cur/` or `new/`.
    MaildirFile(PathBuf),
}

/// Every file under the roots, depth first. A directory's entries come in byte order of
/// their names; a Maildir (a directory with `cur/` and `new/` subdirectories) yields the
/// files of `cur/`, then `new/` (not those whose names start with `.`, and never `tmp/`, where
/// deliveries are still being written), then its subfolders that are Maildirs themselves
/// (Maildir++ `.Folder`s, in byte order); its other files (indexes, `subscriptions`, …) are not
/// messages and are passed over. Other entries whose names begin with `.` are passed over
/// unless [`Walker::with_hidden`]. Symbolic links found in a directory are followed to files,
/// not into directories, so that a link cannot make the walk loop; a link to nothing is
/// [`Found::DanglingLink`].
pub struct Walker {
    roots: Roots,
    stack: Vec<Pending>,
    hidden: bool,
}

impl Walker {
    /// A walk over `roots`, none of it read yet, that passes over hidden files and
    /// directories.
    pub fn new(roots: Roots) -> Self {
        Walker {
            roots,
            stack: Vec::new(),
            hidden: false,
        }
    }

    /// With `true`, files and directories whose names begin with `.` are walked too.
    ///
    /// ### Default
    ///
    /// `false`: such entries of a directory are passed over, as `ls`, `fd` and `ripgrep` do,
    /// so that `.git/` or an editor's `.swp` file is not read as mail. A root is walked
    /// whatever its name, and a Maildir's Maildir++ folders (`.Sent`, `.Archive`) are
    /// always walked, being part of the Maildir.
    pub fn with_hidden(mut self, hidden: bool) -> Self {
        self.hidden = hidden;
        self
    }

    /// Pushes what is inside `dir`; an error when it cannot be listed.
    fn enter(&mut self, dir: PathBuf) -> Option<Found> {
        let entries = match list(&dir) {
            Ok(entries) => entries,
            Err(error) => return Some(Found::Error { path: dir, error }),
        };
        if is_maildir(&dir) {
            for (path, file_type) in entries.into_iter().rev() {
                let name = path.file_name().and_then(|name| name.to_str());
                let reserved = matches!(name, Some("cur" | "new" | "tmp"));
                if file_type.is_dir() && !reserved && is_maildir(&path) {
                    self.stack.push(Pending::Entry(path, file_type));
                }
            }
            self.stack.push(Pending::MaildirMessages(dir.join("new")));
            self.stack.push(Pending::MaildirMessages(dir.join("cur")));
        } else {
            self.stack.extend(
                entries
                    .into_iter()
                    .rev()
                    .filter(|(path, _)| self.hidden || !is_hidden(path))
                    .map(|(path, file_type)| Pending::Entry(path, file_type)),
            );
        }
        None
    }
}

impl Iterator for Walker {
    type Item = Found;

    fn next(&mut self) -> Option<Found> {
        loop {
            let pending = match self.stack.pop() {
                Some(pending) => pending,
                None => match self.roots.next()? {
                    Ok(path) => Pending::Named(path),
                    Err(found) => return Some(found),
                },
            };
            match pending {
                Pending::Named(path) if path == Path::new("-") => return Some(Found::Stdin),
                Pending::Named(path) => match fs::metadata(&path) {
                    Err(error) => return Some(Found::Error { path, error }),
                    Ok(metadata) if metadata.is_dir() => {
                        if let Some(found) = self.enter(path) {
                            return Some(found);
                        }
                    }
                    Ok(_) => {
                        return Some(Found::File {
                            path,
                            in_maildir: false,
                        });
                    }
                },
                Pending::Entry(path, file_type) if file_type.is_dir() => {
                    if let Some(found) = self.enter(path) {
                        return Some(found);
                    }
                }
                Pending::Entry(path, file_type) if file_type.is_symlink() => {
                    match fs::metadata(&path) {
                        Ok(metadata) if metadata.is_dir() => {}
                        Ok(_) => {
                            return Some(Found::File {
                                path,
                                in_maildir: false,
                            });
                        }
                        Err(error) if error.kind() == io::ErrorKind::NotFound => {
                            return Some(Found::DanglingLink { path });
                        }
                        Err(error) => return Some(Found::Error { path, error }),
                    }
                }
                Pending::Entry(path, _) => {
                    return Some(Found::File {
                        path,
                        in_maildir: false,
                    });
                }
                Pending::MaildirMessages(dir) => match list(&dir) {
                    Err(error) => return Some(Found::Error { path: dir, error }),
                    Ok(entries) => self.stack.extend(
                        entries
                            .into_iter()
                            .rev()
                            .filter(|(path, file_type)| {
                                !file_type.is_dir()
                                    && !path
                                        .file_name()
                                        .is_some_and(|n| n.as_encoded_bytes().starts_with(b"."))
                            })
                            .map(|(path, _)| Pending::MaildirFile(path)),
                    ),
                },
                Pending::MaildirFile(path) => {
                    return Some(Found::File {
                        path,
                        in_maildir: true,
                    });
                }
            }
        }
    }
}

/// A directory's entries, sorted by name (byte order on Unix).
fn list(dir: &Path) -> io::Result<Vec<(PathBuf, FileType)>> {
    let mut entries = fs::read_dir(dir)?
        .map(|entry| entry.and_then(|e| Ok((e.file_name(), e.file_type()?))))
        .collect::<io::Result<Vec<_>>>()?;
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(entries
        .into_iter()
        .map(|(name, file_type)| (dir.join(name), file_type))
        .collect())
}

/// True when the file name begins with `.`.
fn is_hidden(path: &Path) -> bool {
    path.file_name()
        .is_some_and(|name| name.as_encoded_bytes().starts_with(b"."))
}

fn is_maildir(dir: &Path) -> bool {
    dir.join("cur").is_dir() && dir.join("new").is_dir()
}

/// What a found path holds.
pub enum Opened {
    /// One message (a file, standard input), or the failure that stands for the path.
    One(Message),
    /// An mbox file: its messages, read or split as they are asked for.
    Many(Box<dyn Iterator<Item = Message> + Send>),
}

/// Opens what the walker found, reading no message larger than `limit` bytes into memory.
///
/// A regular file no larger than the limit is read whole, with one `read`, and an mbox file
/// among them split in memory; a larger one, or standard input, streams through [`Mbox`],
/// which holds one message at a time and none over the limit. A file is an mbox file when its
/// first five bytes are `From ` and it was not found in a Maildir.
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
        Found::Error { path, error } => Opened::One(read_error(display(&path), &error)),
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
            match opened.and_then(|file| Ok((file.metadata()?, file))) {
                Err(error) => Opened::One(read_error(name, &error)),
                Ok((metadata, file)) if metadata.is_file() && metadata.len() <= limit => {
                    read_whole(name, file, metadata.len(), in_maildir, limit)
                }
                Ok((metadata, file)) => {
                    let size = metadata.is_file().then_some(metadata.len());
                    stream(name, Box::new(file), size, in_maildir, limit)
                }
            }
        }
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
    if !in_maildir && bytes.starts_with(b"From ") {
        return Opened::Many(Box::new(MboxInMemory::new(name, bytes)));
    }
    Opened::One(Message {
        source: Source::file(name, bytes.len() as u64),
        input: Input::Bytes(bytes),
    })
}

/// Standard input, or a file that is not regular or larger than the limit: an mbox file
/// streams (`size`: its length when known beforehand); anything else is read up to the limit.
fn stream(
    name: String,
    mut reader: Box<dyn Read + Send>,
    size: Option<u64>,
    in_maildir: bool,
    limit: u64,
) -> Opened {
    let mut head = Vec::with_capacity(5);
    if let Err(error) = reader.by_ref().take(5).read_to_end(&mut head) {
        return Opened::One(read_error(name, &error));
    }
    if !in_maildir && head == b"From " {
        let reader = Box::new(io::Cursor::new(head).chain(reader));
        return Opened::Many(Box::new(Mbox::new(name, reader, limit)));
    }
    if let Some(size) = size.filter(|&size| size > limit) {
        return Opened::One(Message::too_large(Source::file(name, size), limit));
    }
    Opened::One(read_one(name, head, &mut reader, limit))
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
/// makes memory only of the pages written. Growing by
/// doubling instead copies the bytes at each step and leaves the old buffers to the
/// allocator, which made reading `/dev/zero` up to a 64 MiB limit cost 156 MB of resident
/// memory.
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
    // A limit larger than the address space the system grants (`--max-message-bytes 1000G`)
    // cannot be reserved: the buffer then grows as the input comes, by doubling.
    let _ = bytes.try_reserve_exact(rest);
    reader.take(rest as u64).read_to_end(bytes)?;
    Ok(())
}

/// What a stream holds, as [`open_stream`] tells it.
pub enum Stream<R> {
    /// One message, or the failure that stands in its place (a read error, or a message over
    /// the limit, not read past it).
    One(Message),
    /// An mbox: its messages, read as they are asked for (the first five bytes, read to tell
    /// the format, come first again).
    Mbox(Mbox<io::Chain<io::Cursor<Vec<u8>>, R>>),
}

/// Reads the start of `reader` (standard input, a file, a pipe), named `name` in each
/// [`Source`], and tells what it holds by the rule of [`open`]: an mbox when its first five
/// bytes are `From `, else one message, read here up to `limit` bytes (a longer one is
/// [`ScanErrorKind::TooLarge`], with no length, and the rest is not read). [`open`] reads
/// standard input this way; a caller that needs the [`Mbox`] itself (to set
/// [`Mbox::with_unquoting`], or to read [`Mbox::position`]) calls this.
pub fn open_stream<R: Read>(name: String, mut reader: R, limit: u64) -> Stream<R> {
    let mut head = Vec::with_capacity(5);
    if let Err(error) = reader.by_ref().take(5).read_to_end(&mut head) {
        return Stream::One(read_error(name, &error));
    }
    if head == b"From " {
        return Stream::Mbox(Mbox::new(name, io::Cursor::new(head).chain(reader), limit));
    }
    Stream::One(read_one(name, head, &mut reader, limit))
}

fn read_error(name: String, error: &io::Error) -> Message {
    Message::error(
        Source::unknown(name),
        ScanErrorKind::Read,
        error.to_string(),
    )
}

/// Every message of every file the walker finds, in order: each [`Found`] [`open`]ed, an mbox
/// file's messages one after another. This is what `scan --jobs 1` analyzes.
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

/// The messages of an mbox file held in memory, split by [`split_mbox`].
struct MboxInMemory {
    name: String,
    bytes: Vec<u8>,
    /// The messages not yet yielded, last first, each with whether `>From ` occurs in it
    /// (then it may have lines to [`unquote`]).
    ranges: Vec<(Range<usize>, bool)>,
}

impl MboxInMemory {
    fn new(name: String, bytes: Vec<u8>) -> Self {
        let mut ranges = split_mbox(&bytes);
        ranges.reverse();
        MboxInMemory {
            name,
            bytes,
            ranges,
        }
    }
}

impl Iterator for MboxInMemory {
    type Item = Message;

    fn next(&mut self) -> Option<Message> {
        let (range, quoted) = self.ranges.pop()?;
        let source = Source::mbox(self.name.clone(), range.start as u64, range.len() as u64);
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

/// The byte ranges of the messages of an mbox file (that starts with `From `): each from its
/// `From ` line to the empty line before the next one, or to the end of the file less one
/// final empty line. The same boundaries as [`Mbox`] finds as it streams. With each range,
/// whether `>From ` occurs in it: one search for `From ` finds both.
fn split_mbox(bytes: &[u8]) -> Vec<(Range<usize>, bool)> {
    let mut ranges = Vec::new();
    let mut start = 0;
    let mut quoted = false;
    for from in memchr::memmem::find_iter(bytes, b"From ") {
        let Some(at) = from.checked_sub(1) else {
            continue;
        };
        match bytes.get(at) {
            Some(b'>') => quoted = true,
            // `\nFrom ` at `at`: a `From ` line at `at + 1`, a separator if the line ending
            // at `at` is empty.
            Some(b'\n') => {
                let before = bytes.get(..at).unwrap_or_default();
                let end = if before.ends_with(b"\n") {
                    at
                } else if before.ends_with(b"\n\r") {
                    at - 1
                } else {
                    continue;
                };
                if end > start {
                    ranges.push((start..end, quoted));
                    start = at + 1;
                    quoted = false;
                }
            }
            _ => {}
        }
    }
    let rest = bytes.get(start..).unwrap_or_default();
    let trailing_empty_line = if rest.ends_with(b"\n\r\n") {
        2
    } else if rest.ends_with(b"\n\n") {
        1
    } else {
        0
    };
    ranges.push((start..bytes.len() - trailing_empty_line, quoted));
    ranges
}

/// Undoes mboxrd quoting in a message that starts with its `From ` line, as every message
/// of an mbox is given to [`analyze`](crate::analyze): every later line that begins with one
/// or more `>` followed by `From ` loses its first `>` (`>From ` → `From `, `>>From ` →
/// `>From `). One pass, however many lines are quoted.
///
/// mboxrd is the member of the mbox family (RFC 4155 §2 and its Appendix A) that quotes
/// every such line when a message is stored, so that this undoes the quoting exactly; the
/// older mboxo quotes only `From ` lines, and its stored `>From ` lines then lose a `>` they
/// had in the message, as in every mboxrd reader.
pub fn unquote(message: &mut Vec<u8>) {
    let mut quoted = memchr::memmem::find_iter(message, b">From ")
        .filter_map(|at| {
            let before = message.get(..at).unwrap_or_default();
            let first = before.iter().rposition(|&b| b != b'>').map_or(0, |i| i + 1);
            (first > 0 && before.get(first - 1) == Some(&b'\n')).then_some(first)
        })
        .peekable();
    if quoted.peek().is_none() {
        return;
    }
    let mut unquoted = Vec::with_capacity(message.len());
    let mut copied = 0;
    for first in quoted {
        unquoted.extend_from_slice(message.get(copied..first).unwrap_or_default());
        copied = first + 1;
    }
    unquoted.extend_from_slice(message.get(copied..).unwrap_or_default());
    *message = unquoted;
}

/// Writes `message` (one that starts with its `From ` line) to `out` with mboxrd quoting, the
/// inverse of [`unquote`]: every later line that begins with zero or more `>` followed by
/// `From ` gets one more `>` before it. Lines end at `\n` (so CRLF lines too); nothing else
/// changes.
///
/// `quote` then [`unquote`] gives back `message`, and [`unquote`] then `quote` gives back the
/// stored message exactly when no line after the first of the stored message begins with
/// `From ` unquoted ([`quoted_len`] tells: it is then the stored length).
///
/// # Errors
///
/// Those of `out`.
pub fn quote(message: &[u8], out: &mut dyn io::Write) -> io::Result<()> {
    let mut copied = 0;
    for at in lines_to_quote(message) {
        out.write_all(message.get(copied..at).unwrap_or_default())?;
        out.write_all(b">")?;
        copied = at;
    }
    out.write_all(message.get(copied..).unwrap_or_default())
}

/// The length in bytes of `message` once [`quote`]d.
pub fn quoted_len(message: &[u8]) -> usize {
    message.len() + lines_to_quote(message).count()
}

/// The offsets of the lines after the first that begin with `>*From `.
fn lines_to_quote(message: &[u8]) -> impl Iterator<Item = usize> + '_ {
    memchr::memchr_iter(b'\n', message).filter_map(|newline| {
        let start = newline + 1;
        let line = message.get(start..)?;
        let quotes = line.iter().take_while(|&&b| b == b'>').count();
        line.get(quotes..)?.starts_with(b"From ").then_some(start)
    })
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
}

impl<R: Read> Mbox<R> {
    /// The messages of `reader`, positioned at the start of an mbox file (on its first `From `
    /// line), each [`Source`] with `name` as its path; a message over `limit` bytes is
    /// counted, not kept, and becomes a [`ScanErrorKind::TooLarge`] message.
    pub fn new(name: String, reader: R, limit: u64) -> Self {
        Mbox {
            name,
            reader: Chunks::new(reader),
            limit,
            position: 0,
            done: false,
            unquoting: true,
        }
    }

    /// With `false`, each message is yielded as stored in the file, its mboxrd quoting kept
    /// (to be written back to an mbox: `rewrite` undoes it with [`unquote`] and redoes it
    /// with [`quote`]).
    ///
    /// ### Default
    ///
    /// `true`: `>From ` lines lose their first `>`, as [`unquote`] does, so that each
    /// message is ready for [`analyze`](crate::analyze).
    pub fn with_unquoting(mut self, unquoting: bool) -> Self {
        self.unquoting = unquoting;
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
        loop {
            let head = self.reader.head()?;
            if head.is_empty() || (empty_line.is_some() && head.starts_with(b"From ")) {
                break;
            }
            let this_empty: Option<&'static [u8]> = if head.starts_with(b"\n") {
                Some(b"\n")
            } else if head.starts_with(b"\r\n") {
                Some(b"\r\n")
            } else {
                None
            };
            if let Some(previous) = empty_line.take() {
                self.keep(&mut message, &mut length, previous);
            }
            match this_empty {
                Some(line) => {
                    self.reader.consume(line.len());
                    self.position += line.len() as u64;
                    empty_line = Some(line);
                }
                None => self.copy_line(&mut message, &mut length, self.unquoting)?,
            }
        }
        let source = Source::mbox(self.name.clone(), start, length);
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
            message.extend_from_slice(bytes);
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
                message.extend_from_slice(line);
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
                Some(Message::error(
                    source,
                    ScanErrorKind::Read,
                    error.to_string(),
                ))
            }
        }
    }
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
        while self.data().len() < 5 && !self.data().contains(&b'\n') && self.fill()? {}
        Ok(self.data())
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::indexing_slicing, clippy::panic)]

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
    fn splits_after_empty_lines_and_unquotes() {
        let first =
            b"From a\nSubject: 1\n\nbody\n>From quoted\n>>From twice\nFrom not after blank\n";
        let second = b"From b\r\nSubject: 2\r\n\r\n\r\n";
        let third = b"From c\nSubject: 3\n\nno newline";
        let mbox = [&first[..], b"\n", second, b"\r\n", third].concat();
        for chunk in [1, 2, 3, 5, 7, 4096] {
            let messages = split(&mbox, 1 << 20, chunk);
            assert_eq!(messages.len(), 3, "chunk {chunk}");
            assert_eq!((messages[0].0, messages[0].1), (0, first.len() as u64));
            assert_eq!(
                messages[0].2.as_deref().unwrap(),
                b"From a\nSubject: 1\n\nbody\nFrom quoted\n>From twice\nFrom not after blank\n"
            );
            // Of the three empty lines after `Subject: 2`, the last is the separator.
            let offset = first.len() as u64 + 1;
            assert_eq!(
                messages[1],
                (offset, second.len() as u64, Ok(second.to_vec()))
            );
            let offset = offset + second.len() as u64 + 2;
            assert_eq!(
                messages[2],
                (offset, third.len() as u64, Ok(third.to_vec()))
            );
            assert_eq!(offset + third.len() as u64, mbox.len() as u64);
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
        let lines: [&[u8]; 9] = [
            b"From x\n",
            b"\n",
            b"\r\n",
            b">From q\n",
            b">>From q\n",
            b"text\n",
            b"text\r\n",
            b"From y",
            b">",
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
        assert_eq!(count, 1 + 9 + 81 + 729 + 6561);
    }

    #[test]
    fn unquote_removes_one_quote_per_line() {
        let mut message = b"From a\n>From b\n>>>From c\nx>From d\n>From".to_vec();
        unquote(&mut message);
        assert_eq!(message, b"From a\nFrom b\n>>From c\nx>From d\n>From");
    }

    fn quoted(message: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        quote(message, &mut out).unwrap();
        assert_eq!(out.len(), quoted_len(message));
        out
    }

    #[test]
    fn quote_is_the_inverse_of_unquote() {
        let stored = b"From a\r\n>From b\r\n>>>From c\nx>From d\n>From";
        let mut message = stored.to_vec();
        unquote(&mut message);
        // `>From` without the space is not a quoted `From ` line.
        assert_eq!(message, b"From a\r\nFrom b\r\n>>From c\nx>From d\n>From");
        assert_eq!(quoted(&message), stored);
        // A `From ` line stored unquoted (after a non-empty line, so not a separator) cannot
        // come back: the quoted length tells.
        let stored = b"From a\nx\nFrom b\n";
        let mut message = stored.to_vec();
        unquote(&mut message);
        assert_eq!(quoted_len(&message), stored.len() + 1);
        assert_eq!(quoted(&message), b"From a\nx\n>From b\n");
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
