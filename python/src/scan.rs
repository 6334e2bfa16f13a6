//! `mimebase.scan`: the messages of files, directory trees, Maildirs and mbox files
//! ([`mimebase::mailbox`]), analyzed with the GIL released, one dict per message in input
//! order: the `mimebase scan` NDJSON record ([`mimebase::scan`]) as Python objects
//! ([`records`](crate::records)).
//!
//! With one job the caller's thread reads and analyzes each message when the next one is asked
//! for. With N jobs, N threads each loop: wait for room in the window (at most
//! [`WAITING_PER_JOB`] × N messages taken and not yet yielded), take the next message under the
//! input lock, analyze it without any lock, and file its line under its sequence number; the
//! iterator yields the lines in sequence order. The threads stop when the iterator is dropped
//! (after the message each is working on).

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyString;

use mimebase::mailbox::{Input, Message, Messages, Roots, Walker};
use mimebase::scan::{ScanErrorKind, ScanLine, Source};
use mimebase::{Options, analyze};

use crate::options;
use crate::records::to_python;

/// How many messages each job may take ahead of the one the iterator yields next.
const WAITING_PER_JOB: usize = 16;

/// Reads and analyzes every message found under ``paths`` and yields one ``dict`` per message,
/// in input order (whatever ``jobs`` is), lazily.
///
/// ``paths``: a path (``str``, ``bytes`` or ``os.PathLike``) or an iterable of them, read as
/// the ``mimebase scan`` command reads its arguments: a file is one message, or an mbox file
/// when its first bytes are ``From ``; a directory is walked recursively in byte order of
/// names; a Maildir gives ``cur/`` then ``new/`` (never ``tmp/``), then its Maildir++
/// folders. The iterable is read whole when ``scan`` is called; the files are read as the
/// iteration goes.
///
/// ``jobs``: how many messages are analyzed at once, each on a thread of its own; ``None``
/// means the number of available cores. With more than one job, up to 16 messages per job are
/// read and analyzed ahead of the one yielded next.
///
/// ``max_message_bytes``: a message larger than this (in bytes) is not read into memory; it
/// yields an error record of kind ``"too_large"``.
///
/// ``retrieval_url``, ``resolver``, ``profile``, ``max_urls``: as for ``analyze``.
///
/// Each dict is one line of ``mimebase scan``'s output, as documented in the library's
/// ``scan`` module: ``{"type": "message", "path", "format", "offset", "length", "message_id",
/// "entities", "urls", "diagnostics"}`` for a message (``offset`` and ``length`` in bytes,
/// 0-based, in the file: for an mbox file the range of the message, its ``From `` line
/// included), or ``{"type": "error", "path", "format", "offset", "length", "kind",
/// "message"}`` for an input that could not be read (``kind``: ``"read"``, ``"too_large"``,
/// ``"internal"``). Unreadable inputs never raise.
///
/// Raises ``ValueError`` for ``jobs`` below 1 or an unknown ``resolver`` or ``profile``.
#[pyfunction]
#[pyo3(signature = (
    paths,
    *,
    jobs = None,
    retrieval_url = None,
    resolver = "rfc1808",
    profile = "default",
    // 64 MiB, written out: Python's signature shows a literal, and `...` for an expression.
    max_message_bytes = 67_108_864,
    max_urls = 100_000,
))]
pub(crate) fn scan(
    paths: &Bound<'_, PyAny>,
    jobs: Option<usize>,
    retrieval_url: Option<String>,
    resolver: &str,
    profile: &str,
    max_message_bytes: u64,
    max_urls: usize,
) -> PyResult<Scan> {
    let options = options(retrieval_url, resolver, profile)?.with_max_urls(max_urls);
    let jobs = match jobs {
        Some(0) => return Err(PyValueError::new_err("jobs: must be at least 1")),
        Some(jobs) => jobs,
        None => std::thread::available_parallelism().map_or(1, usize::from),
    };
    let paths = path_list(paths)?;
    let messages = Messages::new(Walker::new(Roots::new(paths, None)), max_message_bytes);
    let engine = if jobs == 1 {
        Engine::Sequential(Box::new(Mutex::new(Sequential {
            messages: Some(messages),
            options,
        })))
    } else {
        Engine::Parallel(Parallel::start(messages, options, jobs)?)
    };
    Ok(Scan { engine })
}

/// `paths` as a list: one path, or every item of an iterable.
fn path_list(paths: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    if paths.is_instance_of::<PyString>() || paths.hasattr("__fspath__")? {
        return Ok(vec![paths.extract()?]);
    }
    if let Ok(bytes) = paths.cast::<pyo3::types::PyBytes>() {
        return Ok(vec![bytes.extract()?]);
    }
    paths.try_iter()?.map(|path| path?.extract()).collect()
}

/// The iterator `scan` returns: one dict per message, in input order.
#[pyclass(module = "mimebase", frozen)]
pub(crate) struct Scan {
    engine: Engine,
}

enum Engine {
    Sequential(Box<Mutex<Sequential>>),
    Parallel(Arc<Parallel>),
}

/// One job: the iterator's caller reads and analyzes.
struct Sequential {
    /// `None` once exhausted.
    messages: Option<Messages>,
    options: Options,
}

#[pymethods]
impl Scan {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let line = py.detach(|| match &self.engine {
            Engine::Sequential(state) => {
                let mut state = lock(state);
                let Sequential { messages, options } = &mut *state;
                let message = messages.as_mut().and_then(Iterator::next);
                match message {
                    Some(message) => Ok(Some(process(message, options))),
                    None => {
                        *messages = None;
                        Ok(None)
                    }
                }
            }
            Engine::Parallel(parallel) => parallel.next_line(),
        })?;
        line.map(|line| line.to_python(py)).transpose()
    }
}

