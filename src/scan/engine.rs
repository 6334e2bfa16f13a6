//! The batch engine: every message found under some paths analyzed on up to N threads, and
//! given back as an iterator of records in input order. `mimebase scan` and the Python
//! module's `scan` are both this iterator with a different function at the end.
//!
//! ```
//! use mimebase::Options;
//! use mimebase::mailbox::{Roots, Walker};
//! use mimebase::scan::{Batch, ScanLine, Scanned};
//!
//! # let dir = tempfile::tempdir()?;
//! # std::fs::write(dir.path().join("a.eml"), "Content-Type: text/html\r\n\r\n<a href=x>")?;
//! # std::fs::write(dir.path().join("b.mbox"), "From a\nSubject: 1\n\nFrom b\nSubject: 2\n")?;
//! let walker = Walker::new(Roots::new(vec![dir.path().to_owned()], None));
//! let batch = Batch::new(walker, Options::new()).with_jobs(4);
//! // Runs on the workers, in parallel: each record becomes its JSON line, written into a
//! // buffer given back earlier, when there is one.
//! let mut records = batch.records(|line: ScanLine<'static>, spare: Option<Vec<u8>>| {
//!     let mut json = spare.unwrap_or_default();
//!     json.clear();
//!     line.write_json(&mut json);
//!     json
//! });
//! let mut paths = Vec::new();
//! while let Some(scanned) = records.next() {
//!     match scanned {
//!         Scanned::Record(json) => {
//!             let line: serde_json::Value = serde_json::from_slice(&json)?;
//!             paths.push((line["path"].as_str().map(str::to_owned), line["offset"].as_u64()));
//!             records.recycle(json);
//!         }
//!         Scanned::DanglingLink(path) => eprintln!("{}: a link to nothing", path.display()),
//!         _ => {}
//!     }
//! }
//! let path = |name: &str| Some(dir.path().join(name).to_string_lossy().into_owned());
//! assert_eq!(paths, [(path("a.eml"), Some(0)), (path("b.mbox"), Some(0)), (path("b.mbox"), Some(19))]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # How it works
//!
//! A [`Batch`] is configured with the inputs (a [`Walker`](crate::mailbox::Walker), or any
//! iterator of [`Found`]), the [`Options`], the size limit and the number of jobs;
//! [`Batch::records`] gives the function that turns each record ([`ScanLine`]: a message's
//! [`Report`], or the error that stands for an input, with its
//! [`Source`](super::Source)) into the caller's item, and returns the iterator, [`Records`].
//! The function runs where the record is made, so that its work (the command line serializes
//! JSON there) is shared out too.
//!
//! With one job no thread is started: each call of `next` reads, analyzes and makes the next
//! item on the caller's thread.
//!
//! With N jobs, N threads work: the caller's thread, whenever it is inside `next`, and up to
//! N − 1 threads the engine starts. Each loops: take a task under the input lock (the next
//! message of an open mbox file, else the next path the walker finds), do it without the lock
//! (open and read the path, so that files are read in parallel, or analyze the message and
//! make its item), and file the item under its place in the input order. `next` returns the
//! item whose turn it is as soon as it is filed; until then the caller's thread does tasks
//! itself, and sleeps only when there is no task to take. No thread only reads or only
//! analyzes, and an mbox file's messages are shared out among all threads.
//!
//! Threads are woken only when there is something for them: a worker sleeps when no task is
//! within reach, and is woken when an mbox file is opened, when the last opening ends with no
//! input left to find (then it ends), or when the caller has moved half a window on (so that
//! it wakes to a run of tasks rather than to one task per item returned); the caller's thread
//! is woken by a filed item or an opened mbox file, and only while it sleeps. Items the caller
//! is done with can be given back ([`Records::recycle`]) and reach the function again, so
//! that buffers are reused rather than allocated per message.
//!
//! # Jobs
//!
//! The number of jobs ([`Batch::with_jobs`]) is bounded by the cores available to the
//! process ([`std::thread::available_parallelism`]): a larger number is lowered to it,
//! since each worker keeps a core busy, and more workers would only take turns on the
//! cores while each holds messages read ahead and a stack of its own. Workers are also
//! started only as the work needs them: one more when the caller's thread takes a task while
//! every worker started is busy, so a batch of one input starts at most one thread.
//!
//! # Order and memory
//!
//! Items come in input order, whatever the number of jobs: the inputs in the order the walker
//! finds them, an mbox file's messages in file order, and a dangling symbolic link
//! ([`Scanned::DanglingLink`]) in its place.
//!
//! Reading ahead is bounded by a window of W = [`WAITING_PER_JOB`] × N: no thread opens an
//! input W or more inputs past the one whose item is next, or takes a message W or more
//! places past the next item of its mbox file (of a later mbox file, none past its first W
//! messages). So the memory in flight is:
//!
//! - the messages being read or analyzed: at most N, each no larger than the size limit;
//! - the mbox files open, at most W: each held in memory when it is no larger than the size
//!   limit, else read one message at a time;
//! - the items made and waiting for their turn: usually fewer than W, and at most W per
//!   input of the W inputs within reach.
//!
//! # Panics
//!
//! A panic while analyzing one message becomes that message's
//! [`ScanErrorKind::Internal`] record, handed to the function like any other: one message
//! cannot end a batch. A panic in the caller's function is resumed on the caller's thread by
//! `next` when the iterator reaches that record's place, after every record before it; the
//! iteration may go on after it. A panic elsewhere in the engine (a bug) is resumed by `next`
//! at once, and ends the iteration.
//!
//! # Dropping the iterator early
//!
//! Dropping [`Records`] stops the workers: each finishes the task it is doing (at most one
//! message's analysis), takes no other, and ends; the drop waits for them, so no thread
//! outlives the iterator. Items not yet returned are dropped.

