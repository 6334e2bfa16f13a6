//! The engine against its sequential self: order, panics, early drop, the jobs bound.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use pretty_assertions::assert_eq;

use super::{Batch, Engine, Records, Scanned};
use crate::mailbox::Found;
use crate::options::Options;
use crate::report::Report;
use crate::scan::ScanLine;

/// A file input.
fn file(path: &Path) -> Found {
    Found::File {
        path: path.to_owned(),
        in_maildir: false,
    }
}

/// Files, mbox files (one with 300 messages), a missing path, dangling links and an empty
/// mbox file, in a fresh directory; the inputs in order.
fn inputs(dir: &Path) -> Vec<Found> {
    let mut found = Vec::new();
    for i in 0..40 {
        let path = dir.join(format!("{i:02}.eml"));
        let html = "<a href=\"x.html\">x</a>\n".repeat(i * 7 % 30);
        let message =
            format!("Content-Base: http://example.com/{i}/\nContent-Type: text/html\n\n{html}");
        std::fs::write(&path, message).unwrap();
        found.push(file(&path));
        if i % 5 == 0 {
            let path = dir.join(format!("{i:02}.mbox"));
            let mut mbox = String::new();
            for m in 0..(if i == 20 { 300 } else { i % 7 }) {
                mbox.push_str(&format!(
                    "From m{m}\nMessage-ID: <{i}.{m}@x>\n\n>From {m}\n\n"
                ));
            }
            std::fs::write(&path, mbox).unwrap();
            found.push(file(&path));
        }
        if i % 9 == 0 {
            found.push(Found::DanglingLink {
                path: dir.join(format!("{i:02}.link")),
            });
        }
        if i == 33 {
            found.push(file(&dir.join("missing.eml")));
        }
    }
    found
}

/// An item that says what it was made from: the record's JSON.
fn json(line: ScanLine<'static>, _spare: Option<String>) -> String {
    let mut out = Vec::new();
    line.write_json(&mut out);
    String::from_utf8(out).unwrap()
}

/// Every item, dangling links as `link PATH`.
fn collect(records: Records<String>) -> Vec<String> {
    records
        .map(|scanned| match scanned {
            Scanned::Record(json) => json,
            Scanned::DanglingLink(path) => format!("link {}", path.display()),
        })
        .collect()
}

fn batch(found: Vec<Found>, jobs: usize) -> Batch {
    Batch::new(found, Options::new())
        .with_cores(16)
        .with_jobs(jobs)
}

#[test]
fn several_jobs_give_the_items_of_one_in_input_order() {
    let dir = tempfile::tempdir().unwrap();
    let one = collect(batch(inputs(dir.path()), 1).records(json));
    // 40 files, 8 mbox files (two of them empty: one message each), 5 links, a missing path.
    assert_eq!(one.len(), 40 + (5 + 3 + 1 + 300 + 4 + 2 + 2) + 5 + 1);
    assert!(one.iter().any(|line| line.contains(r#""kind":"read""#)));
    assert!(one[0].contains("00.eml") && one[1].contains("00.mbox") && one[2].starts_with("link"));
    for jobs in [2, 3, 8] {
        // In memory, and streamed one message at a time (a limit below the large mbox file).
        for limit in [64 << 20, 2000] {
            let many = batch(inputs(dir.path()), jobs)
                .with_max_message_bytes(limit)
                .records(json);
            assert_eq!(collect(many), one, "{jobs} jobs, limit {limit}");
        }
    }
}

#[test]
fn dangling_links_come_in_their_place() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.eml");
    std::fs::write(&a, "Subject: a\n\n").unwrap();
    let link = |name: &str| Found::DanglingLink {
        path: dir.path().join(name),
    };
    for jobs in [1, 4] {
        let found = vec![
            link("0"),
            file(&a),
            link("1"),
            link("2"),
            file(&a),
            link("3"),
        ];
        let items = collect(batch(found, jobs).records(json));
        let kinds: Vec<&str> = items
            .iter()
            .map(|item| {
                if item.starts_with("link") {
                    &item[item.len() - 1..]
                } else {
                    "a"
                }
            })
            .collect();
        assert_eq!(kinds, ["0", "a", "1", "2", "a", "3"], "{jobs} jobs");
    }
}

/// An analyzer that panics on a message that says so.
fn panicky(raw: &[u8], options: &Options) -> Report {
    assert!(!raw.windows(5).any(|w| w == b"PANIC"), "a test panic");
    crate::analyze(raw, options)
}

#[test]
fn a_panic_while_analyzing_is_that_message_s_internal_record() {
    let dir = tempfile::tempdir().unwrap();
    let mut found = Vec::new();
    for i in 0..30 {
        let path = dir.path().join(format!("{i}.eml"));
        let body = if i % 10 == 3 { "PANIC" } else { "calm" };
        std::fs::write(&path, format!("Subject: {i}\n\n{body}\n")).unwrap();
        found.push(file(&path));
    }
    for jobs in [1, 3] {
        let items = collect(
            batch(found.iter().map(|f| file(path_of(f))).collect(), jobs)
                .with_analyzer(panicky)
                .records(json),
        );
        assert_eq!(items.len(), 30);
        for (i, item) in items.iter().enumerate() {
            assert!(item.contains(&format!("/{i}.eml\"")), "{item}");
            let internal =
                item.contains(r#""type":"error""#) && item.contains(r#""kind":"internal""#);
            assert_eq!(internal, i % 10 == 3, "{jobs} jobs: {item}");
        }
    }
}

fn path_of(found: &Found) -> &Path {
    match found {
        Found::File { path, .. } => path,
        _ => unreachable!(),
    }
}

#[test]
fn a_panic_of_the_function_comes_in_its_place_and_the_iteration_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let paths: Vec<PathBuf> = (0..50)
        .map(|i| {
            let path = dir.path().join(format!("{i:02}.eml"));
            std::fs::write(&path, format!("Subject: {i}\n\n")).unwrap();
            path
        })
        .collect();
    for jobs in [1, 4] {
        let mut records = batch(paths.iter().map(|p| file(p)).collect(), jobs).records(
            |line: ScanLine<'static>, _: Option<String>| {
                let ScanLine::Message { source, .. } = &line else {
                    unreachable!()
                };
                assert!(!source.path.ends_with("17.eml"), "the function panics");
                source.path.clone()
            },
        );
        let mut seen = Vec::new();
        loop {
            match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| records.next())) {
                Ok(Some(Scanned::Record(path))) => seen.push(path),
                Ok(Some(other)) => panic!("{other:?}"),
                Ok(None) => break,
                Err(payload) => {
                    assert_eq!(seen.len(), 17, "{jobs} jobs: every record before it first");
                    let message = payload
                        .downcast_ref::<&str>()
                        .map(|text| (*text).to_owned())
                        .or_else(|| payload.downcast_ref::<String>().cloned())
                        .unwrap_or_default();
                    assert!(message.contains("the function panics"), "{message}");
                    seen.push("panic".to_owned());
                }
            }
        }
        assert_eq!(seen.len(), 50, "{jobs} jobs");
        assert_eq!(seen[17], "panic");
        assert!(seen[18].ends_with("18.eml") && seen[49].ends_with("49.eml"));
    }
}

