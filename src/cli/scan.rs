//! `mimebase scan`: messages from [`mailbox`](mimebase::mailbox) analyzed on `--jobs` threads,
//! one NDJSON line each ([`mimebase::scan`]), written in input order.
//!
//! With one job everything happens on the main thread: read, analyze, write. With N jobs, N
//! rayon threads each loop: take a task under the input lock (the next message of an open
//! mbox file, else the next path the walker finds), do it without the lock (open and read the
//! path, or analyze the message), and hand the line to the output lock, which writes every line
//! whose predecessors are written and keeps the others until then. No thread only reads or only
//! writes, reading happens outside the lock, and an mbox file's messages are shared out among
//! all threads. Memory in flight: the messages being analyzed, at most [`WAITING_PER_JOB`] × N
//! paths opened past the writer's, and the mbox files open (each held in memory only when no
//! larger than `--max-message-bytes`, else streamed).

use std::collections::{BTreeMap, VecDeque};
use std::io::{self, IsTerminal, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mimebase::scan::{ScanErrorKind, ScanLine, Source};
use mimebase::{Options, analyze};

use super::args::ScanArgs;
use mimebase::mailbox::{self, Found, Input, Message, Opened, Roots, Walker};

/// How far ahead of the writer a thread may take messages, per job.
const WAITING_PER_JOB: u64 = 16;

/// Runs `mimebase scan`.
pub(crate) fn run(args: &ScanArgs) -> ExitCode {
    let reads_stdin = args.paths.iter().any(|p| p == Path::new("-"));
    if reads_stdin && args.paths_from.as_deref() == Some(Path::new("-")) {
        eprintln!("mimebase: scan: `-` and `--paths-from -` cannot both read standard input");
        return ExitCode::from(super::EXIT_USAGE);
    }
    let options = args.resolution.options();
    let jobs = args.jobs.map_or_else(
        || std::thread::available_parallelism().map_or(1, usize::from),
        usize::from,
    );
    let separator = if args.null { 0 } else { b'\n' };
    let roots = || {
        Roots::new(
            args.paths.clone(),
            args.paths_from.as_deref().map(|p| (p, separator)),
        )
    };
    let walker = Walker::new(roots()).with_hidden(args.hidden);

    let progress = Progress::new(!args.quiet);
    // Counting walks the inputs a second time: a path list can be read twice only when it is
    // a regular file (a pipe such as `<(…)` would be shared by both readers).
    let countable = !reads_stdin
        && args.paths_from.as_deref().is_none_or(|list| {
            list != Path::new("-") && list.metadata().is_ok_and(|m| m.is_file())
        });
    if countable {
        progress.count_total(Walker::new(roots()).with_hidden(args.hidden));
    }
    let mut sink = Sink {
        out: io::BufWriter::with_capacity(256 << 10, io::stdout()),
        out_shares_terminal: io::stdout().is_terminal(),
        held: Vec::new(),
        shown: Instant::now(),
        totals: Totals::default(),
        progress,
    };
    let started = Instant::now();
    let limit = args.limits.max_message_bytes;
    let written = if jobs <= 1 {
        sequential(walker, limit, &options, &mut sink)
    } else {
        parallel(walker, limit, jobs, &options, &mut sink)
    }
    .and_then(|()| sink.flush());
    sink.progress.finish();
    if let Err(error) = written {
        if error.kind() == io::ErrorKind::BrokenPipe {
            return ExitCode::SUCCESS;
        }
        eprintln!("mimebase: writing output: {error}");
        return ExitCode::from(super::EXIT_USAGE);
    }
    if !args.quiet {
        eprintln!("mimebase: scan: {}", sink.totals.summary(started.elapsed()));
    }
    if sink.totals.errors > 0 {
        ExitCode::from(super::EXIT_INPUT_FAILED)
    } else {
        ExitCode::SUCCESS
    }
}

/// One analyzed job: its line and what it adds to the totals.
struct Done {
    line: Vec<u8>,
    /// For a message: its length in the file.
    message_bytes: Option<u64>,
    /// The bytes it stands for in the progress bar (errors included).
    progress_bytes: u64,
    urls: usize,
    /// For an error: the line for stderr.
    failure: Option<String>,
    /// For a path passed over (a dangling symbolic link): the line for stderr.
    notice: Option<String>,
}

impl Done {
    /// No line: the end of an mbox file.
    fn nothing() -> Self {
        Done {
            line: Vec::new(),
            message_bytes: None,
            progress_bytes: 0,
            urls: 0,
            failure: None,
            notice: None,
        }
    }

    /// No line, and a notice on stderr: a dangling symbolic link, passed over.
    fn dangling(path: &Path) -> Self {
        Done {
            notice: Some(format!(
                "mimebase: {}: skipped: a symbolic link to nothing",
                path.display()
            )),
            ..Done::nothing()
        }
    }
}

/// Analyzes one job and writes its line into `line`, a buffer of an earlier line (its
/// contents are dropped, its allocation kept: see [`Sink::write`]). A panic inside the library
/// becomes an `internal` error line, so that one message cannot end a batch.
fn process(job: Message, options: &Options, mut line: Vec<u8>) -> Done {
    let Message { source, input } = job;
    let progress_bytes = source.length.unwrap_or_default();
    match input {
        Input::Bytes(raw) => {
            let analyzed = catch_unwind(AssertUnwindSafe(|| {
                let report = analyze(&raw, options);
                line.clear();
                line.reserve(raw.len() / 2 + 256);
                ScanLine::message(&source, &report).write_json(&mut line);
                (line, report.urls.len())
            }));
            match analyzed {
                Ok((mut line, urls)) => {
                    line.push(b'\n');
                    Done {
                        line,
                        message_bytes: source.length,
                        progress_bytes,
                        urls,
                        failure: None,
                        notice: None,
                    }
                }
                Err(_) => failure(
                    &source,
                    ScanErrorKind::Internal,
                    "mimebase panicked while analyzing this message (a bug: please report it)",
                ),
            }
        }
        Input::Error(kind, message) => failure(
            &source,
            kind,
            &super::output::failure_message(kind, &message),
        ),
    }
}

/// The error line for `source`, and its line on stderr.
fn failure(source: &Source, kind: ScanErrorKind, message: &str) -> Done {
    let mut line = serde_json::to_vec(&ScanLine::error(source, kind, message)).unwrap_or_default();
    line.push(b'\n');
    let place = match source.offset {
        Some(offset) if source.format == Some(mimebase::scan::Format::Mbox) => {
            format!("{} at byte {offset}", source.path)
        }
        _ => source.path.clone(),
    };
    Done {
        line,
        message_bytes: None,
        progress_bytes: source.length.unwrap_or_default(),
        urls: 0,
        failure: Some(format!("mimebase: {place}: {message}")),
        notice: None,
    }
}

/// `--jobs 1`: one thread does everything, in order.
fn sequential(walker: Walker, limit: u64, options: &Options, sink: &mut Sink) -> io::Result<()> {
    let mut line = Vec::new();
    for found in walker {
        if let Found::DanglingLink { path } = &found {
            sink.write(Done::dangling(path))?;
            continue;
        }
        match mailbox::open(found, limit) {
            Opened::One(message) => line = sink.write(process(message, options, line))?,
            Opened::Many(messages) => {
                for message in messages {
                    line = sink.write(process(message, options, line))?;
                }
            }
        }
    }
    Ok(())
}

/// `--jobs N`: N rayon threads open, read, analyze and write (see the module docs).
fn parallel(
    walker: Walker,
    limit: u64,
    jobs: usize,
    options: &Options,
    sink: &mut Sink,
) -> io::Result<()> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        // As much stack as the main thread has, so that no message needs more with --jobs.
        .stack_size(8 << 20)
        .thread_name(|i| format!("mimebase-scan-{i}"))
        .build()
        .map_err(io::Error::other)?;
    let shared = Shared {
        input: Mutex::new(Inputs {
            walker: Some(walker),
            next: 0,
            open: VecDeque::new(),
            opening: 0,
        }),
        changed: Condvar::new(),
        sleepers: AtomicUsize::new(0),
        written_input: AtomicU64::new(0),
        written_place: AtomicU64::new(0),
        output: Mutex::new(Ordered {
            sink,
            next: (0, 0),
            waiting: BTreeMap::new(),
            failed: None,
            spare: Vec::new(),
        }),
        failed: AtomicBool::new(false),
        window: WAITING_PER_JOB * jobs as u64,
        limit,
    };
    pool.scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|_| shared.work(options));
        }
    });
    let output = shared
        .output
        .into_inner()
        .unwrap_or_else(PoisonError::into_inner);
    output.failed.map_or(Ok(()), Err)
}

