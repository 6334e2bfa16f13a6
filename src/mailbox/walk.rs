//! Finding the files to read: the roots (the paths given, then those of a list read as the
//! walk goes), and the depth-first walk below them, with Maildir's rules (`cur/` and `new/`,
//! never `tmp/`, then Maildir++ folders), hidden names passed over, and include and exclude
//! [`Globs`].

use std::fs::{self, File, FileType};
use std::io::{self, BufRead, Read};
use std::path::{Path, PathBuf};

use globset::{GlobBuilder, GlobSet, GlobSetBuilder};

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
    /// A path that could not be walked (a missing root, a directory that cannot be listed),
    /// or a file found in a directory that is not a regular file (a FIFO, a socket, a device,
    /// or a symbolic link to one), which is not opened: its error says which
    /// ([`io::ErrorKind::InvalidInput`]).
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
    /// A file of a Maildir's `cur/` or `new/`, with its type as listed.
    MaildirFile(PathBuf, FileType),
}

/// Every file under the roots, depth first. A directory's entries come in byte order of
/// their names; a Maildir (a directory with `cur/` and `new/` subdirectories) yields the
/// files of `cur/`, then `new/` (not those whose names start with `.`, and never `tmp/`, where
/// deliveries are still being written), then its subfolders that are Maildirs themselves
/// (Maildir++ `.Folder`s, in byte order); its other files (indexes, `subscriptions`, …) are not
/// messages and are passed over. Other entries whose names begin with `.` are passed over
/// unless [`Walker::with_hidden`]. Symbolic links found in a directory are followed to files,
/// not into directories, so that a link cannot make the walk loop; a link to nothing is
/// [`Found::DanglingLink`]. Only the regular files of a directory are read: a FIFO, a socket
/// or a device found there is a [`Found::Error`], never opened (a root is read whatever it is).
pub struct Walker {
    roots: Roots,
    stack: Vec<Pending>,
    hidden: bool,
    globs: Globs,
    /// The root being walked: the paths below it are matched against `globs` relative to it.
    root: PathBuf,
}

impl Walker {
    /// A walk over `roots`, none of it read yet, that passes over hidden files and
    /// directories.
    pub fn new(roots: Roots) -> Self {
        Walker {
            roots,
            stack: Vec::new(),
            hidden: false,
            globs: Globs::default(),
            root: PathBuf::new(),
        }
    }

    /// With `globs`, the files and directories found inside the roots are walked only when
    /// [`Globs::admits`] them, matched by their path relative to the root they were found in
    /// (`sub/a.eml` for `ROOT/sub/a.eml`, `cur/1700000000.M1P2.host:2,S` for a Maildir
    /// message); a directory excluded is not entered. A root itself is walked whatever its
    /// name, as ripgrep searches a file it is given.
    ///
    /// ### Default
    ///
    /// No globs: every file is walked (hidden names aside, see [`Walker::with_hidden`]).
    pub fn with_globs(mut self, globs: Globs) -> Self {
        self.globs = globs;
        self
    }

