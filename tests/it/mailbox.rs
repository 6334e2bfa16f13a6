//! `mimebase::mailbox` used as a library, the way an indexer written in Rust reads an archive
//! without the command line: a directory holding a Maildir and an mbox file, built at run time.

use std::fs;
use std::path::Path;

use mimebase::mailbox::{
    Found, Input, Mbox, Message, Messages, Opened, Roots, Stream, Walker, open, open_stream,
};
use mimebase::scan::{Format, ScanErrorKind, Source};
use pretty_assertions::assert_eq;

use crate::support::{root, workdir, write};

/// `(path relative to dir, format, offset, length, bytes or error kind)` of each message.
type Seen = (
    String,
    Option<Format>,
    Option<u64>,
    Option<u64>,
    Result<String, ScanErrorKind>,
);

fn seen(dir: &Path, messages: impl Iterator<Item = Message>) -> Vec<Seen> {
    messages
        .map(|Message { source, input }| {
            let path = source
                .path
                .strip_prefix(&format!("{}/", dir.display()))
                .unwrap_or(&source.path)
                .to_owned();
            let input = match input {
                Input::Bytes(bytes) => Ok(String::from_utf8(bytes).unwrap()),
                Input::Error(kind, _) => Err(kind),
            };
            (path, source.format, source.offset, source.length, input)
        })
        .collect()
}

#[test]
fn walks_maildir_then_mbox_with_offsets_and_limit() {
    let dir = workdir("mailbox-walk");
    let maildir = dir.join("a-maildir");
    write(&maildir.join("cur/1:2,S"), b"Subject: cur\n\nx\n");
    write(
        &maildir.join("new/2"),
        b"From not an mbox in a Maildir\n\ny\n",
    );
    write(&maildir.join("tmp/3"), b"Subject: being delivered\n\n");
    fs::create_dir_all(maildir.join(".Sent/cur")).unwrap();
    write(&maildir.join(".Sent/new/4"), b"Subject: sent\n\n");
    let first = b"From a@b Mon Jan  1 00:00:00 2024\nSubject: 1\n\n>From quoted\n";
    let big = b"From c@d Mon Jan  1 00:00:00 2024\nSubject: 2\n\n0123456789012345678901234567890\n";
    let third = b"From e@f Mon Jan  1 00:00:00 2024\nSubject: 3\n\nok\n";
    let mbox = [&first[..], b"\n", big, b"\n", third].concat();
    write(&dir.join("b.mbox"), &mbox);

    let roots = Roots::new(vec![dir.clone(), dir.join("missing")], None);
    let messages = seen(&dir, Messages::new(Walker::new(roots), 70));
    let file = Some(Format::File);
    let in_mbox = Some(Format::Mbox);
    let big_offset = first.len() as u64 + 1;
    let third_offset = big_offset + big.len() as u64 + 1;
    assert_eq!(
        messages,
        vec![
            (
                "a-maildir/cur/1:2,S".into(),
                file,
                Some(0),
                Some(16),
                Ok("Subject: cur\n\nx\n".into())
            ),
            (
                "a-maildir/new/2".into(),
                file,
                Some(0),
                Some(33),
                Ok("From not an mbox in a Maildir\n\ny\n".into())
            ),
            (
                "a-maildir/.Sent/new/4".into(),
                file,
                Some(0),
                Some(15),
                Ok("Subject: sent\n\n".into())
            ),
            (
                "b.mbox".into(),
                in_mbox,
                Some(0),
                Some(first.len() as u64),
                Ok("From a@b Mon Jan  1 00:00:00 2024\nSubject: 1\n\nFrom quoted\n".into()),
            ),
            (
                "b.mbox".into(),
                in_mbox,
                Some(big_offset),
                Some(big.len() as u64),
                Err(ScanErrorKind::TooLarge)
            ),
            (
                "b.mbox".into(),
                in_mbox,
                Some(third_offset),
                Some(third.len() as u64),
                Ok(String::from_utf8(third.to_vec()).unwrap())
            ),
            ("missing".into(), None, None, None, Err(ScanErrorKind::Read)),
        ]
    );
}

