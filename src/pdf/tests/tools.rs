//! The outside tools the tests compare with or build files with: Python's pypdf (the
//! oracle) and qpdf. A test that needs one that is missing prints `skipped: <name>: …` and
//! returns.

use std::path::Path;
use std::process::Command;
use std::sync::OnceLock;

/// Whether `python3 -c 'import pypdf'` works.
pub(super) fn has_pypdf() -> bool {
    static FOUND: OnceLock<bool> = OnceLock::new();
    *FOUND.get_or_init(|| {
        Command::new("python3")
            .args(["-c", "import pypdf"])
            .output()
            .is_ok_and(|output| output.status.success())
    })
}

/// Whether `qpdf --version` works.
pub(super) fn has_qpdf() -> bool {
    static FOUND: OnceLock<bool> = OnceLock::new();
    *FOUND.get_or_init(|| {
        Command::new("qpdf")
            .arg("--version")
            .output()
            .is_ok_and(|output| output.status.success())
    })
}

/// The script that prints, as JSON, the `/URI` of every URI action in the `/A` of every
/// annotation of every page, as pypdf reads them (decrypting with argv[2] if given).
const PYPDF_URIS: &str = r#"
import sys, json
from pypdf import PdfReader
reader = PdfReader(sys.argv[1])
if reader.is_encrypted:
    reader.decrypt(sys.argv[2] if len(sys.argv) > 2 else "")
found = []
for page in reader.pages:
    for annotation in page.get("/Annots") or []:
        annotation = annotation.get_object()
        action = annotation.get("/A")
        if action is None:
            continue
        action = action.get_object()
        if action.get("/S") == "/URI" and "/URI" in action:
            uri = action["/URI"]
            found.append(uri.decode("latin-1") if isinstance(uri, bytes) else str(uri))
print(json.dumps(found))
"#;

/// The URIs pypdf reads from the link annotations of `bytes` (see [`PYPDF_URIS`]), or
/// `None`, after printing why, when pypdf is not installed.
pub(super) fn pypdf_uris(name: &str, bytes: &[u8], password: Option<&str>) -> Option<Vec<String>> {
    if !has_pypdf() {
        crate::testing::skip_missing(name, "pypdf");
        return None;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("in.pdf");
    std::fs::write(&path, bytes).unwrap();
    let mut command = Command::new("python3");
    command.args(["-c", PYPDF_URIS]).arg(&path);
    if let Some(password) = password {
        command.arg(password);
    }
    let output = command.output().unwrap();
    assert!(
        output.status.success(),
        "{name}: pypdf failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    let text = String::from_utf8(output.stdout).unwrap();
    Some(parse_json_strings(&text))
}

/// The strings of a JSON array of strings (as Python's `json.dumps` writes them: `\uXXXX`
/// escapes, surrogate pairs included).
pub(super) fn parse_json_strings(json: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut chars = json.trim().chars().peekable();
    assert_eq!(chars.next(), Some('['));
    loop {
        match chars.next() {
            Some('"') => {}
            Some(',' | ' ') => continue,
            Some(']') | None => break,
            Some(other) => panic!("unexpected {other:?} in {json}"),
        }
        let mut units: Vec<u16> = Vec::new();
        loop {
            match chars.next().unwrap() {
                '"' => break,
                '\\' => match chars.next().unwrap() {
                    'u' => {
                        let hex: String = (0..4).map(|_| chars.next().unwrap()).collect();
                        units.push(u16::from_str_radix(&hex, 16).unwrap());
                    }
                    'n' => units.push(u16::from(b'\n')),
                    'r' => units.push(u16::from(b'\r')),
                    't' => units.push(u16::from(b'\t')),
                    'b' => units.push(8),
                    'f' => units.push(12),
                    c => units.extend(c.encode_utf16(&mut [0; 2]).iter()),
                },
                c => units.extend(c.encode_utf16(&mut [0; 2]).iter()),
            }
        }
        out.push(String::from_utf16_lossy(&units));
    }
    out
}

/// Runs qpdf with `arguments`, then `input` and `output` paths, on `bytes`; the output
/// file's bytes. qpdf's exit code 3 (warnings) is success.
pub(super) fn qpdf(bytes: &[u8], arguments: &[&str]) -> Vec<u8> {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.pdf");
    let output = dir.path().join("out.pdf");
    std::fs::write(&input, bytes).unwrap();
    let result = Command::new("qpdf")
        .args(arguments)
        .arg(&input)
        .arg(&output)
        .output()
        .unwrap();
    assert!(
        matches!(result.status.code(), Some(0 | 3)),
        "qpdf {arguments:?} failed: {}",
        String::from_utf8_lossy(&result.stderr)
    );
    std::fs::read(&output).unwrap()
}

/// qpdf's `--show-encryption` report on `bytes` opened with `password`.
pub(super) fn qpdf_show_encryption(bytes: &[u8], password: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.pdf");
    std::fs::write(&input, bytes).unwrap();
    let result = Command::new("qpdf")
        .arg(format!("--password={password}"))
        .arg("--show-encryption")
        .arg(Path::new(&input))
        .output()
        .unwrap();
    String::from_utf8_lossy(&result.stdout).into_owned() + &String::from_utf8_lossy(&result.stderr)
}
