//! mbox files and size limits in every command, through the `mimebase` binary as a user runs
//! it: an mbox is split into its messages by the one splitter of `mimebase::mailbox`, and no
//! input is read past `--max-message-bytes`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use pretty_assertions::assert_eq;

use crate::support::cli::{json_lines, mimebase, stderr, stdout};
use crate::support::{root, workdir};

const TWO: &str = "samples/two.mbox";

fn two_mbox() -> Vec<u8> {
    std::fs::read(root().join(TWO)).unwrap()
}

/// The byte offset of the second message's `From ` line, found in the file itself.
fn second_offset(mbox: &[u8]) -> usize {
    mbox.windows(7).position(|w| w == b"\n\nFrom ").unwrap() + 2
}

#[test]
fn urls_gives_each_message_of_an_mbox_its_own_base() {
    for stdin in [false, true] {
        let output = if stdin {
            mimebase(&["urls"], &two_mbox())
        } else {
            mimebase(&["urls", TWO], b"")
        };
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let text = stdout(&output);
        let links: Vec<&str> = text.lines().filter(|l| l.ends_with("\ttwo.html")).collect();
        assert_eq!(
            links,
            [
                "http://first.example/two.html\ttwo.html",
                "http://second.example/two.html\ttwo.html"
            ],
            "stdin: {stdin}"
        );
    }
}

#[test]
fn urls_names_each_message_by_its_offset_with_the_file_name() {
    let second = second_offset(&two_mbox());
    let output = mimebase(&["urls", "-H", TWO], b"");
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    // The first message starts the file: its name alone names it, as for a file that is one
    // message.
    assert!(
        text.lines()
            .any(|l| l == "samples/two.mbox\thttp://first.example/two.html\ttwo.html"),
        "{text}"
    );
    let expected = format!("samples/two.mbox:{second}\thttp://second.example/two.html\ttwo.html");
    assert!(text.lines().any(|l| l == expected), "{text}");
    // A file that is one message keeps its name alone.
    let output = mimebase(&["urls", "-H", "samples/basestriker.eml"], b"");
    assert!(
        stdout(&output)
            .lines()
            .all(|l| l.starts_with("samples/basestriker.eml\t"))
    );
}