use std::any::Any;
use std::borrow::Cow;
use std::collections::{BTreeMap, VecDeque};
use std::iter::FusedIterator;
use std::panic::{self, AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;

use super::{ScanErrorKind, ScanLine};
use crate::mailbox::{self, Found, Input, Message, Opened};
use crate::options::Options;
use crate::report::Report;

/// How far ahead of the next item the workers may read, per job: the window of
/// [`Batch::records`] is this many inputs or messages times the number of jobs. Enough for a
/// thread that finishes a small message to find another while a large one is analyzed.
pub const WAITING_PER_JOB: u64 = 16;

/// How many items given back by the caller are kept for the workers: a few per thread is
/// enough for every thread to find one.
const SPARE_ITEMS: usize = 8;

/// The stack of each worker: as much as a main thread has, so that no message needs more
/// with several jobs than with one.
const STACK_BYTES: usize = 8 << 20;

/// The message of the [`ScanErrorKind::Internal`] record of a message whose analysis panicked.
const PANICKED: &str = "mimebase panicked while analyzing this message (a bug: please report it)";

/// What a batch reads from: [`Found`] inputs, in order.
type Inputs = Box<dyn Iterator<Item = Found> + Send>;

/// The messages of an open mbox file.
type MboxMessages = Box<dyn Iterator<Item = Message> + Send>;

/// The caller's function: a record, and an item given back for reuse, into an item.
type Make<T> = Box<dyn Fn(ScanLine<'static>, Option<T>) -> T + Send + Sync>;

/// How a message's bytes are analyzed (a replacement only in tests).
type Analyzer = fn(&[u8], &Options) -> Report;

/// A batch to scan: the inputs, how to analyze them, and how many jobs; [`Batch::records`]
/// runs it. See the [module docs](self).
pub struct Batch {
    inputs: Inputs,
    options: Options,
    max_message_bytes: u64,
    jobs: usize,
    /// The bound of `jobs`: the cores available.
    cores: usize,
    analyzer: Analyzer,
    open: opener::Open,
}

impl Batch {
    /// A batch over `inputs` (a [`Walker`](crate::mailbox::Walker), or any iterator of
    /// [`Found`]), each message analyzed with `options`.
    pub fn new<I>(inputs: I, options: Options) -> Self
    where
        I: IntoIterator<Item = Found>,
        I::IntoIter: Send + 'static,
    {
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        Batch {
            inputs: Box::new(inputs.into_iter()),
            options,
            max_message_bytes: 64 << 20,
            jobs: cores,
            cores,
            analyzer: crate::analyze,
            open: Box::new(mailbox::open),
        }
    }

    /// How many messages are analyzed at once: the caller's thread and up to `jobs` − 1
    /// threads started by the engine (see the [module docs](self#jobs)). 1 starts no thread.
    /// A number above the cores available ([`std::thread::available_parallelism`]) is lowered
    /// to it; 0 is taken as 1.
    ///
    /// ### Default
    ///
    /// The number of cores available, 1 when it cannot be known.
    #[must_use]
    pub fn with_jobs(mut self, jobs: usize) -> Self {
        self.jobs = jobs;
        self
    }

    /// The largest message, in bytes, read into memory ([`mailbox::open`]): a larger one is
    /// a [`ScanErrorKind::TooLarge`] record, and the rest of its mbox file is still read.
    /// Also [`Options::with_max_message_bytes`] of the batch's options.
    ///
    /// ### Default
    ///
    /// 64 MiB (67,108,864 bytes).
    #[must_use]
    pub fn with_max_message_bytes(mut self, limit: u64) -> Self {
        self.max_message_bytes = limit;
        self.options = std::mem::take(&mut self.options)
            .with_max_message_bytes(usize::try_from(limit).unwrap_or(usize::MAX));
        self
    }

    /// The number of jobs the batch runs with: [`Batch::with_jobs`] bounded by the cores
    /// available, at least 1.
    pub fn jobs(&self) -> usize {
        self.jobs.clamp(1, self.cores.max(1))
    }

    /// Runs the batch: an iterator of the records in input order, each turned into an item
    /// by `make` on the thread that analyzed its message. `make` gets the record and, when
    /// there is one, an item given back by [`Records::recycle`] to reuse (its buffers).
    /// Nothing is read before the first call of `next`.
    pub fn records<T, F>(self, make: F) -> Records<T>
    where
        T: Send + 'static,
        F: Fn(ScanLine<'static>, Option<T>) -> T + Send + Sync + 'static,
    {
        let jobs = self.jobs();
        let work = Work {
            options: self.options,
            limit: self.max_message_bytes,
            open: self.open,
            make: Box::new(make),
            analyzer: self.analyzer,
        };
        let engine = if jobs == 1 {
            Engine::Sequential(Box::new(Sequential {
                inputs: Some(self.inputs),
                mbox: None,
                work,
                spare: None,
            }))
        } else {
            Engine::Parallel(Parallel::new(self.inputs, work, jobs))
        };
        Records { engine }
    }
}

/// One item of [`Records`].
#[derive(Debug)]
#[non_exhaustive]
pub enum Scanned<T> {
    /// What the caller's function made of a record: a message's, or an input's error.
    Record(T),
    /// A symbolic link found in a directory whose target does not exist
    /// ([`Found::DanglingLink`]): no record, and not a failure; `mimebase scan` names it on
    /// standard error.
    DanglingLink(PathBuf),
}

/// The records of a [`Batch`], in input order (see the [module docs](self)). Dropping it
/// stops the workers and waits for them.
///
/// # Panics
///
/// `next` resumes a panic of the function given to [`Batch::records`] when it reaches the
/// record it panicked on (see the [module docs](self#panics)).
pub struct Records<T> {
    engine: Engine<T>,
}

enum Engine<T> {
    Sequential(Box<Sequential<T>>),
    Parallel(Parallel<T>),
}

impl<T: Send + 'static> Records<T> {
    /// Gives back an item the caller is done with, for the function to reuse: it receives it
    /// as its second argument for a later record (on whichever thread makes that record).
    /// A few are kept; the others are dropped.
    pub fn recycle(&mut self, item: T) {
        match &mut self.engine {
            Engine::Sequential(sequential) => sequential.spare = Some(item),
            Engine::Parallel(parallel) => {
                if parallel.spare.len() < SPARE_ITEMS {
                    parallel.spare.push(item);
                }
            }
        }
    }
}

impl<T: Send + 'static> Iterator for Records<T> {
    type Item = Scanned<T>;

    fn next(&mut self) -> Option<Scanned<T>> {
        match &mut self.engine {
            Engine::Sequential(sequential) => sequential.next(),
            Engine::Parallel(parallel) => parallel.next(),
        }
    }
}

impl<T: Send + 'static> FusedIterator for Records<T> {}

/// What every thread needs to make an item of a message.
struct Work<T> {
    options: Options,
    /// The size limit of [`mailbox::open`].
    limit: u64,
    open: opener::Open,
    make: Make<T>,
    analyzer: Analyzer,
}

impl<T> Work<T> {
    /// The record of `message`: its report, or the error that stands for it. A panic while
    /// analyzing becomes an [`ScanErrorKind::Internal`] error.
    fn record(&self, message: Message) -> ScanLine<'static> {
        let Message { source, input } = message;
        match input {
            Input::Bytes(raw) => {
                match catch_unwind(AssertUnwindSafe(|| (self.analyzer)(&raw, &self.options))) {
                    Ok(report) => ScanLine::Message {
                        source: Cow::Owned(source),
                        report: Cow::Owned(report),
                    },
                    Err(_) => ScanLine::Error {
                        source: Cow::Owned(source),
                        kind: ScanErrorKind::Internal,
                        message: Cow::Borrowed(PANICKED),
                    },
                }
            }
            Input::Error(kind, message) => ScanLine::Error {
                source: Cow::Owned(source),
                kind,
                message: Cow::Owned(message),
            },
        }
    }
}

