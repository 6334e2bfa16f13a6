//! The bombs and traps of the file formats (`tests/support/bombs.py`): a deflate bomb in a PDF
//! stream and in a ZIP member, ZIPs nested as 42.zip is, a PDF whose objects refer to each
//! other in loops, a PDF catalog of 100 000 nested arrays. Each is read by the `mimebase`
//! binary to a limit, and its peak memory stays under 100 MB. Their times are
//! `scripts/bench-bombs`' (a release build), not this test's.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

use crate::support::cli::measured_in;
use crate::support::{oracle, workdir};

/// 100 MB (10^8 bytes) in KiB: the most memory one of these messages may cost.
const MEMORY_BOUND_KIB: u64 = 100_000_000 / 1024;

/// `mimebase inspect --json` of `message`: its report, and its peak resident memory in KiB
/// (`/usr/bin/time`), or `None` where that program is missing.
fn inspect_measured(dir: &Path, message: &str) -> (Value, Option<u64>) {
    let (output, rss) = measured_in(dir, &["inspect", "--json", message]);
    assert_eq!(
        output.status.code(),
        Some(0),
        "{message}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    (serde_json::from_slice(&output.stdout).unwrap(), rss)
}

/// The kinds of the diagnostics of part `part`.
fn kinds<'r>(report: &'r Value, part: &str) -> Vec<&'r str> {
    report["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["part"].as_str().is_some_and(|p| p.starts_with(part)))
        .map(|d| d["kind"].as_str().unwrap())
        .collect()
}

/// The resolved URLs of the records whose source starts with `prefix`.
fn resolved<'r>(report: &'r Value, prefix: &str) -> Vec<&'r str> {
    report["urls"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u["source"].as_str().unwrap().starts_with(prefix))
        .filter_map(|u| u["resolved"].as_str())
        .collect()
}

#[test]
fn bombs_end_at_their_limits_in_bounded_memory() {
    let Some(python) = oracle::python(&["zlib", "zipfile"]) else {
        return;
    };
    let dir = workdir("bombs_end_at_their_limits_in_bounded_memory");
    let script = crate::support::root().join("tests/support/bombs.py");
    let status = Command::new(python)
        .arg(&script)
        .arg(&dir)
        .status()
        .unwrap();
    assert!(status.success());
    let mut checked = 0;
    for name in [
        "pdf-deflate-bomb",
        "zip-deflate-bomb",
        "zip-nested",
        "pdf-reference-loop",
        "pdf-nested-arrays",
    ] {
        let (report, rss) = inspect_measured(&dir, &format!("{name}.eml"));
        match name {
            "pdf-deflate-bomb" => {
                // The link before the bomb is read; the page's content stops at the limit.
                assert_eq!(resolved(&report, "pdf:annot"), ["https://before.example/"]);
                assert!(kinds(&report, "2").contains(&"file_limit"), "{report}");
                assert_eq!(report["complete"], false);
            }
            "zip-deflate-bomb" => {
                assert!(kinds(&report, "2").contains(&"file_limit"), "{report}");
                assert_eq!(report["complete"], false);
            }
            "zip-nested" => {
                // Four levels of archives are read; the members of a fifth are not.
                let parts: Vec<&str> = report["entities"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|e| e["part"].as_str().unwrap())
                    .collect();
                let deepest = parts.iter().map(|p| p.matches("!/").count()).max();
                assert_eq!(deepest, Some(4), "{parts:?}");
                assert!(kinds(&report, "2").contains(&"file_limit"), "{report}");
            }
            "pdf-reference-loop" => {
                let mut found = resolved(&report, "pdf:");
                found.sort_unstable();
                found.dedup();
                assert_eq!(
                    found,
                    ["https://loop-a.example/", "https://loop-b.example/"]
                );
            }
            _ => {
                // Nesting past the parser's depth: the catalog is not read (PDF viewers stop
                // too: PDFium at 64 levels), and a diagnostic says so.
                assert!(kinds(&report, "2").contains(&"file_error"), "{report}");
            }
        }
        if let Some(rss) = rss {
            eprintln!("{name}: peak resident memory {rss} KiB");
            assert!(rss < MEMORY_BOUND_KIB, "{name}: {rss} KiB");
        }
        checked += 1;
    }
    assert_eq!(checked, 5);
}
