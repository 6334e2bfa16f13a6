//! The `mimebase` binary, spawned as a user would run it.

use std::process::{Output, Stdio};

use crate::support::cli::{MIMEBASE, command, json_lines, mimebase, output, run, stderr, stdout};
use crate::support::{corpus_or_skip, root, workdir};

/// A real message whose HTML has a `<base href>` (CNNMoney alerts, trec07p/inmail.971), as a
/// path relative to the crate, where the binary runs; `None` when the corpus is absent (the
/// test then skips).
#[track_caller]
fn cnn() -> Option<&'static str> {
    corpus_or_skip("messages/trec07p/inmail.971")?;
    Some("../shared/corpus/messages/trec07p/inmail.971")
}

#[test]
fn urls_on_real_message_with_html_base() {
    let Some(cnn) = cnn() else {
        return;
    };
    let output = mimebase(&["urls", cnn], b"");
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    assert!(
        text.lines()
            .any(|l| l == "http://money.cnn.com/magazines/fortune/\t/magazines/fortune/"),
        "{text}"
    );
}

#[test]
fn inspect_on_real_message_shows_html_base() {
    let Some(cnn) = cnn() else {
        return;
    };
    let output = mimebase(&["inspect", cnn], b"");
    assert_eq!(output.status.code(), Some(0));
    let text = stdout(&output);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(format!("== {cnn}").as_str()));
    assert_eq!(lines.next(), Some("HEADER  text/html"));
    // The summary: the message's fields as written (none is encoded).
    for line in [
        "  Subject  U.S. to file piracy complaint against China",
        "  From  \"CNNMoney.com Alerts\" <cnnalerts@mail.cnn.com>",
        "  Date  Mon, 9 Apr 2007 14:05:08 -0400",
        "  Message-ID  <5pu1v2$8dt81d@cnnimail33.turner.com>",
    ] {
        assert_eq!(lines.next(), Some(line));
    }
    assert_eq!(
        lines.next(),
        Some("  base  http://money.cnn.com/  (html:base)")
    );
    assert_eq!(lines.next(), Some("  header-level base  none"));
}

#[test]
fn stdin_by_default_and_with_dash() {
    let message = b"Base: http://b/dir/\nContent-Type: text/html\n\n<a href=\"g\">";
    for args in [&["urls"][..], &["urls", "-"][..]] {
        let output = mimebase(args, message);
        assert_eq!(output.status.code(), Some(0));
        assert_eq!(
            stdout(&output),
            "http://b/dir/\thttp://b/dir/\nhttp://b/dir/g\tg\n"
        );
    }
}

#[test]
fn unresolved_url_has_empty_first_column() {
    let output = mimebase(&["urls"], b"Content-Type: text/html\n\n<a href=\"g\">");
    assert_eq!(stdout(&output), "\tg\n");
}

#[test]
fn retrieval_url_option() {
    let output = mimebase(
        &["urls", "--retrieval-url", "http://archive/m/1"],
        b"Content-Type: text/html\n\n<img src=\"i.png\">",
    );
    assert_eq!(stdout(&output), "http://archive/m/i.png\ti.png\n");
}

#[test]
fn unreadable_input_exits_1_and_the_rest_is_processed() {
    let output = mimebase(
        &["urls", "-I", "no/such/file.eml", "-"],
        b"Base: http://b/\n\nx",
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), "http://b/\thttp://b/\n");
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with("mimebase: no/such/file.eml: "),
        "{stderr}"
    );
}

#[test]
fn several_files_in_order() {
    let Some(cnn) = cnn() else {
        return;
    };
    let output = mimebase(&["inspect", cnn, "-"], b"Subject: x\n\nbody");
    let text = stdout(&output);
    let headers: Vec<_> = text.lines().filter(|l| l.starts_with("== ")).collect();
    assert_eq!(headers, [format!("== {cnn}").as_str(), "== -"]);
}

#[test]
fn usage_error_is_claps() {
    let output = mimebase(&["frobnicate"], b"");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8(output.stderr).unwrap().contains("Usage"));
}

#[test]
fn inspect_json_one_message_record_per_input() {
    let Some(cnn) = cnn() else {
        return;
    };
    let output = mimebase(
        &["inspect", "--json", cnn, "-"],
        b"Content-Type: multipart/mixed; boundary=b\n\n--b\nContent-Type: text/html\n\n<a href=x>\n",
    );
    assert_eq!(output.status.code(), Some(0));
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[0]["type"], "message");
    assert_eq!(lines[0]["path"], cnn);
    assert_eq!(
        lines[0]["entities"][0]["base"]["url"],
        "http://money.cnn.com/"
    );
    assert_eq!(lines[0]["entities"][0]["base"]["source"], "html:base");
    let stdin = &lines[1];
    assert_eq!(stdin["path"], "-");
    assert_eq!(stdin["entities"][1]["part"], "1");
    assert_eq!(stdin["entities"][1]["parent"], "HEADER");
    assert_eq!(stdin["urls"][0]["unresolved"], "no_base");
    assert_eq!(stdin["urls"][0]["resolved"], serde_json::Value::Null);
    assert_eq!(stdin["diagnostics"][0]["kind"], "missing_close_delimiter");
    assert_eq!(stdin["diagnostics"][0]["part"], "HEADER");
}

