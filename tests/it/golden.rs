//! Golden messages, which hold the whole output of the commands still: every `samples/*.eml`
//! is run through `mimebase inspect -` and `mimebase urls -`, once with the file's LF line
//! endings and once converted to CRLF, and both outputs must equal
//! `tests/data/golden/<stem>.<command>.txt`, so that any change to what a user sees is seen
//! (and reviewed in the diff of the golden files) and line endings change nothing.
//!
//! A mismatch writes `tests/data/golden/<stem>.<command>.actual` (or `….crlf.actual` for the
//! CRLF run) and fails with a line diff. `MIMEBASE_BLESS=1 cargo test --test it golden` rewrites
//! the goldens from the LF run instead; the CRLF run must still agree with it.

use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;

use pretty_assertions::StrComparison;

use crate::support::cli::{mimebase, stderr, stdout};
use crate::support::{root, to_crlf};

const BLESS_VAR: &str = "MIMEBASE_BLESS";

fn golden_dir() -> PathBuf {
    root().join("tests/data/golden")
}

/// Every `samples/*.eml`, sorted by name.
fn samples() -> Vec<PathBuf> {
    let mut samples: Vec<PathBuf> = fs::read_dir(root().join("samples"))
        .expect("samples/ exists")
        .map(|entry| entry.expect("readable samples/ entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "eml"))
        .collect();
    samples.sort();
    assert!(!samples.is_empty(), "no samples/*.eml found");
    samples
}

/// Runs `mimebase <command> -` with `input` on stdin; its stdout, which must be UTF-8.
fn run_stdin(command: &str, input: &[u8]) -> String {
    let output = mimebase(&[command, "-"], input);
    assert!(
        output.status.success(),
        "mimebase {command} - failed ({}): {}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    stdout(&output)
}

/// Compares `actual` with the golden file `<stem>.<kind>.txt`; on mismatch writes
/// `<stem>.<kind><suffix>.actual` and returns the diff. A match removes a stale `.actual`.
fn check(stem: &str, kind: &str, suffix: &str, actual: &str) -> Option<String> {
    let golden = golden_dir().join(format!("{stem}.{kind}.txt"));
    let actual_path = golden_dir().join(format!("{stem}.{kind}{suffix}.actual"));
    let expected = fs::read_to_string(&golden).unwrap_or_default();
    if expected == actual {
        // Only a leftover from an earlier failing run can be there.
        let _ = fs::remove_file(&actual_path);
        return None;
    }
    fs::write(&actual_path, actual).expect("write .actual");
    Some(format!(
        "{} differs (< golden, > actual; actual written to {}; rerun with {BLESS_VAR}=1 to bless):\n{}",
        golden.display(),
        actual_path.display(),
        StrComparison::new(&expected, actual)
    ))
}

#[test]
fn golden_messages() {
    let bless = std::env::var(BLESS_VAR).is_ok_and(|v| v == "1");
    let mut failures = String::new();
    for sample in samples() {
        let stem = sample.file_stem().unwrap().to_str().unwrap().to_owned();
        let lf = fs::read(&sample).expect("sample readable");
        assert!(
            !lf.contains(&b'\r'),
            "{} must have LF line endings",
            sample.display()
        );
        let crlf = to_crlf(&lf);
        for kind in ["inspect", "urls"] {
            let from_lf = run_stdin(kind, &lf);
            let from_crlf = run_stdin(kind, &crlf);
            if bless {
                fs::create_dir_all(golden_dir()).unwrap();
                fs::write(golden_dir().join(format!("{stem}.{kind}.txt")), &from_lf)
                    .expect("write golden");
                let _ = fs::remove_file(golden_dir().join(format!("{stem}.{kind}.actual")));
            } else if let Some(diff) = check(&stem, kind, "", &from_lf) {
                writeln!(failures, "{stem} ({kind}, LF): {diff}\n").unwrap();
            }
            if let Some(diff) = check(&stem, kind, ".crlf", &from_crlf) {
                writeln!(failures, "{stem} ({kind}, CRLF): {diff}\n").unwrap();
            }
        }
    }
    assert!(failures.is_empty(), "golden mismatches:\n\n{failures}");
}

#[test]
fn to_crlf_converts_only_bare_lf() {
    pretty_assertions::assert_eq!(to_crlf(b"a\nb\r\nc\n\n"), b"a\r\nb\r\nc\r\n\r\n".to_vec());
}

/// The acceptance line, independent of the goldens: RFC 1808 Appendix, `../x` against
/// `http://www.ics.uci.edu/Test/a/b/c` is `http://www.ics.uci.edu/Test/a/x`.
#[test]
fn rfc1808_appendix_acceptance_line() {
    let output = mimebase(&["urls", "samples/rfc1808-appendix.eml"], b"");
    assert!(output.status.success(), "{}", stderr(&output));
    let stdout = stdout(&output);
    assert!(
        stdout
            .lines()
            .any(|line| line == "http://www.ics.uci.edu/Test/a/x\t../x"),
        "no line `http://www.ics.uci.edu/Test/a/x<TAB>../x` in:\n{stdout}"
    );
}