#[test]
fn mbox_streams_from_any_reader() {
    let mbox: &[u8] = b"From a\n\none\n\nFrom b\r\n\r\n>>From two\r\n";
    let messages: Vec<(Source, String)> = Mbox::new("-".to_owned(), mbox, 1 << 20)
        .map(|m| match m.input {
            Input::Bytes(bytes) => (m.source, String::from_utf8(bytes).unwrap()),
            Input::Error(kind, why) => panic!("{kind:?}: {why}"),
        })
        .collect();
    assert_eq!(
        messages,
        vec![
            (Source::mbox("-", 0, 12), "From a\n\none\n".to_owned()),
            (
                Source::mbox("-", 13, 22),
                "From b\r\n\r\n>From two\r\n".to_owned()
            ),
        ]
    );
}

/// A mail client moves a message from `new/` to `cur/`, and changes the flags of another,
/// after the walker listed them and before they are opened: both are found again by their
/// unique names and read from where they are now; a deleted one is a read error.
#[test]
fn maildir_message_renamed_between_listing_and_opening_is_found_again() {
    let dir = workdir("mailbox-renamed");
    write(
        &dir.join("cur/1700000000.M1P1.host:2,"),
        b"Subject: flags\n\n",
    );
    write(
        &dir.join("cur/1700000001.M2P1.host:2,S"),
        b"Subject: deleted\n\n",
    );
    write(&dir.join("new/1700000002.M3P1.host"), b"Subject: seen\n\n");
    // A name that only begins like the first one's unique name is another message.
    write(
        &dir.join("cur/1700000000.M1P1.host2:2,"),
        b"Subject: other\n\n",
    );
    // Listed in byte order: `host2` before `host:`.
    let mut walker = Walker::new(Roots::new(vec![dir.clone()], None));
    let found: Vec<Found> = walker.by_ref().take(4).collect();
    assert!(walker.next().is_none());

    fs::rename(
        dir.join("cur/1700000000.M1P1.host:2,"),
        dir.join("cur/1700000000.M1P1.host:2,RS"),
    )
    .unwrap();
    fs::remove_file(dir.join("cur/1700000001.M2P1.host:2,S")).unwrap();
    fs::rename(
        dir.join("new/1700000002.M3P1.host"),
        dir.join("cur/1700000002.M3P1.host:2,S"),
    )
    .unwrap();

    let messages = found.into_iter().map(|found| match open(found, 1 << 20) {
        Opened::One(message) => message,
        Opened::Many(_) => panic!("a Maildir message is never an mbox"),
    });
    let seen: Vec<_> = seen(&dir, messages)
        .into_iter()
        .map(|(path, _, _, _, input)| (path, input))
        .collect();
    assert_eq!(
        seen,
        vec![
            (
                "cur/1700000000.M1P1.host2:2,".into(),
                Ok("Subject: other\n\n".into())
            ),
            (
                "cur/1700000000.M1P1.host:2,RS".into(),
                Ok("Subject: flags\n\n".into())
            ),
            (
                "cur/1700000001.M2P1.host:2,S".into(),
                Err(ScanErrorKind::Read)
            ),
            (
                "cur/1700000002.M3P1.host:2,S".into(),
                Ok("Subject: seen\n\n".into())
            ),
        ]
    );
}