#[test]
fn urls_json_one_record_per_url() {
    let output = mimebase(
        &[
            "urls",
            "--json",
            "--resolver",
            "rfc3986",
            "--retrieval-url",
            "http://r/a/b",
        ],
        b"Content-Type: text/html\n\n<a href=\"../x\"></a><img srcset=\"i.png 1x, j.png 2x\">",
    );
    let lines = json_lines(&output);
    let fields: Vec<_> = lines
        .iter()
        .map(|l| {
            (
                l["type"].as_str().unwrap(),
                l["source"].as_str().unwrap(),
                l["resolved"].as_str().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        fields,
        [
            ("url", "html:a@href", "http://r/x"),
            ("url", "html:img@srcset", "http://r/a/i.png"),
            ("url", "html:img@srcset", "http://r/a/j.png"),
        ]
    );
    assert!(
        lines
            .iter()
            .all(|l| l["resolver"] == "rfc3986" && l["path"] == "-")
    );
    assert_eq!(lines[0]["base"]["source"], "retrieval");
    assert_eq!(lines[0]["range"]["start"], 9);
}

#[test]
fn profile_option() {
    let message =
        b"Content-Location: http://cl/\nBase: http://b/\nContent-Type: text/html\n\n<a href=\"g\">";
    let default = json_lines(&mimebase(&["inspect", "--json"], message));
    assert_eq!(default[0]["entities"][0]["base"]["url"], "http://b/");
    let mhtml = json_lines(&mimebase(
        &["inspect", "--json", "--profile", "mhtml"],
        message,
    ));
    assert_eq!(mhtml[0]["entities"][0]["base"]["url"], "http://cl/");
}

#[test]
fn message_id_in_json() {
    let lines = json_lines(&mimebase(
        &["inspect", "--json"],
        b"Message-ID:\n <a@b>\n\nx",
    ));
    assert_eq!(lines[0]["message_id"], "<a@b>");
}

#[test]
fn rewrite_writes_the_message_with_absolute_links() {
    let input = b"Base: http://b/dir/\nContent-Type: text/html\n\n<a href=\"g\">g</a> <a href=\"http://x/\">x</a>\n";
    let output = mimebase(&["rewrite", "-"], input);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        stdout(&output),
        "Base: http://b/dir/\nContent-Type: text/html\n\n<a href=\"http://b/dir/g\">g</a> <a href=\"http://x/\">x</a>\n"
    );
    // With a retrieval URL and another resolver, from a file.
    let output = mimebase(
        &[
            "rewrite",
            "--resolver",
            "rfc3986",
            "--retrieval-url",
            "http://r/a/b",
            "samples/basestriker.eml",
        ],
        b"",
    );
    let text = stdout(&output);
    assert!(
        text.contains("<a href=\"http://phish.example.net/bank.example.com/verify/login.html\">"),
        "{text}"
    );
    assert!(text.starts_with("From: \"Account Security\" <security@bank.example.com>\n"));
}

#[test]
fn rewrite_reports_parts_left_unchanged_on_stderr() {
    let input = b"Base: http://b/\nContent-Type: text/html; charset=x-unknown\n\n<a href=\"g\">\n";
    let output = mimebase(&["rewrite"], input);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(output.stdout, input);
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("mimebase: -: part HEADER: part left unchanged: unknown charset"),
        "{stderr}"
    );
}

#[test]
fn rewrite_unreadable_file_exits_1() {
    let output = mimebase(&["rewrite", "no/such.eml"], b"");
    assert_eq!(output.status.code(), Some(1));
    assert!(output.stdout.is_empty());
}

/// Runs the binary with `env` set (`NO_COLOR`, `CLICOLOR` and `CLICOLOR_FORCE` are cleared
/// unless given).
fn mimebase_env(args: &[&str], stdin: &[u8], env: &[(&str, &str)]) -> Output {
    output(command(MIMEBASE, args).envs(env.iter().copied()), stdin)
}

// ---- Exit codes: 0 all processed, 1 some input failed, 2 usage error ----

#[test]
fn mistyped_option_is_a_usage_error_exit_2_for_every_command() {
    for args in [
        &["scan", "--jbos", "1", "samples"][..],
        &["urls", "--jbos", "1"][..],
        &["inspect", "--colour", "never"][..],
        &["rewrite", "--in-plcae"][..],
    ] {
        let output = mimebase(args, b"");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        assert!(stderr(&output).contains("Usage"), "{args:?}");
    }
}

#[test]
fn an_unusable_retrieval_url_is_a_usage_error_before_any_input_is_read() {
    let dir = workdir("retrieval");
    std::fs::write(dir.join("m.eml"), "Content-Type: text/html\n\n<a href=x>").unwrap();
    let file = dir.join("m.eml");
    let file = file.to_str().unwrap();
    for command in ["inspect", "urls", "rewrite", "scan"] {
        for url in ["archive/m/1", "//host/path", ""] {
            let output = mimebase(&[command, "--retrieval-url", url, file], b"");
            assert_eq!(output.status.code(), Some(2), "{command} {url:?}");
            assert!(output.stdout.is_empty(), "{command} {url:?}");
            let error = stderr(&output);
            assert!(error.contains("not an absolute URL"), "{error}");
            // The usage line is the command's own, not the generic `mimebase <COMMAND>`.
            assert!(
                error.contains(&format!("Usage: mimebase {command} [OPTIONS]")),
                "{error}"
            );
        }
    }
    // The whatwg resolver refuses a base it cannot parse; a scheme alone is not enough.
    let output = mimebase(
        &[
            "urls",
            "--resolver",
            "whatwg",
            "--retrieval-url",
            "http://[::1",
            file,
        ],
        b"",
    );
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("not usable as a base"));
    // Checked before standard input is read: a stdin that never ends does not block it.
    let mut child = command(MIMEBASE, &["urls", "--retrieval-url", "relative"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _open_stdin = child.stdin.take();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn resolve_failure_exits_1() {
    let output = mimebase(&["resolve", "--resolver", "whatwg", "mailto:x", "g"], b"");
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), "\n");
}

#[test]
fn scan_exit_codes() {
    let output = mimebase(&["scan", "samples/basestriker.eml"], b"");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let output = mimebase(&["scan", "samples/basestriker.eml", "no/such.eml"], b"");
    assert_eq!(output.status.code(), Some(1), "{}", stderr(&output));
    assert_eq!(stdout(&output).lines().count(), 2);
}

