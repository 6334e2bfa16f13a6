//! `mimebase scan`: messages from [`sources`](super::sources) analyzed on `--jobs` threads,
//! one NDJSON line each ([`mimebase::scan`]), written in input order.
//!
//! With one job everything happens on the main thread: read, analyze, write. With more, a
//! reader thread walks the inputs and hands each message to a rayon pool, and the main thread
//! writes the lines as they come back, putting them in input order. A [`Window`] bounds what
//! is in flight (read and not yet written) by count and by bytes, so that memory follows
//! `--jobs`, not the corpus, however far ahead the reader could go.

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::process::ExitCode;
use std::sync::{Arc, Condvar, Mutex, PoisonError, mpsc};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mimebase::scan::{ScanErrorKind, ScanLine, Source};
use mimebase::{Options, analyze};

use super::args::ScanArgs;
use super::sources::{Found, Input, Job, Jobs, Roots, Walker};

/// Messages in flight per job, at most.
const IN_FLIGHT_PER_JOB: usize = 16;
/// Bytes of messages in flight, at most (or one message, when it is larger).
const IN_FLIGHT_BYTES: usize = 64 << 20;

/// Runs `mimebase scan`.
pub(crate) fn run(args: &ScanArgs) -> ExitCode {
    let reads_stdin = args.paths.iter().any(|p| p == Path::new("-"));
    if reads_stdin && args.paths_from.as_deref() == Some(Path::new("-")) {
        eprintln!("mimebase: scan: `-` and `--paths-from -` cannot both read standard input");
        return ExitCode::from(2);
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
    let source = Jobs::new(Walker::new(roots()), args.max_message_bytes);

    let progress = Progress::new();
    let countable = !reads_stdin && args.paths_from.as_deref() != Some(Path::new("-"));
    if countable {
        progress.count_total(Walker::new(roots()));
    }
    let stdout = io::stdout();
    let mut sink = Sink {
        out: io::BufWriter::with_capacity(256 << 10, stdout.lock()),
        totals: Totals::default(),
        progress,
    };
    let started = Instant::now();
    let written = if jobs <= 1 {
        sequential(source, &options, &mut sink)
    } else {
        parallel(source, jobs, options, &mut sink)
    }
    .and_then(|()| sink.out.flush());
    sink.progress.finish();
    if let Err(error) = written {
        if error.kind() == io::ErrorKind::BrokenPipe {
            return ExitCode::SUCCESS;
        }
        eprintln!("mimebase: writing output: {error}");
        return ExitCode::from(2);
    }
    eprintln!("mimebase: scan: {}", sink.totals.summary(started.elapsed()));
    if sink.totals.errors > 0 {
        ExitCode::from(2)
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
}

/// Analyzes one job and writes its line. A panic inside the library becomes an `internal`
/// error line, so that one message cannot end a batch (SPEC §6).
fn process(job: Job, options: &Options) -> Done {
    let Job { source, input } = job;
    let progress_bytes = source.length.unwrap_or_default();
    match input {
        Input::Message(raw) => {
            let analyzed = catch_unwind(AssertUnwindSafe(|| {
                let report = analyze(&raw, options);
                let mut line = Vec::with_capacity(raw.len() / 2 + 256);
                serde_json::to_writer(
                    &mut line,
                    &ScanLine::Message {
                        source: &source,
                        report: &report,
                    },
                )
                .map(|()| (line, report.urls.len()))
            }));
            match analyzed {
                Ok(Ok((mut line, urls))) => {
                    line.push(b'\n');
                    Done {
                        line,
                        message_bytes: source.length,
                        progress_bytes,
                        urls,
                        failure: None,
                    }
                }
                Ok(Err(error)) => failure(&source, ScanErrorKind::Internal, &error.to_string()),
                Err(_) => failure(
                    &source,
                    ScanErrorKind::Internal,
                    "mimebase panicked while analyzing this message (a bug: please report it)",
                ),
            }
        }
        Input::Error(kind, message) => failure(&source, kind, &message),
    }
}

/// The error line for `source`, and its line on stderr.
fn failure(source: &Source, kind: ScanErrorKind, message: &str) -> Done {
    let mut line = serde_json::to_vec(&ScanLine::Error {
        source,
        kind,
        message,
    })
    .unwrap_or_default();
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
    }
}

/// `--jobs 1`: one thread does everything, in order.
fn sequential(source: Jobs, options: &Options, sink: &mut Sink<'_>) -> io::Result<()> {
    for job in source {
        sink.write(process(job, options))?;
    }
    Ok(())
}

/// `--jobs N`: a reader thread feeds a rayon pool of N threads; this thread writes the lines
/// in input order.
fn parallel(source: Jobs, jobs: usize, options: Options, sink: &mut Sink<'_>) -> io::Result<()> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        // As much stack as the main thread has, so that no message needs more with --jobs.
        .stack_size(8 << 20)
        .thread_name(|i| format!("mimebase-scan-{i}"))
        .build()
        .map_err(io::Error::other)?;
    let window = Arc::new(Window::new(jobs * IN_FLIGHT_PER_JOB, IN_FLIGHT_BYTES));
    let options = Arc::new(options);
    let (sender, receiver) = mpsc::channel::<(u64, usize, Done)>();
    let reader_window = Arc::clone(&window);
    // Not joined: when output fails, the reader may be blocked reading a path list.
    std::thread::Builder::new()
        .name("mimebase-scan-reader".to_owned())
        .spawn(move || {
            for (sequence, job) in (0_u64..).zip(source) {
                let held = job.held_bytes();
                if !reader_window.acquire(held) {
                    return;
                }
                let sender = sender.clone();
                let options = Arc::clone(&options);
                pool.spawn(move || {
                    // The writer may be gone (closed output): nothing left to do then.
                    let _ = sender.send((sequence, held, process(job, &options)));
                });
            }
        })?;
    let mut next = 0_u64;
    let mut waiting: BTreeMap<u64, (usize, Done)> = BTreeMap::new();
    let written = (|| {
        for (sequence, held, done) in receiver {
            waiting.insert(sequence, (held, done));
            while let Some((held, done)) = waiting.remove(&next) {
                sink.write(done)?;
                window.release(held);
                next += 1;
            }
        }
        Ok(())
    })();
    window.close();
    written
}

/// What may be in flight between the reader and the writer: a number of messages and a number
/// of bytes (a message larger than that alone still passes, by itself).
struct Window {
    state: Mutex<WindowState>,
    changed: Condvar,
    max_count: usize,
    max_bytes: usize,
}

#[derive(Default)]
struct WindowState {
    count: usize,
    bytes: usize,
    closed: bool,
}

impl Window {
    fn new(max_count: usize, max_bytes: usize) -> Self {
        Window {
            state: Mutex::default(),
            changed: Condvar::new(),
            max_count,
            max_bytes,
        }
    }

    /// Waits until `bytes` more fit; false when the writer has gone.
    fn acquire(&self, bytes: usize) -> bool {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        while !state.closed
            && state.count > 0
            && (state.count >= self.max_count || state.bytes + bytes > self.max_bytes)
        {
            state = self
                .changed
                .wait(state)
                .unwrap_or_else(PoisonError::into_inner);
        }
        state.count += 1;
        state.bytes += bytes;
        !state.closed
    }

    fn release(&self, bytes: usize) {
        let mut state = self.state.lock().unwrap_or_else(PoisonError::into_inner);
        state.count = state.count.saturating_sub(1);
        state.bytes = state.bytes.saturating_sub(bytes);
        self.changed.notify_all();
    }

    fn close(&self) {
        self.state
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .closed = true;
        self.changed.notify_all();
    }
}

/// Where lines go: stdout, the totals, the progress bar, and stderr for failures.
struct Sink<'a> {
    out: io::BufWriter<io::StdoutLock<'a>>,
    totals: Totals,
    progress: Progress,
}

