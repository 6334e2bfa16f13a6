//! The throughput floor of `scripts/bench-scan`: mail-parser's `MessageParser::parse` over
//! every file of a directory tree, held in memory, on one thread. What merely parsing costs,
//! with no I/O, no base precedence, no URL work and no output.
//!
//! Usage: `cargo run --profile floor --example parse_floor -- DIR [ROUNDS]` (Cargo's default
//! release settings, see the `floor` profile in Cargo.toml). Prints one line:
//! `files=N bytes=N seconds=S mb_per_s=R` for the fastest of ROUNDS rounds (default 3).

use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::time::Instant;

use mail_parser::MessageParser;

fn main() -> std::io::Result<()> {
    let mut args = std::env::args_os().skip(1);
    let dir = PathBuf::from(
        args.next()
            .ok_or_else(|| std::io::Error::other("usage: parse_floor DIR [ROUNDS]"))?,
    );
    let rounds: usize = args
        .next()
        .and_then(|r| r.to_str().and_then(|r| r.parse().ok()))
        .unwrap_or(3);
    let mut paths = Vec::new();
    collect(&dir, &mut paths)?;
    let messages = paths
        .iter()
        .map(std::fs::read)
        .collect::<std::io::Result<Vec<_>>>()?;
    let bytes: usize = messages.iter().map(Vec::len).sum();
    let parser = MessageParser::default();
    let mut best = f64::INFINITY;
    for _ in 0..rounds.max(1) {
        let start = Instant::now();
        for message in &messages {
            black_box(parser.parse(black_box(message.as_slice())));
        }
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "files={} bytes={bytes} seconds={best:.3} mb_per_s={:.1}",
        messages.len(),
        bytes as f64 / 1e6 / best
    );
    Ok(())
}

/// Every file under `dir`, depth first, in byte order of names (as `mimebase scan` walks).
fn collect(dir: &Path, paths: &mut Vec<PathBuf>) -> std::io::Result<()> {
    let mut entries = std::fs::read_dir(dir)?
        .map(|entry| entry.map(|e| e.path()))
        .collect::<std::io::Result<Vec<_>>>()?;
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(&path, paths)?;
        } else {
            paths.push(path);
        }
    }
    Ok(())
}
