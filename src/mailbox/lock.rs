//! Locking an mbox file as the mail system does, before writing it back (Unix only).
//!
//! An mbox is one file that other programs write to while it is open here: a delivery agent
//! (Postfix `local`, procmail, Dovecot's LDA) appends new mail to it, a mail client (mutt,
//! Dovecot's IMAP server) rewrites it. They keep out of each other's way with three kinds of
//! advisory lock, and a program that writes an mbox must take all that the others may use:
//!
//! 1. **`fcntl`**: a POSIX record lock (`F_SETLK`, `F_WRLCK`) over the whole file (`l_start`
//!    0, `l_len` 0: to the end, however far the file grows);
//! 2. **`flock`**: a BSD lock (`LOCK_EX`) on the file;
//! 3. **dotlock**: the file `FILE.lock` beside it, created with `O_CREAT | O_EXCL` (the one
//!    lock that works without kernel support; procmail's `lockfile`, mutt's `mutt_dotlock`,
//!    Dovecot's `dotlock`).
//!
//! [`Locker::lock`] takes the three in that order: mutt's `mx_lock_file` takes `fcntl`, then
//! `flock`, then the dotlock; Postfix's `mailbox_delivery_lock` is documented as
//! `fcntl, dotlock`; Debian's policy asks for "fcntl and then dotlock". Dovecot's
//! documentation ("Mbox Locking": `mbox_write_locks = dotlock fcntl` by default) warns that
//! programs that take the same locks in different orders can deadlock. None can here: each
//! attempt takes the three without waiting (`F_SETLK`, `LOCK_NB`, `O_EXCL`), and when one is
//! held by another program, releases those it got and tries again after a pause (as the
//! `dotlock` program of Mail Avenger does with its `flock`), so it never holds one lock while
//! it waits for another, and a writer that takes them in the reverse order gets through.
//!
//! ## How long
//!
//! - The wait for another program's lock is bounded: [`Locker::with_timeout`], 10 seconds by
//!   default, retried every 50 ms. A delivery agent holds its locks for the time of one append
//!   (milliseconds, seconds for a large message on a slow disk), and mutt gives up on a kernel
//!   lock after 5 one-second tries in which the file did not grow; 10 s is twice that. A lock
//!   held longer is a program at work on the mailbox (a client expunging), and the caller had
//!   better report it and leave the file alone than wait on it.
//! - A dotlock whose modification time is more than 300 seconds old is stale (its program
//!   died without removing it) and is removed: [`Locker::with_stale_after`]. 300 s is
//!   Dovecot's `mbox_lock_timeout` (5 minutes, the longest it waits for a lock); Dovecot
//!   overrides a dotlock unchanged for `mbox_dotlock_change_timeout` (2 minutes) and procmail
//!   one older than 1024 s. As Dovecot does, a stale dotlock is only removed while the
//!   kernel locks are held (here always, as they come first), so a live program that takes
//!   kernel locks is not disturbed.
//!
//! ## Replaced files
//!
//! A writer that opened the file before it was replaced (renamed over) would append to the
//! old, unlinked file once it gets its lock. Dovecot (`mbox_file_open_latest`) opens the file
//! again when the path no longer names the one it holds, and so does [`Locker::lock`]: after
//! locking, it compares the path's device and inode with the open file's, and starts again
//! if they differ. Programs that take the dotlock before they open the file (procmail,
//! Postfix's `local` with `dotlock`, Dovecot with its default order) are safe from the start.
//!
//! ## Where the directory is not writable
//!
//! Creating `FILE.lock` needs write permission on FILE's directory (`/var/mail` is often
//! `1777`, or `2775` group `mail` with a set-group-ID `dotlock` helper). Without it,
//! [`Locker::lock`] fails with [`LockError::Dotlock`] and takes no lock: replacing the file by
//! a rename needs the same permission, so nothing that renames could be done there anyway.
//!
//! ## Record locks belong to the process
//!
//! A POSIX record lock is released when the process closes *any* descriptor of the file, not
//! only the one that took it. So while a [`LockedFile`] lives, read the file through
//! [`LockedFile::file`], never by opening it again.

use std::fs::{File, OpenOptions};
use std::io::{self, Write as _};
use std::os::unix::fs::{MetadataExt as _, OpenOptionsExt as _};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use rustix::fs::{FlockOperation, fcntl_lock, flock};