impl Drop for Scan {
    fn drop(&mut self) {
        if let Engine::Parallel(parallel) = &self.engine {
            parallel.stop();
        }
    }
}

/// N jobs (see the module docs).
struct Parallel {
    input: Mutex<Taking>,
    output: Mutex<Filed>,
    /// Signalled when a line is filed, a line is yielded, or the scan ends.
    changed: Condvar,
    options: Options,
    window: usize,
}

/// The input side: under its lock, a thread takes the next message and its number.
struct Taking {
    messages: Messages,
    next: u64,
}

/// The output side.
#[derive(Default)]
struct Filed {
    /// Lines analyzed and not yet yielded, by sequence number.
    lines: BTreeMap<u64, Line>,
    /// The sequence number of the line to yield next.
    next: u64,
    /// Messages taken (or being taken) and not yet yielded.
    in_flight: usize,
    /// Set when the input is exhausted: how many lines there are in all.
    total: Option<u64>,
    /// The iterator was dropped.
    stopped: bool,
    /// A thread ended in a panic (a bug): the iterator raises instead of waiting for ever.
    failed: bool,
}

impl Parallel {
    fn start(messages: Messages, options: Options, jobs: usize) -> PyResult<Arc<Self>> {
        let parallel = Arc::new(Parallel {
            input: Mutex::new(Taking { messages, next: 0 }),
            output: Mutex::new(Filed::default()),
            changed: Condvar::new(),
            options,
            window: WAITING_PER_JOB.saturating_mul(jobs),
        });
        for _ in 0..jobs {
            let worker = Arc::clone(&parallel);
            std::thread::Builder::new()
                .name("mimebase-scan".to_owned())
                .spawn(move || {
                    if catch_unwind(AssertUnwindSafe(|| worker.work())).is_err() {
                        lock(&worker.output).failed = true;
                        worker.changed.notify_all();
                    }
                })
                .map_err(|error| {
                    parallel.stop();
                    PyRuntimeError::new_err(format!("jobs: cannot start a thread: {error}"))
                })?;
        }
        Ok(parallel)
    }

    /// One thread's loop.
    fn work(&self) {
        loop {
            {
                let mut filed = lock(&self.output);
                while !filed.stopped && filed.total.is_none() && filed.in_flight >= self.window {
                    filed = self
                        .changed
                        .wait(filed)
                        .unwrap_or_else(PoisonError::into_inner);
                }
                if filed.stopped || filed.total.is_some() {
                    return;
                }
                filed.in_flight += 1;
            }
            let taken = {
                let mut taking = lock(&self.input);
                let number = taking.next;
                taking
                    .messages
                    .next()
                    .map(|message| {
                        taking.next += 1;
                        (number, message)
                    })
                    .ok_or(number)
            };
            match taken {
                Ok((number, message)) => {
                    let line = process(message, &self.options);
                    lock(&self.output).lines.insert(number, line);
                }
                Err(total) => {
                    let mut filed = lock(&self.output);
                    filed.in_flight -= 1;
                    filed.total = Some(total);
                }
            }
            self.changed.notify_all();
        }
    }

    /// The next line in input order, waiting for it; `None` at the end.
    fn next_line(&self) -> PyResult<Option<Line>> {
        let mut filed = lock(&self.output);
        loop {
            let next = filed.next;
            if let Some(line) = filed.lines.remove(&next) {
                filed.next += 1;
                filed.in_flight -= 1;
                drop(filed);
                self.changed.notify_all();
                return Ok(Some(line));
            }
            if filed.total.is_some_and(|total| total <= next) {
                return Ok(None);
            }
            if filed.failed {
                return Err(PyRuntimeError::new_err(
                    "mimebase.scan: a scanning thread failed (a bug: please report it)",
                ));
            }
            filed = self
                .changed
                .wait(filed)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }

    /// Tells every thread to stop after its current message.
    fn stop(&self) {
        lock(&self.output).stopped = true;
        self.changed.notify_all();
    }
}

/// One line of `scan`, ready to be turned into a dict.
enum Line {
    Message(Source, mimebase::Report),
    Error(Source, ScanErrorKind, String),
}

impl Line {
    /// The dict: the library's serialization of the line ([`ScanLine`]).
    fn to_python<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self {
            Line::Message(source, report) => to_python(py, &ScanLine::message(source, report)),
            Line::Error(source, kind, message) => {
                to_python(py, &ScanLine::error(source, *kind, message))
            }
        }
    }
}

/// Analyzes one message, or passes on the error of an input that could not be read. A panic
/// inside the library becomes an `internal` error line, as in `mimebase scan`, so that one
/// message cannot end a batch.
fn process(message: Message, options: &Options) -> Line {
    let Message { source, input } = message;
    match input {
        Input::Bytes(raw) => match catch_unwind(AssertUnwindSafe(|| analyze(&raw, options))) {
            Ok(report) => Line::Message(source, report),
            Err(_) => Line::Error(
                source,
                ScanErrorKind::Internal,
                "mimebase panicked while analyzing this message (a bug: please report it)"
                    .to_owned(),
            ),
        },
        Input::Error(kind, message) => Line::Error(source, kind, message),
    }
}

/// A lock whose holder never panics while holding it (nothing here does), taken even if
/// poisoned.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