/// One job: everything on the caller's thread, in order.
struct Sequential<T> {
    /// `None` once exhausted.
    inputs: Option<Inputs>,
    /// The rest of the mbox file being read.
    mbox: Option<MboxMessages>,
    work: Work<T>,
    /// The item given back last.
    spare: Option<T>,
}

impl<T> Sequential<T> {
    fn next(&mut self) -> Option<Scanned<T>> {
        loop {
            let message = match self.mbox.as_mut().map(Iterator::next) {
                Some(Some(message)) => message,
                Some(None) => {
                    self.mbox = None;
                    continue;
                }
                None => match self.inputs.as_mut().and_then(Iterator::next) {
                    None => {
                        self.inputs = None;
                        return None;
                    }
                    Some(Found::DanglingLink { path }) => {
                        return Some(Scanned::DanglingLink(path));
                    }
                    Some(found) => match (self.work.open)(found, self.work.limit) {
                        Opened::One(message) => message,
                        Opened::Many(messages) => {
                            self.mbox = Some(messages);
                            continue;
                        }
                    },
                },
            };
            let record = self.work.record(message);
            return Some(Scanned::Record((self.work.make)(record, self.spare.take())));
        }
    }
}

/// Where an item goes in the order: the number of the input it came from (each input the
/// walker finds, in order) and its place among that input's messages.
type Key = (u64, u64);