/// A regular file is read as long as its size says, except one that says it is empty while it
/// is not, as the files of `/proc` do: that one is read to its end.
#[test]
fn regular_files_are_read_whole_even_when_their_size_is_zero() {
    let dir = workdir("read-whole");
    let path = dir.join("m.eml");
    write(&path, b"Subject: x\r\n\r\nbody\r\n");
    let proc_file = Path::new("/proc/self/status");
    let mut found = vec![(path, 20)];
    if proc_file
        .metadata()
        .is_ok_and(|m| m.is_file() && m.len() == 0)
    {
        found.push((proc_file.to_path_buf(), 0));
    }
    for (path, expected) in found {
        let Opened::One(Message {
            input: Input::Bytes(bytes),
            ..
        }) = open(
            Found::File {
                path: path.clone(),
                in_maildir: false,
            },
            1 << 20,
        )
        else {
            panic!("{}: not read as one message", path.display());
        };
        if expected > 0 {
            assert_eq!(bytes.len(), expected);
        } else {
            assert!(bytes.starts_with(b"Name:"), "{}", path.display());
        }
    }
}

/// `(offset, length)` of each message of `mbox`, split twice, and checked to agree: as a
/// file read whole (written to the work directory `name`) and split in memory ([`open`]),
/// and streamed ([`Mbox`]).
fn boundaries(name: &str, mbox: &[u8]) -> Vec<(u64, u64)> {
    fn offsets(messages: impl Iterator<Item = Message>) -> Vec<(u64, u64)> {
        messages
            .map(|m| (m.source.offset.unwrap(), m.source.length.unwrap()))
            .collect()
    }
    let streamed = offsets(Mbox::new("-".to_owned(), mbox, 1 << 20));
    let path = workdir(name).join("in.mbox");
    write(&path, mbox);
    let Opened::Many(messages) = open(
        Found::File {
            path,
            in_maildir: false,
        },
        1 << 20,
    ) else {
        panic!("not an mbox")
    };
    assert_eq!(offsets(messages), streamed, "in memory and streamed");
    streamed
}

/// `tests/data/mbox/netscape.mbox`, written for this test after the mail folders Netscape
/// wrote (MimeKit's test file `content-length.mbox.txt` has the same shapes): a `From - ` line
/// right after a close delimiter and right after a base64 line, and a From field with a space
/// before its colon. The boundaries are those of Python's `mailbox.mbox` (Python 3.11) except
/// at the From field, where GMime's `GMimeParser` (3.2.13, `GMIME_FORMAT_MBOX`) agrees with us:
/// both run on this file (`scripts/mbox-oracles` prints what each gives).
#[test]
fn netscape_from_lines_split_as_python_and_gmime_do() {
    let mbox = fs::read(root().join("tests/data/mbox/netscape.mbox")).unwrap();
    assert_eq!(
        boundaries("netscape", &mbox),
        [
            // Python: (0, 614) and (614, 268), after the close delimiter, (883, 300) after an
            // empty line; GMime: offsets 0, 614, 883.
            (0, 614),
            (614, 268),
            (883, 300),
            // Python splits at the From field at 1215: (1183, 32), (1215, 256); GMime does not
            // (offsets 1183, 1472), nor do we (the module docs of `mailbox::mbox` say why).
            (1183, 288),
            // Python: (1472, 181), after an empty line; GMime: 1472.
            (1472, 181),
        ]
    );
}

