//! `rewrite --in-place` on a live mbox: locked as delivery agents lock it, so that a message
//! delivered while it runs is never lost; a bounded wait for another program's lock; a stale
//! dotlock broken; a file changed behind the locks read again; a Maildir message that moved
//! not written back.
//!
//! The writers are a small delivery agent in Python (`tests/support/mbox_writer.py`), run as
//! a process of its own, so that its `fcntl` and `flock` locks are another process's. What it
//! appends is its own bytes: the oracle of the race tests is the writer itself (every byte it
//! wrote must be in the file afterwards).

use std::fs::{self, File};
use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime};

use pretty_assertions::assert_eq;

use crate::support::cli::{MIMEBASE, command, stderr};
use crate::support::xorshift::XorShift;
use crate::support::{root, workdir};

/// An mbox of `count` messages, each with an HTML body and a relative link that `rewrite`
/// makes absolute, so that every run rewrites (and renames) the file.
fn live_mbox(count: usize) -> Vec<u8> {
    let mut mbox = Vec::new();
    for i in 0..count {
        mbox.extend_from_slice(
            format!(
                "From sender@example.com Mon Jan  1 00:00:00 2024\n\
                 Message-ID: <m{i}@example.com>\n\
                 Content-Base: http://example.com/dir/\n\
                 Content-Type: text/html; charset=utf-8\n\
                 \n\
                 <p><a href=\"page{i}.html\">page {i}</a> <img src=\"img/{i}.png\"></p>\n\
                 \n"
            )
            .as_bytes(),
        );
    }
    mbox
}

/// The message a writer delivers: unique by its Message-ID, of 20 lines, which the writer
/// takes 100 ms to write (5 ms a line). Its link is relative: rewritten when the rewrite
/// came after the delivery, left so when it came before.
fn delivered(n: usize) -> Vec<u8> {
    let mut message = format!(
        "From mta@example.com Tue Jan  2 00:00:00 2024\n\
         Message-ID: <delivered-{n}@example.com>\n\
         Content-Base: http://example.com/dir/\n\
         Content-Type: text/html\n\
         \n\
         <a href=\"delivered.html\">delivered</a>\n"
    );
    for line in 0..14 {
        message.push_str(&format!("<p>Delivered body {n}, line {line}.</p>\n"));
    }
    message.push('\n');
    message.into_bytes()
}

fn count(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .filter(|w| *w == needle)
        .count()
}

fn writer(method: &str, mbox: &Path, message: &Path, delay: Duration) -> Child {
    Command::new("python3")
        .arg(root().join("tests/support/mbox_writer.py"))
        .arg(method)
        .arg(mbox)
        .arg(message)
        .arg(format!("{:.4}", delay.as_secs_f64()))
        .stdout(Stdio::piped())
        .spawn()
        .unwrap()
}

