//! Reading members: names, order, nesting, truncated and random bytes.

use pretty_assertions::assert_eq;
use zip::CompressionMethod;
use zip::write::SimpleFileOptions;

use super::{PASSWORD, Raw, Rng, built, crc32, deflated, kinds, names, written, zipcrypto};
use crate::archive::{Limits, Member, Opened, ProblemKind, Reading, is_zip, read, read_member};

#[test]
fn magic_numbers() {
    assert!(is_zip(b"PK\x03\x04rest"));
    assert!(is_zip(b"PK\x05\x06"));
    assert!(!is_zip(b"PK\x01\x02"));
    assert!(!is_zip(b"MZ\x90\x00PK\x03\x04"));
    assert!(!is_zip(b""));
    assert!(is_zip(&written(&[], SimpleFileOptions::default())));
}

#[test]
fn plain_members_in_order_without_directories() {
    let bytes = written(
        &[
            ("a.txt", b"alpha"),
            ("dir/", b""),
            ("dir/b.html", b"<a href=\"https://example.com/\">b</a>"),
            ("empty", b""),
        ],
        deflated(),
    );
    let reading = read(&bytes, &[], &Limits::default());
    assert_eq!(
        reading,
        Reading {
            opened: Opened::NotEncrypted,
            members: vec![
                Member {
                    name: "a.txt".into(),
                    bytes: b"alpha".to_vec()
                },
                Member {
                    name: "dir/b.html".into(),
                    bytes: b"<a href=\"https://example.com/\">b</a>".to_vec()
                },
                Member {
                    name: "empty".into(),
                    bytes: Vec::new()
                },
            ],
            problems: Vec::new(),
        }
    );
    let stored = written(
        &[("s", b"stored bytes")],
        SimpleFileOptions::default().compression_method(CompressionMethod::Stored),
    );
    assert_eq!(
        read(&stored, &[], &Limits::default()).members[0].bytes,
        b"stored bytes"
    );
}

#[test]
fn empty_archive() {
    let reading = read(&written(&[], deflated()), &[], &Limits::default());
    assert_eq!(reading.members, Vec::new());
    assert_eq!(reading.problems, Vec::new());
    assert_eq!(reading.opened, Opened::NotEncrypted);
}

#[test]
fn names_are_decoded_by_the_language_encoding_flag() {
    // "caf\x82" is "café" in code page 437; with bit 11 the bytes are UTF-8.
    let crc = crc32(b"x");
    let bytes = built(&[
        Raw {
            name: b"caf\x82.txt",
            flags: 0,
            method: 0,
            crc,
            data: b"x",
            size: 1,
        },
        Raw {
            name: "café.txt".as_bytes(),
            flags: 1 << 11,
            method: 0,
            crc,
            data: b"x",
            size: 1,
        },
        Raw {
            name: "café2.txt".as_bytes(),
            flags: 0,
            method: 0,
            crc,
            data: b"x",
            size: 1,
        },
    ]);
    let reading = read(&bytes, &[], &Limits::default());
    assert_eq!(names(&reading), ["café.txt", "café.txt", "caf├⌐2.txt"]);
    // The Info-ZIP Unicode Path field (APPNOTE.TXT §4.6.9) as the `zip` crate writes it.
    let written = written(&[("naïve €.txt", b"x")], deflated());
    assert_eq!(
        names(&read(&written, &[], &Limits::default())),
        ["naïve €.txt"]
    );
}

#[test]
fn nested_archives_are_members_read_one_level_at_a_time() {
    let inner = written(&[("inner.txt", b"deep")], deflated());
    let outer = written(&[("inner.zip", &inner), ("top.txt", b"top")], deflated());
    let reading = read(&outer, &[], &Limits::default());
    assert_eq!(names(&reading), ["inner.zip", "top.txt"]);
    assert_eq!(reading.members[0].bytes, inner);
    let again = read(&reading.members[0].bytes, &[], &Limits::default());
    assert_eq!(again.members[0].bytes, b"deep");
}

