//! Office documents and archives, written by Python's office libraries and `zipfile`, compared
//! with an independent reading of the same files (`tests/support/office_oracle.py`: `zipfile`
//! and `xml.etree` for the packages, a regular expression over RTF field codes, `html.parser`
//! for the HTML member of an archive).

use std::collections::BTreeMap;

use mimebase::{DocumentKind, EntityKind, Opened};
use pretty_assertions::assert_eq;

use super::{message_saying, message_with, records, report_of};
use crate::support::oracle;

/// Every file the oracle writes; each must be there (python-pptx and pyzipper included) when
/// the oracles are required.
const FILES: &[&str] = &[
    "links.docx",
    "macro.docm",
    "template.docx",
    "links.xlsx",
    "links.pptx",
    "links.odt",
    "links.ods",
    "links.odp",
    "links.rtf",
    "plain.zip",
    "zipcrypto.zip",
    "aes.zip",
];

/// The oracle's files, written into a fresh directory, and what it found in each.
fn oracle_files(test: &str) -> Option<(std::path::PathBuf, BTreeMap<String, Vec<String>>)> {
    let python = oracle::python(&["docx", "openpyxl", "odf", "pptx", "pyzipper"])?;
    let dir = crate::support::workdir(test);
    oracle::run_script(python, "tests/support/office_oracle.py", &[dir.as_os_str()]);
    let expected: BTreeMap<String, Vec<String>> =
        serde_json::from_slice(&std::fs::read(dir.join("expected.json")).unwrap()).unwrap();
    let written: Vec<&str> = expected.keys().map(String::as_str).collect();
    let mut wanted = FILES.to_vec();
    wanted.sort_unstable();
    assert_eq!(written, wanted);
    Some((dir, expected))
}

#[test]
fn office_links_match_an_independent_reading() {
    let Some((dir, expected)) = oracle_files("office_links_match_an_independent_reading") else {
        return;
    };
    for (name, targets) in expected.iter().filter(|(n, _)| !n.ends_with(".zip")) {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        // By content, and by name under a media type that says nothing.
        let message = message_with(&[("application/octet-stream", name, &bytes)]);
        let report = report_of(&message);
        assert_eq!(
            report.entities[2].document.map(|d| d.kind),
            Some(DocumentKind::Office),
            "{name}"
        );
        let mut found: Vec<String> = records(&report, "2", "office:")
            .iter()
            .map(|u| u.reference.clone())
            .collect();
        found.sort();
        assert_eq!(&found, targets, "{name}");
        assert!(
            report.entities.iter().all(|e| e.kind != EntityKind::Member),
            "{name}: an office document's members are not entities"
        );
        assert!(report.complete, "{name}: {:?}", report.diagnostics);
    }
}

#[test]
fn archive_members_are_read_as_parts_and_stated_passwords_open_them() {
    let Some((dir, expected)) =
        oracle_files("archive_members_are_read_as_parts_and_stated_passwords_open_them")
    else {
        return;
    };
    for name in ["plain.zip", "zipcrypto.zip", "aes.zip"] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let message = message_saying(
            "Your documents are attached.\r\nPassword: secret123\r\n",
            &[("application/zip", name, &bytes)],
        );
        let report = report_of(&message);
        let archive = &report.entities[2];
        assert_eq!(
            archive.document.map(|d| d.kind),
            Some(DocumentKind::Archive)
        );
        let members: Vec<(&str, EntityKind, Option<&str>)> = report.entities[3..]
            .iter()
            .map(|e| {
                (
                    e.part.as_str(),
                    e.kind,
                    e.parent.as_ref().map(|p| p.as_str()),
                )
            })
            .collect();
        assert_eq!(
            members,
            [
                ("2!/page.html", EntityKind::Member, Some("2")),
                ("2!/notes.txt", EntityKind::Member, Some("2")),
            ],
            "{name}"
        );
        let mut found: Vec<String> = records(&report, "2!/page.html", "html:a@href")
            .iter()
            .map(|u| u.reference.clone())
            .collect();
        found.sort();
        assert_eq!(&found, &expected[name], "{name}");
        let encrypted = name != "plain.zip";
        match &archive.opened {
            None => assert!(!encrypted, "{name}"),
            Some(Opened::Stated { part, password }) => {
                assert!(encrypted, "{name}");
                assert_eq!((part.as_str(), password.as_str()), ("1", "secret123"));
            }
            other => panic!("{name}: opened {other:?}"),
        }
        assert!(report.complete, "{name}: {:?}", report.diagnostics);

        // Without the password, the encrypted ones stay closed, and the report says so.
        if encrypted {
            let report = report_of(&message_with(&[("application/zip", name, &bytes)]));
            assert!(!report.complete);
            assert!(
                report
                    .diagnostics
                    .iter()
                    .any(|d| d.kind == mimebase::DiagnosticKind::EncryptedFile),
                "{:?}",
                report.diagnostics
            );
            assert!(records(&report, "2!/page.html", "").is_empty());
        }
    }
}