fn rewrite_in_place(mbox: &Path) -> Child {
    command(MIMEBASE, &["rewrite", "--in-place", mbox.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Runs `rewrite --in-place` and a writer using `method` together, `iterations` times, the
/// writer starting at a random moment inside the rewrite's run; every delivered message must
/// be in the file afterwards, once, and so must every message of the mbox, rewritten.
fn race(method: &str, iterations: usize) {
    let dir = workdir(method);
    let mbox = dir.join("inbox");
    let count_of_messages = 1000;
    let original = live_mbox(count_of_messages);
    // How long one rewrite takes here, so that the writer's start falls inside it.
    fs::write(&mbox, &original).unwrap();
    let started = Instant::now();
    assert!(rewrite_in_place(&mbox).wait().unwrap().success());
    let took = started.elapsed();
    assert!(
        fs::read(&mbox).unwrap() != original,
        "the rewrite changed nothing"
    );
    let mut random = XorShift(0x6d62_6f78 ^ method.len() as u64);
    let (mut delivery_first, mut rewrite_first) = (0, 0);
    for n in 0..iterations {
        fs::write(&mbox, &original).unwrap();
        let message = dir.join(format!("message-{n}"));
        fs::write(&message, delivered(n)).unwrap();
        // Every other time, the delivery begins at once and the rewrite at a random moment
        // of its 100 ms; otherwise the rewrite begins at once and the delivery at a random
        // moment of the rewrite's run.
        let (delay, pause) = if n % 2 == 0 {
            (Duration::ZERO, Duration::from_millis(random.next() % 90))
        } else {
            (
                took.mul_f64((random.next() % 1000) as f64 / 1000.0),
                Duration::ZERO,
            )
        };
        let mut delivery = writer(method, &mbox, &message, delay);
        let mut ready = String::new();
        BufReader::new(delivery.stdout.take().unwrap())
            .read_line(&mut ready)
            .unwrap();
        assert_eq!(ready, "ready\n");
        std::thread::sleep(pause);
        let rewrite = rewrite_in_place(&mbox).wait_with_output().unwrap();
        assert!(delivery.wait().unwrap().success(), "the writer failed");
        assert_eq!(rewrite.status.code(), Some(0), "{}", stderr(&rewrite));
        let after = fs::read(&mbox).unwrap();
        let context =
            format!("iteration {n} ({method}, writer after {delay:?}, rewrite after {pause:?})");
        let id = format!("Message-ID: <delivered-{n}@example.com>\n");
        assert_eq!(
            count(&after, id.as_bytes()),
            1,
            "{context}: the delivered message is lost"
        );
        for line in 0..14 {
            let line = format!("<p>Delivered body {n}, line {line}.</p>\n");
            assert_eq!(count(&after, line.as_bytes()), 1, "{context}: {line} lost");
        }
        match (
            count(&after, b"href=\"http://example.com/dir/delivered.html\""),
            count(&after, b"href=\"delivered.html\""),
        ) {
            (1, 0) => delivery_first += 1,
            (0, 1) => rewrite_first += 1,
            other => panic!("{context}: the delivered link {other:?}"),
        }
        for i in [0, count_of_messages / 2, count_of_messages - 1] {
            let link = format!("href=\"http://example.com/dir/page{i}.html\"");
            assert_eq!(
                count(&after, link.as_bytes()),
                1,
                "{context}: message {i} not rewritten"
            );
        }
        assert!(
            !dir.join("inbox.lock").exists(),
            "{context}: a dotlock was left behind"
        );
    }
    // Both orders happened: the test met the race from both sides.
    assert!(
        delivery_first > 0 && rewrite_first > 0,
        "delivery first {delivery_first} times, rewrite first {rewrite_first} times"
    );
}

#[test]
fn a_message_delivered_under_flock_during_rewrite_is_kept() {
    race("flock", 20);
}

#[test]
fn a_message_delivered_under_a_dotlock_during_rewrite_is_kept() {
    race("dotlock", 20);
}

#[test]
fn a_message_delivered_under_fcntl_during_rewrite_is_kept() {
    race("fcntl", 20);
}

/// A dotlock that nobody removes: `rewrite` waits its bounded time (10 s), then gives up
/// with exit code 1 and leaves the file byte for byte, and the lock file too.
#[test]
fn a_held_dotlock_makes_rewrite_give_up_after_its_wait() {
    let dir = workdir("held");
    let mbox = dir.join("inbox");
    let original = live_mbox(3);
    fs::write(&mbox, &original).unwrap();
    fs::write(dir.join("inbox.lock"), b"").unwrap();
    let started = Instant::now();
    let output = rewrite_in_place(&mbox).wait_with_output().unwrap();
    let waited = started.elapsed();
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("locked by another program (dotlock lock) for 10 s"),
        "{}",
        stderr(&output)
    );
    assert!(stderr(&output).contains("the file is left as it was"));
    assert!(waited >= Duration::from_secs(10), "{waited:?}");
    assert!(waited < Duration::from_secs(20), "{waited:?}");
    assert_eq!(fs::read(&mbox).unwrap(), original);
    assert!(dir.join("inbox.lock").exists());
}

/// A dotlock last modified 301 s ago is stale (after 300 s): removed, and the rewrite runs at
/// once; one 200 s old is not (the held-lock test above shows the wait).
#[test]
fn a_stale_dotlock_is_broken() {
    let dir = workdir("stale");
    let mbox = dir.join("inbox");
    fs::write(&mbox, live_mbox(3)).unwrap();
    let lock = dir.join("inbox.lock");
    fs::write(&lock, b"12345\n").unwrap();
    let age = |seconds| {
        File::options()
            .write(true)
            .open(&lock)
            .unwrap()
            .set_modified(SystemTime::now() - Duration::from_secs(seconds))
            .unwrap();
    };
    age(301);
    let started = Instant::now();
    let output = rewrite_in_place(&mbox).wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(started.elapsed() < Duration::from_secs(5));
    assert!(
        !lock.exists(),
        "the stale lock was not removed, or ours was left"
    );
    assert_eq!(
        count(
            &fs::read(&mbox).unwrap(),
            b"http://example.com/dir/page2.html"
        ),
        1
    );
}

/// A writer that ignores the locks (they are advisory) and keeps appending: every check
/// before the rename finds the file grown, so `rewrite` reads it again, gives up after its
/// attempts with exit code 1, and everything the writer appended is in the file.
#[test]
fn a_file_that_keeps_changing_is_left_as_it_is() {
    let dir = workdir("changing");
    let mbox = dir.join("inbox");
    // Large enough that each pass of the rewrite lasts long enough for the writer to append
    // during it even on a busy machine, where a short pass can go by with no append.
    fs::write(&mbox, live_mbox(4000)).unwrap();
    let stop = dir.join("stop");
    let appender = Command::new("python3")
        .arg("-c")
        .arg(
            "import os, sys, time\n\
             n = 0\n\
             while not os.path.exists(sys.argv[2]):\n\
             \x20   with open(sys.argv[1], 'ab') as f:\n\
             \x20       f.write(b'From x Mon Jan  1 00:00:00 2024\\n\\nappended %d\\n\\n' % n)\n\
             \x20   n += 1\n\
             \x20   time.sleep(0.002)\n\
             print(n)\n",
        )
        .arg(&mbox)
        .arg(&stop)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(100));
    let output = rewrite_in_place(&mbox).wait_with_output().unwrap();
    fs::write(&stop, b"").unwrap();
    let appended = appender.wait_with_output().unwrap();
    let appended: usize = String::from_utf8(appended.stdout)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert!(
        stderr(&output).contains("the file changed while it was rewritten, 3 times"),
        "{}",
        stderr(&output)
    );
    let after = fs::read(&mbox).unwrap();
    for n in 0..appended {
        assert_eq!(
            count(&after, format!("appended {n}\n").as_bytes()),
            1,
            "append {n}"
        );
    }
    // Not rewritten: the file is the writer's, untouched by mimebase.
    assert_eq!(count(&after, b"href=\"http://example.com/dir/"), 0);
}

/// A Maildir message moved from `new/` to `cur/` (as a mail client does when it first sees
/// it) while it is rewritten is not written back under its old name: that would deliver it
/// twice. The move is made by a program that renames the file as soon as it appears read
/// (here: while `rewrite` runs, by polling), and the run is repeated until the move fell
/// inside the rewrite at least once.
#[test]
fn a_maildir_message_moved_to_cur_is_not_recreated() {
    let dir = workdir("maildir");
    for sub in ["new", "cur", "tmp"] {
        fs::create_dir_all(dir.join(sub)).unwrap();
    }
    // One large message, so that the rewrite takes a moment.
    let mut message =
        b"Content-Base: http://example.com/dir/\nContent-Type: text/html\n\n".to_vec();
    for i in 0..20_000 {
        message.extend_from_slice(format!("<a href=\"p{i}.html\">{i}</a>\n").as_bytes());
    }
    let new = dir.join("new/1700000000.1.host");
    let cur: PathBuf = dir.join("cur/1700000000.1.host:2,S");
    let mut moved_during = 0;
    for round in 0..10 {
        let _ = fs::remove_file(&cur);
        fs::write(&new, &message).unwrap();
        let rewrite = rewrite_in_place(&new);
        std::thread::sleep(Duration::from_millis(10 + 20 * round));
        fs::rename(&new, &cur).unwrap();
        let output = rewrite.wait_with_output().unwrap();
        assert!(!new.exists(), "the message was delivered again in new/");
        assert_eq!(fs::read_dir(dir.join("new")).unwrap().count(), 0);
        if output.status.code() == Some(0) {
            // The rewrite finished before the move: the moved file is the rewritten one.
            assert!(fs::read(&cur).unwrap() != message);
            continue;
        }
        // Gone before it was read (no such file), or while it was rewritten.
        assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
        assert_eq!(fs::read(&cur).unwrap(), message);
        if stderr(&output)
            .contains("the file is gone (moved, or removed) since it was read; not written back")
        {
            moved_during += 1;
        } else {
            assert!(
                stderr(&output).contains("No such file"),
                "{}",
                stderr(&output)
            );
        }
    }
    assert!(moved_during > 0, "the move never fell inside a rewrite");
}