/// The Hadoop Streaming wrapper of docs/GUIDE.md ("Scale-out"), run as written (with the
/// binary's path): a path that cannot be read is an error line in the output and the task
/// succeeds; a mistyped option fails the task.
#[test]
fn guide_hadoop_wrapper_maps_only_exit_1_to_success() {
    let guide = std::fs::read_to_string(root().join("docs/GUIDE.md")).unwrap();
    let wrapper = guide
        .split("#!/bin/sh\n")
        .nth(1)
        .and_then(|rest| rest.split("\nSH\n").next())
        .expect("the guide's wrapper script");
    assert!(wrapper.contains("./mimebase scan"), "{wrapper}");
    let script = wrapper.replace("./mimebase", MIMEBASE);
    let sh = |script: &str, stdin: &[u8]| run("sh", &["-c", script], stdin);
    let output = sh(&script, b"samples/basestriker.eml\nno/such.eml\n");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let lines = json_lines(&output);
    assert_eq!(lines.len(), 2);
    assert_eq!(lines[1]["type"], "error");
    let mistyped = script.replace("--jobs", "--jbos");
    assert_ne!(mistyped, script);
    let output = sh(&mistyped, b"samples/basestriker.eml\n");
    assert!(!output.status.success(), "the task must fail");
    assert!(stderr(&output).contains("unexpected argument '--jbos'"));
}

// ---- Text output is escaped ----

const HOSTILE: &[u8] = b"Base: http://b/\nContent-Type: text/html\n\n\
<a href=\"x&#27;]0;pwned&#7;y\">1</a> <a href=\"x\\ny.html\">2</a> <a href=\"x&#10;y.html\">3</a>\
<a href=\"a\xc2\x9bb&#x202e;c&#127;\">4</a>\n";

/// No byte of the output is a control character other than the line feed (and the tab that
/// separates `urls` columns).
fn assert_no_controls(bytes: &[u8], allowed: &[u8]) {
    let text = String::from_utf8(bytes.to_vec()).unwrap();
    for c in text.chars() {
        let control = c.is_control() && !allowed.contains(&(c as u32 as u8));
        assert!(!control, "control {c:?} in {text:?}");
    }
}

#[test]
fn urls_escapes_controls_and_backslash_reversibly() {
    let output = mimebase(&["urls"], HOSTILE);
    assert_eq!(output.status.code(), Some(0));
    assert_no_controls(&output.stdout, b"\n\t");
    // The reference `x<LF>y.html` keeps its newline, escaped; its resolution has none (every
    // resolver removes tabs and newlines from a reference first, as the URL Standard does).
    assert_eq!(
        stdout(&output),
        "http://b/\thttp://b/\n\
         http://b/x\\x1b]0;pwned\\x07y\tx\\x1b]0;pwned\\x07y\n\
         http://b/x\\\\ny.html\tx\\\\ny.html\n\
         http://b/xy.html\tx\\ny.html\n\
         http://b/a\\u{9b}b\\u{202e}c\\x7f\ta\\u{9b}b\\u{202e}c\\x7f\n"
    );
}

#[test]
fn inspect_escapes_controls_and_backslash() {
    let output = mimebase(&["inspect", "--color", "never"], HOSTILE);
    assert_no_controls(&output.stdout, b"\n");
    let text = stdout(&output);
    assert!(
        text.contains(
            "  html:a@href  x\\x1b]0;pwned\\x07y  ->  http://b/x\\x1b]0;pwned\\x07y  (base-decided)\n"
        ),
        "{text}"
    );
    assert!(text.contains("  html:a@href  x\\\\ny.html  ->  "), "{text}");
    assert!(text.contains("  html:a@href  x\\ny.html  ->  "), "{text}");
    // Header values too: a base and a content type with an escape sequence.
    let output = mimebase(
        &["inspect"],
        b"Content-Base: http://b/\x1b[2J/\nContent-Type: text/html; x=\"\x07\"\n\n",
    );
    assert_no_controls(&output.stdout, b"\n");
    assert!(stdout(&output).contains("http://b/\\x1b[2J/"));
}

#[test]
fn diagnostics_and_names_are_escaped_on_stderr() {
    let output = mimebase(&["urls", "no/such\x1b]0;x\x07.eml"], b"");
    assert_eq!(output.status.code(), Some(1));
    assert_no_controls(&output.stderr, b"\n");
    assert!(stderr(&output).starts_with("mimebase: no/such\\x1b]0;x\\x07.eml: "));
    let output = mimebase(&["scan", "no/such\x1b]0;x\x07.eml"], b"");
    assert_no_controls(&output.stderr, b"\n");
    assert!(stderr(&output).contains("no/such\\x1b]0;x\\x07.eml"));
}

/// A diagnostic quotes message text with plain quotes and is escaped once, by the text
/// output's table (src/cli/output.rs): `\x1b`, never Rust's Debug `\u{1b}` escaped again.
/// The expected lines are that table applied by hand (no external oracle).
#[test]
fn diagnostics_are_escaped_once() {
    let message = b"Content-Base: rel\x1b[31m/\nContent-Type: text/html\n\n<a href=\"x\">a</a>\n";
    let output = mimebase(&["inspect", "--color", "never"], message);
    assert_no_controls(&output.stdout, b"\n");
    let text = stdout(&output);
    assert!(
        text.contains(
            "\n  ! Content-Base \"rel\\x1b[31m/\" is not used as a base: it is relative and \
             there is no base to resolve it against\n"
        ),
        "{text}"
    );
    assert!(!text.contains("u{1b}"), "{text}");
    // JSON keeps the raw text: one ESC, in quotes, escaped by JSON alone.
    let output = mimebase(&["inspect", "--json"], message);
    let lines = json_lines(&output);
    assert_eq!(
        lines[0]["diagnostics"][0]["message"],
        "Content-Base \"rel\u{1b}[31m/\" is not used as a base: it is relative and there is \
         no base to resolve it against"
    );
    // resolve: the reference, the base and the error, each escaped once.
    let output = mimebase(&["resolve", "x\x1bb", "y\x1bz"], b"");
    assert_eq!(output.status.code(), Some(1));
    assert_no_controls(&output.stderr, b"\n");
    assert_eq!(
        stderr(&output),
        "mimebase: \"y\\x1bz\" against \"x\\x1bb\" (rfc1808): base URL has no scheme\n"
    );
    // rfc3986 resolves against a base without a scheme, with a note on stderr.
    let output = mimebase(&["resolve", "--resolver", "rfc3986", "/a\x1b/", "b"], b"");
    assert_no_controls(&output.stderr, b"\n");
    assert_eq!(
        stderr(&output),
        "mimebase: \"/a\\x1b/b\" is a relative reference: the base \"/a\\x1b/\" has no scheme\n"
    );
}