/// One case per kind of line before a `From ` line, and per kind of `From ` line. The
/// expected `(offset, length)` pairs are those Python's `mailbox.mbox` (3.11, on Linux) gives
/// for the same bytes, and GMime's `GMimeParser` (3.2.13, `GMIME_FORMAT_MBOX`) starts a message
/// at the same offsets, except where a comment says otherwise (`scripts/mbox-oracles` prints
/// what each gives for a file).
#[test]
fn from_lines_split_as_python_and_gmime_do() {
    const E: &str = "From a@b Mon Jan  1 00:00:00 2024\n";
    const F: &str = "From c@d Mon Jan  1 00:00:00 2024\n";
    let multipart = "Content-Type: multipart/mixed; boundary=b\n";
    /// What the case is, its mbox, and `(offset, length)` of each message.
    type Case = (&'static str, String, &'static [(u64, u64)]);
    let cases: Vec<Case> = vec![
        (
            "after an empty line",
            format!("{E}Subject: 1\n\nbody\n\n{F}Subject: 2\n\nbody 2\n"),
            &[(0, 51), (52, 53)],
        ),
        (
            "after a close delimiter",
            format!("{E}Subject: 1\n{multipart}\n--b\n\nx\n--b--\n{F}Subject: 2\n\nbody 2\n"),
            &[(0, 101), (101, 53)],
        ),
        (
            "after a base64 line",
            format!(
                "{E}Subject: 1\nContent-Transfer-Encoding: base64\n\nAAAA\n{F}Subject: 2\n\nbody 2\n"
            ),
            &[(0, 85), (85, 53)],
        ),
        (
            "in the middle of a body paragraph",
            format!("{E}Subject: 1\n\nfirst line\nFrom here on it is\nthe same paragraph\n"),
            &[(0, 57), (57, 38)],
        ),
        (
            "quoted",
            format!("{E}Subject: 1\n\nfirst line\n>From here on it is\n>>From here\n"),
            &[(0, 89)],
        ),
        (
            "From without a space after it",
            format!("{E}Subject: 1\n\nbody\n\nFrom:x\nFromage\n"),
            &[(0, 67)],
        ),
        (
            // Python: (0, 45), (45, 23), (69, 53); GMime: 0, 69.
            "a From field in the header block",
            format!("{E}Subject: 1\nFrom : x@y\nTo: z\n\nbody\n\n{F}Subject: 2\n\nbody 2\n"),
            &[(0, 68), (69, 53)],
        ),
        (
            // Python: (0, 45), (45, 24); GMime: 0.
            "a From field with two spaces in the header block",
            format!("{E}Subject: 1\nFrom  : x@y\nTo: z\n\nbody\n"),
            &[(0, 69)],
        ),
        (
            // Python: (0, 45), (45, 24); GMime: 0.
            "a From field with a tab in the header block",
            format!("{E}Subject: 1\nFrom \t: x@y\nTo: z\n\nbody\n"),
            &[(0, 69)],
        ),
        (
            "a From field line in the body",
            format!("{E}Subject: 1\n\nbody\nFrom  : x@y\nSubject: 2\n\nbody 2\n"),
            &[(0, 51), (51, 31)],
        ),
        (
            "a From field line right after the empty line",
            format!("{E}Subject: 1\n\nFrom : x@y\nSubject: 2\n\nbody 2\n"),
            &[(0, 45), (46, 30)],
        ),
        (
            "a From line that is no field, in the header block",
            format!("{E}Subject: 1\nFrom here on\nTo: z\n\nbody\n"),
            &[(0, 45), (45, 25)],
        ),
        (
            "a From field in the header block of a part",
            format!(
                "{E}Subject: 1\n{multipart}\n--b\nFrom  : x@y\nContent-Type: text/plain\n\nx\n--b--\n"
            ),
            &[(0, 92), (92, 46)],
        ),
        (
            "at the start of a message/rfc822 body",
            format!(
                "{E}Subject: 1\nContent-Type: message/rfc822\n\n{F}Subject: inner\n\ninner body\n"
            ),
            &[(0, 74), (75, 61)],
        ),
        (
            // Python on Linux keeps the `\r\n` empty line in the first message: (0, 57).
            "CRLF, after an empty line",
            format!("{E}Subject: 1\n\nbody\n\n{F}Subject: 2\n\nbody 2\n").replace('\n', "\r\n"),
            &[(0, 55), (57, 57)],
        ),
        (
            "CRLF, after a non-empty line",
            format!("{E}Subject: 1\n\nbody\n{F}Subject: 2\n\nbody 2\n").replace('\n', "\r\n"),
            &[(0, 55), (55, 57)],
        ),
    ];
    for (i, (name, mbox, expected)) in cases.into_iter().enumerate() {
        let split = boundaries(&format!("case-{i}"), mbox.as_bytes());
        assert_eq!(split, expected, "{name}");
    }
}

