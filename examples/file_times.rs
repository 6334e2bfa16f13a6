//! Prints what reading the files a reader opens costs per file: for every message of a corpus
//! that holds a PDF (or another kind of file: `--kind calendar`, `office`, `shortcut`,
//! `archive`), the time `analyze` takes with the file readers on less the time with them off
//! (the fastest of ROUNDS runs each, alternating), divided among the message's files of that
//! kind; then the median, the 99th percentile and the worst of those times, and the sum.
//!
//! Usage: cargo run --release --example file_times -- [CORPUS_DIR [ROUNDS [KIND]]]
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use mimebase::{DocumentKind, Options, analyze};

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// The fastest of `rounds` runs of `analyze` on `raw` with each of `on` and `off`, in turn.
fn fastest(raw: &[u8], on: &Options, off: &Options, rounds: usize) -> (Duration, Duration) {
    let (mut best_on, mut best_off) = (Duration::MAX, Duration::MAX);
    for _ in 0..rounds {
        let start = Instant::now();
        std::hint::black_box(analyze(raw, off));
        best_off = best_off.min(start.elapsed());
        let start = Instant::now();
        std::hint::black_box(analyze(raw, on));
        best_on = best_on.min(start.elapsed());
    }
    (best_on, best_off)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let corpus = PathBuf::from(
        args.next()
            .unwrap_or_else(|| "../shared/corpus/bench".to_owned()),
    );
    let rounds: usize = args.next().and_then(|n| n.parse().ok()).unwrap_or(5);
    let kind: DocumentKind = args
        .next()
        .and_then(|k| k.parse().ok())
        .unwrap_or(DocumentKind::Pdf);
    let on = Options::new();
    let off = Options::new().with_file_links(false);
    let mut times: Vec<(Duration, PathBuf)> = Vec::new();
    let (mut files, mut messages) = (0, 0);
    for path in files_under(&corpus) {
        let Ok(raw) = std::fs::read(&path) else {
            continue;
        };
        let report = analyze(&raw, &on);
        let count = report
            .entities
            .iter()
            .filter(|e| e.document.is_some_and(|d| d.kind == kind))
            .count();
        if count == 0 {
            continue;
        }
        files += count;
        messages += 1;
        let (with, without) = fastest(&raw, &on, &off, rounds);
        let per_file = with.saturating_sub(without) / u32::try_from(count).unwrap_or(1);
        for _ in 0..count {
            times.push((per_file, path.clone()));
        }
    }
    times.sort();
    let Some((worst, worst_path)) = times.last() else {
        println!("no {kind} file under {}", corpus.display());
        return;
    };
    let at = |q: f64| {
        let index = ((times.len() - 1) as f64 * q).round() as usize;
        times.get(index).map_or(Duration::ZERO, |(t, _)| *t)
    };
    let total: Duration = times.iter().map(|(t, _)| *t).sum();
    println!(
        "{files} {kind} files in {messages} messages under {}",
        corpus.display()
    );
    println!(
        "per file: median {:.3} ms, p99 {:.3} ms, worst {:.3} ms ({}); sum {:.1} ms",
        at(0.5).as_secs_f64() * 1e3,
        at(0.99).as_secs_f64() * 1e3,
        worst.as_secs_f64() * 1e3,
        worst_path.display(),
        total.as_secs_f64() * 1e3
    );
}
