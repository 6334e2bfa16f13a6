//! `mimebase::mailbox` used as a library, the way an indexer written in Rust reads an archive
//! without the command line: a directory holding a Maildir and an mbox file, built at run time.

use std::fs;
use std::path::Path;

use mimebase::mailbox::{Found, Input, Mbox, Message, Messages, Opened, Roots, Walker, open};
use mimebase::scan::{Format, ScanErrorKind, Source};
use pretty_assertions::assert_eq;

use crate::support::{workdir, write};

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
