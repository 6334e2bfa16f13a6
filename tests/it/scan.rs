//! `mimebase scan`, spawned as an indexer would run it, on a Maildir and an mbox file built
//! at run time and on the real corpus; lines compared as parsed JSON.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use crate::support::cli::{MIMEBASE, json_lines, mimebase, mimebase_in};
use crate::support::{corpus_or_skip, files_under, workdir, write};

/// What one run printed: the NDJSON lines parsed, stderr, the exit code.
struct Run {
    lines: Vec<Value>,
    stderr: String,
    code: Option<i32>,
}

/// Runs `mimebase scan ARGS` in `dir` with `stdin` on standard input.
fn scan(args: &[&str], stdin: &[u8], dir: &Path) -> Run {
    let output = mimebase_in(dir, &[&["scan"], args].concat(), stdin);
    assert!(
        output.stdout.is_empty() || output.stdout.ends_with(b"\n"),
        "{}",
        String::from_utf8_lossy(&output.stdout)
    );
    Run {
        lines: json_lines(&output),
        stderr: String::from_utf8(output.stderr).unwrap(),
        code: output.status.code(),
    }
}

/// Where each line came from: `(type, path, format, offset, length)`.
fn sources(lines: &[Value]) -> Vec<(String, String, Value, Value, Value)> {
    lines
        .iter()
        .map(|l| {
            (
                l["type"].as_str().unwrap().to_owned(),
                l["path"].as_str().unwrap().to_owned(),
                l["format"].clone(),
                l["offset"].clone(),
                l["length"].clone(),
            )
        })
        .collect()
}

fn message(
    path: &str,
    format: &str,
    offset: usize,
    length: usize,
) -> (String, String, Value, Value, Value) {
    (
        "message".into(),
        path.into(),
        json!(format),
        json!(offset),
        json!(length),
    )
}

fn assert_summary(run: &Run, messages: usize, errors: usize) {
    let summary = run.stderr.lines().last().unwrap_or_default();
    let plural = |n: usize, noun: &str| format!("{n} {noun}{}", if n == 1 { "" } else { "s" });
    let prefix = format!("mimebase: scan: {}, ", plural(messages, "message"));
    assert!(summary.starts_with(&prefix), "{}", run.stderr);
    assert!(
        summary.contains(&format!(", {} in ", plural(errors, "error"))),
        "{summary}"
    );
    assert!(summary.ends_with(" MB/s)"), "{summary}");
    assert!(!run.stderr.contains("panicked"), "{}", run.stderr);
}

const FIRST: &[u8] = b"From alice@example.com Mon Jan  1 00:00:00 2024\n\
Message-ID: <one@example.com>\n\
Content-Base: http://example.com/a/\n\
Content-Type: text/html\n\
\n\
<a href=\"b.html\">b</a>\n\
>From the start of a line, quoted\n\
>>From twice\n";

/// A multipart message without a boundary parameter: still a message line, with diagnostics.
const BROKEN: &[u8] = b"From bob@example.com Mon Jan  1 00:00:01 2024\n\
Content-Type: multipart/mixed\n\
\n\
no boundary, no parts\n";

const LAST: &[u8] = b"From carol@example.com Mon Jan  1 00:00:03 2024\r\n\
Message-ID: <last@example.com>\r\n\
\r\n\
no trailing newline";

/// The mbox of the acceptance test: FIRST, BROKEN, a message over 2000 bytes, LAST, each
/// after an empty line; and where each starts.
fn mbox() -> (Vec<u8>, [usize; 4], usize) {
    let large = [
        &b"From dave@example.com Mon Jan  1 00:00:02 2024\nSubject: large\n\n"[..],
        &b"0123456789\n".repeat(300),
    ]
    .concat();
    let mut mbox = Vec::new();
    let mut starts = [0; 4];
    for (i, part) in [FIRST, BROKEN, &large, LAST].iter().enumerate() {
        if i > 0 {
            mbox.extend_from_slice(if i == 3 { b"\r\n" } else { b"\n" });
        }
        starts[i] = mbox.len();
        mbox.extend_from_slice(part);
    }
    (mbox, starts, large.len())
}