/// Where a line goes in the output: the number of the input it came from (each path the
/// walker finds, in order) and the message's place among that input's messages.
type Key = (u64, u64);

/// What the threads of [`parallel`] share. Locks are never nested: a thread holds either
/// `input` or `output`.
struct Shared<'a> {
    input: Mutex<Inputs>,
    /// Signalled, under `input`, when an mbox file is opened, when an opening ends, and when
    /// the writer moves on to another line while `sleepers` wait.
    changed: Condvar,
    sleepers: AtomicUsize,
    /// The input number of the writer's next line (`output.next.0`), readable without `output`.
    written_input: AtomicU64,
    /// The place of the writer's next line in its input (`output.next.1`).
    written_place: AtomicU64,
    output: Mutex<Ordered<'a>>,
    /// `output.failed` is set, readable without `output`.
    failed: AtomicBool,
    /// How many inputs past the writer's a thread may open, and how many messages of an mbox
    /// file past the writer's next line a thread may take: lines waiting for the writer are
    /// bounded by `window` inputs of at most `window` lines each.
    window: u64,
    /// `--max-message-bytes`.
    limit: u64,
}

/// The reading side.
struct Inputs {
    /// `None` once it has found everything.
    walker: Option<Walker>,
    /// The number of the next input the walker finds.
    next: u64,
    /// mbox files with messages left, in input order: input number, the next message's
    /// place, the messages.
    open: VecDeque<(u64, u64, Box<dyn Iterator<Item = Message> + Send>)>,
    /// How many inputs threads are opening (reading) right now: each may turn out to be an
    /// mbox file with messages for everyone.
    opening: usize,
}

