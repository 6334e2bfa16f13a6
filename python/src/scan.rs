//! `mimebase.scan`: the library's batch engine ([`mimebase::scan::Batch`]) over files,
//! directory trees, Maildirs and mbox files, run with the GIL released, one [`Record`] per
//! message in input order: the `mimebase scan` NDJSON record as a read-only mapping whose
//! values are made into Python objects when they are first read ([`records`](crate::records)).
//!
//! The engine does the threads, the order and the bounded read-ahead; this face turns paths and
//! keyword arguments into a batch, and records into Python objects.

use std::path::PathBuf;
use std::sync::{Mutex, MutexGuard, PoisonError};

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyString};

use mimebase::mailbox::{Roots, Walker};
use mimebase::scan::{Batch, Records, ScanLine, Scanned};
use mimebase::{Profile, Resolver};

use crate::records::Record;
use crate::{Limits, args, options};

/// Reads and analyzes every message found under ``paths`` and yields one ``Record`` per
/// message, in input order (whatever ``jobs`` is), lazily.
///
/// ``paths``: a path (``str``, ``bytes`` or ``os.PathLike``; on POSIX systems the bytes
/// ``os.fsencode`` gives, so a name that is not UTF-8 names its file) or an iterable of them,
/// read as the ``mimebase scan`` command reads its arguments: a file is one message, or an mbox file
/// when its first bytes are ``From ``; a directory is walked recursively in byte order of
/// names; a Maildir gives ``cur/`` then ``new/`` (never ``tmp/``), then its Maildir++
/// folders. A symbolic link to nothing found in a directory is passed over. The iterable is
/// read whole when ``scan`` is called; the files are read as the iteration goes.
///
/// ``jobs``: how many messages are analyzed at once: the thread that iterates (while it waits
/// for the next record) and up to ``jobs - 1`` threads of the engine; ``None`` means the number
/// of available cores, and a larger number is lowered to it (threads beyond the cores would
/// only take turns). With more than one job, up to 16 inputs per job are read and analyzed
/// ahead of the record yielded next. ``jobs=1`` starts no thread: each message is read when the
/// next record is asked for.
///
/// ``max_message_bytes``: a message larger than this (in bytes) is not read into memory; it
/// yields an error record of kind ``"too_large"``. The header and decoded-size limits of the
/// analysis follow it.
///
/// ``retrieval_url``, ``resolver``, ``profile``, ``max_urls``, ``text_links``, ``file_links``: as for
/// ``analyze``.
///
/// Each ``Record`` is one line of ``mimebase scan``'s output, as documented in the library's
/// ``scan`` module, as a read-only mapping (``collections.abc.Mapping``): ``{"type":
/// "message", "path", "format", "offset", "length", "message_id", "complete", "entities",
/// "urls", "diagnostics"}`` for a message (``offset`` and ``length`` in bytes, 0-based, in the file:
/// for an mbox file the range of the message, its ``From `` line included), or ``{"type":
/// "error", "path", "format", "offset", "length", "kind", "message"}`` for an input that could
/// not be read (``kind``: ``"read"``, ``"too_large"``, ``"internal"``). A path that is not
/// UTF-8 (a Latin-1 file name on Linux) is a JSON string in ``"path"`` with U+FFFD for each byte
/// that is not, so two files can read alike there; such a record also has ``"path_bytes"``,
/// the path's bytes as a list of ints 0-255, after ``"path"``: ``bytes(record["path_bytes"])``
/// opens the file (``os.fsdecode`` of it is the ``str`` that ``os.listdir`` gives). A gzip,
/// bzip2, xz or zstd file is read decompressed (told by its first bytes); its records have
/// ``"compression"`` (``"gzip"``, ``"bzip2"``, ``"xz"``, ``"zstd"``) after ``"path"``, and their
/// ``offset`` and ``length`` count decompressed bytes; records of plain files have no such
/// key. A record equals the
/// ``dict`` that ``json.loads`` makes of the command's line; ``record.to_dict()`` (or
/// ``dict(record)``) is such a ``dict``, and ``record.to_json()`` the line itself. Unreadable
/// inputs never raise.
///
/// Raises ``ValueError`` for ``jobs`` below 1, a negative ``max_message_bytes``,
/// ``max_urls``, ``max_depth``, ``max_entities`` or ``max_encoded_levels``, or an unknown ``resolver`` or ``profile``, and ``TypeError`` for an argument
/// of the wrong type; each message starts with the argument's name.
#[pyfunction]
#[pyo3(signature = (
    paths,
    *,
    jobs = None,
    retrieval_url = None,
    resolver = Resolver::Rfc1808,
    profile = Profile::Default,
    max_message_bytes = 67_108_864,
    max_urls = 100_000,
    max_depth = 100,
    max_entities = None,
    max_encoded_levels = 4,
    text_links = true,
    file_links = true,
),
text_signature = "(paths, *, jobs=None, retrieval_url=None, resolver='rfc1808', profile='default', max_message_bytes=67108864, max_urls=100000, max_depth=100, max_entities=None, max_encoded_levels=4, text_links=True, file_links=True)"
)]
#[allow(clippy::too_many_arguments)] // each is a keyword argument of the Python function
pub(crate) fn scan(
    paths: &Bound<'_, PyAny>,
    #[pyo3(from_py_with = args::jobs)] jobs: Option<usize>,
    #[pyo3(from_py_with = args::retrieval_url)] retrieval_url: Option<String>,
    #[pyo3(from_py_with = args::resolver)] resolver: Resolver,
    #[pyo3(from_py_with = args::profile)] profile: Profile,
    #[pyo3(from_py_with = args::max_message_bytes)] max_message_bytes: u64,
    #[pyo3(from_py_with = args::max_urls)] max_urls: usize,
    #[pyo3(from_py_with = args::max_depth)] max_depth: usize,
    #[pyo3(from_py_with = args::max_entities)] max_entities: Option<usize>,
    #[pyo3(from_py_with = args::max_encoded_levels)] max_encoded_levels: usize,
    #[pyo3(from_py_with = args::text_links)] text_links: bool,
    #[pyo3(from_py_with = args::file_links)] file_links: bool,
) -> PyResult<Scan> {
    let limits = Limits {
        max_urls,
        max_depth,
        max_entities,
        max_encoded_levels,
    };
    let options = limits
        .apply(options(retrieval_url, resolver, profile))
        .with_text_links(text_links)
        .with_file_links(file_links);
    let paths = path_list(paths)?;
    let mut batch = Batch::new(Walker::new(Roots::new(paths, None)), options)
        .with_max_message_bytes(max_message_bytes);
    if let Some(jobs) = jobs {
        batch = batch.with_jobs(jobs);
    }
    // The record itself is the item: it becomes Python objects on the iterating thread, with
    // the GIL, and only as far as it is read.
    let records = batch.records(|line: ScanLine<'static>, _| line);
    Ok(Scan {
        records: Mutex::new(Some(records)),
    })
}

/// `paths` as a list: one path, or every item of an iterable.
fn path_list(paths: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    if paths.is_instance_of::<PyString>()
        || paths.is_instance_of::<PyBytes>()
        || paths.hasattr("__fspath__")?
    {
        return Ok(vec![one_path(paths)?]);
    }
    let Ok(items) = paths.try_iter() else {
        return Err(PyTypeError::new_err(format!(
            "paths: expected a path (str, bytes or os.PathLike) or an iterable of them, got {}",
            args::type_name(paths)
        )));
    };
    items.map(|path| one_path(&path?)).collect()
}

/// One path (`str`, `bytes` or `os.PathLike` of either), as `open` reads it: on POSIX systems
/// the bytes `os.fsencode` gives, so that a name that is not UTF-8 (`str` with surrogate
/// escapes, as `os.listdir` gives it, or `bytes`) names its file.
fn one_path(path: &Bound<'_, PyAny>) -> PyResult<PathBuf> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        static FSENCODE: PyOnceLock<Py<PyAny>> = PyOnceLock::new();
        let fsencode = FSENCODE.import(path.py(), "os", "fsencode")?;
        let encoded = fsencode.call1((path,)).map_err(|error| {
            PyTypeError::new_err(format!(
                "paths: expected str, bytes or os.PathLike, got {} ({error})",
                args::type_name(path)
            ))
        })?;
        let bytes = encoded.cast::<PyBytes>()?;
        Ok(PathBuf::from(std::ffi::OsStr::from_bytes(bytes.as_bytes())))
    }
    #[cfg(not(unix))]
    {
        path.extract().map_err(|error| {
            PyTypeError::new_err(format!(
                "paths: expected str, bytes or os.PathLike, got {} ({error})",
                args::type_name(path)
            ))
        })
    }
}

/// The iterator `scan` returns: one record per message, in input order. Dropping it stops the
/// engine's threads after the message each is analyzing, and waits for them with the GIL
/// released.
#[pyclass(module = "mimebase", frozen)]
pub(crate) struct Scan {
    /// `None` once dropped.
    records: Mutex<Option<Records<ScanLine<'static>>>>,
}

#[pymethods]
impl Scan {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> Option<Record> {
        let line = py.detach(|| {
            let mut records = lock(&self.records);
            let records = records.as_mut()?;
            loop {
                match records.next()? {
                    Scanned::Record(line) => return Some(line),
                    // A dangling link gives no record.
                    _ => continue,
                }
            }
        });
        line.map(Record::new)
    }
}

impl Drop for Scan {
    fn drop(&mut self) {
        let records = self
            .records
            .get_mut()
            .unwrap_or_else(PoisonError::into_inner)
            .take();
        // Other Python threads run while the engine's threads finish their messages. When
        // the interpreter is shutting down, they are waited for as the closure is dropped.
        Python::try_attach(|py| py.detach(move || drop(records)));
    }
}

/// A lock whose holder never panics while holding it (the engine resumes a panic only for a
/// bug), taken even if poisoned.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
