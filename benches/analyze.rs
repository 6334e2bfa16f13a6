//! `analyze` on the throughput corpus (`../shared/corpus/bench/`, one group per source), with
//! mail-parser's `MessageParser::parse` on the same bytes as the floor, and `analyze` plus the
//! `scan` line serialization on the whole corpus. Messages are read into memory first: no I/O
//! is timed.
//!
//! `cargo bench --bench analyze`; throughput in the `bytes/s` column. `scripts/bench-scan`
//! times the whole `mimebase scan` command instead.
//!
//! The whole corpus at once: `analyze_all` beside `mail_parser_parse_all` (the floor; the
//! ratio of their throughputs is a target of docs/PERFORMANCE.md, >= 1.3x), then the stages
//! of `analyze` one by one (`stage_*`): splitting the MIME structure with the header fields;
//! that plus undoing the transfer encodings and charsets of the HTML parts; the HTML scan alone
//! over the decoded texts; the plain-text link finder alone over the decoded `text/plain` texts
//! (not yet part of `analyze`); the NDJSON line of ready reports (written by `ScanLine::write_json`, as
//! `scan` does); and three quoted-printable decoders over the corpus's quoted-printable bodies (ours,
//! mail-parser's, the `quoted_printable` crate's). What `analyze_all` spends beyond the stages is base
//! precedence, header URLs and URL resolution.
//!
//! Before the timings, the bench counts heap allocations (calls to `alloc` and `realloc` of
//! the global allocator, here the system's) per message over the whole throughput corpus, for
//! `analyze`, for `analyze` plus the `scan` line, and for mail-parser's `parse`, and prints
//! them; then it counts the plain-text links of the corpus's `text/plain` parts, all of them
//! and those of messages without an HTML part.

// A benchmark, not library code: it stops at the first corpus file it cannot read.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::panic
)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use divan::Bencher;
use divan::counter::BytesCount;
use mimebase::scan::{self, ScanLine};
use mimebase::{Options, analyze, stages};

const SOURCES: &[&str] = &[
    "csdmc2010",
    "mhtml-parser",
    "mhtml2html",
    "phishing_pot",
    "trec07p",
];

/// The messages of one source, in memory.
type Source = (&'static str, Vec<Vec<u8>>);

/// Every message of each source, in memory.
static CORPUS: LazyLock<Vec<Source>> = LazyLock::new(|| {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/corpus/bench");
    SOURCES
        .iter()
        .map(|&source| {
            let mut files = Vec::new();
            collect(&root.join(source), &mut files);
            assert!(
                !files.is_empty(),
                "no messages in {}",
                root.join(source).display()
            );
            let messages = files.iter().map(|f| std::fs::read(f).unwrap()).collect();
            (source, messages)
        })
        .collect()
});

fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(&path, files);
        } else {
            files.push(path);
        }
    }
}

fn messages(source: &str) -> &'static [Vec<u8>] {
    CORPUS
        .iter()
        .find(|(name, _)| *name == source)
        .map(|(_, messages)| messages.as_slice())
        .unwrap()
}

fn bytes(messages: &[Vec<u8>]) -> BytesCount {
    BytesCount::new(messages.iter().map(Vec::len).sum::<usize>())
}

/// The system allocator, counting the calls that allocate (`alloc`, `alloc_zeroed`) and
/// those that grow or shrink a block (`realloc`).
struct CountingAllocator;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);
static REALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every call is passed on unchanged to `System`, which upholds `GlobalAlloc`'s
// contract; the counters are atomics and do not allocate.
#[allow(unsafe_code)] // counting allocations takes a `GlobalAlloc`, an unsafe trait
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's guarantees, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's guarantees, passed on.
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's guarantees, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        REALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's guarantees, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: CountingAllocator = CountingAllocator;

/// Allocations and reallocations per message of `work` over every message of the corpus.
fn allocations_per_message(mut work: impl FnMut(&[u8])) -> (f64, f64) {
    let all: Vec<&Vec<u8>> = CORPUS.iter().flat_map(|(_, m)| m).collect();
    let (allocations, reallocations) = (
        ALLOCATIONS.load(Ordering::Relaxed),
        REALLOCATIONS.load(Ordering::Relaxed),
    );
    for message in &all {
        work(message);
    }
    let count = all.len() as f64;
    (
        (ALLOCATIONS.load(Ordering::Relaxed) - allocations) as f64 / count,
        (REALLOCATIONS.load(Ordering::Relaxed) - reallocations) as f64 / count,
    )
}

