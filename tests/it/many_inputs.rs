//! `rewrite` and `extract` over many inputs (several paths, directories, Maildirs, mbox files),
//! each input treated as the one-input command treats it alone (the oracle: the same command
//! run on a copy of that input alone); per-input failures that let the batch go on; and
//! `--glob`/`--iglob` on every command that walks directories.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

use pretty_assertions::assert_eq;

use crate::support::cli::{json_lines, mimebase, stderr, stdout};
use crate::support::{corpus_or_skip, files_under, workdir, write};

/// A message whose HTML body has relative URLs and a base: `rewrite` changes it.
fn html_message(tag: &str) -> Vec<u8> {
    format!(
        "Subject: {tag}\nContent-Base: http://{tag}.example/dir/\nContent-Type: text/html\n\n\
         <a href=\"page.html\">x</a><img src=\"pic.png\">\n"
    )
    .into_bytes()
}

/// A message `rewrite` leaves as it is (no HTML).
fn plain_message(tag: &str) -> Vec<u8> {
    format!("Subject: {tag}\nContent-Type: text/plain\n\nsee http://{tag}.example/\n").into_bytes()
}

/// An mbox of the messages, each after its `From ` line, separated by empty lines.
fn mbox(messages: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    for (index, message) in messages.iter().enumerate() {
        if index > 0 {
            out.push(b'\n');
        }
        out.extend_from_slice(b"From sender@example.org Sat Jan  1 00:00:00 2000\n");
        out.extend_from_slice(message);
    }
    out
}

fn arg(path: &Path) -> &str {
    path.to_str().unwrap()
}

/// Copies every file below `from` to the same place below `to`.
fn copy_tree(from: &Path, to: &Path) {
    for file in files_under(from) {
        write(
            &to.join(file.strip_prefix(from).unwrap()),
            &fs::read(&file).unwrap(),
        );
    }
}

/// What `rewrite FILE` (to stdout) writes for `file` alone, and its exit code.
fn rewritten_alone(file: &Path) -> (Vec<u8>, Option<i32>) {
    let output = mimebase(&["rewrite", arg(file)], b"");
    (output.stdout, output.status.code())
}

#[cfg(unix)]
fn inode(path: &Path) -> u64 {
    std::os::unix::fs::MetadataExt::ino(&fs::metadata(path).unwrap())
}

/// The acceptance test of the item: `rewrite --in-place DIR` over a copy of the corpus's
/// messages rewrites each file as a one-file `rewrite` of it does, byte for byte, and leaves
/// the files that one-file `rewrite` does not change untouched (the same inode: not replaced).
#[test]
fn in_place_over_the_corpus_is_each_file_rewritten_alone() {
    let Some(messages) = corpus_or_skip("messages") else {
        return;
    };
    let dir = workdir("corpus");
    let batch = dir.join("batch");
    let pristine = dir.join("pristine");
    copy_tree(&messages, &batch);
    copy_tree(&messages, &pristine);
    let files = files_under(&pristine);
    assert!(files.len() >= 70, "{} files", files.len());
    #[cfg(unix)]
    let inodes: Vec<u64> = files
        .iter()
        .map(|file| inode(&batch.join(file.strip_prefix(&pristine).unwrap())))
        .collect();

    let output = mimebase(&["rewrite", "--in-place", arg(&batch)], b"");

    let mut changed = 0;
    let mut worst = 0;
    for (index, file) in files.iter().enumerate() {
        let relative = file.strip_prefix(&pristine).unwrap();
        let (expected, code) = rewritten_alone(file);
        worst = worst.max(code.unwrap());
        let original = fs::read(file).unwrap();
        let after = fs::read(batch.join(relative)).unwrap();
        if code == Some(0) {
            assert!(
                after == expected,
                "{}: the batch wrote what `rewrite FILE` does not",
                relative.display()
            );
        } else {
            // Rewritten alone with an error (a message over a limit, say): as it was.
            assert!(after == original, "{}", relative.display());
        }
        if after == original {
            #[cfg(unix)]
            assert_eq!(
                inodes[index],
                inode(&batch.join(relative)),
                "{}: unchanged, yet replaced",
                relative.display()
            );
        } else {
            changed += 1;
        }
        // (`index` serves the Unix check above only.)
        let _ = index;
    }
    assert!(
        changed > 0,
        "no file of the corpus changed: the test shows nothing"
    );
    assert_eq!(output.status.code(), Some(worst), "{}", stderr(&output));
}

