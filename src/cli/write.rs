//! Writing files so that no mail is lost or damaged: every file is written to a temporary
//! name in its directory (`.mimebase-XXXXXX.tmp`) and renamed when complete; a file that is
//! replaced keeps its owner, group, mode and extended attributes (POSIX ACLs are extended
//! attributes on Linux); a file that is not regular (a device, a FIFO) is written through,
//! never replaced; and on SIGINT, SIGTERM or SIGHUP the files this run wrote are removed
//! before the process dies of the signal.
//!
//! # Signals
//!
//! [`remove_on_signal`] starts a thread that waits for SIGINT, SIGTERM and SIGHUP. When one
//! comes, it removes every path registered (temporary files, and the files and directories
//! `extract` has written so far), then restores the signal's default action and raises it
//! again, so that the process ends killed by that signal, as a shell expects of a command it
//! interrupted (it shows the status as 128 + the signal's number: 130 for SIGINT, 143 for
//! SIGTERM); should that fail, the process exits with that status. A rename happens with
//! the registry locked, and the thread keeps it locked until the process ends, so a signal
//! leaves either the old file or the new one whole, never both and never neither.

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, Once, PoisonError};

/// What the signal thread removes: files, and directories (removed only when empty), in the
/// reverse order of their registration.
static WRITTEN: Mutex<Registry> = Mutex::new(Registry {
    next: 0,
    entries: BTreeMap::new(),
});

/// The paths this run wrote, by the number of their registration: a file is forgotten by its
/// number, in time logarithmic in their count (`extract` registers a file for each part).
#[derive(Debug)]
struct Registry {
    /// The number of the next registration.
    next: u64,
    entries: BTreeMap<u64, Written>,
}

impl Registry {
    /// Registers `entry`; its number.
    fn push(&mut self, entry: Written) -> u64 {
        let number = self.next;
        self.next += 1;
        self.entries.insert(number, entry);
        number
    }

    /// Forgets the entry registered as `number`, if it still is.
    fn forget(&mut self, number: u64) {
        self.entries.remove(&number);
    }
}

/// A path this run wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Written {
    /// A file (a temporary one, or one `extract` has renamed into place).
    File(PathBuf),
    /// A directory this run created.
    Dir(PathBuf),
}

fn written() -> MutexGuard<'static, Registry> {
    WRITTEN.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Removes the registered paths, last first: a file, or a directory when it is empty. Errors
/// are passed over: a path may already be gone.
fn remove(registry: &Registry) {
    for entry in registry.entries.values().rev() {
        let _ = match entry {
            Written::File(path) => fs::remove_file(path),
            Written::Dir(path) => fs::remove_dir(path),
        };
    }
}

/// Starts, once, the thread that removes what this run wrote on SIGINT, SIGTERM or SIGHUP
/// (see the module's docs).
///
/// # Errors
///
/// When the signal handlers cannot be installed.
pub(crate) fn remove_on_signal() -> io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    static INSTALLED: Once = Once::new();
    let mut result = Ok(());
    INSTALLED.call_once(|| {
        result = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]).and_then(
            |mut signals| {
                std::thread::Builder::new()
                    .name("signals".to_owned())
                    .spawn(move || {
                        if let Some(signal) = signals.forever().next() {
                            // Held until the process ends: no rename after this.
                            let entries = written();
                            remove(&entries);
                            let _ = signal_hook::low_level::emulate_default_handler(signal);
                            std::process::exit(128 + signal);
                        }
                    })
                    .map(drop)
            },
        );
    });
    result
}

/// Creates the directory `path` and registers it for removal on a signal or by
/// [`remove_all`] (when empty), with the registry locked, so that no signal comes between.
///
/// # Errors
///
/// The error of [`fs::create_dir`].
pub(crate) fn create_dir(path: &Path) -> io::Result<()> {
    let mut entries = written();
    fs::create_dir(path)?;
    entries.push(Written::Dir(path.to_path_buf()));
    Ok(())
}

/// Forgets every registered path: the run is complete, what it wrote stays.
pub(crate) fn keep_all() {
    written().entries.clear();
}

/// Removes every registered path (the run failed) and forgets them; true when there was one
/// (the run had written something).
pub(crate) fn remove_all() -> bool {
    let mut registry = written();
    let any = !registry.entries.is_empty();
    remove(&registry);
    registry.entries.clear();
    any
}

/// A registered file, forgotten when dropped (for a temporary file, the
/// [`tempfile::TempPath`] beside it removes the file itself).
pub(crate) struct Registration(u64);

impl Registration {
    /// Registers the dotlock `PATH.lock` of the mbox `path`, locked by this process, for
    /// removal on a signal: when that file holds this process's ID (as the locker writes it),
    /// else `None` (no dotlock was taken).
    pub(crate) fn dotlock_of(path: &Path) -> Option<Self> {
        let mut name = path.as_os_str().to_owned();
        name.push(".lock");
        let dotlock = PathBuf::from(name);
        let held = fs::read_to_string(&dotlock)
            .is_ok_and(|text| text.trim() == std::process::id().to_string());
        held.then(|| Registration(written().push(Written::File(dotlock))))
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        written().forget(self.0);
    }
}

