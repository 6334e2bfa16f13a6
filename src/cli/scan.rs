//! `mimebase scan`: the library's batch engine ([`mimebase::scan::Batch`]) over the inputs,
//! each record made into its NDJSON line ([`mimebase::scan`]) on the thread that analyzed the
//! message, and the lines written to stdout in input order, with the totals, the progress bar
//! and the exit code. The engine documents the threads, the order and the memory in flight.
//!
//! With `--state`, [`State`](super::state::State) passes over the inputs with nothing new and
//! opens an mbox file from where the last run stopped, and learns of each record as it is
//! written. SIGINT and SIGTERM stop the run between two lines ([`stop_on_signal`]): the lines
//! are written and the output and its state always agree.

use std::io::{self, IsTerminal, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mimebase::mailbox::{self, Found, Roots, Walker};
use mimebase::scan::{Batch, Fields, Records, ScanErrorKind, ScanLine, Scanned, Source};

use super::args::ScanArgs;
use super::state::State;

/// Runs `mimebase scan`.
pub(crate) fn run(args: &ScanArgs) -> ExitCode {
    let reads_stdin = args.paths.iter().any(|p| p == Path::new("-"));
    if reads_stdin && args.list.reads_stdin() {
        eprintln!("mimebase: scan: `-` and `--paths-from -` cannot both read standard input");
        return ExitCode::from(super::EXIT_USAGE);
    }
    if reads_stdin && args.state.is_some() {
        eprintln!(
            "mimebase: scan: --state cannot record standard input (`-`): it has no identity \
             to find again; give the path of a file, or leave out --state"
        );
        return ExitCode::from(super::EXIT_USAGE);
    }
    let state = match args.state.as_deref().map(State::load).transpose() {
        Ok(state) => state.map(|state| Arc::new(Mutex::new(state))),
        Err(error) => {
            eprintln!("mimebase: scan: {error}");
            return ExitCode::from(super::EXIT_USAGE);
        }
    };
    if reads_stdin || args.list.reads_stdin() {
        super::hint_when_stdin_is_a_terminal();
    }
    let roots = || Roots::new(args.paths.clone(), args.list.list());
    let globs = super::globs_or_exit(&args.globs, "scan");
    let walker = Walker::new(roots())
        .with_hidden(args.hidden)
        .with_globs(globs.clone());

    let progress = Progress::new(!args.quiet);
    // Counting walks the inputs a second time: a path list can be read twice only when it is
    // a regular file (a pipe such as `<(…)` would be shared by both readers).
    let countable = !reads_stdin
        && args.list.paths_from.as_deref().is_none_or(|list| {
            list != Path::new("-") && list.metadata().is_ok_and(|m| m.is_file())
        });
    if countable {
        progress.count_total(
            Walker::new(roots())
                .with_hidden(args.hidden)
                .with_globs(globs),
        );
    }
    let sink = Arc::new(Mutex::new(Sink {
        out: Output::new(),
        out_shares_terminal: io::stdout().is_terminal(),
        held: Vec::new(),
        shown: Instant::now(),
        totals: Totals::default(),
        progress,
        state: state.clone(),
        started: Instant::now(),
        quiet: args.quiet,
        finished: false,
    }));
    let stopping = Arc::new(AtomicBool::new(false));
    if let Err(error) = stop_on_signal(&sink, &stopping) {
        eprintln!("mimebase: scan: cannot handle SIGINT and SIGTERM: {error}");
        return ExitCode::from(super::EXIT_USAGE);
    }
    let mut batch = match &state {
        None => Batch::new(walker, args.resolution.options()),
        Some(state) => incremental(walker, state, args),
    };
    batch = batch.with_max_message_bytes(args.limits.max_message_bytes);
    if let Some(jobs) = args.jobs {
        batch = batch.with_jobs(usize::from(jobs));
    }
    let keep_sources = state.is_some();
    // Decided once for the run: the default lines keep their writer untouched.
    let fields = (!args.fields.is_empty()).then(|| args.fields.iter().copied().collect::<Fields>());
    let mut records =
        batch.records(move |record, spare| Done::of(record, spare, fields, keep_sources));
    let written = write_all(&mut records, &sink, &stopping);
    let mut sink = lock(&sink);
    let written = written.and_then(|()| sink.flush().map_err(Stop::Output));
    // Stops the workers, if the output failed.
    drop(records);
    sink.progress.finish();
    sink.finished = true;
    let saved = match (&written, &sink.state) {
        (Ok(()), Some(state)) => lock(state).save(true).map_err(Stop::State),
        _ => Ok(()),
    };
    match written.and(saved) {
        Err(Stop::Output(error)) if error.kind() == io::ErrorKind::BrokenPipe => {
            return ExitCode::SUCCESS;
        }
        Err(Stop::Output(error)) => {
            eprintln!("mimebase: writing output: {error}");
            return ExitCode::from(super::EXIT_USAGE);
        }
        Err(Stop::State(error)) => {
            eprintln!("mimebase: scan: {error}");
            return ExitCode::from(super::EXIT_USAGE);
        }
        Ok(()) => {}
    }
    sink.say_notices();
    if !args.quiet {
        eprintln!(
            "mimebase: scan: {}",
            sink.totals.summary(sink.started.elapsed())
        );
    }
    if sink.totals.errors > 0 {
        ExitCode::from(super::EXIT_INPUT_FAILED)
    } else {
        ExitCode::SUCCESS
    }
}

/// The batch of `scan --state`: the walk's files passed over when the state says they hold
/// nothing new, and an mbox file read on from where an earlier run stopped.
fn incremental(walker: Walker, state: &Arc<Mutex<State>>, args: &ScanArgs) -> Batch {
    let planning = Arc::clone(state);
    let inputs = walker.filter(move |found| match found {
        Found::File { path, in_maildir } => lock(&planning).plan(path, *in_maildir).is_some(),
        Found::Stdin | Found::DanglingLink { .. } | Found::Error { .. } => true,
    });
    let opening = Arc::clone(state);
    Batch::new(inputs, args.resolution.options()).with_opener(move |found, limit| {
        if let Found::File {
            path,
            in_maildir: false,
        } = &found
            && let Some(from) = lock(&opening).read_from(path)
        {
            return mailbox::open_at(path, from, limit);
        }
        mailbox::open(found, limit)
    })
}

/// Why the run stopped before its end.
enum Stop {
    /// The output could not be written.
    Output(io::Error),
    /// The state could not be saved.
    State(String),
}

/// How long a signal waits for the line being written: more than writing any line takes,
/// unless the output blocks.
const SIGNAL_WAIT: Duration = Duration::from_secs(2);

/// `mutex` locked, if it can be within `wait`.
fn lock_within<T>(mutex: &Mutex<T>, wait: Duration) -> Option<MutexGuard<'_, T>> {
    let deadline = Instant::now() + wait;
    loop {
        match mutex.try_lock() {
            Ok(guard) => return Some(guard),
            Err(std::sync::TryLockError::Poisoned(poisoned)) => return Some(poisoned.into_inner()),
            Err(std::sync::TryLockError::WouldBlock) if Instant::now() < deadline => {
                std::thread::sleep(Duration::from_millis(5));
            }
            Err(std::sync::TryLockError::WouldBlock) => return None,
        }
    }
}