impl Sink<'_> {
    fn write(&mut self, done: Done) -> io::Result<()> {
        self.out.write_all(&done.line)?;
        match done.message_bytes {
            Some(bytes) => {
                self.totals.messages += 1;
                self.totals.bytes += bytes;
                self.totals.urls += done.urls as u64;
            }
            None => self.totals.errors += 1,
        }
        if let Some(failure) = &done.failure {
            self.progress.eprintln(failure);
        }
        self.progress.advance(done.progress_bytes);
        Ok(())
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
            "{} messages, {megabytes:.1} MB, {} URLs, {} errors in {seconds:.2} s ({rate:.1} MB/s)",
            self.messages, self.urls, self.errors
        )
    }
}

/// The progress bar: on stderr when it is a terminal, else nothing at all.
struct Progress {
    bar: Option<ProgressBar>,
}

impl Progress {
    fn new() -> Self {
        if !io::stderr().is_terminal() {
            return Progress { bar: None };
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr());
        bar.set_style(
            ProgressStyle::with_template(
                "{spinner} {decimal_bytes} read, {decimal_bytes_per_sec}, {elapsed} (counting…)",
            )
            .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress { bar: Some(bar) }
    }

    /// Walks the inputs on a thread of its own, adding up file sizes, to give the bar a total
    /// and an ETA; the walk reads directories, not files.
    fn count_total(&self, walker: Walker) {
        let Some(bar) = self.bar.clone() else { return };
        let counted = std::thread::Builder::new()
            .name("mimebase-scan-count".to_owned())
            .spawn(move || {
                let total = walker
                    .filter_map(|found| match found {
                        Found::File { path, .. } => std::fs::metadata(path).ok(),
                        Found::Stdin | Found::Error { .. } => None,
                    })
                    .map(|metadata| metadata.len())
                    .sum();
                bar.set_length(total);
                if let Ok(style) = ProgressStyle::with_template(
                    "{bar:30} {decimal_bytes}/{decimal_total_bytes}, {decimal_bytes_per_sec}, ETA {eta}",
                ) {
                    bar.set_style(style);
                }
            });
        if let Err(error) = counted {
            self.eprintln(&format!(
                "mimebase: scan: no total for the progress bar: {error}"
            ));
        }
    }

    fn advance(&self, bytes: u64) {
        if let Some(bar) = &self.bar {
            bar.inc(bytes);
        }
    }

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