    /// True when `path`, found below the current root, is walked by the globs.
    fn admitted(&self, path: &Path, is_dir: bool) -> bool {
        self.globs.is_empty()
            || self
                .globs
                .admits(path.strip_prefix(&self.root).unwrap_or(path), is_dir)
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
                if file_type.is_dir()
                    && !reserved
                    && is_maildir(&path)
                    && self.admitted(&path, true)
                {
                    self.stack.push(Pending::Entry(path, file_type));
                }
            }
            for folder in ["new", "cur"] {
                let path = dir.join(folder);
                if self.admitted(&path, true) {
                    self.stack.push(Pending::MaildirMessages(path));
                }
            }
        } else {
            let pending: Vec<Pending> = entries
                .into_iter()
                .rev()
                .filter(|(path, _)| self.hidden || !is_hidden(path))
                .filter(|(path, file_type)| {
                    // A symbolic link is matched as a file: the walk follows links to files only.
                    self.admitted(path, file_type.is_dir())
                })
                .map(|(path, file_type)| Pending::Entry(path, file_type))
                .collect();
            self.stack.extend(pending);
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
                    Ok(path) => {
                        self.root.clone_from(&path);
                        Pending::Named(path)
                    }
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
                        Ok(metadata) => {
                            return Some(found_in_directory(path, metadata.file_type(), false));
                        }
                        Err(error) if error.kind() == io::ErrorKind::NotFound => {
                            return Some(Found::DanglingLink { path });
                        }
                        Err(error) => return Some(Found::Error { path, error }),
                    }
                }
                Pending::Entry(path, file_type) => {
                    return Some(found_in_directory(path, file_type, false));
                }
                Pending::MaildirMessages(dir) => match list(&dir) {
                    Err(error) => return Some(Found::Error { path: dir, error }),
                    Ok(entries) => {
                        let pending: Vec<Pending> = entries
                            .into_iter()
                            .rev()
                            .filter(|(path, file_type)| {
                                !file_type.is_dir()
                                    && !path
                                        .file_name()
                                        .is_some_and(|n| n.as_encoded_bytes().starts_with(b"."))
                                    && self.admitted(path, false)
                            })
                            .map(|(path, file_type)| Pending::MaildirFile(path, file_type))
                            .collect();
                        self.stack.extend(pending);
                    }
                },
                Pending::MaildirFile(path, file_type) if file_type.is_symlink() => {
                    return Some(match fs::metadata(&path) {
                        Ok(metadata) => found_in_directory(path, metadata.file_type(), true),
                        // Gone since the listing, or a link to nothing: opening it says which
                        // (and finds a message renamed meanwhile).
                        Err(_) => Found::File {
                            path,
                            in_maildir: true,
                        },
                    });
                }
                Pending::MaildirFile(path, file_type) => {
                    return Some(found_in_directory(path, file_type, true));
                }
            }
        }
    }
}

/// What a walk yields for `path`, found in a directory (or in a Maildir's `cur/` or `new/`
/// when `in_maildir`), whose type, a symbolic link followed, is `file_type`: a regular file to
/// read, or an [`Found::Error`] for anything else (a FIFO, a socket, a device), which is not
/// opened. Opening a FIFO waits for a writer, and a device such as `/dev/zero` never ends; a
/// path given by the user is read whatever it is (`mimebase scan fifo`), but one the walk comes
/// across is not, as ripgrep searches only the regular files of a directory.
fn found_in_directory(path: PathBuf, file_type: FileType, in_maildir: bool) -> Found {
    if file_type.is_file() {
        return Found::File { path, in_maildir };
    }
    let error = io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "{}, found in a directory: only regular files are read there; not opened",
            kind_of(file_type)
        ),
    );
    Found::Error { path, error }
}