/// A lock whose holder never panics while holding it, taken even if poisoned.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Writes every line in order, and gives each line's buffer back to the engine: reusing it
/// spares an allocation per message, and the page faults of fresh memory for large ones.
/// With a state, saves it now and then, after flushing the output ([`State::checkpoint_due`]).
/// Once a signal is being handled (`stopping`), writes nothing more and waits for the
/// process to end (see [`stop_on_signal`]).
fn write_all(
    records: &mut Records<Done>,
    sink: &Mutex<Sink>,
    stopping: &AtomicBool,
) -> Result<(), Stop> {
    while let Some(scanned) = records.next() {
        let done = match scanned {
            Scanned::Record(done) => done,
            Scanned::DanglingLink(path) => Done::dangling(&path),
            _ => continue,
        };
        let mut sink = lock(sink);
        if stopping.load(Ordering::SeqCst) {
            drop(sink);
            loop {
                std::thread::park();
            }
        }
        let line = sink.write(done).map_err(Stop::Output)?;
        if let Some(state) = sink.state.clone()
            && lock(&state).checkpoint_due()
        {
            sink.flush().map_err(Stop::Output)?;
            lock(&state).save(false).map_err(Stop::State)?;
        }
        drop(sink);
        if line.capacity() > 0 {
            records.recycle(Done::reusing(line));
        }
    }
    Ok(())
}