#[test]
fn json_records_carry_the_offset_of_an_mbox_message_only() {
    let second = second_offset(&two_mbox()) as u64;
    let output = mimebase(&["urls", "--json", TWO, "samples/basestriker.eml"], b"");
    assert_eq!(output.status.code(), Some(0));
    let records = json_lines(&output);
    let links: Vec<(serde_json::Value, String)> = records
        .iter()
        .filter(|r| r["reference"] == "two.html")
        .map(|r| {
            (
                r["offset"].clone(),
                r["resolved"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        links,
        [
            (
                serde_json::Value::Null,
                "http://first.example/two.html".to_owned()
            ),
            (second.into(), "http://second.example/two.html".to_owned())
        ]
    );
    for record in &records {
        let second_message = record["path"] == TWO && record["offset"] == second;
        assert_eq!(record.get("offset").is_some(), second_message, "{record}");
    }

    let output = mimebase(&["inspect", "--json", TWO], b"");
    let records = json_lines(&output);
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].get("offset"), None);
    assert_eq!(records[1]["offset"], second);
    assert_eq!(
        records[1]["entities"][0]["base"]["url"],
        "http://second.example/"
    );
}

#[test]
fn inspect_shows_each_message_of_an_mbox_under_its_own_heading() {
    let second = second_offset(&two_mbox());
    let output = mimebase(&["inspect", TWO], b"");
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    let headings: Vec<&str> = text.lines().filter(|l| l.starts_with("== ")).collect();
    assert_eq!(
        headings,
        [
            "== samples/two.mbox".to_owned(),
            format!("== samples/two.mbox at byte {second}")
        ]
    );
    let second_part = text.split("at byte ").nth(1).unwrap();
    assert!(second_part.contains("base  http://second.example/  (header:Content-Base)"));
    assert!(!second_part.contains("first.example"));
}

/// A message of `size` bytes with one link.
fn message_of(size: usize) -> Vec<u8> {
    let mut message =
        b"Content-Type: text/html\nContent-Base: http://big.example/\n\n<a href=\"x.html\">"
            .to_vec();
    message.resize(size, b'.');
    message
}

#[test]
fn a_message_over_the_limit_is_too_large_and_the_next_input_is_read() {
    let dir = workdir("too-large");
    let big = dir.join("big.eml");
    let small = dir.join("small.eml");
    std::fs::write(&big, message_of(3000)).unwrap();
    std::fs::write(&small, message_of(2000)).unwrap();
    let (big, small) = (big.to_str().unwrap(), small.to_str().unwrap());
    for command in ["urls", "inspect"] {
        let output = mimebase(
            &[command, "--json", "--max-message-bytes", "2K", big, small],
            b"",
        );
        assert_eq!(output.status.code(), Some(1), "{command}");
        let records = json_lines(&output);
        assert_eq!(records[0]["type"], "error");
        assert_eq!(records[0]["kind"], "too_large");
        assert_eq!(records[0]["path"], big);
        assert_eq!(records[0]["length"], 3000);
        // The library's sentence, with the option that sets the limit named by the CLI.
        let why = "the message has 3000 bytes, more than the size limit of 2048 bytes \
                   (--max-message-bytes)";
        assert_eq!(records[0]["message"], why);
        assert!(records[1..].iter().all(|r| r["path"] == small));
        assert!(records.len() > 1, "{command}: the next input is read");
        let errors = stderr(&output);
        assert!(
            errors.contains(&format!("mimebase: {big}: {why}\n")),
            "{errors}"
        );
    }
    // The same message from standard input, whose size is not known beforehand.
    let output = mimebase(&["urls", "--max-message-bytes", "2K"], &message_of(3000));
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), "");
    assert!(stderr(&output).contains(
        "the message has more than 2048 bytes, the size limit; the rest was not read \
         (--max-message-bytes)\n"
    ));
    let output = mimebase(&["urls", "--max-message-bytes", "2K"], &message_of(2048));
    assert_eq!(output.status.code(), Some(0));
    assert!(stdout(&output).contains("http://big.example/x.html\tx.html"));
    // A limit far larger than memory still reads a message of a few MiB from a stream.
    let output = mimebase(
        &["urls", "--max-message-bytes", "1000000G"],
        &message_of(3 << 20),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(stdout(&output).contains("http://big.example/x.html\tx.html"));
}

#[test]
fn a_message_of_an_mbox_over_the_limit_does_not_cost_the_others() {
    let mut mbox = b"From a\n".to_vec();
    mbox.extend(message_of(3000));
    mbox.extend(b"\n\n");
    let second = mbox.len();
    mbox.extend(b"From b\n");
    mbox.extend(
        two_mbox()
            .split(|&b| b == b'\n')
            .skip(1)
            .take(5)
            .flat_map(|l| [l, b"\n"].concat()),
    );
    mbox.extend(b"\n<a href=\"two.html\">\n");
    for stdin in [false, true] {
        let dir = workdir("mbox-over-the-limit");
        let path = dir.join("m.mbox");
        std::fs::write(&path, &mbox).unwrap();
        let path = path.to_str().unwrap();
        let args = ["urls", "--json", "--max-message-bytes", "2K"];
        let output = if stdin {
            mimebase(&args, &mbox)
        } else {
            mimebase(&[&args[..], &[path]].concat(), b"")
        };
        assert_eq!(output.status.code(), Some(1));
        let records = json_lines(&output);
        assert_eq!(records[0]["kind"], "too_large", "stdin: {stdin}");
        // The error record is scan's: all four source fields.
        assert_eq!(
            (records[0]["format"].as_str(), records[0]["offset"].as_u64()),
            (Some("mbox"), Some(0))
        );
        let last = records.last().unwrap();
        assert_eq!(last["offset"], second);
        assert_eq!(last["resolved"], "http://first.example/two.html");
        assert!(stderr(&output).contains(" at byte 0: the message has "));
    }
}