/// `tests/data/mbox/byte-order-mark.mbox`, written here in the shape of MimeKit's test file
/// `unmunged.mbox.txt`: a UTF-8 byte order mark, then `From -`, a message whose body has an
/// unquoted `From Russia with love` line, and a second `From -` message. MimeKit's parser skips
/// the mark, and its test expects the first message to start there (and another at the
/// unquoted line); GMime's parser (3.2.13, `GMIME_FORMAT_MBOX`) and Python's `mailbox.mbox`
/// (3.11) take the marked line for no `From ` line and lose the first message. The mark is in
/// no message: the first starts at byte 3, read whole from its `From ` line.
#[test]
fn an_mbox_that_starts_with_a_byte_order_mark() {
    let mbox = fs::read(root().join("tests/data/mbox/byte-order-mark.mbox")).unwrap();
    assert!(mbox.starts_with(b"\xef\xbb\xbfFrom - "));
    let at = |text: &[u8]| mbox.windows(text.len()).position(|w| w == text).unwrap() as u64;
    let (second, third) = (at(b"From Russia"), at(b"From - Tue Mar 03 10:05"));
    assert_eq!(
        boundaries("byte-order-mark", &mbox),
        [
            (3, second - 1 - 3),
            (second, third - 1 - second),
            (third, mbox.len() as u64 - third)
        ]
    );
    let mut stream = Mbox::new("-".to_owned(), &mbox[..], 1 << 20);
    let first = stream.next().unwrap();
    assert_eq!(stream.byte_order_mark(), Some(&b"\xef\xbb\xbf"[..]));
    let Input::Bytes(first) = first.input else {
        panic!("{:?}", first.input)
    };
    assert!(first.starts_with(b"From - Tue Mar 03 10:00:00 2026\nFrom: Alice"));
    let report = mimebase::analyze(&first, &mimebase::Options::new());
    let resolved: Vec<_> = report
        .urls
        .iter()
        .filter_map(|u| u.resolution.resolved())
        .collect();
    assert!(
        resolved.contains(&"https://first.example/dir/one.html"),
        "{resolved:?}"
    );
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
    // Read from a stream, it is an mbox too.
    let Stream::Mbox(mut stream) = open_stream("-".to_owned(), &mbox[..], 1 << 20) else {
        panic!("not an mbox")
    };
    assert_eq!(stream.next().unwrap().source.offset, Some(3));
}

/// A file whose first line is a From field in the obsolete syntax (`From : a@b`, white space
/// before the colon, RFC 5322 §4.5.2), which RFC 5322 §4 says a receiver must accept, is one
/// message, not an mbox whose first line is an envelope (RFC 4155 §2 has an address after the
/// single space of `From `, and a colon begins none): `tests/data/mbox/from-field-first.eml`,
/// written here, and `../shared/corpus/bench/phishing_pot/sample-400.eml`, a phishing message
/// of that shape, read in place. GMime (3.2.13) reads both as one message whose first field is
/// `From`, as we do: its header starts at byte 0. Without the corpus, the file written here
/// alone.
#[test]
fn a_file_that_starts_with_a_from_field_is_one_message() {
    let corpus = crate::support::corpus_or_skip("bench/phishing_pot/sample-400.eml");
    for path in std::iter::once(root().join("tests/data/mbox/from-field-first.eml")).chain(corpus) {
        let raw = fs::read(&path).unwrap();
        assert!(raw.starts_with(b"From : "), "{}", path.display());
        let found = Found::File {
            path: path.clone(),
            in_maildir: false,
        };
        let Opened::One(message) = open(found, 1 << 30) else {
            panic!("{} was read as an mbox", path.display())
        };
        assert_eq!(message.source.format, Some(Format::File));
        assert_eq!(message.input, Input::Bytes(raw.clone()));
        let Stream::One(_) = open_stream("-".to_owned(), &raw[..], 1 << 30) else {
            panic!("{} was streamed as an mbox", path.display())
        };
        let report = mimebase::analyze(&raw, &mimebase::Options::new());
        assert_eq!(report.entities[0].header.start, 0, "{}", path.display());
        assert!(
            !report
                .diagnostics
                .iter()
                .any(|d| d.kind == mimebase::DiagnosticKind::NoHeader),
            "{:?}",
            report.diagnostics
        );
    }
    let raw = fs::read(root().join("tests/data/mbox/from-field-first.eml")).unwrap();
    let report = mimebase::analyze(&raw, &mimebase::Options::new());
    assert_eq!(report.entities[0].content_type, "text/html");
    assert_eq!(report.urls[0].reference, "https://from-field.example/offer");
}