/// How [`Locker::lock`] waits for an mbox: how long, and when a dotlock is stale.
#[derive(Clone, Debug)]
pub struct Locker {
    timeout: Duration,
    stale_after: Duration,
    retry_every: Duration,
}

impl Default for Locker {
    fn default() -> Self {
        Locker::new()
    }
}

/// One of the three locks of an mbox.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Method {
    /// A POSIX record lock over the whole file (`fcntl(F_SETLK)`).
    Fcntl,
    /// A BSD lock on the file (`flock(LOCK_EX)`).
    Flock,
    /// The lock file `FILE.lock`.
    Dotlock,
}

impl std::fmt::Display for Method {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Method::Fcntl => "fcntl",
            Method::Flock => "flock",
            Method::Dotlock => "dotlock",
        })
    }
}

/// Why an mbox could not be locked, or is no longer as it was when it was locked.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LockError {
    /// Another program held a lock for the whole wait.
    #[error("locked by another program ({method} lock) for {} s; try again later", waited.as_secs())]
    Timeout {
        /// The lock that was still held when the wait ended.
        method: Method,
        /// How long the wait was.
        waited: Duration,
    },
    /// Opening, examining or locking the file failed.
    #[error("{0}")]
    Io(#[source] io::Error),
    /// The lock file could not be created (not for being held by another program).
    #[error("cannot create the lock file {}: {source}", path.display())]
    Dotlock {
        /// The lock file.
        path: PathBuf,
        /// What creating it failed with.
        #[source]
        source: io::Error,
    },
    /// The path no longer names a file (in a Maildir, a message moved from `new/` to `cur/`).
    #[error("the file is gone (moved, or removed) since it was read")]
    Gone,
    /// The path names another file, or the file's size or modification time changed, since
    /// it was read.
    #[error("the file changed since it was read")]
    Changed,
}

impl Locker {
    /// The defaults: a wait of at most 10 seconds, and a dotlock stale after 300 seconds.
    pub fn new() -> Self {
        Locker {
            timeout: Duration::from_secs(10),
            stale_after: Duration::from_secs(300),
            retry_every: Duration::from_millis(50),
        }
    }

    /// How long [`lock`](Self::lock) waits for locks that another program holds.
    ///
    /// ### Default
    ///
    /// 10 seconds.
    pub fn with_timeout(mut self, timeout: Duration) -> Self {
        self.timeout = timeout;
        self
    }

    /// How old (by its modification time) a dotlock must be to count as stale and be
    /// removed.
    ///
    /// ### Default
    ///
    /// 300 seconds.
    pub fn with_stale_after(mut self, stale_after: Duration) -> Self {
        self.stale_after = stale_after;
        self
    }

    /// Opens the mbox at `path` and takes its `fcntl`, `flock` and dot locks, in that order,
    /// waiting at most the timeout. The file is opened for reading and writing, or for
    /// reading only when its permissions allow no more (the kernel locks are then shared
    /// ones, which still keep every writer out).
    ///
    /// # Errors
    ///
    /// [`LockError::Timeout`] when another program held a lock for the whole wait;
    /// [`LockError::Changed`] when the path named another file after each locking, for the
    /// whole wait; [`LockError::Dotlock`] when `FILE.lock` cannot be created (see the module's docs);
    /// [`LockError::Io`] when the file cannot be opened or locked.
    pub fn lock(&self, path: &Path) -> Result<LockedFile, LockError> {
        let started = Instant::now();
        loop {
            let (file, exclusive) = open(path).map_err(LockError::Io)?;
            match self.try_lock(path, &file, exclusive)? {
                Ok(dotlock) => {
                    // The path may name another file by now (replaced while this waited):
                    // lock that one instead.
                    let locked = Snapshot::of_file(&file).map_err(LockError::Io)?;
                    match Snapshot::of_path(path) {
                        Ok(now) if now.same_file(&locked) => {
                            return Ok(LockedFile {
                                file,
                                path: path.to_path_buf(),
                                dotlock: Some(dotlock),
                                snapshot: locked,
                            });
                        }
                        Ok(_) => {}
                        Err(error) => return Err(LockError::Io(error)),
                    }
                    drop(dotlock);
                    drop(file);
                    // Replaced again and again: some program keeps renaming files over it.
                    if started.elapsed() >= self.timeout {
                        return Err(LockError::Changed);
                    }
                }
                Err(method) => {
                    drop(file);
                    if started.elapsed() >= self.timeout {
                        return Err(LockError::Timeout {
                            method,
                            waited: self.timeout,
                        });
                    }
                }
            }
            std::thread::sleep(self.retry_every);
        }
    }

