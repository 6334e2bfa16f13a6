//! What a message's entities and header fields cost in memory: builds one hostile message
//! and analyzes it with the entity and header limits lifted, so that its peak resident memory
//! (`/usr/bin/time -f %M`) can be set against its size. `docs/PERFORMANCE.md` has the figures
//! and the bounds they set.
//!
//! ```text
//! cargo build --release --example entity_memory
//! /usr/bin/time -f '%M KB' target/release/examples/entity_memory parts 1000000
//! ```
//!
//! Shapes: `parts N` (N body parts of 7 bytes, `--b`, an empty header, `x`), `typed-parts N`
//! (each with a `Content-Type: text/plain` field), `fields N` (N header fields of 3 bytes the
//! analysis does not read), `base-fields N` (N `Base:x` fields, which it reads).

use std::process::ExitCode;

use mimebase::{Options, analyze};

fn message(shape: &str, count: usize) -> Option<Vec<u8>> {
    let mut message = Vec::new();
    let multipart = b"Content-Type: multipart/mixed; boundary=b\n\n";
    match shape {
        "parts" | "typed-parts" => {
            message.extend(multipart);
            let part: &[u8] = if shape == "parts" {
                b"--b\n\nx\n"
            } else {
                b"--b\nContent-Type: text/plain\n\nx\n"
            };
            for _ in 0..count {
                message.extend(part);
            }
            message.extend(b"--b--\n");
        }
        "fields" | "base-fields" => {
            let field: &[u8] = if shape == "fields" {
                b"A:\n"
            } else {
                b"Base:x\n"
            };
            for _ in 0..count {
                message.extend(field);
            }
            message.extend(b"Content-Type: text/html\n\n<a href=x>\n");
        }
        _ => return None,
    }
    Some(message)
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (Some(shape), Some(Ok(count))) = (args.first(), args.get(1).map(|n| n.parse())) else {
        eprintln!("usage: entity_memory parts|typed-parts|fields|base-fields COUNT");
        return ExitCode::from(2);
    };
    let Some(message) = message(shape, count) else {
        eprintln!("unknown shape {shape:?}");
        return ExitCode::from(2);
    };
    let options = Options::new()
        .with_max_entities(usize::MAX)
        .with_max_header_bytes(usize::MAX);
    let report = analyze(&message, &options);
    println!(
        "{} bytes: {} entities, {} URLs, {} diagnostics",
        message.len(),
        report.entities.len(),
        report.urls.len(),
        report.diagnostics.len()
    );
    ExitCode::SUCCESS
}