#[test]
fn resolve_output_is_escaped() {
    let output = mimebase(&["resolve", "http://a/", "x\x1by"], b"");
    assert_eq!(stdout(&output), "http://a/x\\x1by\n");
}

// ---- rewrite: same-document references, -o, --in-place ----

#[test]
fn rewrite_keeps_same_document_references() {
    let input = b"Base: http://b/dir/\nContent-Type: text/html\n\n\
<img src=\"\"><a href=\"#top\">t</a><img usemap=\"#nav\" src=\"i.png\"><a href=\"\">e</a>\
<div style=\"clip-path: url(#c)\"></div><a href=\"g#top\">g</a>\n";
    let output = mimebase(&["rewrite"], input);
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        stdout(&output),
        "Base: http://b/dir/\nContent-Type: text/html\n\n\
<img src=\"\"><a href=\"#top\">t</a><img usemap=\"#nav\" src=\"http://b/dir/i.png\"><a href=\"\">e</a>\
<div style=\"clip-path: url(#c)\"></div><a href=\"http://b/dir/g#top\">g</a>\n"
    );
}

/// trec07p/inmail.10177 has `<a href="#nav">`: after `rewrite`, every same-document
/// reference of the message reads back as written, and the others as resolved.
#[test]
fn rewrite_keeps_same_document_references_of_real_mail() {
    if corpus_or_skip("messages/trec07p/inmail.10177").is_none() {
        return;
    }
    let path = "../shared/corpus/messages/trec07p/inmail.10177";
    let before = json_lines(&mimebase(&["urls", "--json", path], b""));
    let rewritten = mimebase(&["rewrite", path], b"");
    assert_eq!(rewritten.status.code(), Some(0));
    let after = json_lines(&mimebase(&["urls", "--json"], &rewritten.stdout));
    assert_eq!(before.len(), after.len());
    let mut same_document = 0;
    for (before, after) in before.iter().zip(&after) {
        let reference = before["reference"].as_str().unwrap();
        if before["source"].as_str().unwrap().starts_with("header:") {
            assert_eq!(after["reference"], before["reference"]);
        } else if reference.is_empty() || reference.starts_with('#') {
            same_document += 1;
            assert_eq!(after["reference"], reference);
        } else if before["resolved"].is_string() {
            assert_eq!(after["reference"], before["resolved"], "{reference}");
        }
    }
    assert!(same_document >= 1, "the message has a #fragment link");
}

#[test]
fn rewrite_to_an_output_file() {
    let dir = workdir("rewrite-o");
    let out = dir.join("out.eml");
    let input = b"Base: http://b/\nContent-Type: text/html\n\n<a href=\"g\">\n";
    let output = mimebase(&["rewrite", "-o", out.to_str().unwrap()], input);
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
    assert_eq!(
        std::fs::read(&out).unwrap(),
        b"Base: http://b/\nContent-Type: text/html\n\n<a href=\"http://b/g\">\n"
    );
    // Only the output file is left in the directory: no temporary file.
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);
    // A directory that does not exist: nothing is written, and the exit code says so.
    let missing = dir.join("no/such/dir/out.eml");
    let output = mimebase(&["rewrite", "-o", missing.to_str().unwrap()], input);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).starts_with("mimebase: writing "));
    assert!(!missing.exists());
}

#[test]
fn rewrite_in_place_replaces_the_file_whole_and_keeps_its_permissions() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = workdir("rewrite-in-place");
    let file = dir.join("m.eml");
    std::fs::write(
        &file,
        b"Base: http://b/\nContent-Type: text/html\n\n<a href=\"g\">\n",
    )
    .unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.join("link.eml");
    std::os::unix::fs::symlink("m.eml", &link).unwrap();
    let output = mimebase(&["rewrite", "--in-place", link.to_str().unwrap()], b"");
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    assert!(output.stdout.is_empty());
    assert_eq!(
        std::fs::read(&file).unwrap(),
        b"Base: http://b/\nContent-Type: text/html\n\n<a href=\"http://b/g\">\n"
    );
    assert_eq!(
        std::fs::metadata(&file).unwrap().permissions().mode() & 0o777,
        0o640
    );
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 2);

    // Standard input cannot be replaced: a usage error.
    let output = mimebase(&["rewrite", "--in-place"], b"x");
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).contains("--in-place"));
    // -o and --in-place together: a usage error.
    let output = mimebase(
        &["rewrite", "--in-place", "-o", "x", file.to_str().unwrap()],
        b"",
    );
    assert_eq!(output.status.code(), Some(2));
}

// ---- urls: file names, NUL-terminated records; JSON error records and `path` ----