#[test]
fn maildir_and_mbox_one_line_per_message_with_offsets_and_errors() {
    let dir = workdir("acceptance");
    let html =
        b"Message-ID: <m1@example.com>\nContent-Type: text/html\n\n<img src=\"http://x/i.png\">";
    write(&dir.join("Mail/cur/1700000000.1.host:2,S"), html);
    write(&dir.join("Mail/cur/.hidden"), b"not a message");
    write(
        &dir.join("Mail/new/1700000001.2.host"),
        b"Subject: new\n\nhi\n",
    );
    // A Maildir message with an envelope line is one message, never split as an mbox.
    let enveloped = b"From x\nSubject: enveloped\n\nbody\n\nFrom y\n";
    write(&dir.join("Mail/new/1700000002.3.host"), enveloped);
    write(
        &dir.join("Mail/tmp/1700000003.4.host"),
        b"Subject: being delivered\n\n",
    );
    write(
        &dir.join("Mail/.Sent/cur/1700000004.5.host:2,S"),
        b"Subject: sent\n\n",
    );
    write(&dir.join("Mail/.Sent/new/.keep"), b"");
    write(&dir.join("Mail/dovecot-uidlist"), b"3 V1 N5\n");
    let (mbox, starts, large) = mbox();
    write(&dir.join("box.mbox"), &mbox);
    let oversized = b"Subject: big\n\n".repeat(200);
    write(&dir.join("big.eml"), &oversized);

    let run = scan(
        &[
            "--max-message-bytes",
            "2000",
            "Mail",
            "box.mbox",
            "missing",
            "big.eml",
        ],
        b"",
        &dir,
    );
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    let error = |path: &str, format: Value, offset: Value, length: Value| {
        ("error".to_owned(), path.to_owned(), format, offset, length)
    };
    assert_eq!(
        sources(&run.lines),
        vec![
            message("Mail/cur/1700000000.1.host:2,S", "file", 0, html.len()),
            message("Mail/new/1700000001.2.host", "file", 0, 17),
            message("Mail/new/1700000002.3.host", "file", 0, enveloped.len()),
            message("Mail/.Sent/cur/1700000004.5.host:2,S", "file", 0, 15),
            message("box.mbox", "mbox", starts[0], FIRST.len()),
            message("box.mbox", "mbox", starts[1], BROKEN.len()),
            error("box.mbox", json!("mbox"), json!(starts[2]), json!(large)),
            message("box.mbox", "mbox", starts[3], LAST.len()),
            error("missing", Value::Null, Value::Null, Value::Null),
            error("big.eml", json!("file"), json!(0), json!(oversized.len())),
        ]
    );
    assert_eq!(starts[3] + LAST.len(), mbox.len());
    // The library's sentence, with the option that sets the limit named by the CLI.
    let why = format!(
        "the message has {} bytes, more than the size limit of 2000 bytes (--max-message-bytes)",
        oversized.len()
    );
    assert_eq!(run.lines.last().unwrap()["message"], why);
    let stderr_line = format!("mimebase: big.eml: {why}\n");
    assert!(run.stderr.contains(&stderr_line), "{}", run.stderr);

    let maildir_html = &run.lines[0];
    assert_eq!(maildir_html["message_id"], "<m1@example.com>");
    assert_eq!(maildir_html["urls"][0]["resolved"], "http://x/i.png");
    assert_eq!(run.lines[2]["entities"].as_array().unwrap().len(), 1);

    // The first mbox message: its `From ` line skipped, its two quoted lines unquoted, so its
    // body ends two bytes before the end of its range.
    let first = &run.lines[4];
    assert_eq!(first["message_id"], "<one@example.com>");
    let root = &first["entities"][0];
    assert_eq!(
        root["header"]["start"],
        FIRST.iter().position(|&b| b == b'\n').unwrap() + 1
    );
    assert_eq!(root["body"]["end"], FIRST.len() - 2);
    let resolved: Vec<&str> = first["urls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| u["resolved"].as_str().unwrap())
        .collect();
    assert_eq!(
        resolved,
        ["http://example.com/a/", "http://example.com/a/b.html"]
    );

    let broken = &run.lines[5];
    let kinds: Vec<&str> = broken["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["kind"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["missing_boundary"]);
    assert_eq!(run.lines[6]["kind"], "too_large");
    assert_eq!(run.lines[7]["message_id"], "<last@example.com>");
    assert_eq!(run.lines[8]["kind"], "read");
    assert_eq!(run.lines[9]["kind"], "too_large");

    // Each error has its line on stderr too, the summary comes last, and nothing else is
    // written there (no progress bar: stderr is not a terminal).
    assert_eq!(run.stderr.lines().count(), 3 + 1, "{}", run.stderr);
    assert!(
        run.stderr
            .contains(&format!("mimebase: box.mbox at byte {}: ", starts[2])),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("mimebase: missing: "), "{}", run.stderr);
    assert_summary(&run, 7, 3);
}

#[test]
fn mbox_in_memory_streamed_and_piped_alike() {
    let dir = workdir("stream");
    let (mbox, _, _) = mbox();
    write(&dir.join("box.mbox"), &mbox);
    // A file no larger than the limit is split in memory; a larger one, and standard input,
    // stream through a line reader. No message here is over `smaller`.
    let smaller = (mbox.len() - 1).to_string();
    let in_memory = scan(&["box.mbox"], b"", &dir);
    assert_eq!(in_memory.lines.len(), 4);
    let streamed = scan(&["--max-message-bytes", &smaller, "box.mbox"], b"", &dir);
    assert_eq!(streamed.lines, in_memory.lines);
    let mut piped = scan(&["--max-message-bytes", &smaller, "-"], &mbox, &dir);
    for line in &mut piped.lines {
        assert_eq!(line["path"], "-");
        line["path"] = json!("box.mbox");
    }
    assert_eq!(piped.lines, in_memory.lines);
    assert_summary(&piped, 4, 0);
}

#[test]
fn directories_are_walked_in_byte_order_and_output_keeps_input_order_in_parallel() {
    let dir = workdir("order");
    for name in ["b", "a/z", "a/b/c", "B", "a/a", "c.eml"] {
        write(
            &dir.join("tree").join(name),
            format!("Subject: {name}\n\n").as_bytes(),
        );
    }
    let run = scan(&["--jobs", "1", "tree"], b"", &dir);
    let paths: Vec<&str> = run
        .lines
        .iter()
        .map(|l| l["path"].as_str().unwrap())
        .collect();
    assert_eq!(
        paths,
        [
            "tree/B",
            "tree/a/a",
            "tree/a/b/c",
            "tree/a/z",
            "tree/b",
            "tree/c.eml"
        ]
    );
    assert_eq!(run.code, Some(0));

    let Some(corpus) = corpus_or_skip("messages") else {
        return;
    };
    let corpus = corpus.to_str().unwrap();
    let one = scan(&["--jobs", "1", corpus], b"", &dir);
    for jobs in ["2", "5"] {
        let many = scan(&["--jobs", jobs, corpus], b"", &dir);
        assert_eq!(many.lines, one.lines, "--jobs {jobs}");
    }
    assert!(one.lines.len() >= 70);
}

/// The scale-out contract (docs/GUIDE.md, "Scale-out"): paths in on stdin, exactly one whole
/// NDJSON line per message out, error lines for paths that cannot be read, in the order given.
#[test]
fn paths_from_stdin_is_a_pipe_stage() {
    let dir = workdir("pipe");
    let (mbox, _, _) = mbox();
    write(&dir.join("in/box.mbox"), &mbox);
    let mut paths = Vec::new();
    for i in 0..300 {
        let name = format!("in/{i:03}.eml");
        let body = format!(
            "Message-ID: <{i}@example.com>\nContent-Type: text/html\n\n{}",
            "<a href=\"page.html\">x</a>\n".repeat(i * 7 % 200)
        );
        write(&dir.join(&name), body.as_bytes());
        paths.push(name);
    }
    paths.insert(100, "in/box.mbox".to_owned());
    paths.insert(200, "in/none.eml".to_owned());
    paths.insert(250, "in".to_owned() + "/../nowhere/x.eml");
    let list = paths.join("\n") + "\n";

    for jobs in ["1", "2", "4"] {
        let run = scan(
            &["--jobs", jobs, "--paths-from", "-"],
            list.as_bytes(),
            &dir,
        );
        assert_eq!(run.code, Some(1), "{}", run.stderr);
        // One line per message: 300 files, 4 in the mbox (one of them over no limit), 2 errors.
        assert_eq!(run.lines.len(), 300 + 4 + 2);
        let mut expected = Vec::new();
        for path in &paths {
            if path.ends_with("box.mbox") {
                expected.extend(std::iter::repeat_n(path.clone(), 4));
            } else {
                expected.push(path.clone());
            }
        }
        let got: Vec<&str> = run
            .lines
            .iter()
            .map(|l| l["path"].as_str().unwrap())
            .collect();
        assert_eq!(got, expected);
        for line in &run.lines {
            let path = line["path"].as_str().unwrap();
            if path.contains("none") || path.contains("nowhere") {
                assert_eq!(
                    (&line["type"], &line["kind"]),
                    (&json!("error"), &json!("read"))
                );
            } else if let Some(i) = path
                .strip_suffix(".eml")
                .and_then(|p| p.strip_prefix("in/"))
            {
                let i: usize = i.parse().unwrap();
                assert_eq!(line["message_id"], format!("<{i}@example.com>"));
                assert_eq!(line["urls"].as_array().unwrap().len(), i * 7 % 200);
            }
        }
        assert_summary(&run, 304, 2);
    }

    // NUL-separated, as `find -print0` writes, with a name holding a newline.
    write(&dir.join("in/new\nline.eml"), b"Subject: odd name\n\n");
    let list = b"in/000.eml\0in/new\nline.eml\0";
    let run = scan(&["--paths-from", "-", "-0"], list, &dir);
    let got: Vec<&str> = run
        .lines
        .iter()
        .map(|l| l["path"].as_str().unwrap())
        .collect();
    assert_eq!(got, ["in/000.eml", "in/new\nline.eml"]);
    assert_eq!(run.code, Some(0));
}

#[test]
fn paths_from_a_file_after_the_arguments() {
    let dir = workdir("list");
    write(&dir.join("a.eml"), b"Subject: a\n\n");
    write(&dir.join("b.eml"), b"Subject: b\n\n");
    write(&dir.join("list.txt"), b"b.eml\r\n\n a.eml\n");
    let run = scan(&["a.eml", "--paths-from", "list.txt"], b"", &dir);
    let got: Vec<&str> = run
        .lines
        .iter()
        .map(|l| l["path"].as_str().unwrap())
        .collect();
    // CR removed; other white space is part of a name.
    assert_eq!(got, ["a.eml", "b.eml", " a.eml"]);
    assert_eq!(run.lines[2]["type"], "error");

    let run = scan(&["--paths-from", "no-such-list"], b"", &dir);
    assert_eq!(run.code, Some(1));
    assert_eq!(run.lines.len(), 1);
    assert_eq!(run.lines[0]["path"], "no-such-list");
}

#[test]
fn resolution_options_apply() {
    let dir = workdir("options");
    write(
        &dir.join("m.eml"),
        b"Content-Type: text/html\n\n<a href=\"../x\">",
    );
    let run = scan(
        &[
            "--retrieval-url",
            "http://h/a/b/c",
            "--resolver",
            "rfc3986",
            "m.eml",
        ],
        b"",
        &dir,
    );
    let url = &run.lines[0]["urls"][0];
    assert_eq!(
        (&url["resolved"], &url["resolver"], &url["base"]["source"]),
        (
            &json!("http://h/a/x"),
            &json!("rfc3986"),
            &json!("retrieval")
        )
    );
    let run = scan(&["--profile", "mhtml", "m.eml"], b"", &dir);
    let url = &run.lines[0]["urls"][0];
    assert_eq!(
        (&url["resolved"], &url["base"]["source"]),
        (&json!("thismessage:/../x"), &json!("thismessage"))
    );
}

#[test]
fn stdin_cannot_be_read_twice() {
    let dir = workdir("stdin-twice");
    let run = scan(&["-", "--paths-from", "-"], b"", &dir);
    assert_eq!(run.code, Some(2));
    assert!(run.lines.is_empty());
    assert!(run.stderr.starts_with("mimebase: scan: "), "{}", run.stderr);
}

/// Bad input in batches: the whole shared corpus (messages, MHTML, and files that are not mail
/// at all) goes through, with a summary and no panic.
#[test]
fn whole_corpus_completes_with_a_summary() {
    let Some(corpus) = corpus_or_skip("") else {
        return;
    };
    let files = files_under(&corpus).len();
    assert!(files > 9000, "{files}");
    let run = scan(&[corpus.to_str().unwrap()], b"", &corpus);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    // A file of the corpus that starts with `From ` and holds `From ` lines after empty lines
    // is an mbox of several messages: never fewer lines than files.
    assert!(
        run.lines.len() >= files,
        "{} lines, {files} files",
        run.lines.len()
    );
    assert!(run.lines.iter().all(|l| l["type"] == "message"));
    assert_summary(&run, run.lines.len(), 0);
}

/// With several threads, the messages of an mbox file are shared out among them, in memory or
/// streamed, and the lines still come in input order.
#[test]
fn many_mbox_files_and_files_in_parallel_keep_input_order() {
    let dir = workdir("mixed");
    for i in 0..12 {
        let mut mbox = Vec::new();
        for m in 0..(i * 13 % 40) {
            let html = "<a href=\"x.html\">x</a>\n".repeat(m * 5 % 50);
            let message = format!(
                "From m{m}@example.com Mon Jan  1 00:00:00 2024\nMessage-ID: <{i}.{m}@x>\n\
                 Content-Base: http://example.com/{i}/\nContent-Type: text/html\n\n{html}\n"
            );
            mbox.extend_from_slice(message.as_bytes());
        }
        mbox.extend_from_slice(b"From last\n\n>From the end");
        write(&dir.join(format!("in/{i:02}.mbox")), &mbox);
        write(
            &dir.join(format!("in/{i:02}.eml")),
            format!("Message-ID: <{i}@x>\n\n").as_bytes(),
        );
    }
    let one = scan(&["--jobs", "1", "in"], b"", &dir);
    let expected_lines = (0..12).map(|i| i * 13 % 40 + 2).sum::<usize>();
    assert_eq!(one.lines.len(), expected_lines);
    for jobs in ["2", "3"] {
        // The files in memory, then streamed (a limit below each file's size).
        for limit in ["67108864", "20000"] {
            let many = scan(
                &["--jobs", jobs, "--max-message-bytes", limit, "in"],
                b"",
                &dir,
            );
            let streamed_one = scan(
                &["--jobs", "1", "--max-message-bytes", limit, "in"],
                b"",
                &dir,
            );
            assert_eq!(
                many.lines, streamed_one.lines,
                "--jobs {jobs} --max-message-bytes {limit}"
            );
            assert_eq!(
                many.lines, one.lines,
                "--jobs {jobs} --max-message-bytes {limit}"
            );
        }
    }
}

/// A Rust consumer reads `scan` output back into the library's types: every line of a scan
/// of the corpus's messages deserializes into a `ScanLine`, equals what the library itself makes of the
/// same message (read with `mimebase::mailbox`, analyzed in this process), and serializes
/// back to the very bytes `scan` wrote.
#[test]
fn scan_output_reads_back_into_the_library_types() {
    use mimebase::mailbox::{Input, Messages, Roots, Walker};
    use mimebase::scan::ScanLine;

    // The bench corpus too would take a minute in a debug build: the library-side round trip
    // over it is in the `corpus` module.
    if corpus_or_skip("messages").is_none() {
        return;
    }
    let roots = ["../shared/corpus/messages"];
    let output = mimebase(&[&["scan", "--jobs", "2"][..], &roots].concat(), b"");
    assert_eq!(output.status.code(), Some(0));
    let stdout = String::from_utf8(output.stdout).unwrap();
    let options = mimebase::Options::new();
    let walker = Walker::new(Roots::new(roots.iter().map(PathBuf::from).collect(), None));
    let mut expected = Messages::new(walker, 64 << 20);
    let mut lines = 0;
    for line in stdout.lines() {
        let read: ScanLine<'static> =
            serde_json::from_str(line).unwrap_or_else(|e| panic!("{e}: {line}"));
        assert_eq!(serde_json::to_string(&read).unwrap(), line);
        let message = expected.next().unwrap();
        let Input::Bytes(bytes) = &message.input else {
            panic!("{:?}", message.source)
        };
        let report = mimebase::analyze(bytes, &options);
        assert_eq!(read, ScanLine::message(&message.source, &report));
        lines += 1;
    }
    assert!(expected.next().is_none());
    assert!(lines >= 75, "{lines} lines");
}

/// The paths of the message and error lines of `run`.
fn paths(run: &Run) -> Vec<&str> {
    run.lines
        .iter()
        .map(|l| l["path"].as_str().unwrap())
        .collect()
}

/// A git-tracked archive: `.git` objects and dot files are not messages unless `--hidden`;
/// a Maildir's Maildir++ `.Folder` is part of it either way, and a root is read whatever its
/// name.
#[test]
fn hidden_files_and_directories_are_skipped_unless_hidden() {
    let dir = workdir("hidden");
    write(&dir.join("archive/.git/objects/ab/cdef01"), b"x\x9c\x01");
    write(&dir.join("archive/.git/HEAD"), b"ref: refs/heads/main\n");
    write(&dir.join("archive/.msg.eml.swp"), b"b0VIM");
    write(&dir.join("archive/a.eml"), b"Subject: a\n\n");
    write(&dir.join("archive/Mail/cur/1:2,S"), b"Subject: cur\n\n");
    write(&dir.join("archive/Mail/new/.2"), b"Subject: dot in new\n\n");
    fs::create_dir_all(dir.join("archive/Mail/.Sent/new")).unwrap();
    write(
        &dir.join("archive/Mail/.Sent/cur/3:2,S"),
        b"Subject: sent\n\n",
    );
    write(&dir.join(".named.eml"), b"Subject: named\n\n");
    for jobs in ["1", "2"] {
        let run = scan(&["--jobs", jobs, "archive", ".named.eml"], b"", &dir);
        assert_eq!(
            paths(&run),
            [
                "archive/Mail/cur/1:2,S",
                "archive/Mail/.Sent/cur/3:2,S",
                "archive/a.eml",
                ".named.eml"
            ]
        );
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        let run = scan(&["--jobs", jobs, "--hidden", "archive"], b"", &dir);
        assert_eq!(
            paths(&run),
            [
                "archive/.git/HEAD",
                "archive/.git/objects/ab/cdef01",
                "archive/.msg.eml.swp",
                "archive/Mail/cur/1:2,S",
                "archive/Mail/.Sent/cur/3:2,S",
                "archive/a.eml",
            ]
        );
    }
}

/// A symbolic link to nothing, found in a directory, is named once on stderr and passed over:
/// no record, no failure. A root that does not exist is still a failure.
#[cfg(unix)]
#[test]
fn dangling_symlink_is_reported_once_and_skipped() {
    let dir = workdir("dangling");
    write(&dir.join("tree/a.eml"), b"Subject: a\n\n");
    std::os::unix::fs::symlink("gone.eml", dir.join("tree/b.eml")).unwrap();
    write(&dir.join("tree/c.eml"), b"Subject: c\n\n");
    for jobs in ["1", "2"] {
        let run = scan(&["--jobs", jobs, "tree"], b"", &dir);
        assert_eq!(paths(&run), ["tree/a.eml", "tree/c.eml"]);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        assert_eq!(
            run.stderr.matches("tree/b.eml").count(),
            1,
            "{}",
            run.stderr
        );
        assert!(
            run.stderr
                .contains("mimebase: tree/b.eml: skipped: a symbolic link to nothing"),
            "{}",
            run.stderr
        );
        assert_summary(&run, 2, 0);
    }
    let run = scan(&["tree", "tree/gone.eml"], b"", &dir);
    assert_eq!(paths(&run), ["tree/a.eml", "tree/c.eml", "tree/gone.eml"]);
    assert_eq!(run.lines[2]["type"], "error");
    assert_ne!(run.code, Some(0));
}

/// `--quiet`: nothing on stderr for a run without failures; a failure is still named.
#[test]
fn quiet_drops_the_summary() {
    let dir = workdir("quiet");
    write(&dir.join("a.eml"), b"Subject: a\n\n");
    let run = scan(&["--quiet", "a.eml"], b"", &dir);
    assert_eq!((run.lines.len(), run.stderr.as_str()), (1, ""));
    let run = scan(&["-q", "a.eml", "missing.eml"], b"", &dir);
    assert_eq!(run.lines.len(), 2);
    assert!(
        run.stderr.starts_with("mimebase: missing.eml: "),
        "{}",
        run.stderr
    );
    assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
}

/// What a terminal shows of `raw` (a capture of one): each line as its last carriage return
/// leaves it, escape sequences removed.
fn as_shown(raw: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(raw).replace("\r\n", "\n");
    text.split('\n')
        .map(|line| {
            let last = line.rsplit('\r').next().unwrap_or_default();
            let mut shown = String::new();
            let mut chars = last.chars();
            while let Some(c) = chars.next() {
                if c == '\x1b' {
                    // CSI: ESC [ parameters, then a final byte in @..~.
                    chars.next();
                    for c in chars.by_ref() {
                        if ('@'..='~').contains(&c) {
                            break;
                        }
                    }
                } else {
                    shown.push(c);
                }
            }
            shown
        })
        .collect()
}

/// stdout and stderr on the same terminal (`script` gives the run a pseudo-terminal), paths
/// arriving slowly on a pipe so that the bar is drawn between lines: every NDJSON line starts
/// a line of its own, the bar counts messages and errors, and nothing is being counted, so
/// it never says "(counting…)".
#[cfg(unix)]
#[test]
fn progress_bar_on_a_terminal_is_never_glued_to_output() {
    let dir = workdir("terminal");
    write(&dir.join("a.eml"), b"Subject: a\n\n");
    write(&dir.join("b.eml"), b"Subject: b\n\n");
    let command = format!(
        "(echo a.eml; sleep 1; echo missing.eml; sleep 1; echo b.eml) | '{MIMEBASE}' scan --jobs 1 --paths-from -"
    );
    let output = Command::new("script")
        .args(["-qfec", &command, "/dev/null"])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .output()
        .expect("`script` (util-linux) runs a command on a pseudo-terminal");
    let shown = as_shown(&output.stdout);
    let records: Vec<&String> = shown.iter().filter(|l| l.contains("{\"type\"")).collect();
    assert_eq!(records.len(), 3, "{shown:#?}");
    for line in records {
        assert!(line.starts_with("{\"type\""), "glued: {line:?}");
        serde_json::from_str::<Value>(line).unwrap();
    }
    // What the bar drew, before it was cleared.
    let drawn = String::from_utf8_lossy(&output.stdout);
    assert!(drawn.contains("1 message, 1 error, "), "{drawn}");
    assert!(!drawn.contains("counting"), "{drawn}");
    assert!(
        shown
            .iter()
            .any(|l| l.starts_with("mimebase: scan: 2 messages,"))
    );
}

/// `scan /dev/zero`, as written (the default 64 MiB limit): the device is read up to the
/// limit, reported `too_large` with its length unknown, and the scan goes on to the next path
/// and ends, where it used to count the endless rest.
#[cfg(unix)]
#[test]
fn scan_dev_zero_ends_with_too_large() {
    let dir = workdir("dev-zero");
    write(&dir.join("a.eml"), b"Subject: a\n\n");
    let run = scan(&["/dev/zero", "a.eml"], b"", &dir);
    assert_eq!(
        sources(&run.lines),
        vec![
            (
                "error".into(),
                "/dev/zero".into(),
                json!("file"),
                json!(0),
                Value::Null
            ),
            message("a.eml", "file", 0, 12),
        ]
    );
    assert_eq!(run.lines[0]["kind"], "too_large");
    assert_eq!(run.code, Some(1), "{}", run.stderr);
}

/// `--jobs` above the available cores is lowered to them (`--help` says so): a huge N starts
/// no more threads than the cores, and a one-file scan stays instant.
#[test]
fn jobs_beyond_the_cores_are_not_started() {
    let dir = workdir("jobs-bound");
    write(
        &dir.join("a.eml"),
        b"Content-Type: text/html\n\n<a href=x>\n",
    );
    for i in 0..50 {
        write(&dir.join(format!("tree/{i:02}.eml")), b"Subject: x\n\n");
    }
    for input in ["a.eml", "tree"] {
        let one = scan(&["-q", "--jobs", "1", input], b"", &dir);
        for jobs in ["4000", "65535"] {
            let started = std::time::Instant::now();
            let run = scan(&["-q", "--jobs", jobs, input], b"", &dir);
            let took = started.elapsed();
            assert!(
                took < std::time::Duration::from_secs(10),
                "{jobs} jobs: {took:?}"
            );
            assert_eq!((run.code, run.stderr.as_str()), (Some(0), ""));
            assert_eq!(run.lines, one.lines, "{jobs} jobs");
        }
    }
    let help = Command::new(env!("CARGO_BIN_EXE_mimebase"))
        .args(["scan", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(help.stdout).unwrap().replace('\n', " ");
    assert!(help.contains("a larger N is"), "{help}");
}