    /// One attempt at the three locks, none waited for: the dotlock taken (and the kernel
    /// locks held on `file`), or the lock that another program holds (with every lock this
    /// attempt took released).
    fn try_lock(
        &self,
        path: &Path,
        file: &File,
        exclusive: bool,
    ) -> Result<Result<Dotlock, Method>, LockError> {
        let (fcntl_op, flock_op) = if exclusive {
            (
                FlockOperation::NonBlockingLockExclusive,
                FlockOperation::NonBlockingLockExclusive,
            )
        } else {
            (
                FlockOperation::NonBlockingLockShared,
                FlockOperation::NonBlockingLockShared,
            )
        };
        if let Err(error) = fcntl_lock(file, fcntl_op) {
            return busy_or_error(error, Method::Fcntl);
        }
        if let Err(error) = flock(file, flock_op) {
            let _ = fcntl_lock(file, FlockOperation::NonBlockingUnlock);
            return busy_or_error(error, Method::Flock);
        }
        match Dotlock::create(path, self.stale_after) {
            Ok(Some(dotlock)) => Ok(Ok(dotlock)),
            Ok(None) => {
                let _ = flock(file, FlockOperation::NonBlockingUnlock);
                let _ = fcntl_lock(file, FlockOperation::NonBlockingUnlock);
                Ok(Err(Method::Dotlock))
            }
            Err(error) => Err(error),
        }
    }
}

/// Opens `path` for reading and writing, or for reading only where that is refused: the file
/// and whether it was opened for writing (an exclusive `fcntl` lock needs it).
fn open(path: &Path) -> io::Result<(File, bool)> {
    match OpenOptions::new().read(true).write(true).open(path) {
        Ok(file) => Ok((file, true)),
        Err(error) if error.kind() == io::ErrorKind::PermissionDenied => {
            Ok((File::open(path)?, false))
        }
        Err(error) => Err(error),
    }
}

/// A kernel lock refused because another program holds it, or an error.
fn busy_or_error<T>(
    error: rustix::io::Errno,
    method: Method,
) -> Result<Result<T, Method>, LockError> {
    if error == rustix::io::Errno::AGAIN
        || error == rustix::io::Errno::ACCESS
        || error == rustix::io::Errno::WOULDBLOCK
    {
        Ok(Err(method))
    } else {
        Err(LockError::Io(io::Error::other(format!(
            "{method} lock: {}",
            io::Error::from(error)
        ))))
    }
}

/// The lock file `FILE.lock` this process created, removed on drop.
#[derive(Debug)]
struct Dotlock {
    path: PathBuf,
    /// Device and inode of the lock file, so that drop removes this one and no other.
    id: (u64, u64),
}

impl Dotlock {
    /// The path of the dotlock of `path`: `path` with `.lock` appended to its name.
    fn path_of(path: &Path) -> PathBuf {
        let mut name = path.as_os_str().to_owned();
        name.push(".lock");
        PathBuf::from(name)
    }

    /// Creates the dotlock of `path`, removing a stale one first: `None` when another
    /// program holds it.
    fn create(path: &Path, stale_after: Duration) -> Result<Option<Dotlock>, LockError> {
        let lock_path = Self::path_of(path);
        for _ in 0..2 {
            let created = OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o644)
                .open(&lock_path);
            match created {
                Ok(mut file) => {
                    // The owner's process ID, as procmail and Dovecot write it: for a human
                    // wondering who holds the lock.
                    let _ = writeln!(file, "{}", std::process::id());
                    let metadata = file.metadata().map_err(LockError::Io)?;
                    return Ok(Some(Dotlock {
                        path: lock_path,
                        id: (metadata.dev(), metadata.ino()),
                    }));
                }
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {
                    if !is_stale(&lock_path, stale_after) {
                        return Ok(None);
                    }
                    match std::fs::remove_file(&lock_path) {
                        Ok(()) => {}
                        Err(error) if error.kind() == io::ErrorKind::NotFound => {}
                        Err(source) => {
                            return Err(LockError::Dotlock {
                                path: lock_path,
                                source,
                            });
                        }
                    }
                }
                Err(source) => {
                    return Err(LockError::Dotlock {
                        path: lock_path,
                        source,
                    });
                }
            }
        }
        Ok(None)
    }
}