/// N jobs: the state shared with the workers, and the threads.
struct Parallel<T> {
    shared: Arc<Shared<T>>,
    threads: Vec<JoinHandle<()>>,
    /// How many more workers may be started.
    more: usize,
    /// Items given back by the caller, for the tasks done on its thread and for the workers.
    spare: Vec<T>,
    /// The iteration has ended.
    ended: bool,
}

/// What the caller's thread and the workers share. Locks are never nested: a thread holds
/// either `input` or `output`.
struct Shared<T> {
    input: Mutex<Taking>,
    /// Signalled, under `input`, when an mbox file is opened, when the last opening ends
    /// with no input left to find, when the caller has moved `wake_at` items on while
    /// `sleepers` wait, and when the workers stop.
    changed: Condvar,
    /// Workers waiting on `changed`.
    sleepers: AtomicUsize,
    /// The key of the next item to return (`output.next`), readable without `output`.
    next_input: AtomicU64,
    next_place: AtomicU64,
    /// How many keys the caller has passed (items returned, and the ends of mbox files).
    passed: AtomicU64,
    /// The value of `passed` at which sleeping workers are woken (`u64::MAX`: none). A worker
    /// that finds nothing within reach asks to be woken half a window later rather than at
    /// the next item: then it finds tasks for a while, instead of one for each item returned,
    /// each after a wake-up.
    wake_at: AtomicU64,
    output: Mutex<Ordered<T>>,
    /// Signalled, under `output`, when an item is filed, an mbox file opened, or a worker
    /// failed, while the caller's thread waits.
    ready: Condvar,
    /// The caller's thread waits on `ready` (set and cleared under `output`).
    caller_waits: AtomicBool,
    /// Tasks taken and not finished: set under `input` when taken, cleared under `output`
    /// when their item is filed (under `input` for an mbox file opened, which files nothing).
    in_progress: AtomicUsize,
    /// Every input is found and opened, and every message taken: no task is left.
    drained: AtomicBool,
    /// The iterator was dropped, or a worker failed: the workers end.
    stop: AtomicBool,
    /// How many inputs past the next item's a thread may open, and how many messages of an
    /// mbox file past the next item of its file it may take.
    window: u64,
    work: Work<T>,
}