/// One thread's next piece of work.
enum Task {
    /// A message of an mbox file.
    Message(Key, Message),
    /// The place after the last message of an mbox file.
    End(Key),
    /// A path to open and read, outside the lock, with its input number.
    Open(u64, Found),
}

/// The writing side: lines written in key order.
struct Ordered<'a> {
    sink: &'a mut Sink,
    /// The key of the next line to write.
    next: Key,
    /// Lines finished before an earlier one; `true` for an input's last line.
    waiting: BTreeMap<Key, (Done, bool)>,
    /// The output failed (a closed pipe): every thread stops.
    failed: Option<io::Error>,
    /// Buffers of written lines, emptied, for the threads' next lines (at most
    /// [`SPARE_LINES`]).
    spare: Vec<Vec<u8>>,
}

/// How many emptied line buffers the writer keeps for reuse: a few per thread is enough for
/// every thread to find one.
const SPARE_LINES: usize = 8;

impl Shared<'_> {
    /// One thread's loop.
    fn work(&self, options: &Options) {
        // The buffer for this thread's next line: one the writer is done with, when it has one.
        let mut line = Vec::new();
        while let Some(task) = self.take() {
            let going_on = match task {
                Task::Message(key, job) => {
                    let done = process(job, options, std::mem::take(&mut line));
                    self.deliver(key, done, false, &mut line)
                }
                Task::End(key) => self.deliver(key, Done::nothing(), true, &mut line),
                Task::Open(number, Found::DanglingLink { path }) => {
                    self.opened(None);
                    self.deliver((number, 0), Done::dangling(&path), true, &mut line)
                }
                Task::Open(number, found) => match mailbox::open(found, self.limit) {
                    Opened::One(job) => {
                        self.opened(None);
                        let done = process(job, options, std::mem::take(&mut line));
                        self.deliver((number, 0), done, true, &mut line)
                    }
                    Opened::Many(messages) => {
                        self.opened(Some((number, messages)));
                        true
                    }
                },
            };
            if !going_on {
                return;
            }
        }
    }

    /// The next task: a message of the first open mbox file, else the next path, unless it
    /// is too far ahead of the writer. `None` when everything is taken and no thread is still
    /// opening a path, or when the output failed.
    fn take(&self) -> Option<Task> {
        let mut input = self.input.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if self.has_failed() {
                return None;
            }
            let written = (
                self.written_input.load(Ordering::SeqCst),
                self.written_place.load(Ordering::SeqCst),
            );
            if let Some((number, place, messages)) = input.open.front_mut() {
                // The writer's own input may run `window` lines ahead of it; a later one its
                // first `window` lines. The writer's next line is always within reach, so
                // waiting here cannot stall it.
                let ahead = if *number == written.0 {
                    place.saturating_sub(written.1)
                } else {
                    *place
                };
                if *number < written.0 || ahead < self.window {
                    let key = (*number, *place);
                    *place += 1;
                    return Some(match messages.next() {
                        Some(job) => Task::Message(key, job),
                        None => {
                            input.open.pop_front();
                            Task::End(key)
                        }
                    });
                }
            }
            let number = input.next;
            let room = number < written.0 + self.window;
            if room && input.open.is_empty() {
                match input.walker.as_mut().and_then(Iterator::next) {
                    Some(found) => {
                        input.next += 1;
                        input.opening += 1;
                        return Some(Task::Open(number, found));
                    }
                    None => input.walker = None,
                }
                if input.opening == 0 {
                    return None;
                }
            }
            // Wait for an mbox file, the end of an opening, or the writer.
            self.sleepers.fetch_add(1, Ordering::SeqCst);
            input = self
                .changed
                .wait(input)
                .unwrap_or_else(PoisonError::into_inner);
            self.sleepers.fetch_sub(1, Ordering::SeqCst);
        }
    }

    /// An opening ended, with an mbox file's messages for everyone, or with one message.
    fn opened(&self, messages: Option<(u64, Box<dyn Iterator<Item = Message> + Send>)>) {
        let mut input = self.input.lock().unwrap_or_else(PoisonError::into_inner);
        input.opening -= 1;
        if let Some((number, messages)) = messages {
            let at = input.open.partition_point(|(other, ..)| *other < number);
            input.open.insert(at, (number, 0, messages));
        }
        // A thread sleeps only after counting itself in `sleepers` under this lock, so one
        // that has not seen this change is counted here. Waking nobody would still cost a
        // system call (std's `Condvar` does not know whether anyone waits): one per file.
        let sleeping = self.sleepers.load(Ordering::SeqCst) > 0;
        drop(input);
        if sleeping {
            self.changed.notify_all();
        }
    }

    /// Writes `done` and every line it was holding back, and puts into `line`, when it is
    /// empty, the buffer of a line written; false when the output failed.
    fn deliver(&self, key: Key, done: Done, last: bool, line: &mut Vec<u8>) -> bool {
        let mut output = self.output.lock().unwrap_or_else(PoisonError::into_inner);
        output.waiting.insert(key, (done, last));
        let before = output.next;
        while output.failed.is_none() {
            let next = output.next;
            let Some((done, last)) = output.waiting.remove(&next) else {
                break;
            };
            match output.sink.write(done) {
                Ok(written) => {
                    output.next = if last {
                        (next.0 + 1, 0)
                    } else {
                        (next.0, next.1 + 1)
                    };
                    if output.spare.len() < SPARE_LINES {
                        output.spare.push(written);
                    }
                }
                Err(error) => output.failed = Some(error),
            }
        }
        if line.capacity() == 0 {
            *line = output.spare.pop().unwrap_or_default();
        }
        let failed = output.failed.is_some();
        self.failed.store(failed, Ordering::SeqCst);
        let moved = output.next != before;
        self.written_input.store(output.next.0, Ordering::SeqCst);
        self.written_place.store(output.next.1, Ordering::SeqCst);
        drop(output);
        if (moved || failed) && self.sleepers.load(Ordering::SeqCst) > 0 {
            // Taking the lock orders this after a sleeper's check of `written_*`.
            drop(self.input.lock().unwrap_or_else(PoisonError::into_inner));
            self.changed.notify_all();
        }
        !failed
    }

    fn has_failed(&self) -> bool {
        self.failed.load(Ordering::SeqCst)
    }
}