fn main() {
    let options = Options::new();
    let source = scan::Source::file("bench", 0);
    let parser = mail_parser::MessageParser::default();
    let mut line = Vec::new();
    let counts = [
        (
            "analyze",
            allocations_per_message(|message| {
                black_box(analyze(message, &options));
            }),
        ),
        (
            "analyze + scan line",
            allocations_per_message(|message| {
                let report = analyze(message, &options);
                line.clear();
                ScanLine::message(&source, &report).write_json(&mut line);
                black_box(&line);
            }),
        ),
        (
            "mail-parser parse",
            allocations_per_message(|message| {
                black_box(parser.parse(message));
            }),
        ),
    ];
    let messages: usize = CORPUS.iter().map(|(_, m)| m.len()).sum();
    println!("heap allocations per message ({messages} messages of ../shared/corpus/bench):");
    for (what, (allocations, reallocations)) in counts {
        println!("  {what:<22} {allocations:7.1} alloc {reallocations:7.1} realloc");
    }
    let (mut all, mut without_html) = ([0usize; 3], [0usize; 4]);
    let mut kinds = [0usize; 3];
    for message in all_messages() {
        let texts = stages::plain_texts(message);
        let mut links = 0;
        for text in &texts {
            let counts = stages::find_text_links(text);
            links += counts.iter().sum::<usize>();
            kinds.iter_mut().zip(counts).for_each(|(k, c)| *k += c);
        }
        all[0] += texts.len();
        all[1] += texts.iter().map(String::len).sum::<usize>();
        all[2] += links;
        if stages::html_texts(message).is_empty() {
            without_html[0] += 1;
            without_html[1] += texts.len();
            without_html[2] += texts.iter().map(String::len).sum::<usize>();
            without_html[3] += links;
        }
    }
    println!(
        "plain-text links: {} in {} text/plain bodies ({} bytes decoded); of them {} in the {} \
         bodies ({} bytes) of the {} messages without an HTML part",
        all[2], all[0], all[1], without_html[3], without_html[1], without_html[2], without_html[0]
    );
    println!(
        "  of all of them: {} URLs with a scheme, {} www. hosts, {} e-mail addresses",
        kinds[0], kinds[1], kinds[2]
    );
    divan::main();
}

#[divan::bench(args = SOURCES, sample_count = 10, sample_size = 1)]
fn analyze_source(bencher: Bencher, source: &str) {
    let messages = messages(source);
    let options = Options::new();
    bencher.counter(bytes(messages)).bench(|| {
        for message in messages {
            black_box(analyze(black_box(message), &options));
        }
    });
}

/// The floor: what merely parsing the same bytes costs (mail-parser 0.11.9).
#[divan::bench(args = SOURCES, sample_count = 10, sample_size = 1)]
fn mail_parser_parse(bencher: Bencher, source: &str) {
    let messages = messages(source);
    let parser = mail_parser::MessageParser::default();
    bencher.counter(bytes(messages)).bench(|| {
        for message in messages {
            black_box(parser.parse(black_box(message.as_slice())));
        }
    });
}

/// What `scan` does per message once it is in memory: analyze, then write the NDJSON line.
#[divan::bench(sample_count = 5, sample_size = 1)]
fn analyze_and_serialize_all(bencher: Bencher) {
    let all: Vec<&Vec<u8>> = CORPUS.iter().flat_map(|(_, m)| m).collect();
    let total = all.iter().map(|m| m.len()).sum::<usize>();
    let options = Options::new();
    let source = scan::Source::file("bench", 0);
    bencher.counter(BytesCount::new(total)).bench(|| {
        let mut line = Vec::new();
        for message in &all {
            let report = analyze(message, &options);
            line.clear();
            ScanLine::message(&source, &report).write_json(&mut line);
            black_box(&line);
        }
    });
}

/// Every message of the corpus, in memory.
fn all_messages() -> Vec<&'static [u8]> {
    CORPUS
        .iter()
        .flat_map(|(_, m)| m.iter().map(Vec::as_slice))
        .collect()
}

fn total(messages: &[&[u8]]) -> BytesCount {
    BytesCount::new(messages.iter().map(|m| m.len()).sum::<usize>())
}

/// `analyze` over the whole corpus: compare with `mail_parser_parse_all`.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn analyze_all(bencher: Bencher) {
    let all = all_messages();
    let options = Options::new();
    bencher.counter(total(&all)).bench(|| {
        for message in &all {
            black_box(analyze(black_box(message), &options));
        }
    });
}

/// The floor over the whole corpus: mail-parser's `parse`.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn mail_parser_parse_all(bencher: Bencher) {
    let all = all_messages();
    let parser = mail_parser::MessageParser::default();
    bencher.counter(total(&all)).bench(|| {
        for message in &all {
            black_box(parser.parse(black_box(*message)));
        }
    });
}