/// Starts the thread that ends the run on SIGINT or SIGTERM: it waits for the line being
/// written, writes no other, flushes the output, says the summary line (that the run was
/// interrupted), saves the state (for exactly the records written), and ends the process as
/// the signal would have (status 130 or 143 in the shell). A line that cannot be written
/// within [`SIGNAL_WAIT`] (the output blocks) ends it without these; so does a second signal
/// while they are done.
fn stop_on_signal(sink: &Arc<Mutex<Sink>>, stopping: &Arc<AtomicBool>) -> io::Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])?;
    let (sink, stopping) = (Arc::clone(sink), Arc::clone(stopping));
    std::thread::Builder::new()
        .name("mimebase-scan-signals".to_owned())
        .spawn(move || {
            let Some(signal) = signals.forever().next() else {
                return;
            };
            stopping.store(true, Ordering::SeqCst);
            // A second signal ends the process at once, should the output block the flush.
            let _ = std::thread::Builder::new()
                .name("mimebase-scan-signals-2".to_owned())
                .spawn(move || {
                    if let Some(again) = signals.forever().next() {
                        let _ = signal_hook::low_level::emulate_default_handler(again);
                        std::process::exit(128 + again);
                    }
                });
            let name = if signal == SIGINT {
                "SIGINT"
            } else {
                "SIGTERM"
            };
            match lock_within(&sink, SIGNAL_WAIT) {
                Some(sink) if sink.finished => {
                    // The run has ended: it says its own summary.
                    return;
                }
                Some(mut sink) => sink.interrupted(name),
                // A line being written to an output that does not take it (a pager that no
                // one reads): the state cannot be saved for a line written in part, and is
                // left as the last checkpoint saved it.
                None => eprintln!(
                    "mimebase: scan: interrupted by {name} while the output was blocked; no \
                     summary, and the state is that of the last checkpoint"
                ),
            }
            let _ = signal_hook::low_level::emulate_default_handler(signal);
            std::process::exit(128 + signal);
        })?;
    Ok(())
}

/// One record made ready for the output: its line and what it adds to the totals.
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
    /// Where the record was read from, kept for `--state` alone.
    source: Option<Source>,
}

impl Done {
    /// No line.
    fn nothing() -> Self {
        Done {
            line: Vec::new(),
            message_bytes: None,
            progress_bytes: 0,
            urls: 0,
            failure: None,
            notice: None,
            source: None,
        }
    }

    /// No line, and a notice on stderr: a dangling symbolic link, passed over.
    fn dangling(path: &Path) -> Self {
        Done {
            notice: Some(format!(
                "mimebase: {}: skipped: a symbolic link to nothing",
                super::output::Name::of(&Source::unknown("").with_path(path)).escaped()
            )),
            ..Done::nothing()
        }
    }

    /// A line's buffer, emptied, for the engine to hand to [`Done::of`] again.
    fn reusing(line: Vec<u8>) -> Self {
        Done {
            line,
            ..Done::nothing()
        }
    }

    /// The line of `record`, written into the buffer of `spare` (an earlier line's, its
    /// contents dropped and its allocation kept). Runs on the engine's threads. A panic while
    /// writing the line becomes an `internal` error line, as one while analyzing does, so that
    /// one message cannot end a batch. With `fields`, a `message` line has only those keys
    /// (`--fields`); with `keep_source`, the record's [`Source`] is kept.
    fn of(
        record: ScanLine<'static>,
        spare: Option<Done>,
        fields: Option<Fields>,
        keep_source: bool,
    ) -> Done {
        let mut line = spare.map(|done| done.line).unwrap_or_default();
        line.clear();
        match &record {
            ScanLine::Message { source, report } => {
                let written = catch_unwind(AssertUnwindSafe(|| {
                    let length = source.length.unwrap_or_default() / 2;
                    line.reserve(usize::try_from(length).unwrap_or_default() + 256);
                    match fields {
                        None => record.write_json(&mut line),
                        Some(fields) => record.write_json_fields(fields, &mut line),
                    }
                    line
                }));
                match written {
                    Ok(mut line) => {
                        line.push(b'\n');
                        Done {
                            line,
                            message_bytes: source.length,
                            progress_bytes: source.length.unwrap_or_default(),
                            urls: report.urls.len(),
                            failure: None,
                            notice: None,
                            source: keep_source.then(|| source.as_ref().clone()),
                        }
                    }
                    Err(_) => failure(
                        source,
                        ScanErrorKind::Internal,
                        "mimebase panicked while analyzing this message (a bug: please report it)",
                        keep_source,
                    ),
                }
            }
            ScanLine::Error {
                source,
                kind,
                message,
            } => failure(
                source,
                *kind,
                &super::output::failure_message(*kind, message),
                keep_source,
            ),
            // A kind of record this command does not know: its line as the library writes it.
            _ => {
                record.write_json(&mut line);
                line.push(b'\n');
                Done {
                    line,
                    ..Done::nothing()
                }
            }
        }
    }
}

/// The error line for `source`, and its line on stderr; with `keep_source`, `source` kept.
fn failure(source: &Source, kind: ScanErrorKind, message: &str, keep_source: bool) -> Done {
    let mut line = serde_json::to_vec(&ScanLine::error(source, kind, message)).unwrap_or_default();
    line.push(b'\n');
    // Escaped as `inspect` and `urls` name an input: a name that is not UTF-8 keeps its bytes.
    let place = super::output::place(source);
    Done {
        line,
        message_bytes: None,
        progress_bytes: source.length.unwrap_or_default(),
        urls: 0,
        failure: Some(format!(
            "mimebase: {place}: {}",
            super::output::escape(message)
        )),
        notice: None,
        source: keep_source.then(|| source.clone()),
    }
}