/// Where lines go: stdout, the totals, the progress bar, and stderr for failures.
struct Sink {
    out: io::BufWriter<io::Stdout>,
    /// stdout is a terminal: with a progress bar on stderr, lines written between two draws
    /// of the bar would be glued to it, so they are held in `held` and written with the bar
    /// cleared, then drawn again, at most every [`SHOW_EVERY`].
    out_shares_terminal: bool,
    held: Vec<u8>,
    /// When held lines were last written.
    shown: Instant,
    totals: Totals,
    progress: Progress,
}

impl Sink {
    /// Writes `done`'s line and counts it; gives back the line's buffer, emptied, for the
    /// next line: reusing it spares an allocation per message, and the page faults of fresh
    /// memory for large ones.
    fn write(&mut self, done: Done) -> io::Result<Vec<u8>> {
        if self.progress.bar.is_some() && self.out_shares_terminal {
            self.held.extend_from_slice(&done.line);
            if self.shown.elapsed() >= SHOW_EVERY {
                self.flush()?;
            }
        } else {
            self.out.write_all(&done.line)?;
        }
        if let Some(bytes) = done.message_bytes {
            self.totals.messages += 1;
            self.totals.bytes += bytes;
            self.totals.urls += done.urls as u64;
        }
        if let Some(failure) = &done.failure {
            self.totals.errors += 1;
            self.progress.eprintln(failure);
        }
        if let Some(notice) = &done.notice {
            self.progress.eprintln(notice);
        }
        self.progress.advance(done.progress_bytes, &self.totals);
        let mut line = done.line;
        line.clear();
        Ok(line)
    }
}

/// How often held lines are written to a terminal that also shows the progress bar: often
/// enough to look continuous, seldom enough that redrawing the bar costs nothing.
const SHOW_EVERY: Duration = Duration::from_millis(100);

