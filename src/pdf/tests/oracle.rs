//! The corpus of `tests/support/pdf_oracle.py` (written with pypdf and qpdf), read by the room: every
//! URI pypdf reads from a file must be among the room's links for it.

use super::tools;
use crate::pdf::{Limits, read};

/// The oracle's script: `tests/support/pdf_oracle.py`.
fn oracle_script() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/support/pdf_oracle.py")
}

#[test]
fn oracle_corpus() {
    let script = oracle_script();
    if !tools::has_pypdf() || !tools::has_qpdf() {
        crate::testing::skip_missing("oracle_corpus", "pypdf or qpdf");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let status = std::process::Command::new("python3")
        .arg(&script)
        .arg(dir.path())
        .output()
        .unwrap();
    assert!(
        status.status.success(),
        "{}",
        String::from_utf8_lossy(&status.stderr)
    );
    let expected = std::fs::read_to_string(dir.path().join("expected.json")).unwrap();
    // expected.json as the script writes it (indent=2): a line `"name": [` and the array's
    // items on lines of their own up to `]`, or `"name": [],`.
    let mut checked = 0;
    let mut lines = expected.lines();
    while let Some(line) = lines.next() {
        let Some((name, rest)) = line.trim().split_once(": [") else {
            continue;
        };
        let name = name.trim_matches('"');
        let mut array = String::from("[");
        if !rest.starts_with(']') {
            for item in lines.by_ref() {
                if item.trim().starts_with(']') {
                    break;
                }
                array.push_str(item.trim());
            }
        }
        array.push(']');
        let bytes = std::fs::read(dir.path().join(name)).unwrap();
        let password = name
            .split_once("__pw_")
            .map(|(_, rest)| rest.trim_end_matches(".pdf").to_owned());
        let reading = read(
            &bytes,
            &password.into_iter().collect::<Vec<_>>(),
            &Limits::default(),
        );
        assert!(
            reading.problems.is_empty(),
            "{name}: {:#?}",
            reading.problems
        );
        for uri in tools::parse_json_strings(&array) {
            assert!(
                reading.links.iter().any(|link| link.target == uri),
                "{name}: pypdf reads {uri:?}; the room: {:#?}",
                reading.links
            );
            checked += 1;
        }
    }
    assert!(checked >= 25, "only {checked} URIs checked");
}