#[test]
fn dropping_early_stops_the_workers_and_waits_for_them() {
    let dir = tempfile::tempdir().unwrap();
    let paths: Vec<PathBuf> = (0..2000)
        .map(|i| {
            let path = dir.path().join(format!("{i:04}.eml"));
            std::fs::write(&path, "Content-Type: text/html\n\n<a href=x>").unwrap();
            path
        })
        .collect();
    let made = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&made);
    let mut records = batch(paths.iter().map(|p| file(p)).collect(), 4).records(
        move |_: ScanLine<'static>, _: Option<()>| {
            counter.fetch_add(1, Ordering::SeqCst);
        },
    );
    for _ in 0..10 {
        assert!(matches!(records.next(), Some(Scanned::Record(()))));
    }
    drop(records);
    // The function (and so every worker holding it) is gone once the drop returns.
    assert_eq!(Arc::strong_count(&made), 1);
    let after = made.load(Ordering::SeqCst);
    // Read ahead no further than the window.
    assert!(after <= 10 + 16 * 4 + 4, "{after}");
}

#[test]
fn jobs_are_bounded_by_the_cores_and_started_as_needed() {
    let cores = std::thread::available_parallelism().map_or(1, usize::from);
    let none = Vec::<Found>::new;
    assert_eq!(
        Batch::new(none(), Options::new()).with_jobs(65535).jobs(),
        cores
    );
    assert_eq!(Batch::new(none(), Options::new()).with_jobs(0).jobs(), 1);
    assert_eq!(Batch::new(none(), Options::new()).jobs(), cores);

    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.eml");
    std::fs::write(&a, "Subject: a\n\n").unwrap();
    // One input: at most one worker besides the caller's thread.
    let mut records = batch(vec![file(&a)], 16).records(json);
    assert!(matches!(records.next(), Some(Scanned::Record(_))));
    assert!(records.next().is_none());
    let Engine::Parallel(parallel) = &records.engine else {
        unreachable!()
    };
    assert!(parallel.threads.len() <= 1, "{}", parallel.threads.len());
}

#[test]
fn items_given_back_reach_the_function_again() {
    let dir = tempfile::tempdir().unwrap();
    let found = inputs(dir.path());
    let count = found.len();
    for jobs in [1, 3] {
        let reused = Arc::new(Mutex::new(HashSet::new()));
        let seen = Arc::clone(&reused);
        let mut records = batch(inputs(dir.path()), jobs).records(
            move |_: ScanLine<'static>, spare: Option<Vec<u8>>| match spare {
                Some(buffer) => {
                    seen.lock().unwrap().insert(buffer.as_ptr() as usize);
                    buffer
                }
                None => Vec::with_capacity(64),
            },
        );
        let mut items = 0;
        while let Some(scanned) = records.next() {
            if let Scanned::Record(buffer) = scanned {
                items += 1;
                records.recycle(buffer);
            }
        }
        assert!(items > count);
        assert!(!reused.lock().unwrap().is_empty(), "{jobs} jobs");
    }
}