#[test]
fn urls_names_the_input_with_several_inputs_as_grep_does() {
    let one = "samples/folded-base.eml";
    let two = "samples/basestriker.eml";
    let single = stdout(&mimebase(&["urls", one], b""));
    let both = stdout(&mimebase(&["urls", one, two], b""));
    assert!(!single.is_empty());
    let first: Vec<String> = single.lines().map(|l| format!("{one}\t{l}")).collect();
    let lines: Vec<&str> = both.lines().collect();
    assert_eq!(
        lines[..first.len()],
        first.iter().map(String::as_str).collect::<Vec<_>>()[..]
    );
    assert!(
        lines[first.len()..]
            .iter()
            .all(|l| l.starts_with(&format!("{two}\t")))
    );
    assert!(lines.len() > first.len());
    // -I (--no-filename) drops the names; -H (--with-filename) adds it for one input.
    let plain = stdout(&mimebase(&["urls", "-I", one, two], b""));
    assert_eq!(plain.lines().count(), lines.len());
    assert!(plain.starts_with(&single));
    assert_eq!(
        stdout(&mimebase(&["urls", "--no-filename", one, two], b"")),
        plain
    );
    assert_eq!(
        stdout(&mimebase(&["urls", "-H", one], b"")),
        first.join("\n") + "\n"
    );
    assert_eq!(
        stdout(&mimebase(&["urls", "--with-filename", one], b"")),
        first.join("\n") + "\n"
    );
}

#[test]
fn urls_null_terminated_records() {
    let output = mimebase(&["urls", "-0"], HOSTILE);
    let records: Vec<&[u8]> = output.stdout.split(|&b| b == 0).collect();
    // Five URLs, each record ended by NUL (so the last piece is empty); no newline at all.
    assert_eq!(records.len(), 6);
    assert!(records[5].is_empty());
    assert!(!output.stdout.contains(&b'\n'));
    assert_eq!(records[0], b"http://b/\thttp://b/");
    let output = mimebase(&["urls", "-0", "--json"], b"");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn inspect_and_urls_json_write_an_error_record_for_an_unreadable_input() {
    for command in ["inspect", "urls"] {
        let output = mimebase(
            &[command, "--json", "no/such.eml", "-"],
            b"Base: http://b/\n\n",
        );
        assert_eq!(output.status.code(), Some(1));
        let lines = json_lines(&output);
        assert_eq!(lines[0]["type"], "error", "{command}");
        assert_eq!(lines[0]["path"], "no/such.eml");
        assert_eq!(lines[0]["kind"], "read");
        assert!(lines[0]["message"].as_str().unwrap().len() > 3);
        assert_eq!(lines[1]["path"], "-");
        assert!(stderr(&output).starts_with("mimebase: no/such.eml: "));
    }
}

#[test]
fn every_json_record_names_its_input_path() {
    let file = "samples/basestriker.eml";
    let records = [
        json_lines(&mimebase(&["inspect", "--json", file], b"")),
        json_lines(&mimebase(&["urls", "--json", file], b"")),
        json_lines(&mimebase(&["scan", file], b"")),
    ];
    for lines in &records {
        assert!(!lines.is_empty());
        for line in lines {
            assert_eq!(line["path"], file, "{line}");
            assert!(line.get("input").is_none(), "{line}");
        }
    }
}

// ---- Conventions: colour, completions, man page, examples, resolve from stdin ----

#[test]
fn color_always_never_auto_and_no_color() {
    let file = "samples/forwarded-message.eml";
    let always = mimebase_env(&["inspect", "--color", "always", file], b"", &[]);
    assert!(always.stdout.contains(&0x1b));
    // The colours are the only difference.
    let never = mimebase_env(&["inspect", "--color", "never", file], b"", &[]);
    assert!(!never.stdout.contains(&0x1b));
    let stripped = String::from_utf8(always.stdout.clone())
        .unwrap()
        .split('\x1b')
        .enumerate()
        .map(|(i, piece)| {
            if i == 0 {
                piece
            } else {
                &piece[piece.find('m').unwrap() + 1..]
            }
        })
        .collect::<String>();
    assert_eq!(stripped, stdout(&never));
    // auto: no colour into a pipe, unless CLICOLOR_FORCE; NO_COLOR wins over both.
    let auto = mimebase_env(&["inspect", file], b"", &[]);
    assert_eq!(auto.stdout, never.stdout);
    let forced = mimebase_env(&["inspect", file], b"", &[("CLICOLOR_FORCE", "1")]);
    assert_eq!(forced.stdout, always.stdout);
    let no_color = mimebase_env(
        &["inspect", "--color", "auto", file],
        b"",
        &[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")],
    );
    assert_eq!(no_color.stdout, never.stdout);
    // An explicit --color always is obeyed even with NO_COLOR (https://no-color.org).
    let explicit = mimebase_env(
        &["inspect", "--color", "always", file],
        b"",
        &[("NO_COLOR", "1")],
    );
    assert_eq!(explicit.stdout, always.stdout);
}

/// `CLICOLOR_FORCE` forces colour only when set to a non-empty value other than `0`, and
/// `NO_COLOR` (non-empty) wins over it: the rules of <https://bixense.com/clicolors/> and
/// <https://no-color.org>. Into a pipe, so nothing else would colour.
#[test]
fn clicolor_force_zero_or_empty_does_not_force_colour() {
    let file = "samples/forwarded-message.eml";
    let always = mimebase_env(&["inspect", "--color", "always", file], b"", &[]);
    let never = mimebase_env(&["inspect", "--color", "never", file], b"", &[]);
    assert_ne!(always.stdout, never.stdout);
    for (env, coloured) in [
        (&[("CLICOLOR_FORCE", "0")][..], false),
        (&[("CLICOLOR_FORCE", "")][..], false),
        (&[("CLICOLOR_FORCE", "1")][..], true),
        (&[("CLICOLOR_FORCE", "yes")][..], true),
        (&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "")][..], true),
        (&[("CLICOLOR_FORCE", "1"), ("NO_COLOR", "1")][..], false),
        (
            &[("CLICOLOR_FORCE", "0"), ("TERM", "xterm-256color")][..],
            false,
        ),
    ] {
        let output = mimebase_env(&["inspect", "--color", "auto", file], b"", env);
        assert_eq!(output.status.code(), Some(0), "{env:?}");
        let expected = if coloured { &always } else { &never };
        assert_eq!(output.stdout, expected.stdout, "{env:?}");
    }
}