/// Stage 1: the MIME structure and the header fields.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn stage_1_split(bencher: Bencher) {
    let all = all_messages();
    bencher.counter(total(&all)).bench(|| {
        for message in &all {
            black_box(stages::split(black_box(message)));
        }
    });
}

/// Stage 1 and 2: also the transfer encoding and charset of every HTML part undone.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn stage_2_split_and_decode_html(bencher: Bencher) {
    let all = all_messages();
    bencher.counter(total(&all)).bench(|| {
        for message in &all {
            black_box(stages::html_texts(black_box(message)));
        }
    });
}

/// Stage 3: the HTML scan alone, over the decoded texts of every HTML part (the counter is
/// the decoded text's bytes).
#[divan::bench(sample_count = 10, sample_size = 1)]
fn stage_3_html_scan(bencher: Bencher) {
    let texts: Vec<String> = all_messages()
        .iter()
        .flat_map(|m| stages::html_texts(m))
        .collect();
    let bytes = texts.iter().map(String::len).sum::<usize>();
    bencher.counter(BytesCount::new(bytes)).bench(|| {
        for text in &texts {
            black_box(stages::scan_html(black_box(text)));
        }
    });
}

/// The decoded texts of every `text/plain` part of the corpus (flowed ones joined).
static PLAIN_TEXTS: LazyLock<Vec<String>> = LazyLock::new(|| {
    all_messages()
        .iter()
        .flat_map(|m| stages::plain_texts(m))
        .collect()
});

/// Stage 5: the plain-text link finder alone (Thunderbird's rules), over the decoded texts of
/// every `text/plain` part (the counter is the decoded text's bytes).
#[divan::bench(sample_count = 10, sample_size = 1)]
fn stage_5_text_links(bencher: Bencher) {
    let bytes = PLAIN_TEXTS.iter().map(String::len).sum::<usize>();
    bencher.counter(BytesCount::new(bytes)).bench(|| {
        for text in PLAIN_TEXTS.iter() {
            black_box(stages::find_text_links(black_box(text)));
        }
    });
}

/// Stage 4: the `scan` NDJSON line of every report, the reports made beforehand.
#[divan::bench(sample_count = 10, sample_size = 1)]
fn stage_4_scan_line(bencher: Bencher) {
    let all = all_messages();
    let options = Options::new();
    let reports: Vec<_> = all.iter().map(|m| analyze(m, &options)).collect();
    let source = scan::Source::file("bench", 0);
    bencher.counter(total(&all)).bench(|| {
        let mut line = Vec::new();
        for report in &reports {
            line.clear();
            ScanLine::message(&source, report).write_json(&mut line);
            black_box(&line);
        }
    });
}

/// The corpus's quoted-printable bodies, still encoded.
static QUOTED_PRINTABLE: LazyLock<Vec<Vec<u8>>> = LazyLock::new(|| {
    all_messages()
        .iter()
        .flat_map(|m| stages::quoted_printable_bodies(m))
        .collect()
});

fn quoted_printable_bytes() -> BytesCount {
    BytesCount::new(QUOTED_PRINTABLE.iter().map(Vec::len).sum::<usize>())
}

/// Quoted-printable decoders over the same bodies: ours (what `analyze` uses).
#[divan::bench(sample_count = 10, sample_size = 1)]
fn quoted_printable_ours(bencher: Bencher) {
    bencher.counter(quoted_printable_bytes()).bench(|| {
        for body in QUOTED_PRINTABLE.iter() {
            black_box(stages::decode_quoted_printable(black_box(body)));
        }
    });
}

/// mail-parser 0.11.9's `quoted_printable_decode` (gives the same bytes as ours).
#[divan::bench(sample_count = 10, sample_size = 1)]
fn quoted_printable_mail_parser(bencher: Bencher) {
    bencher.counter(quoted_printable_bytes()).bench(|| {
        for body in QUOTED_PRINTABLE.iter() {
            black_box(
                mail_parser::decoders::quoted_printable::quoted_printable_decode(black_box(body)),
            );
        }
    });
}

/// The `quoted_printable` crate's `decode`, robust mode (different bytes: CR LF line breaks).
#[divan::bench(sample_count = 10, sample_size = 1)]
fn quoted_printable_crate(bencher: Bencher) {
    bencher.counter(quoted_printable_bytes()).bench(|| {
        for body in QUOTED_PRINTABLE.iter() {
            let _ = black_box(quoted_printable::decode(
                black_box(body),
                quoted_printable::ParseMode::Robust,
            ));
        }
    });
}