/// The directory a file is written in: its parent, or `.` for a bare name.
fn directory_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

/// A new file being written under a temporary name in the directory of `path`, registered
/// for removal on a signal, then renamed to `path` when complete. Dropped without
/// [`commit`](Self::commit) (or [`close`](Self::close) and a commit), it is removed.
pub(crate) struct Temporary {
    path: PathBuf,
    file: io::BufWriter<File>,
    temporary: tempfile::TempPath,
    registration: Registration,
}

impl Temporary {
    /// A temporary file for `path`, its writes buffered in `buffer` bytes, with the mode of a
    /// file created anew (`0666` less the umask), or, with `like` (the metadata of the regular
    /// file it will replace), that file's owner, group, mode (`07777` bits) and extended
    /// attributes.
    ///
    /// # Errors
    ///
    /// When the file cannot be created, or `like`'s owner, group, mode or an extended
    /// attribute cannot be given to it (as a user other than root, a file owned by someone
    /// else cannot be replaced: its owner would change).
    pub(crate) fn new(path: &Path, like: Option<&fs::Metadata>, buffer: usize) -> io::Result<Self> {
        // Created and registered with the registry locked, so that no signal comes between.
        let mut entries = written();
        let file = tempfile::Builder::new()
            .prefix(".mimebase-")
            .suffix(".tmp")
            .permissions(fs::Permissions::from_mode(0o666))
            .tempfile_in(directory_of(path))
            .map_err(without_temporary_name)?;
        let registration = Registration(entries.push(Written::File(file.path().to_path_buf())));
        drop(entries);
        // The file apart from its path: the errors of its writes then say what failed
        // without naming the temporary file (the caller names the file it writes).
        let (file, temporary) = file.into_parts();
        if let Some(like) = like {
            keep_owner_and_mode(path, like, &file)?;
        }
        Ok(Temporary {
            path: path.to_path_buf(),
            file: io::BufWriter::with_capacity(buffer, file),
            temporary,
            registration,
        })
    }

    /// Where to write the file's bytes.
    pub(crate) fn out(&mut self) -> &mut dyn Write {
        &mut self.file
    }

    /// Flushes the file to the disk and, if `check` (just before the rename: `--in-place`
    /// checks there that the file did not change since it was read) succeeds, renames it over
    /// `path`, so that a reader of `path` sees the old file or the whole new one, never a
    /// part.
    ///
    /// # Errors
    ///
    /// When a write, the flush, `check` or the rename fails; the temporary file is then
    /// removed.
    pub(crate) fn commit(self, check: impl FnOnce() -> io::Result<()>) -> io::Result<()> {
        let Temporary {
            path,
            file,
            temporary: temporary_path,
            registration,
        } = self;
        let file = file.into_inner().map_err(io::IntoInnerError::into_error)?;
        file.sync_all()?;
        drop(file);
        // The registry stays locked across the rename: a signal removes the temporary file
        // before it or finds it gone after it.
        let mut entries = written();
        check()?;
        let renamed = temporary_path.persist(&path);
        entries.forget(registration.0);
        renamed.map_err(|error| error.error)
    }

    /// Flushes and closes the file, to be renamed later: many files can wait so without
    /// holding a file descriptor each.
    ///
    /// # Errors
    ///
    /// The error of a write; the temporary file is then removed.
    pub(crate) fn close(self) -> io::Result<Closed> {
        let Temporary {
            path,
            file,
            temporary,
            registration,
        } = self;
        drop(file.into_inner().map_err(io::IntoInnerError::into_error)?);
        Ok(Closed {
            path,
            file: temporary,
            registration,
        })
    }
}

/// A temporary file written and closed, waiting to be renamed; removed when dropped. Once
/// renamed, it stays registered as written by this run (removed on a signal or by
/// [`remove_all`], until [`keep_all`]).
pub(crate) struct Closed {
    path: PathBuf,
    file: tempfile::TempPath,
    registration: Registration,
}

impl Closed {
    /// Renames the file to its path unless something exists there (without flushing it to
    /// the disk: `extract` writes many files, and what it writes can be written again).
    ///
    /// # Errors
    ///
    /// [`io::ErrorKind::AlreadyExists`] when the path exists, or the error of the rename;
    /// the temporary file is then removed.
    pub(crate) fn commit_new(self) -> io::Result<()> {
        self.finish(false)
    }

    /// Renames the file to its path, replacing what is there (a file, or a symbolic link,
    /// which is replaced, not written through), without flushing it to the disk.
    ///
    /// # Errors
    ///
    /// The error of the rename; the temporary file is then removed.
    pub(crate) fn commit_replacing(self) -> io::Result<()> {
        self.finish(true)
    }

    fn finish(self, replace: bool) -> io::Result<()> {
        let Closed {
            path,
            file,
            registration,
        } = self;
        // Renamed and registered under its name with the registry locked, so that a signal
        // finds one name or the other.
        let mut entries = written();
        let renamed = if replace {
            file.persist(&path)
        } else {
            file.persist_noclobber(&path)
        };
        entries.forget(registration.0);
        renamed.map_err(|error| error.error)?;
        entries.push(Written::File(path));
        Ok(())
    }
}