#[test]
fn completions_for_each_shell() {
    for (shell, marker) in [
        ("bash", "complete -F _mimebase"),
        ("zsh", "#compdef mimebase"),
        ("fish", "complete -c mimebase"),
        ("elvish", "mimebase"),
        ("powershell", "mimebase"),
    ] {
        let output = mimebase(&["completions", shell], b"");
        assert_eq!(output.status.code(), Some(0), "{shell}");
        let script = stdout(&output);
        assert!(script.contains(marker), "{shell}: {script}");
        assert!(script.contains("rewrite"), "{shell}");
    }
    let output = mimebase(&["completions", "tcsh"], b"");
    assert_eq!(output.status.code(), Some(2));
}

#[test]
fn bash_completion_script_loads_in_bash() {
    let script = stdout(&mimebase(&["completions", "bash"], b""));
    let output = run(
        "bash",
        &["-c", &format!("{script}\ncomplete -p mimebase")],
        b"",
    );
    assert!(output.status.success(), "{}", stderr(&output));
    assert!(stdout(&output).contains("_mimebase"));
}

#[test]
fn man_page_for_the_command_and_each_subcommand() {
    let output = mimebase(&["man"], b"");
    assert_eq!(output.status.code(), Some(0));
    let page = stdout(&output);
    assert!(page.contains(".TH mimebase 1"), "{page}");
    for section in [
        ".SH NAME",
        ".SH SYNOPSIS",
        ".SH SUBCOMMANDS",
        "mimebase\\-rewrite",
    ] {
        assert!(page.contains(section), "{section}");
    }
    let rewrite = stdout(&mimebase(&["man", "rewrite"], b""));
    assert!(rewrite.contains(".TH mimebase-rewrite 1"), "{rewrite}");
    assert!(rewrite.contains("\\-\\-in\\-place"));
    assert_eq!(mimebase(&["man", "frobnicate"], b"").status.code(), Some(2));
}

#[test]
fn help_has_examples_for_every_command() {
    for command in [
        "inspect",
        "urls",
        "rewrite",
        "resolve",
        "scan",
        "completions",
        "man",
    ] {
        let help = stdout(&mimebase(&[command, "--help"], b""));
        let examples = help
            .split("Examples:\n")
            .nth(1)
            .unwrap_or_else(|| panic!("{command}"));
        assert!(
            examples
                .lines()
                .next()
                .unwrap()
                .trim()
                .starts_with("mimebase")
                || examples.lines().next().unwrap().contains("| mimebase"),
            "{command}: {help}"
        );
    }
    assert!(stdout(&mimebase(&["--help"], b"")).contains("Examples:\n  mimebase inspect"));
}

#[test]
fn resolve_reads_references_from_stdin_when_given_none() {
    let output = mimebase(
        &["resolve", "http://a/b/c/d;p?q"],
        b"g\r\n../g\n\n#s\nmailto:x",
    );
    assert_eq!(output.status.code(), Some(0));
    assert_eq!(
        stdout(&output),
        "http://a/b/c/g\nhttp://a/b/g\nhttp://a/b/c/d;p?q\nhttp://a/b/c/d;p?q#s\nmailto:x\n"
    );
    // A `--` with nothing after it reads stdin too; a failure gives an empty line and exit 1.
    let output = mimebase(
        &["resolve", "--resolver", "whatwg", "mailto:x", "--"],
        b"g\nmailto:y\n",
    );
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(stdout(&output), "\nmailto:y\n");
}

#[test]
fn max_urls_bounds_the_urls_recorded_and_urls_says_what_it_left_out() {
    let message = b"Content-Type: text/html\nContent-Base: http://x.example/\n\n\
        <a href=\"a.html\">a</a><a href=\"b.html\">b</a><a href=\"c.html\">c</a>\n";
    let all = mimebase(&["urls"], message);
    assert_eq!(stdout(&all).lines().count(), 4);
    assert_eq!(String::from_utf8_lossy(&all.stderr), "");

    let cut = mimebase(&["urls", "--max-urls", "2"], message);
    assert_eq!(cut.status.code(), Some(0));
    assert_eq!(
        stdout(&cut),
        "http://x.example/\thttp://x.example/\nhttp://x.example/a.html\ta.html\n"
    );
    assert_eq!(
        String::from_utf8_lossy(&cut.stderr),
        "mimebase: -: incomplete: part HEADER: 2 URLs of the body are not recorded: \
         the message has more than 2 URLs\n"
    );
    let one = mimebase(&["urls", "--max-urls", "1"], message);
    assert_eq!(
        String::from_utf8_lossy(&one.stderr),
        "mimebase: -: incomplete: part HEADER: 3 URLs of the body are not recorded: \
         the message has more than 1 URLs\n"
    );
    // The report says it is not complete, and `inspect` says so on stderr too.
    let inspected = mimebase(&["inspect", "--json", "--max-urls", "1"], message);
    assert_eq!(json_lines(&inspected)[0]["complete"], false);
    assert!(
        String::from_utf8_lossy(&inspected.stderr).starts_with("mimebase: -: incomplete: "),
        "{}",
        String::from_utf8_lossy(&inspected.stderr)
    );
    assert_eq!(
        json_lines(&mimebase(&["inspect", "--json"], message))[0]["complete"],
        true
    );

    let scanned = json_lines(&mimebase(&["scan", "--max-urls", "2", "-"], message));
    assert_eq!(scanned[0]["urls"].as_array().unwrap().len(), 2);
    assert_eq!(scanned[0]["diagnostics"][0]["kind"], "url_limit");

    let rewritten = mimebase(&["rewrite", "--max-urls", "2"], message);
    assert_eq!(
        rewritten.stdout, message,
        "a part that lost URLs is left unchanged"
    );
}