/// The input side.
struct Taking {
    /// `None` once it has found everything.
    inputs: Option<Inputs>,
    /// The number of the next input found.
    next: u64,
    /// mbox files with messages left, in input order: input number, the next message's place,
    /// the messages.
    open: VecDeque<(u64, u64, MboxMessages)>,
    /// How many inputs threads are opening right now: each may turn out to be an mbox file
    /// with messages for everyone.
    opening: usize,
}

/// The output side: items filed by key, returned in key order.
struct Ordered<T> {
    /// The key of the next item to return.
    next: Key,
    /// Items filed before their turn; `true` for an input's last.
    waiting: BTreeMap<Key, (Slot<T>, bool)>,
    /// Items given back by the caller, for the workers.
    spare: Vec<T>,
    /// A worker panicked outside the analysis and the caller's function (a bug).
    failed: Option<Box<dyn Any + Send>>,
}

/// What is filed under a key.
enum Slot<T> {
    Item(Scanned<T>),
    /// The place after an mbox file's last message.
    Nothing,
    /// The caller's function panicked on this record.
    Panic(Box<dyn Any + Send>),
}

/// A thread's next piece of work.
enum Task {
    /// A message of an mbox file.
    Message(Key, Message),
    /// The place after the last message of an mbox file.
    End(Key),
    /// An input to open and read, outside the lock, with its number.
    Open(u64, Found),
}

/// What [`Shared::take`] found.
enum Take {
    Task(Task),
    /// Nothing within reach now (only when not waiting for it).
    Nothing,
    /// No task is left, or the workers stop.
    Done,
}

/// What [`Shared::pop`] found.
enum Popped<T> {
    Item(Scanned<T>),
    Panic(Box<dyn Any + Send>),
    Failed(Box<dyn Any + Send>),
    NotYet,
    End,
}