/// `rewrite` writes an mbox that starts with a byte order mark back with the mark, each message
/// rewritten against its own base.
#[cfg(feature = "cli")]
#[test]
fn rewrite_keeps_the_byte_order_mark_of_an_mbox() {
    use crate::support::cli::{mimebase, stderr};
    let path = root().join("tests/data/mbox/byte-order-mark.mbox");
    let mbox = fs::read(&path).unwrap();
    let output = mimebase(&["rewrite", path.to_str().unwrap()], b"");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let expected = String::from_utf8(mbox)
        .unwrap()
        .replace("\"one.html\"", "\"https://first.example/dir/one.html\"")
        .replace("\"two.html\"", "\"https://second.example/dir/two.html\"");
    assert_eq!(String::from_utf8(output.stdout).unwrap(), expected);
}

/// The files of a walk with `globs`, relative to `dir`, in walk order.
fn walked(dir: &Path, roots: Vec<std::path::PathBuf>, globs: &[(&str, bool)]) -> Vec<String> {
    let globs = mimebase::mailbox::Globs::new(globs.iter().copied()).unwrap();
    Walker::new(Roots::new(roots, None))
        .with_globs(globs)
        .map(|found| match found {
            Found::File { path, .. } => path.strip_prefix(dir).unwrap().display().to_string(),
            other => panic!("{other:?}"),
        })
        .collect()
}

/// Globs match below each root, relative to it: a Maildir's `new/` excluded as a directory,
/// a file name at any depth; a root given is walked whatever its name.
#[test]
fn globs_filter_what_is_found_below_the_roots() {
    let dir = workdir("globs");
    let mail = dir.join("mail");
    write(&mail.join("md/cur/1.host:2,S"), b"Subject: c\n\nc\n");
    write(&mail.join("md/new/2.host"), b"Subject: n\n\nn\n");
    write(&mail.join("notes.md"), b"# notes\n");
    write(&mail.join("sub/a.eml"), b"Subject: a\n\na\n");
    let everything = walked(&dir, vec![mail.clone()], &[]);
    assert_eq!(
        everything,
        [
            "mail/md/cur/1.host:2,S",
            "mail/md/new/2.host",
            "mail/notes.md",
            "mail/sub/a.eml"
        ]
    );
    assert_eq!(
        walked(
            &dir,
            vec![mail.clone()],
            &[("!new/", false), ("!*.md", false)]
        ),
        ["mail/md/cur/1.host:2,S", "mail/sub/a.eml"]
    );
    // Relative to the root walked: `md/cur/*` matches from `mail/`, not from `dir`.
    assert_eq!(
        walked(&dir, vec![mail.clone()], &[("/md/cur/*", false)]),
        ["mail/md/cur/1.host:2,S"]
    );
    assert_eq!(
        walked(
            &dir,
            vec![mail.join("notes.md"), mail.clone()],
            &[("*.EML", true)]
        ),
        ["mail/notes.md", "mail/sub/a.eml"]
    );
}