impl Sink {
    /// Writes what is held and flushes stdout, with the bar cleared while it does.
    fn flush(&mut self) -> io::Result<()> {
        self.shown = Instant::now();
        let showing = !self.held.is_empty();
        let (out, held) = (&mut self.out, &mut self.held);
        let mut write = || {
            out.write_all(held)?;
            held.clear();
            out.flush()
        };
        match &self.progress.bar {
            Some(bar) if showing => bar.suspend(write),
            _ => write(),
        }
    }
}

/// The summary line's figures.
#[derive(Debug, Default)]
struct Totals {
    messages: u64,
    bytes: u64,
    urls: u64,
    errors: u64,
}

impl Totals {
    /// `9480 messages, 101.0 MB, 66115 URLs, 0 errors in 1.20 s (84.2 MB/s)`; a megabyte is
    /// 10^6 bytes, counted as the messages' lengths in their files.
    fn summary(&self, elapsed: Duration) -> String {
        let megabytes = self.bytes as f64 / 1e6;
        let seconds = elapsed.as_secs_f64();
        let rate = if seconds > 0.0 {
            megabytes / seconds
        } else {
            0.0
        };
        format!(
            "{}, {megabytes:.1} MB, {}, {} in {seconds:.2} s ({rate:.1} MB/s)",
            count(self.messages, "message"),
            count(self.urls, "URL"),
            count(self.errors, "error"),
        )
    }
}

/// `1 error`, `2 errors`.
fn count(n: u64, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The progress bar: on stderr when it is a terminal (and not `--quiet`), else nothing at all.
/// It shows the messages and errors so far and the bytes read; with a total (see
/// [`Progress::count_total`]) a bar and an ETA, and "(counting…)" while the total is being
/// counted.
struct Progress {
    bar: Option<ProgressBar>,
}

/// The bar's look before the total is known, while it is counted, and once it is.
const UNCOUNTED: &str = "{spinner} {msg}, {decimal_bytes} read, {decimal_bytes_per_sec}, {elapsed}";
const COUNTING: &str =
    "{spinner} {msg}, {decimal_bytes} read, {decimal_bytes_per_sec}, {elapsed} (counting…)";
const COUNTED: &str =
    "{bar:30} {msg}, {decimal_bytes}/{decimal_total_bytes}, {decimal_bytes_per_sec}, ETA {eta}";

impl Progress {
    fn new(wanted: bool) -> Self {
        if !wanted || !io::stderr().is_terminal() {
            return Progress { bar: None };
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        set_style(&bar, UNCOUNTED);
        bar.set_message(progress_message(&Totals::default()));
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress { bar: Some(bar) }
    }

    /// Walks the inputs on a thread of its own, adding up file sizes, to give the bar a total
    /// and an ETA; the walk reads directories, not files.
    fn count_total(&self, walker: Walker) {
        let Some(bar) = self.bar.clone() else { return };
        set_style(&bar, COUNTING);
        let counting = bar.clone();
        let counted = std::thread::Builder::new()
            .name("mimebase-scan-count".to_owned())
            .spawn(move || {
                let total = walker
                    .filter_map(|found| match found {
                        Found::File { path, .. } => std::fs::metadata(path).ok(),
                        Found::Stdin | Found::DanglingLink { .. } | Found::Error { .. } => None,
                    })
                    .map(|metadata| metadata.len())
                    .sum();
                counting.set_length(total);
                set_style(&counting, COUNTED);
            });
        if let Err(error) = counted {
            set_style(&bar, UNCOUNTED);
            self.eprintln(&format!(
                "mimebase: scan: no total for the progress bar: {error}"
            ));
        }
    }

    fn advance(&self, bytes: u64, totals: &Totals) {
        if let Some(bar) = &self.bar {
            bar.set_message(progress_message(totals));
            bar.inc(bytes);
        }
    }

    /// Writes `text` on stderr, escaped (see [`escape`](super::output::escape)): it holds
    /// paths and messages.
    fn eprintln(&self, text: &str) {
        let text = super::output::escape(text);
        match &self.bar {
            Some(bar) => bar.suspend(|| eprintln!("{text}")),
            None => eprintln!("{text}"),
        }
    }

    fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

fn set_style(bar: &ProgressBar, template: &str) {
    if let Ok(style) = ProgressStyle::with_template(template) {
        bar.set_style(style);
    }
}

/// `12 messages, 1 error`.
fn progress_message(totals: &Totals) -> String {
    format!(
        "{}, {}",
        count(totals.messages, "message"),
        count(totals.errors, "error")
    )
}