/// A message of 10 005 small parts and then an HTML part: well within the entity limit, which
/// follows the message's size; its link is found and the report is complete.
#[test]
fn ten_thousand_small_parts_do_not_hide_the_html_part_after_them() {
    let mut message = b"Content-Type: multipart/mixed; boundary=b\n\n".to_vec();
    for _ in 0..10_005 {
        message.extend(b"--b\nContent-Type: text/plain\n\nx\n");
    }
    message.extend(b"--b\nContent-Type: text/html\n\n<a href=\"http://x.example/\">x</a>\n--b--\n");
    for resolver in ["rfc1808", "rfc3986", "whatwg"] {
        let urls = mimebase(&["urls", "--resolver", resolver], &message);
        assert_eq!(
            stdout(&urls),
            "http://x.example/\thttp://x.example/\n",
            "{resolver}"
        );
        assert_eq!(String::from_utf8_lossy(&urls.stderr), "", "{resolver}");
    }
    assert_eq!(
        json_lines(&mimebase(&["inspect", "--json"], &message))[0]["complete"],
        true
    );
}

/// A part past the entity limit is in no tree line: the tree shows its diagnostic at the top,
/// and `urls`, whose output cannot say it, says on stderr that the analysis is incomplete.
/// Parts of 7 bytes are far below the 512 bytes a part may average within the limit.
#[test]
fn a_limit_that_cuts_the_analysis_is_said_by_urls_and_inspect() {
    let mut message = b"Content-Type: multipart/mixed; boundary=b\n\n".to_vec();
    for _ in 0..100_000 {
        message.extend(b"--b\n\nx\n");
    }
    message.extend(b"--b\nContent-Type: text/html\n\n<a href=\"http://x.example/\">x</a>\n--b--\n");
    let limit = mimebase::Options::new().entity_limit(message.len());
    let said = format!(
        "part {limit}: more than {limit} entities; this one and the {} after it are not read",
        100_001 - limit
    );
    let note = format!("mimebase: -: incomplete: {said}\n");
    let urls = mimebase(&["urls"], &message);
    assert_eq!(urls.status.code(), Some(0));
    assert_eq!(stdout(&urls), "");
    assert_eq!(String::from_utf8_lossy(&urls.stderr), note);
    let inspect = mimebase(&["inspect"], &message);
    assert_eq!(String::from_utf8_lossy(&inspect.stderr), note);
    let tree = stdout(&inspect);
    let mut lines = tree.lines();
    assert_eq!(lines.next(), Some("== -"));
    assert_eq!(lines.next(), Some(format!("! {said}").as_str()));
    let json = json_lines(&mimebase(&["inspect", "--json"], &message));
    assert_eq!(json[0]["complete"], false);
}

/// `urls` and `inspect` read directories and Maildirs as `scan` does (the same walker: a
/// directory's files in name order, a Maildir's `cur/` then `new/` then its `.Folder`s, hidden
/// entries only with `--hidden`), each line naming its file, as `grep -r` does.
#[test]
fn urls_and_inspect_read_directories_and_maildirs() {
    let dir = workdir("directories");
    let html = |base: &str, href: &str| {
        format!("Content-Type: text/html\nContent-Base: {base}\n\n<a href=\"{href}\">x</a>\n")
    };
    for sub in [
        "Maildir/cur",
        "Maildir/new",
        "Maildir/tmp",
        "Maildir/.Sent/cur",
        "Maildir/.Sent/new",
        "plain/.hidden",
    ] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    std::fs::write(
        dir.join("Maildir/cur/1:2,S"),
        html("http://a.example/", "x"),
    )
    .unwrap();
    std::fs::write(dir.join("Maildir/new/2"), html("http://b.example/", "y")).unwrap();
    std::fs::write(dir.join("Maildir/tmp/3"), html("http://tmp.example/", "z")).unwrap();
    std::fs::write(
        dir.join("Maildir/.Sent/cur/4"),
        html("http://c.example/", "w"),
    )
    .unwrap();
    std::fs::write(dir.join("plain/a.eml"), html("http://d.example/", "v")).unwrap();
    std::fs::write(
        dir.join("plain/.hidden/h.eml"),
        html("http://e.example/", "u"),
    )
    .unwrap();
    let maildir = dir.join("Maildir");
    let urls = mimebase(&["urls", maildir.to_str().unwrap()], b"");
    assert_eq!(urls.status.code(), Some(0), "{}", stderr(&urls));
    let at = |file: &str, resolved: &str, written: &str| {
        format!("{}\t{resolved}\t{written}", maildir.join(file).display())
    };
    assert_eq!(
        stdout(&urls).lines().collect::<Vec<_>>(),
        [
            at("cur/1:2,S", "http://a.example/", "http://a.example/"),
            at("cur/1:2,S", "http://a.example/x", "x"),
            at("new/2", "http://b.example/", "http://b.example/"),
            at("new/2", "http://b.example/y", "y"),
            at(".Sent/cur/4", "http://c.example/", "http://c.example/"),
            at(".Sent/cur/4", "http://c.example/w", "w"),
        ]
    );
    let plain = dir.join("plain");
    let plain = plain.to_str().unwrap();
    let hidden_skipped = stdout(&mimebase(&["urls", plain], b""));
    assert!(!hidden_skipped.contains("e.example"), "{hidden_skipped}");
    assert!(
        hidden_skipped.contains("http://d.example/v"),
        "{hidden_skipped}"
    );
    let with_hidden = stdout(&mimebase(&["urls", "--hidden", plain], b""));
    assert!(with_hidden.contains("http://e.example/u"), "{with_hidden}");
    let inspect = stdout(&mimebase(&["inspect", plain], b""));
    assert!(
        inspect.starts_with(&format!("== {}", dir.join("plain/a.eml").display())),
        "{inspect}"
    );
}