impl<T: Send + 'static> Parallel<T> {
    fn new(inputs: Inputs, work: Work<T>, jobs: usize) -> Self {
        let shared = Shared {
            input: Mutex::new(Taking {
                inputs: Some(inputs),
                next: 0,
                open: VecDeque::new(),
                opening: 0,
            }),
            changed: Condvar::new(),
            sleepers: AtomicUsize::new(0),
            next_input: AtomicU64::new(0),
            next_place: AtomicU64::new(0),
            passed: AtomicU64::new(0),
            wake_at: AtomicU64::new(u64::MAX),
            output: Mutex::new(Ordered {
                next: (0, 0),
                waiting: BTreeMap::new(),
                spare: Vec::new(),
                failed: None,
            }),
            ready: Condvar::new(),
            caller_waits: AtomicBool::new(false),
            in_progress: AtomicUsize::new(0),
            drained: AtomicBool::new(false),
            stop: AtomicBool::new(false),
            window: WAITING_PER_JOB.saturating_mul(jobs as u64),
            work,
        };
        Parallel {
            shared: Arc::new(shared),
            threads: Vec::new(),
            more: jobs.saturating_sub(1),
            spare: Vec::new(),
            ended: false,
        }
    }

    fn next(&mut self) -> Option<Scanned<T>> {
        if self.ended {
            return None;
        }
        loop {
            match self.shared.pop(&mut self.spare) {
                Popped::Item(item) => return Some(item),
                Popped::Panic(payload) => panic::resume_unwind(payload),
                Popped::Failed(payload) => {
                    self.ended = true;
                    panic::resume_unwind(payload)
                }
                Popped::End => {
                    self.ended = true;
                    return None;
                }
                Popped::NotYet => {}
            }
            match self.shared.take(false) {
                Take::Task(task) => {
                    self.start_worker();
                    let mut spare = self.spare.pop();
                    let shared = &self.shared;
                    let done = catch_unwind(AssertUnwindSafe(|| shared.run(task, &mut spare)));
                    if let Err(payload) = done {
                        // The engine's state may be inconsistent: stop rather than wait for
                        // a task that will never end.
                        self.shared.stop();
                        self.ended = true;
                        panic::resume_unwind(payload);
                    }
                    self.spare.extend(spare);
                }
                Take::Nothing | Take::Done => self.shared.wait_for_next(),
            }
        }
    }

    /// Starts one more worker, when one may be started and none of those started is idle:
    /// called when the caller's thread has taken a task, so that workers are started only
    /// when there is work for more threads.
    fn start_worker(&mut self) {
        if self.more == 0 || self.shared.sleepers.load(Ordering::SeqCst) > 0 {
            return;
        }
        let shared = Arc::clone(&self.shared);
        let started = std::thread::Builder::new()
            .name(format!("mimebase-scan-{}", self.threads.len() + 1))
            .stack_size(STACK_BYTES)
            .spawn(move || shared.work());
        match started {
            Ok(thread) => {
                self.threads.push(thread);
                self.more -= 1;
            }
            // The batch goes on with the threads it has (the caller's at least).
            Err(_) => self.more = 0,
        }
    }
}

impl<T> Drop for Parallel<T> {
    fn drop(&mut self) {
        self.shared.stop();
        for thread in self.threads.drain(..) {
            // A worker's panics are caught in it; there is nothing left to report.
            let _ = thread.join();
        }
    }
}