/// A dotlock last modified more than `stale_after` ago (or one that vanished meanwhile).
fn is_stale(lock_path: &Path, stale_after: Duration) -> bool {
    match std::fs::metadata(lock_path).and_then(|m| m.modified()) {
        Ok(modified) => SystemTime::now()
            .duration_since(modified)
            .is_ok_and(|age| age > stale_after),
        Err(_) => true,
    }
}

impl Drop for Dotlock {
    fn drop(&mut self) {
        // Remove the lock file only if it is still the one created here (a lock broken as
        // stale by another program and taken again is that program's).
        if std::fs::metadata(&self.path).is_ok_and(|m| (m.dev(), m.ino()) == self.id) {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// What [`LockedFile::check_unchanged`] compares: device, inode, size in bytes and
/// modification time.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Snapshot {
    dev: u64,
    ino: u64,
    size: u64,
    mtime: (i64, i64),
}

impl Snapshot {
    fn of(metadata: &std::fs::Metadata) -> Self {
        Snapshot {
            dev: metadata.dev(),
            ino: metadata.ino(),
            size: metadata.size(),
            mtime: (metadata.mtime(), metadata.mtime_nsec()),
        }
    }

    fn of_file(file: &File) -> io::Result<Self> {
        Ok(Self::of(&file.metadata()?))
    }

    fn of_path(path: &Path) -> io::Result<Self> {
        Ok(Self::of(&std::fs::metadata(path)?))
    }

    fn same_file(&self, other: &Snapshot) -> bool {
        (self.dev, self.ino) == (other.dev, other.ino)
    }
}

/// An mbox file locked by [`Locker::lock`]; dropping it removes the dotlock and closes the
/// file, which releases the kernel locks.
#[derive(Debug)]
pub struct LockedFile {
    file: File,
    path: PathBuf,
    dotlock: Option<Dotlock>,
    snapshot: Snapshot,
}

impl Drop for LockedFile {
    fn drop(&mut self) {
        // The locks are released in the reverse of the order they were taken: the dotlock
        // here, then the kernel locks as the file closes.
        drop(self.dotlock.take());
    }
}

impl LockedFile {
    /// The open, locked file: read it through this (`&File` is [`io::Read`] and
    /// [`io::Seek`]), never by opening the path again, whose closing would release the
    /// `fcntl` lock.
    pub fn file(&self) -> &File {
        &self.file
    }

    /// The path the file was locked by.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Takes the file's present size and modification time as the ones
    /// [`check_unchanged`](Self::check_unchanged) compares with (done by
    /// [`Locker::lock`]; again before the file is read again).
    ///
    /// # Errors
    ///
    /// [`LockError::Io`] when the file cannot be examined.
    pub fn refresh(&mut self) -> Result<(), LockError> {
        self.snapshot = Snapshot::of_file(&self.file).map_err(LockError::Io)?;
        Ok(())
    }

    /// Checks, before the file is replaced, that its path still names the locked file and
    /// that the file's size and modification time are as they were when it was locked (or
    /// [`refresh`](Self::refresh)ed): a program that ignores the locks may have written to
    /// it, or a mail client may have replaced it.
    ///
    /// # Errors
    ///
    /// [`LockError::Gone`] when the path names no file; [`LockError::Changed`] when it names
    /// another, or the size or modification time changed; [`LockError::Io`] when the file
    /// cannot be examined.
    pub fn check_unchanged(&self) -> Result<(), LockError> {
        check(&self.path, &self.file, &self.snapshot)
    }
}

/// The check of [`LockedFile::check_unchanged`], for a file read without a lock too.
fn check(path: &Path, file: &File, then: &Snapshot) -> Result<(), LockError> {
    let at_path = match Snapshot::of_path(path) {
        Ok(snapshot) => snapshot,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Err(LockError::Gone),
        Err(error) => return Err(LockError::Io(error)),
    };
    let now = Snapshot::of_file(file).map_err(LockError::Io)?;
    if at_path != now || now != *then {
        return Err(LockError::Changed);
    }
    Ok(())
}

/// A file read without a lock (a Maildir message, a file of one message), checked before it
/// is replaced as a [`LockedFile`] is.
#[derive(Debug)]
pub struct OpenedFile {
    file: File,
    path: PathBuf,
    snapshot: Snapshot,
}

impl OpenedFile {
    /// Opens `path` for reading and notes its device, inode, size and modification time.
    ///
    /// # Errors
    ///
    /// The error of opening or examining the file.
    pub fn open(path: &Path) -> io::Result<Self> {
        let file = File::open(path)?;
        let snapshot = Snapshot::of_file(&file)?;
        Ok(OpenedFile {
            file,
            path: path.to_path_buf(),
            snapshot,
        })
    }

    /// The open file.
    pub fn file(&self) -> &File {
        &self.file
    }

    /// As [`LockedFile::check_unchanged`]: the path still names this file, unchanged. A
    /// Maildir message that was moved from `new/` to `cur/` (or renamed for its flags) while
    /// it was read is [`LockError::Gone`]: it must not be written back under its old name,
    /// which would deliver it twice.
    ///
    /// # Errors
    ///
    /// As [`LockedFile::check_unchanged`].
    pub fn check_unchanged(&self) -> Result<(), LockError> {
        check(&self.path, &self.file, &self.snapshot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("mimebase-lock-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn lock_creates_and_removes_the_dotlock() {
        let dir = dir("dotlock");
        let mbox = dir.join("inbox");
        std::fs::write(&mbox, b"From a\n\nbody\n").unwrap();
        let locked = Locker::new().lock(&mbox).unwrap();
        assert!(dir.join("inbox.lock").exists());
        // A second locker meets the `flock` lock (held by another open file description;
        // the `fcntl` lock is this process's own, which it would not see) and gives up.
        let second = Locker::new()
            .with_timeout(Duration::from_millis(120))
            .lock(&mbox);
        assert!(matches!(
            second,
            Err(LockError::Timeout {
                method: Method::Flock,
                ..
            })
        ));
        drop(locked);
        assert!(!dir.join("inbox.lock").exists());
    }

    #[test]
    fn check_sees_an_append_and_a_replacement() {
        let dir = dir("check");
        let mbox = dir.join("inbox");
        std::fs::write(&mbox, b"From a\n\nbody\n").unwrap();
        let mut locked = Locker::new().lock(&mbox).unwrap();
        locked.check_unchanged().unwrap();
        // A writer that ignores the locks (they are advisory) appends.
        let mut other = OpenOptions::new().append(true).open(&mbox).unwrap();
        other.write_all(b"\nFrom b\n\nmore\n").unwrap();
        assert!(matches!(locked.check_unchanged(), Err(LockError::Changed)));
        locked.refresh().unwrap();
        locked.check_unchanged().unwrap();
        // Another program renames a file over it.
        std::fs::write(dir.join("new"), b"From c\n").unwrap();
        std::fs::rename(dir.join("new"), &mbox).unwrap();
        assert!(matches!(locked.check_unchanged(), Err(LockError::Changed)));
        std::fs::remove_file(&mbox).unwrap();
        assert!(matches!(locked.check_unchanged(), Err(LockError::Gone)));
    }

    #[test]
    fn a_maildir_message_moved_to_cur_is_gone() {
        let dir = dir("maildir");
        for sub in ["new", "cur", "tmp"] {
            std::fs::create_dir(dir.join(sub)).unwrap();
        }
        let new = dir.join("new/1.host");
        std::fs::write(&new, b"Subject: x\n\nbody\n").unwrap();
        let opened = OpenedFile::open(&new).unwrap();
        opened.check_unchanged().unwrap();
        std::fs::rename(&new, dir.join("cur/1.host:2,S")).unwrap();
        assert!(matches!(opened.check_unchanged(), Err(LockError::Gone)));
    }

    #[test]
    fn a_stale_dotlock_is_broken_and_a_fresh_one_is_not() {
        let dir = dir("stale");
        let mbox = dir.join("inbox");
        std::fs::write(&mbox, b"From a\n\nbody\n").unwrap();
        let lock = dir.join("inbox.lock");
        std::fs::write(&lock, b"").unwrap();
        let fresh = Locker::new()
            .with_timeout(Duration::from_millis(100))
            .lock(&mbox);
        assert!(matches!(fresh, Err(LockError::Timeout { .. })));
        assert!(lock.exists());
        File::options()
            .write(true)
            .open(&lock)
            .unwrap()
            .set_modified(SystemTime::now() - Duration::from_secs(301))
            .unwrap();
        let locked = Locker::new().lock(&mbox).unwrap();
        // The lock file now is this process's, written anew.
        assert_eq!(
            std::fs::read_to_string(&lock).unwrap(),
            format!("{}\n", std::process::id())
        );
        drop(locked);
        assert!(!lock.exists());
    }
}