/// Where lines go: stdout, the totals, the progress bar, and stderr for failures.
struct Sink {
    out: Output,
    /// stdout is a terminal: with a progress bar on stderr, lines written between two draws
    /// of the bar would be glued to it, so they are held in `held` and written with the bar
    /// cleared, then drawn again, at most every [`SHOW_EVERY`].
    out_shares_terminal: bool,
    held: Vec<u8>,
    /// When held lines were last written.
    shown: Instant,
    totals: Totals,
    progress: Progress,
    /// With `--state`: updated as each record is written.
    state: Option<Arc<Mutex<State>>>,
    /// When the run began.
    started: Instant,
    /// `--quiet`: no summary line.
    quiet: bool,
    /// The run has ended: a signal now changes nothing.
    finished: bool,
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
            self.out.write_line(&done.line)?;
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
        if let (Some(state), Some(source)) = (&self.state, &done.source) {
            lock(state).written(source, done.failure.is_some());
            self.say_notices();
        }
        self.progress.advance(done.progress_bytes, &self.totals);
        let mut line = done.line;
        line.clear();
        Ok(line)
    }
}

/// stdout, with the lines gathered into writes of up to [`Output::CAPACITY`] bytes. A line is
/// copied into the buffer only when it is short and fits: a long one, or one that would not
/// fit, is written from its own buffer right after what is gathered, so that the long lines,
/// which hold most of the output's bytes, are never copied. (Not one vectored write of both:
/// stdout's line buffering searches every byte of a vectored write for a line feed, where a
/// plain write is searched from its end.)
struct Output {
    stdout: io::Stdout,
    buffer: Vec<u8>,
}

impl Output {
    /// The most bytes gathered before they are written.
    const CAPACITY: usize = 256 << 10;
    /// Lines of this many bytes or more are written from their own buffer: few lines are
    /// that long, so the writes they add are few, while copying them would be most of the
    /// copying.
    const DIRECT: usize = 16 << 10;

    fn new() -> Self {
        Output {
            stdout: io::stdout(),
            buffer: Vec::with_capacity(Self::CAPACITY),
        }
    }

    /// Writes `line` (or gathers it for a later write).
    fn write_line(&mut self, line: &[u8]) -> io::Result<()> {
        if line.len() < Self::DIRECT && self.buffer.len() + line.len() <= Self::CAPACITY {
            self.buffer.extend_from_slice(line);
            return Ok(());
        }
        let mut stdout = self.stdout.lock();
        stdout.write_all(&self.buffer)?;
        self.buffer.clear();
        stdout.write_all(line)
    }

    /// Writes what is gathered, and flushes stdout.
    fn flush(&mut self) -> io::Result<()> {
        let mut stdout = self.stdout.lock();
        stdout.write_all(&self.buffer)?;
        self.buffer.clear();
        stdout.flush()
    }
}

impl Sink {
    /// Says on stderr what the state has to say (an mbox file read whole again).
    fn say_notices(&self) {
        if let Some(state) = &self.state {
            let notices = std::mem::take(&mut lock(state).notices);
            for notice in notices {
                self.progress.eprintln(&notice);
            }
        }
    }

    /// Ends the run after `signal` (its name): flushes the output, says the summary line and
    /// saves the state, when the output was flushed, for the records written.
    fn interrupted(&mut self, signal: &str) {
        let flushed = self.flush();
        self.progress.finish();
        self.say_notices();
        if !self.quiet {
            eprintln!(
                "mimebase: scan: interrupted by {signal}: {}",
                self.totals.summary(self.started.elapsed())
            );
        }
        match (flushed, &self.state) {
            (Ok(()), Some(state)) => {
                if let Err(error) = lock(state).save(false) {
                    eprintln!("mimebase: scan: {error}");
                }
            }
            (Err(error), _) if error.kind() != io::ErrorKind::BrokenPipe => {
                eprintln!("mimebase: writing output: {error}");
            }
            _ => {}
        }
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
            out.write_line(held)?;
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
                "mimebase: scan: no total for the progress bar: {}",
                super::output::escape(&error.to_string())
            ));
        }
    }

    fn advance(&self, bytes: u64, totals: &Totals) {
        if let Some(bar) = &self.bar {
            bar.set_message(progress_message(totals));
            bar.inc(bytes);
        }
    }

    /// Writes `text` on stderr: a line whose paths and messages are escaped already (see
    /// [`escape`](super::output::escape)).
    fn eprintln(&self, text: &str) {
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