#[test]
fn dev_zero_ends_promptly_with_too_large() {
    if !Path::new("/dev/zero").exists() {
        crate::support::skipped("no /dev/zero on this system");
        return;
    }
    // First with the default limit (64 MiB), then with a small one and another input after.
    let output = mimebase(&["inspect", "/dev/zero"], b"");
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("/dev/zero: the message has more than 67108864 bytes"),
        "{}",
        stderr(&output)
    );
    for command in ["inspect", "urls"] {
        let output = mimebase(
            &[
                command,
                "--json",
                "--max-message-bytes",
                "2K",
                "/dev/zero",
                TWO,
            ],
            b"",
        );
        assert_eq!(output.status.code(), Some(1));
        let records = json_lines(&output);
        assert_eq!(records[0]["kind"], "too_large");
        assert_eq!(records[0]["length"], serde_json::Value::Null);
        assert!(records.iter().skip(1).all(|r| r["path"] == TWO));
        assert!(records.len() > 1);
    }
    let dir = workdir("dev-zero");
    let out = dir.join("out");
    let out = out.to_str().unwrap();
    for args in [
        &["rewrite", "/dev/zero"][..],
        &["rewrite", "-o", out, "/dev/zero"][..],
        &["extract", "--dir", out, "/dev/zero"][..],
        &["scan", "/dev/zero"][..],
    ] {
        let output = mimebase(&[args, &["--max-message-bytes", "2K"]].concat(), b"");
        assert_eq!(output.status.code(), Some(1), "{args:?}");
        assert!(
            stderr(&output).contains("/dev/zero: the message has more than 2048 bytes"),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(!Path::new(out).exists(), "{args:?}: nothing written");
    }
}

#[cfg(unix)]
#[test]
fn an_endless_fifo_is_read_up_to_the_limit() {
    let dir = workdir("fifo");
    let fifo = dir.join("endless");
    let made = Command::new("mkfifo").arg(&fifo).status();
    if !made.is_ok_and(|status| status.success()) {
        crate::support::skipped("mkfifo is not available");
        return;
    }
    // The writer writes until the reader closes the FIFO (a broken pipe ends it).
    let writer = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut file = std::fs::OpenOptions::new().write(true).open(fifo).unwrap();
            let chunk = vec![b'a'; 64 << 10];
            while file.write_all(&chunk).is_ok() {}
        })
    };
    let output = mimebase(
        &["urls", "--max-message-bytes", "2K", fifo.to_str().unwrap()],
        b"",
    );
    // Should mimebase not have opened the FIFO, the writer still waits for a reader: open
    // it without blocking and close it, so that the writer ends either way.
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        const O_NONBLOCK: i32 = 0o4000;
        let _ = std::fs::OpenOptions::new()
            .read(true)
            .custom_flags(O_NONBLOCK)
            .open(&fifo);
    }
    writer.join().unwrap();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("the message has more than 2048 bytes"),
        "{}",
        stderr(&output)
    );
}

/// Runs `rewrite` on `mbox` given as a file (`args` before the file name), in the directory
/// `workdir(name)`; returns what the process printed and that directory.
fn rewrite_file(name: &str, mbox: &[u8], args: &[&str]) -> (Output, PathBuf) {
    let dir = workdir(name);
    let path = dir.join("in.mbox");
    std::fs::write(&path, mbox).unwrap();
    let output = mimebase(
        &[&["rewrite"], args, &[path.to_str().unwrap()]].concat(),
        b"",
    );
    (output, dir)
}

/// The stored messages of `mbox` (their mboxrd quoting kept), as the library splits them.
fn stored_messages(mbox: &[u8]) -> Vec<Vec<u8>> {
    mimebase::mailbox::Mbox::new("m".to_owned(), mbox, 1 << 30)
        .with_unquoting(false)
        .map(|message| match message.input {
            mimebase::mailbox::Input::Bytes(bytes) => bytes,
            mimebase::mailbox::Input::Error(kind, why) => panic!("{kind:?}: {why}"),
        })
        .collect()
}

