//! Shortcut files: Windows `.url` (compared with Python's `configparser`), macOS `.webloc`
//! (with `plistlib`) and freedesktop.org `.desktop` (with `configparser`).

use mimebase::{DocumentKind, UrlSource};
use pretty_assertions::assert_eq;

use super::{message_with, records, report_of};
use crate::support::oracle;

/// Prints the URL each file gives, as its own kind of reader reads it.
const READERS: &str = r#"
import configparser, plistlib, sys
for path in sys.argv[1:]:
    data = open(path, "rb").read()
    if path.endswith(".webloc"):
        print(plistlib.loads(data)["URL"])
        continue
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.optionxform = str
    text = data.decode("utf-8-sig") if not data.startswith(b"\xff\xfe") else data.decode("utf-16")
    parser.read_string(text)
    if path.endswith(".desktop"):
        entry = parser["Desktop Entry"]
        assert entry["Type"] == "Link"
        print(entry["URL"])
    else:
        section = next(s for s in parser.sections() if s.lower() == "internetshortcut")
        print(next(v for k, v in parser[section].items() if k.lower() == "url").strip('"'))
"#;

#[test]
fn shortcut_links_match_their_readers() {
    let Some(python) = oracle::python(&["configparser", "plistlib"]) else {
        return;
    };
    let dir = crate::support::workdir("shortcut_links_match_their_readers");
    let binary = binary_plist("https://binary.example.com/webloc?x=1");
    let mut utf16 = vec![0xff, 0xfe];
    for unit in "[InternetShortcut]\r\nURL=https://utf16.example.com/é\r\n".encode_utf16() {
        utf16.extend(unit.to_le_bytes());
    }
    let files: Vec<(&str, Vec<u8>)> = vec![
        (
            "Invoice.url",
            b"[{000214A0-0000-0000-C000-000000000046}]\r\nProp3=19,11\r\n[InternetShortcut]\r\nIDList=\r\nURL=https://login.example.com/verify?id=7\r\nIconIndex=0\r\n".to_vec(),
        ),
        ("quoted.url", b"[internetshortcut]\nurl=\"http://quoted.example.org/a\"\n".to_vec()),
        ("wide.url", utf16),
        (
            "Document.webloc",
            b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n<dict>\n\t<key>URL</key>\n\t<string>https://webloc.example.com/doc?a=1&amp;b=2</string>\n</dict>\n</plist>\n".to_vec(),
        ),
        ("binary.webloc", binary),
        (
            "open.desktop",
            b"[Desktop Entry]\nVersion=1.0\nType=Link\nName=Statement\nURL=https://desktop.example.com/statement\nIcon=text-html\n".to_vec(),
        ),
    ];
    for (name, bytes) in &files {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        let expected = oracle::run_python(python, READERS, &[&path]);
        let message = message_with(&[("application/octet-stream", name, bytes)]);
        let report = report_of(&message);
        assert_eq!(
            report.entities[2].document.map(|d| d.kind),
            Some(DocumentKind::Shortcut),
            "{name}"
        );
        let found: Vec<&str> = records(&report, "2", "shortcut:URL")
            .iter()
            .map(|u| u.reference.as_str())
            .collect();
        assert_eq!(found, [expected.trim_end_matches('\n')], "{name}");
        assert!(
            report.diagnostics.is_empty(),
            "{name}: {:?}",
            report.diagnostics
        );
        for url in records(&report, "2", "shortcut:") {
            let UrlSource::File(file) = &url.source else {
                panic!()
            };
            if let Some(range) = file.range {
                assert_eq!(&bytes[range.start..range.end], url.reference.as_bytes());
            }
        }
    }
}

#[test]
fn a_shortcut_without_a_link_is_a_diagnostic() {
    let message = message_with(&[(
        "application/octet-stream",
        "app.desktop",
        b"[Desktop Entry]\nType=Application\nExec=xdg-open https://x.example/\n",
    )]);
    let report = report_of(&message);
    assert!(records(&report, "2", "shortcut:").is_empty());
    assert_eq!(
        crate::support::kinds(&report),
        [mimebase::DiagnosticKind::FileError]
    );
}

/// A binary property list (`bplist00`) of one dictionary `{"URL": url}` (an ASCII `url` of
/// fewer than 256 bytes), written by hand as Apple's format has it (one-byte object
/// references and offsets), so that the test does not depend on the reader's own writer.
fn binary_plist(url: &str) -> Vec<u8> {
    let url = url.as_bytes();
    let mut out = Vec::new();
    // Objects: 0 the dictionary, 1 the key "URL", 2 the value.
    let mut objects: Vec<Vec<u8>> = Vec::new();
    objects.push(vec![0xd1, 1, 2]);
    objects.push([vec![0x53], b"URL".to_vec()].concat());
    let mut string = Vec::new();
    if url.len() < 15 {
        string.push(0x50 | url.len() as u8);
    } else {
        string.push(0x5f);
        string.push(0x10);
        string.push(url.len() as u8);
    }
    string.extend_from_slice(url);
    objects.push(string);
    out.extend_from_slice(b"bplist00");
    let mut offsets = Vec::new();
    for object in &objects {
        offsets.push(out.len() as u8);
        out.extend_from_slice(object);
    }
    let table = out.len() as u64;
    out.extend_from_slice(&offsets);
    // Trailer: 6 unused bytes, offset size 1, reference size 1, 3 objects, top 0, table.
    out.extend_from_slice(&[0; 6]);
    out.extend_from_slice(&[1, 1]);
    out.extend_from_slice(&3u64.to_be_bytes());
    out.extend_from_slice(&0u64.to_be_bytes());
    out.extend_from_slice(&table.to_be_bytes());
    out
}