/// `error` without the ` at path "…"` that tempfile appends to it, naming the temporary
/// file: the caller names the file it was writing, and the temporary one does not exist.
fn without_temporary_name(error: io::Error) -> io::Error {
    let text = error.to_string();
    match text.rsplit_once(" at path ") {
        Some((message, _)) => io::Error::new(error.kind(), message.to_owned()),
        None => error,
    }
}

/// Gives `file` (new, empty) the owner, group, extended attributes and mode of `like`, the
/// metadata of `path`.
fn keep_owner_and_mode(path: &Path, like: &fs::Metadata, file: &File) -> io::Result<()> {
    let ours = file.metadata()?;
    if (ours.uid(), ours.gid()) != (like.uid(), like.gid()) {
        std::os::unix::fs::fchown(file, Some(like.uid()), Some(like.gid())).map_err(|error| {
            io::Error::new(
                error.kind(),
                format!(
                    "cannot give the new file the owner and group of the old one \
                     (uid {}, gid {}): {error}",
                    like.uid(),
                    like.gid()
                ),
            )
        })?;
    }
    copy_extended_attributes(path, file)?;
    // After the owner: changing the owner clears the set-user-ID and set-group-ID bits.
    file.set_permissions(fs::Permissions::from_mode(like.mode() & 0o7777))
}

/// Copies every extended attribute of `path` that this process can read (POSIX ACLs among
/// them) to `file`. A file system without extended attributes has none to copy.
fn copy_extended_attributes(path: &Path, file: &File) -> io::Result<()> {
    use xattr::FileExt as _;
    let names = match xattr::list_deref(path) {
        Ok(names) => names,
        Err(error) if error.kind() == io::ErrorKind::Unsupported => return Ok(()),
        Err(error) => return Err(error),
    };
    for name in names {
        let Some(value) = xattr::get_deref(path, &name)? else {
            continue;
        };
        file.set_xattr(&name, &value).map_err(|error| {
            io::Error::new(
                error.kind(),
                format!(
                    "cannot copy the extended attribute {} to the new file: {error}",
                    name.to_string_lossy()
                ),
            )
        })?;
    }
    Ok(())
}

/// Where `-o PATH` writes.
pub(crate) enum Destination {
    /// A new file at this path, or one replacing the regular file there, whose owner, group,
    /// mode and extended attributes it keeps (a symbolic link is followed: the file it names
    /// is replaced).
    Replace(PathBuf, Option<fs::Metadata>),
    /// Not a regular file (a character device such as `/dev/null`, a FIFO, a socket): opened
    /// for writing and written to, as the shell's `>` does, never replaced.
    Through(PathBuf),
}

impl Destination {
    /// What `path` is, as `-o` writes it.
    ///
    /// # Errors
    ///
    /// When `path` exists but cannot be examined, or its link cannot be followed.
    pub(crate) fn of(path: &Path) -> io::Result<Self> {
        match fs::metadata(path) {
            Ok(metadata) if metadata.is_file() => Ok(Destination::Replace(
                fs::canonicalize(path)?,
                Some(metadata),
            )),
            Ok(_) => Ok(Destination::Through(path.to_path_buf())),
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                Ok(Destination::Replace(path.to_path_buf(), None))
            }
            Err(error) => Err(error),
        }
    }

    /// Opens the destination for writing.
    ///
    /// # Errors
    ///
    /// When it cannot be opened, or its temporary file cannot be made.
    pub(crate) fn open(&self) -> io::Result<Output> {
        match self {
            Destination::Replace(path, like) => {
                Temporary::new(path, like.as_ref(), 256 << 10).map(Output::Temporary)
            }
            Destination::Through(path) => {
                let file = OpenOptions::new().write(true).truncate(true).open(path)?;
                Ok(Output::Through(io::BufWriter::with_capacity(
                    256 << 10,
                    file,
                )))
            }
        }
    }
}

/// A destination opened for writing.
pub(crate) enum Output {
    /// A temporary file, renamed when complete.
    Temporary(Temporary),
    /// A file that is not regular, written through.
    Through(io::BufWriter<File>),
}

impl Output {
    /// Where to write.
    pub(crate) fn out(&mut self) -> &mut dyn Write {
        match self {
            Output::Temporary(file) => file.out(),
            Output::Through(file) => file,
        }
    }

    /// Completes the output: renames the temporary file if `check` succeeds (see
    /// [`Temporary::commit`]), or flushes what is written through.
    ///
    /// # Errors
    ///
    /// The error of a write, a flush, `check` or the rename.
    pub(crate) fn commit(self, check: impl FnOnce() -> io::Result<()>) -> io::Result<()> {
        match self {
            Output::Temporary(file) => file.commit(check),
            Output::Through(mut file) => file.flush(),
        }
    }
}

/// A path's kind in words, for a refusal.
pub(crate) fn kind_of(metadata: &fs::Metadata) -> &'static str {
    mimebase::mailbox::kind_of(metadata.file_type())
}
