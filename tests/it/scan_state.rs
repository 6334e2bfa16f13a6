//! `mimebase scan --state`: incremental runs over an mbox file, a Maildir and plain files
//! written at run time, each run's records checked against those of a full scan (without
//! `--state`) of the files as they are then; and a run stopped by a signal, then resumed.

use std::fs;
use std::io::{BufRead, BufReader, Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use pretty_assertions::assert_eq;
use serde_json::Value;

use crate::support::cli::{MIMEBASE, command, json_lines, mimebase_in};
use crate::support::{workdir, write};

/// One run: the records, stderr, the exit status.
struct Run {
    lines: Vec<Value>,
    stderr: String,
    code: Option<i32>,
}

/// Runs `mimebase scan ARGS` in `dir`.
fn scan(dir: &Path, args: &[&str]) -> Run {
    let output = mimebase_in(dir, &[&["scan", "--jobs", "2"], args].concat(), b"");
    Run {
        lines: json_lines(&output),
        stderr: String::from_utf8(output.stderr).unwrap(),
        code: output.status.code(),
    }
}

/// The records of a full scan of `paths`, without a state: the oracle of what each record
/// must be.
fn full(dir: &Path, paths: &[&str]) -> Vec<Value> {
    let run = scan(dir, paths);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    run.lines
}

/// The record of `lines` read from `path` at `offset`.
fn at(lines: &[Value], path: &str, offset: u64) -> Value {
    lines
        .iter()
        .find(|l| l["path"] == path && l["offset"] == offset)
        .unwrap_or_else(|| panic!("no record of {path} at {offset} in {lines:#?}"))
        .clone()
}

fn message(subject: &str, url: &str) -> Vec<u8> {
    format!(
        "From {subject}@example.com Mon Jan  1 00:00:00 2024\nSubject: {subject}\n\
         Content-Type: text/html\n\n<a href=\"{url}\">x</a>\n>From quoted\n\n"
    )
    .into_bytes()
}

fn eml(subject: &str, url: &str) -> Vec<u8> {
    format!("Subject: {subject}\nContent-Type: text/html\n\n<a href=\"{url}\">x</a>\n").into_bytes()
}

fn append(path: &Path, bytes: &[u8]) {
    let mut file = fs::OpenOptions::new().append(true).open(path).unwrap();
    file.write_all(bytes).unwrap();
}

const STATE: &str = "state.json";

/// A directory with an mbox of two messages, a Maildir of one message and a message file.
fn archive(name: &str) -> std::path::PathBuf {
    let dir = workdir(name);
    write(
        &dir.join("box.mbox"),
        &[message("one", "http://a/1"), message("two", "http://a/2")].concat(),
    );
    write(
        &dir.join("M/cur/1700000000.M1P1.host:2,"),
        &eml("m1", "http://m/1"),
    );
    fs::create_dir_all(dir.join("M/new")).unwrap();
    fs::create_dir_all(dir.join("M/tmp")).unwrap();
    write(&dir.join("a.eml"), &eml("a", "http://e/1"));
    dir
}

const PATHS: [&str; 3] = ["box.mbox", "M", "a.eml"];

#[test]
fn the_second_run_emits_exactly_the_appended_and_the_new_maildir_message() {
    let dir = archive("acceptance");
    let first = scan(&dir, &[&["--state", STATE], &PATHS[..]].concat());
    assert_eq!(first.code, Some(0), "{}", first.stderr);
    assert_eq!(
        first.lines,
        full(&dir, &PATHS),
        "a first run emits everything"
    );

    let old_length = fs::metadata(dir.join("box.mbox")).unwrap().len();
    append(&dir.join("box.mbox"), &message("three", "http://a/3"));
    fs::rename(
        dir.join("M/cur/1700000000.M1P1.host:2,"),
        dir.join("M/cur/1700000000.M1P1.host:2,S"),
    )
    .unwrap();
    write(
        &dir.join("M/new/1700000100.M2P2.host"),
        &eml("m2", "http://m/2"),
    );

    let second = scan(&dir, &[&["--state", STATE], &PATHS[..]].concat());
    assert_eq!(second.code, Some(0), "{}", second.stderr);
    let everything = full(&dir, &PATHS);
    assert_eq!(
        second.lines,
        [
            at(&everything, "box.mbox", old_length),
            at(&everything, "M/new/1700000100.M2P2.host", 0),
        ]
    );
    assert!(
        second.stderr.starts_with("mimebase: scan: 2 messages,"),
        "{}",
        second.stderr
    );

    let third = scan(&dir, &[&["--state", STATE], &PATHS[..]].concat());
    assert_eq!(third.lines, Vec::<Value>::new(), "nothing new");
}

#[test]
fn the_state_file_under_a_scanned_directory_is_not_read_as_mail() {
    let dir = archive("own-state");
    let args = ["--state", "./state.json", "."];
    assert_eq!(scan(&dir, &args).lines.len(), 4);
    assert!(dir.join(STATE).exists());
    assert_eq!(scan(&dir, &args).lines, Vec::<Value>::new());
}

#[test]
fn an_unchanged_file_is_skipped_and_a_changed_one_read_again() {
    let dir = archive("unchanged");
    let args = [&["--state", STATE], &PATHS[..]].concat();
    assert_eq!(scan(&dir, &args).lines.len(), 4);
    assert_eq!(scan(&dir, &args).lines, Vec::<Value>::new());

    // A message file rewritten: a new version, read again. An mbox whose modification time
    // alone changed: its check holds and nothing follows, so nothing is emitted.
    write(&dir.join("a.eml"), &eml("a, edited", "http://e/2"));
    let mbox = fs::read(dir.join("box.mbox")).unwrap();
    std::thread::sleep(Duration::from_millis(20));
    write(&dir.join("box.mbox"), &mbox);
    let run = scan(&dir, &args);
    assert_eq!(run.lines, [at(&full(&dir, &["a.eml"]), "a.eml", 0)]);
    assert!(!run.stderr.contains("changed"), "{}", run.stderr);

    // A file gone is dropped from the state.
    fs::remove_file(dir.join("a.eml")).unwrap();
    scan(&dir, &args);
    let state = fs::read_to_string(dir.join(STATE)).unwrap();
    assert!(!state.contains("a.eml"), "{state}");
    assert!(state.contains("box.mbox"), "{state}");
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// A compressed mbox cannot be read on from an offset (its records' offsets are those of the
/// decoded bytes): read to its end, it is known by its identity, and a new version of it is
/// read whole.
#[test]
fn a_compressed_mbox_is_skipped_unchanged_and_read_whole_when_it_changed() {
    let dir = workdir("compressed-state");
    let two = [message("one", "http://a/1"), message("two", "http://a/2")].concat();
    write(&dir.join("box.mbox.gz"), &gzip(&two));
    let args = ["--state", STATE, "box.mbox.gz"];
    let first = scan(&dir, &args);
    assert_eq!(first.lines.len(), 2, "{}", first.stderr);
    assert!(first.lines.iter().all(|l| l["compression"] == "gzip"));
    assert_eq!(scan(&dir, &args).lines, Vec::<Value>::new());

    // Grown by a message (a new compressed file): every message again, as a full scan gives.
    std::thread::sleep(Duration::from_millis(20));
    let three = [two, message("three", "http://a/3")].concat();
    write(&dir.join("box.mbox.gz"), &gzip(&three));
    let run = scan(&dir, &args);
    assert_eq!(run.lines, full(&dir, &["box.mbox.gz"]));
    assert_eq!(run.lines.len(), 3);
    // A new version, as of a message file: not an mbox rewritten in front of what was read
    // (its offsets were never offsets into the file).
    assert!(!run.stderr.contains("changed"), "{}", run.stderr);
    let state = fs::read_to_string(dir.join(STATE)).unwrap();
    assert!(!state.contains("\"mbox\""), "{state}");
    assert_eq!(scan(&dir, &args).lines, Vec::<Value>::new());
}

#[test]
fn an_mbox_rewritten_or_truncated_before_its_old_length_is_read_whole() {
    let three = [
        message("one", "http://a/1"),
        message("two", "http://a/2"),
        message("three", "http://a/3"),
    ];
    let rewrites: [(&str, Vec<u8>); 4] = [
        // A client expunged the first message: every byte after it moved.
        ("expunged", [three[1].clone(), three[2].clone()].concat()),
        // Truncated: shorter than the length read.
        ("truncated", three[0].clone()),
        // The same length, a byte changed just before the old end.
        ("edited", {
            let mut bytes = three.concat();
            let at = bytes.len() - 8;
            bytes[at] = b'#';
            bytes
        }),
        // Longer, but what follows the old end does not start a message (the last message
        // was written on).
        (
            "continued",
            [&three.concat()[..three.concat().len() - 1], b"more text\n"].concat(),
        ),
    ];
    for (name, rewritten) in rewrites {
        let dir = workdir(&format!("rewritten-{name}"));
        write(&dir.join("box.mbox"), &three.concat());
        let args = ["--state", STATE, "box.mbox"];
        assert_eq!(scan(&dir, &args).lines.len(), 3, "{name}");
        write(&dir.join("box.mbox"), &rewritten);
        let run = scan(&dir, &args);
        assert_eq!(run.lines, full(&dir, &["box.mbox"]), "{name}: read whole");
        assert!(
            run.stderr.contains(
                "mimebase: box.mbox: changed since the last scan (rewritten or truncated \
                 before byte "
            ),
            "{name}: {}",
            run.stderr
        );
        assert_eq!(scan(&dir, &args).lines, Vec::<Value>::new(), "{name}");
    }
}

#[test]
fn an_mbox_read_in_part_is_read_on_from_where_it_stopped() {
    // The state a run stopped after the second message leaves: the file's identity as it is,
    // the length read before its end. Made here from a run over the first two messages,
    // with the identity then set to that of the whole file (the state file's documented
    // fields).
    let dir = workdir("read-in-part");
    let two = [message("one", "http://a/1"), message("two", "http://a/2")].concat();
    write(&dir.join("box.mbox"), &two);
    let args = ["--state", STATE, "box.mbox"];
    assert_eq!(scan(&dir, &args).lines.len(), 2);
    append(&dir.join("box.mbox"), &message("three", "http://a/3"));
    let mut state: Value = serde_json::from_slice(&fs::read(dir.join(STATE)).unwrap()).unwrap();
    let metadata = fs::metadata(dir.join("box.mbox")).unwrap();
    {
        use std::os::unix::fs::MetadataExt;
        let entry = &mut state["files"][0];
        entry["size"] = metadata.len().into();
        entry["mtime"] = metadata.mtime().into();
        entry["mtime_nsec"] = metadata.mtime_nsec().into();
        assert_eq!(entry["mbox"]["read"], two.len() as u64 - 1);
    }
    fs::write(dir.join(STATE), serde_json::to_vec(&state).unwrap()).unwrap();
    let run = scan(&dir, &args);
    assert_eq!(
        run.lines,
        [at(&full(&dir, &["box.mbox"]), "box.mbox", two.len() as u64)]
    );
    assert!(!run.stderr.contains("changed"), "{}", run.stderr);
}

#[test]
fn a_broken_or_foreign_state_file_is_refused_and_left_alone() {
    let dir = archive("broken-state");
    for (name, contents) in [
        ("truncated", &b"{\"version\": 1, \"files\": ["[..]),
        ("not JSON", b"box.mbox 120\n"),
        (
            "other version",
            b"{\"version\": 99, \"files\": [], \"maildirs\": []}",
        ),
    ] {
        fs::write(dir.join(STATE), contents).unwrap();
        let run = scan(&dir, &["--state", STATE, "a.eml"]);
        assert_eq!(run.code, Some(2), "{name}: {}", run.stderr);
        assert!(run.lines.is_empty(), "{name}");
        assert!(
            run.stderr.starts_with("mimebase: scan: state.json: ")
                && run.stderr.contains("remove it to scan everything again"),
            "{name}: {}",
            run.stderr
        );
        assert_eq!(fs::read(dir.join(STATE)).unwrap(), contents, "{name}");
    }
}

#[test]
fn the_state_is_replaced_by_a_rename_and_no_temporary_file_stays() {
    use std::os::unix::fs::MetadataExt;
    let dir = archive("rename");
    let args = [&["--state", STATE], &PATHS[..]].concat();
    scan(&dir, &args);
    let before = fs::metadata(dir.join(STATE)).unwrap().ino();
    append(&dir.join("box.mbox"), &message("three", "http://a/3"));
    assert_eq!(scan(&dir, &args).lines.len(), 1);
    let after = fs::metadata(dir.join(STATE)).unwrap().ino();
    assert_ne!(before, after, "a new file renamed over the old one");
    let names: Vec<String> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        !names.iter().any(|n| n.starts_with(".mimebase-state-")),
        "{names:?}"
    );
    // Standard input has no identity to record.
    let run = scan(&dir, &["--state", STATE, "-"]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("--state cannot record standard input"));
}

/// Starts `mimebase scan ARGS` in `dir` reading its paths from a pipe the test holds, and a
/// watchdog that kills it after a minute, so that a failure cannot hang the test: send on the
/// channel once it has ended.
///
/// With one job: then every record of the paths sent is written before the run waits for the
/// next path. (With more, the thread that reads the list, waiting for a path, may be the one
/// that would write the records already made.)
fn spawn(dir: &Path, args: &[&str]) -> (Child, mpsc::Sender<()>) {
    let child = command(MIMEBASE, &[&["scan", "--jobs", "1"], args].concat())
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (done, ended) = mpsc::channel::<()>();
    let pid = child.id().to_string();
    std::thread::spawn(move || {
        if ended.recv_timeout(Duration::from_secs(60)) == Err(RecvTimeoutError::Timeout) {
            let _ = command("kill", &["-KILL", &pid]).status();
        }
    });
    (child, done)
}

/// The message records of `lines`, sorted, each once (a duplicate fails).
fn messages(lines: impl IntoIterator<Item = Value>) -> Vec<String> {
    let mut all: Vec<String> = lines
        .into_iter()
        .filter(|l| l["type"] == "message")
        .map(|l| l.to_string())
        .collect();
    all.sort();
    let count = all.len();
    all.dedup();
    assert_eq!(all.len(), count, "a record emitted twice");
    all
}

#[test]
fn a_run_stopped_by_sigint_then_resumed_emits_every_message_once() {
    let dir = workdir("sigint");
    let mut paths = Vec::new();
    for i in 0..6 {
        let name = format!("m{i}.eml");
        write(
            &dir.join(&name),
            &eml(&format!("m{i}"), &format!("http://e/{i}")),
        );
        paths.push(name);
    }
    for i in 0..3 {
        let name = format!("box{i}.mbox");
        let mbox: Vec<u8> = (0..3)
            .flat_map(|j| message(&format!("b{i}{j}"), &format!("http://b/{i}/{j}")))
            .collect();
        write(&dir.join(&name), &mbox);
        paths.insert(i * 3, name);
    }
    // A path that does not exist, after the first half: its error on stderr says that every
    // record before it has been written (the output is in input order), while the run waits
    // for the rest of the list, which does not come: the signal arrives in the middle.
    let marker = "not-there-marker";
    let first_half = &paths[..paths.len() / 2];
    let (mut child, done) = spawn(&dir, &["--state", STATE, "--paths-from", "-"]);
    let mut stdin = child.stdin.take().unwrap();
    for path in first_half.iter().map(String::as_str).chain([marker]) {
        writeln!(stdin, "{path}").unwrap();
    }
    stdin.flush().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut out = Vec::new();
        stdout.read_to_end(&mut out).unwrap();
        out
    });
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut said = String::new();
    while !said.contains(marker) {
        assert!(stderr.read_line(&mut said).unwrap() > 0, "{said}");
    }
    let killed = command("kill", &["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    stderr.read_to_string(&mut said).unwrap();
    let status = child.wait().unwrap();
    let _ = done.send(());
    drop(stdin);
    let out = reader.join().unwrap();
    assert_eq!(status.signal(), Some(2), "{status:?}: {said}");
    let interrupted: Vec<Value> = out
        .split(|&b| b == b'\n')
        .filter(|l| !l.is_empty())
        .map(|l| serde_json::from_slice(l).unwrap())
        .collect();
    let written = messages(interrupted.clone());
    assert!(!written.is_empty(), "messages written before the signal");
    let summary = said.lines().last().unwrap();
    assert!(
        summary.starts_with(&format!(
            "mimebase: scan: interrupted by SIGINT: {} messages, ",
            written.len()
        )),
        "{said}"
    );
    assert!(summary.contains(", 1 error in "), "{said}");

    // The resumed run, over the whole list, and a run without state for the oracle.
    let list: String = paths
        .iter()
        .map(|p| format!("{p}\n"))
        .chain([format!("{marker}\n")])
        .collect();
    fs::write(dir.join("list"), list).unwrap();
    let resumed = scan(&dir, &["--state", STATE, "--paths-from", "list"]);
    assert!(
        resumed.lines.iter().any(|l| l["type"] == "message"),
        "the rest was read"
    );
    let whole = scan(&dir, &["--paths-from", "list"]);
    assert_eq!(
        messages(interrupted.into_iter().chain(resumed.lines)),
        messages(whole.lines)
    );
}

#[test]
fn sigterm_without_state_ends_with_the_summary_line() {
    let dir = workdir("sigterm");
    write(&dir.join("a.eml"), &eml("a", "http://e/1"));
    let (mut child, done) = spawn(&dir, &["--paths-from", "-"]);
    let mut stdin = child.stdin.take().unwrap();
    writeln!(stdin, "a.eml\nnot-there-marker").unwrap();
    stdin.flush().unwrap();
    let mut stderr = BufReader::new(child.stderr.take().unwrap());
    let mut said = String::new();
    while !said.contains("not-there-marker") {
        assert!(stderr.read_line(&mut said).unwrap() > 0, "{said}");
    }
    command("kill", &["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    stderr.read_to_string(&mut said).unwrap();
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    let status = child.wait().unwrap();
    let _ = done.send(());
    drop(stdin);
    assert_eq!(status.signal(), Some(15), "{status:?}: {said}");
    assert_eq!(out.lines().count(), 2, "{out}");
    assert!(
        said.lines()
            .last()
            .unwrap()
            .starts_with("mimebase: scan: interrupted by SIGTERM: 1 message, "),
        "{said}"
    );
}

#[test]
fn a_run_stopped_by_sigint_inside_an_mbox_is_resumed_at_the_next_message() {
    let dir = workdir("sigint-mbox");
    let mbox: Vec<u8> = (0..5_000)
        .flat_map(|i| message(&format!("u{i}"), &format!("http://h/{i}")))
        .collect();
    write(&dir.join("big.mbox"), &mbox);
    let (mut child, done) = spawn(&dir, &["--state", STATE, "big.mbox"]);
    // The signal is sent once the first lines are out (the output is written in blocks of
    // 256 KiB), long before the 5 000 messages are done.
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut first = String::new();
    stdout.read_line(&mut first).unwrap();
    command("kill", &["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    let status = child.wait().unwrap();
    let _ = done.send(());
    assert_eq!(status.signal(), Some(2), "{status:?}");
    let interrupted: Vec<Value> = [first, rest]
        .concat()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(
        interrupted.len() < 5_000,
        "the signal came after the end: {} records",
        interrupted.len()
    );
    let resumed = scan(&dir, &["--state", STATE, "big.mbox"]);
    assert_eq!(resumed.code, Some(0), "{}", resumed.stderr);
    assert!(!resumed.stderr.contains("changed"), "{}", resumed.stderr);
    assert_eq!(
        messages(interrupted.into_iter().chain(resumed.lines)),
        messages(full(&dir, &["big.mbox"]))
    );
}
