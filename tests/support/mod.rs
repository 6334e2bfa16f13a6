//! What the integration tests share: where the crate and its samples are, the gate in front of
//! the corpus (a test that needs it skips when it is absent), scratch directories, line-ending
//! and percent-decoding helpers for building inputs and oracles, the generated adversarial
//! messages, a deterministic PRNG, finding GMime, and running the `mimebase` binary.

use std::fs;
use std::path::{Path, PathBuf};

use mimebase::{DiagnosticKind, Report};

pub mod adversarial;
#[cfg(feature = "cli")]
pub mod cli;
mod corpus;
pub use corpus::skipped;
pub mod gmime;
pub mod oracle;
pub mod xorshift;

/// The crate's directory: `samples/`, `tests/data/` and `README.md` are below it, and the
/// binary runs there.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// `relative` below the test corpus, `../shared/corpus` beside the checkout (read in place,
/// never copied), when it is there; when it is not, `None` after one line on standard error
/// that names the test and the missing path, and the test returns at once (it fails instead
/// when `MIMEBASE_REQUIRE_CORPUS` is set, as in CI). Every test that reads the corpus goes
/// through here (tests/support/corpus.rs).
#[track_caller]
pub fn corpus_or_skip(relative: &str) -> Option<PathBuf> {
    corpus::corpus_or_skip(root(), relative)
}

/// Every file below `dir`, at any depth, sorted.
pub fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let entries = fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.unwrap().path();
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

/// Every message of the corpus (each file below `corpus/messages/` but the `FEATURES.jsonl`
/// that describes them), sorted; `None` when the corpus is absent, as for [`corpus_or_skip`].
#[track_caller]
pub fn corpus_messages() -> Option<Vec<PathBuf>> {
    let found: Vec<PathBuf> = files_under(&corpus_or_skip("messages")?)
        .into_iter()
        .filter(|path| path.file_name().is_none_or(|name| name != "FEATURES.jsonl"))
        .collect();
    assert!(
        found.len() >= 70,
        "expected the corpus's 75 messages, found {}",
        found.len()
    );
    Some(found)
}

/// A fresh, empty directory for one test, `NAME` in a directory named after the calling test
/// module under Cargo's temporary directory for integration tests: so modules cannot collide,
/// and what a failing test wrote stays there to be looked at until it runs again.
#[track_caller]
pub fn workdir(name: &str) -> PathBuf {
    let caller = Path::new(std::panic::Location::caller().file());
    let module = caller.file_stem().unwrap_or_default();
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(module)
        .join(name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    dir
}

/// Writes `bytes` to `path`, creating the directories it needs.
pub fn write(path: &Path, bytes: &[u8]) {
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, bytes).unwrap();
}

/// `lf` with every LF that is not already preceded by CR turned into CRLF.
pub fn to_crlf(lf: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(lf.len() + lf.len() / 16);
    let mut previous = None;
    for &byte in lf {
        if byte == b'\n' && previous != Some(b'\r') {
            out.push(b'\r');
        }
        out.push(byte);
        previous = Some(byte);
    }
    out
}

/// `%hh` decoding (anything else, a `%` without two hex digits included, is kept), the bytes
/// read as UTF-8 with replacement characters. Written out here rather than taken from the
/// library, so that oracles built on it do not share the library's mistakes. (Only modules
/// that also run the binary use it.)
#[cfg(feature = "cli")]
pub fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let escape = bytes
            .get(i + 1..i + 3)
            .and_then(|hex| std::str::from_utf8(hex).ok())
            .and_then(|hex| u8::from_str_radix(hex, 16).ok());
        match (bytes[i], escape) {
            (b'%', Some(value)) => {
                out.push(value);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The kind of every diagnostic of `report`, in order.
pub fn kinds(report: &Report) -> Vec<DiagnosticKind> {
    report.diagnostics.iter().map(|d| d.kind).collect()
}