/// A message file, an mbox and a Maildir given together: each rewritten as alone, the mbox
/// whole, the Maildir's messages under their own names, its `tmp/` not touched.
#[test]
fn in_place_takes_files_mbox_and_maildir() {
    let dir = workdir("mixed");
    let make = |root: &Path| {
        write(&root.join("a.eml"), &html_message("a"));
        write(&root.join("plain.eml"), &plain_message("p"));
        write(
            &root.join("box.mbox"),
            &mbox(&[html_message("m1"), plain_message("m2"), html_message("m3")]),
        );
        write(
            &root.join("md/cur/1700000000.M1P1.host:2,S"),
            &html_message("c"),
        );
        write(
            &root.join("md/new/1700000001.M2P2.host"),
            &html_message("n"),
        );
        write(
            &root.join("md/tmp/1700000002.M3P3.host"),
            &html_message("t"),
        );
    };
    let batch = dir.join("batch");
    let pristine = dir.join("pristine");
    make(&batch);
    make(&pristine);
    let output = mimebase(
        &[
            "rewrite",
            "--in-place",
            arg(&batch.join("a.eml")),
            arg(&batch.join("plain.eml")),
            arg(&batch.join("box.mbox")),
            arg(&batch.join("md")),
        ],
        b"",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    for relative in [
        "a.eml",
        "plain.eml",
        "box.mbox",
        "md/cur/1700000000.M1P1.host:2,S",
        "md/new/1700000001.M2P2.host",
    ] {
        let (expected, code) = rewritten_alone(&pristine.join(relative));
        assert_eq!(code, Some(0));
        assert_eq!(
            String::from_utf8_lossy(&fs::read(batch.join(relative)).unwrap()),
            String::from_utf8_lossy(&expected),
            "{relative}"
        );
    }
    assert_ne!(
        fs::read(batch.join("a.eml")).unwrap(),
        html_message("a"),
        "a.eml was not rewritten"
    );
    assert_eq!(
        fs::read(batch.join("md/tmp/1700000002.M3P3.host")).unwrap(),
        html_message("t"),
        "a Maildir's tmp/ is not read"
    );
    // No file was added (no temporary file left, no Maildir message renamed).
    let names = |root: &Path| -> BTreeSet<PathBuf> {
        files_under(root)
            .into_iter()
            .map(|f| f.strip_prefix(root).unwrap().to_path_buf())
            .collect()
    };
    assert_eq!(names(&batch), names(&pristine));
}

/// A missing input among others, and a FIFO in a directory given: each named on stderr (the
/// FIFO not opened, which would wait for a writer), the others still rewritten, exit code 1.
#[test]
fn a_missing_input_does_not_stop_the_batch() {
    let dir = workdir("missing");
    write(&dir.join("a.eml"), &html_message("a"));
    write(&dir.join("d/b.eml"), &html_message("b"));
    #[cfg(unix)]
    {
        let made = std::process::Command::new("mkfifo")
            .arg(dir.join("d/a-fifo"))
            .status();
        match made {
            Ok(status) if status.success() => {}
            _ => crate::support::skipped(
                "a_missing_input_does_not_stop_the_batch: no mkfifo, no FIFO among the inputs",
            ),
        }
    }
    let output = mimebase(
        &[
            "rewrite",
            "--in-place",
            arg(&dir.join("a.eml")),
            arg(&dir.join("missing.eml")),
            arg(&dir.join("d")),
        ],
        b"",
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("missing.eml"),
        "{}",
        stderr(&output)
    );
    if dir.join("d/a-fifo").exists() {
        assert!(
            stderr(&output).contains(
                "a-fifo: a FIFO, found in a directory: only regular files are read there; not opened"
            ),
            "{}",
            stderr(&output)
        );
    }
    for (name, path) in [("a", "a.eml"), ("b", "d/b.eml")] {
        let after = fs::read(dir.join(path)).unwrap();
        assert_ne!(after, html_message(name), "{path} was not rewritten");
        assert!(String::from_utf8_lossy(&after).contains("http://"));
    }
}

/// A FIFO, a link to one and a Unix socket found while walking a directory or a Maildir are
/// not opened (a FIFO would wait for a writer): every command that walks names each on stderr,
/// reads the regular files around them and exits 1; `scan` writes an error record for each in
/// its place. Run under `timeout`, so that a command that waits fails instead of hanging.
#[cfg(unix)]
#[test]
fn special_files_in_a_directory_are_not_opened() {
    use std::os::unix::net::UnixListener;

    let dir = workdir("special-files");
    write(&dir.join("in/a.eml"), &html_message("a"));
    write(
        &dir.join("in/md/cur/1700000000.M1P1.host:2,S"),
        &html_message("m"),
    );
    fs::create_dir_all(dir.join("in/md/new")).unwrap();
    fs::create_dir_all(dir.join("in/md/tmp")).unwrap();
    for fifo in ["in/b-fifo", "in/md/cur/1700000001.M2P2.host:2,"] {
        match std::process::Command::new("mkfifo")
            .arg(dir.join(fifo))
            .status()
        {
            Ok(status) if status.success() => {}
            _ => {
                crate::support::skipped("special_files_in_a_directory_are_not_opened: no mkfifo");
                return;
            }
        }
    }
    std::os::unix::fs::symlink("b-fifo", dir.join("in/c-link")).unwrap();
    let _socket = UnixListener::bind(dir.join("in/d-socket")).unwrap();
    let special = [
        ("in/b-fifo", "a FIFO"),
        ("in/c-link", "a FIFO"),
        ("in/d-socket", "a socket"),
        ("in/md/cur/1700000001.M2P2.host:2,", "a FIFO"),
    ];
    let input = dir.join("in");
    let out = dir.join("out");
    let timeout = |args: &[&str]| {
        let mut all = vec!["60", crate::support::cli::MIMEBASE];
        all.extend_from_slice(args);
        crate::support::cli::run("timeout", &all, b"")
    };
    for args in [
        vec!["scan", arg(&input)],
        vec!["urls", arg(&input)],
        vec!["inspect", arg(&input)],
        vec!["extract", "--dir", arg(&out), arg(&input)],
    ] {
        let output = timeout(&args);
        assert_eq!(
            output.status.code(),
            Some(1),
            "{args:?}: {}",
            stderr(&output)
        );
        for (path, kind) in special {
            let said = format!(
                "{}: {kind}, found in a directory: only regular files are read there; not opened",
                dir.join(path).display()
            );
            assert!(
                stderr(&output).contains(&said),
                "{args:?}: {said}\n{}",
                stderr(&output)
            );
        }
        if args[0] == "scan" {
            let lines = json_lines(&output);
            let kinds: Vec<(&str, &str)> = lines
                .iter()
                .map(|line| {
                    let path = line["path"].as_str().unwrap();
                    let path = path
                        .strip_prefix(arg(&dir))
                        .unwrap()
                        .trim_start_matches('/');
                    (path, line["type"].as_str().unwrap())
                })
                .collect();
            assert_eq!(
                kinds,
                [
                    ("in/a.eml", "message"),
                    ("in/b-fifo", "error"),
                    ("in/c-link", "error"),
                    ("in/d-socket", "error"),
                    ("in/md/cur/1700000000.M1P1.host:2,S", "message"),
                    ("in/md/cur/1700000001.M2P2.host:2,", "error"),
                ]
            );
        } else if args[0] == "urls" {
            assert!(stdout(&output).contains("http://a.example/dir/page.html"));
            assert!(stdout(&output).contains("http://m.example/dir/page.html"));
        }
    }
    // `extract` made one folder for each message, none for the special files.
    let indexes: Vec<String> = files_under(&out)
        .iter()
        .filter(|f| f.ends_with("index.json"))
        .map(|f| f.strip_prefix(&out).unwrap().display().to_string())
        .collect();
    assert_eq!(
        indexes,
        [
            "in/a.eml/index.json",
            "in/md/cur/1700000000.M1P1.host:2,S/index.json"
        ]
    );
}

/// Several inputs, or a directory, need --in-place: standard output and -o take one message.
#[test]
fn several_inputs_without_in_place_are_a_usage_error() {
    let dir = workdir("usage");
    write(&dir.join("a.eml"), &html_message("a"));
    write(&dir.join("b.eml"), &html_message("b"));
    write(
        &dir.join("list"),
        format!("{}\n", arg(&dir.join("a.eml"))).as_bytes(),
    );
    for args in [
        vec!["rewrite", arg(&dir)],
        vec!["rewrite", arg(&dir.join("a.eml")), arg(&dir.join("b.eml"))],
        vec![
            "rewrite",
            "-o",
            arg(&dir.join("out.eml")),
            arg(&dir.join("a.eml")),
            arg(&dir.join("b.eml")),
        ],
        vec!["rewrite", "--in-place", arg(&dir.join("a.eml")), "-"],
        vec!["rewrite", "--paths-from", arg(&dir.join("list"))],
    ] {
        let output = mimebase(&args, b"");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty());
        assert_eq!(fs::read(dir.join("a.eml")).unwrap(), html_message("a"));
    }
    assert!(!dir.join("out.eml").exists());
}