/// The messages of `mbox` as they are analyzed (unquoted).
fn messages_of(mbox: &[u8]) -> Vec<Vec<u8>> {
    stored_messages(mbox)
        .into_iter()
        .map(|mut message| {
            mimebase::mailbox::unquote(&mut message);
            message
        })
        .collect()
}

#[test]
fn rewrite_gives_each_message_of_an_mbox_its_own_base() {
    let mbox = two_mbox();
    for stdin in [false, true] {
        let output = if stdin {
            mimebase(&["rewrite"], &mbox)
        } else {
            mimebase(&["rewrite", TWO], b"")
        };
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let rewritten = output.stdout;
        let text = String::from_utf8(rewritten.clone()).unwrap();
        let second = text.find("\n\nFrom second@").unwrap();
        assert!(text[..second].contains("<a href=\"http://first.example/two.html\">"));
        assert!(text[second..].contains("<a href=\"http://second.example/two.html\">"));
        assert!(!text.contains("href=\"two.html\""));
        // The quoted line is quoted again.
        assert!(text.contains("\n>From here on, a quoted line (mboxrd).\n"));
        // Split again, each message is that message rewritten alone against its own base.
        let expected: Vec<Vec<u8>> = messages_of(&mbox)
            .iter()
            .map(|message| mimebase::rewrite(message, &mimebase::Options::new()).message)
            .collect();
        assert_eq!(messages_of(&rewritten), expected);
        assert_ne!(expected, messages_of(&mbox));
        // And `urls` on the output finds the absolute links with the same bases.
        let dir = workdir("rewrite-each-base");
        let path = dir.join("out.mbox");
        std::fs::write(&path, &rewritten).unwrap();
        let output = mimebase(&["urls", path.to_str().unwrap()], b"");
        let text = stdout(&output);
        assert!(text.contains("http://first.example/two.html\thttp://first.example/two.html\n"));
        assert!(text.contains("http://second.example/two.html\thttp://second.example/two.html\n"));
    }
}

/// mbox files whose messages need no rewriting: quoted lines, CRLF, with and without a
/// final empty line or a final newline, a `From ` line after a non-empty line (a message
/// starts there, with no empty line before it), a From field inside a header block.
fn mboxes_needing_no_change() -> Vec<Vec<u8>> {
    let html = "Content-Type: text/html\n\n<a href=\"http://abs.example/x\">x</a>\n";
    vec![
        format!("From a\n{html}>From one\n>>From two\n>>>From three\n\nFrom b\n{html}\n").into_bytes(),
        format!("From a\n{html}\nFrom b\n{html}").into_bytes(),
        format!("From a\n{html}\nFrom b\nSubject: no newline at the end").into_bytes(),
        format!("From a\r\n{}\r\nFrom b\r\n{}\r\n", html.replace('\n', "\r\n"), html.replace('\n', "\r\n")).into_bytes(),
        format!("From a\n{html}\n\n\nFrom b\nx\n\n\n").into_bytes(),
        b"From a\nSubject: a From line stored unquoted\n\nline\nFrom here, not after an empty line\n".to_vec(),
        b"From a\nFrom : field@example.com\nSubject: a From field stored unquoted\n\nline\n".to_vec(),
        b"From only\n".to_vec(),
    ]
}

#[test]
fn rewrite_of_an_mbox_needing_no_change_is_byte_identical() {
    for mbox in mboxes_needing_no_change() {
        let shown = String::from_utf8_lossy(&mbox).into_owned();
        let output = mimebase(&["rewrite"], &mbox);
        assert_eq!(output.status.code(), Some(0), "{shown}");
        assert_eq!(String::from_utf8_lossy(&output.stdout), shown);
        let (output, dir) = rewrite_file("no-change-in-place", &mbox, &["--in-place"]);
        assert_eq!(output.status.code(), Some(0), "{shown}");
        assert_eq!(std::fs::read(dir.join("in.mbox")).unwrap(), mbox);
        let (output, _) = rewrite_file("no-change", &mbox, &[]);
        assert_eq!(output.stdout, mbox, "{shown}");
    }
}