/// A file type in words, for messages to people: `a FIFO`, `a socket`, `a character device`,
/// `a block device`, `a directory`, `a symbolic link`, `a regular file`, or `not a regular
/// file` for any other.
pub fn kind_of(file_type: FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if file_type.is_fifo() {
            return "a FIFO";
        } else if file_type.is_char_device() {
            return "a character device";
        } else if file_type.is_block_device() {
            return "a block device";
        } else if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_file() {
        "a regular file"
    } else if file_type.is_dir() {
        "a directory"
    } else if file_type.is_symlink() {
        "a symbolic link"
    } else {
        "not a regular file"
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

/// Include and exclude patterns for the files found in directories, read as ripgrep reads its
/// `--glob` and `--iglob` patterns (each one line of a `.gitignore` file, `!` inverted):
///
/// - a pattern selects the paths it matches; one that begins with `!` excludes them;
/// - when there is any pattern without `!`, a file that none matches is excluded (a
///   directory that none matches is still entered: files inside it may match);
/// - the last pattern that matches a path decides for it;
/// - a pattern without `/` matches the file name at any depth (`*.eml`); one with a `/`
///   matches the whole path relative to the root walked (`cur/*`), from its start when it
///   begins with `/`; one that ends with `/` matches directories only;
/// - `*` and `?` match no `/`, `**` matches any number of directories, `[…]` and `{a,b}`
///   as in the `globset` crate's syntax (`\` escapes the next character).
///
/// Two differences from ripgrep: a path is matched relative to the root it was found
/// in, where ripgrep matches it relative to the current directory (they agree on patterns
/// without a `/`, and for a root `.`); and a pattern is taken as it is written (ripgrep
/// ignores one beginning with `#` and trims trailing spaces, as a `.gitignore` line).
/// Matched on a path's bytes, so a name that is not UTF-8 can be matched too.
///
/// The globs are the `globset` crate's, the matcher ripgrep is built on; what is written here
/// is the reading of a pattern as a `.gitignore` line (`!`, a leading or trailing `/`, the
/// implied `**/`), a few lines that follow ripgrep's `ignore` crate. That crate's
/// `overrides` module does the same, but would bring its directory walker and its thread
/// pool (`walkdir`, `crossbeam`) into every library user's build for those few lines, and
/// matches relative to one directory where the walk has a root per path given.
#[derive(Debug, Clone)]
pub struct Globs {
    set: GlobSet,
    /// For each pattern of `set`, in order: it excludes, and it matches directories only.
    rules: Vec<(bool, bool)>,
    /// How many patterns select (have no `!`).
    selecting: usize,
}

impl Default for Globs {
    fn default() -> Self {
        Globs {
            set: GlobSet::empty(),
            rules: Vec::new(),
            selecting: 0,
        }
    }
}

/// A pattern that is not a glob, and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad glob \"{pattern}\": {reason}")]
pub struct GlobError {
    /// The pattern, as given.
    pub pattern: String,
    /// Why it is not a glob (the `globset` crate's sentence).
    pub reason: String,
}

impl Globs {
    /// The patterns, in order, each with `true` when it is matched without regard to ASCII
    /// and Unicode case (ripgrep's `--iglob`). ripgrep takes every `--glob` before every
    /// `--iglob` whatever their order on the command line; a caller that wants its behaviour
    /// passes them in that order.
    ///
    /// # Errors
    ///
    /// The first pattern that is not a glob (an unclosed `[` or `{`, a `**` inside a name
    /// such as `a**b`), or an empty one.
    pub fn new<'a>(patterns: impl IntoIterator<Item = (&'a str, bool)>) -> Result<Self, GlobError> {
        let mut set = GlobSetBuilder::new();
        let mut rules = Vec::new();
        let mut selecting = 0;
        for (pattern, case_insensitive) in patterns {
            let bad = |reason: String| GlobError {
                pattern: pattern.to_owned(),
                reason,
            };
            let (exclude, rest) = match pattern.strip_prefix('!') {
                Some(rest) => (true, rest),
                None => (false, pattern),
            };
            let (anchored, rest) = match rest.strip_prefix('/') {
                Some(rest) => (true, rest),
                None => (false, rest),
            };
            let (only_dir, rest) = match rest.strip_suffix('/') {
                // `\/` at the end: an escaped slash, of which ripgrep drops the escape.
                Some(rest) => (true, rest.strip_suffix('\\').unwrap_or(rest)),
                None => (false, rest),
            };
            if rest.is_empty() {
                return Err(bad("an empty pattern matches nothing".to_owned()));
            }
            let mut glob = if anchored || rest.contains('/') || rest.starts_with("**/") {
                rest.to_owned()
            } else {
                format!("**/{rest}")
            };
            // `dir/**` matches what is inside `dir`, not `dir` itself.
            if glob.ends_with("/**") {
                glob.push_str("/*");
            }
            let glob = GlobBuilder::new(&glob)
                .literal_separator(true)
                .backslash_escape(true)
                .case_insensitive(case_insensitive)
                .build()
                .map_err(|error| bad(error.kind().to_string()))?;
            set.add(glob);
            rules.push((exclude, only_dir));
            selecting += usize::from(!exclude);
        }
        let set = set.build().map_err(|error| GlobError {
            pattern: error.glob().unwrap_or_default().to_owned(),
            reason: error.kind().to_string(),
        })?;
        Ok(Globs {
            set,
            rules,
            selecting,
        })
    }

    /// True when there is no pattern: everything is admitted.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// True when the file (or, with `is_dir`, the directory) at `path`, relative to the root
    /// walked, is walked: see [`Globs`] for the rules.
    pub fn admits(&self, path: &Path, is_dir: bool) -> bool {
        if self.is_empty() {
            return true;
        }
        let decided = self
            .set
            .matches(path)
            .into_iter()
            .rev()
            .filter_map(|index| self.rules.get(index))
            .find(|(_, only_dir)| is_dir || !only_dir);
        match decided {
            Some((exclude, _)) => !exclude,
            None => is_dir || self.selecting == 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn globs(patterns: &[&str]) -> Globs {
        Globs::new(patterns.iter().map(|p| (*p, false))).unwrap()
    }

    fn admits(globs: &Globs, path: &str, is_dir: bool) -> bool {
        globs.admits(Path::new(path), is_dir)
    }

    // The expectations of the tests of ripgrep's `ignore::overrides` (crates/ignore/src/
    // overrides.rs), whose semantics these follow: whitelisted or unmatched-but-allowed is
    // admitted, ignored is not.
    #[test]
    fn as_ripgrep_overrides() {
        let g = globs(&["*.foo", "!*.bar"]);
        assert!(admits(&g, "a.foo", false));
        assert!(admits(&g, "a.foo", true));
        assert!(!admits(&g, "a.rs", false));
        assert!(admits(&g, "a.rs", true));
        assert!(!admits(&g, "a.bar", false));
        assert!(!admits(&g, "a.bar", true));

        let g = globs(&["!*.bar"]);
        assert!(admits(&g, "a.rs", false));
        assert!(admits(&g, "a.rs", true));
        assert!(!admits(&g, "a.bar", false));
        assert!(!admits(&g, "a.bar", true));

        let g = globs(&["*.foo", "!*.bar.foo"]);
        assert!(admits(&g, "a.foo", false));
        assert!(!admits(&g, "a.baz", false));
        assert!(!admits(&g, "a.bar.foo", false));

        let g = globs(&["/foo", "bar/*.rs", "baz/**"]);
        assert!(admits(&g, "bar/lib.rs", false));
        assert!(!admits(&g, "bar/wat/lib.rs", false));
        assert!(!admits(&g, "wat/bar/lib.rs", false));
        assert!(admits(&g, "foo", false));
        assert!(!admits(&g, "wat/foo", false));
        assert!(!admits(&g, "baz", false));
        assert!(admits(&g, "baz/a", false));
        assert!(admits(&g, "baz/a/b", false));

        let g = globs(&["*.rs"]);
        assert!(admits(&g, "foo.rs", false));
        assert!(!admits(&g, "foo.c", false));
        assert!(!admits(&g, "foo", false));
        assert!(admits(&g, "foo", true));
        assert!(admits(&g, "src/foo.rs", false));
        assert!(!admits(&g, "src/foo.c", false));
        assert!(admits(&g, "src/foo", true));

        let g = Globs::new([("*.html", true)]).unwrap();
        assert!(admits(&g, "foo.html", false));
        assert!(admits(&g, "foo.HTML", false));
        assert!(!admits(&g, "foo.htm", false));
        assert!(!admits(&g, "foo.HTM", false));
        let g = globs(&["*.html"]);
        assert!(!admits(&g, "foo.HTML", false));
    }

    #[test]
    fn directories_only_and_no_patterns() {
        let g = globs(&["!archive/"]);
        assert!(!admits(&g, "archive", true));
        assert!(admits(&g, "archive", false));
        assert!(admits(&Globs::default(), "anything", false));
    }

    #[test]
    fn bad_globs_are_named() {
        for bad in ["[a", "a{b", "", "!", "/"] {
            let error = Globs::new([(bad, false)]).unwrap_err();
            assert_eq!(error.pattern, bad);
            assert!(error.to_string().starts_with("bad glob"), "{error}");
        }
    }
}