/// `--paths-from` gives `rewrite --in-place` and `extract` more inputs, as it gives `scan`:
/// a list of files and directories, one per line (CRLF too) or NUL-separated (`-0`), read
/// after the paths given; each input is rewritten or extracted as when given as an argument,
/// and what is not listed is not touched.
#[test]
fn paths_from_lists_inputs_for_rewrite_and_extract() {
    let dir = workdir("paths-from");
    let input = dir.join("in");
    for name in ["a", "b", "d/c", "e"] {
        write(&input.join(format!("{name}.eml")), &html_message(name));
    }
    let pristine = dir.join("pristine");
    copy_tree(&input, &pristine);
    let lines = format!(
        "{}\r\n\n{}\n",
        arg(&input.join("a.eml")),
        arg(&input.join("d"))
    );
    write(&dir.join("list"), lines.as_bytes());
    let output = mimebase(
        &[
            "rewrite",
            "--in-place",
            "--paths-from",
            arg(&dir.join("list")),
            arg(&input.join("e.eml")),
        ],
        b"",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    for name in ["a.eml", "d/c.eml", "e.eml"] {
        let (alone, code) = rewritten_alone(&pristine.join(name));
        assert_eq!(code, Some(0));
        assert_ne!(alone, fs::read(pristine.join(name)).unwrap(), "{name}");
        assert_eq!(fs::read(input.join(name)).unwrap(), alone, "{name}");
    }
    assert_eq!(fs::read(input.join("b.eml")).unwrap(), html_message("b"));

    // The same list, NUL-separated and on standard input, for `extract`.
    let list = format!(
        "{}\0{}\0",
        arg(&pristine.join("a.eml")),
        arg(&pristine.join("d"))
    );
    let out = dir.join("out");
    let output = mimebase(
        &["extract", "--dir", arg(&out), "--paths-from", "-", "-0"],
        list.as_bytes(),
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let mut indexes: Vec<String> = files_under(&out)
        .iter()
        .filter(|f| f.ends_with("index.json"))
        .map(|f| f.strip_prefix(&out).unwrap().display().to_string())
        .collect();
    indexes.sort();
    assert_eq!(indexes, ["a.eml/index.json", "d/c.eml/index.json"]);

    // A list that cannot be read is named, and the exit code is 1.
    let output = mimebase(
        &[
            "extract",
            "--dir",
            arg(&dir.join("out-missing")),
            "--paths-from",
            arg(&dir.join("no-such-list")),
        ],
        b"",
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("no-such-list"),
        "{}",
        stderr(&output)
    );
}

/// Every file below `dir` with its bytes, by its path relative to `dir`.
fn tree(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    files_under(dir)
        .into_iter()
        .map(|file| {
            let bytes = fs::read(&file).unwrap();
            (file.strip_prefix(dir).unwrap().to_path_buf(), bytes)
        })
        .collect()
}

/// `extract` of a directory: a folder per message file, `OUT/DIR/RELATIVE/`, and for an mbox
/// of several messages one per message, `OUT/DIR/RELATIVE/OFFSET/`; each holding what
/// `extract` of that file alone writes. Two files of the same name in different
/// directories get different folders.
#[test]
fn extract_of_a_directory_gives_a_folder_per_message() {
    let dir = workdir("extract_dir");
    let input = dir.join("mail");
    write(&input.join("x/a.eml"), &html_message("xa"));
    write(&input.join("y/a.eml"), &html_message("ya"));
    write(
        &input.join("box.mbox"),
        &mbox(&[html_message("m1"), plain_message("m2")]),
    );
    let out = dir.join("out");
    let output = mimebase(&["extract", "--dir", arg(&out), arg(&input)], b"");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let second = mbox(&[html_message("m1")]).len() + 1;
    let mut folders = BTreeSet::new();
    for (file, folder) in [
        ("x/a.eml", "mail/x/a.eml".to_owned()),
        ("y/a.eml", "mail/y/a.eml".to_owned()),
        ("box.mbox", "mail/box.mbox".to_owned()),
    ] {
        let alone = dir.join("alone").join(file);
        let single = mimebase(
            &["extract", "--dir", arg(&alone), arg(&input.join(file))],
            b"",
        );
        assert_eq!(single.status.code(), Some(0), "{}", stderr(&single));
        assert_eq!(tree(&out.join(&folder)), tree(&alone), "{file}");
        folders.insert(folder);
    }
    assert!(
        out.join(format!("mail/box.mbox/{second}/index.json"))
            .is_file()
    );
    assert!(out.join("mail/box.mbox/0/index.json").is_file());
    // One line per message on stdout: the main page of each.
    assert_eq!(stdout(&output).lines().count(), 4, "{}", stdout(&output));
    // Nothing outside the folders named.
    let top: BTreeSet<_> = fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(top, BTreeSet::from(["mail".into()]));
}

/// Several paths with the same file name: the second gets `NAME~2`.
#[test]
fn extract_of_paths_with_the_same_name_keeps_them_apart() {
    let dir = workdir("extract_same_name");
    write(&dir.join("x/a.eml"), &html_message("xa"));
    write(&dir.join("y/a.eml"), &html_message("ya"));
    let out = dir.join("out");
    let output = mimebase(
        &[
            "extract",
            "--dir",
            arg(&out),
            arg(&dir.join("x/a.eml")),
            arg(&dir.join("y/a.eml")),
        ],
        b"",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    for (file, folder) in [("x/a.eml", "a.eml"), ("y/a.eml", "a.eml~2")] {
        let alone = dir.join("alone").join(file);
        let single = mimebase(
            &["extract", "--dir", arg(&alone), arg(&dir.join(file))],
            b"",
        );
        assert_eq!(single.status.code(), Some(0));
        assert_eq!(tree(&out.join(folder)), tree(&alone), "{file}");
    }
}

/// A failure among the inputs of `extract`: named, the others extracted, exit code 1.
#[test]
fn extract_goes_on_after_a_missing_input() {
    let dir = workdir("extract_missing");
    write(&dir.join("a.eml"), &html_message("a"));
    let out = dir.join("out");
    let output = mimebase(
        &[
            "extract",
            "--dir",
            arg(&out),
            arg(&dir.join("missing.eml")),
            arg(&dir.join("a.eml")),
        ],
        b"",
    );
    assert_eq!(output.status.code(), Some(1));
    assert!(
        stderr(&output).contains("missing.eml"),
        "{}",
        stderr(&output)
    );
    assert!(out.join("a.eml/index.json").is_file());
}

/// A directory of mail and of files that are not: MANIFEST.md, data.xml, a.eml, b.EML, and
/// sub/c.eml.
fn mixed_dir(name: &str) -> PathBuf {
    let dir = workdir(name).join("in");
    write(&dir.join("MANIFEST.md"), b"# not mail\n");
    write(&dir.join("data.xml"), b"<x/>\n");
    write(&dir.join("a.eml"), &html_message("a"));
    write(&dir.join("b.EML"), &html_message("b"));
    write(&dir.join("sub/c.eml"), &html_message("c"));
    dir
}

/// The paths `scan ARGS DIR` read, relative to DIR, sorted.
fn scanned(dir: &Path, args: &[&str]) -> BTreeSet<String> {
    let mut all = vec!["scan", "--quiet"];
    all.extend_from_slice(args);
    all.push(arg(dir));
    let output = mimebase(&all, b"");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    json_lines(&output)
        .iter()
        .map(|line| {
            let path = Path::new(line["path"].as_str().unwrap());
            path.strip_prefix(dir).unwrap().display().to_string()
        })
        .collect()
}

fn set(names: &[&str]) -> BTreeSet<String> {
    names.iter().map(|name| (*name).to_owned()).collect()
}

#[test]
fn globs_select_and_exclude_as_ripgreps() {
    let dir = mixed_dir("globs");
    assert_eq!(
        scanned(&dir, &[]),
        set(&["MANIFEST.md", "a.eml", "b.EML", "data.xml", "sub/c.eml"])
    );
    assert_eq!(
        scanned(&dir, &["--glob", "*.eml"]),
        set(&["a.eml", "sub/c.eml"])
    );
    assert_eq!(
        scanned(&dir, &["--glob", "!*.md", "-g", "!*.xml"]),
        set(&["a.eml", "b.EML", "sub/c.eml"])
    );
    assert_eq!(
        scanned(&dir, &["--iglob", "*.eml"]),
        set(&["a.eml", "b.EML", "sub/c.eml"])
    );
    // A directory excluded is not entered; a glob with `/` matches from the root walked.
    assert_eq!(
        scanned(&dir, &["--glob", "!sub"]),
        set(&["MANIFEST.md", "a.eml", "b.EML", "data.xml"])
    );
    assert_eq!(scanned(&dir, &["--glob", "sub/*"]), set(&["sub/c.eml"]));
    // The last glob that matches decides.
    assert_eq!(
        scanned(&dir, &["--glob", "*.eml", "--glob", "!a.*"]),
        set(&["sub/c.eml"])
    );
}

/// A path given is read whatever its name, as ripgrep searches a file it is given.
#[test]
fn globs_do_not_filter_paths_given() {
    let dir = mixed_dir("globs_named");
    let output = mimebase(
        &[
            "scan",
            "--quiet",
            "--glob",
            "*.eml",
            arg(&dir.join("MANIFEST.md")),
        ],
        b"",
    );
    assert_eq!(json_lines(&output).len(), 1, "{}", stderr(&output));
}

/// `rewrite`, `extract`, `inspect` and `urls` walk with the same globs.
#[test]
fn every_command_that_walks_takes_globs() {
    let dir = mixed_dir("globs_commands");
    let out = dir.parent().unwrap().join("out");
    let output = mimebase(
        &["extract", "--glob", "*.eml", "--dir", arg(&out), arg(&dir)],
        b"",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let folders: BTreeSet<String> = files_under(&out)
        .into_iter()
        .filter(|f| f.ends_with("index.json"))
        .map(|f| {
            let folder = f.parent().unwrap().strip_prefix(&out).unwrap();
            folder.display().to_string()
        })
        .collect();
    assert_eq!(folders, set(&["in/a.eml", "in/sub/c.eml"]));

    let output = mimebase(
        &["rewrite", "--in-place", "--iglob", "!*.eml", arg(&dir)],
        b"",
    );
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(fs::read(dir.join("a.eml")).unwrap(), html_message("a"));
    assert_eq!(fs::read(dir.join("b.EML")).unwrap(), html_message("b"));
    let output = mimebase(&["rewrite", "--in-place", "--glob", "b.*", arg(&dir)], b"");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert_eq!(fs::read(dir.join("a.eml")).unwrap(), html_message("a"));
    assert_ne!(fs::read(dir.join("b.EML")).unwrap(), html_message("b"));

    for command in ["inspect", "urls"] {
        let output = mimebase(&[command, "--json", "--glob", "sub/*", arg(&dir)], b"");
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        let paths: BTreeSet<String> = json_lines(&output)
            .iter()
            .filter_map(|line| line["path"].as_str().map(str::to_owned))
            .collect();
        assert_eq!(
            paths,
            set(&[arg(&dir.join("sub/c.eml"))]),
            "{command}: {}",
            stdout(&output)
        );
    }
}

/// A glob that cannot be read is a usage error naming it, before any input is read.
#[test]
fn a_bad_glob_is_a_usage_error_naming_it() {
    let dir = mixed_dir("bad_glob");
    let out = dir.parent().unwrap().join("out");
    for args in [
        vec!["scan", "--glob", "[ab", arg(&dir)],
        vec!["inspect", "--iglob", "a{b", arg(&dir)],
        vec!["rewrite", "--in-place", "--glob", "[ab", arg(&dir)],
        vec!["extract", "--dir", arg(&out), "--glob", "[ab", arg(&dir)],
    ] {
        let output = mimebase(&args, b"");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let glob = args.iter().find(|a| a.contains(['[', '{'])).unwrap();
        assert!(
            stderr(&output).contains(&format!("\"{glob}\"")),
            "{args:?}: {}",
            stderr(&output)
        );
        assert!(output.stdout.is_empty());
    }
    assert!(!out.exists());
    assert_eq!(fs::read(dir.join("a.eml")).unwrap(), html_message("a"));
}

/// OUT inside the directory extracted: what the run (and an earlier run) wrote there is not
/// read back as mail, so a second run writes the same folders and no deeper ones.
#[test]
fn extract_passes_over_its_own_output() {
    let dir = workdir("extract_own_output");
    write(&dir.join("a.eml"), &html_message("a"));
    let out = dir.join("out");
    for run in 0..2 {
        let mut args = vec!["extract", "--dir", arg(&out), arg(&dir)];
        if run == 1 {
            args.push("--force");
        }
        let output = mimebase(&args, b"");
        assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
        assert_eq!(stdout(&output).lines().count(), 1, "{}", stdout(&output));
    }
    let name = dir.file_name().unwrap().to_str().unwrap();
    let folders: BTreeSet<PathBuf> = files_under(&out)
        .into_iter()
        .map(|f| {
            f.parent()
                .unwrap()
                .strip_prefix(&out)
                .unwrap()
                .to_path_buf()
        })
        .collect();
    assert_eq!(folders, BTreeSet::from([Path::new(name).join("a.eml")]));
}
