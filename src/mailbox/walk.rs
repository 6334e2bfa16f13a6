//! Finding the files to read: the roots (the paths given, then those of a list read as the
//! walk goes), and the depth-first walk below them, with Maildir's rules (`cur/` and `new/`,
//! never `tmp/`, then Maildir++ folders) and hidden names passed over.

use std::fs::{self, File, FileType};
use std::io::{self, BufRead, Read};
use std::path::{Path, PathBuf};

/// The paths to read: those given, then those read from a list of paths (as `mimebase scan
/// --paths-from` names one). Yields `Err(Found::Error)` for a list that cannot be opened or
/// read (or holds a "path" of more than 64 KiB: not a list of paths), and then ends.
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

/// The longest path a list of paths may hold; a longer "path" is a broken list.
const MAX_LISTED_PATH: usize = 64 << 10;

/// A list of paths, read one path at a time.
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

/// What walking the roots finds; [`open`](super::open) reads it.
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
    /// and not a failure ([`open`](super::open) gives no message for it), since a link left
    /// behind by a deleted file is common in mail archives. A root that is a dangling link is
    /// an [`Error`](Found::Error).
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
