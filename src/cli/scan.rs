//! `mimebase scan`: messages from [`sources`](super::sources) analyzed on `--jobs` threads,
//! one NDJSON line each ([`mimebase::scan`]), written in input order.
//!
//! With one job everything happens on the main thread: read, analyze, write. With N jobs, N
//! rayon threads each loop: take the next message from the shared source (reading it), analyze
//! it, and hand its line to the shared writer, which writes every line whose predecessors are
//! written and keeps the others until then. No thread only reads or only writes, so N threads
//! keep N cores busy with few hand-overs. Memory in flight: the N messages being analyzed, and
//! at most [`WAITING_PER_JOB`] × N finished lines waiting for an earlier one (a thread does not
//! take a message that far ahead of the writer).

use std::collections::BTreeMap;
use std::io::{self, IsTerminal, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::process::ExitCode;
use std::sync::{Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use mimebase::scan::{ScanErrorKind, ScanLine, Source};
use mimebase::{Options, analyze};

use super::args::ScanArgs;
use super::sources::{Found, Input, Job, Jobs, Roots, Walker};

/// How far ahead of the writer a thread may take messages, per job.
const WAITING_PER_JOB: u64 = 16;

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
    let mut sink = Sink {
        out: io::BufWriter::with_capacity(256 << 10, io::stdout()),
        totals: Totals::default(),
        progress,
    };
    let started = Instant::now();
    let written = if jobs <= 1 {
        sequential(source, &options, &mut sink)
    } else {
        parallel(source, jobs, &options, &mut sink)
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
fn sequential(source: Jobs, options: &Options, sink: &mut Sink) -> io::Result<()> {
    for job in source {
        sink.write(process(job, options))?;
    }
    Ok(())
}

/// `--jobs N`: N rayon threads read, analyze and write (see the module docs).
fn parallel(source: Jobs, jobs: usize, options: &Options, sink: &mut Sink) -> io::Result<()> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        // As much stack as the main thread has, so that no message needs more with --jobs.
        .stack_size(8 << 20)
        .thread_name(|i| format!("mimebase-scan-{i}"))
        .build()
        .map_err(io::Error::other)?;
    let shared = Shared {
        input: Mutex::new((source, 0)),
        output: Mutex::new(Ordered {
            sink,
            next: 0,
            waiting: BTreeMap::new(),
            failed: None,
        }),
        written: Condvar::new(),
        window: WAITING_PER_JOB * jobs as u64,
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

/// What the threads of [`parallel`] share.
struct Shared<'a> {
    /// The messages, and the sequence number of the next one.
    input: Mutex<(Jobs, u64)>,
    output: Mutex<Ordered<'a>>,
    /// Signalled when the writer moves on, or fails.
    written: Condvar,
    /// How far ahead of the writer's next line a thread may take a message.
    window: u64,
}

/// The writer's side: lines written in sequence.
struct Ordered<'a> {
    sink: &'a mut Sink,
    /// The sequence number of the next line to write.
    next: u64,
    /// Lines finished before an earlier one.
    waiting: BTreeMap<u64, Done>,
    /// The output failed (a closed pipe): every thread stops.
    failed: Option<io::Error>,
}

impl Shared<'_> {
    /// One thread's loop. Locks are taken input first, then output, never the other way.
    fn work(&self, options: &Options) {
        loop {
            let (sequence, job) = {
                let mut input = self.input.lock().unwrap_or_else(PoisonError::into_inner);
                let sequence = input.1;
                let mut output = self.output.lock().unwrap_or_else(PoisonError::into_inner);
                while output.failed.is_none() && sequence >= output.next + self.window {
                    output = self
                        .written
                        .wait(output)
                        .unwrap_or_else(PoisonError::into_inner);
                }
                if output.failed.is_some() {
                    return;
                }
                drop(output);
                let Some(job) = input.0.next() else { return };
                input.1 += 1;
                (sequence, job)
            };
            let done = process(job, options);
            let mut output = self.output.lock().unwrap_or_else(PoisonError::into_inner);
            output.waiting.insert(sequence, done);
            let before = output.next;
            while output.failed.is_none() {
                let next = output.next;
                let Some(done) = output.waiting.remove(&next) else {
                    break;
                };
                match output.sink.write(done) {
                    Ok(()) => output.next += 1,
                    Err(error) => output.failed = Some(error),
                }
            }
            if output.next != before || output.failed.is_some() {
                self.written.notify_all();
            }
            if output.failed.is_some() {
                return;
            }
        }
    }
}

/// Where lines go: stdout, the totals, the progress bar, and stderr for failures.
struct Sink {
    out: io::BufWriter<io::Stdout>,
    totals: Totals,
    progress: Progress,
}

impl Sink {
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