/// `urls --fields` prints the chosen fields of each URL record, tab-separated: the same values
/// as the records of `urls --json` (the oracle here), empty where a record has none.
#[test]
fn urls_fields_are_the_json_records_columns() {
    let columns = "path,offset,part,source,reference,resolved,unresolved,error,base,base_source,resolver,target,target_by,ignored";
    let text = |value: &serde_json::Value| match value {
        serde_json::Value::Null => String::new(),
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let mut all = Vec::new();
    for name in ["html-mail-inline-images.eml", "base-after-links.eml"] {
        let sample = root().join("samples").join(name);
        let sample = sample.to_str().unwrap();
        let tsv = mimebase(&["urls", "--fields", columns, sample], b"");
        assert_eq!(tsv.status.code(), Some(0), "{}", stderr(&tsv));
        let records = json_lines(&mimebase(&["urls", "--json", sample], b""));
        let printed = stdout(&tsv);
        let lines: Vec<&str> = printed.lines().collect();
        assert_eq!(lines.len(), records.len());
        for (line, record) in lines.iter().zip(&records) {
            let expected = [
                text(&record["path"]),
                text(&record["offset"]),
                text(&record["part"]),
                text(&record["source"]),
                text(&record["reference"]),
                text(&record["resolved"]),
                text(&record["unresolved"]),
                text(&record["error"]),
                text(&record["base"]["url"]),
                text(&record["base"]["source"]),
                text(&record["resolver"]),
                text(&record["target"]["part"]),
                text(&record["target"]["by"]),
                text(&record["ignored"]),
            ];
            assert_eq!(line.split('\t').collect::<Vec<_>>(), expected, "{line}");
        }
        all.extend(records);
    }
    assert!(all.iter().any(|r| r["target"]["by"] == "cid"));
    assert!(all.iter().any(|r| r["ignored"] == "not_first"));
    let sample = root().join("samples/html-mail-inline-images.eml");
    let sample = sample.to_str().unwrap();
    let refused = mimebase(&["urls", "--fields", "part", "--json", sample], b"");
    assert_eq!(refused.status.code(), Some(2));
    // `-H` puts the input's name first, as it does before `resolved<TAB>reference`.
    let bare = mimebase(&["urls", "--fields", "resolved,part", sample], b"");
    let named = mimebase(&["urls", "-H", "--fields", "resolved,part", sample], b"");
    assert!(bare.status.success() && named.status.success());
    let bare = String::from_utf8(bare.stdout).unwrap();
    let named = String::from_utf8(named.stdout).unwrap();
    assert!(!bare.is_empty());
    let expected: String = bare
        .lines()
        .map(|line| format!("{sample}\t{line}\n"))
        .collect();
    assert_eq!(named, expected);
}

/// `inspect` says of each base that does not apply that it is ignored, and why; `--json`
/// gives the reason.
#[test]
fn inspect_shows_the_ignored_bases() {
    let message = "Content-Base: http://cb.example/\n\
        Content-Location: http://cl.example/\n\
        Content-Type: text/html\n\n\
        <base href=\"http://one.example/\"><base href=\"http://two.example/\">\n";
    // --all: the base that applies is an absolute URL resolved to itself, left out otherwise.
    let output = mimebase(&["inspect", "--all"], message.as_bytes());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines.contains(
            &"  header:Content-Location  http://cl.example/  ->  http://cl.example/  (ignored: Content-Base takes precedence)"
        ),
        "{text}"
    );
    assert!(
        lines.contains(
            &"  html:base@href  http://two.example/  ->  http://two.example/  (ignored: not the first <base href>)"
        ),
        "{text}"
    );
    assert!(
        lines.contains(&"  html:base@href  http://one.example/  ->  http://one.example/"),
        "{text}"
    );
    let json = json_lines(&mimebase(&["inspect", "--json"], message.as_bytes()));
    let ignored: Vec<_> = json[0]["urls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|url| url["ignored"].as_str())
        .collect();
    assert_eq!(
        ignored,
        [
            None,
            Some("overridden_by:header:Content-Base"),
            None,
            Some("not_first")
        ]
    );
}

/// `inspect` starts each message with its summary, RFC 2047 decoded and escaped as all text
/// output is (a Subject that decodes to a terminal escape and a bidi override shows them as
/// escapes), `(none)` for a missing field; `--json` has the `summary` object, `null` there.
#[test]
fn inspect_shows_the_summary_decoded_and_escaped() {
    let message = "Subject: =?utf-8?q?pay=1B]0;x=07_now=E2=80=AE?=\n\
        From: =?utf-8?q?Bank?= <a@b.example>\n\
        Content-Type: message/rfc822\n\n\
        Subject: inner\nMessage-ID: <in@x>\n\nbody\n";
    let output = mimebase(&["inspect"], message.as_bytes());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let text = stdout(&output);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[1..],
        [
            "HEADER  message/rfc822",
            "  Subject  pay\\x1b]0;x\\x07 now\\u{202e}",
            "  From  Bank <a@b.example>",
            "  Date  (none)",
            "  Message-ID  (none)",
            "  base  none",
            "  1.HEADER  text/plain",
            "    Subject  inner",
            "    From  (none)",
            "    Date  (none)",
            "    Message-ID  <in@x>",
            "    base  none",
        ]
    );
    let json = json_lines(&mimebase(&["inspect", "--json"], message.as_bytes()));
    assert_eq!(
        json[0]["summary"],
        serde_json::json!({
            "subject": "pay\u{1b}]0;x\u{7} now\u{202e}",
            "from": "Bank <a@b.example>",
            "date": null,
            "message_id": null,
        })
    );
    assert_eq!(
        json[0]["entities"][1]["summary"],
        serde_json::json!({"subject": "inner", "from": null, "date": null, "message_id": "<in@x>"})
    );
    assert_eq!(json[0]["entities"][0].get("summary"), None);
}