#[test]
fn truncated_archive_is_walked_by_its_local_headers() {
    let big: Vec<u8> = (0..5000u32).flat_map(|i| i.to_le_bytes()).collect();
    let bytes = written(
        &[("one", b"first"), ("two", b"second"), ("three", &big)],
        deflated(),
    );
    let cut = &bytes[..bytes.len() - 400];
    let reading = read(cut, &[], &Limits::default());
    assert_eq!(names(&reading), ["one", "two"]);
    assert_eq!(reading.members[1].bytes, b"second");
    assert_eq!(reading.problems[0].kind, ProblemKind::Broken);
    assert!(
        reading.problems[0]
            .message
            .starts_with("no central directory")
    );
    // Cut inside the central directory: the members are all there.
    let directory_cut = &bytes[..bytes.len() - 30];
    assert_eq!(
        names(&read(directory_cut, &[], &Limits::default())),
        ["one", "two", "three"]
    );
    // Encrypted members are walked with their passwords too.
    let locked = zipcrypto(&[("a", b"first"), ("b", b"second")], 8, PASSWORD.as_bytes());
    let reading = read(
        &locked[..locked.len() - 40],
        &[PASSWORD.to_owned()],
        &Limits::default(),
    );
    assert_eq!(names(&reading), ["a", "b"]);
    assert_eq!(reading.opened, Opened::Password(0));
}

#[test]
fn read_member_by_name() {
    let bytes = written(&[("a", b"1"), ("word/document.xml", b"<w/>")], deflated());
    assert_eq!(
        read_member(&bytes, "word/document.xml", &Limits::default()).unwrap(),
        b"<w/>"
    );
    let missing = read_member(&bytes, "nope", &Limits::default()).unwrap_err();
    assert_eq!(missing.kind, ProblemKind::Broken);
    let limits = Limits {
        max_member_bytes: 2,
        ..Limits::default()
    };
    assert_eq!(
        read_member(&bytes, "word/document.xml", &limits)
            .unwrap_err()
            .kind,
        ProblemKind::Limit
    );
}

#[test]
fn random_bytes_are_problems() {
    let mut rng = Rng(7);
    for length in [0, 1, 4, 22, 30, 100, 4096] {
        let mut bytes: Vec<u8> = (0..length).map(|_| rng.next() as u8).collect();
        let reading = read(&bytes, &[], &Limits::default());
        assert_eq!(reading.members, Vec::new(), "{length}");
        bytes.splice(0..0, *b"PK\x03\x04");
        let reading = read(&bytes, &[], &Limits::default());
        assert_eq!(reading.members, Vec::new(), "{length}");
        assert!(!reading.problems.is_empty());
    }
}

#[test]
fn duplicate_names_and_unsupported_methods_are_problems() {
    let bytes = built(&[
        Raw {
            name: b"a",
            flags: 0,
            method: 0,
            crc: crc32(b"1"),
            data: b"1",
            size: 1,
        },
        Raw {
            name: b"lzma",
            flags: 0,
            method: 14,
            crc: 0,
            data: b"xxxx",
            size: 4,
        },
        Raw {
            name: b"a",
            flags: 0,
            method: 0,
            crc: crc32(b"2"),
            data: b"2",
            size: 1,
        },
    ]);
    let reading = read(&bytes, &[], &Limits::default());
    // The `zip` crate keeps the later entry of a name, in the place of the first.
    assert_eq!(names(&reading), ["a"]);
    assert_eq!(reading.members[0].bytes, b"2");
    assert_eq!(kinds(&reading), [ProblemKind::Broken, ProblemKind::Broken]);
    assert!(
        reading.problems[0].message.contains("same name"),
        "{:?}",
        reading.problems
    );
    assert_eq!(reading.problems[1].member.as_deref(), Some("lzma"));
}
