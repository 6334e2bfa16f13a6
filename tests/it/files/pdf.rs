//! PDF files, compared with pypdf: the room's oracle corpus (`tests/support/pdf_oracle.py`,
//! written with pypdf and qpdf in every shape the room reads) sent as attachments, and the
//! real PDF-bearing messages of the test corpus.

use std::collections::BTreeMap;
use std::path::Path;

use mimebase::{DocumentKind, Opened, Report};

use super::{message_saying, report_of};
use crate::support::{corpus_or_skip, files_under, oracle, workdir};

/// What `pdf_messages.py` says of each message.
#[derive(serde::Deserialize)]
struct Oracle {
    uris: Vec<String>,
    closed: usize,
    unreadable: usize,
}

/// Every reference of a PDF source in `report`.
fn pdf_references(report: &Report) -> Vec<&str> {
    report
        .urls
        .iter()
        .filter(|u| u.source.to_string().starts_with("pdf:"))
        .map(|u| u.reference.as_str())
        .collect()
}

/// The passwords that opened the encrypted files of `report`.
fn stated(report: &Report) -> Vec<&str> {
    report
        .entities
        .iter()
        .filter_map(|e| match &e.opened {
            Some(Opened::Stated { password, .. }) => Some(password.as_str()),
            _ => None,
        })
        .collect()
}

/// Runs the message oracle on `messages`, each with the passwords given.
fn pypdf_of(python: &str, messages: &[(&Path, Vec<&str>)]) -> BTreeMap<String, Oracle> {
    let args: Vec<std::ffi::OsString> = messages
        .iter()
        .map(|(path, passwords)| format!("{}={}", path.display(), passwords.join(",")).into())
        .collect();
    let args: Vec<&std::ffi::OsStr> = args.iter().map(|a| a.as_os_str()).collect();
    serde_json::from_str(&oracle::run_script(
        python,
        "tests/support/pdf_messages.py",
        &args,
    ))
    .unwrap()
}

#[test]
fn the_pdf_oracle_corpus_sent_as_attachments() {
    let Some(python) = oracle::python(&["pypdf"]) else {
        return;
    };
    let Some(_) = oracle::program("qpdf") else {
        return;
    };
    let dir = workdir("the_pdf_oracle_corpus_sent_as_attachments");
    oracle::run_script(python, "tests/support/pdf_oracle.py", &[dir.as_os_str()]);
    let expected: BTreeMap<String, Vec<String>> =
        serde_json::from_slice(&std::fs::read(dir.join("expected.json")).unwrap()).unwrap();
    assert!(expected.len() >= 20, "{} files", expected.len());
    let mut checked = 0;
    for (name, uris) in &expected {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let password = name
            .split_once("__pw_")
            .map(|(_, rest)| rest.trim_end_matches(".pdf"));
        let text = match password {
            Some(password) => format!("The statement is attached. Senha do PDF: {password}"),
            None => "The statement is attached.".to_owned(),
        };
        // An unhelpful media type: the part is read by its content.
        let message = message_saying(&text, &[("application/octet-stream", "doc.bin", &bytes)]);
        let report = report_of(&message);
        let entity = &report.entities[2];
        assert_eq!(
            entity.document.map(|d| d.kind),
            Some(DocumentKind::Pdf),
            "{name}"
        );
        let found = pdf_references(&report);
        for uri in uris {
            assert!(
                found.contains(&uri.as_str()),
                "{name}: pypdf reads {uri:?}; we: {found:?}"
            );
            checked += 1;
        }
        if let Some(password) = password {
            assert_eq!(stated(&report), [password], "{name}");
        }
        assert!(
            report
                .diagnostics
                .iter()
                .all(|d| d.kind != mimebase::DiagnosticKind::EncryptedFile),
            "{name}: {:?}",
            report.diagnostics
        );
    }
    assert!(checked >= 25, "{checked} URIs checked");
}

#[test]
fn every_link_pypdf_reads_in_the_corpus_pdfs_is_reported() {
    let Some(dir) = corpus_or_skip("bench/phishing_pot") else {
        return;
    };
    let Some(python) = oracle::python(&["pypdf"]) else {
        return;
    };
    let mut messages = Vec::new();
    for path in files_under(&dir) {
        let raw = std::fs::read(&path).unwrap();
        // Some of these messages hold a tag of several hundred quoted attribute values, over
        // which html5gum recurses: more than a test thread's 2 MiB in a debug build (the
        // bound of the HTML guard is set for a release build's frames).
        let report = std::thread::Builder::new()
            .stack_size(64 << 20)
            .spawn(move || report_of(&raw))
            .unwrap()
            .join()
            .unwrap();
        if report
            .entities
            .iter()
            .any(|e| e.document.is_some_and(|d| d.kind == DocumentKind::Pdf))
        {
            messages.push((path, report));
        }
    }
    assert!(
        messages.len() >= 25,
        "{} messages with a PDF",
        messages.len()
    );
    let asked: Vec<(&Path, Vec<&str>)> = messages
        .iter()
        .map(|(path, report)| (path.as_path(), stated(report)))
        .collect();
    let oracle = pypdf_of(python, &asked);
    let (mut uris, mut opened_by_stated) = (0, 0);
    for (path, report) in &messages {
        let name = path.display().to_string();
        let theirs = &oracle[&name];
        let ours = pdf_references(report);
        for uri in &theirs.uris {
            assert!(
                ours.contains(&uri.as_str()),
                "{name}: pypdf reads {uri:?}; we: {ours:?}"
            );
            uris += 1;
        }
        // A file pypdf cannot open with the stated passwords is one we did not open either.
        let closed_here = report
            .diagnostics
            .iter()
            .filter(|d| d.kind == mimebase::DiagnosticKind::EncryptedFile)
            .count();
        assert!(
            theirs.closed <= closed_here,
            "{name}: pypdf left {} closed",
            theirs.closed
        );
        opened_by_stated += stated(report).len();
        let _ = theirs.unreadable;
    }
    assert!(uris >= 150, "{uris} URIs checked");
    assert!(
        opened_by_stated >= 2,
        "{opened_by_stated} files opened by a stated password"
    );
}
