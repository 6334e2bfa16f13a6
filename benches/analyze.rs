//! `analyze` on the throughput corpus (`../shared/corpus/bench/`, one group per source), with
//! mail-parser's `MessageParser::parse` on the same bytes as the floor, and `analyze` plus the
//! `scan` line serialization on the whole corpus. Messages are read into memory first: no I/O
//! is timed.
//!
//! `cargo bench --bench analyze`; throughput in the `bytes/s` column. `scripts/bench-scan`
//! times the whole `mimebase scan` command instead.

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use divan::Bencher;
use divan::counter::BytesCount;
use mimebase::scan::{self, ScanLine};
use mimebase::{Options, analyze};

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

fn main() {
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
            serde_json::to_writer(&mut line, &ScanLine::message(&source, &report)).unwrap();
            black_box(&line);
        }
    });
}
