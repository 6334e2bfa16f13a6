//! Encrypted files (ISO 32000-1 §7.6), made by qpdf: every revision of the standard
//! security handler, with the empty user password, a user password, and a wrong one.

use pretty_assertions::assert_eq;

use super::build::Pdf;
use super::{assert_oracle, assert_problem, places, tools};
use crate::pdf::{Limits, Opened, ProblemKind, read};

/// The qpdf key-length arguments of each revision, and the revision (`/R`) they make.
const HANDLERS: [(&[&str], i64); 5] = [
    (&["40"], 2),
    (&["128", "--use-aes=n"], 3),
    (&["128", "--use-aes=y"], 4),
    (&["256", "--force-R5"], 5),
    (&["256"], 6),
];

/// A plain file with one link and text.
fn plain() -> Vec<u8> {
    Pdf::one_page("", "/Annots [6 0 R]", "Secret https://text.example/")
        .object(
            6,
            "<< /Subtype /Link /Rect [0 0 1 1] /A << /S /URI /URI (https://crypt.example/First) >> >>",
        )
        .build()
}

/// `bytes` encrypted by qpdf with `user` and `owner` passwords and `key` arguments.
fn encrypt(bytes: &[u8], user: &str, owner: &str, key: &[&str], object_streams: bool) -> Vec<u8> {
    let mut arguments = vec!["--allow-weak-crypto", "--encrypt", user, owner];
    arguments.extend_from_slice(key);
    arguments.push("--");
    if object_streams {
        arguments.insert(0, "--object-streams=generate");
    }
    tools::qpdf(bytes, &arguments)
}

/// The passwords as the interface takes them.
fn passwords(list: &[&str]) -> Vec<String> {
    list.iter().map(|p| (*p).to_owned()).collect()
}

#[test]
fn every_revision_every_password_case() {
    if !tools::has_qpdf() {
        crate::testing::skip_missing("every_revision_every_password_case", "qpdf");
        return;
    }
    let limits = Limits::default();
    for (key, revision) in HANDLERS {
        for object_streams in [false, true] {
            let context = format!("{key:?}, object streams {object_streams}");

            // Only an owner password: every viewer opens it.
            let bytes = encrypt(&plain(), "", "owner-pw", key, object_streams);
            assert!(
                tools::qpdf_show_encryption(&bytes, "").contains(&format!("R = {revision}")),
                "{context}: qpdf disagrees on the revision"
            );
            let reading = read(&bytes, &[], &limits);
            assert_eq!(reading.opened, Opened::EmptyPassword, "{context}");
            let encryption = reading.encryption.clone().unwrap();
            assert_eq!(
                (encryption.handler.as_str(), encryption.revision),
                ("Standard", Some(revision)),
                "{context}"
            );
            assert_eq!(
                places(&reading),
                [("annot/URI", "https://crypt.example/First")],
                "{context}"
            );
            assert!(
                reading.pages[0].text.contains("https://text.example/"),
                "{context}"
            );
            assert_oracle("every_revision_every_password_case", &bytes, &reading, None);

            // A user password: the second password given opens it.
            let bytes = encrypt(&plain(), "secret123", "owner-pw", key, object_streams);
            let reading = read(&bytes, &passwords(&["nope", "secret123"]), &limits);
            assert_eq!(reading.opened, Opened::Password(1), "{context}");
            assert_eq!(
                reading.encryption.as_ref().unwrap().revision,
                Some(revision)
            );
            assert_eq!(
                places(&reading),
                [("annot/URI", "https://crypt.example/First")],
                "{context}"
            );
            assert!(
                reading.problems.is_empty(),
                "{context}: {:#?}",
                reading.problems
            );
            assert_oracle(
                "every_revision_every_password_case",
                &bytes,
                &reading,
                Some("secret123"),
            );

            // The owner password opens it too.
            let reading = read(&bytes, &passwords(&["owner-pw"]), &limits);
            assert_eq!(reading.opened, Opened::Password(0), "{context}");
            assert_eq!(reading.links.len(), 1, "{context}");

            // A wrong password: closed, nothing read.
            let reading = read(&bytes, &passwords(&["nope"]), &limits);
            assert_eq!(reading.opened, Opened::Closed, "{context}");
            assert_eq!(
                reading.encryption.as_ref().unwrap().revision,
                Some(revision)
            );
            assert!(
                reading.links.is_empty() && reading.pages.is_empty(),
                "{context}"
            );
            assert_problem(&reading, ProblemKind::Encrypted);
            assert_eq!(
                reading.problems[0].message,
                "encrypted with a user password; none of the 1 passwords tried opens it"
            );

            // No password at all.
            let reading = read(&bytes, &[], &limits);
            assert_eq!(reading.opened, Opened::Closed, "{context}");
            assert_eq!(
                reading.problems[0].message,
                "encrypted with a user password, and no password was given"
            );
        }
    }
}

#[test]
fn unknown_security_handler_stays_closed() {
    let bytes = Pdf::one_page("", "", "x")
        .object(9, "<< /Filter /Adobe.PubSec /V 4 /R 4 /Length 128 >>")
        .trailer("/Encrypt 9 0 R /ID [<00112233445566778899AABBCCDDEEFF> <00112233445566778899AABBCCDDEEFF>]")
        .build();
    let reading = read(&bytes, &passwords(&["x"]), &Limits::default());
    assert_eq!(reading.opened, Opened::Closed);
    assert_eq!(reading.encryption.as_ref().unwrap().handler, "Adobe.PubSec");
    assert_problem(&reading, ProblemKind::Encrypted);
}

#[test]
fn encrypted_object_streams_and_the_load_limit() {
    // lopdf decompresses the object streams of an encrypted file itself, within the
    // per-stream bound the room gives it: a large one loads with the default limits, and
    // is a limit problem with a budget too small for it.
    if !tools::has_qpdf() {
        crate::testing::skip_missing("encrypted_object_streams_and_the_load_limit", "qpdf");
        return;
    }
    let padded = Pdf::one_page("", "/Annots [6 0 R]", "x")
        .object(
            6,
            format!(
                "<< /Subtype /Link /Rect [0 0 1 1] /Contents ({}) \\
                 /A << /S /URI /URI (https://crypt.example/First) >> >>",
                "p".repeat(300_000)
            ),
        )
        .build();
    let bytes = encrypt(&padded, "", "owner-pw", &["256"], true);
    let reading = read(&bytes, &[], &Limits::default());
    assert_eq!(reading.opened, Opened::EmptyPassword);
    assert_eq!(
        places(&reading),
        [("annot/URI", "https://crypt.example/First")]
    );
    let limits = Limits {
        max_decompressed_bytes: 256 * 1024,
        ..Limits::default()
    };
    let reading = read(&bytes, &[], &limits);
    assert!(reading.links.is_empty());
    assert_problem(&reading, ProblemKind::Limit);
}