#[test]
fn a_message_that_cannot_be_written_back_exactly_is_left_as_it_was() {
    // The one `From ` line a message can hold unquoted: a From field in its header block.
    let mbox = b"From a\nContent-Type: text/html\nFrom : stored-unquoted@a.example\n\
Content-Base: http://a.example/\n\n<a href=\"x.html\">\n\nFrom b\nContent-Type: text/html\n\
Content-Base: http://b.example/\n\n<a href=\"y.html\">\n"
        .to_vec();
    let output = mimebase(&["rewrite"], &mbox);
    assert_eq!(output.status.code(), Some(0));
    let text = String::from_utf8(output.stdout.clone()).unwrap();
    let (first, second) = text.split_at(text.find("\n\nFrom b").unwrap());
    assert_eq!(
        first.as_bytes(),
        &mbox[..first.len()],
        "the first message as it was"
    );
    assert!(second.contains("href=\"http://b.example/y.html\""));
    assert!(
        stderr(&output).contains("mimebase: - at byte 0: left as it was: a line of the message begins with `From ` unquoted"),
        "{}",
        stderr(&output)
    );
}

#[test]
fn rewrite_of_an_mbox_to_a_file_and_in_place() {
    let mbox = two_mbox();
    let on_stdout = mimebase(&["rewrite", TWO], b"").stdout;
    let dir = workdir("to-a-file");
    let out = dir.join("out.mbox");
    let output = mimebase(&["rewrite", "-o", out.to_str().unwrap(), TWO], b"");
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(std::fs::read(&out).unwrap(), on_stdout);
    let (output, dir) = rewrite_file("in-place", &mbox, &["--in-place"]);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(std::fs::read(dir.join("in.mbox")).unwrap(), on_stdout);
}