impl<T: Send + 'static> Shared<T> {
    /// A worker's loop.
    fn work(&self) {
        let worked = catch_unwind(AssertUnwindSafe(|| {
            // The item to reuse for this thread's next record.
            let mut spare = None;
            while let Take::Task(task) = self.take(true) {
                self.run(task, &mut spare);
            }
        }));
        if let Err(payload) = worked {
            let mut output = lock(&self.output);
            if output.failed.is_none() {
                output.failed = Some(payload);
            }
            drop(output);
            self.stop();
        }
    }

    /// Does `task` and files its item (a worker's, or the caller's thread's).
    fn run(&self, task: Task, spare: &mut Option<T>) {
        match task {
            Task::Message(key, message) => {
                let slot = self.make(message, spare.take());
                self.file(key, slot, false, spare);
            }
            Task::End(key) => self.file(key, Slot::Nothing, true, spare),
            Task::Open(number, Found::DanglingLink { path }) => {
                self.opened(None);
                let slot = Slot::Item(Scanned::DanglingLink(path));
                self.file((number, 0), slot, true, spare);
            }
            Task::Open(number, found) => match (self.work.open)(found, self.work.limit) {
                Opened::One(message) => {
                    self.opened(None);
                    let slot = self.make(message, spare.take());
                    self.file((number, 0), slot, true, spare);
                }
                Opened::Many(messages) => self.opened(Some((number, messages))),
            },
        }
    }

    /// The item of `message`, or the panic of the caller's function.
    fn make(&self, message: Message, spare: Option<T>) -> Slot<T> {
        let record = self.work.record(message);
        match catch_unwind(AssertUnwindSafe(|| (self.work.make)(record, spare))) {
            Ok(item) => Slot::Item(Scanned::Record(item)),
            Err(payload) => Slot::Panic(payload),
        }
    }

    /// The next task: a message of the first open mbox file, else the next input, unless it
    /// is too far ahead of the next item. With `wait`, waits until there is one; else
    /// [`Take::Nothing`] when there is none now.
    fn take(&self, wait: bool) -> Take {
        let mut input = lock(&self.input);
        loop {
            if self.stop.load(Ordering::SeqCst) {
                return Take::Done;
            }
            let passed = self.passed.load(Ordering::SeqCst);
            let next = (
                self.next_input.load(Ordering::SeqCst),
                self.next_place.load(Ordering::SeqCst),
            );
            if let Some((number, place, messages)) = input.open.front_mut() {
                // The next item's own input may run `window` messages ahead of it; a later one
                // its first `window` messages. The next item is always within reach, so
                // waiting here cannot stall it.
                let ahead = if *number == next.0 {
                    place.saturating_sub(next.1)
                } else {
                    *place
                };
                if *number < next.0 || ahead < self.window {
                    let key = (*number, *place);
                    *place += 1;
                    let task = match messages.next() {
                        Some(message) => Task::Message(key, message),
                        None => {
                            input.open.pop_front();
                            Task::End(key)
                        }
                    };
                    self.in_progress.fetch_add(1, Ordering::SeqCst);
                    return Take::Task(task);
                }
            }
            let number = input.next;
            if number < next.0.saturating_add(self.window) && input.open.is_empty() {
                match input.inputs.as_mut().and_then(Iterator::next) {
                    Some(found) => {
                        input.next += 1;
                        input.opening += 1;
                        self.in_progress.fetch_add(1, Ordering::SeqCst);
                        return Take::Task(Task::Open(number, found));
                    }
                    None => input.inputs = None,
                }
                if input.opening == 0 {
                    self.drained.store(true, Ordering::SeqCst);
                    if self.sleepers.load(Ordering::SeqCst) > 0 {
                        // They end too.
                        self.changed.notify_all();
                    }
                    return Take::Done;
                }
            }
            if !wait {
                return Take::Nothing;
            }
            // Wait for an mbox file, the end of the last opening, or the caller moving on by
            // half a window. Counting itself in `sleepers` before looking at `passed` again,
            // and the caller's thread storing `passed` before looking at `sleepers`, one of
            // the two sees the other: a move is never missed.
            let wake_at = passed.saturating_add((self.window / 2).max(1));
            self.wake_at.fetch_min(wake_at, Ordering::SeqCst);
            self.sleepers.fetch_add(1, Ordering::SeqCst);
            if self.passed.load(Ordering::SeqCst) == passed {
                input = self
                    .changed
                    .wait(input)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            self.sleepers.fetch_sub(1, Ordering::SeqCst);
        }
    }

    /// An opening ended, with an mbox file's messages for everyone, or with one message (or
    /// a dangling link) whose item is filed next.
    fn opened(&self, messages: Option<(u64, MboxMessages)>) {
        let mut input = lock(&self.input);
        input.opening -= 1;
        let many = messages.is_some();
        if let Some((number, messages)) = messages {
            let at = input.open.partition_point(|(other, ..)| *other < number);
            input.open.insert(at, (number, 0, messages));
            // This task files nothing: it ends here.
            self.in_progress.fetch_sub(1, Ordering::SeqCst);
        }
        // Sleeping workers wait for messages to take, or, once every input is found, for the
        // last opening to end (then they end); the end of any other opening gives them
        // nothing. A worker sleeps only after counting itself in `sleepers` under this lock,
        // so one that has not seen this change is counted here. Waking nobody would still
        // cost a system call (std's `Condvar` does not know whether anyone waits).
        let last = input.inputs.is_none() && input.opening == 0;
        let sleeping = (many || last) && self.sleepers.load(Ordering::SeqCst) > 0;
        drop(input);
        if sleeping {
            self.changed.notify_all();
        }
        if many && self.caller_waits.load(Ordering::SeqCst) {
            // Taking the lock orders this after the caller's thread began to wait.
            drop(lock(&self.output));
            self.ready.notify_one();
        }
    }

    /// Files the item of `key` and ends its task; puts into `spare`, when it is empty, an
    /// item given back by the caller.
    fn file(&self, key: Key, slot: Slot<T>, last: bool, spare: &mut Option<T>) {
        let mut output = lock(&self.output);
        output.waiting.insert(key, (slot, last));
        if spare.is_none() {
            *spare = output.spare.pop();
        }
        self.in_progress.fetch_sub(1, Ordering::SeqCst);
        let waits = self.caller_waits.load(Ordering::SeqCst);
        drop(output);
        if waits {
            self.ready.notify_one();
        }
    }

    /// The next item in order, if it is filed; hands the caller's spare items (all but one,
    /// kept for the tasks of its own thread) to the workers.
    fn pop(&self, spare: &mut Vec<T>) -> Popped<T> {
        let mut output = lock(&self.output);
        while spare.len() > 1 && output.spare.len() < SPARE_ITEMS {
            output.spare.extend(spare.pop());
        }
        let before = output.next;
        let mut popped = Popped::NotYet;
        let mut passed = 0;
        loop {
            let (number, place) = output.next;
            let Some((slot, last)) = output.waiting.remove(&(number, place)) else {
                break;
            };
            output.next = if last {
                (number + 1, 0)
            } else {
                (number, place + 1)
            };
            passed += 1;
            match slot {
                Slot::Nothing => continue,
                Slot::Item(item) => popped = Popped::Item(item),
                Slot::Panic(payload) => popped = Popped::Panic(payload),
            }
            break;
        }
        if output.next != before {
            self.next_input.store(output.next.0, Ordering::SeqCst);
            self.next_place.store(output.next.1, Ordering::SeqCst);
            let passed = self.passed.fetch_add(passed, Ordering::SeqCst) + passed;
            drop(output);
            if passed >= self.wake_at.load(Ordering::SeqCst)
                && self.sleepers.load(Ordering::SeqCst) > 0
            {
                // A worker that asks for a later wake-up after this is woken here all the
                // same: it holds the lock until it waits.
                self.wake_at.store(u64::MAX, Ordering::SeqCst);
                drop(lock(&self.input));
                self.changed.notify_all();
            }
            return popped;
        }
        if let Some(payload) = output.failed.take() {
            return Popped::Failed(payload);
        }
        if self.is_finished() {
            return Popped::End;
        }
        Popped::NotYet
    }

    /// Every task is done and filed (read under `output`).
    fn is_finished(&self) -> bool {
        self.drained.load(Ordering::SeqCst) && self.in_progress.load(Ordering::SeqCst) == 0
    }

    /// Waits, on the caller's thread, for an item to be filed (or an mbox file opened, or a
    /// worker's failure), unless the next item is there already or everything is done.
    fn wait_for_next(&self) {
        let output = lock(&self.output);
        if output.waiting.contains_key(&output.next)
            || output.failed.is_some()
            || self.is_finished()
        {
            return;
        }
        self.caller_waits.store(true, Ordering::SeqCst);
        let output = self
            .ready
            .wait(output)
            .unwrap_or_else(PoisonError::into_inner);
        self.caller_waits.store(false, Ordering::SeqCst);
        drop(output);
    }
}

impl<T> Shared<T> {
    /// Tells the workers to end after their current task, and wakes every thread that waits.
    fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
        drop(lock(&self.input));
        self.changed.notify_all();
        drop(lock(&self.output));
        self.ready.notify_all();
    }
}

mod opener;
#[cfg(test)]
mod tests;

/// A lock whose holder never panics while holding it (nothing here does), taken even if
/// poisoned.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