#[test]
fn rewrite_copies_a_message_over_the_limit_from_the_file_and_refuses_from_stdin() {
    let mut mbox = b"From big\n".to_vec();
    mbox.extend(message_of(3000));
    mbox.extend(b"\n\n");
    mbox.extend(two_mbox());
    let (output, dir) = rewrite_file("over-the-limit", &mbox, &["--max-message-bytes", "2K"]);
    assert_eq!(output.status.code(), Some(1), "a message was not analyzed");
    let text = String::from_utf8(output.stdout.clone()).unwrap();
    let big_end = 9 + 3000 + 1;
    assert_eq!(
        &output.stdout[..big_end],
        &mbox[..big_end],
        "copied as it was"
    );
    assert!(text.contains("href=\"http://first.example/two.html\""));
    assert!(text.contains("href=\"http://second.example/two.html\""));
    assert!(
        stderr(&output).contains("at byte 0: the message has 3010 bytes"),
        "{}",
        stderr(&output)
    );
    // In place, the whole mbox is written.
    let path = dir.join("in.mbox");
    let output = mimebase(
        &[
            "rewrite",
            "--in-place",
            "--max-message-bytes",
            "2K",
            path.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(std::fs::read(&path).unwrap(), text.as_bytes());

    // From standard input the bytes of the big message are gone: -o writes nothing.
    let out = dir.join("out.mbox");
    let output = mimebase(
        &[
            "rewrite",
            "--max-message-bytes",
            "2K",
            "-o",
            out.to_str().unwrap(),
        ],
        &mbox,
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(!out.exists());
    assert!(
        stderr(&output).contains("cannot be written back"),
        "{}",
        stderr(&output)
    );
    // One message over the limit, not an mbox.
    let output = mimebase(&["rewrite", "--max-message-bytes", "2K"], &message_of(3000));
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
    assert!(stderr(&output).contains("more than 2048 bytes"));
}

#[test]
fn extract_gives_each_message_of_an_mbox_a_directory_named_by_its_offset() {
    let second = second_offset(&two_mbox());
    let dir = workdir("extract");
    let out = dir.join("out");
    let output = mimebase(&["extract", "--dir", out.to_str().unwrap(), TWO], b"");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    for (offset, base) in [
        (0, "http://first.example/"),
        (second, "http://second.example/"),
    ] {
        let sub = out.join(offset.to_string());
        let index: serde_json::Value =
            serde_json::from_slice(&std::fs::read(sub.join("index.json")).unwrap()).unwrap();
        assert_eq!(index["files"][0]["base"], base, "{index}");
        let root = index["root"].as_str().unwrap();
        assert!(
            stdout(&output)
                .lines()
                .any(|l| Path::new(l) == sub.join(root))
        );
    }
    // An mbox of one message is extracted into OUT itself, as a file of one message is.
    let one = dir.join("one.mbox");
    std::fs::write(&one, &two_mbox()[..second - 1]).unwrap();
    let out = dir.join("one");
    let output = mimebase(
        &[
            "extract",
            "--dir",
            out.to_str().unwrap(),
            one.to_str().unwrap(),
        ],
        b"",
    );
    assert_eq!(output.status.code(), Some(0));
    assert!(out.join("index.json").exists());
}

#[test]
fn extract_reads_no_more_than_the_limit() {
    let output = mimebase(
        &[
            "extract",
            "--dir",
            "target/never-written",
            "--max-message-bytes",
            "2K",
        ],
        &message_of(3000),
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(stderr(&output).contains("more than 2048 bytes"));
    assert!(!root().join("target/never-written").exists());
}

/// A header line of a megabyte is read past whole (the header limit is the message limit),
/// and costs no memory since the field is not one the analysis reads; the fields after it are
/// read.
#[test]
fn a_long_header_line_does_not_cost_the_fields_after_it() {
    let mut message = b"X-Long: ".to_vec();
    message.resize(8 + 1_100_000, b'a');
    message.extend(b"\nContent-Type: text/html\nContent-Base: http://long.example/dir/\n\n<a href=\"two.html\">x</a>\n");
    let output = mimebase(&["urls", "--json"], &message);
    assert_eq!(output.status.code(), Some(0));
    let records = json_lines(&output);
    assert!(
        records
            .iter()
            .any(|r| r["reference"] == "two.html"
                && r["resolved"] == "http://long.example/dir/two.html"),
        "{records:?}"
    );
    let output = mimebase(&["inspect", "--json"], &message);
    let record = &json_lines(&output)[0];
    assert_eq!(record["diagnostics"], serde_json::json!([]));
    assert_eq!(record["complete"], true);
}

/// The `error` records of `inspect --json` and `urls --json` are `scan`'s, field for field:
/// `offset` is always there, a number whenever it is known (0 for a file that is one message,
/// that of the `From ` line for a message of an mbox file, the first one included), and
/// `null` only with `"format": null`, for a path of which nothing could be read. (Unlike a
/// `message` or `url` record, where a missing `offset` means 0.)
#[test]
fn error_records_give_the_offset_as_scan_does() {
    let dir = workdir("error-offsets");
    let big = dir.join("big.eml");
    std::fs::write(&big, message_of(3000)).unwrap();
    let mbox = dir.join("two.mbox");
    let mut two = b"From a\n".to_vec();
    two.extend(message_of(3000));
    two.extend(b"\nFrom b\n");
    two.extend(message_of(3000));
    std::fs::write(&mbox, &two).unwrap();
    let (big, mbox) = (big.to_str().unwrap(), mbox.to_str().unwrap());
    let inputs = [big, mbox, "no/such.eml"];
    let limit = ["--max-message-bytes", "2K"];
    let scan = json_lines(&mimebase(&[&["scan"][..], &limit, &inputs].concat(), b""));
    let errors = |lines: Vec<serde_json::Value>| -> Vec<serde_json::Value> {
        lines.into_iter().filter(|l| l["type"] == "error").collect()
    };
    let scan = errors(scan);
    assert_eq!(scan.len(), 4);
    let offsets: Vec<_> = scan.iter().map(|l| l["offset"].clone()).collect();
    let second = 7 + 3000 + 1;
    assert_eq!(
        offsets,
        [0.into(), 0.into(), second.into(), serde_json::Value::Null]
    );
    assert_eq!(scan[3]["format"], serde_json::Value::Null);
    for command in ["inspect", "urls"] {
        let lines = json_lines(&mimebase(
            &[&[command, "--json"][..], &limit, &inputs].concat(),
            b"",
        ));
        assert_eq!(errors(lines), scan, "{command}");
    }
}
